# SPDX-License-Identifier: BSD-3-Clause
"""Patarasuk & Yuan 2008's reproduction without the simulator: the sweep's points, the replay of papcoll-bench's
arrival patterns and the lower bound, and the report written from synthetic sweep results."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.repro import patarasuk_yuan2008 as py2008  # noqa: E402
from papcoll_tools.sim import sweep_config  # noqa: E402

try:
    from test_report import SavedFigures, row, write_sweep
except ImportError:  # pragma: no cover - matplotlib missing
    SavedFigures = None


class PatarasukYuan2008ConfigTest(unittest.TestCase):
    def test_points(self):
        pts = sweep_config.expand(py2008.config())
        per = {c: [p for p in pts if p.platform == cl.spec] for c, cl in py2008.CLUSTERS.items()}
        n_algos, n_if, n_sizes = len(py2008.ALGOS), len(py2008.MAX_IF), len(py2008.SIZES)
        # Figs. 7 and 9: every MAX_IF; Figs. 8 and 10: every size, one of which Fig. 7 / 9 already ran
        for c in per:
            self.assertEqual(len(per[c]), n_algos * 2 * (n_if + n_sizes - 1))
        self.assertEqual(len(pts), len(set(pts)))
        self.assertEqual({p.algo for p in per["draco"]} - set(py2008.ALGOS), {"smpi:mvapich2"})
        self.assertEqual({p.algo for p in per["cetus"]} - set(py2008.ALGOS), {"smpi:mpich"})
        self.assertTrue(all(dict(p.env) == {"PAPCOLL_BCAST_SEGSIZE": "8K"} for p in per["cetus"]))
        self.assertTrue(all(p.env == () for p in per["draco"]))
        self.assertTrue(all(p.iters == py2008.ITERS >= 5 and p.seed == py2008.SEED for p in pts))
        fig7 = {(p.size, p.pattern) for p in per["draco"] if p.size == 2 << 20}
        self.assertIn((2 << 20, "balanced"), fig7)
        self.assertIn((2 << 20, "uniform:127"), fig7)
        self.assertIn((256 << 10, "uniform:15"), {(p.size, p.pattern) for p in per["cetus"]})
        self.assertIn((512 << 10, "late:0.2:128"), {(p.size, p.pattern) for p in per["cetus"]})

    def test_patterns(self):
        self.assertEqual(py2008.pattern("uniform", 1), "balanced")  # rand() % 1 == 0
        self.assertEqual(py2008.pattern("uniform", 16), "uniform:15")
        self.assertEqual(py2008.pattern("late", 16), "late:0.2:16")
        self.assertEqual(py2008.points(py2008.FIGURES[1], "cetus")[0], (64 << 10, 64 << 10, "uniform:15"))

    def test_replay_matches_bench(self):
        # values of bench/pattern.c's pattern_uniform (compiled and printed once)
        self.assertEqual(py2008.uniform01(1, 0, 0), 0.52683587732761838)
        self.assertEqual(py2008.uniform01(1, 3, 127), 0.54539743957244535)
        self.assertEqual(py2008.uniform01(7, 19, 5), 0.26161856687755847)
        d = py2008.delays("late:0.2:16", 64, 0)
        self.assertEqual(d[0], 0.0)
        self.assertTrue(set(d) <= {0.0, 16.0} and 16.0 in d)

    def test_lower_bound(self):
        # root 0 at 2; ranks 1, 2 arrive before it (waits 2 and 1); Delta = 5 - 2; (n-1) T = 6
        self.assertAlmostEqual(py2008.lower_bound([2, 0, 1, 5], 2.0), (3 + 3 + 6) / 4)
        self.assertAlmostEqual(py2008.lower_bound([0, 0, 0], 3.0), 2.0)


@unittest.skipIf(SavedFigures is None, "matplotlib not installed")
class PatarasukYuan2008ReportTest(unittest.TestCase):
    def test_output(self):
        rows = []
        for c, cl in py2008.CLUSTERS.items():
            for fig in py2008.FIGURES:
                for x, size, pat in py2008.points(fig, c):
                    for k, name in enumerate(py2008.ALGOS):
                        e = (1 + k) * size * 1e-9 * (1 + py2008.delays(pat, 4, 0)[1])
                        r = row(cl.spec, py2008.algo(name, c), size, pat, e, p=cl.n)
                        r["point"] += f"-{fig.number}"
                        rows.append(r)
        with tempfile.TemporaryDirectory() as d, SavedFigures() as figs:
            out = os.path.join(d, "patarasuk_yuan2008")
            os.makedirs(os.path.join(out, "sweep"))
            write_sweep(os.path.join(out, "sweep", "sweep.csv"), rows)
            md = py2008.write(out, os.path.join(d, "patarasuk_yuan2008.md"), 12.0, "cmd")
            with open(md) as f:
                text = f.read()
        self.assertEqual(sorted(os.path.basename(p) for p, _ in figs.saved),
                         sorted(f"fig{f.number}.png" for f in py2008.FIGURES))
        for path, axes in figs.saved:
            self.assertEqual(len(axes), len(py2008.CLUSTERS))
            for xlabel, ylabel, title in axes:
                self.assertTrue(xlabel and ylabel)
                self.assertIn("simulated", (ylabel + title).lower())
        for f in py2008.FIGURES:
            self.assertIn(f"(patarasuk_yuan2008/fig{f.number}.png)", text)
        self.assertIn("| algorithm | MAX_IF 1 | MAX_IF 2 |", text)
        self.assertIn("| algorithm | 64 KiB |", text)
        self.assertIn("| lower bound (Lemma 2 + root wait) |", text)
        self.assertIn("| 7 | Draco | small MAX_IF", text)
        self.assertIn("SIMULATED", text)
        # linear, the first of ALGOS, is the fastest of the synthetic rows: arrival_b never wins
        self.assertIn("| 8 | Draco | random, MAX_IF = n: arrival_b best over a wide range of sizes | arrival_b best at "
                      "no size | does not hold |", text)


if __name__ == "__main__":
    unittest.main()
