"""Choosing rows and naming cases: a spec's ``filter``, column names, case labels.

Shared by every figure kind; nothing here needs Matplotlib.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence

from .errors import PlotError
from .results import INSTANCE_PREFIX, SOLVER_PREFIX, Row, number
from .style import format_value, param_name


def resolve_column(name: str, columns: Sequence[str], where: str, what: str,
                   table: str = "summary.csv") -> str:
    """``name`` as a column of ``columns``: exact, or a bare parameter name (``n`` ->
    ``i.n``, ``block`` -> ``s.block``, instance parameters first). PlotError otherwise."""
    if name in columns:
        return name
    for prefix in (INSTANCE_PREFIX, SOLVER_PREFIX):
        if prefix + name in columns:
            return prefix + name
    params = [c for c in columns if c.startswith((INSTANCE_PREFIX, SOLVER_PREFIX))]
    raise PlotError(f"{where}: {what}: no column {name!r} in {table} "
                    f"(parameter columns: {', '.join(params) or 'none'})")


def matches(cell: Optional[str], wanted) -> bool:
    """Whether a CSV cell equals a YAML value: numbers numerically (128 matches "128.0"),
    true/false against true/false/1/0, anything else as text."""
    text = (cell or "").strip()
    if isinstance(wanted, bool):
        return text.lower() in (("true", "1", "yes") if wanted else ("false", "0", "no"))
    if isinstance(wanted, (int, float)):
        value = number(text)
        return value is not None and value == float(wanted)
    wanted_text = str(wanted).strip()
    if text == wanted_text:
        return True
    a, b = number(text), number(wanted_text)
    return a is not None and a == b


def apply_filter(rows: list[Row], spec, columns: Sequence[str], table: str) -> list[Row]:
    """The rows the spec's ``filter`` keeps (all of them without one)."""
    wanted = spec.opt("filter")
    if not wanted:
        return rows
    kept = rows
    for name, values in wanted.items():
        column = resolve_column(name, columns, spec.where(), "filter", table)
        before = kept
        kept = [r for r in kept if any(matches(r.get(column), v) for v in values)]
        if not kept:
            seen = sorted({(r.get(column) or "").strip() or "(empty)" for r in before})
            shown = ", ".join(seen[:12]) + (", ..." if len(seen) > 12 else "")
            raise PlotError(f"{spec.where()}: filter {name}: {_values_text(values)} keeps none of "
                            f"the {len(before)} rows of {table} (values there: {shown})")
    return kept


def _values_text(values) -> str:
    return " or ".join(repr(v) for v in values)


def varying(rows: Iterable[Row], columns: Iterable[str]) -> list[str]:
    """The columns that take more than one value among rows."""
    rows = list(rows)
    return [c for c in columns if len({(r.get(c) or "").strip() for r in rows}) > 1]


def distinct_partitions(rows: list[Row], columns: list[str]) -> list[str]:
    """The columns less those that split the rows exactly as an earlier kept one does
    (``m`` sized with ``n``): a label names each difference once. ``i.n`` is kept first."""
    ordered = sorted(columns, key=lambda c: c != "i.n")
    kept, seen = [], []
    for c in ordered:
        groups: dict[str, set] = {}
        for i, r in enumerate(rows):
            groups.setdefault((r.get(c) or "").strip(), set()).add(i)
        partition = sorted(tuple(sorted(g)) for g in groups.values())
        if partition not in seen:
            seen.append(partition)
            kept.append(c)
    return [c for c in columns if c in kept]


def part(column: str, value: Optional[str]) -> str:
    """One piece of a label: a bare value for solver/instance/kernel, else name=value."""
    if column in ("solver", "instance", "kernel", "case_id"):
        return format_value(value or "")
    return f"{param_name(column)}={format_value(value or '')}"


def set_parameters(case_id: str) -> Optional[set[str]]:
    """The solver parameters a case id names (``.../gpu.mcm[kernel=block,threads=32]``), or
    None when it cannot tell (no solver part)."""
    if "/" not in case_id:
        return None
    solver = case_id.rsplit("/", 1)[1]
    if "[" not in solver:
        return set()
    inside = solver[solver.index("[") + 1:solver.rindex("]")] if "]" in solver else ""
    return {item.split("=", 1)[0] for item in inside.split(",") if "=" in item}


