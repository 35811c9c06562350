"""The ``energy`` figure: energy per solve and work per joule against the figure's x.

Two panels sharing x: ``energy_j`` (J per solve, log y) with a dashed line per series at
``idle_power_w`` x median time (what the card would have used idling for as long as a
solve), and ``work_per_joule`` (log y, in the problem's work unit). Rows without energy
(``energy_method`` n/a: a CPU row on a host without RAPL) are named in the footnote;
throttled cases (``gpu.throttled``) get a hollow square, noisy ones the red ring.
x: the spec's ``x``; else one slot per instance when the rows come from several instance
families or are categorical (the energy experiment: one large size per problem).
"""

from __future__ import annotations

import statistics
from typing import Optional

from matplotlib.figure import Figure

from .errors import PlotError
from .drawing import (NOISY_LABEL, FigureSpec, category_layout, draw_series, figure_kind, finish,
                      instance_order, is_categorical, legend_entries, new_figure, set_category_ticks,
                      set_x_axis, set_y_axis, usable_filtered_rows)
from .results import Results, Row, family, number
from .select import resolve_column
from .series import CATEGORY_KEY, Metric, Series, build_series, choose_x
from . import style

ENERGY = Metric(column="energy_j", label="energy per solve (J)",
                value=lambda row: number(row.get("energy_j")))
THROTTLED_LABEL = "throttled (NVML throttle reason during the case)"
IDLE_LABEL = "idle (idle_power_w \u00d7 median time), dashed"
# Short, thin dashes without markers: unlike a variant's "--" series line, which has markers.
IDLE_DASHES = (0, (2, 2))


def work_unit(row: Row) -> str:
    """The unit of a row's ``work`` (style.row_work_unit)."""
    return style.row_work_unit(row)


def work_per_joule_metric(rows: list[Row]) -> Metric:
    units = sorted({work_unit(r) for r in rows})
    label = f"{units[0]} per joule" if len(units) == 1 else \
        "work per joule (" + ", ".join(units[:-1]) + " or " + units[-1] + ")"
    return Metric(column="work_per_joule", label=label,
                  value=lambda row: number(row.get("work_per_joule")))


def _energy_missing(results: Results) -> Optional[str]:
    if "energy_j" not in results.columns:
        return "summary.csv has no energy_j column (a run before issue 28)"
    if not any(number(r.get("energy_j")) is not None for r in results.usable_rows()):
        return "no ok row has an energy_j value"
    return None


def _truthy(cell: Optional[str]) -> bool:
    return (cell or "").strip().lower() in ("true", "1", "yes")


def _series_rows(s: Series, rows: list[Row]) -> list[Row]:
    """The rows a series was built from: its solver and its variant's values."""
    return [r for r in rows if r.get("solver", "") == s.solver
            and all(r.get(c, "") == v for c, v in s.variant)]


def slot_shifts(series: list[Series], dodge: bool) -> list[dict[float, float]]:
    """Per series {x: shift}: within a categorical slot, the series measured there side by
    side (only those, so a slot of one series keeps its marker centred); 0 on a numeric x."""
    out: list[dict[float, float]] = [{} for _ in series]
    for v in {p.x for s in series for p in s.points}:
        present = [i for i, s in enumerate(series) if any(p.x == v for p in s.points)]
        width = 0.7 / max(len(present), 1)
        for k, i in enumerate(present):
            out[i][v] = (k - (len(present) - 1) / 2) * width if dodge else 0.0
    return out


def draw_markers(ax, series: list[Series], shifts: list[dict[float, float]], noise_threshold: float) -> None:
    """Categorical x: a marker per series and slot, no lines; noisy points ringed as in
    draw_series."""
    for s, shift in zip(series, shifts):
        kw = style.series_style(s.solver, s.variant_index)
        kw["linestyle"] = "none"
        ax.errorbar([p.x + shift[p.x] for p in s.points], [p.y for p in s.points], label=s.label,
                    zorder=2, **kw)
        noisy = [(p.x + shift[p.x], p.y) for p in s.points if p.noisy]
        if noisy:
            ax.plot([x for x, _ in noisy], [y for _, y in noisy], linestyle="none", marker="o",
                    markersize=11, markerfacecolor="none", markeredgecolor="#d62728",
                    markeredgewidth=1.0, label=NOISY_LABEL.format(noise_threshold))


