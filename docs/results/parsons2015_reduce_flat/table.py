# SPDX-License-Identifier: BSD-3-Clause
"""Table 3.6's averages (Parsons 2015: 4 buffer sizes x 6 levels of imbalance) of e_bar(baseline) /
e_bar(dynleader_flat), per world size, from run.sh's CSVs (a directory) or from the e_bar CSV this
script writes (--to-csv FILE: world, level, size, algo, e_bar)."""
import argparse
import glob
import io
import os
import re

import pandas as pd

SIZES = [32, 512, 8192, 131072]  # the thesis's appendix A sizes
ALGO = "dynleader_flat"
BASELINES = {"binomial": "papcoll's MPICH binomial (the thesis's baseline)", "native": "SMPI's binomial reduce"}


def load(path):
    if not os.path.isdir(path):
        return pd.read_csv(path)
    parts = []
    for f in sorted(glob.glob(os.path.join(path, "w*.x*.csv"))):
        world, level = map(int, re.findall(r"w(\d+)\.x(\d+)\.csv$", f)[0])
        d = pd.read_csv(io.StringIO("".join(line for line in open(f) if not line.startswith("#"))))
        parts.append(d.assign(world=world, level=level)[["world", "level", "size", "algo", "e_bar"]])
    return pd.concat(parts, ignore_index=True)


def speedups(e_bar, base):
    """Per world: the mean of e_bar(base) / e_bar(ALGO) per level, over every point, over the imbalanced ones."""
    e = e_bar[e_bar["size"].isin(SIZES)].pivot_table(index=["world", "level", "size"], columns="algo", values="e_bar")
    ratio = e[base] / e[ALGO]
    table = ratio.groupby(level=["world", "level"]).mean().unstack("level")
    table["all"] = ratio.groupby(level="world").mean()
    table["imbalanced"] = ratio.drop(0, level="level").groupby(level="world").mean()
    table["points"] = ratio.groupby(level="world").count()
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("source", help="run.sh's output directory, or an e_bar CSV written by --to-csv")
    ap.add_argument("--to-csv", metavar="FILE", help="also write the e_bar values (world, level, size, algo, e_bar)")
    args = ap.parse_args()
    e_bar = load(args.source)
    if args.to_csv:
        e_bar.sort_values(["world", "level", "size", "algo"]).to_csv(args.to_csv, index=False)
    for base, name in BASELINES.items():
        print(f"{ALGO} over {name}, mean of e_bar ratios (columns: levels of imbalance, loop iterations):")
        print(speedups(e_bar, base).round(2).to_string(), end="\n\n")


if __name__ == "__main__":
    main()
