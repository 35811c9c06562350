"""What the plot tests share: which optional modules this Python can import (figure tests
skip without Matplotlib, experiment-file tests without PyYAML), the skip decorators, and the
dpgpu-plot command run in this process."""

import importlib
import unittest
import io
from contextlib import redirect_stderr, redirect_stdout


def importable(module: str) -> bool:
    try:
        importlib.import_module(module)
        return True
    except ImportError:
        return False


HAVE_MPL = importable("matplotlib")
HAVE_YAML = importable("yaml")

needs_mpl = unittest.skipUnless(HAVE_MPL, "Matplotlib not importable by this Python")
needs_yaml = unittest.skipUnless(HAVE_YAML, "PyYAML not importable by this Python")


def run_cli(*args):
    """(exit status, stdout, stderr) of `dpgpu-plot args...` run in this process."""
    from dpgpu_plots.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()
