"""papcoll: command-line front end of the tools.

    papcoll sim run --platform=SPEC [--np=N] [--baseline=NAME] [--bench=PATH] -- BENCH_ARGS
    papcoll sim platform SPEC -o PREFIX          write PREFIX.xml and PREFIX.hosts

SPEC: see papcoll_tools.sim.platform (cluster:16x8, cluster:16x8,preset=gige, ring:100, fattree:..., a file.xml).
"""
from __future__ import annotations

import argparse
import sys

from .sim import platform, run


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    bench_args = []
    if "--" in argv:
        i = argv.index("--")
        argv, bench_args = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(prog="papcoll", description="papcoll tools")
    sub = ap.add_subparsers(dest="group", required=True)
    sim = sub.add_parser("sim", help="SimGrid SMPI simulations").add_subparsers(dest="cmd", required=True)
    r = sim.add_parser("run", help="one simulated papcoll-bench run (arguments after --)")
    r.add_argument("--platform", required=True)
    r.add_argument("--np", type=int)
    r.add_argument("--baseline", help="an SMPI broadcast (mpich, ompi, mvapich2, binomial_tree, ...) run as 'native'")
    r.add_argument("--bench", help="path of papcoll-bench-smpi")
    pl = sim.add_parser("platform", help="write a platform's XML and hostfile")
    pl.add_argument("spec")
    pl.add_argument("-o", "--output", required=True, help="prefix of PREFIX.xml and PREFIX.hosts")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "platform":
            p = platform.generate(args.spec)
            xml, hosts = p.write(args.output)
            print(f"{xml}, {hosts}: {p.description} ({p.slots} process slots)")
            return 0
        return run.run(args.platform, args.np, args.baseline, args.bench, bench_args)
    except platform.SpecError as e:
        sys.exit(f"papcoll sim: {e}")


if __name__ == "__main__":
    sys.exit(main())
