# SPDX-License-Identifier: BSD-3-Clause
"""papcoll trace report RUN_DIR [-o OUT]: the arrival imbalance of a traced run (libpapcoll_trace.so), per call
site and collective, as Markdown with figures and CSV tables (docs/trace.md).

OUT (default RUN_DIR/report) receives report.md, sites.csv (one row per call site and collective, full
precision: what the Markdown tables round), calls.csv (one row per call), stragglers.csv (which ranks
arrive last, stragglers.py), arrival_histogram.png and arrival_heatmap.png, and replay/ (each call site's
recorded arrival offsets, for papcoll-bench --pattern=trace:FILE, replay.py).  Metrics: metrics.py (Parsons 2015 §3.3's delta_bar and omega, Scalasca's wait
states); imbalance factors: factors.py (delta_bar / T, omega / T and where T comes from); --recommend:
recommend.py (papcoll-bench on the replayed arrivals, the winner as a tune rule)."""
from __future__ import annotations

import csv
import math
import os
import shlex
import sys

import numpy as np

from . import export as texport
from . import factors as tfactors
from . import metrics
from . import stragglers as tstragglers
from . import recommend as trecommend
from . import replay as treplay
from .reader import Run
from .sites import Resolver

US = 1e-3  # ns -> us

SITE_COLUMNS = ["site", "function", "path", "collective", "calls", "bytes_min", "bytes_max", "delta_bar_mean_us",
                "delta_bar_max_us", "omega_mean_us", "omega_max_us"] + \
               [w.replace(" ", "_") + "_us" for w in metrics.WAITS] + \
               ["after_last_arrival_us", "nodes", "intra_delta_bar_mean_us", "intra_omega_mean_us",
                "inter_delta_bar_mean_us", "inter_omega_mean_us", "first_omega_mean_us", "last_omega_mean_us",
                "intra_share_mean", "mixed_sites", "T_us", "if_avg_mean", "if_avg_max", "if_worst_mean",
               "if_worst_max", "replay"]
SPLIT_KEYS = ["intra_delta_bar", "intra_omega", "inter_delta_bar", "inter_omega", "first_omega", "last_omega"]


def _nodes_of(run, ppn):
    if ppn and ppn > 0:
        return lambda ranks: np.asarray(ranks) // ppn
    node_of_rank = np.asarray(run.node_of_rank)
    return lambda ranks: node_of_rank[np.asarray(ranks)]


def analyse(run, resolver, ppn=0, calls=None, tmodel=None):
    """(per-call rows, per (site, collective) aggregates, incomplete calls); tmodel: T (us) of a size, or None."""
    calls = run.calls() if calls is None else calls
    resolver.resolve_all([s for c in calls for s in c.sites])
    nodes_of = _nodes_of(run, ppn)
    t_start = min(c.arrive.min() for c in calls) if calls else 0.0
    rows, groups, incomplete = [], {}, 0
    for i, c in enumerate(calls):
        if len(c.ranks) != c.size:
            incomplete += 1
            continue
        first = int(np.argmin(c.comm_ranks))
        where = resolver.where(*c.sites[first])
        labels = {resolver.where(*s).label for s in c.sites}
        a, f = c.arrive * US, c.exit * US
        delta_bar, omega = metrics.imbalance(a)
        waits = {} if c.nonblocking else metrics.waits(c.base, a, f, c.comm_ranks, c.root)
        split = metrics.node_split(a, nodes_of(c.ranks))
        t_us = tmodel(int(c.bytes.max())) if tmodel else None
        if_avg, if_worst = tfactors.factors(delta_bar, omega, t_us)
        row = {"call": i, "t_us": (c.arrive.min() - t_start) * US, "site": where.label, "collective": c.coll,
               "comm": f"{c.comm[0]}/{c.comm[1]}", "seq": c.seq, "p": c.size, "root": c.root,
               "bytes": int(c.bytes.max()), "delta_bar_us": delta_bar, "omega_us": omega, "waits": waits,
               "split": split, "mixed_sites": len(labels) - 1, "call_obj": c,
               "T_us": "" if t_us is None else t_us, "if_avg": if_avg, "if_worst": if_worst}
        rows.append(row)
        g = groups.setdefault((where.label, c.coll), {"where": where, "rows": []})
        g["rows"].append(row)
    return rows, groups, incomplete


