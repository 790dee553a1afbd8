# SPDX-License-Identifier: BSD-3-Clause
"""The imbalance of one collective call from its members' arrival times a_i and exit times f_i (seconds or any
unit; the report uses microseconds).

Imbalance, Parsons 2015 §3.3 (after Fig. 3.1): abar = mean(a_i), delta_i = |a_i - abar|,
delta_bar = mean(delta_i) (the average imbalance), omega = max(a_i) - min(a_i) (the worst case imbalance).

Wait states, named and defined as Scalasca names them (Scalasca's pattern reference), per member and summed:
  Late Broadcast      1-to-n (bcast, scatter, scatterv): each non-root i waits max(0, a_root - a_i);
  Early Reduce        n-to-1 (reduce, gather, gatherv): the root waits max(0, min_{i != root} a_i - a_root);
  Wait at N x N       n-to-n (allreduce, allgather(v), alltoall(v/w), reduce_scatter(_block)): max_j a_j - a_i;
  N x N Completion    n-to-n: f_i - min_j f_j (time in the operation after the first process left);
  Wait at Barrier     barrier: max_j a_j - a_i;   Barrier Completion: f_i - min_j f_j;
  Early Scan          scan, exscan: max(0, max_{j < i} a_j - a_i) (waiting for lower ranks).
and, for n-to-n collectives and barriers, DESIGN.md section 6's time after the last arrival: f_i - max_j a_j.
Nonblocking posts have no wait states (their completion is not traced).

Intra- vs inter-node (Parsons 2015 §3.5.2, Table 3.5, Fig. 3.4): with the members grouped by node,
  intra delta_bar = mean_i |a_i - abar_node(i)|, intra omega = max over nodes of the node's omega,
  inter delta_bar / omega = delta_bar / omega of the nodes' mean arrivals,
  first / last omega = omega of the first (last) arrival of each node (Table 3.5's "First" and "Last"),
  intra share = within-node sum of squares / total sum of squares of the arrivals (the exact split of
  sum_i (a_i - abar)^2 into within-node and between-node parts)."""
from __future__ import annotations

import numpy as np

ONE_TO_N = ("bcast", "scatter", "scatterv")
N_TO_ONE = ("reduce", "gather", "gatherv")
N_TO_N = ("allreduce", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
          "reduce_scatter_block")
SCANS = ("scan", "exscan")

WAITS = ("Late Broadcast", "Early Reduce", "Wait at N x N", "N x N Completion", "Wait at Barrier",
         "Barrier Completion", "Early Scan")


def imbalance(a):
    a = np.asarray(a, dtype=np.float64)
    return float(np.mean(np.abs(a - a.mean()))), float(a.max() - a.min())


def waits(base, a, f, comm_ranks, root):
    """{wait name: total over members} for a blocking call of collective base, plus "after last arrival"."""
    a = np.asarray(a, dtype=np.float64)
    f = np.asarray(f, dtype=np.float64)
    out = {}
    if base in ONE_TO_N or base in N_TO_ONE:
        at_root = comm_ranks == root
        if root < 0 or not at_root.any() or len(a) < 2:
            return out
        a_root = float(a[at_root][0])
        if base in ONE_TO_N:
            out["Late Broadcast"] = float(np.sum(np.maximum(0.0, a_root - a[~at_root])))
        else:
            out["Early Reduce"] = max(0.0, float(a[~at_root].min()) - a_root)
    elif base in N_TO_N or base == "barrier":
        wait, completion = ("Wait at Barrier", "Barrier Completion") if base == "barrier" else \
            ("Wait at N x N", "N x N Completion")
        out[wait] = float(np.sum(a.max() - a))
        out[completion] = float(np.sum(f - f.min()))
        out["after last arrival"] = float(np.sum(f - a.max()))
    elif base in SCANS:
        order = np.argsort(comm_ranks)
        a_sorted = a[order]
        lower_max = np.maximum.accumulate(np.concatenate(([-np.inf], a_sorted[:-1])))
        out["Early Scan"] = float(np.sum(np.maximum(0.0, lower_max - a_sorted)))
    return out


def node_split(a, nodes):
    """Intra- and inter-node imbalance of arrivals a whose members sit on nodes (see the module's text)."""
    a = np.asarray(a, dtype=np.float64)
    nodes = np.asarray(nodes)
    ids = np.unique(nodes)
    means = np.array([a[nodes == n].mean() for n in ids])
    firsts = np.array([a[nodes == n].min() for n in ids])
    lasts = np.array([a[nodes == n].max() for n in ids])
    node_mean = means[np.searchsorted(ids, nodes)]
    within = float(np.sum((a - node_mean) ** 2))
    total = float(np.sum((a - a.mean()) ** 2))
    return {
        "nodes": len(ids),
        "intra_delta_bar": float(np.mean(np.abs(a - node_mean))),
        "intra_omega": float(max(a[nodes == n].max() - a[nodes == n].min() for n in ids)),
        "inter_delta_bar": float(np.mean(np.abs(means - means.mean()))),
        "inter_omega": float(means.max() - means.min()),
        "first_omega": float(firsts.max() - firsts.min()),
        "last_omega": float(lasts.max() - lasts.min()),
        "intra_share": within / total if total > 0 else float("nan"),
    }
