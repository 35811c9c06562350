"""The ``energy`` figure on a hand-written results folder: each panel draws the column it
names in its unit (energy_j in J, work_per_joule in the problem's work unit, both log y),
the dashed idle line is idle_power_w x median time, a throttled case is a hollow square
named in the footnote, n/a rows and the energy_method are named; every series its own
colour, nothing clipped or overlapping. Also the committed energy folder's figure."""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from figure_checks import clipped_or_overlapping, colour_clashes, legend_texts  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402
from dpgpu_plots.errors import PlotError  # noqa: E402

from plot_test_support import HAVE_MPL  # noqa: E402

COLUMNS = ["experiment", "case_id", "problem", "instance", "seed", "solver", "backend", "status",
           "valid", "reps", "work", "time_median_s", "time_min_s", "time_max_s", "time_rsd",
           "i.n", "s.mode", "c.nodes", "energy_method", "energy_j", "power_w", "work_per_joule",
           "idle_power_w", "gpu.throttle_flags", "gpu.throttled"]
IDLE_W = 70.0


def row(solver, n, t, energy, mode="", throttled=False, method="nvml_counter"):
    """One case; work n*n cells; power_w chosen unlike energy_j, so a panel that drew the
    wrong column would show other values."""
    gpu = solver.startswith("gpu.")
    work = n * n
    has = energy is not None
    cells = {"experiment": "energy-fixture", "case_id": f"random[n={n}]#1/{solver}" + (f"[mode={mode}]" if mode else ""),
             "problem": "lcs", "instance": f"random-{n}", "seed": 1, "solver": solver,
             "backend": "gpu" if gpu else "cpu", "status": "ok", "valid": "true", "reps": 3,
             "work": work, "time_median_s": t, "time_min_s": t * 0.99, "time_max_s": t * 1.01,
             "time_rsd": 0.005, "i.n": n, "s.mode": mode, "c.nodes": "",
             "energy_method": method if has else "n/a", "energy_j": energy if has else "",
             "power_w": 250.0 if has else "", "work_per_joule": work / energy if has else "",
             "idle_power_w": IDLE_W if gpu else "",
             "gpu.throttle_flags": "sw_power_cap" if throttled else "",
             "gpu.throttled": ("true" if throttled else "false") if gpu else ""}
    return cells


def fixture_rows():
    rows = []
    for k, n in enumerate((1024, 4096, 16384)):
        rows.append(row("gpu.wavefront", n, 1e-3 * 8 ** k, 0.2 * 8 ** k, mode="cell",
                        throttled=(n == 16384)))
        rows.append(row("gpu.wavefront", n, 4e-4 * 8 ** k, 0.05 * 8 ** k, mode="tile"))
        rows.append(row("gpu.bitparallel", n, 1e-4 * 8 ** k, 0.01 * 8 ** k))
        rows.append(row("cpu.linear", n, 1e-2 * 16 ** k, None))
    return rows


