# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim sweep: the points of a TOML config, resumable per-point results, the merged CSV
(with a stand-in for the simulator), and one real two-point sweep run twice (identical results;
skipped without smpirun and PAPCOLL_BENCH_SMPI)."""
import csv
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import threading
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.sim import run, sweep, sweep_config  # noqa: E402

HEADER = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,"
          "delta_bar,omega,if_avg,if_worst,bound,ratio,T,check")


def fake_output(point):
    """What papcoll-bench-smpi would print for POINT (deterministic, derived from its parameters)."""
    e = 1e-6 * point.size / 1024 * (2 if point.algo == "linear" else 1)
    return (f"#@simulated=yes: SimGrid SMPI, times are simulated\n#@smpi_settings=fake; platform {point.spec}\n{HEADER}\n"
            f"{point.coll},{'native' if point.baseline else point.algo},{point.size},{point.pattern},16,0,3,3,{e},{e},{e},"
            f"{2 * e},{e},{e},{e / 2},0,0,0,0,{e / 2},2,{e},-\n")


class FakeSimulator:
    """Replaces run.simulate: records the calls, fails the points it is told to fail."""

    def __init__(self, points, fail=()):
        self.by_args = {(p.spec, tuple(p.bench_argv()), p.env): p for p in points}
        self.fail, self.calls = set(fail), []
        self.lock = threading.Lock()

    def __call__(self, spec, np=None, baseline=None, bench=None, bench_args=(), env=None, timeout=None):
        point = self.by_args[(spec, tuple(bench_args), tuple(sorted((env or {}).items())))]
        with self.lock:
            self.calls.append(point.key)
        if point.key in self.fail:
            return run.Outcome(1, "", "simulated failure", 0.1, 1000)
        return run.Outcome(0, fake_output(point), "", 0.5, 2048, 0.4, 1024)


CONFIG = {
    "name": "t", "platforms": ["cluster:2x2", "ring:4"], "sizes": ["1K", "4K"], "patterns": ["balanced"],
    "algos": ["binomial", "linear", "smpi:mpich"], "iters": 2, "warmup": 0,
}


class ConfigTest(unittest.TestCase):
    def test_product_and_sets(self):
        self.assertEqual(len(sweep_config.expand(CONFIG)), 2 * 2 * 3)
        cfg = dict(CONFIG, sweep=[{"platforms": ["cluster:2x2"], "overrides": {"lat": ["1us", "5us"]}},
                                  {"platforms": ["ring:4"], "env": {"PAPCOLL_BCAST_CHUNKS": [1, 10]}},
                                  {"platforms": ["ring:4"], "env": {"PAPCOLL_BCAST_CHUNKS": [1, 10]}}])
        points = sweep_config.expand(cfg)
        self.assertEqual(len(points), 2 * 2 * 3 + 2 * 2 * 3)  # the third set repeats the second: counted once
        self.assertEqual(len({p.key for p in points}), len(points))
        self.assertIn("cluster:2x2,lat=5us", {p.spec for p in points})
        chunked = [p for p in points if p.env]
        self.assertEqual({p.columns()["PAPCOLL_BCAST_CHUNKS"] for p in chunked}, {"1", "10"})

    def test_point_arguments(self):
        p = next(p for p in sweep_config.expand(CONFIG) if p.algo == "smpi:mpich")
        self.assertEqual(p.baseline, "mpich")
        self.assertIn("--algo=native", p.bench_argv())
        self.assertEqual(sweep_config.size_bytes("64K"), 65536)
        self.assertEqual(sweep_config.size_bytes("100000000"), 100000000)

    def test_errors(self):
        for bad in ({"platforms": ["ring:4"]}, {"algos": ["binomial"]}, dict(CONFIG, colour="red"),
                    dict(CONFIG, sizes=["12Q"])):
            with self.assertRaises(sweep_config.ConfigError, msg=str(bad)):
                sweep_config.expand(bad)

    def test_collectives(self):
        """colls is a dimension; --coll goes to the benchmark only for reductions, so a broadcast point keeps
        the key (file name) it had before reductions existed: sweeps made then resume."""
        points = sweep_config.expand(dict(CONFIG, colls=["bcast", "reduce", "allreduce"]))
        self.assertEqual(len(points), 3 * len(sweep_config.expand(CONFIG)))
        by_coll = {c: [p for p in points if p.coll == c] for c in ("bcast", "reduce", "allreduce")}
        self.assertEqual([p.key for p in by_coll["bcast"]], [p.key for p in sweep_config.expand(CONFIG)])
        p = by_coll["bcast"][0]
        old = json.dumps([p.sweep, p.platform, p.overrides, p.np, p.size, p.pattern, p.algo, p.iters, p.warmup, p.seed,
                          p.env, p.bench_args])
        self.assertTrue(p.key.endswith("-" + hashlib.sha1(old.encode()).hexdigest()[:12]))
        self.assertFalse(any(a.startswith("--coll") for a in p.bench_argv()))
        r = next(q for q in by_coll["reduce"] if q.algo == "smpi:mpich")
        self.assertEqual(r.bench_argv()[:2], ["--coll=reduce", "--algo=native"])
        self.assertEqual(run.bench_coll(r.bench_argv()), "reduce")  # the baseline then sets smpi/reduce
        self.assertEqual(len({q.key for q in points}), len(points))
        for bad in (dict(CONFIG, colls=["scan"]), dict(CONFIG, bench_args=["--coll=reduce"])):
            with self.assertRaises(sweep_config.ConfigError):
                sweep_config.expand(bad)

    def test_load_toml(self):
        path = os.path.join(os.path.dirname(__file__), "..", "sweeps", "example.toml")
        self.assertEqual(len(sweep_config.load(path)), 36)


class ResumeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="papcoll-sweep-test-")
        self.points = sweep_config.expand(CONFIG)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def sweep(self, fake, jobs=2):
        with mock.patch.object(run, "simulate", fake):
            return sweep.sweep(self.points, self.dir, jobs=jobs, log=io.StringIO())

    def test_resume(self):
        bad = self.points[3].key
        first = FakeSimulator(self.points, fail={bad})
        merged, skipped, failures = self.sweep(first)
        self.assertEqual((skipped, len(failures), len(first.calls)), (0, 1, len(self.points)))
        self.assertTrue(os.path.exists(os.path.join(self.dir, "points", bad + ".err")))
        with open(merged) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(self.points) - 1)

        # an interrupted write leaves an incomplete file: that point is run again, like the failed one
        incomplete = self.points[5]
        path = sweep.point_path(self.dir, incomplete)
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(sweep.DONE, ""))
        second = FakeSimulator(self.points)
        merged, skipped, failures = self.sweep(second)
        self.assertEqual(sorted(second.calls), sorted([bad, incomplete.key]))
        self.assertEqual((skipped, failures), (len(self.points) - 2, []))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "points", bad + ".err")))

        third = FakeSimulator(self.points)
        self.sweep(third)
        self.assertEqual(third.calls, [])  # everything done: nothing runs

        with open(merged) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(self.points))
        cols = list(rows[0].keys())
        self.assertEqual(cols[:3], ["sweep", "point", "platform"])
        self.assertEqual(cols[-5:], sweep.MEASURED)
        r = next(r for r in rows if r["algo"] == "smpi:mpich")
        self.assertEqual((r["wall_s"], r["cpu_s"], r["maxrss_mb"], r["pss_mb"]), ("0.500", "0.400", "2.0", "1.0"))

    def test_reduction_points_merge_and_resume(self):
        self.points = sweep_config.expand(dict(CONFIG, colls=["reduce", "allreduce"]))
        merged, _, failures = self.sweep(FakeSimulator(self.points))
        self.assertEqual(failures, [])
        with open(merged) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(sorted({r["coll"] for r in rows}), ["allreduce", "reduce"])
        self.assertEqual(len(rows), len(self.points))
        again = FakeSimulator(self.points)
        self.sweep(again)
        self.assertEqual(again.calls, [])  # their result rows count as results: nothing runs again

    def test_point_file_names_are_stable(self):
        again = sweep_config.expand(CONFIG)
        self.assertEqual([p.key for p in again], [p.key for p in self.points])
        changed = sweep_config.expand(dict(CONFIG, iters=3))
        self.assertFalse({p.key for p in changed} & {p.key for p in self.points})


@unittest.skipUnless(shutil.which("smpirun") and os.environ.get("PAPCOLL_BENCH_SMPI"), "needs smpirun and PAPCOLL_BENCH_SMPI")
class EndToEndTest(unittest.TestCase):
    """A real two-point sweep, twice: the same simulated numbers (only the cost columns may differ)."""

    def test_deterministic_sweep(self):
        cfg = {"name": "e2e", "platforms": ["cluster:2x2"], "sizes": ["64K"], "patterns": ["uniform:4"],
               "algos": ["binomial", "chain_pipelined_isend"], "iters": 2, "warmup": 1, "bench_args": ["-c"]}
        points = sweep_config.expand(cfg)
        outs = []
        with tempfile.TemporaryDirectory() as d:
            for i in range(2):
                merged, skipped, failures = sweep.sweep(points, os.path.join(d, str(i)), jobs=1,
                                                        log=io.StringIO())
                self.assertEqual((skipped, failures), (0, []))
                with open(merged) as f:
                    outs.append([{k: v for k, v in r.items() if k not in ("wall_s", "cpu_s", "maxrss_mb", "pss_mb")}
                                 for r in csv.DictReader(f)])
        self.assertEqual(outs[0], outs[1])
        self.assertEqual(len(outs[0]), 2)
        self.assertTrue(all(r["check"] == "Pass" and float(r["e_bar"]) > 0 for r in outs[0]))


if __name__ == "__main__":
    unittest.main()
