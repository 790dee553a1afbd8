# SPDX-License-Identifier: BSD-3-Clause
"""papcoll trace export RUN_DIR --format=chrome|otf2 [-o OUT]: a traced run (libpapcoll_trace.so) as a timeline
other tools read (docs/trace.md, "Exports").

chrome: Chrome / Perfetto trace-event JSON (the "JSON Object Format" of the Trace Event Format): one complete event
  ("ph": "X") per collective call and rank, pid = the rank's node (the index of its node in order of the nodes'
  lowest ranks; virtual nodes with PAPCOLL_PPN or --ppn), tid = the world rank, ts and dur in microseconds on the
  synchronized clock (0 = rank 0's clock at the MPI_Init synchronization, otherData.origin_ns), args: the
  collective, call site, communicator id, its members count, the rank's rank in it, root, bytes, arrival and exit
  times (us, and synchronized ns), call number, flags; process_name / thread_name metadata events.
otf2: an OTF2 archive (OUT/traces.otf2, Score-P's layout) written by otf2_writer.py with the OTF2 Python binding:
  one region per collective, Enter/Leave per call at arrival/exit on each rank's location, MpiCollectiveBegin/End
  (collective op, communicator as an OTF2 group/comm of its members, root, bytes) for blocking calls.

The calls of one rank never overlap when one thread makes them; a rank whose calls overlap (several threads
calling collectives at once) gets further lanes: tid = rank + lane x world size in the JSON, another location of
the rank's process in OTF2, so that every thread's events nest."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

from . import otf2_writer
from .reader import Run, TraceError
from .sites import Resolver

ONE_TO_ALL = ("bcast", "scatter", "scatterv")
ALL_TO_ONE = ("reduce", "gather", "gatherv")
ALL_TO_ALL = ("allreduce", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
              "reduce_scatter_block")
ROLE = {**{c: "COLL_ONE2ALL" for c in ONE_TO_ALL}, **{c: "COLL_ALL2ONE" for c in ALL_TO_ONE},
        **{c: "COLL_ALL2ALL" for c in ALL_TO_ALL}, "barrier": "BARRIER", "scan": "COLL_OTHER", "exscan": "COLL_OTHER"}
OTF2_PYTHON_ENV = "PAPCOLL_OTF2_PYTHON"


def mpi_name(coll):
    """"ibcast" -> "MPI_Ibcast", "reduce_scatter_block" -> "MPI_Reduce_scatter_block"."""
    return "MPI_" + coll[:1].upper() + coll[1:]


def node_size(run, ppn=None):
    """The virtual node size in effect: --ppn when given (0: the recorded nodes), else the run's PAPCOLL_PPN
    (header "papcoll_ppn", written by tracers since it exists), else 0."""
    if ppn is not None:
        return max(int(ppn), 0)
    return max(int(run.header.get("papcoll_ppn", 0) or 0), 0)


def node_table(run, ppn):
    """(node index of each world rank, [node name]): nodes numbered in order of their lowest rank."""
    if ppn:
        ids = [r // ppn for r in range(run.world_size)]
    else:
        ids = list(run.node_of_rank)
    order = {}
    for n in ids:
        order.setdefault(n, len(order))
    index = [order[n] for n in ids]
    names = []
    for n, i in sorted(order.items(), key=lambda x: x[1]):
        ranks = [r for r in range(run.world_size) if ids[r] == n]
        hosts = sorted({run.hosts[r] for r in ranks})
        span = f"ranks {ranks[0]}-{ranks[-1]}" if len(ranks) > 1 else f"rank {ranks[0]}"
        names.append(f"virtual node {i} ({span}, PAPCOLL_PPN={ppn}, {', '.join(hosts)})" if ppn
                     else f"node {i} ({', '.join(hosts)}, {span})")
    return index, names


def entries(run, resolver):
    """One dict per record (call x rank) on the synchronized clock, with integer ns times, the rank's lane, the
    communicator (members, inter) and the call site; sorted by rank, then arrival."""
    comms = {}
    for rank in sorted(run.comms):
        for c in run.comms[rank].values():
            comms.setdefault((c.key, c.instance), c)
    calls = run.calls()
    resolver.resolve_all([s for c in calls for s in c.sites])
    out = []
    for c in calls:
        comm = comms[c.comm]
        for j in range(len(c.ranks)):
            where = resolver.where(*c.sites[j])
            out.append({"rank": int(c.ranks[j]), "comm_rank": int(c.comm_ranks[j]),
                        "arrive": int(round(float(c.arrive[j]))), "exit": int(round(float(c.exit[j]))),
                        "coll": c.coll, "base": c.base, "nonblocking": c.nonblocking, "root": int(c.root),
                        "bytes": int(c.bytes[j]), "flags": int(c.flags[j]), "seq": int(c.seq),
                        "comm": f"{c.comm[0]}/{c.comm[1]}", "comm_key": c.comm, "size": int(c.size),
                        "members": list(comm.members), "inter": comm.inter, "site": where.label,
                        "function": where.function})
    out.sort(key=lambda e: (e["rank"], e["arrive"], -e["exit"]))
    lanes_end = {}
    for e in out:
        ends = lanes_end.setdefault(e["rank"], [])
        lane = next((k for k, end in enumerate(ends) if end <= e["arrive"]), len(ends))
        if lane == len(ends):
            ends.append(e["exit"])
        else:
            ends[lane] = e["exit"]
        e["lane"] = lane
    return out


def origin_ns(run):
    """Time 0 of the JSON export: rank 0's clock (the synchronized clock) at the first synchronization."""
    return int(round(float(run.clock.t[0][0] + run.clock.o[0][0])))


