# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim sweep: run the points of a sweep (sweep_config), resumably, and merge their results.

Each point runs `papcoll sim run` (sim/run.py: the one place of the SMPI settings) and, when it
succeeds, writes OUT/points/KEY.csv atomically (temporary file, then rename): the benchmark's CSV
plus #@sweep_* lines (the point's parameters, wall time, peak memory) and a final #@sweep_done line.
A rerun skips points whose file is complete, or that have no file but rows in OUT/sweep.csv (the
points/ pieces are a local cache, not kept in git: .gitignore); a failed point leaves OUT/points/KEY.err instead.
OUT/sweep.csv merges every finished point (a piece, else the point's rows of the previous sweep.csv): the point's parameters, then the benchmark's columns,
then wall_s, cpu_s, maxrss_mb, pss_mb (run.Outcome says how memory is measured) and smpi_settings.
"""
from __future__ import annotations

import csv
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from .. import results
from . import run

DONE = "#@sweep_done=1"
MEASURED = ["wall_s", "cpu_s", "maxrss_mb", "pss_mb", "smpi_settings"]
ROW_PREFIXES = tuple(f"{c}," for c in run.COLLECTIVES)  # the benchmark's result rows start with their collective


def _result_rows(lines):
    return [line for line in lines if line.startswith(ROW_PREFIXES)]


def point_path(out, point):
    return os.path.join(out, "points", point.key + ".csv")


def is_done(path, point):
    """True when PATH is a complete result of POINT: its key, at least one result row, the final marker."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    return (bool(lines) and lines[-1] == DONE and f"#@sweep_key={point.key}" in lines
            and bool(_result_rows(lines)))


def _write_atomic(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def run_point(point, out, bench=None, timeout=None):
    """Simulates one point (killed after TIMEOUT seconds if given); returns None on success, else a one-line
    reason (details in KEY.err)."""
    path = point_path(out, point)
    try:
        o = run.simulate(point.spec, point.np or None, point.baseline, bench, point.bench_argv(), env=dict(point.env),
                         timeout=timeout)
    except ValueError as e:  # platform.SpecError
        o = run.Outcome(2, "", str(e), 0.0, 0)
    rows = _result_rows(o.stdout.splitlines())
    if o.returncode or not rows:
        with open(path[:-4] + ".err", "w") as f:
            f.write(f"exit status {o.returncode}\n--- stdout\n{o.stdout}\n--- stderr\n{o.stderr}")
        return f"{point.key}: exit status {o.returncode}" + ("" if rows else ", no result row")
    trailer = (f"#@sweep_key={point.key}\n#@sweep_point={json.dumps(point.columns())}\n"
               f"#@sweep_wall_s={o.wall_s:.3f}\n#@sweep_cpu_s={o.cpu_s:.3f}\n#@sweep_maxrss_kb={o.maxrss_kb}\n"
               f"#@sweep_pss_kb={o.pss_kb}\n{DONE}\n")
    _write_atomic(path, o.stdout.rstrip("\n") + "\n" + trailer)
    if os.path.exists(path[:-4] + ".err"):
        os.unlink(path[:-4] + ".err")
    return None


def _progress(total, initial, file):
    try:
        from tqdm import tqdm
        return tqdm(total=total, initial=initial, unit="point", file=file, dynamic_ncols=True)
    except ImportError:  # pragma: no cover - tqdm is a dependency; keep working without it
        class Plain:
            n = initial

            def update(self, k):
                self.n += k
                print(f"{self.n}/{total} points", file=file)

            def set_postfix_str(self, s):
                pass

            def close(self):
                pass
        return Plain()


def sweep(points, out, jobs=2, bench=None, log=sys.stderr, timeout=None, merge_points=None):
    """Runs the unfinished points (JOBS at a time, each killed after TIMEOUT seconds if given), merges
    everything into OUT/sweep.csv: POINTS, or MERGE_POINTS when POINTS are a part of the CSV's points (a
    tier), so that the rows of the others are kept where their pieces are not.
    Returns (path of the merged CSV, number skipped, list of failures)."""
    os.makedirs(os.path.join(out, "points"), exist_ok=True)
    done = recorded(out, points)
    todo = [p for p in points if p.key not in done]
    skipped = len(points) - len(todo)
    print(f"papcoll sim sweep: {len(points)} points, {skipped} already done (skipped), {len(todo)} to run, "
          f"{jobs} at a time -> {out}", file=log)
    failures = []
    bar = _progress(len(points), skipped, log)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_point, p, out, bench, timeout): p for p in todo}
        for fut in as_completed(futures):
            err = fut.result()
            if err:
                failures.append(err)
                bar.set_postfix_str(f"{len(failures)} failed")
            bar.update(1)
    bar.close()
    for err in failures:
        print(f"papcoll sim sweep: FAILED {err}", file=log)
    return merge(merge_points or points, out), skipped, failures


def merge(points, out, name="sweep.csv"):
    """One CSV of every finished point: parameters, benchmark columns, wall_s, cpu_s, maxrss_mb, pss_mb, smpi_settings."""
    rows, param_cols, bench_cols = [], [], []
    kept = _merged(out, name)
    for p in points:
        path = point_path(out, p)
        if not is_done(path, p):
            if p.key in kept:  # no piece (a fresh clone): the rows the previous merge wrote, verbatim
                for c in kept[p.key][0]:
                    if c not in MEASURED and c not in param_cols + bench_cols:
                        (param_cols if c in p.columns() else bench_cols).append(c)
                rows.extend(kept[p.key])
            continue
        meta, bench_rows = _raw_rows(path)
        params = p.columns()
        measured = {"wall_s": meta.get("sweep_wall_s", ""), "cpu_s": meta.get("sweep_cpu_s", ""),
                    "maxrss_mb": f"{int(meta.get('sweep_maxrss_kb', 0)) / 1024:.1f}",
                    "pss_mb": f"{int(meta['sweep_pss_kb']) / 1024:.1f}" if meta.get("sweep_pss_kb") else "",
                    "smpi_settings": meta.get("smpi_settings", "")}
        for c in params:
            if c not in param_cols:
                param_cols.append(c)
        for r in bench_rows:
            for c in r:
                if c not in bench_cols and c not in params:
                    bench_cols.append(c)
            row = {**r, **params, **measured}
            if "," in p.algo:  # several papcoll algorithms in one run: each row is the algorithm the benchmark names
                row["algo"] = r["algo"]
            rows.append(row)
    path = os.path.join(out, name)
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=param_cols + bench_cols + MEASURED, restval="")
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)
    return path


def recorded(out, points, name="sweep.csv"):
    """The keys of POINTS done in OUT: a finished piece, or rows of the merged OUT/NAME for a point
    without a piece (a fresh clone: the pieces are not kept in git)."""
    kept = _merged(out, name)
    return {p.key for p in points if is_done(point_path(out, p), p)
            or (p.key in kept and not os.path.exists(point_path(out, p)))}


def _merged(out, name="sweep.csv"):
    """{point key: [rows]} of an existing OUT/NAME (empty when there is none)."""
    try:
        with open(os.path.join(out, name), newline="") as f:
            by_key = {}
            for r in csv.DictReader(f):
                by_key.setdefault(r.get("point", ""), []).append(r)
            return by_key
    except OSError:
        return {}


def _raw_rows(path):
    """The benchmark's rows as text (no number conversion: the merged CSV keeps them verbatim)."""
    meta, _ = results.read(path)
    with open(path) as f:
        body = [line for line in f if not line.startswith("#")]
    return meta, list(csv.DictReader(body))
