"""Seed 001 chapter 2 reproduced: the universal hierarchical algorithm and multi-sender inter-node
communication (thesis sections 2.3-2.5: Table 2.1, Figs. 2.4-2.5; Table 2.2, Fig. 2.7; Fig. 2.10).

    papcoll sim reproduce seed001-ch2 [--out=DIR] [--budget=SECONDS] [--bench=PATH]

Runs the points as one resumable sweep (DIR/sweep, default docs/results/seed001_ch2/sweep) in priority
order (TIERS) until the budget is spent (a started tier finishes; a rerun resumes), then writes
DIR/../seed001_ch2.md and the figures DIR/fig2_4.png, fig2_5.png, fig2_7.png, fig2_10.png.

Mapping (the thesis -> papcoll), every run balanced (the chapter has no imbalance):
  collective (Table 2.1's rows)  MPICH algorithm (flat)  universal hierarchical        multi-sender (M. S. Hier.)
  Allgather-Small                bruck                   hier, ALLGATHER_INTER=bruck   multisender_bruck
  Allgather-Large                ring                    hier, ALLGATHER_INTER=ring    multisender_ring
  Alltoallv                      isend (MPICH's)         hier, ALLTOALL_INTER=isend    aware (static senders per
                                                                                       node pair, one shared buffer)
  Broadcast                      binomial                hier, BCAST_INTER=binomial    - (not built: the thesis's is
                                                                                       a pipelined binomial tree)
  Reduce-Scatter                 pairwise                hier, REDUCE_SCATTER_INTER=   multisender
                                                         pairwise
  Scatter                        binomial                hier, SCATTER_INTER=binomial  multisender
  Cray XE6, 32-core nodes, Gemini -> cluster:Nx32,preset=gemini (seed001.py); the Cray library's algorithms are not
                                     reproduced (closed source).
  buffer size = the largest buffer -> -m per process block = total / p (bcast: the message): totals 32 KiB, 128 KiB,
  (scatter: the send buffer,          512 KiB, 2 MiB (Fig. 2.5's size); MPI_INT, MPI_SUM for reduce_scatter; alltoallv
  allgather: the receive buffer)      with every other block one MPI_INT shorter (papcoll-bench's v form varies
                                      counts by rank, which is the same idea)
Measured: e_bar (mean over processes of arrival-to-exit time; balanced, so the mean latency), one timed call after
one warm-up (balanced arrival under SMPI is deterministic: repetitions after the first are identical).  Table 2.1 = mean and max over the sizes of e_bar(flat) / e_bar(hier); Table 2.2 = the same
of e_bar(hier) / e_bar(multi-sender): whole-collective times, where the thesis's Table 2.2 times the inter-node
part only (our bench has no inside view of a call).
"""
from __future__ import annotations

import os
import sys

from .. import report as sweep_report
from . import common, seed001
from ..sim import sweep_config

SEED = "seed001-ch2"
PPN = seed001.PPN
TOTALS = [32 << 10, 128 << 10, 512 << 10, 2 << 20]  # bytes: the largest buffer
FIG25_TOTAL = 2 << 20
WORLDS = [512, 1024, 2048, 4096]
# (row of Table 2.1, --coll, flat algorithm, the hier's inter setting, multi-sender algorithm or None)
ROWS = [("Allgather-Small", "allgather", "bruck", "PAPCOLL_ALLGATHER_INTER", "multisender_bruck"),
        ("Allgather-Large", "allgather", "ring", "PAPCOLL_ALLGATHER_INTER", "multisender_ring"),
        ("Alltoallv", "alltoallv", "isend", "PAPCOLL_ALLTOALL_INTER", "aware"),
        ("Broadcast", "bcast", "binomial", "PAPCOLL_BCAST_INTER", None),
        ("Reduce-Scatter", "reduce_scatter", "pairwise", "PAPCOLL_REDUCE_SCATTER_INTER", "multisender"),
        ("Scatter", "scatter", "binomial", "PAPCOLL_SCATTER_INTER", "multisender")]
