"""Tests for the plot: section and the metrics, phases, speedup and diagonal_time kinds:

    /usr/bin/python3 -m unittest discover -s plots/tests

They draw from fixtures/lcs-profiled/, a hand-written results folder (summary.csv with
phase columns, metrics.csv, series.csv, context.json, and an experiment.yaml whose plot:
section declares one figure of each kind). Figure tests skip without Matplotlib; the
plot:-section error tests need PyYAML and skip without it.
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
SCRIPT = os.path.join(PLOTS, "dpgpu_plot.py")
FIXTURE = os.path.join(HERE, "fixtures", "lcs-profiled")
sys.path.insert(0, PLOTS)

from figure_checks import legend_texts  # noqa: E402
from dpgpu_plots import plotspec  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402
from dpgpu_plots import style  # noqa: E402
from dpgpu_plots.cli import main  # noqa: E402
from dpgpu_plots.errors import PlotError  # noqa: E402

from plot_test_support import HAVE_MPL, HAVE_YAML, run_cli, needs_mpl, needs_yaml  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def hex_colour(c):
    from matplotlib.colors import to_hex
    return to_hex(c)


class FixtureCase(unittest.TestCase):
    """A fresh copy of fixtures/lcs-profiled in a temporary folder."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-kinds-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.dir = os.path.join(self.tmp, "lcs-profiled")
        shutil.copytree(FIXTURE, self.dir)

    def write_plot_section(self, text):
        """Replace the plot: section of the copy's experiment.yaml with ``text``."""
        path = os.path.join(self.dir, "experiment.yaml")
        with open(path) as f:
            head = f.read().split("\nplot:")[0]
        with open(path, "w") as f:
            f.write(head + "\n" + text)
        return path

    def results(self):
        return results_mod.load(self.dir)

    def render(self, kind, **options):
        from dpgpu_plots import figures
        x = options.pop("x", None)
        spec = plotspec.FigureSpec(kind=kind, x=x, options=options)
        return figures.render(self.results(), spec)

    def assert_fails(self, args, *fragments):
        p = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2, p.stderr)
        for fragment in fragments:
            self.assertIn(fragment, p.stderr)
        return p.stderr


# --- the plot: section ----------------------------------------------------------------

@needs_yaml
class PlotSectionTest(FixtureCase):
    def test_fixture_declares_one_figure_per_kind(self):
        specs = plotspec.read_plot_section(os.path.join(self.dir, "experiment.yaml"))
        self.assertEqual([s.kind for s in specs],
                         ["runtime", "throughput", "metrics", "phases", "speedup", "diagonal_time"])
        self.assertEqual([s.stem for s in specs],
                         ["fig4a", "diag-only", "fig5", "phases", "speedup", "diagonal_time"])
        runtime, throughput = specs[0], specs[1]
        self.assertEqual(runtime.x, "i.n")
        self.assertEqual(runtime.opt("series"), ("solver", "s.mode"))
        self.assertEqual(throughput.opt("filter"), {"s.mode": ("diag",)})
        self.assertIs(throughput.opt("logy"), False)
        self.assertEqual(throughput.opt("errorbars"), "none")
        self.assertEqual(specs[4].opt("baseline"), "cpu.linear")

    def test_kinds_of_the_schema_are_the_registered_ones(self):
        if not HAVE_MPL:
            self.skipTest("Matplotlib not importable")
        from dpgpu_plots import figures
        self.assertEqual(set(figures.REGISTRY), set(plotspec.KIND_KEYS))

    def test_unknown_key_names_key_line_and_allowed_keys(self):
        path = self.write_plot_section("plot:\n  - kind: runtime\n    colour: red\n")
        err = self.assert_fails([self.dir], f"{path}:", "plot[0]", "unknown key 'colour'",
                                "allowed keys: kind, name, title, filter, x, y, series")
        line = open(path).read().splitlines().index("    colour: red") + 1
        self.assertIn(f"{path}:{line}:", err)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_key_of_another_kind(self):
        self.write_plot_section("plot:\n  - kind: metrics\n    x: i.n\n")
        self.assert_fails([self.dir], "unknown key 'x' for kind metrics",
                          "allowed keys: kind, name, title, filter, metrics, series, logy")

    def test_unknown_kind_names_allowed_kinds(self):
        self.write_plot_section("plot:\n  - kind: pie\n")
        self.assert_fails([self.dir], "unknown kind 'pie'",
                          "runtime, throughput, metrics, phases, speedup, diagonal_time")

    def test_missing_kind(self):
        self.write_plot_section("plot:\n  - name: fig1\n")
        self.assert_fails([self.dir], "plot[0]: missing key 'kind'")

    def test_bad_values_name_the_key(self):
        for text, fragment in [
                ("  - kind: runtime\n    logx: maybe\n", "key 'logx': expected true, false or auto"),
                ("  - kind: runtime\n    errorbars: std\n", "key 'errorbars': expected minmax or none"),
                ("  - kind: runtime\n    filter: s.mode\n", "key 'filter': expected a mapping"),
                ("  - kind: runtime\n    name: a/b\n", "key 'name': expected a file name stem"),
                ("  - kind: runtime\n  - kind: runtime\n", "output name 'runtime' is already used")]:
            with self.subTest(text=text):
                self.write_plot_section("plot:\n" + text)
                self.assert_fails([self.dir], fragment)

    def test_plot_must_be_a_list(self):
        self.write_plot_section("plot: runtime\n")
        self.assert_fails([self.dir], "plot: must be a list of figures")

    def test_parse_section_without_a_file(self):
        specs = plotspec.parse_plot_section({"kind": "speedup", "baseline": "cpu.linear"})
        self.assertEqual(specs[0].kind, "speedup")
        with self.assertRaises(PlotError) as cm:
            plotspec.parse_plot_section([{"kind": "speedup", "facets": "i.n"}])
        self.assertIn("unknown key 'facets'", str(cm.exception))


