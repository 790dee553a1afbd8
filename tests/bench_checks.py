#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end checks of papcoll-bench, run by ctest (one check per test), for each collective it
measures (--coll=bcast|reduce|allreduce|allgather|allgatherv|reduce_scatter|reduce_scatter_block|alltoall|
alltoallv|gather|gatherv|scatter|scatterv; the nonblocking ibarrier|ibcast|ireduce|iallreduce).

Environment (set by tests/CMakeLists.txt): PAPCOLL_BENCH, PAPCOLL_MPIRUN (command
prefix, shell words), and for simulated checks PAPCOLL_BENCH_SMPI,
PAPCOLL_SMPIRUN (prefix) and PAPCOLL_PLATFORM (path prefix of .xml/.hosts).
"""
import csv
import io
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

# no root: e_root does not apply, bound = mean b_i
ROOTLESS = ("allreduce", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block", "alltoall", "alltoallv")
FAN_IN = ("reduce", "gather", "gatherv")  # the root waits for everybody: root_bound = b_root, bound = b_root / n
FAN_OUT = ("bcast", "scatter", "scatterv")  # everybody waits for the root: Patarasuk & Yuan 2008 Lemma 2
# the collectives added after allgather, each with the --dtype its checks use
NBC_FORMS = ("ibarrier", "ibcast", "ireduce", "iallreduce")  # nonblocking forms (bench/nonblocking.h)
NBC_FIELDS = ["t_cpu", "t_ovrl", "wait", "wait_max", "overlap"]  # their CSV fields, after the percentiles
BLOCK_COLLS = (("reduce_scatter", "int"), ("reduce_scatter_block", "double"), ("alltoall", "char"),
               ("alltoallv", "int"), ("gather", "double"), ("gatherv", "char"), ("scatter", "int"), ("scatterv", "double"))

def run(cmd, env=None, expect_rc=0):
    full_env = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=600)
    if expect_rc is not None and p.returncode != expect_rc:
        sys.exit(f"FAIL: {' '.join(cmd)} returned {p.returncode}, expected {expect_rc}\n{p.stdout}\n{p.stderr}")
    return p


def native(np, *args):
    return shlex.split(os.environ["PAPCOLL_MPIRUN"]) + ["-np", str(np), os.environ["PAPCOLL_BENCH"], *args]


def simulated(np, *args):
    plat = os.environ["PAPCOLL_PLATFORM"]
    return (shlex.split(os.environ["PAPCOLL_SMPIRUN"]) + ["-np", str(np), "-platform", plat + ".xml", "-hostfile", plat + ".hosts",
            os.environ["PAPCOLL_BENCH_SMPI"], *args])


def rows(text):
    return list(csv.DictReader(io.StringIO("".join(l for l in text.splitlines(True) if not l.startswith("#")))))


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def validate_corrupt():
    """--validate passes on good data and catches a deliberately damaged result element: a byte of a
    broadcast, an element of a reduce's result at the root, of an allreduce's or an allgather's on rank root+1
    (int, double and char, rotating root; allgatherv's unequal blocks in reverse rank order)."""
    runs = [["--algo=binomial,scatter_ring_allgather", "-m", "1K:64K"],
            ["--coll=reduce", "--algo=all,auto", "-m", "1K:64K:8", "-k", "rotate"],
            ["--coll=allreduce", "--dtype=double", "--algo=all,auto", "-m", "1K:64K:8"],
            ["--coll=allgather", "--algo=all,auto", "-m", "1K:64K:8", "-k", "rotate"],
            ["--coll=allgatherv", "--dtype=char", "--algo=all,auto", "-m", "1K:64K:8"]]
    for extra in runs:
        args = [*extra, "-i", "3", "-x", "1", "-c", "--format=csv"]
        good = run(native(2, *args))
        check(all(r["check"] == "Pass" for r in rows(good.stdout)) and rows(good.stdout), f"clean run not all Pass: {extra}")
        check(all(math.isnan(float(r[k])) for r in rows(good.stdout) for k in ("t_cpu", "t_ovrl", "wait", "overlap")),
              f"a blocking collective has the nonblocking forms' numbers: {extra}")
        for r in rows(good.stdout):  # percentiles of e_i (pooled) and of after_last: ordered; p50 of after_last is its median
            if int(r["valid_reps"]) == 0:  # every start missed (a loaded machine): nan, as every time column
                check(all(r[k] == "nan" for k in ("e_bar", "e_p50", "after_p99")), f"no valid repetition but numbers: {r}")
                continue
            e = [float(r[k]) for k in ("e_p50", "e_p90", "e_p99")]
            after = [float(r[k]) for k in ("after_p50", "after_p90", "after_p99")]
            check(0 <= e[0] <= e[1] <= e[2] and 0 <= after[0] <= after[1] <= after[2], f"percentiles {e} {after}")
            check(abs(after[0] - float(r["after_last"])) <= 1e-9 * (1 + abs(after[0])), "after_p50 != after_last median")
        bad = run(native(2, *args), env={"PAPCOLL_BENCH_CORRUPT": "1"}, expect_rc=None)
        check(bad.returncode != 0, f"corrupted run exited 0: {extra}")
        check(all(r["check"] == "Fail" for r in rows(bad.stdout)) and rows(bad.stdout),
              f"corrupted run not reported as Fail: {extra}")
    # --algo=all is every algorithm of src/allgather/algorithms.list, for allgatherv too
    listed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "allgather", "algorithms.list")
    with open(listed) as f:
        names = [l.split("|")[0].strip() for l in f if l.strip() and not l.startswith("#")]
    for coll in ("allgather", "allgatherv"):
        out = run(native(1, f"--coll={coll}", "--list")).stdout.split("\n")
        check([l.split()[1] for l in out if l.strip()] == names, f"{coll} --list: {out} != {names}")
    # --list without --coll: every collective's algorithms.list, in full, under its name (src/nbc's, the
    # nonblocking forms: check "nonblocking")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    every = [l.split()[:2] for l in run(native(1, "--list")).stdout.split("\n") if l.strip()]
    colls = sorted({c for c, _ in every if c not in NBC_FORMS})
    check(colls == sorted(d for d in os.listdir(src)
                          if d != "nbc" and os.path.exists(os.path.join(src, d, "algorithms.list"))),
          f"--list: collectives {colls}")
    for coll in colls:
        with open(os.path.join(src, coll, "algorithms.list")) as f:
            names = [l.split("|")[0].strip() for l in f if l.strip() and not l.startswith("#")]
        check([a for c, a in every if c == coll] == names, f"--list: {coll}'s algorithms differ from its algorithms.list")
    print("validate-corrupt: bcast, reduce, allreduce, allgather, allgatherv, --list OK")


