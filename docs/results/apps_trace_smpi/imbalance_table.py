#!/usr/bin/env python3
"""imbalance_table.py - the Markdown table of the applications' arrival imbalance from run_trace.sh's outputs.

Per run (DIR/APP.PLATFORM.ALGO.NOISE.txt with the program's summary line, and DIR/APP.PLATFORM.ALGO.NOISE/sites.csv
of `papcoll trace report`): the run time and the time in the timed collective (ms, as docs/apps.md), then the
report's imbalance of the timed collective's call site (app_common.c): delta_bar and omega, mean and maximum over
its calls (us), and the intra-node share of the arrivals' variance.  SOURCE: run_trace.sh's OUTDIR, or a CSV that
`imbalance_table.py OUTDIR --to-csv FILE` folded it into (one row per run: what the table uses).
"""
import argparse
import csv
import os
import re

SUMMARY = re.compile(r"^app=(?P<app>[^,]+),.*?,p=(?P<p>\d+),.*?,collective=(?P<coll>[^,]+),.*?solve_s=(?P<solve>[^,]+),"
                     r"\w+_mean_s=(?P<in_coll>[^,]+),")
APPS = ["floyd_warshall", "matvec", "fft3d"]


SITE_FIELDS = ["collective", "calls", "delta_bar_mean_us", "delta_bar_max_us", "omega_mean_us", "omega_max_us",
               "intra_share_mean"]
COLUMNS = ["app", "platform", "algo", "noise", "command", "summary"] + SITE_FIELDS


def read_dir(root):
    """One record per run with a summary line and a report: the run's fields and its timed call site's."""
    for name in sorted(os.listdir(root)):
        if not name.endswith(".txt"):
            continue
        base = name[:-4]
        app, platform, algo, noise = base.split(".", 3)
        with open(os.path.join(root, name)) as f:
            lines = f.read().splitlines()
        summary = next((line for line in lines if SUMMARY.match(line)), None)
        sites = os.path.join(root, base, "sites.csv")
        if not summary or not os.path.exists(sites):
            continue  # failed or unfinished run
        coll = SUMMARY.match(summary)["coll"]
        with open(sites) as f:
            site = next((r for r in csv.DictReader(f) if r["collective"] == coll and "app_common" in r["site"]), None)
        if site:
            yield dict({k: site[k] for k in SITE_FIELDS}, app=app, platform=platform, algo=algo,
                       noise=noise.replace("_", ":"), command=lines[0].lstrip("# "), summary=summary)


def rows(source):
    if os.path.isdir(source):
        records = list(read_dir(source))
    else:
        with open(source, newline="") as f:
            records = list(csv.DictReader(f))
    for r in records:
        m = SUMMARY.match(r["summary"])
        yield r["app"], int(m["p"]), r["algo"], r["noise"], m, r


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="run_trace.sh's OUTDIR, or a CSV written by --to-csv")
    parser.add_argument("--to-csv", metavar="FILE", help="write the runs to FILE, one row per run ("
                        + ", ".join(COLUMNS) + "), instead of the table")
    args = parser.parse_args()
    root = args.source
    if args.to_csv:
        with open(args.to_csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(read_dir(root))
        return
    print("| app | ranks | algorithm | noise | run time (collective) ms | calls | delta_bar mean | delta_bar max "
          "| omega mean | omega max | intra share |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    order = {"none": 0, "xe6": 1}
    for app, p, algo, noise, m, s in sorted(rows(root), key=lambda r: (APPS.index(r[0]) if r[0] in APPS else 9, r[1],
                                                                        r[2], order.get(r[3], 2))):
        f = lambda k, d=1: f"{float(s[k]):.{d}f}"  # noqa: E731
        print(f"| {app} | {p} | {algo} | {noise} | {float(m['solve']) * 1e3:.4g} ({float(m['in_coll']) * 1e3:.3g}) "
              f"| {s['collective']} x {s['calls']} | {f('delta_bar_mean_us')} | {f('delta_bar_max_us')} "
              f"| {f('omega_mean_us')} | {f('omega_max_us')} | {f('intra_share_mean', 2)} |")


if __name__ == "__main__":
    main()
