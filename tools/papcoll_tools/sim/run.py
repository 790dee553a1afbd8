"""papcoll sim run: one simulated papcoll-bench run with every SMPI setting explicit."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from . import platform

# Settings of every simulated run (recorded in the output's #@smpi_settings):
#  - computation is not benchmarked: only communication advances simulated time;
#  - MPI_Iprobe / MPI_Test cost a small fixed simulated time;
#  - SMPI's own collectives follow MPICH's selection (SimGrid 3.32's default MPI_Allgather did not
#    finish at 256 ranks; papcoll calls it once per communicator).
# Intra-node copies through papcoll's shared memory are charged at PAPCOLL_SIM_MEMBW bytes/s (src/shm.c,
# default of src/params.c); the value in force is recorded with the settings.
MEMBW_DEFAULT = "5G"
SMPI_SETTINGS = ["--cfg=smpi/simulate-computation:no", "--cfg=smpi/host-speed:1Gf", "--cfg=smpi/coll-selector:mpich",
                 "--cfg=smpi/iprobe:1e-7", "--cfg=smpi/test:1e-7"]


def find_bench(explicit=None):
    """papcoll-bench-smpi: --bench, $PAPCOLL_BENCH_SMPI, or the repository's build tree."""
    candidates = [explicit, os.environ.get("PAPCOLL_BENCH_SMPI"),
                  os.path.join(os.path.dirname(__file__), "..", "..", "..", "build", "smpi", "bench", "papcoll-bench-smpi"),
                  shutil.which("papcoll-bench-smpi")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    sys.exit("papcoll sim: papcoll-bench-smpi not found (build with `make build`, or give --bench / PAPCOLL_BENCH_SMPI)")


def command(plat_prefix, np, bench, bench_args, baseline=None):
    settings = list(SMPI_SETTINGS)
    if baseline:
        settings.append(f"--cfg=smpi/bcast:{baseline}")
    cmd = ["smpirun", *settings, "--log=root.thresh:warning", "-np", str(np), "-platform", plat_prefix + ".xml",
           "-hostfile", plat_prefix + ".hosts", bench, *bench_args]
    return cmd, settings


@dataclass
class Outcome:
    """One finished smpirun: its output, exit status, wall time (s) and peak memory (KiB, wait4's ru_maxrss:
    the largest of smpirun and the processes it waited for, i.e. the simulation)."""
    returncode: int
    stdout: str
    stderr: str
    wall_s: float
    maxrss_kb: int


def simulate(spec, np=None, baseline=None, bench=None, bench_args=(), env=None) -> Outcome:
    """Runs papcoll-bench-smpi on the platform of SPEC; ENV adds environment variables (e.g. PAPCOLL_BCAST_CHUNKS)."""
    plat = platform.generate(spec)
    np = np or plat.slots
    if np > plat.slots:
        raise platform.SpecError(f"--np={np} but the platform has {plat.slots} cores")
    bench = find_bench(bench)
    args = list(bench_args)
    if baseline and not any(a.startswith("--algo") for a in args):
        args.append("--algo=native")  # native under smpirun is SMPI's --cfg=smpi/bcast algorithm
    with tempfile.TemporaryDirectory(prefix="papcoll-sim-") as d:
        prefix = os.path.join(d, "platform")
        plat.write(prefix)
        cmd, settings = command(prefix, np, bench, args, baseline)
        full_env = dict(os.environ, **(env or {}))
        full_env["PAPCOLL_SMPI_SETTINGS"] = (" ".join(settings) + f"; platform {spec}: {plat.description}"
                                             + f"; intra-node copies charged at PAPCOLL_SIM_MEMBW="
                                             + full_env.get("PAPCOLL_SIM_MEMBW", MEMBW_DEFAULT + " (default)") + " B/s"
                                             + (f"; baseline SMPI bcast {baseline} (reported as algo native)" if baseline else "")
                                             + "".join(f"; {k}={v}" for k, v in sorted((env or {}).items())))
        out_path, err_path = os.path.join(d, "stdout"), os.path.join(d, "stderr")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            t0 = time.monotonic()
            proc = subprocess.Popen(cmd, env=full_env, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.monotonic() - t0
            proc.returncode = os.waitstatus_to_exitcode(status)
        with open(out_path) as f_out, open(err_path) as f_err:
            return Outcome(proc.returncode, f_out.read(), f_err.read(), wall, usage.ru_maxrss)


def run(spec, np=None, baseline=None, bench=None, bench_args=(), out=sys.stdout):
    """papcoll sim run: prints the benchmark's output (its errors on stderr), returns its exit status."""
    try:
        o = simulate(spec, np, baseline, bench, bench_args)
    except platform.SpecError as e:
        sys.exit(f"papcoll sim: {e}")
    out.write(o.stdout)
    if o.returncode:
        sys.stderr.write(o.stderr)
    return o.returncode
