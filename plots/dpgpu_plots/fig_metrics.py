"""The ``metrics`` figure: profiler metrics from metrics.csv (the papers' Fig. 5 style).

metrics.csv has one row per case x metric x kernel: ``experiment, case_id, problem,
instance, solver, kernel, metric, ncu_metric, unit, min, mean, max, launches_profiled,
launches_total, sampling, status, message``. The figure has one panel per metric and in
each one bar per case (per case and kernel when a case profiled several kernels): the
mean over the profiled launches, whiskers from min to max, in the solver's colour.
Percent metrics sit on a 0-100 % axis, ``ipc`` on instructions per cycle. Rows whose
status is not ok are not drawn; the footnote lists them.

Rows are joined to summary.csv by ``case_id``, so ``filter`` and ``series`` can use the
case's ``i.``/``s.`` parameters.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Optional

from matplotlib.figure import Figure

from . import style
from .errors import PlotError
from .drawing import (FigureSpec, category_layout, figure_kind, finish, new_figure, panel_grid,
                      set_category_ticks)
from .results import METRICS, METRICS_REQUIRED, Results, Row, number
from .select import apply_filter, case_labels, resolve_column, shorten_kernel

MISSING_WHY = ("no profiler metrics were collected for this run (an experiment collects them "
               "with a profile: section; metrics.csv comes from running the cases under Nsight Compute)")

PERCENT_UNITS = ("%", "pct", "percent")
PERCENT_SUFFIXES = ("efficiency", "occupancy", "utilization", "utilisation")
IPC_UNITS = ("inst/cycle", "instructions/cycle", "instructions per cycle", "ipc")



def wrap_metric(name: str, width: int = 34) -> str:
    """A profiler metric's name on lines of at most ``width`` characters, broken after a dot
    where one fits (``sm__pipe_alu_cycles_active.avg.`` / ``pct_of_peak_sustained_active``),
    else after an underscore, so a long name does not run over its neighbour panel's title
    (issue 36: mcm_tiled_profile/tiled_metrics)."""
    if len(name) <= width:
        return name
    lines = [""]
    for part in re.findall(r"[^.]*\.|[^.]+$", name):
        pieces = [part] if len(part) <= width else re.findall(r"[^_]*_+|[^_]+$", part)
        for piece in pieces:
            if lines[-1] and len(lines[-1]) + len(piece) > width:
                lines.append("")
            lines[-1] += piece
    return "\n".join(lines)


def _unavailable(results: Results) -> Optional[str]:
    path = os.path.join(results.directory, METRICS)
    return None if os.path.isfile(path) else f"no {METRICS}"


def metric_unit(metric: str, unit: str) -> tuple[str, bool]:
    """(axis unit text, is a percentage) of one metric, from its unit cell and name."""
    u = (unit or "").strip()
    if u.lower() in PERCENT_UNITS or (not u and metric.lower().endswith(PERCENT_SUFFIXES)):
        return "%", True
    if metric.lower() == "ipc" or u.lower() in IPC_UNITS:
        return "instructions per cycle", False
    return (u or "value"), False


def _error_text(label: str, row: Row) -> str:
    message = " ".join((row.get("message") or "").split()) or "no message"
    if len(message) > 90:
        message = message[:87] + "..."
    status = (row.get("status") or "").strip() or "(empty status)"
    if status == "ok":
        status = "no mean"
    kernel = row.get("kernel", "").strip()
    kernel = f" [{shorten_kernel(kernel)}]" if kernel else ""
    return f"{label}{kernel} {row.get('metric', '')}: {status}: {message}"


@figure_kind("metrics", unavailable=_unavailable)
def metrics_figure(results: Results, spec: FigureSpec) -> Figure:
    path, raw = results.side_table(METRICS, METRICS_REQUIRED, MISSING_WHY)
    if not raw:
        raise PlotError(f"{path}: no plottable rows: the file has a header but no rows")
    # The metrics row wins on shared columns (solver, instance, status, message).
    rows = [{**results.case(r.get("case_id", "")), **r} for r in raw]
    columns = list(dict.fromkeys(list(raw[0].keys()) + results.columns))
    rows = apply_filter(rows, spec, columns, "metrics.csv (joined with summary.csv)")

    names = list(dict.fromkeys(r.get("metric", "") for r in rows))
    wanted = spec.opt("metrics")
    if wanted:
        unknown = [m for m in wanted if m not in names]
        if unknown:
            raise PlotError(f"{spec.where()}: metrics: {', '.join(map(repr, unknown))} not in "
                            f"{path} (metrics there: {', '.join(names)})")
        names = list(wanted)
        rows = [r for r in rows if r.get("metric") in names]

    good = [r for r in rows if (r.get("status") or "").strip() == "ok" and number(r.get("mean")) is not None]
    good_ids = {id(r) for r in good}
    bad = [r for r in rows if id(r) not in good_ids]
    if not good:
        statuses = sorted({(r.get("status") or "").strip() or "(empty)" for r in rows})
        first = next((r.get("message", "").strip() for r in rows if r.get("message", "").strip()), "")
        raise PlotError(f"{path}: no plottable rows: none of the {len(rows)} rows has status ok "
                        f"and a mean (statuses: {', '.join(statuses)})"
                        + (f"; first message: {' '.join(first.split())[:100]!r}" if first else ""))
    names = [m for m in names if any(r.get("metric") == m for r in good)] + \
        [m for m in names if not any(r.get("metric") == m for r in good)]
    drawn_names = [m for m in names if any(r.get("metric") == m for r in good)]

    # Cases in file order; labels from the joined rows (solver + what varies, or `series`).
    case_ids = list(dict.fromkeys(r.get("case_id", "") for r in rows))
    first_row = {}
    for r in rows:
        first_row.setdefault(r.get("case_id", ""), r)
    label_columns = None
    if spec.opt("series"):
        label_columns = [c if c in ("solver", "instance", "kernel") else
                         resolve_column(c, columns, spec.where(), "series", "metrics.csv")
                         for c in spec.opt("series")]
    labels = dict(zip(case_ids, case_labels([first_row[c] for c in case_ids], label_columns)))
    kernels = {}
    for r in good:
        kernels.setdefault(r.get("case_id", ""), [])
        if r.get("kernel", "") not in kernels[r.get("case_id", "")]:
            kernels[r.get("case_id", "")].append(r.get("kernel", ""))
    several = any(len(k) > 1 for k in kernels.values())
    bars = []  # (case_id, kernel or None, label, solver)
    for case in case_ids:
        solver = first_row[case].get("solver", "")
        if several:
            for kernel in kernels.get(case, []):
                bars.append((case, kernel, f"{labels[case]} {shorten_kernel(kernel)}", solver))
        elif case in kernels:
            bars.append((case, None, labels[case], solver))
    position = {(case, kernel): i for i, (case, kernel, _, _) in enumerate(bars)}

    panel_width = max(3.0, 0.45 * len(bars) + 1.4)
    if panel_width > 4.0 and len(drawn_names) > 1:  # wide panels: one above the other
        per, _, (width, height) = category_layout(len(bars), 0.45, height=2.6,
                                                  labels=[b[2] for b in bars])
        nrows, ncols, figsize = len(drawn_names), 1, (width, height * len(drawn_names))
    else:
        nrows, ncols, figsize = panel_grid(len(drawn_names), width=panel_width, height=3.4)
    fig = new_figure(figsize)
    for index, metric in enumerate(drawn_names):
        ax = fig.add_subplot(nrows, ncols, index + 1)
        mrows = [r for r in good if r.get("metric") == metric]
        unit_text, percent = metric_unit(metric, mrows[0].get("unit", ""))
        xs, heights, lows, highs, colours = [], [], [], [], []
        for r in mrows:
            key = (r.get("case_id", ""), r.get("kernel", "") if several else None)
            if key not in position:
                continue
            mean = number(r.get("mean"))
            low, high = number(r.get("min")), number(r.get("max"))
            xs.append(position[key])
            heights.append(mean)
            lows.append(max(mean - low, 0.0) if low is not None else 0.0)
            highs.append(max(high - mean, 0.0) if high is not None else 0.0)
            colours.append(style.colour_for(r.get("solver", "")))
        ax.bar(xs, heights, width=0.7, color=colours, edgecolor="#333333", linewidth=0.5,
               yerr=[lows, highs], capsize=3, error_kw={"elinewidth": 0.8}, label=metric)
        set_category_ticks(ax, [b[2] for b in bars])
        ax.set_xlim(-0.6, len(bars) - 0.4)
        ax.set_ylabel(f"{metric} ({unit_text})")
        ax.set_title(wrap_metric(metric), fontsize=9)
        top = max(h + e for h, e in zip(heights, highs))
        if percent:
            ax.set_ylim(0, 100.0 if top <= 100.0 else top * 1.05)
        else:
            ax.set_ylim(0, top * 1.12 if top > 0 else 1)
        if spec.opt("logy"):
            ax.set_yscale("log")
        ax.grid(True, axis="y", linewidth=0.5, alpha=0.4)

    notes = ["bars: mean over profiled kernel launches, whiskers min\u2013max"]
    profiled = [number(r.get("launches_profiled")) for r in good]
    total = [number(r.get("launches_total")) for r in good]
    if all(p is not None and t is not None for p, t in zip(profiled, total)):
        if any(p < t for p, t in zip(profiled, total)):
            notes.append(f"launches profiled: {_span(profiled)} of {_span(total)}")
        else:
            notes.append("every launch profiled")
    sampling = sorted({(r.get("sampling") or "").strip() for r in good} - {""})
    if sampling:
        notes.append("sampling: " + ", ".join(sampling))
    extra = []
    if bad:
        texts = [_error_text(labels.get(r.get("case_id", ""), r.get("solver", "")), r) for r in bad]
        for text in texts:
            print(f"dpgpu_plot: note: {spec.stem}: not drawn: {text}", file=sys.stderr)
        shown = texts[:4]
        extra.append(f"not drawn ({len(bad)} row{'s' if len(bad) > 1 else ''} of metrics.csv "
                     f"without status ok): " + "; ".join(shown)
                     + (f"; and {len(texts) - 4} more (see metrics.csv)" if len(texts) > 4 else ""))
    finish(fig, results, "; ".join(notes), spec.opt("title"), extra_lines=extra, spec=spec)
    return fig


def _span(values) -> str:
    low, high = min(values), max(values)
    text = style.format_tick(low)
    return text if low == high else f"{text}\u2013{style.format_tick(high)}"
