# SPDX-License-Identifier: BSD-3-Clause
"""papcoll phases FILE: where each collective's time goes, from PAPCOLL_PHASE_REPORT's lines.

Every process of a run with PAPCOLL_PHASE_REPORT=FILE appends, at MPI_Finalize, one line per (collective,
algorithm, role) it ran (src/core/phase.h):

    papcoll phases: rank R coll C algorithm A role root|leader|other calls N in_call_s T shm_copy_s X shm_wait_s Y rest_s Z

This prints, per (collective, algorithm, role), the mean over processes and calls of the time in the call and of
its parts, in microseconds, and each part's share: copies through the node's shared memory (under SMPI their
modelled time, PAPCOLL_SIM_MEMBW), waits on the node's shared memory (node peers arriving, cells filled or
freed), and the rest (MPI messages and their waits, local reductions, packing).
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict

LINE = re.compile(r"papcoll phases: rank (\d+) coll (\S+) algorithm (\S+) role (root|leader|other) calls (\d+) "
                  r"in_call_s (\S+) shm_copy_s (\S+) shm_wait_s (\S+) rest_s (\S+)")
PARTS = ["in_call", "shm_copy", "shm_wait", "rest"]


def read(path: str) -> list:
    """The report's lines as (rank, coll, algorithm, role, calls, seconds of each part); other lines (a program's
    own output on stderr) are skipped."""
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.search(line)
            if m:
                rank, coll, algo, role, calls, *secs = m.groups()
                rows.append((int(rank), coll, algo, role, int(calls), [float(x) for x in secs]))
    if not rows:
        raise ValueError(f"{path}: no 'papcoll phases:' line (was PAPCOLL_PHASE_REPORT set to it?)")
    return rows


def summarise(rows: list) -> list:
    """Per (coll, algorithm, role), sorted: a dict of processes, calls per process, and the mean per call and
    process of each part in microseconds (PART_us)."""
    acc = defaultdict(lambda: {"ranks": set(), "calls": 0, "secs": [0.0] * len(PARTS)})
    for rank, coll, algo, role, calls, secs in rows:
        a = acc[(coll, algo, role)]
        a["ranks"].add(rank)
        a["calls"] += calls
        a["secs"] = [x + y for x, y in zip(a["secs"], secs)]
    out = []
    for (coll, algo, role), a in sorted(acc.items()):
        r = {"coll": coll, "algorithm": algo, "role": role, "processes": len(a["ranks"]),
             "calls": a["calls"] / len(a["ranks"])}
        for part, sec in zip(PARTS, a["secs"]):
            r[f"{part}_us"] = 1e6 * sec / a["calls"] if a["calls"] else 0.0
        out.append(r)
    return out


def markdown(summary: list) -> str:
    lines = ["| collective | algorithm | role | processes | calls each | in call (us) | shm copy (us) | shm wait (us) "
             "| rest (us) |", "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in summary:
        def part(name):
            us, total = r[f"{name}_us"], r["in_call_us"]
            return f"{us:.2f} ({100 * us / total:.0f}%)" if total > 0 else f"{us:.2f}"
        lines.append(f"| {r['coll']} | {r['algorithm']} | {r['role']} | {r['processes']} | {r['calls']:g} | "
                     f"{r['in_call_us']:.2f} | {part('shm_copy')} | {part('shm_wait')} | {part('rest')} |")
    return "\n".join(lines)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("file", help="the file PAPCOLL_PHASE_REPORT named")
    ap.add_argument("--csv", metavar="OUT", help="also write the summary as CSV to OUT")


def main(args) -> int:
    try:
        summary = summarise(read(args.file))
    except (OSError, ValueError) as e:
        sys.exit(f"papcoll phases: {e}")
    print(markdown(summary))
    if args.csv:
        import csv
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=list(summary[0]))
            w.writeheader()
            w.writerows(summary)
    return 0
