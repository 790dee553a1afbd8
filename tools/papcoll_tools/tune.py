"""papcoll-tune: turn papcoll-bench CSV sweeps into selection rules.

Reads one or more CSV files written by ``papcoll-bench --format=csv`` (fields
coll, algo, size, pattern, p, e_bar, ...), finds for every process count and
message size the best papcoll algorithm (``native``, ``auto`` and SMPI
baselines are never chosen), and writes rules in papcoll's tune grammar (src/tune.h).  Under
balanced arrival only, the best is the fastest.  When the sweeps also hold
imbalanced patterns (uniform:..., late:..., microbench:...), the best is, among
the algorithms within --balanced-tolerance (10%) of the fastest balanced one,
the one whose worst ratio to the fastest over the imbalanced patterns is
smallest: never much worse balanced, as good as possible under imbalance.

    bcast[p<=16,bytes<=8K]=binomial; ...; bcast=scatter_ring_allgather

Sizes: papcoll-bench's size is one process's block for the block collectives
and reduce_scatter (OSU convention), while a rule's ``bytes`` is what the
selector sees, the whole vector: p x block (BLOCK_COLLS; alltoallv, gatherv and
scatterv select with unknown bytes, the largest value, so they take the rules
of the largest sizes).

Rules are ordered by process count, then size; a sweep of p processes covers
all p up to it (the largest sweep covers everything above).  ``--tolerance``
keeps the previous size's winner while it stays within that fraction of the
best, so the rules do not flap on noise.  ``--format=c`` writes the C string
literal lines of src/bcast/bcast_default_rules.inc.
"""
from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict


def size_text(n: int) -> str:
    for unit, suffix in ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


# Collectives whose benchmark size is one process's block while the selector's bytes are p blocks.
BLOCK_COLLS = ("allgather", "allgatherv", "alltoall", "alltoallv", "gather", "gatherv", "scatter", "scatterv",
               "reduce_scatter", "reduce_scatter_block")


def read_times(paths, coll):
    """{p: {size: {pattern: {algo: seconds}}}} from papcoll-bench CSV files
    (e_bar, or avg in older files; files without a pattern column are balanced)."""
    table = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    for path in paths:
        with open(path, newline="") as f:
            rows = (line for line in f if not line.startswith("#"))
            for row in csv.DictReader(rows):
                # never candidates: the MPI library's own (native, SMPI baselines) and auto (the rules' own choice)
                if row["coll"] != coll or row["algo"] in ("native", "auto") or row["algo"].startswith("smpi:"):
                    continue
                seconds = float(row["e_bar"] if "e_bar" in row else row["avg"])
                if seconds != seconds:  # nan: no valid repetition
                    continue
                p, size = int(row["p"]), int(row["size"])
                table[p][size * p if coll in BLOCK_COLLS else size][row.get("pattern") or "balanced"][row["algo"]] = seconds
    return table


def scores(by_pattern, balanced_tolerance, balanced_slack=0.0):
    """{algo: score}, lower is better, for one process count and size.

    Only balanced arrival: the time itself.  With imbalanced patterns too:
    the candidates are the algorithms within balanced_tolerance of the best
    balanced time (never much worse when everyone arrives together), or within
    balanced_slack seconds of it (differences below a message latency are
    ties); each scores its worst ratio to the best algorithm over the
    imbalanced patterns.
    """
    balanced = by_pattern.get("balanced")
    others = {k: v for k, v in by_pattern.items() if k != "balanced"}
    if balanced is None or not others:
        return dict(balanced if balanced is not None else next(iter(by_pattern.values())))
    best = min(balanced.values())
    out = {}
    for algo, t in balanced.items():
        if t > max(best * (1 + balanced_tolerance), best + balanced_slack) or not all(algo in times for times in others.values()):
            continue
        out[algo] = max(times[algo] / min(times.values()) for times in others.values())
    return out


def read_sweeps(paths, coll, balanced_tolerance=0.10, balanced_slack=0.0):
    """{p: {size: {algo: score}}} (see scores)."""
    table = defaultdict(dict)
    for p, by_size in read_times(paths, coll).items():
        for size, by_pattern in by_size.items():
            table[p][size] = scores(by_pattern, balanced_tolerance, balanced_slack)
    return table


def winners(by_size, tolerance):
    """[(size, algo)] in increasing size, smoothed by tolerance."""
    out, previous = [], None
    for size in sorted(by_size):
        times = by_size[size]
        best = min(times, key=times.get)
        if previous in times and times[previous] <= times[best] * (1 + tolerance):
            best = previous
        out.append((size, best))
        previous = best
    return out


def rules_for(table, coll, tolerance):
    rules = []
    ps = sorted(table)
    for i, p in enumerate(ps):
        wins = winners(table[p], tolerance)
        p_cond = [f"p<={p}"] if i + 1 < len(ps) else []
        for j, (size, algo) in enumerate(wins):
            last = j + 1 == len(wins)
            if not last and wins[j + 1][1] == algo:
                continue
            conds = p_cond + ([] if last else [f"bytes<={size_text(size)}"])
            rules.append(f"{coll}[{','.join(conds)}]={algo}" if conds else f"{coll}={algo}")
    return rules


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="papcoll-bench --format=csv outputs")
    ap.add_argument("--coll", default="bcast")
    ap.add_argument("--tolerance", type=float, default=0.05,
                    help="keep the previous size's winner while its score is within this fraction of the best")
    ap.add_argument("--balanced-tolerance", type=float, default=0.10,
                    help="with imbalanced patterns in the sweeps: candidates are within this fraction of the "
                         "best balanced time, and the one with the best worst-case ratio over the imbalanced "
                         "patterns wins")
    ap.add_argument("--balanced-slack", type=float, default=0.0,
                    help="seconds: a balanced time within this much of the best is also a candidate (default 0; "
                         "sub-microsecond e_bar differences, as in reductions, are ties)")
    ap.add_argument("--format", choices=("rules", "c"), default="rules")
    args = ap.parse_args(argv)
    table = read_sweeps(args.csv, args.coll, args.balanced_tolerance, args.balanced_slack)
    if not table:
        sys.exit(f"papcoll-tune: no {args.coll} rows in {', '.join(args.csv)}")
    rules = rules_for(table, args.coll, args.tolerance)
    if args.format == "c":
        print("/* generated by: papcoll-tune --format=c " + " ".join(args.csv) + " */")
        for k, r in enumerate(rules):
            print(f'"{r}{";" if k + 1 < len(rules) else ""}"')
    else:
        print("; ".join(rules))


if __name__ == "__main__":
    main()
