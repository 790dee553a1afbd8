# SPDX-License-Identifier: BSD-3-Clause
"""papcoll-tune turns sweeps into rules that pick the measured winner."""
import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools import tune  # noqa: E402

CSV = """#@papcoll=0.1.0
coll,algo,size,p,reps,avg,max,valid
bcast,native,1024,16,3,0.1,0.1,-
bcast,binomial,1024,16,3,2.0,2,-
bcast,linear,1024,16,3,3.0,3,-
bcast,binomial,2048,16,3,2.0,2,-
bcast,linear,2048,16,3,1.0,1,-
bcast,binomial,4096,16,3,2.0,2,-
bcast,linear,4096,16,3,1.0,1,-
bcast,binomial,1024,64,3,1.0,1,-
bcast,linear,1024,64,3,1.02,1,-
bcast,binomial,2048,64,3,1.0,1,-
bcast,linear,2048,64,3,0.99,1,-
"""


def main_output(argv):
    """What papcoll-tune's main prints for argv."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tune.main(argv)
    return out.getvalue()


class TuneTest(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(fd, "w") as f:
            f.write(CSV)

    def tearDown(self):
        os.unlink(self.path)

    def test_rules(self):
        table = tune.read_sweeps([self.path], "bcast")
        rules = tune.rules_for(table, "bcast", 0.05)
        # native never chosen; p=16 switches at 2K; p=64 keeps binomial within 5%
        self.assertEqual(rules, ["bcast[p<=16,bytes<=1K]=binomial", "bcast[p<=16]=linear", "bcast=binomial"])
        self.assertEqual(tune.rules_for(table, "bcast", 0.0)[-1], "bcast=linear")

    def test_c_format(self):
        lines = main_output(["--format=c", self.path]).splitlines()
        self.assertTrue(lines[0].startswith("/*"))
        self.assertEqual(lines[-1], '"bcast=binomial"')
        self.assertTrue(all(l.endswith(';"') for l in lines[1:-1]))

    def test_imbalanced_patterns(self):
        # balanced: binomial fastest, dynleader within 10%, chain 50% slower;
        # uniform: dynleader 3x better than binomial, chain best but excluded by the balanced tolerance
        rows = ["coll,algo,size,pattern,p,e_bar"]
        for algo, bal, uni in (("binomial", 1.0, 9.0), ("dynleader", 1.08, 3.0), ("chain", 1.5, 2.0)):
            rows += [f"bcast,{algo},1024,balanced,64,{bal}", f"bcast,{algo},1024,uniform:8,64,{uni}"]
        rows.append("bcast,smpi:mpich,1024,uniform:8,64,0.1")  # baselines never chosen
        with open(self.path, "w") as f:
            f.write("\n".join(rows) + "\n")
        self.assertEqual(tune.rules_for(tune.read_sweeps([self.path], "bcast"), "bcast", 0.05), ["bcast=dynleader"])
        self.assertEqual(tune.rules_for(tune.read_sweeps([self.path], "bcast", 0.05), "bcast", 0.05),
                         ["bcast=binomial"])

    def test_balanced_slack_and_auto(self):
        # sub-microsecond balanced times (reductions' e_bar): dynleader is 20% slower balanced but only 0.1 us,
        # and 5x better under imbalance; auto (the rules' own choice) is never a candidate
        rows = ["coll,algo,size,pattern,p,e_bar"]
        for algo, bal, uni in (("hier", 0.5e-6, 100e-6), ("dynleader", 0.6e-6, 20e-6), ("auto", 0.1e-6, 1e-6)):
            rows += [f"reduce,{algo},8,balanced,64,{bal}", f"reduce,{algo},8,uniform:8,64,{uni}"]
        with open(self.path, "w") as f:
            f.write("\n".join(rows) + "\n")
        self.assertEqual(tune.rules_for(tune.read_sweeps([self.path], "reduce"), "reduce", 0.05), ["reduce=hier"])
        self.assertEqual(tune.rules_for(tune.read_sweeps([self.path], "reduce", 0.10, 0.25e-6), "reduce", 0.05),
                         ["reduce=dynleader"])
        self.assertEqual(tune.rules_for(tune.read_sweeps([self.path], "reduce", 0.10, 0.05e-6), "reduce", 0.05),
                         ["reduce=hier"])

    def test_block_collectives_use_whole_vector_bytes(self):
        # the benchmark's size is one block; the rule's bytes are p blocks (what the selector sees)
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("coll,algo,size,pattern,p,e_bar\n"
                    "alltoall,hier,8,balanced,256,1.0\nalltoall,aware,8,balanced,256,2.0\n"
                    "alltoall,hier,64,balanced,256,2.0\nalltoall,aware,64,balanced,256,1.0\n")
        self.addCleanup(os.unlink, f.name)
        rules = tune.rules_for(tune.read_sweeps([f.name], "alltoall"), "alltoall", 0.0)
        self.assertEqual(rules, ["alltoall[bytes<=2K]=hier", "alltoall=aware"])

    def test_regret_over_patterns_and_platforms(self):
        # two platforms, balanced and late each; hier wins balanced everywhere but loses 4x late on torus;
        # dynleader is 1.15x balanced and never worse than that: smallest worst-case regret
        def write(platform, rows):
            f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
            self.addCleanup(os.unlink, f.name)
            f.write(f"#@smpi_settings=--cfg=x; platform {platform}: cluster ...; baseline SMPI bcast mpich (reported as algo native)\n"
                    "coll,algo,size,pattern,p,e_bar\n" + "".join(f"bcast,{a},1024,{pat},64,{t}\n" for a, pat, t in rows))
            f.close()
            return f.name
        files = [write("cluster:8x8", [("hier", "balanced", 1.0), ("dynleader", "balanced", 1.15), ("native", "balanced", 1.2),
                                       ("hier", "late:0.2:64", 2.0), ("dynleader", "late:0.2:64", 1.9),
                                       ("native", "late:0.2:64", 2.5), ("auto", "late:0.2:64", 2.0)]),
                 write("torus:8x8:2,2,2", [("hier", "balanced", 1.0), ("dynleader", "balanced", 1.1),
                                           ("hier", "late:0.2:64", 8.0), ("dynleader", "late:0.2:64", 2.0),
                                           ("native", "late:0.2:64", 2.2)])]
        table = tune.read_sweeps(files, "bcast", criterion="regret")
        self.assertAlmostEqual(table[64][1024]["hier"], 4.0)
        self.assertAlmostEqual(table[64][1024]["dynleader"], 1.15)
        self.assertNotIn("native[mpich]", table[64][1024])  # the library's own: yardstick, never chosen
        self.assertEqual(tune.rules_for(table, "bcast", 0.0), ["bcast=dynleader"])
        # the old criterion keeps hier (dynleader is over 10% slower balanced on the first platform)
        self.assertEqual(tune.rules_for(tune.read_sweeps(files, "bcast"), "bcast", 0.0), ["bcast=hier"])
        # a baseline faster than every papcoll algorithm raises the regret of all of them
        times = tune.read_times(files, "bcast", with_library=True)
        self.assertIn("cluster:8x8@late:0.2:64", times[64][1024])
        self.assertEqual(times[64][1024]["cluster:8x8@balanced"]["native[mpich]"], 1.2)
        report = tune.regret_report(files, "bcast")
        self.assertIn("| 1K | - | 1.05 | - | - |", report)  # auto 2.0 / dynleader 1.9, the only auto cell
        self.assertIn("Worst: 1.05", report)
        # a named algorithm against the others (the library's own under their baseline names)
        self.assertIn("Worst: 1.15 (p=64 1K cluster:8x8@balanced)", tune.regret_report(files, "bcast", "dynleader"))

    def test_candidates(self):
        # 3 sizes, regret-like scores: a wins 1K-2K (b runner-up on both, c worse on 2K), then c wins 4K;
        # the candidates of a rule are ranked by their worst score over the sizes that rule covers
        table = {64: {1024: {"a": 1.0, "b": 1.2, "c": 1.1, "d": 3.0},
                      2048: {"a": 1.0, "b": 1.3, "c": 2.0, "d": 1.5},
                      4096: {"a": 2.0, "b": 1.4, "c": 1.0}}}
        self.assertEqual(tune.rules_for(table, "bcast", 0.0), ["bcast[bytes<=2K]=a", "bcast=c"])
        self.assertEqual(tune.rules_for(table, "bcast", 0.0, candidates=3),
                         ["bcast[bytes<=2K]=a|b|c", "bcast=c|b|a"])
        # d is not scored at 4K: never a candidate of the rule that covers it
        self.assertEqual(tune.rules_for(table, "bcast", 0.0, candidates=8),
                         ["bcast[bytes<=2K]=a|b|c|d", "bcast=c|b|a"])
        with open(self.path, "w") as f:
            f.write("coll,algo,size,pattern,p,e_bar\n" + "".join(f"bcast,{a},{n},balanced,64,{t}\n" for a, n, t in (
                ("x", 8, 1.0), ("y", 8, 2.0), ("z", 8, 3.0))))
        lines = main_output(["--candidates=2", "--format=c", self.path]).splitlines()
        with self.assertRaises(SystemExit):
            main_output(["--candidates=9", self.path])
        self.assertIn("--candidates=2", lines[0])
        self.assertEqual(lines[-1], '"bcast=x|y"')

    def test_complementary_candidates(self):
        # one size, three scenarios: a is the regret winner (worst 1.3); b shares a's engine (the same regrets,
        # a little worse), c wins where a loses: c must come second, b only third
        regrets = {1024: {"balanced": {"a": 1.3, "b": 1.31, "c": 1.0, "d": 2.0},
                          "late": {"a": 1.0, "b": 1.0, "c": 1.4, "d": 1.0},
                          "uniform": {"a": 1.1, "b": 1.1, "c": 1.2, "d": 1.0}}}
        self.assertEqual(tune.complementary_candidates(regrets, [1024], "a", 3), ["a", "c", "d"])
        self.assertEqual(tune.complementary_candidates(regrets, [1024], "a", 1), ["a"])
        # the old ranking by each one's own worst regret puts b second
        table = {64: {1024: {a: max(r[a] for r in regrets[1024].values()) for a in "abcd"}}}
        self.assertEqual(tune.rules_for(table, "bcast", 0.0, candidates=3), ["bcast=a|b|c"])
        self.assertEqual(tune.rules_for(table, "bcast", 0.0, candidates=3, by_scenario={64: regrets}),
                         ["bcast=a|c|d"])
        # read_sweeps fills by_scenario from the files (criterion regret), and main uses it
        with open(self.path, "w") as f:
            f.write("coll,algo,size,pattern,p,e_bar\n" + "".join(
                f"bcast,{a},1024,{pat},64,{t}\n" for pat, times in regrets[1024].items() for a, t in times.items()))
        by_scenario = {}
        tune.read_sweeps([self.path], "bcast", criterion="regret", by_scenario=by_scenario)
        self.assertAlmostEqual(by_scenario[64][1024]["balanced"]["d"], 2.0)
        self.assertEqual(main_output(["--candidates=3", self.path]).strip(), "bcast=a|c|d")

    def test_size_text(self):
        self.assertEqual(tune.size_text(65536), "64K")
        self.assertEqual(tune.size_text(3 << 20), "3M")
        self.assertEqual(tune.size_text(1000), "1000")


if __name__ == "__main__":
    unittest.main()
