# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim report SWEEP.csv -o DIR: figures and a Markdown report (DIR/report.md) of a merged sweep.

Rows are grouped by their settings (every parameter column but the algorithm, size and pattern);
settings equal in every row are listed once.  Per group: a table of e_bar per algorithm x
(pattern, size), and figures of e_bar versus each dimension that varies (size, the level of each
pattern family, process count, numeric environment variables such as PAPCOLL_BCAST_CHUNKS), one
line per algorithm.  Every figure and table says the numbers are simulated (SimGrid SMPI); the SMPI
settings of the runs are listed at the end.
"""
from __future__ import annotations

import csv
import os
import re
from collections import defaultdict

from . import plot, results
from .sim.sweep import MEASURED

# the benchmark's columns; its `coll` is a setting like a parameter (a sweep may hold several collectives)
BENCH = {"algo", "size", "pattern", "check", "p", "ppn", "point"} | results.NUMERIC
TITLES = {"bcast": "Broadcast", "reduce": "Reduce", "allreduce": "Allreduce"}
MAX_FIGURES = 60


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in (results.NUMERIC | {"wall_s", "cpu_s", "maxrss_mb", "pss_mb"}) & r.keys():
            r[k] = results.number(r[k])
    return rows


def _numeric(values):
    """True when every non-empty value is a number (a parameter set for some points only, such as
    PAPCOLL_BCAST_CHUNKS for the pipelined algorithms, is empty elsewhere), and at least one is."""
    try:
        return bool([float(v) for v in values if v != ""])
    except (TypeError, ValueError):
        return False


def _label(keys, values):
    return ", ".join(f"{k}={_size(v) if k == 'size' else v}" for k, v in zip(keys, values) if v != "") or "all points"


def _size(n):
    n = int(n)
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def _family(pattern):
    return pattern.split(":")[0]


class Report:
    def __init__(self, rows, out):
        self.rows, self.out, self.figures = rows, out, []
        header = list(rows[0].keys())
        params = [c for c in header if c not in BENCH and c not in MEASURED]
        self.common = {c: rows[0][c] for c in params if len({r[c] for r in rows}) == 1}
        self.varying = [c for c in params if c not in self.common]
        # numeric parameters (np, PAPCOLL_BCAST_CHUNKS, ...) may be an x axis
        self.numeric = [c for c in self.varying if _numeric(r[c] for r in rows)]
        # figure titles name the collective when there is one (else each figure's label says coll=...)
        coll = self.common.get("coll")
        self.what = f"{TITLES[coll]} " if coll in TITLES else ""

    def groups(self, keys, rows=None):
        out = defaultdict(list)
        for r in rows or self.rows:
            out[tuple(r[k] for k in keys)].append(r)
        return sorted(out.items(), key=lambda kv: [str(v) for v in kv[0]])

    def figure(self, name, series, title, xlabel, xlog=None):
        if len(self.figures) >= MAX_FIGURES or not any(len(p) > 1 for p in series.values()):
            return
        fname = re.sub(r"[^A-Za-z0-9_.=-]+", "_", name)[:120] + ".png"
        plot.line_figure(series, os.path.join(self.out, fname), title + " (simulated, SimGrid SMPI)", xlabel,
                         ylabel="e_bar, average per-process time (us, simulated)", xlog=xlog, errors=True)
        self.figures.append((fname, title))

    def series(self, rows, x):
        s = defaultdict(list)
        for r in rows:
            s[r["algo"]].append((x(r), r["e_bar"], r["e_bar_lo"], r["e_bar_hi"]))
        return s

    def make_figures(self):
        ctx = self.varying
        # e_bar versus size, per settings and pattern
        for key, rows in self.groups(ctx + ["pattern"]):
            self.figure(f"size_{_label(ctx + ['pattern'], key)}", self.series(rows, lambda r: r["size"]),
                        f"{self.what}e_bar vs size, {_label(ctx + ['pattern'], key)}", "message size (bytes)", xlog=2)
        # e_bar versus the level of each pattern family (balanced = level 0 of every family)
        families = sorted({_family(r["pattern"]) for r in self.rows} - {"balanced"})
        for fam in families:
            fam_rows = [r for r in self.rows if _family(r["pattern"]) in (fam, "balanced")]
            for key, rows in self.groups(ctx + ["size"], fam_rows):
                label = _label(ctx + ["size"], key)
                self.figure(f"pattern_{fam}_{label}", self.series(rows, lambda r: results.pattern_level(r["pattern"])),
                            f"{self.what}e_bar vs {fam} level, {label}", f"{fam} level (units of T; 0 = balanced)")
        # e_bar versus each numeric parameter (process count, segment count, ...)
        for x in self.numeric:
            rest = [c for c in ctx if c != x] + ["size", "pattern"]
            for key, rows in self.groups(rest, [r for r in self.rows if r[x] != ""]):
                label = _label(rest, key)
                self.figure(f"{x}_{label}", self.series(rows, lambda r, x=x: float(r[x])),
                            f"{self.what}e_bar vs {x}, {label}", x, xlog=10)

    def tables(self):
        """One table per setting of the varying parameters; columns (pattern, size) and, when a numeric
        parameter varies (e.g. PAPCOLL_BCAST_CHUNKS), the values of the one with most values."""
        x = max(self.numeric, key=lambda c: len({r[c] for r in self.rows}), default=None)
        keys = [c for c in self.varying if c != x]

        def col(r):
            return (r["pattern"], r["size"], r[x] if x else "")

        def col_label(c):
            text = f"{c[0]}, {_size(c[1])}"
            return text + (f", {x}={c[2] or '-'}" if x else "")

        def order(c):
            return (c[0], c[1], float(c[2]) if c[2] != "" else -1.0)
        lines = []
        for key, rows in self.groups(keys):
            cols = sorted({col(r) for r in rows}, key=order)
            algos = sorted({r["algo"] for r in rows})
            value = {(r["algo"], col(r)): r["e_bar"] for r in rows}
            p = sorted({int(r["p"]) for r in rows})
            lines += [f"### {_label(keys, key)}", "",
                      f"e_bar (us, simulated), p = {'/'.join(map(str, p))}; best of each column in bold", "",
                      plot.markdown_table("algorithm", algos, cols, value, col_label)]
        return lines

    def cost(self):
        points = list({r["point"]: r for r in self.rows}.values())
        wall = sum(r["wall_s"] for r in points)
        pss = [r["pss_mb"] for r in points if r.get("pss_mb", float("nan")) == r.get("pss_mb")]
        mem = f"{max(pss):.0f} MB (PSS)" if pss else f"{max(r['maxrss_mb'] for r in points):.0f} MB (maxrss)"
        return f"{len(points)} simulated runs, {wall:.0f} s of wall time in total, largest run {mem}"

    def settings(self):
        """The runs' #@smpi_settings: the parts every run shares once, then each run's other parts."""
        parts = [tuple(re.split(r"; | (?=--cfg=)", s)) for s in sorted({r["smpi_settings"] for r in self.rows})]
        common = [x for x in parts[0] if all(x in p for p in parts)]
        lines = ["Every run: " + ", ".join(f"`{x}`" for x in common), ""] if common else []
        lines += ["- " + ", ".join(f"`{x}`" for x in p if x not in common) for p in parts
                  if any(x not in common for x in p)]
        return lines

    def markdown(self):
        self.make_figures()
        lines = ["# Sweep report (simulated with SimGrid SMPI)", "",
                 "Every number is a simulated time (SimGrid SMPI), not a measurement on hardware. "
                 "e_bar = mean over processes of arrival-to-exit time, median over repetitions (docs/benchmark.md).", "",
                 "Settings common to every point: " + (", ".join(f"{k}={v}" for k, v in self.common.items()) or "none"), "",
                 "Cost: " + self.cost() + ".", "", "## Tables", ""]
        lines += self.tables()
        lines += ["## Figures", ""]
        lines += [f"![{title}]({fname})\n" for fname, title in self.figures]
        if len(self.figures) >= MAX_FIGURES:
            lines.append(f"(figures stop at {MAX_FIGURES})\n")
        lines += ["## SMPI settings of the runs", ""] + self.settings()
        return "\n".join(lines) + "\n"


def write(csv_path, out):
    """Writes OUT/report.md and its figures; returns the report's path."""
    rows = read(csv_path)
    if not rows:
        raise SystemExit(f"papcoll sim report: no rows in {csv_path}")
    os.makedirs(out, exist_ok=True)
    text = Report(rows, out).markdown()
    path = os.path.join(out, "report.md")
    with open(path, "w") as f:
        f.write(text)
    return path
