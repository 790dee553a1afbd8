#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`papcoll trace export` against the raw trace, run by ctest (tests/trace/CMakeLists.txt):

    check_export.py --format chrome|otf2 --mpirun "MPIRUN FLAGS" --np N --preload LIB[:LIB...] [--ppn K]
                    [--tools DIR] -- PROGRAM ARGS...

Runs PROGRAM under MPIRUN with the tracer (and PAPCOLL_PPN=K), decodes the raw trace with check_trace.py's own
decoder (not the tools' reader), exports it and checks:
  chrome  the JSON against the Trace Event Format: a traceEvents array; every event an object with name (string),
          ph (string), pid and tid (integers); every complete event ("X") with cat (string), ts and dur (numbers,
          dur >= 0) and args holding the collective, call site, communicator, members count, root, bytes, arrival
          and exit times with their types; metadata events ("M") with args.name; the complete events of each
          (pid, tid) properly nested (each one inside the one open before it, or after it ends); then one complete
          event per record and rank (counts per rank equal), tid = the rank, pid = its virtual node (rank // K),
          ts and ts + dur = the record's synchronized arrival and exit (within 1 ns), and the collective, root,
          bytes, communicator size and call number of the record.
  otf2    otf2-print's output of the archive: one ENTER and one LEAVE per record on the rank's location (counts per
          rank equal), in order, at the record's synchronized arrival and exit (to the ns), in the region
          MPI_<Coll>; one MPI_COLLECTIVE_END per blocking record with its operation and root; the location groups
          under the virtual nodes of the system tree.
          Exits 77 (skipped) when otf2-print or the OTF2 Python binding is missing.
Each comparison is then run once more on a copy with one event moved by 1 us (or dropped), which it must reject:
the checks can fail.
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_trace import check, load, run, to_global  # noqa: E402

SKIP = 77


def mpi_name(coll):
    return "MPI_" + coll[:1].upper() + coll[1:]


def raw_records(header, ranks):
    """Per world rank, its records in arrival order: dict with synchronized ns times (rounded), collective name
    (i... for nonblocking), comm (KEY/INSTANCE), comm size, root, bytes, seq."""
    out = {}
    names, nb = header["collectives"], header["flags"]["nonblocking"]
    for rank, d in ranks.items():
        rows = []
        for r in d["records"]:
            key, instance, members = d["comms"][r["comm"]]
            coll = names[r["coll"]]
            rows.append({"arrive": int(round(to_global(header, rank, r["ta"]))),
                         "exit": int(round(to_global(header, rank, r["tx"]))),
                         "coll": ("i" + coll) if r["flags"] & nb else coll, "base": coll,
                         "nonblocking": bool(r["flags"] & nb), "comm": f"{key}/{instance}", "size": len(members),
                         "root": r["root"], "bytes": r["bytes"], "seq": r["seq"]})
        out[rank] = sorted(rows, key=lambda x: (x["arrive"], -x["exit"]))
    return out


# ---- chrome ----

ARG_TYPES = {"collective": str, "call_site": str, "function": str, "comm": str, "comm_size": int, "comm_rank": int,
             "root": int, "bytes": int, "arrival_us": (int, float), "exit_us": (int, float), "arrival_ns": int,
             "exit_ns": int, "seq": int, "flags": int}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def validate_chrome(doc):
    """Errors of doc against the Trace Event Format (JSON Object Format) and per-thread nesting."""
    errors = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["no traceEvents array"]
    threads = {}
    for i, e in enumerate(doc["traceEvents"]):
        if not isinstance(e, dict):
            errors.append(f"event {i}: not an object")
            continue
        if not isinstance(e.get("name"), str) or not isinstance(e.get("ph"), str):
            errors.append(f"event {i}: name or ph missing or not a string: {e}")
        if not is_int(e.get("pid")) or not is_int(e.get("tid")):
            errors.append(f"event {i}: pid/tid missing or not an integer: {e}")
            continue
        if e.get("ph") == "M":
            if not isinstance(e.get("args"), dict) or ("name" not in e["args"] and "sort_index" not in e["args"]):
                errors.append(f"event {i}: metadata event without args.name / args.sort_index: {e}")
        elif e.get("ph") == "X":
            ts, dur = e.get("ts"), e.get("dur")
            if not isinstance(ts, (int, float)) or not isinstance(dur, (int, float)) or isinstance(ts, bool):
                errors.append(f"event {i}: ts/dur missing or not numbers: {e}")
                continue
            if dur < 0:
                errors.append(f"event {i}: negative dur: {e}")
            if not isinstance(e.get("cat"), str):
                errors.append(f"event {i}: cat missing: {e}")
            args = e.get("args")
            if not isinstance(args, dict):
                errors.append(f"event {i}: no args")
                continue
            for k, t in ARG_TYPES.items():
                if k not in args or not isinstance(args[k], t) or (t is int and not is_int(args[k])):
                    errors.append(f"event {i}: args.{k} missing or not {t}: {args.get(k)!r}")
            threads.setdefault((e["pid"], e["tid"]), []).append((round(ts * 1000), round((ts + dur) * 1000), i))
        else:
            errors.append(f"event {i}: unexpected ph {e.get('ph')!r}")
    for (pid, tid), evs in threads.items():
        evs.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for start, end, i in evs:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                errors.append(f"pid {pid} tid {tid}: event {i} [{start}, {end}] ns overlaps event {stack[-1][2]} "
                              f"[{stack[-1][0]}, {stack[-1][1]}] without nesting")
            stack.append((start, end, i))
    return errors


def compare_chrome(doc, raw, ppn):
    """Errors of the complete events against the raw records."""
    errors = []
    origin = doc.get("otherData", {}).get("origin_ns")
    if not is_int(origin):
        return ["otherData.origin_ns missing"]
    by_rank = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "X":
            by_rank.setdefault(e["tid"], []).append(e)
    if sorted(by_rank) != sorted(raw):
        errors.append(f"tids {sorted(by_rank)}, ranks {sorted(raw)}")
    for rank, recs in raw.items():
        evs = sorted(by_rank.get(rank, []), key=lambda e: (e["ts"], -e["dur"]))
        if len(evs) != len(recs):
            errors.append(f"rank {rank}: {len(evs)} complete events, {len(recs)} records")
            continue
        for e, r in zip(evs, recs):
            a = round(e["ts"] * 1000) + origin
            x = round((e["ts"] + e["dur"]) * 1000) + origin
            want_pid = rank // ppn if ppn else 0
            if abs(a - r["arrive"]) > 1 or abs(x - r["exit"]) > 1:
                errors.append(f"rank {rank} {r['coll']} seq {r['seq']}: event [{a}, {x}] ns, raw [{r['arrive']}, "
                              f"{r['exit']}] ns")
            got = (e["name"], e["pid"], e["args"]["collective"], e["args"]["root"], e["args"]["bytes"],
                   e["args"]["comm"], e["args"]["comm_size"], e["args"]["seq"], e["args"]["arrival_ns"],
                   e["args"]["exit_ns"])
            want = (mpi_name(r["coll"]), want_pid, r["coll"], r["root"], r["bytes"], r["comm"], r["size"], r["seq"],
                    r["arrive"], r["exit"])
            if got != want:
                errors.append(f"rank {rank}: event {got}, raw {want}")
    return errors


def chrome(args, run_dir, raw, tmp):
    out = os.path.join(tmp, "trace.json")
    export(args, run_dir, "chrome", out)
    with open(out) as f:
        doc = json.load(f)
    errors = validate_chrome(doc) + compare_chrome(doc, raw, args.ppn)
    check(not errors, "chrome export:\n  " + "\n  ".join(errors[:20]))
    n = sum(1 for e in doc["traceEvents"] if e["ph"] == "X")
    print(f"chrome: {n} complete events, valid trace-event JSON, nested per thread, equal to the raw trace")
    # negative controls
    bad = copy.deepcopy(doc)
    x = next(e for e in bad["traceEvents"] if e["ph"] == "X")
    x["ts"] += 1.0
    check(compare_chrome(bad, raw, args.ppn), "a complete event moved by 1 us was not detected")
    bad = copy.deepcopy(doc)
    xs = [e for e in bad["traceEvents"] if e["ph"] == "X" and e["tid"] == 0]
    xs[0]["dur"] = xs[1]["ts"] - xs[0]["ts"] + 1.0  # runs 1 us into the next call
    check(validate_chrome(bad), "overlapping events on one tid were not detected")
    bad = copy.deepcopy(doc)
    del next(e for e in bad["traceEvents"] if e["ph"] == "X")["args"]["root"]
    check(validate_chrome(bad), "a complete event without args.root was not detected")
    print("chrome: a moved event, overlapping events and a missing field are each rejected")


# ---- otf2 ----

def otf2_print(archive, *opts):
    p = subprocess.run(["otf2-print", *opts, archive], capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"otf2-print {' '.join(opts)} failed:\n{p.stderr}")
    return p.stdout


def parse_otf2(archive):
    """({location id: world rank}, {location id: [(kind, time, detail)]}, {rank: node name}) from otf2-print."""
    defs = otf2_print(archive, "-G")
    groups, nodes, group_node = {}, {}, {}
    for m in re.finditer(r'^SYSTEM_TREE_NODE\s+(\d+)\s+Name: "([^"]*)"', defs, re.M):
        nodes[int(m.group(1))] = m.group(2)
    for m in re.finditer(r'^LOCATION_GROUP\s+(\d+)\s+Name: "MPI Rank (\d+)".*?Parent: "[^"]*" <(\d+)>', defs, re.M):
        groups[int(m.group(1))] = int(m.group(2))
        group_node[int(m.group(2))] = nodes[int(m.group(3))]
    loc_rank = {}
    for m in re.finditer(r'^LOCATION\s+(\d+)\s+Name: "([^"]*)".*?, Group: "[^"]*" <(\d+)>', defs, re.M):
        loc_rank[int(m.group(1))] = (groups[int(m.group(3))], m.group(2))
    events = {}
    for line in otf2_print(archive).splitlines():
        m = re.match(r"^(ENTER|LEAVE|MPI_COLLECTIVE_BEGIN|MPI_COLLECTIVE_END)\s+(\d+)\s+(\d+)\s*(.*)$", line)
        if m:
            events.setdefault(int(m.group(2)), []).append((m.group(1), int(m.group(3)), m.group(4)))
    return loc_rank, events, group_node


def compare_otf2(loc_rank, events, group_node, raw, ppn):
    errors = []
    per_rank = {}
    for loc, evs in events.items():
        rank, name = loc_rank.get(loc, (None, None))
        if rank is None:
            errors.append(f"location {loc}: not a location of an MPI rank")
            continue
        if name != "Master thread":
            errors.append(f"rank {rank}: events on an extra location {name!r} (its calls do not overlap)")
        per_rank[rank] = evs
    for rank, recs in raw.items():
        evs = per_rank.get(rank, [])
        enters = [e for e in evs if e[0] == "ENTER"]
        leaves = [e for e in evs if e[0] == "LEAVE"]
        ends = [e for e in evs if e[0] == "MPI_COLLECTIVE_END"]
        blocking = [r for r in recs if not r["nonblocking"]]
        if len(enters) != len(recs) or len(leaves) != len(recs):
            errors.append(f"rank {rank}: {len(enters)} ENTER, {len(leaves)} LEAVE, {len(recs)} records")
            continue
        if len(ends) != len(blocking):
            errors.append(f"rank {rank}: {len(ends)} MPI_COLLECTIVE_END, {len(blocking)} blocking records")
        for en, lv, r in zip(enters, leaves, recs):
            region = re.search(r'Region: "([^"]*)"', en[2])
            if (abs(en[1] - r["arrive"]) > 1 or abs(lv[1] - r["exit"]) > 1 or not region
                    or region.group(1) != mpi_name(r["coll"])):
                errors.append(f"rank {rank}: ENTER {en[1]} / LEAVE {lv[1]} {region and region.group(1)}, raw "
                              f"{r['arrive']} / {r['exit']} {mpi_name(r['coll'])} seq {r['seq']}")
        for end, r in zip(ends, blocking):
            m = re.search(r"Operation: (\w+), Communicator: \"comm ([0-9a-f]+/\d+) \((\d+) ranks\)\" <\d+>, "
                          r"Root: (\w+)", end[2])
            want_root = str(r["root"]) if r["root"] >= 0 else "NONE"
            if (not m or abs(end[1] - r["exit"]) > 1 or m.group(1) != r["base"].upper() or m.group(2) != r["comm"]
                    or int(m.group(3)) != r["size"] or m.group(4) != want_root):
                errors.append(f"rank {rank}: MPI_COLLECTIVE_END at {end[1]} {end[2]!r}, raw {r['base']} on "
                              f"{r['comm']} ({r['size']}) root {r['root']} exit {r['exit']}")
        if ppn:
            want = f"virtual node {rank // ppn} "
            if not group_node.get(rank, "").startswith(want):
                errors.append(f"rank {rank}: under system tree node {group_node.get(rank)!r}, not {want}...")
    return errors


def otf2(args, run_dir, raw, tmp):
    if not shutil.which("otf2-print"):
        print("SKIP: otf2-print not found (Debian: apt-get install otf2-tools)")
        sys.exit(SKIP)
    archive_dir = os.path.join(tmp, "otf2")
    p = export(args, run_dir, "otf2", archive_dir, allow_fail=True)
    if p.returncode != 0 and "OTF2 Python binding is not importable" in p.stderr:
        print(f"SKIP: {p.stderr.strip()}")
        sys.exit(SKIP)
    check(p.returncode == 0, f"papcoll trace export --format=otf2 failed:\n{p.stdout}\n{p.stderr}")
    archive = os.path.join(archive_dir, "traces.otf2")
    loc_rank, events, group_node = parse_otf2(archive)
    errors = compare_otf2(loc_rank, events, group_node, raw, args.ppn)
    check(not errors, "otf2 export:\n  " + "\n  ".join(errors[:20]))
    n = sum(1 for evs in events.values() for e in evs if e[0] == "ENTER")
    print(f"otf2: otf2-print reads {n} ENTER/LEAVE pairs, equal to the raw trace to the ns, with their "
          "MPI_COLLECTIVE_END records")
    bad = copy.deepcopy(events)
    loc = next(iter(bad))
    kind, t, detail = bad[loc][0]
    bad[loc][0] = (kind, t + 1000, detail)
    check(compare_otf2(loc_rank, bad, group_node, raw, args.ppn), "an ENTER moved by 1 us was not detected")
    bad = copy.deepcopy(events)
    bad[loc] = [e for e in bad[loc] if e[0] != "LEAVE"][:]
    check(compare_otf2(loc_rank, bad, group_node, raw, args.ppn), "missing LEAVE events were not detected")
    print("otf2: a moved ENTER and missing LEAVEs are each rejected")


def export(args, run_dir, fmt, out, allow_fail=False):
    env = dict(os.environ, PYTHONPATH=args.tools + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("LD_PRELOAD", None)
    p = subprocess.run([sys.executable, "-m", "papcoll_tools.cli", "trace", "export", run_dir, f"--format={fmt}",
                        "-o", out], capture_output=True, text=True, env=env, timeout=300)
    if not allow_fail:
        check(p.returncode == 0, f"papcoll trace export --format={fmt} failed:\n{p.stdout}\n{p.stderr}")
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--format", choices=("chrome", "otf2"), required=True)
    ap.add_argument("--mpirun", required=True, help="MPI launcher and its flags (shell words)")
    ap.add_argument("--np", type=int, default=3)
    ap.add_argument("--ppn", type=int, default=2, help="PAPCOLL_PPN of the run: virtual nodes expected in the export")
    ap.add_argument("--preload", required=True, help="LD_PRELOAD value (the tracer first)")
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    ap.add_argument("program", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.program and args.program[0] == "--":
        args.program = args.program[1:]
    args.tools = os.path.abspath(args.tools)
    if args.format == "otf2" and not shutil.which("otf2-print"):
        print("SKIP: otf2-print not found (Debian: apt-get install otf2-tools)")
        sys.exit(SKIP)
    with tempfile.TemporaryDirectory(prefix="papcoll-trace-export-") as tmp:
        _, run_dir = run(args, tmp, {"PAPCOLL_PPN": str(args.ppn)} if args.ppn else {})
        header, ranks = load(run_dir)
        check(header.get("papcoll_ppn") == args.ppn, f"header papcoll_ppn {header.get('papcoll_ppn')}, the run's "
              f"PAPCOLL_PPN {args.ppn}")
        raw = raw_records(header, ranks)
        (chrome if args.format == "chrome" else otf2)(args, run_dir, raw, tmp)
    print("PASS")


if __name__ == "__main__":
    main()
