"""``dpgpu compare BASE NEW [--threshold 5%]``: two results folders, case by case.

Cases are matched by ``case_id``. For each case measured (status ok) in both, the counted
repetitions of ``runs.csv`` (``time_s``; the summary's median alone when a folder has no
runs.csv) decide the verdict:

- **same**: the medians differ by no more than the threshold (default 5 %);
- **faster** / **slower**: they differ by more, and a two-sided Mann–Whitney U test on the
  two sets of repetitions says the difference is real (p < alpha, default 0.05; exact for
  small samples without ties, else the normal approximation with tie correction);
- **ambiguous**, the default: they differ by more than the threshold but the test does not
  say the difference is real (noise, or too few repetitions with overlapping times);
- **needs repetitions**: they differ by more than the threshold, the min–max ranges are
  fully apart, but no outcome of so few repetitions could make the test significant
  (3 + 3 allow at best p = 0.1; one repetition allows no test at all). The ``decided by``
  column says how many repetitions a side would (compare_noise.py). Where NEW looks slower
  this fails the comparison as a slower case does: a 10x slowdown measured once is not a pass.

When most cases cannot reach a verdict for want of repetitions, and when either run's
context records a busy machine (its load average above half the cores, or another busy
process, at the start or the end), the report says so before the table.

A case ok in BASE and failed in NEW is **broken**; a summary row cut short (a write
stopped mid-row) is **unreadable**; cases in one folder only are listed. Exit status: 1
when any case is slower, broken or unreadable, needs repetitions and looks slower, or a case of BASE is missing from NEW
(unless ``--allow-missing``: a crashed run must not pass a CI gate), 0 otherwise, 2 on
bad input. Writes ``compare.md``, ``compare.csv`` and ``compare.png`` into ``--out``
(default ``NEW/compare``), listing them in ``.dpgpu-compare`` there, and prints the
Markdown; a file of those names there that the list lacks (not compare's) is never
overwritten: exit 2 naming it. When the two contexts differ (GPU,
driver, CUDA, clocks, CPU, host), the report says so first.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import statistics
import sys
from dataclasses import dataclass, field
from typing import Optional, Sequence

from . import fmt
from . import results as results_mod
from . import compare_noise as noise
from . import written_files
from .compare_energy import FAILING as MORE_ENERGY, compare_energy, energy_markdown
from .errors import PlotError
from .results import Results, number

PROG = "dpgpu_compare"
DEFAULT_THRESHOLD = 0.05
DEFAULT_ALPHA = 0.05
NEEDS_REPS = "needs repetitions"


# --- the rank test ---------------------------------------------------------------------

def mann_whitney_u(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """(U of a, two-sided p) of the Mann–Whitney U test. Exact (the distribution of U over
    all splits) when both samples are small and have no ties, else the normal approximation
    with tie correction and continuity correction."""
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        return 0.0, 1.0
    combined = sorted((v, i) for i, v in enumerate(list(a) + list(b)))
    ranks = [0.0] * (n1 + n2)
    tie_term = 0.0
    i = 0
    while i < len(combined):
        j = i
        while j + 1 < len(combined) and combined[j + 1][0] == combined[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[combined[k][1]] = (i + j) / 2 + 1
        t = j - i + 1
        tie_term += t ** 3 - t
        i = j + 1
    r1 = sum(ranks[:n1])
    u1 = r1 - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    if tie_term == 0 and n1 + n2 <= 40:
        return u1, _exact_p(u1, n1, n2)
    var = n1 * n2 / 12 * ((n1 + n2 + 1) - tie_term / ((n1 + n2) * (n1 + n2 - 1)))
    if var <= 0:
        return u1, 1.0
    z = (abs(u1 - mean) - 0.5) / math.sqrt(var)
    return u1, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def _exact_p(u: float, n1: int, n2: int) -> float:
    """Two-sided exact p of U = u: the share of the C(n1+n2, n1) splits at least as far
    from the mean, counted with the recurrence f(n1, n2, u) = f(n1-1, n2, u-n2) + f(n1, n2-1, u)."""
    counts = _u_counts(n1, n2)
    total = sum(counts)
    mean = n1 * n2 / 2
    far = abs(u - mean)
    tail = sum(c for value, c in enumerate(counts) if abs(value - mean) >= far - 1e-9)
    return min(1.0, tail / total)


_U_CACHE: dict[tuple[int, int], list[int]] = {}


def _u_counts(n1: int, n2: int) -> list[int]:
    """counts[u] = number of splits of n1 + n2 ranked values whose U is u."""
    key = (n1, n2)
    if key in _U_CACHE:
        return _U_CACHE[key]
    if n1 == 0 or n2 == 0:
        out = [1]
    else:
        a, b = _u_counts(n1 - 1, n2), _u_counts(n1, n2 - 1)
        out = [0] * (n1 * n2 + 1)
        for u, c in enumerate(a):
            out[u + n2] += c
        for u, c in enumerate(b):
            out[u] += c
    _U_CACHE[key] = out
    return out


# --- matching and verdicts -------------------------------------------------------------

@dataclass
class Side:
    status: str
    median: Optional[float]
    reps: list[float] = field(default_factory=list)
    message: str = ""


@dataclass
class Comparison:
    case_id: str
    solver: str
    base: Optional[Side]
    new: Optional[Side]
    verdict: str = ""
    ratio: Optional[float] = None  # new median / base median
    p: Optional[float] = None
    decided_by: str = ""


def _sides(results: Results) -> dict[str, tuple[str, Side]]:
    runs: dict[str, list[float]] = {}
    path = os.path.join(results.directory, results_mod.RUNS)
    if os.path.isfile(path):
        _, rows = results_mod.read_csv(path)
        for r in rows:
            t = number(r.get("time_s"))
            if r.get("status", "").strip() == "ok" and t is not None:
                runs.setdefault(r.get("case_id", ""), []).append(t)
    out = {}
    for i, r in enumerate(results.rows):
        case = r.get("case_id", "")
        status = r.get("status", "").strip()
        if i in results.cut_rows:
            status = "unreadable"  # a row cut short: its numbers cannot be trusted
        if status == "ok" and (r.get("valid") or "").strip().lower() == "false":
            status = "invalid"
        median = number(r.get("time_median_s"))
        reps = runs.get(case) or ([median] if median is not None else [])
        out[case] = (r.get("solver", ""), Side(status, median, reps, (r.get("message") or "").strip()))
    return out


def decide(c: Comparison, threshold: float, alpha: float) -> None:
    b, n = c.base, c.new
    if (b and b.status == "unreadable") or (n and n.status == "unreadable"):
        c.verdict = "unreadable"
        c.decided_by = "its summary.csv row is cut short in " + ("base" if b and b.status == "unreadable" else "new")
        return
    if b is None or n is None:
        c.verdict = "only in new" if b is None else "only in base"
        return
    if b.status != "ok" or n.status != "ok":
        if b.status == "ok":
            c.verdict, c.decided_by = "broken", f"new: {n.status}"
        elif n.status == "ok":
            c.verdict, c.decided_by = "fixed", f"base: {b.status}"
        else:
            c.verdict, c.decided_by = "not measured", f"{b.status} / {n.status}"
        return
    if not b.median or not n.median:
        c.verdict = "not measured"
        return
    c.ratio = n.median / b.median
    if len(b.reps) >= 2 and len(n.reps) >= 2:
        _, c.p = mann_whitney_u(b.reps, n.reps)
    if abs(c.ratio - 1) <= threshold:
        c.verdict, c.decided_by = "same", f"within {threshold:.0%}"
        return
    if c.p is not None and c.p < alpha:
        c.verdict = "slower" if c.ratio > 1 else "faster"
        c.decided_by = f"U test p={c.p:.3g}"
        return
    # Beyond the threshold, but the test does not say the difference is real.
    apart = max(b.reps) < min(n.reps) or max(n.reps) < min(b.reps)
    if not noise.can_decide(len(b.reps), len(n.reps), alpha):
        # No outcome of these repetitions could have decided it. Times fully apart are
        # still a difference to look at: it needs more repetitions (and fails a gate when
        # NEW looks slower), rather than passing as ambiguous.
        c.decided_by = noise.repetitions_text(len(b.reps), len(n.reps), alpha)
        c.verdict = NEEDS_REPS if apart else "ambiguous"
        if not apart:
            c.decided_by = "ranges overlap; " + c.decided_by
        return
    c.verdict = "ambiguous"
    c.decided_by = f"U test p={c.p:.3g} (not below {alpha:g})" + ("" if apart else ", ranges overlap")


def compare(base: Results, new: Results, threshold: float, alpha: float) -> list[Comparison]:
    a, b = _sides(base), _sides(new)
    out = []
    for case in list(a) + [c for c in b if c not in a]:
        solver = (a.get(case) or b.get(case))[0]
        c = Comparison(case, solver, a[case][1] if case in a else None, b[case][1] if case in b else None)
        decide(c, threshold, alpha)
        out.append(c)
    return out


# --- contexts --------------------------------------------------------------------------

CONTEXT_KEYS = (
    ("GPU", ("gpu", "name")), ("driver", ("gpu", "driver")),
    ("CUDA runtime", ("gpu", "cuda_runtime_version")), ("max SM clock (kHz)", ("gpu", "max_sm_clock_khz")),
    ("SM clock at start (MHz)", ("gpu_clocks_start", "sm_clock_mhz")),
    ("CPU", ("host", "cpu")), ("cores", ("host", "cores")), ("CPU governor", ("host", "cpu_governor")),
    ("host", ("host", "hostname")), ("compiler", ("host", "compiler")), ("git commit", ("git_commit",)),
)


def _get(d, path):
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def context_differences(base: Results, new: Results) -> list[str]:
    out = []
    for label, path in CONTEXT_KEYS:
        x, y = _get(base.context, path), _get(new.context, path)
        if x != y and not (x is None and y is None):
            out.append(f"{label}: {x if x is not None else '?'} \u2192 {y if y is not None else '?'}")
    if ("gpu" in base.context) and (base.context.get("gpu") is None) != (new.context.get("gpu") is None):
        out.append("GPU: one run had none")
    return out


# --- output ----------------------------------------------------------------------------

HEAD = ("case", "solver", "verdict", "base median", "new median", "new/base", "base reps",
        "new reps", "p (U test)", "decided by")


def _cells(c: Comparison) -> list[str]:
    return [c.case_id, c.solver, c.verdict,
            fmt.seconds(c.base.median) if c.base and c.base.status == "ok" else (c.base.status if c.base else fmt.DASH),
            fmt.seconds(c.new.median) if c.new and c.new.status == "ok" else (c.new.status if c.new else fmt.DASH),
            f"{c.ratio:.3f}" if c.ratio is not None else fmt.DASH,
            str(len(c.base.reps)) if c.base else fmt.DASH, str(len(c.new.reps)) if c.new else fmt.DASH,
            f"{c.p:.3g}" if c.p is not None else fmt.DASH, c.decided_by]


def summary_line(comparisons: list[Comparison], threshold: float) -> str:
    counts: dict[str, int] = {}
    for c in comparisons:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    order = ("faster", "slower", "same", "ambiguous", NEEDS_REPS, "broken", "unreadable", "fixed", "not measured",
             "only in base", "only in new")
    text = f"{len(comparisons)} cases: " + ", ".join(f"{counts[v]} {v}" for v in order if v in counts)
    ratios = [c.ratio for c in comparisons if c.ratio]
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        text += f"; geometric mean new/base {geo:.3f}"
    return text + f" (threshold {threshold:.0%})"


def evidence_warnings(base: Results, new: Results, comparisons: list[Comparison], alpha: float) -> list[str]:
    """What weakens every verdict: repetitions too few for the test, a busy machine."""
    out = []
    measured = [c for c in comparisons if c.ratio is not None]
    weak = [c for c in measured if not noise.can_decide(len(c.base.reps), len(c.new.reps), alpha)]
    if weak:
        reps = sorted({f"{len(c.base.reps)}+{len(c.new.reps)}" for c in weak})
        out.append(f"{len(weak)} of {len(measured)} measured cases have too few repetitions for any "
                   f"verdict of faster or slower ({', '.join(reps)} repetitions: the U test cannot reach "
                   f"p < {alpha:g}); run at least {noise.reps_needed(alpha)} a side "
                   f"(`--set repetitions={noise.reps_needed(alpha)}`), more where times overlap")
    for label, results in (("BASE", base), ("NEW", new)):
        why = noise.busy_reason(results)
        if why:
            out.append(f"{label} ran on a busy machine ({why}): its times may include another "
                       f"program's work")
    return out


def markdown(base_dir: str, new_dir: str, comparisons, differences, threshold, alpha,
             warnings: Sequence[str] = ()) -> str:
    lines = [f"# dpgpu compare", "", f"- base: `{base_dir}`", f"- new: `{new_dir}`", ""]
    if differences:
        lines += ["**The runs' contexts differ** (timings may not be comparable):", ""]
        lines += [f"- {d}" for d in differences] + [""]
    if warnings:
        lines += ["**The evidence is weak:**", ""] + [f"- {w}" for w in warnings] + [""]
    lines += [summary_line(comparisons, threshold), "",
              f"Verdicts: same within {threshold:.0%}; faster/slower when beyond it and a two-sided "
              f"Mann\u2013Whitney U test on the repetitions gives p < {alpha:g}; needs repetitions "
              f"when beyond it with min\u2013max ranges apart but too few repetitions for the test "
              f"(fails the comparison when NEW looks slower); ambiguous otherwise.", ""]
    lines.append("| " + " | ".join(HEAD) + " |")
    lines.append("|" + "|".join("---" for _ in HEAD) + "|")
    for c in comparisons:
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in _cells(c)) + " |")
    return "\n".join(lines) + "\n"


VERDICT_COLOURS = {"faster": "#2ca02c", "slower": "#d62728", "same": "#7f7f7f", "ambiguous": "#ff7f0e",
                   NEEDS_REPS: "#9467bd"}


def figure(comparisons: list[Comparison], threshold: float, title: str):
    """Horizontal bars of new/base per case (log scale), coloured by verdict; the
    threshold band shaded."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, NullFormatter
    shown = [c for c in comparisons if c.ratio]
    if not shown:
        return None
    limit = 60
    hidden = 0
    if len(shown) > limit:  # the largest changes
        hidden = len(shown) - limit
        shown = sorted(shown, key=lambda c: -abs(math.log(c.ratio)))[:limit]
    shown = sorted(shown, key=lambda c: c.ratio)
    fig = Figure(figsize=(9.0, 1.6 + 0.22 * len(shown)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ys = range(len(shown))
    ax.barh(list(ys), [c.ratio - 1 for c in shown], left=1,
            color=[VERDICT_COLOURS.get(c.verdict, "#999999") for c in shown], height=0.7)
    ax.axvspan(1 - threshold, 1 + threshold, color="#dddddd", alpha=0.6, zorder=0)
    ax.axvline(1, color="#333333", linewidth=0.8)
    ax.plot([c.ratio for c in shown], list(ys), linestyle="none", marker="o", markersize=3,
            color="#333333")
    ax.set_yticks(list(ys))
    ax.set_yticklabels(case_labels(shown), fontsize=7)
    ratios = [c.ratio for c in shown] + [1 - threshold, 1 + threshold]
    log = max(ratios) / min(ratios) > 3
    if log:
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("new median / base median" + (" (log)" if log else "") + "; < 1: faster")
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="x", linewidth=0.5, alpha=0.4)
    used = [v for v in VERDICT_COLOURS if any(c.verdict == v for c in shown)]
    handles = [Patch(color=VERDICT_COLOURS[v], label=v) for v in used]
    handles.append(Patch(color="#dddddd", label=f"within {threshold:.0%}"))
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    if hidden:
        fig.text(0.01, 0.005, f"{hidden} more cases with smaller changes not shown (compare.csv)",
                 fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02 if hidden else 0, 1, 1))
    return fig


