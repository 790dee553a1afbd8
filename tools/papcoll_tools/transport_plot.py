# SPDX-License-Identifier: BSD-3-Clause
"""papcoll transport-plot: Morimoto et al. 1999's Fig. 7 for papcoll's intra-node transports.

    python3 -m papcoll_tools.transport_plot LABEL=FILE [LABEL=FILE ...] -o fig.png [--markdown]

Each FILE is the output of `papcoll-transport-bench` (its pingpong test: two
processes of one node) under one MPI library, LABEL names that library
(e.g. "Open MPI 4.1=ompi.txt").  The figure has two panels against the message
size: the bandwidth (2 x size / round-trip time, MB/s) and the round-trip time
(us), one colour per method (the MPI library's MPI_Send/MPI_Recv, papcoll's
write, read and eager = ring protocols) and one line style per library.
--markdown also prints every table read, as Markdown, on stdout.
"""
from __future__ import annotations

import argparse
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# method (first word of a column header) -> legend name, colour
METHODS = {
    "mpi": ("MPI_Send/Recv", "tab:gray"),
    "write": ("papcoll write (sender process_vm_writev)", "tab:red"),
    "read": ("papcoll read (receiver process_vm_readv)", "tab:green"),
    "eager": ("papcoll eager (node ring, 2 copies)", "tab:blue"),
}
STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D"]


def parse_pingpong(text: str) -> dict[str, list[tuple[int, float, float]]]:
    """{method: [(bytes, rtt_us, MB/s), ...]} from a papcoll-transport-bench output."""
    lines = text.splitlines()
    try:
        start = next(i for i, ln in enumerate(lines) if ln.startswith("# pingpong"))
    except StopIteration:
        raise ValueError("no '# pingpong' section (run papcoll-transport-bench with --test=pingpong or all)")
    header = [c.strip() for c in lines[start + 1].split("|")]
    methods = [c.split()[0] for c in header[1:]]
    out: dict[str, list[tuple[int, float, float]]] = {m: [] for m in methods}
    for ln in lines[start + 2:]:
        cols = [c.strip() for c in ln.split("|")]
        if len(cols) != len(header) or not re.fullmatch(r"\d+", cols[0]):
            break
        size = int(cols[0])
        for m, cell in zip(methods, cols[1:]):
            parts = cell.split()
            try:
                out[m].append((size, float(parts[0]), float(parts[1])))
            except (ValueError, IndexError):  # WRONG DATA: left out of the figure
                pass
    return out


def markdown(label: str, data: dict[str, list[tuple[int, float, float]]]) -> str:
    methods = list(data)
    sizes = sorted({s for rows in data.values() for s, _, _ in rows})
    head = "| bytes | " + " | ".join(f"{m} rtt us | {m} MB/s" for m in methods) + " |"
    rule = "|---:|" + "---:|---:|" * len(methods)
    rows = []
    for s in sizes:
        cells = []
        for m in methods:
            hit = [(t, b) for z, t, b in data[m] if z == s]
            cells.append(f"{hit[0][0]:.2f} | {hit[0][1]:.1f}" if hit else "- | -")
        rows.append(f"| {s} | " + " | ".join(cells) + " |")
    return f"{label}:\n\n" + "\n".join([head, rule] + rows) + "\n"


def plot(inputs: list[tuple[str, dict]], out: str, title: str) -> None:
    fig, (bw, lat) = plt.subplots(1, 2, figsize=(12, 4.8))
    for li, (label, data) in enumerate(inputs):
        for m, rows in data.items():
            if not rows:
                continue
            name, colour = METHODS.get(m, (m, None))
            x = [s for s, _, _ in rows]
            kw = dict(color=colour, linestyle=STYLES[li % len(STYLES)], marker=MARKERS[li % len(MARKERS)],
                      markersize=4, label=f"{label}: {name}")
            bw.plot(x, [b for _, _, b in rows], **kw)
            lat.plot(x, [t for _, t, _ in rows], **kw)
    for ax, ylabel in ((bw, "bandwidth, 2 x size / round trip (MB/s)"), (lat, "round-trip time (us)")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
    bw.legend(fontsize=7, loc="upper left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m papcoll_tools.transport_plot",
                                 description="Bandwidth and round-trip time versus message size of papcoll's "
                                             "intra-node protocols (write, read, eager) and the MPI library's "
                                             "point-to-point, from papcoll-transport-bench outputs (Morimoto et al. 1999 Fig. 7).")
    ap.add_argument("inputs", nargs="+", metavar="LABEL=FILE",
                    help="an MPI library's name and its papcoll-transport-bench output (pingpong test)")
    ap.add_argument("-o", "--output", required=True, help="PNG to write")
    ap.add_argument("--title", default="papcoll intra-node transports, 2 processes of one node (native)",
                    help="figure title (say native or simulated, and how many cores were free)")
    ap.add_argument("--markdown", action="store_true", help="also print every table as Markdown on stdout")
    args = ap.parse_args(argv)
    inputs = []
    for spec in args.inputs:
        label, sep, path = spec.partition("=")
        if not sep:
            ap.error(f"'{spec}': expected LABEL=FILE")
        try:
            with open(path) as f:
                data = parse_pingpong(f.read())
        except (OSError, ValueError) as e:
            print(f"transport-plot: {path}: {e}", file=sys.stderr)
            return 1
        inputs.append((label, data))
        if args.markdown:
            print(markdown(label, data))
    plot(inputs, args.output, args.title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
