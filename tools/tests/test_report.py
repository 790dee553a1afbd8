# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim report and the SMPI bcast exercise reproduction's output: figures are written, every axis is
labelled and says the numbers are simulated; tables are there (from synthetic sweep results, no
simulation)."""
import csv
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
try:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from papcoll_tools import report
    from papcoll_tools.repro import smpi_bcast_exercise as smpi_ex
    from papcoll_tools.sim import sweep
except ImportError:  # pragma: no cover
    report = None

BENCH_COLS = ["coll", "algo", "size", "pattern", "p", "ppn", "reps", "valid_reps", "e_bar", "e_bar_lo", "e_bar_hi", "g",
              "after_last", "delta_bar", "omega", "if_avg", "if_worst", "bound", "ratio", "T", "check"]
SETTINGS = "--cfg=smpi/simulate-computation:no --cfg=smpi/bcast:binomial_tree; platform {}: a platform"


class SavedFigures:
    """Records, for every figure saved, its file name and each axes' (xlabel, ylabel, title) (+ suptitle)."""

    def __init__(self):
        self.saved = []
        self._save = Figure.savefig

    def __enter__(self):
        outer = self

        def savefig(fig, path, *a, **k):
            sup = fig._suptitle.get_text() if fig._suptitle else ""
            outer.saved.append((str(path), [(ax.get_xlabel(), ax.get_ylabel(), ax.get_title() + " " + sup)
                                            for ax in fig.axes]))
            return outer._save(fig, path, *a, **k)
        self.patch = mock.patch.object(Figure, "savefig", savefig)
        self.patch.start()
        return self

    def __exit__(self, *exc):
        self.patch.stop()


def write_sweep(path, rows):
    cols = ["sweep", "point", "platform", "np", "algo", "iters", "warmup", "seed", "bench_args", "lat",
            "PAPCOLL_BCAST_CHUNKS", "PAPCOLL_MAX_INFLIGHT"] + [c for c in BENCH_COLS if c != "algo"] + sweep.MEASURED
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, restval="")
        w.writeheader()
        w.writerows(rows)


def row(platform, algo, size, pattern, e, chunks="", lat="1.5us", p=16, inflight=""):
    return {"sweep": "t", "point": f"{platform}-{algo}-{size}-{pattern}-{chunks}-{lat}-{inflight}", "platform": platform, "np": 0,
            "algo": algo, "iters": 1, "warmup": 1, "seed": 1, "bench_args": "", "lat": lat,
            "PAPCOLL_BCAST_CHUNKS": chunks, "PAPCOLL_MAX_INFLIGHT": inflight, "coll": "bcast", "size": size, "pattern": pattern, "p": p, "ppn": 0,
            "reps": 1, "valid_reps": 1, "e_bar": e, "e_bar_lo": e, "e_bar_hi": e, "g": 2 * e, "after_last": e,
            "delta_bar": 0, "omega": 0, "if_avg": 0, "if_worst": 0, "bound": e / 2, "ratio": 2, "T": e, "check": "-",
            "wall_s": 0.5, "cpu_s": 0.4, "maxrss_mb": 30.0, "pss_mb": 20.0, "smpi_settings": SETTINGS.format(platform)}


