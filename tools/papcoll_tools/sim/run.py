# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim run: one simulated papcoll-bench run with every SMPI setting explicit."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from . import platform
from .sweep_config import ConfigError, size_bytes

# Settings of every simulated run (recorded in the output's #@smpi_settings):
#  - computation is not benchmarked: only communication advances simulated time;
#  - MPI_Iprobe / MPI_Test cost a small fixed simulated time;
#  - SMPI's own collectives follow MPICH's selection (SimGrid 3.32's default MPI_Allgather did not
#    finish at 256 ranks; papcoll calls it once per communicator), except the five that the benchmark
#    and papcoll's communicator set-up use, named explicitly with algorithms that do not look at nodes:
#    MPICH's selection of MPI_Bcast (and one of the other four) first builds SMPI's node/leader view of
#    the communicator (Comm::init_smp: a ring allgather, p^2 messages), and SMPI broadcasts on every
#    new communicator, so each communicator cost 15 s of wall time at 1024 ranks and about 16 times
#    that at 4096; with these settings a 1024-rank set-up takes about 1 s.  `native` (SMPI's
#    MPI_Bcast) is therefore binomial_tree unless a baseline names another (--baseline=mpich: SMPI's
#    MPICH selection, node-aware, with that set-up cost).  The same holds for MPI_Reduce, whose MPICH
#    selection is node-aware as well (init_smp, then mvapich2_two_level): `native` reduce is binomial,
#    and native allreduce rdb, unless a baseline of that collective names another.
# A baseline (`--baseline=NAME`) replaces the setting of the collective the benchmark measures (its
# --coll: bcast, reduce, allreduce, allgather, gather -> smpi/bcast, smpi/reduce, smpi/allreduce,
# smpi/allgather, smpi/gather), or adds it (allgatherv, alltoall, alltoallv, scatter, reduce_scatter and
# reduce_scatter_block -> smpi/allgatherv, smpi/alltoall, smpi/alltoallv, smpi/scatter and, for both
# reduce_scatters, smpi/reduce_scatter: SMPI's MPI_Reduce_scatter_block is its reduce_scatter with equal
# counts; otherwise left to SMPI's MPICH selection).  An allreduce, allgather or gather baseline therefore
# also runs the few untimed MPI_Allreduce / MPI_Allgather calls of papcoll's communicator set-up, or the
# benchmark's untimed MPI_Gather of the arrival times (native allgather is rdb and native gather
# ompi_binomial unless a baseline names another).  SMPI 3.32 has a single MPI_Gatherv and MPI_Scatterv
# (no smpi/gatherv or smpi/scatterv setting: linear, through its nonblocking versions), so gatherv and
# scatterv have no baseline.
# Intra-node copies through papcoll's shared memory are charged at PAPCOLL_SIM_MEMBW bytes/s (src/ctx/shm_wait.c,
# default of src/params.c); the value in force is recorded with the settings.
MEMBW_DEFAULT = "5G"
# SMPI charges the MPI library's own copies nothing unless smpi/os, smpi/ois and smpi/or say otherwise.  With
# mpi_copies (--mpi-copies) a message below SMPI's eager limit (smpi/send-is-detached-thresh, 65536: it is
# detached, sent from a copy) costs its sender and its receiver one copy each at PAPCOLL_SIM_MEMBW, as
# papcoll's shared-memory copies do; from 65536 bytes (rendezvous: SMPI moves the data itself) none.
EAGER_LIMIT = 65536
BCAST_DEFAULT = "binomial_tree"
REDUCE_DEFAULT = "binomial"
ALLREDUCE_DEFAULT = "rdb"
SMPI_SETTINGS = ["--cfg=smpi/simulate-computation:no", "--cfg=smpi/host-speed:1Gf", "--cfg=smpi/coll-selector:mpich",
                 f"--cfg=smpi/bcast:{BCAST_DEFAULT}", f"--cfg=smpi/reduce:{REDUCE_DEFAULT}",
                 f"--cfg=smpi/allreduce:{ALLREDUCE_DEFAULT}", "--cfg=smpi/allgather:rdb",
                 "--cfg=smpi/gather:ompi_binomial", "--cfg=smpi/barrier:ompi_bruck",
                 "--cfg=smpi/iprobe:1e-7", "--cfg=smpi/test:1e-7", "--cfg=smpi/grow-injected-times:no",
                 "--cfg=maxmin/precision:1e-4"]

