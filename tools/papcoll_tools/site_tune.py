# SPDX-License-Identifier: BSD-3-Clause
"""papcoll tune: tune papcoll on this machine or cluster (or a simulated one) in one command.

    papcoll tune --launcher="mpirun -np 64" --colls=bcast,allreduce -o site.rules
    papcoll tune --simulate=cluster:4x4,preset=gemini --colls=bcast -o sim.rules

For every collective, message size and arrival pattern (a *cell*) it runs papcoll-bench once with
every algorithm of the collective and the MPI library's own (`native`; under --simulate SMPI's,
as `papcoll sim run` sets it up), and keeps the CSV in the work directory
(WORKDIR/<coll>/<pattern>/<size>.csv, written whole or not at all): a rerun skips the cells whose
file exists, so an interrupted tuning resumes where it stopped, and adding sizes or patterns only
runs the new cells.  Then it chooses the rules by worst-case regret over the patterns
(papcoll_tools.tune, as `papcoll-tune --criterion=regret`), writes them as a PAPCOLL_TUNE_FILE,
checks the file with `papcoll-bench --check-tune`, reruns `auto` in every cell with PAPCOLL_TUNE_FILE
set to it (unless --no-verify), and writes a Markdown report of the regret of the chosen algorithm, of
the build's `auto` and of `auto` with the new rules in every cell.  docs/tuning.md, "Tuning a site".
"""
from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from typing import NamedTuple

from . import tune

DEFAULT_COLLS = "bcast,reduce,allreduce"
DEFAULT_SIZES = "8:4K:8,16K:1M:4"  # 8 64 512 4K 16K 64K 256K 1M (tools/sweeps/regret_sweep.sh's)
DEFAULT_PATTERNS = "balanced,uniform:16,late:0.2:16"
# What a cell's numbers depend on beyond its collective, platform, pattern, size and baseline: a rerun
# with other values would mix incomparable files in one work directory, so it is refused (config.json).
KEYED = ("launcher", "np", "bench", "bench_args", "iterations", "warmup", "algos", "seed", "mpi_copies")
# The value of a setting that a work directory made before the setting existed was measured with.
KEYED_BEFORE = {"mpi_copies": False}


class Cell(NamedTuple):
    """One benchmark run: a collective, a simulated platform ('' natively), a pattern, a size and an SMPI
    baseline ('' for papcoll's algorithms and the library's native; NAME: only `native`, as SMPI's NAME)."""
    coll: str
    platform: str
    pattern: str
    size: int
    baseline: str = ""

    def label(self):
        return " ".join(x for x in (self.coll, self.platform, self.pattern, tune.size_text(self.size),
                                    self.baseline and f"smpi:{self.baseline}") if x)


class TuneError(Exception):
    pass


def parse_size(text):
    m = re.fullmatch(r"(\d+)([KMG]?)", text.strip(), re.IGNORECASE)
    if not m:
        raise TuneError(f"size {text!r}: give bytes with an optional K, M or G")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]


def expand_sizes(spec):
    """'8:4K:8,16K:1M:4,3M' -> [8, 64, 512, 4096, 16384, 65536, 262144, 1048576, 3145728]: comma-separated
    sizes or papcoll-bench ranges MIN:MAX[:FACTOR] (factor 2 by default), sorted, without repeats."""
    out = set()
    for part in filter(None, (s.strip() for s in spec.split(","))):
        fields = part.split(":")
        if len(fields) == 1:
            out.add(parse_size(fields[0]))
            continue
        if len(fields) > 3:
            raise TuneError(f"sizes {part!r}: give MIN:MAX[:FACTOR]")
        lo, hi = parse_size(fields[0]), parse_size(fields[1])
        factor = int(fields[2]) if len(fields) == 3 else 2
        if factor < 2 or lo > hi or lo < 1:
            raise TuneError(f"sizes {part!r}: need 1 <= MIN <= MAX and FACTOR >= 2")
        s = lo
        while s <= hi:
            out.add(s)
            s *= factor
    if not out:
        raise TuneError("no sizes")
    return sorted(out)


