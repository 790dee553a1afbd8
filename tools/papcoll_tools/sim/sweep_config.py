# SPDX-License-Identifier: BSD-3-Clause
"""The points of a simulation sweep, from a TOML file (papcoll sim sweep CONFIG.toml).

Top-level keys are the defaults; each [[sweep]] table (optional) is one set of points that overrides
them; the points of all sets are merged (duplicates once).  Every list is a dimension of a cartesian
product; a scalar is a one-value list.

    name = "example"                       # label of the sweep (column `sweep`)
    platforms = ["cluster:4x4", "ring:16"]  # specs as `papcoll sim run --platform` accepts
    np = [0]                               # process counts; 0 = every core of the platform
    sizes = ["64K", "1M"]                  # papcoll-bench sizes (-m SIZE:SIZE), K/M/G suffixes; "MIN:MAX:FACTOR"
                                           # = every size MIN, MIN*FACTOR, ... <= MAX in ONE run (one point)
    patterns = ["balanced", "uniform:4"]   # papcoll-bench --pattern
    colls = ["bcast"]                      # papcoll-bench --coll: bcast (default), reduce, allreduce, allgather,
                                           # allgatherv, reduce_scatter, reduce_scatter_block, alltoall,
                                           # alltoallv, gather, gatherv, scatter, scatterv, barrier
                                           # (run.COLLECTIVES)
    algos = ["binomial", "smpi:mpich"]     # papcoll names of the collective; smpi:NAME = SMPI's own algorithm
                                           # NAME of that collective (--baseline); "a,b,c" = several papcoll
                                           # algorithms in ONE run (one point)
    iters = 3                              # -i (timed repetitions)
    warmup = 1                             # -x
    seed = 1                               # --seed
    bench_args = ["--unit-time=1e-5"]      # more papcoll-bench arguments, every point
    [overrides]                            # platform parameters (lat, bw, ...), appended as ,key=value
    lat = ["1.5us", "5us"]
    [env]                                  # environment variables of the run, e.g. segment counts
    PAPCOLL_BCAST_CHUNKS = [1, 10, 100]
"""
from __future__ import annotations

import hashlib
import itertools
import json
import re
import sys
from dataclasses import dataclass

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

BASELINE_PREFIX = "smpi:"
KEYS = {"name", "platforms", "np", "sizes", "patterns", "colls", "algos", "iters", "warmup", "seed", "bench_args",
        "overrides", "env", "sweep"}
DEFAULTS = {"name": "sweep", "np": [0], "sizes": ["1M"], "patterns": ["balanced"], "colls": ["bcast"], "iters": 3,
            "warmup": 1, "seed": 1, "bench_args": [], "overrides": {}, "env": {}}
COLLS = ("bcast", "reduce", "allreduce", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block", "alltoall",
         "alltoallv", "gather", "gatherv", "scatter", "scatterv", "barrier")  # = run.COLLECTIVES
_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


class ConfigError(ValueError):
    pass


def size_bytes(size):
    """'64K' -> 65536, '100000000' -> 100000000 (papcoll-bench's parse_size: K, M, G are powers of 2)."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgG]?)\s*", str(size))
    if not m:
        raise ConfigError(f"bad size {size!r}")
    return int(m.group(1)) * _SUFFIX[m.group(2).upper()]


def size_spec(size):
    """A point's size: bytes (int) for one size, or "MIN:MAX:FACTOR" in bytes for several sizes in one run
    (papcoll-bench -m MIN:MAX:FACTOR: MIN, MIN*FACTOR, ... up to MAX): one process launch, so the
    communicator set-up, which dominates large simulations, is paid once."""
    parts = str(size).split(":")
    if len(parts) == 1:
        return size_bytes(size)
    if len(parts) != 3 or not parts[2].strip().isdigit() or int(parts[2]) < 2:
        raise ConfigError(f"bad size range {size!r} (MIN:MAX:FACTOR, FACTOR >= 2)")
    lo, hi = size_bytes(parts[0]), size_bytes(parts[1])
    if lo < 1 or lo > hi:
        raise ConfigError(f"bad size range {size!r} (need 1 <= MIN <= MAX)")
    return f"{lo}:{hi}:{int(parts[2])}"


def range_sizes(size):
    """The sizes (bytes) a point's size stands for."""
    if isinstance(size, int):
        return [size]
    lo, hi, f = (int(x) for x in size.split(":"))
    out = []
    while lo <= hi:
        out.append(lo)
        lo *= f
    return out


