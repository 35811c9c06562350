"""One speed-up baseline rule for the report and the figures (issue 36): the report's
speed-up column takes the baseline of the experiment's declared speedup figure (the report
used the slowest CPU solver while the declared figure used cpu.dp), and the figure's default
rule only when none is declared; the report's note says which."""

import csv
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from dpgpu_plots import report, results as results_mod  # noqa: E402
from plot_test_support import needs_yaml  # noqa: E402

COLUMNS = ["experiment", "case_id", "problem", "instance", "seed", "solver", "backend", "status",
           "valid", "time_median_s", "time_min_s", "time_max_s", "i.n"]
TIMES = {"cpu.dp": 1.0, "cpu.slow": 8.0, "gpu.fast": 0.25}


def folder(tmp, plot_section):
    d = os.path.join(tmp, "k")
    os.makedirs(d)
    with open(os.path.join(d, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        for n in (100, 200):
            for solver, t in TIMES.items():
                w.writerow({"experiment": "k", "case_id": f"r{n}/{solver}", "problem": "knapsack",
                            "instance": f"r{n}", "seed": 1, "solver": solver,
                            "backend": "gpu" if solver.startswith("gpu") else "host", "status": "ok",
                            "valid": "true", "time_median_s": t * n, "time_min_s": t * n,
                            "time_max_s": t * n, "i.n": n})
    with open(os.path.join(d, "experiment.yaml"), "w") as f:
        f.write("name: k\nproblem: knapsack\n" + plot_section)
    return results_mod.load(d)


@needs_yaml
class ReportBaselineTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-baseline-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_the_declared_speedup_figures_baseline(self):
        results = folder(self.tmp, "plot:\n  - {kind: runtime}\n  - {kind: speedup, baseline: cpu.dp}\n")
        label, speedups, declared = report._baseline(results, results.rows)
        self.assertEqual((label, declared), ("cpu.dp", True))
        self.assertAlmostEqual(speedups["r100/gpu.fast"], 4.0)  # not 32 (over cpu.slow)
        md = report.build(results)[1]
        self.assertIn("speed-up: cpu.dp's median time", md)
        self.assertIn("the baseline of the experiment's speedup figure", md)

    def test_the_default_rule_without_one(self):
        results = folder(self.tmp, "plot:\n  - {kind: runtime}\n")
        label, speedups, declared = report._baseline(results, results.rows)
        self.assertEqual((label, declared), ("cpu.slow", False))
        self.assertAlmostEqual(speedups["r100/gpu.fast"], 32.0)
        self.assertIn("default baseline: the slowest CPU solver", report.build(results)[1])


if __name__ == "__main__":
    unittest.main()
