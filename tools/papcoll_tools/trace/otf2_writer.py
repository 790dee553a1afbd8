# SPDX-License-Identifier: BSD-3-Clause
"""Writes an OTF2 archive from the description export.py builds (a dict, or its JSON file), with the OTF2 Python
binding (Debian 12: python3-otf2, OTF2 3.0).  Standard library and `otf2` only, so that it also runs as a script
under another interpreter than the tools' one when that one cannot import `otf2` (export.py):

    python3 otf2_writer.py SPEC.json

Definitions: a system tree (the machine, one node per (virtual) node), one location group per MPI rank (a
process) holding one location (its thread; a further location per extra lane when calls of the rank overlap), an
MPI COMM_LOCATIONS group of the ranks' first locations, and per traced communicator a COMM_GROUP of its members'
world ranks and a Comm; one Region per collective (MPI paradigm, role by kind); attributes (papcoll:*) carrying the
call site, communicator, root, bytes, call number and flags.  Events per call and rank: Enter at the arrival, then
for a blocking call on an intracommunicator MpiCollectiveBegin at the arrival and MpiCollectiveEnd (the collective
op, the communicator, the root, bytes) at the exit, then Leave at the exit.  Times: synchronized ns, timer
resolution 1 ns."""
from __future__ import annotations

import json
import os
import shutil
import sys

ATTRIBUTES = [  # name, type, description (the values of one call on one rank)
    ("papcoll:call_site", "STRING", "call site of the rank: file:line, or symbol+offset (object)"),
    ("papcoll:function", "STRING", "function holding the call site"),
    ("papcoll:comm", "STRING", "communicator id of the trace: KEY/INSTANCE (members hash, instance)"),
    ("papcoll:comm_size", "UINT32", "members of the communicator"),
    ("papcoll:root", "INT32", "root as recorded: rank in the communicator; -1 MPI_ROOT, -2 MPI_PROC_NULL, "
                              "-2147483648 none"),
    ("papcoll:bytes", "UINT64", "message size the tracer recorded (docs/trace.md, Message size)"),
    ("papcoll:seq", "UINT32", "call number on the communicator"),
    ("papcoll:flags", "UINT32", "record flags: 1 nonblocking, 2 Fortran, 4 error, 8 after spill, 16 after resync"),
]


def write(spec):
    import otf2
    from otf2.enums import (CollectiveOp, CollectiveRoot, GroupType, LocationGroupType, LocationType, Paradigm,
                            RegionRole, Type)

    path = spec["archive"]
    if os.path.exists(path):
        if not os.path.isdir(path) or (os.listdir(path) and not os.path.exists(os.path.join(path, "traces.otf2"))):
            raise SystemExit(f"{path} exists and is not an OTF2 archive directory: not replaced")
        shutil.rmtree(path)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with otf2.writer.open(path, archive_name=spec.get("name", "traces"), timer_resolution=1_000_000_000) as trace:
        trace.creator = "papcoll trace export"
        trace.description = spec.get("description", "")
        defs = trace.definitions
        machine = defs.system_tree_node("machine", class_name="machine")
        nodes = [defs.system_tree_node(n["name"], class_name="node", parent=machine) for n in spec["nodes"]]
        locations = {}  # (rank, lane) -> Location
        for r in spec["ranks"]:
            group = defs.location_group(f"MPI Rank {r['rank']}", location_group_type=LocationGroupType.PROCESS,
                                        system_tree_parent=nodes[r["node"]])
            for lane in range(r["lanes"]):
                name = "Master thread" if lane == 0 else f"lane {lane} (calls overlapping the rank's others)"
                locations[(r["rank"], lane)] = defs.location(name, type=LocationType.CPU_THREAD, group=group)
        world = [locations[(r["rank"], 0)] for r in sorted(spec["ranks"], key=lambda x: x["rank"])]
        defs.group("MPI", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=world)
        comms = []
        for c in spec["comms"]:
            g = defs.group(f"group of {c['name']}", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                           members=[world[w] for w in c["members"]])
            comms.append(defs.comm(c["name"], group=g))
        regions = [defs.region(r["name"], canonical_name=r["name"], paradigm=Paradigm.MPI,
                               region_role=getattr(RegionRole, r["role"]), description=r["description"])
                   for r in spec["regions"]]
        attrs = [defs.attribute(name, description, getattr(Type, kind)) for name, kind, description in ATTRIBUTES]
        roots = {"none": CollectiveRoot.NONE, "self": CollectiveRoot.SELF, "this_group": CollectiveRoot.THIS_GROUP}
        for loc in spec["locations"]:
            writer = trace.event_writer_from_location(locations[(loc["rank"], loc["lane"])])
            for (arrive, exit_, region, comm, root, sent, received, site, function, comm_id, comm_size, root_raw,
                 nbytes, seq, flags, collective) in loc["calls"]:
                values = [site, function, comm_id, comm_size, root_raw, nbytes, seq, flags]
                writer.enter(arrive, regions[region], attributes=dict(zip(attrs, values)))
                if collective is not None:
                    writer.mpi_collective_begin(arrive)
                    writer.mpi_collective_end(exit_, getattr(CollectiveOp, collective), comms[comm],
                                              roots[root] if isinstance(root, str) else root, sent, received)
                writer.leave(exit_, regions[region])
    return path


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: otf2_writer.py SPEC.json")
    with open(argv[0]) as f:
        spec = json.load(f)
    print(write(spec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
