"""The registry of figure kinds, and the kinds themselves.

A figure kind is a function ``build(results, spec) -> matplotlib.figure.Figure``
registered under a name with ``@figure_kind(name, help)``. A ``FigureSpec`` says which
kind to draw and how (output name, x column, kind-specific options); today the command
line makes the specs, later a ``plot:`` section of experiment.yaml will make them too, so
a kind must take everything it needs from its spec, never from the command line.

Figures are built on ``matplotlib.figure.Figure`` directly (no pyplot, no global state),
so tests can inspect them before they are saved.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, NullLocator

from . import style
from .errors import PlotError
from .results import Results, Row, number
from .series import Metric, Series, build_series, choose_x, distinct_numbers


@dataclass(frozen=True)
class FigureSpec:
    """One figure to draw: its kind, file name (default: the kind) and options."""

    kind: str
    name: Optional[str] = None
    x: Optional[str] = None  # x column; None: the kind chooses
    options: Mapping[str, object] = field(default_factory=dict)

    @property
    def stem(self) -> str:
        return self.name or self.kind


@dataclass(frozen=True)
class FigureKind:
    name: str
    help: str
    build: Callable[[Results, FigureSpec], Figure]
    needs: tuple[str, ...] = ()  # summary.csv columns it cannot do without


REGISTRY: dict[str, FigureKind] = {}


def figure_kind(name: str, help: str, needs: tuple[str, ...] = ()):
    """Register the decorated ``build(results, spec) -> Figure`` as figure kind ``name``."""

    def register(build):
        if name in REGISTRY:
            raise ValueError(f"figure kind {name!r} registered twice")
        REGISTRY[name] = FigureKind(name=name, help=help, build=build, needs=needs)
        return build

    return register


def build(results: Results, spec: FigureSpec) -> Figure:
    """Draw one figure, or raise PlotError (unknown kind, missing column, no rows)."""
    kind = REGISTRY.get(spec.kind)
    if kind is None:
        raise PlotError(f"unknown figure kind {spec.kind!r} (known: {', '.join(sorted(REGISTRY))})")
    results.require_columns(kind.needs, f"for the {kind.name} figure")
    return kind.build(results, spec)


# --- shared pieces -------------------------------------------------------------------

FIGSIZE = (7.0, 4.5)  # inches


def new_figure() -> Figure:
    fig = Figure(figsize=FIGSIZE)
    FigureCanvasAgg(fig)  # a canvas for layout; savefig still picks one per format
    return fig


def spans_decade(values: list[float]) -> bool:
    """True when all values are positive and the largest is more than 10x the smallest."""
    return bool(values) and min(values) > 0 and max(values) > 10 * min(values)


def _is_power_of_two(v: float) -> bool:
    return v >= 1 and v == int(v) and (int(v) & (int(v) - 1)) == 0


def set_x_axis(ax, xs: list[float], label: str) -> None:
    """Label the x axis; log scale when x spans more than 10x (base 2 for powers of two);
    ticks at the data's x values when there are few of them."""
    distinct = sorted(set(xs))
    if spans_decade(distinct):
        if all(_is_power_of_two(v) for v in distinct):
            ax.set_xscale("log", base=2)
        else:
            ax.set_xscale("log")
    if len(distinct) <= 12:
        ax.xaxis.set_major_locator(FixedLocator(distinct))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xticklabels([style.format_tick(v) for v in distinct],
                           rotation=30 if len(distinct) > 6 else 0,
                           ha="right" if len(distinct) > 6 else "center")
    ax.set_xlabel(label)


def set_y_axis(ax, ys: list[float], label: str) -> None:
    if spans_decade(ys):
        ax.set_yscale("log")
    ax.set_ylabel(label)


def draw_series(ax, series: list[Series]) -> None:
    for s in series:
        xs = [p.x for p in s.points]
        ys = [p.y for p in s.points]
        below = [max(p.y - p.low, 0.0) for p in s.points]
        above = [max(p.high - p.y, 0.0) for p in s.points]
        ax.errorbar(xs, ys, yerr=[below, above], label=s.label, capsize=2.5, elinewidth=0.8,
                    linewidth=1.4, **style.series_style(s.solver, s.variant_index))


