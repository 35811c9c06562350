"""Figure labels from explicit ``series`` columns: a solver parameter a case left at its
default is left out where other cases of that solver set it (mcm_fig7_diagonals: calibrate
has no kernel, though summary.csv fills s.kernel with the default)."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dpgpu_plots.select import case_labels, set_parameters  # noqa: E402


class LabelTest(unittest.TestCase):
    def test_set_parameters(self):
        self.assertEqual(set_parameters("random[n=4096]#1/gpu.mcm[kernel=block,policy=fixed,threads=32]"),
                         {"kernel", "policy", "threads"})
        self.assertEqual(set_parameters("random[n=4096]#1/gpu.mcm_tiled"), set())
        self.assertEqual(set_parameters("gpu.mcm"), None)
        self.assertEqual(set_parameters("r#1/gpu.mcm[policy=table,table=2-9:block:32,10-*:thread:64]"),
                         {"policy", "table"})

    def test_a_default_that_does_not_apply_is_left_out(self):
        rows = [{"case_id": "r#1/gpu.mcm[kernel=thread,policy=fixed]", "solver": "gpu.mcm",
                 "s.policy": "fixed", "s.kernel": "thread"},
                {"case_id": "r#1/gpu.mcm[kernel=block,policy=fixed]", "solver": "gpu.mcm",
                 "s.policy": "fixed", "s.kernel": "block"},
                {"case_id": "r#1/gpu.mcm[policy=calibrate]", "solver": "gpu.mcm",
                 "s.policy": "calibrate", "s.kernel": "thread"},
                {"case_id": "r#1/gpu.other", "solver": "gpu.other", "s.policy": "x", "s.kernel": "thread"}]
        self.assertEqual(case_labels(rows, ["s.policy", "s.kernel"]),
                         ["policy=fixed kernel=thread", "policy=fixed kernel=block", "policy=calibrate",
                          "policy=x kernel=thread"])


if __name__ == "__main__":
    unittest.main()