@needs_mpl
@needs_yaml
class DeclaredFiguresTest(FixtureCase):
    EXPECTED = ["fig4a.png", "fig4a.pdf", "diag-only.png", "diag-only.pdf", "fig5.png", "fig5.pdf",
                "phases.png", "phases.pdf", "speedup.png", "speedup.pdf", "speedup.md",
                "speedup.tex", "diagonal_time.png", "diagonal_time.pdf"]

    def test_draws_every_declared_figure_as_png_and_pdf(self):
        status, out, err = run_cli(self.dir)
        self.assertEqual(status, 0, err)
        self.assertEqual([os.path.basename(p) for p in out.splitlines()], self.EXPECTED)
        for path in out.splitlines():
            self.assertEqual(os.path.dirname(path), os.path.join(self.dir, "figures"))
            with open(path, "rb") as f:
                head = f.read(8)
            if path.endswith(".png"):
                self.assertEqual(head, PNG_MAGIC, path)
                self.assertGreater(os.path.getsize(path), 10_000)
            elif path.endswith(".pdf"):
                self.assertEqual(head[:5], b"%PDF-", path)
        self.assertIn("ERR_NVGPUCTRPERM", err)  # the metrics row in error, named on stderr

    def test_script_draws_declared_figures(self):
        p = subprocess.run([sys.executable, SCRIPT, self.dir, "--format", "png"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 8)  # 6 png + speedup.md, speedup.tex

    def test_figure_by_name_and_by_kind(self):
        status, out, err = run_cli(self.dir, "--figure", "fig5", "--format", "png")
        self.assertEqual(status, 0, err)
        self.assertEqual([os.path.basename(p) for p in out.splitlines()], ["fig5.png"])
        status, out, err = run_cli(self.dir, "--figure", "metrics", "--format", "png")
        self.assertEqual([os.path.basename(p) for p in out.splitlines()], ["fig5.png"])
        # A kind nobody declared: drawn with default options under its own name.
        self.write_plot_section("plot:\n  - kind: metrics\n    name: fig5\n")
        status, out, err = run_cli(self.dir, "--figure", "runtime", "--format", "png")
        self.assertEqual(status, 0, err)
        self.assertEqual([os.path.basename(p) for p in out.splitlines()], ["runtime.png"])

    def test_unknown_figure_lists_declared_names(self):
        self.assert_fails([self.dir, "--figure", "fig9"], "unknown figure kind 'fig9'",
                          "fig4a, diag-only, fig5", "speedup")

    def test_all_adds_undeclared_kinds(self):
        self.write_plot_section("plot:\n  - kind: speedup\n    name: table1\n")
        status, out, err = run_cli(self.dir, "--figure", "all", "--format", "png")
        self.assertEqual(status, 0, err)
        stems = [os.path.splitext(os.path.basename(p))[0] for p in out.splitlines()]
        self.assertEqual(list(dict.fromkeys(stems)),
                         ["table1", "runtime", "throughput", "metrics", "phases", "diagonal_time", "scaling"])

    def test_list_shows_declared_figures(self):
        status, out, _ = run_cli("--list", self.dir)
        self.assertEqual(status, 0)
        for kind in plotspec.KIND_KEYS:
            self.assertIn(kind, out)
        self.assertIn("fig4a", out)

    def test_filter_and_series(self):
        from dpgpu_plots import figures
        specs = plotspec.read_plot_section(os.path.join(self.dir, "experiment.yaml"))
        runtime = figures.build(self.results(), specs[0])
        labels = [c.get_label() for c in runtime.axes[0].containers]
        # series: [solver, s.mode]; CPU solvers have no mode, so none is shown for them.
        self.assertEqual(labels, ["cpu.linear", "cpu.omp_wavefront", "gpu.wavefront mode=cell",
                                  "gpu.wavefront mode=diag"])
        diag = figures.build(self.results(), specs[1])
        ax = diag.axes[0]
        (container,) = ax.containers
        self.assertEqual(container.get_label(), "gpu.wavefront")
        self.assertEqual(list(container.lines[0].get_xdata()), [1024, 4096, 16384])
        self.assertEqual(ax.get_title(), "gpu.wavefront, diagonal mode")
        self.assertEqual(ax.get_yscale(), "linear")  # logy: false
        self.assertEqual(container.lines[2], ())  # errorbars: none
        self.assertTrue(any("filter: s.mode=diag" in t.get_text() for t in diag.texts))

    def test_filter_that_keeps_nothing(self):
        self.write_plot_section("plot:\n  - kind: runtime\n    filter: {s.mode: [tile, row]}\n")
        self.assert_fails([self.dir], "filter s.mode: 'tile' or 'row' keeps none",
                          "values there: (empty), cell, diag")
        self.write_plot_section("plot:\n  - kind: runtime\n    filter: {s.readonly: ldg}\n")
        self.assert_fails([self.dir], "filter: no column 's.readonly'")

    def test_facets(self):
        fig = self.render("runtime", facets="s.mode", filter={"solver": ("gpu.wavefront",)}).figure
        self.assertEqual([ax.get_title() for ax in fig.axes], ["mode=cell", "mode=diag"])
        self.assertEqual(fig.axes[0].get_ylabel(), "run time, median (s)")
        self.assertEqual(len(fig.legends), 1)

    def test_y_override_and_log_switches(self):
        fig = self.render("runtime", y="phase.compute_s", logx=False, logy=True).figure
        ax = fig.axes[0]
        self.assertEqual(ax.get_ylabel(), "compute phase, median (s)")
        self.assertEqual(ax.get_xscale(), "linear")
        self.assertEqual(ax.get_yscale(), "log")


# --- the new figure kinds -------------------------------------------------------------

@needs_mpl
class MetricsFigureTest(FixtureCase):
    def test_panels_units_bars_and_error_footnote(self):
        fig = self.render("metrics").figure
        axes = fig.axes
        self.assertEqual([ax.get_title() for ax in axes], ["gld_efficiency", "ipc", "achieved_occupancy"])
        # (a label taller than its short panel is wrapped)
        self.assertEqual([ax.get_ylabel().replace("\n", " ") for ax in axes],
                         ["gld_efficiency (%)", "ipc (instructions per cycle)",
                          "achieved_occupancy (%)"])
        self.assertEqual(axes[0].get_ylim(), (0.0, 100.0))
        self.assertEqual(axes[2].get_ylim(), (0.0, 100.0))
        gld = [p for p in axes[0].patches]
        # Four cases; the n=4096 cell-mode gld_efficiency row is status error: not drawn.
        self.assertEqual([round(p.get_height(), 3) for p in gld], [88.5, 42.0, 91.0])
        self.assertEqual(len(axes[1].patches), 4)
        self.assertEqual({hex_colour(p.get_facecolor()) for p in gld}, {style.colour_for("gpu.wavefront")})
        ticks = [t.get_text().replace("\n", " ") for t in axes[0].get_xticklabels()]
        self.assertEqual(ticks, ["gpu.wavefront n=1024 mode=diag", "gpu.wavefront n=1024 mode=cell",
                                 "gpu.wavefront n=4096 mode=diag", "gpu.wavefront n=4096 mode=cell"])
        note = " ".join(t.get_text() for t in fig.texts)
        self.assertIn("NVIDIA H100 80GB HBM3", note)
        self.assertIn("not drawn", note)
        self.assertIn("gpu.wavefront n=4096 mode=cell", note)
        self.assertIn("ERR_NVGPUCTRPERM", note)
        self.assertIn("whiskers min\u2013max", note)

    def test_whiskers_span_min_to_max(self):
        fig = self.render("metrics", metrics=("ipc",)).figure
        (ax,) = fig.axes
        (bars,) = [c for c in ax.containers if hasattr(c, "errorbar")]
        segments = bars.errorbar.lines[2][0].get_segments()
        self.assertEqual([(round(s[0][1], 6), round(s[1][1], 6)) for s in segments],
                         [(1.1, 2.0), (0.6, 1.2), (1.4, 2.3), (0.7, 1.3)])

    def test_several_kernels_per_case(self):
        path = os.path.join(self.dir, "metrics.csv")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        extra = [dict(r, kernel="void copy_back<float>(float*)", mean="50", min="40", max="60")
                 for r in rows if r["case_id"] == "1"]
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows + extra)
        fig = self.render("metrics", metrics=("achieved_occupancy",)).figure
        ticks = [t.get_text().replace("\n", " ") for t in fig.axes[0].get_xticklabels()]
        self.assertIn("gpu.wavefront n=1024 mode=diag tile_kernel", ticks)
        self.assertIn("gpu.wavefront n=1024 mode=diag copy_back", ticks)

    def test_unknown_metric_and_missing_file(self):
        with self.assertRaises(PlotError) as cm:
            self.render("metrics", metrics=("dram_utilization",))
        self.assertIn("'dram_utilization' not in", str(cm.exception))
        self.assertIn("gld_efficiency, ipc, achieved_occupancy", str(cm.exception))
        os.remove(os.path.join(self.dir, "metrics.csv"))
        self.assert_fails([self.dir, "--figure", "metrics"], "metrics.csv: missing",
                          "profile: section")