QUADRATIC = {"ring", "isend", "pairwise"}  # p^2 simulated messages per call: 512 and 1024 ranks only
SENDERS = [1, 2, 4, 8, 16, 31]             # Figs. 2.7 and 2.10
SENDER_ROWS = {"Reduce-Scatter": "PAPCOLL_REDUCE_SCATTER_SENDERS", "Allgather-Small": "PAPCOLL_ALLGATHER_SENDERS"}
SENDER_WORLD = 512
TIMEOUT = 7200

# Table 2.1 (MPICH columns): universal hierarchical speedup over the base library, 32k cores, mean / max over sizes
PAPER_T21 = {"Allgather-Small": (20.3, 31.4), "Allgather-Large": (22.2, 56.0), "Alltoallv": (6.7, 15.3),
             "Broadcast": (1.1, 1.1), "Reduce-Scatter": (45.5, 81.8), "Scatter": (0.9, 1.0)}
# Table 2.2: multi-sender speedup over the MPICH algorithm for the inter-node part, 32k cores, mean / max
PAPER_T22 = {"Allgather-Small": (1.4, 2.1), "Allgather-Large": (2.7, 4.2), "Alltoallv": (2.0, 3.1),
             "Broadcast": (1.7, 2.8), "Reduce-Scatter": (4.9, 9.1), "Scatter": (2.2, 3.2)}


