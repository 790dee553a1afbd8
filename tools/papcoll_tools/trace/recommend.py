# SPDX-License-Identifier: BSD-3-Clause
"""`papcoll trace report RUN --recommend`: for each call site, which papcoll algorithm is fastest when that site's
recorded arrivals are replayed, written as tune rules (docs/trace.md, docs/tuning.md).

For every blocking call site of a collective papcoll-bench measures, with a message (bytes > 0) and a replay file
(replay.py), the report runs natively

    MPIRUN -np N BENCH --coll=COLL -m SIZE:SIZE --algo=CANDIDATES --pattern=trace:OUT/replay/SITE.csv [-k fixed:0]
           --format=csv -i ITERS -x WARMUP [BENCH_ARGS]

with N = min(p, --np) (rank i replays column i of the recorded offsets: with N < p, the first N ranks' offsets),
reads e_bar (the mean time from arrival to exit) per algorithm from its CSV, and names the fastest papcoll algorithm
(`auto` is measured for comparison but is not a rule's target; a repetition set that failed its check or had no
valid repetition does not count).  The rule is `COLL[p==P,bytes<=B]=ALGO` with P the site's communicator size and B
the selector's bytes (papcoll-tune's convention: the whole vector, p x the block for the block collectives).  Sites
of one collective, p and size are merged by their calls' total time (e_bar x calls summed over the sites, per
algorithm measured at every one of them; none: the winner of the site with the most calls); rules are ordered by
size, so that each size range takes the rule of the smallest traced size above it.

When the benchmark cannot run (no BENCH, no MPIRUN, or it fails), the report prints the commands instead, and
OUT/replay/recommend.sh holds them."""
from __future__ import annotations

import csv
import dataclasses
import io
import os
import shlex
import shutil
import subprocess

from ..tune import BLOCK_COLLS, size_text

BENCH_COLLS = ("bcast", "reduce", "allreduce", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block",
               "alltoall", "alltoallv", "gather", "gatherv", "scatter", "scatterv")
ROOTED = ("bcast", "reduce", "gather", "gatherv", "scatter", "scatterv")


@dataclasses.dataclass
class Outcome:
    site: str
    collective: str
    size: int          # the benchmark's size (papcoll-bench -m)
    p: int             # the site's communicator size
    np: int            # processes the benchmark ran
    calls: int
    command: list
    times: dict        # algo -> e_bar seconds (papcoll's candidates and auto)
    winner: str = ""
    note: str = ""


def default_bench():
    found = shutil.which("papcoll-bench")
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    guess = os.path.normpath(os.path.join(here, "..", "..", "..", "build", "bench", "papcoll-bench"))
    return guess if os.path.exists(guess) else None


def command(agg, out, bench, algos, np_max, mpirun, iters, warmup, bench_args):
    coll, p = agg["collective"], agg["replay_p"]
    n = max(1, min(p, np_max))
    cmd = shlex.split(mpirun) + ["-np", str(n), bench or "papcoll-bench", f"--coll={coll}",
                                 f"-m{agg['bytes_max']}:{agg['bytes_max']}", f"--algo={algos}",
                                 f"--pattern=trace:{os.path.join(out, agg['replay'])}", "--format=csv",
                                 f"-i{iters}", f"-x{warmup}"]
    if coll in ROOTED:
        cmd.append("-kfixed:0")
    return n, cmd + shlex.split(bench_args or "")


MIN_VALID = 3  # repetitions an algorithm must have started on time to count


def parse_csv(text):
    """({algo: e_bar seconds}, [algos left out]) from papcoll-bench --format=csv output: an algorithm counts when
    its check did not fail and at least MIN_VALID repetitions (all, if fewer ran) started on time."""
    body = [line for line in text.splitlines() if line and not line.startswith("#")]
    times, dropped = {}, []
    for row in csv.DictReader(io.StringIO("\n".join(body))):
        try:
            t, valid, reps = float(row["e_bar"]), int(row["valid_reps"]), int(row["reps"])
        except (KeyError, ValueError, TypeError):
            continue
        if t != t or row.get("check", "").lower().startswith("fail") or valid < min(MIN_VALID, reps):
            dropped.append(row["algo"])
            continue
        times[row["algo"]] = t
    return times, dropped


