"""Reading a results folder written by the dpgpu runner.

The folder holds ``summary.csv`` (one row per case), ``runs.csv`` (one row per counted
run), ``context.json`` (host, GPU, start time, ...), ``counters.json`` (each solver's counters
with kind and unit; counters.py) and ``experiment.yaml`` (a copy of the experiment file). Figures read only CSV and JSON through this module; nothing here needs
Matplotlib.
"""

from __future__ import annotations

import csv
import gzip
import json
import math
import os
import re
import sys
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterable, Optional

from . import counters as counters_mod
from .errors import PlotError

SUMMARY = "summary.csv"
RUNS = "runs.csv"
CONTEXT = "context.json"
EXPERIMENT = "experiment.yaml"
METRICS = "metrics.csv"
SERIES = "series.csv"

METRICS_COLUMNS = ("experiment", "case_id", "problem", "instance", "solver", "kernel", "metric",
                   "ncu_metric", "unit", "min", "mean", "max", "launches_profiled",
                   "launches_total", "sampling", "status", "message")
METRICS_REQUIRED = ("case_id", "solver", "metric", "mean", "status")
SERIES_REQUIRED = ("case_id", "solver", "series", "index", "value")

INSTANCE_PREFIX = "i."
SOLVER_PREFIX = "s."
PHASE_PREFIX = "phase."
COUNTER_PREFIX = "c."

Row = dict  # column name -> cell text ("" when empty)


def number(cell: Optional[str]) -> Optional[float]:
    """The finite number in a cell, or None for an empty, non-numeric, nan or inf cell."""
    if cell is None:
        return None
    text = cell.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read_csv(path: str, cut: Optional[list] = None) -> tuple[list[str], list[Row]]:
    """Columns and rows of an RFC 4180 CSV file; short rows are padded with empty cells.
    ``cut``, when given, receives the indices of rows a write cut short: fewer cells than
    the header, or the last row of a file that does not end with a newline."""
    unterminated = False
    try:
        if cut is not None and not path.endswith(".gz") and os.path.getsize(path) > 0:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                unterminated = f.read(1) != b"\n"
        # A large CSV may be committed gzipped only (series.csv.gz): read either.
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            try:
                columns = next(reader)
            except StopIteration:
                raise PlotError(f"{path}: file is empty (no header line)") from None
            rows = []
            for cells in reader:
                if not any(c.strip() for c in cells):
                    continue  # a blank line
                if cut is not None and len(cells) < len(columns):
                    cut.append(len(rows))
                cells = cells + [""] * (len(columns) - len(cells))
                rows.append(dict(zip(columns, cells)))
            if cut is not None and rows and unterminated and len(rows) - 1 not in cut:
                cut.append(len(rows) - 1)
    except csv.Error as e:
        raise PlotError(f"{path}: not a readable CSV file: {e}") from None
    except UnicodeDecodeError as e:
        raise PlotError(f"{path}: not UTF-8 text: {e}") from None
    except (OSError, EOFError) as e:
        raise PlotError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    return columns, rows


def existing(path: str) -> str:
    """``path``, or ``path.gz`` when only the gzipped file is there."""
    return path + ".gz" if not os.path.isfile(path) and os.path.isfile(path + ".gz") else path