def block(coll, total, world):
    """papcoll-bench's -m for a largest buffer of TOTAL bytes (bcast: the message; others: one block)."""
    return total if coll == "bcast" else max(4, total // world)


def size_range(coll, world, totals=TOTALS):
    sizes = [block(coll, t, world) for t in totals]
    return f"{sizes[0]}:{sizes[-1]}:4" if len(sizes) > 1 else str(sizes[0])


def _algos(row):
    _, _, flat, _, ms = row
    return ",".join([flat, "hier"] + ([ms] if ms else []))


def _set(row, world, totals=TOTALS, env=None, algos=None):
    label, coll, flat, inter, ms = row
    return {"platforms": [seed001.platform(world)], "colls": [coll], "algos": [algos or _algos(row)],
            "sizes": [size_range(coll, world, totals)], "iters": 1, "env": {inter: [flat], **(env or {})}}


def _senders_set(row, env_name):
    return _set(row, SENDER_WORLD, totals=TOTALS[1:3], env={env_name: SENDERS}, algos=row[4])


def _row(name):
    return next(r for r in ROWS if r[0] == name)


TIERS = [
    ("512 ranks, every collective and size (Fig. 2.4, Tables 2.1-2.2)", [_set(r, 512) for r in ROWS]),
    ("1024 ranks, every collective and size", [_set(r, 1024) for r in ROWS]),
    ("512 ranks, number of senders (Figs. 2.7, 2.10)", [_senders_set(_row(n), e) for n, e in SENDER_ROWS.items()]),
    ("2048-4096 ranks, 2 MiB, log-message collectives (Fig. 2.5)",
     [_set(r, w, totals=[FIG25_TOTAL]) for w in (2048, 4096) for r in ROWS if r[2] not in QUADRATIC]),
]


def config(sets):
    return {"name": "seed001_ch2", "warmup": 1, "seed": 1, "patterns": ["balanced"],
            "bench_args": ["--unit-time=1e-5"], "sweep": sets}


def tier_points():
    return [(label, sweep_config.expand(config(sets))) for label, sets in TIERS]


def all_points():
    return [p for _, pts in tier_points() for p in pts]


# ---- results --------------------------------------------------------------------------------------------

INTERS = sorted({r[3] for r in ROWS})


def load(csv_path):
    """{(coll, flat, world, algo, total, senders): e_bar}; flat = the run's *_INTER setting (which row of
    ROWS), senders = its *_SENDERS setting (0: the default, all)."""
    out = {}
    if not os.path.exists(csv_path):
        return out
    for r in sweep_report.read(csv_path):
        inter = next((r[k] for k in INTERS if r.get(k) not in (None, "")), None)
        senders = next((int(r[k]) for k in SENDER_ROWS.values() if r.get(k) not in (None, "")), 0)
        world, coll = int(r["p"]), r["coll"]
        total = int(r["size"]) if coll == "bcast" else int(r["size"]) * world
        out[(coll, inter, world, r["algo"], total, senders)] = r["e_bar"]
    return out


def row_algos(row):
    """ROW's algorithms: flat, hier, and the multi-sender one when it exists."""
    return [row[2], "hier"] + ([row[4]] if row[4] else [])


def row_lat(res, row, world):
    """{(algo, total): e_bar} of ROW at WORLD (senders: the default, all)."""
    _, coll, flat, _, _ = row
    return {(a, t): v for (c, i, w, a, t, s), v in res.items() if c == coll and i == flat and w == world and s == 0}


def ratio_stats(lat, num, den):
    rs = [lat[(num, t)] / lat[(den, t)] for (a, t) in lat if a == num and (den, t) in lat]
    return (sum(rs) / len(rs), max(rs), len(rs)) if rs else None


def _stat(st):
    return f"{st[0]:.2f} / {st[1]:.2f} ({st[2]})" if st else "-"


def tables_markdown(res, world):
    L = [f"| collective | flat -> hier ({world} cores): mean / max (sizes) | thesis Table 2.1 (32k cores) | "
         f"hier -> multi-sender ({world} cores) | thesis Table 2.2 (inter-node part) |", "|---|---|---|---|---|"]
    for row in ROWS:
        name, _, flat, _, ms = row
        lat = row_lat(res, row, world)
        t21 = ratio_stats(lat, flat, "hier")
        t22 = ratio_stats(lat, "hier", ms) if ms else None
        L.append(f"| {name} (`{flat}` / `hier` / `{ms or '-'}`) | {_stat(t21)} | {PAPER_T21[name][0]} / "
                 f"{PAPER_T21[name][1]} | {_stat(t22) if ms else 'not built'} | {PAPER_T22[name][0]} / "
                 f"{PAPER_T22[name][1]} |")
    return "\n".join(L) + "\n"


def latency_markdown(res, world):
    L = [f"| collective | algorithm | " + " | ".join(seed001._sz(t) + "B" for t in TOTALS) + " |",
         "|---|---|" + "---:|" * len(TOTALS)]
    for row in ROWS:
        lat = row_lat(res, row, world)
        for a in row_algos(row):
            if any((a, t) in lat for t in TOTALS):
                L.append(f"| {row[0]} | `{a}` | " + " | ".join(f"{lat[(a, t)] * 1e6:.1f}" if (a, t) in lat else "-"
                                                              for t in TOTALS) + " |")
    return "Mean latency e_bar (us, simulated) by largest buffer:\n\n" + "\n".join(L) + "\n"


def senders_markdown(res):
    L = ["| collective | senders | " + " | ".join(seed001._sz(t) + "B" for t in TOTALS[1:3]) + " |",
         "|---|---:|" + "---:|" * 2]
    for name, env in SENDER_ROWS.items():
        _, coll, flat, _, ms = _row(name)
        for s in SENDERS:
            vals = [res.get((coll, flat, SENDER_WORLD, ms, t, s)) for t in TOTALS[1:3]]
            if any(vals):
                L.append(f"| {name} `{ms}` | {s} | " + " | ".join(f"{v * 1e6:.1f}" if v else "-" for v in vals) + " |")
    return "\n".join(L) + "\n"


def figures(res, out):
    import matplotlib.pyplot as plt

    from .. import plot
    paths = []

    def panels(xs, value, xlabel, title, name):
        """One panel per row of ROWS: its algorithms' e_bar at each x (value(row, algo, x), None if not run)."""
        fig, axes = plt.subplots(2, 3, figsize=(12, 7))
        for ax, row in zip(axes.flat, ROWS):
            for a in row_algos(row):
                pts = [(x, value(row, a, x)) for x in xs]
                pts = [p for p in pts if p[1]]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] * 1e6 for p in pts], "o-", label=a)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(row[0], fontsize=9)
            ax.set_xlabel(xlabel, fontsize=8)
            ax.set_ylabel("e_bar (us)", fontsize=8)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        fig.suptitle(title, fontsize=10)
        paths.append(plot.save(fig, os.path.join(out, name)))

    panels(TOTALS, lambda row, a, t: row_lat(res, row, 512).get((a, t)), "largest buffer (bytes)",
           "Fig. 2.4, simulated (SimGrid SMPI, gemini preset): latency vs buffer size, 512 cores (thesis: 32k)",
           "fig2_4.png")
    panels(WORLDS, lambda row, a, w: row_lat(res, row, w).get((a, FIG25_TOTAL)), "cores (32 per node)",
           "Fig. 2.5, simulated (SimGrid SMPI, gemini preset): latency vs cores, 2 MiB buffer", "fig2_5.png")

    for name, fname in (("Reduce-Scatter", "fig2_7.png"), ("Allgather-Small", "fig2_10.png")):
        _, coll, flat, _, ms = _row(name)
        fig, ax = plt.subplots(figsize=(6.5, 4.5))
        for t in TOTALS[1:3]:
            pts = [(s, res.get((coll, flat, SENDER_WORLD, ms, t, s))) for s in SENDERS]
            pts = [p for p in pts if p[1]]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] * 1e6 for p in pts], "o-", label=f"{seed001._sz(t)}B buffer")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("senders per node")
        ax.set_ylabel("e_bar (us)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_title(f"{'Fig. 2.7' if name == 'Reduce-Scatter' else 'Fig. 2.10'}, simulated: {name} `{ms}` vs "
                     f"senders, {SENDER_WORLD} cores", fontsize=9)
        paths.append(plot.save(fig, os.path.join(out, fname)))
    return paths


