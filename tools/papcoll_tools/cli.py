# SPDX-License-Identifier: BSD-3-Clause
"""papcoll: command-line front end of the tools.

    papcoll sim run --platform=SPEC [--np=N] [--baseline=NAME] [--bench=PATH] -- BENCH_ARGS
                                                 NAME: SMPI's algorithm for the --coll in BENCH_ARGS (sim/run.py)
    papcoll sim platform SPEC -o PREFIX          write PREFIX.xml and PREFIX.hosts
    papcoll sim sweep CONFIG.toml [--jobs=N] [--out=DIR] [--timeout=S]   many runs (docs/simulation.md), merged into DIR/sweep.csv
    papcoll sim report SWEEP.csv -o DIR          figures and a Markdown report of a sweep
    papcoll sim reproduce NAME [--out=DIR]       a source paper's experiments, NAME its key (docs/references.md) as
                                                 its folder docs/results/NAME is named:
    papcoll sim reproduce smpi_bcast_exercise    the SMPI bcast exercise's questions 1-5
    papcoll sim reproduce cp_paper               the CP paper's Figs. 12-17, CP vs P broadcasts
    papcoll sim reproduce patarasuk_yuan2008     Patarasuk & Yuan 2008's Figs. 7-10
    papcoll sim reproduce parsons2015 [--budget=S]   Parsons 2015's broadcast Table 3.7, Figs. 3.21-3.22, then
                                                 its reduce Table 3.6, Figs. 3.19-3.20 (each part --budget seconds)
    papcoll sim reproduce parsons2015_alltoall [--budget=S]   Parsons 2015's alltoall Table 3.8, Figs. 3.24-3.26
                                                 at 512-2048 ranks
    papcoll sim reproduce parsons2015_ch2 [--budget=S]   Parsons 2015's chapter 2: universal hierarchical and
                                                 multi-sender collectives, Tables 2.1-2.2, Figs. 2.4-2.10 at 512-4096 ranks

    papcoll trace report RUN_DIR [-o OUT] [--ppn=K] [--heatmap-calls=N] [--addr2line=PATH] [--no-figures]
                         [--T=US | --T-table=FILE] [--recommend [--bench=PATH] [--algos=LIST] [--mpirun=CMD] [--np=N]]
                                                 the arrival imbalance of a run traced with libpapcoll_trace.so
                                                 (docs/trace.md), per call site and collective, its imbalance
                                                 factors, straggler ranks, replay files and the per-site
                                                 algorithm recommendation
    papcoll trace export RUN_DIR --format=chrome|otf2 [-o OUT] [--ppn=K] [--addr2line=PATH]
                                                 the run as Chrome/Perfetto trace-event JSON or an OTF2 archive

    papcoll tune (--launcher=CMD | --simulate=SPEC) [--colls=LIST] [--sizes=LIST] [--patterns=LIST] [-o RULES]
                                                 benchmark every algorithm per collective, size and pattern (resumable)
                                                 and write a PAPCOLL_TUNE_FILE chosen by regret, with a Markdown report
                                                 (site_tune.py; `papcoll tune --help`)

    papcoll phases FILE [--csv=OUT]             where each collective's time goes (shared-memory copies, waits, the
                                                 rest), from a run with PAPCOLL_PHASE_REPORT=FILE (phases.py)

SPEC: see papcoll_tools.sim.platform (cluster:16x8, cluster:16x8,preset=gige, ring:100, fattree:..., a file.xml).
"""
from __future__ import annotations

import argparse
import glob
import importlib
import os
import signal
import sys

from . import __version__
from .sim import platform, run, sweep, sweep_config

# `papcoll sim reproduce NAME`: the paper's key (docs/references.md) as its module of papcoll_tools.repro and its
# folder docs/results/NAME are named
REPRODUCTIONS = ["cp_paper", "parsons2015", "parsons2015_alltoall", "parsons2015_ch2", "patarasuk_yuan2008",
                 "smpi_bcast_exercise"]
BUDGETED = ("parsons2015", "parsons2015_alltoall", "parsons2015_ch2")  # reproductions that take --budget
# the reproductions' former names, still accepted (with a note) for old scripts; not in --help
DEPRECATED_NAMES = {"seed000": "cp_paper", "seed001": "parsons2015", "seed001-alltoall": "parsons2015_alltoall",
                    "seed001-ch2": "parsons2015_ch2", "seed002": "patarasuk_yuan2008", "seed004": "smpi_bcast_exercise"}


def _exit_on_sigterm(signum, _frame):
    # SIGTERM (e.g. from `timeout`) becomes SystemExit, so that a running simulation, which has its own
    # process group, is killed on the way out (sim.run.simulate) instead of being left behind.
    sys.exit(128 + signum)


