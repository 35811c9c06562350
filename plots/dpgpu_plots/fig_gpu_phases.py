"""The ``gpu_phases`` figure: where each GPU of a multi-GPU case spends its time.

A solver that runs one instance over several GPUs records per-GPU counters
``c.gpu<i>.<phase>_s`` (gpu.bitparallel: compute, wait, fill, drain, peer; gpu.ivm: compute,
steal, peer, wait). One panel per case (rows of summary.csv, medians over repetitions), one
stacked bar per GPU, one colour per phase (the same phase the same colour in every panel),
and a dashed line at the case's median run time: a GPU whose bar stops well below the line
idles, and a tall wait or peer segment says where the scaling is lost. ``phases`` picks and
orders the stacked names; by default every name found, compute first. Rows without any
per-GPU counter (one-GPU cases) are left out and counted in the footnote.
"""

from __future__ import annotations

import re

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .errors import PlotError
from .drawing import (FigureSpec, figure_kind, finish, new_figure, panel_grid, usable_filtered_rows)
from .results import Results, Row, number
from .select import case_labels, resolve_column

TOTAL = "time_median_s"
PER_GPU = re.compile(r"^c\.gpu(\d+)\.([A-Za-z][A-Za-z0-9]*)_s$")
# Fixed, distinct colours for the phases the solvers record; any other name takes the next
# unused colour of EXTRA, in order, so no two phases of a figure share a colour.
COLOURS = {"compute": "#ff7f0e", "steal": "#9467bd", "peer": "#1f77b4", "wait": "#d62728",
           "fill": "#7f7f7f", "drain": "#bcbd22"}
EXTRA = ("#2ca02c", "#8c564b", "#e377c2", "#17becf", "#aec7e8", "#98df8a")
ORDER = ("compute", "steal", "peer", "wait", "fill", "drain")


def per_gpu_columns(columns) -> dict[str, dict[int, str]]:
    """{phase: {gpu index: column}} of the ``c.gpu<i>.<phase>_s`` columns."""
    out: dict[str, dict[int, str]] = {}
    for c in columns:
        m = PER_GPU.match(c)
        if m:
            out.setdefault(m.group(2), {})[int(m.group(1))] = c
    return out


def phase_colours(phases: list[str]) -> dict[str, str]:
    spare = [c for c in EXTRA if c not in COLOURS.values()]
    out = {}
    for p in phases:
        out[p] = COLOURS.get(p) or spare.pop(0)
    return out


def _chosen_phases(found: dict[str, dict[int, str]], spec: FigureSpec) -> list[str]:
    wanted = spec.opt("phases")
    if wanted:
        for name in wanted:
            if name not in found:
                raise PlotError(f"{spec.where()}: phases: no per-GPU column c.gpu<i>.{name}_s in summary.csv "
                                f"(per-GPU phases: {', '.join(sorted(found)) or 'none'})")
        return list(wanted)
    order = {name: i for i, name in enumerate(ORDER)}
    return sorted(found, key=lambda p: (order.get(p, len(order)), p))


def _bars(row: Row, found: dict[str, dict[int, str]], phases: list[str]) -> dict[int, dict[str, float]]:
    """{gpu: {phase: seconds}} of one row, GPUs with at least one value."""
    out: dict[int, dict[str, float]] = {}
    for p in phases:
        for g, column in found[p].items():
            v = number(row.get(column))
            if v is not None:
                out.setdefault(g, {})[p] = v
    return dict(sorted(out.items()))


def _unavailable(results: Results):
    return None if per_gpu_columns(results.columns) else "no per-GPU counters (c.gpu<i>.<phase>_s) in summary.csv"


@figure_kind("gpu_phases", unavailable=_unavailable)
def gpu_phases_figure(results: Results, spec: FigureSpec):
    found = per_gpu_columns(results.columns)
    if not found:
        raise PlotError(f"{results.summary_path}: no per-GPU counters (c.gpu<i>.<phase>_s); multi-GPU "
                        f"solvers record them with ctx.add(\"gpu<i>.<phase>_s\", ...)")
    phases = _chosen_phases(found, spec)
    rows = usable_filtered_rows(results, spec)
    cases = [(r, _bars(r, found, phases)) for r in rows]
    left_out = sum(1 for _, b in cases if not b)
    cases = [(r, b) for r, b in cases if b]
    if not cases:
        raise results.no_rows_error("no usable row has a per-GPU counter (one-GPU cases have none)")
    label_columns = None
    if spec.opt("series"):
        label_columns = [c if c in ("solver", "instance") else resolve_column(c, results.columns, spec.where(), "series")
                         for c in spec.opt("series")]
    labels = case_labels([r for r, _ in cases], label_columns)
    colours = phase_colours(phases)
    nrows, ncols, figsize = panel_grid(len(cases))
    fig = new_figure(figsize)
    for k, ((row, bars), label) in enumerate(zip(cases, labels)):
        ax = fig.add_subplot(nrows, ncols, k + 1)  # own y scale: a 4-GPU case is short beside a 2-GPU one
        gpus = list(bars)
        for x, g in enumerate(gpus):
            bottom = 0.0
            for p in phases:
                v = bars[g].get(p)
                if v:
                    ax.bar(x, v, bottom=bottom, width=0.7, color=colours[p], edgecolor="white", linewidth=0.5)
                    bottom += v
        total = number(row.get(TOTAL))
        if total is not None:
            ax.axhline(total, color="black", linestyle="--", linewidth=0.9)
        ax.set_xticks(range(len(gpus)))
        ax.set_xticklabels([f"GPU {g}" for g in gpus], fontsize=8)
        ax.set_title(label, fontsize=9)
        if spec.opt("logy"):
            ax.set_yscale("log")
        if k % ncols == 0:
            ax.set_ylabel("time per GPU, median (s)")
        ax.grid(True, axis="y", linewidth=0.5, alpha=0.4)
    handles = [Patch(facecolor=colours[p], label=p) for p in phases]
    handles.append(Line2D([], [], color="black", linestyle="--", label="the case's median run time"))
    notes = ["bars: per-GPU counters c.gpu<i>.<phase>_s (medians over repetitions), stacked"]
    if left_out:
        notes.append(f"{left_out} row(s) without per-GPU counters left out")
    finish(fig, results, "; ".join(notes), spec.opt("title"),
           legend=(handles, [h.get_label() for h in handles]), spec=spec)
    return fig