# The collectives papcoll-bench measures (--coll) and SimGrid 3.32's own algorithms for each, any of which
# can be a baseline (smpirun --cfg=smpi/<coll>:help lists them in its error message).  Left out: "automatic"
# (SMPI runs every algorithm and keeps the fastest: not one algorithm).
COLLECTIVES = ("bcast", "reduce", "allreduce", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block",
               "alltoall", "alltoallv", "gather", "gatherv", "scatter", "scatterv", "barrier")
# SMPI's setting (smpi/<key>) of each collective that has one; gatherv and scatterv have none.
SMPI_SETTING = {c: c for c in COLLECTIVES if c not in ("gatherv", "scatterv")}
SMPI_SETTING["reduce_scatter_block"] = "reduce_scatter"
_REDUCE_SCATTER = ("default", "ompi", "ompi_basic_recursivehalving", "ompi_ring", "ompi_butterfly", "mpich", "mpich_pair",
                   "mpich_rdb", "mpich_noncomm", "mvapich2", "impi")
SMPI_ALGORITHMS = {
    "bcast": ("default", "arrival_pattern_aware", "arrival_pattern_aware_wait", "arrival_scatter", "binomial_tree", "flattree",
              "flattree_pipeline", "NTSB", "NTSL", "NTSL_Isend", "scatter_LR_allgather", "scatter_rdb_allgather",
              "SMP_binary", "SMP_binomial", "SMP_linear", "ompi", "ompi_split_bintree", "ompi_pipeline", "mpich",
              "mvapich2", "mvapich2_inter_node", "mvapich2_intra_node", "mvapich2_knomial_intra_node", "impi"),
    "reduce": ("default", "arrival_pattern_aware", "binomial", "flat_tree", "NTSL", "scatter_gather", "ompi", "ompi_chain",
               "ompi_pipeline", "ompi_basic_linear", "ompi_in_order_binary", "ompi_binary", "ompi_binomial", "mpich",
               "mvapich2", "mvapich2_knomial", "mvapich2_two_level", "impi", "rab"),
    "allreduce": ("default", "lr", "rab1", "rab2", "rab_rdb", "rdb", "smp_binomial", "smp_binomial_pipeline", "smp_rdb", "smp_rsag",
                  "smp_rsag_lr", "smp_rsag_rab", "redbcast", "ompi", "ompi_ring_segmented", "mpich", "mvapich2",
                  "mvapich2_rs", "mvapich2_two_level", "impi", "rab"),
    "allgather": ("default", "2dmesh", "3dmesh", "bruck", "GB", "loosely_lr", "NTSLR", "NTSLR_NB", "pair", "rdb", "rhv",
                  "ring", "SMP_NTS", "smp_simple", "spreading_simple", "ompi", "ompi_neighborexchange", "mvapich2",
                  "mvapich2_smp", "mpich", "impi"),
    "allgatherv": ("default", "GB", "pair", "ring", "ompi", "ompi_neighborexchange", "ompi_bruck", "mpich", "mpich_rdb",
                   "mpich_ring", "mvapich2", "impi"),
    "reduce_scatter": _REDUCE_SCATTER,
    "reduce_scatter_block": _REDUCE_SCATTER,
    "alltoall": ("default", "2dmesh", "3dmesh", "basic_linear", "bruck", "pair", "pair_rma", "pair_light_barrier",
                 "pair_mpi_barrier", "pair_one_barrier", "rdb", "ring", "ring_light_barrier", "ring_mpi_barrier",
                 "ring_one_barrier", "mvapich2", "mvapich2_scatter_dest", "ompi", "mpich", "impi"),
    "alltoallv": ("default", "bruck", "pair", "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier", "ring",
                  "ring_light_barrier", "ring_mpi_barrier", "ring_one_barrier", "ompi", "mpich", "ompi_basic_linear",
                  "mvapich2", "impi"),
    "gather": ("default", "ompi", "ompi_basic_linear", "ompi_binomial", "ompi_linear_sync", "mpich", "mvapich2",
               "mvapich2_two_level", "impi"),
    "scatter": ("default", "ompi", "ompi_basic_linear", "ompi_linear_nb", "ompi_binomial", "mpich", "mvapich2",
                "mvapich2_two_level_binomial", "mvapich2_two_level_direct", "impi"),
    "barrier": ("default", "ompi", "ompi_basic_linear", "ompi_two_procs", "ompi_tree", "ompi_bruck", "ompi_recursivedoubling",
                "ompi_doublering", "mpich_smp", "mpich", "mvapich2_pair", "mvapich2", "impi"),
}