def aggregate(label, coll, g):
    rs = g["rows"]
    d = np.array([r["delta_bar_us"] for r in rs])
    o = np.array([r["omega_us"] for r in rs])
    out = {"site": label, "function": g["where"].function, "path": g["where"].path, "collective": coll,
           "calls": len(rs), "bytes_min": min(r["bytes"] for r in rs), "bytes_max": max(r["bytes"] for r in rs),
           "delta_bar_mean_us": float(d.mean()), "delta_bar_max_us": float(d.max()),
           "omega_mean_us": float(o.mean()), "omega_max_us": float(o.max())}
    for w in metrics.WAITS + ("after last arrival",):
        vals = [r["waits"][w] for r in rs if w in r["waits"]]
        out[w.replace(" ", "_") + "_us"] = float(sum(vals)) if vals else ""
    out["nodes"] = max(r["split"]["nodes"] for r in rs)
    for k in SPLIT_KEYS:
        out[k + "_mean_us"] = float(np.mean([r["split"][k] for r in rs]))
    shares = [r["split"]["intra_share"] for r in rs if not math.isnan(r["split"]["intra_share"])]
    out["intra_share_mean"] = float(np.mean(shares)) if shares else ""
    out["mixed_sites"] = sum(1 for r in rs if r["mixed_sites"])
    big = max(rs, key=lambda r: r["bytes"])
    out["T_us"] = big["T_us"]
    for k in ("if_avg", "if_worst"):
        vals = [r[k] for r in rs if r[k] != ""]
        out[k + "_mean"] = float(np.mean(vals)) if vals else ""
        out[k + "_max"] = float(np.max(vals)) if vals else ""
    out["replay"] = ""
    return out


def _fmt(v, digits=2):
    if v == "" or v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_fmt(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)


def _bytes(lo, hi):
    return str(lo) if lo == hi else f"{lo}-{hi}"


