# SPDX-License-Identifier: BSD-3-Clause
"""papcoll-tune: turn papcoll-bench CSV sweeps into selection rules.

Reads one or more CSV files written by ``papcoll-bench --format=csv`` (fields
coll, algo, size, pattern, p, e_bar, ...), finds for every process count and
message size the best papcoll algorithm (``native``, ``auto`` and SMPI
baselines are never chosen), and writes rules in papcoll's tune grammar (src/tune.h).  Under
balanced arrival only, the best is the fastest.  When the sweeps hold several
scenarios (arrival patterns: balanced, uniform:..., late:..., microbench:...;
platforms: the platform named in a simulated file's #@smpi_settings line):

  --criterion=regret (default): the best is the algorithm of smallest
    worst-case regret, its time divided by the best time of any algorithm in
    that scenario (papcoll's and the MPI library's own: native rows and SMPI
    baselines count in the denominator though they are never chosen),
    maximised over the scenarios; an algorithm not measured in every scenario
    is not a candidate.  Times within --slack seconds of a scenario's best
    count as regret 1 (sub-microsecond differences are ties).
  --criterion=balanced (the earlier rules' criterion): among the algorithms
    within --balanced-tolerance (10%) of the fastest balanced one, the one
    whose worst ratio to the fastest over the imbalanced patterns is smallest.

    bcast[p<=16,bytes<=8K]=binomial; ...; bcast=scatter_ring_allgather

Sizes: papcoll-bench's size is one process's block for the block collectives
and reduce_scatter (OSU convention), while a rule's ``bytes`` is what the
selector sees, the whole vector: p x block (BLOCK_COLLS; alltoallv, gatherv and
scatterv select with unknown bytes, the largest value, so they take the rules
of the largest sizes).

``--candidates=K`` names K candidates per rule, ``a|b|c`` (src/select/tune.h), which
PAPCOLL_ADAPT measures online: the winner first (the static choice), then, under
--criterion=regret, complementary ones (complementary_candidates: each lowers
most the worst-case regret of the best candidate per scenario, so an algorithm
that wins where the winner loses comes before one that shares its engine);
under --criterion=balanced, the K-1 others of smallest worst score.

Rules are ordered by process count, then size; a sweep of p processes covers
all p up to it (the largest sweep covers everything above).  ``--tolerance``
keeps the previous size's winner while it stays within that fraction of the
best, so the rules do not flap on noise.  ``--format=c`` writes the C string
literal lines of src/bcast/bcast_default_rules.inc.
"""
from __future__ import annotations

import argparse
import csv
import re
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


def is_library_own(algo):
    """The MPI library's own algorithms (native, SMPI baselines): never chosen, but the regret's yardstick."""
    return algo == "native" or algo.startswith("native[") or algo.startswith("smpi:")


def file_context(lines):
    """(platform, baseline) named by a papcoll-bench file's #@ lines: the platform of a simulated run
    ('' natively) and SMPI's algorithm that ran as `native` (None if not said)."""
    platform, baseline = "", None
    for line in lines:
        if line.startswith("#@smpi_settings="):
            m = re.search(r"; platform (\S+?):? ", line)
            platform = m.group(1) if m else platform
            m = re.search(r"baseline SMPI \S+ (\S+)", line)
            baseline = m.group(1) if m else baseline
    return platform, baseline


def row_seconds(row, metric):
    """The row's METRIC (e_bar, e_root, after_last, g; avg in files older than e_bar)."""
    return float(row[metric] if metric in row else row["avg"])


def read_times(paths, coll, with_library=False, metric="e_bar", with_auto=False):
    """{p: {size: {scenario: {algo: seconds}}}} from papcoll-bench CSV files (e_bar, or avg in older
    files); a scenario is the pattern (files without a pattern column are balanced), prefixed by the
    platform when a file names one ("cluster:16x16@late:0.2:256").  auto (the rules' own choice) only
    with with_auto (never a candidate); the MPI library's own algorithms only with with_library,
    `native` renamed after the SMPI baseline its file says it ran (native[mpich]).  A later file's row
    replaces an earlier one's for the same cell and algorithm (an auto rerun with new rules goes last)."""
    table = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    for path in paths:
        with open(path, newline="") as f:
            lines = f.readlines()
        platform, baseline = file_context(l for l in lines if l.startswith("#"))
        for row in csv.DictReader(l for l in lines if not l.startswith("#")):
            algo = row["algo"]
            if row["coll"] != coll or (algo == "auto" and not with_auto) or (is_library_own(algo) and not with_library):
                continue
            if algo == "native" and baseline:
                algo = f"native[{baseline}]"
            seconds = row_seconds(row, metric)
            if seconds != seconds:  # nan: no valid repetition
                continue
            p, size = int(row["p"]), int(row["size"])
            pattern = row.get("pattern") or "balanced"
            scenario = f"{platform}@{pattern}" if platform else pattern
            table[p][size * p if coll in BLOCK_COLLS else size][scenario][algo] = seconds
    return table


