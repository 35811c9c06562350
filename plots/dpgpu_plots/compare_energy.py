"""Energy per solve in ``dpgpu compare``: a verdict per case beside the time's.

A case's ``energy_j`` (joules per solve, summary.csv) is one measurement over the whole
energy window (NVML's counter, or RAPL for CPU rows), not one per repetition, so no rank
test applies: the verdict is **same** within the energy threshold (default 10 %, the
counter cross-check's own tolerance), else **less energy** / **more energy**; **no energy**
where either side has none (``n/a``: no counter on that device or host). A case with more
energy beyond the threshold fails the comparison, as a slower one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import fmt
from .results import Results, number

DEFAULT_ENERGY_THRESHOLD = 0.10
FAILING = "more energy"


@dataclass
class EnergyComparison:
    case_id: str
    base_j: Optional[float]
    new_j: Optional[float]
    verdict: str
    ratio: Optional[float] = None
    method: str = ""


def _energy(results: Results) -> dict[str, tuple[Optional[float], str]]:
    out = {}
    for r in results.rows:
        if (r.get("status") or "").strip() != "ok":
            continue
        out[r.get("case_id", "")] = (number(r.get("energy_j")), (r.get("energy_method") or "").strip())
    return out


def compare_energy(base: Results, new: Results, threshold: float) -> list[EnergyComparison]:
    """One verdict per case measured (ok) in both folders, in BASE's order."""
    a, b = _energy(base), _energy(new)
    out = []
    for case, (base_j, method) in a.items():
        if case not in b:
            continue
        new_j, new_method = b[case]
        c = EnergyComparison(case, base_j, new_j, "no energy", method=new_method or method)
        if base_j and new_j:
            c.ratio = new_j / base_j
            c.verdict = ("same" if abs(c.ratio - 1) <= threshold
                         else FAILING if c.ratio > 1 else "less energy")
        out.append(c)
    return out


def energy_summary(comparisons: list[EnergyComparison], threshold: float) -> str:
    counts: dict[str, int] = {}
    for c in comparisons:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    order = ("less energy", FAILING, "same", "no energy")
    return (f"energy per solve, {len(comparisons)} cases: "
            + ", ".join(f"{counts[v]} {v}" for v in order if v in counts)
            + f" (threshold {threshold:.0%})")


def energy_markdown(comparisons: list[EnergyComparison], threshold: float) -> str:
    """The section compare.md gains; empty when no case has energy on either side."""
    if not any(c.base_j or c.new_j for c in comparisons):
        return ""
    lines = ["", "## Energy per solve", "", energy_summary(comparisons, threshold), "",
             f"One value per case (the energy window's joules / solves), so no rank test: same "
             f"within {threshold:.0%}, else less or more energy.", "",
             "| case | energy verdict | base J/solve | new J/solve | new/base | method |",
             "|---|---|---|---|---|---|"]
    for c in comparisons:
        cells = [c.case_id, c.verdict,
                 fmt.joules(c.base_j) if c.base_j is not None else "n/a",
                 fmt.joules(c.new_j) if c.new_j is not None else "n/a",
                 f"{c.ratio:.3f}" if c.ratio is not None else fmt.DASH, c.method or fmt.DASH]
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in cells) + " |")
    return "\n".join(lines) + "\n"