def figures(run, rows, out, heatmap_calls, ppn):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    nodes_of = _nodes_of(run, ppn)
    rel, rel_node = [], []
    for r in rows:
        c = r["call_obj"]
        a = c.arrive * US
        rel.append(a - a.mean())
        nodes = nodes_of(c.ranks)
        means = {n: a[nodes == n].mean() for n in np.unique(nodes)}
        rel_node.append(a - np.array([means[n] for n in nodes]))
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    if rows:
        all_rel, all_node = np.concatenate(rel), np.concatenate(rel_node)
        bins = np.histogram_bin_edges(np.concatenate([all_rel, all_node]), bins=60)
        if np.allclose(all_rel, all_node, rtol=0, atol=1e-9):
            # every call's members on one node: the two series are the same; one bar series, said so
            ax.hist(all_rel, bins=bins, alpha=0.8, label="a_i - mean arrival of the call (= of its node: every "
                    "call's members on one node)")
        else:
            ax.hist(all_rel, bins=bins, alpha=0.6, label="a_i - mean arrival of the call")
            ax.hist(all_node, bins=bins, alpha=0.6, histtype="step", linewidth=1.5,
                    label="a_i - mean arrival of its node (Parsons 2015 Fig. 3.4)")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    ax.set_xlabel("arrival relative to the mean (us, synchronized clock)")
    ax.set_ylabel("process arrivals (calls x ranks)")
    ax.set_title("Arrival times, every traced call (measured)")
    hist = os.path.join(out, "arrival_histogram.png")
    fig.savefig(hist, dpi=110, bbox_inches="tight")

    chosen = rows
    if len(rows) > heatmap_calls > 0:
        chosen = [rows[int(i)] for i in np.linspace(0, len(rows) - 1, heatmap_calls)]
    grid = np.full((run.world_size, max(len(chosen), 1)), np.nan)
    for j, r in enumerate(chosen):
        c = r["call_obj"]
        a = c.arrive * US
        grid[c.ranks, j] = a - a.mean()
    # which call site each column is: a strip above the map, one colour per site (the sites of the most calls
    # named in the legend)
    keys = [f"{r['site']} {r['collective']}" for r in chosen]
    counts = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    named = sorted(counts, key=lambda k: (-counts[k], k))
    index = {k: i for i, k in enumerate(named)}
    fig = Figure(figsize=(8, 5.5))
    grid_spec = fig.add_gridspec(2, 2, height_ratios=[1, 12], width_ratios=[40, 1], hspace=0.05, wspace=0.04)
    strip = fig.add_subplot(grid_spec[0, 0])
    ax = fig.add_subplot(grid_spec[1, 0], sharex=strip)
    cmap = matplotlib.colormaps["tab20"]
    strip.imshow(np.array([[index[k] % 20 for k in keys]] if keys else [[0]]), aspect="auto",
                 interpolation="nearest", cmap=cmap, vmin=0, vmax=19)
    strip.set_yticks([0], ["site"])
    strip.tick_params(axis="x", labelbottom=False)
    im = ax.imshow(grid, aspect="auto", interpolation="nearest", cmap="viridis", origin="lower")
    fig.colorbar(im, cax=fig.add_subplot(grid_spec[1, 1]), label="arrival - mean arrival of the call (us)")
    ax.set_xlabel("call (calls.csv's number; in order of first arrival"
                  + (f", {len(chosen)} of {len(rows)} sampled)" if chosen is not rows else ")"))
    ax.set_ylabel("MPI_COMM_WORLD rank")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda x, _pos: str(chosen[int(round(x))]["call"]) if 0 <= round(x) < len(chosen) and
        abs(x - round(x)) < 1e-6 else ""))
    strip.set_title("Arrival heat map, rank x call (measured; blank: not a member); top: the call site")
    shown = named[:20]
    handles = [Patch(color=cmap(index[k] % 20), label=k) for k in shown]
    if len(named) > len(shown):
        handles.append(Patch(color="white", label=f"{len(named) - len(shown)} more sites (colours repeat)"))
    if handles:
        fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=7,
                   frameon=False)
    heat = os.path.join(out, "arrival_heatmap.png")
    fig.savefig(heat, dpi=110, bbox_inches="tight")
    return hist, heat


def straggler_section(strag, nodes, top=10):
    """Markdown: which ranks arrive last (stragglers.py), overall, per call site and per node."""
    md = ["", "## Stragglers: which ranks arrive last", "",
          "Per call, the last member to arrive and its gap (its arrival - the second-last one's: how long all "
          "the others had been waiting for it at least) and lateness (its arrival - the call's mean arrival). "
          "Per rank: the calls it is a member of, how often it was last (a rank among p arriving at random is "
          "last in 1/p of them: `expected`), the mean and largest gap and the mean lateness of those calls, and "
          "its mean lateness over all its calls (positive: it tends to come late). Microseconds; every rank, "
          "site and node in stragglers.csv.", ""]
    ranks = strag["rank"]
    if not ranks:
        return md + ["No call of two or more members was traced."]
    md.append(_table(["rank", "node", "calls", "last", "last share", "expected", "gap mean", "gap max",
                      "lateness when last", "mean lateness"],
                     [[x["rank"], x["node"], x["calls"], x["last"], f"{100 * x['last_share']:.1f}%",
                       f"{100 * x['expected_share']:.1f}%", x["gap_mean_us"], x["gap_max_us"],
                       x["last_lateness_mean_us"], x["lateness_mean_us"]] for x in ranks[:top]]))
    if len(ranks) > top:
        md += ["", f"({len(ranks) - top} more ranks in stragglers.csv.)"]
    md += ["", "Per call site and collective, the rank most often last (ties: the larger mean gap):", ""]
    best = {}
    for x in strag["site"]:
        best.setdefault((x["site"], x["collective"]), x)  # rows are sorted: the first is the most often last
    md.append(_table(["call site", "collective", "calls", "rank most often last", "last", "last share", "expected",
                      "gap mean", "lateness when last"],
                     [[x["site"], x["collective"], x["calls"], x["rank"], x["last"], f"{100 * x['last_share']:.1f}%",
                       f"{100 * x['expected_share']:.1f}%", x["gap_mean_us"], x["last_lateness_mean_us"]]
                      for x in sorted(best.values(), key=lambda x: (-x["last"], x["site"], x["collective"]))]))
    md += ["", "Per node: the calls with a member on it, how often the last arrival was one of its ranks "
           "(`expected`: its share of the members), the mean gap of those calls, the mean lateness of its ranks "
           "over all their calls" + ("." if nodes > 1 else " (one node: every call's last arrival is on it)."), ""]
    md.append(_table(["node", "calls", "last", "last share", "expected", "gap mean", "mean lateness"],
                     [[x["node"], x["calls"], x["last"], f"{100 * x['last_share']:.1f}%",
                       f"{100 * x['expected_share']:.1f}%", x["gap_mean_us"], x["lateness_mean_us"]]
                      for x in strag["node"]]))
    return md


