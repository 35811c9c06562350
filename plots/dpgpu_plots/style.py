"""Colours, markers, line styles and axis labels shared by every figure kind.

Solvers take colours and markers from a fixed palette in sorted name order over the
solvers of the results folder (``use_solvers``, called before each figure is drawn): no
two solvers of one experiment share a colour (up to 20 solvers) or a marker (up to 8), and
a solver looks the same in every figure of that experiment. Variants of one solver (its
swept ``s.`` parameters) keep the solver's colour and marker and differ in line style and
marker fill (bars: hatch).
"""

from __future__ import annotations

import zlib

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


def use_solvers(solvers) -> None:
    """Give each solver (sorted by name) the next palette slot. Called once per figure with
    every solver of the results folder, so colours are distinct and stable within it."""
    _ASSIGNED.clear()
    for index, name in enumerate(sorted(set(solvers))):
        _ASSIGNED[name] = index


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
    """Bar colour of the index-th variant of one solver: the solver's colour, lightened
    once the hatches run out (6 hatches x 3 shades tell 18 variants apart)."""
    return _lighten(colour_for(solver), index // len(HATCHES))


def variant_style(index: int) -> dict:
    """Line style and marker fill of the index-th variant of one solver (0 = solid, filled)."""
    return {
        "linestyle": LINESTYLES[index % len(LINESTYLES)],
        "fillstyle": FILLSTYLES[(index // len(LINESTYLES)) % len(FILLSTYLES)],
    }


def series_style(solver: str, variant_index: int) -> dict:
    """Keyword arguments for Axes.plot/errorbar that draw one series."""
    # 4 line styles x 2 fills, then lighter shades: 24 variants told apart.
    per = len(LINESTYLES) * len(FILLSTYLES)
    style = {"color": _lighten(colour_for(solver), variant_index // per), "marker": marker_for(solver),
             "markersize": 5}
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


def column_label(column: str) -> str:
    """Axis label, with unit, for a summary column used as y: known columns by name,
    ``phase.<p>_s`` as seconds, ``c.<x>_bytes`` as bytes, other ``c.`` counters as counts,
    and any other ``*_s`` column as seconds."""
    if column in _COLUMN_LABELS:
        return _COLUMN_LABELS[column]
    if column.startswith("phase.") and column.endswith("_s"):
        return f"{column[len('phase.'):-2]} phase, median (s)"
    if column.startswith("c."):
        name = column[2:]
        if name.endswith("_per_s"):
            return f"{name[:-len('_per_s')]} per second (rate)"
        if name.endswith("_s"):
            return f"{name[:-2]} (s)"
        return f"{name} (bytes)" if name.endswith("bytes") else f"{name} (count)"
    if column.endswith("_s"):
        return f"{param_name(column)[:-2]} (s)"
    return param_label(column)


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
