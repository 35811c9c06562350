"""Tests for the gpu_phases kind, drawn from a committed multi-GPU folder (4 x H100):

    /usr/bin/python3 -m unittest discover -s plots/tests

One panel per multi-GPU case, one bar per GPU whose stacked heights are that row's
c.gpu<i>.<phase>_s, a dashed line at its median run time, one distinct colour per phase.
"""

import csv
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
REPO = os.path.dirname(PLOTS)
FOLDER = os.path.join(REPO, "results", "reference", "h100x4", "lcs_bitparallel_multigpu")
sys.path.insert(0, PLOTS)

from dpgpu_plots import plotspec  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402
from dpgpu_plots.errors import PlotError  # noqa: E402

from plot_test_support import HAVE_MPL  # noqa: E402

PHASES = ("compute", "wait", "fill", "drain", "peer")


def rows():
    with open(os.path.join(FOLDER, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


@unittest.skipUnless(HAVE_MPL, "Matplotlib not importable by this Python")
@unittest.skipUnless(os.path.isdir(FOLDER), "no committed multi-GPU folder")
class GpuPhasesTest(unittest.TestCase):
    def render(self, **options):
        from dpgpu_plots import figures
        spec = plotspec.FigureSpec(kind="gpu_phases", options=options)
        return figures.render(results_mod.load(FOLDER), spec).figure

    def test_one_panel_per_case_one_bar_per_gpu_heights_from_the_counters(self):
        fig = self.render(filter={"s.reconstruct": [False], "s.gpus": [2, 4]}, phases=list(PHASES))
        wanted = [r for r in rows() if r["s.reconstruct"] == "false" and r["s.gpus"] in ("2", "4")]
        panels = [ax for ax in fig.axes if ax.patches]
        self.assertEqual(len(panels), len(wanted))
        for ax, row in zip(panels, wanted):
            gpus = int(row["s.gpus"])
            self.assertEqual([t.get_text() for t in ax.get_xticklabels()], [f"GPU {g}" for g in range(gpus)])
            for g in range(gpus):  # the bar's top: the sum of the GPU's phases
                top = max(p.get_y() + p.get_height() for p in ax.patches if abs(p.get_x() + p.get_width() / 2 - g) < 0.01)
                want = sum(float(row[f"c.gpu{g}.{p}_s"] or 0) for p in PHASES)
                self.assertAlmostEqual(top, want, places=6)
            dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
            self.assertAlmostEqual(dashed[0].get_ydata()[0], float(row["time_median_s"]), places=6)

    def test_phases_have_distinct_colours_named_in_the_legend(self):
        fig = self.render(filter={"s.reconstruct": [False]})
        legend = fig.legends[0]
        texts = [t.get_text() for t in legend.get_texts()]
        handles = legend.legend_handles if hasattr(legend, "legend_handles") else legend.legendHandles
        colours = [tuple(h.get_facecolor()) for h in handles[:-1]]
        self.assertEqual(len(set(colours)), len(colours), texts)
        self.assertEqual(set(texts[:-1]), set(PHASES))
        self.assertIn("median run time", texts[-1])

    def test_one_gpu_rows_are_left_out_and_an_unknown_phase_is_named(self):
        fig = self.render(filter={"s.reconstruct": [False], "s.gpus": [1, 2]}, phases=["compute"])
        self.assertIn("without per-GPU counters left out", " ".join(t.get_text() for t in fig.texts))
        with self.assertRaises(PlotError) as e:
            self.render(phases=["nap"])
        self.assertIn("c.gpu<i>.nap_s", str(e.exception))


if __name__ == "__main__":
    unittest.main()
