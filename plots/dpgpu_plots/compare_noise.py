"""What ``dpgpu compare`` says about its own evidence: whether the repetitions can support a
verdict at all, and whether a run's machine was busy.

**Repetitions.** With n1 and n2 repetitions and no ties, the smallest two-sided p the
Mann–Whitney U test can give is 2 / C(n1 + n2, n1) (every time of one side below every time
of the other). When that is not below alpha, no outcome of the runs can make the test
significant: 3 + 3 repetitions allow at best p = 0.1, so at alpha 0.05 a verdict of faster or
slower would rest on nothing. ``reps_needed`` is the fewest repetitions a side (both sides
equal) that can reach p < alpha, and only with times fully apart; overlapping times need more.

**Load.** Each results folder's ``context.json`` records the host's load at the start
(``host.load_start``) and at the end (``host_load_end``): the 1-minute load average and the
other processes using more than 10 % of a core. A run is flagged busy when another process
was busy then, or when the load average was above half the cores: its times may carry
another program's work.
"""

from __future__ import annotations

import math
from typing import Optional

from .results import Results


def min_p(n1: int, n2: int) -> float:
    """The smallest two-sided p of the U test with n1 and n2 values (no ties)."""
    if n1 < 1 or n2 < 1:
        return 1.0
    return min(1.0, 2 / math.comb(n1 + n2, n1))


def can_decide(n1: int, n2: int, alpha: float) -> bool:
    """Whether some outcome of n1 + n2 repetitions makes the U test significant at alpha."""
    return min_p(n1, n2) < alpha


def reps_needed(alpha: float, limit: int = 1000) -> int:
    """The fewest repetitions a side (equal sides) whose U test can reach p < alpha."""
    for n in range(2, limit + 1):
        if can_decide(n, n, alpha):
            return n
    return limit


def repetitions_text(n1: int, n2: int, alpha: float) -> str:
    """Why n1 + n2 repetitions cannot support a verdict, and how many would."""
    return (f"{n1}+{n2} repetitions cannot reach p < {alpha:g} (at best p = {min_p(n1, n2):.3g}); "
            f"{reps_needed(alpha)} a side can, with times fully apart")


# --- a busy machine -------------------------------------------------------------------------

BUSY_LOAD_SHARE = 0.5  # a load average above half the cores


def _loads(results: Results) -> list[tuple[str, dict]]:
    host = results.context.get("host") or {}
    out = []
    for label, load in (("at start", host.get("load_start")), ("at end", results.context.get("host_load_end"))):
        if isinstance(load, dict):
            out.append((label, load))
    return out


def busy_reason(results: Results) -> Optional[str]:
    """Why this folder's run was on a busy machine, from its recorded load; None when the
    record shows a quiet one (or records no load)."""
    cores = (results.context.get("host") or {}).get("cores")
    reasons = []
    for label, load in _loads(results):
        avg = load.get("loadavg") or []
        busy = load.get("busy_processes") or []
        if avg and isinstance(cores, (int, float)) and cores > 0 and avg[0] > BUSY_LOAD_SHARE * cores:
            reasons.append(f"load average {avg[0]:.2f} on {cores:g} cores {label}")
        if busy:
            names = ", ".join(f"{p.get('name', '?')} ({p.get('cpu_percent', '?')}%)" for p in busy[:3])
            reasons.append(f"busy {label}: {names}")
    return "; ".join(reasons) if reasons else None
