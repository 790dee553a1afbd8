# SPDX-License-Identifier: BSD-3-Clause
"""Markdown summary of tools/sweeps/adapt_steady.sh's files: auto with and without PAPCOLL_ADAPT=1, the mean e_bar
over the timed calls (SIMULATED), against each other (same arrival draws) and, balanced, against the best
algorithm of a regret sweep (median of its calls).  `--per-call RAW` instead turns a papcoll-bench --raw file
into size,rep,e_bar lines (the mean over the processes of each call's arrival-to-exit time).  `--fold OUT_DIR`
merges a directory's per-run files (<run>_per_call.csv, <run>.csv, <run>.adapt, run = <coll>_<pattern>_adapt<k>)
into e_bar.csv (per run and size: timed calls, mean and largest per-call e_bar, what the summary uses),
runs.csv (the benchmark's rows, a leading `run` column) and decisions.txt, replacing runs already there, and
removes them; the summary reads either form."""
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


def call_stats(path):
    """{size: (mean, max, calls)} of a per-call file's e_bar."""
    calls = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            calls[int(row["size"])].append(float(row["e_bar"]))
    return {size: (sum(v) / len(v), max(v), len(v)) for size, v in calls.items()}


def means(out_dir, run):
    """{size: (mean, max)} of run's per-call e_bar: from its own file, or from the folded e_bar.csv."""
    path = os.path.join(out_dir, f"{run}_per_call.csv")
    if os.path.exists(path):
        return {size: st[:2] for size, st in call_stats(path).items()}
    with open(os.path.join(out_dir, "e_bar.csv")) as f:
        return {int(r["size"]): (float(r["mean"]), float(r["max"])) for r in csv.DictReader(f) if r["run"] == run}


def root_times(out_dir, run):
    """{size: e_root} of run (the benchmark's median over the timed calls): from its own file, or from the folded
    runs.csv."""
    path = os.path.join(out_dir, f"{run}.csv")
    if os.path.exists(path):
        with open(path) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    else:
        with open(os.path.join(out_dir, "runs.csv")) as f:
            rows = [r for r in csv.DictReader(f) if r["run"] == run]
    return {int(r["size"]): float(r["e_root"]) for r in rows if r.get("e_root") not in (None, "", "nan")}


def _merge(path, new_rows, header):
    """path's rows (a `run` column first) with new_rows' runs replaced; header: the columns after `run`."""
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            r = csv.reader(f)
            existing = next(r, None)
            header = header or (existing[1:] if existing else [])
            # header rows that earlier merges repeated are dropped
            rows = [row for row in r if row and row[0] != "run" and row[0] not in {n[0] for n in new_rows}]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + header)
        w.writerows(sorted(rows + new_rows, key=lambda row: row[0]))


def fold(out_dir):
    """Merges out_dir's per-run files into e_bar.csv, runs.csv and decisions.txt, then removes them."""
    stat_rows, bench_rows, bench_header, done = [], [], None, []
    for path in sorted(glob.glob(os.path.join(out_dir, "*_per_call.csv"))):
        run = os.path.basename(path)[:-len("_per_call.csv")]
        stat_rows += [[run, size, n, repr(mean), repr(top)] for size, (mean, top, n) in sorted(call_stats(path).items())]
        done.append(path)
        bench = os.path.join(out_dir, f"{run}.csv")
        if os.path.exists(bench):
            with open(bench) as f:
                lines = list(csv.reader(line for line in f if not line.startswith("#")))
            bench_header = bench_header or lines[0]
            bench_rows += [[run] + row for row in lines[1:]]
            done.append(bench)
    if stat_rows:
        _merge(os.path.join(out_dir, "e_bar.csv"), stat_rows, ["size", "calls", "mean", "max"])
    if bench_rows:
        _merge(os.path.join(out_dir, "runs.csv"), bench_rows, bench_header)
    reports = sorted(glob.glob(os.path.join(out_dir, "*.adapt")))
    if reports:
        decisions, path_out = {}, os.path.join(out_dir, "decisions.txt")
        if os.path.exists(path_out):
            with open(path_out) as f:
                for block in f.read().split("== ")[1:]:
                    run, text = block.split("\n", 1)
                    decisions[run] = text
        for path in reports:
            with open(path) as f:
                decisions[os.path.basename(path)[:-len(".adapt")]] = f.read()
            done.append(path)
        with open(path_out, "w") as out:
            out.write("".join(f"== {run}\n{text}" for run, text in sorted(decisions.items())))
    for path in done:
        os.remove(path)