@unittest.skipIf(report is None, "matplotlib not installed (make deps installs it)")
class ReportTest(unittest.TestCase):
    def assert_labelled(self, saved, n_min):
        self.assertGreaterEqual(len(saved), n_min)
        for path, axes in saved:
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)
            self.assertTrue(axes, path)
            for xlabel, ylabel, title in axes:
                self.assertTrue(xlabel.strip() and ylabel.strip(), f"{path}: unlabelled axis")
                self.assertIn("simulated", (ylabel + title).lower(), path)

    def test_sweep_report(self):
        rows = []
        for lat in ("10us",):
            for algo, k in (("binomial", 1.0), ("chain_pipelined_isend", 0.7), ("smpi:mpich", 1.3)):
                for size in (65536, 1048576):
                    for level in (0, 4, 16):
                        pattern = "balanced" if level == 0 else f"uniform:{level}"
                        rows.append(row("cluster:4x4", algo, size, pattern, k * (1 + level / 8) * size * 1e-9, lat=lat))
        with tempfile.TemporaryDirectory() as d, SavedFigures() as figs:
            path = os.path.join(d, "sweep.csv")
            write_sweep(path, rows)
            md = report.write(path, os.path.join(d, "report"))
            with open(md) as f:
                text = f.read()
            self.assert_labelled(figs.saved, 3 + 2)  # e_bar vs size: 3 patterns; vs pattern level: 2 sizes
            for fname, _ in figs.saved:
                self.assertIn(f"]({os.path.basename(fname)})", text)
        self.assertIn("simulated", text.lower())
        self.assertIn("| algorithm | balanced, 64K |", text)
        self.assertIn("lat=10us", text)
        self.assertIn("Every run: `--cfg=smpi/simulate-computation:no`", text)

    def test_collectives_kept_apart(self):
        """A sweep of reduce and allreduce points: one table per collective (coll is a setting), never one
        algorithm's reduce and allreduce times in the same cell."""
        rows = []
        for coll, k in (("reduce", 1.0), ("allreduce", 2.0)):
            for algo in ("native", "hier"):
                for size in (65536, 1048576):
                    r = row("cluster:4x4", algo, size, "balanced", k * size * 1e-9)
                    r["coll"], r["point"] = coll, r["point"] + coll
                    rows.append(r)
        with tempfile.TemporaryDirectory() as d, SavedFigures():
            path = os.path.join(d, "sweep.csv")
            write_sweep(path, rows)
            with open(report.write(path, os.path.join(d, "report"))) as f:
                text = f.read()
        self.assertIn("### coll=allreduce", text)
        self.assertIn("### coll=reduce", text)
        tables = {t.split("\n")[0]: t.split("## Figures")[0].replace("**", "") for t in text.split("### ")[1:]}
        self.assertIn("| native | 65.5 | 1048.6 |", tables["coll=reduce"])
        self.assertIn("| native | 131.1 | 2097.2 |", tables["coll=allreduce"])
        self.assertNotIn("131.1", tables["coll=reduce"])

    def test_smpi_bcast_exercise_output(self):
        rows = []
        for name, spec in smpi_ex.PLATFORMS.items():
            p = int(name.split("_")[1])
            rows.append(row(spec, smpi_ex.BASELINE, smpi_ex.SIZE, "balanced", 1.0, p=p))
            for algo in ("linear", "chain", "chain_pipelined", "chain_pipelined_isend", "bintree_pipelined"):
                for c in smpi_ex.CHUNKS:
                    t = smpi_ex.model_time(p, c) / 2  # g = 2 e_bar in row()
                    for n in (smpi_ex.INFLIGHT if algo in smpi_ex.ISEND else [""]):
                        rows.append(row(spec, algo, smpi_ex.SIZE, "balanced", t, chunks=str(c), p=p, inflight=str(n)))
                rows.append(row(spec, algo, smpi_ex.SIZE, "balanced", 3.0, p=p))
        with tempfile.TemporaryDirectory() as d, SavedFigures() as figs:
            out = os.path.join(d, "smpi_bcast_exercise")
            os.makedirs(os.path.join(out, "sweep"))
            write_sweep(os.path.join(out, "sweep", "sweep.csv"), rows)
            md = smpi_ex.write(out, out + ".md", 12.0, "cmd")
            with open(md) as f:
                text = f.read()
            self.assert_labelled(figs.saved, 2)
            self.assertEqual(sorted(os.path.basename(p) for p, _ in figs.saved), ["chunks_other.png", "chunks_ring.png"])
        self.assertIn("(smpi_bcast_exercise/chunks_ring.png)", text)
        self.assertIn("| bcast_naive | 6.000 | 9.859 |", text)
        # the model's own times: the measured best of the seven counts is the one nearest r*
        self.assertIn("| ring_100 | 626 | 20.0 | 0.800 | 626 | 500 ", text)
        self.assertIn("| ring_25 | ring_pipelined_isend | ours, 8 in flight |", text)
        self.assertIn("## Comparison with the paper", text)

    def test_model(self):
        self.assertAlmostEqual(smpi_ex.model_best(100), 626.1, places=1)
        a, b = smpi_ex.fit_alpha_beta([(r, smpi_ex.model_time(50, r, 3e-5, 1e-9)) for r in (1, 10, 100)], 50)
        self.assertAlmostEqual(a, 3e-5)
        self.assertAlmostEqual(b, 1e-9)


if __name__ == "__main__":
    unittest.main()
