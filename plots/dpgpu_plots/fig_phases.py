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
from dataclasses import dataclass
from typing import Optional

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import style
from .errors import PlotError
from .drawing import (MAX_WIDTH, RUNTIME, FigureSpec, _variant_indices, category_axes, category_layout,
                      figure_kind, finish, limit_category_axes, new_figure, set_y_axis,
                      usable_filtered_rows)
from .results import PHASE_PREFIX, Results, Row, number
from .select import case_labels, part, resolve_column
from .series import build_series, choose_x, sort_key

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


@dataclass
class Bar:
    """One case's (or one series' at one x) phase medians, drawn at ``centre``."""

    centre: float
    solver: str
    variant: int
    phases: dict  # column -> seconds (None: not recorded)
    total: Optional[float]


def _label_columns(results: Results, spec: FigureSpec) -> Optional[list[str]]:
    if not spec.opt("series"):
        return None
    return [c if c in ("solver", "instance") else resolve_column(c, results.columns, spec.where(), "series")
            for c in spec.opt("series")]


def _facets(results: Results, rows: list[Row], spec: FigureSpec) -> list[tuple[Optional[str], list[Row]]]:
    """(panel title, rows) per value of the spec's ``facets`` column; one untitled panel
    without it."""
    facet = spec.opt("facets")
    if not facet:
        return [(None, rows)]
    facet = resolve_column(facet, results.columns, spec.where(), "facets")
    values = sorted({r.get(facet, "") for r in rows}, key=sort_key)
    return [(part(facet, v), [r for r in rows if r.get(facet, "") == v]) for v in values]


def _grouped_bars(results: Results, rows: list[Row], x: str, xs: list[float], columns: list[str],
                  label_columns, style_index: dict, per_series: int, clusters: int):
    """The bars of one panel with an x column: in each x group one cluster per series (of
    ``clusters`` places, centred), a cluster ``per_series`` bars wide; and the panel's
    (label, solver, variant) legend rows."""
    series = build_series(results, rows, x, RUNTIME, label_columns)
    width = 0.8 / (clusters * per_series)
    shift = (clusters - len(series)) / 2
    bars, legend = [], []
    for si, s in enumerate(series):
        variant = style_index.get(s.label, s.variant_index)
        members = [r for r in rows if r.get("solver") == s.solver
                   and all(r.get(c, "") == v for c, v in s.variant)]
        for gi, xv in enumerate(xs):
            at_x = [r for r in members if number(r.get(x)) == xv]
            if at_x:
                bars.append(Bar(gi - 0.4 + width * per_series * (shift + si + 0.5), s.solver, variant,
                                {c: _median([number(r.get(c)) for r in at_x]) for c in columns},
                                _median([number(r.get(TOTAL)) for r in at_x])))
        legend.append((s.label, s.solver, variant))
    return bars, legend


def _x_panels(results: Results, rows: list[Row], spec: FigureSpec, columns: list[str],
              side_by_side: bool):
    """With an x column: ([(panel title, bars)], legend rows, bar width, x tick labels, x
    label, slot width in inches); one panel per facet value."""
    label_columns = _label_columns(results, spec)
    x = choose_x(results, rows, spec.x)
    xs = sorted({number(r.get(x)) for r in rows if number(r.get(x)) is not None})
    style_index = _variant_indices(build_series(results, rows, x, RUNTIME, label_columns))
    facets = _facets(results, rows, spec)
    clusters = max(len(build_series(results, r, x, RUNTIME, label_columns)) for _, r in facets)
    per_series = len(columns) if side_by_side else 1
    panels, legend_series = [], []
    for title, panel_rows in facets:
        bars, legend = _grouped_bars(results, panel_rows, x, xs, columns, label_columns,
                                     style_index, per_series, clusters)
        panels.append((title, bars))
        legend_series += [e for e in legend if e not in legend_series]
    slot_in = max(0.5, (0.14 if side_by_side else 0.3) * clusters * per_series + 0.2)
    return (panels, legend_series, 0.8 / (clusters * per_series), [style.format_tick(v) for v in xs],
            style.param_label(x), slot_in)


def _draw_bars(ax, bars: list[Bar], columns: list[str], width: float, side_by_side: bool) -> None:
    """Stacked phase bars (linear y), or on a log y axis one bar per phase side by side (a
    stack on a log axis shows the upper phases far smaller than they are); the total as a
    marker over the bar or cluster."""
    for bar in bars:
        bottom = 0.0
        for k, column in enumerate(columns):
            value = bar.phases.get(column)
            if value is None or (side_by_side and value <= 0):
                continue
            position = bar.centre + (k - (len(columns) - 1) / 2) * width if side_by_side else bar.centre
            ax.bar(position, value, bottom=0.0 if side_by_side else bottom, width=width,
                   hatch=style.variant_hatch(bar.variant), color=style.phase_colour(phase_name(column)),
                   edgecolor="white", linewidth=0.5)
            bottom += value
        if bar.total is not None:
            ax.plot([bar.centre], [bar.total], **_total_style(bar.solver, bar.variant))


