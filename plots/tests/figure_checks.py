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
