# SPDX-License-Identifier: BSD-3-Clause
"""papcoll-plot: figures from papcoll-bench results (PNG, matplotlib).

    papcoll-plot imbalance RESULTS... -o fig.png [--size=BYTES] [--table=FILE.md]
                                                                  e_bar versus MAX_IF per algorithm
    papcoll-plot sizes RESULTS... -o fig.png [--pattern=SPEC]     e_bar versus message size per algorithm
    papcoll-plot timeline RAW.csv -o fig.png --algo=A [--size=B] [--rep=R]
                                                                  one repetition: arrival-to-exit bar per process

RESULTS are CSV or JSON files of papcoll-bench (one pattern each, e.g. one file per MAX_IF);
RAW is a --raw file.  Titles say whether the numbers are simulated (SimGrid) or native.
"""
from __future__ import annotations

import argparse
import csv
import textwrap
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import results  # noqa: E402


def _where(metas):
    sim = {results.simulated(m) for m in metas}
    p = {m.get("p", "?") for m in metas}
    kind = "simulated with SimGrid SMPI" if sim == {True} else "native" if sim == {False} else "mixed"
    return f"p={'/'.join(sorted(p))}, {kind}"


def _series(paths, keep, point):
    """{algorithm: [point(row) for kept rows]} over result files, and their metadata."""
    series, metas = defaultdict(list), []
    for path in paths:
        meta, rows = results.read(path)
        metas.append(meta)
        for r in rows:
            if keep(r):
                series[r["algo"]].append(point(r))
    return series, metas


def line_figure(series, path, title, xlabel, ylabel="average per-process time e_bar (us)", xlog=None, errors=False,
                scale=1e6, ylog=True):
    """One line per label: series = {label: [(x, y[, lo, hi]), ...]} (y in seconds, drawn times SCALE),
    log y axis unless not YLOG, x axis logarithmic to base XLOG when given; error bars from lo/hi when
    ERRORS; long titles wrapped."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, pts in sorted(series.items()):
        pts = sorted(pts)
        x, y = [p[0] for p in pts], [p[1] * scale for p in pts]
        if errors:
            err = [[max(0.0, (p[1] - p[2]) * scale) for p in pts], [max(0.0, (p[3] - p[1]) * scale) for p in pts]]
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
        else:
            ax.plot(x, y, marker="o", label=label)
    if xlog:
        ax.set_xscale("log", base=xlog)
    if ylog:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title("\n".join(textwrap.wrap(title, 95)), fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def save(fig, path, dpi=110, **layout):
    """Lays FIG out (tight_layout(**LAYOUT)), writes it to PATH and closes it; returns PATH."""
    fig.tight_layout(**layout)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def imbalance(args):
    series, metas = _series(args.results, lambda r: not args.size or r["size"] == args.size,
                            lambda r: (results.pattern_level(r["pattern"]), r["e_bar"], r["e_bar_lo"], r["e_bar_hi"]))
    size = f", {int(args.size)} B" if args.size else ""
    line_figure(series, args.output, f"Broadcast under uniform random arrival{size} ({_where(metas)})",
                "MAX_IF (maximum imbalance factor, units of T)", errors=True)
    if args.table:
        write_imbalance_table(series, metas, args.table)


def markdown_table(first, rows, cols, value, col_label=str, scale=1e6, digits=1):
    """Markdown table: one line per row key, one column per column key, value[(row, col)] (seconds,
    shown times SCALE); the smallest value of each column in bold, '-' where missing."""
    best = {c: min((value[(r, c)] for r in rows if (r, c) in value), default=None) for c in cols}
    lines = [f"| {first} | " + " | ".join(col_label(c) for c in cols) + " |", "|---|" + "---:|" * len(cols)]
    for r in rows:
        cells = []
        for c in cols:
            v = value.get((r, c))
            text = "-" if v is None or v != v else f"{v * scale:.{digits}f}"
            cells.append(f"**{text}**" if v is not None and v == best[c] else text)
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_imbalance_table(series, metas, path):
    """Markdown: e_bar (us) per algorithm and MAX_IF, best of each column in bold."""
    levels = sorted({p[0] for pts in series.values() for p in pts})
    value = {(a, p[0]): p[1] for a, pts in series.items() for p in pts}
    with open(path, "w") as f:
        f.write(f"e_bar (us), {_where(metas)}\n\n")
        f.write(markdown_table("algorithm", sorted(series), levels, value, lambda lv: f"MAX_IF={lv:g}"))


def sizes(args):
    series, metas = _series(args.results, lambda r: not args.pattern or r["pattern"] == args.pattern,
                            lambda r: (r["size"], r["e_bar"]))
    pattern = args.pattern or metas[0].get("pattern", "")
    line_figure(series, args.output, f"Broadcast, pattern {pattern} ({_where(metas)})", "message size (bytes)", xlog=2)


def timeline(args):
    with open(args.raw) as f:
        rows = [r for r in csv.DictReader(f) if r["algo"] == args.algo]
    if args.size:
        rows = [r for r in rows if int(r["size"]) == args.size]
    if not rows:
        raise SystemExit("papcoll-plot: no rows for that algorithm/size in " + args.raw)
    size = int(rows[0]["size"])
    rep = str(args.rep if args.rep is not None else rows[0]["rep"])
    rows = [r for r in rows if int(r["size"]) == size and r["rep"] == rep]
    t0 = min(float(r["a"]) for r in rows)
    root = int(rows[0]["root"])
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.25 * len(rows) + 1)))
    for r in rows:
        rank, a, f = int(r["rank"]), (float(r["a"]) - t0) * 1e6, (float(r["f"]) - t0) * 1e6
        ax.barh(rank, f - a, left=a, color="tab:red" if rank == root else "tab:blue", height=0.7)
    ax.set_xlabel("time since the first arrival (us)")
    ax.set_ylabel("rank")
    ax.invert_yaxis()
    ax.set_title(f"{args.algo}, {size} B, repetition {rep}: arrival to exit per process (root {root} in red)")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="papcoll-plot", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("imbalance")
    a.add_argument("results", nargs="+")
    a.add_argument("--size", type=float)
    a.add_argument("--table", help="also write a Markdown table of e_bar per algorithm and MAX_IF")
    b = sub.add_parser("sizes")
    b.add_argument("results", nargs="+")
    b.add_argument("--pattern")
    c = sub.add_parser("timeline")
    c.add_argument("raw")
    c.add_argument("--algo", required=True)
    c.add_argument("--size", type=int)
    c.add_argument("--rep", type=int)
    for p in (a, b, c):
        p.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    {"imbalance": imbalance, "sizes": sizes, "timeline": timeline}[args.cmd](args)


if __name__ == "__main__":
    main()
