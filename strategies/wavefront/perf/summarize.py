#!/usr/bin/env python3
# Prints the short table of a device run's summary.csv files (results/*/summary.csv under the
# folder given): solver, instance and solver parameters that differ from defaults, median time.
import csv, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/**/summary.csv", recursive=True)):
    print("==", f)
    for r in csv.DictReader(open(f)):
        inst = " ".join(f"{k[2:]}={v}" for k, v in r.items() if k.startswith("i.") and v)
        par = " ".join(f"{k[2:]}={v}" for k, v in r.items()
                       if k.startswith("s.") and v and k[2:] in ("mode", "offload", "reconstruct", "readonly"))
        extra = " ".join(f"{k[2:]}={float(v):.4g}" for k, v in r.items()
                         if k in ("c.offload_stream_wait_s", "c.offload_wait_s") and v)
        print(f"{r['solver']:14} {inst:32} {par:50} {r['status']:6} t={r['time_median_s']:>10} {extra} {r['message'][:80]}")
