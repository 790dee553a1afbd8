# SPDX-License-Identifier: BSD-3-Clause
"""Parsons 2015 reproduced, alltoall: Parsons' imbalance-aware alltoall (thesis section 3.9.3, Table 3.8,
Figs. 3.24-3.26).  Every rank has a common.STACK_KIB stack, and a run of common.BIG_WORLD ranks or more first
takes the machine-wide lock common.BIG_LOCK (common.big_run_settings).

    papcoll sim reproduce parsons2015_alltoall [--out=DIR] [--budget=SECONDS] [--bench=PATH]

Runs the points as one resumable sweep (DIR/sweep, default docs/results/parsons2015_alltoall/sweep) in
priority order (TIERS) until the budget is spent (a started tier finishes; a rerun resumes), then writes
DIR/../parsons2015_alltoall.md (Table 3.8 with e_bar AND the time after the last arrival, ours beside the
thesis's; Figs. 3.24-3.26) and the figures DIR/fig3_24.png, fig3_25.png, fig3_26.png.

Mapping (the thesis -> papcoll):
  MPICH Isend (MPICH 3.0.4's alltoall for small      -> papcoll `isend` (BASE: MPICH's isend algorithm,
  messages: Isend/Irecv to every rank, destinations     destinations from rank + 1, 32 requests at a time)
  starting at rank + 1)
  MPICH Isend Hier. (universal hierarchical, Isend  -> `hier` with PAPCOLL_ALLTOALL_INTER=isend
  among node leaders)
  Hier. aware (static senders per node pair,        -> `aware` (and `aware_barrier`, the thesis's control of
  opportunistic message fragmentation)                 Fig. 3.26: the same with a node barrier first)
  Cray's default alltoall                           -> not reproduced (closed source); SMPI's own MPICH
                                                       selection (`native`) is run beside as a second baseline
  Cray XE6, 32-core nodes; loop iterations          -> as the broadcast part (parsons2015.py): cluster:Nx32,
                                                       preset=gemini; --pattern=microbench:XTIME
  buffer sizes: the total buffer p m from one        -> per destination m = 4, 16, 64, 256 B (-m 4:256:4), one
  integer per destination upward (section 3.9)         MPI_INT per destination and up; Figs. 3.24/3.26 at 64 B
                                                       (131 KB total at 2048 ranks, the thesis's 131k buffer)
Measured: e_bar (mean over processes of exit - arrival, the thesis's mean latency) and after_last (last exit
- last arrival: Fig. 3.24's "mean latency after last arriving process"), medians over the timed
repetitions.  Table 3.8 = mean over sizes and levels of e_bar(isend) / e_bar(algorithm), as the thesis
averages ("averaged over all buffer sizes and levels of imbalance").
"""
from __future__ import annotations

import os
import sys

from .. import report as sweep_report
from . import common, parsons2015
from ..sim import sweep_config

# the sweep's label (column `sweep`), kept from the old command name: every point's key digests it, so a
# new label would orphan the results in docs/results
SWEEP = "seed001_alltoall"
NAME = "parsons2015_alltoall"  # papcoll sim reproduce NAME
LEVELS = parsons2015.LEVELS
SIZES = [4, 16, 64, 256]  # bytes per destination
SIZE_RANGE = "4:256:4"
FIG_SIZE = 64             # Figs. 3.24 and 3.26 (131 KB total at 2048 ranks)
FIG_LEVEL = 10000         # Fig. 3.25's level
WORLDS = [512, 1024, 2048]
PPN = parsons2015.PPN
BASE = "isend"
SMPI_BASE = "native"      # SMPI's own alltoall under `papcoll sim`'s MPICH selection
COLUMNS = ["hier", "aware", "aware_barrier"]
ALGOS = [BASE] + COLUMNS + [SMPI_BASE]
NAMES = {BASE: "MPICH Isend (papcoll isend)", "hier": "Isend Hier. (hier, inter isend)",
         "aware": "Hier. aware (aware)", "aware_barrier": "aware with barrier (aware_barrier)",
         SMPI_BASE: "SMPI's MPICH selection"}
