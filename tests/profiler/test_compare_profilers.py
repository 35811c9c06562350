"""scripts/compare-profilers.py on made-up metrics.csv pairs: what agrees, what does not,
and the ways a comparison could pass without comparing anything."""
import csv
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare-profilers.py"
COLUMNS = ["case_id", "kernel", "metric", "mean", "launches_profiled", "status", "message", "profile_wall_s",
           "profile_cost_x", "profiler"]


def folder(root, name, rows):
    d = Path(root) / name
    d.mkdir()
    with open(d / "metrics.csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        for case, metric, mean, *rest in rows:
            profiler = rest[0] if rest else "cupti"
            cost = rest[1] if len(rest) > 1 else "3.5"
            w.writerow({"case_id": case, "kernel": "void k<int>(int)", "metric": metric, "mean": mean,
                        "launches_profiled": "20", "status": "ok", "message": "", "profile_wall_s": "0.3",
                        "profile_cost_x": cost, "profiler": profiler})
    return str(d)


def compare(a, b, *extra):
    r = subprocess.run([sys.executable, str(SCRIPT), a, b, *extra], capture_output=True, text=True)
    return r.returncode, r.stdout


class CompareProfilers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.ncu = folder(self.tmp.name, "ncu", [("c/s", "ipc", "0.150", "ncu"), ("c/s", "gld_efficiency", "50.0", "ncu")])

    def tearDown(self):
        self.tmp.cleanup()

    def test_within_tolerance_agrees(self):
        cupti = folder(self.tmp.name, "cupti", [("c/s", "ipc", "0.165"), ("c/s", "gld_efficiency", "50.9")])
        code, out = compare(cupti, self.ncu)
        self.assertEqual(code, 0, out)
        self.assertIn("AGREE (2 metrics compared)", out)

    def test_ipc_off_by_more_than_two_hundredths_fails(self):
        cupti = folder(self.tmp.name, "cupti", [("c/s", "ipc", "0.211"), ("c/s", "gld_efficiency", "50.0")])
        code, out = compare(cupti, self.ncu)
        self.assertEqual(code, 1, out)
        self.assertIn("1 FAILURES", out)

    def test_known_tolerance_passes_and_is_counted(self):
        cupti = folder(self.tmp.name, "cupti", [("c/s", "ipc", "0.175"), ("c/s", "gld_efficiency", "50.0")])
        code, out = compare(cupti, self.ncu, "--known", "c/s:ipc=0.03")
        self.assertEqual(code, 0, out)
        self.assertIn("known (<= 0.03)", out)
        self.assertIn("1 only within a --known tolerance", out)
        code, _ = compare(cupti, self.ncu, "--known", "c/s:ipc=0.02")
        self.assertEqual(code, 1, "a known tolerance narrower than the miss does not pass it")

    def test_a_row_profiled_by_ncu_instead_fails(self):
        cupti = folder(self.tmp.name, "cupti", [("c/s", "ipc", "0.150", "ncu"), ("c/s", "gld_efficiency", "50.0", "ncu")])
        code, out = compare(cupti, self.ncu)
        self.assertEqual(code, 1, out)
        self.assertIn("not profiled by cupti", out)

    def test_a_metric_on_one_side_only_fails(self):
        cupti = folder(self.tmp.name, "cupti", [("other/s", "ipc", "0.150")])
        code, out = compare(cupti, self.ncu)
        self.assertEqual(code, 1, out)
        self.assertIn("only in", out)

    def test_two_empty_folders_fail(self):
        # e.g. both runs skipped every GPU case: nothing measured is not agreement
        code, out = compare(folder(self.tmp.name, "a", []), folder(self.tmp.name, "b", []))
        self.assertEqual(code, 1, out)
        self.assertIn("nothing compared", out)

    def test_cost_over_the_limit_fails(self):
        cupti = folder(self.tmp.name, "cupti", [("c/s", "ipc", "0.150", "cupti", "5.2"),
                                                ("c/s", "gld_efficiency", "50.0", "cupti", "5.2")])
        code, out = compare(cupti, self.ncu)
        self.assertEqual(code, 1, out)
        self.assertIn("OVER 5.0x", out)


if __name__ == "__main__":
    unittest.main()
