"""dpgpu plot never overwrites a file it did not draw (issue 35, item 17): a user's
figures/runtime.png is refused by name and kept, and never enters figures/.dpgpu-figures
(whose files the next `dpgpu run --filter` deletes); what plot drew it redraws freely, and
--adopt-unlisted takes over files dpgpu drew before that list existed."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from dpgpu_plots import cli  # noqa: E402

from plot_test_support import needs_mpl, run_cli  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "lcs-sweep")
USER = b"the user's own drawing, not dpgpu's"


def listed(folder: str) -> list[str]:
    try:
        with open(os.path.join(folder, "figures", cli.MANIFEST), encoding="utf-8") as f:
            return f.read().split()
    except FileNotFoundError:
        return []


class PlotOverwriteTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.mkdtemp(prefix="dpgpu-overwrite-")
        self.addCleanup(shutil.rmtree, tmp)
        self.folder = os.path.join(tmp, "R")
        shutil.copytree(FIXTURE, self.folder)
        os.makedirs(os.path.join(self.folder, "figures"))

    def user_file(self, name: str) -> str:
        path = os.path.join(self.folder, "figures", name)
        with open(path, "wb") as f:
            f.write(USER)
        return path

    def assert_kept(self, path: str):
        with open(path, "rb") as f:
            self.assertEqual(f.read(), USER, f"{path} was overwritten")

    @needs_mpl
    def test_a_users_figure_is_refused_by_name_and_kept(self):
        mine = self.user_file("runtime.png")
        status, _, err = run_cli(self.folder, "--format", "png,pdf")
        self.assertEqual(status, 2, err)
        self.assertIn(mine, err)
        self.assertIn("not drawn by dpgpu plot", err)
        self.assertIn("--adopt-unlisted", err)
        self.assert_kept(mine)
        self.assertNotIn("runtime.png", listed(self.folder))
        self.assertFalse(os.path.exists(os.path.join(self.folder, "figures", "runtime.pdf")),
                         "nothing of a refused figure is written")

    @needs_mpl
    def test_a_listed_figure_is_redrawn_and_a_user_file_beside_it_is_not_listed(self):
        status, _, err = run_cli(self.folder, "--format", "png")
        self.assertEqual(status, 0, err)
        notes = self.user_file("notes.txt")
        status, _, err = run_cli(self.folder, "--format", "png")
        self.assertEqual(status, 0, err)
        self.assertEqual(listed(self.folder), ["runtime.png"])
        self.assert_kept(notes)

    @needs_mpl
    def test_adopt_unlisted_takes_the_file_over(self):
        path = self.user_file("runtime.png")
        status, _, err = run_cli(self.folder, "--format", "png", "--adopt-unlisted")
        self.assertEqual(status, 0, err)
        with open(path, "rb") as f:
            self.assertNotEqual(f.read(), USER)
        self.assertEqual(listed(self.folder), ["runtime.png"])

    def test_texts_are_refused_too(self):
        mine = self.user_file("speedup.md")
        with self.assertRaises(cli.PlotError) as e:
            cli.save_texts({"md": "| a |\n", "tex": "x"}, self.folder, "speedup")
        self.assertIn(mine, str(e.exception))
        self.assert_kept(mine)
        self.assertEqual(listed(self.folder), [])
        self.assertFalse(os.path.exists(os.path.join(self.folder, "figures", "speedup.tex")))


if __name__ == "__main__":
    unittest.main()
