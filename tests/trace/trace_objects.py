# SPDX-License-Identifier: BSD-3-Clause
"""The check both tracer tests (check_trace.py natively, check_trace_smpi.py under SMPI) make of rank-R.objects
(trace/format.h), read with its own parser, not the report's: every listed rank's file names the program, with
the build-id `readelf -n` reads from it (not compared when readelf is missing)."""
import os
import re
import shutil
import subprocess


def program_build_id(program):
    """The program's GNU build-id as `readelf -n` prints it, or None (no readelf, no build-id)."""
    if not shutil.which("readelf"):
        return None
    m = re.search(r"Build ID:\s*([0-9a-f]+)", subprocess.run(["readelf", "-n", program], capture_output=True,
                                                             text=True).stdout)
    return m.group(1) if m else None


def check_program_listed(paths, program, check):
    """check(cond, msg) that every rank-R.objects of PATHS lists PROGRAM with its build-id; returns the id."""
    program = os.path.realpath(program)
    build_id = program_build_id(program)
    for path in paths:
        objects = {}
        with open(path) as f:
            for line in f.read().splitlines():
                identity, _, obj = line.partition(" ")
                objects[os.path.realpath(obj)] = identity
        check(program in objects, f"{path}: the program {program} is not listed: {objects}")
        if build_id:
            check(objects[program] == f"build-id:{build_id}", f"{path}: {objects[program]}, readelf: {build_id}")
    return build_id
