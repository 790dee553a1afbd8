# SPDX-License-Identifier: BSD-3-Clause
"""Reading a papcoll trace run directory (trace/format.h): header.json, rank-R.bin, rank-R.comms, rank-R.sites,
rank-R.objects.

Calls are matched across ranks by (communicator KEY, INSTANCE, seq): every member of a communicator makes its
collectives in the same order (MPI), and the tracer numbers them per communicator.  Times are converted to the
synchronized clock (rank 0's) with the clock synchronizations of the header (piecewise-linear interpolation
between consecutive ones: MPI_Init, the periodic ones, MPI_Finalize)."""
from __future__ import annotations

import dataclasses
import glob
import json
import os

import numpy as np

FILE_MAGIC = b"PCTRACE\0"
FILE_HEADER = np.dtype([("magic", "S8"), ("version", "<u4"), ("header_size", "<u4"), ("record_size", "<u4"),
                        ("world_rank", "<i4"), ("world_size", "<i4"), ("reserved", "<u4")])
RECORD = np.dtype([("t_arrive", "<i8"), ("t_exit", "<i8"), ("site", "<u8"), ("bytes", "<u8"), ("comm", "<u4"),
                   ("seq", "<u4"), ("root", "<i4"), ("coll", "<u2"), ("flags", "<u2")])
ROOT_NONE = -2147483648


class TraceError(Exception):
    pass


@dataclasses.dataclass
class Comm:
    index: int
    key: str
    instance: int
    inter: bool
    members: list  # world ranks, local group in rank order (then the remote group of an intercommunicator)
    local_size: int

    def __post_init__(self):
        self.position = {w: i for i, w in enumerate(self.members[:self.local_size])}  # world rank -> rank in comm


@dataclasses.dataclass
class Site:
    address: int
    bias: int
    symbol: str
    obj: str


@dataclasses.dataclass
class Call:
    """One collective call, all ranks: member arrays are in communicator rank order."""
    coll: str               # "bcast", or "ibcast" for the nonblocking post
    base: str               # the collective ("bcast" for both)
    nonblocking: bool
    comm: tuple             # (key, instance)
    seq: int
    root: int               # rank in the communicator, or a negative code (header root_codes)
    ranks: np.ndarray       # world rank of each member that recorded the call
    comm_ranks: np.ndarray  # their ranks in the communicator
    arrive: np.ndarray      # synchronized time, ns
    exit: np.ndarray
    bytes: np.ndarray
    sites: list             # (world rank, address) of each member
    flags: np.ndarray
    size: int               # members of the communicator


def piecewise_offset(t, knots_t, knots_o):
    """The offset at local times t, interpolated linearly between consecutive knots (t_k, o_k), t_k increasing;
    before the first knot and after the last, the first and the last segment extended; o_0 alone with one knot."""
    t = np.asarray(t, dtype=np.float64)
    kt = np.asarray(knots_t, dtype=np.float64)
    ko = np.asarray(knots_o, dtype=np.float64)
    if len(kt) == 1:
        return np.full_like(t, ko[0])
    k = np.clip(np.searchsorted(kt, t, side="right") - 1, 0, len(kt) - 2)
    span = kt[k + 1] - kt[k]
    slope = np.divide(ko[k + 1] - ko[k], span, out=np.zeros_like(span), where=span != 0)
    return ko[k] + slope * (t - kt[k])


def extrapolation_residuals(knots_t, knots_o):
    """At every knot k >= 2: |o_k - the offset the segment (k-2, k-1) extended predicts at t_k|, the error the
    correction had there before that synchronization measured it (Parsons 2015 §3.4)."""
    out = []
    for k in range(2, len(knots_t)):
        predicted = piecewise_offset([knots_t[k]], knots_t[k - 2:k], knots_o[k - 2:k])[0]
        out.append(abs(knots_o[k] - predicted))
    return np.array(out, dtype=np.float64)


class Clock:
    """Local time of rank r -> synchronized time: t + the offset interpolated piecewise linearly between the
    rank's consecutive synchronizations (format.h), t_k and o_k for k = 0 (MPI_Init), the periodic ones, and the
    last (MPI_Finalize)."""

    def __init__(self, header):
        syncs = header["clock"]["sync"]
        if not syncs:
            raise TraceError("the header has no clock synchronization")
        self.when = [s.get("when", "?") for s in syncs]
        self.t = np.array([s["t_local"] for s in syncs], dtype=np.float64)  # [sync, rank]
        self.o = np.array([s["offset"] for s in syncs], dtype=np.float64)
        self.e = np.array([s["error"] for s in syncs], dtype=np.float64)
        self.t0, self.o0, self.e0 = self.t[0], self.o[0], self.e[0]

    @property
    def syncs(self):
        return len(self.t)

    def to_global(self, rank, t):
        t = np.asarray(t, dtype=np.float64)
        return t + piecewise_offset(t, self.t[:, rank], self.o[:, rank])

    def residual(self):
        """Per rank: the Cristian bound of the synchronizations (ns), the largest over them."""
        return self.e.max(axis=0)

    def segment_residuals(self):
        """[sync k >= 2, rank]: the error of the previous segment's prediction at sync k (ns), empty with < 3."""
        if self.syncs < 3:
            return np.zeros((0, self.t.shape[1]))
        return np.array([extrapolation_residuals(self.t[:, r], self.o[:, r]) for r in range(self.t.shape[1])]).T

    def stated_residual(self):
        """Per rank (ns): the Cristian bound plus the largest segment residual, the accuracy the report claims for
        a synchronized time (the drift's departure from linearity within a segment is at most what it was over
        one segment length at the next synchronization)."""
        seg = self.segment_residuals()
        return self.residual() + (seg.max(axis=0) if len(seg) else 0)

    def drift_ppm(self):
        if self.syncs < 2:
            return np.zeros_like(self.o0)
        dt = np.where(self.t[-1] != self.t0, self.t[-1] - self.t0, 1.0)
        return (self.o[-1] - self.o0) / dt * 1e6

    def correction(self):
        """Per rank: how much the drift correction moves the end of the run, |o_last - o0| (ns)."""
        return np.abs(self.o[-1] - self.o0)


