"""The ``diagonal_time`` figure: run time per DP anti-diagonal, one line per case.

Reads ``series.csv`` (columns ``case_id, solver, series, index, value``: one row per case,
series name and index), keeps the rows of one series (``quantity``, default
``diagonal_time_s``) and draws value against index per case. Several values of one case
and index (one per repetition) become their median. Rows are joined to summary.csv by
``case_id`` for ``filter`` and the line labels.
"""

from __future__ import annotations

import os
import statistics
from typing import Optional

from matplotlib.figure import Figure

from . import style
from .errors import PlotError
from .drawing import (FigureSpec, legend_entries, figure_kind, finish, new_figure, panel_grid, set_x_axis,
                      set_y_axis)
from .series import sort_key
from .results import SERIES, SERIES_REQUIRED, Results, existing, number
from .select import apply_filter, case_labels, resolve_column, variant_indices

DEFAULT_QUANTITY = "diagonal_time_s"
MISSING_WHY = (f"the diagonal_time figure needs per-diagonal times ({SERIES}: case_id, solver, "
               f"series, index, value, series {DEFAULT_QUANTITY}), and no solver of this run "
               f"recorded any")


def _unavailable(results: Results) -> Optional[str]:
    return None if os.path.isfile(existing(os.path.join(results.directory, SERIES))) else f"no {SERIES}"


def quantity_label(quantity: str) -> str:
    if quantity == DEFAULT_QUANTITY:
        return "time per diagonal (s)"
    return style.column_label(quantity)


@figure_kind("diagonal_time", unavailable=_unavailable)
def diagonal_figure(results: Results, spec: FigureSpec) -> Figure:
    path, raw = results.side_table(SERIES, SERIES_REQUIRED, MISSING_WHY)
    quantity = spec.opt("quantity", DEFAULT_QUANTITY)
    names = list(dict.fromkeys(r.get("series", "") for r in raw))
    chosen = [r for r in raw if r.get("series") == quantity]
    if not chosen:
        raise PlotError(f"{path}: no rows of series {quantity!r} (series there: "
                        f"{', '.join(names) or 'none; the file has a header but no rows'})")
    rows = [{**results.case(r.get("case_id", "")), **r} for r in chosen]
    columns = list(dict.fromkeys(list(raw[0].keys()) + results.columns))
    rows = apply_filter(rows, spec, columns, "series.csv (joined with summary.csv)")

    by_case: dict[str, dict[float, list[float]]] = {}
    first = {}
    dropped = 0
    for r in rows:
        index, value = number(r.get("index")), number(r.get("value"))
        if index is None or value is None:
            dropped += 1
            continue
        case = r.get("case_id", "")
        first.setdefault(case, r)
        by_case.setdefault(case, {}).setdefault(index, []).append(value)
    if not by_case:
        raise PlotError(f"{path}: no plottable rows: none of the {len(rows)} {quantity} rows has "
                        f"a numeric index and value")
    label_columns = None
    if spec.opt("series"):
        label_columns = [c if c in ("solver", "instance") else
                         resolve_column(c, columns, spec.where(), "series", "series.csv")
                         for c in spec.opt("series")]
    cases = sorted(by_case, key=lambda c: (first[c].get("solver", ""), list(by_case).index(c)))
    labels = case_labels([first[c] for c in cases], label_columns)

    solvers = [first[c].get("solver", "") for c in cases]
    variants = variant_indices(solvers, labels)
    style.plan_series(zip(solvers, variants))
    facet = spec.opt("facets")
    if facet:
        facet = resolve_column(facet, columns, spec.where(), "facets", "series.csv")
        values = sorted({first[c].get(facet, "") for c in cases}, key=sort_key)
        panels = [(f"{style.param_name(facet)}={style.format_value(v)}",
                   [i for i, c in enumerate(cases) if first[c].get(facet, "") == v]) for v in values]
    else:
        panels = [(None, list(range(len(cases))))]
    fraction = spec.opt("position", "index") == "fraction"
    nrows, ncols, figsize = panel_grid(len(panels))
    fig = new_figure(figsize)
    combined = False
    ys_all = [statistics.median(v) for c in cases for v in by_case[c].values()]
    for p_index, (title, members) in enumerate(panels):
        ax = fig.add_subplot(nrows, ncols, p_index + 1)
        xs_panel = []
        # Lines with fewer points on top, so a short series is not hidden by a long one.
        for i in sorted(members, key=lambda i: -len(by_case[cases[i]])):
            points = sorted(by_case[cases[i]].items())
            combined |= any(len(v) > 1 for _, v in points)
            last = max(points[-1][0], 1.0)
            xs = [k / last if fraction else k for k, _ in points]
            ys = [statistics.median(v) for _, v in points]
            xs_panel += xs
            kw = style.series_style(solvers[i], variants[i])
            if len(xs) > 60:
                kw.update(marker=None)
            ax.plot(xs, ys, label=labels[i], linewidth=1.0 if len(xs) > 60 else 1.4,
                    zorder=2 + 1.0 / len(xs), **kw)
        set_x_axis(ax, [x for x in xs_panel if x > 0] if spec.opt("logx") else xs_panel,
                   "diagonal index / last index" if fraction else "diagonal index",
                   spec.opt("logx") if spec.opt("logx") is not None else False)
        set_y_axis(ax, [y for y in ys_all if y > 0], quantity_label(quantity), spec.opt("logy"))
        ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
        if title:
            ax.set_title(title, fontsize=9)
            if p_index % ncols:
                ax.set_ylabel("")
    notes = [f"{quantity} from {os.path.basename(path)}"]
    if combined:
        notes.append("lines: median over repetitions per index")
    if fraction:
        notes.append("x: each case's diagonal index over its last, so cases with different "
                     "diagonal counts (cells, tiles) span the same width")
    if dropped:
        notes.append(f"{dropped} row(s) without a numeric index or value left out")
    handles, texts = legend_entries(fig.axes)
    order = sorted(range(len(texts)),
                   key=lambda k: labels.index(texts[k]) if texts[k] in labels else len(labels))
    finish(fig, results, "; ".join(notes), spec.opt("title"),
           legend=([handles[k] for k in order], [texts[k] for k in order]), spec=spec)
    return fig
