# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim reproduce parsons2015 without the simulator: size ranges and multi-algorithm points in sweeps,
the tiers and their budget, Table 3.7's averaging checked against the thesis's own appendix, and the
report's tables from a stand-in sweep."""
import csv
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.repro import parsons2015  # noqa: E402
from papcoll_tools.sim import run, sweep, sweep_config  # noqa: E402

HEADER = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,delta_bar,omega,"
          "if_avg,if_worst,bound,ratio,T,check")
SPEED = {"native": 1.0, "binomial": 0.9, "hier": 4.0, "hier_nobarrier": 0.5, "dynleader": 0.125}


def fake_output(point):
    """Rows for every algorithm and size of POINT: e_bar = SPEED[algo] x (1 + level) x 1e-6 (so speedups are
    1 / SPEED whatever the size and level)."""
    level = parsons2015._level(point.pattern)
    algos = ["native"] if point.baseline else point.algo.split(",")
    nprocs = int(point.platform.split(":")[1].split("x")[0]) * 32
    rows = []
    for s in sweep_config.range_sizes(point.size):
        for a in algos:
            e = SPEED[a] * (1 + level) * 1e-6
            rows.append(f"bcast,{a},{s},{point.pattern},{nprocs},0,2,2,{e},{e},{e},{e},{e},1e-3,8e-3,0,0,0,0,1e-5,-")
    return "#@simulated=yes\n#@smpi_settings=fake; platform x\n" + HEADER + "\n" + "\n".join(rows) + "\n"


class Stand:
    def __init__(self):
        self.calls = []

    def __call__(self, spec, np=None, baseline=None, bench=None, bench_args=(), env=None, timeout=None):
        point = next(p for p in parsons2015.all_points() if p.spec == spec and tuple(p.bench_argv()) == tuple(bench_args))
        self.calls.append(point.key)
        return run.Outcome(0, fake_output(point), "", 1.0, 1024, 1.0, 1024)


class SizeRangeTest(unittest.TestCase):
    def test_size_spec(self):
        self.assertEqual(sweep_config.size_spec("32:128K:16"), "32:131072:16")
        self.assertEqual(sweep_config.size_spec("64K"), 65536)
        self.assertEqual(sweep_config.range_sizes("32:131072:16"), [32, 512, 8192, 131072])
        self.assertEqual(sweep_config.range_sizes(4096), [4096])
        for bad in ("32:16:2", "1:8:1", "1:8", "a:b:2"):
            with self.assertRaises(sweep_config.ConfigError):
                sweep_config.size_spec(bad)

    def test_point_arguments(self):
        p = sweep_config.expand({"platforms": ["cluster:2x2"], "algos": ["binomial,dynleader"], "sizes": ["8K:128K:16"]})[0]
        self.assertEqual(p.bench_argv()[:3], ["--algo=binomial,dynleader", "-m", "8192:131072:16"])
        single = sweep_config.expand({"platforms": ["cluster:2x2"], "algos": ["binomial"], "sizes": ["1K"]})[0]
        self.assertEqual(single.bench_argv()[1:3], ["-m", "1024:1024"])


