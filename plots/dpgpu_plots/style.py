"""Colours, markers, line styles and axis labels shared by every figure kind.

Solvers take colours and markers from a fixed palette in sorted name order over the
solvers of the results folder (``use_solvers``, called before each figure is drawn): no
two solvers of one experiment share a colour (up to 20 solvers) or a marker (up to 8), and
a solver's first (or only) series looks the same in every figure of that experiment.

Every series of one figure has its own colour: the other variants of a solver (its swept
``s.`` parameters) take palette colours that no solver drawn in that figure uses
(``plan_series`` announces the figure's series before drawing). Line style and marker
(bars: hatch) tell variants apart as well, as a second cue, never the only one.
"""

from __future__ import annotations

import zlib
from typing import Iterable, Optional

from . import counters

# Matplotlib's "tab10" palette, then ten darker tones (tab20b/c), written out so that
# they never depend on rcParams.
PALETTE = (
    "#1f77b4",  # blue
    "#ff7f0e",  # orange
    "#2ca02c",  # green
    "#d62728",  # red
    "#9467bd",  # purple
    "#8c564b",  # brown
    "#e377c2",  # pink
    "#7f7f7f",  # grey
    "#bcbd22",  # olive
    "#17becf",  # cyan
    "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
    "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363",
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<")
LINESTYLES = ("-", "--", ":", "-.")
FILLSTYLES = ("full", "none")


def _hash(text: str) -> int:
    # CRC-32 rather than hash(): Python salts str hashes per process.
    return zlib.crc32(text.encode("utf-8"))


# solver -> index into PALETTE and MARKERS, assigned in sorted order by use_solvers.
_ASSIGNED: dict[str, int] = {}


# (solver, variant index) -> colour of a variant other than the first, for the figure
# being drawn; reset by use_solvers, filled by plan_series (or on first use).
_VARIANT_COLOURS: dict[tuple[str, int], str] = {}
_FIGURE_SOLVERS: set[str] = set()


def use_solvers(solvers) -> None:
    """Give each solver (sorted by name) the next palette slot. Called once per figure with
    every solver of the results folder, so colours are distinct and stable within it."""
    _ASSIGNED.clear()
    _VARIANT_COLOURS.clear()
    _FIGURE_SOLVERS.clear()
    for index, name in enumerate(sorted(set(solvers))):
        _ASSIGNED[name] = index


def plan_series(series) -> None:
    """Announce the (solver, variant index) pairs one figure draws, so that each variant
    after a solver's first takes a colour no solver of this figure has: variants of one
    solver never share a colour. Without it, variants avoid every solver of the folder."""
    pairs = sorted(set(series), key=lambda p: (_slot(p[0]), p[1]))
    _VARIANT_COLOURS.clear()
    _FIGURE_SOLVERS.clear()
    _FIGURE_SOLVERS.update(solver for solver, _ in pairs)
    for solver, index in pairs:
        series_colour(solver, index)


def series_colour(solver: str, index: int) -> str:
    """The colour of a solver's index-th variant: the solver's own for the first, else the
    next palette colour that neither a solver of the figure nor another variant has."""
    if index == 0:
        return colour_for(solver)
    key = (solver, index)
    if key not in _VARIANT_COLOURS:
        drawn = _FIGURE_SOLVERS or set(_ASSIGNED)
        taken = {colour_for(s) for s in drawn} | set(_VARIANT_COLOURS.values())
        free = [c for c in PALETTE if c not in taken]
        _VARIANT_COLOURS[key] = free[0] if free else _extra_colour(taken)
    return _VARIANT_COLOURS[key]


def _extra_colour(taken: set) -> str:
    """A colour outside the palette, once it is used up: hues a golden angle apart,
    alternately darker, the first that no series has."""
    import colorsys
    for k in range(1, 1000):
        r, g, b = colorsys.hsv_to_rgb((k * 0.618034) % 1.0, 0.75, 0.85 if k % 2 else 0.55)
        colour = "#" + "".join(f"{int(c * 255):02x}" for c in (r, g, b))
        if colour not in taken:
            return colour
    return "#000000"


def series_marker(solver: str, index: int) -> str:
    """The solver's marker for its first variant, the next ones for the others."""
    return MARKERS[(_slot(solver) + index) % len(MARKERS)]


def _slot(solver: str) -> int:
    if solver not in _ASSIGNED:  # a solver not announced: the next free slot
        _ASSIGNED[solver] = len(_ASSIGNED)
    return _ASSIGNED[solver]


def colour_for(solver: str) -> str:
    """The solver's colour (a hex string), distinct from every other solver's."""
    return PALETTE[_slot(solver) % len(PALETTE)]


def marker_for(solver: str) -> str:
    return MARKERS[_slot(solver) % len(MARKERS)]


# Phases (stacked bars) use light tints, so they never read as a solver's colour; the
# known phases have fixed ones, others a CRC-32 pick from the rest.
PHASE_ORDER = ("alloc", "h2d", "compute", "d2h")
PHASE_COLOURS = {"alloc": "#c7c7c7", "h2d": "#aec7e8", "compute": "#ffbb78", "d2h": "#98df8a"}
PHASE_EXTRA = ("#c5b0d5", "#f7b6d2", "#dbdb8d", "#9edae5", "#c49c94", "#ff9896")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo")


def phase_colour(phase: str) -> str:
    return PHASE_COLOURS.get(phase) or PHASE_EXTRA[_hash("phase:" + phase) % len(PHASE_EXTRA)]


def variant_hatch(index: int) -> str:
    """Bar hatch of the index-th variant of one solver (bars' answer to line styles)."""
    return HATCHES[index % len(HATCHES)]


def _lighten(colour: str, level: int) -> str:
    shade = (0.0, 0.4, 0.65)[level % 3]
    if not shade:
        return colour
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{int(c + (255 - c) * shade):02x}" for c in rgb)


def variant_fill(solver: str, index: int) -> str:
    """Bar colour of the index-th variant of one solver (its own colour; the hatch is the
    second cue)."""
    return series_colour(solver, index)


def variant_style(index: int) -> dict:
    """Line style and marker fill of the index-th variant of one solver (0 = solid, filled)."""
    return {
        "linestyle": LINESTYLES[index % len(LINESTYLES)],
        "fillstyle": FILLSTYLES[(index // len(LINESTYLES)) % len(FILLSTYLES)],
    }


def series_style(solver: str, variant_index: int) -> dict:
    """Keyword arguments for Axes.plot/errorbar that draw one series."""
    style = {"color": series_colour(solver, variant_index),
             "marker": series_marker(solver, variant_index), "markersize": 5}
    style.update(variant_style(variant_index))
    return style


def param_name(column: str) -> str:
    """``i.n`` -> ``n``, ``s.block`` -> ``block``; other columns unchanged."""
    for prefix in ("i.", "s."):
        if column.startswith(prefix):
            return column[len(prefix):]
    return column


def param_label(column: str) -> str:
    """Axis label for a parameter column. Parameters carry no unit in the CSV, so say
    which kind of parameter it is instead."""
    if column.startswith("i."):
        return f"{param_name(column)} (instance parameter)"
    if column.startswith("s."):
        return f"{param_name(column)} (solver parameter)"
    if column.startswith("c.") or column in _COLUMN_LABELS:
        return column_label(column)  # a counter the solver reported, with its unit
    return column


_COLUMN_LABELS = {
    "time_median_s": "run time, median (s)",
    "time_mean_s": "run time, mean (s)",
    "time_min_s": "run time, min (s)",
    "time_max_s": "run time, max (s)",
    "time_rsd": "relative standard deviation of run time (fraction)",
    "throughput": "throughput (work units per second)",
    "time_spread": "relative spread of run time, (max − min) / median",
    "work": "work (work units)",
    "harness_overhead": "harness overhead (fraction of median run time)",
}


# The folder's counter declarations (counters.json) and the solvers drawn, set by
# ``use_counters`` before each figure; None: an older folder, labels by name.
_declared: Optional[counters.Declarations] = None
_drawn_solvers: Optional[list] = None


def use_counters(declarations: Optional[counters.Declarations], solvers: Iterable[str] = ()) -> None:
    """Label counters (and throughput's work) by the folder's counters.json from now on."""
    global _declared, _drawn_solvers
    _declared = declarations
    _drawn_solvers = sorted(set(s for s in solvers if s)) or None


def declared_work_unit(problem: str, solver: str) -> Optional[str]:
    """What the solver's work counts by counters.json ("nodes"), or None (no declaration)."""
    return _declared.solver_work_unit(problem, solver) if _declared is not None else None


def row_work_unit(row) -> str:
    """The unit of a summary row's ``work``: what the solver's work counter counts
    (counters.json), else nodes for searches (they count ``c.nodes``), split evaluations for
    matrix-chain DP, else DP cell updates (README: `work`)."""
    declared = declared_work_unit(row.get("problem", ""), row.get("solver", ""))
    if declared:
        return declared
    if (row.get("c.nodes") or "").strip():
        return "nodes"
    if row.get("problem") == "mcm":
        return "split evaluations"
    return "cell updates"


def throughput_label(rows) -> str:
    """The throughput axis in the rows' work unit ("cell updates per second" for LCS), when
    they share one; else the generic label."""
    units = {row_work_unit(r) for r in rows}
    if len(units) == 1:
        return f"throughput ({units.pop()} per second)"
    return column_label("throughput")


def column_label(column: str) -> str:
    """Axis label, with unit, for a summary column used as y: known columns by name,
    throughput in the work counter's unit and ``c.`` counters by their declared kind and unit
    (counters.json), ``phase.<p>_s`` as seconds; in a folder without counters.json
    ``c.<x>_bytes`` as bytes, other ``c.`` counters as counts, and any other ``*_s`` column as
    seconds."""
    if column == "throughput" and _declared is not None:
        unit = _declared.work_unit(_drawn_solvers)
        if unit:
            return f"throughput ({unit} per second)"
    if column in _COLUMN_LABELS:
        return _COLUMN_LABELS[column]
    if column.startswith("phase.") and column.endswith("_s"):
        return f"{column[len('phase.'):-2]} phase, median (s)"
    if column.startswith("c.") and _declared is not None:
        declaration = _declared.common(column[2:], _drawn_solvers)
        if declaration is not None:
            return counters.axis_label(column[2:], declaration)
    if column.startswith("c."):
        name = column[2:]
        if name.endswith("_per_s"):
            return f"{name[:-len('_per_s')]} per second (rate)"
        for suffix, unit in (("_s", "s"), ("_ms", "ms"), ("_us", "\u00b5s"), ("_ns", "ns")):
            if name.endswith(suffix):
                return f"{name[:-len(suffix)]} ({unit})"
        if name.endswith(("_share", "_fraction", "_ratio", "occupancy")):
            return f"{name} (fraction)"
        if name.endswith("_time"):
            return f"{name} (model time units)"
        return f"{name} (bytes)" if name.endswith("bytes") else f"{name} (count)"
    if column.endswith("_s"):
        return f"{param_name(column)[:-2]} (s)"
    return param_label(column)


def filter_text(wanted: dict, bare: bool = False) -> str:
    """A spec's filter as a note says it: ``s.offload=true/none, i.n=16384/32768``; a YAML
    true as ``true`` (not Python's ``True``), an empty value (a solver without the
    parameter) as ``none``; ``bare``: parameter names without their i./s. prefix."""
    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return str(v) if str(v).strip() else "none"
    return ", ".join(f"{param_name(k) if bare else k}={'/'.join(value(v) for v in values)}"
                     for k, values in wanted.items())


def format_value(text: str) -> str:
    """A parameter value as it appears in a legend label."""
    return text if text.strip() else "-"


def format_tick(value: float) -> str:
    """Tick label for a parameter value: integers in full, other numbers in %g."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}"


def footnote(gpu_name: str | None, has_gpu_entry: bool, date: str | None, context_note: str,
             extra: str = "") -> str:
    """The line at the bottom of a figure: GPU, date, and what the error bars mean."""
    if gpu_name:
        gpu = f"GPU: {gpu_name}"
    elif has_gpu_entry:
        gpu = "no GPU"
    else:
        gpu = f"GPU unknown ({context_note})" if context_note else "GPU unknown"
    parts = [gpu]
    if date:
        parts.append(date)
    if extra:
        parts.append(extra)
    return " \u00b7 ".join(parts)
