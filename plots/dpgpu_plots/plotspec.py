"""The ``plot:`` section of experiment.yaml: the figures an experiment draws by default.

    plot:
      - kind: runtime            # runtime, throughput, metrics, phases, speedup, diagonal_time
        name: fig4a              # output file stem (default: the kind)
        x: i.n
        filter: {s.readonly: ldg}

Each item becomes a ``FigureSpec``. The keys each kind accepts are in ``KIND_KEYS``; an
unknown kind, an unknown key or a value of the wrong type is a PlotError that names the
file, the line, the figure and the allowed keys or values. Nothing here needs Matplotlib,
so a bad ``plot:`` section is reported the same way with or without it. Reading YAML needs
PyYAML (Debian ``python3-yaml``); without it a file that has a ``plot:`` section is an
error that says so, and a file without one is not read at all.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Mapping, Optional

from .errors import PlotError

# The keys each kind accepts, declared once in plots/plot_kinds.json (dpgpu check reads the
# same file, compiled in): every kind takes COMMON_KEYS, then its own.
with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "plot_kinds.json"),
          encoding="utf-8") as _f:
    _KINDS = json.load(_f)
COMMON_KEYS: tuple[str, ...] = tuple(_KINDS["common"])
KIND_KEYS: dict[str, tuple[str, ...]] = {kind: COMMON_KEYS + tuple(keys) for kind, keys in _KINDS["kinds"].items()}

KIND_HELP: dict[str, str] = {
    "runtime": "median run time against the swept parameter, one line per solver variant",
    "throughput": "work units per second against the swept parameter",
    "metrics": "profiler metrics (metrics.csv): mean bars with min-max whiskers, one panel per metric",
    "phases": "phase medians (phase.*_s) per case, stacked (side by side with logy), total run time as a marker",
    "gpu_phases": "multi-GPU cases: one panel per case, a stacked bar of c.gpu<i>.<phase>_s per GPU, run time dashed",
    "speedup": "speed-up over a baseline solver: Markdown and LaTeX tables plus a bar chart",
    "diagonal_time": "time per DP diagonal (series.csv), one line per case",
    "scaling": "speed-up over each line's smallest x against x, with the ideal line x / x0",
    "energy": "energy per solve (J, idle power x time dashed) and work per joule against x",
}

_TRISTATE = ("true", "false", "auto")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclass(frozen=True)
class FigureSpec:
    """One figure to draw: its kind, file name (default: the kind) and options.

    ``options`` holds the other keys of the ``plot:`` item (y, series, facets, logx,
    logy, errorbars, filter, title, baseline, metrics, phases, quantity), already checked.
    ``origin`` says where the spec came from, for messages (``experiment.yaml:12 plot[0]``).
    """

    kind: str
    name: Optional[str] = None
    x: Optional[str] = None  # x column; None: the kind chooses
    options: Mapping[str, object] = field(default_factory=dict)
    origin: str = ""

    @property
    def stem(self) -> str:
        return self.name or self.kind

    def where(self) -> str:
        """``experiment.yaml:12: plot figure 'fig4a'`` or ``figure 'runtime'``."""
        return f"{self.origin}: plot figure {self.stem!r}" if self.origin else f"figure {self.stem!r}"

    def opt(self, key: str, default=None):
        return self.options.get(key, default)


# --- reading the file ----------------------------------------------------------------

_TOP_PLOT = re.compile(r"^plot\s*:", re.MULTILINE)


def read_plot_section(path: str) -> list[FigureSpec]:
    """The figures declared in ``path``'s ``plot:`` section; [] when the file or the section
    is absent. Raises PlotError for a file that cannot be read or a bad section."""
    if not os.path.isfile(path):
        return []
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise PlotError(f"{path}: cannot read: {e}") from None
    if not _TOP_PLOT.search(text):
        return []
    try:
        import yaml
    except ImportError:
        raise PlotError(f"{path}: has a plot: section, and reading it needs PyYAML, which this "
                        f"Python cannot import (install python3-yaml, or pass --figure KIND)") from None
    try:
        data = yaml.safe_load(text)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        problem = getattr(e, "problem", None) or str(e)
        raise PlotError(f"{where}: not valid YAML: {problem}") from None
    if not isinstance(data, dict) or "plot" not in data:
        return []
    return parse_plot_section(data["plot"], path, _Lines(root))


class _Lines:
    """Line numbers of the plot: section's items and keys, from PyYAML's node tree."""

    def __init__(self, root):
        self.plot = None
        self.plot_line = None
        if root is not None and hasattr(root, "value") and isinstance(root.value, list):
            for key, value in root.value:
                if getattr(key, "value", None) == "plot":
                    self.plot, self.plot_line = value, key.start_mark.line + 1

    def item(self, index: int) -> Optional[int]:
        node = self._item(index)
        return node.start_mark.line + 1 if node is not None else self.plot_line

    def key(self, index: int, key: str) -> Optional[int]:
        node = self._item(index)
        if node is not None and isinstance(node.value, list):
            for k, _ in node.value:
                if getattr(k, "value", None) == key:
                    return k.start_mark.line + 1
        return self.item(index)

    def _item(self, index: int):
        seq = self.plot
        if seq is None or not isinstance(getattr(seq, "value", None), list):
            return None
        if seq.tag.endswith(":map"):
            return seq if index == 0 else None
        if 0 <= index < len(seq.value):
            return seq.value[index]
        return None


class _NoLines:
    def item(self, index):
        return None

    def key(self, index, key):
        return None


def parse_plot_section(section, path: str = "experiment.yaml", lines=None) -> list[FigureSpec]:
    """Check a parsed ``plot:`` value (a list of mappings, or one mapping) and turn it
    into FigureSpecs. ``path`` and ``lines`` only make the messages precise."""
    lines = lines or _NoLines()

    def at(line: Optional[int]) -> str:
        return f"{path}:{line}" if line else path

    if section is None:
        return []
    items = [section] if isinstance(section, dict) else section
    if not isinstance(items, list):
        raise PlotError(f"{at(lines.item(0))}: plot: must be a list of figures "
                        f"(- kind: runtime ...), not {_type_name(section)}")
    specs: list[FigureSpec] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        label = f"plot[{index}]"
        if not isinstance(item, dict):
            raise PlotError(f"{at(lines.item(index))}: {label}: a figure must be a mapping "
                            f"(kind: ..., name: ...), not {_type_name(item)}")
        if "kind" not in item:
            raise PlotError(f"{at(lines.item(index))}: {label}: missing key 'kind' "
                            f"(one of {', '.join(KIND_KEYS)})")
        kind = item["kind"]
        if kind not in KIND_KEYS:
            raise PlotError(f"{at(lines.key(index, 'kind'))}: {label}: unknown kind {kind!r} "
                            f"(allowed kinds: {', '.join(KIND_KEYS)})")
        allowed = KIND_KEYS[kind]
        for key in item:
            if key not in allowed:
                raise PlotError(f"{at(lines.key(index, key))}: {label}: unknown key {key!r} for "
                                f"kind {kind} (allowed keys: {', '.join(allowed)})")
        options = {}
        for key, value in item.items():
            if key in ("kind", "name", "x"):
                continue
            options[key] = _check_value(key, value, f"{at(lines.key(index, key))}: {label}")
        name = item.get("name")
        if name is not None:
            name = _check_value("name", name, f"{at(lines.key(index, 'name'))}: {label}")
        x = item.get("x")
        if x is not None:
            x = _check_value("x", x, f"{at(lines.key(index, 'x'))}: {label}")
        spec = FigureSpec(kind=kind, name=name, x=x, options=options,
                          origin=at(lines.item(index)))
        if spec.stem in seen:
            raise PlotError(f"{at(lines.item(index))}: {label}: output name {spec.stem!r} is "
                            f"already used by plot[{seen[spec.stem]}]; give one of them a "
                            f"different 'name'")
        seen[spec.stem] = index
        specs.append(spec)
    return specs


def _type_name(value) -> str:
    if value is None:
        return "an empty value"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), type(value).__name__)


def _check_value(key: str, value, where: str):
    """The value of ``key`` in its normal form, or PlotError naming the key."""
    def fail(expected: str):
        raise PlotError(f"{where}: key {key!r}: expected {expected}, got {value!r}")

    if key in ("x", "y", "facets", "title", "baseline", "quantity"):
        if isinstance(value, (dict, list, bool)) or value is None:
            fail("one column name" if key in ("x", "y", "facets") else "text")
        return str(value)
    if key == "name":
        if not isinstance(value, (str, int)) or isinstance(value, bool) or not _NAME.match(str(value)):
            fail("a file name stem (letters, digits, _ . + -)")
        return str(value)
    if key in ("series", "metrics", "phases"):
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not values or \
                not all(isinstance(v, str) and v for v in values):
            fail("a column name or a list of them" if key == "series" else "a list of names")
        return tuple(values)
    if key in ("logx", "logy"):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRISTATE:
            return {"true": True, "false": False, "auto": None}[value.lower()]
        fail("true, false or auto")
    if key == "position":
        if value in ("index", "fraction"):
            return value
        fail("index or fraction")
    if key == "errorbars":
        if value in ("minmax", "none") or value is False:
            return "none" if value is False else value
        fail("minmax or none")
    if key == "filter":
        if not isinstance(value, dict) or not value:
            fail("a mapping of column: value (or column: [values])")
        out = {}
        for column, wanted in value.items():
            wanted_list = wanted if isinstance(wanted, list) else [wanted]
            if not wanted_list or any(isinstance(w, (dict, list)) for w in wanted_list):
                raise PlotError(f"{where}: key 'filter': column {column!r}: expected a value or a "
                                f"list of values, got {wanted!r}")
            out[str(column)] = tuple(wanted_list)
        return out
    raise AssertionError(f"no check for key {key}")  # KIND_KEYS and this function disagree
