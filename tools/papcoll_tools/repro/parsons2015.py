# SPDX-License-Identifier: BSD-3-Clause
"""Parsons 2015 reproduced: Parsons' imbalance-aware broadcast (thesis section 3.9.2, Table 3.7, Figs. 3.21-3.22);
its reductions (section 3.9.1, Table 3.6, Figs. 3.19-3.20) are parsons2015_reduce.py, run after it.

    papcoll sim reproduce parsons2015 [--out=DIR] [--budget=SECONDS] [--bench=PATH]
    papcoll sim reproduce parsons2015 --budget=0        (no simulation: the report from the runs done)

Runs the points as one resumable sweep (DIR/sweep, default docs/results/parsons2015/sweep) in priority
order (small world sizes first; see TIERS) and stops starting new tiers once BUDGET seconds of this
call have passed (a rerun resumes where it stopped); then writes DIR/../parsons2015.md (Table 3.7, ours
beside the thesis's; per-level speedups; the comparison text) and the figures DIR/fig3_21.png and
DIR/fig3_22.png from whatever points are done, saying which were not run.

Mapping (the thesis -> papcoll):
  MPICH (MPICH 3.0.4 binomial tree, root 0)       -> SMPI's binomial_tree (`native` under `papcoll sim`'s
                                                     settings): MPICH's binomial code, blocking sends to
                                                     the children, largest subtree first; beside it
                                                     papcoll's binomial (same tree, Isend to every child)
                                                     and, at 512 ranks, SMPI's `mpich` selection (in SMPI
                                                     3.32 the same times as binomial_tree here)
  Hier. MPICH (node barriers, fixed leaders)      -> hier            (PAPCOLL_BCAST_INTER default: binomial)
  Intra-Opt. H. MPICH (no barriers, fixed leaders) -> hier_nobarrier (PAPCOLL_BCAST_INTER default: binomial)
  Dyn. Leader (first arriver leads its node)      -> dynleader
  Cray XE6, 32-core nodes, Gemini network         -> cluster:Nx32,preset=gemini (1.3 us, 6 GB/s links, 1 Gf cores)
  imbalance "xtime" loop iterations (Listing 3.2) -> --pattern=microbench:XTIME: every process charges
                                                     XTIME x 1996 flops (2 us per iteration at 1 Gf) times
                                                     (1 + Exp(mean 0.05)), its own draw per repetition
  buffer sizes 32 B, 512 B, 8 KiB, 128 KiB        -> -m 32:128K:16 (all four in one run)
Measured: e_bar = mean over processes of (exit - arrival) (the thesis's mean latency iota-bar), median
over the timed repetitions; speedup = e_bar(binomial) / e_bar(algorithm), averaged over the sizes and
levels of imbalance of a world size as the thesis's Table 3.7 (mean of the per-point ratios; checked
against the thesis's own appendix tables, see PAPER_APPENDIX).
"""
from __future__ import annotations

import os
import sys
import time

from .. import report as sweep_report
from . import common
from ..sim import sweep, sweep_config

# the sweep's label (column `sweep`), kept from the old command name: every point's key digests it, so a
# new label would orphan the results in docs/results
SWEEP = "seed001"
LEVELS = [0, 10000, 20000, 40000, 80000, 160000]  # loop iterations (the thesis's levels of imbalance)
SIZES = [32, 512, 8192, 131072]
SIZE_RANGE = "32:128K:16"
FIG_SIZE = 131072  # figures: the thesis's appendix has every level at this size (its Figs. 3.21-3.22 use 32k)
FIG_LEVEL = 80000  # Fig. 3.22's level
WORLDS = [512, 1024, 2048, 4096, 8192]
PPN = 32
BASE = "native"  # SMPI's binomial_tree: MPICH's MPIR_Bcast_binomial (blocking sends, largest subtree first)
ALGOS = ["hier", "hier_nobarrier", "dynleader"]
NAMES = {BASE: "MPICH (SMPI binomial_tree)", "hier": "Hier. MPICH (hier)",
         "hier_nobarrier": "Intra-Opt. H. MPICH (hier_nobarrier)", "dynleader": "Dyn. Leader (dynleader)",
         "binomial": "papcoll binomial (Isend)", "smpi:mpich": "SMPI mpich selection"}
ITERS = {512: 4, 1024: 4, 2048: 3, 4096: 2, 8192: 2}
# seconds per point.  The 8192-rank run (30 calls of 8192 ranks) took 2358 s of CPU (2649 s of wall time,
# 4.7 GB resident; an earlier attempt was killed at a 2400-s limit on a busier machine); 4096 ranks (60
# calls) took 317 s of CPU.
TIMEOUT = 5400
NAME = "parsons2015"  # the tiers' progress lines (common.run_tiers)

# Table 3.7: broadcast mean latency speedups over MPICH (Hier., Intra-Opt., Dyn. Leader)
PAPER_TABLE = {512: (0.49, 1.66, 7.53), 1024: (0.49, 1.53, 7.12), 2048: (0.51, 1.43, 6.15), 4096: (0.50, 1.35, 5.34),
               8192: (0.57, 1.27, 4.72), 16384: (0.57, 1.24, 3.64), 32768: (0.54, 1.16, 2.52)}

