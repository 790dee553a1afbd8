# SPDX-License-Identifier: BSD-3-Clause
"""papcoll tune (papcoll_tools.site_tune): sizes, the work directory's settings check, and end to end
natively (PAPCOLL_TUNE_TEST=native: ctest tools.tune, 2 processes) and simulated
(PAPCOLL_TUNE_TEST=simulated: ctest smpi.tools.tune, 4 ranks): the rules file is accepted by papcoll and
chooses, a rerun skips the finished cells and runs a missing one, other settings are refused."""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, TOOLS)
from papcoll_tools import site_tune  # noqa: E402

MODE = os.environ.get("PAPCOLL_TUNE_TEST", "")


def papcoll(*args):
    env = dict(os.environ, PYTHONPATH=TOOLS + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "papcoll_tools.cli", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def papcoll_warnings(log):
    """papcoll's warnings in a run's output (a rules file refused, a rule skipped)."""
    return [l for l in log.splitlines() if l.startswith("papcoll[") and "warn" in l.lower()]


def cell_files(workdir, verify=False):
    """{path: mtime} of the measured cells (VERIFY: of the reruns of auto with the rules instead)."""
    return {f: os.path.getmtime(f) for f in glob.glob(os.path.join(workdir, "**", "*.csv"), recursive=True)
            if ("/verify-" in f) == verify}


class UnitTest(unittest.TestCase):
    def test_sizes(self):
        self.assertEqual(site_tune.expand_sizes("8:4K:8,16K:1M:4"), [8, 64, 512, 4096, 16384, 65536, 262144, 1 << 20])
        self.assertEqual(site_tune.expand_sizes("1K,64,1K:4K"), [64, 1024, 2048, 4096])
        for bad in ("", "4K:1K", "1K:4K:1", "12Q"):
            with self.assertRaises(site_tune.TuneError):
                site_tune.expand_sizes(bad)

    def test_cells_and_paths(self):
        cells = site_tune.cells(["bcast", "barrier"], ["balanced", "late:0.2:16"], [64, 4096])
        self.assertEqual(len(cells), 6)  # the barrier has one size
        self.assertEqual(site_tune.cell_path("W", cells[3]), os.path.join("W", "bcast", "late_0.2_16", "4096.csv"))
        cells = site_tune.cells(["reduce"], ["balanced"], [64], ["cluster:4x4", "torus:4x4:2,2"], ["mpich"])
        self.assertEqual([c.label() for c in cells], ["reduce cluster:4x4 balanced 64", "reduce cluster:4x4 balanced 64 smpi:mpich",
                                                      "reduce torus:4x4:2,2 balanced 64", "reduce torus:4x4:2,2 balanced 64 smpi:mpich"])
        self.assertEqual(site_tune.cell_path("W", cells[3]), os.path.join("W", "reduce", "torus_4x4_2_2", "balanced", "64.smpi-mpich.csv"))

    @staticmethod
    def recorded(workdir, argv):
        """papcoll tune's options ARGV, as main completes them, after check_config recorded them in WORKDIR."""
        ap = argparse.ArgumentParser()
        site_tune.add_arguments(ap)
        a = ap.parse_args(argv)
        a.bench, a.warmup = "/bin/true", 1
        site_tune.check_config(workdir, a)
        return a

    def test_settings_recorded_and_checked(self):
        with tempfile.TemporaryDirectory() as d:
            a = self.recorded(d, ["--launcher=mpirun -np 4", "-i", "5"])
            site_tune.check_config(d, a)  # the same settings: resumes
            a.iterations = 6
            with self.assertRaisesRegex(site_tune.TuneError, "iterations"):
                site_tune.check_config(d, a)

    def test_settings_of_an_older_work_directory(self):
        """A work directory recorded before --mpi-copies existed was measured without it: it resumes without,
        and is refused with it."""
        with tempfile.TemporaryDirectory() as d:
            a = self.recorded(d, ["--simulate=cluster:4x4", "-i", "5"])
            path = os.path.join(d, "config.json")
            with open(path) as f:
                recorded = json.load(f)
            del recorded["mpi_copies"]
            with open(path, "w") as f:
                json.dump(recorded, f)
            site_tune.check_config(d, a)
            a.mpi_copies = True
            with self.assertRaisesRegex(site_tune.TuneError, "mpi_copies: False there, True now"):
                site_tune.check_config(d, a)


class EndToEnd:
    """Shared by the native and the simulated runs: ARGS, the options that say where to run."""
    ARGS: list = []
    COLL = ""
    CELLS = 4  # 2 sizes x 2 patterns (x the SMPI baselines)

    def tune(self, d, *more):
        return papcoll("tune", *self.ARGS, f"--colls={self.COLL}", "--sizes=64,4K", "-i", "3", "-x", "1",
                       "-o", os.path.join(d, "site.rules"), *more)

    def accepted(self, rules):
        """The rules file chooses the algorithm of auto's calls (PAPCOLL_TUNE_FILE rule N in the debug log)."""
        raise NotImplementedError

    def test_tune_and_resume(self):
        with tempfile.TemporaryDirectory() as d:
            p = self.tune(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            rules_path, work = os.path.join(d, "site.rules"), os.path.join(d, "site.rules.d")
            n = self.CELLS
            self.assertIn(f"{n} to run", p.stderr)
            self.assertIn(f"{n}/{n} cells", p.stderr)
            self.assertIn("checked by papcoll-bench --check-tune", p.stderr)
            with open(rules_path) as f:
                rules = [l for l in f.read().splitlines() if l and not l.startswith("#")]
            self.assertTrue(rules and all(r.startswith(self.COLL) for r in rules), rules)
            with open(os.path.join(d, "site.md")) as f:
                report = f.read()
            self.assertIn(f"## {self.COLL}", report)
            self.assertIn("| 64 |", report)
            self.assertIn("| 4K |", report)
            if "--baselines=mpich" in self.ARGS:  # SMPI's algorithm counts in the best time as native[mpich]
                files = [f for f in cell_files(work) if f.endswith(".smpi-mpich.csv")]
                self.assertEqual(len(files), n // 2)
                with open(files[0]) as f:
                    self.assertIn("baseline SMPI bcast mpich", f.read())
            self.accepted(rules_path)
            # auto rerun with the rules in every cell but the baselines', and reported
            self.assertEqual(len(cell_files(work, verify=True)), 4)
            self.assertIn("auto with these rules", report)
            # a rerun skips every finished cell; one removed is run again, the others' files untouched
            done = cell_files(work)
            self.assertEqual(len(done), n)
            p = self.tune(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(f"{n} already done", p.stderr)
            self.assertEqual(cell_files(work), done)
            removed = sorted(done)[1]
            os.remove(removed)
            p = self.tune(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(f"{n - 1} already done", p.stderr)
            self.assertIn("1 to run", p.stderr)
            now = cell_files(work)
            self.assertEqual({f: t for f, t in now.items() if f != removed}, {f: t for f, t in done.items() if f != removed})
            self.assertIn(removed, now)
            # other measurement settings in the same work directory: refused
            p = self.tune(d, "--seed=2")
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("other settings", p.stderr)


@unittest.skipUnless(MODE == "native" and os.environ.get("PAPCOLL_BENCH") and os.environ.get("PAPCOLL_MPIRUN"),
                     "PAPCOLL_TUNE_TEST=native with PAPCOLL_BENCH and PAPCOLL_MPIRUN (ctest tools.tune)")
class NativeTest(EndToEnd, unittest.TestCase):
    COLL = "allreduce"

    def setUp(self):
        self.launcher = os.environ["PAPCOLL_MPIRUN"] + " -np 2"
        # an oversubscribed machine misses planned starts: tolerate late starts (correctness only here)
        self.ARGS = [f"--launcher={self.launcher}", f"--bench={os.environ['PAPCOLL_BENCH']}",
                     "--patterns=balanced,uniform:4", "--bench-args=--start-margin=2e-3 --tolerance=1"]

    def accepted(self, rules):
        cmd = shlex.split(self.launcher) + [os.environ["PAPCOLL_BENCH"], "--coll=allreduce", "--algo=auto", "-m", "64:4K:64",
                                            "-i", "1", "-x", "0", "--format=csv"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, PAPCOLL_TUNE_FILE=rules, PAPCOLL_LOG="debug"))
        self.assertEqual(p.returncode, 0, p.stderr)
        log = p.stdout + p.stderr
        self.assertIn("(PAPCOLL_TUNE_FILE rule", log)
        self.assertEqual(papcoll_warnings(log), [])


@unittest.skipUnless(MODE == "simulated" and os.environ.get("PAPCOLL_BENCH_SMPI"),
                     "PAPCOLL_TUNE_TEST=simulated with PAPCOLL_BENCH_SMPI (ctest smpi.tools.tune)")
class SimulatedTest(EndToEnd, unittest.TestCase):
    COLL = "bcast"
    CELLS = 8
    ARGS = ["--simulate=cluster:2x2", "--patterns=balanced,late:0.5:8", "--baselines=mpich"]

    def accepted(self, rules):
        env = dict(os.environ, PAPCOLL_TUNE_FILE=rules, PAPCOLL_LOG="debug")
        from papcoll_tools.sim import run as sim_run
        o = sim_run.simulate("cluster:2x2", 4, bench_args=["--coll=bcast", "--algo=auto", "-m", "64:4K:64", "-i", "1",
                                                          "-x", "0", "--format=csv"], env=env)
        self.assertEqual(o.returncode, 0, o.stderr)
        self.assertIn("(PAPCOLL_TUNE_FILE rule", o.stdout + o.stderr)
        self.assertEqual(papcoll_warnings(o.stdout + o.stderr), [])


if __name__ == "__main__":
    unittest.main()
