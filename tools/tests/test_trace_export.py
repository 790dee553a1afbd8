# SPDX-License-Identifier: BSD-3-Clause
"""papcoll trace export on synthetic runs (papcoll_tools/trace/synthetic.py, a perfect clock): the Chrome JSON's
events, times and args, virtual nodes from a recorded papcoll_ppn, and the lanes of a rank whose calls overlap
(several threads), in the JSON and, when the OTF2 binding and otf2-print are there, in the OTF2 archive.  The
end-to-end checks against a real trace are tests/trace/check_export.py (ctest interpose.trace.export.*)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
try:
    import numpy  # noqa: F401
    from papcoll_tools import cli
    from papcoll_tools.trace import export as texport, synthetic
except ImportError:  # pragma: no cover
    texport = None

T_START = synthetic.T0 + 100_000_000  # ns: call k starts at T_START + k ms (synthetic.py)


def load(path):
    with open(path) as f:
        return json.load(f)


@unittest.skipIf(texport is None, "numpy missing")
class TraceExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def run_dir(self, calls, np_=4, ppn=None):
        d = synthetic.write_run(os.path.join(self.tmp.name, "papcoll-trace-x"), np_, calls)
        if ppn is not None:
            h = load(os.path.join(d, "header.json"))
            h["papcoll_ppn"] = ppn
            with open(os.path.join(d, "header.json"), "w") as f:
                json.dump(h, f)
        return d

    def export(self, d, fmt, *extra):
        out = os.path.join(self.tmp.name, "trace.json" if fmt == "chrome" else "otf2")
        self.assertEqual(cli.main(["trace", "export", d, f"--format={fmt}", "-o", out, "--addr2line", "", *extra]), 0)
        return out

    def test_chrome_events(self):
        d = self.run_dir([(1, "bcast", 2, 64, [0, 10, 20, 30], [40, 41, 42, 31]),
                          (2, "allreduce", None, 8, [0, 0, 40, 40], [50, 50, 50, 60])], ppn=2)
        doc = load(self.export(d, "chrome"))
        xs = [e for e in doc["traceEvents"] if e["ph"] == "X"]
        self.assertEqual(len(xs), 8)
        origin = doc["otherData"]["origin_ns"]
        self.assertEqual(origin, synthetic.T0)  # rank 0's time at the first synchronization
        b3 = next(e for e in xs if e["name"] == "MPI_Bcast" and e["tid"] == 3)
        self.assertEqual((b3["pid"], b3["cat"], b3["args"]["root"], b3["args"]["bytes"], b3["args"]["comm_size"]),
                         (1, "MPI collective", 2, 64, 4))  # rank 3 on virtual node 1 (PAPCOLL_PPN=2)
        self.assertAlmostEqual(b3["ts"], (T_START - origin) / 1000 + 30, places=6)
        self.assertAlmostEqual(b3["dur"], 1.0, places=6)
        self.assertEqual(b3["args"]["arrival_ns"], T_START + 30_000)
        self.assertEqual(b3["args"]["call_site"], "fn1+0xfff (libapp.so)")
        a2 = next(e for e in xs if e["name"] == "MPI_Allreduce" and e["tid"] == 2)
        self.assertEqual(a2["args"]["root"], -2147483648)
        self.assertAlmostEqual(a2["ts"], (T_START + 1_000_000 - origin) / 1000 + 40, places=6)
        names = {(e["pid"], e["tid"]): e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
        self.assertEqual(names[(1, 3)], "rank 3")
        procs = [e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "process_name"]
        self.assertEqual(procs[1], "virtual node 1 (ranks 2-3, PAPCOLL_PPN=2, h)")
        # --ppn 0: the recorded nodes (one)
        doc = load(self.export(d, "chrome", "--ppn", "0"))
        self.assertEqual({e["pid"] for e in doc["traceEvents"] if e["ph"] == "X"}, {0})

    def overlapping(self):
        # call 0 on rank 0 lasts 1.5 ms: it overlaps call 1, which starts 1 ms later (two threads of rank 0)
        return self.run_dir([(1, "bcast", 0, 8, [0, 0], [1500, 10]), (2, "bcast", 0, 8, [0, 0], [10, 10])], np_=2)

    def test_chrome_lanes(self):
        doc = load(self.export(self.overlapping(), "chrome"))
        xs = sorted((e for e in doc["traceEvents"] if e["ph"] == "X"), key=lambda e: (e["tid"], e["ts"]))
        self.assertEqual([e["tid"] for e in xs], [0, 1, 1, 2])  # rank 0's second call: lane 1, tid 0 + 1 x 2
        by_tid = {}
        for e in xs:
            by_tid.setdefault(e["tid"], []).append(e)
        for evs in by_tid.values():  # nesting per tid: here, no two overlap
            for a, b in zip(evs, evs[1:]):
                self.assertLessEqual(a["ts"] + a["dur"], b["ts"])
        names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
        self.assertTrue(names[2].startswith("rank 0 lane 1"))

    @unittest.skipUnless(texport is not None and shutil.which("otf2-print") and
                         (texport.have_otf2_here() or texport.otf2_python()), "no otf2-print or OTF2 Python binding")
    def test_otf2_lanes(self):
        archive = os.path.join(self.export(self.overlapping(), "otf2"), "traces.otf2")
        defs = subprocess.run(["otf2-print", "-G", archive], capture_output=True, text=True, check=True).stdout
        self.assertEqual(defs.count('Group: "MPI Rank 0"'), 2, defs)  # Master thread and lane 1
        events = subprocess.run(["otf2-print", archive], capture_output=True, text=True, check=True).stdout
        self.assertEqual(sum(1 for line in events.splitlines() if line.startswith("ENTER")), 4)
        self.assertEqual(sum(1 for line in events.splitlines() if line.startswith("MPI_COLLECTIVE_END")), 4)


if __name__ == "__main__":
    unittest.main()
