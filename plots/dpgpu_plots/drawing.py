"""The pieces figure kinds share, and the line figures (runtime and throughput).

Figures are built on ``matplotlib.figure.Figure`` directly (no pyplot, no global state),
so tests can inspect them before they are saved. The kinds' registry is ``kinds.py``; the
other kinds, one per module (``fig_*.py``), import this module and ``kinds``, and
``figures.py`` imports them all: no module imports one that imports it back.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import textwrap
from typing import Optional, Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator

from . import plotspec, style
from .errors import PlotError
from .kinds import Output, figure_kind  # noqa: F401 (Output: for the kinds that write texts)
from .plotspec import FigureSpec
from .noise import verdict
from .results import Results, Row, family, number
from .select import apply_filter, natural_key, resolve_column
from .series import (CATEGORY_KEY, NOISY_KEY, Metric, Series, build_series, choose_x,
                     distinct_numbers, sort_key)



# --- shared pieces -------------------------------------------------------------------

FIGSIZE = (7.0, 4.5)  # inches


def new_figure(figsize: tuple[float, float] = FIGSIZE) -> Figure:
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)  # a canvas for layout; savefig still picks one per format
    return fig


def panel_grid(count: int, width: float = 3.6, height: float = 3.2) -> tuple[int, int, tuple]:
    """(rows, columns, figsize) for ``count`` panels: up to 3 per row (2 for 4 panels)."""
    ncols = 1 if count == 1 else 2 if count in (2, 4) else 3
    nrows = math.ceil(count / ncols)
    if count == 1:
        return 1, 1, FIGSIZE
    return nrows, ncols, (max(FIGSIZE[0], width * ncols + 0.6), height * nrows + 1.0)


def spans_decade(values: list[float]) -> bool:
    """True when all values are positive and the largest is more than 10x the smallest."""
    return bool(values) and min(values) > 0 and max(values) > 10 * min(values)


def _is_power_of_two(v: float) -> bool:
    return v >= 1 and v == int(v) and (int(v) & (int(v) - 1)) == 0


def set_x_axis(ax, xs: list[float], label: str, log: Optional[bool] = None) -> None:
    """Label the x axis; log scale when ``log`` says so or, when it is None (auto), when x
    spans more than 10x (base 2 for powers of two); ticks at the data's x values when
    there are few of them."""
    distinct = sorted(set(xs))
    use_log = spans_decade(distinct) if log is None else (log and bool(distinct) and min(distinct) > 0)
    if log and not use_log:
        print("dpgpu_plot: note: logx: x has values <= 0; x axis left linear", file=sys.stderr)
    if use_log:
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
    elif use_log and ax.xaxis.get_scale() == "log" and not all(_is_power_of_two(v) for v in distinct):
        log_ticks(ax.xaxis, distinct)
    ax.set_xlabel(label)


def set_y_axis(ax, ys: list[float], label: str, log: Optional[bool] = None) -> None:
    """Label the y axis; log scale when ``log`` says so, or (None, auto) when y spans more
    than 10x; a log axis gets ``log_ticks``."""
    if spans_decade(ys) if log is None else (log and bool(ys) and min(ys) > 0):
        ax.set_yscale("log")
        log_ticks(ax.yaxis, [y for y in ys if y > 0])
    ax.set_ylabel(label)


SHARE_SUFFIXES = ("_share", "_fraction")


def share_axis(ax, column: str, ys: list[float]) -> None:
    """A share (``c.steal_share``) on a linear axis runs from 0 to 1, so its size reads from
    the axis (issue 36: ivm_fig5_phases' share plots started at 0.1)."""
    if ax.get_yscale() != "linear" or not column.endswith(SHARE_SUFFIXES) or not ys:
        return
    if min(ys) >= 0 and max(ys) <= 1:
        ax.set_ylim(0, 1)


def equal_decades(axes) -> None:
    """Panels with log y axes of their own ranges span the same number of decades, each
    centred on its data, so a slope (time against p: -1 is ideal) reads the same in every
    panel (issue 36: one panel spanned one decade, its neighbours four)."""
    logs = [ax for ax in axes if ax.get_yscale() == "log"]
    if len(logs) < 2:
        return
    limits = [ax.get_ylim() for ax in logs]
    span = max(math.log10(hi / lo) for lo, hi in limits if lo > 0 and hi > lo)
    for ax, (lo, hi) in zip(logs, limits):
        if lo <= 0 or hi <= lo or math.log10(hi / lo) >= span - 1e-9:
            continue
        centre = math.sqrt(lo * hi)
        low, high = centre / 10 ** (span / 2), centre * 10 ** (span / 2)
        log_ticks(ax.yaxis, [low, high])
        ax.set_ylim(low, high)


def _labelled_values(low: float, high: float) -> list[float]:
    """The values a log axis over [low, high] labels: steps of 0.2 (1, 1.2, ..., 9.8) within a
    factor 2 (issue 36: 2.3 s to 2.95 s got the two labels 2 and 3), 1-1.5-2-3-4-5-6-8 within
    a factor 4, 1-2-5 within two decades, else the powers of ten."""
    fine = tuple(round(1 + 0.2 * i, 1) for i in range(45))
    mantissas = fine if high < 2 * low else (1, 1.5, 2, 3, 4, 5, 6, 8) if high < 4 * low \
        else (1, 2, 5) if high < 100 * low else (1,)
    first, last = math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1
    return [float(f"{m}e{e}") for e in range(first, last + 1) for m in mantissas]


def log_ticks(axis, values: list[float]) -> None:
    """Labels of a log axis in one format (plain numbers while every label lies in
    [0.001, 100000), else m x 10^k for all), at ``_labelled_values``, with the limits
    widened to the labelled values around the data: no point above the last label, and
    at least two labels."""
    if not values:
        return
    low, high = min(values), max(values)
    labelled = _labelled_values(low, high)
    bottom = max(v for v in labelled if v <= low * (1 + 1e-9))
    top = min(v for v in labelled if v >= high * (1 - 1e-9))
    shown = [v for v in labelled if bottom <= v <= top]
    plain = all(1e-3 <= v < 1e5 for v in shown)
    axis.set_major_locator(FixedLocator(shown))
    axis.set_major_formatter(FuncFormatter(lambda v, _pos: log_label(v, plain)))
    axis.set_minor_locator(LogLocator(subs="auto"))
    axis.set_minor_formatter(NullFormatter())
    pad = (high / low) ** 0.03 if high > low else 1.05
    limits = (min(bottom, low / pad), max(top, high * pad))
    if axis is axis.axes.yaxis:
        axis.axes.set_ylim(*limits)
    else:
        axis.axes.set_xlim(*limits)


def log_label(value: float, plain: bool) -> str:
    """A log axis' label: ``0.05`` (plain) or ``$5\\times10^{-2}$``; never ``5e-02``."""
    if value <= 0:
        return ""
    if plain:
        return f"{value:g}"
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = round(value / 10 ** exponent, 6)
    if mantissa == 1:
        return f"$10^{{{exponent}}}$"
    return f"${mantissa:g}\\times10^{{{exponent}}}$"


def set_category_ticks(ax, labels: Sequence[str], fontsize: float = 7, start: int = 0) -> None:
    """Ticks at start..start+n-1 named by ``labels``, so that long solver names stay
    legible: wrapped to the width of their slot when that holds 12 characters or more, else
    on one line, rotated."""
    ax.set_xticks(range(start, start + len(labels)))
    fig_width = ax.figure.get_size_inches()[0]
    slot_in = ax.get_position().width * fig_width / max(len(labels), 1)
    per_slot = int(slot_in * 0.8 * 72 / (fontsize * 0.55))  # the axes shrink in the layout
    longest_word = max((len(w) for label in labels for w in label.split()), default=0)
    if max((len(label) for label in labels), default=0) <= per_slot:
        ax.set_xticklabels(labels, fontsize=fontsize)  # each fits its slot on one line
    elif per_slot >= 12:  # wrapped, a word longer than the slot broken (as category_layout counts)
        wrapped = [textwrap.fill(label, width=per_slot, break_long_words=longest_word > per_slot)
                   for label in labels]
        ax.set_xticklabels(wrapped, fontsize=fontsize)
    else:
        # Upright text whose boxes never overlap while the slot is wider than a line.
        ax.set_xticklabels(labels, rotation=90, ha="center", va="top", fontsize=fontsize)


NOISY_LABEL = "noisy (run-time rsd above {:.0%})"


def draw_series(ax, series: list[Series], errorbars: bool = True, dodge: bool = False,
                noise_threshold: float = 0.05, rings: bool = True) -> None:
    """One errorbar line per series; ``dodge``: categorical x, markers only, each series
    shifted within the slot so that none hides another. Noisy points get a red ring when
    ``rings`` (y is a time or derived from one). A series that lies on an earlier one is
    drawn over it, thinner and with smaller markers, so both stay visible."""
    width = 0.7 / max(len(series), 1)
    depths, covered = ([0] * len(series), [False] * len(series)) if dodge else overlap_depths(series)
    for index, s in enumerate(series):
        shift = (index - (len(series) - 1) / 2) * width if dodge else 0.0
        xs = [p.x + shift for p in s.points]
        ys = [p.y for p in s.points]
        below = [max(p.y - p.low, 0.0) for p in s.points]
        above = [max(p.high - p.y, 0.0) for p in s.points]
        kw = style.series_style(s.solver, s.variant_index)
        linewidth = 1.4
        if depths[index] or covered[index]:
            kw["markersize"] = max(8.0 - 2.2 * depths[index], 2.5)
            linewidth = max(2.6 - 0.8 * depths[index], 0.7)
        if dodge:
            kw["linestyle"] = "none"
        ax.errorbar(xs, ys, yerr=[below, above] if errorbars else None, label=s.label, capsize=2.5,
                    elinewidth=0.8, linewidth=linewidth, zorder=2 + depths[index], **kw)
        noisy = [(x, p.y) for x, p in zip(xs, s.points) if p.noisy] if rings else []
        if noisy:
            ax.plot([x for x, _ in noisy], [y for _, y in noisy], linestyle="none", marker="o",
                    markersize=11, markerfacecolor="none", markeredgecolor="#d62728",
                    markeredgewidth=1.0, label=NOISY_LABEL.format(noise_threshold))


def _lies_on(under: Series, over: Series) -> bool:
    """Whether the two lines run together: at half or more of the x values they share (at
    least two), their y values are within 3 % (a crossing is not enough)."""
    at = {p.x: p.y for p in under.points}
    shared = [p for p in over.points if p.x in at]
    same = sum(1 for p in shared if abs(at[p.x] - p.y) <= 0.03 * max(abs(p.y), 1e-300))
    return len(shared) >= 2 and same >= 2 and same * 2 >= len(shared)


def overlap_depths(series: list[Series]) -> tuple[list[int], list[bool]]:
    """(depth, covered) per series: depth 0 for one that lies on no earlier series, else
    one more than the deepest it lies on; covered when a later one lies on it."""
    depths, covered = [], [False] * len(series)
    for k, s in enumerate(series):
        below = [j for j in range(k) if _lies_on(series[j], s)]
        for j in below:
            covered[j] = True
        depths.append(max((depths[j] + 1 for j in below), default=0))
    return depths, covered


TIME_LIKE = ("time_", "phase.", "throughput")


def rings_apply(column: str) -> bool:
    """Whether the run time's noise verdict says something about a y column: times, rates
    and throughput (derived from the run time), not counts, sizes or shares."""
    if column == "time_rsd":
        return False
    return column.startswith(TIME_LIKE) or (column.startswith("c.") and column.endswith(("_s", "_per_s")))


def add_legend(ax, count: int) -> None:
    """A legend inside the axes, for a few entries (the rest go below: ``finish(legend=)``)."""
    ax.legend(fontsize="small", loc="best")


def _empty(handle) -> bool:
    return isinstance(handle, BarContainer) and not handle.patches


def legend_entries(axes) -> tuple[list, list[str]]:
    """(handles, labels) of every axes, each label once (in order of first appearance)."""
    seen: dict[str, object] = {}
    for ax in axes:
        handles, labels = ax.get_legend_handles_labels()
        for h, label in zip(handles, labels):
            if not label.startswith("_") and (label not in seen or _empty(seen[label])):
                seen[label] = h  # a bar series with no bar in one panel: its handle from another
    labels = sorted(seen, key=lambda label: label.startswith("noisy ("))  # the ring last
    return [seen[label] for label in labels], labels


LEGEND_POINTS = 8


def _legend_shape(labels: Sequence[str], width_in: float) -> tuple[int, float]:
    """(columns, height in inches) of a legend of ``labels`` below the axes."""
    longest = max((len(label) for label in labels), default=1)
    column_in = longest * LEGEND_POINTS * 0.55 / 72 + 0.7
    ncol = max(1, min(len(labels), int(width_in * 0.95 // column_in)))
    rows = math.ceil(len(labels) / ncol)
    return ncol, rows * LEGEND_POINTS * 1.75 / 72 + 0.1


FOOTNOTE_POINTS = 7


def footnote_text(results: Results, extra_note: str = "") -> str:
    return style.footnote(results.gpu_name, results.has_gpu_entry, results.dates,
                          results.context_note, extra_note)


def _rows_of_figure(results: Results, spec: Optional[FigureSpec]) -> Optional[list[Row]]:
    """Every summary row (any status) the figure's filter keeps; None (all rows) without a
    filter, or when the filter names a column of another table (metrics.csv, series.csv)."""
    if spec is None or not spec.opt("filter"):
        return None
    try:
        return apply_filter(results.rows, spec, results.columns, "summary.csv")
    except PlotError:
        return None


KIND_WHAT = {"runtime": "run time", "throughput": "throughput", "phases": "run time by phase",
             "metrics": "profiler metrics", "diagonal_time": "time per diagonal",
             "scaling": "speed-up against the smallest",
             "energy": "energy per solve and work per joule"}


def default_title(results: Results, spec: Optional[FigureSpec]) -> str:
    """The experiment's description (else name), then what this figure shows: its y, its
    x and its filter, so that two figures of one experiment never share a title."""
    if spec is None:
        return results.title
    if not (spec.x or spec.opt("y") or spec.opt("filter") or spec.opt("quantity")):
        return results.title  # nothing that tells it from the kind's other figures
    what = KIND_WHAT.get(spec.kind, spec.kind)
    if spec.opt("y"):
        what = style.param_name(str(spec.opt("y"))).replace("c.", "", 1).replace("_", " ")
    if spec.kind == "diagonal_time" and spec.opt("quantity"):
        what = str(spec.opt("quantity")).replace("_", " ")
    if spec.x:
        what += f" against {style.param_name(spec.x).replace('c.', '', 1)}"
    elif spec.kind == "scaling":
        what += " x"
    if spec.opt("filter"):
        what += " (" + style.filter_text(spec.opt("filter"), bare=True) + ")"
    return f"{results.title}: {what}"


def finish(fig: Figure, results: Results, extra_note: str, title: Optional[str] = None,
           extra_lines: Sequence[str] = (), bottom_extra: float = 0.0,
           legend: Optional[tuple[list, list[str]]] = None, spec: Optional[FigureSpec] = None) -> float:
    """Title (the spec's, else the experiment's description, else its name), footnote (GPU,
    date, what the marks mean, cases skipped or failed, then ``extra_lines``), the legend
    (``(handles, labels)``) below the axes at full width, and layout. ``spec``: the figure's,
    so the footnote counts only the cases its filter keeps. The figure grows by
    what the footnote and legend need, so the axes keep their size. One panel: the axes'
    title; several: the figure's. ``bottom_extra``: inches to keep free above the footnote.
    Returns the top of the footnote, in figure coordinates."""
    title = title or default_title(results, spec)
    width_in, height_in = fig.get_size_inches()
    # Title text is 12 pt; a DejaVu character is about 0.62 em wide; one axes' title spans
    # the axes, about 85 % of the figure.
    title = textwrap.fill(title, width=max(int(width_in * 0.85 * 72 / (12 * 0.62)), 30))
    title_in = 0.0
    if len(fig.axes) == 1:
        fig.axes[0].set_title(title)
    else:  # tight_layout leaves a suptitle out: keep room for it
        fig.suptitle(title, y=1.0 - 0.08 / height_in, va="top")
        title_in = 0.12 + 0.2 * (title.count("\n") + 1)
    chars = max(int(width_in * 72 / (FOOTNOTE_POINTS * 0.6)), 40)
    lines = []
    status = results.status_note(_rows_of_figure(results, spec))
    for text in [footnote_text(results, extra_note), *extra_lines, *([status] if status else [])]:
        lines += textwrap.wrap(text, width=chars, subsequent_indent="  ") or [""]
    note_in = 0.12 + 0.13 * len(lines)
    ncol, legend_in = _legend_shape(legend[1], width_in) if legend and legend[1] else (1, 0.0)
    added = note_in + legend_in + bottom_extra + title_in
    fig.set_size_inches(width_in, height_in + added)
    height_in += added
    if fig._suptitle is not None:
        fig._suptitle.set_y(1.0 - 0.08 / height_in)
    fig.text(0.08 / width_in, 0.06 / height_in, "\n".join(lines), fontsize=FOOTNOTE_POINTS, color="#555555",
             ha="left", va="bottom", linespacing=1.3)
    note_top = note_in / height_in
    rect = (0, (note_in + legend_in + bottom_extra) / height_in, 1, 1 - title_in / height_in)
    for _ in range(3):  # lay out; turn or thin x tick labels that overlap; again
        fig.tight_layout(rect=rect)
        fixed = untangle_x_ticks(fig) | wrap_y_labels(fig) | thin_y_ticks(fig)
        if not (fixed | drop_crowded_bar_labels(fig)):
            break
    if legend and legend[1]:
        fig.legend(legend[0], legend[1], fontsize=LEGEND_POINTS, loc="lower center", ncol=ncol,
                   bbox_to_anchor=(0.5, note_top), frameon=False)
    return note_top


def _visible_x_labels(ax, renderer) -> list:
    low, high = sorted(ax.get_xlim())
    out = []
    for tick in ax.xaxis.get_major_ticks():
        label = tick.label1
        if low - 1e-9 <= tick.get_loc() <= high + 1e-9 and label.get_visible() and label.get_text().strip():
            out.append((label.get_window_extent(renderer), label))
    return sorted(out, key=lambda bl: bl[0].x0)


def _crowded(boxes) -> bool:
    """Whether any two of the boxes (window extents) overlap, or come within 2 px."""
    return any(a.x0 < b.x1 + 2 and b.x0 < a.x1 + 2 and a.y0 < b.y1 + 2 and b.y0 < a.y1 + 2
               for i, a in enumerate(boxes) for b in boxes[i + 1:])


def thin_y_ticks(fig: Figure) -> bool:
    """Where y tick labels touch (a short log panel), keep the powers of ten only, else
    every other label. True when something changed."""
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        low, high = sorted(ax.get_ylim())
        ticks = [(t.get_loc(), t.label1) for t in ax.yaxis.get_major_ticks()
                 if low <= t.get_loc() <= high and t.label1.get_visible() and t.label1.get_text()]
        if len(ticks) < 3 or not _crowded([label.get_window_extent(renderer) for _, label in ticks]):
            continue
        locs = [loc for loc, _ in ticks]
        decades = [v for v in locs if ax.get_yscale() == "log" and math.isclose(
            10 ** round(math.log10(v)), v, rel_tol=1e-9)]
        keep = decades if len(decades) >= 2 else locs[::2]
        formatter = ax.yaxis.get_major_formatter()
        ax.yaxis.set_major_locator(FixedLocator(keep))
        ax.yaxis.set_major_formatter(formatter)
        changed = True
    return changed


def drop_crowded_bar_labels(fig: Figure) -> bool:
    """Remove the value labels over bars where two of them touch: the table files hold
    the values. True when some were removed."""
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        texts = [t for t in ax.texts if t.get_visible() and t.get_text().strip()]
        if len(texts) > 1 and _crowded([t.get_window_extent(renderer) for t in texts]):
            for t in texts:
                t.remove()
            changed = True
    return changed


def wrap_y_labels(fig: Figure) -> bool:
    """Wrap a y label taller than its axes (it would be clipped); True when one was."""
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        label = ax.yaxis.label
        text = label.get_text()
        if not text:
            continue
        tall = ax.get_window_extent(renderer).height
        needed = label.get_window_extent(renderer).height
        if needed > tall:
            words = text.replace("\n", " ")
            lines = math.ceil(needed / max(tall, 1.0)) + text.count("\n")
            ax.set_ylabel(textwrap.fill(words, width=max(math.ceil(len(words) / lines), 12)))
            changed = True
    return changed


def untangle_x_ticks(fig: Figure) -> bool:
    """Where neighbouring x tick labels overlap, turn them upright (90 degrees), and when
    upright ones still do, show every other one. True when something changed."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        labels = _visible_x_labels(ax, renderer)
        if not any(b.x1 + 3 > c.x0 for (b, _), (c, _) in zip(labels, labels[1:])):  # 3 px apart
            continue
        changed = True
        # Fix the labels as they are (their positions no longer move) and set them again.
        locs = [label.get_position()[0] for _, label in labels]
        texts = [label.get_text() for _, label in labels]
        size = labels[0][1].get_fontsize()
        if any(label.get_rotation() != 90 for _, label in labels):
            shown = texts
        else:
            shown = [t if k % 2 == 0 else "" for k, t in enumerate(texts)]
        ax.xaxis.set_major_locator(FixedLocator(locs))
        ax.set_xticklabels(shown, rotation=90, ha="center", fontsize=size)
    return changed


def usable_filtered_rows(results: Results, spec: FigureSpec) -> list[Row]:
    """Usable summary rows that pass the spec's filter (PlotError when none), as copies
    marked noisy (``NOISY_KEY``) when their run time's noise verdict says so."""
    rows = apply_filter(results.require_usable_rows(), spec, results.columns, "summary.csv")
    threshold = results.noise_threshold
    return [dict(r, **{NOISY_KEY: "1" if verdict(r, threshold).noisy else ""}) for r in rows]


# --- category axes (one slot per case or instance) ------------------------------------

MAX_WIDTH = 12.0  # inches; wider category charts wrap into rows of panels


def category_layout(count: int, slot_in: float, height: float = 3.0,
                    labels: Sequence[str] = ()) -> tuple[int, int, tuple[float, float]]:
    """(slots per panel, panel rows, figsize) for ``count`` category slots of ``slot_in``
    inches: one panel while that fits in MAX_WIDTH, else rows of equal panels; each panel
    row tall enough for its tick labels."""
    width = count * slot_in + 1.6
    if width <= MAX_WIDTH:
        per, nrows = count, 1
    else:
        per = max(1, int((MAX_WIDTH - 1.6) / slot_in))
        nrows = math.ceil(count / per)
        per = math.ceil(count / nrows)  # even panels
    width = min(max(width, FIGSIZE[0]), MAX_WIDTH)
    label_in = 0.35
    if labels:
        slot_chars = max(int((width - 1.6) / max(per, 1) * 0.8 * 72 / (7 * 0.55)), 1)
        longest = max(len(label) for label in labels)
        if longest <= slot_chars:  # one line
            label_in = 7 * 1.25 / 72 + 0.25
        elif slot_chars >= 12:  # wrapped (set_category_ticks)
            label_in = math.ceil(longest / slot_chars + 0.5) * 7 * 1.25 / 72 + 0.2
        else:  # rotated 90 degrees
            label_in = longest * 7 * 0.6 / 72 + 0.2
    return per, nrows, (width, nrows * (height + label_in) + 0.4)


def category_axes(fig: Figure, count: int, per: int, nrows: int, sharey: bool = True):
    """[(axes, first slot, end slot)] for rows of panels holding ``per`` slots each; draw
    every slot in every panel and call ``limit_category_axes`` after, which shows each
    panel its own."""
    out, first = [], None
    for row in range(nrows):
        ax = fig.add_subplot(nrows, 1, row + 1, sharey=first if sharey else None)
        first = first or ax
        out.append((ax, row * per, min(count, (row + 1) * per)))
    return out


def family_panels(slots: Sequence[str], family_of: dict, slot_in: float,
                  labels: Sequence[str]) -> Optional[tuple[list[int], list[tuple[str, int, int]], tuple]]:
    """When the category slots come from several instance families (``family_of``: slot ->
    family; e.g. coin, crane, tsmat, files) and do not fit in one panel, one panel row per
    family rather than rows cut wherever MAX_WIDTH falls (issue 36: ivm_table2_speedups split coin19 from coin20):
    (the slots' indices ordered by family in order of first appearance, [(panel title,
    start, end)], figsize). None with one family, or when the largest family does not fit
    in MAX_WIDTH (category_layout wraps then)."""
    order: list[str] = []
    for slot in slots:
        if family_of.get(slot) not in order:
            order.append(family_of.get(slot))
    if len(order) < 2 or len(slots) * slot_in + 1.6 <= MAX_WIDTH:  # one panel holds them all
        return None
    groups = [[i for i, slot in enumerate(slots) if family_of.get(slot) == f] for f in order]
    largest = max(len(g) for g in groups)
    if largest * slot_in + 1.6 > MAX_WIDTH:
        return None
    _, _, (width, height) = category_layout(largest, slot_in, labels=labels)
    spans, start = [], 0
    for f, group in zip(order, groups):
        spans.append((f"instances: {'from files' if f == 'file' else f or 'other'}", start, start + len(group)))
        start += len(group)
    return [i for g in groups for i in g], spans, (width, len(groups) * (height - 0.4) + 0.4)


def family_axes(fig: Figure, spans: list[tuple[str, int, int]], sharey: bool = True):
    """[(axes, first slot, end slot)], one panel row per family span, titled by it."""
    out, first = [], None
    for row, (title, start, end) in enumerate(spans):
        ax = fig.add_subplot(len(spans), 1, row + 1, sharey=first if sharey else None)
        ax.set_title(title, fontsize=9)
        first = first or ax
        out.append((ax, start, end))
    return out


def limit_category_axes(panels, labels: Sequence[str], xlabel: str) -> None:
    """Each panel shows its own slots, all panels the width of the widest."""
    widest = max(end - start for _, start, end in panels)
    for ax, start, end in panels:
        ax.set_xlim(start - 0.5, start + widest - 0.5)
        set_category_ticks(ax, labels[start:end], start=start)
    panels[-1][0].set_xlabel(xlabel)


def y_metric(results: Results, spec: FigureSpec, default: Metric) -> Metric:
    """The spec's ``y`` column as a Metric (min-max band for time columns), else
    ``default``; without the band when ``errorbars: none``."""
    y = spec.opt("y")
    metric = default
    if y:
        column = resolve_column(y, results.columns, spec.where(), "y")
        if column != default.column:
            band = _time_band if column.startswith("time_") and column != "time_rsd" else \
                _throughput_band if column == "throughput" else (lambda row: None)
            metric = Metric(column=column, label=style.column_label(column),
                            value=lambda row, c=column: number(row.get(c)), band=band)
    if spec.opt("errorbars") == "none":
        metric = Metric(column=metric.column, label=metric.label, value=metric.value)
    return metric


def line_figure(results: Results, spec: FigureSpec, default: Metric, band_note: str) -> Figure:
    """y = metric against a swept parameter, one line per solver variant; one panel per
    value of the spec's ``facets`` column, else one per instance family (generator, or
    files) when there are several. Instances read from files, or with no numeric swept
    parameter, get one slot each (``category_line_figure``) unless ``x`` is given."""
    rows = usable_filtered_rows(results, spec)
    metric = y_metric(results, spec, default)
    columns = None
    if spec.opt("series"):
        columns = [c if c == "solver" else resolve_column(c, results.columns, spec.where(), "series")
                   for c in spec.opt("series")]
    if not spec.x and is_categorical(results, rows):
        return category_line_figure(results, spec, rows, metric, columns, band_note)
    x = choose_x(results, rows, spec.x)
    _note_x_choice(results, rows, x, spec)
    facet = spec.opt("facets")
    if facet:
        facet = resolve_column(facet, results.columns, spec.where(), "facets")
        values = sorted({r.get(facet, "") for r in rows}, key=sort_key)
        groups = [(f"{style.param_name(facet)}={style.format_value(v)}",
                   [r for r in rows if r.get(facet, "") == v]) for v in values]
    else:
        families = sorted({family(r) for r in rows})
        if len(families) > 1:  # unrelated instances: a panel each, not one line through both
            groups = [(f"instances: {f or 'other'}", [r for r in rows if family(r) == f])
                      for f in families]
        else:
            groups = [(None, rows)]

    # Variant line styles from all rows, so a variant looks the same in every panel.
    everything = []
    for _, group_rows in groups:
        try:
            everything += build_series(results, group_rows, x, metric, columns)
        except PlotError:
            pass
    if not everything:
        build_series(results, rows, x, metric, columns)  # raises, saying why
    style_index = _variant_indices(everything)
    style.plan_series((s.solver, style_index.get(s.label, s.variant_index)) for s in everything)
    drawn = sum(p.rows for s in everything for p in s.points)
    if drawn < len(rows):
        print(f"dpgpu_plot: note: {spec.stem}: {len(rows) - drawn} ok row(s) lack a numeric {x} "
              f"or {metric.column}; left out", file=sys.stderr)

    nrows, ncols, figsize = panel_grid(len(groups))
    fig = new_figure(figsize)
    all_points = [p for s in everything for p in s.points]
    ys = [p.y for p in all_points]
    panel_series = []
    for _, group_rows in groups:
        try:
            panel_series.append(build_series(results, group_rows, x, metric, columns))
        except PlotError:
            panel_series.append([])  # nothing plottable in this panel; the others still are
    logy = spec.opt("logy")
    if logy is None:
        logy = spans_decade(ys)
    share = share_y([[p.y for s in series for p in s.points] for series in panel_series], ys, logy)
    first = None
    for index, (title, group_rows) in enumerate(groups):
        ax = fig.add_subplot(nrows, ncols, index + 1, sharey=first if share else None)
        first = first or ax
        series = panel_series[index]
        for s in series:
            s.variant_index = style_index.get(s.label, s.variant_index)
        draw_series(ax, series, errorbars=spec.opt("errorbars") != "none",
                    noise_threshold=results.noise_threshold, rings=rings_apply(metric.column))
        points = [p for s in series for p in s.points]
        set_x_axis(ax, [p.x for p in points] or [p.x for p in all_points], style.param_label(x),
                   spec.opt("logx"))
        own = [p.y for p in points]
        set_y_axis(ax, ys if share or not own else own, metric.label, logy)
        share_axis(ax, metric.column, ys)
        ax.grid(True, which="major", linewidth=0.5, alpha=0.4)
        if title:
            ax.set_title(title, fontsize=9)
            if index % ncols:
                ax.set_ylabel("")
    if not share:
        equal_decades(fig.axes)
    notes = _line_notes(results, spec, rows, metric, band_note, all_points)
    finish(fig, results, "; ".join(notes), spec.opt("title"), legend=legend_entries(fig.axes), spec=spec)
    return fig


def share_y(panels: list[list[float]], everything: list[float], log: bool) -> bool:
    """Whether panels share one y axis: unless a panel with several values would use less
    than 40 % of the shared range (on the axis' scale), which squashes it flat."""
    def scale(v: float) -> float:
        return math.log10(v) if log else v
    values = [v for v in everything if v > 0] if log else everything
    if len(panels) < 2 or not values:
        return True
    total = scale(max(values)) - scale(min(values))
    for panel in panels:
        own = [v for v in panel if v > 0] if log else panel
        if len(set(own)) > 1 and total > 0 and (scale(max(own)) - scale(min(own))) < 0.4 * total:
            return False
    return True


def _variant_indices(series: list[Series]) -> dict[str, int]:
    """Label -> variant index over every panel's series, in natural order per solver."""
    by_solver: dict[str, list[str]] = {}
    for s in series:
        labels = by_solver.setdefault(s.solver, [])
        if s.label not in labels:
            labels.append(s.label)
    out = {}
    for labels in by_solver.values():
        for i, label in enumerate(sorted(labels, key=natural_key)):
            out[label] = i
    return out


def _line_notes(results, spec, rows, metric, band_note, points) -> list[str]:
    notes = [band_note] if spec.opt("errorbars") != "none" and \
        any(metric.band(r) is not None for r in rows) else []
    if any(p.rows > 1 for p in points):
        notes.append("points: median over instances/seeds")
    if spec.opt("filter"):
        notes.append("filter: " + style.filter_text(spec.opt("filter")))
    return notes


def is_categorical(results: Results, rows: list[Row]) -> bool:
    """Whether x should be one slot per instance: some instance was read from a file, or no
    instance parameter takes more than one numeric value (several instances, or a single one:
    an axis "against n" with one point, labelled by whichever parameter came first, told
    nothing; issue 36)."""
    if any(family(r) == "file" for r in rows):
        return True
    try:
        x = choose_x(results, rows)
    except PlotError:
        return len({r.get("instance", "") for r in rows}) >= 1
    return len(distinct_numbers(rows, x)) < 2


def instance_order(rows: list[Row]) -> list[str]:
    """Instances by family, then work (smallest first), then name in natural order."""
    work: dict[str, float] = {}
    fam: dict[str, str] = {}
    for r in rows:
        name = r.get("instance", "")
        fam.setdefault(name, family(r))
        w = number(r.get("work"))
        if w is not None:
            work[name] = max(work.get(name, 0.0), w)
    return sorted(fam, key=lambda n: (fam[n], work.get(n, 0.0), natural_key(n)))


def category_line_figure(results: Results, spec: FigureSpec, rows: list[Row], metric: Metric,
                         columns, band_note: str) -> Figure:
    """One slot per instance, a marker per series in it (shifted so none hides another),
    no lines: the instances are not points of one sweep."""
    names = instance_order(rows)
    slot = {n: i for i, n in enumerate(names)}
    rows = [dict(r, **{CATEGORY_KEY: str(slot[r.get("instance", "")])}) for r in rows]
    series = build_series(results, rows, CATEGORY_KEY, metric, columns)
    per, nrows, figsize = category_layout(len(names), max(0.6, 0.22 * len(series) + 0.25),
                                          labels=names)
    fig = new_figure(figsize)
    panels = category_axes(fig, len(names), per, nrows)
    ys = [p.y for s in series for p in s.points]
    style.plan_series((s.solver, s.variant_index) for s in series)
    for ax, _, _ in panels:
        draw_series(ax, series, errorbars=spec.opt("errorbars") != "none", dodge=True,
                    noise_threshold=results.noise_threshold, rings=rings_apply(metric.column))
        set_y_axis(ax, ys, metric.label, spec.opt("logy"))
        ax.grid(True, axis="y", which="major", linewidth=0.5, alpha=0.4)
    limit_category_axes(panels, names, "instance")
    notes = _line_notes(results, spec, rows, metric, band_note, [p for s in series for p in s.points])
    finish(fig, results, "; ".join(notes), spec.opt("title"), legend=legend_entries(fig.axes), spec=spec)
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


def _no_usable_rows(results: Results) -> Optional[str]:
    return None if results.usable_rows() else "no ok, valid rows in summary.csv"


@figure_kind("runtime", needs=("time_median_s",), unavailable=_no_usable_rows)
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


@figure_kind("throughput", needs=("throughput",), unavailable=_no_usable_rows)
def throughput_figure(results: Results, spec: FigureSpec) -> Figure:
    # Labelled in the solvers' work unit where counters.json declares one ("nodes per second").
    # Else in the problem's own unit (LCS: cell updates per second), not "work units".
    metric = dataclasses.replace(THROUGHPUT, label=style.throughput_label(usable_filtered_rows(results, spec)))
    return line_figure(results, spec, metric, "bars: from min and max run time")
