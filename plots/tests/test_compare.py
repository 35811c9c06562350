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


def write(directory, cases, gpu="NVIDIA H100 80GB HBM3", valid="true", host=None):
    """cases: {case_id: (status, [times])}; ``valid`` of the ok rows; ``host`` context.json's."""
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
        json.dump({"gpu": {"name": gpu, "driver": "580"}, "host": host or {"cpu": "Xeon"}}, f)
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
        # new -> base: gpu.faster becomes slower (U test on 5 + 5), exit 1
        status, out, _ = self.run_main(new, base, "--out", os.path.join(self.tmp, "o1"))
        self.assertEqual(status, 1)
        self.assertIn("| slower |", out)
        five = write(os.path.join(self.tmp, "five"), {"a/x": ("ok", [0.5, 0.51, 0.49, 0.5, 0.52])})
        faster = write(os.path.join(self.tmp, "faster5"), {"a/x": ("ok", [0.3, 0.31, 0.29, 0.3, 0.32])})
        status, out, _ = self.run_main(five, faster, "--no-figure")
        self.assertEqual(status, 0)
        self.assertIn("| faster |", out)
        status, _, _ = self.run_main(faster, five, "--threshold", "80%", "--no-figure")
        self.assertEqual(status, 0)  # 0.3 -> 0.5 is within 80 %

    def verdict(self, new, case):
        with open(os.path.join(new, "compare", "compare.csv"), newline="") as f:
            return {r["case_id"]: r for r in csv.DictReader(f)}[case]

    def test_three_repetitions_apart_cannot_say_faster(self):
        """3 + 3 repetitions allow at best p = 0.1: ranges apart is not a verdict (issue 36)."""
        base = write(os.path.join(self.tmp, "b3"), {"a/x": ("ok", [0.5, 0.51, 0.49])})
        new = write(os.path.join(self.tmp, "n3"), {"a/x": ("ok", [0.3, 0.31, 0.29])})
        status, out, err = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 0, out + err)  # looks faster: nothing to fail
        row = self.verdict(new, "a/x")
        self.assertEqual(row["verdict"], "needs repetitions")
        self.assertIn("3+3 repetitions cannot reach p < 0.05", row["decided_by"])
        self.assertIn("4 a side", row["decided_by"])
        self.assertIn("too few repetitions for any verdict", out)
        self.assertIn("--set repetitions=4", err)
        # the same 3 + 3, NEW slower: fails the gate, asking for repetitions
        status, out, err = self.run_main(new, base, "--no-figure")
        self.assertEqual(status, 1, out + err)
        self.assertIn("too few repetitions to tell", err)

    def test_one_repetition_ten_times_slower_fails(self):
        """Issue 35 item 11: one repetition, 10x slower, used to be 'ambiguous' and exit 0."""
        base = write(os.path.join(self.tmp, "b1"), {f"a/s{i}": ("ok", [1.0]) for i in range(18)})
        new = write(os.path.join(self.tmp, "n1"), {f"a/s{i}": ("ok", [10.0]) for i in range(18)})
        status, out, err = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 1, out + err)
        self.assertIn("18 needs repetitions", out)
        self.assertIn("1+1 repetitions cannot reach p < 0.05", self.verdict(new, "a/s0")["decided_by"])
        self.assertIn("18 cases look slower beyond the threshold", err)

    def test_overlapping_times_are_ambiguous(self):
        base = write(os.path.join(self.tmp, "bo"), {"a/x": ("ok", [1.0, 0.5, 1.5])})
        new = write(os.path.join(self.tmp, "no"), {"a/x": ("ok", [1.6, 0.7, 1.2])})
        status, out, err = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 0, out + err)
        row = self.verdict(new, "a/x")
        self.assertEqual(row["verdict"], "ambiguous")
        self.assertIn("ranges overlap", row["decided_by"])
        # enough repetitions, still overlapping: the test's p is given
        base = write(os.path.join(self.tmp, "bo5"), {"a/x": ("ok", [1.0, 0.5, 1.5, 0.9, 1.2])})
        new = write(os.path.join(self.tmp, "no5"), {"a/x": ("ok", [1.6, 0.7, 1.2, 1.0, 1.4])})
        self.run_main(base, new, "--no-figure")
        self.assertIn("U test p=", self.verdict(new, "a/x")["decided_by"])
        self.assertEqual(self.verdict(new, "a/x")["verdict"], "ambiguous")

    def test_busy_machine_is_flagged(self):
        cases = {"a/x": ("ok", [1.0, 1.01, 0.99, 1.0, 1.02])}
        quiet = {"cpu": "Xeon", "cores": 2, "load_start": {"loadavg": [0.3, 0.2, 0.1], "busy_processes": []}}
        busy = {"cpu": "Xeon", "cores": 2, "load_start": {
            "loadavg": [16.4, 12.9, 7.3], "busy_processes": [{"pid": 7, "name": "cc1plus", "cpu_percent": 95}]}}
        base = write(os.path.join(self.tmp, "quiet"), cases, host=quiet)
        new = write(os.path.join(self.tmp, "busy"), cases, host=busy)
        status, out, err = self.run_main(base, new, "--no-figure")
        self.assertEqual(status, 0, out + err)
        self.assertIn("NEW ran on a busy machine (load average 16.40 on 2 cores at start; busy at start: "
                      "cc1plus (95%))", out)
        self.assertIn("busy machine", err)
        self.assertNotIn("BASE ran on a busy machine", out)
        status, out, err = self.run_main(base, base, "--no-figure", "--out", os.path.join(self.tmp, "q"))
        self.assertNotIn("busy machine", out + err)
        self.assertNotIn("evidence is weak", out)

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

    def test_out_never_overwrites_a_users_file(self):
        """Issue 35, item 17: --out DIR holding the user's own compare.csv is refused by name,
        nothing written there; what compare wrote itself it rewrites."""
        base, new = self.folders()
        out = os.path.join(self.tmp, "paper")
        os.makedirs(out)
        mine = os.path.join(out, "compare.csv")
        with open(mine, "w") as f:
            f.write("the user's table\n")
        status, _, err = self.run_main(base, new, "--no-figure", "--out", out)
        self.assertEqual(status, 2, err)
        self.assertIn(mine, err)
        self.assertIn("choose another --out", err)
        with open(mine) as f:
            self.assertEqual(f.read(), "the user's table\n")
        self.assertEqual(sorted(os.listdir(out)), ["compare.csv"], "nothing else written either")
        os.remove(mine)
        status, _, err = self.run_main(base, new, "--no-figure", "--out", out)
        self.assertEqual(status, 1, err)  # the comparison's own verdict: a case broke
        status, _, err = self.run_main(base, new, "--no-figure", "--out", out)
        self.assertEqual(status, 1, "compare rewrites the files it wrote: " + err)
        with open(os.path.join(out, compare.MARKER)) as f:
            self.assertEqual(f.read().split(), ["compare.md", "compare.csv"])

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
