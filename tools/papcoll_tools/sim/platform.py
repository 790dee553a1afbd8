# SPDX-License-Identifier: BSD-3-Clause
"""SimGrid platforms from a short spec (papcoll sim --platform=SPEC).

Spec: KIND:SHAPE[,key=value...] or the path of a SimGrid XML file.

  cluster:NODESxCORES     multi-core nodes on a crossbar (SimGrid <cluster>): intra-node traffic on a
                          loopback link, inter-node on one private link per node and a backbone
  fattree:NODESxCORES:LEVELS;DOWN;UP;COUNT   SimGrid FAT_TREE cluster (topo_parameters as SimGrid's)
  torus:NODESxCORES:DIMS  SimGrid TORUS cluster, DIMS like 4,4,4 (product = NODES)
  dragonfly:NODESxCORES:G,GL;C,CL;R,RL;N    SimGrid DRAGONFLY cluster
  ring:N | bintree:N      N single-core hosts, one link per ring edge / tree edge, shortest-path routes;
                          ring:N,wrap=0 routes no message over the closing link N-1 -> 0 (routes i <-> j
                          cross links i..j-1, as SMPI CourseWare's ring_N.xml of the SMPI bcast exercise)
  crossbar:N              N single-core hosts, a private link each and no backbone (SimGrid's crossbar
                          cluster: a message crosses the sender's and the receiver's links only)

Presets (key preset=, default ib-ddr) set latency, bandwidth, backbone, loopback and host speed; every
value can be overridden: lat, bw, bb_bw, bb_lat, lo_lat, lo_bw, speed (units as SimGrid: us, GBps,
Gbps, Gf...); bb_bw=none removes the backbone of a cluster (a crossbar).
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

PRESETS = {
    # the CP paper and Patarasuk & Yuan 2008: InfiniBand DDR clusters (about 2 GB/s, a few microseconds)
    "ib-ddr": {"lat": "1.5us", "bw": "2GBps", "bb_bw": "100GBps", "bb_lat": "0us", "lo_lat": "0.1us",
               "lo_bw": "10GBps", "speed": "1Gf"},
    # the cluster of cmake/SmpiPlatform.cmake (ctest, make demo, tools/sweeps): must stay equal to it
    "papcoll-ci": {"lat": "1us", "bw": "2.5GBps", "bb_bw": "100GBps", "bb_lat": "0us", "lo_lat": "0.1us",
                   "lo_bw": "10GBps", "speed": "1Gf"},
    # Patarasuk & Yuan 2008's Ethernet cluster: Gigabit Ethernet
    "gige": {"lat": "50us", "bw": "125MBps", "bb_bw": "10GBps", "bb_lat": "0us", "lo_lat": "0.5us",
             "lo_bw": "5GBps", "speed": "1Gf"},
    # Parsons 2015: Cray XE6 Gemini interconnect
    "gemini": {"lat": "1.3us", "bw": "6GBps", "bb_bw": "1TBps", "bb_lat": "0us", "lo_lat": "0.1us",
               "lo_bw": "10GBps", "speed": "1Gf"},
    # the SMPI bcast exercise's platforms (SMPI CourseWare, broadcast module): 10 Gb/s links of 20 us (the binary tree's
    # links are 10 us: bintree:100,preset=courseware,lat=10us), crossbar clusters without backbone
    "courseware": {"lat": "20us", "bw": "10Gbps", "bb_bw": "none", "bb_lat": "0us", "lo_lat": "0.1us",
                   "lo_bw": "10GBps", "speed": "1Gf"},
}
DEFAULT_PRESET = "ib-ddr"


@dataclass
class Platform:
    """A generated (or given) platform: XML text, hostfile lines, host count."""
    spec: str
    xml: str
    hosts: list = field(default_factory=list)  # one entry per process slot, in rank order
    description: str = ""

    @property
    def slots(self):
        return len(self.hosts)

    def write(self, prefix):
        with open(prefix + ".xml", "w") as f:
            f.write(self.xml)
        with open(prefix + ".hosts", "w") as f:
            f.write("\n".join(self.hosts) + "\n")
        return prefix + ".xml", prefix + ".hosts"


class SpecError(ValueError):
    pass


def _header():
    return ("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<platform version=\"4.1\">\n")


def _params(options):
    preset = options.pop("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        raise SpecError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    values = dict(PRESETS[preset])
    for k in options:
        if k not in values:
            raise SpecError(f"unknown platform parameter {k!r} (known: preset, {', '.join(values)})")
    values.update(options)
    return preset, values


def _nodes_cores(shape):
    m = re.fullmatch(r"(\d+)x(\d+)", shape)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise SpecError(f"expected NODESxCORES, got {shape!r}")
    return int(m.group(1)), int(m.group(2))


def _product(numbers):
    out = 1
    for x in numbers:
        out *= x
    return out


def _check_topology(kind, nodes, topo):
    """The node count must match SimGrid's topology parameters (SimGrid itself fails obscurely)."""
    try:
        if kind == "torus":
            count = _product(int(x) for x in topo.split(","))
        elif kind == "fattree":
            levels, down, *_ = topo.split(";")
            count = _product(int(x) for x in down.split(","))
        elif kind == "dragonfly":
            groups, chassis, routers, per_router = (int(x.split(",")[0]) for x in topo.split(";"))
            if routers < 2:
                raise SpecError("dragonfly needs at least 2 routers per chassis (SimGrid 3.32 crashes with 1)")
            count = groups * chassis * routers * per_router
        else:
            return
    except (ValueError, TypeError) as e:
        raise SpecError(f"bad {kind} parameters {topo!r}: {e}") from None
    if count != nodes:
        raise SpecError(f"{kind} parameters {topo!r} describe {count} nodes, the shape says {nodes}")


