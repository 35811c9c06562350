"""Tests for plots/ (plain unittest):

    /usr/bin/python3 -m unittest discover -s plots/tests

Figure tests skip when Matplotlib cannot be imported; the error-case tests run anyway,
since the command reports bad input before it imports Matplotlib.
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
SCRIPT = os.path.join(PLOTS, "dpgpu_plot.py")
FIXTURES = os.path.join(HERE, "fixtures")
sys.path.insert(0, PLOTS)

from figure_checks import legend_texts  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402
from dpgpu_plots import style  # noqa: E402

from plot_test_support import HAVE_MPL, run_cli, needs_mpl  # noqa: E402


LEADING = ["experiment", "case_id", "problem", "instance", "seed", "solver", "backend",
           "status", "valid", "objective", "reps", "work", "time_median_s", "time_min_s",
           "time_max_s", "time_mean_s", "time_rsd", "throughput", "message"]
PARAMS = ["i.n", "i.alphabet", "s.block", "s.mode", "phase.h2d_s", "c.kernel_launches"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def row(case, solver, n, status="ok", valid="true", t=None, block="", message="",
        instance=None):
    """One summary row; t = median time (min/max at 0.9x/1.2x)."""
    work = n * n
    cells = {
        "experiment": "sweep-test", "case_id": case, "problem": "lcs",
        "instance": instance or f"planted(n={n}, alphabet=4)", "seed": 1, "solver": solver,
        "backend": "cuda" if solver.startswith("gpu.") else "host", "status": status,
        "valid": valid, "objective": n // 2 if t else "", "reps": 5 if t else 0, "work": work,
        "time_median_s": t or "", "time_min_s": t * 0.9 if t else "",
        "time_max_s": t * 1.2 if t else "", "time_mean_s": t or "", "time_rsd": 0.05 if t else "",
        "throughput": work / t if t else "", "message": message, "i.n": n, "i.alphabet": 4,
        "s.block": block, "s.mode": "diag" if block else "", "phase.h2d_s": "",
        "c.kernel_launches": 2 * n - 1 if block else "",
    }
    return [cells[c] for c in LEADING + PARAMS]


SWEEP_ROWS = [
    row(1, "gpu.wavefront", 1024, t=0.0005, block=128),
    row(2, "gpu.wavefront", 1024, t=0.0004, block=256),
    row(3, "cpu.full_table", 1024, t=0.004),
    row(4, "gpu.wavefront", 4096, t=0.002, block=128),
    row(5, "gpu.wavefront", 4096, t=0.0016, block=256),
    row(6, "cpu.full_table", 4096, t=0.064),
    row(7, "gpu.wavefront", 16384, t=0.02, block=128),
    row(8, "gpu.wavefront", 16384, t=0.017, block=256),
    row(9, "cpu.full_table", 16384, status="skipped", valid="",
        message="skipped: n=16384 exceeds max n=10000, see \"max\""),
    row(10, "gpu.wrong", 1024, valid="false", t=0.0001, message="objective differs, 511 vs 512"),
]


def write_results(directory, rows, context=None, columns=None):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(columns or LEADING + PARAMS)
        w.writerows(rows)
    if context is not False:
        ctx = context if context is not None else {
            "gpu": {"name": "NVIDIA H100 80GB HBM3"}, "host": {"name": "test"},
            "start": "2025-11-22T03:51:00Z"}
        with open(os.path.join(directory, "context.json"), "w") as f:
            json.dump(ctx, f)
    return directory


from figure_checks import series_colours  # noqa: E402,F811


class TempDirCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-plots-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def results_dir(self, rows=SWEEP_ROWS, name="sweep", **kw):
        return write_results(os.path.join(self.tmp, name), rows, **kw)


class ReadingTest(TempDirCase):
    def test_quoted_fields_survive(self):
        res = results_mod.load(self.results_dir())
        self.assertEqual(len(res.rows), len(SWEEP_ROWS))
        self.assertEqual(res.rows[0]["instance"], "planted(n=1024, alphabet=4)")
        self.assertEqual(res.rows[8]["message"], 'skipped: n=16384 exceeds max n=10000, see "max"')
        self.assertEqual(res.columns_with_prefix("i."), ["i.n", "i.alphabet"])

    def test_hand_written_fixture(self):
        res = results_mod.load(os.path.join(FIXTURES, "lcs-sweep"))
        self.assertEqual(len(res.rows), 11)
        broken = [r for r in res.rows if r["solver"] == "gpu.broken"][0]
        self.assertIn("\n(child process", broken["message"])
        self.assertEqual(res.gpu_name, "NVIDIA H100 80GB HBM3")
        self.assertEqual(res.start_date, "2025-11-22")
        usable = res.usable_rows()
        self.assertEqual({r["solver"] for r in usable}, {"gpu.wavefront", "cpu.full_table"})
        self.assertEqual(len(usable), 8)

    def test_number(self):
        n = results_mod.number
        self.assertEqual(n("1e-3"), 0.001)
        for cell in ("", " ", "nan", "inf", "abc", None):
            self.assertIsNone(n(cell))


@needs_mpl
class RuntimeFigureTest(TempDirCase):
    def build(self, directory, kind="runtime", x=None):
        from dpgpu_plots import figures
        return figures.build(results_mod.load(directory), figures.FigureSpec(kind=kind, x=x))

    def test_labels_series_and_scales(self):
        fig = self.build(self.results_dir())
        ax = fig.axes[0]
        labels = legend_texts(fig)
        self.assertEqual(labels, ["cpu.full_table", "gpu.wavefront block=128",
                                  "gpu.wavefront block=256"])
        self.assertEqual(ax.get_xlabel(), "n (instance parameter)")
        self.assertEqual(ax.get_ylabel(), "run time, median (s)")
        self.assertEqual(ax.get_title(), "sweep-test")
        self.assertEqual(ax.get_yscale(), "log")  # 0.0004 .. 0.064
        self.assertEqual(ax.get_xscale(), "log")  # 1024 .. 16384
        notes = [t.get_text() for t in fig.texts]
        self.assertTrue(any("NVIDIA H100 80GB HBM3" in t and "2025-11-22" in t for t in notes), notes)

    def test_points_and_error_bars(self):
        fig = self.build(self.results_dir())
        by_label = {c.get_label(): c for c in fig.axes[0].containers}
        cpu = by_label["cpu.full_table"].lines[0]
        self.assertEqual(list(cpu.get_xdata()), [1024, 4096])  # skipped n=16384 left out
        self.assertEqual(list(cpu.get_ydata()), [0.004, 0.064])
        gpu = by_label["gpu.wavefront block=128"].lines[0]
        self.assertEqual(list(gpu.get_xdata()), [1024, 4096, 16384])
        self.assertIsNotNone(by_label["gpu.wavefront block=128"].lines[2])  # bar segments

    def test_invalid_rows_left_out(self):
        fig = self.build(self.results_dir())
        labels = [c.get_label() for c in fig.axes[0].containers]
        self.assertNotIn("gpu.wrong", labels)

    def test_linear_scale_for_narrow_range(self):
        rows = [row(1, "cpu.a", 100, t=1.0), row(2, "cpu.a", 200, t=2.0), row(3, "cpu.a", 300, t=3.0)]
        ax = self.build(self.results_dir(rows)).axes[0]
        self.assertEqual(ax.get_yscale(), "linear")
        self.assertEqual(ax.get_xscale(), "linear")

    def test_x_is_most_varied_instance_column_and_can_be_forced(self):
        fig = self.build(self.results_dir())
        self.assertEqual(fig.axes[0].get_xlabel(), "n (instance parameter)")
        with redirect_stderr(io.StringIO()) as err:
            fig = self.build(self.results_dir(), x="s.block")
        self.assertIn("2 ok row(s) lack a numeric s.block", err.getvalue())  # cpu.full_table
        ax = fig.axes[0]
        self.assertEqual(ax.get_xlabel(), "block (solver parameter)")
        # n now tells the wavefront's lines apart; cpu.full_table has no block value.
        labels = [c.get_label() for c in ax.containers]
        self.assertEqual(labels, ["gpu.wavefront n=1024", "gpu.wavefront n=4096",
                                  "gpu.wavefront n=16384"])

    def test_seeds_combine_into_one_point(self):
        rows = [row(1, "cpu.a", 100, t=1.0, instance="s1"), row(2, "cpu.a", 100, t=3.0, instance="s2"),
                row(3, "cpu.a", 200, t=2.0, instance="s1"), row(4, "cpu.a", 200, t=4.0, instance="s2")]
        fig = self.build(self.results_dir(rows))
        (container,) = fig.axes[0].containers
        self.assertEqual(list(container.lines[0].get_ydata()), [2.0, 3.0])
        self.assertTrue(any("median over instances" in t.get_text() for t in fig.texts))

    def test_single_x_value_ticks_at_that_value(self):
        rows = [row(1, "cpu.a", 10, t=1.0), row(2, "cpu.b", 10, t=0.5)]
        ax = self.build(self.results_dir(rows), x="i.n").axes[0]  # an x asked for
        self.assertEqual(list(ax.get_xticks()), [10])
        # Not asked for: one instance is one slot named by it, not an axis with one point
        # (issue 36: "against n" with one point on x = alphabet).
        ax = self.build(self.results_dir(rows, name="one")).axes[0]
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["planted(n=10, alphabet=4)"])
        self.assertEqual(ax.get_xlabel(), "instance")

    def test_no_gpu_footnote(self):
        d = self.results_dir(context={"gpu": None, "host": {}, "start": "2025-01-02T10:00:00"})
        fig = self.build(d)
        self.assertTrue(any(t.get_text().startswith("no GPU \u00b7 2025-01-02") for t in fig.texts))

    def test_filter_note_says_none_for_an_empty_value_and_true_in_lower_case(self):
        """Issue 36 (lcs_reconstruct): 'filter: s.offload=True/' for [true, ""]."""
        from dpgpu_plots import figures
        spec = figures.FigureSpec(kind="runtime", x="i.n", options={
            "filter": {"s.block": (128, ""), "s.mode": ("",), "i.n": (1024, 4096, 16384)}})
        fig = figures.build(results_mod.load(self.results_dir()), spec)
        text = " ".join(" ".join(t.get_text() for t in fig.texts).split())
        self.assertIn("filter: s.block=128/none, s.mode=none, i.n=1024/4096/16384", text)
        self.assertIn("(block=128/none, mode=none, n=1024/4096/16384)", " ".join(fig.axes[0].get_title().split()))
        from dpgpu_plots import style
        self.assertEqual(style.filter_text({"s.offload": (True, "")}), "s.offload=true/none")

    def test_footnote_names_the_dates_of_rows_added_from_other_runs(self):
        """Issue 36 (ivm_table2_speedups): rows appended from a run four days later, its
        context kept as context-matrix-rows.json, were dated by context.json alone."""
        d = self.results_dir()
        with open(os.path.join(d, "context-later.json"), "w") as f:
            json.dump({"gpu": None, "start": "2025-11-26T12:00:00Z"}, f)
        with open(os.path.join(d, "context-same-day.json"), "w") as f:
            json.dump({"start": "2025-11-22T09:00:00Z"}, f)
        self.assertEqual(results_mod.load(d).dates, "2025-11-22; rows of 2025-11-26 (context-later.json)")
        fig = self.build(d)
        self.assertTrue(any("· 2025-11-22; rows of 2025-11-26 (context-later.json) ·" in t.get_text()
                            for t in fig.texts), [t.get_text() for t in fig.texts])

    @needs_mpl
    def test_skip_note_counts_only_the_cases_the_filter_keeps(self):
        from dpgpu_plots import figures
        d = self.results_dir()
        everything = figures.build(results_mod.load(d), figures.FigureSpec(kind="runtime"))
        self.assertTrue(any("1 case skipped" in t.get_text() for t in everything.texts))
        gpu_only = figures.build(results_mod.load(d), figures.FigureSpec(
            kind="runtime", options={"filter": {"solver": ["gpu.wavefront"]}}))
        self.assertFalse(any("skipped" in t.get_text() for t in gpu_only.texts))

    def test_colours_distinct_and_stable_across_figures(self):
        d = self.results_dir()
        runtime = series_colours(self.build(d, "runtime"))
        throughput = series_colours(self.build(d, "throughput"))
        self.assertEqual(runtime, throughput)
        # Solvers take palette slots in sorted order: never two of them one colour.
        self.assertEqual(runtime["cpu.full_table"], style.PALETTE[0])
        self.assertEqual(runtime["gpu.wavefront block=128"], style.PALETTE[1])
        # A second variant of one solver: a colour of its own, no solver's.
        self.assertNotIn(runtime["gpu.wavefront block=256"], (style.PALETTE[0], style.PALETTE[1]))
        # cpu.bitparallel and cpu.linear shared orange under the old CRC-32 hash.
        names = ["cpu.bitparallel", "cpu.linear", "cpu.hirschberg", "cpu.omp_wavefront",
                 "gpu.wavefront", "cpu.a", "cpu.b", "cpu.c", "cpu.d", "cpu.e", "cpu.f", "cpu.g"]
        rows = [row(i + 1, s, 10, t=1.0 + i) for i, s in enumerate(names)]
        rows += [row(20 + i, s, 20, t=2.0 + i) for i, s in enumerate(names)]
        many = series_colours(self.build(self.results_dir(rows, name="many")))
        self.assertEqual(len(many), 12)
        self.assertEqual(len(set(many.values())), 12, many)

    def test_colour_does_not_depend_on_hash_seed(self):
        code = ("import sys; sys.path.insert(0, %r); from dpgpu_plots.style import colour_for;"
                "print(colour_for('gpu.wavefront'), colour_for('cpu.full_table'))" % PLOTS)
        seen = set()
        for seed in ("1", "2", "12345"):
            env = dict(os.environ, PYTHONHASHSEED=seed)
            seen.add(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                    capture_output=True, text=True).stdout)
        self.assertEqual(len(seen), 1)

    def test_throughput_labels(self):
        ax = self.build(self.results_dir(), "throughput").axes[0]
        # LCS work is cell updates: the axis says so (issue 36: "work units per second")
        self.assertEqual(ax.get_ylabel(), "throughput (cell updates per second)")
        self.assertEqual(ax.get_xlabel(), "n (instance parameter)")


@needs_mpl
class CommandTest(TempDirCase):
    def assert_png(self, path):
        self.assertTrue(os.path.isfile(path), path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), PNG_MAGIC)
        self.assertGreater(os.path.getsize(path), 10_000)

    def test_writes_png_and_pdf_and_prints_paths(self):
        d = self.results_dir()
        status, out, err = run_cli(d)
        self.assertEqual(status, 0, err)
        paths = [os.path.join(d, "figures", "runtime." + ext) for ext in ("png", "pdf")]
        self.assertEqual(out.splitlines(), paths)  # default: runtime, png and pdf
        self.assert_png(paths[0])
        with open(paths[1], "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")

    def test_one_format(self):
        d = self.results_dir()
        status, out, err = run_cli(d, "--format", "png")
        self.assertEqual(status, 0, err)
        self.assertEqual(out.splitlines(), [os.path.join(d, "figures", "runtime.png")])

    def test_formats_and_all_figures(self):
        d = self.results_dir()
        status, out, err = run_cli(d, "--figure", "all", "--format", "png,pdf")
        self.assertEqual(status, 0, err)
        names = sorted(os.path.basename(p) for p in out.splitlines())
        # No phase times, metrics.csv or series.csv here: those kinds are skipped, with a note.
        self.assertEqual(names, ["runtime.pdf", "runtime.png", "scaling.pdf", "scaling.png", "speedup.md", "speedup.pdf",
                                 "speedup.png", "speedup.tex", "throughput.pdf", "throughput.png"])
        for kind in ("metrics", "phases", "diagonal_time"):
            self.assertIn(f"no {kind} figure", err)
        with open(os.path.join(d, "figures", "runtime.pdf"), "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")
        self.assert_png(os.path.join(d, "figures", "throughput.png"))

    def test_script_on_hand_written_fixture(self):
        d = os.path.join(self.tmp, "fixture")
        shutil.copytree(os.path.join(FIXTURES, "lcs-sweep"), d)
        p = subprocess.run([sys.executable, SCRIPT, d, "--figure", "runtime,throughput",
                            "--format", "png"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 2)
        for line in p.stdout.splitlines():
            self.assert_png(line)

    def test_list(self):
        status, out, _ = run_cli("--list")
        self.assertEqual(status, 0)
        self.assertIn("runtime", out)
        self.assertIn("throughput", out)


class ErrorTest(TempDirCase):
    """Bad input: exit status 2 and a message that names the file (no Matplotlib needed)."""

    def assert_fails(self, args, *fragments):
        p = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stdout, "")
        for fragment in fragments:
            self.assertIn(fragment, p.stderr)
        return p.stderr

    def test_missing_folder(self):
        d = os.path.join(self.tmp, "nope")
        self.assert_fails([d], f"{d}: no such results folder")

    def test_missing_summary(self):
        d = os.path.join(self.tmp, "empty")
        os.makedirs(d)
        self.assert_fails([d], os.path.join(d, "summary.csv") + ": missing")

    def test_all_rows_skipped(self):
        rows = [row(i, "cpu.full_table", 1000 * i, status="skipped", valid="", message="too big")
                for i in range(1, 5)]
        d = self.results_dir(rows)
        self.assert_fails([d], os.path.join(d, "summary.csv"),
                          "no plottable rows: all 4 rows are skipped")

    def test_mixed_failures(self):
        rows = [row(1, "gpu.a", 10, status="error", valid="", message="CUDA error: out of bounds"),
                row(2, "gpu.a", 20, status="timeout", valid=""),
                row(3, "gpu.a", 30, status="error", valid="")]
        err = self.assert_fails([self.results_dir(rows)],
                                "none of the 3 rows has status ok (2 error, 1 timeout)",
                                "CUDA error: out of bounds")
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_all_invalid(self):
        rows = [row(1, "gpu.a", 10, valid="false", t=1.0), row(2, "gpu.a", 20, valid="false", t=1.0)]
        self.assert_fails([self.results_dir(rows)], "all 2 ok rows have valid=false")

    def test_header_only(self):
        self.assert_fails([self.results_dir([])], "no plottable rows",
                          "has a header but no rows")

    def test_not_a_summary(self):
        d = self.results_dir([["1", "2"]], columns=["a", "b"])
        self.assert_fails([d], "summary.csv: lacks column solver")

    @needs_mpl
    def test_unknown_x_column(self):
        self.assert_fails([self.results_dir(), "--x", "i.zz"], "no column 'i.zz'", "i.n")

    def test_unknown_figure_and_format(self):
        d = self.results_dir()
        if HAVE_MPL:
            self.assert_fails([d, "--figure", "pie"], "unknown figure kind 'pie'", "runtime")
        self.assert_fails([d, "--format", "png,bmp"], "--format 'png,bmp'", "png, pdf, svg")


class FindPythonTest(unittest.TestCase):
    SCRIPT = os.path.join(PLOTS, "find_python.sh")

    def run_script(self, **env):
        return subprocess.run(["bash", self.SCRIPT], capture_output=True, text=True,
                              env=dict(os.environ, **env))

    @needs_mpl
    def test_honours_dpgpu_python(self):
        p = self.run_script(DPGPU_PYTHON=sys.executable)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), sys.executable)

    def test_falls_through_a_bad_dpgpu_python(self):
        p = self.run_script(DPGPU_PYTHON="/nonexistent/python")
        self.assertIn("/nonexistent/python", p.stderr)
        if p.returncode == 0:
            found = p.stdout.strip()
            self.assertTrue(os.path.isabs(found))
            subprocess.run([found, "-c", "import matplotlib"], check=True)
        else:
            self.assertEqual(p.returncode, 1)
            self.assertIn("no Python with Matplotlib found", p.stderr)


if __name__ == "__main__":
    unittest.main()


class FiguresManifestTest(unittest.TestCase):
    """dpgpu plot lists what it drew in figures/.dpgpu-figures, so that a rerun that changes
    the data removes those files and never one of the user's (issue 30, finding 6)."""

    def test_written_figures_are_listed_once(self):
        from dpgpu_plots import cli
        tmp = tempfile.mkdtemp(prefix="dpgpu-manifest-")
        self.addCleanup(shutil.rmtree, tmp)
        cli.save_texts({"csv": "a,b\n"}, tmp, "speedup")
        cli.save_texts({"csv": "a,b\n", "txt": "x"}, tmp, "speedup")
        with open(os.path.join(tmp, "figures", cli.MANIFEST), encoding="utf-8") as f:
            self.assertEqual(f.read().split(), ["speedup.csv", "speedup.txt"])
