# SPDX-License-Identifier: BSD-3-Clause
"""The Spack recipe (spack/packages/papcoll/package.py) against the build, without Spack.

The recipe is loaded with a stand-in `spack.package` whose directives (version,
variant, depends_on, extends, license) only record their arguments, so that its
variants and dependencies can be checked against CMakeLists.txt and
tools/pyproject.toml, and its cmake_args() run on stand-in specs.  With
PAPCOLL_SPACK_CONFIGURE=<scratch dir> (ctest install.spack_cmake), CMake
configures the repository with exactly the arguments the recipe gives: every
-D must be used (CMake warns about a misspelt one) and take effect.
"""
import os
import re
import shutil
import subprocess
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
RECIPE = os.path.join(REPO, "spack", "packages", "papcoll", "package.py")


class _Directives:
    """What the recipe's class body declared."""

    def __init__(self):
        self.versions, self.variants, self.depends, self.extends, self.licenses = {}, {}, [], [], []


def _load_recipe():
    """Imports package.py with a recording `spack.package`; returns (module, directives)."""
    rec = _Directives()
    pkg = types.ModuleType("spack.package")

    class CMakePackage:
        run_tests = False

        def __init__(self, spec):
            self.spec = spec

        @staticmethod
        def define(name, value):
            if isinstance(value, bool):
                return f"-D{name}:BOOL={'ON' if value else 'OFF'}"
            if isinstance(value, (list, tuple)):
                value = ";".join(str(v) for v in value)
            return f"-D{name}:STRING={value}"

        def define_from_variant(self, name, variant):
            return self.define(name, self.spec.satisfies("+" + variant))

    pkg.CMakePackage = CMakePackage
    pkg.version = lambda name, **kw: rec.versions.__setitem__(name, kw)
    pkg.variant = lambda name, **kw: rec.variants.__setitem__(name, kw)
    pkg.depends_on = lambda spec, **kw: rec.depends.append((spec, kw))
    pkg.extends = lambda spec, **kw: rec.extends.append((spec, kw))
    pkg.license = lambda lic, **kw: rec.licenses.append(lic)
    pkg.join_path = os.path.join
    pkg.__all__ = ["CMakePackage", "version", "variant", "depends_on", "extends", "license", "join_path"]
    spack = types.ModuleType("spack")
    spack.package = pkg
    saved = {k: sys.modules.get(k) for k in ("spack", "spack.package")}
    sys.modules.update({"spack": spack, "spack.package": pkg})
    try:
        import importlib.util
        spec = importlib.util.spec_from_file_location("papcoll_spack_recipe", RECIPE)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod, rec


class _Spec:
    """A concrete spec as cmake_args() sees it: variants, and dependencies' prefixes."""

    def __init__(self, variants):
        self.variants = set(variants)

    def satisfies(self, constraint):
        return constraint.lstrip("+") in self.variants

    def __getitem__(self, name):
        prefix = types.SimpleNamespace(bin=f"/spack/{name}/bin")
        dep = types.SimpleNamespace(prefix=prefix)
        if name == "mpi":
            dep.mpicc = shutil.which("mpicc") or "/spack/mpi/bin/mpicc"
        if name == "python":
            dep.command = types.SimpleNamespace(path=sys.executable)
        return dep


def _cmake_args(mod, variants, run_tests=False):
    pkg = mod.Papcoll(_Spec(variants))
    pkg.run_tests = run_tests
    return pkg.cmake_args()


def _defines(args):
    """{name: value} of -DNAME[:TYPE]=VALUE arguments."""
    out = {}
    for a in args:
        m = re.match(r"-D([A-Za-z0-9_]+)(?::[A-Z]+)?=(.*)$", a)
        assert m, a
        out[m.group(1)] = m.group(2)
    return out


def _cmake_sources():
    text = []
    for root, _dirs, files in os.walk(REPO):
        if os.sep + "." in root or os.path.basename(root).startswith("build"):
            continue
        for f in files:
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                with open(os.path.join(root, f)) as fh:
                    text.append(fh.read())
    return "\n".join(text)