def eligible(agg):
    """None when the site can be replayed by papcoll-bench, else the reason."""
    if agg["collective"] not in BENCH_COLLS:
        return f"papcoll-bench does not measure {agg['collective']}"
    if not agg.get("replay"):
        return "no replay file (nonblocking posts only)"
    if agg["bytes_max"] <= 0:
        return "no message (0 bytes)"
    return None


def run_all(aggs, out, bench=None, algos="all,auto", np_max=4, mpirun="mpirun", iters=20, warmup=2,
            bench_args="", timeout=600):
    """Outcome per eligible site, the benchmark run when it can be (else its command only, with the reason)."""
    bench = bench or default_bench()
    launcher = shlex.split(mpirun)[0] if mpirun.strip() else ""
    problem = None
    if not bench or not os.access(bench, os.X_OK):
        problem = f"not run: no papcoll-bench at {bench!r} (--bench PATH)" if bench else \
            "not run: no papcoll-bench found (--bench PATH)"
    elif not launcher or not shutil.which(launcher):
        problem = f"not run: no launcher {launcher!r} (--mpirun)"
    outcomes = []
    for agg in aggs:
        if eligible(agg):
            continue
        n, cmd = command(agg, out, bench, algos, np_max, mpirun, iters, warmup, bench_args)
        o = Outcome(agg["site"], agg["collective"], agg["bytes_max"], agg["replay_p"], n, agg["calls"], cmd, {})
        notes = [f"replayed on {n} of {o.p} processes (the first {n} columns)"] if n < o.p else []
        if problem:
            o.note = "; ".join(notes + [problem])
            outcomes.append(o)
            continue
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
            text = proc.stdout if proc.returncode == 0 else ""
            err = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] if proc.returncode else []
        except (OSError, subprocess.SubprocessError) as e:
            text, err = "", [str(e)]
        o.times, dropped = parse_csv(text)
        if dropped:
            notes.append(f"left out (fewer than {MIN_VALID} repetitions started on time, or a failed check): "
                         + ", ".join(dropped))
        ours = {a: t for a, t in o.times.items() if a != "auto"}
        if ours:
            o.winner = min(ours, key=ours.get)
        else:
            notes.append("benchmark failed" + (f": {err[0]}" if err else ": no result"))
        o.note = "; ".join(notes)
        outcomes.append(o)
    return outcomes


def selector_bytes(o):
    return o.size * o.p if o.collective in BLOCK_COLLS else o.size


def rules(outcomes):
    """Tune rules from the measured outcomes (module doc), ordered by collective, p and size.  Sites of one
    (collective, p, selector bytes) are merged over the algorithms measured at every one of them, by total time (e_bar
    x calls); when no algorithm was measured at all of them, the winner of the site with the most calls."""
    groups = {}
    for o in outcomes:
        if o.winner:
            groups.setdefault((o.collective, o.p, selector_bytes(o)), []).append(o)
    out = []
    for (coll, p, sel), sites in sorted(groups.items()):
        common = set.intersection(*({a for a in o.times if a != "auto"} for o in sites))
        if common:
            total = {a: sum(o.times[a] * o.calls for o in sites) for a in common}
            best = min(sorted(total), key=total.get)
        else:
            best = max(sites, key=lambda o: o.calls).winner
        out.append(f"{coll}[p=={p},bytes<={size_text(sel)}]={best}")
    return out


def script(outcomes, path):
    with open(path, "w") as fh:
        fh.write("#!/bin/sh\n# papcoll trace report --recommend: the benchmark runs of the per-site recommendation\n")
        for o in outcomes:
            fh.write(f"# {o.site} {o.collective}\n" + " ".join(shlex.quote(x) for x in o.command) + "\n")
    os.chmod(path, 0o755)
    return path
