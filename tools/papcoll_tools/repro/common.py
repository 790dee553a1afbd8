"""Helpers shared by the seed reproductions (papcoll sim reproduce SEED)."""
from __future__ import annotations


def _f(v, digits=3):
    return "-" if v is None or v != v else f"{v:.{digits}f}"


def _best(values):
    """Index of the smallest defined value."""
    idx = [i for i, v in enumerate(values) if v is not None and v == v]
    return min(idx, key=lambda i: values[i]) if idx else None
