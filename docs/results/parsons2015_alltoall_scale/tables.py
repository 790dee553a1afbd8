"""Tables of docs/results/parsons2015_alltoall_scale.md from the raw point files (simulated, SimGrid SMPI 3.32):
    python3 docs/results/parsons2015_alltoall_scale/tables.py parsons2015   # Table 3.8 / Fig. 3.24 points
    python3 docs/results/parsons2015_alltoall_scale/tables.py rules         # the 512-rank rule sweep
Parsons 2015 points: this folder's sweep/points/*.csv, then (for 512-rank points not rerun here) those of
docs/results/parsons2015_alltoall_wake and docs/results/parsons2015_alltoall (the earlier sessions' runs of the same
settings; the first sweep's `aware` rows, the polling version, are left out); a point measured in several
places is taken from the first.  Values: e_bar and after_last (last
exit - last arrival), medians over the timed calls, in us."""
import csv
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [os.path.join(HERE, "sweep", "points"),
           os.path.join(HERE, "..", "parsons2015_alltoall_wake", "sweep", "points"),
           os.path.join(HERE, "..", "parsons2015_alltoall", "sweep", "points")]
PARSONS_ALGOS = ["isend", "hier", "aware", "native"]


def rows(folder, tag):
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        with open(path) as f:
            lines = [line for line in f if not line.startswith("#")]
        for r in csv.DictReader(lines):
            if r["coll"] == "alltoall" and r["pattern"].startswith(tag):
                out.append(r)
    return out


def level(pattern):
    return int(pattern.split(":")[1]) if pattern.startswith("microbench") else pattern


def collect(tag, sources):
    res, src = {}, {}
    for i, folder in enumerate(sources):
        for r in rows(folder, tag):
            key = (int(r["p"]), r["algo"], int(r["size"]), level(r["pattern"]))
            if i == 2 and r["algo"].startswith("aware"):
                continue  # the polling aware of the first sweep (parsons2015_alltoall_wake.md: aware_poll)
            if key not in res:
                res[key] = (float(r["e_bar"]) * 1e6, float(r["after_last"]) * 1e6)
                src[key] = i
    return res, src


def parsons2015():
    res, src = collect("microbench", SOURCES)
    for p in sorted({k[0] for k in res}):
        pts = sorted({(k[2], k[3]) for k in res if k[0] == p})
        print(f"\n### {p} ranks: e_bar / after last arrival (us), isend / algorithm per point\n")
        print("| size B | level | " + " | ".join(PARSONS_ALGOS) + " | isend/hier | isend/aware | isend/native |")
        print("|---:|---:|" + "---:|" * (len(PARSONS_ALGOS) + 3))
        for s, x in pts:
            cells = []
            for a in PARSONS_ALGOS:
                v = res.get((p, a, s, x))
                mark = "" if v is None or src[(p, a, s, x)] == 0 else "*"
                cells.append("-" if v is None else f"{v[0]:.1f} / {v[1]:.1f}{mark}")
            rc = []
            b = res.get((p, "isend", s, x))
            for a in ("hier", "aware", "native"):
                v = res.get((p, a, s, x))
                if b and v:
                    rc.append(f"{b[0] / v[0]:.2f} / {b[1] / v[1]:.2f}")
                else:
                    rc.append("-")
            print(f"| {s} | {x} | " + " | ".join(cells) + " | " + " | ".join(rc) + " |")
        print()
        common = [(s, x) for s, x in pts if all((p, a, s, x) in res for a in PARSONS_ALGOS)]
        for a in ("hier", "aware", "native"):
            e = [res[(p, "isend", s, x)][0] / res[(p, a, s, x)][0] for s, x in common]
            al = [res[(p, "isend", s, x)][1] / res[(p, a, s, x)][1] for s, x in common]
            if e:
                print(f"- {p} ranks, isend / {a}: e_bar mean {sum(e) / len(e):.2f}, after last mean "
                      f"{sum(al) / len(al):.2f} over the {len(e)} points where all four ran: {common}")
    print("\n(* = from the earlier sessions' sweeps, docs/results/parsons2015_alltoall_wake or parsons2015_alltoall)")


def rule_rows():
    """{(column, size, pattern): (e_bar, after_last)} of the 512-rank rule sweep.  Columns: hier_native = hier
    with its leaders' alltoall chosen by the old rules (SMPI's native), hier_isend = hier with isend among the
    leaders (PAPCOLL_ALLTOALL_INTER=isend, or the new rules' ppn==1 rule in the auto_* runs, whose bench was
    rebuilt with them), aware, auto (new rules)."""
    files = glob.glob(os.path.join(HERE, "sweep", "points", "*.csv")) + [os.path.join(HERE, "rules_balanced_16-2K_partial.csv")]
    out = {}
    for path in sorted(files):
        with open(path) as f:
            text = f.read()
        lines = [line for line in text.splitlines() if not line.startswith("#")]
        new_rules = ",auto," in text
        isend = "PAPCOLL_ALLTOALL_INTER=isend" in text or new_rules
        for r in csv.DictReader(lines):
            if r["coll"] != "alltoall" or r["pattern"].startswith("microbench") or int(r["p"]) != 512:
                continue
            col = r["algo"] if r["algo"] != "hier" else ("hier_isend" if isend else "hier_native")
            out.setdefault((col, int(r["size"]), r["pattern"]), (float(r["e_bar"]) * 1e6, float(r["after_last"]) * 1e6))
    return out


def rules():
    res = rule_rows()
    cols = ["hier_native", "hier_isend", "aware", "auto"]
    for pat in ("balanced", "uniform:512", "late:0.2:512"):
        sizes = sorted({k[1] for k in res if k[2] == pat})
        if not sizes:
            continue
        print(f"\n### 512 ranks, {pat}: e_bar / after last (us); auto / best (e_bar, of the other columns)\n")
        print("| size B | bytes (p x size) | " + " | ".join(cols) + " | best | auto / best |")
        print("|---:|---:|" + "---:|" * (len(cols) + 2))
        for s in sizes:
            v = {c: res.get((c, s, pat)) for c in cols}
            cells = ["-" if v[c] is None else f"{v[c][0]:.1f} / {v[c][1]:.1f}" for c in cols]
            cand = {c: v[c][0] for c in cols[:3] if v[c]}
            best = min(cand, key=cand.get) if cand else None
            ratio = f"{v['auto'][0] / cand[best]:.2f}" if best and v["auto"] else "-"
            print(f"| {s} | {s * 512 // 1024}K | " + " | ".join(cells) + f" | {best} | {ratio} |")


{"parsons2015": parsons2015, "rules": rules}[sys.argv[1]]()