# Appendix B (seconds; levels as LEVELS): MPICH Bi., MPICH Bi. Hier., MPICH Bi. Hier. Opt., Dynamic Leader.
# The text's extraction lost Table B.2 (1024 cores) and most of B.7 (8192 cores, 8 KiB); None = not readable.
_N = None
PAPER_APPENDIX = {
    512: {
        32: {BASE: [2.74e-5, 1.56e-3, 4.94e-3, 1.67e-2, 4.45e-2, 7.86e-2], "hier": [5.00e-5, 9.11e-3, 2.04e-2, 4.41e-2, 8.85e-2, 1.90e-1],
             "hier_nobarrier": [2.63e-5, 1.16e-3, 3.24e-3, 1.07e-2, 3.21e-2, 3.69e-2], "dynleader": [1.09e-4, 5.81e-4, 1.23e-3, 2.20e-3, 1.47e-2, 3.54e-3]},
        512: {BASE: [3.46e-5, 1.56e-3, 4.94e-3, 1.67e-2, 4.45e-2, 7.86e-2], "hier": [5.50e-5, 9.12e-3, 2.04e-2, 4.41e-2, 8.86e-2, 1.90e-1],
              "hier_nobarrier": [3.62e-5, 1.17e-3, 3.24e-3, 1.07e-2, 3.21e-2, 3.69e-2], "dynleader": [1.17e-4, 5.85e-4, 1.23e-3, 2.20e-3, 1.47e-2, 3.56e-3]},
        8192: {BASE: [1.74e-4, 2.57e-3, 8.41e-3, 2.61e-2, 5.85e-2, 1.14e-1], "hier": [1.72e-4, 1.01e-2, 2.19e-2, 4.58e-2, 9.15e-2, 2.01e-1],
               "hier_nobarrier": [1.60e-4, 1.39e-3, 3.89e-3, 1.27e-2, 3.51e-2, 4.86e-2], "dynleader": [3.02e-4, 9.19e-4, 1.57e-3, 2.54e-3, 1.50e-2, 3.65e-3]},
        131072: {BASE: [1.51e-3, 3.58e-3, 9.32e-3, 2.68e-2, 5.92e-2, 1.15e-1], "hier": [1.36e-3, 1.07e-2, 2.25e-2, 4.64e-2, 9.21e-2, 2.02e-1],
                 "hier_nobarrier": [1.43e-3, 2.13e-3, 4.55e-3, 1.32e-2, 3.57e-2, 4.89e-2], "dynleader": [1.67e-3, 1.95e-3, 2.55e-3, 3.28e-3, 1.59e-2, 3.96e-3]},
    },
    2048: {
        32: {BASE: [3.73e-5, 1.78e-3, 5.75e-3, 1.75e-2, 4.81e-2, 9.32e-2], "hier": [1.32e-4, 1.01e-2, 2.19e-2, 4.70e-2, 9.10e-2, 2.00e-1],
             "hier_nobarrier": [6.33e-5, 1.40e-3, 4.15e-3, 1.17e-2, 3.85e-2, 6.83e-2], "dynleader": [2.67e-4, 7.79e-4, 1.33e-3, 2.30e-3, 1.48e-2, 5.50e-3]},
        512: {BASE: [6.87e-5, 1.79e-3, 5.76e-3, 1.75e-2, 4.82e-2, 9.32e-2], "hier": [8.85e-5, 1.01e-2, 2.19e-2, 4.70e-2, 9.10e-2, 2.00e-1],
              "hier_nobarrier": [1.21e-4, 1.41e-3, 4.16e-3, 1.17e-2, 3.85e-2, 6.83e-2], "dynleader": [2.50e-4, 7.98e-4, 1.35e-3, 2.31e-3, 1.48e-2, 5.50e-3]},
        8192: {BASE: [2.67e-4, 2.88e-3, 9.62e-3, 2.67e-2, 6.20e-2, 1.23e-1], "hier": [2.10e-4, 1.09e-2, 2.30e-2, 4.85e-2, 9.40e-2, 2.09e-1],
               "hier_nobarrier": [1.71e-4, 1.64e-3, 4.95e-3, 1.42e-2, 4.23e-2, 7.70e-2], "dynleader": [4.50e-4, 1.38e-3, 1.93e-3, 2.88e-3, 1.54e-2, 5.74e-3]},
        131072: {BASE: [1.80e-3, 4.04e-3, 1.06e-2, 2.75e-2, 6.29e-2, 1.24e-1], "hier": [1.66e-3, 1.16e-2, 2.37e-2, 4.92e-2, 9.47e-2, 2.10e-1],
                 "hier_nobarrier": [1.74e-3, 2.55e-3, 5.73e-3, 1.48e-2, 4.29e-2, 7.75e-2], "dynleader": [2.31e-3, 2.96e-3, 3.34e-3, 3.98e-3, 1.64e-2, 6.16e-3]},
    },
    4096: {
        32: {BASE: [4.56e-5, 1.88e-3, 6.07e-3, 1.87e-2, 4.84e-2, 9.29e-2], "hier": [7.34e-5, 1.05e-2, 2.23e-2, 4.72e-2, 9.44e-2, 2.05e-1],
             "hier_nobarrier": [8.36e-5, 1.54e-3, 4.54e-3, 1.34e-2, 3.89e-2, 6.91e-2], "dynleader": [3.30e-4, 1.23e-3, 1.52e-3, 2.47e-3, 1.49e-2, 6.57e-3]},
        512: {BASE: [7.70e-5, 1.89e-3, 6.08e-3, 1.87e-2, 4.84e-2, 9.29e-2], "hier": [1.17e-4, 1.05e-2, 2.23e-2, 4.72e-2, 9.44e-2, 2.05e-1],
              "hier_nobarrier": [1.14e-4, 1.56e-3, 4.56e-3, 1.34e-2, 3.89e-2, 6.91e-2], "dynleader": [3.60e-4, 1.24e-3, 1.55e-3, 2.50e-3, 1.50e-2, 6.62e-3]},
        8192: {BASE: [2.48e-4, 3.04e-3, 9.95e-3, 2.77e-2, 6.20e-2, 1.21e-1], "hier": [2.43e-4, 1.12e-2, 2.33e-2, 4.86e-2, 9.74e-2, 2.14e-1],
               "hier_nobarrier": [2.42e-4, 1.81e-3, 5.36e-3, 1.58e-2, 4.27e-2, 7.71e-2], "dynleader": [6.12e-4, 1.85e-3, 2.20e-3, 3.22e-3, 1.58e-2, 6.83e-3]},
        131072: {BASE: [2.36e-3, 4.44e-3, 1.11e-2, 2.86e-2, 6.30e-2, 1.22e-1], "hier": [2.53e-3, 1.23e-2, 2.43e-2, 4.95e-2, 9.84e-2, 2.15e-1],
                 "hier_nobarrier": [2.41e-3, 3.20e-3, 6.61e-3, 1.65e-2, 4.35e-2, 7.77e-2], "dynleader": [3.24e-3, 4.00e-3, 4.28e-3, 4.97e-3, 1.73e-2, 7.45e-3]},
    },
    8192: {
        32: {BASE: [4.46e-5, 1.99e-3, 6.65e-3, 2.01e-2, 5.11e-2, 9.95e-2], "hier": [6.57e-5, 1.07e-2, 2.28e-2, 4.73e-2, 9.51e-2, 2.09e-1],
             "hier_nobarrier": [1.46e-4, 1.69e-3, 5.27e-3, 1.55e-2, 4.31e-2, 7.97e-2], "dynleader": [5.45e-4, 2.29e-3, 2.30e-3, 3.21e-3, 1.53e-2, 7.71e-3]},
        512: {BASE: [8.37e-5, 2.01e-3, 6.67e-3, 2.01e-2, 5.12e-2, 9.95e-2], "hier": [1.11e-4, 1.08e-2, 2.29e-2, 4.73e-2, 9.52e-2, 2.09e-1],
              "hier_nobarrier": [1.51e-4, 1.72e-3, 5.29e-3, 1.55e-2, 4.31e-2, 7.97e-2], "dynleader": [5.73e-4, 2.34e-3, 2.33e-3, 3.24e-3, 1.53e-2, 7.69e-3]},
        8192: {BASE: [2.45e-4, 3.18e-3, 1.06e-2, _N, _N, _N], "hier": [2.27e-4, 1.14e-2, 2.37e-2, _N, _N, _N],
               "hier_nobarrier": [2.76e-4, 1.95e-3, 6.07e-3, _N, _N, _N], "dynleader": [8.56e-4, 2.93e-3, 2.93e-3, _N, _N, _N]},
        131072: {BASE: [2.18e-3, 4.56e-3, 1.17e-2, 2.96e-2, 6.52e-2, 1.27e-1], "hier": [2.04e-3, 1.23e-2, 2.45e-2, 4.94e-2, 9.88e-2, 2.18e-1],
                 "hier_nobarrier": [2.08e-3, 3.07e-3, 6.98e-3, 1.84e-2, 4.74e-2, 8.80e-2], "dynleader": [3.26e-3, 4.64e-3, 4.57e-3, 5.28e-3, 1.74e-2, 8.44e-3]},
    },
}


