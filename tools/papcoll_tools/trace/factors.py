# SPDX-License-Identifier: BSD-3-Clause
"""Imbalance factors of a traced call: delta_bar / T and omega / T (Parsons 2015 §3.3; Patarasuk & Yuan 2008 §2), with
T the time to send the call's message between two processes, for the call's message size.

Where T comes from, first that applies (the report names it):
  given    `--T US`: one T for every size;
  table    `--T-table FILE`: T per message size from a file (below), piecewise linear in the size between the
           sizes it holds (the Hockney model alpha + beta m is linear), the smallest size's T below it, the line
           through the two largest sizes above them (one size: that T for every size);
  trace    the run itself, when it holds two-process calls in which the last process to arrive holds data the
           other still needs: a bcast or scatter(v) whose root arrived last, a reduce or gather(v) whose root
           arrived first, an allreduce, allgather(v), alltoall(v/w) or reduce_scatter(_block), a scan or exscan
           whose rank 0 arrived last.  Then the time from the last arrival to the last exit, max f - max a, is one
           message of m bytes crossing (plus the library's overhead; in the other calls the message may already
           wait at its receiver, and max f - max a is only a copy).  Per size the smallest over such calls of that
           size (the least disturbed: a process descheduled while it waits, common on a busy or oversubscribed
           machine, only adds), then interpolated as a table.  A run without such calls (more than two processes and no
           two-process communicator) cannot give T, and the factors are left out unless --T or --T-table is
           given.

T table files: `bytes,T_us` lines (a header line and `#` comments allowed), or papcoll-bench output: its CSV (`size`
and `T` columns, T in seconds) or the `#@T=SIZE:SECONDS` lines its table and CSV formats print before each size
(a balanced run, `papcoll-bench --pattern=balanced -m 1:1M --format=csv`, measures T per size by ping-pong).
Several values for one size: their median."""
from __future__ import annotations

import csv
import math
import re

import numpy as np

META_T = re.compile(r"^#@T=(\d+):([0-9.eE+-]+)\s*$")


class TError(Exception):
    pass


class TModel:
    """T (us) as a function of the message size (bytes); `source` says where it comes from."""

    def __init__(self, points, source):
        """points: {bytes: T_us}, T > 0."""
        self.sizes = np.array(sorted(points), dtype=np.float64)
        self.values = np.array([points[s] for s in sorted(points)], dtype=np.float64)
        self.source = source

    def __call__(self, size):
        s, v = self.sizes, self.values
        if len(s) == 1:
            return float(v[0])
        if size <= s[-1]:
            return float(np.interp(size, s, v))  # below s[0]: v[0]
        slope = (v[-1] - v[-2]) / (s[-1] - s[-2])
        return float(v[-1] + slope * (size - s[-1]))

    def describe(self):
        pts = ", ".join(f"{int(s)} B: {t:.3g} us" for s, t in zip(self.sizes, self.values))
        return f"{self.source} ({pts})" if len(self.sizes) <= 8 else f"{self.source} ({len(self.sizes)} sizes)"


def _median_points(samples, what):
    points = {s: float(np.median(v)) for s, v in samples.items()}
    bad = [s for s, t in points.items() if not (t > 0 and math.isfinite(t))]
    if bad:
        raise TError(f"{what}: T must be positive, not {points[bad[0]]} at {bad[0]} bytes")
    if not points:
        raise TError(f"{what}: no T values")
    return points


def given(t_us):
    if not (t_us > 0 and math.isfinite(t_us)):
        raise TError(f"--T must be a positive number of microseconds, not {t_us}")
    return TModel({0: float(t_us)}, f"given (--T {t_us:g} us)")


def from_table(path):
    """A T table file (see the module's text)."""
    samples = {}
    try:
        with open(path) as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        raise TError(f"--T-table {path}: {e}")
    meta = [META_T.match(line) for line in lines]
    if any(meta):
        for m in filter(None, meta):
            samples.setdefault(int(m.group(1)), []).append(float(m.group(2)) * 1e6)
        return TModel(_median_points(samples, path), f"table {path} (papcoll-bench #@T lines)")
    rows = [r for r in csv.reader(line for line in lines if line.strip() and not line.lstrip().startswith("#"))]
    if not rows:
        raise TError(f"--T-table {path}: empty")
    head = [h.strip() for h in rows[0]]
    if "size" in head and "T" in head:  # papcoll-bench --format=csv
        i, j, scale, body = head.index("size"), head.index("T"), 1e6, rows[1:]
    elif "bytes" in head and "T_us" in head:
        i, j, scale, body = head.index("bytes"), head.index("T_us"), 1.0, rows[1:]
    else:
        i, j, scale, body = 0, 1, 1.0, rows
    for n, r in enumerate(body, 1):
        try:
            samples.setdefault(int(float(r[i])), []).append(float(r[j]) * scale)
        except (ValueError, IndexError):
            raise TError(f"--T-table {path}: row {n} {r!r} is not bytes,T_us")
    return TModel(_median_points(samples, path), f"table {path}")


ONE_TO_N = ("bcast", "scatter", "scatterv")
N_TO_ONE = ("reduce", "gather", "gatherv")
N_TO_N = ("allreduce", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
          "reduce_scatter_block")


def message_crosses(c):
    """Whether the last process to arrive at two-process call c holds data the other still needs (module doc)."""
    last = int(c.comm_ranks[int(np.argmax(c.arrive))])
    if c.base in ONE_TO_N:
        return last == c.root
    if c.base in N_TO_ONE:
        return 0 <= c.root != last
    if c.base in ("scan", "exscan"):
        return last == 0
    return c.base in N_TO_N


def trace_samples(calls):
    """{bytes: [max f - max a (us)]} of the blocking two-process calls with a message that crosses after the last
    arrival (message_crosses)."""
    samples = {}
    for c in calls:
        if c.size != 2 or len(c.ranks) != 2 or c.nonblocking or not message_crosses(c):
            continue
        m = int(c.bytes.max())
        t = (c.exit.max() - c.arrive.max()) * 1e-3
        if m > 0 and t > 0:
            samples.setdefault(m, []).append(t)
    return samples


def from_trace(calls):
    """The trace's own T (see the module's text), or None when the run has no two-process calls."""
    samples = trace_samples(calls)
    if not samples:
        return None
    points = {m: float(min(v)) for m, v in samples.items()}
    n = sum(len(v) for v in samples.values())
    return TModel(points, f"trace (smallest max f - max a of the run's {n} two-process calls whose message crosses "
                          "after the last arrival, per size)")


def factors(delta_bar_us, omega_us, t_us):
    """(delta_bar / T, omega / T), or ("", "") without T."""
    if t_us is None or not t_us > 0:
        return "", ""
    return delta_bar_us / t_us, omega_us / t_us