class TiersTest(unittest.TestCase):
    def test_points(self):
        tiers = parsons2015.tier_points()
        self.assertEqual([len(p) for _, p in tiers], [6, 6, 6, 1, 1, 6, 2, 3])
        pts = parsons2015.all_points()
        self.assertEqual(len(pts), len({p.key for p in pts}))
        for p in pts:
            argv = p.bench_argv()
            self.assertIn("--shared-buffer", argv)
            self.assertIn("--root=fixed:0", argv)
            self.assertTrue(p.platform.endswith(",preset=gemini") and "x32," in p.platform)
        big = tiers[4][1][0]
        self.assertEqual((big.platform, big.pattern, big.size), ("cluster:256x32,preset=gemini", "microbench:80000",
                                                                 "8192:131072:16"))

    def test_table_3_7_is_the_mean_of_ratios(self):
        # the thesis's appendix B averaged as parsons2015.speedups does gives back its Table 3.7
        for w in (512, 2048, 4096):
            sp = parsons2015.speedups(parsons2015.paper_lat(w))
            for a, paper in zip(parsons2015.ALGOS, parsons2015.PAPER_TABLE[w]):
                self.assertAlmostEqual(sp[a][0], paper, delta=0.011, msg=(w, a))
                self.assertEqual(sp[a][1], 24)


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def run_budget(self, budget):
        stand = Stand()
        with mock.patch.object(run, "simulate", stand):
            merged, skipped, failures = parsons2015.run_tiers(self.dir, budget=budget, log=open(os.devnull, "w"))
        return stand, merged, skipped, failures

    def test_budget_and_tables(self):
        stand, merged, skipped, failures = self.run_budget(0)
        self.assertEqual((stand.calls, len(skipped), failures), ([], len(parsons2015.TIERS), []))
        stand, merged, skipped, failures = self.run_budget(1e9)
        self.assertEqual((len(stand.calls), skipped, failures), (len(parsons2015.all_points()), [], []))
        with open(merged) as f:
            rows = list(csv.DictReader(f))
        # a multi-algorithm point: one row per algorithm and size, named by the benchmark, not the point
        self.assertEqual({r["algo"] for r in rows}, set(SPEED) | {"smpi:mpich"})
        res = parsons2015.load(merged)
        self.assertEqual(parsons2015.covered(res, 512), (parsons2015.SIZES, parsons2015.LEVELS))
        self.assertEqual(parsons2015.covered(res, 8192), ([8192, 131072], [80000]))
        table = parsons2015.table_3_7(res)
        self.assertIn("| 512 | all 4 x 6 | 0.25 | 0.49 | 2.00 | 1.66 | 8.00 | 7.53 |", table)
        self.assertIn("| 8192 | 2 x 1: 8K,128K B; 80k |", table)
        self.assertEqual(parsons2015.fig_world(res), 4096)
        text = parsons2015.markdown(res, parsons2015.sweep_report.read(merged), "parsons2015", 10.0, "cmd",
                                os.path.join(self.dir, "sweep"))
        self.assertIn("| 4096 ranks, levels 10000, 40000, 160000 | 3 of 3 |  |", text)

    def test_fresh_clone(self):
        """A clone has the merged CSV but not the per-point pieces (not kept in git): its points are done,
        and running one new tier keeps the other tiers' rows."""
        _, merged, _, _ = self.run_budget(1e9)
        with open(merged) as f:
            before = list(csv.DictReader(f))
        sweep_dir = os.path.join(self.dir, "sweep")
        shutil.rmtree(os.path.join(sweep_dir, "points"))
        stand, merged, skipped, failures = self.run_budget(0)
        self.assertEqual((stand.calls, skipped, failures), ([], [], []))
        status = parsons2015.status(sweep_dir)
        self.assertEqual([(n, tot) for _, n, tot, _ in status], [(tot, tot) for _, _, tot, _ in status])
        _, last_points = parsons2015.tier_points()[-1]
        new = {p.key for p in last_points}
        with open(merged, "w", newline="") as f:  # as if the last tier were new
            w = csv.DictWriter(f, fieldnames=list(before[0]))
            w.writeheader()
            w.writerows(r for r in before if r["point"] not in new)
        stand, merged, skipped, failures = self.run_budget(1e9)
        self.assertEqual((sorted(stand.calls), skipped, failures), (sorted(new), [], []))
        with open(merged) as f:
            after = list(csv.DictReader(f))
        key = lambda r: (r["point"], r["algo"], r["size"])  # noqa: E731
        self.assertEqual(sorted(map(key, after)), sorted(map(key, before)))


if __name__ == "__main__":
    unittest.main()
