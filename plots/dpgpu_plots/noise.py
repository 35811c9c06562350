"""Noise verdicts: is a case's median trustworthy enough to compare?

A summary row's noise is its relative standard deviation of run time (``time_rsd``, as
NVBench's ``stdrel``) and its relative spread, (max - min) / median. The row is **noisy**
when ``time_rsd`` exceeds the threshold: the experiment's ``max_noise`` when it sets one
(the level the stopping rule aimed for), else 5 %. A row with fewer than two repetitions
has no verdict (``n/a``). The C++ side (``harness/src/noise.hpp``) applies the same rule
for the progress line; keep the two in step.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Optional

from .results import Row, number

DEFAULT_THRESHOLD = 0.05


@dataclass(frozen=True)
class Verdict:
    rsd: Optional[float]      # relative standard deviation (fraction)
    spread: Optional[float]   # (max - min) / median (fraction)
    reps: Optional[int]
    noisy: bool
    threshold: float

    @property
    def text(self) -> str:
        """``noisy`` / ``ok`` / ``n/a``, with the figure that decided it."""
        if self.rsd is None or (self.reps is not None and self.reps < 2):
            return "n/a"
        word = "noisy" if self.noisy else "ok"
        return f"{word} (rsd {self.rsd * 100:.1f}%)"


def verdict(row: Row, threshold: float = DEFAULT_THRESHOLD) -> Verdict:
    rsd = number(row.get("time_rsd"))
    median = number(row.get("time_median_s"))
    low, high = number(row.get("time_min_s")), number(row.get("time_max_s"))
    spread = (high - low) / median if None not in (low, high, median) and median > 0 else None
    reps_value = number(row.get("reps"))
    reps = int(reps_value) if reps_value is not None else None
    measured = rsd is not None and (reps is None or reps >= 2)
    return Verdict(rsd=rsd, spread=spread, reps=reps, noisy=bool(measured and rsd > threshold),
                   threshold=threshold)


_MAX_NOISE = re.compile(r"^max_noise:\s*([0-9.eE+-]+)\s*(#.*)?$", re.MULTILINE)


def threshold_for(directory: str) -> float:
    """The experiment's ``max_noise`` (top-level key of experiment.yaml), else 5 %."""
    path = os.path.join(directory, "experiment.yaml")
    try:
        with open(path, encoding="utf-8") as f:
            match = _MAX_NOISE.search(f.read())
    except OSError:
        return DEFAULT_THRESHOLD
    value = number(match.group(1)) if match else None
    return value if value is not None and value > 0 else DEFAULT_THRESHOLD


def percent(value: Optional[float]) -> str:
    return "\u2013" if value is None else f"{value * 100:.1f}%"
