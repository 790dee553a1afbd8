# SPDX-License-Identifier: BSD-3-Clause
"""Markdown summary of tools/sweeps/adapt_steady.sh's files: auto with and without PAPCOLL_ADAPT=1, the mean e_bar
over the timed calls (SIMULATED), against each other (same arrival draws) and, balanced, against the best
algorithm of a regret sweep (median of its calls).  `--per-call RAW` instead turns a papcoll-bench --raw file
into size,rep,e_bar lines (the mean over the processes of each call's arrival-to-exit time)."""
import argparse
import csv
import glob
import os
import sys
from collections import defaultdict

from papcoll_tools import tune
from papcoll_tools.sim import platform as sim_platform


def per_call(raw, out=sys.stdout):
    calls = defaultdict(list)
    with open(raw) as f:
        for r in csv.reader(f):
            if len(r) < 8 or not r[1].isdigit():
                continue
            calls[(int(r[1]), int(r[2]))].append(float(r[7]))
    print("size,rep,e_bar", file=out)
    for (size, rep), e in sorted(calls.items()):
        print(f"{size},{rep},{sum(e) / len(e):.9g}", file=out)


def means(path):
    calls = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            calls[int(row["size"])].append(float(row["e_bar"]))
    return {size: (sum(v) / len(v), max(v)) for size, v in calls.items()}


def regret_files(regret_dir, coll, family):
    """The regret sweep's files of coll on family, its first auto run left out (auto2 is this build's auto)."""
    pattern = os.path.join(regret_dir, family, "bcast", "*.csv") if coll == "bcast" else \
        os.path.join(regret_dir, family, f"{coll}_*.csv")
    return [f for f in glob.glob(pattern) if not f.endswith("-auto2.csv")]


def summary(out_dir, coll, platform, patterns, regret_dir=None):
    family = platform.split(":")[0]
    p = sim_platform.generate(platform).slots
    best = {}
    if regret_dir:
        best = tune.read_times(regret_files(regret_dir, coll, family), coll, with_library=True).get(p, {})
    lines = [f"# {coll}: auto with and without PAPCOLL_ADAPT=1, steady state (SIMULATED, {p} ranks, {platform})", "",
             "Made by tools/sweeps/adapt_steady.sh (untimed calls per size, then timed ones; e_bar per call = mean "
             "over the processes of arrival-to-exit time). Regret: the mean over the timed calls / the best median "
             "e_bar of any algorithm in the regret sweep" + (f" ({regret_dir})" if regret_dir else " (none given)") +
             " (balanced only: under the random patterns each call draws other late processes, so a many-call mean "
             "and a 3-call median are not comparable; the ADAPT / no-ADAPT ratio, same draws, is).", "",
             "| pattern | size | auto, us | auto + ADAPT, us | ADAPT / auto | balanced: auto regret | "
             "balanced: ADAPT regret | ADAPT's slowest call / its mean |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for pattern in patterns:
        tag = pattern.replace(":", "-")
        a0 = means(os.path.join(out_dir, f"{coll}_{tag}_adapt0_per_call.csv"))
        a1 = means(os.path.join(out_dir, f"{coll}_{tag}_adapt1_per_call.csv"))
        for size in sorted(a0):
            cell = best.get(size, {}).get(f"{platform}@{pattern}", {})
            b = min((t for a, t in cell.items() if a != "auto"), default=None)
            reg = (f"{a0[size][0] / b:.2f} | {a1[size][0] / b:.2f}" if pattern == "balanced" and b else "- | -")
            lines.append(f"| {pattern} | {tune.size_text(size)} | {a0[size][0] * 1e6:.2f} | {a1[size][0] * 1e6:.2f} | "
                         f"{a1[size][0] / a0[size][0]:.3f} | {reg} | {a1[size][1] / a1[size][0]:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out_dir", nargs="?", help="adapt_steady.sh's output directory")
    ap.add_argument("--per-call", metavar="RAW", help="print RAW's per-call mean e_bar (size,rep,e_bar) and exit")
    ap.add_argument("--coll", default="bcast", help="the collective (default bcast)")
    ap.add_argument("--platform", default="cluster:16x16", help="the papcoll sim platform spec the runs used")
    ap.add_argument("--patterns", default=None, help="space-separated patterns (default balanced late:0.2:p uniform:p)")
    ap.add_argument("--regret-dir", help="a regret_sweep.sh directory: balanced regret against its best algorithm")
    a = ap.parse_args(argv)
    if a.per_call:
        per_call(a.per_call)
        return 0
    if not a.out_dir:
        ap.error("give OUT_DIR (or --per-call RAW)")
    p = sim_platform.generate(a.platform).slots
    patterns = (a.patterns or f"balanced late:0.2:{p} uniform:{p}").split()
    sys.stdout.write(summary(a.out_dir, a.coll, a.platform, patterns, a.regret_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
