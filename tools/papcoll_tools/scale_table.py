# SPDX-License-Identifier: BSD-3-Clause
"""The cost table of a scale sweep (tools/scale/run.sh): one line per simulated run, by rank count.

    python3 -m papcoll_tools.scale_table SWEEP.csv      Markdown on stdout
"""
from __future__ import annotations

import sys

from . import report


def table(rows):
    lines = ["| ranks | platform | buffers | algorithm | simulated e_bar (ms) | wall (s) | CPU (s) | peak PSS (MB) | ru_maxrss (MB) |",
             "|---:|---|---|---|---:|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: ("--shared-buffer" in r["bench_args"], r["p"], r["algo"])):
        shared = "shared" if "--shared-buffer" in r["bench_args"] else "private"
        lines.append(f"| {int(r['p'])} | {r['platform']} | {shared} | {r['algo']} | {r['e_bar'] * 1e3:.3f} | "
                     f"{r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['pss_mb']:.0f} | {r['maxrss_mb']:.0f} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sys.stdout.write(table(report.read(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
