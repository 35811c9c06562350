"""The counters a results folder's solvers declare (``counters.json``, written by ``dpgpu run``
when it starts): per solver and counter its kind (count, bytes, rate, ratio, seconds), unit and
help, so a counter is labelled and formatted by its declaration, not guessed from its name.

A folder written before counters.json existed has none: ``read`` returns None and callers
keep their rules on names (style.column_label's suffixes).
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Iterable, Optional

from . import fmt

COUNTERS = "counters.json"
KINDS = ("count", "bytes", "rate", "ratio", "seconds")


@dataclass(frozen=True)
class Declaration:
    kind: str  # one of KINDS
    unit: str  # what a count or rate counts ("nodes"); "" for the other kinds
    help: str = ""


def _pattern(name: str) -> re.Pattern:
    """A declared name as a regular expression: '#' stands for a whole number (gpu#.wait_s)."""
    return re.compile("".join(r"\d+" if ch == "#" else re.escape(ch) for ch in name) + r"\Z")


class Declarations:
    """counters.json's ``solvers``: problem -> solver -> {work_counter, counters}."""

    def __init__(self, solvers: dict):
        self._solvers: dict = {}
        for problem, by_name in solvers.items():
            if not isinstance(by_name, dict):
                continue
            for name, entry in by_name.items():
                if isinstance(entry, dict):
                    self._solvers[(problem, name)] = entry

    def _counters(self, key) -> dict:
        counters = self._solvers.get(key, {}).get("counters", {})
        return counters if isinstance(counters, dict) else {}

    def of(self, problem: str, solver: str, counter: str) -> Optional[Declaration]:
        """One solver's declaration of a counter (a '#' pattern matches), or None."""
        for name, d in self._counters((problem, solver)).items():
            if isinstance(d, dict) and d.get("kind") in KINDS and _pattern(name).match(counter):
                return Declaration(d["kind"], str(d.get("unit", "")), str(d.get("help", "")))
        return None

    def common(self, counter: str, solvers: Optional[Iterable[str]] = None) -> Optional[Declaration]:
        """The declaration the solvers (all when None; by name, any problem) agree on for a
        counter: None when none declares it or two declare another kind or unit."""
        wanted = None if solvers is None else set(solvers)
        found: set = set()
        for problem, name in self._solvers:
            if wanted is None or name in wanted:
                d = self.of(problem, name, counter)
                if d is not None:
                    found.add((d.kind, d.unit))
        if len(found) != 1:
            return None
        kind, unit = found.pop()
        return Declaration(kind, unit)

    def solver_work_unit(self, problem: str, solver: str) -> Optional[str]:
        """What one solver's work counts, when it declares a work counter that is a count
        ("nodes"); None otherwise (its work is the problem's own measure)."""
        work = self._solvers.get((problem, solver), {}).get("work_counter") or ""
        d = self.of(problem, solver, work) if work else None
        return d.unit if d is not None and d.kind == "count" and d.unit else None

    def work_unit(self, solvers: Optional[Iterable[str]] = None) -> Optional[str]:
        """The unit of the solvers' work (by name, any problem) when they all declare one and
        agree; None otherwise."""
        wanted = None if solvers is None else set(solvers)
        units = {self.solver_work_unit(problem, name) for problem, name in self._solvers
                 if wanted is None or name in wanted}
        return units.pop() if len(units) == 1 else None


def read(directory: str) -> Optional[Declarations]:
    """The folder's counters.json, or None when it has none (an older folder) or it is
    unreadable (a warning: it only labels)."""
    path = os.path.join(directory, COUNTERS)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        solvers = data["solvers"]
        if not isinstance(solvers, dict):
            raise ValueError("'solvers' is not an object")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"dpgpu_plot: warning: {path}: unreadable, counters labelled by name: {e}", file=sys.stderr)
        return None
    return Declarations(solvers)


def axis_label(name: str, d: Declaration) -> str:
    """An axis label with the unit the declaration gives the values as they are stored."""
    unit = {"bytes": "bytes", "ratio": "fraction", "seconds": "s"}.get(d.kind)
    if d.kind == "count":
        unit = d.unit
    elif d.kind == "rate":
        unit = f"{d.unit} per second"
    return f"{name} ({unit})" if unit else name


def binary_bytes(value: float) -> str:
    """``512 B``, ``1.5 KiB``, ``3.25 MiB``, ``1.07 GiB``: three significant digits."""
    for prefix, scale in (("TiB", 2.0 ** 40), ("GiB", 2.0 ** 30), ("MiB", 2.0 ** 20), ("KiB", 2.0 ** 10)):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}"
    return f"{value:.0f} B"


def rate(value: Optional[float], unit: str = "") -> str:
    """``403 G nodes/s`` (fmt.rate's SI prefix, then what is counted), ``12.5 /s`` without one."""
    if value is None or value != value:
        return fmt.DASH
    text = fmt.rate(value, "").rstrip()
    return f"{text} {unit}/s" if unit else f"{text}/s"


def format_value(value: Optional[float], d: Declaration) -> str:
    """A counter's value as text by its kind: bytes in B/KiB/MiB/GiB, a rate per second, a
    ratio in percent, seconds with their unit, a count with what it counts."""
    if value is None or value != value:
        return fmt.DASH
    if d.kind == "bytes":
        return binary_bytes(value)
    if d.kind == "rate":
        return rate(value, d.unit)
    if d.kind == "ratio":
        return fmt.percent(value)
    if d.kind == "seconds":
        return fmt.seconds(value)
    number = f"{value:.0f}" if value == int(value) and abs(value) < 1e15 else f"{value:.4g}"
    return f"{number} {d.unit}" if d.unit else number