def nonblocking():
    """--coll=ibarrier|ibcast|ireduce|iallreduce: every algorithm of src/nbc/algorithms.list (--list, --algo=all)
    passes -c under an arrival pattern, the IMB-NBC columns are consistent (t_ovrl >= t_cpu, wait_max >= wait,
    overlap in [0, 100]; validate-corrupt: nan for a blocking collective), the table shows them, and a damaged
    ireduce result fails."""
    listed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "nbc", "algorithms.list")
    with open(listed) as f:
        lines = [[x.strip() for x in l.split("|")] for l in f if l.strip() and not l.startswith("#")]
    every = [l.split()[:2] for l in run(native(1, "--list")).stdout.split("\n") if l.strip()]
    for coll in NBC_FORMS:
        want = [l[1] for l in lines if l[0] == coll]
        check([a for c, a in every if c == coll] == want, f"{coll} --list: {every} != {want}")
        args = [f"--coll={coll}", "--algo=all,auto", "-m", "1K:16K:16" if coll == "ireduce" else "1K:1K", "-i", "3",
                "-x", "1", "-c", "--format=csv", "--pattern=uniform:4", "-k", "rotate"]
        got = rows(run(native(2, *args)).stdout)
        check(got and all(r["check"] == "Pass" for r in got), f"{coll}: not all Pass: {got}")
        check(sorted({r["algo"] for r in got}) == sorted(want + ["auto"]), f"{coll}: algorithms {got}")
        for r in got:
            v = {k: float(r[k]) for k in ("e_bar", "t_cpu", "t_ovrl", "wait", "wait_max", "overlap")}
            if any(math.isnan(x) for x in v.values()):  # every start missed (a loaded machine)
                continue
            check(v["t_ovrl"] >= v["t_cpu"] and v["wait_max"] >= v["wait"] >= 0 and 0 <= v["overlap"] <= 100,
                  f"{coll}: inconsistent IMB-NBC columns {v}")
    table = run(native(2, "--coll=iallreduce", "--algo=recursive_doubling", "-m", "1K:1K", "-i", "2")).stdout
    check("overlap(%)" in table and "wait(us)" in table, f"table without the IMB-NBC columns: {table}")
    args = ["--coll=ireduce", "--algo=binomial,dynleader", "-m", "1K:1K", "-i", "2", "-c", "--format=csv"]
    bad = run(native(2, *args), env={"PAPCOLL_BENCH_CORRUPT": "1"}, expect_rc=None)
    check(bad.returncode != 0 and rows(bad.stdout) and all(r["check"] == "Fail" for r in rows(bad.stdout)),
          "a damaged ireduce result is not reported as Fail")
    got = rows(run(native(2, "--coll=iallreduce", "--algo=all", "-m", "1K:1K", "-i", "2", "-c", "--format=csv",
                          "--nbc-tests=3")).stdout)
    check(got and all(r["check"] == "Pass" for r in got), f"--nbc-tests=3: not all Pass: {got}")
    for bad_args in (["--coll=iallreduce", "--nbc-tests=-1"], ["--coll=iallreduce", "--nbc-tests=x"],
                     ["--coll=allreduce", "--nbc-tests=2"]):
        refused = run(native(1, *bad_args), expect_rc=None)
        check(refused.returncode != 0 and "--nbc-tests" in refused.stderr, f"{bad_args} not refused: {refused.stderr}")
    print("nonblocking: ibarrier, ibcast, ireduce, iallreduce: --list, -c, IMB-NBC columns, --nbc-tests OK")