def status(sweep_dir):
    return common.tier_status(tier_points(), sweep_dir)


def markdown(res, rel_dir, wall, cmd, sweep_dir):
    worlds = [w for w in WORLDS if any(k[2] == w for k in res)]
    L = ["# Seed 001 chapter 2 reproduced: universal hierarchical and multi-sender collectives, simulated", "",
         f"Command: `{cmd}` ({wall:.0f} s of simulation wall time for the runs done, one at a time on a shared "
         "2-core machine). **Every number here is simulated** (SimGrid SMPI 3.32, `papcoll sim` settings, preset "
         "gemini, 32 ranks per node, balanced arrival). The module docstring "
         "(tools/papcoll_tools/repro/seed001_ch2.py) gives the mapping of the thesis's algorithms to papcoll's.", ""]
    for w in [x for x in (512, 1024) if x in worlds]:
        L += [f"## Tables 2.1 and 2.2 at {w} cores", "",
              "Each cell: mean / max over the buffer sizes of the speedup (points). Table 2.2 here is whole-collective "
              "time, hier over multi-sender; the thesis's is the inter-node part only.", "",
              tables_markdown(res, w), latency_markdown(res, w)]
    L += ["## Number of senders (Figs. 2.7, 2.10), 512 cores", "", senders_markdown(res),
          "## Figures", "", f"![Fig. 2.4]({rel_dir}/fig2_4.png)", "", f"![Fig. 2.5]({rel_dir}/fig2_5.png)", "",
          f"![Fig. 2.7]({rel_dir}/fig2_7.png)", "", f"![Fig. 2.10]({rel_dir}/fig2_10.png)", "",
          "## What ran", "", "| tier (priority order) | runs done |", "|---|---:|"]
    L += [f"| {label} | {n} of {tot} |" for label, n, tot in status(sweep_dir)]
    L += ["", "Not run: the runs missing above, 32k cores (the thesis's Figs. 2.4/2.6), and the ring, pairwise and "
          "isend algorithms beyond 1024 ranks. Their cost is the simulator's: p^2 messages per call of up to 4 KiB "
          "(the 512-rank alltoallv run had not finished after 60 min here). `multisender_bruck` uses at most "
          "nodes - 1 senders (15 at 512 ranks), hence equal rows from 16 senders on. Rerunning the command "
          "resumes.", ""]
    return "\n".join(L) + "\n"


def run_tiers(out, bench=None, budget=3600, log=sys.stderr, runner=None, jobs=1):
    return common.run_tiers(sys.modules[__name__], out, bench, budget, log, runner, jobs)


def write(out, md_path, cmd):
    return common.tiered_report(sys.modules[__name__], out, md_path, cmd)


def main(out=None, jobs=1, bench=None, budget=3600):
    return common.tiered_main(sys.modules[__name__], "seed001_ch2", out, jobs, bench, budget)


if __name__ == "__main__":
    sys.exit(main())
