"""Call sites: a rank's return address -> function and file:line, resolved after the run (the tracer records only
addresses).  The address minus the object's load bias, minus 1 (a return address points after the call), is what
addr2line wants for both position-independent and fixed-address objects (trace/format.h)."""
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


class Resolver:
    def __init__(self, run, addr2line="addr2line"):
        self.run = run
        self.tool = shutil.which(addr2line) if addr2line else None
        self.cache = {}  # (obj, offset) -> Where

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
            found = _addr2line(self.tool, obj, offsets) or [("??", "??:0")] * len(offsets)
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


def _where(function, fileline, site, offset):
    path, _, line = fileline.rpartition(":")
    line = line.split()[0] if line else ""
    if path and path != "??" and line.isdigit() and int(line) > 0:
        return Where(function if function != "??" else site.symbol, path, int(line),
                     f"{os.path.basename(path)}:{line}")
    symbol = site.symbol if site.symbol != "-" else (function if function != "??" else "")
    obj = os.path.basename(site.obj)
    label = f"{symbol}+{offset:#x} ({obj})" if symbol else f"{obj}+{offset:#x}"
    return Where(symbol or "?", site.obj, 0, label)
