#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Replay of recorded arrivals and the per-call-site recommendation with the real papcoll-bench, run by ctest
(tests/trace/CMakeLists.txt):

    check_replay.py --mpirun "MPIRUN FLAGS" --bench PATH [--tools DIR]

On a tiny synthetic trace of two ranks (papcoll_tools.trace.synthetic: a 1 KiB bcast whose root arrives up to
300 us late, a 64-byte allreduce):
  1. `papcoll trace report --recommend` runs papcoll-bench on each site's replay file: tune.rules holds one rule per
     site, `COLL[p==2,bytes<=SIZE]=ALGO`, ALGO the fastest papcoll algorithm of the report's table (auto never), and
     `papcoll-bench --check-tune` accepts the file;
  2. papcoll-bench --pattern=trace:FILE starts every process at its recorded offset: the planned start times of its
     --raw output, per repetition, differ as the replay row (repetition mod rows; the root's column first) says,
     within 10 ns (the raw file's precision);
  3. trace:replay/all.csv:SITE replays one site of the labelled file; trace:replay/all.csv alone is refused (two
     sites), and so is an unknown SITE.
"""
import argparse
import csv
import os
import re
import shlex
import subprocess
import sys
import tempfile

# (kind, collective, root, bytes, arrivals us, exits us)
CALLS = [(1, "bcast", 1, 1024, [0, a], [a + 20, a + 1]) for a in (300, 120, 0, 40)] + \
        [(2, "allreduce", None, 64, [0, a], [a + 9, a + 8]) for a in (5, 60, 0)]


def fail(msg):
    sys.exit("FAIL: " + msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def bench(args, *extra, ok=True):
    cmd = shlex.split(args.mpirun) + ["-np", "2", args.bench, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    check((p.returncode == 0) == ok, f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.stdout + p.stderr


def table_rows(md, coll):
    """{site: {algo: e_bar us}} from the report's recommendation table of coll."""
    block = md.split(f"**{coll}**", 1)[1].strip().split("\n\n", 1)[0].splitlines()
    head = [h.strip() for h in block[0].strip("|").split("|")]
    out = {}
    for line in block[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        out[cells[0]] = {h: float(c) for h, c in zip(head[4:-2], cells[4:-2]) if c != "-"}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    args = ap.parse_args()
    sys.path.insert(0, args.tools)
    from papcoll_tools.trace import synthetic

    with tempfile.TemporaryDirectory(prefix="papcoll-replay-test-") as tmp:
        run_dir = synthetic.write_run(os.path.join(tmp, "papcoll-trace-tiny"), 2, CALLS)
        out = os.path.join(tmp, "report")
        env = dict(os.environ, PYTHONPATH=args.tools + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("LD_PRELOAD", None)
        # 1. the recommendation (a start tolerance of 50 ms: a test machine running other jobs misses papcoll-bench's
        # 5 us, and even 2 ms, starts in most repetitions, which would leave no algorithm with 3 on time)
        cmd = [sys.executable, "-m", "papcoll_tools.cli", "trace", "report", run_dir, "-o", out, "--addr2line", "",
               "--no-figures", "--recommend", "--bench", args.bench, "--mpirun", args.mpirun, "--bench-iterations",
               "10", "--bench-args=--tolerance=5e-2"]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        check(p.returncode == 0, f"papcoll trace report --recommend failed:\n{p.stdout}\n{p.stderr}")
        md = open(os.path.join(out, "report.md")).read()
        rules = [line for line in open(os.path.join(out, "tune.rules")).read().splitlines() if not line.startswith("#")]
        print("rules:", rules)
        for coll, size in (("bcast", "1K"), ("allreduce", "64")):
            times = list(table_rows(md, coll).values())
            check(len(times) == 1, f"{coll}: {len(times)} rows in the recommendation table")
            ours = {a: t for a, t in times[0].items() if a != "auto"}
            check(ours, f"{coll}: no algorithm measured:\n{md}")
            # the table prints 0.01 us: the recommendation chose on full precision, so any algorithm printed with
            # the smallest time may be the one it named (two tied at 60.57 us did happen)
            fastest = sorted(a for a, t in ours.items() if t == min(ours.values()))
            want = [f"{coll}[p==2,bytes<={size}]={a}" for a in fastest]
            check(any(w in rules for w in want), f"{coll}: expected the rule {' or '.join(want)} (fastest of {ours}), "
                  f"tune.rules holds {rules}")
        bench(args, f"--check-tune={os.path.join(out, 'tune.rules')}")
        print("recommendation: one rule per site naming its fastest papcoll algorithm; --check-tune accepts them")

        # 2. the replayed offsets
        sites = {r["collective"]: r for r in csv.DictReader(open(os.path.join(out, "sites.csv")))}
        replay = os.path.join(out, sites["bcast"]["replay"])
        rows = [[float(x) for x in line.split(",")] for line in open(replay) if not line.startswith("#")]
        want = [[a * 1e-6, 0.0] for a in (300, 120, 0, 40)]
        check(len(rows) == len(want) and all(abs(x - y) <= 1e-12 for r, w in zip(rows, want) for x, y in zip(r, w)),
              f"replay rows {rows}, recorded {want}")
        raw = os.path.join(tmp, "raw.csv")
        bench(args, "--coll=bcast", "-m1024:1024", "--algo=binomial", "-kfixed:0", f"--pattern=trace:{replay}",
              "-i6", "-x1", f"--raw={raw}", "--tolerance=5e-2")
        planned = {}
        for r in csv.DictReader(open(raw)):
            planned.setdefault(int(r["rep"]), {})[int(r["rank"])] = float(r["planned"])
        check(sorted(planned) == list(range(6)), f"raw repetitions {sorted(planned)}")
        for rep, by_rank in planned.items():
            row = rows[rep % len(rows)]
            got = [by_rank[i] - min(by_rank.values()) for i in range(2)]
            check(all(abs(g - w) <= 1e-8 for g, w in zip(got, row)),
                  f"repetition {rep}: planned offsets {got}, replay row {row}")
        print(f"replay: the planned starts of {len(planned)} repetitions follow the recorded rows")

        # 3. one site of the labelled file
        everything = os.path.join(out, "replay", "all.csv")
        name = os.path.basename(replay)[:-4]
        text = bench(args, "--coll=bcast", "-m1024:1024", "--algo=binomial", f"--pattern=trace:{everything}:{name}",
                     "-i2", "-x0", "--tolerance=5e-2", "--format=csv")
        check(re.search(rf"^bcast,binomial,1024,trace:{re.escape(everything)}:{re.escape(name)},2,", text, re.M),
              f"trace:all.csv:{name} did not run:\n{text}")
        text = bench(args, "--coll=bcast", "-m8:8", "--algo=binomial", f"--pattern=trace:{everything}", ok=False)
        check("several call sites" in text, f"trace:all.csv without a site: {text}")
        text = bench(args, "--coll=bcast", "-m8:8", "--algo=binomial", f"--pattern=trace:{everything}:nosuchsite",
                     ok=False)
        check("holds no offsets of site" in text, f"trace:all.csv:nosuchsite: {text}")
        print("trace:FILE:SITE: one site of replay/all.csv; no site or an unknown one refused")
    print("PASS")


if __name__ == "__main__":
    main()
