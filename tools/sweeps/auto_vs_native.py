# SPDX-License-Identifier: BSD-3-Clause
"""Markdown summary of tools/sweeps/auto_vs_native.sh's files (SIMULATED): per collective, pattern and size,
native's e_bar (mean over the processes of arrival-to-exit time), then auto / native with adaptive selection
off (the static rule) and on (the default); for reduce and gather also the root's time (e_root), the same way.
A ratio above 1 is auto slower than the MPI library's own collective."""
import argparse
import csv
import glob
import os


def load(outdir):
    """{(coll, pattern, size): {(algo, adapt): row}} from every *_adapt{0,1}.csv."""
    cells = {}
    for path in sorted(glob.glob(os.path.join(outdir, "*_adapt[01].csv"))):
        adapt = int(path[-5])
        with open(path) as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                key = (row["coll"], row["pattern"], int(row["size"]))
                cells.setdefault(key, {})[(row["algo"], adapt)] = row
    return cells


def ratio(a, b, field):
    return f"{float(a[field]) / float(b[field]):.2f}"


def tables(cells):
    out = {}
    for (coll, pattern, size), runs in cells.items():
        native, static, adaptive = runs.get(("native", 1)), runs.get(("auto", 0)), runs.get(("auto", 1))
        if not (native and static and adaptive):
            continue
        row = [pattern, str(size), native["p"], f"{1e6 * float(native['e_bar']):.2f}",
               ratio(static, native, "e_bar"), ratio(adaptive, native, "e_bar")]
        if coll in ("reduce", "gather"):
            row += [f"{1e6 * float(native['e_root']):.2f}", ratio(static, native, "e_root"),
                    ratio(adaptive, native, "e_root")]
        out.setdefault(coll, []).append(row)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", help="the directory auto_vs_native.sh wrote")
    args = ap.parse_args()
    out = tables(load(args.outdir))
    if not out:
        print("no complete cell (auto with PAPCOLL_ADAPT=0 and 1, native) in", args.outdir)
    for coll, rows in out.items():
        head = ["pattern", "bytes", "p", "native e_bar (us)", "static auto / native", "adaptive auto / native"]
        if coll in ("reduce", "gather"):
            head += ["native e_root (us)", "static e_root / native", "adaptive e_root / native"]
        print(f"### {coll}\n")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        print()


if __name__ == "__main__":
    main()
