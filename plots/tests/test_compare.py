"""`dpgpu compare`: the rank test against known values, verdicts from repetitions, the exit
status that gates CI, and the outputs."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from dpgpu_plots import compare  # noqa: E402

SUMMARY = ["experiment", "case_id", "solver", "status", "valid", "time_median_s", "message"]
RUNS = ["experiment", "case_id", "solver", "rep", "status", "time_s"]


def write(directory, cases, gpu="NVIDIA H100 80GB HBM3", valid="true"):
    """cases: {case_id: (status, [times])}; ``valid`` of the ok rows."""
    os.makedirs(directory)
    with open(os.path.join(directory, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(SUMMARY)
        for case, (status, times) in cases.items():
            median = sorted(times)[len(times) // 2] if times else ""
            w.writerow(["x", case, case.split("/")[-1], status, valid if status == "ok" else "",
                        median, "" if status == "ok" else "boom"])
    with open(os.path.join(directory, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(RUNS)
        for case, (status, times) in cases.items():
            for i, t in enumerate(times):
                w.writerow(["x", case, case.split("/")[-1], i, status, t])
    with open(os.path.join(directory, "context.json"), "w") as f:
        json.dump({"gpu": {"name": gpu, "driver": "580"}, "host": {"cpu": "Xeon"}}, f)
    return directory


class MannWhitneyTest(unittest.TestCase):
    def test_exact_values(self):
        u, p = compare.mann_whitney_u([1, 2, 3], [4, 5, 6])
        self.assertEqual(u, 0)
        self.assertAlmostEqual(p, 2 / 20)  # the most extreme of C(6,3) = 20 splits, both sides
        u, p = compare.mann_whitney_u([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        self.assertAlmostEqual(p, 2 / 252)
        u, p = compare.mann_whitney_u([1, 3, 5, 7], [2, 4, 6, 8])
        self.assertEqual(u, 6)
        self.assertGreater(p, 0.5)

    def test_ties_use_the_normal_approximation(self):
        u, p = compare.mann_whitney_u([1, 1, 1, 2] * 5, [2, 2, 3, 3] * 5)
        self.assertLess(p, 0.001)
        self.assertEqual(compare.mann_whitney_u([1, 1], [1, 1])[1], 1.0)


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-compare-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = compare.main(list(args))
        return status, out.getvalue(), err.getvalue()

    def folders(self, new_gpu="NVIDIA H100 80GB HBM3"):
        base = write(os.path.join(self.tmp, "base"), {
            "a/cpu.same": ("ok", [1.00, 1.01, 0.99, 1.02, 1.00]),
            "a/gpu.faster": ("ok", [1.0, 1.02, 0.98, 1.01, 0.99]),
            "a/gpu.noisy": ("ok", [1.0, 0.5, 1.5]),
            "a/gpu.breaks": ("ok", [1.0, 1.0, 1.0]),
            "a/gpu.gone": ("ok", [1.0, 1.1, 0.9]),
        })
        new = write(os.path.join(self.tmp, "new"), {
            "a/cpu.same": ("ok", [1.01, 1.00, 1.02, 0.99, 1.01]),
            "a/gpu.faster": ("ok", [0.50, 0.51, 0.49, 0.52, 0.53]),
            "a/gpu.noisy": ("ok", [1.6, 0.7, 1.2]),
            "a/gpu.breaks": ("error", []),
            "a/gpu.new": ("ok", [1.0, 1.0, 1.0]),
        }, gpu=new_gpu)
        return base, new

    def test_verdicts_and_exit(self):
        base, new = self.folders()
        status, out, err = self.run_main(base, new, "--threshold", "5%")
        self.assertEqual(status, 1)  # a case broke
        with open(os.path.join(new, "compare", "compare.csv"), newline="") as f:
            rows = {r["case_id"]: r for r in csv.DictReader(f)}
        self.assertEqual(rows["a/cpu.same"]["verdict"], "same")
        self.assertEqual(rows["a/gpu.faster"]["verdict"], "faster")
        self.assertIn("U test p=0.00794", rows["a/gpu.faster"]["decided_by"])
        self.assertEqual(rows["a/gpu.noisy"]["verdict"], "ambiguous")
        self.assertEqual(rows["a/gpu.breaks"]["verdict"], "broken")
        self.assertEqual(rows["a/gpu.gone"]["verdict"], "only in base")
        self.assertEqual(rows["a/gpu.new"]["verdict"], "only in new")
        self.assertIn("6 cases: 1 faster, 1 same, 1 ambiguous, 1 broken, 1 only in base, 1 only in new", out)
        self.assertTrue(os.path.isfile(os.path.join(new, "compare", "compare.md")))
        self.assertNotIn("contexts differ", out)

    def test_cases_missing_from_new_fail_unless_allowed(self):
        """A NEW run that stopped or crashed before some cases of BASE fails a CI gate."""
        base = write(os.path.join(self.tmp, "m-base"), {"a/x": ("ok", [1.0, 1.0, 1.0]),
                                                       "a/y": ("ok", [1.0, 1.0, 1.0])})
        new = write(os.path.join(self.tmp, "m-new"), {"a/x": ("ok", [1.0, 1.0, 1.0])})
        status, out, err = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 1, out + err)
        self.assertIn("1 cases of BASE are missing from NEW", err)
        status, out, err = self.run_main(base, new, "--no-figure", "--allow-missing")
        self.assertEqual(status, 0, out + err)

    def test_a_summary_row_cut_short_is_unreadable_and_fails(self):
        cases = {"a/x": ("ok", [1.0, 1.0, 1.0]), "a/y": ("ok", [1.0, 1.0, 1.0])}
        base = write(os.path.join(self.tmp, "c-base"), cases)
        new = write(os.path.join(self.tmp, "c-new"), cases)
        summary = os.path.join(new, "summary.csv")
        with open(summary, "rb") as f:
            text = f.read()
        with open(summary, "wb") as f:
            f.write(text[:-12])  # a write stopped mid-row
        status, out, err = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 1, out + err)
        with open(os.path.join(new, "compare", "compare.csv"), newline="") as f:
            rows = {r["case_id"]: r for r in csv.DictReader(f)}
        self.assertEqual(rows["a/y"]["verdict"], "unreadable")
        self.assertEqual(rows["a/x"]["verdict"], "same")

    def test_unchecked_answers_compare_like_checked_ones(self):
        """valid=n/a (a length-only solver) is neither invalid nor broken; false is."""
        cases = {"a/cpu.length": ("ok", [1.0, 1.01, 0.99, 1.0, 1.02])}
        base = write(os.path.join(self.tmp, "na-base"), cases, valid="n/a")
        new = write(os.path.join(self.tmp, "na-new"), cases, valid="n/a")
        status, out, _ = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 0, out)
        self.assertIn("1 cases: 1 same", out)
        wrong = write(os.path.join(self.tmp, "na-wrong"), cases, valid="false")
        status, out, _ = self.run_main(base, wrong, "--no-figure")
        self.assertEqual(status, 1, out)
        self.assertIn("broken", out)

    def test_slower_beyond_threshold_fails_and_faster_passes(self):
        base, new = self.folders()
        # new -> base: gpu.faster becomes slower (ranges apart), exit 1
        status, out, _ = self.run_main(new, base, "--out", os.path.join(self.tmp, "o1"))
        self.assertEqual(status, 1)
        self.assertIn("slower", out)
        only_same = write(os.path.join(self.tmp, "same"), {"a/gpu.faster": ("ok", [0.5, 0.51, 0.49])})
        faster = write(os.path.join(self.tmp, "faster"), {"a/gpu.faster": ("ok", [0.3, 0.31, 0.29])})
        status, out, _ = self.run_main(only_same, faster)
        self.assertEqual(status, 0)
        self.assertIn("min\u2013max ranges apart", out)  # 3 reps: the U test cannot reach 0.05
        status, _, _ = self.run_main(faster, only_same, "--threshold", "80%")
        self.assertEqual(status, 0)  # 0.3 -> 0.5 is within 80 %

    def test_figure_labels_and_png(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("Matplotlib not importable by this Python")
        sys.path.insert(0, HERE)
        from figure_checks import clipped_texts, overlapping_texts
        base, new = self.folders()
        self.run_main(base, new)
        self.assertTrue(os.path.isfile(os.path.join(new, "compare", "compare.png")))
        comparisons = compare.compare(compare.results_mod.load(base), compare.results_mod.load(new),
                                      0.05, 0.05)
        fig = compare.figure(comparisons, 0.05, "t")
        labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        self.assertEqual(sorted(labels), ["cpu.same", "gpu.faster", "gpu.noisy"])  # "a/" dropped
        self.assertEqual(overlapping_texts(fig), [])
        self.assertEqual(clipped_texts(fig), [])

    def test_contexts_that_differ_are_named(self):
        base, new = self.folders(new_gpu="NVIDIA H200")
        _, out, err = self.run_main(base, new)
        self.assertIn("contexts differ", out)
        self.assertIn("GPU: NVIDIA H100 80GB HBM3 \u2192 NVIDIA H200", out)

    def test_bad_input(self):
        base, _ = self.folders()
        status, _, err = self.run_main(base, os.path.join(self.tmp, "missing"))
        self.assertEqual(status, 2)
        self.assertIn("no such results folder", err)
        status, _, err = self.run_main(base, base, "--threshold", "lots")
        self.assertEqual(status, 2)
        self.assertIn("--threshold 'lots'", err)
        other = write(os.path.join(self.tmp, "other"), {"zzz/cpu.x": ("ok", [1.0])})
        status, _, err = self.run_main(base, other)
        self.assertEqual(status, 2)
        self.assertIn("share no case id", err)


if __name__ == "__main__":
    unittest.main()
