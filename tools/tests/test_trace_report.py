# SPDX-License-Identifier: BSD-3-Clause
"""papcoll trace report on a synthetic run directory written here (trace/format.h), whose numbers are known by
construction: the clock conversion (offsets and linear drift between the two synchronizations), matching calls
across ranks, Parsons 2015's delta_bar and omega, Scalasca's wait states, the intra-/inter-node split, the per-site
aggregates, the Markdown tables and the figures."""
import csv
import json
import os
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
try:
    import numpy as np  # noqa: F401
    import matplotlib  # noqa: F401
    from papcoll_tools.trace import metrics, report
    from papcoll_tools.trace.reader import Run
    from papcoll_tools import cli
except ImportError:  # pragma: no cover
    report = None

COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",
         "gather", "gatherv", "scatter", "scatterv", "reduce_scatter", "reduce_scatter_block", "scan", "exscan"]
NONE = -2147483648
NP = 4
# rank r's clock: local = global - offset(global); offset drifts linearly from O0 to O1 over the run
O0 = [0, 5000, -7000, 123000]      # ns at global time T0
O1 = [0, 6000, -9000, 120000]      # ns at global time T1
T0, T1 = 1_000_000_000, 2_000_000_000
SITE = {1: 0x1000, 2: 0x2000, 3: 0x3000, 4: 0x4000}  # per call kind: a fake return address


def offset_at(r, g):
    return O0[r] + (O1[r] - O0[r]) * (g - T0) / (T1 - T0)


def local(r, g):
    """The local time whose synchronized time is g (the offset is linear in local time to first order;
    drifts here are a few ppm, so one fixed-point step is exact to well under a nanosecond)."""
    t = g - offset_at(r, g)
    return t


# (kind, coll, nonblocking, root, arrivals us per rank, exits us per rank)
CALLS = [
    (1, "bcast", False, 3, [0, 10, 20, 30], [40, 41, 42, 31]),
    (1, "bcast", False, 3, [0, 0, 0, 0], [5, 5, 5, 5]),
    (2, "allreduce", False, NONE, [0, 0, 40, 40], [50, 50, 50, 60]),
    (3, "reduce", False, 0, [0, 5, 7, 9], [20, 6, 8, 10]),
    (4, "bcast", True, 0, [0, 100, 0, 100], [1, 101, 1, 101]),
]


def write_run(d):
    syncs = []
    for when, g in (("init", T0), ("finalize", T1)):
        tl = [int(round(local(r, g))) for r in range(NP)]
        syncs.append({"when": when, "t_local": tl, "offset": [int(round(g - tl[r])) for r in range(NP)],
                      "error": [0, 300, 400, 500]})
    header = {"format": "papcoll-trace", "version": 1, "complete": True, "program": "/bin/synthetic",
              "mpi_library": "synthetic MPI", "world_size": NP, "record_size": 48, "collectives": COLLS,
              "flags": {"nonblocking": 1, "fortran": 2, "error": 4, "after_spill": 8},
              "root_codes": {"none": NONE, "mpi_root": -1, "mpi_proc_null": -2}, "hosts": ["a", "a", "b", "b"],
              "node_of_rank": [0, 0, 2, 2],
              "clock": {"source": "CLOCK_MONOTONIC", "unit": "ns", "method": "synthetic", "rounds": 1,
                        "test_skew": "", "sync": syncs},
              "records": [len(CALLS)] * NP, "spills": [0] * NP, "ranks_ok": [True] * NP}
    with open(os.path.join(d, "header.json"), "w") as f:
        json.dump(header, f)
    base = T0 + 100_000_000  # the calls happen 0.1 s into the run, 0.1 ms apart
    for r in range(NP):
        with open(os.path.join(d, f"rank-{r}.bin"), "wb") as f:
            f.write(struct.pack("<8sIIIiiI", b"PCTRACE\0", 1, 32, 48, r, NP, 0))
            for seq, (kind, coll, nb, root, a, x) in enumerate(CALLS):
                start = base + seq * 100_000
                f.write(struct.pack("<qqQQIIiHH", int(round(local(r, start + a[r] * 1000))),
                                    int(round(local(r, start + x[r] * 1000))), SITE[kind] + r * 0x100000, 64, 0, seq,
                                    root, COLLS.index(coll), 1 if nb else 0))
        with open(os.path.join(d, f"rank-{r}.comms"), "w") as f:
            f.write("0 00000000deadbeef 0 0 4 0 : 0 1 2 3\n")
        with open(os.path.join(d, f"rank-{r}.sites"), "w") as f:
            for kind, address in SITE.items():
                f.write(f"{address + r * 0x100000:#x} {r * 0x100000:#x} fn{kind} /nonexistent/libapp.so\n")


