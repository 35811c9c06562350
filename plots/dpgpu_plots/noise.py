"""Noise verdicts: is a case's median trustworthy enough to compare?

A summary row's noise is its relative standard deviation of run time (``time_rsd``, as
NVBench's ``stdrel``) and its relative spread, (max - min) / median. The row is **noisy**
when ``time_rsd`` exceeds the threshold: the experiment's ``max_noise`` when it sets one
(the level the stopping rule aimed for), else 5 %. A row with fewer than two repetitions
has no verdict (``n/a``). The harness decides it once per case (CaseStats,
``harness/src/measure/case_stats.hpp``) and writes it as ``time_noise`` (``noisy``,
``steady``, ``n/a``); this module reads that column and applies the rule itself only to
folders written before the column existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

# The threshold is the results folder's (its experiment.yaml), read by results.py; named
# here too for the callers of this module.
from .results import DEFAULT_NOISE_THRESHOLD as DEFAULT_THRESHOLD
from .results import Row, noise_threshold_for as threshold_for, number


@dataclass(frozen=True)
class Verdict:
    rsd: Optional[float]      # relative standard deviation (fraction)
    spread: Optional[float]   # (max - min) / median (fraction)
    reps: Optional[int]
    noisy: bool
    threshold: float

    @property
    def text(self) -> str:
        """``noisy`` / ``steady`` / ``n/a``, summary.csv's ``time_noise`` words (one vocabulary
        in the CSV, the report and the figures), with the figure that decided it."""
        if self.rsd is None or (self.reps is not None and self.reps < 2):
            return "n/a"
        word = "noisy" if self.noisy else "steady"
        return f"{word} (rsd {self.rsd * 100:.1f}%)"


def verdict(row: Row, threshold: float = DEFAULT_THRESHOLD) -> Verdict:
    rsd = number(row.get("time_rsd"))
    median = number(row.get("time_median_s"))
    low, high = number(row.get("time_min_s")), number(row.get("time_max_s"))
    spread = (high - low) / median if None not in (low, high, median) and median > 0 else None
    reps_value = number(row.get("reps"))
    reps = int(reps_value) if reps_value is not None else None
    written = (row.get("time_noise") or "").strip()
    if written in ("noisy", "steady", "n/a"):  # the harness's own verdict
        noisy = written == "noisy"
    else:  # a folder from before time_noise: the same rule, applied here
        noisy = rsd is not None and (reps is None or reps >= 2) and rsd > threshold
    return Verdict(rsd=rsd, spread=spread, reps=reps, noisy=bool(noisy), threshold=threshold)


def percent(value: Optional[float]) -> str:
    return "\u2013" if value is None else f"{value * 100:.1f}%"