def slug(pattern):
    """A pattern as a directory name: uniform:16 -> uniform_16."""
    return re.sub(r"[^A-Za-z0-9.+-]", "_", pattern)


def cells(colls, patterns, sizes, platforms=("",), baselines=()):
    """Every cell, platform by platform, collective by collective, pattern by pattern, size by size; papcoll's
    run of a size before the baselines' (the barrier has a single size)."""
    out = []
    for plat in platforms:
        for c in colls:
            for pat in patterns:
                for s in ([1] if c == "barrier" else sizes):
                    out += [Cell(c, plat, pat, s, b) for b in ("", *baselines)]
    return out


def cell_path(workdir, cell):
    """WORKDIR/COLL[/PLATFORM]/PATTERN/SIZE[.smpi-BASELINE].csv"""
    parts = [cell.coll] + ([slug(cell.platform)] if cell.platform else []) + [slug(cell.pattern)]
    name = f"{cell.size}" + (f".smpi-{slug(cell.baseline)}" if cell.baseline else "") + ".csv"
    return os.path.join(workdir, *parts, name)


def find_native_bench(explicit=None):
    """papcoll-bench: --bench, $PAPCOLL_BENCH, on PATH, or the repository's build tree."""
    here = os.path.dirname(os.path.abspath(__file__))
    for c in (explicit, os.environ.get("PAPCOLL_BENCH"), shutil.which("papcoll-bench"),
              os.path.join(here, "..", "..", "build", "bench", "papcoll-bench")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise TuneError("papcoll-bench not found (build with `make build`, or give --bench / PAPCOLL_BENCH)")


def bench_args(args, cell, algos=None):
    coll, pattern, size = cell.coll, cell.pattern, cell.size
    algos = "native" if cell.baseline else algos or args.algos
    return ([f"--coll={coll}", f"-m{size}:{size}", f"--algo={algos}", f"--pattern={pattern}",
             f"-i{args.iterations}", f"-x{args.warmup}", f"--seed={args.seed}", "--format=csv"]
            + shlex.split(args.bench_args))


def rows_of(text):
    return [l for l in text.splitlines() if l and not l.startswith("#")][1:]


def run_cell(args, cell, algos=None, env=None):
    """(ok, csv text, error text) of one cell's benchmark run (ALGOS: another --algo; ENV: more environment)."""
    if cell.platform:
        from .sim import platform as sim_platform, run as sim_run
        try:
            o = sim_run.simulate(cell.platform, args.np, baseline=cell.baseline or None, bench=args.bench,
                                 bench_args=bench_args(args, cell, algos), timeout=args.timeout, env=env,
                                 mpi_copies=args.mpi_copies)
        except sim_platform.SpecError as e:
            raise TuneError(f"{cell.label()}: {e}")
        rc, out, err = o.returncode, o.stdout, o.stderr
    else:
        cmd = shlex.split(args.launcher) + [args.bench, *bench_args(args, cell, algos)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout,
                               env=dict(os.environ, **env) if env else None)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = -9, "", f"killed after the {args.timeout:g} s time limit (--timeout)"
        except FileNotFoundError as e:
            raise TuneError(f"--launcher={args.launcher!r}: {e}")
    if rc != 0 or not rows_of(out):
        return False, out, err or f"exit status {rc}, no result rows"
    header = [l for l in out.splitlines() if l and not l.startswith("#")][0].split(",")
    if "valid_reps" in header:
        k = header.index("valid_reps")
        empty = [r.split(",")[1] for r in rows_of(out) if r.split(",")[k] == "0"]
        if empty:  # an algorithm without a number would drop out of every rule of the collective
            return False, out, (f"no valid repetition of {', '.join(empty)} (every start missed: a loaded machine; "
                                "allow more with --bench-args='--start-margin=2e-3 --tolerance=1e-3')")
    return True, out, ""


def clock(seconds):
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """A progress bar on stderr (one line per cell when stderr is not a terminal), with the time left
    estimated from the mean time of the cells run so far, weighted by their repetitions' bytes."""

    def __init__(self, todo, done_before, stream=sys.stderr):
        self.todo, self.stream = todo, stream
        self.total = len(todo) + done_before
        self.done = done_before
        self.t0 = time.monotonic()
        self.spent_weight = 0.0
        self.tty = stream.isatty()

    @staticmethod
    def weight(cell):  # a cell's expected cost: a launch, plus time growing with the size
        return (1.0 + cell.size / (256 << 10)) * (0.3 if cell.baseline else 1.0)  # a baseline: one algorithm

    def show(self, current, finished=()):
        elapsed = time.monotonic() - self.t0
        self.spent_weight += sum(self.weight(c) for c in finished)
        left_weight = sum(self.weight(c) for c in self.todo) - self.spent_weight
        eta = f"~{clock(elapsed / self.spent_weight * left_weight)} left" if self.spent_weight else "time left: estimating"
        width = 24
        fill = int(width * self.done / self.total) if self.total else width
        what = current.label() if current else "done"
        what_done = ", ".join(f"{c.label()} finished" for c in finished)
        line = f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} cells, {clock(elapsed)} elapsed, {eta}: {what}"
        if self.tty:
            self.stream.write("\r\033[K" + line + ("\n" if current is None else ""))
        elif finished or current is None:  # a log: one line per finished cell
            self.stream.write(line.replace(f": {what}", f": {what_done}" if finished else "") + "\n")
        self.stream.flush()


