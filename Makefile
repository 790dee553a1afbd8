# SPDX-License-Identifier: BSD-3-Clause
# papcoll - top-level entry points for a fresh Debian 12 machine.
#   make demo   install what is missing, build, compare every broadcast natively and simulated
#   make test   install what is missing, build, run every test (ctest)
#   make check  build, run the quick tier (every algorithm once, native and simulated: about 2 min)
#   make figures  regenerate every figure of docs/ from the CSVs in docs/results (build/figures/)
# Other targets: deps, build, docs (regenerate docs/params.md), install, clean.

BUILD      ?= build
JOBS       ?= 2
PREFIX     ?= /usr/local
DEBIAN_PKGS = build-essential cmake ninja-build pkg-config openmpi-bin libopenmpi-dev libsimgrid-dev python3 \
              mpich libmpich-dev gfortran otf2-tools libotf2-trace-dev python3-otf2
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Open MPI is the default MPI; MPICH is installed beside it (build-mpich).  Name
# both explicitly: with the two installed, Debian's mpicc/mpirun alternatives
# could point at either.
OMPI_CC     = $(shell command -v mpicc.openmpi || echo mpicc)
OMPI_RUN    = $(shell command -v mpirun.openmpi || echo mpirun)
MPIRUN      = $(OMPI_RUN) --allow-run-as-root --oversubscribe --bind-to none --mca mpi_yield_when_idle 1

.PHONY: all deps pytools build build-mpich demo test test-exhaustive check docs figures install clean

all: build

deps:
	@missing=$$(for p in $(DEBIAN_PKGS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# Python tooling (papcoll-tune, papcoll-plot) and matplotlib, from PyPI.
pytools:
	@python3 -c "import papcoll_tools, matplotlib" 2>/dev/null || python3 -m pip install --quiet -e tools

build: deps pytools
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) \
	  -DMPI_C_COMPILER=$(OMPI_CC) -DMPIEXEC_EXECUTABLE=$(OMPI_RUN)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@echo "== native: 2 processes on this machine, balanced arrival (real time) =="
	$(OMPI_RUN) --allow-run-as-root --bind-to core -np 2 $(BUILD)/bench/papcoll-bench --algo=all -m 1K:1M -i 20 -x 2 -c
	@echo
	@echo "== simulated: SimGrid SMPI, 16 nodes x 8 cores = 128 ranks, balanced arrival (simulated time) =="
	python3 -m papcoll_tools.cli sim run --platform=cluster:16x8,preset=papcoll-ci \
	  --bench=$(BUILD)/smpi/bench/papcoll-bench-smpi -- --algo=all -m 1K:1M -i 3 -x 1 -c
	@echo
	@echo "== simulated, 128 ranks, 1 MiB, uniform random arrival MAX_IF 0/4/16 (figure: $(BUILD)/demo/imbalance.png) =="
	BUILD=$(BUILD) LEVELS="4 16" ITERS=3 tools/sweeps/bcast_imbalance.sh simulated $(BUILD)/demo 16 8 1M

# Open MPI (default mpicc): every test.  MPICH, installed beside it: the same
# library built against MPICH, its error, drop-in (the large-count _c functions
# included: interpose.large_count.*), repeats (call_memo), 2-process matrix tests,
# threads.renew (with MPI windows for node memory, .shm_mpi, MPICH only: README, threads)
# and the node's shared memory (node_window).
test: build build-mpich
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD)-mpich && ctest --output-on-failure -R 'errors|interpose|matrix.np2|native_inplace|moving_root|nbc|one_late|call_memo|threads.renew|node_window'

# Every combination of the sampled matrices (hours on 2 cores; the seed and
# the samples of `make test` are printed by each matrix test).
test-exhaustive: build
	cd $(BUILD) && PAPCOLL_TEST_SAMPLE_SCALE=1e9 ctest --output-on-failure -j $(JOBS) -L matrix

# The inner loop: the quick tier (ctest labels quick and unit; the labels are
# listed in cmake/TestTiers.cmake, e.g. `ctest -L smpi`).
check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L 'quick|unit'

build-mpich: deps
	cmake -S . -B $(BUILD)-mpich -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPAPCOLL_WITH_SMPI=OFF \
	  -DMPI_C_COMPILER=mpicc.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich \
	  -DCMAKE_Fortran_COMPILER=gfortran -DMPI_Fortran_COMPILER=mpif90.mpich
	cmake --build $(BUILD)-mpich -j $(JOBS)

docs: build
	$(MPIRUN) -np 1 $(BUILD)/bench/papcoll-bench --list-params --format=md > docs/params.md
	python3 tools/gen_algorithms_doc.py

# The figures are not kept in git: this regenerates them (a few minutes, one core).
figures: pytools
	cd tools && nice -n 10 python3 -m papcoll_tools.figures -o $(abspath $(BUILD))/figures

# The libraries, papcoll.h, papcoll-bench and the Python tools' commands into
# $(PREFIX) (docs/install.md); with PREFIX/bin on PATH the tools need nothing else.
install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-mpich