def smpi_nonblocking():
    """papcoll-bench-smpi measures the nonblocking forms (SMPI has no generalized requests: papcoll's handle is a
    receive from self): every algorithm and auto pass -c on 16 simulated ranks of 4 nodes, ireduce also on 13 (nodes
    of 4, 4, 4 and 1) with late processes, and the IMB-NBC columns are there."""
    for coll in NBC_FORMS:
        args = [f"--coll={coll}", "--algo=all,auto", "-m", "8:8K:32", "-i", "2", "-x", "1", "-c", "--format=csv",
                "-k", "rotate"]
        got = rows(run(simulated(16, *args)).stdout)
        check(got and all(r["check"] == "Pass" for r in got), f"simulated {coll}: not all Pass: {got}")
    got = rows(run(simulated(13, "--coll=ireduce", "--algo=binomial,dynleader", "-m", "8K:8K", "-i", "3", "-c",
                             "--format=csv", "--pattern=late:0.3:8", "-k", "rotate")).stdout)
    check(got and all(r["check"] == "Pass" for r in got), f"simulated ireduce on unequal nodes: {got}")
    check(all(0 <= float(r["overlap"]) <= 100 for r in got), f"simulated overlap out of [0, 100]: {got}")
    # tests during the computation: a request that completes there is not tested again (SimGrid's MPI_Test
    # of MPI_REQUEST_NULL leaves the flag unset)
    got = rows(run(simulated(16, "--coll=iallreduce", "--algo=recursive_doubling,dynleader", "-m", "8:8K:1024",
                             "-i", "2", "-c", "--format=csv", "--nbc-tests=4", "--pattern=late:0.2:4")).stdout)
    check(got and all(r["check"] == "Pass" for r in got), f"simulated --nbc-tests=4: not all Pass: {got}")
    print("smpi-nonblocking: ibarrier, ibcast, ireduce, iallreduce simulated: -c Pass: OK")


def same_number(a, b):
    """A CSV number (text, "nan" for a quantity that does not apply) and the JSON one (null for it)."""
    if b is None or a == "nan":
        return a == "nan" and b is None
    return abs(float(a) - float(b)) <= 1e-6 * abs(float(a))