SHORT = {BASE: "Isend", "hier": "Isend Hier.", "aware": "aware", "aware_barrier": "aware+barrier",
         SMPI_BASE: "SMPI mpich"}
ITERS = {512: 2, 1024: 2, 2048: 2}
TIMEOUT = 7200  # seconds per point
ENV = {"PAPCOLL_ALLTOALL_INTER": "isend"}

# Table 3.8: alltoall mean latency speedups over MPICH Isend (Cray default, MPICH Isend Hier., Hier. aware)
PAPER_TABLE = {512: (1.5, 1.5, 2.8), 1024: (1.9, 1.8, 3.3), 2048: (3.0, 2.1, 4.7), 4096: (2.9, 2.4, 6.3),
               8192: (4.0, 3.6, 8.4), 16384: (4.1, 3.7, 7.0), 32768: (10.4, 6.7, 15.4)}
PAPER_COLUMNS = {"hier": 1, "aware": 2}


OTHERS = ",".join(COLUMNS + [SMPI_BASE])  # one run: everything but the isend baseline


BASE_SIZES = "16:256:16"  # the baseline's sizes: 16 and 256 B


def _set(world, levels, sizes=SIZE_RANGE, algos=(OTHERS,)):
    return {"platforms": [parsons2015.platform(world)], "patterns": [parsons2015.pattern(x) for x in levels],
            "algos": list(algos), "sizes": [sizes], "iters": ITERS[world]}


def _base_set(world, levels, sizes=BASE_SIZES):
    """The isend baseline: one timed call per size and no warm-up (it keeps no state between calls, and
    under SMPI a call is deterministic given the arrivals), at two sizes: each call of p ranks is p^2
    messages with 32 requests per process in flight, which SimGrid's network solver pays for about
    quadratically (a 512-rank call: about 25 s of simulation)."""
    return {**_set(world, levels, sizes, algos=(BASE,)), "iters": 1, "warmup": 0}


# Tiers in priority order: a tier starts only while the budget lasts; the baseline's runs at 1024 and 2048
# ranks come last (their cost).  Within the first tier every level's two runs go together, the cheaper
# (less imbalanced) levels first but 40k early for the span, so a run stopped early still has whole levels.
ORDER = [0, 10000, 40000, 20000, 160000, 80000]
TIERS = [
    ("512 ranks, every size and level; isend at 16 and 256 B",
     [f(512, [x]) for x in ORDER for f in (_set, _base_set)]),
    ("1024 ranks, every size and level, all but isend", [_set(1024, LEVELS)]),
    ("2048 ranks, every level, 64 B, all but isend (Figs. 3.24, 3.26)", [_set(2048, LEVELS, sizes=str(FIG_SIZE))]),
    ("1024 ranks, isend at 16 and 256 B, levels 0, 10k, 40k", [_base_set(1024, [0, 10000, 40000])]),
    ("2048 ranks, isend at 64 B, levels 0, 10k", [_base_set(2048, [0, 10000], sizes=str(FIG_SIZE))]),
    ("1024 ranks, isend at 16 and 256 B, levels 20k, 80k, 160k", [_base_set(1024, [20000, 80000, 160000])]),
]


def config(sets):
    return {"name": SWEEP, "colls": ["alltoall"], "warmup": 1, "seed": 1, "env": ENV,
            "bench_args": ["--unit-time=1e-5"], "sweep": sets}


def tier_points():
    return [(label, sweep_config.expand(config(sets))) for label, sets in TIERS]


def all_points():
    return [p for _, pts in tier_points() for p in pts]


# ---- results --------------------------------------------------------------------------------------------

def load(csv_path):
    """{(world, algo, size, level): (e_bar, after_last)} of a merged sweep."""
    out = {}
    if os.path.exists(csv_path):
        for r in sweep_report.read(csv_path):
            out[(int(r["p"]), r["algo"], int(r["size"]), parsons2015._level(r["pattern"]))] = (r["e_bar"], r["after_last"])
    return out


def metric(res, world, which):
    """{(algo, size, level): value} of WORLD; WHICH 0 = e_bar, 1 = after_last."""
    return {(a, s, x): v[which] for (w, a, s, x), v in res.items() if w == world}


