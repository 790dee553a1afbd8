#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit test of the report's rebuilt-object check (tools/papcoll_tools/trace/sites.py, trace/format.h
rank-R.objects): a synthetic trace whose one call site lies in a small program compiled here with -g.

  - the recorded identity matches the file (its GNU build-id as `readelf -n` prints it, or its size and
    modification time): the site resolves to prog.c:LINE, no warning;
  - the program rebuilt after the run (its lines moved, a new build-id), or its file touched (stat identity):
    no file:line, the site is named by its recorded function, and the report warns
    "OBJECT was rebuilt after the run: file:line not resolved";
  - a trace without rank-R.objects (older tracer) resolves file:line as before, unchecked.

    test_sites_rebuilt.py [--tools DIR] [--cc CC]

Exits 77 (skipped) without a C compiler, readelf or addr2line.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE = """#include <stdio.h>
%s
int marker(int x)
{
    return x * 3 + 1;
}

int main(void)
{
    printf("%%d\\n", marker(2));
    return 0;
}
"""

def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def build(cc, src, exe, padding):
    with open(src, "w") as f:
        f.write(SOURCE % ("\n" * padding))
    subprocess.run([cc, "-g", "-O0", "-Wl,--build-id", "-o", exe, src], check=True)


def readelf_build_id(exe):
    out = subprocess.run(["readelf", "-n", exe], capture_output=True, text=True, check=True).stdout
    m = re.search(r"Build ID:\s*([0-9a-f]+)", out)
    return m.group(1) if m else None


def symbol_address(exe, name):
    out = subprocess.run(["nm", exe], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    fail(f"no symbol {name} in {exe}")


def make_run(synthetic, directory, exe, address, identity):
    """A synthetic run of 2 ranks, one allreduce, whose call site is marker's code in exe (recorded with
    identity; no rank-R.objects when None): the record's return address minus the bias minus 1 is address."""
    kind = address // 0x1000 + 2  # the synthetic site address 0x1000 x kind, above address + 1: bias >= 0
    site = synthetic.site_address(kind)
    synthetic.write_run(directory, 2, [(kind, "allreduce", None, 8, [0, 10], [20, 20])])
    for r in range(2):
        with open(os.path.join(directory, f"rank-{r}.sites"), "w") as f:
            f.write(f"{site:#x} {site - address - 1:#x} marker {exe}\n")
        if identity is not None:
            with open(os.path.join(directory, f"rank-{r}.objects"), "w") as f:
                f.write(f"{identity} {exe}\n")


def resolve(reader, sites, run_dir):
    res = sites.Resolver(reader.Run(run_dir))
    address = next(iter(res.run.sites[0]))
    res.resolve_all([(0, address)])
    return res.where(0, address), res.warnings()


def report(cli, run_dir, out):
    check(cli.main(["trace", "report", run_dir, "-o", out]) == 0, "report failed")
    with open(os.path.join(out, "report.md")) as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = ap.parse_args()
    if not all(shutil.which(t) for t in (args.cc, "readelf", "addr2line", "nm")):
        print("SKIP: needs a C compiler, readelf, nm and addr2line")
        sys.exit(77)
    sys.path.insert(0, os.path.abspath(args.tools))
    from papcoll_tools import cli
    from papcoll_tools.trace import reader, sites, synthetic

    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "prog.c"), os.path.join(tmp, "prog")
        build(args.cc, src, exe, 0)
        build_id = readelf_build_id(exe)
        check(build_id, "the compiler wrote no build-id")
        check(sites.elf_build_id(exe) == build_id, f"elf_build_id {sites.elf_build_id(exe)} != readelf {build_id}")
        address = symbol_address(exe, "marker")
        st = os.stat(exe)
        stat_identity = f"stat:{st.st_size}:{st.st_mtime_ns}"

        # matching: file:line
        for name, identity in (("build-id", f"build-id:{build_id}"), ("stat", stat_identity), ("old", None)):
            d = os.path.join(tmp, f"match-{name}")
            make_run(synthetic, d, exe, address, identity)
            where, warnings = resolve(reader, sites, d)
            check(where.line > 0 and os.path.basename(where.path) == "prog.c",
                  f"{name}: matching object not resolved to prog.c:LINE: {where}")
            check(not warnings, f"{name}: warnings on a matching object: {warnings}")
            print(f"{name} identity, same object: {where.label} ({where.function})")
        line_before = where.line

        # touched (same bytes, new time): the stat identity changes, the build-id does not
        os.utime(exe, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
        d = os.path.join(tmp, "touched-stat")
        make_run(synthetic, d, exe, address, stat_identity)
        where, warnings = resolve(reader, sites, d)
        check(where.line == 0 and "prog.c" not in where.label, f"touched, stat identity: file:line resolved: {where}")
        check(any(exe in w and "rebuilt after the run" in w for w in warnings), f"touched: no warning: {warnings}")
        d = os.path.join(tmp, "touched-build-id")
        make_run(synthetic, d, exe, address, f"build-id:{build_id}")
        where, warnings = resolve(reader, sites, d)
        check(where.line > 0 and not warnings, f"touched, same build-id: should still resolve: {where} {warnings}")

        # rebuilt with the function 5 lines further down: a new build-id
        build(args.cc, src, exe, 5)
        check(readelf_build_id(exe) != build_id, "the rebuilt program kept its build-id")
        d = os.path.join(tmp, "rebuilt")
        make_run(synthetic, d, exe, address, f"build-id:{build_id}")
        where, warnings = resolve(reader, sites, d)
        check(where.line == 0 and "prog.c" not in where.label and where.function == "marker",
              f"rebuilt: file:line resolved, or not named by the recorded function: {where}")
        check(warnings == [f"{exe} was rebuilt after the run: file:line not resolved (sites named by the function "
                           f"recorded at the run's end)"], f"rebuilt: warnings {warnings}")
        print(f"rebuilt: {where.label}; {warnings[0]}")
        md = report(cli, d, os.path.join(tmp, "rebuilt-report"))
        check(f"{exe} was rebuilt after the run: file:line not resolved" in md, "report.md: no rebuilt warning")
        check("prog.c:" not in md, "report.md names a file:line of the rebuilt object")

        # the same rebuilt object, traced by an older tracer (no rank-R.objects): file:line as before (now wrong)
        d = os.path.join(tmp, "rebuilt-old")
        make_run(synthetic, d, exe, address, None)
        where, warnings = resolve(reader, sites, d)
        check(where.line > 0 and not warnings, f"old trace: not resolved as before: {where} {warnings}")
        md = report(cli, d, os.path.join(tmp, "old-report"))
        check("rebuilt after the run" not in md and "prog.c:" in md, "old trace: report.md warns or has no file:line")
        print(f"old trace, rebuilt object: {where.label} (line {where.line}, was {line_before}: unchecked)")
    print("PASS")


if __name__ == "__main__":
    main()
