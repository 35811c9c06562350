"""The ``scaling`` figure: speed-up against a swept parameter with the ideal line.

For each series (a solver variant) the speed-up at x is t(x0) / t(x), where x0 is the
series' smallest x and t the ``y`` column (default the median run time); the dashed line
is the ideal speed-up x / x0. This is how a parallel fold (the pipeline's ``p``), a thread
count or a block count is judged: the share of the ideal a strategy keeps, and where it
stops following it.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from .figures import (RUNTIME, FigureSpec, legend_entries, figure_kind, finish, new_figure, set_x_axis,
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
    fig = new_figure()
    ax = fig.add_subplot(1, 1, 1)
    for s in series:
        xs = [p.x for p in s.points]
        ax.errorbar(xs, [p.y for p in s.points],
                    yerr=[[max(p.y - p.low, 0) for p in s.points], [max(p.high - p.y, 0) for p in s.points]],
                    label=s.label, capsize=2.5, elinewidth=0.8, linewidth=1.4,
                    **style.series_style(s.solver, s.variant_index))
    x0 = min(s.points[0].x for s in series)
    xs = sorted({p.x for s in series for p in s.points})
    ax.plot(xs, [v / x0 for v in xs], linestyle="--", color="0.4", linewidth=1.0,
            label=f"ideal ({style.param_name(x)} / {style.format_tick(x0)})")
    set_x_axis(ax, xs, style.param_label(x), spec.opt("logx"))
    ys = [p.y for s in series for p in s.points] + [v / x0 for v in xs]
    set_y_axis(ax, ys, f"speed-up over each line's smallest {style.param_name(x)} (x)", spec.opt("logy"))
    ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
    notes = [f"speed-up = {metric.column} at the line's first {style.param_name(x)} / {metric.column}"]
    if spec.opt("filter"):
        notes.append("filter: " + ", ".join(f"{k}={'/'.join(map(str, v))}" for k, v in spec.opt("filter").items()))
    finish(fig, results, "; ".join(notes), spec.opt("title"), legend=legend_entries(fig.axes), spec=spec)
    return fig
