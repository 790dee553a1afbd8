# SPDX-License-Identifier: BSD-3-Clause
"""Stragglers: which ranks arrive last, how often and by how much ("which ranks are not joining?").

Per call of p >= 2 members with arrival times a_i (us): the last member is the one of the largest a_i (equal
arrivals: the later one in communicator-rank order); its gap is a_last - a_second-last (how long everyone else
had already been there when the last came; the time a faster last arrival would have saved at most); the
lateness of member i is a_i - mean(a) (behind the call's mean arrival when positive).

Per world rank, over the calls it is a member of (overall, and per call site and collective): calls, how often it
was last (count and share; a rank among p arriving at random is last in 1/p of the calls), the mean and largest gap
of the calls it was last in, its mean lateness in those calls, and its mean lateness over all its calls.  Per node
(the recorded node of the rank, or the virtual node): the calls with a member on the node, how often the last
arrival was one of its ranks, the mean gap of those calls, and the mean lateness of its ranks over all their
calls."""
from __future__ import annotations

import numpy as np

US = 1e-3  # ns -> us

COLUMNS = ["scope", "site", "collective", "rank", "node", "calls", "last", "last_share", "expected_share",
           "gap_mean_us", "gap_max_us", "last_lateness_mean_us", "lateness_mean_us"]


def last_of(a):
    """(index of the last arrival, gap to the second-last) of arrivals a (communicator-rank order)."""
    order = np.argsort(np.asarray(a, dtype=np.float64), kind="stable")
    return int(order[-1]), float(a[order[-1]] - a[order[-2]])


class _Tally:
    def __init__(self):
        self.calls = 0
        self.last = 0
        self.gaps = []
        self.last_late = []
        self.late_sum = 0.0
        self.late_n = 0
        self.inverse_p = 0.0  # sum of 1/p over the calls: the expected count of last arrivals at random

    def row(self, **keys):
        return dict(keys, calls=self.calls, last=self.last,
                    last_share=self.last / self.calls if self.calls else 0.0,
                    expected_share=self.inverse_p / self.calls if self.calls else 0.0,
                    gap_mean_us=float(np.mean(self.gaps)) if self.gaps else "",
                    gap_max_us=float(np.max(self.gaps)) if self.gaps else "",
                    last_lateness_mean_us=float(np.mean(self.last_late)) if self.last_late else "",
                    lateness_mean_us=self.late_sum / self.late_n if self.late_n else "")


def analyse(rows, nodes_of):
    """rows: the report's per-call rows (report.analyse: "call_obj", "site", "collective"); nodes_of: world ranks
    -> node ids.  Returns {"rank": [row], "site": [row], "node": [row]} (COLUMNS), each sorted by how often last,
    most first."""
    ranks, sites, nodes = {}, {}, {}
    for r in rows:
        c = r["call_obj"]
        if len(c.ranks) < 2:
            continue
        a = c.arrive * US
        mean = float(a.mean())
        last, gap = last_of(a)
        node_ids = nodes_of(c.ranks)
        site_key = (r["site"], r["collective"])
        for j, w in enumerate(c.ranks):
            w = int(w)
            for t in (ranks.setdefault(w, _Tally()), sites.setdefault(site_key, {}).setdefault(w, _Tally())):
                t.calls += 1
                t.inverse_p += 1.0 / len(a)
                t.late_sum += float(a[j]) - mean
                t.late_n += 1
                if j == last:
                    t.last += 1
                    t.gaps.append(gap)
                    t.last_late.append(float(a[j]) - mean)
            n = nodes.setdefault(int(node_ids[j]), _Tally())
            n.late_sum += float(a[j]) - mean
            n.late_n += 1
        for n_id in set(int(x) for x in node_ids):
            n = nodes[n_id]
            n.calls += 1
            share = float(np.sum(node_ids == n_id)) / len(a)
            n.inverse_p += share
            if int(node_ids[last]) == n_id:
                n.last += 1
                n.gaps.append(gap)
                n.last_late.append(float(a[last]) - mean)
    node_of_rank = {}
    for r in rows:
        c = r["call_obj"]
        for w, n in zip(c.ranks, nodes_of(c.ranks)):
            node_of_rank[int(w)] = int(n)
    order = lambda x: (-x["last"], -(x["gap_mean_us"] or 0.0), x["rank"] if x["rank"] != "" else -1)  # noqa: E731
    out = {"rank": sorted((t.row(scope="rank", site="", collective="", rank=w, node=node_of_rank[w])
                           for w, t in ranks.items()), key=order),
           "site": [], "node": sorted((t.row(scope="node", site="", collective="", rank="", node=n)
                                       for n, t in nodes.items()), key=lambda x: (-x["last"], x["node"]))}
    for (site, coll), per_rank in sites.items():
        out["site"] += sorted((t.row(scope="site", site=site, collective=coll, rank=w, node=node_of_rank[w])
                               for w, t in per_rank.items()), key=order)
    return out