@dataclass(frozen=True)
class Point:
    """One simulated run: one platform, process count, size, pattern, collective and algorithm."""
    sweep: str
    platform: str          # as written in the config, without overrides
    overrides: tuple       # ((key, value), ...) sorted
    np: int
    size: object           # bytes (int), or "MIN:MAX:FACTOR" (several sizes in one run)
    pattern: str
    algo: str              # papcoll name, or smpi:NAME
    iters: int
    warmup: int
    seed: int
    env: tuple             # ((VAR, value), ...) sorted
    bench_args: tuple
    coll: str = "bcast"    # papcoll-bench --coll

    @property
    def spec(self):
        """The platform spec given to papcoll sim run (the overrides appended)."""
        return self.platform + "".join(f",{k}={v}" for k, v in self.overrides)

    @property
    def baseline(self):
        return self.algo[len(BASELINE_PREFIX):] if self.algo.startswith(BASELINE_PREFIX) else None

    def bench_argv(self):
        algo = "native" if self.baseline else self.algo
        coll = [] if self.coll == "bcast" else [f"--coll={self.coll}"]
        return [*coll, f"--algo={algo}", "-m", self.size if isinstance(self.size, str) else f"{self.size}:{self.size}",
                "-i", str(self.iters), "-x", str(self.warmup), f"--pattern={self.pattern}", f"--seed={self.seed}",
                "--format=csv", *self.bench_args]

    def columns(self):
        """The point's parameters as CSV columns (overrides and env variables by their own names)."""
        cols = {"sweep": self.sweep, "point": self.key, "platform": self.platform, "np": self.np,
                "algo": self.algo, "iters": self.iters, "warmup": self.warmup, "seed": self.seed,
                "bench_args": " ".join(self.bench_args)}
        cols.update(dict(self.overrides))
        cols.update(dict(self.env))
        return cols

    @property
    def key(self):
        """A stable identifier: a digest of every parameter (the point's file name)."""
        fields = [self.sweep, self.platform, self.overrides, self.np, self.size, self.pattern, self.algo,
                  self.iters, self.warmup, self.seed, self.env, self.bench_args]
        if self.coll != "bcast":  # a broadcast point keeps the key it had before reductions existed
            fields.append(self.coll)
        text = json.dumps(fields)
        coll = "" if self.coll == "bcast" else f"{self.coll}_"
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{self.platform}_{coll}{self.algo}_{self.size}_{self.pattern}")[:80]
        return f"{slug}-{hashlib.sha1(text.encode()).hexdigest()[:12]}"


def _list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _expand_set(cfg):
    unknown = set(cfg) - KEYS
    if unknown:
        raise ConfigError(f"unknown keys {sorted(unknown)} (known: {sorted(KEYS - {'sweep'})})")
    for required in ("platforms", "algos"):
        if not cfg.get(required):
            raise ConfigError(f"a sweep needs {required!r}")
    over = {k: _list(v) for k, v in cfg["overrides"].items()}
    env = {k: [str(x) for x in _list(v)] for k, v in cfg["env"].items()}
    over_combos = [tuple(sorted(zip(over, vals))) for vals in itertools.product(*over.values())]
    env_combos = [tuple(sorted(zip(env, vals))) for vals in itertools.product(*env.values())]
    bench_args = tuple(str(a) for a in _list(cfg["bench_args"]))
    if any(a == "--coll" or a.startswith("--coll=") for a in bench_args):
        raise ConfigError("name the collective with the colls key, not --coll in bench_args")
    for coll in _list(cfg["colls"]):
        if coll not in COLLS:
            raise ConfigError(f"unknown collective {coll!r} in colls (known: {', '.join(COLLS)})")
    for plat, np, size, pattern, coll, algo, ov, ev in itertools.product(
            _list(cfg["platforms"]), _list(cfg["np"]), _list(cfg["sizes"]), _list(cfg["patterns"]),
            _list(cfg["colls"]), _list(cfg["algos"]), over_combos, env_combos):
        yield Point(str(cfg["name"]), str(plat), ov, int(np), size_spec(size), str(pattern), str(algo),
                    int(cfg["iters"]), int(cfg["warmup"]), int(cfg["seed"]), ev, bench_args, str(coll))


def expand(config):
    """The points of a parsed config (dict), in file order, without duplicates."""
    base = dict(DEFAULTS)
    base.update({k: v for k, v in config.items() if k != "sweep"})
    sets = config.get("sweep") or [{}]
    points, seen = [], set()
    for s in sets:
        cfg = dict(base)
        cfg.update(s)
        for p in _expand_set(cfg):
            if p not in seen:
                seen.add(p)
                points.append(p)
    return points


def load(path):
    with open(path, "rb") as f:
        try:
            return expand(tomllib.load(f))
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: {e}") from None