def platform(world):
    return f"cluster:{world // PPN}x{PPN},preset=gemini"


def pattern(level):
    return f"microbench:{level}"


def _set(world, levels, algos, sizes=SIZE_RANGE, iters=None):
    return {"platforms": [platform(world)], "patterns": [pattern(x) for x in levels], "algos": algos,
            "sizes": [sizes], "iters": iters or ITERS[world]}


# every run: papcoll's algorithms and SMPI's binomial_tree (`native`: the thesis's MPICH) side by side
ALL = ",".join(["binomial"] + ALGOS + ["native"])
# Tiers in priority order: a tier starts only while the budget lasts.  4096 ranks: the figure's level
# first; 8192 ranks: one run, the figure's level, two sizes.
TIERS = [
    ("512 ranks, every size and level", [_set(512, LEVELS, [ALL])]),
    ("1024 ranks, every size and level", [_set(1024, LEVELS, [ALL])]),
    ("2048 ranks, every size and level", [_set(2048, LEVELS, [ALL])]),
    ("4096 ranks, level 80000", [_set(4096, [FIG_LEVEL], [ALL])]),
    ("8192 ranks, level 80000, 8 KiB and 128 KiB", [_set(8192, [FIG_LEVEL], [ALL], sizes="8K:128K:16")]),
    ("512 ranks, SMPI's mpich selection", [_set(512, LEVELS, ["smpi:mpich"])]),
    ("4096 ranks, levels 0 and 20000", [_set(4096, [0, 20000], [ALL])]),
    ("4096 ranks, levels 10000, 40000, 160000", [_set(4096, [10000, 40000, 160000], [ALL])]),
]


def config(sets):
    return {"name": SWEEP, "warmup": 1, "seed": 1,
            # T only scales planned delays (none: the microbench pattern delays by computing); one shared
            # buffer for every rank (docs/results/scale.md); root 0 as the thesis
            "bench_args": ["--unit-time=1e-5", "--shared-buffer", "--root=fixed:0"], "sweep": sets}


def tier_points():
    return [(label, sweep_config.expand(config(sets))) for label, sets in TIERS]


def all_points():
    return [p for _, pts in tier_points() for p in pts]


# ---- results -------------------------------------------------------------------------------------------

def _level(pat):
    return int(pat.split(":")[1]) if pat.startswith("microbench:") else 0


def load(csv_path):
    """{(world, algo, size, level): e_bar} of a merged sweep (algo: papcoll name, native, or smpi:NAME)."""
    out = {}
    if not os.path.exists(csv_path):
        return out
    for r in sweep_report.read(csv_path):
        out[(int(r["p"]), r["algo"], int(r["size"]), _level(r["pattern"]))] = r["e_bar"]
    return out


def speedups(lat, algos=ALGOS, sizes=SIZES, levels=LEVELS, base=BASE):
    """{algo: (mean over (size, level) of lat[base]/lat[algo], number of points)}; lat: {(algo, size, level): s}.
    Points missing (None or absent) for the algorithm or the base are left out."""
    out = {}
    for a in algos:
        ratios = []
        for s in sizes:
            for x in levels:
                b, v = lat.get((base, s, x)), lat.get((a, s, x))
                if b and v:
                    ratios.append(b / v)
        out[a] = (sum(ratios) / len(ratios), len(ratios)) if ratios else (float("nan"), 0)
    return out


def ours_lat(res, world):
    return {(a, s, x): v for (w, a, s, x), v in res.items() if w == world}


def paper_lat(world):
    app = PAPER_APPENDIX.get(world, {})
    return {(a, s, x): vals[i] for s, per in app.items() for a, vals in per.items() for i, x in enumerate(LEVELS)}


def _f(v, digits=2):
    return "-" if v is None or v != v else f"{v:.{digits}f}"


def _ms(v):
    return "-" if v is None or v != v else f"{v * 1e3:.3g}"


def covered(res, world):
    """(sizes, levels) of WORLD with every algorithm done."""
    lat = ours_lat(res, world)
    sizes = [s for s in SIZES if any((BASE, s, x) in lat for x in LEVELS)]
    levels = [x for x in LEVELS if all((a, s, x) in lat for a in [BASE] + ALGOS for s in sizes) and sizes]
    return sizes, levels


