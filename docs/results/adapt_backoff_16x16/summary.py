"""Markdown summary of run.sh's files: auto with and without PAPCOLL_ADAPT=1, mean e_bar over the 64 timed calls
(SIMULATED, 256 ranks, cluster:16x16), against each other (same arrival draws) and, balanced, against the best
algorithm of the 256-rank regret sweep (docs/results/regret_16x16/cluster/bcast, median of 3 calls)."""
import csv
import glob
import os
from collections import defaultdict

from papcoll_tools import tune

HERE = os.path.dirname(os.path.abspath(__file__))


def means(path):
    calls = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            calls[int(row["size"])].append(float(row["e_bar"]))
    return {size: (sum(v) / len(v), max(v)) for size, v in calls.items()}


sweep = [f for f in glob.glob(os.path.join(HERE, "..", "regret_16x16", "cluster", "bcast", "*.csv"))
         if not f.endswith("-auto2.csv")]
best = tune.read_times(sweep, "bcast", with_library=True)[256]
print("# auto with and without PAPCOLL_ADAPT=1, steady state (SIMULATED, 256 ranks, cluster:16x16, ib-ddr)\n")
print("Made by run.sh (200 untimed calls per size, then 64 timed; e_bar per call = mean over the 256 processes of "
      "arrival-to-exit time). Regret: the mean over the 64 calls / the best median e_bar of any algorithm in the "
      "regret sweep (balanced only: under the random patterns each call draws other late processes, so a "
      "64-call mean and a 3-call median are not comparable; the ADAPT / no-ADAPT ratio, same draws, is).\n")
print("| pattern | size | auto, us | auto + ADAPT, us | ADAPT / auto | balanced: auto regret | balanced: ADAPT regret | "
      "ADAPT's slowest call / its mean |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for pattern in ("balanced", "late:0.2:256", "uniform:256"):
    tag = pattern.replace(":", "-")
    a0 = means(os.path.join(HERE, f"bcast_{tag}_adapt0_per_call.csv"))
    a1 = means(os.path.join(HERE, f"bcast_{tag}_adapt1_per_call.csv"))
    for size in sorted(a0):
        b = min(t for a, t in best[size][f"cluster:16x16@{pattern}"].items() if a != "auto")
        reg = (f"{a0[size][0] / b:.2f} | {a1[size][0] / b:.2f}" if pattern == "balanced" else "- | -")
        print(f"| {pattern} | {tune.size_text(size)} | {a0[size][0] * 1e6:.2f} | {a1[size][0] * 1e6:.2f} | "
              f"{a1[size][0] / a0[size][0]:.3f} | {reg} | {a1[size][1] / a1[size][0]:.2f} |")