def check_config(workdir, args):
    """Records the measurement's settings in WORKDIR/config.json; refuses a work directory holding cells
    measured with other settings."""
    path = os.path.join(workdir, "config.json")
    mine = {k: getattr(args, k) for k in KEYED}
    if os.path.exists(path):
        with open(path) as f:
            stored = json.load(f)
        theirs = {k: stored.get(k, KEYED_BEFORE.get(k)) for k in KEYED}
        diff = [k for k in KEYED if theirs[k] != mine[k]]
        if diff:
            raise TuneError(f"{workdir} holds cells measured with other settings ("
                            + ", ".join(f"{k}: {theirs[k]!r} there, {mine[k]!r} now" for k in diff)
                            + "): give another --workdir, or the same settings to resume")
    else:
        os.makedirs(workdir, exist_ok=True)
        with open(path, "w") as f:
            json.dump(mine, f, indent=1)
            f.write("\n")


def measure(args, all_cells, root=None, algos=None, env=None, what="cells"):
    """Runs the cells not done yet in ROOT (default the work directory), with --algo=ALGOS and ENV when given;
    returns the cells that failed."""
    root = root or args.workdir
    todo = [c for c in all_cells if not os.path.exists(cell_path(root, c))]
    skipped = len(all_cells) - len(todo)
    print(f"papcoll tune: {len(all_cells)} {what} ({skipped} already done in {root}, {len(todo)} to run)",
          file=sys.stderr)
    progress = Progress(todo, skipped)
    failed = []
    for cell in todo:
        progress.show(cell)
        ok, out, err = run_cell(args, cell, algos, env)
        path = cell_path(root, cell)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if ok:
            with open(path + ".tmp", "w") as f:
                f.write(out)
            os.replace(path + ".tmp", path)  # a cell is done when its file exists: whole or not at all
        else:
            failed.append(cell)
            with open(os.path.join(args.workdir, "failed.log"), "a") as f:
                f.write(f"== {cell.label()} ({datetime.datetime.now().isoformat(timespec='seconds')})\n"
                        f"{err.strip()}\n")
            if progress.tty:
                sys.stderr.write("\n")
            print(f"papcoll tune: cell {cell.label()} failed (kept for a rerun; "
                  f"{os.path.join(args.workdir, 'failed.log')}): {err.strip().splitlines()[-1] if err.strip() else ''}",
                  file=sys.stderr)
        progress.done += 1
        progress.show(None if progress.done == progress.total else cell, finished=[cell])
    return failed


def cell_files(workdir, coll, all_cells):
    """The CSV files of COLL's finished cells among ALL_CELLS (the ones asked for: a work directory may hold
    others, of sizes, patterns or platforms left out this time)."""
    return [f for f in (cell_path(workdir, c) for c in all_cells if c.coll == coll) if os.path.exists(f)]