def failed_worlds(sweep_dir):
    """World sizes with a failed run (an .err file in SWEEP_DIR), e.g. killed at the time limit."""
    if not sweep_dir:
        return set()
    return {p.np or int(p.platform.split(":")[1].split("x")[0]) * PPN for p in all_points()
            if os.path.exists(sweep.point_path(sweep_dir, p)[:-4] + ".err")}


def table_3_7(res, sweep_dir=None):
    """Markdown: per world size, ours (over the points done) beside the thesis's Table 3.7 and, where our
    points are a subset, the thesis's appendix tables over the same subset (SWEEP_DIR: where to look for
    failed runs)."""
    lines = ["| cores | sizes x levels (ours) | Hier. ours | Hier. thesis | Intra-Opt. ours | Intra-Opt. thesis | "
             "Dyn. Leader ours | Dyn. Leader thesis | thesis appendix, same points (Hier. / Opt. / DL) |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---|"]
    for w in WORLDS + [16384, 32768]:
        sizes, levels = covered(res, w)
        sp = speedups(ours_lat(res, w), sizes=sizes, levels=levels) if levels else {}
        paper = PAPER_TABLE[w]
        full = sizes == SIZES and levels == LEVELS
        if levels and w in PAPER_APPENDIX:
            ap = speedups(paper_lat(w), sizes=sizes, levels=levels)
            sub = " / ".join(_f(ap[a][0]) for a in ALGOS) + f" ({ap[ALGOS[0]][1]} point{'s' if ap[ALGOS[0]][1] != 1 else ''})"
        else:
            sub = "-" if w not in PAPER_APPENDIX else "(not run)"
        what = ("all 4 x 6" if full else f"{len(sizes)} x {len(levels)}: " + ",".join(_sz(s) for s in sizes) + " B; "
                + ",".join(f"{x // 1000}k" for x in levels)) if levels else (
                    "run killed at the time limit" if w in failed_worlds(sweep_dir) else "not run")
        cells = []
        for a, p in zip(ALGOS, paper):
            cells += [_f(sp[a][0]) if sp else "-", _f(p)]
        lines.append(f"| {w} | {what} | " + " | ".join(cells) + f" | {sub} |")
    return "\n".join(lines) + "\n"


def _sz(s):
    return f"{s // 1024}K" if s >= 1024 else str(s)


def per_level_table(res, world):
    """Speedups per level (mean over sizes), ours and the thesis's appendix."""
    lat, plat = ours_lat(res, world), paper_lat(world)
    sizes, levels = covered(res, world)
    lines = ["| level (iterations) | MPICH e_bar, ours (ms, mean of sizes) | MPICH, thesis (ms) | "
             + " | ".join(f"{a} ours | {a} thesis" for a in ALGOS) + " |",
             "|---:|---:|---:|" + "---:|---:|" * len(ALGOS)]
    for x in levels:
        o, p = speedups(lat, sizes=sizes, levels=[x]), speedups(plat, sizes=sizes, levels=[x])
        mb = [lat[(BASE, s, x)] for s in sizes]
        pb = [plat.get((BASE, s, x)) for s in sizes if plat.get((BASE, s, x))]
        lines.append(f"| {x} | {_ms(sum(mb) / len(mb))} | {_ms(sum(pb) / len(pb)) if pb else '-'} | "
                     + " | ".join(f"{_f(o[a][0])} | {_f(p[a][0]) if p[a][1] else '-'}" for a in ALGOS) + " |")
    return "\n".join(lines) + "\n"


def latency_table(res, world):
    lat = ours_lat(res, world)
    sizes, levels = covered(res, world)
    extra = [a for a in ("binomial", "smpi:mpich") if any(k[0] == a for k in lat)]
    algos = [BASE] + ALGOS + extra
    lines = ["| size | level | " + " | ".join(NAMES[a] for a in algos) + " |", "|---:|---:|" + "---:|" * len(algos)]
    for s in sizes:
        for x in levels:
            lines.append(f"| {s} | {x} | " + " | ".join(_ms(lat.get((a, s, x))) for a in algos) + " |")
    return "\n".join(lines) + "\n"


# ---- figures -------------------------------------------------------------------------------------------

def fig_world(res):
    """The largest world size with every level done at FIG_SIZE."""
    full = [w for w in WORLDS if all((a, FIG_SIZE, x) in ours_lat(res, w) for a in [BASE] + ALGOS for x in LEVELS)]
    return max(full) if full else None