def formats():
    """CSV and JSON carry the same numbers (e_root: nan / null for allreduce); a simulated run is deterministic."""
    runs = [(["--algo=binomial,chain_pipelined,auto", "-m", "1K:256K"], 27),
            (["--coll=reduce", "--algo=native,auto", "-m", "1K:256K:4"], 10),
            (["--coll=allreduce", "--dtype=double", "--algo=native,auto", "-m", "1K:256K:4"], 10),
            (["--coll=allgatherv", "--algo=ring,auto", "-m", "1K:256K:4"], 10)]
    for extra, expected in runs:
        args = [*extra, "-i", "4", "-x", "1", "--pattern=uniform:4", "--seed=9"]
        c1 = run(simulated(16, *args, "--format=csv")).stdout
        c2 = run(simulated(16, *args, "--format=csv")).stdout
        check(c1 == c2, f"two identical simulated runs differ: {extra}")
        j = json.loads(run(simulated(16, *args, "--format=json")).stdout)
        crows = rows(c1)
        check(len(crows) == len(j["results"]) == expected, f"row counts {len(crows)} / {len(j['results'])}: {extra}")
        for cr, jr in zip(crows, j["results"]):
            check(cr.keys() == jr.keys(), f"CSV and JSON fields differ: {sorted(cr.keys() ^ jr.keys())}")
            for key, value in cr.items():
                if key in ("coll", "algo", "pattern", "check"):
                    check(str(jr[key]) == value, f"{key}: {jr[key]} != {value}")
                else:
                    check(same_number(value, jr[key]), f"{key}: {jr[key]} != {value} ({extra})")
            coll = jr["coll"]
            check((jr["e_root"] is None) == (coll in ROOTLESS) and (jr["root_bound"] is None) == (coll not in FAN_IN),
                  f"e_root / root_bound of {coll}: {jr['e_root']} / {jr['root_bound']}")
        check(j["meta"]["pattern"] == "uniform:4" and j["meta"]["simulated"].startswith("yes"), "JSON metadata")
        check(j["meta"]["coll"] == crows[0]["coll"], "JSON metadata: coll")
    print("formats: OK for bcast, reduce, allreduce, allgatherv")


def t_per_size(text):
    """The #@T=size:seconds lines of a run."""
    out = {}
    for line in text.splitlines():
        if line.startswith("#@T="):
            size, seconds = line[4:].split(":")
            out[int(size)] = float(seconds)
    return out


def check_metrics(coll, out, raw_rows):
    """Recomputes, from the raw a_i and f_i of every valid repetition, after_last, e_root and the lower bounds
    of docs/benchmark.md for COLL, and checks the medians the benchmark reported."""
    T = t_per_size(out)
    reps = defaultdict(list)
    for r in raw_rows:
        reps[(r["algo"], int(r["size"]), int(r["rep"]))].append(r)
    per = defaultdict(lambda: defaultdict(list))
    for (algo, size, _), procs in reps.items():
        if any(r["missed"] == "1" for r in procs):
            continue
        a = {int(r["rank"]): float(r["a"]) for r in procs}
        f = {int(r["rank"]): float(r["f"]) for r in procs}
        root, n, t = int(procs[0]["root"]), len(a), T[size]

        def needs_all(i):  # i cannot hold the result before every other input reached it
            return max(0.0, max(a[j] for j in a if j != i) + t - a[i])
        q = per[(algo, size)]
        q["after_last"].append(max(f.values()) - max(a.values()))
        q["e_root"].append(f[root] - a[root])
        if coll in FAN_OUT:
            root_waits = sum(max(0.0, a[root] - a[i]) for i in a)  # Patarasuk & Yuan 2008 §3.1: the wait for the root
            q["bound"].append((root_waits + max(a.values()) - a[root] + (n - 1) * t) / n)  # and Lemma 2
        elif coll in FAN_IN:
            q["root_bound"].append(needs_all(root))
            q["bound"].append(needs_all(root) / n)
        else:
            q["bound"].append(sum(needs_all(i) for i in a) / n)
    for r in rows(out):
        q = per[(r["algo"], int(r["size"]))]
        for key in ("after_last", "e_root", "root_bound", "bound"):
            if (key == "root_bound" and coll not in FAN_IN) or (key == "e_root" and coll in ROOTLESS):
                check(r[key] == "nan", f"{coll} {key} = {r[key]}, expected nan")
                continue
            want = statistics.median(q[key])
            # the raw file's times have 9 decimals: each recomputed difference is good to about 1 ns
            check(math.isclose(float(r[key]), want, rel_tol=1e-6, abs_tol=4e-9),
                  f"{coll} {r['algo']} {r['size']}: {key} {r[key]} != {want} recomputed from the raw arrivals")
        if coll in ROOTLESS:  # nobody finishes before the last input has travelled: after_last >= T
            check(float(r["after_last"]) >= T[int(r["size"])] * (1 - 1e-6), f"{coll} after_last {r['after_last']} < T")