# --metric=auto: what each collective is judged by (docs/tuning.md "Tuning a site"): the barrier by the time
# after the last arrival (docs/benchmark.md "Barrier"), gather(v) by the root's time (its non-roots leave once
# their block is handed over), the others by the mean time per process.
AUTO_METRIC = {"barrier": "after_last", "gather": "e_root", "gatherv": "e_root"}


def metric_of(args, coll):
    return AUTO_METRIC.get(coll, "e_bar") if args.metric == "auto" else args.metric


def choose(files, coll, args):
    """(rules, {p: {bytes: {scenario: {algo: regret}}}}, {p: [(bytes, chosen algo)]}) of COLL's files."""
    by_scenario = {}
    table = tune.read_sweeps(files, coll, balanced_slack=args.slack, criterion="regret", metric=metric_of(args, coll),
                             by_scenario=by_scenario)
    if not table:
        return [], {}, {}
    rules = tune.rules_for(table, coll, args.tolerance, args.candidates, by_scenario)
    chosen = {p: tune.winners(table[p], args.tolerance) for p in table}
    return rules, by_scenario, chosen


def regret_markdown(coll, files, by_scenario, chosen, args):
    """Markdown: per process count, the chosen algorithm and its regret in every cell (size x pattern)."""
    metric = metric_of(args, coll)
    times = tune.read_times(files, coll, with_library=True, metric=metric)
    out = []
    worst = (0.0, "")
    for p in sorted(chosen):
        scenarios = sorted({sc for by_sc in by_scenario[p].values() for sc in by_sc})
        out += [f"### {coll}, p = {p}", "",
                f"Regret of the chosen algorithm: its {metric} / the best {metric} of any algorithm in the "
                "cell (papcoll's and the library's own); in brackets the best algorithm where it is not the chosen one."
                + (" bytes: what the rules compare, p x the benchmark's size (one process's block)."
                   if coll in tune.BLOCK_COLLS else ""),
                "", "| bytes | chosen | " + " | ".join(scenarios) + " | worst |",
                "|---:|---|" + "---:|" * (len(scenarios) + 1)]
        for size, algo in chosen[p]:
            cells_text, row_worst = [], 1.0
            for sc in scenarios:
                r = by_scenario[p][size].get(sc, {}).get(algo)
                if r is None:
                    cells_text.append("-")
                    continue
                here = times[p][size][sc]
                best = min(here, key=lambda a: (here[a], a))
                row_worst = max(row_worst, r)
                if r > worst[0]:
                    worst = (r, f"p={p}, {tune.size_text(size)} B, {sc}")
                cells_text.append(f"{r:.2f}" + ("" if best == algo or r == 1.0 else f" ({best})"))
            out.append(f"| {tune.size_text(size)} | {algo} | " + " | ".join(cells_text) + f" | {row_worst:.2f} |")
        out.append("")
    if worst[1]:
        out.append(f"Worst regret of the chosen algorithms: {worst[0]:.2f} ({worst[1]}).")
    out.append("")
    auto = tune.read_times(files, coll, with_library=True, metric=metric_of(args, coll), with_auto=True)
    if any("auto" in algos for by_size in auto.values() for by_sc in by_size.values() for algos in by_sc.values()):
        out += ["#### auto (the rules built into this papcoll, before tuning)", "",
                tune.regret_report(files, coll, "auto", metric_of(args, coll)), ""]
    return out


def verify_dir(args, rules):
    """Where the cells rerun with auto under RULES go: one directory per set of rules (a rerun with the
    same rules resumes, new rules are measured anew)."""
    return os.path.join(args.workdir, "verify-" + hashlib.sha256("\n".join(rules).encode()).hexdigest()[:10])


