"""The alltoall points of docs/results/parsons2015_alltoall_wake.md (aware with its blocking wait under SMPI), as
point sets of `papcoll sim reproduce parsons2015_alltoall` (same platform, pattern, warm-up, repetitions and env),
run one at a time into sweep/ beside this file (resumable: a done point is skipped).  Run as
    BENCH=build/smpi/bench/papcoll-bench-smpi python3 docs/results/parsons2015_alltoall_wake/run_points.py aware auto isend 80k
(tiers below; each simulation is killed after 1200 s).  Sizes stop at 64 B per destination at 512 ranks: at
256 B, SMPI's MPI_Win_allocate_shared (node rank 0 allocates node size x the area) needs 538 MB per node,
beyond a 10 GB address-space limit (ulimit -v) with the rest of the simulation."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from papcoll_tools.repro import parsons2015_alltoall as m
from papcoll_tools.sim import sweep, sweep_config

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep")
TIERS = {
    "aware": [m._set(512, [x], sizes="4:64:4", algos=("aware",)) for x in (0, 10000, 40000, 20000)],
    "auto": [m._set(512, [0], sizes="4:64:4", algos=("auto",))],
    "isend": [m._base_set(512, [x], sizes="4:64:16") for x in (0, 10000, 40000)],
    "80k": [m._set(512, [80000], sizes="4:64:4", algos=("aware,hier,native",))],
}
for t in sys.argv[1:]:
    pts = sweep_config.expand(m.config(TIERS[t]))
    print(t, len(pts), "points", flush=True)
    merged, skipped, fails = sweep.sweep(pts, OUT, 1, os.environ.get("BENCH", "build/smpi/bench/papcoll-bench-smpi"), timeout=1200)
    print(t, "done; skipped", skipped, "failed", fails, flush=True)
