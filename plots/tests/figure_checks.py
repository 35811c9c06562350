"""Checks any figure must pass, used by the figure tests: series told apart, a legend
entry per series, no text over another, a sensible size."""

from __future__ import annotations


def legend_texts(fig) -> list[str]:
    """The entries of the figure's legend (below the axes), else of its first axes'."""
    legends = list(fig.legends) or [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [t.get_text() for legend in legends for t in legend.get_texts()]


def series_colours(fig) -> dict[str, str]:
    """{label: colour} of every errorbar series (line figures), over all axes."""
    from matplotlib.colors import to_hex
    out = {}
    for ax in fig.axes:
        for c in ax.containers:
            if hasattr(c, "lines") and c.lines and c.lines[0] is not None:
                out.setdefault(c.get_label(), to_hex(c.lines[0].get_color()))
    return out


def series_looks(fig) -> dict[str, tuple]:
    """{label: (colour, marker, linestyle, fill)} of every errorbar series."""
    from matplotlib.colors import to_hex
    out = {}
    for ax in fig.axes:
        for c in ax.containers:
            if hasattr(c, "lines") and c.lines and c.lines[0] is not None:
                line = c.lines[0]
                out.setdefault(c.get_label(), (to_hex(line.get_color()), line.get_marker(),
                                               line.get_linestyle(), line.get_fillstyle()))
    return out


def _drawn_texts(fig):
    """The texts a figure draws: its own, its legends', each axes' title, axis labels,
    tick labels within the view, and texts placed on the axes (bar labels)."""
    texts = list(fig.texts) + [t for legend in fig.legends for t in legend.get_texts()]
    if getattr(fig, "_suptitle", None) is not None:
        texts.append(fig._suptitle)
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        texts += list(ax.texts)
        if ax.get_legend():
            texts += list(ax.get_legend().get_texts())
        for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            low, high = min(low, high), max(low, high)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if low - 1e-9 <= tick.get_loc() <= high + 1e-9 and tick.label1.get_visible():
                    texts.append(tick.label1)
    unique = {id(t): t for t in texts}  # a suptitle is also among fig.texts
    return list(unique.values())


def text_boxes(fig):
    """(text, bbox in pixels) of every visible, non-empty text the figure draws."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    out = []
    for t in _drawn_texts(fig):
        if not t.get_visible() or not t.get_text().strip():
            continue
        bbox = t.get_window_extent(renderer)
        if bbox.width > 0 and bbox.height > 0:
            out.append((t.get_text(), bbox))
    return out


def overlapping_texts(fig, slack: float = 1.0) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap by more than ``slack`` pixels each way."""
    boxes = [(t, b) for t, b in text_boxes(fig)]
    out = []
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            (ta, a), (tb, b) = boxes[i], boxes[j]
            dx = min(a.x1, b.x1) - max(a.x0, b.x0)
            dy = min(a.y1, b.y1) - max(a.y0, b.y0)
            if dx > slack and dy > slack:
                out.append((ta, tb))
    return out


def clipped_texts(fig) -> list[str]:
    """Texts that reach outside the figure."""
    width, height = fig.canvas.get_width_height()
    return [t for t, b in text_boxes(fig) if b.x0 < -1 or b.y0 < -1 or b.x1 > width + 1
            or b.y1 > height + 1]


def pixel_size(fig, dpi: int = 150) -> tuple[int, int]:
    w, h = fig.get_size_inches()
    return int(w * dpi), int(h * dpi)


# Legend entries that are marks, not series: they may share a colour with anything.
REFERENCE_ENTRIES = ("noisy (", "ideal (", "baseline: ")


def _handle_colour(handle):
    """The colour a legend handle shows: a line's, an errorbar's line, a bar's face."""
    from matplotlib.colors import to_hex
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    if isinstance(handle, ErrorbarContainer):
        handle = handle.lines[0]
    if isinstance(handle, BarContainer):
        handle = handle.patches[0] if handle.patches else None
    if isinstance(handle, Line2D):
        return to_hex(handle.get_color())
    if isinstance(handle, Patch):
        return to_hex(handle.get_facecolor())
    return None


def series_handles(fig) -> list[tuple[str, object]]:
    """(label, handle) of every series the figure's legends list, reference marks left out."""
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    out = []
    for legend in legends:
        handles = getattr(legend, "legend_handles", None) or legend.legendHandles
        for text, handle in zip(legend.get_texts(), handles):
            label = text.get_text()
            if not label.startswith(REFERENCE_ENTRIES):
                out.append((label, handle))
    return out


def colour_clashes(fig, skip_prefixes: tuple[str, ...] = ()) -> list[tuple[str, str, str]]:
    """(label, label, colour) of two series shown in one colour. Phase patches (stacked
    bars, ``skip_prefixes``) are left out: they are parts, not series."""
    seen: dict[str, str] = {}
    out = []
    for label, handle in series_handles(fig):
        if label.startswith(skip_prefixes):
            continue
        colour = _handle_colour(handle)
        if colour is None:
            continue
        if colour in seen:
            out.append((seen[colour], label, colour))
        else:
            seen[colour] = label
    return out


def clipped_or_overlapping(fig) -> list[str]:
    """Problems a reader sees: texts outside the figure, texts over texts, and a tight
    bounding box larger than the figure (something drawn outside it)."""
    problems = [f"clipped: {t!r}" for t in clipped_texts(fig)]
    problems += [f"overlap: {a!r} / {b!r}" for a, b in overlapping_texts(fig)]
    renderer = fig.canvas.get_renderer()
    tight = fig.get_tightbbox(renderer)
    w, h = fig.get_size_inches()
    if tight.x0 < -0.02 or tight.y0 < -0.02 or tight.x1 > w + 0.02 or tight.y1 > h + 0.02:
        problems.append(f"drawn outside the figure: tight bbox {tight.bounds} vs {w:.2f} x {h:.2f} in")
    return problems
