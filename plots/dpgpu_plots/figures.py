"""Every figure kind, registered: import this module to draw.

The registry and ``render`` are ``kinds.py``; the shared pieces and the line kinds
(runtime, throughput) ``drawing.py``; each other kind its own ``fig_*.py``. Those import
``kinds`` and ``drawing``, never this module, so the package has no import circle.
"""

from __future__ import annotations

from . import (fig_diagonal, fig_energy, fig_gpu_phases, fig_metrics, fig_phases, fig_scaling,  # noqa: F401
               fig_speedup)  # registers every kind
from .drawing import (default_title, log_label, log_ticks, new_figure,  # noqa: F401 (for callers)
                      usable_filtered_rows)
from .kinds import REGISTRY, FigureKind, Output, build, figure_kind, render  # noqa: F401
from .plotspec import FigureSpec  # noqa: F401

__all__ = ["FigureSpec", "Output", "REGISTRY", "build", "render", "figure_kind"]
