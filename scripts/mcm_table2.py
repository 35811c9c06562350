#!/usr/bin/env python3
"""Table II of paper 002 from a results folder: the ranges of l that policy calibrate chose,
as gpu.mcm records them (counters c.ranges, c.range<i>_from, _kernel, _threads, _blocks).

    scripts/mcm_table2.py FOLDER [--n 16384]   # writes FOLDER/table2_n<N>.csv

Each repetition calibrates afresh and may choose differently; the table is the one of the
repetition with the median time (runs.csv, status ok), which the CSV names (rep, time_s).
scripts/tables.py renders it in strategies/mcm/README.md (file="table2_n16384.csv").
"""
import argparse
import csv
import os
import sys

KERNELS = {0: "thread", 1: "block", 2: "blocks"}


def ranges_of(row):
    count = int(float(row["c.ranges"]))
    out = []
    for i in range(count):
        get = lambda f: row.get(f"c.range{i}_{f}", "")  # noqa: E731
        if get("from") == "":
            raise ValueError(f"{row['case_id']} rep {row['rep']}: range {i} of {count} not recorded")
        kernel = KERNELS[int(float(get("kernel")))]
        threads, blocks = int(float(get("threads"))), int(float(get("blocks")))
        setting = f"{kernel}:{threads}" + (f":{blocks}" if kernel == "blocks" else "")
        out.append({"range": i + 1, "from_l": int(float(get("from"))), "kernel": kernel, "threads": threads,
                    "blocks": blocks if kernel == "blocks" else "", "setting": setting})
    for a, b in zip(out, out[1:]):
        a["to_l"] = b["from_l"] - 1
    if out:
        out[-1]["to_l"] = "*"
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--n", type=int, default=16384)
    args = p.parse_args()
    with open(os.path.join(args.folder, "runs.csv"), newline="") as f:
        runs = [r for r in csv.DictReader(f) if r.get("s.policy") == "calibrate" and r.get("status") == "ok"
                and r.get("i.n") and int(float(r["i.n"])) == args.n and r.get("c.ranges")]
    if not runs:
        sys.exit(f"{args.folder}: no calibrate repetition at n = {args.n} with c.ranges in runs.csv")
    runs.sort(key=lambda r: float(r["time_s"]))
    chosen = runs[len(runs) // 2]
    table = ranges_of(chosen)
    out = os.path.join(args.folder, f"table2_n{args.n}.csv")
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, ["range", "from_l", "to_l", "setting", "kernel", "threads", "blocks", "rep", "time_s"])
        w.writeheader()
        for r in table:
            w.writerow({**r, "rep": chosen["rep"], "time_s": chosen["time_s"]})
    print(f"{out}: {len(table)} ranges (rep {chosen['rep']}, {float(chosen['time_s']):.4g} s)")


if __name__ == "__main__":
    main()
