# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim: platform generation (valid XML, host and link counts), spec errors, baselines of each
collective (the smpi/<coll> setting the benchmark's --coll decides), and simulated runs that are
deterministic and really run the baseline named (skipped when smpirun or papcoll-bench-smpi is missing)."""
import io
import os
import re
import shutil
import sys
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools.sim import platform, run  # noqa: E402


def parse(p):
    return ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", p.xml))


class PlatformTest(unittest.TestCase):
    def test_cluster(self):
        p = platform.generate("cluster:16x8")
        c = parse(p).find("cluster")
        self.assertEqual((c.get("radical"), c.get("core"), c.get("bw"), c.get("lat")), ("0-15", "8", "2GBps", "1.5us"))
        self.assertEqual(p.slots, 128)
        self.assertEqual(p.hosts[:9], ["node-0"] * 8 + ["node-1"])

    def test_presets_and_overrides(self):
        c = parse(platform.generate("cluster:2x2,preset=gige,lat=70us")).find("cluster")
        self.assertEqual((c.get("bw"), c.get("lat")), ("125MBps", "70us"))
        self.assertEqual(parse(platform.generate("cluster:2x2,preset=gemini")).find("cluster").get("bw"), "6GBps")

    def test_graphs(self):
        for kind, n, links in (("ring", 100, 100), ("bintree", 100, 99)):
            root = parse(platform.generate(f"{kind}:{n}"))
            zone = root.find("zone")
            self.assertEqual(zone.get("routing"), "Floyd")
            self.assertEqual(len(zone.findall("host")), n)
            self.assertEqual(len(zone.findall("link")), links)
            self.assertEqual(len(zone.findall("route")), links)

    def test_ring_without_wrap(self):
        """ring:N,wrap=0 (CourseWare's ring): N links, but no route over the closing one."""
        zone = parse(platform.generate("ring:25,wrap=0,preset=courseware")).find("zone")
        self.assertEqual(len(zone.findall("link")), 25)
        routes = zone.findall("route")
        self.assertEqual(len(routes), 24)
        self.assertNotIn("link-24-0", {r.find("link_ctn").get("id") for r in routes})
        self.assertEqual({(l.get("bandwidth"), l.get("latency")) for l in zone.findall("link")}, {("10Gbps", "20us")})
        with self.assertRaises(platform.SpecError):
            platform.generate("cluster:2x2,wrap=0")

    def test_crossbar_and_backbone(self):
        c = parse(platform.generate("crossbar:64,preset=courseware")).find("cluster")
        self.assertEqual((c.get("radical"), c.get("core"), c.get("bw"), c.get("lat")), ("0-63", "1", "10Gbps", "20us"))
        self.assertIsNone(c.get("bb_bw"))  # SimGrid: a cluster without backbone is a crossbar
        self.assertIsNone(parse(platform.generate("cluster:4x4,bb_bw=none")).find("cluster").get("bb_bw"))
        self.assertEqual(parse(platform.generate("cluster:4x4")).find("cluster").get("bb_bw"), "100GBps")

    def test_every_preset(self):
        for preset in platform.PRESETS:
            p = platform.generate(f"cluster:2x3,preset={preset}")
            self.assertEqual(p.slots, 6)
            self.assertIn(f"preset {preset}", p.description)

    def test_topologies(self):
        self.assertEqual(parse(platform.generate("fattree:16x2:2;4,4;1,4;1,1")).find("cluster").get("topology"), "FAT_TREE")
        self.assertEqual(platform.generate("torus:8x4:2,2,2").slots, 32)
        self.assertEqual(platform.generate("dragonfly:16x1:2,1;2,1;2,1;2").slots, 16)
        self.assertEqual(platform.generate("crossbar:64").slots, 64)

    def test_errors(self):
        for bad in ("cluster:16", "torus:8x1:2,2", "dragonfly:8x1:2,1;2,1;1,1;2", "ring:x", "mesh:4",
                    "cluster:2x2,preset=nope", "cluster:2x2,colour=red", "fattree:8x1"):
            with self.assertRaises(platform.SpecError, msg=bad):
                platform.generate(bad)

    @unittest.skipUnless(shutil.which("cmake"), "needs cmake")
    def test_ci_preset_matches_cmake_platform(self):
        """preset papcoll-ci is the cluster the CMake tests generate (cmake/SmpiPlatform.cmake)."""
        import subprocess
        import tempfile
        repo = os.path.join(os.path.dirname(__file__), "..", "..")
        with tempfile.TemporaryDirectory() as d:
            script = os.path.join(d, "write.cmake")
            with open(script, "w") as f:
                f.write(f'include("{os.path.abspath(repo)}/cmake/SmpiPlatform.cmake")\n'
                        f'papcoll_smpi_platform(3 4 "{d}/c")\n')
            subprocess.run(["cmake", "-P", script], check=True, capture_output=True)
            with open(os.path.join(d, "c.xml")) as f:
                theirs = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", f.read())).find("cluster").attrib
            with open(os.path.join(d, "c.hosts")) as f:
                their_hosts = f.read().split()
        ours = platform.generate("cluster:3x4,preset=papcoll-ci")
        self.assertEqual(parse(ours).find("cluster").attrib, theirs)
        self.assertEqual(ours.hosts, their_hosts)

    def test_user_xml(self):
        p = platform.generate("cluster:3x2")
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "papcoll_test_user_platform.xml")
        with open(path, "w") as f:
            f.write(p.xml)
        try:
            self.assertEqual(platform.generate(path).hosts, p.hosts)
            with open(path, "w") as f:  # hosts and a cluster whose radical is a list
                f.write('<?xml version="1.0"?>\n<platform version="4.1"><zone id="z" routing="Full">'
                        '<host id="a" speed="1Gf" core="2"/>'
                        '<cluster id="c" prefix="n" suffix=".x" radical="0-1,5" speed="1Gf" bw="1GBps" lat="1us"/>'
                        '</zone></platform>\n')
            self.assertEqual(platform.generate(path).hosts, ["a", "a", "n0.x", "n1.x", "n5.x"])
        finally:
            os.unlink(path)


SPECS = ["cluster:2x2", "cluster:2x2,preset=gige", "cluster:2x2,bb_bw=none", "crossbar:4", "ring:4", "ring:4,wrap=0",
         "bintree:4,preset=courseware,lat=10us", "fattree:4x1:2;2,2;1,2;1,1", "torus:4x1:2,2", "dragonfly:4x1:1,1;1,1;2,1;2"]


@unittest.skipUnless(shutil.which("smpirun") and os.environ.get("PAPCOLL_BENCH_SMPI"), "needs smpirun and PAPCOLL_BENCH_SMPI")
class SimGridAcceptsTest(unittest.TestCase):
    def test_simgrid_loads_every_kind(self):
        """SimGrid itself parses each kind of generated platform and routes a broadcast over it."""
        for spec in SPECS:
            o = run.simulate(spec, None, None, None, ["--algo=binomial", "-m", "1K:1K", "-i", "1", "-x", "0",
                                                      "--unit-time=1e-5", "--format=csv"], timeout=60)
            self.assertEqual(o.returncode, 0, f"{spec}: {o.stderr[-500:]}")
            self.assertIn("bcast,binomial,1024,", o.stdout, spec)


class BaselineLimitTest(unittest.TestCase):
    def test_size_limited_baselines_refused_above_their_limit(self):
        with self.assertRaisesRegex(platform.SpecError, "at most 1024 processes"):
            run.simulate("cluster:64x32", baseline="arrival_pattern_aware", bench="/nonexistent")
        with self.assertRaisesRegex(platform.SpecError, "at most 128 processes"):
            run.simulate("cluster:16x16", np=129, baseline="arrival_scatter", bench="/nonexistent")
        with self.assertRaisesRegex(platform.SpecError, "arrival_pattern_aware reduce handles at most 1024"):
            run.simulate("cluster:64x32", baseline="arrival_pattern_aware", bench="/nonexistent",
                         bench_args=["--coll=reduce"])
        run.check_baseline("allreduce", "rab", 2048)  # no limit known for it


class BaselineCollectiveTest(unittest.TestCase):
    """The benchmark's --coll decides which smpi/<coll> setting a baseline replaces."""

    def settings(self, bench_args, baseline):
        cmd, settings = run.command("/tmp/p", 16, "/bin/bench", bench_args, baseline)
        self.assertEqual(cmd[-len(bench_args) - 1:], ["/bin/bench", *bench_args])
        return {s.split(":")[0]: s.split(":", 1)[1] for s in settings if s.startswith("--cfg=smpi/")}

    def test_stack_size(self):
        _, settings = run.command("/tmp/p", 16, "/bin/bench", [], None)
        self.assertFalse(any(s.startswith("--cfg=contexts/stack-size") for s in settings))
        _, settings = run.command("/tmp/p", 2048, "/bin/bench", [], None, stack_kib=1024)
        self.assertIn("--cfg=contexts/stack-size:1024", settings)

    def test_extra_cfg(self):
        _, settings = run.command("/tmp/p", 16, "/bin/bench", [], None,
                                  extra_cfg=["smpi/grow-injected-times:no", "smpi/test:0"])
        self.assertIn("--cfg=smpi/grow-injected-times:no", settings)
        self.assertIn("--cfg=smpi/test:0", settings)  # replaces the runner's own smpi/test
        self.assertEqual([s for s in settings if s.startswith("--cfg=smpi/test:")], ["--cfg=smpi/test:0"])
        for bad in ("smpi/test", ":1"):
            with self.assertRaises(platform.SpecError, msg=bad):
                run.command("/tmp/p", 16, "/bin/bench", [], None, extra_cfg=[bad])

    def test_mpi_copy_settings(self):
        """One copy per end at PAPCOLL_SIM_MEMBW below SMPI's eager limit (65536: detached below it), none from it."""
        got = run.mpi_copy_settings("4G")
        self.assertEqual([s.split(":", 1)[0] for s in got], ["smpi/os", "smpi/ois", "smpi/or"])
        for s in got:
            eager, rendezvous = s.split(":", 1)[1].split(";")
            self.assertEqual(eager.split(":")[:2], ["0", "0"])
            self.assertAlmostEqual(float(eager.split(":")[2]) * (4 << 30), 1.0, places=4)
            self.assertEqual(rendezvous, "65535:0:0")
        for bad in ("fast", "0", "5T"):
            with self.assertRaises(platform.SpecError, msg=bad):
                run.mpi_copy_settings(bad)

    def test_collective_of_the_bench_arguments(self):
        self.assertEqual(run.bench_coll(["-m", "1K", "--coll=reduce"]), "reduce")
        self.assertEqual(run.bench_coll(["--coll", "allreduce", "-c"]), "allreduce")
        self.assertEqual(run.bench_coll(["--algo=binomial"]), "bcast")

    def test_baseline_replaces_its_collective_only(self):
        default = self.settings([], None)
        self.assertEqual((default["--cfg=smpi/bcast"], default["--cfg=smpi/reduce"], default["--cfg=smpi/allreduce"]),
                         (run.BCAST_DEFAULT, run.REDUCE_DEFAULT, run.ALLREDUCE_DEFAULT))
        for args, baseline, key in ((["--algo=native"], "mpich", "bcast"), (["--coll=reduce"], "rab", "reduce"),
                                    (["--coll", "allreduce"], "lr", "allreduce")):
            got = self.settings(args, baseline)
            self.assertEqual(got[f"--cfg=smpi/{key}"], baseline)
            self.assertEqual({k: v for k, v in got.items() if k != f"--cfg=smpi/{key}"},
                             {k: v for k, v in default.items() if k != f"--cfg=smpi/{key}"})

    def test_unknown_names_refused(self):
        for coll, name in (("reduce", "binomial_tree"), ("allreduce", "binomial"), ("bcast", "rdb"), ("scan", "mpich")):
            with self.assertRaises(platform.SpecError, msg=f"{coll} {name}"):
                run.simulate("cluster:2x2", baseline=name, bench="/nonexistent", bench_args=[f"--coll={coll}"])
        for coll, names in run.SMPI_ALGORITHMS.items():
            self.assertTrue({"mpich", "ompi", "mvapich2", "impi", "default"} <= set(names), coll)
            self.assertNotIn("automatic", names)


def csv_rows(stdout):
    """The rows of papcoll-bench's --format=csv output, as dicts by its header (comment lines skipped)."""
    lines = [l for l in stdout.splitlines() if l and not l.startswith("#")]
    header = lines[0].split(",")
    return [dict(zip(header, l.split(","))) for l in lines[1:] if not l.startswith("coll,")]


@unittest.skipUnless(shutil.which("smpirun") and os.environ.get("PAPCOLL_BENCH_SMPI"), "needs smpirun and PAPCOLL_BENCH_SMPI")
class RunTest(unittest.TestCase):
    def test_deterministic(self):
        outs = []
        for _ in range(2):
            buf = io.StringIO()
            rc = run.run("cluster:4x4", 16, None, None, ["--algo=binomial,auto", "-m", "64K:256K", "-i", "3", "-x", "1",
                                                        "--pattern=uniform:4", "--format=csv"], out=buf)
            self.assertEqual(rc, 0)
            outs.append(buf.getvalue())
        self.assertEqual(outs[0], outs[1])
        self.assertIn("#@smpi_settings=--cfg=smpi/simulate-computation:no", outs[0])
        self.assertEqual(len([l for l in outs[0].splitlines() if l.startswith("bcast,")]), 6)

    def test_reduction_baselines_run(self):
        """A reduce baseline is what runs as native: flat_tree (the root receives p-1 messages one by one) is
        slower than binomial at 1 MiB on 16 ranks; every result checked (-c); the settings say which."""
        e_bar = {}
        for coll, baseline in (("reduce", "flat_tree"), ("reduce", "binomial"), ("allreduce", "lr")):
            o = run.simulate("cluster:4x4", 16, baseline, None, [f"--coll={coll}", "-m", "1M:1M", "-i", "2", "-x", "0",
                                                                "-c", "--format=csv"], timeout=120)
            self.assertEqual(o.returncode, 0, o.stderr[-500:])
            self.assertIn(f"--cfg=smpi/{coll}:{baseline}", o.stdout)
            self.assertIn(f"baseline SMPI {coll} {baseline} (reported as algo native)", o.stdout)
            row = next(r for r in csv_rows(o.stdout) if r["coll"] == coll and r["algo"] == "native" and r["size"] == "1048576")
            self.assertEqual(row["check"], "Pass")
            e_bar[baseline] = float(row["e_bar"])
        self.assertGreater(e_bar["flat_tree"], 1.5 * e_bar["binomial"])

    def test_mpi_copies(self):
        """--mpi-copies charges SMPI's own reduce its eager copies (32 KiB: slower) and nothing from 64 KiB
        (rendezvous: the same time); the settings line records it."""
        e_bar = {}
        for copies in (False, True):
            o = run.simulate("cluster:4x4", 16, "binomial", None, ["--coll=reduce", "-m", "32K:64K", "-i", "2", "-x", "0",
                                                                  "--format=csv"], timeout=120, mpi_copies=copies)
            self.assertEqual(o.returncode, 0, o.stderr[-500:])
            self.assertEqual("--cfg=smpi/or:" in o.stdout, copies)
            for row in csv_rows(o.stdout):
                if row["coll"] == "reduce" and row["algo"] == "native":
                    e_bar[copies, int(row["size"])] = float(row["e_bar"])
        self.assertGreater(e_bar[True, 32768], e_bar[False, 32768])
        self.assertEqual(e_bar[True, 65536], e_bar[False, 65536])


if __name__ == "__main__":
    unittest.main()