def read_records(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < FILE_HEADER.itemsize:
        raise TraceError(f"{path}: shorter than its header")
    h = np.frombuffer(data, FILE_HEADER, count=1)[0]
    if bytes(h["magic"]).ljust(8, b"\0") != FILE_MAGIC or h["version"] != 1 or h["record_size"] != RECORD.itemsize:
        raise TraceError(f"{path}: not a papcoll trace version 1 file (or another byte order)")
    body = data[h["header_size"]:]
    n = len(body) // RECORD.itemsize
    return int(h["world_rank"]), np.frombuffer(body[:n * RECORD.itemsize], RECORD)


def read_comms(path):
    comms = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines:
        head, _, members = line.partition(":")
        index, key, instance, inter, size, remote = head.split()
        local, _, remote_members = members.partition("|")
        ranks = [int(x) for x in local.split()] + [int(x) for x in remote_members.split()]
        comms[int(index)] = Comm(int(index), key, int(instance), inter == "1", ranks, int(size))
    return comms


def read_sites(path):
    sites = {}
    if not os.path.exists(path):
        return sites
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines:
        address, bias, symbol, obj = line.rstrip("\n").split(" ", 3)
        sites[int(address, 16)] = Site(int(address, 16), int(bias, 16), symbol, obj)
    return sites


def read_objects(path):
    """{object path: build identity ("build-id:HEX", "stat:SIZE:MTIME_NS" or "-")} of rank-R.objects; {} for a
    trace written before the file existed (its objects are not checked)."""
    objects = {}
    if not os.path.exists(path):
        return objects
    with open(path) as f:
        for line in f.read().splitlines():
            identity, _, obj = line.partition(" ")
            if obj:
                objects[obj] = identity
    return objects


class Run:
    def __init__(self, directory):
        self.dir = directory
        try:
            with open(os.path.join(directory, "header.json")) as f:
                self.header = json.load(f)
        except (OSError, ValueError) as e:
            raise TraceError(f"{directory}: no readable header.json ({e})")
        self.world_size = self.header["world_size"]
        self.collectives = self.header["collectives"]
        self.flag = self.header["flags"]
        self.node_of_rank = list(self.header["node_of_rank"])
        self.hosts = self.header["hosts"]
        self.clock = Clock(self.header)
        self.records, self.comms, self.sites, self.objects = {}, {}, {}, {}
        for path in sorted(glob.glob(os.path.join(directory, "rank-*.bin"))):
            rank, recs = read_records(path)
            self.records[rank] = recs
            self.comms[rank] = read_comms(os.path.join(directory, f"rank-{rank}.comms"))
            self.sites[rank] = read_sites(os.path.join(directory, f"rank-{rank}.sites"))
            self.objects[rank] = read_objects(os.path.join(directory, f"rank-{rank}.objects"))
        if not self.records:
            raise TraceError(f"{directory}: no rank-*.bin")

    def calls(self):
        """Every call, matched across ranks, in order of first arrival."""
        groups = {}
        for rank, recs in self.records.items():
            comms = self.comms[rank]
            arrive = self.clock.to_global(rank, recs["t_arrive"])
            exit_ = self.clock.to_global(rank, recs["t_exit"])
            for i, r in enumerate(recs):
                c = comms[int(r["comm"])]
                key = (c.key, c.instance, int(r["seq"]))
                g = groups.get(key)
                if g is None:
                    g = groups[key] = {"comm": c, "rows": []}
                g["rows"].append((rank, c.position.get(rank, -1), arrive[i], exit_[i],
                                  int(r["bytes"]), int(r["site"]), int(r["flags"]), int(r["root"]), int(r["coll"])))
        calls = []
        for (key, instance, seq), g in groups.items():
            rows = sorted(g["rows"], key=lambda x: x[1])
            nonblocking = bool(rows[0][6] & self.flag["nonblocking"])
            base = self.collectives[rows[0][8]]
            calls.append(Call(coll=("i" + base) if nonblocking else base, base=base, nonblocking=nonblocking,
                              comm=(key, instance), seq=seq, root=rows[0][7],
                              ranks=np.array([x[0] for x in rows]), comm_ranks=np.array([x[1] for x in rows]),
                              arrive=np.array([x[2] for x in rows]), exit=np.array([x[3] for x in rows]),
                              bytes=np.array([x[4] for x in rows]), sites=[(x[0], x[5]) for x in rows],
                              flags=np.array([x[6] for x in rows]), size=len(g["comm"].members)))
        calls.sort(key=lambda c: c.arrive.min())
        return calls
