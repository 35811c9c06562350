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
from .figures import FigureSpec, legend_entries, figure_kind, finish, new_figure, set_x_axis, set_y_axis
from .results import SERIES, SERIES_REQUIRED, Results, number
from .select import apply_filter, case_labels, resolve_column, variant_indices

DEFAULT_QUANTITY = "diagonal_time_s"
MISSING_WHY = (f"the diagonal_time figure needs per-diagonal times ({SERIES}: case_id, solver, "
               f"series, index, value, series {DEFAULT_QUANTITY}), and no solver of this run "
               f"recorded any")


def _unavailable(results: Results) -> Optional[str]:
    return None if os.path.isfile(os.path.join(results.directory, SERIES)) else f"no {SERIES}"


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

    fig = new_figure()
    ax = fig.add_subplot()
    xs_all, ys_all = [], []
    solvers = [first[c].get("solver", "") for c in cases]
    combined = False
    for case, label, solver, variant in zip(cases, labels, solvers,
                                            variant_indices(solvers, labels)):
        points = sorted(by_case[case].items())
        combined |= any(len(v) > 1 for _, v in points)
        xs = [i for i, _ in points]
        ys = [statistics.median(v) for _, v in points]
        xs_all += xs
        ys_all += ys
        kw = style.series_style(solver, variant)
        if len(xs) > 60:
            kw.update(marker=None)
        ax.plot(xs, ys, label=label, linewidth=1.0, **kw)
    set_x_axis(ax, [x for x in xs_all if x > 0] if spec.opt("logx") else xs_all,
               "diagonal index", spec.opt("logx") if spec.opt("logx") is not None else False)
    set_y_axis(ax, [y for y in ys_all if y > 0], quantity_label(quantity), spec.opt("logy"))
    ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
    notes = [f"{quantity} from {SERIES}"]
    if combined:
        notes.append("lines: median over repetitions per index")
    if dropped:
        notes.append(f"{dropped} row(s) without a numeric index or value left out")
    finish(fig, results, "; ".join(notes), spec.opt("title"), legend=legend_entries(fig.axes), spec=spec)
    return fig
