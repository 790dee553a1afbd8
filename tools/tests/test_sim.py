"""papcoll sim: platform generation (valid XML, host and link counts), spec errors, and a
simulated run that is deterministic (skipped when smpirun or papcoll-bench-smpi is missing)."""
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
        finally:
            os.unlink(path)


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


if __name__ == "__main__":
    unittest.main()
