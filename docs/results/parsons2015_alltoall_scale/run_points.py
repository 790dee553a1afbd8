"""The points of docs/results/parsons2015_alltoall_scale.md (simulated, SimGrid SMPI 3.32), run one at a time into
sweep/ beside this file (resumable: a done point is skipped).  Run as
    BENCH=/tmp/a2a/papcoll-bench-smpi nice -n 5 bash -c 'ulimit -v 10000000; \
        python3 docs/results/parsons2015_alltoall_scale/run_points.py TIER...'
Parsons 2015 points (Table 3.8, Fig. 3.24) are the point sets of `papcoll sim reproduce parsons2015_alltoall` (its
platform cluster:Nx32,preset=gemini, --pattern=microbench:LEVEL, --unit-time=1e-5, 1 warm-up, 2 timed calls,
PAPCOLL_ALLTOALL_INTER=isend; isend's baseline: 1 call, no warm-up).  Rule points (rules_*) are the
alltoall_default_rules.inc sweep at 512 ranks: coll_perf.sh's settings (-i 3 -x 1 --seed=1, default unit
time, patterns balanced, uniform:p, late:0.2:p) on cluster:16x32,preset=gemini, with --shared-buffer (one
SMPI_SHARED_MALLOC buffer for every rank: 8 KiB per destination is 4 MiB per buffer per rank); probe_* check
what changes hier's time, auto_* measure `auto` (run them with a bench built with the rules to measure), the
*_aware4 tiers locate the deadlock of aware under imbalance (N x 32 ranks, N >= 18).
Every simulation runs with --stack-size=1024 (SimGrid contexts/stack-size, KiB) and is killed after
TIMEOUT s (default 1500); one of 1024 ranks or more first takes the machine-wide lock
/tmp/papcoll_bigsim.lock (flock(2), the lock flock(1) takes) and holds it for that point only."""
import fcntl
import functools
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from papcoll_tools.repro import parsons2015_alltoall as m  # noqa: E402
from papcoll_tools.sim import run, sweep, sweep_config  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep")
LOCK = "/tmp/papcoll_bigsim.lock"
STACK_KIB = 1024
TIMEOUT = int(os.environ.get("TIMEOUT", "1500"))


def rules(pattern, sizes, algos="hier,aware", bench_args=("--shared-buffer",)):
    return {"name": "seed001_alltoall_scale_rules", "colls": ["alltoall"], "warmup": 1, "iters": 3, "seed": 1,
            "bench_args": list(bench_args),
            "sweep": [{"platforms": ["cluster:16x32,preset=gemini"], "patterns": [pattern], "algos": [algos],
                       "sizes": [sizes]}]}


