# SPDX-License-Identifier: BSD-3-Clause
"""papcoll trace report's imbalance factors, replay files and --recommend on a tiny synthetic trace (two ranks,
papcoll_tools.trace.synthetic) whose numbers are known by construction: T from the trace's own two-process calls
(only those whose message crosses after the last arrival), from --T and from --T-table (bytes,T_us and
papcoll-bench's #@T lines, piecewise linear, extrapolated above), delta_bar/T and omega/T per call and per site, the
replay rows (offsets after the earliest arrival, rooted calls rotated to root 0), and the recommendation's winner
and tune rules from a stand-in papcoll-bench with fixed results (the real benchmark: tests/trace/check_replay.py)."""
import csv
import os
import stat
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
try:
    import numpy as np  # noqa: F401
    from papcoll_tools import cli
    from papcoll_tools.trace import factors, recommend, synthetic
except ImportError:  # pragma: no cover
    cli = None

# (kind, collective, root, bytes, arrivals us, exits us), two ranks
CALLS = [
    (1, "bcast", 1, 1024, [0, 30], [40, 31]),   # root last: the message crosses, max f - max a = 10
    (1, "bcast", 1, 1024, [0, 50], [62, 51]),   # 12: the smallest, 10, is T
    (1, "bcast", 1, 1024, [20, 0], [21, 1]),    # root first: the message may wait at rank 0, not a T sample
    (2, "allreduce", None, 64, [0, 5], [9, 8]),  # n-to-n: max f - max a = 4
    (3, "barrier", None, 0, [0, 8], [9, 9]),    # never a T sample
]
BCAST = "fn1+0xfff (libapp.so)"
ALLREDUCE = "fn2+0x1fff (libapp.so)"

FAKE_MPIRUN = """#!/bin/sh
# stands in for mpirun: drops -np N and runs the rest
shift 2
exec "$@"
"""
FAKE_BENCH = """#!/bin/sh
# stands in for papcoll-bench --format=csv with fixed e_bar per algorithm
case "$*" in *--coll=bcast*) coll=bcast ;; *) coll=allreduce ;; esac
echo "#@benchmark=papcoll-bench (stand-in)"
echo "coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,check"
if [ $coll = bcast ]; then
  echo "bcast,binomial,1024,trace,2,0,5,5,5e-06,-"
  echo "bcast,chain,1024,trace,2,0,5,5,3e-06,-"
  echo "bcast,native,1024,trace,2,0,5,1,1e-06,-"
  echo "bcast,auto,1024,trace,2,0,5,5,2e-06,-"
else
  echo "allreduce,ring,64,trace,2,0,5,5,7e-06,-"
  echo "allreduce,hier,64,trace,2,0,5,5,8e-06,Fail"
  echo "allreduce,recursive_doubling,64,trace,2,0,5,5,6e-06,-"
fi
"""