def _cluster(kind, shape, topo, v, backbone=True):
    nodes, cores = _nodes_cores(shape)
    extra = ""
    _check_topology(kind, nodes, topo)
    backbone = backbone and v["bb_bw"] != "none"
    bb = f' bb_bw="{v["bb_bw"]}" bb_lat="{v["bb_lat"]}"' if backbone else ""
    if kind != "cluster":
        name = {"fattree": "FAT_TREE", "torus": "TORUS", "dragonfly": "DRAGONFLY"}[kind]
        if not topo:
            raise SpecError(f"{kind} needs topology parameters: {kind}:NODESxCORES:PARAMS")
        extra = f' topology="{name}" topo_parameters="{topo}"'
    xml = (_header() +
           f'  <cluster id="cluster" prefix="node-" suffix="" radical="0-{nodes - 1}" core="{cores}" speed="{v["speed"]}"\n'
           f'           bw="{v["bw"]}" lat="{v["lat"]}"{bb}\n'
           f'           loopback_bw="{v["lo_bw"]}" loopback_lat="{v["lo_lat"]}"{extra}/>\n</platform>\n')
    hosts = [f"node-{n}" for n in range(nodes) for _ in range(cores)]
    return xml, hosts, f"{kind} {nodes} nodes x {cores} cores" + ("" if backbone or kind != "cluster" else " (no backbone)")


def _graph(kind, n, v, wrap=True):
    if n < 2:
        raise SpecError(f"{kind} needs at least 2 hosts")
    if kind == "ring":
        edges = [(i, (i + 1) % n) for i in range(n if n > 2 else 1)]
    else:  # bintree
        edges = [((i - 1) // 2, i) for i in range(1, n)]
    # Floyd routes along declared routes only: without the closing edge's route, i <-> j crosses i..j-1
    routed = edges if wrap or kind != "ring" or n <= 2 else edges[:-1]
    lines = [_header(), '  <zone id="world" routing="Floyd">\n']
    lines += [f'    <host id="host-{i}" speed="{v["speed"]}"/>\n' for i in range(n)]
    lines += [f'    <link id="link-{a}-{b}" bandwidth="{v["bw"]}" latency="{v["lat"]}"/>\n' for a, b in edges]
    lines += [f'    <route src="host-{a}" dst="host-{b}"><link_ctn id="link-{a}-{b}"/></route>\n' for a, b in routed]
    lines.append("  </zone>\n</platform>\n")
    desc = f"{kind} of {n} single-core hosts" + ("" if routed is edges else " (no route over the closing link)")
    return "".join(lines), [f"host-{i}" for i in range(n)], desc


def _from_file(path):
    with open(path) as f:
        xml = f.read()
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", xml))
    hosts = []
    for el in root.iter():
        if el.tag == "host":
            hosts += [el.get("id")] * int(el.get("core", "1"))
        elif el.tag == "cluster":  # radical: "0-63" or a list such as "0-3,8,10-12"
            for part in el.get("radical").split(","):
                lo, _, hi = part.strip().partition("-")
                for i in range(int(lo), int(hi or lo) + 1):
                    hosts += [f"{el.get('prefix')}{i}{el.get('suffix', '')}"] * int(el.get("core", "1"))
    if not hosts:
        raise SpecError(f"no hosts found in {path}")
    return xml, hosts, f"user platform {os.path.basename(path)}"


def generate(spec: str) -> Platform:
    """Builds the platform of a spec (see the module documentation)."""
    if spec.endswith(".xml") or os.path.isfile(spec):
        xml, hosts, desc = _from_file(spec)
        return Platform(spec, xml, hosts, desc)
    # ",key=value" options follow the shape; other commas belong to SimGrid topology parameters
    parts = spec.split(",")
    head, options = parts[0], {}
    for part in parts[1:]:
        m = re.fullmatch(r"\s*(\w+)=(.+)", part)
        if m:
            options[m.group(1)] = m.group(2).strip()
        elif options:
            raise SpecError(f"expected key=value after the options began, got {part!r}")
        else:
            head += "," + part
    kind, _, rest = head.partition(":")
    wrap = options.pop("wrap", "1")
    if wrap not in ("0", "1") or (wrap == "0" and kind != "ring"):
        raise SpecError(f"wrap=0|1 is an option of ring:N only (got wrap={wrap} for {kind})")
    preset, v = _params(options)
    if kind in ("cluster", "fattree", "torus", "dragonfly"):
        shape, _, topo = rest.partition(":")
        xml, hosts, desc = _cluster(kind, shape, topo, v)
    elif kind in ("ring", "bintree", "crossbar"):
        if not rest.isdigit():
            raise SpecError(f"{kind} needs a host count: {kind}:N")
        if kind == "crossbar":
            xml, hosts, desc = _cluster("cluster", f"{rest}x1", "", v, backbone=False)
            desc = f"crossbar of {rest} single-core hosts (private links, no backbone)"
        else:
            xml, hosts, desc = _graph(kind, int(rest), v, wrap == "1")
    else:
        raise SpecError(f"unknown platform kind {kind!r} (cluster, fattree, torus, dragonfly, ring, bintree, crossbar, or an XML file)")
    shown = {k: val for k, val in v.items() if not (k.startswith("bb_") and (kind in ("ring", "bintree", "crossbar")
                                                                            or v["bb_bw"] == "none"))}
    if kind in ("ring", "bintree"):
        shown = {k: val for k, val in shown.items() if not k.startswith("lo_")}
    desc += f"; preset {preset}: " + ", ".join(f"{k}={val}" for k, val in shown.items())
    return Platform(spec, xml, hosts, desc)
