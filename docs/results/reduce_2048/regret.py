#!/usr/bin/env python3
"""2048-rank reduce and allreduce regret (simulated): the current rules' algorithm / the best of every
algorithm measured in the cell, papcoll's and SMPI's own, e_bar and the root's time e_root.

    PYTHONPATH=tools python3 docs/results/reduce_2048/regret.py      (from /work/main)

Reads every CSV of this directory: papcoll's algorithms (*_papcoll.csv; their auto rows ran earlier rules
and are not read) and SMPI's own selections (*_smpi-NAME.csv).  `auto` is the column of the algorithm that
src/reduce/reduce_default_rules.inc and src/allreduce/allreduce_default_rules.inc run at 2048 ranks
(RULES below, to be kept in step with them)."""
import glob
import os

from papcoll_tools import tune

HERE = os.path.dirname(os.path.abspath(__file__))
P = 2048
RULES = {  # (largest size, algorithm) in increasing size order, p > 256
    "reduce": [(512, "dynleader_flat"), (None, "dynleader_onesided")],
    "allreduce": [(64, "dynleader_flat"), (4096, "hier"), (None, "rabenseifner")],
}


def rule(coll, size):
    return next(algo for limit, algo in RULES[coll] if limit is None or size <= limit)


def report(coll, metric):
    paths = sorted(glob.glob(os.path.join(HERE, f"{coll}_*.csv")))
    times = tune.read_times(paths, coll, with_library=True, metric=metric)[P]
    print(f"\n{coll}, {metric} (us): the rules' algorithm / the best other\n")
    print("| size | pattern | rules' algorithm | best other | **ratio** | algorithms run |")
    print("|---:|---|---|---|---:|---:|")
    for size in sorted(times):
        for scenario, cell in sorted(times[size].items()):
            mine = rule(coll, size)
            if mine not in cell:
                continue
            others = {a: t for a, t in cell.items() if a != mine}
            best = min(others, key=others.get)
            print(f"| {tune.size_text(size)} | {scenario.split('@')[-1]} | `{mine}` {cell[mine] * 1e6:.2f} | "
                  f"`{best}` {others[best] * 1e6:.2f} | **{cell[mine] / others[best]:.2f}** | {len(cell)} |")


def main():
    for coll in ("reduce", "allreduce"):
        for metric in ("e_bar", "e_root"):
            if coll == "allreduce" and metric == "e_root":
                continue  # every process gets the result: e_bar is the measure
            report(coll, metric)


if __name__ == "__main__":
    main()