@needs_mpl
class PhasesFigureTest(FixtureCase):
    def test_stacked_phases_and_total_markers(self):
        fig = self.render("phases", x="i.n").figure
        ax = fig.axes[0]
        self.assertEqual(ax.get_ylabel(), "time, median over repetitions (s)")
        self.assertEqual(ax.get_xlabel(), "n (instance parameter)")
        legend = legend_texts(fig)
        self.assertEqual(legend[:5], ["alloc", "h2d", "compute", "d2h", "offload_wait"])
        self.assertIn("total: gpu.wavefront mode=diag", legend)
        # The diag bar at n=16384 stacks alloc, h2d, compute, d2h, offload_wait.
        tops = {}
        for p in ax.patches:
            key = round(p.get_x() + p.get_width() / 2, 6)
            tops[key] = max(tops.get(key, 0.0), p.get_y() + p.get_height())
        self.assertAlmostEqual(max(tops.values()), 0.118)  # cpu.omp_wavefront compute at 16384
        self.assertTrue(any(abs(t - (0.0005 + 0.003 + 0.015 + 0.0004 + 0.0002)) < 1e-12
                            for t in tops.values()), tops)
        markers = {hex_colour(line.get_color()): list(line.get_ydata()) for line in ax.lines}
        self.assertIn(style.colour_for("gpu.wavefront"), markers)
        self.assertEqual(markers[style.colour_for("cpu.linear")], [0.064])  # the last drawn

    def test_log_axis_puts_phases_side_by_side(self):
        """Issue 36 (wavefront_fig4a_lcs/phases): a stack on a log axis shows the upper
        phases far smaller than they are; with logy every phase is its own bar from the
        axis, the phases of one series at one x side by side."""
        fig = self.render("phases", x="i.n", logy=True).figure
        ax = fig.axes[0]
        self.assertEqual(ax.get_yscale(), "log")
        self.assertTrue(all(p.get_y() == 0.0 for p in ax.patches))
        heights = {round(p.get_height(), 9) for p in ax.patches}
        for value in (0.0005, 0.003, 0.015, 0.0004, 0.0002):  # diag at 16384, each its own bar
            self.assertIn(value, heights)
        centres = [p.get_x() + p.get_width() / 2 for p in ax.patches]
        self.assertEqual(len(centres), len(set(round(c, 9) for c in centres)))  # none on another
        # the shortest bar (offload_wait, 10 us) stands at least a factor 2 above the axis
        self.assertLessEqual(ax.get_ylim()[0], min(p.get_height() for p in ax.patches) / 2 * (1 + 1e-9))

    def test_facets_draw_a_panel_per_value(self):
        fig = self.render("phases", x="i.n", facets="solver", logy=True).figure
        titles = [ax.get_title() for ax in fig.axes]
        self.assertEqual(titles, ["cpu.linear", "cpu.omp_wavefront", "gpu.wavefront"])
        self.assertEqual({ax.get_xlim() for ax in fig.axes}, {fig.axes[0].get_xlim()})
        self.assertEqual({ax.get_ylim() for ax in fig.axes}, {fig.axes[0].get_ylim()})
        self.assertEqual([len(ax.get_xticklabels()) for ax in fig.axes], [3, 3, 3])
        legend = legend_texts(fig)
        self.assertIn("total: gpu.wavefront mode=diag", legend)
        self.assertIn("total: cpu.linear", legend)
        with self.assertRaises(PlotError) as cm:
            self.render("phases", facets="solver")
        self.assertIn("facets needs an x column", str(cm.exception))

    def test_one_bar_per_case_without_x(self):
        fig = self.render("phases", phases=("h2d", "phase.compute_s")).figure
        ax = fig.axes[0]
        self.assertEqual(ax.get_xlabel(), "case")
        self.assertEqual(len(ax.get_xticklabels()), 11)  # the skipped case is left out
        legend = legend_texts(fig)
        self.assertEqual(legend[:2], ["h2d", "compute"])

    def test_no_phase_times(self):
        path = os.path.join(self.dir, "summary.csv")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            for c in list(r):
                if c.startswith("phase."):
                    r[c] = ""
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        self.assert_fails([self.dir, "--figure", "phases"], "no phase.* column has values")


