#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The arrival tracer under SimGrid SMPI (docs/trace.md "Under SimGrid SMPI"), run by ctest (apps/CMakeLists.txt).

    check_trace_smpi.py --smpirun "SMPIRUN -platform P -hostfile H SETTINGS" --np N --noise SPEC [--tools DIR]
                        -- PROGRAM-smpi-traced --n=N --iters=I [ARGS...]

PROGRAM is floyd_warshall-smpi-traced (the tracer linked in front of papcoll's interposer: its MPI_Bcast calls are
recorded by the tracer, then run by papcoll). It runs
twice under SMPIRUN, with --noise=none and with --noise=SPEC, each traced into a fresh directory, and checks:
  - the run directory holds every rank's files, the header is complete, its clock is the simulated one (every
    offset 0) and the program named is PROGRAM (not the rank's temporary copy);
  - each rank recorded exactly the program's collective calls: per repetition one barrier and n broadcasts
    (MPI_Bcast) of n ints, then the 2 reduces of the summary line, in order on
    MPI_COMM_WORLD (seq 0, 1, ...), and nothing of papcoll's own traffic;
  - the time inside the traced broadcasts equals the program's own measure (its bcast_mean_s and bcast_max_s
    over ranks, taken with MPI_Wtime around the same calls) within SMPI's per-MPI_Wtime cost (smpi/wtime,
    10 ns) per call: the records are the program's calls on the simulated clock;
  - every rank-R.objects names the program (not the rank's temporary copy) with its build-id (`readelf -n`);
  - `papcoll trace report` runs, resolves the broadcasts' site to apps/app_common.c, and its sites.csv agrees
    with the raw records (calls, delta_bar mean recomputed here);
  - the injected imbalance shows: the broadcasts' mean delta_bar grows, from the noise-free run to the noisy one,
    by 2/e of the noise per phase (the mean absolute deviation of the model's F x Exp(1) draws; noise_mean_s /
    n from the program's summary) within a factor of 2 either way, and by at least twice the noise-free value's
    own run-to-run scale (1 us).
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

from trace_objects import check_program_listed

RECORD = struct.Struct("<qqQQIIiHH")  # trace/format.h pt_record_t
HEADER = struct.Struct("<8sIIIiiI")
WTIME_COST_S = 1e-8  # SimGrid 3.32's smpi/wtime default, injected after every MPI_Wtime reading


def fail(msg):
    sys.exit("FAIL: " + msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def option(args, name, default=None):
    for a in args:
        if a.startswith(f"--{name}="):
            return a.split("=", 1)[1]
    return default


def run_traced(opts, program, noise, workdir):
    trace_dir = os.path.join(workdir, "trace-" + re.sub(r"[^A-Za-z0-9]", "_", noise))
    env = dict(os.environ, PAPCOLL_TRACE_DIR=trace_dir)
    cmd = shlex.split(opts.smpirun) + ["-np", str(opts.np)] + program + [f"--noise={noise}"]
    print("+", " ".join(shlex.quote(c) for c in cmd), flush=True)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    sys.stdout.write(p.stdout)
    check(p.returncode == 0, f"the program failed (exit {p.returncode})")
    summary = dict(kv.split("=", 1) for kv in next(l for l in p.stdout.splitlines() if l.startswith("app=")).split(","))
    runs = glob.glob(os.path.join(trace_dir, "papcoll-trace-*"))
    check(len(runs) == 1, f"expected one run directory in {trace_dir}, found {runs}")
    return runs[0], summary


def load(run_dir, np_):
    header = json.load(open(os.path.join(run_dir, "header.json")))
    check(header.get("complete") is True, "header.json is not complete")
    check(header["world_size"] == np_, f"world_size {header['world_size']}, ran {np_}")
    check(header["clock"]["source"].startswith("SimGrid"), f"clock source {header['clock']['source']!r}")
    for s in header["clock"]["sync"]:
        check(not any(s["offset"]) and not any(s["error"]), f"sync {s['when']}: offsets/errors not all 0 under SMPI")
    ranks = {}
    for r in range(np_):
        for suffix in ("bin", "comms", "sites"):
            check(os.path.isfile(os.path.join(run_dir, f"rank-{r}.{suffix}")), f"rank-{r}.{suffix} missing")
        data = open(os.path.join(run_dir, f"rank-{r}.bin"), "rb").read()
        magic, version, hsize, rsize, rank, size, _ = HEADER.unpack_from(data)
        check(magic.rstrip(b"\0") == b"PCTRACE" and rank == r and size == np_ and rsize == RECORD.size,
              f"rank-{r}.bin: bad file header")
        ranks[r] = [RECORD.unpack_from(data, off) for off in range(hsize, len(data), rsize)]
        check(len(ranks[r]) == header["records"][r], f"rank {r}: {len(ranks[r])} records, header says "
                                                      f"{header['records'][r]}")
    return header, ranks


def check_run(run_dir, summary, opts, program_path, n, iters, tools):
    header, ranks = load(run_dir, opts.np)
    check(os.path.realpath(header["program"]) == os.path.realpath(program_path),
          f"header program {header['program']!r}, ran {program_path!r}")
    colls = header["collectives"]
    barrier, bcast, reduce = colls.index("barrier"), colls.index("bcast"), colls.index("reduce")
    expected = ([barrier] + [bcast] * n) * iters + [reduce, reduce]
    inside = []  # per rank: seconds per repetition inside the traced broadcasts
    for r, recs in ranks.items():
        got = [rec[7] for rec in recs]
        check(got == expected, f"rank {r}: recorded collectives {got[:8]}... ({len(got)}), expected "
                               f"{expected[:8]}... ({len(expected)})")
        check([rec[5] for rec in recs] == list(range(len(recs))) and all(rec[4] == 0 for rec in recs),
              f"rank {r}: calls not numbered 0.. on one communicator")
        bc = [rec for rec in recs if rec[7] == bcast]
        check(all(rec[3] == 4 * n for rec in bc), f"rank {r}: a broadcast of other than {4 * n} bytes")
        check(all(0 <= rec[0] <= rec[1] for rec in recs), f"rank {r}: a record with exit before arrival")
        inside.append(sum(rec[1] - rec[0] for rec in bc) / 1e9 / iters)
    calls = n  # per repetition
    tol = 2 * WTIME_COST_S * calls + 1e-9 * calls
    mean_app, max_app = float(summary["bcast_mean_s"]), float(summary["bcast_max_s"])
    mean_tr = sum(inside) / len(inside) + WTIME_COST_S * calls
    max_tr = max(inside) + WTIME_COST_S * calls
    print(f"  time in bcast per repetition: program mean {mean_app:.6e} max {max_app:.6e} s; "
          f"trace (+ smpi/wtime) mean {mean_tr:.6e} max {max_tr:.6e} s")
    check(abs(mean_app - mean_tr) <= tol and abs(max_app - max_tr) <= tol,
          f"time in bcast: program {mean_app:.9e}/{max_app:.9e}, trace {mean_tr:.9e}/{max_tr:.9e} (tolerance {tol:.1e})")
    # rank-R.objects: the program itself (not the rank's temporary copy), with its build-id
    build_id = check_program_listed([os.path.join(run_dir, f"rank-{r}.objects") for r in ranks], program_path, check)
    print(f"  rank-R.objects: the program, build-id {build_id or '(readelf missing: not compared)'}")
    # the report
    out = os.path.join(run_dir, "report")
    p = subprocess.run([sys.executable, "-m", "papcoll_tools.cli", "trace", "report", run_dir, "-o", out,
                        "--no-figures"], cwd=tools, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(p.returncode == 0, "papcoll trace report failed:\n" + p.stdout)
    rows = [row for row in csv.DictReader(open(os.path.join(out, "sites.csv"))) if row["collective"] == "bcast"]
    site = [row for row in rows if row["path"].endswith("apps/app_common.c")]
    check(len(site) == 1, f"the broadcasts' call site is not resolved to apps/app_common.c: {rows}")
    site = site[0]
    check(int(site["calls"]) == n * iters, f"report: {site['calls']} broadcast calls, expected {n * iters}")
    # delta_bar mean over the broadcasts, recomputed from the raw arrivals (one clock: no correction)
    deltas = []
    for k in range(len(expected)):
        if expected[k] != bcast:
            continue
        a = [ranks[r][k][0] for r in range(opts.np)]
        m = sum(a) / len(a)
        deltas.append(sum(abs(x - m) for x in a) / len(a) / 1e3)
    mine = sum(deltas) / len(deltas)
    check(math.isclose(mine, float(site["delta_bar_mean_us"]), rel_tol=1e-6, abs_tol=1e-3),
          f"report delta_bar mean {site['delta_bar_mean_us']} us, raw records {mine} us")
    return float(site["delta_bar_mean_us"]), float(site["omega_mean_us"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smpirun", required=True, help="smpirun, -platform, -hostfile and SMPI settings")
    ap.add_argument("--np", type=int, default=16)
    ap.add_argument("--noise", required=True, help="the program's --noise for the imbalanced run, e.g. jitter:1")
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    ap.add_argument("program", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    program = [a for a in opts.program if a != "--"]
    check(program and not option(program, "noise") and not option(program, "pivots"),
          "give the program and its --n/--iters (not --noise, not --pivots)")
    n, iters = int(option(program, "n", "512")), int(option(program, "iters", "1"))
    tools = os.path.abspath(opts.tools)
    with tempfile.TemporaryDirectory(prefix="papcoll-trace-smpi-") as work:
        results = {}
        for noise in ("none", opts.noise):
            run_dir, summary = run_traced(opts, program, noise, work)
            results[noise] = (check_run(run_dir, summary, opts, program[0], n, iters, tools), summary)
            print(f"  noise {noise}: broadcasts' delta_bar mean {results[noise][0][0]:.3f} us, "
                  f"omega mean {results[noise][0][1]:.3f} us")
        (quiet, _), _ = results["none"]
        (noisy, _), summary = results[opts.noise]
        per_phase_us = float(summary["noise_mean_s"]) / n * 1e6
        expected = 2 / math.e * per_phase_us
        grew = noisy - quiet
        print(f"  noise per phase {per_phase_us:.3f} us: delta_bar grew by {grew:.3f} us, 2/e of the noise "
              f"{expected:.3f} us")
        check(grew >= 1.0 and expected / 2 <= grew <= expected * 2,
              f"the injected imbalance does not show: delta_bar {quiet:.3f} -> {noisy:.3f} us, expected + about "
              f"{expected:.3f} us")
    print("OK")


if __name__ == "__main__":
    main()