class SpackRecipe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mod, cls.rec = _load_recipe()

    def deps(self, when=None):
        return {re.split(r"[@+~ ]", s, maxsplit=1)[0]: (s, kw) for s, kw in self.rec.depends
                if kw.get("when") == when}

    def test_versions_and_license(self):
        self.assertEqual(self.rec.versions, {"main": {"branch": "main"}})
        self.assertEqual(self.rec.licenses, ["BSD-3-Clause"])
        self.assertTrue(self.mod.Papcoll.git)

    def test_cmake_minimum_matches(self):
        with open(os.path.join(REPO, "CMakeLists.txt")) as f:
            minimum = re.search(r"cmake_minimum_required\(VERSION ([0-9.]+)\)", f.read()).group(1)
        spec, kw = self.deps()["cmake"]
        self.assertEqual(spec, f"cmake@{minimum}:")
        self.assertEqual(kw.get("type"), "build")

    def test_always_dependencies(self):
        deps = self.deps()
        self.assertIn("mpi", deps)
        self.assertEqual(deps["c"][1].get("type"), "build")

    def test_variants(self):
        self.assertEqual(set(self.rec.variants), {"smpi", "python"})
        self.assertIn("simgrid", self.deps("+smpi"))
        self.assertIn("+smpi", self.deps("+smpi")["simgrid"][0])  # SimGrid's own SMPI variant
        self.assertEqual(self.rec.extends, [("python", {"when": "+python"})])

    def test_python_dependencies_cover_pyproject(self):
        """Every dependency of tools/pyproject.toml, and numpy (imported by the trace tools)."""
        with open(os.path.join(REPO, "tools", "pyproject.toml")) as f:
            deps_line = re.search(r"^dependencies *= *\[(.*)\]", f.read(), re.M).group(1)
        wanted = {re.split(r"[<>=!~ ]", d, maxsplit=1)[0].lower() for d in re.findall(r'"([^"]+)"', deps_line)}
        wanted.add("numpy")
        have = self.deps("+python")
        for name in wanted:
            self.assertIn("py-" + name, have, f"py-{name} missing for +python")
            self.assertIn("run", have["py-" + name][1].get("type", ()))

    def test_cmake_args_name_declared_options(self):
        """Every -D of every variant combination is an option or variable the build reads."""
        cmake = _cmake_sources()
        for variants in ((), ("smpi",), ("python",), ("smpi", "python")):
            for name in _defines(_cmake_args(self.mod, variants)):
                with self.subTest(variants=variants, name=name):
                    declared = (re.search(rf"option\({name}\b", cmake) or re.search(rf"find_program\({name}\b", cmake)
                                or name in ("MPI_C_COMPILER", "Python3_EXECUTABLE"))
                    self.assertTrue(declared, f"{name} is not read by the build")

    def test_cmake_args_follow_variants(self):
        for variants in ((), ("smpi",), ("python",), ("smpi", "python")):
            d = _defines(_cmake_args(self.mod, variants))
            self.assertEqual(d["PAPCOLL_WITH_SMPI"], "ON" if "smpi" in variants else "OFF")
            self.assertEqual(d["PAPCOLL_INSTALL_PYTHON_TOOLS"], "ON" if "python" in variants else "OFF")
            self.assertEqual(d["PAPCOLL_TESTS"], "OFF")
            self.assertEqual("SMPICC" in d, "smpi" in variants)
            self.assertEqual("Python3_EXECUTABLE" in d, "python" in variants)
        self.assertEqual(_defines(_cmake_args(self.mod, (), run_tests=True))["PAPCOLL_TESTS"], "ON")


@unittest.skipUnless(os.environ.get("PAPCOLL_SPACK_CONFIGURE"), "PAPCOLL_SPACK_CONFIGURE=<scratch dir> not set")
class SpackRecipeConfigures(unittest.TestCase):
    """CMake configures the repository with the recipe's arguments for papcoll+python."""

    def test_configure(self):
        mod, _ = _load_recipe()
        args = _cmake_args(mod, ("python",))
        build = os.environ["PAPCOLL_SPACK_CONFIGURE"]
        shutil.rmtree(build, ignore_errors=True)
        cmake = os.environ.get("PAPCOLL_CMAKE", "cmake")
        p = subprocess.run([cmake, "-S", REPO, "-B", build, "-DCMAKE_INSTALL_PREFIX=/spack/papcoll", *args],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertNotIn("Manually-specified variables were not used", p.stderr)
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            cache = f.read()
        for line in ("PAPCOLL_WITH_SMPI:BOOL=OFF", "PAPCOLL_INSTALL_PYTHON_TOOLS:BOOL=ON", "PAPCOLL_TESTS:BOOL=OFF"):
            self.assertIn(line, cache)
        self.assertIn("papcoll: Python tools (papcoll-tune;papcoll-plot;papcoll)", p.stdout)
        self.assertFalse(os.path.exists(os.path.join(build, "tests")), "PAPCOLL_TESTS=OFF configured tests/")
        shutil.rmtree(build, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
