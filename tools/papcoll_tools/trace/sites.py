# SPDX-License-Identifier: BSD-3-Clause
"""Call sites: a rank's return address -> function and file:line, resolved after the run (the tracer records only
addresses).  The address minus the object's load bias, minus 1 (a return address points after the call), is what
addr2line wants for both position-independent and fixed-address objects (trace/format.h).

addr2line reads the object as it is at report time: when the tracer recorded the object's build identity
(rank-R.objects: its GNU build-id, else its size and modification time) and the file's differs now, the program
was rebuilt after the run and its lines would be wrong: such an object's sites are named by the symbol recorded at
the run's end and their offset only (no file:line), and Resolver.warnings() says so.  A trace without
rank-R.objects (written by an older tracer) is resolved as before, unchecked.

A call statement spread over several lines is named by its first line: gcc gives a C call's return address the
line the call starts on, but gfortran gives a continued Fortran call (`call mpi_bcast(a, &` ... ) the statement's
last line; for a Fortran source (by its extension) that the report can read, the line addr2line gives is moved up
to the first line of its statement (free form: previous lines ending with `&`; fixed form: continuation lines,
a character in column 6), comment and blank lines in between skipped.  Without the source the line stays."""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess


@dataclasses.dataclass(frozen=True)
class Where:
    function: str
    path: str    # source file, or the object when there is no line information
    line: int    # 0 when unknown
    label: str   # "file.c:42", or "symbol+0x1f (libfoo.so)" without line information


def _addr2line(tool, obj, offsets):
    """[(function, "file:line")] for offsets in obj, or None when the tool is missing or fails."""
    if not tool or not offsets or not os.path.exists(obj):
        return None
    try:
        p = subprocess.run([tool, "-f", "-C", "-e", obj] + [hex(o) for o in offsets], capture_output=True,
                           text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) != 2 * len(offsets):
        return None
    return [(lines[2 * i], lines[2 * i + 1]) for i in range(len(offsets))]


def elf_build_id(path, readelf="readelf"):
    """The GNU build-id (hex) of the ELF file at path, as `readelf -n` (binutils, beside addr2line) prints it;
    None if it has none, is not an ELF file, or readelf is missing."""
    tool = shutil.which(readelf)
    if not tool:
        return None
    out = subprocess.run([tool, "-n", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.strip().startswith("Build ID:"):
            return line.split(":", 1)[1].strip() or None
    return None


def rebuilt(obj, identity):
    """True when the file obj is not the object the run recorded with identity (rank-R.objects); False when it
    cannot tell: no identity ("-", or none recorded), no readelf, or no file to read lines from anyway."""
    kind, _, value = (identity or "-").partition(":")
    if kind not in ("build-id", "stat") or not os.path.exists(obj):
        return False
    if kind == "build-id":
        return bool(shutil.which("readelf")) and elf_build_id(obj) != value  # no readelf: cannot tell
    try:
        st = os.stat(obj)
    except OSError:
        return False
    return f"{st.st_size}:{st.st_mtime_ns}" != value


class Resolver:
    def __init__(self, run, addr2line="addr2line"):
        self.run = run
        self.tool = shutil.which(addr2line) if addr2line else None
        self.cache = {}  # (obj, offset) -> Where
        self.checked = {}  # obj -> rebuilt after the run (rebuilt())

    def is_rebuilt(self, obj):
        if obj not in self.checked:
            identity = next((o[obj] for o in getattr(self.run, "objects", {}).values() if obj in o), None)
            self.checked[obj] = rebuilt(obj, identity)
        return self.checked[obj]

    def warnings(self):
        """One line per object of a resolved site that was rebuilt after the run."""
        return [f"{obj} was rebuilt after the run: file:line not resolved (sites named by the function recorded "
                f"at the run's end)" for obj, changed in sorted(self.checked.items()) if changed]

    def resolve_all(self, pairs):
        """Resolves every (world rank, address) of pairs, one addr2line per object."""
        wanted = {}
        for rank, address in pairs:
            site = self.run.sites.get(rank, {}).get(address)
            if site is None:
                continue
            key = (site.obj, address - site.bias - 1)
            if key not in self.cache:
                wanted.setdefault(site.obj, {})[key[1]] = site
        for obj, by_offset in wanted.items():
            offsets = sorted(by_offset)
            found = None if self.is_rebuilt(obj) else _addr2line(self.tool, obj, offsets)
            found = found or [("??", "??:0")] * len(offsets)
            for offset, (function, fileline) in zip(offsets, found):
                self.cache[(obj, offset)] = _where(function, fileline, by_offset[offset], offset)

    def where(self, rank, address):
        site = self.run.sites.get(rank, {}).get(address)
        if site is None:
            return Where("?", "?", 0, f"?{address:#x}")
        key = (site.obj, address - site.bias - 1)
        if key not in self.cache:
            self.resolve_all([(rank, address)])
        return self.cache[key]


FORTRAN_FREE = (".f90", ".f95", ".f03", ".f08", ".f18", ".inc")  # case-insensitive (.F90: preprocessed)
FORTRAN_FIXED = (".f", ".for", ".ftn", ".f77")


def _free_code(text):
    """A free-form Fortran line without its comment (from a `!` outside quotes)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return text[:i]
    return text


def _fixed_comment(text):
    return not text.strip() or text[:1] in "cC*!" or text.lstrip().startswith("!")


def _fixed_continuation(text):
    return len(text) > 5 and not _fixed_comment(text) and "\t" not in text[:6] and not text[:5].strip() and \
        text[5] not in " 0"


def statement_first_line(path, line):
    """The first line of the Fortran statement holding line of path (1-based); line itself for another language,
    an unreadable file or a line out of range."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORTRAN_FREE + FORTRAN_FIXED:
        return line
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return line
    if not 1 <= line <= len(lines):
        return line
    i = line - 1
    if ext in FORTRAN_FREE:
        while True:
            j = i - 1
            while j >= 0 and not _free_code(lines[j]).strip():
                j -= 1
            if j < 0 or not _free_code(lines[j]).rstrip().endswith("&"):
                return i + 1
            i = j
    while _fixed_continuation(lines[i]):
        j = i - 1
        while j >= 0 and _fixed_comment(lines[j]):
            j -= 1
        if j < 0:
            break
        i = j
    return i + 1


def _where(function, fileline, site, offset):
    path, _, line = fileline.rpartition(":")
    line = line.split()[0] if line else ""
    if path and path != "??" and line.isdigit() and int(line) > 0:
        line = statement_first_line(path, int(line))
        return Where(function if function != "??" else site.symbol, path, line,
                     f"{os.path.basename(path)}:{line}")
    symbol = site.symbol if site.symbol != "-" else (function if function != "??" else "")
    obj = os.path.basename(site.obj)
    label = f"{symbol}+{offset:#x} ({obj})" if symbol else f"{obj}+{offset:#x}"
    return Where(symbol or "?", site.obj, 0, label)