def case_labels(shown: list[Comparison], limit: int = 60) -> list[str]:
    """Case ids without the instance part when every case shares it (then the figure's
    title names it), else whole; long ones shortened in the middle, so the end that tells
    variants apart stays."""
    instances = {c.case_id.split("/", 1)[0] for c in shown}
    if len(instances) == 1 and all("/" in c.case_id for c in shown):
        labels = [c.case_id.split("/", 1)[1] for c in shown]
    else:
        labels = [c.case_id for c in shown]
    half = (limit - 1) // 2
    return [t if len(t) <= limit else t[:half] + "\u2026" + t[-half:] for t in labels]


def parse_threshold(text: str) -> float:
    t = text.strip()
    try:
        value = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise PlotError(f"--threshold {text!r}: expected a percentage such as 5% or a fraction "
                        f"such as 0.05") from None
    if value >= 1 and not t.endswith("%"):
        value /= 100  # "5" means 5 %
    if not 0 <= value <= 100:
        raise PlotError(f"--threshold {text!r}: out of range")
    return value


OUTPUTS = ("compare.md", "compare.csv", "compare.png")
MARKER = ".dpgpu-compare"  # in --out: the files dpgpu compare wrote there, one a line


def refuse_others_files(out: str, names: Sequence[str]) -> None:
    """compare overwrites only what it wrote (listed in OUT/.dpgpu-compare): a user's
    compare.csv in --out is refused by name before anything is written (issue 35, item 17)."""
    path = written_files.first_unlisted(out, MARKER, names)
    if path:
        raise PlotError(f"{path}: not written by dpgpu compare ({os.path.join(out, MARKER)} does "
                        f"not list it); not overwritten: choose another --out (or remove the file, if a "
                        f"dpgpu compare older than that list wrote it)")