# Checked with papcoll-bench -c (SimGrid 3.32; 8 B to 32 KiB by factors of 8, rotating root, on 16 and 13 ranks of
# cluster:4x4 and 64 of cluster:8x8): every baseline of reduce_scatter(_block), alltoall(v), gather and scatter
# runs and checks correctly except: alltoall pair_rma delivers wrong blocks whenever recvcount > 1 (a plain
# MPI_Alltoall of 2 ints per block reproduces it) and segfaults at 13 ranks; gather mvapich2_two_level segfaults
# whenever the root is not rank 0 (a plain MPI_Gather with root 3 reproduces it; -k fixed:0 runs and checks
# correctly); alltoall 2dmesh and 3dmesh segfault when p has no grid (13; 6, 12, 16 and 64 run); the refusals
# below.  Kept as baselines (SMPI's to fix), named in docs/benchmark.md.
# Wrong results seen with papcoll-bench -c (SimGrid 3.32, 16 ranks): allreduce smp_rsag when the count is not
# a multiple of the number of nodes, smp_rsag_lr when it is below the number of nodes, smp_rsag_rab for some
# counts that are not multiples of 8; kept as baselines (timings are still SMPI's), named in docs/benchmark.md.

# SMPI 3.32 algorithms written for a bounded number of processes: their sources keep per-rank state in
# fixed stack arrays (MAX_NODE, and reduce's 1024-entry header of ranks) indexed by rank, so beyond that
# size they overwrite their own stack (at 2048 ranks the arrival_pattern_aware broadcast ran for 12
# minutes without finishing one call).  Refused above it.
BASELINE_MAX_RANKS = {("bcast", "arrival_pattern_aware"): 1024, ("bcast", "arrival_pattern_aware_wait"): 128,
                      ("bcast", "arrival_scatter"): 128, ("reduce", "arrival_pattern_aware"): 1024}

# SMPI 3.32 algorithms that stop the simulation (std::invalid_argument) unless the number of processes is a
# power of two (seen at 48 ranks; 16 and 64 run and gather correctly with -c).  Refused for other counts.
# Others that SMPI refuses for some counts, left to its own message: allgather 2dmesh and 3dmesh (13 ranks:
# no grid), mvapich2_smp (nodes holding different numbers of processes, e.g. 13 ranks on 4 x 4).
# Alltoall(v)'s pair family (seen at 13 ranks) and reduce_scatter_block's mpich_noncomm (an assertion) likewise.
BASELINE_POWER_OF_TWO = {("allgather", "pair"), ("allgather", "rhv"), ("allgatherv", "pair"),
                         ("reduce_scatter_block", "mpich_noncomm"),
                         *((c, n) for c in ("alltoall", "alltoallv")
                           for n in ("pair", "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier"))}