def recommendation_section(outcomes, out, recommend):
    """Markdown: the replay files and, with --recommend, the measured winners and their tune rules."""
    md = ["", "## Replay and recommendation", "",
          "`replay/<site>.csv` holds each blocking call site's recorded arrival offsets, one row per call "
          "(`replay/all.csv`: every site, named by its first field); `papcoll-bench --pattern=trace:FILE` replays "
          "them (docs/benchmark.md), e.g. the command in each file's comment.", ""]
    if not recommend:
        md.append("`--recommend` runs papcoll-bench on them with the candidate algorithms and writes the winner of "
                  "each site as a tune rule here.")
        return md + [""]
    if not outcomes:
        md.append("No call site papcoll-bench can replay (a blocking bcast, reduce, allreduce, allgather(v), "
                  "reduce_scatter(_block), alltoall(v), gather(v) or scatter(v) with a message).")
        return md + [""]
    md.append("Mean time from arrival to exit (e_bar, us, papcoll-bench's median over repetitions) of each "
              "algorithm on the site's replayed arrivals, natively on this machine; the winner is the fastest papcoll "
              "algorithm (`auto` shown for comparison; `ran on`: processes of the benchmark run).")
    for coll in sorted({o.collective for o in outcomes}):
        mine = [o for o in outcomes if o.collective == coll]
        algos = sorted({a for o in mine for a in o.times}, key=lambda a: (a == "auto", a))
        md += ["", f"**{coll}**", ""]
        md.append(_table(["call site", "bytes", "p", "ran on"] + algos + ["winner", "note"],
                         [[o.site, o.size, o.p, o.np] + [o.times[a] * 1e6 if a in o.times else "" for a in algos] +
                          [o.winner or "-", o.note or ""] for o in mine]))
    rules = trecommend.rules(outcomes)
    path = os.path.join(out, "tune.rules")
    with open(path, "w") as fh:
        fh.write("# papcoll trace report --recommend: the fastest papcoll algorithm on each call site's replayed "
                 "arrivals\n" + "\n".join(rules) + ("\n" if rules else ""))
    md += ["", "Tune rules (`tune.rules`, a `PAPCOLL_TUNE_FILE`; docs/tuning.md):", "", "```",
           "; ".join(rules) if rules else "# none: no benchmark ran", "```"]
    if any(not o.times for o in outcomes):
        script = trecommend.script([o for o in outcomes if not o.times], os.path.join(out, "replay",
                                                                                       "recommend.sh"))
        md += ["", f"Not measured here; the commands (`{os.path.relpath(script, out)}`):", "", "```"] + \
              [" ".join(shlex.quote(x) for x in o.command) for o in outcomes if not o.times] + ["```"]
    return md + [""]