def chrome(run, es, ppn):
    node_of, names = node_table(run, ppn)
    t0 = origin_ns(run)
    events = []
    for i, name in enumerate(names):
        events.append({"name": "process_name", "ph": "M", "pid": i, "tid": 0, "args": {"name": name}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": i, "tid": 0, "args": {"sort_index": i}})
    lanes = {}
    for e in es:
        lanes[(e["rank"], e["lane"])] = True
    for (rank, lane) in sorted(lanes):
        tid = rank + lane * run.world_size
        label = f"rank {rank}" + (f" lane {lane} (calls overlapping the rank's others)" if lane else "")
        events.append({"name": "thread_name", "ph": "M", "pid": node_of[rank], "tid": tid, "args": {"name": label}})
        events.append({"name": "thread_sort_index", "ph": "M", "pid": node_of[rank], "tid": tid,
                       "args": {"sort_index": tid}})
    for e in es:
        ts_ns, end_ns = e["arrive"] - t0, e["exit"] - t0
        events.append({
            "name": mpi_name(e["coll"]), "cat": "MPI nonblocking post" if e["nonblocking"] else "MPI collective",
            "ph": "X", "ts": ts_ns / 1000, "dur": (end_ns - ts_ns) / 1000, "pid": node_of[e["rank"]],
            "tid": e["rank"] + e["lane"] * run.world_size,
            "args": {"collective": e["coll"], "call_site": e["site"], "function": e["function"], "comm": e["comm"],
                     "comm_size": e["size"], "comm_rank": e["comm_rank"], "root": e["root"], "bytes": e["bytes"],
                     "arrival_us": ts_ns / 1000, "exit_us": end_ns / 1000, "arrival_ns": e["arrive"],
                     "exit_ns": e["exit"], "seq": e["seq"], "flags": e["flags"]}})
    h = run.header
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"generator": "papcoll trace export", "run": os.path.abspath(run.dir),
                          "program": h.get("program", ""), "world_size": run.world_size,
                          "clock": "synchronized (rank 0's CLOCK_MONOTONIC, docs/trace.md)",
                          "origin_ns": t0, "papcoll_ppn": ppn, "records": len(es)}}


def _root(e, root_codes):
    """MpiCollectiveEnd's root: the rank in the communicator, or OTF2's codes (MPI_ROOT: self, MPI_PROC_NULL:
    this group, none)."""
    if e["root"] >= 0:
        return e["root"]
    if e["root"] == root_codes.get("mpi_root", -1):
        return "self"
    if e["root"] == root_codes.get("mpi_proc_null", -2):
        return "this_group"
    return "none"


def _sizes(e, root):
    """(sent, received) of MpiCollectiveEnd from the one size the tracer records (docs/trace.md): the root of a
    one-to-all sends it, the others receive it; the root of an all-to-one receives it, the others send it;
    n-to-n and scans both; a barrier neither."""
    b, is_root = e["bytes"], root == e["comm_rank"]
    if e["base"] in ONE_TO_ALL:
        return (b, 0) if is_root else (0, b)
    if e["base"] in ALL_TO_ONE:
        return (0, b) if is_root else (b, 0)
    if e["base"] == "barrier":
        return 0, 0
    return b, b


