#!/usr/bin/env python3
"""auto with and without PAPCOLL_ADAPT against the best algorithm of the regret_16x16 tables (simulated).

    PYTHONPATH=tools python3 docs/results/regret_16x16_adapt/regret_adapt.py [COLL...]   (from /work/main)

Denominator: per cell (collective, size, pattern) the smallest e_bar of every algorithm in
docs/results/regret_16x16/cluster (papcoll's named algorithms and SMPI's own; auto excluded), as
papcoll-tune --regret-report reads them; only the files git tracks (commit e21237a), unless --all: files
added there since (knomial broadcasts of a session in progress) are left out.  Columns: auto without ADAPT (the *-auto2.csv files there,
the rules of the build that made them; same rules as now), auto without ADAPT rerun by this build
with ADAPT's warm-up count (*_papcoll-auto-noadapt.csv here, where present) and auto with
PAPCOLL_ADAPT=1 (*_papcoll-auto-adapt.csv here).  Then ADAPT's choices from the PAPCOLL_ADAPT_REPORT
files (*.adapt): each candidate's mean time in the call over the 64 calls (rank 0's report: means over
processes and measured calls; the choice's includes its exploited calls), and what exploring cost: the
other candidates' measured calls times their excess over the choice's mean, in calls of the choice."""
import glob
import os
import re
import subprocess
import sys

from papcoll_tools import tune

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "regret_16x16", "cluster")
PATTERNS = ["balanced", "late:0.2:256", "uniform:256"]


def auto_times(paths, coll):
    """{(size, pattern): seconds} of auto in PATHS."""
    out = {}
    for p, by_size in tune.read_times(paths, coll, with_auto=True).items():
        for size, by_sc in by_size.items():
            for sc, times in by_sc.items():
                if "auto" in times:
                    out[(size, sc.split("@")[-1])] = times["auto"]
    return out


