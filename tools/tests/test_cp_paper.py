# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim reproduce cp_paper: the point list, the paper's metric from a --raw record, the tables
(no simulation)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.repro import cp_paper  # noqa: E402
from papcoll_tools.sim import sweep_config  # noqa: E402


class Points(unittest.TestCase):
    def setUp(self):
        self.points = sweep_config.expand(cp_paper.config())
        self.names = cp_paper.names(self.points)

    def test_count_and_unique_raw_records(self):
        per_family = {"BT": 6, "RDAAS": 6, "RingAAS": 9}
        expected = sum(2 * 3 * 2 * n for n in per_family.values())  # platforms x variants x K x sizes
        self.assertEqual(len(self.points), expected)
        self.assertEqual(len(set(self.names.values())), expected)
        for p in self.points:  # relative: keys do not depend on where the repository is
            raw = [a for a in p.bench_args if a.startswith("--raw=")]
            self.assertEqual(len(raw), 1)
            self.assertTrue(raw[0].startswith("--raw=raw/"))

    def test_mapping(self):
        for p in self.points:
            family, plat, variant, k, size = self.names[p.key].split("_")
            env = dict(p.env)
            f = cp_paper.FAMILIES[family]
            self.assertEqual(p.spec, cp_paper.PLATFORMS[plat])
            self.assertEqual(int(size), p.size)
            self.assertEqual(p.pattern, "balanced" if k == "K0" else "uniform:500")
            self.assertEqual(p.iters, 10 if k == "K0" else 200)
            self.assertIn("--unit-time=1e-6", p.bench_args)
            self.assertEqual(p.seed, 1)
            if variant == "P-hier":
                self.assertEqual((p.algo, env["PAPCOLL_BCAST_INTER"]), ("hier_nobarrier", f["inter"]))
            else:
                self.assertEqual(p.algo, f["algo"])
                self.assertEqual(env["PAPCOLL_CP_LEADER"], "first" if variant == "CP" else "fixed")
            if family != "BT":  # every size takes the scatter-allgather branch
                noseg = sweep_config.size_bytes(env["PAPCOLL_CP_NOSEG_MAX"])
                self.assertLess(noseg, min(f["sizes"]))
            else:  # every size is sent whole (default PAPCOLL_CP_NOSEG_MAX = 16K)
                self.assertLessEqual(max(f["sizes"]), 16 * 1024)

    def test_paper_sizes(self):
        # the paper's axis labels (KB, 1 KB = 1000 B): 12 18 27 40(41) 60(61) 92 137 205 310
        kb = [s / 1000 for s in cp_paper.RING_SIZES]
        for ours, label in zip(kb, [12, 18, 27, 40.5, 60.75, 91.1, 137, 205, 308]):
            self.assertAlmostEqual(ours, label, delta=1.5)
        self.assertEqual(cp_paper.RD_SIZES, cp_paper.RING_SIZES[:6])


RAW = """algo,size,rep,rank,planned,a,f,e,missed,root,root_order
cp_rdb,100,0,0,0,0,0,1e-4,0,0,0
cp_rdb,100,0,1,0,0,0,3e-4,0,0,0
cp_rdb,100,0,2,0,0,0,2e-4,0,0,0
cp_rdb,100,1,0,0,0,0,3e-4,0,0,0
cp_rdb,100,1,1,0,0,0,1e-4,0,0,0
cp_rdb,100,1,2,0,0,0,2e-4,0,0,0
cp_rdb,100,2,0,0,0,0,9e-3,1,0,0
cp_rdb,100,2,1,0,0,0,9e-3,0,0,0
cp_rdb,100,2,2,0,0,0,9e-3,0,0,0
"""


class Metric(unittest.TestCase):
    def test_summarize_raw(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "raw.csv")
            with open(path, "w") as f:
                f.write(RAW)
            s = cp_paper.summarize_raw(path)
        self.assertEqual((s["reps"], s["missed_reps"]), (2, 1))  # repetition 2 missed a start: left out
        self.assertAlmostEqual(s["paper_t"], 2e-4)  # per-rank means 2e-4, 2e-4, 2e-4
        self.assertAlmostEqual(s["mean_e"], 2e-4)
        self.assertAlmostEqual(s["se_mean"], 0.0)

    def test_gain(self):
        self.assertAlmostEqual(cp_paper.gain(0.6, 1.0), 40.0)
        self.assertTrue(cp_paper.gain(float("nan"), 1.0) != cp_paper.gain(float("nan"), 1.0))


class Tables(unittest.TestCase):
    def test_figure_table_and_summary(self):
        res = {}
        for size in cp_paper.RD_SIZES:
            for variant, t in (("CP", 2e-4), ("P", 4e-4), ("P-hier", 5e-4)):
                res[("RDAAS", "16x8", variant, "0.5", size)] = {"paper_t": t, "mean_e": t / 2}
                res[("RDAAS", "16x8", variant, "0", size)] = {"paper_t": 1e-4, "mean_e": 1e-4}
        text = cp_paper.figure_table(res, "RDAAS", 15, "16x8")
        self.assertIn("Fig. 15: CP-RDAAS vs P-RDAAS, 8 processes/node x 16 nodes", text)
        self.assertIn("| 12 KB | 0.100 | 0.100 | 0.100 | +0% | 0.200 | 0.400 | 0.500 | +50% | +60% |", text)
        self.assertEqual(text.count("\n| "), 1 + len(cp_paper.RD_SIZES))
        self.assertAlmostEqual(cp_paper.mean_gain(res, "RDAAS", "16x8", "0.5"), 50.0)
        summary = cp_paper.summary_table(res)
        self.assertIn("| 15 (RDAAS) | 8 ppn x 16 nodes | +50% (+50% to +50%) | +50% | +0% | +60% |", summary)
        self.assertIn("| 12 (BT) | 4 ppn x 16 nodes | - (- to -) |", summary)  # no data: dashes, no crash


if __name__ == "__main__":
    unittest.main()