# SMPI 3.32 algorithms that cannot run the benchmark's call at all: reduce_scatter mpich_noncomm asserts equal
# recvcounts (and a power-of-two p; reduce_scatter-mpich.cpp), which --coll=reduce_scatter's unequal counts never
# are; refused with the reason.
BASELINE_REFUSED = {("reduce_scatter", "mpich_noncomm"): "asserts equal recvcounts (SimGrid 3.32 reduce_scatter-mpich.cpp), "
                                                         "which --coll=reduce_scatter's are not: use --coll=reduce_scatter_block"}

# Above this many ranks, globals are privatized by mmap instead of SMPI's default dlopen: dlopen maps a
# copy of the program for each rank (about 10 memory mappings each), and Linux allows a process 65530
# mappings (vm.max_map_count), so dlopen fails near 6500 ranks ("cannot apply additional memory
# protection after relocation").  mmap privatization needs about 3 mappings per rank, 2 without the
# guard page of each rank's stack (contexts/guard-size:0), which leaves room for 16384 ranks.  The two
# give identical simulated times (checked at 4096 ranks).
MMAP_PRIVATIZATION_ABOVE = 4096


def find_bench(explicit=None):
    """papcoll-bench-smpi: --bench, $PAPCOLL_BENCH_SMPI, or the repository's build tree."""
    candidates = [explicit, os.environ.get("PAPCOLL_BENCH_SMPI"),
                  os.path.join(os.path.dirname(__file__), "..", "..", "..", "build", "smpi", "bench", "papcoll-bench-smpi"),
                  shutil.which("papcoll-bench-smpi")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    sys.exit("papcoll sim: papcoll-bench-smpi not found (build with `make build`, or give --bench / PAPCOLL_BENCH_SMPI)")


def bench_coll(bench_args):
    """The collective a papcoll-bench command line measures: its --coll (the last one given), default bcast."""
    coll = "bcast"
    args = list(bench_args)
    for i, a in enumerate(args):
        if a.startswith("--coll="):
            coll = a[len("--coll="):]
        elif a == "--coll" and i + 1 < len(args):
            coll = args[i + 1]
    return coll


def check_baseline(coll, baseline, np):
    """Raises SpecError unless BASELINE is one of SimGrid's algorithms for COLL that handles NP processes."""
    if coll not in COLLECTIVES:
        raise platform.SpecError(f"--coll={coll}: papcoll-bench measures {', '.join(COLLECTIVES)}")
    if coll not in SMPI_ALGORITHMS:
        raise platform.SpecError(f"SimGrid 3.32 has a single {coll} (no smpi/{coll} setting): no baseline to choose")
    if baseline not in SMPI_ALGORITHMS[coll]:
        raise platform.SpecError(f"SMPI has no {coll} algorithm {baseline!r} (SimGrid 3.32: "
                                 f"{', '.join(SMPI_ALGORITHMS[coll])})")
    if (coll, baseline) in BASELINE_REFUSED:
        raise platform.SpecError(f"SMPI's {baseline} {coll} {BASELINE_REFUSED[(coll, baseline)]}")
    if (coll, baseline) in BASELINE_POWER_OF_TWO and np & (np - 1):
        raise platform.SpecError(f"SMPI's {baseline} {coll} needs a power-of-two number of processes, not {np}")
    limit = BASELINE_MAX_RANKS.get((coll, baseline))
    if limit and np > limit:
        raise platform.SpecError(f"SMPI's {baseline} {coll} handles at most {limit} processes "
                                 f"(fixed-size arrays in SimGrid 3.32's source), not {np}")


def mpi_copy_settings(membw_text):
    """The KEY:VALUE SimGrid settings (for --smpi-cfg) that charge an eager message one copy at each end at
    MEMBW_TEXT bytes/s (PAPCOLL_SIM_MEMBW's syntax: bytes with an optional K, M or G, powers of 1024).  SMPI's
    sections are MIN:CONSTANT:PER_BYTE, a section applying above its MIN."""
    try:
        per_byte = 1.0 / size_bytes(membw_text)
    except (ConfigError, ZeroDivisionError):
        raise platform.SpecError(f"PAPCOLL_SIM_MEMBW={membw_text!r}: give bytes per second with an optional K, M or G")
    sections = f"0:0:{per_byte:.6g};{EAGER_LIMIT - 1}:0:0"
    return [f"smpi/{key}:{sections}" for key in ("os", "ois", "or")]


def command(plat_prefix, np, bench, bench_args, baseline=None, stack_kib=None, extra_cfg=()):
    """The smpirun command line and the SMPI settings in it; BASELINE names SMPI's algorithm for the collective
    of BENCH_ARGS (its --coll); STACK_KIB sets each simulated rank's stack (SimGrid's contexts/stack-size,
    default 8 MiB: 2048 ranks then need 16 GiB of address space; simulated times do not depend on it);
    EXTRA_CFG: further SimGrid settings, KEY:VALUE each, replacing the runner's own for the same key."""
    coll = bench_coll(bench_args)
    key = f"--cfg=smpi/{SMPI_SETTING.get(coll, coll)}:"
    settings = [key + baseline if baseline and s.startswith(key) else s for s in SMPI_SETTINGS]
    if baseline and key + baseline not in settings:  # a collective with no fixed setting (allgatherv, alltoall, ...)
        settings.append(key + baseline)
    if np > MMAP_PRIVATIZATION_ABOVE:
        settings += ["--cfg=smpi/privatization:mmap", "--cfg=contexts/guard-size:0"]
    if stack_kib:
        settings.append(f"--cfg=contexts/stack-size:{int(stack_kib)}")
    for cfg in extra_cfg:
        key_of = cfg.split(":", 1)[0] + ":"
        if ":" not in cfg or key_of == ":":
            raise platform.SpecError(f"--smpi-cfg {cfg!r}: give KEY:VALUE, e.g. smpi/grow-injected-times:no")
        settings = [s for s in settings if not s.startswith("--cfg=" + key_of)] + ["--cfg=" + cfg]
    cmd = ["smpirun", *settings, "--log=root.thresh:warning", "-np", str(np), "-platform", plat_prefix + ".xml",
           "-hostfile", plat_prefix + ".hosts", bench, *bench_args]
    return cmd, settings


@dataclass
class Outcome:
    """One finished smpirun: its output, exit status, wall time (s), CPU time (s, user + system of the
    simulation), and peak memory two ways: maxrss_kb is wait4's ru_maxrss (the largest process, every
    mapping of a page counted: SMPI_SHARED_MALLOC maps one page at many addresses, so this overstates
    shared buffers), pss_kb the largest proportional set size sampled every 0.2 s (/proc/PID/smaps_rollup,
    a shared page counted once; 0 when unavailable; may miss a peak shorter than the period)."""
    returncode: int
    stdout: str
    stderr: str
    wall_s: float
    maxrss_kb: int
    cpu_s: float = 0.0
    pss_kb: int = 0


def _descendants(pid):
    """PID and its descendant processes (Linux /proc)."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def _pss_kb(pids):
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                total += sum(int(line.split()[1]) for line in f if line.startswith("Pss:"))
        except (OSError, ValueError, IndexError):
            pass
    return total


class _PssSampler(threading.Thread):
    """Largest summed PSS of a process tree, sampled every PERIOD seconds until stop()."""

    def __init__(self, pid, period=0.2):
        super().__init__(daemon=True)
        self.pid, self.period, self.peak = pid, period, 0
        self._halt = threading.Event()

    def run(self):
        if not os.path.exists("/proc/self/smaps_rollup"):
            return
        while not self._halt.is_set():
            self.peak = max(self.peak, _pss_kb(_descendants(self.pid)))
            self._halt.wait(self.period)

    def stop(self):
        self._halt.set()
        self.join()


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def simulate(spec, np=None, baseline=None, bench=None, bench_args=(), env=None, timeout=None, stack_kib=None,
             extra_cfg=(), mpi_copies=False) -> Outcome:
    """Runs papcoll-bench-smpi on the platform of SPEC; ENV adds environment variables (e.g. PAPCOLL_BCAST_CHUNKS);
    STACK_KIB each simulated rank's stack, EXTRA_CFG further SimGrid settings (command()); MPI_COPIES charges the
    MPI library's eager copies (mpi_copy_settings(), at the run's PAPCOLL_SIM_MEMBW) before EXTRA_CFG applies.
    After TIMEOUT seconds (if given) the simulation (its whole process group) is killed: exit status -9 and
    a note in stderr."""
    plat = platform.generate(spec)
    np = np or plat.slots
    if np > plat.slots:
        raise platform.SpecError(f"--np={np} but the platform has {plat.slots} cores")
    coll = bench_coll(bench_args)
    if baseline:
        check_baseline(coll, baseline, np)
    bench = find_bench(bench)
    args = list(bench_args)
    if baseline and not any(a.startswith("--algo") for a in args):
        args.append("--algo=native")  # native under smpirun is SMPI's --cfg=smpi/<coll> algorithm
    full_env = dict(os.environ, **(env or {}))
    if mpi_copies:
        extra_cfg = [*mpi_copy_settings(full_env.get("PAPCOLL_SIM_MEMBW", MEMBW_DEFAULT)), *extra_cfg]
    with tempfile.TemporaryDirectory(prefix="papcoll-sim-") as d:
        prefix = os.path.join(d, "platform")
        plat.write(prefix)
        cmd, settings = command(prefix, np, bench, args, baseline, stack_kib, extra_cfg)
        full_env["PAPCOLL_SMPI_SETTINGS"] = (" ".join(settings) + f"; platform {spec}: {plat.description}"
                                             + "; intra-node copies charged at PAPCOLL_SIM_MEMBW="
                                             + full_env.get("PAPCOLL_SIM_MEMBW", MEMBW_DEFAULT + " (default)") + " B/s"
                                             + (f"; baseline SMPI {coll} {baseline} (reported as algo native)" if baseline else "")
                                             + "".join(f"; {k}={v}" for k, v in sorted((env or {}).items())))
        out_path, err_path = os.path.join(d, "stdout"), os.path.join(d, "stderr")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            t0 = time.monotonic()
            # own process group: a timeout or an interrupt kills smpirun and the simulation it started
            proc = subprocess.Popen(cmd, env=full_env, stdout=out, stderr=err, start_new_session=True)
            sampler = _PssSampler(proc.pid)
            sampler.start()
            timer = threading.Timer(timeout, _kill_group, (proc.pid,)) if timeout else None
            if timer:
                timer.start()
            try:
                _, status, usage = os.wait4(proc.pid, 0)
            except BaseException:
                _kill_group(proc.pid)
                proc.wait()
                raise
            finally:
                if timer:
                    timer.cancel()
                sampler.stop()
            wall = time.monotonic() - t0
            _kill_group(proc.pid)  # anything smpirun left behind
            proc.returncode = os.waitstatus_to_exitcode(status)
        with open(out_path) as f_out, open(err_path) as f_err:
            stderr = f_err.read()
            if timeout and proc.returncode == -signal.SIGKILL and wall >= timeout:
                stderr += f"\npapcoll sim: killed after the {timeout:g} s time limit\n"
            return Outcome(proc.returncode, f_out.read(), stderr, wall, usage.ru_maxrss,
                           usage.ru_utime + usage.ru_stime, sampler.peak)


def run(spec, np=None, baseline=None, bench=None, bench_args=(), out=sys.stdout, stack_kib=None, extra_cfg=(),
        mpi_copies=False):
    """papcoll sim run: prints the benchmark's output (its errors on stderr), returns its exit status."""
    try:
        o = simulate(spec, np, baseline, bench, bench_args, stack_kib=stack_kib, extra_cfg=extra_cfg,
                     mpi_copies=mpi_copies)
    except platform.SpecError as e:
        sys.exit(f"papcoll sim: {e}")
    out.write(o.stdout)
    if o.returncode:
        sys.stderr.write(o.stderr)
    return o.returncode
