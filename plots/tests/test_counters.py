"""counters.json: counters labelled and formatted by their declared kind and unit (bytes in
B/KiB/MiB, rates per second, ratios in percent, counts with what they count), throughput in the
work counter's unit; a folder without counters.json keeps the rules on names."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dpgpu_plots import counters, results, style  # noqa: E402
from dpgpu_plots.report import _throughput_text  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "lcs-sweep")

DECLARED = {
    "tsp": {
        "gpu.ivm": {"work_counter": "nodes", "counters": {
            "nodes": {"kind": "count", "unit": "nodes", "help": "nodes visited"},
            "nodes_per_s": {"kind": "rate", "unit": "nodes", "help": "speed"},
            "steal_share": {"kind": "ratio", "unit": "", "help": "share"},
            "state_bytes": {"kind": "bytes", "unit": "", "help": "state"},
            "gpu#.wait_s": {"kind": "seconds", "unit": "", "help": "waiting"}}},
        "cpu.dfs": {"work_counter": "nodes", "counters": {
            "nodes": {"kind": "count", "unit": "nodes", "help": "nodes visited"}}},
        "cpu.held_karp": {"work_counter": "", "counters": {
            "table_bytes": {"kind": "bytes", "unit": "", "help": "table"},
            "nodes": {"kind": "count", "unit": "cells", "help": "a clash on purpose"}}},
    }
}


def declarations() -> counters.Declarations:
    return counters.Declarations(DECLARED)


class DeclarationsTest(unittest.TestCase):
    def test_a_solvers_declaration_and_patterns(self):
        d = declarations()
        self.assertEqual(d.of("tsp", "gpu.ivm", "nodes"), counters.Declaration("count", "nodes", "nodes visited"))
        self.assertEqual(d.of("tsp", "gpu.ivm", "gpu12.wait_s").kind, "seconds")
        self.assertIsNone(d.of("tsp", "gpu.ivm", "gpu.wait_s"))
        self.assertIsNone(d.of("tsp", "gpu.ivm", "unknown"))
        self.assertIsNone(d.of("lcs", "gpu.ivm", "nodes"))

    def test_solvers_must_agree(self):
        d = declarations()
        self.assertEqual(d.common("nodes", ["gpu.ivm", "cpu.dfs"]), counters.Declaration("count", "nodes"))
        self.assertIsNone(d.common("nodes"))  # cpu.held_karp counts cells
        self.assertEqual(d.common("table_bytes").kind, "bytes")

    def test_work_unit(self):
        d = declarations()
        self.assertEqual(d.solver_work_unit("tsp", "gpu.ivm"), "nodes")
        self.assertIsNone(d.solver_work_unit("tsp", "cpu.held_karp"))
        self.assertEqual(d.work_unit(["gpu.ivm", "cpu.dfs"]), "nodes")
        self.assertIsNone(d.work_unit())  # cpu.held_karp's work is the problem's own


class FormatTest(unittest.TestCase):
    def test_values_by_kind(self):
        f = counters.format_value
        self.assertEqual(f(512, counters.Declaration("bytes", "")), "512 B")
        self.assertEqual(f(1536, counters.Declaration("bytes", "")), "1.5 KiB")
        self.assertEqual(f(3.25 * 2 ** 20, counters.Declaration("bytes", "")), "3.25 MiB")
        self.assertEqual(f(1.2e6, counters.Declaration("rate", "nodes")), "1.2 M nodes/s")
        self.assertEqual(f(12.5, counters.Declaration("rate", "")), "12.5/s")
        self.assertEqual(f(0.125, counters.Declaration("ratio", "")), "12.5%")
        self.assertEqual(f(0.0025, counters.Declaration("seconds", "")), "2.5 ms")
        self.assertEqual(f(42, counters.Declaration("count", "launches")), "42 launches")
        self.assertEqual(f(None, counters.Declaration("count", "launches")), "\u2013")

    def test_axis_labels(self):
        label = counters.axis_label
        self.assertEqual(label("nodes", counters.Declaration("count", "nodes")), "nodes (nodes)")
        self.assertEqual(label("x", counters.Declaration("rate", "nodes")), "x (nodes per second)")
        self.assertEqual(label("x", counters.Declaration("bytes", "")), "x (bytes)")
        self.assertEqual(label("x", counters.Declaration("ratio", "")), "x (fraction)")
        self.assertEqual(label("x", counters.Declaration("seconds", "")), "x (s)")


class StyleTest(unittest.TestCase):
    def tearDown(self):
        style.use_counters(None)

    def test_declared_labels_then_the_name_rules_without_a_file(self):
        style.use_counters(declarations(), ["gpu.ivm"])
        self.assertEqual(style.column_label("c.nodes_per_s"), "nodes_per_s (nodes per second)")
        self.assertEqual(style.column_label("c.steal_share"), "steal_share (fraction)")
        self.assertEqual(style.column_label("c.gpu1.wait_s"), "gpu1.wait_s (s)")
        self.assertEqual(style.column_label("throughput"), "throughput (nodes per second)")
        # Not declared: the rules on names.
        self.assertEqual(style.column_label("c.other_bytes"), "other_bytes (bytes)")
        style.use_counters(None)
        self.assertEqual(style.column_label("c.nodes_per_s"), "nodes per second (rate)")
        self.assertEqual(style.column_label("c.nodes"), "nodes (count)")
        self.assertEqual(style.column_label("throughput"), "throughput (work units per second)")

    def test_energy_figures_work_unit(self):
        try:
            from dpgpu_plots.fig_energy import work_unit
        except ImportError as e:  # no Matplotlib
            self.skipTest(str(e))
        row = {"problem": "tsp", "solver": "gpu.ivm", "c.nodes": "5"}
        self.assertEqual(work_unit(row), "nodes")  # by the name rule
        declared = counters.Declarations({"tsp": {"gpu.ivm": {"work_counter": "nodes", "counters": {
            "nodes": {"kind": "count", "unit": "search nodes", "help": ""}}}}})
        style.use_counters(declared, ["gpu.ivm"])
        self.assertEqual(work_unit(row), "search nodes")


class FolderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.folder = os.path.join(self.tmp, "run")
        shutil.copytree(FIXTURE, self.folder)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_an_older_folder_has_none(self):
        self.assertFalse(os.path.exists(os.path.join(self.folder, counters.COUNTERS)))
        self.assertIsNone(results.load(self.folder).counters)

    def test_a_folder_with_counters_json(self):
        with open(os.path.join(self.folder, counters.COUNTERS), "w", encoding="utf-8") as f:
            json.dump({"about": "", "solvers": DECLARED}, f)
        loaded = results.load(self.folder)
        self.assertIsNotNone(loaded.counters)
        self.assertEqual(loaded.counters.of("tsp", "gpu.ivm", "state_bytes").kind, "bytes")
        row = {"problem": "tsp", "solver": "gpu.ivm", "throughput": "2500000"}
        self.assertEqual(_throughput_text(loaded, row), "2.5 M nodes/s")
        row = {"problem": "tsp", "solver": "cpu.held_karp", "throughput": "2500000"}
        self.assertEqual(_throughput_text(loaded, row), "2.5 M/s")

    def test_an_unreadable_file_is_a_warning(self):
        with open(os.path.join(self.folder, counters.COUNTERS), "w", encoding="utf-8") as f:
            f.write("{not json")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertIsNone(results.load(self.folder).counters)
        self.assertIn("counters.json: unreadable", err.getvalue())


if __name__ == "__main__":
    unittest.main()
