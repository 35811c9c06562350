"""Figures from fixtures checked programmatically: every series told apart, a legend entry
per series and nothing else, no text over another text, nothing clipped, a sensible size;
file instances on a categorical x, instance families in panels, noisy points marked."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from figure_checks import (clipped_texts, colour_clashes, legend_texts, overlapping_texts,  # noqa: E402
                           pixel_size, series_looks)
from dpgpu_plots import results as results_mod  # noqa: E402
from dpgpu_plots import style  # noqa: E402

from plot_test_support import HAVE_MPL  # noqa: E402

COLUMNS = ["experiment", "case_id", "problem", "instance", "seed", "solver", "backend", "status",
           "valid", "objective", "reps", "work", "time_median_s", "time_min_s", "time_max_s",
           "time_mean_s", "time_rsd", "throughput", "message", "i.n", "i.m", "i.lcs_fraction",
           "s.mode", "phase.h2d_s", "phase.compute_s"]
SOLVERS = ["cpu.bitparallel", "cpu.hirschberg", "cpu.linear", "cpu.omp_wavefront"]


def case_row(case_id, instance, solver, n, t, rsd=0.01, mode="", lcs_fraction="", status="ok",
             message=""):
    cells = {"experiment": "quality", "case_id": case_id, "problem": "lcs", "instance": instance,
             "seed": 1, "solver": solver, "backend": "gpu" if solver.startswith("gpu.") else "cpu",
             "status": status, "valid": "true" if status == "ok" else "", "objective": 1,
             "reps": 5, "work": n * n, "time_median_s": t if status == "ok" else "",
             "time_min_s": t * 0.95 if status == "ok" else "",
             "time_max_s": t * 1.1 if status == "ok" else "",
             "time_mean_s": t if status == "ok" else "", "time_rsd": rsd if status == "ok" else "",
             "throughput": n * n / t if status == "ok" else "", "message": message, "i.n": n,
             "i.m": n, "i.lcs_fraction": lcs_fraction, "s.mode": mode,
             "phase.h2d_s": t * 0.1 if solver.startswith("gpu.") else "",
             "phase.compute_s": t * 0.8 if solver.startswith("gpu.") else ""}
    return [cells[c] for c in COLUMNS]


def two_families():
    """The quick-start shape: planted and random instances at the same n, five solvers,
    gpu.wavefront in two modes; one noisy case and one skipped GPU case."""
    rows = []
    for fam, frac in (("planted", "0.5"), ("random", "")):
        for k, n in enumerate((1024, 2048, 4096)):
            params = f"lcs_fraction=0.5,n={n}" if frac else f"n={n}"
            for j, solver in enumerate(SOLVERS):
                rows.append(case_row(f"{fam}[{params}]#1/{solver}", f"{fam}-{n}", solver, n,
                                     1e-3 * (j + 1) * 4 ** k, lcs_fraction=frac,
                                     rsd=0.2 if (fam, n, j) == ("random", 2048, 0) else 0.01))
            for mode in ("cell", "tile"):
                rows.append(case_row(f"{fam}[{params}]#1/gpu.wavefront[mode={mode}]", f"{fam}-{n}",
                                     "gpu.wavefront", n, 2e-4 * 4 ** k * (3 if mode == "cell" else 1),
                                     mode=mode, lcs_fraction=frac))
    rows.append(case_row("random[n=8192]#1/gpu.wavefront[mode=tile]", "random-8192",
                         "gpu.wavefront", 8192, 1.0, mode="tile", status="skipped",
                         message="skipped: no CUDA device visible"))
    return rows


def tsplib_files():
    """Instances read from files: TSPLIB names, sizes unrelated to any sweep."""
    rows = []
    for name, n in (("burma14.tsp", 14), ("ulysses16.tsp", 16), ("br17.atsp", 17), ("gr21.tsp", 21),
                    ("fri26.tsp", 26), ("bays29.tsp", 29)):
        for j, solver in enumerate(("cpu.held_karp", "cpu.omp_held_karp", "gpu.wavefront")):
            rows.append(case_row(f"{name}/{solver}", name.split(".")[0], solver, n,
                                 1e-4 * 2 ** (n / 3) / (j + 1)))
    return rows


def write(directory, rows, description="quality fixture"):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(rows)
    with open(os.path.join(directory, "context.json"), "w") as f:
        json.dump({"gpu": {"name": "NVIDIA H100 80GB HBM3"}, "start": "2026-11-22T05:27:07Z"}, f)
    with open(os.path.join(directory, "experiment.yaml"), "w") as f:
        f.write(f"name: quality\ndescription: {description}\nmax_noise: 0.05\n"
                "instances:\n  - generator: planted\n    params: {n: [1024, 2048, 4096]}\n")
    return directory


@unittest.skipUnless(HAVE_MPL, "Matplotlib not importable by this Python")
class FigureQualityTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-quality-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def render(self, rows, kind="runtime", **options):
        from dpgpu_plots import figures
        directory = write(os.path.join(self.tmp, f"r{len(os.listdir(self.tmp))}"), rows)
        spec = figures.FigureSpec(kind=kind, x=options.pop("x", None), options=options)
        return figures.render(results_mod.load(directory), spec).figure

    def assert_readable(self, fig, max_px=(1800, 4000)):
        self.assertEqual(overlapping_texts(fig), [])
        self.assertEqual(clipped_texts(fig), [])
        width, height = pixel_size(fig)
        self.assertLessEqual(width, max_px[0])
        self.assertLessEqual(height, max_px[1])
        self.assertGreater(width, 600)
        self.assertGreater(height, 400)
        # The axes span most of the figure's width (no legend squeezing them aside).
        left = min(ax.get_position().x0 for ax in fig.axes)
        right = max(ax.get_position().x1 for ax in fig.axes)
        self.assertGreater(right - left, 0.75)

    def test_families_get_panels_and_distinct_colours(self):
        fig = self.render(two_families())
        titles = [ax.get_title() for ax in fig.axes]
        self.assertEqual(titles, ["instances: planted", "instances: random"])
        looks = series_looks(fig)
        legend = [t for t in legend_texts(fig) if not t.startswith("noisy")]
        self.assertEqual(sorted(legend), sorted(looks))  # one entry per series, nothing else
        self.assertEqual(len(legend), 6)  # five solvers, gpu.wavefront in two modes
        self.assertFalse(any("=-" in t or "lcs_fraction" in t for t in legend), legend)
        # Every series its own colour (variants of one solver too), the first variant the
        # solver's colour; line style and marker a second cue.
        colours = [look[0] for look in looks.values()]
        self.assertEqual(len(set(colours)), len(colours), looks)
        self.assertEqual(colour_clashes(fig), [])
        self.assertEqual(looks["gpu.wavefront mode=cell"][0], style.colour_for("gpu.wavefront"))
        variants = [looks[f"gpu.wavefront mode={m}"] for m in ("cell", "tile")]
        self.assertNotEqual(variants[0][1:3], variants[1][1:3])  # marker and line style differ too
        self.assert_readable(fig)

    def test_noisy_point_ringed_and_failures_noted(self):
        fig = self.render(two_families())
        self.assertIn("noisy (run-time rsd above 5%)", legend_texts(fig))
        rings = [line for ax in fig.axes for line in ax.lines if line.get_label().startswith("noisy")]
        self.assertEqual(sum(len(line.get_xdata()) for line in rings), 1)
        note = " ".join(t.get_text() for t in fig.texts)
        self.assertIn("1 case skipped (1 GPU): no CUDA device visible", note)
        self.assertEqual(fig.axes[0].figure._suptitle.get_text(), "quality fixture")

    def test_long_description_title_is_wrapped_not_clipped(self):
        from dpgpu_plots import figures
        long = ("knapsack n=1500, C=10^7 (and 10^6 for gpu.wavefront), gpu.rowwise vs cpu.dp "
                "and cpu.omp_dp (16 threads), the paper's Fig. 4b")
        directory = write(os.path.join(self.tmp, "long"), tsplib_files(), description=long)
        fig = figures.render(results_mod.load(directory), figures.FigureSpec(kind="runtime")).figure
        self.assertIn("\n", fig.axes[0].get_title())
        self.assert_readable(fig)

    def test_file_instances_on_a_categorical_axis(self):
        fig = self.render(tsplib_files())
        ax = fig.axes[0]
        self.assertEqual(ax.get_xlabel(), "instance")
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        self.assertEqual(ticks, ["burma14", "ulysses16", "br17", "gr21", "fri26", "bays29"])
        for c in ax.containers:  # markers only: no line joins unrelated instances
            self.assertEqual(c.lines[0].get_linestyle(), "None")
        self.assertEqual(len(set(c[0] for c in series_looks(fig).values())), 3)
        self.assert_readable(fig)

    def test_many_categories_wrap_into_panels(self):
        rows = []
        for i in range(40):
            for j, solver in enumerate(("cpu.dfs", "cpu.omp_dfs", "gpu.ivm")):
                rows.append(case_row(f"inst{i}.txt/{solver}", f"instance-with-a-long-name-{i}",
                                     solver, 10 + i, 0.01 * (j + 1) * (i + 1)))
        for kind in ("runtime", "speedup", "phases"):
            with self.subTest(kind=kind):
                fig = self.render(rows, kind)
                self.assertGreater(len(fig.axes), 1)
                self.assert_readable(fig, max_px=(1800, 9000))

    def test_speedup_baseline_is_stated_and_robust_to_one_noisy_case(self):
        rows = []
        for k, n in enumerate((1024, 2048, 4096, 8192)):
            rows.append(case_row(f"r[n={n}]#1/cpu.slow", f"r-{n}", "cpu.slow", n, 1.0 * 4 ** k))
            # cpu.fast is faster everywhere but one wild, noisy case at the largest n
            t = 200.0 if n == 8192 else 0.5 * 4 ** k
            rows.append(case_row(f"r[n={n}]#1/cpu.fast", f"r-{n}", "cpu.fast", n, t,
                                 rsd=0.9 if n == 8192 else 0.01))
            rows.append(case_row(f"r[n={n}]#1/gpu.x", f"r-{n}", "gpu.x", n, 0.01 * 4 ** k))
        from dpgpu_plots import figures
        directory = write(os.path.join(self.tmp, "speed"), rows)
        out = figures.render(results_mod.load(directory), figures.FigureSpec(kind="speedup"))
        self.assertIn("Speed-up over cpu.slow", out.texts["md"])
        self.assertIn("default baseline: the slowest CPU solver by geometric-mean", out.texts["md"])
        self.assertIn("\u2020", out.texts["md"])  # the noisy cell is marked
        self.assert_readable(out.figure)

    def test_rate_columns_have_rate_units(self):
        self.assertEqual(style.column_label("c.nodes_per_s"), "nodes per second (rate)")
        self.assertEqual(style.column_label("c.nodes"), "nodes (count)")
        self.assertEqual(style.column_label("c.step_ns"), "step (ns)")

    def test_case_labels_name_a_difference_once(self):
        from dpgpu_plots.select import case_labels
        rows = [{"solver": "gpu.x", "problem": "lcs", "i.m": str(n), "i.n": str(n), "i.alphabet": "4",
                 "s.mode": mode} for n in (3000, 65536) for mode in ("cell", "tile")]
        self.assertEqual(case_labels(rows), ["gpu.x n=3000 mode=cell", "gpu.x n=3000 mode=tile",
                                             "gpu.x n=65536 mode=cell", "gpu.x n=65536 mode=tile"])

    def test_reference_like_fixtures_render_readably(self):
        fixtures = os.path.join(HERE, "fixtures")
        from dpgpu_plots import figures, plotspec
        for name in sorted(os.listdir(fixtures)):
            directory = os.path.join(fixtures, name)
            results = results_mod.load(directory)
            for kind in ("runtime", "throughput", "speedup", "phases"):
                if figures.REGISTRY[kind].unavailable(results):
                    continue
                with self.subTest(fixture=name, kind=kind):
                    fig = figures.render(results, plotspec.FigureSpec(kind=kind)).figure
                    self.assert_readable(fig)


if __name__ == "__main__":
    unittest.main()