@unittest.skipIf(report is None, "numpy or matplotlib missing")
class TraceReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run_dir = os.path.join(self.tmp.name, "papcoll-trace-synthetic")
        os.makedirs(self.run_dir)
        write_run(self.run_dir)

    def tearDown(self):
        self.tmp.cleanup()

    def test_newest_run_by_default(self):
        """Without RUN_DIR the report takes the newest papcoll-trace-* of $PAPCOLL_TRACE_DIR (two runs there)."""
        os.makedirs(os.path.join(self.tmp.name, "papcoll-trace-20260101-000000-1"))  # older, empty: would fail
        newer = os.path.join(self.tmp.name, "papcoll-trace-20991231-235959-7")
        os.rename(self.run_dir, newer)
        self.assertEqual(cli.newest_trace_run(self.tmp.name), newer)
        out = os.path.join(self.tmp.name, "out")
        old_env = os.environ.get("PAPCOLL_TRACE_DIR")
        os.environ["PAPCOLL_TRACE_DIR"] = self.tmp.name
        try:
            self.assertEqual(cli.main(["trace", "report", "-o", out, "--addr2line", "", "--no-figures"]), 0)
        finally:
            if old_env is None:
                del os.environ["PAPCOLL_TRACE_DIR"]
            else:
                os.environ["PAPCOLL_TRACE_DIR"] = old_env
        self.assertTrue(os.path.exists(os.path.join(out, "report.md")))
        with self.assertRaises(SystemExit):
            cli.newest_trace_run(os.path.join(self.tmp.name, "out"))
        self.run_dir = newer

    def test_clock_and_matching(self):
        calls = Run(self.run_dir).calls()
        self.assertEqual(len(calls), len(CALLS))
        by_seq = {c.seq: c for c in calls}
        for seq, (kind, coll, nb, root, a, x) in enumerate(CALLS):
            c = by_seq[seq]
            self.assertEqual(c.coll, ("i" + coll) if nb else coll)
            start = T0 + 100_000_000 + seq * 100_000
            for i, r in enumerate(c.ranks):
                self.assertAlmostEqual(c.arrive[i], start + a[r] * 1000, delta=2.0)  # ns, rounding only
                self.assertAlmostEqual(c.exit[i], start + x[r] * 1000, delta=2.0)

    def test_metrics_by_definition(self):
        self.assertEqual(metrics.imbalance([0, 10, 20, 30]), (10.0, 30.0))
        ranks = np.arange(4)
        self.assertEqual(metrics.waits("bcast", [0, 10, 20, 30], [40, 41, 42, 31], ranks, 3)["Late Broadcast"], 60.0)
        self.assertEqual(metrics.waits("reduce", [0, 5, 7, 9], [20, 6, 8, 10], ranks, 0)["Early Reduce"], 5.0)
        w = metrics.waits("allreduce", [0, 0, 40, 40], [50, 50, 50, 60], ranks, NONE)
        self.assertEqual((w["Wait at N x N"], w["N x N Completion"], w["after last arrival"]), (80.0, 10.0, 50.0))
        self.assertEqual(metrics.waits("scan", [5, 0, 10, 1], [0, 0, 0, 0], ranks, NONE)["Early Scan"], 5 + 9)
        s = metrics.node_split([0, 0, 40, 40], [0, 0, 2, 2])
        self.assertEqual((s["intra_delta_bar"], s["inter_delta_bar"], s["inter_omega"], s["intra_share"]),
                         (0.0, 20.0, 40.0, 0.0))
        s = metrics.node_split([0, 10, 20, 30], [0, 0, 2, 2])
        self.assertEqual((s["intra_delta_bar"], s["intra_omega"], s["first_omega"], s["last_omega"]),
                         (5.0, 10.0, 20.0, 20.0))
        self.assertAlmostEqual(s["intra_share"], 100 / 500)

    def test_report(self):
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(cli.main(["trace", "report", self.run_dir, "-o", out, "--addr2line", ""]), 0)
        with open(os.path.join(out, "sites.csv")) as f:
            rows = {(r["site"], r["collective"]): r for r in csv.DictReader(f)}
        bcast = rows[("fn1+0xfff (libapp.so)", "bcast")]
        self.assertEqual(int(bcast["calls"]), 2)
        self.assertAlmostEqual(float(bcast["delta_bar_mean_us"]), 5.0, places=2)  # (10 + 0) / 2
        self.assertAlmostEqual(float(bcast["delta_bar_max_us"]), 10.0, places=2)
        self.assertAlmostEqual(float(bcast["omega_mean_us"]), 15.0, places=2)
        self.assertAlmostEqual(float(bcast["Late_Broadcast_us"]), 60.0, places=2)
        allreduce = rows[("fn2+0x1fff (libapp.so)", "allreduce")]
        self.assertAlmostEqual(float(allreduce["Wait_at_N_x_N_us"]), 80.0, places=2)
        self.assertAlmostEqual(float(allreduce["N_x_N_Completion_us"]), 10.0, places=2)
        self.assertAlmostEqual(float(allreduce["inter_omega_mean_us"]), 40.0, places=2)
        self.assertAlmostEqual(float(rows[("fn3+0x2fff (libapp.so)", "reduce")]["Early_Reduce_us"]), 5.0, places=2)
        ibcast = rows[("fn4+0x3fff (libapp.so)", "ibcast")]
        self.assertEqual(ibcast["Late_Broadcast_us"], "")  # nonblocking posts: no wait states
        self.assertAlmostEqual(float(ibcast["omega_max_us"]), 100.0, places=2)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("| fn1+0xfff (libapp.so) | bcast | 2 | 64 | 5.00 | 10.00 | 15.00 | 30.00 |", md)
        # intra-node table: nodes, intra delta_bar / omega, inter delta_bar / omega, first / last omega, intra share
        self.assertIn("| fn2+0x1fff (libapp.so) | allreduce | 2 | 0.00 | 0.00 | 20.00 | 40.00 | 40.00 | 40.00 | 0.00 |",
                      md)
        self.assertIn("| **total** | - | 5 | 60.00 | 5.00 | 80.00 | 10.00 | 50.00 |", md)
        self.assertIn("Imbalance factors", md)
        for png in ("arrival_histogram.png", "arrival_heatmap.png"):
            self.assertGreater(os.path.getsize(os.path.join(out, png)), 1000)
        # the clock section states the residual: the largest Cristian bound, 0.5 us
        self.assertIn("max 0.50 us", md)

    def test_stragglers(self):
        """stragglers.csv by hand from CALLS (nodes 0,0,2,2): equal arrivals go to the later communicator rank, so
        rank 3 is last in all five calls, gaps 10, 0, 0, 2, 0 us, latenesses 15, 0, 20, 3.75, 50 us."""
        from papcoll_tools.trace import synthetic  # a perfect clock: equal arrivals stay equal
        run_dir = synthetic.write_run(os.path.join(self.tmp.name, "papcoll-trace-stragglers"), NP,
                                      [(kind, coll, None if root == NONE else root, 64, a, x)
                                       for kind, coll, _nb, root, a, x in CALLS])  # the ibcast as a bcast
        path = os.path.join(run_dir, "header.json")
        with open(path) as f:
            header = json.load(f)
        header["node_of_rank"] = [0, 0, 2, 2]
        with open(path, "w") as f:
            json.dump(header, f)
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(cli.main(["trace", "report", run_dir, "-o", out, "--addr2line", "", "--no-figures"]), 0)
        with open(os.path.join(out, "stragglers.csv")) as f:
            rows = list(csv.DictReader(f))
        ranks = {int(r["rank"]): r for r in rows if r["scope"] == "rank"}
        nodes = {int(r["node"]): r for r in rows if r["scope"] == "node"}
        r3, r1 = ranks[3], ranks[1]
        self.assertEqual((int(r3["calls"]), int(r3["last"]), float(r3["last_share"])), (5, 5, 1.0))
        self.assertAlmostEqual(float(r3["expected_share"]), 0.25)
        self.assertAlmostEqual(float(r3["gap_mean_us"]), 2.4, places=3)
        self.assertAlmostEqual(float(r3["gap_max_us"]), 10.0, places=3)
        self.assertAlmostEqual(float(r3["last_lateness_mean_us"]), 17.75, places=3)
        self.assertAlmostEqual(float(r3["lateness_mean_us"]), 17.75, places=3)
        self.assertEqual((int(r1["last"]), r1["gap_mean_us"]), (0, ""))
        self.assertAlmostEqual(float(r1["lateness_mean_us"]), 4.95, places=3)  # (-5 + 0 - 20 - 0.25 + 50) / 5
        self.assertEqual([int(r["rank"]) for r in rows if r["scope"] == "rank"][0], 3)
        self.assertEqual((int(nodes[2]["calls"]), int(nodes[2]["last"]), float(nodes[2]["expected_share"])),
                         (5, 5, 0.5))
        self.assertAlmostEqual(float(nodes[2]["lateness_mean_us"]), 6.55, places=3)  # ranks 2 and 3, 10 arrivals
        self.assertAlmostEqual(float(nodes[0]["lateness_mean_us"]), -6.55, places=3)
        site = [r for r in rows if r["scope"] == "site" and r["site"] == "fn1+0xfff (libapp.so)" and
                r["collective"] == "bcast" and r["rank"] == "3"]
        self.assertEqual((int(site[0]["calls"]), int(site[0]["last"])), (2, 2))
        self.assertAlmostEqual(float(site[0]["gap_mean_us"]), 5.0, places=3)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("## Stragglers: which ranks arrive last", md)
        self.assertIn("| 3 | 2 | 5 | 5 | 100.0% | 25.0% | 2.40 | 10.00 | 17.75 | 17.75 |", md)

    def test_papcoll_ppn_nodes(self):
        """A run whose header records PAPCOLL_PPN=1 is reported on 4 virtual nodes unless --ppn says otherwise."""
        path = os.path.join(self.run_dir, "header.json")
        with open(path) as f:
            header = json.load(f)
        header["papcoll_ppn"] = 1
        with open(path, "w") as f:
            json.dump(header, f)
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(cli.main(["trace", "report", self.run_dir, "-o", out, "--addr2line", "", "--no-figures"]), 0)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("on 4 ranks, 4 virtual nodes of 1 consecutive ranks (PAPCOLL_PPN=1 in the run's environment) "
                      "on 2 nodes (a, b)", md)
        self.assertEqual(cli.main(["trace", "report", self.run_dir, "-o", out, "--addr2line", "", "--no-figures",
                                   "--ppn", "0"]), 0)
        with open(os.path.join(out, "report.md")) as f:
            self.assertIn("on 4 ranks, 2 nodes (a, b)", f.read())


if __name__ == "__main__":
    unittest.main()