@unittest.skipIf(cli is None, "numpy missing")
class TraceRecommendTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run_dir = synthetic.write_run(os.path.join(self.tmp.name, "papcoll-trace-tiny"), 2, CALLS)

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, *extra):
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(cli.main(["trace", "report", self.run_dir, "-o", out, "--addr2line", "", "--no-figures",
                                   *extra]), 0)
        with open(os.path.join(out, "sites.csv")) as f:
            sites = {(r["site"], r["collective"]): r for r in csv.DictReader(f)}
        with open(os.path.join(out, "calls.csv")) as f:
            calls = list(csv.DictReader(f))
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        return out, sites, calls, md

    def script(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_t_from_the_trace(self):
        out, sites, calls, md = self.report()
        self.assertIn("smallest max f - max a of the run's 3 two-process calls", md)
        bcast = [c for c in calls if c["collective"] == "bcast"]
        for c in bcast:
            self.assertAlmostEqual(float(c["T_us"]), 10.0, places=6)  # the smaller of 10 and 12
            self.assertAlmostEqual(float(c["if_avg"]), float(c["delta_bar_us"]) / 10.0, places=6)
            self.assertAlmostEqual(float(c["if_worst"]), float(c["omega_us"]) / 10.0, places=6)
        s = sites[(BCAST, "bcast")]
        self.assertAlmostEqual(float(s["if_worst_mean"]), (30 + 50 + 20) / 3 / 10.0, places=6)
        self.assertAlmostEqual(float(s["if_worst_max"]), 50 / 10.0, places=6)
        self.assertAlmostEqual(float(s["if_avg_max"]), 25 / 10.0, places=6)
        self.assertAlmostEqual(float(sites[(ALLREDUCE, "allreduce")]["T_us"]), 4.0, places=6)
        # the barrier (0 bytes) takes the smallest size's T, 64 B: 4 us
        self.assertAlmostEqual(float(sites[("fn3+0x2fff (libapp.so)", "barrier")]["if_worst_mean"]), 8 / 4.0, places=6)
        self.assertIn(f"| {BCAST} | bcast | 1024 | 10.00 | 1.67 | 2.50 | 3.33 | 5.00 |", md)

    def test_t_given_and_tables(self):
        _, sites, _, md = self.report("--T", "2.5")
        self.assertAlmostEqual(float(sites[(BCAST, "bcast")]["if_worst_max"]), 20.0, places=6)
        self.assertIn("given (--T 2.5 us)", md)
        table = os.path.join(self.tmp.name, "t.csv")
        with open(table, "w") as f:
            f.write("bytes,T_us\n# measured\n64,2\n512,6\n")
        _, sites, _, _ = self.report("--T-table", table)
        # 1024 B above the largest size: the line through (64, 2) and (512, 6), 6 + 4 x 512 / 448
        t1024 = 6 + 4 * 512 / 448
        self.assertAlmostEqual(float(sites[(BCAST, "bcast")]["T_us"]), t1024, places=6)
        self.assertAlmostEqual(float(sites[(BCAST, "bcast")]["if_worst_max"]), 50 / t1024, places=6)
        model = factors.from_table(table)
        self.assertAlmostEqual(model(288), 4.0)  # halfway
        self.assertAlmostEqual(model(0), 2.0)    # below: the smallest size's
        bench_out = os.path.join(self.tmp.name, "bench.txt")
        with open(bench_out, "w") as f:
            f.write("#@coll=bcast\n#@T=64:2e-06\nbcast,x\n#@T=1024:1.0e-05\n#@T=1024:1.2e-05\n#@T=1024:1.4e-05\n")
        model = factors.from_table(bench_out)
        self.assertAlmostEqual(model(1024), 12.0)  # the median of the three
        self.assertAlmostEqual(model(544), 7.0)
        with open(table, "w") as f:
            f.write("64,0\n")
        with self.assertRaises(SystemExit):
            self.report("--T-table", table)

    def test_replay_files(self):
        out, sites, _, _ = self.report()
        path = os.path.join(out, sites[(BCAST, "bcast")]["replay"])
        with open(path) as f:
            lines = f.read().splitlines()
        self.assertTrue(lines[0].startswith("# papcoll trace replay") and "3 calls of 2 processes" in lines[0])
        self.assertIn("--pattern=trace:", lines[2])
        rows = [[float(x) for x in line.split(",")] for line in lines if not line.startswith("#")]
        # rotated so that the root (rank 1) is column 0
        self.assertEqual(len(rows), 3)
        for got, want in zip(rows, ([30e-6, 0.0], [50e-6, 0.0], [0.0, 20e-6])):
            self.assertAlmostEqual(got[0], want[0], places=12)
            self.assertAlmostEqual(got[1], want[1], places=12)
        with open(os.path.join(out, "replay", "all.csv")) as f:
            labelled = [line.split(",")[0] for line in f if not line.startswith("#")]
        name = os.path.basename(path)[:-4]
        self.assertEqual(labelled.count(name), 3)
        with open(os.path.join(out, sites[(ALLREDUCE, "allreduce")]["replay"])) as f:
            rows = [line for line in f if not line.startswith("#")]
        self.assertEqual(rows, ["0.000000000e+00,5.000000000e-06\n"])  # no root: rank order

    def test_recommend(self):
        mpirun, bench = self.script("mpirun", FAKE_MPIRUN), self.script("bench", FAKE_BENCH)
        out, _, _, md = self.report("--recommend", "--bench", bench, "--mpirun", mpirun, "--algos", "all,auto")
        with open(os.path.join(out, "tune.rules")) as f:
            rules = [line for line in f.read().splitlines() if not line.startswith("#")]
        # chain beats binomial; native (1 valid repetition) and auto (never a target) do not count; hier's check
        # failed; rules by collective, p, size with the selector's bytes
        self.assertEqual(rules, ["allreduce[p==2,bytes<=64]=recursive_doubling", "bcast[p==2,bytes<=1K]=chain"])
        self.assertIn("allreduce[p==2,bytes<=64]=recursive_doubling; bcast[p==2,bytes<=1K]=chain", md)
        self.assertIn("| fn1+0xfff (libapp.so) | 1024 | 2 | 2 | 5.00 | 3.00 | 2.00 | chain |", md)
        self.assertIn("left out (fewer than 3 repetitions started on time, or a failed check): native", md)

    def test_rules_merge_sites(self):
        def outcome(site, calls, times, coll="reduce", size=16):
            o = recommend.Outcome(site, coll, size, 4, 4, calls, [], times)
            o.winner = min((a for a in times if a != "auto"), key=times.get)
            return o
        # a: 10 calls, b: 1 call; x only measured at a (fastest there) must not win on a partial sum; over the
        # common algorithms y totals 10 x 2 + 1 x 9 = 29, z 10 x 3 + 1 x 1 = 31
        a = outcome("a", 10, {"x": 1e-6, "y": 2e-6, "z": 3e-6, "auto": 1e-7})
        b = outcome("b", 1, {"y": 9e-6, "z": 1e-6})
        self.assertEqual(recommend.rules([a, b]), ["reduce[p==4,bytes<=16]=y"])
        # nothing in common: the site with the most calls decides
        c = outcome("c", 3, {"w": 1e-6})
        self.assertEqual(recommend.rules([b, c]), ["reduce[p==4,bytes<=16]=w"])
        # block collectives: the selector's bytes are p x the block; sizes in order
        d = outcome("d", 1, {"hier": 1e-6}, coll="alltoall", size=1024)
        e = outcome("e", 1, {"aware": 1e-6}, coll="alltoall", size=8)
        self.assertEqual(recommend.rules([d, e]), ["alltoall[p==4,bytes<=32]=aware", "alltoall[p==4,bytes<=4K]=hier"])

    def test_recommend_without_a_benchmark(self):
        out, _, _, md = self.report("--recommend", "--bench", os.path.join(self.tmp.name, "missing"))
        self.assertIn("not run: no papcoll-bench", md)
        with open(os.path.join(out, "replay", "recommend.sh")) as f:
            script = f.read()
        self.assertIn("--coll=bcast -m1024:1024 --algo=all,auto --pattern=trace:", script)
        self.assertIn("-kfixed:0", script)


if __name__ == "__main__":
    unittest.main()