def add_legend(ax, count: int) -> None:
    if count > 8:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    else:
        ax.legend(fontsize="small", loc="best")


def finish(fig: Figure, results: Results, extra_note: str) -> None:
    """Title, footnote and layout."""
    fig.axes[0].set_title(results.experiment_name)
    note = style.footnote(results.gpu_name, results.has_gpu_entry, results.start_date,
                          results.context_note, extra_note)
    fig.text(0.01, 0.01, note, fontsize=7, color="#555555", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))


def line_figure(results: Results, spec: FigureSpec, metric: Metric, band_note: str) -> Figure:
    """y = metric against a swept parameter, one line per solver variant."""
    rows = results.require_usable_rows()
    x = choose_x(results, rows, spec.x)
    _note_x_choice(results, rows, x, spec)
    series = build_series(results, rows, x, metric)
    dropped = len(rows) - sum(p.rows for s in series for p in s.points)
    if dropped:
        print(f"dpgpu_plot: note: {spec.stem}: {dropped} ok row(s) lack a numeric {x} or "
              f"{metric.column}; left out", file=sys.stderr)

    fig = new_figure()
    ax = fig.add_subplot()
    draw_series(ax, series)
    points = [p for s in series for p in s.points]
    set_x_axis(ax, [p.x for p in points], style.param_label(x))
    set_y_axis(ax, [p.y for p in points], metric.label)
    ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
    add_legend(ax, len(series))
    notes = [band_note]
    if any(p.rows > 1 for p in points):
        notes.append("points: median over instances/seeds")
    finish(fig, results, "; ".join(notes))
    return fig


def _note_x_choice(results: Results, rows: list[Row], x: str, spec: FigureSpec) -> None:
    if spec.x or len(distinct_numbers(rows, x)) > 1:
        return
    swept = [c for c in results.columns_with_prefix("s.") if len(distinct_numbers(rows, c)) > 1]
    if swept:
        print(f"dpgpu_plot: note: {spec.stem}: {x} takes one value; for a parameter sweep "
              f"try --x {swept[0]}", file=sys.stderr)


# --- figure kinds --------------------------------------------------------------------

def _time_band(row: Row) -> Optional[tuple[float, float]]:
    low, high = number(row.get("time_min_s")), number(row.get("time_max_s"))
    if low is None or high is None:
        return None
    return low, high


RUNTIME = Metric(
    column="time_median_s",
    label="run time, median (s)",
    value=lambda row: number(row.get("time_median_s")),
    band=_time_band,
)


@figure_kind("runtime", "median run time against the swept parameter, one line per solver variant",
             needs=("time_median_s",))
def runtime_figure(results: Results, spec: FigureSpec) -> Figure:
    return line_figure(results, spec, RUNTIME, "bars: min\u2013max over repetitions")


def _throughput(row: Row) -> Optional[float]:
    value = number(row.get("throughput"))
    if value is not None:
        return value
    work, time = number(row.get("work")), number(row.get("time_median_s"))
    return work / time if work is not None and time else None


def _throughput_band(row: Row) -> Optional[tuple[float, float]]:
    work = number(row.get("work"))
    low_t, high_t = number(row.get("time_min_s")), number(row.get("time_max_s"))
    if work is None or not low_t or not high_t or low_t <= 0 or high_t <= 0:
        return None
    return work / high_t, work / low_t


THROUGHPUT = Metric(
    column="throughput",
    label="throughput (work units per second)",
    value=_throughput,
    band=_throughput_band,
)


@figure_kind("throughput", "work units per second against the swept parameter",
             needs=("throughput",))
def throughput_figure(results: Results, spec: FigureSpec) -> Figure:
    return line_figure(results, spec, THROUGHPUT, "bars: from min and max run time")