def _panel_axes(labels: list[str], slot_in: float, panels_bars):
    """The figure and its [(axes, first slot, end slot, bars)]: without facets the slots
    wrap into rows of panels (category_layout); with them one panel row per facet, each
    holding every slot, narrowed to fit MAX_WIDTH, all sharing y."""
    if len(panels_bars) == 1:
        per, nrows, figsize = category_layout(len(labels), slot_in, labels=labels)
        fig = new_figure(figsize)
        return fig, [(ax, start, end, panels_bars[0][1])
                     for ax, start, end in category_axes(fig, len(labels), per, nrows)]
    slot_in = min(slot_in, (MAX_WIDTH - 1.6) / max(len(labels), 1))
    _, _, (width, height) = category_layout(len(labels), slot_in, labels=labels)
    fig = new_figure((width, len(panels_bars) * (height - 0.4) + 0.4))
    out, first = [], None
    for index, (_, bars) in enumerate(panels_bars):
        ax = fig.add_subplot(len(panels_bars), 1, index + 1, sharey=first)
        first = first or ax
        out.append((ax, 0, len(labels), bars))
    return fig, out


@figure_kind("phases", unavailable=_unavailable)
def phases_figure(results: Results, spec: FigureSpec) -> Figure:
    rows = usable_filtered_rows(results, spec)
    columns = phase_columns(results, rows, spec)
    rows = [r for r in rows if number(r.get(TOTAL)) is not None
            or any(number(r.get(c)) is not None for c in columns)]
    if not rows:
        raise results.no_rows_error(f"no usable row has a phase time or {TOTAL}")
    side_by_side = bool(spec.opt("logy"))
    if spec.opt("facets") and not spec.x:
        raise PlotError(f"{spec.where()}: facets needs an x column (x: i.n): one panel per "
                        f"value, the x values on each")

    if spec.x:
        panels_bars, legend_series, width, tick_labels, xlabel, slot_in = \
            _x_panels(results, rows, spec, columns, side_by_side)
    else:
        tick_labels = case_labels(rows, _label_columns(results, spec))
        width = 0.7 / (len(columns) if side_by_side else 1)
        panels_bars = [(None, [Bar(i, r.get("solver", ""), 0, {c: number(r.get(c)) for c in columns},
                                   number(r.get(TOTAL))) for i, r in enumerate(rows)])]
        legend_series, xlabel = [], "case"
        slot_in = 0.45 if not side_by_side else 0.15 * len(columns) + 0.2

    style.plan_series((b.solver, b.variant) for _, bars in panels_bars for b in bars)
    fig, panels = _panel_axes(tick_labels, slot_in, panels_bars)
    values = [v for _, bars in panels_bars for b in bars
              for v in list(b.phases.values()) + [b.total] if v is not None and v > 0]
    for index, (ax, _, _, bars) in enumerate(panels):
        _draw_bars(ax, bars, columns, width, side_by_side)
        set_y_axis(ax, values, "time, median over repetitions (s)", side_by_side)
        if side_by_side and values:  # the shortest bar at least half a factor 2 tall
            ax.set_ylim(bottom=min(ax.get_ylim()[0], min(values) / 2))
        ax.grid(True, axis="y", linewidth=0.5, alpha=0.4)
        title = panels_bars[index][0] if len(panels_bars) > 1 else None
        if title:
            ax.set_title(title, fontsize=9)
    limit_category_axes([p[:3] for p in panels], tick_labels, xlabel)

    handles = [Patch(facecolor=style.phase_colour(phase_name(c)), label=phase_name(c))
               for c in columns]
    if legend_series:
        handles += [Line2D([], [], label=f"total: {label}", **_total_style(solver, variant))
                    for label, solver, variant in legend_series]
    else:
        handles += [Line2D([], [], label=f"total: {solver}", **_total_style(solver, 0))
                    for solver in sorted({b.solver for _, bars in panels_bars for b in bars})]
    notes = ["bars: phase medians" + (", side by side (log axis)" if side_by_side else "")
             + "; marker: median run time"
             + (" (time outside phases is the gap)" if not side_by_side else "")]
    missing_total = sum(1 for _, bars in panels_bars for b in bars if b.total is None)
    if missing_total:
        notes.append(f"{missing_total} bar(s) without a total")
    finish(fig, results, "; ".join(notes), spec.opt("title"),
           legend=(handles, [h.get_label() for h in handles]), spec=spec)
    return fig
