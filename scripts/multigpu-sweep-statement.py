#!/usr/bin/env python3
"""The statement of issue 27's sweep measurement, written from the results folders alone.

    scripts/multigpu-sweep-statement.py DIR

DIR holds the three results folders of experiments/multigpu_sweep.yaml run on one host
(scripts/multigpu-x4.sh): multigpu_sweep (--gpus all), multigpu_sweep_one_gpu (a plain run
on one card) and multigpu_sweep_sharded (dpgpu merge of --shard 0/2 and 1/2, each on its own
card), and wall.json (the wall times the script took around the --gpus all and plain runs;
the shards' is their merged folder's context.json start to end). Prints STATEMENT.md's
text: rows equal or not (status and objective of every (case, repetition)), the wall times
and their ratio, and the sum of the solve times of each run (same solves, same cards: a
sum that moves says the runs disturbed each other). Exit 1 when rows differ or are missing.
"""

import csv
import json
import os
import sys

RUNS = {"gpus_all": "multigpu_sweep", "one_gpu": "multigpu_sweep_one_gpu", "sharded": "multigpu_sweep_sharded"}


def rows(folder):
    with open(os.path.join(folder, "runs.csv"), newline="") as f:
        return {(r["case_id"], r["rep"]): r for r in csv.DictReader(f)}


def cards(folder):
    with open(os.path.join(folder, "runs.csv"), newline="") as f:
        return sorted({r.get("gpu.uuid", "") for r in csv.DictReader(f)} - {""})


def context_wall_s(folder):
    """end - start of context.json (whole seconds)."""
    from datetime import datetime
    with open(os.path.join(folder, "context.json")) as f:
        c = json.load(f)
    at = lambda t: datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")
    return (at(c["end"]) - at(c["start"])).total_seconds()


def compare(name, base, other):
    missing = sorted(set(base) - set(other))
    extra = sorted(set(other) - set(base))
    differ = [k for k in sorted(set(base) & set(other))
              if (base[k]["status"], base[k]["objective"]) != (other[k]["status"], other[k]["objective"])]
    ok = not (missing or extra or differ)
    line = (f"- {name}: {len(other)} (case, repetition) rows, "
            + ("status and objective equal to the --gpus all run's in every one" if ok else
               f"NOT equal: {len(missing)} missing, {len(extra)} extra, {len(differ)} differ "
               f"(first: {(missing + extra + differ)[0]})"))
    return ok, line


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    top = argv[1]
    data = {k: rows(os.path.join(top, v)) for k, v in RUNS.items()}
    with open(os.path.join(top, RUNS["gpus_all"], "wall.json")) as f:
        wall = json.load(f)
    statuses = sorted({r["status"] for r in data["gpus_all"].values()})
    out = ["# multigpu_sweep: --gpus all, one GPU and two shards (generated)", "",
           "Written by `scripts/multigpu-sweep-statement.py results/reference/h100x4` from the three",
           "results folders and wall.json (scripts/multigpu-x4.sh); not edited by hand.", ""]
    good = True
    for name in ("one_gpu", "sharded"):
        ok, line = compare(name, data["gpus_all"], data[name])
        good &= ok
        out.append(line)
    out.append(f"- --gpus all: {len(data['gpus_all'])} rows (statuses: {', '.join(statuses)}), "
               f"{len(cards(os.path.join(top, RUNS['gpus_all'])))} cards used")
    solve = {k: sum(float(r["time_s"] or 0) for r in v.values()) for k, v in data.items()}
    speedup = wall["one_gpu_s"] / wall["gpus_all_s"]
    out += ["", "| run | wall time (s) | sum of solve times (s) |", "|---|---:|---:|",
            f"| plain, one card | {wall['one_gpu_s']:.1f} | {solve['one_gpu']:.2f} |",
            f"| --gpus all ({len(cards(os.path.join(top, RUNS['gpus_all'])))} cards) | {wall['gpus_all_s']:.1f} | {solve['gpus_all']:.2f} |",
            f"| --shard 0/2 and 1/2 at once, two cards (merged folder's context.json, whole seconds) | "
            f"{context_wall_s(os.path.join(top, RUNS['sharded'])):.0f} | {solve['sharded']:.2f} |",
            "", f"--gpus all took {speedup:.2f}x less wall time than the plain run on one card.",
            f"Note: {wall.get('note', '')}."]
    print("\n".join(out))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