def _write_csv(path: str, comparisons: list[Comparison]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["case_id", "solver", "verdict", "base_status", "new_status", "base_median_s",
                    "new_median_s", "ratio", "base_reps", "new_reps", "p_value", "decided_by"])
        for c in comparisons:
            w.writerow([c.case_id, c.solver, c.verdict, c.base.status if c.base else "",
                        c.new.status if c.new else "",
                        c.base.median if c.base and c.base.median is not None else "",
                        c.new.median if c.new and c.new.median is not None else "",
                        f"{c.ratio:.6g}" if c.ratio is not None else "",
                        len(c.base.reps) if c.base else "", len(c.new.reps) if c.new else "",
                        f"{c.p:.6g}" if c.p is not None else "", c.decided_by])


def _draw(comparisons: list[Comparison], threshold: float, new: Results):
    """compare.png's figure, or None (with a note) without Matplotlib."""
    try:
        instances = {c.case_id.split("/", 1)[0] for c in comparisons if c.ratio}
        where = f" ({next(iter(instances))})" if len(instances) == 1 else ""
        return figure(comparisons, threshold, f"{new.experiment_name}{where}: new / base")
    except ImportError:
        print(f"{PROG}: note: no Matplotlib; compare.png not drawn", file=sys.stderr)
        return None