@dataclass
class Results:
    """One results folder: the summary table and the run's context."""

    directory: str
    columns: list[str]
    rows: list[Row]
    context: dict = field(default_factory=dict)
    context_note: str = ""  # why the context is empty, when it is
    cut_rows: list = field(default_factory=list)  # indices of rows a write cut short
    # counters.json: what each solver's counters are (kind, unit); None for an older folder.
    counters: Optional[counters_mod.Declarations] = None

    @property
    def summary_path(self) -> str:
        return os.path.join(self.directory, SUMMARY)

    @property
    def experiment_path(self) -> str:
        return os.path.join(self.directory, EXPERIMENT)

    @property
    def title(self) -> str:
        """A figure's default title: the experiment's description, else its name."""
        return self.description or self.experiment_name

    @property
    def description(self) -> str:
        """The ``description:`` line of experiment.yaml (read without PyYAML), or ""."""
        if not hasattr(self, "_description"):
            self._description = read_description(self.experiment_path)
        return self._description

    @property
    def noise_threshold(self) -> float:
        if not hasattr(self, "_noise_threshold"):
            self._noise_threshold = noise_threshold_for(self.directory)
        return self._noise_threshold

    def status_note(self, rows: list | None = None) -> str:
        """What was not measured, for a figure's footnote: skipped GPU cases and failed
        cases, counted by status ("" when every case is ok). ``rows``: the figure's rows
        (its filter applied), else every row."""
        rows = self.rows if rows is None else rows
        skipped = [r for r in rows if r.get("status", "").strip() == "skipped"]
        failed = Counter(r.get("status", "").strip() for r in rows
                         if r.get("status", "").strip() not in ("ok", "skipped"))
        invalid = sum(1 for r in rows if r.get("status", "").strip() == "ok"
                      and r.get("valid", "").strip().lower() == "false")
        parts = []
        if skipped:
            gpu = sum(1 for r in skipped if r.get("backend", "") == "gpu"
                      or r.get("solver", "").startswith("gpu."))
            what = f"{len(skipped)} case{'s' if len(skipped) != 1 else ''} skipped"
            if gpu:
                what += f" ({gpu} GPU)"
            reasons = Counter(skip_reason(r.get("message", "")) for r in skipped)
            # Every reason with its count, each shortened at a word (marked when it was).
            counted = [(why, n) for why, n in reasons.most_common() if why]
            texts = [(f"{n} \u00d7 " if len(reasons) > 1 else "")
                     + textwrap.shorten(why, width=90, placeholder=" \u2026")
                     for why, n in counted[:MAX_REASONS]]
            rest = counted[MAX_REASONS:]
            if rest:
                texts.append(f"{sum(n for _, n in rest)} \u00d7 {len(rest)} other reasons")
            if texts:
                what += ": " + "; ".join(texts)
            parts.append(what)
        if failed:
            parts.append("not drawn: " + ", ".join(f"{n} {s or '(no status)'}" for s, n in failed.most_common()))
        if invalid:
            parts.append(f"{invalid} invalid (valid=false), not drawn")
        return "; ".join(parts)

    @property
    def experiment_name(self) -> str:
        for row in self.rows:
            if row.get("experiment"):
                return row["experiment"]
        name = self.context.get("experiment")
        if isinstance(name, str) and name:
            return name
        return os.path.basename(os.path.normpath(self.directory))

    def columns_with_prefix(self, prefix: str) -> list[str]:
        return [c for c in self.columns if c.startswith(prefix)]

    @property
    def gpu_name(self) -> Optional[str]:
        """The GPU's name, or None when the run had no GPU (``"gpu": null``) or it is unknown."""
        gpu = self.context.get("gpu")
        if isinstance(gpu, dict):
            name = gpu.get("name")
            return str(name) if name else None
        return None

    @property
    def has_gpu_entry(self) -> bool:
        return "gpu" in self.context

    @property
    def start_date(self) -> Optional[str]:
        """The run's start date (YYYY-MM-DD) from context.json, when it has one."""
        return _date(self.context.get("start"))

    @property
    def dates(self) -> Optional[str]:
        """The start date, and those of other runs whose rows were added to this folder,
        each named by its context file (``context-matrix-rows.json``, beside context.json):
        ``2026-11-23; rows of 2026-11-27 (context-matrix-rows.json)``. Issue 36: the
        footnote named one day while some rows were four days younger."""
        others = []
        for name in sorted(os.listdir(self.directory)) if os.path.isdir(self.directory) else []:
            if name.startswith("context-") and name.endswith(".json"):
                date = _date(_read_context(os.path.join(self.directory, name))[0].get("start"))
                if date and date != self.start_date:
                    others.append(f"rows of {date} ({name})")
        return "; ".join(([self.start_date] if self.start_date else []) + others) or None

    def require_columns(self, names: Iterable[str], why: str) -> None:
        missing = [n for n in names if n not in self.columns]
        if missing:
            raise PlotError(
                f"{self.summary_path}: lacks column{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)}, needed {why}"
            )

    def usable_rows(self) -> list[Row]:
        """Rows that measured a right answer: status ok and valid not false."""
        return [r for r in self.rows if is_usable(r)]

    def no_rows_error(self, reason: str) -> PlotError:
        return PlotError(f"{self.summary_path}: no plottable rows: {reason}")

    def case(self, case_id: str) -> Row:
        """The summary row of a case (empty when summary.csv has none with that id)."""
        if not hasattr(self, "_by_case"):
            self._by_case = {r.get("case_id", ""): r for r in self.rows}
        return self._by_case.get(case_id, {})

    def side_table(self, name: str, required: tuple[str, ...], why: str) -> tuple[str, list[Row]]:
        """(path, rows) of a second CSV of the folder (metrics.csv, series.csv); PlotError
        when it is missing or lacks a required column. ``why`` ends the missing-file message."""
        path = existing(os.path.join(self.directory, name))
        if not os.path.isfile(path):
            raise PlotError(f"{path}: missing; {why}")
        columns, rows = read_csv(path)
        missing = [c for c in required if c not in columns]
        if missing:
            raise PlotError(f"{path}: lacks column{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(missing)} (has: {', '.join(columns)})")
        return path, rows

    def require_usable_rows(self) -> list[Row]:
        """The usable rows, or a PlotError that says why there are none."""
        rows = self.usable_rows()
        if not rows:
            raise self.no_rows_error(explain_unusable(self.rows))
        return rows


MAX_REASONS = 6  # skip reasons a footnote spells out; the rest are counted


def skip_reason(message: str) -> str:
    """A skipped case's message without its ``skipped:`` prefix."""
    why = message.strip()
    return why[len("skipped:"):].strip() if why.lower().startswith("skipped:") else why