def t_model(calls, t_us=None, t_table=None):
    """T (us) per message size: --T, else --T-table, else the trace's own two-process calls, else None."""
    if t_us is not None:
        return tfactors.given(t_us)
    if t_table:
        return tfactors.from_table(t_table)
    return tfactors.from_trace(calls)


def write(run_dir, out=None, ppn=None, heatmap_calls=500, addr2line="addr2line", figures_too=True, t_us=None,
          t_table=None, recommend=False, bench=None, algos="all,auto", np_max=4, mpirun="mpirun", bench_iters=20,
          bench_args=""):
    """Writes the report (module doc); recommend: run papcoll-bench on each site's replayed arrivals
    (recommend.py).  Raises reader.TraceError or factors.TError."""
    run = Run(run_dir)
    ppn_given = ppn is not None
    ppn = texport.node_size(run, ppn)  # --ppn, else the run's PAPCOLL_PPN (header papcoll_ppn), else 0
    out = out or os.path.join(run_dir, "report")
    os.makedirs(out, exist_ok=True)
    resolver = Resolver(run, addr2line)
    calls = run.calls()
    tmodel = t_model(calls, t_us, t_table)
    rows, groups, incomplete = analyse(run, resolver, ppn, calls, tmodel)
    aggs = [aggregate(label, coll, g) for (label, coll), g in groups.items()]
    aggs.sort(key=lambda x: (-x["omega_mean_us"] * x["calls"], x["site"], x["collective"]))
    treplay.write_all(out, groups, aggs)
    outcomes = trecommend.run_all(aggs, out, bench, algos, np_max, mpirun, bench_iters, 2, bench_args) \
        if recommend else []

    with open(os.path.join(out, "sites.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, SITE_COLUMNS)
        w.writeheader()
        for a in aggs:
            w.writerow({k: (repr(a[k]) if isinstance(a[k], float) else a[k]) for k in SITE_COLUMNS})
    with open(os.path.join(out, "calls.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["call", "t_us", "site", "collective", "comm", "seq", "p", "root", "bytes", "delta_bar_us",
                    "omega_us"] + [x.replace(" ", "_") + "_us" for x in metrics.WAITS + ("after last arrival",)] +
                   ["T_us", "if_avg", "if_worst"])
        for r in rows:
            w.writerow([r["call"], repr(r["t_us"]), r["site"], r["collective"], r["comm"], r["seq"], r["p"], r["root"],
                        r["bytes"], repr(r["delta_bar_us"]), repr(r["omega_us"])] +
                       [repr(r["waits"][x]) if x in r["waits"] else "" for x in metrics.WAITS + ("after last arrival",)] +
                       [repr(r[k]) if r[k] != "" else "" for k in ("T_us", "if_avg", "if_worst")])

    strag = tstragglers.analyse(rows, _nodes_of(run, ppn))
    with open(os.path.join(out, "stragglers.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, tstragglers.COLUMNS)
        w.writeheader()
        for scope in ("rank", "site", "node"):
            for x in strag[scope]:
                w.writerow({k: (repr(x[k]) if isinstance(x[k], float) else x[k]) for k in tstragglers.COLUMNS})

    hist = heat = None
    if figures_too:
        hist, heat = figures(run, rows, out, heatmap_calls, ppn)

    h = run.header
    clock = run.clock
    resid = clock.residual() * US
    hosts = sorted(set(run.hosts))
    real_nodes = len(set(np.asarray(run.node_of_rank)))
    nodes = real_nodes if not ppn else -(-run.world_size // ppn)
    if ppn:
        how = "--ppn" if ppn_given else f"PAPCOLL_PPN={ppn} in the run's environment"
        where = (f"{nodes} virtual node{'s' if nodes != 1 else ''} of {ppn} consecutive ranks ({how}) on "
                 f"{real_nodes} node{'s' if real_nodes != 1 else ''} ({', '.join(hosts)})")
    else:
        where = f"{nodes} node{'s' if nodes != 1 else ''} ({', '.join(hosts)})"
    md = [f"# papcoll trace report: {os.path.basename(os.path.normpath(run_dir))}", ""]
    md += [f"Program `{h.get('program', '?')}` on {run.world_size} ranks, {where}"
           + f", {h.get('mpi_library', '?').splitlines()[0] if h.get('mpi_library') else '?'}. "
           + f"{sum(len(r) for r in run.records.values())} records, {len(rows)} complete calls"
           + (f", {incomplete} calls not recorded by every member (left out)" if incomplete else "")
           + ("" if h.get("complete") else "; **the run did not reach MPI_Finalize: no drift correction**") + ".", ""]
    seg = clock.segment_residuals() * US
    stated = clock.stated_residual() * US
    periodic = sum(1 for w in clock.when if w == "periodic")
    md += ["## Clock", "",
           f"{h['clock']['method']}. {clock.syncs} synchronization(s) ({periodic} periodic). Every arrival and exit "
           f"time below is on rank 0's clock. Cristian's bound (half the round trip of the median ping-pong, the "
           f"largest over the synchronizations): max {resid.max():.2f} us, median {np.median(resid):.2f} us over "
           f"ranks. Drift: max {np.abs(clock.drift_ppm()).max():.2f} ppm; the correction moves the end of the run by "
           f"up to {(clock.correction() * US).max():.2f} us. The tracer's own synchronization steps run after a "
           "call's exit and before the rank's next arrival: no reported time includes them.", ""]
    if len(seg):
        md += ["Residual at each synchronization from the third on: the offset it measured against the one the "
               "previous segment predicted (the error the correction had there before it was measured), max over "
               "ranks, us: " + ", ".join(f"{clock.when[k + 2]} {k + 2}: {seg[k].max():.2f}" for k in range(len(seg)))
               + ".", ""]
    md += [f"Stated residual (Cristian's bound + the largest segment residual): max {stated.max():.2f} us over "
           "ranks. Arrival differences below are accurate to about the sum of two ranks' stated residuals"
           + ("" if len(seg) else " if the drift between the synchronizations is linear (Parsons 2015 §3.4; "
              "PAPCOLL_TRACE_RESYNC re-synchronizes periodically and measures the departure from linearity)") + ".",
           ""]
    md += ["## Imbalance per call site and collective", "",
           "Parsons 2015 §3.3: for one call with arrival times a_i, delta_bar = mean |a_i - mean(a)| (average "
           "imbalance) and omega = max(a_i) - min(a_i) (worst-case imbalance); below, their mean and maximum over "
           "the calls of each call site and collective, in microseconds (Parsons 2015 Tables 3.1-3.4 report the means as "
           "Avg. and W.C.). Collectives `i...` are nonblocking posts (arrival = post).", ""]
    md.append(_table(["call site", "collective", "calls", "bytes", "delta_bar mean", "delta_bar max", "omega mean",
                      "omega max"],
                     [[a["site"], a["collective"], a["calls"], _bytes(a["bytes_min"], a["bytes_max"]),
                       a["delta_bar_mean_us"], a["delta_bar_max_us"], a["omega_mean_us"], a["omega_max_us"]]
                      for a in aggs]))
    md += ["", "## Imbalance factors", "",
           "Parsons 2015 §3.3 and Patarasuk & Yuan 2008 §2: delta_bar / T (average) and omega / T (worst case), with T "
           "the time to send the call's message between two processes, for the call's message size (a factor of "
           "1: the processes are as far apart as one message takes).  Per call, then their mean and maximum over the "
           "calls of each site; T below is the one of the site's largest message.", ""]
    if tmodel is None:
        md.append("No T: the run holds no two-process call to measure it from, and neither `--T US` nor "
                  "`--T-table FILE` was given (docs/trace.md), so the factors are left out.")
    else:
        md += [f"T: {tmodel.describe()}.", ""]
        md.append(_table(["call site", "collective", "bytes", "T (us)", "delta_bar/T mean", "delta_bar/T max",
                          "omega/T mean", "omega/T max"],
                         [[a["site"], a["collective"], _bytes(a["bytes_min"], a["bytes_max"]), a["T_us"],
                           a["if_avg_mean"], a["if_avg_max"], a["if_worst_mean"], a["if_worst_max"]] for a in aggs]))
    wait_cols = [w for w in metrics.WAITS if any(a[w.replace(" ", "_") + "_us"] != "" for a in aggs)]
    md += ["", "## Wait states (Scalasca's names)", "",
           "Time lost waiting, summed over ranks and calls, in microseconds (definitions: docs/trace.md and "
           "papcoll_tools/trace/metrics.py): Late Broadcast (non-roots of bcast/scatter(v) entering before the "
           "root), Early Reduce (the root of reduce/gather(v) entering before the first sender), Wait at N x N "
           "(n-to-n collectives, until the last arrival), N x N Completion (n-to-n, after the first process left), "
           "Wait at Barrier / Barrier Completion, Early Scan; and `after last arrival` (DESIGN.md section 6: the part "
           "of an n-to-n collective its algorithm controls).", ""]
    if wait_cols:
        total = {w: sum(a[w.replace(" ", "_") + "_us"] or 0.0 for a in aggs) for w in wait_cols + ["after last arrival"]}
        md.append(_table(["call site", "collective", "calls"] + wait_cols + ["after last arrival"],
                         [[a["site"], a["collective"], a["calls"]] +
                          [a[w.replace(" ", "_") + "_us"] for w in wait_cols + ["after last arrival"]] for a in aggs
                          if any(a[w.replace(" ", "_") + "_us"] != "" for w in wait_cols)] +
                         [["**total**", "", sum(a["calls"] for a in aggs)] +
                          [total[w] for w in wait_cols + ["after last arrival"]]]))
    else:
        md.append("No blocking collective with a wait state was traced.")
    md += straggler_section(strag, nodes)
    md += ["", "## Intra-node vs inter-node imbalance", "",
           "Parsons 2015 §3.5.2 found processes of one node as imbalanced as processes of different nodes. Per "
           "call, averaged over the calls (us): intra = delta_bar of each rank against its node's mean arrival and "
           "the largest omega inside a node; inter = delta_bar and omega of the nodes' mean arrivals; first / last "
           "= omega of each node's first / last arrival (Parsons 2015 Table 3.5); intra share = the within-node part of "
           "the sum of squared deviations of the arrivals (1: all of the imbalance is inside nodes).", ""]
    if nodes < 2:
        md.append("All ranks ran on one node: no inter-node split (`--ppn K` groups ranks into virtual nodes of K "
                  "consecutive ranks to study the split anyway; a run with PAPCOLL_PPN set is grouped by it).")
    else:
        md.append(_table(["call site", "collective", "nodes", "intra delta_bar", "intra omega", "inter delta_bar",
                          "inter omega", "first omega", "last omega", "intra share"],
                         [[a["site"], a["collective"], a["nodes"], a["intra_delta_bar_mean_us"],
                           a["intra_omega_mean_us"], a["inter_delta_bar_mean_us"], a["inter_omega_mean_us"],
                           a["first_omega_mean_us"], a["last_omega_mean_us"], a["intra_share_mean"]] for a in aggs]))
    md += ["", "## Call sites", ""]
    md.append(_table(["call site", "function", "source"],
                     sorted({(a["site"], a["function"], a["path"]) for a in aggs})))
    for warning in resolver.warnings():
        md += ["", f"**Warning:** {warning}."]
        print(f"papcoll trace report: warning: {warning}", file=sys.stderr)
    if any(a["mixed_sites"] for a in aggs):
        md += ["", "Some calls were made from different call sites on different ranks; they are listed under the "
               "site of their lowest communicator rank (`mixed_sites` in sites.csv counts them)."]
    if figures_too:
        md += ["", "## Figures", "", f"![arrival histogram]({os.path.basename(hist)})", "",
               f"![arrival heat map]({os.path.basename(heat)})"]
    md += recommendation_section(outcomes, out, recommend)
    path = os.path.join(out, "report.md")
    with open(path, "w") as fh:
        fh.write("\n".join(md))
    return path
