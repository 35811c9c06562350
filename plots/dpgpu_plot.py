#!/usr/bin/env python3
"""Draw figures from a dpgpu results folder.

    python3 plots/dpgpu_plot.py RESULTS_DIR [--figure NAME[,NAME]] [--format png,pdf] [--x i.n]

Draws the figures the plot: section of RESULTS_DIR/experiment.yaml declares (else
runtime), writes RESULTS_DIR/figures/NAME.FORMAT (png and pdf by default) and prints each
path. Needs Matplotlib; a Python
that has it: `$(plots/find_python.sh) plots/dpgpu_plot.py ...`. See plots/README.md.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dpgpu_plots.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
