#!/usr/bin/env python3
"""2048-rank broadcast regret (simulated): auto / the best of every algorithm measured in the cell, papcoll's
and SMPI's own, for every size and pattern measured at 2048 ranks on cluster:64x32.

    PYTHONPATH=tools python3 docs/results/bcast_2048_sweep/regret.py      (from /work/main)

Files, in this order (a later file's row replaces an earlier one's for the same cell and algorithm):
SMPI's broadcasts of ../perf_64x32 (8 KiB-1 MiB); ../bcast_2048_check (but its PAPCOLL_ADAPT runs);
../bcast_2048_knomial; this directory's *_papcoll.csv and *_smpi-*.csv; last the *-auto3.csv of
../bcast_2048_knomial and this directory's *-auto2.csv (auto rerun with later rules: the 64 KiB rule, then
the rule of this sweep); after them this directory's *-rerun1.csv (auto and the cp_* broadcasts rerun with the
build of 8bce38a, whose root's node no longer takes part in the leaders' handshake).  The auto rows that stay from earlier files ran rules that choose the same
algorithm, or one with the same engine at that size (8 KiB: cp_binomial for cp_rdb, up to 16 KiB the same
code), as the current rules."""
import glob
import os

from papcoll_tools import tune

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.dirname(HERE)
P = 2048


def files():
    smpi = sorted(glob.glob(os.path.join(RESULTS, "perf_64x32", "*_8K-1M_smpi-*.csv")))
    check = sorted(f for f in glob.glob(os.path.join(RESULTS, "bcast_2048_check", "*.csv")) if "-adapt-" not in f)
    knomial = sorted(glob.glob(os.path.join(RESULTS, "bcast_2048_knomial", "*.csv")))
    here = sorted(glob.glob(os.path.join(HERE, "*.csv")))
    every = smpi + check + knomial + here
    auto = [f for f in every if f.endswith(("-auto2.csv", "-auto3.csv"))]  # auto rerun with later rules
    rerun = [f for f in every if f.endswith("-rerun1.csv")]  # a later build's dynamic-leader broadcasts: last
    return [f for f in every if f not in auto and f not in rerun] + auto + rerun


def main():
    times = tune.read_times(files(), "bcast", with_library=True, with_auto=True)[P]
    patterns = ["balanced", "late:0.2:2048", "uniform:2048"]
    print("| size | pattern | auto (us) | best of the others (us) | **auto / best** | algorithms run |")
    print("|---:|---|---:|---|---:|---:|")
    worst = {}
    for size in sorted(times):
        for pattern in patterns:
            cell = next((v for sc, v in times[size].items() if sc.split("@")[-1] == pattern), None)
            if not cell or "auto" not in cell:
                continue
            others = {a: t for a, t in cell.items() if a != "auto"}
            best = min(others, key=others.get)
            regret = cell["auto"] / others[best]
            if regret > worst.get(pattern, (0, 0))[0]:
                worst[pattern] = (regret, size)
            print(f"| {tune.size_text(size)} | {pattern} | "
                  f"{cell['auto'] * 1e6:.1f} | `{best}` {others[best] * 1e6:.1f} | **{regret:.2f}** | {len(others)} |")
    print()
    for pattern, (regret, size) in worst.items():
        print(f"worst under {pattern}: {regret:.2f} ({size} B)")


if __name__ == "__main__":
    main()
