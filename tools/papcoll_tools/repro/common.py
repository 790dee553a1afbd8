# SPDX-License-Identifier: BSD-3-Clause
"""What every `papcoll sim reproduce NAME` shares: where its results go, its sweep's cost, the report file
and the summary line it prints."""
from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time

from .. import report as sweep_report
from ..sim import platform, run, sweep

STACK_KIB = 1024  # each simulated rank's stack (SimGrid contexts/stack-size; simulated times do not depend on it)
BIG_WORLD = 1024  # from this many ranks a run holds BIG_LOCK: one big simulation on the machine at a time
BIG_LOCK = "/tmp/papcoll_bigsim.lock"
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def default_out(name):
    """docs/results/NAME of the repository (NAME: the reproduction, its paper's key in docs/references.md, also
    its module's name): figures and the sweep; the Markdown goes beside it (report_path)."""
    return os.path.join(REPO, "docs", "results", name)


def report_path(name, out):
    """The Markdown report of a reproduction into OUT: beside OUT, named as its default folder (NAME.md)."""
    return os.path.join(os.path.dirname(out), name + ".md")


def command(name, out):
    """The command line that reproduces OUT (recorded in the report)."""
    return f"papcoll sim reproduce {name}" + (f" --out={out}" if out != default_out(name) else "")


def sweep_wall(merged_csv):
    """The reproduction's cost: the simulations' wall times (s), summed over every point (also those a
    resumed run skipped)."""
    return sum({r["point"]: r["wall_s"] for r in sweep_report.read(merged_csv)}.values())


def write_markdown(md_path, text):
    with open(md_path, "w") as f:
        f.write(text)
    return md_path


def summary(md, npoints, skipped, failures, wall, elapsed):
    """The line a reproduction prints when it is done."""
    return (f"{md}: {npoints - len(failures)} of {npoints} points ({skipped} done before); simulations "
            f"{wall:.0f} s in total, this call {elapsed:.0f} s" + (f"; {len(failures)} FAILED" if failures else ""))


def write_report(mod, out, md_path, wall, cmd):
    """MOD's figures into OUT and its Markdown (MOD.markdown, then MOD.comparison) into MD_PATH, from
    OUT/sweep/sweep.csv read by MOD.load."""
    res = mod.load(os.path.join(out, "sweep", "sweep.csv"))
    mod.figures(res, out)
    text = mod.markdown(res, os.path.relpath(out, os.path.dirname(os.path.abspath(md_path))), wall, cmd)
    return write_markdown(md_path, text + "\n" + mod.comparison(res))


def reproduce(mod, name, points, out, jobs, bench, timeout):
    """Runs POINTS as one resumable sweep in OUT/sweep (default docs/results/NAME, default_out), writes the report
    (write_report) and prints the summary; returns the exit status."""
    out = os.path.abspath(out or default_out(name))
    t0 = time.monotonic()
    merged, skipped, failures = sweep.sweep(points, os.path.join(out, "sweep"), jobs, bench, timeout=timeout)
    elapsed = time.monotonic() - t0
    wall = sweep_wall(merged)
    md = write_report(mod, out, report_path(name, out), wall, command(name, out))
    print(summary(md, len(points), skipped, failures, wall, elapsed))
    return 1 if failures else 0


def tier_status(tiers, sweep_dir):
    """[(label, points done, points)] of TIERS ([(label, points)]) in SWEEP_DIR."""
    return [(label, len(sweep.recorded(sweep_dir, pts)), len(pts)) for label, pts in tiers]


def run_tiers(mod, out, bench=None, budget=3600, log=sys.stderr, runner=None, jobs=1):
    """Runs MOD's tiers (MOD.tier_points(): [(label, points)]) in order into OUT/sweep until BUDGET seconds
    have passed (a started tier finishes; done points are skipped, so a rerun resumes); returns (merged
    CSV path, labels of the tiers not started, failures).  RUNNER: sweep.sweep or a stand-in."""
    runner = runner or sweep.sweep
    sweep_dir = os.path.join(out, "sweep")
    t0, skipped, failures = time.monotonic(), [], []
    os.makedirs(os.path.join(sweep_dir, "points"), exist_ok=True)
    tiers = mod.tier_points()
    every = [p for _, pts in tiers for p in pts]
    for label, pts in tiers:
        if len(sweep.recorded(sweep_dir, pts)) == len(pts):
            continue
        if time.monotonic() - t0 >= budget:
            skipped.append(label)
            continue
        print(f"{mod.NAME}: {label} ({len(pts)} runs)", file=log)
        _, _, fails = runner(pts, sweep_dir, jobs, bench, timeout=mod.TIMEOUT, merge_points=every)
        failures += fails
    return sweep.merge(every, sweep_dir), skipped, failures


def tiered_report(mod, out, md_path, cmd):
    """MOD's figures into OUT and its Markdown (MOD.markdown) into MD_PATH, from OUT/sweep/sweep.csv."""
    sweep_dir = os.path.join(out, "sweep")
    csv_path = os.path.join(sweep_dir, "sweep.csv")
    res = mod.load(csv_path)
    mod.figures(res, out)
    wall = sweep_wall(csv_path) if os.path.exists(csv_path) else 0.0
    return write_markdown(md_path, mod.markdown(res, os.path.relpath(out, os.path.dirname(md_path)), wall, cmd,
                                                sweep_dir))


def tiered_main(mod, name, out=None, jobs=1, bench=None, budget=3600):
    """`papcoll sim reproduce NAME` (MOD.NAME): the tiers within BUDGET, then the report docs/results/NAME.md
    (figures and sweep in docs/results/NAME/, or OUT); prints a summary line and returns the exit status."""
    out = os.path.abspath(out or default_out(name))
    t0 = time.monotonic()
    _, skipped, failures = run_tiers(mod, out, bench, budget, jobs=jobs)
    cmd = command(name, out)
    md = tiered_report(mod, out, report_path(name, out), cmd)
    print(f"{md}: this call {time.monotonic() - t0:.0f} s" + (f"; tiers not started (budget): {skipped}" if skipped
                                                              else "") + (f"; {len(failures)} FAILED" if failures else ""))
    return 1 if failures else 0


@contextlib.contextmanager
def big_run_settings(lock_path=BIG_LOCK):
    """Within it, every simulation (run.simulate) gets STACK_KIB per rank, and one of BIG_WORLD ranks or more
    waits for LOCK_PATH (flock(2), as flock(1) takes it) and holds it while it runs."""
    simulate = run.simulate

    def wrapped(spec, np=None, *args, **kw):
        kw.setdefault("stack_kib", STACK_KIB)
        if (np or platform.generate(spec).slots) < BIG_WORLD:
            return simulate(spec, np, *args, **kw)
        with open(lock_path, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                return simulate(spec, np, *args, **kw)
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    run.simulate = wrapped
    try:
        yield
    finally:
        run.simulate = simulate
