#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit test of call sites spread over several lines (tools/papcoll_tools/trace/sites.py): a call statement is
named by its first line, in C and in Fortran.

A Fortran program whose call spans three continued lines and a C program whose call spans three lines are
compiled here with -g; a synthetic trace (papcoll_tools.trace.synthetic) records each call's return address.
addr2line gives gfortran's call the statement's last line and gcc's the first (checked: the premise); the
report's resolver must name both by the first line.  Then statement_first_line() alone: free form with a
comment line and a blank line inside the statement, a `!` inside a string, fixed form (column-6 continuation,
a comment line in between), a C file and an unreadable Fortran file (both unchanged).

    test_sites_continued.py [--tools DIR] [--cc CC] [--fc FC]

Exits 77 (skipped) without a C or Fortran compiler, objdump or addr2line.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sites_rebuilt import check, make_run  # noqa: E402

FORTRAN = """program continued
  implicit none
  integer :: a, b
  a = 1
  call mysub(a, &
             b, &
             3)
  print *, b
end program continued

subroutine mysub(x, y, z)
  integer :: x, y, z
  y = x + z
end subroutine mysub
"""
FORTRAN_FIRST, FORTRAN_LAST = 5, 7

C = """#include <stdio.h>
void __attribute__((noinline)) mysub(int x, int *y, int z) { *y = x + z; }
int main(void)
{
    int b;
    mysub(1,
          &b,
          3);
    printf("%d\\n", b);
    return 0;
}
"""
C_FIRST = 6


def return_address(exe, callee):
    """The address after the first call to callee in exe's disassembly (what the tracer records)."""
    out = subprocess.run(["objdump", "-d", exe], capture_output=True, text=True, check=True).stdout.splitlines()
    for i, line in enumerate(out):
        if re.search(r"\bcall\w*\s+[0-9a-f]+ <" + re.escape(callee) + r">", line):
            m = re.match(r"\s*([0-9a-f]+):", out[i + 1])
            check(m, f"no instruction after the call in {exe}")
            return int(m.group(1), 16)
    check(False, f"no call to {callee} in {exe}")


def addr2line_line(exe, offset):
    out = subprocess.run(["addr2line", "-e", exe, hex(offset)], capture_output=True, text=True, check=True).stdout
    return int(out.strip().rpartition(":")[2].split()[0])


def resolve(reader, sites, run_dir):
    res = sites.Resolver(reader.Run(run_dir))
    address = next(iter(res.run.sites[0]))
    res.resolve_all([(0, address)])
    return res.where(0, address)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--fc", default=os.environ.get("FC", "gfortran"))
    args = ap.parse_args()
    if not all(shutil.which(t) for t in (args.cc, args.fc, "objdump", "addr2line")):
        print("SKIP: needs a C and a Fortran compiler, objdump and addr2line")
        sys.exit(77)
    sys.path.insert(0, os.path.abspath(args.tools))
    from papcoll_tools.trace import reader, sites, synthetic

    with tempfile.TemporaryDirectory() as tmp:
        for lang, source, name, compiler, callee, first in (
                ("Fortran", FORTRAN, "continued.f90", args.fc, "mysub_", FORTRAN_FIRST),
                ("C", C, "continued.c", args.cc, "mysub", C_FIRST)):
            src, exe = os.path.join(tmp, name), os.path.join(tmp, name.replace(".", "_"))
            with open(src, "w") as f:
                f.write(source)
            subprocess.run([compiler, "-g", "-O0", "-o", exe, src], check=True)
            ret = return_address(exe, callee)
            raw = addr2line_line(exe, ret - 1)
            if lang == "Fortran":
                check(raw == FORTRAN_LAST, f"premise: addr2line gives gfortran's continued call line {raw}, "
                      f"expected its last line {FORTRAN_LAST}")
            else:
                check(raw == first, f"premise: addr2line gives gcc's call line {raw}, expected {first}")
            d = os.path.join(tmp, f"run-{lang}")
            make_run(synthetic, d, exe, ret - 1, None)
            where = resolve(reader, sites, d)
            check(where.line == first and where.label == f"{name}:{first}",
                  f"{lang}: the call spanning lines {first}-{first + 2} resolved to {where.label}, not {name}:{first}")
            print(f"{lang}: addr2line line {raw}, reported {where.label} (the statement's first line)")

        cases = {
            "free.f90": ("program p\n  call f(1, &  ! a comment & here\n\n  ! comment line\n     2, &\n     3)\n"
                         "  print *, 'a ! b', &\n        'c'\nend\n", {6: 2, 5: 2, 2: 2, 7: 7, 8: 7, 9: 9}),
            "fixed.f": ("      PROGRAM P\n      CALL F(1,\n     &       2,\nC     a comment\n     +       3)\n"
                        "      END\n", {5: 2, 3: 2, 2: 2, 6: 6}),
            "plain.c": ("int main(void)\n{\n    f(1, &\n      2);\n}\n", {4: 4}),
        }
        for name, (text, expect) in cases.items():
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            for line, want in expect.items():
                got = sites.statement_first_line(path, line)
                check(got == want, f"{name}: line {line} -> {got}, expected {want}")
        check(sites.statement_first_line(os.path.join(tmp, "missing.f90"), 7) == 7, "unreadable source: line moved")
        print("statement_first_line: free form (comment and blank lines, '!' in a string), fixed form, C and a "
              "missing file as expected")
    print("PASS")


if __name__ == "__main__":
    main()