def _overlays(ax, series: list[Series], shifts, rows: list[Row], x: str, dodge: bool,
              idle: bool) -> None:
    """Throttled points as hollow squares; in the energy panel (``idle``) the dashed
    idle-power line of each series in its colour."""
    for s, shifts_of in zip(series, shifts):
        at = {p.x: p.y for p in s.points}
        mine = _series_rows(s, rows)
        hot = sorted({number(r.get(x)) for r in mine if _truthy(r.get("gpu.throttled"))} & set(at))
        if hot:
            ax.plot([v + shifts_of[v] for v in hot], [at[v] for v in hot], linestyle="none", marker="s",
                    markersize=12, color="black", markerfacecolor="none", markeredgecolor="black",
                    markeredgewidth=1.0, label=THROTTLED_LABEL, zorder=6)
        if not idle:
            continue
        by_x: dict[float, list[float]] = {}
        for r in mine:
            power, time = number(r.get("idle_power_w")), number(r.get("time_median_s"))
            if power is not None and time is not None and number(r.get(x)) in at:
                by_x.setdefault(number(r.get(x)), []).append(power * time)
        if not by_x:
            continue
        colour = style.series_colour(s.solver, s.variant_index)
        xs, ys = [], []
        for v in sorted(by_x):
            y = statistics.median(by_x[v])
            if dodge:  # a short dash across the series' marker: categories are not a sweep
                half, mid = 0.15, v + shifts_of[v]
                xs += [mid - half, mid + half, float("nan")]
                ys += [y, y, float("nan")]
            else:
                xs.append(v)
                ys.append(y)
        ax.plot(xs, ys, linestyle=IDLE_DASHES, color=colour, linewidth=0.9, alpha=0.85, zorder=1.5,
                label="_idle")
    if idle and any(line.get_label() == "_idle" for line in ax.lines):
        ax.plot([], [], linestyle=IDLE_DASHES, color="black", linewidth=0.9, label=IDLE_LABEL)


def default_series(rows: list[Row]) -> Optional[list[str]]:
    """Label columns when one solver name serves several problems (gpu.wavefront for LCS
    and Held-Karp): the solver, the problem, and the s. parameters that vary within one
    solver and problem; else None (build_series' own rule)."""
    problems: dict[str, set[str]] = {}
    for r in rows:
        problems.setdefault(r.get("solver", ""), set()).add(r.get("problem", ""))
    if all(len(p) < 2 for p in problems.values()):
        return None
    varying = set()
    groups: dict[tuple, list[Row]] = {}
    for r in rows:
        groups.setdefault((r.get("solver", ""), r.get("problem", "")), []).append(r)
    for group in groups.values():
        for c in group[0]:
            if c.startswith("s.") and len({g.get(c, "") for g in group}) > 1:
                varying.add(c)
    return ["solver", "problem"] + sorted(varying)


def _case_names(rows: list[Row], limit: int = 4) -> str:
    names = [r.get("case_id", "?") for r in rows]
    text = ", ".join(names[:limit])
    return text + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _notes(rows: list[Row], drawn: list[Row], throttled: list[Row]) -> list[str]:
    methods = sorted({r.get("energy_method", "") for r in drawn if r.get("energy_method")})
    notes = [f"energy_method: {', '.join(methods) or 'not recorded'}; J/solve = the window's "
             "energy / the solves in it; dashed: idle_power_w \u00d7 median time"]
    missing = [r for r in rows if number(r.get("energy_j")) is None]
    if missing:
        notes.append(f"no energy ({'/'.join(sorted({r.get('energy_method') or 'blank' for r in missing}))}"
                     f", not drawn): {_case_names(missing)}")
    if throttled:
        notes.append("throttled (hollow square): " + "; ".join(
            f"{r.get('case_id', '?')} ({r.get('gpu.throttle_flags') or 'flag unnamed'})" for r in throttled))
    else:
        notes.append("throttled: none")
    return notes