def write(directory, rows):
    os.makedirs(directory, exist_ok=True)
    columns = [c for c in COLUMNS if any(c in r for r in rows)]
    with open(os.path.join(directory, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(directory, "context.json"), "w") as f:
        json.dump({"gpu": {"name": "NVIDIA H100 80GB HBM3"}, "start": "2026-11-27T05:27:07Z"}, f)
    with open(os.path.join(directory, "experiment.yaml"), "w") as f:
        f.write("name: energy-fixture\ndescription: energy fixture\n"
                "instances:\n  - generator: random\n    params: {n: [1024, 4096, 16384]}\n")
    return directory


def footnote(fig) -> str:
    return " ".join(t.get_text() for t in fig.texts).replace("\n", " ")


def series_ydata(ax) -> dict[str, list[float]]:
    """{label: y values} of the errorbar series of one axes."""
    return {c.get_label(): [float(y) for y in c.lines[0].get_ydata()]
            for c in ax.containers if hasattr(c, "lines") and c.lines and c.lines[0] is not None}


@unittest.skipUnless(HAVE_MPL, "Matplotlib not importable by this Python")
class EnergyFigureTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-energy-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def render(self, rows, **options):
        from dpgpu_plots import figures
        directory = write(os.path.join(self.tmp, f"r{len(os.listdir(self.tmp))}"), rows)
        spec = figures.FigureSpec(kind="energy", x=options.pop("x", None), options=options)
        return figures.render(results_mod.load(directory), spec).figure

    def test_panels_draw_their_columns_in_their_units(self):
        fig = self.render(fixture_rows())
        energy_ax, work_ax = fig.axes
        self.assertEqual(energy_ax.get_ylabel(), "energy per solve (J)")
        self.assertEqual(work_ax.get_ylabel().replace("\n", " "), "cell updates per joule")
        self.assertEqual((energy_ax.get_yscale(), work_ax.get_yscale()), ("log", "log"))
        self.assertEqual(work_ax.get_xlabel(), "n (instance parameter)")
        rows = [r for r in fixture_rows() if r["energy_j"] != ""]
        want_energy, want_work = {}, {}
        for r in rows:
            label = r["solver"] + (f" mode={r['s.mode']}" if r["s.mode"] else "")
            want_energy.setdefault(label, []).append(r["energy_j"])
            want_work.setdefault(label, []).append(r["work_per_joule"])
        for got, want in ((series_ydata(energy_ax), want_energy), (series_ydata(work_ax), want_work)):
            self.assertEqual(sorted(got), sorted(want))
            for label in want:
                for a, b in zip(got[label], want[label]):
                    self.assertAlmostEqual(a, b, delta=1e-9 * b)
        self.assertNotIn("cpu.linear", series_ydata(energy_ax))  # n/a: not drawn

    def test_idle_line_is_idle_power_times_median_time(self):
        fig = self.render(fixture_rows())
        dashed = [line for line in fig.axes[0].lines if line.get_label() == "_idle"]
        self.assertEqual(len(dashed), 3)  # one per GPU series
        self.assertTrue(all(line.get_linestyle() == "--" and line.get_marker() in ("None", "", None)
                            for line in dashed))
        want = sorted(IDLE_W * r["time_median_s"] for r in fixture_rows() if r["solver"].startswith("gpu."))
        got = sorted(float(y) for line in dashed for y in line.get_ydata() if not math.isnan(y))
        self.assertEqual(len(got), len(want))
        for a, b in zip(got, want):
            self.assertAlmostEqual(a, b, delta=1e-9 * b)
        self.assertFalse(any(line.get_label() == "_idle" for line in fig.axes[1].lines))

    def test_throttled_hollow_and_named_na_and_method_in_footnote(self):
        fig = self.render(fixture_rows())
        marks = [line for ax in fig.axes for line in ax.lines if line.get_label().startswith("throttled")]
        self.assertEqual(len(marks), 2)  # the one throttled case, in each panel
        self.assertTrue(all(m.get_markerfacecolor() == "none" and len(m.get_xdata()) == 1 for m in marks))
        self.assertEqual([float(m.get_xdata()[0]) for m in marks], [16384.0, 16384.0])
        self.assertIn("throttled (NVML throttle reason during the case)", legend_texts(fig))
        note = footnote(fig)
        self.assertIn("energy_method: nvml_counter", note)
        self.assertIn("random[n=16384]#1/gpu.wavefront[mode=cell] (sw_power_cap)", note)
        self.assertIn("no energy (n/a, not drawn): random[n=1024]#1/cpu.linear", note)

    def test_every_series_its_own_colour_nothing_clipped(self):
        fig = self.render(fixture_rows())
        self.assertEqual(colour_clashes(fig), [])
        self.assertEqual(clipped_or_overlapping(fig), [])
        legend = legend_texts(fig)
        for label in ("gpu.bitparallel", "gpu.wavefront mode=cell", "gpu.wavefront mode=tile"):
            self.assertIn(label, legend)

    def test_units_by_problem(self):
        from dpgpu_plots.fig_energy import work_per_joule_metric, work_unit
        self.assertEqual(work_unit({"problem": "tsp", "c.nodes": "1200"}), "nodes")
        self.assertEqual(work_unit({"problem": "mcm"}), "split evaluations")
        self.assertEqual(work_unit({"problem": "knapsack"}), "cell updates")
        label = work_per_joule_metric([{"problem": "lcs"}, {"problem": "tsp", "c.nodes": "5"}]).label
        self.assertEqual(label, "work per joule (cell updates or nodes)")
        self.assertEqual(work_per_joule_metric([{"problem": "lcs"}]).label, "cell updates per joule")

    def test_without_energy_it_says_why(self):
        rows = [dict(r, energy_j="", work_per_joule="", energy_method="n/a") for r in fixture_rows()]
        with self.assertRaises(PlotError) as err:
            self.render(rows)
        self.assertIn("energy_j", str(err.exception))
        old = [{k: v for k, v in r.items() if not k.startswith(("energy", "work_per", "power", "idle", "gpu."))}
               for r in fixture_rows()]
        with self.assertRaises(PlotError) as err:
            self.render(old)
        self.assertIn("lacks columns energy_j", str(err.exception))

    def test_committed_energy_folder(self):
        from dpgpu_plots import figures
        folder = os.path.join(REPO, "results", "reference", "h100", "energy")
        fig = figures.render(results_mod.load(folder), figures.FigureSpec(kind="energy")).figure
        self.assertEqual(colour_clashes(fig), [])
        self.assertEqual(clipped_or_overlapping(fig), [])
        legend = legend_texts(fig)
        # gpu.wavefront serves LCS and Held-Karp: two series, told apart by problem.
        self.assertIn("gpu.wavefront problem=lcs", legend)
        self.assertIn("gpu.wavefront problem=tsp", legend)
        self.assertEqual(fig.axes[1].get_ylabel().replace("\n", " "),
                         "work per joule (cell updates, nodes or split evaluations)")
        self.assertIn("cpu.omp_dp[threads=16]", footnote(fig))


if __name__ == "__main__":
    unittest.main()
