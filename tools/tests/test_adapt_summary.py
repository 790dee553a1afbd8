# SPDX-License-Identifier: BSD-3-Clause
"""tools/sweeps/adapt_summary.py: the root's time of a run (its own CSV or the folded runs.csv), the
balanced regrets against the best algorithm of a cell ('- | -' where none applies), and a fold that keeps
one header row."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "sweeps"))
import adapt_summary  # noqa: E402

HEADER = "coll,algo,size,pattern,p,e_bar,e_root"


class AdaptSummaryTest(unittest.TestCase):
    def test_root_times_from_run_file_and_folded(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "reduce_balanced_adapt1.csv"), "w") as f:
                f.write("#@benchmark=papcoll-bench\n" + HEADER + "\n"
                        "reduce,auto,8,balanced,16,1e-07,6e-06\nreduce,auto,4096,balanced,16,1e-06,nan\n")
            self.assertEqual(adapt_summary.root_times(d, "reduce_balanced_adapt1"), {8: 6e-06})
            with open(os.path.join(d, "runs.csv"), "w") as f:
                f.write("run," + HEADER + "\n"
                        "reduce_balanced_adapt0,reduce,auto,8,balanced,16,2e-07,9e-06\n"
                        "reduce_late_adapt0,reduce,auto,8,late,16,2e-07,1e-03\n")
            self.assertEqual(adapt_summary.root_times(d, "reduce_balanced_adapt0"), {8: 9e-06})

    def test_merge_keeps_one_header(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "e_bar.csv")
            with open(path, "w") as f:
                f.write("run,size,mean\nrun,size,mean\na_adapt0,8,1\na_adapt1,8,2\n")
            adapt_summary._merge(path, [["a_adapt1", "8", "3"]], ["size", "mean"])
            adapt_summary._merge(path, [["b_adapt0", "8", "4"]], ["size", "mean"])
            with open(path) as f:
                self.assertEqual(f.read().split(), ["run,size,mean", "a_adapt0,8,1", "a_adapt1,8,3", "b_adapt0,8,4"])

    def test_regrets(self):
        best = {8: {"cluster:4x4@balanced": {"auto": 1e-06, "two_level": 4e-06, "native[mpich]": 5e-06}}}
        self.assertEqual(adapt_summary.regrets(best, 8, "cluster:4x4", "balanced", 8e-06, 4.4e-06), "2.00 | 1.10")
        self.assertEqual(adapt_summary.regrets(best, 8, "cluster:4x4", "late:0.2:16", 8e-06, 4e-06), "- | -")
        self.assertEqual(adapt_summary.regrets(best, 64, "cluster:4x4", "balanced", 8e-06, 4e-06), "- | -")
        self.assertEqual(adapt_summary.regrets(best, 8, "cluster:4x4", "balanced", None, 4e-06), "- | -")


if __name__ == "__main__":
    unittest.main()
