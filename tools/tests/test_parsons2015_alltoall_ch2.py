# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim reproduce parsons2015_alltoall and parsons2015_ch2 without the simulator: the points each runs, the
budget, and the tables and figures from a stand-in sweep whose times make every ratio known in advance."""
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.repro import parsons2015, parsons2015_alltoall as a2a, parsons2015_ch2 as ch2  # noqa: E402
from papcoll_tools.sim import run, sweep_config  # noqa: E402

HEADER = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,"
          "delta_bar,omega,if_avg,if_worst,bound,ratio,T,check")
# alltoall: e_bar = E[algo] x (1 + level) us, after_last = AFTER[algo] us
E = {"isend": 4.0, "hier": 2.0, "aware": 1.0, "aware_barrier": 2.0, "native": 8.0}
AFTER = {"isend": 100.0, "hier": 50.0, "aware": 10.0, "aware_barrier": 40.0, "native": 200.0}
# chapter 2: e_bar = SPEED[algo] x total bytes x 1e-9 s, divided by the senders when they are set
SPEED = {"bruck": 8.0, "ring": 16.0, "isend": 12.0, "binomial": 2.0, "pairwise": 40.0, "hier": 1.0,
         "multisender_bruck": 0.5, "multisender_ring": 0.25, "aware": 0.5, "multisender": 0.5}


def fake_output(point):
    nprocs = int(point.platform.split(":")[1].split("x")[0]) * 32
    env = dict(point.env)
    senders = next((int(v) for k, v in env.items() if k.endswith("_SENDERS")), 1)
    rows = []
    for s in sweep_config.range_sizes(point.size):
        for a in point.algo.split(","):
            if point.coll == "alltoall":
                level = parsons2015._level(point.pattern)
                e, after = E[a] * (1 + level) * 1e-6, AFTER[a] * 1e-6
            else:
                total = s if point.coll == "bcast" else s * nprocs
                e = after = SPEED[a] * total * 1e-9 / senders
            rows.append(f"{point.coll},{a},{s},{point.pattern},{nprocs},0,2,2,{e},{e},{e},{e},{after},{e},0,1e-3,8e-3,"
                        "0,0,0,0,1e-5,-")
    return "#@simulated=yes\n#@smpi_settings=fake; platform x\n" + HEADER + "\n" + "\n".join(rows) + "\n"


class Stand:
    def __init__(self, points):
        self.calls, self.points = [], points

    def __call__(self, spec, np=None, baseline=None, bench=None, bench_args=(), env=None, timeout=None):
        point = next(p for p in self.points if p.spec == spec and tuple(p.bench_argv()) == tuple(bench_args)
                     and all(env.get(k) == v for k, v in p.env))
        self.calls.append(point)
        return run.Outcome(0, fake_output(point), "", 1.0, 1024, 1.0, 1024)


class Base(unittest.TestCase):
    mod = None

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def run_tiers(self, budget):
        stand = Stand(self.mod.all_points())
        with mock.patch.object(run, "simulate", stand), open(os.devnull, "w") as log:
            out = self.mod.run_tiers(self.dir, budget=budget, log=log)
        return (stand,) + out


class AlltoallTest(Base):
    mod = a2a

    def test_points(self):
        pts = a2a.all_points()
        self.assertEqual(len(pts), len({p.key for p in pts}))
        for p in pts:
            self.assertEqual(p.bench_argv()[0], "--coll=alltoall")
            self.assertEqual(dict(p.env), {"PAPCOLL_ALLTOALL_INTER": "isend"})
        first = a2a.tier_points()[0][1]
        self.assertEqual([p.algo for p in first], ["hier,aware,aware_barrier,native", "isend"] * 6)
        self.assertEqual([p.pattern for p in first[::2]], [f"microbench:{x}" for x in a2a.ORDER])
        self.assertEqual(sweep_config.range_sizes(first[0].size), [4, 16, 64, 256])
        self.assertEqual((first[-1].iters, first[-1].warmup, sweep_config.range_sizes(first[-1].size)), (1, 0, [16, 256]))

    def test_budget(self):
        stand, _, skipped, failures = self.run_tiers(0)
        self.assertEqual((stand.calls, len(skipped), failures), ([], len(a2a.TIERS), []))

    def test_tables(self):
        stand, merged, skipped, failures = self.run_tiers(1e9)
        self.assertEqual((len(stand.calls), skipped, failures), (len(a2a.all_points()), [], []))
        res = a2a.load(merged)
        sp = a2a.speedups(res, 512, 0, a2a.COLUMNS)
        self.assertEqual(sp["aware"], (4.0, 12))
        self.assertEqual(a2a.speedups(res, 512, 1, ["aware"])["aware"], (10.0, 12))
        table = a2a.table_3_8_markdown(res)
        # 512: every point; 2048: isend at 64 B, levels 0 and 10k only
        self.assertIn("| 512 | 2.00 (12) | 4.00 (12) | 2.00 (12) | 0.50 (12) | 2.00 (12) | 10.00 (12) | 2.50 (12) | "
                      "0.50 (12) | 1.50 | 2.80 |", table)
        self.assertIn("| 2048 | 2.00 (2) | 4.00 (2) |", table)
        with open(a2a.write(self.dir, os.path.join(self.dir, "x.md"), "cmd")) as f:
            text = f.read()
        self.assertIn("- **512 cores** (12 points): `aware` 4.00x Isend on e_bar (thesis 2.80x)", text)
        self.assertIn("| 2048 ranks, isend at 64 B, levels 0, 10k | 2 of 2 |", text)
        for name in ("fig3_24.png", "fig3_25.png", "fig3_26.png"):
            self.assertTrue(os.path.getsize(os.path.join(self.dir, name)) > 0, name)


class Chapter2Test(Base):
    mod = ch2

    def test_points(self):
        pts = ch2.all_points()
        self.assertEqual(len(pts), len({p.key for p in pts}))
        first = ch2.tier_points()[0][1]
        ag = next(p for p in first if p.algo == "bruck,hier,multisender_bruck")
        self.assertEqual(dict(ag.env), {"PAPCOLL_ALLGATHER_INTER": "bruck"})
        self.assertEqual(sweep_config.range_sizes(ag.size), [64, 256, 1024, 4096])  # 32 KiB .. 2 MiB / 512
        bc = next(p for p in first if p.coll == "bcast")
        self.assertEqual((bc.algo, sweep_config.range_sizes(bc.size)[-1]), ("binomial,hier", 2 << 20))
        big = ch2.tier_points()[3][1]
        self.assertFalse({"ring", "isend", "pairwise"} & {p.algo.split(",")[0] for p in big})

    def test_tables(self):
        stand, merged, skipped, failures = self.run_tiers(1e9)
        self.assertEqual((len(stand.calls), skipped, failures), (len(ch2.all_points()), [], []))
        res = ch2.load(merged)
        t = ch2.tables_markdown(res, 512)
        self.assertIn("| Allgather-Small (`bruck` / `hier` / `multisender_bruck`) | 8.00 / 8.00 (4) | 20.3 / 31.4 | "
                      "2.00 / 2.00 (4) | 1.4 / 2.1 |", t)
        self.assertIn("| Broadcast (`binomial` / `hier` / `-`) | 2.00 / 2.00 (4) | 1.1 / 1.1 | not built |", t)
        self.assertIn("| Reduce-Scatter (`pairwise` / `hier` / `multisender`) | 40.00 / 40.00 (4) |", t)
        senders = ch2.senders_markdown(res)
        # 128 KiB at 512 ranks with 4 senders: 0.5 x 131072 x 1e-9 / 4 s = 16.4 us
        self.assertIn("| Reduce-Scatter `multisender` | 4 | 16.4 | 65.5 |", senders)
        with open(ch2.write(self.dir, os.path.join(self.dir, "x.md"), "cmd")) as f:
            text = f.read()
        self.assertIn("## Tables 2.1 and 2.2 at 1024 cores", text)
        for name in ("fig2_4.png", "fig2_5.png", "fig2_7.png", "fig2_10.png"):
            self.assertTrue(os.path.getsize(os.path.join(self.dir, name)) > 0, name)


if __name__ == "__main__":
    unittest.main()
