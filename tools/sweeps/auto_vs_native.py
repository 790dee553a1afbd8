"""Markdown summary of tools/sweeps/auto_vs_native.sh's files (SIMULATED): per collective, pattern and size,
native's e_bar (mean over the processes of arrival-to-exit time), then auto / native with adaptive selection
off (the static rule) and on (the default); for reduce and gather also the root's time (e_root), the same way.
A ratio above 1 is auto slower than the MPI library's own collective."""
import argparse
import glob
import os

import pandas as pd


def load(outdir):
    frames = []
    for path in sorted(glob.glob(os.path.join(outdir, "*_adapt[01].csv"))):
        df = pd.read_csv(path, comment="#")
        df["adapt"] = int(path[-5])
        frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def table(df):
    rows = []
    for (coll, pattern, size), cell in df.groupby(["coll", "pattern", "size"], sort=False):
        native = cell[(cell.algo == "native") & (cell.adapt == 1)]
        static = cell[(cell.algo == "auto") & (cell.adapt == 0)]
        adapt = cell[(cell.algo == "auto") & (cell.adapt == 1)]
        if native.empty or static.empty or adapt.empty:
            continue
        n, s, a = native.iloc[0], static.iloc[0], adapt.iloc[0]
        row = {"coll": coll, "pattern": pattern, "bytes": size, "p": n.p,
               "native e_bar (us)": f"{1e6 * n.e_bar:.2f}",
               "static auto / native": f"{s.e_bar / n.e_bar:.2f}",
               "adaptive auto / native": f"{a.e_bar / n.e_bar:.2f}"}
        if coll in ("reduce", "gather"):
            row["native e_root (us)"] = f"{1e6 * n.e_root:.2f}"
            row["static e_root / native"] = f"{s.e_root / n.e_root:.2f}"
            row["adaptive e_root / native"] = f"{a.e_root / n.e_root:.2f}"
        rows.append(row)
    return pd.DataFrame(rows)


def markdown(df):
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", help="the directory auto_vs_native.sh wrote")
    args = ap.parse_args()
    t = table(load(args.outdir))
    if t.empty:
        print("no complete cell (auto with PAPCOLL_ADAPT=0 and 1, native) in", args.outdir)
        return
    for coll, part in t.groupby("coll", sort=False):
        print(f"### {coll}\n")
        print(markdown(part.drop(columns="coll").dropna(axis=1, how="all")))
        print()


if __name__ == "__main__":
    main()
