"""Series of the line figures (issue 36): a size derived from the seed (a knapsack's capacity)
does not split a solver into one legend entry per seed, a swept parameter still does, and
`dpgpu plot --series` / `--x` choose them from the command line without editing the folder's
experiment.yaml."""

import csv
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from dpgpu_plots import cli, results as results_mod  # noqa: E402
from dpgpu_plots.series import Metric, build_series  # noqa: E402
from dpgpu_plots.results import number  # noqa: E402

COLUMNS = ["experiment", "case_id", "problem", "instance", "seed", "solver", "backend", "status",
           "valid", "time_median_s", "time_min_s", "time_max_s", "i.n", "i.capacity", "s.threads"]


def knapsack_rows(threads=(4,), seeds=(1, 2, 3, 4)):
    rows = []
    for n in (100, 200):
        for seed in seeds:
            capacity = 1000 * n + 37 * seed  # drawn from the seed's random weights
            for t in threads:
                case = f"random[n={n}]#{seed}/cpu.dp[threads={t}]"
                rows.append({"experiment": "k", "case_id": case, "problem": "knapsack",
                             "instance": f"random(n={n})-s{seed}", "seed": seed, "solver": "cpu.dp",
                             "backend": "host", "status": "ok", "valid": "true",
                             "time_median_s": 0.001 * n / t, "time_min_s": 0.0009 * n / t,
                             "time_max_s": 0.0011 * n / t, "i.n": n, "i.capacity": capacity,
                             "s.threads": t})
    return rows


TIME = Metric(column="time_median_s", label="time", value=lambda r: number(r.get("time_median_s")))


class FolderCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-series-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def load(self, rows, columns=COLUMNS):
        d = os.path.join(self.tmp, f"r{len(os.listdir(self.tmp))}")
        os.makedirs(d)
        with open(os.path.join(d, "summary.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, columns)
            w.writeheader()
            w.writerows(rows)
        return results_mod.load(d)


class SeriesTest(FolderCase):
    def test_a_parameter_the_case_left_at_its_default_is_not_in_the_label(self):
        """Issue 36 (mcm_table3_scaling): series [solver, s.policy, s.threads] names policy
        fixed's threads, and does not give policy calibrate, whose case sets no threads (it
        picks them per diagonal), the recorded default as if it were chosen. A parameter
        that tells series apart stays in every label (tile against cell)."""
        rows = knapsack_rows(threads=(4,), seeds=(1,))
        calibrate = [dict(r, case_id=r["case_id"].replace("cpu.dp[threads=4]", "gpu.x[policy=calibrate]"),
                          **{"s.policy": "calibrate"}) for r in rows]
        fixed = [dict(r, case_id=r["case_id"].replace("cpu.dp[", "gpu.x[policy=fixed,"),
                      **{"s.policy": "fixed"}) for r in rows]
        rows = [dict(r, solver="gpu.x") for r in calibrate + fixed]
        results = self.load(rows, COLUMNS + ["s.policy"])
        labels = sorted(s.label for s in build_series(results, results.rows, "i.n", TIME,
                                                      ["solver", "s.policy", "s.threads"]))
        self.assertEqual(labels, ["gpu.x policy=calibrate", "gpu.x policy=fixed threads=4"])
        # threads 8 (default, unset) against 4 (set): the value tells them apart, so it stays
        rows[0]["s.threads"] = rows[1]["s.threads"] = 8
        results = self.load(rows, COLUMNS + ["s.policy"])
        labels = sorted(s.label for s in build_series(results, results.rows, "i.n", TIME,
                                                      ["solver", "s.policy", "s.threads"]))
        self.assertEqual(labels, ["gpu.x policy=calibrate threads=8", "gpu.x policy=fixed threads=4"])

    def test_a_size_derived_from_the_seed_is_not_a_series(self):
        results = self.load(knapsack_rows())
        series = build_series(results, results.usable_rows(), "i.n", TIME)
        self.assertEqual([s.variant for s in series], [()])  # one line, not one per capacity
        self.assertEqual([p.rows for p in series[0].points], [4, 4])  # the seeds' median

    def test_a_swept_parameter_still_is(self):
        results = self.load(knapsack_rows(threads=(1, 4)))
        series = build_series(results, results.usable_rows(), "i.n", TIME)
        self.assertEqual([s.variant for s in series], [(("s.threads", "1"),), (("s.threads", "4"),)])

    def test_one_seed_keeps_a_varying_instance_column(self):
        """With one seed, a column varying at one x is a real parameter of the instances."""
        rows = [dict(r, **{"i.capacity": 5000}) for r in knapsack_rows(seeds=(1,))]
        rows += [dict(r, case_id=r["case_id"] + "b", instance=r["instance"] + "b",
                      **{"i.capacity": 10000}) for r in rows]
        results = self.load(rows)
        series = build_series(results, results.usable_rows(), "i.n", TIME)
        self.assertEqual(len(series), 2)


class OneInstanceTest(FolderCase):
    def test_one_instance_is_a_slot_not_an_axis(self):
        """Issue 36: one instance drew "against n" with one point on x = alphabet."""
        try:
            from dpgpu_plots import drawing
        except ImportError:
            self.skipTest("Matplotlib not importable by this Python")
        one = [r for r in knapsack_rows(seeds=(1,)) if r["i.n"] == 100]
        results = self.load(one)
        self.assertTrue(drawing.is_categorical(results, results.usable_rows()))
        results = self.load(knapsack_rows(seeds=(1,)))  # two sizes: a real axis
        self.assertFalse(drawing.is_categorical(results, results.usable_rows()))


class EqualDecadesTest(FolderCase):
    def test_panels_span_the_same_decades(self):
        """Issue 36 (pipeline_p_sweep/time_vs_p): one panel spanned one decade, its neighbours
        four, so a slope of -1 could not be read across them."""
        try:
            from dpgpu_plots import figures
        except ImportError:
            self.skipTest("Matplotlib not importable by this Python")
        import math
        rows = []
        for n in (100, 1000, 10000):
            for t, scale in ((1, 1.0), (4, 0.0)):  # threads=4: nearly flat in n
                time = 1e-3 * n if scale else 2e-3 * (1 + n / 1e5)
                rows.append({"experiment": "k", "case_id": f"random[n={n}]#1/cpu.dp[threads={t}]",
                             "problem": "knapsack", "instance": f"random-n{n}-s1", "seed": 1,
                             "solver": "cpu.dp", "backend": "host", "status": "ok", "valid": "true",
                             "time_median_s": time, "time_min_s": time, "time_max_s": time,
                             "i.n": n, "i.capacity": 5000, "s.threads": t})
        results = self.load(rows)
        fig = figures.build(results, figures.FigureSpec(
            kind="runtime", x="i.n", options={"facets": "s.threads", "logy": True, "logx": True}))
        spans = [math.log10(ax.get_ylim()[1] / ax.get_ylim()[0]) for ax in fig.axes
                 if ax.get_yscale() == "log"]
        self.assertEqual(len(spans), 2)
        self.assertAlmostEqual(spans[0], spans[1], places=6)


class LogTicksTest(unittest.TestCase):
    def test_a_narrow_log_axis_gets_more_than_two_labels(self):
        """Issue 36 (mcm_table1_kernels/table1_block): 2.3 s to 2.95 s was labelled 2 and 3."""
        try:
            from dpgpu_plots.drawing import _labelled_values
        except ImportError:
            self.skipTest("Matplotlib not importable by this Python")
        inside = [v for v in _labelled_values(2.3, 2.95) if 2.2 <= v <= 3.0]
        self.assertEqual(inside, [2.2, 2.4, 2.6, 2.8, 3.0])
        self.assertIn(5.0, _labelled_values(1, 50))  # wider ranges as before: 1-2-5
        self.assertNotIn(2.4, _labelled_values(1, 50))


class ShareAxisTest(unittest.TestCase):
    def test_a_share_runs_from_0_to_1(self):
        """Issue 36 (ivm_fig5_phases): a share axis started at 0.1."""
        try:
            from matplotlib.figure import Figure
            from dpgpu_plots.drawing import share_axis
        except ImportError:
            self.skipTest("Matplotlib not importable by this Python")
        ys = [0.12, 0.6, 0.16]
        ax = Figure().add_subplot()
        ax.plot([1, 2, 3], ys)
        share_axis(ax, "c.steal_share", ys)
        self.assertEqual(ax.get_ylim(), (0.0, 1.0))
        other = Figure().add_subplot()
        other.plot([1, 2, 3], ys)
        before = other.get_ylim()
        share_axis(other, "time_median_s", ys)  # not a share: untouched
        self.assertEqual(other.get_ylim(), before)


class CommandLineOptionsTest(unittest.TestCase):
    def test_series_and_x_override_every_figure_that_has_them(self):
        from dpgpu_plots.plotspec import FigureSpec
        declared = [FigureSpec(kind="runtime", x="i.n", options={"series": ["instance"]}),
                    FigureSpec(kind="throughput", name="tp")]
        args = cli.parser().parse_args(["dir", "--series", "solver, s.threads", "--x", "i.capacity"])
        planned = cli.specs_from_args(args, declared)
        self.assertEqual([p.spec.opt("series") for p in planned], [["solver", "s.threads"]] * 2)
        self.assertEqual([p.spec.x for p in planned], ["i.capacity"] * 2)
        args = cli.parser().parse_args(["dir"])
        self.assertEqual(cli.specs_from_args(args, declared)[0].spec.opt("series"), ["instance"])

    def test_empty_series_is_an_error(self):
        from dpgpu_plots.errors import PlotError
        args = cli.parser().parse_args(["dir", "--series", ","])
        with self.assertRaises(PlotError):
            cli.specs_from_args(args, [])


if __name__ == "__main__":
    unittest.main()
