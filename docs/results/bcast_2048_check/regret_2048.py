#!/usr/bin/env python3
"""2048-rank broadcast regret (simulated): auto / best of papcoll's algorithms and SMPI's own, per cell.

    PYTHONPATH=tools python3 docs/results/bcast_2048_check/regret_2048.py     (from /work/main)

Reads every CSV of this directory and, from docs/results/perf_64x32 (the same platform, preset and
seed, run without --cfg=maxmin/precision:1e-4, which gives the same smpi:binomial_tree times as this
directory at 8 KiB balanced and late), SMPI's broadcasts (8 KiB-1 MiB by 2x) and papcoll's algorithms
under late:0.2:2048 at 1 MiB (an older build of 2026-11-23; its auto row, the old rules', is not read).  A later file's row replaces an
earlier one's: perf_64x32 first, then this directory's older files, then the session 2026-11-24 (third)
files (NEW below).  auto: the row of a NEW file (the current rules) where one exists; else the row of
the algorithm the current rules run at 2048 ranks (bcast_default_rules.inc, p > 256: cp_binomial up to
32 KiB, cp_chain above), marked *: the older files' auto rows ran earlier rules (linear at 8 B).  Files
*_papcoll-adapt-auto.csv (auto under PAPCOLL_ADAPT=1, 61 untimed calls first) are not mixed in: their
auto is the last column, against the same best."""
import glob
import os

from papcoll_tools import tune

HERE = os.path.dirname(os.path.abspath(__file__))
PERF = os.path.join(HERE, "..", "perf_64x32")
NEW = ("_8-64K-8192_smpi-", "_papcoll-auto.csv", "_papcoll-auto+", "_64K-64K_smpi-")
PATTERNS = ["balanced", "late:0.2:2048"]
RULE = {8: "cp_binomial", 8192: "cp_binomial", 65536: "cp_chain", 1048576: "cp_chain"}


def main():
    perf = sorted(f for pat in ("balanced", "late-0.2-2048") for f in glob.glob(os.path.join(PERF, f"{pat}_*_smpi-*.csv")))
    perf.append(os.path.join(PERF, "late-0.2-2048_1M-1M_papcoll.csv"))
    here = sorted(f for f in glob.glob(os.path.join(HERE, "*.csv")) if "_papcoll-adapt-" not in f)
    new_auto = {}
    for size, by_sc in tune.read_times([f for f in here if any(k in os.path.basename(f) for k in NEW)], "bcast",
                                       with_auto=True).get(2048, {}).items():
        for sc, t in by_sc.items():
            if "auto" in t:
                new_auto[(size, sc.split("@")[-1])] = t["auto"]
    adapt = {}
    for size, by_sc in tune.read_times(sorted(glob.glob(os.path.join(HERE, "*_papcoll-adapt-auto.csv"))), "bcast",
                                       with_auto=True).get(2048, {}).items():
        for sc, t in by_sc.items():
            adapt[(size, sc.split("@")[-1])] = t["auto"]
    old = [f for f in here if not any(k in os.path.basename(f) for k in NEW)]
    new = [f for f in here if f not in old]
    times = tune.read_times(perf, "bcast", with_library=True)[2048]
    for size, by_sc in tune.read_times(old + new, "bcast", with_library=True, with_auto=True)[2048].items():
        for sc, t in by_sc.items():
            pat = sc.split("@")[-1]
            key = next((k for k in times[size] if k.split("@")[-1] == pat), sc)
            times[size][key].update(t)
    print("| size | pattern | best papcoll | best SMPI | auto | auto / best SMPI | **regret: auto / best of either** | auto + ADAPT / best of either |")
    print("|---:|---|---|---|---|---:|---:|---:|")
    for size in sorted(s for s in times if s in RULE):
        for pat in PATTERNS:
            t = next((v for sc, v in times[size].items() if sc.endswith("@" + pat)), None)
            if not t:
                continue
            ours = {a: v for a, v in t.items() if a != "auto" and not tune.is_library_own(a)}
            smpi = {a: v for a, v in t.items() if tune.is_library_own(a)}
            auto, star = new_auto.get((size, pat)), ""
            if auto is None and RULE[size] in ours:
                auto, star = ours[RULE[size]], "*"
            bo = min(ours, key=ours.get) if ours else None
            bs = min(smpi, key=smpi.get) if smpi else None
            best = min(list(ours.values()) + list(smpi.values()))
            name = lambda a: f"smpi:{a[7:-1]}" if a.startswith("native[") else a
            cell = lambda a, d: f"`{name(a)}` {1e6 * d[a]:.1f}" if a else "-"
            print(f"| {tune.size_text(size)} | {pat} | {cell(bo, ours)} ({len(ours)} run) | {cell(bs, smpi)} ({len(smpi)} run) | "
                  + (f"{1e6 * auto:.1f}{star} (`{RULE[size]}`)" if auto else "-") + " | "
                  + ((f"{auto / smpi[bs]:.2f}" if auto / smpi[bs] >= 0.1 else f"{auto / smpi[bs]:.1g}") if auto and bs else "-") + " | "
                  + (f"**{auto / best:.2f}**" if auto else "-") + " | "
                  + (f"{adapt[(size, pat)] / best:.2f} ({1e6 * adapt[(size, pat)]:.1f})" if (size, pat) in adapt else "-") + " |")


if __name__ == "__main__":
    main()