def applies(column: str, row: Row, rows: list[Row]) -> bool:
    """Whether a label shows ``column`` for ``row``: a solver parameter the case left at its
    default is left out where other cases of the same solver set it (gpu.mcm's ``kernel``
    means nothing under policy calibrate, whose cases do not set it)."""
    if not column.startswith(SOLVER_PREFIX):
        return True
    name = column[len(SOLVER_PREFIX):]
    mine = set_parameters(row.get("case_id", ""))
    if mine is None or name in mine:
        return True
    return not any(name in (set_parameters(r.get("case_id", "")) or set())
                   for r in rows if r.get("solver") == row.get("solver"))


def case_labels(rows: list[Row], label_columns: Optional[Sequence[str]] = None) -> list[str]:
    """One label per row (a case): ``label_columns`` when given; else the solver, the
    instance parameters (``i.``) that vary among the rows and the solver parameters (``s.``)
    that vary among that solver's rows, then the instance text and the case id if labels
    would still repeat. Rows of several problems (an experiment with ``parts``) are labelled
    within their problem, and the label starts with the problem's name."""
    if label_columns:
        labels = [" ".join(part(c, r.get(c)) for c in label_columns if applies(c, r, rows)) for r in rows]
    else:
        problems = list(dict.fromkeys(r.get("problem", "") for r in rows))
        keys = list(rows[0].keys()) if rows else []
        instance_columns, solver_columns = {}, {}
        for problem in problems:
            of_problem = [r for r in rows if r.get("problem", "") == problem]
            instance_columns[problem] = distinct_partitions(
                of_problem, varying(of_problem, [c for c in keys if c.startswith(INSTANCE_PREFIX)]))
            for solver in {r.get("solver", "") for r in of_problem}:
                mine = [r for r in of_problem if r.get("solver", "") == solver]
                solver_columns[(problem, solver)] = varying(mine, [c for c in keys if c.startswith(SOLVER_PREFIX)])
        labels = []
        for r in rows:
            problem = r.get("problem", "")
            columns = ["solver"] + instance_columns[problem] + solver_columns[(problem, r.get("solver", ""))]
            label = " ".join(part(c, r.get(c)) for c in columns if (r.get(c) or "").strip())
            labels.append(f"{problem}: {label}" if len(problems) > 1 else label)
        if len(set(labels)) < len(labels) and len({r.get("instance") for r in rows}) > 1:
            labels = [f"{label} {r.get('instance', '')}".strip() for label, r in zip(labels, rows)]
    if len(set(labels)) < len(labels):
        labels = [f"{label} #{r.get('case_id', '')}" for label, r in zip(labels, rows)]
    return labels


def shorten_kernel(name: str, limit: int = 32) -> str:
    """A kernel name short enough for a label: no template arguments, parameters or
    namespaces (``dpgpu::wf::tile_kernel<int, 256>(...)`` -> ``tile_kernel``)."""
    text = name.strip()
    depth, out = 0, []
    for ch in text:  # drop <...> and (...) at any depth
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(ch)
    short = "".join(out).strip().split("::")[-1].split()[-1] if "".join(out).strip() else text
    return short if len(short) <= limit else short[: limit - 1] + "\u2026"


def natural_key(text: str) -> list:
    """Sort key that orders numbers inside text numerically (``block=64`` < ``block=128``),
    as the line figures order a solver's variants."""
    return [(0, float(piece), "") if i % 2 else (1, 0.0, piece)
            for i, piece in enumerate(re.split(r"(\d+(?:\.\d+)?)", text)) if piece]


def variant_indices(solvers: Sequence[str], labels: Sequence[str]) -> list[int]:
    """Each label's position among its solver's labels in natural order: the variant index
    that picks line style, marker fill and hatch, the same way in every figure kind."""
    by_solver: dict[str, list[str]] = {}
    for solver, label in zip(solvers, labels):
        by_solver.setdefault(solver, [])
        if label not in by_solver[solver]:
            by_solver[solver].append(label)
    order = {s: sorted(ls, key=natural_key) for s, ls in by_solver.items()}
    return [order[s].index(label) for s, label in zip(solvers, labels)]