def tune_file():
    """PAPCOLL_TUNE_FILE: --check-tune names each problem's line and fails; a good file passes; its rules
    choose the algorithm (after PAPCOLL_TUNE, before the built-in rules); a bad file is ignored with a warning."""
    with tempfile.TemporaryDirectory() as d:
        good, bad = os.path.join(d, "good.tune"), os.path.join(d, "bad.tune")
        with open(good, "w") as f:
            f.write("# site rules\nbcast[bytes<=4]=linear|binomial  # tiny\n\nreduce[op=user]=binomial; bcast=chain\n")
        with open(bad, "w") as f:
            f.write("bcast=linear\nbcast=binomial|no_such_algo\nbcast[bytes<=]=chain\nnocoll=binomial\n")
        p = run(native(1, f"--check-tune={good}"))
        check("rules OK" in p.stdout, f"good file not accepted: {p.stdout}{p.stderr}")
        p = run(native(1, f"--check-tune={bad}"), expect_rc=1)
        for line, what in ((2, "unknown bcast algorithm \"no_such_algo\""), (3, ""), (4, "unknown collective \"nocoll\"")):
            check(f"{bad}:{line}: {what}" in p.stderr, f"--check-tune did not report line {line} ({what}): {p.stderr}")
        check("3 problem(s)" in p.stderr, f"problem count: {p.stderr}")
        p = run(native(1, f"--check-tune={d}/missing.tune"), expect_rc=1)
        check("cannot read" in p.stderr, f"missing file: {p.stderr}")

        def chosen(env):
            p = run(native(2, "--coll=bcast", "--algo=auto", "-m", "4:16", "-i", "1", "-x", "0"),
                    env=dict(env, PAPCOLL_LOG="debug"))
            # "ALGO (RULE SOURCE rule N; adapt: ...)": adaptive selection's part dropped (the rule that chose)
            return {int(l.split("bytes=")[1].split()[0]): l.split("algorithm=")[1].strip().split("; adapt:")[0].rstrip(")") + ")"
                    for l in p.stderr.splitlines() if l.startswith("papcoll[0] debug: bcast")}, p.stderr
        got, _ = chosen({"PAPCOLL_TUNE_FILE": good})
        check(got[4] == "linear (PAPCOLL_TUNE_FILE rule 1)" and got[16] == "chain (PAPCOLL_TUNE_FILE rule 3)",
              f"file rules not applied: {got}")
        got, _ = chosen({"PAPCOLL_TUNE_FILE": good, "PAPCOLL_TUNE": "bcast[bytes>=8]=binomial"})
        check(got[4].startswith("linear (PAPCOLL_TUNE_FILE") and got[16] == "binomial (PAPCOLL_TUNE rule 1)",
              f"PAPCOLL_TUNE must come first: {got}")
        got, err = chosen({"PAPCOLL_TUNE_FILE": bad})
        check(all("built-in rule" in v for v in got.values()) and f"ignoring PAPCOLL_TUNE_FILE {bad}" in err
              and f"{bad}:3:" in err, f"a file with a syntax error must be ignored with a warning: {got}\n{err}")


