"""The ``speedup`` figure: speed-up over a baseline solver, as tables and a bar chart.

Rows are the values of the x column (default: as for runtime; ``instance`` when no
instance parameter takes more than one value), columns are series (a solver and the parameters that
vary within it, as in the line figures), and a cell is baseline time / series time at
that x, where a time is the median over the summary rows of that series and x of ``y``
(default ``time_median_s``). The baseline is ``baseline: NAME`` (a solver, or a series
label such as ``cpu.omp threads=16``); by default the slowest CPU series (``cpu.*``; all
series when there is none) by the geometric mean of its times over the x values where
every CPU series was measured (none shared: among those measured at the most x values), so
one noisy case cannot pick the baseline as a sum dominated by the largest x could. The title and caption name it and the rule. A cell whose series or
baseline time is noisy (noise.py) is marked with a dagger. Writes ``<name>.md`` and
``<name>.tex`` next to the chart.
"""

from __future__ import annotations

import math
import statistics
import sys
from dataclasses import dataclass, field
from typing import Optional

from matplotlib.ticker import FuncFormatter

from . import fmt, style
from .errors import PlotError
from .drawing import (FigureSpec, Output, category_axes, category_layout, family_axes, family_panels,
                      figure_kind, finish, legend_entries, limit_category_axes, new_figure,
                      set_y_axis, usable_filtered_rows)
from .results import SOLVER_PREFIX, Results, Row, family, number
from .select import part, resolve_column, varying
from .series import NOISY_KEY, choose_x, sort_key

NOISY_MARK = "\u2020"  # dagger: a noisy time went into the cell
DEFAULT_RULE = ("default baseline: the slowest CPU solver by geometric-mean time over the x "
                "values where every CPU solver was measured")

TIME = "time_median_s"


@dataclass
class Column:
    """One series of the table: a solver and its varying parameters."""

    solver: str
    variant: tuple  # ((column, value), ...)
    variant_index: int = 0
    times: dict = field(default_factory=dict)  # x value (text) -> median time (s)
    noisy: set = field(default_factory=set)  # x values where a row's time is noisy

    @property
    def label(self) -> str:
        # A parameter this solver does not have (empty) is left out, never "name=-".
        return " ".join([self.solver] + [part(c, v) for c, v in self.variant if (v or "").strip()])


def _unavailable(results: Results) -> Optional[str]:
    solvers = {r.get("solver") for r in results.usable_rows()}
    return None if len(solvers) > 1 else "fewer than two solvers with ok, valid rows"


