#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tables of a reduce sweep's CSVs (coll_perf.sh, clairvoyant_perf.sh: papcoll-bench --format=csv,
simulated): per arrival pattern, one row per algorithm (SMPI's own reduces as smpi:NAME), one column per
size, each cell "e_root / e_bar / after" in microseconds (medians over the repetitions).

    python3 tools/sweeps/reduce_table.py OUTDIR > OUTDIR/clairvoyant.md
    python3 tools/sweeps/reduce_table.py --summary OUTDIR   # docs/performance.md's rows:
        the --order algorithms and the SMPI reduce of the lowest e_bar, at --sizes
    python3 tools/sweeps/reduce_table.py --fold OUTDIR      # per-run CSVs -> OUTDIR/runs.csv
Options: --coll=NAME the per-run files' collective (default reduce: reduce_*.csv; allreduce_*.csv for an
allreduce sweep, whose e_root is nan); --order=a,b,... the algorithms first (and the summary's columns; default clairvoyant's
comparison: clairvoyant,binomial,dynleader_flat,dynleader_onesided); --sizes=n,n,... the summary's sizes
in bytes (default 8,4096,65536); --fold merges OUTDIR's per-run files (reduce_<pattern>_<sizes>_<who>.csv)
into runs.csv, one row per benchmark row with its file's name (`run`) first, and removes them; the tables
read either form; --help.
"""
import csv
import glob
import os
import sys

ORDER = ["clairvoyant", "binomial", "dynleader_flat", "dynleader_onesided"]
SUMMARY_SIZES = [8, 4096, 65536]


def size_label(b):
    return f"{b // 1024} KiB" if b >= 1024 else f"{b} B"


def runs(out, coll="reduce"):
    """(run, row) of every benchmark row in out: the per-run files' (<coll>_<pattern>_<sizes>_<who>.csv, run = the
    file's name) and runs.csv's."""
    for path in sorted(glob.glob(os.path.join(out, f"{coll}_*.csv"))):
        with open(path) as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                yield os.path.basename(path)[:-4], row
    folded = os.path.join(out, "runs.csv")
    if os.path.exists(folded):
        with open(folded) as f:
            for row in csv.DictReader(f):
                yield row.pop("run"), row


def fold(out, coll="reduce"):
    rows = list(runs(out, coll))
    if not rows:
        return
    columns = ["run"] + [k for k in rows[0][1]]
    with open(os.path.join(out, "runs.csv.tmp"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        for run, row in sorted(rows, key=lambda r: r[0]):
            w.writerow({"run": run, **row})
    for path in glob.glob(os.path.join(out, f"{coll}_*.csv")):
        os.remove(path)
    os.replace(os.path.join(out, "runs.csv.tmp"), os.path.join(out, "runs.csv"))


def main(out, summary=False, order=ORDER, summary_sizes=SUMMARY_SIZES, coll="reduce"):
    cells, patterns, sizes, algos, p = {}, [], set(), [], None
    ebar = {}
    for run, row in runs(out, coll):
        who = run.rsplit("_", 1)[1]
        algo = row["algo"] if who.startswith("papcoll") else "smpi:" + who[len("smpi-"):]
        if algo == "auto":
            continue
        pat, size = row["pattern"], int(row["size"])
        p = row["p"]
        if pat not in patterns:
            patterns.append(pat)
        if algo not in algos:
            algos.append(algo)
        sizes.add(size)
        us = [float(row[k]) * 1e6 for k in ("e_root", "e_bar", "after_last")]
        cells[(pat, algo, size)] = "%.1f / %.2f / %.1f" % tuple(us)
        ebar[(pat, algo, size)] = us[1]
    algos.sort(key=lambda a: (order.index(a) if a in order else len(order), a))
    sizes = sorted(sizes)
    if summary:
        print("| pattern, size | " + " | ".join(f"`{a}`" for a in order) + " | best SMPI reduce |")
        print("|---|" + "---|" * (len(order) + 1))
        for pat in patterns:
            for size in summary_sizes:
                smpi = [a for a in algos if a.startswith("smpi:") and (pat, a, size) in ebar]
                if not smpi:
                    continue
                best = min(smpi, key=lambda a: ebar[(pat, a, size)])
                row = [cells.get((pat, a, size), "-") for a in order] + [f"{cells[(pat, best, size)]} ({best[5:]})"]
                print(f"| {pat}, {size_label(size)} | " + " | ".join(row) + " |")
        return
    print(f"Simulated (SimGrid SMPI), {p} ranks; each cell: e_root / e_bar / after the last arrival, us "
          "(medians over the repetitions).\n")
    for pat in patterns:
        print(f"**{pat}**\n")
        print("| algorithm | " + " | ".join(size_label(s) for s in sizes) + " |")
        print("|---|" + "---:|" * len(sizes))
        for a in algos:
            if any((pat, a, s) in cells for s in sizes):
                print(f"| `{a}` | " + " | ".join(cells.get((pat, a, s), "-") for s in sizes) + " |")
        print()


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--help" in args or not args:
        print(__doc__)
        sys.exit(0 if args else 2)
    opts = dict(a[2:].split("=", 1) for a in args[:-1] if a.startswith("--") and "=" in a)
    coll = opts.get("coll", "reduce")
    if "--fold" in args:
        fold(args[-1], coll)
        sys.exit(0)
    main(args[-1], summary="--summary" in args,
         order=opts["order"].split(",") if "order" in opts else ORDER,
         summary_sizes=[int(x) for x in opts["sizes"].split(",")] if "sizes" in opts else SUMMARY_SIZES, coll=coll)