def arrivals(sim, coll_args=("--algo=binomial,linear",)):
    """Realized arrivals match the plan: exactly when simulated, within the tolerance natively."""
    with tempfile.TemporaryDirectory() as d:
        raw = os.path.join(d, "raw.csv")
        args = [*coll_args, "-m", "4K:4K", "-i", "30", "-x", "2", "--pattern=uniform:8", f"--raw={raw}",
                "--format=csv", "--tolerance=2e-5"]
        out = run(simulated(16, *args) if sim else native(2, *args)).stdout
        with open(raw) as f:
            rr = list(csv.DictReader(f))
    late = [float(r["a"]) - float(r["planned"]) for r in rr]
    check(len(rr) == (16 if sim else 2) * 2 * 30, f"raw rows {len(rr)}")
    spread = max(float(r["planned"]) - min(float(q["planned"]) for q in rr if q["rep"] == r["rep"] and q["algo"] == r["algo"]) for r in rr)
    check(spread > 0, "planned delays all zero")
    if sim:
        # exact up to SimGrid's clock resolution (its surf/precision is 1e-9 s; 10 ns seen)
        check(max(abs(x) for x in late) < 1e-7, f"simulated arrival differs from plan by {max(abs(x) for x in late)}")
        check(all(r["valid_reps"] == r["reps"] for r in rows(out)), "missed starts in simulation")
    else:
        ok = [x for r, x in zip(rr, late) if r["missed"] == "0"]
        check(all(-1e-9 <= x <= 2e-5 for x in ok), "a valid arrival is outside the tolerance")
        valid = sum(int(r["valid_reps"]) for r in rows(out))
        check(valid >= 0.5 * 2 * 30, f"only {valid} of 60 repetitions started on time")
    print("arrivals:", " ".join(coll_args), "simulated exact" if sim else "native within 20 us", "OK")
    return out, rr


def smpi_arrivals():
    """Exact simulated arrivals for each collective; the reported after_last, e_root and bounds equal those
    recomputed from the raw arrivals and exits (rotating root for the reductions)."""
    out, raw = arrivals(True)
    check_metrics("bcast", out, raw)
    for coll in ("reduce", "allreduce", "allgather", "allgatherv"):
        out, raw = arrivals(True, (f"--coll={coll}", "--algo=native,auto", "-k", "rotate", "-c"))
        check(all(r["check"] == "Pass" for r in rows(out)), f"{coll}: validation failed")
        check_metrics(coll, out, raw)
    print("smpi-arrivals: bcast, reduce, allreduce, allgather and allgatherv metrics recomputed from the raw arrivals: OK")


def block_args(coll, dtype):
    return [f"--coll={coll}", f"--dtype={dtype}", "--algo=all,auto", "-m", "1K:8K:8", "-k", "rotate", "-i", "2", "-x", "0",
            "-c", "--format=csv"]


def blocks_native():
    """-c on each collective added after allgather (2 native processes, every algorithm and auto, rotating root,
    three element types): all Pass."""
    for coll, dtype in BLOCK_COLLS:
        good = rows(run(native(2, *block_args(coll, dtype))).stdout)
        check(good and all(r["check"] == "Pass" for r in good), f"{coll}: clean run not all Pass")
    print("blocks-native:", ", ".join(c for c, _ in BLOCK_COLLS), "Pass")


def blocks_corrupt():
    """With PAPCOLL_BENCH_CORRUPT the check fails (Fail rows, exit 1) for alltoall, reduce_scatter (a result element
    damaged on a non-root rank), gather (at the root) and scatterv (a non-root's block); --list of a v form (and of
    reduce_scatter_block) is its base collective's algorithm list."""
    corrupt = ("alltoall", "reduce_scatter", "gather", "scatterv")
    for coll, dtype in BLOCK_COLLS:
        if coll in corrupt:
            bad = run(native(2, *block_args(coll, dtype)), env={"PAPCOLL_BENCH_CORRUPT": "1"}, expect_rc=None)
            check(bad.returncode != 0, f"{coll}: corrupted run exited 0")
            check(rows(bad.stdout) and all(r["check"] == "Fail" for r in rows(bad.stdout)),
                  f"{coll}: corrupted run not reported as Fail")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    for coll, base in (("reduce_scatter_block", "reduce_scatter"), ("alltoallv", "alltoall"), ("gatherv", "gather"),
                       ("scatterv", "scatter")):
        with open(os.path.join(src, base, "algorithms.list")) as f:
            names = [l.split("|")[0].strip() for l in f if l.strip() and not l.startswith("#")]
        out = run(native(1, f"--coll={coll}", "--list")).stdout.split("\n")
        check([l.split()[1] for l in out if l.strip()] == names, f"{coll} --list: {out} != {names}")
    print("blocks-corrupt: corruption caught for", ", ".join(corrupt), "; v forms list their base's algorithms: OK")


