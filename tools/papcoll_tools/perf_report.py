# SPDX-License-Identifier: BSD-3-Clause
"""papcoll perf report: papcoll's collectives against SMPI's own, per collective, size and arrival pattern.

Reads papcoll-bench CSV files (tools/sweeps/bcast_perf.sh and reduce_perf.sh write one per run);
rows of a run made with ``papcoll sim run --baseline=NAME`` (algo ``native``,
metadata ``baseline SMPI <coll> NAME``) become algorithm ``smpi:NAME``; papcoll's
own ``native`` rows are dropped (under SMPI they are the coll-selector's choice,
already among the baselines).  Writes OUTDIR/perf.md (one table per collective and
size: e_bar per algorithm and pattern, then auto's and the best papcoll algorithm's
ratio to the best SMPI algorithm of that collective) and a figure per table:
OUTDIR/perf_<size>.png for bcast, OUTDIR/perf_<coll>_<size>.png for the others.
--coll keeps one collective (default: every collective in the files); --metric=after_last
reports the time from the last arrival to the last exit instead of e_bar (a barrier's measure).
"""
from __future__ import annotations

import argparse
import csv
import os
import re
from collections import defaultdict

BASELINE_RE = re.compile(r"baseline SMPI (\w+) (\S+)")
NAMES = {"bcast": "broadcast", "reduce": "reduce", "allreduce": "allreduce", "allgather": "allgather",
         "alltoall": "alltoall", "gather": "gather", "scatter": "scatter", "reduce_scatter": "reduce_scatter",
         "barrier": "barrier"}
METRICS = {"e_bar": "e_bar in microseconds (mean over processes of arrival-to-exit time, median over repetitions)",
           "after_last": "after_last in microseconds (from the last arrival to the last exit, median over repetitions)"}


def read(paths, coll=None, metric="e_bar"):
    """({(coll, size, pattern): {algo: METRIC seconds}}, metadata of the first file, p); COLL keeps one collective."""
    table, meta, p = defaultdict(dict), {}, None
    for path in paths:
        baseline, lines = None, []
        with open(path, newline="") as f:
            for line in f:
                if line.startswith("#@"):
                    key, _, value = line[2:].rstrip("\n").partition("=")
                    meta.setdefault(key, value)
                    m = BASELINE_RE.search(value) if key == "smpi_settings" else None
                    baseline = m.group(2) if m else baseline
                elif not line.startswith("#"):
                    lines.append(line)
        for row in csv.DictReader(lines):
            algo = row["algo"]
            if coll and row["coll"] != coll:
                continue
            if algo == "native":
                if not baseline:
                    continue
                algo = f"smpi:{baseline}"
            p = int(row["p"])
            table[(row["coll"], int(row["size"]), row["pattern"])][algo] = float(row[metric])
    return table, meta, p


