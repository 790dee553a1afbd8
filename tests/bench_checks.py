#!/usr/bin/env python3
"""End-to-end checks of papcoll-bench, run by ctest (one check per test).

Environment (set by tests/CMakeLists.txt): PAPCOLL_BENCH, PAPCOLL_MPIRUN (command
prefix, shell words), and for simulated checks PAPCOLL_BENCH_SMPI,
PAPCOLL_SMPIRUN (prefix) and PAPCOLL_PLATFORM (path prefix of .xml/.hosts).
"""
import csv
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile


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
    """--validate passes on good data and catches a deliberately damaged byte."""
    args = ["--algo=binomial,scatter_ring_allgather", "-m", "1K:64K", "-i", "3", "-x", "1", "-c", "--format=csv"]
    good = run(native(2, *args))
    check(all(r["check"] == "Pass" for r in rows(good.stdout)) and rows(good.stdout), "clean run not all Pass")
    bad = run(native(2, *args), env={"PAPCOLL_BENCH_CORRUPT": "1"}, expect_rc=None)
    check(bad.returncode != 0, "corrupted run exited 0")
    check(all(r["check"] == "Fail" for r in rows(bad.stdout)), "corrupted run not reported as Fail")
    print("validate-corrupt: OK")


def formats():
    """CSV and JSON carry the same numbers; a simulated run is deterministic."""
    args = ["--algo=binomial,chain_pipelined,auto", "-m", "1K:256K", "-i", "4", "-x", "1", "--pattern=uniform:4", "--seed=9"]
    c1 = run(simulated(16, *args, "--format=csv")).stdout
    c2 = run(simulated(16, *args, "--format=csv")).stdout
    check(c1 == c2, "two identical simulated runs differ")
    j = json.loads(run(simulated(16, *args, "--format=json")).stdout)
    crows = rows(c1)
    check(len(crows) == len(j["results"]) == 27, f"row counts {len(crows)} / {len(j['results'])}")
    for cr, jr in zip(crows, j["results"]):
        for key, value in cr.items():
            if key in ("coll", "algo", "pattern", "check"):
                check(str(jr[key]) == value, f"{key}: {jr[key]} != {value}")
            else:
                check(abs(float(value) - float(jr[key])) <= 1e-6 * abs(float(value)), f"{key}: {jr[key]} != {value}")
    check(j["meta"]["pattern"] == "uniform:4" and j["meta"]["simulated"].startswith("yes"), "JSON metadata")
    print("formats: OK,", len(crows), "rows")


def arrivals(sim):
    """Realized arrivals match the plan: exactly when simulated, within the tolerance natively."""
    with tempfile.TemporaryDirectory() as d:
        raw = os.path.join(d, "raw.csv")
        args = ["--algo=binomial,linear", "-m", "4K:4K", "-i", "30", "-x", "2", "--pattern=uniform:8", f"--raw={raw}",
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
    print("arrivals:", "simulated exact" if sim else "native within 20 us", "OK")


def first_child_late():
    """Seed 002 Theorem 2: binomial's e_bar grows with the lateness of the root's children."""
    e = []
    for IF in (0, 4, 16):
        r = rows(run(simulated(64, "--algo=binomial", "-m", "1M:1M", "-i", "2", "-x", "0",
                               f"--pattern=first-child-late:{IF}", "--format=csv")).stdout)[0]
        # equal up to SimGrid's clock resolution (arrivals within 1e-7 s of the plan)
        check(abs(float(r["if_worst"]) - IF) <= 1e-6 * max(IF, 1), f"if_worst {r['if_worst']} != planned {IF}")
        e.append(float(r["e_bar"]))
    check(e[0] < e[1] < e[2], f"binomial e_bar not increasing with IF: {e}")
    print("first-child-late: e_bar", ", ".join(f"{x*1e6:.0f} us" for x in e), "for IF 0, 4, 16 (simulated): OK")


if __name__ == "__main__":
    {"validate-corrupt": validate_corrupt, "formats": formats, "native-arrivals": lambda: arrivals(False),
     "smpi-arrivals": lambda: arrivals(True), "first-child-late": first_child_late}[sys.argv[1]]()
