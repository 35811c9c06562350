"""From usable summary rows to plotted series: which column is x, which rows form a line.

A series is one solver plus the values of the parameters that vary within that solver:
its ``s.`` parameters that take more than one value, and any other ``i.`` parameter that
takes more than one value at the same x (a second sweep axis; an ``i.`` column that merely
follows x, such as ``m`` sized with ``n``, does not split lines). Rows of one series that
share an x value (several seeds or instance files) are combined into one point: the median
of their y values, with bars from the least low to the greatest high.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Callable, Optional

from .errors import PlotError
from .results import INSTANCE_PREFIX, SOLVER_PREFIX, Results, Row, number
from .select import applies
from .style import format_value, param_name


# Set on a row copy (figures.usable_filtered_rows) when the row's run time is noisy.
NOISY_KEY = "__noisy"
# Set on a row copy when x is categorical (one slot per instance): the slot's index.
CATEGORY_KEY = "__category"


@dataclass(frozen=True)
class Metric:
    """What a figure draws on y: a value per row and an optional (low, high) band."""

    column: str  # the column named in messages
    label: str  # y axis label, with unit
    value: Callable[[Row], Optional[float]]
    band: Callable[[Row], Optional[tuple[float, float]]] = lambda row: None


@dataclass
class Point:
    x: float
    y: float
    low: float
    high: float
    rows: int  # how many summary rows this point combines
    noisy: bool = False  # a row of it has a noise verdict (noise.py): drawn ringed


@dataclass
class Series:
    solver: str
    variant: tuple[tuple[str, str], ...]  # (column, value) pairs that tell variants apart
    variant_index: int = 0  # position among the solver's variants, for its line style
    points: list[Point] = field(default_factory=list)
    show_solver: bool = True  # False when a plot: series list leaves the solver out
    # Variant columns the label leaves out: a parameter these cases left at its default while
    # other cases of the solver set it to that same value (gpu.mcm policy calibrate records
    # kernel=thread, the default, as policy fixed sets it; calibrate picks its own).
    hidden: frozenset = frozenset()

    @property
    def label(self) -> str:
        """e.g. ``gpu.wavefront block=128``."""
        parts = [self.solver] if self.show_solver or not self.variant else []
        parts += [f"{param_name(c)}={v}" for c, v in self.variant if v.strip() and c not in self.hidden]
        return " ".join(parts)


def sort_key(text: str):
    """Numbers in numeric order before other text in text order."""
    value = number(text)
    return (0, value, "") if value is not None else (1, 0.0, text)


def distinct_numbers(rows: list[Row], column: str) -> set[float]:
    return {v for v in (number(r.get(column)) for r in rows) if v is not None}


def choose_x(results: Results, rows: list[Row], forced: Optional[str] = None) -> str:
    """The x column: ``forced`` (``i.n``, ``s.block``, or a bare ``n``) when given, else the
    ``i.`` column with the most distinct numbers among ``rows`` (the first on a tie)."""
    if forced:
        column = _resolve_column(results, forced)
        if not distinct_numbers(rows, column):
            raise PlotError(f"{results.summary_path}: column {column} has no numeric values "
                            f"among the {len(rows)} usable rows; cannot use it as x")
        return column
    candidates = results.columns_with_prefix(INSTANCE_PREFIX)
    swept = swept_names(results.experiment_path)
    best, best_key = None, (0, False)
    for column in candidates:
        # Most distinct values; on a tie, a parameter the experiment file lists as a sweep
        # (n: [...]) over one that merely follows it (m sized with n).
        key = (len(distinct_numbers(rows, column)), column[len(INSTANCE_PREFIX):] in swept)
        if key[0] and key > best_key:
            best, best_key = column, key
    if best is None:
        known = ", ".join(candidates) if candidates else "none"
        raise PlotError(f"{results.summary_path}: no instance parameter column (i.*) has numeric "
                        f"values among the {len(rows)} usable rows (i. columns: {known}); "
                        f"choose x with --x COLUMN")
    return best


def swept_names(experiment_path: str) -> set[str]:
    """Parameter names given a list in the experiment file (``n: [1024, 2048]``)."""
    try:
        with open(experiment_path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return set()
    return set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*):\s*\[", text))


def _resolve_column(results: Results, name: str) -> str:
    if name in results.columns:
        return name
    for prefix in (INSTANCE_PREFIX, SOLVER_PREFIX):
        if prefix + name in results.columns:
            return prefix + name
    params = results.columns_with_prefix(INSTANCE_PREFIX) + results.columns_with_prefix(SOLVER_PREFIX)
    raise PlotError(f"{results.summary_path}: no column {name!r} for x "
                    f"(parameter columns: {', '.join(params) or 'none'})")


def varying_columns(results: Results, rows: list[Row], x: str) -> list[str]:
    """Columns whose values tell one solver's series apart (rows: that solver's rows)."""
    chosen = []
    for column in results.columns_with_prefix(SOLVER_PREFIX):
        if column != x and len({r.get(column, "") for r in rows}) > 1:
            chosen.append(column)
    for column in results.columns_with_prefix(INSTANCE_PREFIX):
        if column == x or per_seed(rows, x, column):
            continue
        by_x: dict[float, set[str]] = {}
        for r in rows:
            by_x.setdefault(number(r.get(x)), set()).add(r.get(column, ""))
        if any(len(values) > 1 for values in by_x.values()):
            chosen.append(column)
    return chosen


def per_seed(rows: list[Row], x: str, column: str) -> bool:
    """Whether ``column`` is a size derived from the seed (a knapsack's capacity drawn from its
    random weights): one value per (x, seed), and several seeds at some x. Such a column does
    not tell series apart; its points are the seeds' median (issue 36: 16 legend entries
    "cpu.dp capacity=61816" ...). A swept parameter has several values per (x, seed)."""
    by_x_seed: dict[tuple, set[str]] = {}
    seeds_at_x: dict[float, set[str]] = {}
    for r in rows:
        xv, seed = number(r.get(x)), (r.get("seed") or "").strip()
        by_x_seed.setdefault((xv, seed), set()).add(r.get(column, ""))
        seeds_at_x.setdefault(xv, set()).add(seed)
    return (all(len(v) == 1 for v in by_x_seed.values())
            and any(len(s) > 1 for s in seeds_at_x.values()))


def build_series(results: Results, rows: list[Row], x: str, metric: Metric,
                 columns: Optional[list[str]] = None) -> list[Series]:
    """Group usable rows into series, sorted by solver then variant; raise PlotError when
    no row has both a numeric x and a numeric y. ``columns`` (a plot: section's
    ``series``) fixes the label columns; the solver always separates series, since it
    fixes the colour, but is named in the label only when listed or when several solvers
    are drawn."""
    points_rows = [r for r in rows if number(r.get(x)) is not None and metric.value(r) is not None]
    if not points_rows:
        no_x = sum(1 for r in rows if number(r.get(x)) is None)
        no_y = sum(1 for r in rows if metric.value(r) is None)
        why = []
        if no_x:
            why.append(f"{no_x} without a numeric {x}")
        if no_y:
            why.append(f"{no_y} without a numeric {metric.column}")
        raise results.no_rows_error(
            f"none of the {len(rows)} ok, valid rows has both x and y ({'; '.join(why)})")

    by_solver: dict[str, list[Row]] = {}
    for r in points_rows:
        by_solver.setdefault(r.get("solver", ""), []).append(r)

    fixed = [c for c in columns if c != "solver"] if columns is not None else None
    show_solver = columns is None or "solver" in columns or len(by_solver) > 1
    out: list[Series] = []
    for solver in sorted(by_solver):
        solver_rows = by_solver[solver]
        if fixed is not None:  # listed columns this solver has (cpu.x has no s.mode)
            label_columns = [c for c in fixed if any((r.get(c) or "").strip() for r in solver_rows)]
        else:
            label_columns = varying_columns(results, solver_rows, x)
        groups: dict[tuple, list[Row]] = {}
        for r in solver_rows:
            groups.setdefault(tuple(r.get(c, "") for c in label_columns), []).append(r)
        keys = sorted(groups, key=lambda k: [sort_key(v) for v in k])
        for index, key in enumerate(keys):
            hidden = frozenset(c for i, c in enumerate(label_columns) if len({k[i] for k in keys}) == 1
                               and not any(applies(c, r, solver_rows) for r in groups[key]))
            series = Series(solver=solver, variant=tuple(zip(label_columns, key)),
                            variant_index=index, show_solver=show_solver, hidden=hidden)
            series.points = _points(groups[key], x, metric)
            out.append(series)
    return out


def _points(rows: list[Row], x: str, metric: Metric) -> list[Point]:
    by_x: dict[float, list[Row]] = {}
    for r in rows:
        by_x.setdefault(number(r.get(x)), []).append(r)
    points = []
    for xv in sorted(by_x):
        group = by_x[xv]
        ys = [metric.value(r) for r in group]
        y = statistics.median(ys)
        lows, highs = [y], [y]
        for r in group:
            band = metric.band(r)
            if band is not None:
                lows.append(band[0])
                highs.append(band[1])
        points.append(Point(x=xv, y=y, low=min(lows), high=max(highs), rows=len(group),
                            noisy=any(r.get(NOISY_KEY) for r in group)))
    return points