def read_md_table(path):
    """{row label: {column: cell}} of the first Markdown table in a file."""
    with open(path, encoding="utf-8") as f:
        lines = [l.strip() for l in f if l.strip().startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    table = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        table[cells[0]] = dict(zip(head[1:], cells[1:]))
    return table


@needs_mpl
class SpeedupTest(FixtureCase):
    def test_markdown_numbers(self):
        status, out, err = run_cli(self.dir, "--figure", "speedup", "--format", "png")
        self.assertEqual(status, 0, err)
        md = os.path.join(self.dir, "figures", "speedup.md")
        self.assertIn(md, out.splitlines())
        table = read_md_table(md)
        # By hand, from summary.csv: cpu.linear 0.004 s and 0.064 s at n=1024, 4096.
        self.assertEqual(table["1024"]["cpu.linear time"], "4 ms")
        self.assertEqual(table["4096"]["cpu.linear time"], "64 ms")
        self.assertEqual(table["1024"]["cpu.linear"], "1.00\u00d7")
        self.assertEqual(table["1024"]["gpu.wavefront mode=diag"], "8.00\u00d7")    # 0.004/0.0005
        self.assertEqual(table["1024"]["gpu.wavefront mode=cell"], "5.00\u00d7")    # 0.004/0.0008
        self.assertEqual(table["1024"]["cpu.omp_wavefront"], "4.00\u00d7")          # 0.004/0.001
        self.assertEqual(table["4096"]["gpu.wavefront mode=diag"], "32.0\u00d7")    # 0.064/0.002
        self.assertEqual(table["4096"]["gpu.wavefront mode=cell"], "20.0\u00d7")    # 0.064/0.0032
        self.assertEqual(table["4096"]["cpu.omp_wavefront"], "8.00\u00d7")          # 0.064/0.008
        # cpu.linear was skipped at n=16384: no baseline, no speed-ups.
        self.assertEqual(set(table["16384"].values()), {"\u2013"})
        with open(md, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("GPU: NVIDIA H100 80GB HBM3", text)
        self.assertIn("2025-11-23", text)
        with open(os.path.join(self.dir, "figures", "speedup.tex"), encoding="utf-8") as f:
            tex = f.read()
        self.assertIn(r"\caption{Speed-up over cpu.linear", tex)
        self.assertIn(r"cpu.omp\_wavefront", tex)
        self.assertIn(r"1024 & 4 ms & $1.00\times$ & $4.00\times$ & $5.00\times$ & $8.00\times$ \\", tex)

    def test_default_baseline_is_slowest_cpu_solver(self):
        out = self.render("speedup")
        self.assertIn("| 1024 | 4 ms | 1.00\u00d7 |", out.texts["md"])  # cpu.linear
        ax = out.figure.axes[0]
        self.assertEqual(ax.get_ylabel(), "speed-up over cpu.linear (\u00d7)")
        self.assertEqual(ax.get_xlabel(), "n (instance parameter)")

    def test_baseline_choice(self):
        out = self.render("speedup", baseline="gpu.wavefront mode=diag")
        self.assertIn("| 4096 | 2 ms | 1.00\u00d7 |", out.texts["md"])
        with self.assertRaises(PlotError) as cm:
            self.render("speedup", baseline="gpu.wavefront")
        self.assertIn("2 variants", str(cm.exception))
        self.assertIn("'gpu.wavefront mode=cell'", str(cm.exception))
        with self.assertRaises(PlotError) as cm:
            self.render("speedup", baseline="cpu.nothing")
        self.assertIn("not among the measured series", str(cm.exception))

    def test_chart_bars_match_table(self):
        out = self.render("speedup")
        ax = out.figure.axes[0]
        heights = {}
        for container in ax.containers:
            heights[container.get_label()] = [round(p.get_height(), 6) for p in container.patches]
        self.assertEqual(heights["gpu.wavefront mode=diag"], [8.0, 32.0])
        self.assertEqual(heights["cpu.omp_wavefront"], [4.0, 8.0])
        colours = {hex_colour(p.get_facecolor()) for p in ax.containers[0].patches}
        self.assertEqual(colours, {style.colour_for(ax.containers[0].get_label().split()[0])})


@needs_mpl
class DiagonalTimeTest(FixtureCase):
    def test_one_line_per_case_with_medians(self):
        fig = self.render("diagonal_time").figure
        ax = fig.axes[0]
        self.assertEqual(ax.get_xlabel(), "diagonal index")
        self.assertEqual(ax.get_ylabel(), "time per diagonal (s)")
        lines = {l.get_label(): l for l in ax.lines}
        self.assertEqual(sorted(lines), ["gpu.wavefront mode=cell", "gpu.wavefront mode=diag"])
        diag = lines["gpu.wavefront mode=diag"]
        self.assertEqual(list(diag.get_xdata()), list(range(15)))
        # index 0 of case 1: 3e-6 and 3.3e-6 (two repetitions) -> median 3.15e-6
        self.assertAlmostEqual(diag.get_ydata()[0], 3.15e-6)
        self.assertEqual(hex_colour(lines["gpu.wavefront mode=cell"].get_color()),
                         style.colour_for("gpu.wavefront"))
        self.assertNotEqual(hex_colour(diag.get_color()), style.colour_for("gpu.wavefront"))
        # Variants in the same order as the line figures: cell solid, diag dashed.
        self.assertEqual(lines["gpu.wavefront mode=cell"].get_linestyle(), "-")
        self.assertEqual(diag.get_linestyle(), "--")

    def test_missing_file_and_unknown_quantity(self):
        with self.assertRaises(PlotError) as cm:
            self.render("diagonal_time", quantity="row_time_s")
        self.assertIn("no rows of series 'row_time_s'", str(cm.exception))
        self.assertIn("diagonal_time_s, diagonal_cells", str(cm.exception))
        os.remove(os.path.join(self.dir, "series.csv"))
        self.assert_fails([self.dir, "--figure", "diagonal_time"], "series.csv: missing",
                          "per-diagonal times")


@needs_mpl
class ColoursAcrossKindsTest(FixtureCase):
    def test_solver_colour_is_the_same_in_every_kind(self):
        seen = {}  # kind -> {solver: {colours}}

        def add(kind, solver, colour):
            seen.setdefault(kind, {}).setdefault(solver, set()).add(hex_colour(colour))

        runtime = self.render("runtime").figure
        for c in runtime.axes[0].containers:
            add("runtime", c.get_label().split()[0], c.lines[0].get_color())
        for c in self.render("throughput").figure.axes[0].containers:
            add("throughput", c.get_label().split()[0], c.lines[0].get_color())
        for p in self.render("metrics").figure.axes[0].patches:
            add("metrics", "gpu.wavefront", p.get_facecolor())
        for c in self.render("speedup").figure.axes[0].containers:
            if c.get_label():
                add("speedup", c.get_label().split()[0], c.patches[0].get_facecolor())
        for line in self.render("diagonal_time").figure.axes[0].lines:
            add("diagonal_time", line.get_label().split()[0], line.get_color())
        phases = self.render("phases", x="i.n").figure.legends[0]
        for handle, text in zip(phases.legend_handles if hasattr(phases, "legend_handles")
                                else phases.legendHandles, phases.get_texts()):
            if text.get_text().startswith("total: "):
                add("phases", text.get_text().split()[1], handle.get_color())
        self.assertEqual(set(seen), {"runtime", "throughput", "metrics", "speedup",
                                     "diagonal_time", "phases"})
        # A solver's first variant has the solver's colour in every kind (its other
        # variants have colours of their own).
        for kind, by_solver in seen.items():
            for solver, colours in by_solver.items():
                self.assertIn(style.colour_for(solver), colours, (kind, solver))


if __name__ == "__main__":
    unittest.main()


class CaseLabelTest(unittest.TestCase):
    """Bar labels of one experiment with parts of several problems."""

    def test_labels_are_made_within_each_problem(self):
        from dpgpu_plots.select import case_labels
        rows = [
            {"problem": "lcs", "solver": "gpu.wavefront", "i.n": "3000", "s.mode": "cell", "s.block": "64",
             "i.capacity": "", "case_id": "a"},
            {"problem": "lcs", "solver": "gpu.wavefront", "i.n": "3000", "s.mode": "tile", "s.block": "64",
             "i.capacity": "", "case_id": "b"},
            {"problem": "knapsack", "solver": "gpu.wavefront", "i.n": "1500", "s.mode": "", "s.block": "256",
             "i.capacity": "500", "case_id": "c"},
        ]
        self.assertEqual(case_labels(rows), ["lcs: gpu.wavefront mode=cell", "lcs: gpu.wavefront mode=tile",
                                             "knapsack: gpu.wavefront"])

    def test_one_problem_keeps_plain_labels(self):
        from dpgpu_plots.select import case_labels
        rows = [{"problem": "lcs", "solver": "gpu.wavefront", "s.block": b, "case_id": b} for b in ("64", "128")]
        self.assertEqual(case_labels(rows), ["gpu.wavefront block=64", "gpu.wavefront block=128"])


class ScalingTest(unittest.TestCase):
    """The scaling kind: speed-up over each line's first point, beside the ideal line."""

    def test_speedups_are_relative_to_the_first_point(self):
        from dpgpu_plots.fig_scaling import speedups
        from dpgpu_plots.series import Point, Series
        s = Series(solver="gpu.pipeline", variant=(), points=[Point(4, 2.0, 1.5, 2.5, 1), Point(1, 8.0, 8.0, 8.0, 1)])
        speedups([s])
        self.assertEqual([(p.x, p.y) for p in s.points], [(1, 1.0), (4, 4.0)])
        self.assertAlmostEqual(s.points[1].low, 8.0 / 2.5)
        self.assertAlmostEqual(s.points[1].high, 8.0 / 1.5)

    @unittest.skipUnless(HAVE_MPL, "Matplotlib is not installed")
    def test_draws_from_a_sweep(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r")
            shutil.copytree(os.path.join(HERE, "fixtures", "lcs-sweep"), out)
            code = main([out, "--figure", "scaling", "--x", "i.n"])
            self.assertEqual(code, 0)
            for ext in ("png", "pdf"):
                self.assertTrue(os.path.getsize(os.path.join(out, "figures", f"scaling.{ext}")) > 0)