def write_outputs(args, colls, all_cells, verified=None):
    """Writes the rules file and the report; returns (rules, report path)."""
    all_rules, report = [], []
    where = (f"simulated on {' and '.join(args.simulate)}" + (f", {args.np} ranks" if args.np else "")
             + (f", with SMPI's {', '.join(args.baselines_list)} beside native" if args.baselines_list else "")
             if args.simulate else f"natively, launched by `{args.launcher}`")
    for coll in colls:
        files = cell_files(args.workdir, coll, all_cells)
        rules, by_scenario, chosen = choose(files, coll, args) if files else ([], {}, {})
        if not rules:
            report += [f"## {coll}", "", "No finished cells: no rules.", ""]
            continue
        all_rules += rules
        report += [f"## {coll}", "", "Rules:", "", "```", *rules, "```", ""]
        report += regret_markdown(coll, files, by_scenario, chosen, args)
        again = cell_files(verified, coll, all_cells) if verified else []
        if again:
            report += [f"#### auto with these rules (PAPCOLL_TUNE_FILE={args.output})", "",
                       f"`auto` rerun in {len(again)} cells with the rules file (`{verified}`), its {metric_of(args, coll)} "
                       "against the best of the algorithms above: the regret the rules give at run time.", "",
                       tune.regret_report(files + again, coll, "auto", metric_of(args, coll)), ""]
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    header = [f"# papcoll tune, {stamp}: {where}",
              f"# collectives {','.join(colls)}; patterns {','.join(args.patterns_list)}; "
              f"sizes {','.join(tune.size_text(s) for s in args.sizes_list)}; {args.iterations} repetitions; "
              f"chosen by worst-case regret of "
              f"{args.metric if args.metric != 'auto' else 'e_bar (barrier after_last, gather e_root)'} over the patterns"
              f"{' and platforms' if args.simulate and len(args.simulate) > 1 else ''} (papcoll-tune --criterion=regret "
              f"--candidates={args.candidates} --tolerance={args.tolerance:g} --slack={args.slack:g})",
              f"# measurements: {os.path.abspath(args.workdir)}; use: PAPCOLL_TUNE_FILE={os.path.abspath(args.output)}"]
    with open(args.output, "w") as f:
        f.write("\n".join(header + all_rules) + "\n")
    intro = [f"# papcoll tune report ({stamp})", "",
             f"Measured {where}: collectives {', '.join(colls)}, patterns {', '.join(args.patterns_list)}, sizes "
             f"{', '.join(tune.size_text(s) for s in args.sizes_list)} B, {args.iterations} repetitions per algorithm "
             f"(`papcoll-bench --algo={args.algos}`). Rules in `{args.output}` (set `PAPCOLL_TUNE_FILE` to it), chosen "
             f"per process count and size as the algorithm of smallest worst-case regret over the patterns"
             f"{' and platforms' if args.simulate and len(args.simulate) > 1 else ''} "
             f"(docs/tuning.md, \"Choosing by regret\"); the measurements are in `{args.workdir}`.", ""]
    with open(args.report, "w") as f:
        f.write("\n".join(intro + report))
    return all_rules, args.report


def check_rules(args):
    """Runs papcoll-bench --check-tune on the rules file (through the launcher, or simulated on one rank)."""
    check_args = [f"--check-tune={os.path.abspath(args.output)}"]
    if args.simulate:
        from .sim import run as sim_run
        o = sim_run.simulate(args.simulate[0], 1, bench=args.bench, bench_args=check_args, timeout=args.timeout)
        rc, text = o.returncode, o.stdout + o.stderr
    else:
        p = subprocess.run(shlex.split(args.launcher) + [args.bench, *check_args], capture_output=True, text=True,
                           timeout=args.timeout)
        rc, text = p.returncode, p.stdout + p.stderr
    return rc == 0, text.strip()