def write_outputs(out: str, md: str, comparisons: list[Comparison], draw) -> None:
    """compare.md, compare.csv and (when `draw` is given and gives a figure) compare.png in
    `out`, each listed in OUT/.dpgpu-compare once written; PlotError when one cannot be."""
    names = list(OUTPUTS if draw else OUTPUTS[:2])
    written = []
    try:
        os.makedirs(out, exist_ok=True)
        refuse_others_files(out, names)
        with open(os.path.join(out, "compare.md"), "w", encoding="utf-8") as f:
            f.write(md)
        written.append("compare.md")
        _write_csv(os.path.join(out, "compare.csv"), comparisons)
        written.append("compare.csv")
        fig = draw() if draw else None
        if fig is not None:
            fig.savefig(os.path.join(out, "compare.png"), dpi=150)
            written.append("compare.png")
        written_files.note_written(out, MARKER, written)
    except OSError as e:
        if written:
            try:
                written_files.note_written(out, MARKER, written)
            except PlotError:
                pass
        raise PlotError(f"{out}: cannot write: {e.strerror}") from None


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="dpgpu compare", description=(
        "Compare two dpgpu results folders case by case (matched by case_id) from their "
        "repetitions; exit 1 when a case is slower beyond the threshold or broke."))
    p.add_argument("base", metavar="BASE")
    p.add_argument("new", metavar="NEW")
    p.add_argument("--threshold", default="5%",
                   help="smallest change that counts, as 5%% or 0.05 (default 5%%)")
    p.add_argument("--energy-threshold", default="10%",
                   help="smallest change of energy per solve that counts, as 10%% or 0.1 (default 10%%)")
    p.add_argument("--alpha", type=float, default=DEFAULT_ALPHA,
                   help="significance level of the U test (default 0.05)")
    p.add_argument("--out", help="folder for compare.md, compare.csv, compare.png (default NEW/compare)")
    p.add_argument("--no-figure", action="store_true", help="write no compare.png")
    p.add_argument("--allow-missing", action="store_true",
                   help="cases of BASE missing from NEW do not fail the comparison")
    args = p.parse_args(argv)
    try:
        threshold = parse_threshold(args.threshold)
        energy_threshold = parse_threshold(args.energy_threshold)
        base, new = results_mod.load(args.base), results_mod.load(args.new)
    except PlotError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return e.exit_status
    comparisons = compare(base, new, threshold, args.alpha)
    if not any(c.base and c.new for c in comparisons):
        print(f"{PROG}: {args.base} and {args.new} share no case id; nothing to compare "
              f"(are they the same experiment?)", file=sys.stderr)
        return 2
    differences = context_differences(base, new)
    warnings = evidence_warnings(base, new, comparisons, args.alpha)
    md = markdown(args.base, args.new, comparisons, differences, threshold, args.alpha, warnings)
    energy = compare_energy(base, new, energy_threshold)
    md += energy_markdown(energy, energy_threshold)
    out = args.out or os.path.join(args.new, "compare")
    try:
        write_outputs(out, md, comparisons, None if args.no_figure else
                      lambda: _draw(comparisons, threshold, new))
    except PlotError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return e.exit_status
    sys.stdout.write(md)
    print(f"\nwritten: {out}/compare.md, compare.csv" + ("" if args.no_figure else ", compare.png"))
    regressions = [c for c in comparisons if c.verdict in ("slower", "broken", "unreadable")]
    unproven = [c for c in comparisons if c.verdict == NEEDS_REPS and c.ratio > 1]
    for w in warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    if unproven:
        print(f"{PROG}: {len(unproven)} cases look slower beyond the threshold (e.g. {unproven[0].case_id}, "
              f"new/base {unproven[0].ratio:.3g}) but have too few repetitions to tell; this fails the "
              f"comparison: rerun both with at least {noise.reps_needed(args.alpha)} repetitions",
              file=sys.stderr)
    missing = [c for c in comparisons if c.verdict == "only in base"]
    if differences:
        print(f"{PROG}: note: the contexts differ ({'; '.join(differences[:3])})", file=sys.stderr)
    if missing and not args.allow_missing:
        print(f"{PROG}: {len(missing)} cases of BASE are missing from NEW (e.g. {missing[0].case_id}): a "
              f"stopped or crashed run fails the comparison (--allow-missing accepts it)", file=sys.stderr)
    unreadable = [c for c in comparisons if c.verdict == "unreadable"]
    if unreadable:
        print(f"{PROG}: {len(unreadable)} summary.csv rows are cut short (e.g. {unreadable[0].case_id}): "
              f"they cannot be compared", file=sys.stderr)
    more_energy = [c for c in energy if c.verdict == MORE_ENERGY]
    if more_energy:
        print(f"{PROG}: {len(more_energy)} cases use more energy per solve beyond {energy_threshold:.0%} "
              f"(e.g. {more_energy[0].case_id})", file=sys.stderr)
    return 1 if regressions or unproven or more_energy or (missing and not args.allow_missing) else 0
