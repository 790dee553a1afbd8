# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim reproduce parsons2015, reduce part, without the simulator: Table 3.6's averaging checked against
the thesis's appendix A, the one-sided dynamic leader taken only when the algorithm exists (and its absence
not changing the other points), the budget, and the table, CSV and figures from a stand-in sweep."""
import csv
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.repro import parsons2015, parsons2015_reduce as red  # noqa: E402
from papcoll_tools.sim import run, sweep_config  # noqa: E402

HEADER = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,"
          "delta_bar,omega,if_avg,if_worst,bound,ratio,T,check")
# e_bar = SPEED[algo] x (1 + level) x 1e-6: every speedup over binomial is SPEED[binomial] / SPEED[algo]
SPEED = {"binomial": 1.0, "native": 1.25, "hier": 4.0, "hier_nobarrier": 0.25, "dynleader": 0.0625,
         "dynleader_onesided": 0.05}


def fake_output(point):
    level = parsons2015._level(point.pattern)
    nprocs = int(point.platform.split(":")[1].split("x")[0]) * 32
    rows = []
    for s in sweep_config.range_sizes(point.size):
        for a in point.algo.split(","):
            e = SPEED[a] * (1 + level) * 1e-6
            rows.append(f"reduce,{a},{s},{point.pattern},{nprocs},0,2,2,{e},{e},{e},{e},{e},{e},0,1e-3,8e-3,0,0,0,0,"
                        "1e-5,-")
    return "#@simulated=yes\n#@smpi_settings=fake; platform x\n" + HEADER + "\n" + "\n".join(rows) + "\n"


class Stand:
    def __init__(self, onesided):
        self.calls, self.points = [], red.all_points(onesided)

    def __call__(self, spec, np=None, baseline=None, bench=None, bench_args=(), env=None, timeout=None):
        point = next(p for p in self.points if p.spec == spec and tuple(p.bench_argv()) == tuple(bench_args))
        self.calls.append(point)
        return run.Outcome(0, fake_output(point), "", 1.0, 1024, 1.0, 1024)


class PaperTest(unittest.TestCase):
    def test_table_3_6_is_the_mean_of_ratios(self):
        # appendix A averaged as speedups() does gives back Table 3.6 where the appendix is readable
        for w in (512, 1024, 2048):
            table, ours, n = red.paper_check()[w]
            for a, paper, got, count in zip(red.COLUMNS[:3], table, ours, n):
                # the appendix has 3 significant digits: within 0.2% (or the table's last digit)
                self.assertAlmostEqual(got, paper, delta=max(0.011, 0.002 * paper), msg=(w, a))
                self.assertEqual(count, 24)
        table, ours, n = red.paper_check()[4096]
        self.assertAlmostEqual(ours[0], table[0], delta=0.011)
        self.assertAlmostEqual(ours[1], table[1], delta=0.011)
        self.assertEqual(n[2], 12)  # the unreadable 32-B and 512-B Dynamic Leader rows are left out

    def test_appendix_shape(self):
        for w, per in red.PAPER_APPENDIX.items():
            for s, algos in per.items():
                self.assertIn(s, red.SIZES)
                for a, vals in algos.items():
                    self.assertEqual(len(vals), len(red.LEVELS), (w, s, a))
        self.assertNotIn(512, red.PAPER_APPENDIX[8192])  # Table A.6 is lost


class PointsTest(unittest.TestCase):
    def test_onesided_from_the_list(self):
        with tempfile.NamedTemporaryFile("w", suffix=".list", delete=False) as f:
            f.write("# comment | x | y\nnative | - | the library's\ndynleader | hierarchical | a\n")
        self.addCleanup(os.unlink, f.name)
        self.assertFalse(red.has_onesided(f.name))
        with open(f.name, "a") as g:
            g.write("dynleader_onesided    | hierarchical,commutative,predefined | one-sided\n")
        self.assertTrue(red.has_onesided(f.name))
        self.assertEqual(red.reduce_algorithms("/nonexistent/algorithms.list"), [])

    def test_points(self):
        without, with_ = red.all_points(False), red.all_points(True)
        self.assertFalse(any("dynleader_onesided" in p.algo for p in without))
        self.assertEqual(len(with_), len({p.key for p in with_}))
        # the one-sided runs are points of their own: the others keep their keys (and results) when it lands
        self.assertEqual({p.key for p in without}, {p.key for p in with_ if "onesided" not in p.algo})
        self.assertEqual(len(with_) - len(without), 6 * 3 + 1)
        for p in with_:
            argv = p.bench_argv()
            self.assertEqual(argv[0], "--coll=reduce")
            self.assertIn("--root=fixed:0", argv)
            self.assertTrue(p.platform.endswith(",preset=gemini") and "x32," in p.platform)
        main = red.tier_points(False)[0][1][0]
        self.assertEqual(sweep_config.range_sizes(main.size), [32, 128, 512, 2048, 8192, 32768, 131072])
        self.assertEqual(main.algo, "binomial,hier,hier_nobarrier,dynleader,native")
        last = red.tier_points(False)[-1][1]
        self.assertEqual([(p.platform, p.pattern, p.size) for p in last],
                         [("cluster:128x32,preset=gemini", "microbench:40000", 2048)])


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def run_tiers(self, onesided, budget):
        stand = Stand(onesided)
        with mock.patch.object(run, "simulate", stand):
            out = red.run_tiers(self.dir, budget=budget, log=open(os.devnull, "w"), onesided=onesided)
        return (stand,) + out

    def test_budget(self):
        stand, merged, skipped, failures = self.run_tiers(False, 0)
        self.assertEqual((stand.calls, len(skipped), failures), ([], len(red.tiers(False)), []))

    def test_without_onesided(self):
        stand, merged, skipped, failures = self.run_tiers(False, 1e9)
        self.assertEqual((len(stand.calls), skipped, failures), (len(red.all_points(False)), [], []))
        res = red.load(merged)
        self.assertEqual(red.covered(res, 2048), (red.SIZES, red.LEVELS))
        self.assertEqual(red.covered(res, 4096), ([], []))  # only 2048 B there: not in Table 3.6
        table = red.table_3_6_markdown(res, False)
        self.assertIn("| 512 | all 4 x 6 | 0.25 | 0.34 | 4.00 | 5.67 | 16.00 | 18.72 | n/a | 23.95 |", table)
        self.assertIn("| 4096 | not run | - | 0.33 |", table)
        smpi = red.table_3_6_smpi_markdown(res, False)
        self.assertIn("| 512 | 1.25 | 0.31 | 5.00 | 20.00 |", smpi)
        self.assertEqual(red.fig_world(res), 2048)
        text = red.write(self.dir, 12.0, "cmd", os.path.dirname(self.dir), onesided=False)
        self.assertIn("D.L. One-Sided is left out", text)
        self.assertIn("| 4096 ranks, level 40k, 2048 B (Fig. 3.20) | 1 of 1 |  |", text)
        self.assertIn("| 4096 | 40 | 50 | 160 | 10 | 2.5 |", text)  # Fig. 3.20's numbers (ms)
        for name in ("fig3_19.png", "fig3_20.png", "table3_6.csv"):
            self.assertTrue(os.path.getsize(os.path.join(self.dir, name)) > 0, name)
        with open(os.path.join(self.dir, "table3_6.csv")) as f:
            rows = {(r["cores"], r["algorithm"]): r for r in csv.DictReader(f)}
        self.assertAlmostEqual(float(rows[("1024", "dynleader")]["speedup_over_papcoll_binomial"]), 16.0)
        self.assertAlmostEqual(float(rows[("1024", "dynleader")]["speedup_over_smpi_binomial"]), 20.0)
        self.assertEqual(rows[("1024", "dynleader_onesided")]["speedup_over_papcoll_binomial"], "")

    def test_with_onesided(self):
        stand, merged, skipped, failures = self.run_tiers(True, 1e9)
        self.assertEqual(len(stand.calls), len(red.all_points(True)))
        res = red.load(merged)
        table = red.table_3_6_markdown(res, True)
        self.assertIn("| 1024 | all 4 x 6 | 0.25 | 0.34 | 4.00 | 5.70 | 16.00 | 20.13 | 20.00 | 27.08 |", table)
        text = red.comparison(res, True)
        self.assertIn("*One-sided dynamic leader.* Ours averages 20.00x at 512 cores", text)
        self.assertIn("0.25 / 4.00 / 16.00 / 20.00 (Hier. / Intra-Opt. / Dyn. Leader / D.L. One-Sided) at 512 cores", text)


if __name__ == "__main__":
    unittest.main()
