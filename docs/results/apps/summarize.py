#!/usr/bin/env python3
"""summarize.py - the Markdown tables of docs/apps.md from the raw outputs of run_apps.sh.

For each application and platform: one row per algorithm, and per noise model the run time per
repetition (solve_s, the slowest rank, in ms), the time in the timed collective (mean over ranks, ms)
and the speedup of the run time over `native` (SMPI's own collective) with the same noise.
Usage: summarize.py [DIR]   (default: this file's directory; --help: the options)
"""
import argparse
import collections
import os
import re

FIELDS = re.compile(r"^app=(?P<app>[^,]+),.*?,p=(?P<p>\d+),.*?,impl=papcoll:(?P<impl>[^,]+),solve_s=(?P<solve>[^,]+),"
                    r"\w+_mean_s=(?P<coll>[^,]+),.*?,noise=(?P<noise>[^,]+),work_mean_s=(?P<work>[^,]+),"
                    r"noise_mean_s=(?P<nz>[^,\s]+)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", nargs="?", default=os.path.dirname(os.path.abspath(__file__)),
                        help="directory of run_apps.sh (or run_trace.sh) outputs, APP.PLATFORM.ALGO.NOISE.txt "
                             "(default: this file's directory)")
    root = parser.parse_args().dir
    runs = collections.defaultdict(dict)  # (app, platform) -> (algo, noise) -> fields
    algos, noises = collections.defaultdict(list), collections.defaultdict(list)
    for name in sorted(os.listdir(root)):
        if not name.endswith(".txt"):
            continue
        app, platform, algo, noise = name[:-4].split(".", 3)
        noise = noise.replace("_", ":")  # run_apps.sh writes jitter:0.05 as jitter_0.05 in file names
        text = open(os.path.join(root, name)).read()
        m = next((FIELDS.match(line) for line in text.splitlines() if FIELDS.match(line)), None)
        key = (app, platform)
        if algo not in algos[key]:
            algos[key].append(algo)
        if noise not in noises[key]:
            noises[key].append(noise)
        runs[key][(algo, noise)] = m
    order = ["native", "auto"]
    labels = {"jitter:0.05": "xe6-nas (jitter:0.05)"}
    apps = ["floyd_warshall", "matvec", "fft3d"]
    for key in sorted(runs, key=lambda k: (apps.index(k[0]) if k[0] in apps else 9, int(re.search(r"(\d+)x(\d+)", k[1])[1])
                                          * int(re.search(r"(\d+)x(\d+)", k[1])[2]))):
        app, platform = key
        p = next((m["p"] for m in runs[key].values() if m), None)
        if p is None:  # runs not finished (or failed): nothing to show
            continue
        ns = sorted(noises[key], key=lambda n: ["none", "xe6"].index(n) if n in ("none", "xe6") else 2)
        al = sorted(algos[key], key=lambda a: (order.index(a) if a in order else 2, a))
        print(f"\n{app}, {p} ranks, {platform}: run time per repetition in ms (time in the collective, "
              "mean over ranks) and speedup over native\n")
        print("| algorithm | " + " | ".join(f"noise {labels.get(n, n)}" for n in ns) + " |")
        print("|---" * (len(ns) + 1) + "|")
        for a in al:
            cells = []
            for n in ns:
                m, base = runs[key].get((a, n)), runs[key].get(("native", n))
                if not m:
                    cells.append("-")
                    continue
                cell = f"{float(m['solve']) * 1e3:.4g} ({float(m['coll']) * 1e3:.3g})"
                if base:
                    cell += f" **{float(base['solve']) / float(m['solve']):.2f}x**"
                if a == "auto":
                    cell += f" [{m['impl']}]"
                cells.append(cell)
            print(f"| {a} | " + " | ".join(cells) + " |")
        nz = [(n, runs[key].get(("native", n))) for n in ns]
        print("\nnoise per repetition (mean over ranks, ms; native run): " +
              ", ".join(f"{labels.get(n, n)}: {float(m['nz']) * 1e3:.3f} of {float(m['work']) * 1e3:.2f} computation" for n, m in nz if m))


if __name__ == "__main__":
    main()
