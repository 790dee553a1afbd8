# SPDX-License-Identifier: BSD-3-Clause
"""A synthetic trace run directory (trace/format.h) from calls given by their arrival and exit times, for tests:
one communicator (MPI_COMM_WORLD of NP ranks), one node, a perfect clock (zero offsets), one call site per kind.

    write_run(directory, np, [(kind, collective, root, bytes, arrivals_us, exits_us), ...])

kind: a small integer naming the call site (its fake return address and symbol `fnKIND`); root: the root's rank or
None; arrivals_us / exits_us: one value per rank, microseconds after the call's start (calls start 1 ms apart)."""
from __future__ import annotations

import json
import os
import struct

from .reader import ROOT_NONE

COLLECTIVES = ["barrier", "bcast", "reduce", "allreduce", "allgather", "allgatherv", "alltoall", "alltoallv",
               "alltoallw", "gather", "gatherv", "scatter", "scatterv", "reduce_scatter", "reduce_scatter_block",
               "scan", "exscan"]
T0, T1 = 1_000_000_000, 2_000_000_000  # ns: the two clock synchronizations


def site_address(kind):
    return 0x1000 * kind


def write_run(directory, np_, calls, program="/bin/synthetic"):
    os.makedirs(directory, exist_ok=True)
    syncs = [{"when": w, "t_local": [t] * np_, "offset": [0] * np_, "error": [0] * np_}
             for w, t in (("init", T0), ("finalize", T1))]
    header = {"format": "papcoll-trace", "version": 1, "complete": True, "program": program,
              "mpi_library": "synthetic MPI", "world_size": np_, "record_size": 48, "collectives": COLLECTIVES,
              "flags": {"nonblocking": 1, "fortran": 2, "error": 4, "after_spill": 8},
              "root_codes": {"none": ROOT_NONE, "mpi_root": -1, "mpi_proc_null": -2}, "hosts": ["h"] * np_,
              "node_of_rank": [0] * np_,
              "clock": {"source": "CLOCK_MONOTONIC", "unit": "ns", "method": "synthetic", "rounds": 1,
                        "test_skew": "", "sync": syncs},
              "records": [len(calls)] * np_, "spills": [0] * np_, "ranks_ok": [True] * np_}
    with open(os.path.join(directory, "header.json"), "w") as f:
        json.dump(header, f)
    members = " ".join(str(r) for r in range(np_))
    for r in range(np_):
        with open(os.path.join(directory, f"rank-{r}.bin"), "wb") as f:
            f.write(struct.pack("<8sIIIiiI", b"PCTRACE\0", 1, 32, 48, r, np_, 0))
            for seq, (kind, coll, root, nbytes, a, x) in enumerate(calls):
                start = T0 + 100_000_000 + seq * 1_000_000
                f.write(struct.pack("<qqQQIIiHH", int(round(start + a[r] * 1000)), int(round(start + x[r] * 1000)),
                                    site_address(kind), nbytes, 0, seq, ROOT_NONE if root is None else root,
                                    COLLECTIVES.index(coll), 0))
        with open(os.path.join(directory, f"rank-{r}.comms"), "w") as f:
            f.write(f"0 00000000cafef00d 0 0 {np_} 0 : {members}\n")
        with open(os.path.join(directory, f"rank-{r}.sites"), "w") as f:
            for kind in sorted({c[0] for c in calls}):
                f.write(f"{site_address(kind):#x} 0x0 fn{kind} /nonexistent/libapp.so\n")
    return directory
