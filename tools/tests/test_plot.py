# SPDX-License-Identifier: BSD-3-Clause
"""papcoll-plot writes the three figures from papcoll-bench outputs."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
try:
    import matplotlib  # noqa: F401
    from papcoll_tools import plot, results
except ImportError:  # pragma: no cover
    plot = None

HEADER = "coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,delta_bar,omega,if_avg,if_worst,bound,ratio,T,check\n"


@unittest.skipIf(plot is None, "matplotlib not installed (make deps installs it)")
class PlotTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.files = []
        for level in (0, 4, 16):
            path = os.path.join(self.dir.name, f"u{level}.csv")
            with open(path, "w") as f:
                f.write("#@simulated=yes: SimGrid SMPI\n#@p=64\n" + HEADER)
                for algo, base in (("binomial", 1e-3), ("linear", 5e-3)):
                    for size in (1024, 1048576):
                        e = base * (1 + level) * size / 1048576
                        f.write(f"bcast,{algo},{size},uniform:{level},64,0,5,5,{e},{e*0.9},{e*1.1},{2*e},{e},{level*1e-4},"
                                f"{level*2e-4},{level/2},{level},{1e-4},{e/1e-4},{1e-4},-\n")
            self.files.append(path)
        self.raw = os.path.join(self.dir.name, "raw.csv")
        with open(self.raw, "w") as f:
            f.write("algo,size,rep,rank,planned,a,f,e,missed,root,root_order\n")
            for rank in range(8):
                f.write(f"binomial,1024,0,{rank},{rank*1e-5},{rank*1e-5},{rank*1e-5+3e-5},3e-5,0,0,0\n")

    def tearDown(self):
        self.dir.cleanup()

    def _png(self, name):
        path = os.path.join(self.dir.name, name)
        self.assertTrue(os.path.getsize(path) > 2000)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_reader(self):
        meta, rows = results.read(self.files[1])
        self.assertTrue(results.simulated(meta))
        self.assertEqual(len(rows), 4)
        self.assertEqual(results.pattern_level(rows[0]["pattern"]), 4.0)
        self.assertAlmostEqual(rows[0]["e_bar"], 5e-3 * 1024 / 1048576)

    def test_figures(self):
        plot.main(["imbalance", *self.files, "--size=1048576", "-o", os.path.join(self.dir.name, "imb.png")])
        plot.main(["sizes", self.files[0], "-o", os.path.join(self.dir.name, "sizes.png")])
        plot.main(["timeline", self.raw, "--algo=binomial", "-o", os.path.join(self.dir.name, "tl.png")])
        for name in ("imb.png", "sizes.png", "tl.png"):
            self._png(name)


if __name__ == "__main__":
    unittest.main()