def covered(res, world, algos=ALGOS):
    """(sizes, levels) of WORLD at which every one of ALGOS ran."""
    lat = metric(res, world, 0)
    sizes = [s for s in SIZES if any((algos[0], s, x) in lat for x in LEVELS)]
    levels = [x for x in LEVELS if sizes and all((a, s, x) in lat for a in algos for s in sizes)]
    return sizes, levels


def speedups(res, world, which=0, algos=ALGOS, levels=None, base=BASE):
    """{algo: (mean over the (size, level) points where both ran of base / algo, points)}."""
    return parsons2015.speedups(metric(res, world, which), algos=algos, sizes=SIZES, levels=levels or LEVELS, base=base)


def _what(res, world, algos=ALGOS):
    sizes, levels = covered(res, world, algos)
    if not levels:
        return "not run"
    if (sizes, levels) == (SIZES, LEVELS):
        return "all 4 x 6"
    return ",".join(f"{s}" for s in sizes) + " B x " + ",".join(f"{x // 1000}k" for x in levels)


def _cell(sp):
    v, n = sp
    return f"{parsons2015._f(v)} ({n})" if n else "-"


def table_3_8_markdown(res, base=BASE):
    """Table 3.8 over BASE: each cell the mean speedup and, in parentheses, the (size, level) points averaged."""
    f = parsons2015._f
    cols = [a for a in COLUMNS + [SMPI_BASE, BASE] if a != base]
    head = ("| cores | " + " | ".join(f"{SHORT[a]} e_bar" for a in cols) + " | "
            + " | ".join(f"{SHORT[a]} after last" for a in cols) + " | thesis Isend Hier. | thesis Hier. aware |")
    lines = [head, "|---:|" + "---:|" * (2 * len(cols) + 2)]
    for w in WORLDS:
        e, al = speedups(res, w, 0, cols, base=base), speedups(res, w, 1, cols, base=base)
        lines.append(f"| {w} | " + " | ".join(_cell(e[a]) for a in cols) + " | "
                     + " | ".join(_cell(al[a]) for a in cols) + f" | {f(PAPER_TABLE[w][1])} | {f(PAPER_TABLE[w][2])} |")
    return "\n".join(lines) + "\n"


def present(res, world):
    """The algorithms with any result at WORLD, in table order."""
    return [a for a in ALGOS if any(w == world and b == a for (w, b, _, _) in res)]


def per_level_markdown(res, world):
    """Per level: mean over sizes of e_bar and after_last (us) of every algorithm run at WORLD."""
    cols = present(res, world)
    sizes, levels = covered(res, world, cols)
    lat, aft = metric(res, world, 0), metric(res, world, 1)
    lines = [f"Sizes {', '.join(str(x) for x in sizes)} B per destination.", "",
             "| level | " + " | ".join(f"{SHORT[a]} e_bar / after last (us)" for a in cols) + " |",
             "|---:|" + "---:|" * len(cols)]
    for x in levels:
        mean = lambda d, a: sum(d[(a, s, x)] for s in sizes) / len(sizes)  # noqa: E731
        lines.append(f"| {x} | " + " | ".join(f"{mean(lat, a) * 1e6:.0f} / {mean(aft, a) * 1e6:.0f}" for a in cols)
                     + " |")
    return "\n".join(lines) + "\n"


def fig_world(res):
    """The largest world with `aware` at FIG_SIZE at two levels or more (Figs. 3.24 and 3.26 draw what ran)."""
    ok = [w for w in WORLDS if sum((w, "aware", FIG_SIZE, x) in res for x in LEVELS) >= 2]
    return max(ok) if ok else None


