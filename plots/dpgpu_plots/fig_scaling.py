"""The ``scaling`` figure: speed-up against a swept parameter with the ideal line.

For each series (a solver variant) the speed-up at x is t(x0) / t(x), where x0 is the
series' smallest x and t the ``y`` column (default the median run time); the dashed line
is the ideal speed-up x / x0. This is how a parallel fold (the pipeline's ``p``), a thread
count or a block count is judged: the share of the ideal a strategy keeps, and where it
stops following it.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from .drawing import (RUNTIME, FigureSpec, draw_series, legend_entries, figure_kind, finish, new_figure,
                      set_x_axis,
                      set_y_axis, usable_filtered_rows, y_metric, _no_usable_rows)
from .errors import PlotError
from .results import Results
from .select import resolve_column
from .series import Point, build_series, choose_x
from . import style


def speedups(series) -> None:
    """Turns each series' times into speed-ups over its first point, in place."""
    for s in series:
        s.points.sort(key=lambda p: p.x)
        base = s.points[0].y
        if base <= 0:
            raise PlotError(f"scaling: {s.label} has a non-positive time at x={s.points[0].x}")
        s.points[:] = [Point(p.x, base / p.y, base / p.high if p.high > 0 else base / p.y,
                             base / p.low if p.low > 0 else base / p.y, p.rows) for p in s.points if p.y > 0]


IDEAL_DASHES = ((0, (5, 3)), (0, (1, 2)), (0, (8, 2, 1, 2)))


@figure_kind("scaling", needs=("time_median_s",), unavailable=_no_usable_rows)
def scaling_figure(results: Results, spec: FigureSpec) -> Figure:
    rows = usable_filtered_rows(results, spec)
    metric = y_metric(results, spec, RUNTIME)
    x = choose_x(results, rows, spec.x)
    columns = None
    if spec.opt("series"):
        columns = [c if c == "solver" else resolve_column(c, results.columns, spec.where(), "series")
                   for c in spec.opt("series")]
    series = [s for s in build_series(results, rows, x, metric, columns) if len(s.points) > 1]
    if not series:
        raise PlotError(f"{spec.where()}: scaling needs a series with at least two values of {x}")
    speedups(series)
    style.plan_series((s.solver, s.variant_index) for s in series)
    fig = new_figure()
    ax = fig.add_subplot(1, 1, 1)
    draw_series(ax, series, rings=False)
    xs = sorted({p.x for s in series for p in s.points})
    # One ideal line per starting x: each line is normalised to its own first point.
    starts = sorted({s.points[0].x for s in series})
    ideal_ys = []
    for x0, dash in zip(starts, IDEAL_DASHES * len(starts)):
        run = [v for v in xs if v >= x0]
        ideal_ys += [v / x0 for v in run]
        ax.plot(run, [v / x0 for v in run], linestyle=dash, color="black", linewidth=0.9, zorder=1,
                label=f"ideal ({style.param_name(x)} / {style.format_tick(x0)})")
    set_x_axis(ax, xs, style.param_label(x), spec.opt("logx"))
    ys = [p.y for s in series for p in s.points] + ideal_ys
    set_y_axis(ax, ys, f"speed-up over each line's smallest {style.param_name(x)} (x)", spec.opt("logy"))
    ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
    notes = [f"speed-up = {metric.column} at the line's first {style.param_name(x)} / {metric.column}; "
             f"ideal: the {style.param_name(x)} over the line's first {style.param_name(x)}"]
    if spec.opt("filter"):
        notes.append("filter: " + style.filter_text(spec.opt("filter")))
    finish(fig, results, "; ".join(notes), spec.opt("title"), legend=legend_entries(fig.axes), spec=spec)
    return fig
