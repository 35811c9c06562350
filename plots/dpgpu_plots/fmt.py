"""Numbers as a reader wants them: times with a unit (``10.04 s``, ``1.23 ms``), rates with
an SI prefix (``403 G/s``), fractions as percentages."""

from __future__ import annotations

from typing import Optional

DASH = "\u2013"


def seconds(value: Optional[float]) -> str:
    """``10.04 s``, ``523 ms``, ``12.3 µs``, ``85 ns``: four significant digits at most, never
    an exponent. The same rule as harness/src/human_format.hpp (format_seconds)."""
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return DASH
    if abs(value) >= 999.95:
        return f"{value:.0f} s"
    value = float(f"{value:.4g}")  # rounded first: 0.99996 s is "1 s", not "1000 ms"
    magnitude = abs(value)
    if magnitude >= 1 or magnitude == 0:
        return f"{value:.4g} s"
    for unit, scale in (("ms", 1e-3), ("\u00b5s", 1e-6), ("ns", 1e-9)):
        if magnitude >= scale:
            return f"{value / scale:.4g} {unit}"
    return f"{value / 1e-9:.2f} ns"


def rate(value: Optional[float], unit: str = "/s") -> str:
    """``403 G/s``: three significant digits and an SI prefix."""
    if value is None:
        return DASH
    for prefix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def joules(value: Optional[float]) -> str:
    """``3.01 J``, ``820 mJ``, ``1.32 kJ``: three significant digits."""
    if value is None or value != value:
        return DASH
    if abs(value) >= 1e3:
        return f"{value / 1e3:.3g} kJ"
    if abs(value) < 1 and value != 0:
        return f"{value * 1e3:.3g} mJ"
    return f"{value:.3g} J"


def watts(value: Optional[float]) -> str:
    """``135 W``: whole watts (NVML reports milliwatts; a tenth of a watt is noise here)."""
    return DASH if value is None or value != value else f"{value:.0f} W"


def percent(value: Optional[float]) -> str:
    return DASH if value is None else f"{value * 100:.1f}%"


def speedup(value: Optional[float]) -> str:
    if value is None:
        return DASH
    if value >= 100:
        return f"{value:.0f}\u00d7"
    if value >= 10:
        return f"{value:.1f}\u00d7"
    return f"{value:.2f}\u00d7"