def scenario_regrets(by_scenario, slack=0.0):
    """{scenario: {algo: regret}}: each papcoll algorithm measured in every scenario, its time / the best
    time of any algorithm there (1 within SLACK seconds of it)."""
    ours = [set(a for a in times if not is_library_own(a)) for times in by_scenario.values()]
    candidates = set.intersection(*ours) if ours else set()
    out = {}
    for scenario, times in by_scenario.items():
        best = min(times.values())
        out[scenario] = {a: 1.0 if times[a] - best <= slack else times[a] / best for a in candidates}
    return out


def regret_scores(by_scenario, slack=0.0):
    """{algo: worst-case regret} of the papcoll algorithms measured in every scenario (module doc)."""
    out = {}
    for regrets in scenario_regrets(by_scenario, slack).values():
        for algo, r in regrets.items():
            out[algo] = max(out.get(algo, 1.0), r)
    return out


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


def read_sweeps(paths, coll, balanced_tolerance=0.10, balanced_slack=0.0, criterion="balanced", metric="e_bar",
                by_scenario=None):
    """{p: {size: {algo: score}}}: scores (criterion balanced) or regret_scores (criterion regret, with
    balanced_slack as the slack).  With criterion regret, a dict BY_SCENARIO also receives
    {p: {size: scenario_regrets}}, which complementary_candidates chooses from."""
    table = defaultdict(dict)
    for p, by_size in read_times(paths, coll, with_library=criterion == "regret", metric=metric).items():
        for size, times in by_size.items():
            table[p][size] = (regret_scores(times, balanced_slack) if criterion == "regret"
                              else scores(times, balanced_tolerance, balanced_slack))
            if by_scenario is not None and criterion == "regret":
                by_scenario.setdefault(p, {})[size] = scenario_regrets(times, balanced_slack)
    return table


def regret_report(paths, coll, algo="auto", metric="e_bar"):
    """Markdown: ALGO's regret (its time / the best of the other algorithms, the library's own included) in
    every cell (p, size, scenario) of the sweeps, and its worst."""
    with_auto = read_times(paths, coll, with_library=True, metric=metric, with_auto=algo == "auto")
    out, worst = [], (0.0, "")
    for p in sorted(with_auto):
        scenarios = sorted({sc for by_sc in with_auto[p].values() for sc in by_sc})
        out += [f"{coll}, p = {p}: {algo} / best of the other algorithms (papcoll's and the library's own)", "",
                "| size | " + " | ".join(scenarios) + " |", "|---:|" + "---:|" * len(scenarios)]
        for size in sorted(with_auto[p]):
            cells = []
            for sc in scenarios:
                times = with_auto[p][size].get(sc, {})
                others = [t for a, t in times.items() if a != algo]
                if algo not in times or not others:
                    cells.append("-")
                    continue
                r = times[algo] / min(others)
                worst = max(worst, (r, f"p={p} {size_text(size)} {sc}"))
                cells.append(f"{r:.2f}")
            out.append(f"| {size_text(size)} | " + " | ".join(cells) + " |")
        out.append("")
    out.append(f"Worst: {worst[0]:.2f} ({worst[1]})" if worst[1] else f"No {algo} rows.")
    return "\n".join(out)


def winners(by_size, tolerance):
    """[(size, algo)] in increasing size, smoothed by tolerance; equal scores (algorithms that share an engine
    at a size, e.g. the cp_* broadcasts up to 16 KiB) go to the alphabetically first."""
    out, previous = [], None
    for size in sorted(by_size):
        times = by_size[size]
        best = min(times, key=lambda a: (times[a], a))  # a tie goes to the first name: the same rules every run
        if previous in times and times[previous] <= times[best] * (1 + tolerance):
            best = previous
        out.append((size, best))
        previous = best
    return out


def ranked_candidates(by_size, sizes, first, k):
    """FIRST, then up to K-1 other algorithms in increasing order of their worst score over SIZES (the
    sizes one rule covers; lower is better, e.g. worst-case regret): the `a|b|c` candidates that
    PAPCOLL_ADAPT measures (src/select/tune.h).  An algorithm not scored at every size is left out."""
    if k <= 1:
        return [first]
    common = set.intersection(*(set(by_size[s]) for s in sizes)) - {first}
    worst = {a: max(by_size[s][a] for s in sizes) for a in common}
    return [first] + sorted(worst, key=lambda a: (worst[a], a))[:k - 1]