def newest_trace_run(base):
    """The newest run directory papcoll-trace-YYYYmmdd-HHMMSS-PID under base (the names sort by time)."""
    runs = sorted(d for d in glob.glob(os.path.join(base, "papcoll-trace-*")) if os.path.isdir(d))
    if not runs:
        raise SystemExit(f"papcoll trace: no papcoll-trace-* run directory in {os.path.abspath(base)}: give RUN_DIR")
    return runs[-1]


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    bench_args = []
    if "--" in argv:
        i = argv.index("--")
        argv, bench_args = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(prog="papcoll", description="papcoll tools")
    ap.add_argument("--version", action="version", version=f"papcoll tools {__version__}")
    sub = ap.add_subparsers(dest="group", required=True)
    sim = sub.add_parser("sim", help="SimGrid SMPI simulations").add_subparsers(dest="cmd", required=True)
    r = sim.add_parser("run", help="one simulated papcoll-bench run (arguments after --)")
    r.add_argument("--platform", required=True,
                   help="the simulated machine, e.g. cluster:16x16 or cluster:16x16,preset=gemini "
                   "(nodes x cores; docs/simulation.md lists the forms and presets)")
    r.add_argument("--np", type=int, help="simulated ranks (default: every core of the platform)")
    r.add_argument("--baseline", help="one of SMPI's own algorithms for the collective of the benchmark's --coll (bcast: "
                   "mpich, ompi, mvapich2, binomial_tree, ...; reduce: mpich, ompi, binomial, rab, scatter_gather, ...; "
                   "allreduce: mpich, ompi, rdb, rab_rdb, lr, redbcast, ...; barrier: mpich, ompi_bruck, mvapich2, ...), run as 'native' with --cfg=smpi/<coll>:NAME")
    r.add_argument("--bench", help="path of papcoll-bench-smpi")
    r.add_argument("--stack-size", type=int, metavar="KIB",
                   help="stack of each simulated rank in KiB (SimGrid contexts/stack-size; default SimGrid's 8192): "
                   "e.g. 1024 lets 2048 ranks run under a 10 GB address-space limit; simulated times do not depend on it")
    r.add_argument("--smpi-cfg", action="append", default=[], metavar="KEY:VALUE",
                   help="a further SimGrid setting (repeatable), replacing the runner's own for that key, e.g. "
                   "smpi/grow-injected-times:no; the benchmark's output header lists every setting used")
    r.add_argument("--mpi-copies", action="store_true",
                   help="charge the MPI library's own copies as papcoll's shared-memory copies are charged: a message "
                   "below SMPI's eager limit (64 KiB) costs its sender and its receiver one copy each at PAPCOLL_SIM_MEMBW "
                   "(smpi/os, smpi/ois, smpi/or; without it SMPI charges MPI's copies nothing; docs/simulation.md)")
    pl = sim.add_parser("platform", help="write a platform's XML and hostfile")
    pl.add_argument("spec")
    pl.add_argument("-o", "--output", required=True, help="prefix of PREFIX.xml and PREFIX.hosts")
    sw = sim.add_parser("sweep", help="run a sweep described by a TOML file (resumable, parallel)")
    sw.add_argument("config")
    sw.add_argument("--jobs", type=int, default=2, help="simulations at a time (default 2)")
    sw.add_argument("--out", help="output directory (default sweeps/NAME of the config file)")
    sw.add_argument("--bench", help="path of papcoll-bench-smpi")
    sw.add_argument("--timeout", type=float, help="kill a point's simulation after this many seconds (it then counts as failed)")
    rp = sim.add_parser("report", help="figures and a Markdown report of a merged sweep CSV")
    rp.add_argument("csv")
    rp.add_argument("-o", "--output", required=True, help="output directory")
    rr = sim.add_parser("reproduce", help="reproduce a source paper's experiments (docs/simulation.md)",
                        description="Reproduces a source paper's experiments in simulation. NAME is the paper's key "
                        "in docs/references.md, written as its results folder docs/results/NAME (lower case, "
                        "underscores): " + ", ".join(REPRODUCTIONS) + ".")
    rr.add_argument("name", metavar="NAME", help="the reproduction (one of the names above)")
    rr.add_argument("--out", help="output directory (default docs/results/NAME of the repository)")
    rr.add_argument("--jobs", type=int, default=1, help="simulations at a time (default 1: 100-rank runs need 1 GB each)")
    rr.add_argument("--bench", help="path of papcoll-bench-smpi")
    rr.add_argument("--budget", type=float, help=", ".join(BUDGETED) + ": start no new tier of runs after this many "
                    "seconds (parsons2015: for the broadcast part and again for the reduce part, default 1500 each; "
                    "parsons2015_alltoall and parsons2015_ch2: default 3600); 0: report only; a rerun resumes")
    tr = sub.add_parser("trace", help="arrival traces of libpapcoll_trace.so").add_subparsers(dest="cmd", required=True)
    tp = tr.add_parser("report", help="Markdown report, figures and CSV of a traced run (docs/trace.md)")
    tp.add_argument("run_dir", nargs="?", help="the run directory (PAPCOLL_TRACE_DIR/papcoll-trace-...; default: "
                    "the newest papcoll-trace-* in $PAPCOLL_TRACE_DIR, or else in the working directory)")
    tp.add_argument("-o", "--output", help="output directory (default RUN_DIR/report)")
    tp.add_argument("--ppn", type=int, default=None, help="group ranks into virtual nodes of K consecutive ranks for "
                    "the intra-/inter-node split, the stragglers per node and the figures (default: the run's "
                    "PAPCOLL_PPN when it was set, else the nodes recorded by the tracer; 0: the recorded nodes)")
    tp.add_argument("--heatmap-calls", type=int, default=500, help="at most N calls (evenly sampled) in the rank x call "
                    "heat map (default 500)")
    tp.add_argument("--addr2line", default="addr2line", help="addr2line program resolving call sites to file:line "
                    "(default addr2line; '' leaves them as symbol+offset)")
    tp.add_argument("--no-figures", action="store_true", help="write the Markdown and CSV only")
    tp.add_argument("--T", dest="t_us", type=float, metavar="US", help="imbalance factors delta_bar/T and omega/T "
                    "with this T (microseconds) for every message size")
    tp.add_argument("--T-table", dest="t_table", metavar="FILE", help="T per message size: a CSV of bytes,T_us, or "
                    "papcoll-bench output (its CSV or #@T=SIZE:SECONDS lines); piecewise linear in between.  Default "
                    "(neither --T nor --T-table): T measured from the trace's own two-process calls when it has "
                    "some, else no factors (docs/trace.md)")
    tp.add_argument("--recommend", action="store_true", help="run papcoll-bench natively on each call site's replayed "
                    "arrivals (OUT/replay/SITE.csv) with the candidate algorithms and write the fastest as tune rules "
                    "(report.md, OUT/tune.rules); prints the commands when it cannot run them")
    tp.add_argument("--bench", metavar="PATH", help="--recommend: papcoll-bench (default: on PATH, else the "
                    "repository's build/bench/papcoll-bench)")
    tp.add_argument("--algos", default="all,auto", metavar="LIST", help="--recommend: candidate algorithms, "
                    "papcoll-bench --algo syntax (default all,auto: every papcoll algorithm of the collective, "
                    "native included, and auto for comparison; auto is never a rule's target)")
    tp.add_argument("--mpirun", default=os.environ.get("PAPCOLL_MPIRUN", "mpirun"), metavar="CMD",
                    help="--recommend: launcher and its flags (default $PAPCOLL_MPIRUN or mpirun; as root with Open "
                    "MPI: 'mpirun --allow-run-as-root --oversubscribe')")
    tp.add_argument("--np", dest="np_max", type=int, default=4, metavar="N", help="--recommend: at most N processes "
                    "per benchmark run (default 4; a site of p > N processes replays its first N ranks' offsets)")
    tp.add_argument("--bench-iterations", type=int, default=20, metavar="N", help="--recommend: timed repetitions "
                    "per algorithm (papcoll-bench -i, default 20; the recorded calls are cycled)")
    tp.add_argument("--bench-args", default="", metavar="ARGS", help="--recommend: more papcoll-bench options "
                    "(e.g. '--ppn=2')")
    te = tr.add_parser("export", help="the trace as Chrome/Perfetto trace-event JSON or an OTF2 archive "
                       "(docs/trace.md, Exports)")
    te.add_argument("run_dir", nargs="?", help="the run directory (default: the newest papcoll-trace-* in "
                    "$PAPCOLL_TRACE_DIR, or else in the working directory)")
    te.add_argument("--format", required=True, choices=("chrome", "otf2"), help="chrome: trace-event JSON for "
                    "Perfetto (ui.perfetto.dev) or chrome://tracing; otf2: an OTF2 archive for Vampir, Scalasca, "
                    "TAU or otf2-print (needs the OTF2 Python binding: Debian's python3-otf2)")
    te.add_argument("-o", "--output", help="chrome: the JSON file (default RUN_DIR/trace.json); otf2: the archive "
                    "directory (default RUN_DIR/otf2, holding traces.otf2; an archive already there is replaced, "
                    "another existing path refused)")
    te.add_argument("--ppn", type=int, default=None, metavar="K", help="group ranks into virtual nodes of K "
                    "consecutive ranks (JSON pid, OTF2 system tree); default: the run's PAPCOLL_PPN when it was set, else the nodes "
                    "recorded by the tracer; 0: the recorded nodes")
    te.add_argument("--addr2line", default="addr2line", metavar="PATH", help="addr2line program resolving call "
                    "sites to file:line (default addr2line; '' leaves them as symbol+offset)")
    from . import site_tune
    tu = sub.add_parser("tune", help="tune papcoll on this machine or cluster, or a simulated one: benchmark, "
                        "choose rules by regret, write a PAPCOLL_TUNE_FILE and a report",
                        description=site_tune.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    site_tune.add_arguments(tu)
    from . import phases
    ph = sub.add_parser("phases", help="where each collective's time goes, from PAPCOLL_PHASE_REPORT's file",
                        description=phases.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    phases.add_arguments(ph)
    args = ap.parse_args(argv)
    if args.group == "phases":
        return phases.main(args)
    if args.group == "tune":
        if bench_args:
            sys.exit("papcoll tune: give benchmark options with --bench-args, not after --")
        return site_tune.main(args)
    if args.group == "sim" and args.cmd == "reproduce":
        if args.name in DEPRECATED_NAMES:
            new = DEPRECATED_NAMES[args.name]
            print(f"papcoll sim reproduce: {args.name} is deprecated, now named {new}", file=sys.stderr)
            args.name = new
        elif args.name not in REPRODUCTIONS:
            rr.error(f"argument NAME: invalid choice: {args.name!r} (choose from {', '.join(REPRODUCTIONS)})")
    if args.group == "trace" and args.cmd == "export":
        from .trace import export as trace_export
        from .trace.reader import TraceError
        try:
            if args.run_dir is None:
                args.run_dir = newest_trace_run(os.environ.get("PAPCOLL_TRACE_DIR", "."))
                print(f"papcoll trace: the newest run, {args.run_dir}", file=sys.stderr)
            print(trace_export.write(args.run_dir, args.format, args.output, ppn=args.ppn, addr2line=args.addr2line))
        except TraceError as e:
            sys.exit(f"papcoll trace: {e}")
        return 0
    if args.group == "trace":
        from .trace import report as trace_report
        from .trace.reader import TraceError
        from .trace.factors import TError
        try:
            if args.run_dir is None:
                args.run_dir = newest_trace_run(os.environ.get("PAPCOLL_TRACE_DIR", "."))
                print(f"papcoll trace: the newest run, {args.run_dir}", file=sys.stderr)
            print(trace_report.write(args.run_dir, args.output, ppn=args.ppn, heatmap_calls=args.heatmap_calls,
                                     addr2line=args.addr2line, figures_too=not args.no_figures, t_us=args.t_us,
                                     t_table=args.t_table, recommend=args.recommend, bench=args.bench,
                                     algos=args.algos, np_max=args.np_max, mpirun=args.mpirun,
                                     bench_iters=args.bench_iterations, bench_args=args.bench_args))
        except (TraceError, TError) as e:
            sys.exit(f"papcoll trace: {e}")
        return 0
    try:
        if args.cmd == "sweep":
            return _sweep(args)
        if args.cmd == "report":
            from . import report
            print(report.write(args.csv, args.output))
            return 0
        if args.cmd == "reproduce":
            extra = {}
            if args.budget is not None:
                if args.name not in BUDGETED:
                    sys.exit(f"papcoll sim: --budget applies to {', '.join(BUDGETED)} only")
                extra["budget"] = args.budget
            module = importlib.import_module(f".repro.{args.name}", __package__)
            return module.main(args.out, args.jobs, args.bench, **extra)
        if args.cmd == "platform":
            p = platform.generate(args.spec)
            xml, hosts = p.write(args.output)
            print(f"{xml}, {hosts}: {p.description} ({p.slots} process slots)")
            return 0
        return run.run(args.platform, args.np, args.baseline, args.bench, bench_args, stack_kib=args.stack_size,
                       extra_cfg=args.smpi_cfg, mpi_copies=args.mpi_copies)
    except (platform.SpecError, sweep_config.ConfigError) as e:
        sys.exit(f"papcoll sim: {e}")


def _sweep(args):
    points = sweep_config.load(args.config)
    out = args.out or os.path.join("sweeps", os.path.splitext(os.path.basename(args.config))[0])
    merged, skipped, failures = sweep.sweep(points, out, args.jobs, args.bench, timeout=args.timeout)
    print(f"{merged}: {len(points) - len(failures)} of {len(points)} points ({skipped} skipped as already done, "
          f"{len(failures)} failed)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