def format_speedup(value: float) -> str:
    """3 significant digits at most, never in exponent form: 1.00, 12.3, 456."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def x_text(cell: Optional[str]) -> str:
    """An x value as the table shows it: numbers as integers or %g, text as it is."""
    value = number(cell)
    return style.format_tick(value) if value is not None else (cell or "").strip()


def _x_column(results: Results, rows: list[Row], spec: FigureSpec) -> str:
    if spec.x:
        return resolve_column(spec.x, results.columns, spec.where(), "x")
    try:
        x = choose_x(results, rows)
    except PlotError:
        return "instance"
    # One value (a single instance): the instance text says more than one parameter.
    return x if len({number(r.get(x)) for r in rows}) > 1 else "instance"


def _columns(results: Results, rows: list[Row], x: str, spec: FigureSpec, y: str) -> list[Column]:
    label_columns = None
    if spec.opt("series"):
        label_columns = [resolve_column(c, results.columns, spec.where(), "series")
                         for c in spec.opt("series") if c != "solver"]
    by_solver: dict[str, list[Row]] = {}
    for r in rows:
        by_solver.setdefault(r.get("solver", ""), []).append(r)
    out = []
    for solver in sorted(by_solver):
        solver_rows = by_solver[solver]
        cols = label_columns if label_columns is not None else \
            [c for c in varying(solver_rows, results.columns_with_prefix(SOLVER_PREFIX)) if c != x]
        groups: dict[tuple, list[Row]] = {}
        for r in solver_rows:
            groups.setdefault(tuple(r.get(c, "") for c in cols), []).append(r)
        for index, key in enumerate(sorted(groups, key=lambda k: [sort_key(v) for v in k])):
            column = Column(solver=solver, variant=tuple(zip(cols, key)), variant_index=index)
            by_x: dict[str, list[float]] = {}
            for r in groups[key]:
                t = number(r.get(y))
                if t is not None and t > 0:
                    by_x.setdefault(x_text(r.get(x)), []).append(t)
                    if r.get(NOISY_KEY):
                        column.noisy.add(x_text(r.get(x)))
            column.times = {xv: statistics.median(ts) for xv, ts in by_x.items()}
            if column.times:
                out.append(column)
    return out


def _families(rows: list[Row], x: str) -> dict:
    """x value (as the table shows it) -> instance family, for x values whose rows all come
    from one family."""
    seen: dict[str, set] = {}
    for r in rows:
        seen.setdefault(x_text(r.get(x)), set()).add(family(r))
    return {xv: next(iter(f)) for xv, f in seen.items() if len(f) == 1}


def choose_baseline(columns: list[Column], wanted: Optional[str], where: str) -> Column:
    if wanted:
        exact = [c for c in columns if c.label == wanted]
        if exact:
            return exact[0]
        of_solver = [c for c in columns if c.solver == wanted]
        if len(of_solver) == 1:
            return of_solver[0]
        if len(of_solver) > 1:
            raise PlotError(f"{where}: baseline {wanted!r} has {len(of_solver)} variants; name one: "
                            + ", ".join(repr(c.label) for c in of_solver))
        raise PlotError(f"{where}: baseline {wanted!r} is not among the measured series "
                        f"({', '.join(c.label for c in columns)})")
    cpu = [c for c in columns if c.solver.startswith("cpu.")] or columns
    common = set.intersection(*(set(c.times) for c in cpu))
    pool = cpu
    if not common:  # no x shared by all: those measured at the most x values
        most = max(len(c.times) for c in cpu)
        pool = [c for c in cpu if len(c.times) == most]
        common = set.intersection(*(set(c.times) for c in pool))

    def geomean(c: Column) -> float:
        xs = common or set(c.times)
        return math.exp(sum(math.log(c.times[xv]) for xv in xs) / len(xs))
    return max(pool, key=lambda c: (geomean(c), c.label))


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
        "\u00b7": ";", "\u2013": "--", "\u2014": "---", "\u00d7": r"$\times$",
        "\u00b5": r"$\mu$"}


def tex_escape(text: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in text)


@dataclass
class Table:
    x_header: str
    baseline: Column
    columns: list[Column]  # baseline first
    xs: list[str]
    caption: str
    title: str

    def cell(self, column: Column, xv: str) -> Optional[float]:
        base, t = self.baseline.times.get(xv), column.times.get(xv)
        return base / t if base is not None and t is not None else None

    def noisy(self, column: Column, xv: str) -> bool:
        return xv in column.noisy or xv in self.baseline.noisy

    def text(self, column: Column, xv: str, times: str = "\u00d7") -> str:
        v = self.cell(column, xv)
        if v is None:
            return "\u2013"
        return f"{format_speedup(v)}{times}" + (NOISY_MARK if self.noisy(column, xv) else "")

    def markdown(self) -> str:
        head = [self.x_header, f"{self.baseline.label} time"] + [c.label for c in self.columns]
        lines = [f"**{_md_escape(self.title)}**", "",
                 "| " + " | ".join(_md_escape(h) for h in head) + " |",
                 "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
        for xv in self.xs:
            base = self.baseline.times.get(xv)
            cells = [xv or "-", fmt.seconds(base) if base is not None else "\u2013"]
            for c in self.columns:
                cells.append(self.text(c, xv))
            lines.append("| " + " | ".join(_md_escape(c) for c in cells) + " |")
        lines += ["", self.caption, ""]
        return "\n".join(lines)

    def latex(self, label: str) -> str:
        head = [self.x_header, f"{self.baseline.label} time"] + [c.label for c in self.columns]
        lines = [r"% written by plots/dpgpu_plot.py; needs no LaTeX package",
                 r"\begin{table}[htbp]", r"\centering",
                 r"\caption{" + tex_escape(self.caption) + "}",
                 r"\label{tab:" + label + "}",
                 r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\hline",
                 " & ".join(tex_escape(h) for h in head) + r" \\", r"\hline"]
        for xv in self.xs:
            base = self.baseline.times.get(xv)
            cells = [tex_escape(xv or "-"), tex_escape(fmt.seconds(base)) if base is not None else "--"]
            for c in self.columns:
                v = self.cell(c, xv)
                cells.append(f"${format_speedup(v)}\\times$" + (r"$^\dagger$" if self.noisy(c, xv) else "")
                             if v is not None else "--")
            lines.append(" & ".join(cells) + r" \\")
        lines += [r"\hline", r"\end{tabular}", r"\end{table}", ""]
        return "\n".join(lines)


@figure_kind("speedup", unavailable=_unavailable)
def speedup_figure(results: Results, spec: FigureSpec) -> Output:
    rows = usable_filtered_rows(results, spec)
    y = resolve_column(spec.opt("y"), results.columns, spec.where(), "y") if spec.opt("y") else TIME
    results.require_columns([y], "for the speedup figure")
    x = _x_column(results, rows, spec)
    columns = _columns(results, rows, x, spec, y)
    if not columns:
        raise results.no_rows_error(f"no usable row has a positive {y}")
    baseline = choose_baseline(columns, spec.opt("baseline"), spec.where())
    if len(columns) < 2:
        print(f"dpgpu_plot: note: {spec.stem}: only one series ({baseline.label}); every "
              f"speed-up is 1", file=sys.stderr)
    ordered = [baseline] + [c for c in columns if c is not baseline]
    xs = sorted({xv for c in columns for xv in c.times}, key=sort_key)
    context = style.footnote(results.gpu_name, results.has_gpu_entry, results.dates,
                             results.context_note)
    what = "median" if y == TIME else y
    title = spec.opt("title") or f"Speed-up over {baseline.label} \u2014 {results.experiment_name}"
    rule = "" if spec.opt("baseline") else f" ({DEFAULT_RULE})"
    caption = (f"Speed-up over {baseline.label}{rule}: its {what} run time divided by each "
               f"solver's, same {style.param_name(x)}; the second column is {baseline.label}'s "
               f"time; \u2013: not measured; {NOISY_MARK}: a time with relative "
               f"standard deviation above {results.noise_threshold:.0%}. {context}.")
    table = Table(x_header=style.param_name(x), baseline=baseline, columns=ordered, xs=xs,
                  caption=caption, title=title)

    others = [c for c in ordered if c is not baseline] or [baseline]
    style.plan_series((c.solver, c.variant_index) for c in ordered)
    unmeasured = [xv for xv in xs if xv not in baseline.times]
    xs_chart = [xv for xv in xs if xv in baseline.times]  # the table keeps every x
    slot_in = max(0.55, 0.3 * len(others) + 0.2)
    families = family_panels(xs_chart, _families(rows, x), slot_in, xs_chart)
    if families:
        order, spans, figsize = families
        xs_chart = [xs_chart[i] for i in order]
        fig = new_figure(figsize)
        panels = family_axes(fig, spans)
    else:
        per, nrows, figsize = category_layout(len(xs_chart), slot_in, labels=xs_chart)
        fig = new_figure(figsize)
        panels = category_axes(fig, len(xs_chart), per, nrows)
    labels = [xv or "-" for xv in xs_chart]
    width = 0.8 / len(others)
    values = [v for c in others for xv in xs_chart for v in [table.cell(c, xv)] if v is not None]
    for ax, start, end in panels:
        for i, c in enumerate(others):
            positions, heights, marks = [], [], []
            for gi in range(start, end):
                v = table.cell(c, xs_chart[gi])
                if v is not None:
                    positions.append(gi - 0.4 + width * (i + 0.5))
                    heights.append(v)
                    marks.append(table.text(c, xs_chart[gi]))
            bars = ax.bar(positions, heights, width=width * 0.92, label=c.label,
                          color=style.variant_fill(c.solver, c.variant_index), edgecolor="#333333", linewidth=0.5,
                          hatch=style.variant_hatch(c.variant_index))
            if (end - start) * len(others) <= 24:
                ax.bar_label(bars, labels=marks, fontsize=6, padding=1)
        ax.axhline(1.0, color="#333333", linewidth=0.8, linestyle="--",
                   label=f"baseline: {baseline.label}")
        set_y_axis(ax, values + [1.0], f"speed-up over {baseline.label} (\u00d7)", spec.opt("logy"))
        if ax.get_yscale() == "linear":
            ax.set_ylim(0, max(values + [1.0]) * 1.15)
        else:
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.grid(True, axis="y", linewidth=0.5, alpha=0.4)
    limit_category_axes(panels, labels, style.param_label(x))
    note = f"speed-up = {baseline.label} {what} time / solver's"
    if not spec.opt("baseline"):
        note += f"; {DEFAULT_RULE}"
    if any(table.noisy(c, xv) for c in others for xv in xs_chart):
        note += f"; {NOISY_MARK}: noisy time (rsd above {results.noise_threshold:.0%})"
    if unmeasured:
        note += (f"; no {baseline.label} time at {style.param_name(x)}="
                 f"{', '.join(unmeasured)} (table rows only)")
    if len(baseline.times) <= 6:
        note += f"; {baseline.label}: " + ", ".join(
            fmt.seconds(baseline.times[xv]) for xv in xs if xv in baseline.times)
    finish(fig, results, note, title, legend=legend_entries([ax for ax, _, _ in panels]), spec=spec)
    return Output(figure=fig, texts={"md": table.markdown(), "tex": table.latex(spec.stem)})
