# SPDX-License-Identifier: BSD-3-Clause
"""papcoll figures: every figure of docs/, regenerated from the CSVs and raw text committed in docs/results.

    make figures                                    (build/figures/)
    cd tools && python3 -m papcoll_tools.figures -o ../build/figures [--only=SUBSTRING]

The figures are not kept in git: docs/results/X/fig.png of a report is OUTDIR/X/fig.png here (same
relative path). Which tool makes what:
  - perf_<size>.png, perf_<coll>_<size>.png (perf_*, regret_*/PLATFORM[/bcast], bcast_2048_check,
    rs_ring_fix): papcoll_tools.perf_report on the folder's CSVs (files in regret_sweep.sh's order:
    a *-auto2.csv, then *-rerunN.csv, replaces the rows of earlier files);
  - the reproductions of the papers (cp_paper, parsons2015*, patarasuk_yuan2008, smpi_bcast_exercise):
    the `figures` function of their papcoll_tools.repro module, from the folder's sweep/sweep.csv;
  - bench/*/imbalance.png: papcoll_tools.plot imbalance on the folder's uniform_*.csv;
  - transport/fig7_pingpong.png: papcoll_tools.transport_plot on the two ping-pong outputs;
  - apps_trace_smpi/RUN/arrival_*.png: `papcoll trace report` of RUN.trace.tar.gz (the full report
    is written beside them).
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RESULTS = os.path.join(REPO, "docs", "results")

# folders whose perf_*.png figures perf_report makes from the folder's *.csv
PERF_DIRS = ["perf_4x4", "perf_16x16", "perf_64x32", "bcast_2048_check", "rs_ring_fix"] + [
    f"{family}/{plat}{sub}" for family, plats in [
        ("regret_4x4", ["cluster", "fattree", "torus"]), ("regret_8x8", ["cluster", "fattree", "torus"]),
        ("regret_16x16", ["cluster", "fattree", "torus"]), ("regret_16x16_heldout", ["dragonfly", "fattree", "torus"]),
        ("regret_16x16_bcast_heldout", ["cluster", "dragonfly"])]
    for plat in plats for sub in ("", "/bcast")]

# the reproductions' folders, each named as its papcoll_tools.repro module (the paper's key, docs/references.md)
REPRO = ["cp_paper", "parsons2015", "parsons2015_alltoall", "parsons2015_ch2", "patarasuk_yuan2008",
         "smpi_bcast_exercise"]


def _ordered(files):
    """regret_sweep.sh's order: plain files, then *-auto2.csv, then *-rerunN.csv by N (later rows win)."""
    rerun = re.compile(r"-rerun(\d+)\.csv$")
    plain = sorted(f for f in files if not f.endswith("-auto2.csv") and not rerun.search(f))
    auto2 = sorted(f for f in files if f.endswith("-auto2.csv"))
    reruns = sorted((f for f in files if rerun.search(f)), key=lambda f: int(rerun.search(f).group(1)))
    return plain + auto2 + reruns


def perf(rel, out):
    from . import perf_report
    files = _ordered(glob.glob(os.path.join(RESULTS, rel, "*.csv")))
    if not files:
        return
    with open(os.devnull, "w") as null:
        stdout, sys.stdout = sys.stdout, null
        try:
            perf_report.main(files + ["-o", out])
        finally:
            sys.stdout = stdout


def repro(rel, out):
    import importlib
    from .sim import sweep_config
    mod = importlib.import_module(f"papcoll_tools.repro.{rel}")  # REPRO: a folder is named as its module
    src = os.path.join(RESULTS, rel)
    os.makedirs(out, exist_ok=True)
    if rel == "cp_paper":
        res = mod.load(os.path.join(src, "sweep"), sweep_config.expand(mod.config()))
    else:
        res = mod.load(os.path.join(src, "sweep", "sweep.csv"))
    mod.figures(res, out)
    if rel == "parsons2015":
        from .repro import parsons2015_reduce as red
        red.figures(red.load(os.path.join(src, "reduce_sweep", "sweep.csv")), out, red.has_onesided())


def imbalance(rel, out):
    from . import plot
    os.makedirs(out, exist_ok=True)
    files = sorted(glob.glob(os.path.join(RESULTS, rel, "uniform_*.csv")))
    plot.main(["imbalance", *files, "-o", os.path.join(out, "imbalance.png"),
               "--table", os.path.join(out, "imbalance.md")])


def transport(rel, out):
    from . import transport_plot
    os.makedirs(out, exist_ok=True)
    src = os.path.join(RESULTS, rel)
    with open(os.devnull, "w") as null:
        stdout, sys.stdout = sys.stdout, null
        try:
            transport_plot.main([f"Open MPI 4.1={src}/pingpong_openmpi_np2.txt", f"MPICH 4.0={src}/pingpong_mpich_np2.txt",
                                 "-o", os.path.join(out, "fig7_pingpong.png")])
        finally:
            sys.stdout = stdout


def trace(rel, out):
    """Every RUN.trace.tar.gz of the folder: its report (with the figures) into OUT/RUN."""
    for tgz in sorted(glob.glob(os.path.join(RESULTS, rel, "*.trace.tar.gz"))):
        run = os.path.basename(tgz)[:-len(".trace.tar.gz")]
        with tempfile.TemporaryDirectory() as tmp:
            with tarfile.open(tgz) as t:
                t.extractall(tmp, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(tmp)
            heads = glob.glob(os.path.join(tmp, "**", "header.json"), recursive=True)
            if not heads:
                raise RuntimeError(f"{tgz}: no header.json")
            subprocess.run([sys.executable, "-m", "papcoll_tools.cli", "trace", "report", os.path.dirname(heads[0]),
                            "-o", os.path.join(out, run)], check=True, stdout=subprocess.DEVNULL)


def jobs():
    """[(relative folder, function)] of every figure-making step."""
    steps = [(d, perf) for d in PERF_DIRS]
    steps += [(d, repro) for d in REPRO]
    steps += [(d, imbalance) for d in ("bench/native_np2_1M", "bench/sim_8x8_1M")]
    steps += [("transport", transport), ("apps_trace_smpi", trace)]
    return steps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--outdir", default=os.path.join(REPO, "build", "figures"))
    ap.add_argument("--only", help="folders whose relative path contains this")
    args = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    failed = []
    t0 = time.monotonic()
    for rel, fn in jobs():
        if args.only and args.only not in rel:
            continue
        try:
            fn(rel, os.path.join(args.outdir, rel))
        except Exception as e:  # noqa: BLE001  one folder's failure must not stop the others
            failed.append(rel)
            print(f"papcoll figures: {rel}: FAILED: {e}", file=sys.stderr)
    n = len(glob.glob(os.path.join(args.outdir, "**", "*.png"), recursive=True))
    print(f"papcoll figures: {n} figures in {args.outdir} ({time.monotonic() - t0:.0f} s)"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