def figures(res, out):
    import matplotlib.pyplot as plt

    from .. import plot
    colors = {a: f"C{i}" for i, a in enumerate(ALGOS)}
    xs = [max(x, 1000) for x in LEVELS]  # level 0 drawn at 1000 on the log axis
    paths = []

    def level_axis(ax):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels(["0"] + [f"{x // 1000}k" for x in LEVELS[1:]])
        ax.set_xlabel("imbalance: micro-benchmark loop iterations (xtime)")
        ax.grid(True, which="both", alpha=0.3)

    w = fig_world(res)
    fig, ax = plt.subplots(figsize=(7.5, 5))
    if w:
        for a in ALGOS:
            pts = [(xx, res[(w, a, FIG_SIZE, x)][1] * 1e6) for xx, x in zip(xs, LEVELS) if (w, a, FIG_SIZE, x) in res]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=colors[a], label=NAMES[a])
        level_axis(ax)
        ax.legend(fontsize=7)
    ax.set_ylabel("time after the last arrival (us)")
    ax.set_title(f"Fig. 3.24, simulated (SimGrid SMPI, gemini preset): alltoall latency after the last arriving\n"
                 f"process vs imbalance, {w} cores (32 per node), {FIG_SIZE} B per destination "
                 f"({(w or 0) * FIG_SIZE // 1024} KiB buffer)", fontsize=9)
    paths.append(plot.save(fig, os.path.join(out, "fig3_24.png")))

    fig, ax = plt.subplots(figsize=(7.5, 5))
    for a in ALGOS:
        pts = [(x, res[(x, a, FIG_SIZE, FIG_LEVEL)][0]) for x in WORLDS if (x, a, FIG_SIZE, FIG_LEVEL) in res]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] * 1e6 for p in pts], "o-", color=colors[a], label=NAMES[a])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(WORLDS)
    ax.set_xticklabels([str(x) for x in WORLDS])
    ax.set_xlabel("world size (cores, 32 per node)")
    ax.set_ylabel("mean latency e_bar (us)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(f"Fig. 3.25, simulated (SimGrid SMPI, gemini preset): alltoall mean latency vs world size,\n"
                 f"{FIG_LEVEL // 1000}k iteration imbalance, {FIG_SIZE} B per destination", fontsize=9)
    paths.append(plot.save(fig, os.path.join(out, "fig3_25.png")))

    fig, ax = plt.subplots(figsize=(7.5, 5))
    if w:
        for i, s in enumerate(SIZES):
            for a, style in (("aware", "o-"), ("aware_barrier", "s--")):
                pts = [(xx, res[(w, a, s, x)][1] * 1e6) for xx, x in zip(xs, LEVELS) if (w, a, s, x) in res]
                if len(pts) >= 2:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=f"C{i}", label=f"{SHORT[a]}, {s} B")
        level_axis(ax)
        ax.legend(fontsize=7, ncol=2)
    ax.set_ylabel("time after the last arrival (us)")
    ax.set_title(f"Fig. 3.26, simulated (SimGrid SMPI, gemini preset): alltoall aware and aware with barrier,\n"
                 f"latency after the last arriving process vs imbalance, {w} cores, per-destination sizes", fontsize=9)
    paths.append(plot.save(fig, os.path.join(out, "fig3_26.png")))
    return paths


def status(sweep_dir):
    return common.tier_status(tier_points(), sweep_dir)


def comparison(res):
    """The comparison with the thesis: numbers from RES."""
    f = parsons2015._f
    L = ["### Comparison with the thesis", ""]
    for w in WORLDS:
        e = speedups(res, w, 0, COLUMNS)
        if not e["aware"][1]:
            continue
        bal_e = speedups(res, w, 0, COLUMNS, levels=[0])
        imb_e = speedups(res, w, 0, COLUMNS, levels=LEVELS[1:])
        imb_a = speedups(res, w, 1, COLUMNS, levels=LEVELS[1:])
        L.append(f"- **{w} cores** ({e['aware'][1]} points): `aware` {f(e['aware'][0])}x Isend on e_bar (thesis "
                 f"{f(PAPER_TABLE[w][2])}x), `hier` {f(e['hier'][0])}x (thesis {f(PAPER_TABLE[w][1])}x). Balanced: "
                 f"`aware` {f(bal_e['aware'][0])}x, `hier` {f(bal_e['hier'][0])}x. Imbalanced levels only: `aware` "
                 f"{f(imb_e['aware'][0])}x on e_bar and {f(imb_a['aware'][0])}x on the time after the last arrival "
                 f"(`aware_barrier` {f(imb_a['aware_barrier'][0])}x, `hier` {f(imb_a['hier'][0])}x).")
    if len(L) == 2:
        L.append("No world size has the isend baseline and `aware` yet.")
    L += ["", "In an alltoall every process waits for the last arrival whatever the algorithm (the bound), so "
          "under imbalance e_bar is mostly the arrival spread, the same for every algorithm; the algorithms "
          "differ in what they do after the last arrival, which the second metric isolates (the thesis's "
          "Fig. 3.24).", ""]
    return "\n".join(L) + "\n"


