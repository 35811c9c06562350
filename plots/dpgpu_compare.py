#!/usr/bin/env python3
"""Compare two results folders case by case (``dpgpu compare BASE NEW``).

    python3 plots/dpgpu_compare.py BASE NEW [--threshold 5%] [--out DIR]

See plots/README.md ("dpgpu compare").
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dpgpu_plots.compare import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
