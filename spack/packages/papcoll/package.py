# SPDX-License-Identifier: BSD-3-Clause
"""Spack recipe for papcoll (docs/install.md "Spack").

    spack repo add spack                  # from the top of a papcoll checkout
    spack install papcoll+python          # + the tools: papcoll, papcoll-tune, papcoll-plot
    spack install papcoll+smpi ^simgrid@3.36   # + the SimGrid SMPI flavour (papcoll-smpicc)

Every variant maps to one option of the top-level CMakeLists.txt (cmake_args);
tools/tests/test_spack_package.py checks the recipe against the build without Spack.
"""
import os

from spack.package import *

try:  # Spack >= 1.0: the build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
except ImportError:  # Spack 0.x: spack.package exports them
    pass

# The papcoll checkout this recipe sits in (spack/packages/papcoll/package.py).
_CHECKOUT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


class Papcoll(CMakePackage):
    """MPI collectives that stay fast when processes reach a collective at different
    times (imbalanced process arrival): a library with its own API, a drop-in
    (LD_PRELOAD=libpapcoll_mpi.so) for C and Fortran programs on Open MPI and MPICH,
    an arrival-pattern benchmark, an arrival tracer and, optionally, the same
    collectives on SimGrid SMPI for simulation at scale."""

    # papcoll has no public release or web page yet, so there is no url/sha256.
    # Spack clones version "main" from `git`: by default the checkout holding this
    # recipe (a local git repository; commit first, Spack builds the branch, not the
    # work tree; `spack develop papcoll@main` builds the work tree); PAPCOLL_GIT
    # names another clone (a path or a URL).  For a release: set
    #   url = "https://<host>/papcoll/papcoll-0.1.0.tar.gz"
    # and add `version("0.1.0", sha256=...)` lines (`spack checksum papcoll 0.1.0`),
    # the version being that release's VERSION file.
    homepage = "file://" + _CHECKOUT  # placeholder: no public page yet
    git = os.environ.get("PAPCOLL_GIT", "file://" + _CHECKOUT)

    license("BSD-3-Clause")

    # The branch's VERSION file gives the version of the libraries, pkg-config
    # and CMake package files and the tools.
    version("main", branch="main")

    variant("smpi", default=False,
            description="Also build the SimGrid SMPI flavour (papcoll-smpicc, papcoll-smpif90)")
    variant("python", default=False,
            description="Install the Python tools (papcoll, papcoll-tune, papcoll-plot)")

    depends_on("c", type="build")
    depends_on("cmake@3.18:", type="build")  # CMakeLists.txt: cmake_minimum_required(VERSION 3.18)
    depends_on("mpi")

    # SMPI 3.32 is the oldest the simulated tests were run with (docs/simulation.md).
    depends_on("simgrid@3.32:+smpi", when="+smpi")

    # The tools are copied into <prefix>/lib/pythonX.Y/site-packages with launchers
    # in bin/ (cmake/PythonTools.cmake): no pip or setuptools at build time.  Their
    # imports: matplotlib (figures), numpy (trace reports), tqdm (papcoll tune).
    # OTF2 export (`papcoll trace export --format=otf2`) also needs the otf2 Python
    # module, which is left to the user.
    extends("python", when="+python")
    depends_on("python@3.9:", when="+python", type=("build", "run"))
    depends_on("py-matplotlib@3.5:", when="+python", type="run")
    depends_on("py-numpy", when="+python", type="run")
    depends_on("py-tqdm@4:", when="+python", type="run")
    depends_on("py-tomli", when="+python ^python@:3.10", type="run")  # papcoll sim sweep files

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("PAPCOLL_WITH_SMPI", "smpi"),
            self.define_from_variant("PAPCOLL_INSTALL_PYTHON_TOOLS", "python"),
            self.define("PAPCOLL_TESTS", self.run_tests),
            self.define("MPI_C_COMPILER", spec["mpi"].mpicc),
        ]
        if spec.satisfies("+smpi"):
            args.append(self.define("SMPICC", join_path(spec["simgrid"].prefix.bin, "smpicc")))
            args.append(self.define("SMPIRUN", join_path(spec["simgrid"].prefix.bin, "smpirun")))
        if spec.satisfies("+python"):
            args.append(self.define("Python3_EXECUTABLE", spec["python"].command.path))
        return args
