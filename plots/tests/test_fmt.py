"""fmt.py: times with a unit, never an exponent (the same cases as
tests/test_host_noise.cpp's HumanFormat tests), and log-axis minor labels without one."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dpgpu_plots import fmt  # noqa: E402


class SecondsTest(unittest.TestCase):
    def test_the_cpp_cases(self):
        cases = {10.04: "10.04 s", 10040.0: "10040 s", 0.523: "523 ms", 1.23e-5: "12.3 \u00b5s",
                 8.5e-8: "85 ns", 0.0: "0 s", 0.99996: "1 s", 0.00099996: "1 ms",
                 999.96: "1000 s", 12345.6: "12346 s", -0.002: "-2 ms"}
        for value, text in cases.items():
            self.assertEqual(fmt.seconds(value), text, value)

    def test_missing_is_a_dash(self):
        self.assertEqual(fmt.seconds(None), fmt.DASH)
        self.assertEqual(fmt.seconds(float("nan")), fmt.DASH)


try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False


@unittest.skipUnless(HAVE_MPL, "no Matplotlib")
class MinorLogLabelTest(unittest.TestCase):
    def test_no_exponent_form(self):
        from dpgpu_plots.figures import _minor_log_label
        self.assertEqual(_minor_log_label(2e-5, 0), r"$2\times10^{-5}$")
        self.assertEqual(_minor_log_label(0.005, 0), "0.005")
        self.assertEqual(_minor_log_label(20, 0), "20")
        self.assertEqual(_minor_log_label(3e-5, 0), "")  # only 2x and 5x are labelled
        for v in (2e-7, 5e-6, 2e6):
            self.assertNotIn("e", _minor_log_label(v, 0).replace("times", ""))


if __name__ == "__main__":
    unittest.main()
