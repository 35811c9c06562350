"""The ``phases`` figure: where a case's time goes.

Stacked bars of the phase medians of summary.csv (``phase.alloc_s``, ``phase.h2d_s``,
``phase.compute_s``, ``phase.d2h_s``, then any other ``phase.*_s`` column, or the spec's
``phases`` list), in seconds, one bar per case; the case's median run time
(``time_median_s``) is a marker in its solver's colour and marker, so a gap between the
bar's top and the marker is time outside any phase. With an ``x`` column the bars are
grouped by its values (one bar per solver variant in each group).
"""

from __future__ import annotations

import statistics
from typing import Optional

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import style
from .errors import PlotError
from .drawing import (RUNTIME, FigureSpec, category_axes, category_layout, figure_kind, finish,
                      limit_category_axes, new_figure, usable_filtered_rows)
from .results import PHASE_PREFIX, Results, Row, number
from .select import case_labels, resolve_column
from .series import build_series, choose_x

TOTAL = "time_median_s"


def phase_name(column: str) -> str:
    """``phase.h2d_s`` -> ``h2d``."""
    name = column[len(PHASE_PREFIX):]
    return name[:-2] if name.endswith("_s") else name


def phase_columns(results: Results, rows: list[Row], spec: FigureSpec) -> list[str]:
    """The phase columns to stack, in pipeline order (alloc, h2d, compute, d2h, others)."""
    present = results.columns_with_prefix(PHASE_PREFIX)
    wanted = spec.opt("phases")
    if wanted:
        out = []
        for name in wanted:
            column = name if name in present else f"{PHASE_PREFIX}{name}_s"
            if column not in present:
                raise PlotError(f"{spec.where()}: phases: no column {name!r} or {column!r} in "
                                f"summary.csv (phase columns: {', '.join(present) or 'none'})")
            out.append(column)
        return out
    with_values = [c for c in present if any(number(r.get(c)) is not None for r in rows)]
    if not with_values:
        raise PlotError(f"{results.summary_path}: no phase.* column has values among the "
                        f"{len(rows)} usable rows (phase columns: {', '.join(present) or 'none'}); "
                        f"solvers record phases with ctx.phase(...)")
    order = {name: i for i, name in enumerate(style.PHASE_ORDER)}
    return sorted(with_values, key=lambda c: (order.get(phase_name(c), len(order)),
                                              present.index(c)))


def _unavailable(results: Results) -> Optional[str]:
    rows = results.usable_rows()
    if any(number(r.get(c)) is not None for r in rows
           for c in results.columns_with_prefix(PHASE_PREFIX)):
        return None
    return "no phase times in summary.csv"


def _median(values: list[Optional[float]]) -> Optional[float]:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def _total_style(solver: str, variant: int) -> dict:
    """The total-time marker: the solver's colour and marker; variants alternate between
    filled and hollow (and their bars differ in hatch)."""
    return {"linestyle": "none", "markersize": 7, "markeredgewidth": 0.8,
            "markeredgecolor": "black" if variant % 2 == 0 else style.series_colour(solver, variant),
            "color": style.series_colour(solver, variant), "marker": style.series_marker(solver, variant),
            "fillstyle": "full" if variant % 2 == 0 else "none"}


@figure_kind("phases", unavailable=_unavailable)
def phases_figure(results: Results, spec: FigureSpec) -> Figure:
    rows = usable_filtered_rows(results, spec)
    columns = phase_columns(results, rows, spec)
    rows = [r for r in rows if number(r.get(TOTAL)) is not None
            or any(number(r.get(c)) is not None for c in columns)]
    if not rows:
        raise results.no_rows_error(f"no usable row has a phase time or {TOTAL}")

    # bars: (position, solver, variant index, {column: seconds}, total seconds)
    bars = []
    legend_series = []
    label_columns = None
    if spec.opt("series"):
        label_columns = [c if c in ("solver", "instance") else
                         resolve_column(c, results.columns, spec.where(), "series")
                         for c in spec.opt("series")]
    if spec.x:
        x = choose_x(results, rows, spec.x)
        series = build_series(results, rows, x, RUNTIME, label_columns)
        xs = sorted({p.x for s in series for p in s.points})
        width = 0.8 / len(series)
        for si, s in enumerate(series):
            members = [r for r in rows if r.get("solver") == s.solver
                       and all(r.get(c, "") == v for c, v in s.variant)]
            for gi, xv in enumerate(xs):
                at_x = [r for r in members if number(r.get(x)) == xv]
                if not at_x:
                    continue
                phases = {c: _median([number(r.get(c)) for r in at_x]) for c in columns}
                total = _median([number(r.get(TOTAL)) for r in at_x])
                bars.append((gi - 0.4 + width * (si + 0.5), s.solver, s.variant_index, phases, total))
            legend_series.append((s.label, s.solver, s.variant_index))
        tick_positions = list(range(len(xs)))
        tick_labels = [style.format_tick(v) for v in xs]
        xlabel = style.param_label(x)
    else:
        labels = case_labels(rows, label_columns)
        width = 0.7
        for i, r in enumerate(rows):
            bars.append((i, r.get("solver", ""), 0,
                         {c: number(r.get(c)) for c in columns}, number(r.get(TOTAL))))
        tick_positions, tick_labels = list(range(len(rows))), labels
        xlabel = "case"

    style.plan_series((solver, variant) for _, solver, variant, _, _ in bars)
    slots = len(tick_labels)
    slot_in = 0.45 if not spec.x else max(0.5, 0.3 * len(legend_series) + 0.2)
    per, nrows, figsize = category_layout(slots, slot_in, labels=tick_labels)
    fig = new_figure(figsize)
    panels = category_axes(fig, slots, per, nrows)
    for ax, _, _ in panels:
        for position, solver, variant, phases, total in bars:
            bottom = 0.0
            for column in columns:
                value = phases.get(column)
                if value is None:
                    continue
                ax.bar(position, value, bottom=bottom, width=width, hatch=style.variant_hatch(variant),
                       color=style.phase_colour(phase_name(column)), edgecolor="white", linewidth=0.5)
                bottom += value
            if total is not None:
                ax.plot([position], [total], **_total_style(solver, variant))
        ax.set_ylabel("time, median over repetitions (s)")
        if spec.opt("logy"):
            ax.set_yscale("log")
        ax.grid(True, axis="y", linewidth=0.5, alpha=0.4)
    limit_category_axes(panels, tick_labels, xlabel)

    handles = [Patch(facecolor=style.phase_colour(phase_name(c)), label=phase_name(c))
               for c in columns]
    if legend_series:
        handles += [Line2D([], [], label=f"total: {label}", **_total_style(solver, variant))
                    for label, solver, variant in legend_series]
    else:
        handles += [Line2D([], [], label=f"total: {solver}", **_total_style(solver, 0))
                    for solver in sorted({b[1] for b in bars})]
    notes = ["bars: phase medians; marker: median run time (time outside phases is the gap)"]
    missing_total = sum(1 for b in bars if b[4] is None)
    if missing_total:
        notes.append(f"{missing_total} bar(s) without a total")
    finish(fig, results, "; ".join(notes), spec.opt("title"),
           legend=(handles, [h.get_label() for h in handles]), spec=spec)
    return fig
