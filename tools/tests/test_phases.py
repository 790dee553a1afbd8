# SPDX-License-Identifier: BSD-3-Clause
"""papcoll phases (tools/papcoll_tools/phases.py) and PAPCOLL_PHASE_REPORT (src/core/phase.c).

The summary's arithmetic on a hand-made report; with PAPCOLL_BENCH_SMPI (ctest tools.python), a simulated run of
papcoll-bench-smpi on 4 ranks of cluster:2x2 whose report must hold one line per rank and algorithm, nothing in
shared memory for `native`, and for `hier` shared-memory copies of about the modelled copy time."""
import os
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, TOOLS)

from papcoll_tools import phases  # noqa: E402

REPORT = """some program output
papcoll phases: rank 0 coll reduce algorithm hier role root calls 4 in_call_s 4e-05 shm_copy_s 1e-05 shm_wait_s 2e-05 rest_s 1e-05
papcoll phases: rank 1 coll reduce algorithm hier role other calls 4 in_call_s 8e-05 shm_copy_s 0 shm_wait_s 4e-05 rest_s 4e-05
papcoll phases: rank 2 coll reduce algorithm hier role other calls 2 in_call_s 2e-05 shm_copy_s 1e-05 shm_wait_s 0 rest_s 1e-05
"""


class Summary(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(REPORT)

    def tearDown(self):
        os.remove(self.path)

    def test_means_per_call_and_process(self):
        s = {r["role"]: r for r in phases.summarise(phases.read(self.path))}
        self.assertEqual(s["root"]["processes"], 1)
        self.assertAlmostEqual(s["root"]["in_call_us"], 10.0)
        other = s["other"]
        self.assertEqual(other["processes"], 2)
        self.assertAlmostEqual(other["calls"], 3.0)             # 6 calls over 2 processes
        self.assertAlmostEqual(other["in_call_us"], 100 / 6)    # (80 + 20) us over 6 calls
        self.assertAlmostEqual(other["shm_copy_us"], 10 / 6)
        self.assertAlmostEqual(other["shm_wait_us"], 40 / 6)
        self.assertAlmostEqual(other["rest_us"], 50 / 6)
        self.assertIn("| reduce | hier | other | 2 | 3 | 16.67 | 1.67 (10%) | 6.67 (40%) | 8.33 (50%) |",
                      phases.markdown(phases.summarise(phases.read(self.path))))

    def test_no_report_line(self):
        with open(self.path, "w") as f:
            f.write("nothing here\n")
        with self.assertRaises(ValueError):
            phases.read(self.path)


@unittest.skipUnless(os.environ.get("PAPCOLL_BENCH_SMPI"), "PAPCOLL_BENCH_SMPI (ctest tools.python)")
class Simulated(unittest.TestCase):
    def test_report_of_a_run(self):
        with tempfile.TemporaryDirectory() as d:
            report = os.path.join(d, "phases.txt")
            env = dict(os.environ, PAPCOLL_PHASE_REPORT=report, PAPCOLL_SIM_MEMBW="5G",
                       PYTHONPATH=TOOLS + os.pathsep + os.environ.get("PYTHONPATH", ""))
            p = subprocess.run([sys.executable, "-m", "papcoll_tools.cli", "sim", "run", "--platform=cluster:2x2",
                                f"--bench={os.environ['PAPCOLL_BENCH_SMPI']}", "--", "--coll=bcast",
                                "--algo=native,hier", "-m", "64K:64K", "-i", "3", "-x", "1", "-k", "fixed:0"],
                               capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            rows = phases.read(report)
            self.assertEqual(len({(r[0], r[2]) for r in rows}), 8)  # 4 ranks x 2 algorithms
            s = {(r["algorithm"], r["role"]): r for r in phases.summarise(rows)}
            native = s[("native", "other")]
            self.assertEqual(native["shm_copy_us"] + native["shm_wait_us"], 0.0)
            self.assertGreater(native["rest_us"], 0.0)
            self.assertNotIn(("native", "leader"), s)  # no process leads a node in the MPI library's own
            # hier: one leader (rank 2, the other node's lowest) brings the message to its node
            self.assertEqual(s[("hier", "leader")]["processes"], 1)
            self.assertEqual(s[("hier", "other")]["processes"], 2)
            # the root and the leader copy 64 KiB into the node's memory, the others out of it, at 5 GB/s (13.1 us)
            for role in ("root", "leader", "other"):
                self.assertAlmostEqual(s[("hier", role)]["shm_copy_us"], 65536 / 5e9 * 1e6, delta=1.0)
            hier = s[("hier", "other")]
            self.assertAlmostEqual(hier["in_call_us"], hier["shm_copy_us"] + hier["shm_wait_us"] + hier["rest_us"],
                                   places=6)
            self.assertGreater(hier["shm_wait_us"], 0.0)  # the node's other process waits for the data


if __name__ == "__main__":
    unittest.main()