@figure_kind("energy", needs=("energy_j", "work_per_joule"), unavailable=_energy_missing)
def energy_figure(results: Results, spec: FigureSpec) -> Figure:
    rows = usable_filtered_rows(results, spec)
    if "energy_j" not in results.columns:
        raise PlotError(f"{results.summary_path}: no energy_j column; energy needs a run that "
                        "measured energy (issue 28)")
    drawn = [r for r in rows if number(r.get("energy_j")) is not None]
    if not drawn:
        raise PlotError(f"{spec.where()}: none of the {len(rows)} ok rows has an energy_j value "
                        f"(energy_method: {', '.join(sorted({r.get('energy_method') or 'blank' for r in rows}))})")
    columns = default_series(drawn)
    if spec.opt("series"):
        columns = [c if c == "solver" else resolve_column(c, results.columns, spec.where(), "series")
                   for c in spec.opt("series")]
    dodge = not spec.x and (is_categorical(results, drawn) or len({family(r) for r in drawn}) > 1)
    names: list[str] = []
    if dodge:
        names = instance_order(drawn)
        slot = {n: i for i, n in enumerate(names)}
        drawn = [dict(r, **{CATEGORY_KEY: str(slot[r.get("instance", "")])}) for r in drawn]
        x = CATEGORY_KEY
    else:
        x = choose_x(results, drawn, spec.x)
    metrics = (ENERGY, work_per_joule_metric(drawn))
    panels = [build_series(results, drawn, x, m, columns) for m in metrics]
    style.plan_series((s.solver, s.variant_index) for s in panels[0])
    figsize = (7.0, 6.5)
    if dodge:
        _, _, (width, _) = category_layout(len(names), max(0.6, 0.22 * len(panels[0]) + 0.25),
                                           labels=names)
        figsize = (width, 6.5)
    fig = new_figure(figsize)
    first = None
    for index, (metric, series) in enumerate(zip(metrics, panels)):
        ax = fig.add_subplot(2, 1, index + 1, sharex=first)
        first = first or ax
        shifts = slot_shifts(series, dodge)
        if dodge:
            draw_markers(ax, series, shifts, results.noise_threshold)
        else:
            draw_series(ax, series, errorbars=False, noise_threshold=results.noise_threshold)
        _overlays(ax, series, shifts, drawn, x, dodge, idle=index == 0)
        ys = [p.y for s in series for p in s.points]
        if index == 0:
            ys += [y for line in ax.lines if line.get_label() == "_idle" for y in line.get_ydata()
                   if y == y and y > 0]
        set_y_axis(ax, ys, metric.label, True)
        ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
        if dodge:
            ax.set_xlim(-0.5, len(names) - 0.5)
            if index == 1:
                set_category_ticks(ax, names)
                ax.set_xlabel("instance")
            else:
                ax.tick_params(labelbottom=False)
        else:
            if index == 0:
                ax.tick_params(labelbottom=False)
            set_x_axis(ax, sorted({p.x for s in series for p in s.points}),
                       style.param_label(x) if index == 1 else "", spec.opt("logx"))
    throttled = [r for r in drawn if _truthy(r.get("gpu.throttled"))]
    notes = _notes(rows, drawn, throttled)
    finish(fig, results, notes[0], spec.opt("title"), extra_lines=notes[1:],
           legend=_legend(fig), spec=spec)
    return fig


def _legend(fig) -> tuple[list, list[str]]:
    """Series first, then the marks (idle line, throttled, noisy), each once."""
    handles, labels = legend_entries(fig.axes)
    marks = (IDLE_LABEL, THROTTLED_LABEL)
    order = sorted(range(len(labels)), key=lambda i: (labels[i] in marks or labels[i].startswith(
        NOISY_LABEL.split("{")[0]), i))
    return [handles[i] for i in order], [labels[i] for i in order]
