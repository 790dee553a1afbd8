"""What every `papcoll sim reproduce SEED` shares: where its results go, its sweep's cost, the report file
and the summary line it prints."""
from __future__ import annotations

import os
import time

from .. import report as sweep_report
from ..sim import sweep

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def default_out(seed):
    """docs/results/SEED of the repository: figures and the sweep; the Markdown goes beside it (SEED.md)."""
    return os.path.join(REPO, "docs", "results", seed)


def command(seed, out):
    """The command line that reproduces OUT (recorded in the report)."""
    return f"papcoll sim reproduce {seed}" + (f" --out={out}" if out != default_out(seed) else "")


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


def reproduce(mod, seed, points, out, jobs, bench, timeout):
    """Runs POINTS as one resumable sweep in OUT/sweep (default docs/results/SEED), writes the report
    (write_report) and prints the summary; returns the exit status."""
    out = os.path.abspath(out or default_out(seed))
    t0 = time.monotonic()
    merged, skipped, failures = sweep.sweep(points, os.path.join(out, "sweep"), jobs, bench, timeout=timeout)
    elapsed = time.monotonic() - t0
    wall = sweep_wall(merged)
    md = write_report(mod, out, os.path.join(os.path.dirname(out), f"{seed}.md"), wall, command(seed, out))
    print(summary(md, len(points), skipped, failures, wall, elapsed))
    return 1 if failures else 0