def complementary_candidates(by_size, sizes, first, k):
    """FIRST, then up to K-1 others chosen one at a time: each time the algorithm that most lowers the
    worst case, over SIZES and every scenario, of the best regret among the candidates so far (BY_SIZE:
    {size: {scenario: {algo: regret}}}, scenario_regrets).  That worst case is what selection among the
    candidates per call (PAPCOLL_ADAPT) can at best reach, so algorithms that win where FIRST loses come
    before those that share its engine; ties go to the smaller worst regret of its own, then the name."""
    cells = [by_size[s][sc] for s in sizes for sc in by_size[s]]
    if k <= 1 or not cells:
        return [first]
    left = set.intersection(*(set(c) for c in cells)) - {first}
    chosen = [first]
    while len(chosen) < k and left:
        def key(a):
            return (max(min(c[x] for x in chosen + [a]) for c in cells), max(c[a] for c in cells), a)
        best = min(left, key=key)
        chosen.append(best)
        left.remove(best)
    return chosen


def rules_for(table, coll, tolerance, candidates=1, by_scenario=None):
    """Rules (tune grammar) from {p: {size: {algo: score}}}: per process count, the smoothed winner of
    each size range, followed by up to CANDIDATES-1 others when CANDIDATES > 1: complementary_candidates
    when BY_SCENARIO (read_sweeps) is given, else the runners-up of ranked_candidates."""
    rules = []
    ps = sorted(table)
    for i, p in enumerate(ps):
        wins = winners(table[p], tolerance)
        p_cond = [f"p<={p}"] if i + 1 < len(ps) else []
        covered = []
        for j, (size, algo) in enumerate(wins):
            covered.append(size)
            last = j + 1 == len(wins)
            if not last and wins[j + 1][1] == algo:
                continue
            conds = p_cond + ([] if last else [f"bytes<={size_text(size)}"])
            names = "|".join(complementary_candidates(by_scenario[p], covered, algo, candidates) if by_scenario
                             else ranked_candidates(table[p], covered, algo, candidates))
            covered = []
            rules.append(f"{coll}[{','.join(conds)}]={names}" if conds else f"{coll}={names}")
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
    ap.add_argument("--criterion", choices=("regret", "balanced"), default="regret",
                    help="regret (default): smallest worst-case regret over the scenarios (patterns x platforms); "
                         "balanced: the balanced-tolerance choice of the earlier rules (module doc)")
    ap.add_argument("--slack", type=float, default=None,
                    help="seconds: with --criterion=regret, a time within this much of a scenario's best has "
                         "regret 1 (default: --balanced-slack)")
    ap.add_argument("--regret-report", action="store_true",
                    help="instead of rules, print --algo's regret in every cell as Markdown")
    ap.add_argument("--algo", default="auto", help="the algorithm --regret-report is about (default auto)")
    ap.add_argument("--metric", choices=("e_bar", "e_root", "after_last", "g"), default="e_bar",
                    help="what is compared: e_bar (default, the mean time in the call, Patarasuk & Yuan 2008), e_root (the "
                         "root's time: the telling one for a gather or reduce, whose non-roots leave at once), "
                         "after_last (time after the last arrival) or g (the slowest process's time)")
    ap.add_argument("--candidates", type=int, default=1, metavar="K",
                    help="name K candidates per rule (`a|b|c`, K <= 8, PC_TUNE_MAX_CANDIDATES) for PAPCOLL_ADAPT to "
                         "measure: the winner, then (--criterion=regret) one at a time the algorithm that most lowers "
                         "the worst case over the rule's sizes and scenarios of the best regret among those chosen, "
                         "or (--criterion=balanced) the K-1 others of best worst score (default 1: the winner only)")
    ap.add_argument("--format", choices=("rules", "c"), default="rules")
    args = ap.parse_args(argv)
    if not 1 <= args.candidates <= 8:
        sys.exit(f"papcoll-tune: --candidates={args.candidates}: give 1 to 8")
    if args.regret_report:
        print(regret_report(args.csv, args.coll, args.algo, args.metric))
        return
    slack = args.balanced_slack if args.slack is None or args.criterion == "balanced" else args.slack
    by_scenario = {}
    table = read_sweeps(args.csv, args.coll, args.balanced_tolerance, slack, args.criterion, args.metric, by_scenario)
    if not table:
        sys.exit(f"papcoll-tune: no {args.coll} rows in {', '.join(args.csv)}")
    rules = rules_for(table, args.coll, args.tolerance, args.candidates, by_scenario or None)
    if args.format == "c":
        given = sys.argv[1:] if argv is None else list(argv)
        print("/* generated by: papcoll-tune " + " ".join(given) + " */")
        for k, r in enumerate(rules):
            print(f'"{r}{";" if k + 1 < len(rules) else ""}"')
    else:
        print("; ".join(rules))


if __name__ == "__main__":
    main()
