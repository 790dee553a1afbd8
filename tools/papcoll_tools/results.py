# SPDX-License-Identifier: BSD-3-Clause
"""Read papcoll-bench results (CSV with #@ metadata lines, or JSON)."""
from __future__ import annotations

import csv
import io
import json

NUMERIC = {"size", "p", "ppn", "reps", "valid_reps", "e_bar", "e_bar_lo", "e_bar_hi", "g", "after_last", "e_root",
           "root_bound", "delta_bar", "omega", "if_avg", "if_worst", "bound", "ratio", "T",
           "e_p50", "e_p90", "e_p99", "after_p50", "after_p90", "after_p99"}


def number(v):
    if v is None or v in ("", "nan", "null"):
        return float("nan")
    return float(v)


def read(path):
    """Returns (meta dict, list of row dicts with numbers converted)."""
    with open(path) as f:
        text = f.read()
    if text.lstrip().startswith("{"):
        doc = json.loads(text)
        meta, rows = dict(doc.get("meta", {})), doc.get("results", [])
    else:
        meta, body = {}, []
        for line in text.splitlines(True):
            if line.startswith("#@"):
                key, _, value = line[2:].rstrip("\n").partition("=")
                meta.setdefault(key, value)
            elif not line.startswith("#"):
                body.append(line)
        rows = list(csv.DictReader(io.StringIO("".join(body))))
    for r in rows:
        for k in NUMERIC & r.keys():
            r[k] = number(r[k])
    return meta, rows


def simulated(meta):
    return str(meta.get("simulated", "")).startswith("yes")


def pattern_level(pattern):
    """The numeric argument of a pattern spec (uniform:16 -> 16, late:0.2:64 -> 64), 0 for balanced."""
    parts = pattern.split(":")
    try:
        return float(parts[-1]) if len(parts) > 1 else 0.0
    except ValueError:
        return float("nan")
