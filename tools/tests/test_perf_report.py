# SPDX-License-Identifier: BSD-3-Clause
"""papcoll perf report: one table per collective and size, SMPI baselines named by the collective their
run measured (``baseline SMPI <coll> NAME``), papcoll's own native rows dropped, --coll keeps one."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools import perf_report  # noqa: E402

HEADER = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,"
          "delta_bar,omega,if_avg,if_worst,bound,ratio,T,check")


def bench_csv(coll, rows, baseline=None):
    """A papcoll-bench CSV of COLL with rows (algo, pattern, e_bar us[, after_last us]) at 1 MiB on 64 ranks."""
    settings = "--cfg=smpi/simulate-computation:no; platform cluster:8x8: c"
    if baseline:
        settings += f"; baseline SMPI {coll} {baseline} (reported as algo native)"
    lines = ["#@simulated=yes: SimGrid SMPI, times are simulated", f"#@coll={coll}", f"#@smpi_settings={settings}", HEADER]
    for algo, pattern, us, *after in rows:
        e = f"{us}e-6"
        a = f"{after[0]}e-6" if after else e
        lines.append(f"{coll},{algo},1048576,{pattern},64,0,3,3,{e},{e},{e},{e},{a},{e},{e},0,0,0,0,{e},1,{e},-")
    return "\n".join(lines) + "\n"


class PerfReportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        files = {
            "reduce_papcoll.csv": bench_csv("reduce", [("binomial", "balanced", 100), ("auto", "balanced", 90),
                                                       ("native", "balanced", 5), ("binomial", "uniform:8", 300),
                                                       ("auto", "uniform:8", 200)]),
            "reduce_smpi-rab.csv": bench_csv("reduce", [("native", "balanced", 120), ("native", "uniform:8", 400)], "rab"),
            "allreduce_smpi-rdb.csv": bench_csv("allreduce", [("native", "balanced", 80)], "rdb"),
            "allreduce_papcoll.csv": bench_csv("allreduce", [("ring", "balanced", 40)]),
            "bcast_smpi-mpich.csv": bench_csv("bcast", [("native", "balanced", 50)], "mpich"),
            "bcast_papcoll.csv": bench_csv("bcast", [("binomial", "balanced", 60)]),
        }
        self.paths = []
        for name, text in files.items():
            path = os.path.join(self.dir.name, name)
            with open(path, "w") as f:
                f.write(text)
            self.paths.append(path)

    def tearDown(self):
        self.dir.cleanup()

    def test_tables_per_collective(self):
        table, _, p = perf_report.read(self.paths)
        self.assertEqual(p, 64)
        self.assertEqual(table[("reduce", 1048576, "balanced")], {"binomial": 100e-6, "auto": 90e-6, "smpi:rab": 120e-6})
        self.assertEqual(table[("allreduce", 1048576, "balanced")], {"ring": 40e-6, "smpi:rdb": 80e-6})
        self.assertEqual(table[("bcast", 1048576, "balanced")], {"binomial": 60e-6, "smpi:mpich": 50e-6})
        text = perf_report.markdown(table, {}, p)
        heads = [line for line in text.splitlines() if line.startswith("### ")]
        self.assertEqual(heads, ["### broadcast, 1 MiB", "### reduce, 1 MiB", "### allreduce, 1 MiB"])
        self.assertIn("| **best SMPI reduce** | smpi:rab 120.0 | smpi:rab 400.0 |", text)
        self.assertIn("| **auto / best SMPI** | 0.75 | 0.50 |", text)  # reduce: 90/120, 200/400
        self.assertIn("| **best SMPI allreduce** | smpi:rdb 80.0 |", text)

    def test_one_collective(self):
        table, _, _ = perf_report.read(self.paths, "reduce")
        self.assertEqual({c for c, _, _ in table}, {"reduce"})
        out = os.path.join(self.dir.name, "out")
        perf_report.main([*self.paths, "-o", out, "--coll=allreduce"])
        with open(os.path.join(out, "perf.md")) as f:
            text = f.read()
        self.assertIn("### allreduce, 1 MiB", text)
        self.assertNotIn("### reduce", text)
        self.assertTrue(os.path.exists(os.path.join(out, "perf_allreduce_1048576.png")))

    def test_after_last(self):
        """--metric=after_last: the time from the last arrival (a barrier's measure), not e_bar."""
        paths = []
        for name, text in {"b_papcoll.csv": bench_csv("barrier", [("hier", "balanced", 30, 12)]),
                           "b_smpi.csv": bench_csv("barrier", [("native", "balanced", 20, 24)], "ompi_bruck")}.items():
            paths.append(os.path.join(self.dir.name, name))
            with open(paths[-1], "w") as f:
                f.write(text)
        self.assertEqual(perf_report.read(paths, "barrier")[0][("barrier", 1048576, "balanced")],
                         {"hier": 30e-6, "smpi:ompi_bruck": 20e-6})
        table, _, p = perf_report.read(paths, "barrier", "after_last")
        self.assertEqual(table[("barrier", 1048576, "balanced")], {"hier": 12e-6, "smpi:ompi_bruck": 24e-6})
        text = perf_report.markdown(table, {}, p, "after_last")
        self.assertIn("after_last in microseconds", text)
        self.assertIn("| **best papcoll / best SMPI** | 0.50 |", text)


if __name__ == "__main__":
    unittest.main()
