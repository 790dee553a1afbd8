#!/usr/bin/env python3
"""summarize.py - the Markdown tables of docs/apps.md from the raw outputs of run_apps.sh.

For each application and platform: one row per algorithm, and per noise model the run time per
repetition (solve_s, the slowest rank, in ms), the time in the timed collective (mean over ranks, ms)
and the speedup of the run time over `native` (SMPI's own collective) with the same noise.
Usage: summarize.py [SOURCE]   SOURCE: a directory of run_apps.sh outputs (default: this file's directory) or
a CSV that `summarize.py DIR --to-csv FILE` folded them into (one row per run: the file name's fields, the
command, the program's summary line, rc and wall time); --help: the options.
"""
import argparse
import collections
import csv
import os
import re

FIELDS = re.compile(r"^app=(?P<app>[^,]+),.*?,p=(?P<p>\d+),.*?,impl=papcoll:(?P<impl>[^,]+),solve_s=(?P<solve>[^,]+),"
                    r"\w+_mean_s=(?P<coll>[^,]+),.*?,noise=(?P<noise>[^,]+),work_mean_s=(?P<work>[^,]+),"
                    r"noise_mean_s=(?P<nz>[^,\s]+)")


COLUMNS = ["app", "platform", "algo", "noise", "command", "summary", "rc", "wall_s"]
ORDER = ["native", "auto"]  # algorithms first in the tables, the rest by name (auto-SETTINGS after auto)
LABELS = {"jitter:0.05": "xe6-nas (jitter:0.05)"}
APPS = ["floyd_warshall", "matvec", "fft3d"]


def read_dir(root):
    """One record per run file APP.PLATFORM.ALGO.NOISE.txt: its command (first line), the program's summary
    line (app=...), rc and wall time (last line)."""
    for name in sorted(os.listdir(root)):
        if not name.endswith(".txt"):
            continue
        app, platform, algo, noise = name[:-4].split(".", 3)
        lines = open(os.path.join(root, name)).read().splitlines()
        end = re.search(r"rc=(\S+) wall_s=(\S+)", lines[-1]) if lines else None
        yield {"app": app, "platform": platform, "algo": algo,
               "noise": noise.replace("_", ":"),  # run_apps.sh writes jitter:0.05 as jitter_0.05 in file names
               "command": lines[0].lstrip("# ") if lines else "",
               "summary": next((line for line in lines if FIELDS.match(line)), ""),
               "rc": end[1] if end else "", "wall_s": end[2] if end else ""}


def read(source):
    if os.path.isdir(source):
        return list(read_dir(source))
    with open(source, newline="") as f:
        return list(csv.DictReader(f))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", nargs="?", default=os.path.dirname(os.path.abspath(__file__)),
                        help="directory of run_apps.sh (or run_trace.sh) outputs, APP.PLATFORM.ALGO.NOISE.txt "
                             "(default: this file's directory), or a CSV written by --to-csv")
    parser.add_argument("--wide", action="store_true",
                        help="one table of every program, platform and algorithm, a row each, a column per noise model "
                             "(docs/apps.md \"Default auto\"), instead of a table per program and platform")
    parser.add_argument("--to-csv", metavar="FILE",
                        help="write the runs to FILE, one row per run (" + ", ".join(COLUMNS) + "), instead of the tables")
    args = parser.parse_args()
    records = read(args.source)
    if args.to_csv:
        with open(args.to_csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(records)
        return
    runs = collections.defaultdict(dict)  # (app, platform) -> (algo, noise) -> fields
    algos, noises = collections.defaultdict(list), collections.defaultdict(list)
    for r in records:
        app, platform, algo, noise = r["app"], r["platform"], r["algo"], r["noise"]
        m = FIELDS.match(r["summary"])
        key = (app, platform)
        if algo not in algos[key]:
            algos[key].append(algo)
        if noise not in noises[key]:
            noises[key].append(noise)
        runs[key][(algo, noise)] = m
    keys = sorted(runs, key=lambda k: (APPS.index(k[0]) if k[0] in APPS else 9, ranks_of(k[1])))
    if args.wide:
        wide(keys, runs, algos, noises)
        return
    for key in keys:
        app, platform = key
        p = next((m["p"] for m in runs[key].values() if m), None)
        if p is None:  # runs not finished (or failed): nothing to show
            continue
        ns, al = noise_order(noises[key]), algo_order(algos[key])
        print(f"\n{app}, {p} ranks, {platform}: run time per repetition in ms (time in the collective, "
              "mean over ranks) and speedup over native\n")
        print("| algorithm | " + " | ".join(f"noise {LABELS.get(n, n)}" for n in ns) + " |")
        print("|---" * (len(ns) + 1) + "|")
        for a in al:
            cells = []
            for n in ns:
                cells.append(cell(a, runs[key].get((a, n)), runs[key].get(("native", n))))
            print(f"| {a} | " + " | ".join(cells) + " |")
        nz = [(n, runs[key].get(("native", n))) for n in ns]
        print("\nnoise per repetition (mean over ranks, ms; native run): " +
              ", ".join(f"{LABELS.get(n, n)}: {float(m['nz']) * 1e3:.3f} of {float(m['work']) * 1e3:.2f} computation" for n, m in nz if m))


def cell(algo, m, base):
    """Run time (time in the collective) ms, speedup over native, and what auto ran."""
    if not m:
        return "-"
    text = f"{float(m['solve']) * 1e3:.4g} ({float(m['coll']) * 1e3:.3g})"
    if base:
        text += f" **{float(base['solve']) / float(m['solve']):.2f}x**"
    if algo.startswith("auto"):  # auto and its variants (run_apps.sh SETTINGS)
        text += f" [{m['impl']}]"
    return text


def wide(keys, runs, algos, noises):
    ns = noise_order({n for k in keys for n in noises[k]})
    print("| program | ranks | algorithm | " + " | ".join(f"noise {LABELS.get(n, n)}" for n in ns) + " |")
    print("|---|---|---" + "|---" * len(ns) + "|")
    for key in keys:
        p = next((m["p"] for m in runs[key].values() if m), None)
        if p is None:
            continue
        for a in algo_order(algos[key]):
            cells = [cell(a, runs[key].get((a, n)), runs[key].get(("native", n))) for n in ns]
            print(f"| {key[0]} | {p} | {a} | " + " | ".join(cells) + " |")


def ranks_of(platform):
    m = re.search(r"(\d+)x(\d+)", platform)
    return int(m[1]) * int(m[2]) if m else 0


def noise_order(noises):
    return sorted(noises, key=lambda n: (["none", "xe6"].index(n) if n in ("none", "xe6") else 2, n))


def algo_order(algos):
    return sorted(algos, key=lambda a: (ORDER.index(a) if a in ORDER else 2, a))


if __name__ == "__main__":
    main()