def smpi_blocks():
    """-c on each collective added after allgather, simulated on 16 ranks (4 x 4, uneven arrivals, rotating
    root): all Pass, and the reported after_last, e_root and bounds equal those recomputed from the raw arrivals
    and exits (gather like reduce, scatter like bcast, the others like allreduce)."""
    for coll, dtype in BLOCK_COLLS:
        with tempfile.TemporaryDirectory() as d:
            raw = os.path.join(d, "raw.csv")
            out = run(simulated(16, f"--coll={coll}", f"--dtype={dtype}", "--algo=all,auto", "-k", "rotate", "-c",
                                "-m", "4K:4K", "-i", "4", "-x", "1", "--pattern=uniform:8", f"--raw={raw}",
                                "--format=csv")).stdout
            with open(raw) as f:
                rr = list(csv.DictReader(f))
        check(rows(out) and all(r["check"] == "Pass" for r in rows(out)), f"{coll}: simulated validation failed")
        check_metrics(coll, out, rr)
    print("smpi-blocks:", ", ".join(c for c, _ in BLOCK_COLLS), "Pass and metrics recomputed from the raw arrivals: OK")


def first_child_late():
    """Patarasuk & Yuan 2008 Theorem 2: binomial's e_bar grows with the lateness of the root's children."""
    e = []
    for IF in (0, 4, 16):
        r = rows(run(simulated(64, "--algo=binomial", "-m", "1M:1M", "-i", "2", "-x", "0",
                               f"--pattern=first-child-late:{IF}", "--format=csv")).stdout)[0]
        # equal up to SimGrid's clock resolution (arrivals within 1e-7 s of the plan)
        check(abs(float(r["if_worst"]) - IF) <= 1e-6 * max(IF, 1), f"if_worst {r['if_worst']} != planned {IF}")
        e.append(float(r["e_bar"]))
    check(e[0] < e[1] < e[2], f"binomial e_bar not increasing with IF: {e}")
    print("first-child-late: e_bar", ", ".join(f"{x*1e6:.0f} us" for x in e), "for IF 0, 4, 16 (simulated): OK")


def type7(values, q):
    """The q-percentile as papcoll-bench computes it (docs/benchmark.md "Output"): position q (n - 1) of the
    sorted values, linearly interpolated (numpy's default, Hyndman and Fan's type 7)."""
    v = sorted(values)
    h = q * (len(v) - 1)
    lo = math.floor(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


PCT = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
# The CSV fields before the percentiles were added (at the end, so that no column moves).
STABLE_FIELDS = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,"
                 "delta_bar,omega,if_avg,if_worst,bound,ratio,T,check").split(",")