def markdown(res, rel_dir, wall, cmd, sweep_dir):
    settings = "SimGrid SMPI 3.32, `papcoll sim` settings (docs/simulation.md), preset gemini"
    w = fig_world(res)
    L = ["# Parsons 2015 reproduced: the imbalance-aware alltoall (thesis section 3.9.3), simulated", "",
         f"Command: `{cmd}` ({wall:.0f} s of simulation wall time for the runs done, one at a time on a shared "
         f"2-core machine). **Every number here is simulated** ({settings}; 32 ranks per node; "
         "PAPCOLL_ALLTOALL_INTER=isend for `hier`). Arrivals: `--pattern=microbench:XTIME` (parsons2015.md explains the "
         "model). Sizes are per destination.", "",
         "## Table 3.8: mean speedup over MPICH Isend (papcoll `isend`)", "",
         "Mean over sizes and levels of isend / algorithm: of e_bar (the thesis's metric) and of the time after "
         "the last arrival (Fig. 3.24's). The thesis's Cray column is not reproduced; SMPI's own MPICH selection "
         "stands beside. Where the isend baseline was not run (its cost, see below), the same table over SMPI's "
         "MPICH selection follows.", "", table_3_8_markdown(res), "Over SMPI's MPICH selection (`native`):", "",
         table_3_8_markdown(res, base=SMPI_BASE)]
    for x in WORLDS:
        if present(res, x):
            L += [f"### Per level, {x} cores (mean over sizes)", "", per_level_markdown(res, x)]
    L += ["## Figures", "", f"![Fig. 3.24]({rel_dir}/fig3_24.png)", "",
          f"Fig. 3.24 (ours): time after the last arrival vs imbalance, {w} cores (the thesis: 8192), "
          f"{FIG_SIZE} B per destination.", "", f"![Fig. 3.25]({rel_dir}/fig3_25.png)", "",
          f"![Fig. 3.26]({rel_dir}/fig3_26.png)", "",
          "## What ran", "", "| tier (priority order) | runs done |", "|---|---:|"]
    L += [f"| {label} | {n} of {tot} |" for label, n, tot in status(sweep_dir)]
    L += ["", "Not run: the runs missing above, and 4096-32768 cores. The simulator's cost: an `isend` alltoall of "
          "p ranks is p^2 simulated messages per call (4 M at 2048 ranks; at 512 ranks a run of two calls took "
          "4-13 min here; at 1024 ranks one run of two sizes, 16 and 256 B, took 80 min), and a 1024-rank "
          "run of the four other algorithms (4 sizes, 3 calls each) takes 11-13 min. (`aware` blocks in "
          "MPI_Waitany under SMPI instead of polling, src/alltoall/common/aware_wake.h; before its wake-up words "
          "stopped aliasing, it deadlocked the simulation under imbalance from 18 nodes of 32.) Rerunning the "
          "command resumes.", ""]
    return "\n".join(L) + "\n" + comparison(res)


# ---- the command ----------------------------------------------------------------------------------------

def run_tiers(out, bench=None, budget=3600, log=sys.stderr, runner=None, jobs=1):
    return common.run_tiers(sys.modules[__name__], out, bench, budget, log, runner, jobs)


def write(out, md_path, cmd):
    return common.tiered_report(sys.modules[__name__], out, md_path, cmd)


def main(out=None, jobs=1, bench=None, budget=3600):
    with common.big_run_settings():
        return common.tiered_main(sys.modules[__name__], NAME, out, jobs, bench, budget)


if __name__ == "__main__":
    sys.exit(main())
