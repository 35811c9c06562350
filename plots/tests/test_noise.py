"""noise.py: the harness's verdict (summary.csv's time_noise) read, or the same rule as
harness/src/measure/noise.hpp for older folders (see tests/test_host_noise.cpp)."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dpgpu_plots import noise  # noqa: E402


def row(rsd, low, high, median, reps=5):
    return {"time_rsd": str(rsd), "time_min_s": str(low), "time_max_s": str(high),
            "time_median_s": str(median), "reps": str(reps)}


class NoiseTest(unittest.TestCase):
    def test_noisy_above_threshold_only(self):
        v = noise.verdict(row(0.3, 0.013, 1.96, 0.1))
        self.assertTrue(v.noisy)
        self.assertAlmostEqual(v.spread, (1.96 - 0.013) / 0.1)
        self.assertEqual(v.text, "noisy (rsd 30.0%)")
        self.assertFalse(noise.verdict(row(0.05, 1, 1.1, 1)).noisy)
        # summary.csv's word (time_noise: steady), not a second vocabulary (issue 36: "ok")
        self.assertEqual(noise.verdict(row(0.01, 1, 1.1, 1)).text, "steady (rsd 1.0%)")
        self.assertFalse(noise.verdict(row(0.3, 1, 2, 1.5), threshold=0.5).noisy)

    def test_the_harness_verdict_wins_over_the_rule(self):
        # time_noise is decided with the threshold the run used (max_noise, --set included).
        steady = dict(row(0.3, 1, 2, 1.5), time_noise="steady")
        self.assertFalse(noise.verdict(steady).noisy)
        noisy = dict(row(0.03, 1, 1.1, 1), time_noise="noisy")
        self.assertTrue(noise.verdict(noisy, threshold=0.5).noisy)
        self.assertFalse(noise.verdict(dict(row(0.9, 1, 2, 1.5), time_noise="n/a")).noisy)
        # an unknown word is no verdict: the rule decides
        self.assertTrue(noise.verdict(dict(row(0.3, 1, 2, 1.5), time_noise="?")).noisy)

    def test_no_verdict_without_two_repetitions(self):
        v = noise.verdict(row(0.9, 1, 2, 1.5, reps=1))
        self.assertFalse(v.noisy)
        self.assertEqual(v.text, "n/a")
        self.assertEqual(noise.verdict({}).text, "n/a")

    def test_threshold_from_max_noise(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(noise.threshold_for(d), noise.DEFAULT_THRESHOLD)
            with open(os.path.join(d, "experiment.yaml"), "w") as f:
                f.write("name: x\nmax_noise: 0.02   # stop when steady\nrepetitions: 5\n")
            self.assertEqual(noise.threshold_for(d), 0.02)


if __name__ == "__main__":
    unittest.main()