def size_text(n):
    for unit, suffix in ((1 << 20, " MiB"), (1 << 10, " KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{suffix}"
    return f"{n} B"


def sections(table):
    """(coll, size) of every table, broadcast first: the sizes at which some papcoll algorithm ran (baselines may
    have run more sizes in one launch)."""
    order = list(NAMES)
    found = {(c, s) for (c, s, _), algos in table.items() if any(not a.startswith("smpi:") for a in algos)}
    return sorted(found, key=lambda cs: (order.index(cs[0]) if cs[0] in order else len(order), cs[0], cs[1]))


def pattern_order(patterns):
    def key(pat):
        kind = pat.split(":")[0]
        return (["balanced", "uniform", "late", "microbench"].index(kind) if kind in
                ("balanced", "uniform", "late", "microbench") else 9, pat.split(":")[1:] and
                float(pat.split(":")[-1]) or 0)
    return sorted(patterns, key=key)


def summary(times):
    """(best SMPI algo, its time, best papcoll algo, its time, auto's time)."""
    peers = {a: t for a, t in times.items() if a.startswith("smpi:")}
    ours = {a: t for a, t in times.items() if not a.startswith("smpi:") and a != "auto"}
    bp = min(peers, key=peers.get) if peers else None
    bo = min(ours, key=ours.get) if ours else None
    return bp, peers.get(bp), bo, ours.get(bo), times.get("auto")


def _patterns_and_algos(table, coll, size):
    pats = pattern_order({pat for c, s, pat in table if (c, s) == (coll, size)})
    algos = sorted({a for (c, s, _), t in table.items() if (c, s) == (coll, size) for a in t},
                   key=lambda a: (a.startswith("smpi:"), a == "auto", a))
    return pats, algos


def markdown(table, meta, p, metric="e_bar"):
    colls = sorted({c for c, _ in sections(table)})
    out = [f"Simulated (SimGrid SMPI): {meta.get('smpi_settings', '?')}; p = {p}.",
           f"{METRICS[metric]}; "
           "`smpi:NAME` = SMPI's own algorithm NAME of the table's collective "
           f"({', '.join(colls)}).", ""]
    for coll, size in sections(table):
        pats, algos = _patterns_and_algos(table, coll, size)
        what = NAMES.get(coll, coll)
        out += [f"### {what}, {size_text(size)}", "", f"| {coll} algorithm | " + " | ".join(pats) + " |",
                "|---|" + "---:|" * len(pats)]
        for a in algos:
            cells = []
            for pat in pats:
                t = table[(coll, size, pat)].get(a)
                cells.append("-" if t is None else f"{t * 1e6:.1f}")
            out.append(f"| `{a}` | " + " | ".join(cells) + " |")
        best_smpi = f"best SMPI {what}"
        rows = {best_smpi: [], "best papcoll algorithm": [], "auto / best SMPI": [],
                "best papcoll / best SMPI": [], "regret: auto / best of either": []}
        for pat in pats:
            bp, tp, bo, to, ta = summary(table[(coll, size, pat)])
            rows[best_smpi].append(f"{bp} {tp * 1e6:.1f}" if bp else "-")
            rows["best papcoll algorithm"].append(f"{bo} {to * 1e6:.1f}" if bo else "-")
            rows["auto / best SMPI"].append(f"{ta / tp:.2f}" if ta and tp else "-")
            rows["best papcoll / best SMPI"].append(f"{to / tp:.2f}" if to and tp else "-")
            best = min(t for t in (tp, to) if t) if (tp or to) else None
            rows["regret: auto / best of either"].append(f"{ta / best:.2f}" if ta and best else "-")
        for name, cells in rows.items():
            out.append(f"| **{name}** | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def plot(table, p, outdir, metric="e_bar"):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from . import plot as plotting
    files = []
    for coll, size in sections(table):
        pats, algos = _patterns_and_algos(table, coll, size)
        fig, ax = plt.subplots(figsize=(11, 6))
        for i, a in enumerate(algos):
            ys = [table[(coll, size, pat)].get(a) for pat in pats]
            xs = [j for j, y in enumerate(ys) if y is not None]
            style = dict(marker="o", linewidth=2.5, color="black") if a == "auto" else \
                dict(marker="s", linestyle="--") if a.startswith("smpi:") else dict(marker=".", alpha=0.8)
            ax.plot(xs, [ys[j] * 1e6 for j in xs], label=a, **style)
        ax.set_xticks(range(len(pats)))
        ax.set_xticklabels(pats)
        ax.set_yscale("log")
        ax.set_xlabel("arrival pattern (delays in units of T)")
        ax.set_ylabel(f"{metric} (us, simulated)")
        ax.set_title(f"{NAMES.get(coll, coll)} of {size_text(size)}, {p} ranks (simulated, SimGrid SMPI)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2, loc="center left", bbox_to_anchor=(1.0, 0.5))
        name = f"perf_{size}.png" if coll == "bcast" else f"perf_{coll}_{size}.png"  # bcast: the names docs link to
        files.append(plotting.save(fig, os.path.join(outdir, name)))
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("-o", "--outdir", required=True)
    ap.add_argument("--coll", choices=sorted(NAMES), help="report this collective only (default: every one in the files)")
    ap.add_argument("--metric", choices=sorted(METRICS), default="e_bar",
                    help="e_bar (default: mean over processes of arrival-to-exit time) or after_last (last arrival to "
                    "last exit: a barrier's measure)")
    args = ap.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    table, meta, p = read(args.csv, args.coll, args.metric)
    if not table:
        raise SystemExit("papcoll perf report: no rows" + (f" of {args.coll}" if args.coll else ""))
    text = markdown(table, meta, p, args.metric)
    with open(os.path.join(args.outdir, "perf.md"), "w") as f:
        f.write(text + "\n")
    for path in plot(table, p, args.outdir, args.metric):
        text += f"\n![{os.path.basename(path)}]({os.path.basename(path)})"
    print(text)


if __name__ == "__main__":
    main()
