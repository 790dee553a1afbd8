# SPDX-License-Identifier: BSD-3-Clause
"""Replay files: each call site's recorded arrival offsets, for `papcoll-bench --pattern=trace:FILE[:SITE]`
(bench/pattern.c, docs/benchmark.md).

OUT/replay/<site>.csv, one per call site and collective: `#` comment lines (the site, the collective, the size, the
papcoll-bench command that replays it), then one row per recorded call, in the order of the run: the arrival
offsets in seconds of the communicator's ranks 0..p-1 after the call's earliest arrival, comma-separated.  For a
rooted collective (bcast, reduce, gather(v), scatter(v)) each row is rotated so that the call's root is column 0:
replayed with `-k fixed:0`, the root keeps its recorded lateness even when the application rotated its root.  A
site whose calls ran on communicators of different sizes keeps the calls of its most frequent size (the comment
says how many were left out).  papcoll-bench cycles over the rows, one per repetition, and gives rank i column
i mod p.

OUT/replay/all.csv holds every site's rows, each prefixed by the site's name (the file name without .csv):
`--pattern=trace:OUT/replay/all.csv:NAME` replays the one site NAME."""
from __future__ import annotations

import collections
import os
import re

ROOTED = ("bcast", "reduce", "gather", "gatherv", "scatter", "scatterv")


def site_name(collective, label, taken):
    """A file-name-safe, unique name for (collective, call site label): `bcast-floyd_warshall.c_88`."""
    base = re.sub(r"[^A-Za-z0-9_.+-]+", "_", f"{collective}-{label}").strip("_")[:120]
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name


def offsets(call):
    """The call's arrival offsets (s) after its earliest arrival, in communicator rank order, rotated so that a
    rooted call's root comes first."""
    a = (call.arrive - call.arrive.min()) * 1e-9
    order = list(call.comm_ranks)
    by_rank = dict(zip(order, a))
    p = call.size
    if call.base in ROOTED and 0 <= call.root < p:
        return [by_rank[(i + call.root) % p] for i in range(p)]
    return [by_rank[i] for i in range(p)]


def write_all(out, groups, aggs):
    """Writes OUT/replay/*.csv for the blocking sites of groups ({(label, coll): {"rows": [...]}}); sets each
    aggregate's "replay" (the file, relative to OUT) and "replay_p" / "replay_calls"; returns the directory."""
    directory = os.path.join(out, "replay")
    os.makedirs(directory, exist_ok=True)
    taken, combined = set(), []
    by_key = {(a["site"], a["collective"]): a for a in aggs}
    for (label, coll), g in sorted(groups.items()):
        calls = [r["call_obj"] for r in g["rows"] if not r["call_obj"].nonblocking]
        if not calls:
            continue
        sizes = collections.Counter(c.size for c in calls)
        p = sizes.most_common(1)[0][0]
        kept = [c for c in calls if c.size == p]
        name = site_name(coll, label, taken)
        size = max(int(c.bytes.max()) for c in kept)
        rooted = coll in ROOTED
        rows = [offsets(c) for c in kept]
        path = os.path.join(directory, name + ".csv")
        with open(path, "w") as fh:
            fh.write(f"# papcoll trace replay (docs/trace.md): site {label}, collective {coll}, {len(kept)} calls of "
                     f"{p} processes, up to {size} bytes" +
                     (f"; {len(calls) - len(kept)} calls on communicators of other sizes left out" if len(kept) <
                      len(calls) else "") + "\n")
            fh.write("# one row per recorded call: arrival offsets in seconds of ranks 0..p-1 after the call's "
                     "earliest arrival" + (", rotated so that the call's root is rank 0" if rooted else "") + "\n")
            fh.write(f"# papcoll-bench --coll={coll} -m {size}{' -k fixed:0' if rooted else ''} "
                     f"--pattern=trace:{path}\n")
            for row in rows:
                fh.write(",".join(f"{x:.9e}" for x in row) + "\n")
                combined.append(name + "," + ",".join(f"{x:.9e}" for x in row))
        a = by_key.get((label, coll))
        if a is not None:
            a["replay"] = os.path.relpath(path, out)
            a["replay_p"], a["replay_calls"], a["replay_name"] = p, len(kept), name
    with open(os.path.join(directory, "all.csv"), "w") as fh:
        fh.write("# papcoll trace replay (docs/trace.md): every call site; the first field names the site, "
                 "--pattern=trace:all.csv:NAME replays one\n")
        fh.write("\n".join(combined) + ("\n" if combined else ""))
    return directory