def add_arguments(ap):
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--launcher", metavar="CMD", help="natively: the command that starts papcoll-bench on the "
                       "processes to tune for, e.g. 'mpirun -np 64', 'srun -N 4 -n 128', or as root with Open MPI "
                       "'mpirun --allow-run-as-root --oversubscribe -np 2'; the rules are for its process count")
    where.add_argument("--simulate", metavar="PLATFORM", action="append", help="under SimGrid SMPI instead, on a "
                       "`papcoll sim` platform (e.g. cluster:4x4,preset=gemini; docs/simulation.md), with "
                       "papcoll-bench-smpi and the settings of `papcoll sim run` (`native` is then SMPI's binomial_tree "
                       "bcast, binomial reduce, rdb allreduce, ...); repeat it for several platforms of one size: "
                       "the rules then minimise the worst regret over every platform and pattern")
    ap.add_argument("--np", type=int, help="--simulate: simulated ranks (default every core of each platform)")
    ap.add_argument("--mpi-copies", action="store_true", help="--simulate: charge the MPI library's eager messages a "
                    "copy at each end, as papcoll's shared-memory copies are charged (`papcoll sim run --mpi-copies`, "
                    "docs/simulation.md); without it SMPI charges them nothing, which favours the MPI library's "
                    "collectives and papcoll's message-based ones")
    ap.add_argument("--baselines", default="", metavar="LIST", help="--simulate: SMPI's own algorithms measured beside "
                    "papcoll's (`papcoll sim run --baseline`, e.g. mpich,ompi): never chosen, they count in the regret's "
                    "best time as native does (default none)")
    ap.add_argument("--colls", default=DEFAULT_COLLS, help=f"collectives, comma-separated, any that papcoll-bench "
                    f"--coll measures (default {DEFAULT_COLLS})")
    ap.add_argument("--sizes", default=DEFAULT_SIZES, help="message sizes in bytes (papcoll-bench's -m meaning: the "
                    "block of one process for the block collectives), comma-separated sizes or MIN:MAX[:FACTOR] "
                    f"ranges, K/M/G suffixes (default {DEFAULT_SIZES}: 8 B .. 1 MiB, 8 sizes)")
    ap.add_argument("--patterns", default=DEFAULT_PATTERNS, help="arrival patterns, comma-separated papcoll-bench "
                    f"--pattern specs (delays in units of T; default {DEFAULT_PATTERNS})")
    ap.add_argument("--algos", default="all,auto", help="papcoll-bench --algo list (default all,auto: every papcoll "
                    "algorithm and native, which may be chosen or not, and auto, the built-in rules, reported for "
                    "comparison and never chosen)")
    ap.add_argument("-i", "--iterations", type=int, help="timed repetitions per algorithm and cell (default 20 "
                    "natively, 3 simulated)")
    ap.add_argument("-x", "--warmup", type=int, help="warm-up repetitions (default 2 natively, 1 simulated)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random patterns (default 1)")
    ap.add_argument("--bench", metavar="PATH", help="papcoll-bench (default $PAPCOLL_BENCH, on PATH, or build/bench) "
                    "or, with --simulate, papcoll-bench-smpi (default $PAPCOLL_BENCH_SMPI or build/smpi/bench)")
    ap.add_argument("--bench-args", default="", metavar="ARGS", help="more papcoll-bench options for every run, e.g. "
                    "'--dtype=double' or '--ppn=4'")
    ap.add_argument("-o", "--output", default="papcoll.rules", help="the rules file to write (default papcoll.rules)")
    ap.add_argument("--report", help="the Markdown report to write (default OUTPUT with .md for its extension)")
    ap.add_argument("--workdir", help="where the cells' results are kept (default OUTPUT.d); a rerun with the same "
                    "settings skips the cells found there")
    ap.add_argument("--candidates", type=int, default=3, metavar="K", help="candidates per rule for PAPCOLL_ADAPT "
                    "(papcoll-tune --candidates; default 3)")
    ap.add_argument("--tolerance", type=float, default=0.05, help="keep the previous size's winner while its regret "
                    "is within this fraction of the best (default 0.05)")
    ap.add_argument("--slack", type=float, default=0.0, metavar="SECONDS", help="times within this much of a cell's "
                    "best count as regret 1 (default 0)")
    ap.add_argument("--metric", choices=("auto", "e_bar", "e_root", "after_last", "g"), default="auto",
                    help="what is compared (papcoll-tune --metric); auto (default): after_last (the time after the last "
                    "arrival) for the barrier, e_root (the root's time) for gather(v), e_bar (the mean time per "
                    "process) for the others")
    ap.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="kill a cell's run after this long "
                    "(it counts as failed and is run again by a rerun; default none)")
    ap.add_argument("--no-verify", dest="verify", action="store_false", help="do not rerun auto with the new rules "
                    "file in every cell (by default it does, natively through the launcher with PAPCOLL_TUNE_FILE "
                    "in the environment, and reports the regret the rules give at run time)")
    ap.add_argument("--report-only", action="store_true", help="run nothing: write the rules and the report from the "
                    "cells already in the work directory")


