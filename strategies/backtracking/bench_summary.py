# Prints the columns of a dpgpu summary.csv that matter for gpu.ivm / gpu.bpdfs (device runs).
import csv, sys
cols = ["instance", "solver", "s.explorers", "s.arity", "s.trigger", "s.poll", "status", "time_median_s", "c.nodes",
        "c.nodes_per_s", "c.kernel_nodes_per_s", "c.ws_phases", "c.steals", "c.steal_share", "c.idle_per_phase",
        "c.explore_launches", "c.active_set", "message"]
rows = list(csv.DictReader(open(sys.argv[1])))
print("\t".join(c.replace("c.", "").replace("s.", "") for c in cols))
for r in rows:
    print("\t".join((r.get(c) or "")[:60] for c in cols))
