"""Runs chosen points of `papcoll sim reproduce parsons2015_ch2` (simulated, SimGrid SMPI 3.32) into sweep/ beside
this file, one at a time, in the order asked (the command itself runs its tiers in order; this picks points
inside them).  A done point is skipped; the points, settings and timeout are the module's own
(tools/papcoll_tools/repro/parsons2015_ch2.py: TIMEOUT, STACK_KIB, BIG_LOCK from BIG_WORLD ranks).  Run as
    BENCH=/tmp/ch2/bin/papcoll-bench-smpi nice -n 5 bash -c 'ulimit -v 10000000; \\
        python3 docs/results/parsons2015_ch2/run_points.py WORLD:COLL[:ALGOS] ...'
e.g. 512:alltoallv 512:reduce_scatter:pairwise 1024:allgather:ring,hier,multisender_ring senders:reduce_scatter;
afterwards
`papcoll sim reproduce parsons2015_ch2 --budget=0` rewrites the report from every finished point."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from papcoll_tools.repro import common, parsons2015_ch2 as m  # noqa: E402
from papcoll_tools.sim import sweep  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep")


def world(point):
    nodes, ppn = point.platform.split(":")[1].split(",")[0].split("x")
    return int(nodes) * int(ppn)


def select(spec):
    if spec.startswith("senders:"):  # the number-of-senders tier of one collective
        return [p for p in m.all_points() if p.coll == spec.split(":")[1] and any(k.endswith("_SENDERS") for k, _ in p.env)]
    parts = spec.split(":")
    w, coll, algos = int(parts[0]), parts[1], parts[2] if len(parts) > 2 else None
    return [p for p in m.all_points() if world(p) == w and p.coll == coll and (algos is None or p.algo == algos)
            and not any(k.endswith("_SENDERS") for k, _ in p.env)]


with common.big_run_settings():
    for spec in sys.argv[1:]:
        pts = select(spec)
        print(spec, len(pts), "points", flush=True)
        _, skipped, fails = sweep.sweep(pts, OUT, 1, os.environ.get("BENCH"), timeout=m.TIMEOUT)
        print(spec, "skipped", skipped, "failed", fails, flush=True)