def main(args):
    try:
        return _main(args)
    except TuneError as e:
        sys.exit(f"papcoll tune: {e}")
    except KeyboardInterrupt:  # the cell being run is lost, the finished ones are kept
        sys.exit("\npapcoll tune: interrupted; the same command resumes after the finished cells")


def _main(args):
    from .sim import run as sim_run
    if args.np is not None and not args.simulate:
        raise TuneError("--np applies to --simulate; natively the launcher sets the process count")
    args.baselines_list = [b.strip() for b in args.baselines.split(",") if b.strip()]
    if args.baselines_list and not args.simulate:
        raise TuneError("--baselines applies to --simulate; natively the library's own algorithm is `native`")
    args.iterations = args.iterations or (3 if args.simulate else 20)
    args.warmup = args.warmup if args.warmup is not None else (1 if args.simulate else 2)
    if not 1 <= args.candidates <= 8:
        raise TuneError(f"--candidates={args.candidates}: give 1 to 8")
    colls = [c.strip() for c in args.colls.split(",") if c.strip()]
    unknown = [c for c in colls if c not in sim_run.COLLECTIVES]
    if unknown or not colls:
        raise TuneError(f"--colls: {', '.join(unknown) or 'none'}: give some of {', '.join(sim_run.COLLECTIVES)}")
    args.patterns_list = [p.strip() for p in args.patterns.split(",") if p.strip()]
    if not args.patterns_list:
        raise TuneError("--patterns: none")
    args.sizes_list = expand_sizes(args.sizes)
    args.workdir = args.workdir or args.output + ".d"
    args.report = args.report or (os.path.splitext(args.output)[0] + ".md")
    args.bench = (sim_run.find_bench(args.bench) if args.simulate else find_native_bench(args.bench))
    all_cells = cells(colls, args.patterns_list, args.sizes_list, args.simulate or ("",), args.baselines_list)
    for spec in args.simulate or ():  # a platform or a baseline SMPI refuses: say so before running anything
        from .sim import platform as sim_platform
        try:
            slots = sim_platform.generate(spec).slots
            if args.np and args.np > slots:
                raise sim_platform.SpecError(f"--np={args.np} but the platform has {slots} cores")
            for coll in colls if args.baselines_list else ():
                for b in args.baselines_list:
                    sim_run.check_baseline(coll, b, args.np or slots)
        except sim_platform.SpecError as e:
            raise TuneError(f"--simulate={spec}: {e}")
    check_config(args.workdir, args)
    failed = [] if args.report_only else measure(args, all_cells)
    rules, report = write_outputs(args, colls, all_cells)
    ok, text = check_rules(args)
    if ok and rules and args.verify:
        verified = verify_dir(args, rules)
        again = [c for c in all_cells if not c.baseline and cell_files(args.workdir, c.coll, [c])]
        env = {"PAPCOLL_TUNE_FILE": os.path.abspath(args.output)}
        failed += [] if args.report_only else measure(args, again, verified, "auto", env, "cells of auto with these rules")
        rules, report = write_outputs(args, colls, all_cells, verified)
    checked = "checked by papcoll-bench --check-tune" if ok else "REFUSED by papcoll-bench --check-tune"
    print(f"{args.output}: {len(rules)} rules ({checked}); {report}: the regret per cell", file=sys.stderr)
    if not ok:
        print(text, file=sys.stderr)
    missing = [c for c in all_cells if not os.path.exists(cell_path(args.workdir, c))]
    if failed or missing:
        print(f"papcoll tune: {len(missing)} cells not measured, {len(failed)} runs failed this time; "
              "rerun the same command to measure them", file=sys.stderr)
    return 0 if ok and rules and not missing and not failed else 1
