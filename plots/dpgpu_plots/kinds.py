"""The registry of figure kinds, and drawing one.

A figure kind is a function ``build(results, spec)`` registered under a name with
``@figure_kind(name)``; it returns a ``matplotlib.figure.Figure``, or an ``Output`` when it
also writes text files (the speedup kind's tables). A ``FigureSpec`` says which kind to
draw and how (output name, x column, options); the command line and the ``plot:`` section
of experiment.yaml (``plotspec``) both make them, so a kind takes everything it needs from
its spec, never from the command line. Kinds live one per module (``fig_*.py``), except
runtime and throughput, which share ``line_figure`` (``drawing.py``); ``figures.py``
imports them all, so that every kind is registered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Union

from matplotlib.figure import Figure

from . import plotspec, style
from .errors import PlotError
from .plotspec import FigureSpec
from .results import Results

@dataclass
class Output:
    """What a figure kind produces: a figure (saved in each --format) and text files
    (extension -> contents, e.g. the speedup kind's ``md`` and ``tex`` tables)."""

    figure: Optional[Figure]
    texts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FigureKind:
    name: str
    help: str
    build: Callable[[Results, FigureSpec], Union[Figure, Output]]
    needs: tuple[str, ...] = ()  # summary.csv columns it cannot do without
    # Why this kind cannot be drawn from a folder (None: it can); `--figure all` skips it then.
    unavailable: Callable[[Results], Optional[str]] = lambda results: None


REGISTRY: dict[str, FigureKind] = {}


def figure_kind(name: str, help: Optional[str] = None, needs: tuple[str, ...] = (),
                unavailable: Optional[Callable[[Results], Optional[str]]] = None):
    """Register the decorated ``build(results, spec)`` as figure kind ``name``. The kind
    must be listed in ``plotspec.KIND_KEYS`` (the keys its plot: items accept)."""

    def register(fn):
        if name in REGISTRY:
            raise ValueError(f"figure kind {name!r} registered twice")
        if name not in plotspec.KIND_KEYS:
            raise ValueError(f"figure kind {name!r} has no entry in plotspec.KIND_KEYS")
        REGISTRY[name] = FigureKind(name=name, help=help or plotspec.KIND_HELP[name], build=fn,
                                    needs=needs,
                                    unavailable=unavailable or (lambda results: None))
        return fn

    return register


def render(results: Results, spec: FigureSpec) -> Output:
    """Draw one figure (and its text files), or raise PlotError (unknown kind, missing
    column or file, no rows)."""
    kind = REGISTRY.get(spec.kind)
    if kind is None:
        raise PlotError(f"unknown figure kind {spec.kind!r} (known: {', '.join(REGISTRY)})")
    results.require_columns(kind.needs, f"for the {kind.name} figure")
    style.use_solvers(r.get("solver", "") for r in results.rows)
    style.use_counters(results.counters, (r.get("solver", "") for r in results.rows))
    out = kind.build(results, spec)
    return out if isinstance(out, Output) else Output(figure=out)


def build(results: Results, spec: FigureSpec) -> Figure:
    """The figure of ``render`` (tests and callers that want only the drawing)."""
    return render(results, spec).figure
