"""`dpgpu report`: report.html and report.md from a results folder, and the page opened in
a real browser (headless Chromium): every figure loads, one table row per case, and a
screenshot is kept. The browser test skips when no Chromium is installed."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
sys.path.insert(0, PLOTS)

from dpgpu_plots import report  # noqa: E402
from dpgpu_plots import results as results_mod  # noqa: E402

from plot_test_support import HAVE_MPL  # noqa: E402


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def output_dir() -> str:
    """Where the screenshot is kept: $DPGPU_TEST_OUTPUT, else build/test-output/ of the
    repository when there is a build folder, else a temporary folder (printed)."""
    out = os.environ.get("DPGPU_TEST_OUTPUT")
    if not out:
        build = os.path.join(os.path.dirname(PLOTS), "build")
        out = os.path.join(build, "test-output") if os.path.isdir(build) else tempfile.mkdtemp()
    os.makedirs(out, exist_ok=True)
    return out


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


@unittest.skipUnless(HAVE_MPL, "Matplotlib not importable by this Python")
class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dpgpu-report-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.dir = os.path.join(self.tmp, "lcs-profiled")
        shutil.copytree(os.path.join(HERE, "fixtures", "lcs-profiled"), self.dir)
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            self.assertEqual(report.main([self.dir]), 0)
        self.rows = results_mod.load(self.dir).rows

    def test_markdown_has_a_row_per_case_context_and_failures(self):
        with open(os.path.join(self.dir, "report.md"), encoding="utf-8") as f:
            md = f.read()
        table = md.split("## Cases")[1].split("## Failures")[0]
        body = [line for line in table.splitlines() if line.startswith("| ") and "case |" not in line]
        self.assertEqual(len(body), len(self.rows))
        self.assertIn("**GPU**: NVIDIA H100 80GB HBM3", md)
        self.assertIn("## Profiler metrics", md)
        self.assertIn("![", md)  # figures linked
        for r in self.rows:
            self.assertIn(r["case_id"], table)

    def test_html_is_self_contained(self):
        with open(os.path.join(self.dir, "report.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertNotIn('src="figures/', page)
        self.assertGreater(page.count('src="data:image/png;base64,'), 0)
        self.assertEqual(page.count('<tr class="') + page.count("<tr>"),
                         page.count("<tr"))  # every row well formed

    def test_valid_not_applicable_and_known_optimum(self):
        """A length-only solver's n/a (summary.csv says it since issue 17) and a known
        optimum column reach the case table; n/a rows are drawn, not failures."""
        path = os.path.join(self.dir, "summary.csv")
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        fields = list(rows[0].keys()) + ["known_optimum"]
        for r in rows:
            if r["solver"] == "cpu.linear" and r["status"] == "ok":
                r["valid"] = "n/a"
            r["known_optimum"] = r["objective"] if r["status"] == "ok" else ""
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            self.assertEqual(report.main([self.dir, "--no-plot"]), 0)
        with open(os.path.join(self.dir, "report.md"), encoding="utf-8") as f:
            md = f.read()
        cases = md.split("## Cases")[1].split("## Failures")[0]
        failures = md.split("## Failures")[1].split("## ")[0]
        linear = [line for line in cases.splitlines() if "| cpu.linear |" in line and "| ok |" in line]
        self.assertTrue(linear, cases)
        for line in linear:
            self.assertIn("| ok | n/a |", line)
        self.assertIn("None: every case that ran is ok and valid.", failures)
        self.assertIn("512 (known 512)", cases)
        results = results_mod.load(self.dir)
        self.assertTrue(any(r["valid"] == "n/a" for r in results.usable_rows()))

    def test_energy_columns_and_throttled_mark(self):
        """Where the folder has energy columns (issue 28), the case table gives J/solve and W
        per row, the method name where a case measured none, and THROTTLED with the flags;
        a folder without them keeps the old table."""
        md = read(os.path.join(self.dir, "report.md"))
        self.assertNotIn("energy/solve", md)
        path = os.path.join(self.dir, "summary.csv")
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        extra = ["energy_method", "energy_j", "power_w", "gpu.throttle_flags", "gpu.throttled"]
        gpu = [r for r in rows if r["solver"].startswith("gpu.") and r["status"] == "ok"]
        for k, r in enumerate(rows):
            ok = r["status"] == "ok"
            on_gpu = r["solver"].startswith("gpu.")
            hot = r is gpu[0]
            r.update({"energy_method": ("nvml_counter" if on_gpu else "n/a") if ok else "",
                      "energy_j": f"{0.25 * (k + 1):g}" if ok and on_gpu else "",
                      "power_w": f"{100 + k}.4" if ok and on_gpu else "",
                      "gpu.throttle_flags": "sw_power_cap,sw_thermal" if hot else "",
                      "gpu.throttled": ("true" if hot else "false") if ok and on_gpu else ""})
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            self.assertEqual(report.main([self.dir, "--no-plot"]), 0)
        md = read(os.path.join(self.dir, "report.md"))
        cases = md.split("## Cases")[1].split("## Failures")[0]
        lines = {line.split(" | ")[0][2:]: line for line in cases.splitlines() if line.startswith("| ")}
        head = [h.strip() for h in lines["case"].strip("| ").split(" | ")]
        self.assertEqual(head[head.index("throughput") + 1:head.index("throughput") + 4],
                         ["energy/solve", "power", "throttle"])
        for k, r in enumerate(rows):
            cells = [c.strip() for c in lines[r["case_id"]].strip("| ").split(" | ")]
            energy, power, mark = (cells[head.index(h)] for h in ("energy/solve", "power", "throttle"))
            if r["status"] != "ok":
                self.assertEqual((energy, power, mark), ("\u2013",) * 3)
            elif r["solver"].startswith("gpu."):
                joules = 0.25 * (k + 1)
                self.assertEqual(energy, f"{joules * 1e3:.3g} mJ" if joules < 1 else f"{joules:.3g} J")
                self.assertEqual(power, f"{100 + k} W")
                self.assertEqual(mark, "THROTTLED (sw_power_cap,sw_thermal)" if r is gpu[0] else "no")
            else:
                self.assertEqual((energy, power, mark), ("n/a", "\u2013", "\u2013"))
        self.assertIn("1 throttled", md)
        self.assertIn("energy_method: n/a, nvml_counter", md)
        page = read(os.path.join(self.dir, "report.html"))
        self.assertEqual(page.count('class="throttled"') + page.count('class="noisy throttled"'), 1)

    def test_page_in_headless_chromium(self):
        browser = chromium()
        if not browser:
            self.skipTest("no Chromium installed (Debian: apt-get install chromium)")
        page = "file://" + os.path.abspath(os.path.join(self.dir, "report.html"))
        flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--virtual-time-budget=10000"]
        dom = subprocess.run(flags + ["--dump-dom", page], capture_output=True, text=True,
                             timeout=120).stdout
        body = re.search(r"<body([^>]*)>", dom)
        self.assertIsNotNone(body, dom[:500])
        attrs = dict(re.findall(r'data-([a-z-]+)="(\d+)"', body.group(1)))
        figures = len([f for f in os.listdir(os.path.join(self.dir, "figures")) if f.endswith(".png")])
        self.assertGreater(figures, 0)
        self.assertEqual(attrs.get("figures"), str(figures), attrs)
        self.assertEqual(attrs.get("figures-loaded"), str(figures), attrs)
        self.assertEqual(attrs.get("case-rows"), str(len(self.rows)), attrs)
        shot = os.path.join(output_dir(), "report-screenshot.png")
        subprocess.run(flags + ["--window-size=1400,3000", f"--screenshot={shot}", page],
                       capture_output=True, timeout=120)
        self.assertTrue(os.path.isfile(shot) and os.path.getsize(shot) > 10000, shot)
        print(f"\nscreenshot: {shot}", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()


class MissingCasesTest(unittest.TestCase):
    """A run stopped after some of its planned cases is not reported as complete (issue 30, 10)."""

    def test_planned_cases_without_rows_are_counted_and_named(self):
        tmp = tempfile.mkdtemp(prefix="dpgpu-report-missing-")
        self.addCleanup(shutil.rmtree, tmp)
        with open(os.path.join(tmp, "summary.csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["case_id", "solver", "status", "valid", "reps", "time_median_s"])
            w.writerow(["i#1/cpu.a", "cpu.a", "ok", "true", "3", "0.5"])
        with open(os.path.join(tmp, "plan.json"), "w", encoding="utf-8") as f:
            f.write('{"fingerprint": {"cases": ["i#1/cpu.a", "i#1/cpu.b", "i#2/cpu.a"]}}\n')
        results = results_mod.load(tmp)
        self.assertEqual(report.missing_cases(results, results.rows), (3, ["i#1/cpu.b", "i#2/cpu.a"]))
        if not HAVE_MPL:
            self.skipTest("Matplotlib not importable by this Python: the page itself is not built")
        _, md = report.build(results)
        self.assertIn("2 of 3 planned cases missing", md)
        missing = md.split("## Missing")[1]
        self.assertIn("i#1/cpu.b", missing)
        self.assertIn("i#2/cpu.a", missing)
        self.assertIn("--resume", missing)


@unittest.skipUnless(HAVE_MPL, "Matplotlib not importable by this Python")
class ReportKeepsUsersFilesTest(unittest.TestCase):
    """report overwrites only what it wrote (.dpgpu-report lists it): a user's report.md in
    the results folder is named and kept, exit 2; --adopt-unlisted takes it over."""

    def test_a_users_report_md_is_refused_and_kept(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "lcs-profiled")
            shutil.copytree(os.path.join(HERE, "fixtures", "lcs-profiled"), d)
            with open(os.path.join(d, "report.md"), "w", encoding="utf-8") as f:
                f.write("my notes\n")
            err = io.StringIO()
            with redirect_stdout(io.StringIO()), redirect_stderr(err):
                self.assertEqual(report.main([d, "--no-plot"]), 2)
            self.assertIn("report.md: not written by dpgpu report", err.getvalue())
            self.assertEqual(read(os.path.join(d, "report.md")), "my notes\n")
            self.assertFalse(os.path.exists(os.path.join(d, "report.html")))
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                self.assertEqual(report.main([d, "--no-plot", "--adopt-unlisted"]), 0)
            self.assertNotEqual(read(os.path.join(d, "report.md")), "my notes\n")
            # Written by report now: a second report needs no flag.
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                self.assertEqual(report.main([d, "--no-plot"]), 0)
            self.assertEqual(sorted(read(os.path.join(d, ".dpgpu-report")).split()),
                             ["report.html", "report.md"])
