# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim reproduce parsons2015_ch2's reduced runs, without the simulator: Alltoallv's flat stand-in and its
sizes, one size per run for Alltoallv and Reduce-Scatter, the report's "Reduced runs" and "Not run" sections,
and the stack size and machine-wide lock of big simulations (big_run_settings)."""
import fcntl
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.repro import common, parsons2015_ch2 as ch2  # noqa: E402
from papcoll_tools.sim import run, sweep_config  # noqa: E402
from test_parsons2015_alltoall_ch2 import Stand  # noqa: E402


def tier(label_start):
    return next(pts for label, pts in ch2.tier_points() if label.startswith(label_start))


class ReducedPoints(unittest.TestCase):
    def test_alltoallv_flat_is_pairwise_at_three_sizes_one_per_run(self):
        for world in (512, 1024):
            pts = [p for p in tier(f"{world} ranks, every") if p.coll == "alltoallv"]
            self.assertEqual([p.algo for p in pts], ["pairwise", "hier,aware"] * 3)
            # 32 KiB, 128 KiB, 512 KiB largest buffers: one size per run
            self.assertEqual([sweep_config.range_sizes(p.size) for p in pts[::2]],
                             [[(32 << 10) // world], [(128 << 10) // world], [(512 << 10) // world]])
            for p in pts:
                self.assertEqual(dict(p.env), {"PAPCOLL_ALLTOALL_INTER": "pairwise"})

    def test_reduce_scatter_every_size_one_per_run(self):
        pts = [p for p in tier("512 ranks, every") if p.coll == "reduce_scatter"]
        self.assertEqual([p.algo for p in pts], ["pairwise", "hier,multisender"] * 4)
        self.assertEqual([sweep_config.range_sizes(p.size) for p in pts[1::2]], [[64], [256], [1024], [4096]])

    def test_other_rows_keep_one_run(self):
        # points that ran before the reduced runs keep their keys (their results stay valid)
        keys = {p.key for p in ch2.all_points()}
        for k in ("cluster_16x32_preset_gemini_allgather_ring_hier_multisender_ring_64_4096_4_balan-87107cec3a1d",
                  "cluster_32x32_preset_gemini_binomial_hier_32768_2097152_4_balanced-f3a10f960100"):
            self.assertIn(k, keys)


class ReducedReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def test_report_states_reduced_and_missing_runs(self):
        every = ch2.all_points()
        skip = next(p for p in every if p.coll == "alltoallv" and p.algo == "pairwise")
        failed = next(p for p in every if p.coll == "reduce_scatter" and p.algo == "pairwise")
        stand = Stand(every)
        with mock.patch.object(run, "simulate", stand), open(os.devnull, "w") as log:
            from papcoll_tools.sim import sweep
            todo = [p for p in every if p not in (skip, failed)]
            sweep.sweep(todo, os.path.join(self.dir, "sweep"), 1, None, log=log)
        with open(os.path.join(self.dir, "sweep", "points", failed.key + ".err"), "w") as f:
            f.write("exit status -9\n--- stdout\n--- stderr\nkilled\n")
        with open(ch2.write(self.dir, os.path.join(self.dir, "x.md"), "cmd")) as f:
            text = f.read()
        self.assertIn("**Alltoallv's flat algorithm is `pairwise`, not MPICH's `isend`.**", text)
        self.assertIn("**Alltoallv runs 32KB, 128KB, 512KB only.**", text)
        self.assertIn(f"- {ch2._world(skip)} ranks, alltoallv `pairwise`, 64B: not started (time)", text)
        self.assertIn(f"- 512 ranks, reduce_scatter `pairwise`, 64B: killed after {ch2.TIMEOUT} s", text)
        # the Alltoallv row: pairwise at two sizes of three at 512 ranks (the 64 B run missing)
        self.assertIn("| Alltoallv (`pairwise` / `hier` / `aware`) | 40.00 / 40.00 (2) |", text)
        self.assertIn("## Against the thesis", text)


class BigRunSettings(unittest.TestCase):
    def setUp(self):
        fd, self.lock = tempfile.mkstemp()
        os.close(fd)
        self.addCleanup(os.unlink, self.lock)

    def lock_held(self):
        with open(self.lock, "a") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(f, fcntl.LOCK_UN)
            return False

    def test_stack_everywhere_lock_from_1024_ranks(self):
        calls = []

        def fake(spec, np=None, baseline=None, bench=None, bench_args=(), env=None, timeout=None, stack_kib=None):
            calls.append((spec, stack_kib, self.lock_held()))
            return "outcome"

        with mock.patch.object(run, "simulate", fake):
            with common.big_run_settings(self.lock):
                self.assertEqual(run.simulate("cluster:16x32,preset=gemini"), "outcome")
                run.simulate("cluster:32x32,preset=gemini", None, None, None, (), timeout=5)
            self.assertIs(run.simulate, fake)
        self.assertEqual(calls, [("cluster:16x32,preset=gemini", common.STACK_KIB, False),
                                 ("cluster:32x32,preset=gemini", common.STACK_KIB, True)])
        self.assertFalse(self.lock_held())


if __name__ == "__main__":
    unittest.main()