def tracked(paths):
    """The paths git tracks (all of them when git cannot tell)."""
    try:
        out = subprocess.run(["git", "ls-files", "--", *paths], cwd=HERE, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return paths
    names = {os.path.normpath(os.path.join(HERE, line)) for line in out.splitlines()}
    return [p for p in paths if os.path.normpath(p) in names]


def main(colls, everything=False):
    for coll in colls:
        base = sorted(glob.glob(os.path.join(BASE, "bcast", "*.csv") if coll == "bcast"
                                else os.path.join(BASE, f"{coll}_*.csv")))
        if not everything:
            base = tracked(base)
        best = {}
        for p, by_size in tune.read_times(base, coll, with_library=True).items():
            for size, by_sc in by_size.items():
                for sc, times in by_sc.items():
                    algo = min(times, key=times.get)
                    best[(size, sc.split("@")[-1])] = (times[algo], algo)
        cols = [("auto (regret_16x16 auto2)", auto_times([f for f in base if f.endswith("-auto2.csv")], coll))]
        noadapt = sorted(glob.glob(os.path.join(HERE, f"{coll}_*_papcoll-auto-noadapt.csv")))
        if noadapt:
            cols.append(("auto, this build", auto_times(noadapt, coll)))
        cols.append(("auto + ADAPT", auto_times(sorted(glob.glob(os.path.join(HERE, f"{coll}_*_papcoll-auto-adapt.csv"))), coll)))
        print(f"### {coll}: e_bar / best e_bar of the other algorithms (simulated, 256 ranks, cluster:16x16)\n")
        head = ["size"] + [f"{pat}: {name}" for pat in PATTERNS for name, _ in cols]
        print("| " + " | ".join(head) + " |")
        print("|---:|" + "---:|" * (len(head) - 1))
        worst = {name: (0.0, "") for name, _ in cols}
        for size in sorted({s for s, _ in best}):
            cells = []
            for pat in PATTERNS:
                b = best.get((size, pat))
                for name, times in cols:
                    t = times.get((size, pat))
                    if b is None or t is None:
                        cells.append("-")
                        continue
                    r = t / b[0]
                    worst[name] = max(worst[name], (r, f"{tune.size_text(size)} {pat}"))
                    cells.append(f"{r:.2f}")
            print(f"| {tune.size_text(size)} | " + " | ".join(cells) + " |")
        print()
        for name, (r, where) in worst.items():
            if where:
                print(f"- worst, {name}: {r:.2f} ({where})")
        print("\nBest of the other algorithms (the denominator), us:\n")
        print("| size | " + " | ".join(PATTERNS) + " |")
        print("|---:|" + "---:|" * len(PATTERNS))
        for size in sorted({s for s, _ in best}):
            cells = []
            for pat in PATTERNS:
                b = best.get((size, pat))
                cells.append(f"`{b[1]}` {1e6 * b[0]:.2f}" if b else "-")
            print(f"| {tune.size_text(size)} | " + " | ".join(cells) + " |")
        print()
        per_call = os.path.join(HERE, f"{coll}_balanced_8-256K-8_papcoll-auto-adapt-i16_per_call.csv")
        if os.path.exists(per_call):
            calls = {}
            for line in open(per_call).read().split()[1:]:
                size, rep, call, e = line.split(",")
                calls.setdefault(int(size), []).append(float(e))
            print(f"Balanced, calls 62-77 (run_overhead.sh: the agreement calls 65, 69 and 73 among them), e_bar / best:\n")
            print("| size | median of the 16 calls | mean of the 16 calls | agreement share of the mean |")
            print("|---:|---:|---:|---:|")
            for size in sorted(calls):
                v = sorted(calls[size])
                med, mean = v[len(v) // 2 - 1] / 2 + v[len(v) // 2] / 2, sum(v) / len(v)
                b = best[(size, "balanced")][0]
                print(f"| {tune.size_text(size)} | {med / b:.2f} | {mean / b:.2f} | {100 * (mean - med) / mean:.0f}% |")
            print()
        choices = adapt_choices(coll)
        if choices:
            print(f"ADAPT's choices ({coll}, 64 calls per size):\n\n{choices}\n")


LINE = re.compile(r"bcast|reduce|allreduce")


def adapt_choices(coll):
    """Markdown rows: size class, pattern, choice, candidates' means, exploration cost."""
    rows = []
    for pat in PATTERNS:
        path = os.path.join(HERE, f"{coll}_{pat.replace(':', '-')}_8-256K-8_papcoll-auto-adapt.csv.adapt")
        if not os.path.exists(path):
            continue
        for line in open(path):
            m = re.search(r"\) (\w+) bytes (\S+) .*?: (\d+) calls, (?:choice (\S+)|exploring)\S*, explorations (\d+), spread [\d.]+ us: (.*)$", line)
            if not m or m.group(1) != coll:
                continue
            cls, calls, choice, expl, means = m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)
            cand = [(c, float(t), int(n)) for c, t, n in re.findall(r"(\w+) ([\d.]+) us \[(\d+)\]", means)]
            mc = next((t for c, t, n in cand if c == choice), None)
            cost = sum(n * (t - mc) for c, t, n in cand if c != choice and t > mc) / mc if mc else float("nan")
            rows.append((cls, pat, choice or "exploring", expl, ", ".join(f"{c} {t:.2f} [{n}]" for c, t, n in cand), f"{cost:.1f}"))
    order = lambda r: int(re.search(r",(\d+)", r[0].replace("K", "000")).group(1))
    rows.sort(key=lambda r: (order(r), PATTERNS.index(r[1])))
    out = ["| size class | pattern | ADAPT's choice | explorations | mean time in call, us [measured calls] | exploring cost, calls of the choice |",
           "|---|---|---|---:|---|---:|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) if rows else ""


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--all"]
    main(args or ["bcast", "reduce", "allreduce"], everything="--all" in sys.argv[1:])