def regret_files(regret_dir, coll, family):
    """The regret sweep's files of coll on family, its first auto run left out (auto2 is this build's auto)."""
    pattern = os.path.join(regret_dir, family, "bcast", "*.csv") if coll == "bcast" else \
        os.path.join(regret_dir, family, f"{coll}_*.csv")
    return [f for f in glob.glob(pattern) if not f.endswith("-auto2.csv")]


ROOT_COLLECTS = ("reduce", "gather", "gatherv")  # the root's time is a target of its own (select/adapt.h)


def regrets(best, size, platform, pattern, static, adaptive):
    """'static | adaptive' over the best of any algorithm in the cell (balanced only), or '- | -'."""
    cell = best.get(size, {}).get(f"{platform}@{pattern}", {})
    b = min((t for a, t in cell.items() if a != "auto"), default=None)
    if pattern != "balanced" or not b or static is None or adaptive is None:
        return "- | -"
    return f"{static / b:.2f} | {adaptive / b:.2f}"


def summary(out_dir, coll, platform, patterns, regret_dir=None):
    family = platform.split(":")[0]
    p = sim_platform.generate(platform).slots
    best, best_root = {}, {}
    rooted = coll in ROOT_COLLECTS
    if regret_dir:
        files = regret_files(regret_dir, coll, family)
        best = tune.read_times(files, coll, with_library=True).get(p, {})
        if rooted:
            best_root = tune.read_times(files, coll, with_library=True, metric="e_root").get(p, {})
    lines = [f"# {coll}: auto with and without PAPCOLL_ADAPT=1, steady state (SIMULATED, {p} ranks, {platform})", "",
             "Made by tools/sweeps/adapt_steady.sh (untimed calls per size, then timed ones; e_bar per call = mean "
             "over the processes of arrival-to-exit time). Regret: the mean over the timed calls / the best median "
             "e_bar of any algorithm in the regret sweep" + (f" ({regret_dir})" if regret_dir else " (none given)") +
             " (balanced only: under the random patterns each call draws other late processes, so a many-call mean "
             "and a 3-call median are not comparable; the ADAPT / no-ADAPT ratio, same draws, is)." +
             (" Root regret: the root's time (the benchmark's median e_root over the timed calls) / the best median "
              "e_root of any algorithm in the regret sweep." if rooted else ""), "",
             "| pattern | size | auto, us | auto + ADAPT, us | ADAPT / auto | balanced: auto regret | "
             "balanced: ADAPT regret | " + ("balanced: auto root regret | balanced: ADAPT root regret | " if rooted else "")
             + "ADAPT's slowest call / its mean |",
             "|---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if rooted else "") + "---:|"]
    for pattern in patterns:
        tag = pattern.replace(":", "-")
        a0 = means(out_dir, f"{coll}_{tag}_adapt0")
        a1 = means(out_dir, f"{coll}_{tag}_adapt1")
        r0 = root_times(out_dir, f"{coll}_{tag}_adapt0") if rooted else {}
        r1 = root_times(out_dir, f"{coll}_{tag}_adapt1") if rooted else {}
        for size in sorted(a0):
            reg = regrets(best, size, platform, pattern, a0[size][0], a1[size][0])
            if rooted:
                reg += " | " + regrets(best_root, size, platform, pattern, r0.get(size), r1.get(size))
            lines.append(f"| {pattern} | {tune.size_text(size)} | {a0[size][0] * 1e6:.2f} | {a1[size][0] * 1e6:.2f} | "
                         f"{a1[size][0] / a0[size][0]:.3f} | {reg} | {a1[size][1] / a1[size][0]:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out_dir", nargs="?", help="adapt_steady.sh's output directory")
    ap.add_argument("--per-call", metavar="RAW", help="print RAW's per-call mean e_bar (size,rep,e_bar) and exit")
    ap.add_argument("--fold", action="store_true",
                    help="merge OUT_DIR's per-run files into e_bar.csv, runs.csv, decisions.txt (removing them) and exit")
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
    if a.fold:
        fold(a.out_dir)
        return 0
    p = sim_platform.generate(a.platform).slots
    patterns = (a.patterns or f"balanced late:0.2:{p} uniform:{p}").split()
    sys.stdout.write(summary(a.out_dir, a.coll, a.platform, patterns, a.regret_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