TIERS = {
    # step 1: 256 B per destination at 512 ranks (the node-window fix)
    "512_256": [m._set(512, [x], sizes="256", algos=("aware,hier,native",)) for x in (0, 10000)],
    "512_256_isend": [m._base_set(512, [0], sizes="256")],
    # (named probe_* so that a 1024-rank run of this file waits for it: _one_at_a_time)
    "probe_512_256_levels": [m._set(512, [x], sizes="256", algos=("aware",)) for x in (20000, 40000)],
    # Table 3.8 / Fig. 3.24 at 1024 ranks
    "1024": [m._set(1024, [x], sizes="4:64:4", algos=("aware,hier,native",)) for x in (0, 10000)],
    # level 10k at 1024 ranks deadlocked (SimGrid: "Deadlock detected") in the three-algorithm run: which one?
    "1024_10k_aware4": [m._set(1024, [10000], sizes="4", algos=("aware",))],
    "1024_10k_hier_native": [m._set(1024, [10000], sizes="4:64:4", algos=("hier,native",))],
    # the same below the lock's 1024 ranks: 17, 18 and 24 nodes of 32 (cheaper reproducers) and controls
    "768_10k_aware4": [{**m._set(512, [10000], sizes="4", algos=("aware",)), "platforms": ["cluster:24x32,preset=gemini"]}],
    "768_0_aware4": [{**m._set(512, [0], sizes="4", algos=("aware",)), "platforms": ["cluster:24x32,preset=gemini"]}],
    "512_10k_aware4": [m._set(512, [10000], sizes="4", algos=("aware",))],
    # q >= 2 (N - 1) (senders and receivers different processes) holds up to 17 nodes of 32
    "544_10k_aware4": [{**m._set(512, [10000], sizes="4", algos=("aware",)), "platforms": ["cluster:17x32,preset=gemini"]}],
    "576_10k_aware4": [{**m._set(512, [10000], sizes="4", algos=("aware",)), "platforms": ["cluster:18x32,preset=gemini"]}],
    "1024_40k": [m._set(1024, [40000], sizes="4:64:4", algos=("aware,hier,native",))],
    "1024_isend16": [m._base_set(1024, [0], sizes="16")],
    "1024_isend16_10k": [m._base_set(1024, [10000], sizes="16")],
    "1024_isend4_64": [m._base_set(1024, [x], sizes="4:64:16") for x in (0, 10000)],
    # 2048 ranks, 64 B (Fig. 3.24's size)
    "2048": [m._set(2048, [x], sizes="64", algos=("aware,hier",)) for x in (0, 10000)],
    "2048_isend": [m._base_set(2048, [0], sizes="64")],
}
RULE_TIERS = {
    "rules_balanced": rules("balanced", "16:8K:2"),
    # imbalanced: 16, 64, 256 B, 1 KiB (4 KiB and up ran out of memory balanced; time)
    "rules_uniform": rules("uniform:512", "16:1K:4"),
    "rules_late": rules("late:0.2:512", "16:1K:4"),
    # the same without --shared-buffer, small sizes (does the buffer change the simulated times?)
    "probe_private": rules("balanced", "16:64:4", "hier,aware", ()),
    # the same with PAPCOLL_ALLTOALL_INTER=isend (hier's leaders run MPICH's Isend algorithm, as in parsons2015_alltoall)
    "probe_inter_isend": {**rules("balanced", "16:64:4", "hier,aware", ()), "env": {"PAPCOLL_ALLTOALL_INTER": "isend"}},
    # hier with isend among its leaders (what the new rules give it) under the imbalanced patterns
    "probe_hier_isend_uniform": {**rules("uniform:512", "16:1K:4", "hier"), "env": {"PAPCOLL_ALLTOALL_INTER": "isend"}},
    "probe_hier_isend_late": {**rules("late:0.2:512", "16:1K:4", "hier"), "env": {"PAPCOLL_ALLTOALL_INTER": "isend"}},
    # `auto` with the rules of alltoall_default_rules.inc (rebuilt bench)
    "auto_balanced": rules("balanced", "16:1K:4", "hier,aware,auto"),
    "auto_balanced2": rules("balanced", "32:2K:4", "hier,aware,auto"),
    "auto_uniform": rules("uniform:512", "16:1K:4", "auto"),
    "auto_late": rules("late:0.2:512", "16:1K:4", "auto"),
}


MARK = "/tmp/a2a/big.holding"  # while it exists, the small-point runner of this session starts nothing


def _one_at_a_time():
    """One simulation of ours at a time: with the lock held, mark it and let a running 512-rank point finish."""
    os.makedirs(os.path.dirname(MARK), exist_ok=True)
    open(MARK, "w").close()
    while subprocess.run(["pgrep", "-f", "run_points.py (rules|auto|probe|512_|544_|576_|768_)"], capture_output=True).returncode == 0:
        time.sleep(5)


def locked_simulate(simulate, *args, **kw):
    spec, np = args[0], args[1]
    world = np or (int(spec.split(":")[1].split(",")[0].split("x")[0]) * int(spec.split("x")[1].split(",")[0]))
    kw["stack_kib"] = STACK_KIB
    if world < 1024:
        return simulate(*args, **kw)
    with open(LOCK, "a") as f:
        print(f"waiting for {LOCK} ({world} ranks)", file=sys.stderr, flush=True)
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            _one_at_a_time()
            return simulate(*args, **kw)
        finally:
            if os.path.exists(MARK):
                os.unlink(MARK)
            fcntl.flock(f, fcntl.LOCK_UN)


run.simulate = functools.partial(locked_simulate, run.simulate)

for t in sys.argv[1:]:
    pts = sweep_config.expand(RULE_TIERS[t] if t in RULE_TIERS else m.config(TIERS[t]))
    print(t, len(pts), "points", flush=True)
    merged, skipped, fails = sweep.sweep(pts, OUT, 1, os.environ.get("BENCH", "build/smpi/bench/papcoll-bench-smpi"),
                                         timeout=TIMEOUT)
    print(t, "done; skipped", skipped, "failed", fails, flush=True)