def otf2_spec(run, es, ppn, archive):
    node_of, names = node_table(run, ppn)
    lanes = {}
    for e in es:
        lanes[e["rank"]] = max(lanes.get(e["rank"], 0), e["lane"] + 1)
    comm_ids, comms = {}, []
    regions, region_ids = [], {}
    by_location = {}
    root_codes = run.header.get("root_codes", {})
    for e in es:
        if e["comm_key"] not in comm_ids:
            comm_ids[e["comm_key"]] = len(comms)
            members = e["members"] if not e["inter"] else sorted(set(e["members"]))
            comms.append({"name": f"comm {e['comm']} ({len(members)} ranks{', inter' if e['inter'] else ''})",
                          "members": members})
        if e["coll"] not in region_ids:
            region_ids[e["coll"]] = len(regions)
            regions.append({"name": mpi_name(e["coll"]), "role": ROLE.get(e["base"], "COLL_OTHER"),
                            "description": ("nonblocking post of " if e["nonblocking"] else "") +
                            f"MPI {e['base']} (papcoll trace)"})
        root = _root(e, root_codes)
        sent, received = _sizes(e, e["root"])
        collective = None if e["nonblocking"] or e["inter"] else e["base"].upper()
        by_location.setdefault((e["rank"], e["lane"]), []).append(
            [e["arrive"], e["exit"], region_ids[e["coll"]], comm_ids[e["comm_key"]], root, sent, received,
             e["site"], e["function"], e["comm"], e["size"], e["root"], e["bytes"], e["seq"], e["flags"], collective])
    return {"archive": archive, "name": "traces",
            "description": f"papcoll trace of {run.header.get('program', '?')} ({os.path.abspath(run.dir)})",
            "nodes": [{"name": n} for n in names],
            "ranks": [{"rank": r, "node": node_of[r], "lanes": max(lanes.get(r, 0), 1)} for r in range(run.world_size)],
            "comms": comms, "regions": regions,
            "locations": [{"rank": r, "lane": lane, "calls": sorted(calls, key=lambda x: (x[0], -x[1]))}
                          for (r, lane), calls in sorted(by_location.items())]}


def otf2_python():
    """An interpreter that can import the OTF2 binding when this one cannot: $PAPCOLL_OTF2_PYTHON, else the
    system's /usr/bin/python3 (Debian's python3-otf2 is built for it); None if neither can."""
    candidates = [os.environ.get(OTF2_PYTHON_ENV), "/usr/bin/python3"]
    for exe in candidates:
        if not exe or not shutil.which(exe):
            continue
        if os.path.realpath(shutil.which(exe)) == os.path.realpath(sys.executable) and not os.environ.get(
                OTF2_PYTHON_ENV):
            continue
        p = subprocess.run([exe, "-c", "import otf2"], capture_output=True, text=True)
        if p.returncode == 0:
            return exe
    return None


def have_otf2_here():
    try:
        import otf2  # noqa: F401
        return True
    except ImportError:
        return False


def write_otf2(spec):
    """Writes the archive with the binding in this interpreter, else with otf2_writer.py run by otf2_python()."""
    if have_otf2_here():
        return otf2_writer.write(spec)
    exe = otf2_python()
    if exe is None:
        raise TraceError("OTF2 export: the OTF2 Python binding is not importable here nor by /usr/bin/python3 "
                         f"(${OTF2_PYTHON_ENV} names another interpreter); Debian 12: apt-get install python3-otf2")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
        path = f.name
    try:
        p = subprocess.run([exe, otf2_writer.__file__, path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode != 0:
        raise TraceError(f"OTF2 export: {exe} {otf2_writer.__file__} failed:\n{p.stdout}{p.stderr}")
    return spec["archive"]


def write(run_dir, fmt, out=None, ppn=None, addr2line="addr2line"):
    """Writes the export; returns the file (chrome) or the archive's anchor file traces.otf2 (otf2)."""
    run = Run(run_dir)
    ppn = node_size(run, ppn)
    es = entries(run, Resolver(run, addr2line))
    if fmt == "chrome":
        out = out or os.path.join(run_dir, "trace.json")
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            json.dump(chrome(run, es, ppn), f, separators=(",", ":"))
        return out
    if fmt == "otf2":
        archive = out or os.path.join(run_dir, "otf2")
        if os.path.exists(archive) and (not os.path.isdir(archive) or (
                os.listdir(archive) and not os.path.exists(os.path.join(archive, "traces.otf2")))):
            raise TraceError(f"{archive} exists and is not an OTF2 archive directory (no traces.otf2): not "
                             "replaced; give -o a new or archive directory")
        write_otf2(otf2_spec(run, es, ppn, archive))
        return os.path.join(archive, "traces.otf2")
    raise TraceError(f"unknown export format {fmt!r} (chrome, otf2)")