# A row is noisy above this relative standard deviation of run time (noise.py), unless the
# experiment sets max_noise.
DEFAULT_NOISE_THRESHOLD = 0.05
_MAX_NOISE = re.compile(r"^max_noise:\s*([0-9.eE+-]+)\s*(#.*)?$", re.MULTILINE)


def noise_threshold_for(directory: str) -> float:
    """The experiment's ``max_noise`` (top-level key of experiment.yaml), else 5 %."""
    path = os.path.join(directory, "experiment.yaml")
    try:
        with open(path, encoding="utf-8") as f:
            match = _MAX_NOISE.search(f.read())
    except OSError:
        return DEFAULT_NOISE_THRESHOLD
    value = number(match.group(1)) if match else None
    return value if value is not None and value > 0 else DEFAULT_NOISE_THRESHOLD


def read_description(path: str) -> str:
    """The top-level ``description:`` of an experiment file, unquoted ("" when absent)."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("description:"):
                    text = line[len("description:"):].split(" #")[0].strip()
                    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
                        text = text[1:-1]
                    return text
    except OSError:
        pass
    return ""


def _date(start) -> Optional[str]:
    """YYYY-MM-DD of a context file's ``start`` (ISO 8601), None without one."""
    if not isinstance(start, str) or not start:
        return None
    try:
        return datetime.fromisoformat(start.replace("Z", "+00:00")).date().isoformat()
    except ValueError:
        return start[:10]


def family(row: Row) -> str:
    """Where a case's instance came from: its generator's name (``random`` in
    ``random[n=64]#1/cpu.x``), ``file`` for an instance read from a file
    (``burma14.tsp/cpu.x``), or "" when the case id says neither."""
    case = row.get("case_id", "")
    if "/" not in case:
        return ""
    instance = case.split("/", 1)[0]
    if "#" in instance:
        return instance.split("#", 1)[0].split("[", 1)[0]
    return "file"


def is_usable(row: Row) -> bool:
    return row.get("status", "").strip() == "ok" and row.get("valid", "").strip().lower() != "false"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def explain_unusable(rows: list[Row]) -> str:
    """Why none of these rows is usable, in words (e.g. "all 4 rows are skipped")."""
    n = len(rows)
    if n == 0:
        return "the file has a header but no rows"
    statuses = Counter(r.get("status", "").strip() or "(empty status)" for r in rows)
    ok = statuses.get("ok", 0)
    if ok:
        # Every ok row has valid=false (else one would be usable).
        others = n - ok
        text = (f"the only ok row has valid=false" if ok == 1
                else f"all {ok} ok rows have valid=false")
        if others:
            text += f"; the other {_plural(others, 'row')}: " + _status_list(statuses, skip="ok")
        return text
    if len(statuses) == 1:
        (status,) = statuses
        text = f"the only row is {status}" if n == 1 else f"all {n} rows are {status}"
    else:
        text = f"none of the {n} rows has status ok ({_status_list(statuses)})"
    message = next((r.get("message", "").strip() for r in rows if r.get("message", "").strip()), "")
    if message:
        message = " ".join(message.split())
        if len(message) > 100:
            message = message[:97] + "..."
        text += f"; first message: {message!r}"
    return text


def _status_list(statuses: Counter, skip: str = "") -> str:
    return ", ".join(f"{count} {status}" for status, count in statuses.most_common() if status != skip)


def load(directory: str) -> Results:
    """Read a results folder, or raise PlotError naming the file that is missing or bad."""
    if not os.path.exists(directory):
        raise PlotError(f"{directory}: no such results folder")
    if not os.path.isdir(directory):
        raise PlotError(f"{directory}: not a folder (expected a results folder holding {SUMMARY})")
    summary = os.path.join(directory, SUMMARY)
    if not os.path.isfile(summary):
        raise PlotError(f"{summary}: missing (is {directory} a dpgpu results folder?)")
    cut: list = []
    columns, rows = read_csv(summary, cut)
    for required in ("solver", "status"):
        if required not in columns:
            raise PlotError(f"{summary}: lacks column {required} (not a dpgpu summary?)")
    context, note = _read_context(os.path.join(directory, CONTEXT))
    return Results(directory=directory, columns=columns, rows=rows, context=context, context_note=note,
                   cut_rows=cut, counters=counters_mod.read(directory))


def _read_context(path: str) -> tuple[dict, str]:
    """context.json as a dict; a missing or broken one is a warning, not an error."""
    if not os.path.isfile(path):
        return {}, f"no {CONTEXT}"
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"dpgpu_plot: warning: {path}: unreadable, ignored: {e}", file=sys.stderr)
        return {}, f"unreadable {CONTEXT}"
    if not isinstance(data, dict):
        print(f"dpgpu_plot: warning: {path}: not a JSON object, ignored", file=sys.stderr)
        return {}, f"unreadable {CONTEXT}"
    return data, ""
