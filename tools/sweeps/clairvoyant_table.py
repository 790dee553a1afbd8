#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tables of clairvoyant_perf.sh's CSVs (papcoll-bench --format=csv, simulated): per arrival pattern,
one row per algorithm (SMPI's own reduces as smpi:NAME), one column per size, each cell
"e_root / e_bar / after" in microseconds (medians over the repetitions).

    python3 tools/sweeps/clairvoyant_table.py OUTDIR > OUTDIR/clairvoyant.md
    python3 tools/sweeps/clairvoyant_table.py --summary OUTDIR   # docs/performance.md's rows:
        papcoll's four and the SMPI reduce of the lowest e_bar, at 8 B, 4 KiB and 64 KiB
"""
import csv
import glob
import os
import sys

ORDER = ["clairvoyant", "binomial", "dynleader_flat", "dynleader_onesided"]


def size_label(b):
    return f"{b // 1024} KiB" if b >= 1024 else f"{b} B"


def main(out, summary=False):
    cells, patterns, sizes, algos, p = {}, [], set(), [], None
    ebar = {}
    for path in sorted(glob.glob(os.path.join(out, "reduce_*.csv"))):
        who = path.rsplit("_", 1)[1][:-4]
        with open(path) as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                algo = row["algo"] if who == "papcoll" else "smpi:" + who[len("smpi-"):]
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
    algos.sort(key=lambda a: (ORDER.index(a) if a in ORDER else len(ORDER), a))
    sizes = sorted(sizes)
    if summary:
        print("| pattern, size | " + " | ".join(f"`{a}`" for a in ORDER) + " | best SMPI reduce |")
        print("|---|" + "---|" * (len(ORDER) + 1))
        for pat in patterns:
            for size in (8, 4096, 65536):
                smpi = [a for a in algos if a.startswith("smpi:") and (pat, a, size) in ebar]
                if not smpi:
                    continue
                best = min(smpi, key=lambda a: ebar[(pat, a, size)])
                row = [cells.get((pat, a, size), "-") for a in ORDER] + [f"{cells[(pat, best, size)]} ({best[5:]})"]
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
    main(args[-1], summary="--summary" in args)
