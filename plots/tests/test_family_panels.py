"""Category charts whose slots come from several instance families draw one panel row per
family (issue 36: ivm_table2_speedups/table2_ivm_over_bpdfs cut its rows of panels
wherever the width ran out, coin19 in one panel and coin20 in the next). Drawn from the
committed H100 folder of that experiment."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from dpgpu_plots import plotspec  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402
from figure_checks import legend_texts  # noqa: E402
from plot_test_support import HAVE_MPL, HAVE_YAML  # noqa: E402

FOLDER = os.path.join(REPO, "results", "reference", "h100", "ivm_table2_speedups")


@unittest.skipUnless(HAVE_MPL and HAVE_YAML and os.path.isdir(FOLDER), "no Matplotlib, PyYAML or folder")
class FamilyPanelsTest(unittest.TestCase):
    def render(self, **options):
        from dpgpu_plots import figures
        spec = plotspec.FigureSpec(kind="speedup", x="instance",
                                   options=dict({"baseline": "gpu.bpdfs", "series": ("solver", "s.state"),
                                                 "filter": {"solver": ("gpu.ivm", "gpu.bpdfs")}}, **options))
        fig = figures.render(results_mod.load(FOLDER), spec).figure
        fig.canvas.draw()
        return fig

    def visible_ticks(self, ax):
        low, high = ax.get_xlim()
        return [t.get_text() for t, x in zip(ax.get_xticklabels(), ax.get_xticks()) if low <= x <= high]

    def test_one_panel_per_family(self):
        fig = self.render()
        self.assertEqual([ax.get_title() for ax in fig.axes],
                         ["instances: from files", "instances: coin", "instances: crane", "instances: tsmat"])
        ticks = [self.visible_ticks(ax) for ax in fig.axes]
        self.assertEqual(ticks[0], ["br17", "burma14"])
        self.assertEqual(ticks[1], [f"coin{n}-s1" for n in range(10, 21)])
        self.assertEqual(ticks[3], [f"tsmat{n}-s1" for n in range(10, 18)])
        widths = {round(ax.get_xlim()[1] - ax.get_xlim()[0], 6) for ax in fig.axes}
        self.assertEqual(widths, {11.0})  # every panel as wide as coin's 11 slots

    def test_a_series_missing_from_the_first_panel_keeps_its_legend_entry(self):
        # No matrix-state row for br17 or burma14: the first panel has no such bar.
        legend = legend_texts(self.render())
        self.assertIn("gpu.ivm state=matrix", legend)
        self.assertIn("gpu.ivm state=packed", legend)


if __name__ == "__main__":
    unittest.main()