def percentiles():
    """e_p50/90/99 and after_p50/90/99 recomputed from --raw (every process of every valid repetition pooled;
    after_last = max f - max a per repetition), ordered and at most the largest sample, in CSV and JSON
    alike, and shown by the table with --percentiles (2 processes natively, bcast and allreduce)."""
    for extra in (["--algo=binomial,linear", "-m", "64:4K:64", "--pattern=uniform:4"],
                  ["--coll=allreduce", "--algo=native,auto", "-m", "8:8", "--pattern=late:0.5:8"]):
        args = [*extra, "-i", "10", "-x", "1", "--seed=3", "--unit-time=2e-6", "--start-margin=2e-3",
                "--tolerance=1e-2"]  # an oversubscribed machine misses starts: keep most repetitions
        with tempfile.TemporaryDirectory() as tmp:
            raw_path = os.path.join(tmp, "raw.csv")
            text = run(native(2, *args, "--format=csv", f"--raw={raw_path}")).stdout
            out = rows(text)
            with open(raw_path) as f:
                raw = list(csv.DictReader(f))
        header = next(l for l in text.splitlines() if not l.startswith("#")).split(",")
        pct = [f"{k}_{n}" for k in ("e", "after") for n, _ in PCT]
        check(header[:len(STABLE_FIELDS) + len(pct)] == STABLE_FIELDS + pct and header[len(STABLE_FIELDS) + len(pct):] == NBC_FIELDS,
              f"CSV fields: the percentiles must follow the earlier fields, unmoved, then the nonblocking forms': {header}")
        calls = defaultdict(list)  # (algo, size, rep) -> the processes' raw rows
        for r in raw:
            check(int(r["rep"]) >= 0, f"--raw holds a warm-up repetition: {r}")
            calls[(r["algo"], int(r["size"]), int(r["rep"]))].append(r)
        check(out and len(raw) == 2 * sum(int(r["reps"]) for r in out), f"--raw: {len(raw)} lines for {len(out)} rows")
        for r in out:
            valid = [c for (algo, size, _), c in sorted(calls.items())
                     if algo == r["algo"] and size == int(r["size"]) and not any(int(x["missed"]) for x in c)]
            check(len(valid) == int(r["valid_reps"]) > 0, f"{r['algo']} {r['size']}: {len(valid)} valid calls in --raw, "
                  f"valid_reps {r['valid_reps']}")
            e = [float(x["e"]) for c in valid for x in c]
            after = [max(float(x["f"]) for x in c) - max(float(x["a"]) for x in c) for c in valid]
            for name, q in PCT:
                for key, samples in ((f"e_{name}", e), (f"after_{name}", after)):
                    want, got = type7(samples, q), float(r[key])
                    # --raw prints a and f with 9 decimals (ns), e with 9 significant digits
                    check(abs(got - want) <= 2e-9 + 1e-6 * abs(want), f"{r['algo']} {r['size']} {key}: {got} != {want} from --raw")
            ep = [float(r[f"e_{n}"]) for n, _ in PCT]
            ap = [float(r[f"after_{n}"]) for n, _ in PCT]
            check(0 <= ep[0] <= ep[1] <= ep[2] <= max(e) + 1e-12 and 0 <= ap[0] <= ap[1] <= ap[2] <= max(after) + 1e-12,
                  f"percentiles not ordered or above the largest sample: {ep} {ap}")
        j = json.loads(run(native(2, *args, "--format=json")).stdout)["results"]
        bad = [(jr["algo"], jr["size"], f"{k}_{n}", jr.get(f"{k}_{n}")) for jr in j for k in ("e", "after") for n, _ in PCT
               if not isinstance(jr.get(f"{k}_{n}"), (int, float))]
        check(len(j) == len(out) and not bad, f"JSON rows lack the percentiles: {bad}")
        table = run(native(2, *args, "--percentiles")).stdout
        header = next(l for l in table.splitlines() if "e_p50(us)" in l)
        check(all(h in header for h in ("e_p90(us)", "e_p99(us)", "aft_p50(us)", "aft_p90(us)", "aft_p99(us)")),
              f"table header: {header}")
        check("e_p50" not in run(native(2, *args)).stdout, "the table shows percentiles without --percentiles")
    print("percentiles: e_p50/90/99 and after_p50/90/99 match --raw in CSV; JSON and table carry them: OK")


if __name__ == "__main__":
    {"validate-corrupt": validate_corrupt, "tune-file": tune_file, "formats": formats, "native-arrivals": lambda: arrivals(False),
     "smpi-arrivals": smpi_arrivals, "first-child-late": first_child_late, "blocks-native": blocks_native,
     "blocks-corrupt": blocks_corrupt, "smpi-blocks": smpi_blocks,
     "percentiles": percentiles, "nonblocking": nonblocking,
     "smpi-nonblocking": smpi_nonblocking}[sys.argv[1]]()
