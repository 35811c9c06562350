"""The committed reference figures (results/reference/<device>/<experiment>/figures):
every one is declared in its folder's plot: section (so scripts/plot-reference.sh redraws
it from the committed data), the section matches experiments/<name>.yaml's, titles differ
within a folder; and the figures the issue named, redrawn here, give each series its own
colour with nothing clipped or overlapping. A checker test shows the colour check fails on
a single-colour figure."""

from __future__ import annotations

import glob
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from dpgpu_plots import plotspec  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402

from plot_test_support import HAVE_MPL, HAVE_YAML  # noqa: E402

# Figures a reader found hard to read (issue 25), redrawn and checked on every test run.
CHECKED = {
    "mcm_fig7_diagonals": ["fig7_abcd_n4096"],
    "mcm_table1_kernels": ["table1_blocks", "table1_block"],
    "hierarchical_tuning": ["grid_sub", "cutoffs"],
    "pipeline_p_sweep": ["speedup_vs_p", "steps_measured", "time_vs_p"],
    # issue 36: long metric names clipped; "against n" with one point
    "mcm_tiled_profile": ["tiled_metrics"],
    "lcs_performance": ["runtime", "throughput"],
    "tsp_performance": ["runtime", "throughput", "phases"],
    "pipeline_knapsack": ["knapsack_time", "knapsack_time_vs_p"],
    "ivm_state_packed_vs_matrix": ["ivm_state_over_bpdfs"],
    "ivm_fig3_trigger": ["fig3_trigger"],
    "ivm_fig5_phases": ["fig5_share_coin", "fig5_coin", "fig5_crane", "fig5_tsmat"],
    "wavefront_diagonal_time": ["diagonal_time_lcs"],
    "energy": ["energy"],
    "wavefront_fig4a_lcs": ["phases"],
    "ivm_table2_speedups": ["table2_ivm_over_bpdfs"],
    "lcs_reconstruct": ["runtime", "offload", "readonly"],
    "mcm_table3_scaling": ["scaling_runtime", "scaling_throughput"],  # issue 36: the kernel unnamed  # issue 36: ten entries in one legend  # issue 36: panels cut alphabetically  # issue 36: 120 cases in 5 panels
}
TEXT_EXTENSIONS = (".md", ".tex")


def reference_folders() -> list[str]:
    """Folders with committed figures and the data they are drawn from."""
    found = glob.glob(os.path.join(REPO, "results", "reference", "*", "*/"))
    return sorted(d.rstrip("/") for d in found
                  if os.path.isdir(os.path.join(d, "figures")) and os.path.isfile(os.path.join(d, "summary.csv")))


def plot_section(path: str):
    import yaml
    with open(path, encoding="utf-8") as f:
        return (yaml.safe_load(f) or {}).get("plot")


@unittest.skipUnless(HAVE_YAML, "no PyYAML")
class DeclaredTest(unittest.TestCase):
    def test_every_committed_figure_is_declared(self):
        folders = reference_folders()
        self.assertGreater(len(folders), 20)
        for folder in folders:
            specs = plotspec.read_plot_section(os.path.join(folder, results_mod.EXPERIMENT))
            declared = {s.stem for s in specs}
            files = {os.path.splitext(f)[0] for f in os.listdir(os.path.join(folder, "figures"))
                     if not f.startswith(".")}  # .dpgpu-figures: what dpgpu plot drew
            name = os.path.relpath(folder, REPO)
            self.assertTrue(declared, f"{name}: figures committed, no plot: section")
            self.assertEqual(files, declared, f"{name}: committed figures vs plot: section")
            for stem in declared:  # each declared figure in png and pdf
                for ext in ("png", "pdf"):
                    self.assertTrue(os.path.isfile(os.path.join(folder, "figures", f"{stem}.{ext}")),
                                    f"{name}/figures/{stem}.{ext}")

    def test_plot_sections_match_the_experiment_files(self):
        for folder in reference_folders():
            own = os.path.join(REPO, "experiments", os.path.basename(folder) + ".yaml")
            if os.path.isfile(own):
                self.assertEqual(plot_section(os.path.join(folder, results_mod.EXPERIMENT)),
                                 plot_section(own), f"plot: of {os.path.relpath(folder, REPO)} vs {own}")

    @unittest.skipUnless(HAVE_MPL, "no Matplotlib")
    def test_titles_differ_within_a_folder(self):
        from collections import Counter
        from dpgpu_plots.figures import default_title

        for folder in reference_folders():
            results = results_mod.load(folder)

            def title(spec):
                if spec.opt("title"):
                    return spec.opt("title")
                if spec.kind == "speedup":  # "Speed-up over <baseline> - <experiment>"
                    return ("speedup", spec.opt("baseline"))
                return default_title(results, spec)
            titles = Counter(title(s) for s in plotspec.read_plot_section(results.experiment_path))
            self.assertEqual([t for t, n in titles.items() if n > 1], [], folder)


@unittest.skipUnless(HAVE_MPL and HAVE_YAML, "no Matplotlib or PyYAML")
class ColourCheckTest(unittest.TestCase):
    def test_single_colour_multi_series_figure_fails(self):
        from figure_checks import colour_clashes
        from dpgpu_plots.figures import new_figure
        fig = new_figure()
        ax = fig.add_subplot()
        ax.plot([1, 2], [1, 2], color="#1f77b4", linestyle="-", label="a")
        ax.plot([1, 2], [2, 3], color="#1f77b4", linestyle="--", label="b")  # style only
        ax.plot([1, 2], [2, 1], color="#d62728", label="ideal (p / 16)")  # a reference mark
        fig.legend()
        self.assertEqual(colour_clashes(fig), [("a", "b", "#1f77b4")])
        ax.lines[1].set_color("#ff7f0e")
        fig.legends.clear()
        fig.legend()
        self.assertEqual(colour_clashes(fig), [])

    def test_clipped_label_is_found(self):
        from figure_checks import clipped_or_overlapping
        from dpgpu_plots.figures import new_figure
        fig = new_figure((3, 2))
        ax = fig.add_subplot()
        ax.set_ylabel("a y label far too long for the height of this small figure (count)")
        fig.canvas.draw()
        self.assertTrue(any(p.startswith(("clipped", "drawn outside")) for p in clipped_or_overlapping(fig)))


@unittest.skipUnless(HAVE_MPL and HAVE_YAML, "no Matplotlib or PyYAML")
class RedrawnTest(unittest.TestCase):
    """The named figures, redrawn from the committed data (nothing is written)."""

    def test_named_figures_read_well(self):
        from figure_checks import clipped_or_overlapping, colour_clashes
        from dpgpu_plots import figures
        for folder in reference_folders():
            wanted = CHECKED.get(os.path.basename(folder))
            if not wanted:
                continue
            results = results_mod.load(folder)
            specs = {s.stem: s for s in plotspec.read_plot_section(results.experiment_path)}
            for stem in wanted:
                with self.subTest(figure=f"{os.path.basename(folder)}/{stem}"):
                    fig = figures.render(results, specs[stem]).figure
                    fig.canvas.draw()
                    self.assertEqual(colour_clashes(fig), [])
                    self.assertEqual(clipped_or_overlapping(fig), [])
                    self.assertNotIn("=-", " ".join(t.get_text() for t in fig.findobj(
                        lambda a: hasattr(a, "get_text") and hasattr(a, "get_window_extent"))))


if __name__ == "__main__":
    unittest.main()
