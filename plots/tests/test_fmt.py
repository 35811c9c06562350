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


from plot_test_support import HAVE_MPL  # noqa: E402


@unittest.skipUnless(HAVE_MPL, "no Matplotlib")
class LogLabelTest(unittest.TestCase):
    def test_one_format_never_exponent_form(self):
        from dpgpu_plots.figures import log_label
        self.assertEqual(log_label(2e-5, False), r"$2\times10^{-5}$")
        self.assertEqual(log_label(1e-4, False), r"$10^{-4}$")
        self.assertEqual(log_label(0.005, True), "0.005")
        self.assertEqual(log_label(20, True), "20")
        for v in (2e-7, 5e-6, 2e6):
            self.assertNotIn("e", log_label(v, False).replace("times", ""))

    def test_labels_enclose_the_data(self):
        from dpgpu_plots.figures import log_ticks, new_figure
        for low, high in ((0.065, 0.33), (1.6e8, 4.1e9), (3e-6, 1.2e-4), (1.1, 1.9)):
            ax = new_figure().add_subplot()
            ax.plot([1, 2], [low, high])
            ax.set_yscale("log")
            log_ticks(ax.yaxis, [low, high])
            ticks = [t for t in ax.get_yticks() if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
            self.assertGreaterEqual(len(ticks), 3, (low, high, ticks))
            self.assertLessEqual(min(ticks), low * 1.000001)
            self.assertGreaterEqual(max(ticks), high / 1.000001)
            texts = [ax.yaxis.get_major_formatter()(t, 0) for t in ticks]
            self.assertEqual(len({"$" in t for t in texts}), 1, texts)  # one format


if __name__ == "__main__":
    unittest.main()
