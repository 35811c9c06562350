"""``dpgpu compare`` on energy per solve: same within the energy threshold, less or more
energy beyond it (more fails like slower), no energy where a side has none."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from dpgpu_plots import compare  # noqa: E402

SUMMARY = ["experiment", "case_id", "solver", "status", "valid", "time_median_s", "energy_j", "energy_method",
           "message"]


def write(directory, cases):
    """cases: {case_id: energy_j or None}; every case takes 1.0 s in three repetitions."""
    os.makedirs(directory)
    with open(os.path.join(directory, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(SUMMARY)
        for case, joules in cases.items():
            w.writerow(["x", case, case.split("/")[-1], "ok", "true", 1.0,
                        "n/a" if joules is None else joules, "n/a" if joules is None else "nvml_counter", ""])
    with open(os.path.join(directory, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["experiment", "case_id", "solver", "rep", "status", "time_s"])
        for case in cases:
            for i in range(3):
                w.writerow(["x", case, case.split("/")[-1], i, "ok", 1.0])
    with open(os.path.join(directory, "context.json"), "w") as f:
        json.dump({"gpu": {"name": "NVIDIA H100 80GB HBM3", "driver": "580"}, "host": {"cpu": "Xeon"}}, f)
    return directory


class CompareEnergyTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = compare.main([*args, "--no-figure"])
        return status, out.getvalue(), err.getvalue()

    def test_verdicts_and_exit(self):
        base = write(os.path.join(self.tmp, "base"), {"a/gpu.same": 10.0, "a/gpu.less": 10.0, "a/gpu.more": 10.0,
                                                      "a/cpu.none": None})
        new = write(os.path.join(self.tmp, "new"), {"a/gpu.same": 10.5, "a/gpu.less": 7.0, "a/gpu.more": 12.5,
                                                    "a/cpu.none": None})
        status, out, err = self.run_main(base, new)
        self.assertEqual(status, 1, out + err)  # more energy fails, though every time is the same
        self.assertIn("4 cases: 4 same", out)
        self.assertIn("energy per solve, 4 cases: 1 less energy, 1 more energy, 1 same, 1 no energy "
                      "(threshold 10%)", out)
        self.assertIn("| a/gpu.more | more energy | 10 J | 12.5 J | 1.250 | nvml_counter |", out)
        self.assertIn("| a/cpu.none | no energy | n/a | n/a |", out)
        self.assertIn("use more energy per solve", err)
        status, out, err = self.run_main(base, new, "--energy-threshold", "30%")
        self.assertEqual(status, 0, out + err)  # 12.5 J against 10 J is within 30 %
        self.assertIn("1 less energy, 2 same, 1 no energy (threshold 30%)", out)

    def test_folders_without_energy_get_no_section(self):
        base = write(os.path.join(self.tmp, "b"), {"a/cpu.x": None})
        new = write(os.path.join(self.tmp, "n"), {"a/cpu.x": None})
        status, out, _ = self.run_main(base, new)
        self.assertEqual(status, 0)
        self.assertNotIn("Energy per solve", out)

    def test_bad_energy_threshold(self):
        base = write(os.path.join(self.tmp, "b"), {"a/gpu.x": 1.0})
        status, _, err = self.run_main(base, base, "--energy-threshold", "lots")
        self.assertEqual(status, 2)
        self.assertIn("--threshold 'lots'", err)


if __name__ == "__main__":
    unittest.main()
