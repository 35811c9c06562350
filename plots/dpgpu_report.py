#!/usr/bin/env python3
"""Write RESULTS_DIR/report.html and report.md (``dpgpu report RESULTS_DIR``).

    python3 plots/dpgpu_report.py RESULTS_DIR [--no-plot]

See plots/README.md ("dpgpu report").
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dpgpu_plots.report import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