def figures(res, out):
    import matplotlib.pyplot as plt

    from .. import plot
    paths = []
    w = fig_world(res)
    fig, ax = plt.subplots(figsize=(7.5, 5))
    if w:
        lat, plat = ours_lat(res, w), paper_lat(w)
        xs = [max(x, 1000) for x in LEVELS]  # 0 drawn at 1000 on the log axis
        for i, a in enumerate([BASE] + ALGOS):
            ax.plot(xs, [lat[(a, FIG_SIZE, x)] * 1e3 for x in LEVELS], "o-", color=f"C{i}", label=f"{NAMES[a]}, ours")
            pv = [plat.get((a, FIG_SIZE, x)) for x in LEVELS]
            if any(pv):
                ax.plot([x for x, v in zip(xs, pv) if v], [v * 1e3 for v in pv if v], "s--", color=f"C{i}", alpha=0.5,
                        label=f"{NAMES[a].split(' (')[0]}, thesis (App. B)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels(["0"] + [f"{x // 1000}k" for x in LEVELS[1:]])
    ax.set_xlabel("imbalance: micro-benchmark loop iterations (xtime)")
    ax.set_ylabel("mean latency e_bar (ms)")
    ax.set_title(f"Fig. 3.21, simulated (SimGrid SMPI, gemini preset): broadcast mean latency vs imbalance,\n"
                 f"{w} cores (32 per node), {FIG_SIZE // 1024} KiB buffer (solid: ours; dashed: thesis, Cray XE6)",
                 fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    paths.append(plot.save(fig, os.path.join(out, "fig3_21.png")))

    fig, ax = plt.subplots(figsize=(7.5, 5))
    for i, a in enumerate([BASE] + ALGOS):
        pts = [(w, res.get((w, a, FIG_SIZE, FIG_LEVEL))) for w in WORLDS]
        pts = [(w, v) for w, v in pts if v]
        ax.plot([w for w, _ in pts], [v * 1e3 for _, v in pts], "o-", color=f"C{i}", label=f"{NAMES[a]}, ours")
        pp = [(w, paper_lat(w).get((a, FIG_SIZE, FIG_LEVEL))) for w in WORLDS]
        pp = [(w, v) for w, v in pp if v]
        ax.plot([w for w, _ in pp], [v * 1e3 for _, v in pp], "s--", color=f"C{i}", alpha=0.5,
                label=f"{NAMES[a].split(' (')[0]}, thesis (App. B)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(WORLDS)
    ax.set_xticklabels([str(w) for w in WORLDS])
    ax.set_xlabel("world size (cores, 32 per node)")
    ax.set_ylabel("mean latency e_bar (ms)")
    ax.set_title(f"Fig. 3.22, simulated (SimGrid SMPI, gemini preset): broadcast mean latency vs world size,\n"
                 f"{FIG_LEVEL // 1000}k iteration imbalance, {FIG_SIZE // 1024} KiB buffer "
                 "(solid: ours; dashed: thesis, Cray XE6)", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    paths.append(plot.save(fig, os.path.join(out, "fig3_22.png")))
    return paths


# ---- the report ----------------------------------------------------------------------------------------

def _imbalance(res_rows, world, level):
    """(mean delta_bar, mean omega) in ms of WORLD's runs at LEVEL (the realized imbalance, from the benchmark)."""
    d = [(r["delta_bar"], r["omega"]) for r in res_rows if int(r["p"]) == world and _level(r["pattern"]) == level]
    return (sum(x for x, _ in d) / len(d) * 1e3, sum(y for _, y in d) / len(d) * 1e3) if d else (float("nan"),) * 2


def status(sweep_dir):
    """Per tier of SWEEP_DIR: done or not (for the report's list of what was skipped)."""
    out = []
    for label, pts in tier_points():
        n = len(sweep.recorded(sweep_dir, pts))
        notes = []
        for p in pts:
            err = sweep.point_path(sweep_dir, p)[:-4] + ".err"
            if os.path.exists(err):
                with open(err) as f:
                    text = f.read()
                why = "killed at the time limit" if "time limit" in text else text.splitlines()[0]
                notes.append(f"{p.pattern}: failed ({why})")
        out.append((label, n, len(pts), "; ".join(notes)))
    return out


def markdown(res, rows, rel_dir, wall, cmd, sweep_dir):
    L = []
    worlds_done = [w for w in WORLDS if covered(res, w)[1]]
    every_level = [w for w in worlds_done if covered(res, w)[1] == LEVELS]
    imb_world = max(every_level or worlds_done or [WORLDS[0]])  # the largest world size run at every level
    fw = fig_world(res)
    L += ["# Parsons 2015 reproduced: imbalance-aware hierarchical broadcast (Parsons' thesis, section 3.9.2), simulated", "",
          f"Command: `{cmd}` (simulations one at a time: {wall:.0f} s of wall time in total for the runs that finished, "
          "on this 2-core machine shared with other work; resumable, see below). **Every number of ours is a simulated time** (SimGrid SMPI "
          "3.32); the thesis's are measurements on a Cray XE6 (Cray Gemini network, 32 cores per node, MPICH 3.0.4 "
          "algorithms on cray-mpich 6.3.0).", "",
          "## Set-up", "",
          f"- Platform: `{platform(512)}` ... `{platform(8192)}` (16 to 256 nodes of 32 cores). Preset `gemini` "
          "(tools/papcoll_tools/sim/platform.py): 1.3 us / 6 GB/s node links, a 1 TB/s backbone, 0.1 us / 10 GB/s "
          "loopback, 1 Gflop/s cores; intra-node copies through papcoll's shared memory charged at 5 GB/s. The real "
          "Gemini is a 3-D torus; ours is a star (every node one hop from a non-blocking backbone), so no link "
          "contention between nodes and no distance effects.",
          "- SMPI settings (every run): " + (rows[0]["smpi_settings"].split("; platform")[0] if rows else "-") + ".",
          "- Benchmark: `papcoll-bench-smpi --algo=" + ALL + " -m 32:128K:16 --pattern=microbench:XTIME --root=fixed:0 "
          "--shared-buffer` (8192 ranks: `-m 8K:128K:16`); the five broadcasts run side by side in one process launch, "
          "interleaved repetition by repetition, with the same arrival times (same seed). Timed repetitions: "
          + ", ".join(f"{w}: {ITERS[w]}" for w in WORLDS) + " (one warm-up each); e_bar is the median over repetitions.",
          "- Imbalance (section 3.5.2, Listing 3.2): `microbench:XTIME` makes every process run XTIME iterations of the "
          "listing's loop after a common start. SMPI does not time real computation, so each process charges "
          "XTIME x 1996 flops (2 us per iteration at 1 Gflop/s, about what a 2.5 GHz Opteron needs for the loop's "
          "998 dependent multiply-subtracts) times (1 + E), E ~ Exp(mean 0.05) drawn per process and repetition: "
          "a stated model of OS noise, not the thesis's measured distribution (its Fig. 3.4: a peak and a long tail "
          "of late arrivals). Levels 0, 10k, 20k, 40k, 80k, 160k iterations as the thesis's appendix B. "
          "Realized imbalance (mean over runs): " + "; ".join(
              f"{x // 1000}k: mean {_imbalance(rows, imb_world, x)[0]:.2g} ms, "
              f"worst {_imbalance(rows, imb_world, x)[1]:.2g} ms"
              for x in LEVELS[1:]) + f" (at {imb_world} ranks).",
          "- Algorithms (thesis -> ours): " + "; ".join(f"{NAMES[a].split(' (')[0]} -> `{a}`" for a in [BASE] + ALGOS)
          + ". The thesis's *MPICH* is MPICH 3.0.4's binomial tree for every size (it did not use MPICH's "
          "scatter + allgather for large messages, section 3.7.4), rooted at 0 so that it maps onto the 32-core "
          "nodes: SMPI's `binomial_tree` is that code (blocking sends to the children, largest subtree first). "
          "SMPI's `mpich` selection was also run at 512 ranks, for reference. papcoll's `binomial` is the same tree with Isend to all children (shown for reference). "
          "`hier` and `hier_nobarrier` run papcoll's binomial (PAPCOLL_BCAST_INTER default) among fixed node leaders "
          "(the lowest rank of each node); node barriers in `hier`; `dynleader` is Fig. 3.16.",
          "- Speedup: e_bar(MPICH) / e_bar(algorithm) per (size, level), averaged over the sizes and levels, which is "
          "how Table 3.7 is built: averaging the thesis's appendix B tables this way gives back Table 3.7 "
          "(512 cores: 0.49 / 1.66 / 7.54; 2048: 0.50 / 1.43 / 6.15; 4096: 0.50 / 1.35 / 5.33).", ""]
    L += ["## Table 3.7: broadcast mean latency speedups over MPICH", "",
          "Averaged over the buffer sizes 32 B, 512 B, 8 KiB, 128 KiB and the levels of imbalance 0 to 160k iterations. "
          "Where we ran a subset (for time), the last column averages the thesis's appendix B over the same subset; "
          "its 1024-core table and most of the 8192-core 8 KiB table are not readable in the text we have.", "",
          table_3_7(res, sweep_dir)]
    full_app = [w for w in worlds_done if covered(res, w) == (SIZES, LEVELS) and w in PAPER_APPENDIX]
    for w in sorted(set(worlds_done[:1] + full_app[-1:])):
        L += [f"### Per level of imbalance, {w} cores (mean over the four sizes)", "", per_level_table(res, w)]
    L += ["## Figures", "",
          f"![Fig. 3.21]({rel_dir}/fig3_21.png)", "",
          f"Fig. 3.21 (ours): mean latency vs imbalance at {fw} cores, the largest world size we ran at every level, "
          f"{FIG_SIZE // 1024} KiB buffer; dashed: the thesis's appendix B at the same size and world size. (The thesis's "
          "Figs. 3.21-3.22 use a 32k buffer whose values the text does not give; 128 KiB is the appendix's "
          "size nearest to it with every level.)", "",
          f"![Fig. 3.22]({rel_dir}/fig3_22.png)", "",
          f"Fig. 3.22 (ours): mean latency vs world size at {FIG_LEVEL // 1000}k iterations, {FIG_SIZE // 1024} KiB; "
          "dashed: the thesis's appendix B (512, 2048, 4096, 8192 cores).", ""]
    if fw:
        L += [f"### Mean latency (ms, simulated) at {fw} cores", "", latency_table(res, fw)]
    if worlds_done and worlds_done[0] != fw:
        L += [f"### Mean latency (ms, simulated) at {worlds_done[0]} cores", "", latency_table(res, worlds_done[0])]
    big = [w for w in WORLDS if w > (fw or 0) and any(k[0] == w for k in res)]
    for w in big:
        lat = ours_lat(res, w)
        L += [f"### Mean latency (ms, simulated) at {w} cores (the points run)", "",
              "| size | level | " + " | ".join(NAMES[a] for a in [BASE] + ALGOS + ["binomial"]) + " |",
              "|---:|---:|" + "---:|" * (len(ALGOS) + 2)]
        for (a, s, x) in sorted({(BASE, s, x) for (a, s, x) in lat}, key=lambda k: (k[1], k[2])):
            L.append(f"| {s} | {x} | " + " | ".join(_ms(lat.get((b, s, x))) for b in [BASE] + ALGOS + ["binomial"]) + " |")
        L.append("")
    L += ["## What ran, what was skipped", "",
          "| tier (priority order) | runs done | note |", "|---|---:|---|"]
    for label, n, tot, note in status(sweep_dir):
        L.append(f"| {label} | {n} of {tot} | {note or ('' if n == tot else 'not run (time)')} |")
    L += ["", "Not run at all: 16384 and 32768 cores (beyond this machine: docs/results/scale.md). A tier "
          "not done was skipped for time (`--budget`); rerunning the command resumes with it.", ""]
    return "\n".join(L) + "\n"


def write(out, md_path, wall, cmd, reduce_wall=None):
    """Figures into OUT, the Markdown into MD_PATH, from OUT/sweep/sweep.csv; then the reduce part's
    (parsons2015_reduce, from OUT/reduce_sweep/sweep.csv; REDUCE_WALL: its simulations' wall time) after it."""
    from . import parsons2015_reduce
    sweep_dir = os.path.join(out, "sweep")
    csv_path = os.path.join(sweep_dir, "sweep.csv")
    res = load(csv_path)
    rows = sweep_report.read(csv_path) if os.path.exists(csv_path) else []
    figures(res, out)
    md_dir = os.path.dirname(os.path.abspath(md_path))
    text = markdown(res, rows, os.path.relpath(out, md_dir), wall, cmd, sweep_dir)
    if reduce_wall is None:
        reduce_csv = os.path.join(out, "reduce_sweep", "sweep.csv")
        reduce_wall = common.sweep_wall(reduce_csv) if os.path.exists(reduce_csv) and sweep_report.read(reduce_csv) else 0.0
    return common.write_markdown(md_path, text + "\n" + comparison(res, rows, sweep_dir) + "\n"
                                 + parsons2015_reduce.write(out, reduce_wall, cmd, md_dir))


def _sp(res, world, algos=ALGOS, base=BASE, levels=None, sizes=None):
    c_sizes, c_levels = covered(res, world)
    return speedups(ours_lat(res, world), algos=algos, base=base, sizes=sizes or c_sizes,
                    levels=[x for x in (levels or c_levels) if x in c_levels])


def comparison(res, rows, sweep_dir=None):
    """The comparison with the thesis: numbers from RES, explanations from the runs and models behind them."""
    full = [w for w in WORLDS if covered(res, w) == (SIZES, LEVELS)]
    if not full:
        return "## Comparison with the thesis\n\nNo world size completed every size and level yet.\n"
    w0, wl = full[0], full[-1]
    sp0, spl = _sp(res, w0), _sp(res, wl)
    fmt = lambda sp: " / ".join(_f(sp[a][0]) for a in ALGOS)  # noqa: E731
    p0 = " / ".join(_f(v) for v in PAPER_TABLE[w0])
    pl = " / ".join(_f(v) for v in PAPER_TABLE[wl])
    dl_by_world = ", ".join(f"{w}: {_f(_sp(res, w, levels=[FIG_LEVEL], sizes=[FIG_SIZE])['dynleader'][0])}"
                            for w in WORLDS if (BASE, FIG_SIZE, FIG_LEVEL) in ours_lat(res, w))
    dl_by_world_paper = ", ".join(f"{w}: {_f(speedups(paper_lat(w), levels=[FIG_LEVEL], sizes=[FIG_SIZE])['dynleader'][0])}"
                                  for w in WORLDS if w in PAPER_APPENDIX)
    bal0, balp = _sp(res, w0, levels=[0]), speedups(paper_lat(w0), levels=[0])
    hi0 = _sp(res, w0, levels=LEVELS[1:])
    lat0 = ours_lat(res, w0)
    plat0 = paper_lat(w0)
    lv = lambda x: sum(lat0[(BASE, s, x)] for s in SIZES) / len(SIZES)  # noqa: E731
    plv = lambda x: sum(plat0[(BASE, s, x)] for s in SIZES) / len(SIZES)  # noqa: E731
    growth = " : ".join(f"{lv(x) / lv(LEVELS[1]):.1f}" for x in LEVELS[1:])
    pgrowth = " : ".join(f"{plv(x) / plv(LEVELS[1]):.1f}" for x in LEVELS[1:])
    dl_full = [_sp(res, w)["dynleader"][0] for w in full]
    dl_avg = ", ".join(f"{w}: {_f(v)}" for w, v in zip(full, dl_full))
    dl_avg_p = ", ".join(f"{w}: {_f(PAPER_TABLE[w][2])}" for w in full)
    trend = ("shrinks in ours as in the thesis" if all(a > b for a, b in zip(dl_full, dl_full[1:])) and len(full) > 1
             else "does not shrink steadily in ours, unlike the thesis's" if len(full) > 1 else "cannot be compared yet")
    no160 = [x for x in LEVELS if x != 160000]
    dl_no160, dl_no160_p = _sp(res, w0, levels=no160)["dynleader"][0], speedups(plat0, levels=no160)["dynleader"][0]
    hi0_p = speedups(plat0, levels=LEVELS[1:])["hier"][0]
    cost_rows = {}
    for r in rows:
        cost_rows.setdefault(int(r["p"]), {})[r["point"]] = (r["wall_s"], r["cpu_s"])
    cost = " ".join(f"One {w}-rank run took {max(c for _, c in v.values()):.0f} s of CPU time "
                    f"({max(wl_ for wl_, _ in v.values()):.0f} s of wall time on this shared machine)."
                    for w, v in sorted(cost_rows.items()) if w >= 4096)
    killed = "".join(f" The {w}-rank run was killed at the per-point time limit before it finished." for w in
                     sorted(failed_worlds(sweep_dir)) if not covered(res, w)[1])
    why = (" The thesis's explanation fits the simulation: the imbalance is the same at every world size while the "
           "inter-node tree, and so the communication, grows." if trend.startswith("shrinks") else "")
    ratios = [plv(x) / lv(x) for x in LEVELS[1:]]
    dl_levels = ", ".join(_f(_sp(res, w0, levels=[x])["dynleader"][0]) for x in LEVELS[1:])
    dl_levels_p = ", ".join(_f(speedups(plat0, levels=[x])["dynleader"][0]) for x in LEVELS[1:])
    vs_pap = _sp(res, w0, base="binomial")
    nat_big = [lat0[(BASE, SIZES[-1], x)] / lat0[("binomial", SIZES[-1], x)] for x in LEVELS]
    mp = [res.get((w0, "smpi:mpich", SIZES[-1], x)) for x in LEVELS]
    mp_text = ""
    if all(mp):
        mp_sp = speedups({**{("smpi:mpich", s, x): res[(w0, "smpi:mpich", s, x)] for s in SIZES for x in LEVELS
                             if (w0, "smpi:mpich", s, x) in res}, **ours_lat(res, w0)}, algos=["smpi:mpich"])
        diff = max(abs(res[(w0, "smpi:mpich", s, x)] / lat0[(BASE, s, x)] - 1) for s in SIZES for x in LEVELS)
        mp_text = (f" SMPI 3.32's `mpich` selection, run as the baseline at {w0} ranks, averages "
                   f"{_f(mp_sp['smpi:mpich'][0])}x `binomial_tree`'s speed (largest difference at any point "
                   f"{diff * 100:.1f}%): in this SMPI it broadcasts with the binomial tree at every size here, "
                   "not with MPICH's scatter + allgather (the SMPI bcast exercise's reproduction found the same for 10^8 bytes), "
                   "so either stands for the thesis's MPICH.")
    return f"""## Comparison with the thesis

**Agreements.** The ranking of Table 3.7 is reproduced at every world size we ran: the naive hierarchical
broadcast with node barriers is slower than MPICH's binomial tree, removing the barriers (intra-node optimized)
makes it faster, and the dynamic leader is by far the fastest under imbalance. Averaged over the four sizes and six
levels, ours are {fmt(sp0)} (Hier. / Intra-Opt. / Dyn. Leader) at {w0} cores against the thesis's {p0}, and
{fmt(spl)} at {wl} cores against {pl}. Without imbalance (level 0) the dynamic leader is slower than MPICH
({_f(bal0['dynleader'][0])}x at {w0} cores; thesis {_f(balp['dynleader'][0])}x) for the thesis's reason: its control
messages (READY/REQUEST between node leaders) lie on the path when everyone arrives together, and the two
fixed-leader versions are at par with MPICH ({_f(bal0['hier'][0])} and {_f(bal0['hier_nobarrier'][0])}; thesis
{_f(balp['hier'][0])} and {_f(balp['hier_nobarrier'][0])}), since a binomial tree rooted at 0 on 32-core nodes already
crosses each node boundary once. With the world size, the dynamic leader's average speedup (Table 3.7's column)
{trend}: ours {dl_avg} (every size and level), the thesis's {dl_avg_p}.{why} At one point, {FIG_LEVEL // 1000}k
iterations and {FIG_SIZE // 1024} KiB (Fig. 3.22), ours are {dl_by_world} and the thesis's appendix
{dl_by_world_paper}.

**Differences, and why.**

1. *The imbalance model.* Our arrival noise is proportional to the loop's length (Exp with mean 5% of it), so our
   MPICH latency grows in proportion to the level: mean over sizes at {w0} cores, 10k : 20k : 40k : 80k : 160k =
   {growth}; the thesis's grows faster at the low levels and slower at the top ({pgrowth}), and is
   {min(ratios):.1f} to {max(ratios):.1f} times ours in absolute terms (e.g. {_ms(lv(FIG_LEVEL))} ms against {_ms(plv(FIG_LEVEL))} ms at 80k). The Cray's imbalance
   per iteration of the loop is larger than our 5% model and not proportional to it (Table 3.5: the worst case
   grows much more slowly than the computation time); we did not fit the model to it. Speedups are ratios, so this
   matters less than the *shape* of the distribution: who arrives first on each node (what the dynamic leader
   exploits) and who arrives last (what the barriers wait for).
2. *Dynamic leader per level.* Ours rises smoothly with the level ({dl_levels} at {w0} cores for 10k to 160k);
   the thesis's jumps about ({dl_levels_p}): its dynamic leader is slower at 80k than at 160k at every world size
   and buffer size (e.g. 14.7 against 3.5 ms at 512 cores, 32 B). The thesis replays recorded arrival traces
   (section 3.8), so each level is one recorded pattern; a smooth noise model cannot reproduce that. The thesis's
   average is carried by its 160k level: without it the thesis's dynamic leader averages {_f(dl_no160_p)}x at
   {w0} cores and ours {_f(dl_no160)}x, i.e. at the other levels our dynamic leader gains *more* than the
   thesis's (in our model a node's first process arrives early: the smallest of 32 exponential draws is 1/32 of
   the noise mean, so each node gets a leader almost at the loop's nominal end).
3. *Node barriers cost more here.* `hier` runs at {_f(hi0['hier'][0])}x MPICH's speed at {w0} cores over the
   imbalanced levels, the thesis's at {_f(hi0_p)}x: with our exponential noise the last of a node's 32 processes arrives
   about 4 noise means (the harmonic number H_32 = 4.1) after its first, and the barriers make every process of the
   node, and of every node below it in the tree, wait for that last one; the thesis's node-internal distribution (Fig. 3.4: most processes in one group, a tail) gives another
   ratio.
4. *Absolute latencies without imbalance* are lower than the Cray's (at {w0} cores, 32 B: ours
   {_ms(lat0[(BASE, 32, 0)])} ms against {_ms(plat0[(BASE, 32, 0)])} ms; 128 KiB: {_ms(lat0[(BASE, 131072, 0)])} ms against
   {_ms(plat0[(BASE, 131072, 0)])} ms). The `gemini` preset is a star of 6 GB/s, 1.3 us links with a
   non-blocking backbone and no software overhead per message beyond SMPI's; the real Gemini is a 3-D torus,
   and MPICH adds its own per-message costs. This matters mostly at level 0; with imbalance the waiting
   dominates every algorithm's latency.
5. *Which MPICH.* SMPI's `binomial_tree` (our baseline) is MPICH's binomial code with blocking sends; papcoll's
   `binomial` has the same tree but Isends to all children. They are identical up to 8 KiB; at 128 KiB, above SMPI's
   64 KiB eager limit, a blocking send waits for the late child and delays its later siblings, so SMPI's is
   {min(nat_big):.2f} to {max(nat_big):.2f} times slower at {w0} cores. With papcoll's binomial as the baseline the speedups at {w0} cores
   would be {fmt(vs_pap)}.{mp_text}
6. *Scale.* We stop at {max(w for w in WORLDS if any(k[0] == w for k in res))} cores (the thesis goes to 32768), and above
   {wl} cores we ran only some points (see "What ran").{killed} {cost} Unlike the balanced runs of docs/results/scale.md,
   where SMPI's communicator creation dominates (about 21 s of CPU at 4096 ranks), most of it goes here to the
   simulated calls themselves: 5 algorithms x each size x (one warm-up + the timed repetitions), each with
   thousands of ranks.
"""


# ---- the command ---------------------------------------------------------------------------------------

BUDGET = 1500  # seconds: no new tier starts after this much wall time of one call


def run_tiers(out, bench=None, budget=BUDGET, log=sys.stderr, runner=None, jobs=1):
    """Runs TIERS in order until BUDGET seconds have passed (a started tier finishes); returns
    (merged CSV path, labels of the tiers not started, failures).  RUNNER: sweep.sweep or a stand-in."""
    return common.run_tiers(sys.modules[__name__], out, bench, budget, log, runner, jobs)


def main(out=None, jobs=1, bench=None, budget=BUDGET):
    """The broadcast tiers, then the reduce tiers (parsons2015_reduce), each with BUDGET seconds; then the report."""
    from . import parsons2015_reduce
    out = os.path.abspath(out or common.default_out("parsons2015"))
    t0 = time.monotonic()
    merged, skipped, failures = run_tiers(out, bench, budget, jobs=jobs)
    onesided = parsons2015_reduce.has_onesided()
    r_merged, r_skipped, r_failures = parsons2015_reduce.run_tiers(out, bench, budget, jobs=jobs, onesided=onesided)
    elapsed = time.monotonic() - t0
    done = len({r["point"] for r in sweep_report.read(merged)}) if os.path.exists(merged) else 0
    r_done = len({r["point"] for r in sweep_report.read(r_merged)}) if os.path.exists(r_merged) else 0
    wall = common.sweep_wall(merged) if done else 0.0
    r_wall = common.sweep_wall(r_merged) if r_done else 0.0
    md = write(out, common.report_path("parsons2015", out), wall, common.command("parsons2015", out), r_wall)
    skipped += [f"reduce: {label}" for label in r_skipped]
    print(f"{md}: broadcast {done} of {len(all_points())} runs done, reduce {r_done} of "
          f"{len(parsons2015_reduce.all_points(onesided))}" + ("" if onesided else " (no dynleader_onesided in this tree)")
          + f"; simulations {wall + r_wall:.0f} s in total, this call {elapsed:.0f} s"
          + (f"; tiers not started (budget): {skipped}" if skipped else "")
          + (f"; {len(failures) + len(r_failures)} FAILED" if failures or r_failures else ""))
    return 1 if failures or r_failures else 0

if __name__ == "__main__":
    sys.exit(main())
