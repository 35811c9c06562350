"""``dpgpu report RESULTS_DIR``: one self-contained page (report.html) and its Markdown twin
(report.md) with the experiment, the machine's state, a row per case, the figures, the
failures with their messages, and the profiler metrics.

The page embeds its figures (PNG as data URIs) and its style, so it can be mailed or
archived alone; report.md links the figures under ``figures/`` instead. A small script at
the end of the page counts the figures that loaded and the case rows into ``data-``
attributes of ``<body>``, which the browser test reads.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import os
import sys
from dataclasses import dataclass
from typing import Optional, Sequence

from . import counters, fmt
from . import results as results_mod
from . import written_files
from .errors import PlotError
from .noise import verdict
from .results import Results, Row, is_usable, number

PROG = "dpgpu_report"


@dataclass
class Case:
    row: Row
    speedup: Optional[float]  # baseline time / this case's time, same instance


def declared_baseline(results: Results) -> Optional[str]:
    """The ``baseline`` of the experiment's first declared speedup figure that names one, so
    the report's speed-up column and the declared figure use one rule (issue 36: the report
    took the slowest CPU solver while the figure took cpu.dp)."""
    from . import plotspec
    try:
        declared = plotspec.read_plot_section(results.experiment_path)
    except PlotError:
        return None  # a broken plot: section is `dpgpu plot`'s error to report
    named = [s.opt("baseline") for s in declared if s.kind == "speedup" and s.opt("baseline")]
    return str(named[0]) if named else None


def _baseline(results: Results, rows: list[Row]):
    """The speed-up baseline (the declared speedup figure's, else that figure's default rule,
    per instance), {case_id: speed-up} and whether it was declared; (None, {}, False) with
    fewer than two solvers."""
    from .fig_speedup import _columns, choose_baseline
    from .plotspec import FigureSpec
    usable = [r for r in rows if is_usable(r)]
    if len({r.get("solver") for r in usable}) < 2:
        return None, {}, False
    columns = _columns(results, usable, "instance", FigureSpec(kind="speedup"), "time_median_s")
    if len(columns) < 2:
        return None, {}, False
    wanted = declared_baseline(results)
    try:
        base = choose_baseline(columns, wanted, "report")
    except PlotError:
        wanted = None  # not among this folder's measured series (a filtered run): the rule
        base = choose_baseline(columns, None, "report")
    out = {}
    for column in columns:
        for r in usable:
            if r.get("solver") != column.solver or any(r.get(c, "") != v for c, v in column.variant):
                continue
            t = number(r.get("time_median_s"))
            b = base.times.get((r.get("instance") or "").strip())
            if t and b:
                out[r.get("case_id", "")] = b / t
    return base.label, out, wanted is not None


CASE_HEAD = ("case", "solver", "instance", "status", "valid", "median", "min\u2013max", "rsd",
             "noise", "throughput", "speed-up", "objective")
ENERGY_HEAD = ("energy/solve", "power", "throttle")


def has_energy(results: Results) -> bool:
    """Whether the folder's rows carry energy columns (runs since issue 28)."""
    return "energy_j" in results.columns


def case_head(results: Results) -> tuple[str, ...]:
    """The case table's columns: the energy ones after throughput where the folder has them."""
    if not has_energy(results):
        return CASE_HEAD
    at = CASE_HEAD.index("throughput") + 1
    return CASE_HEAD[:at] + ENERGY_HEAD + CASE_HEAD[at:]


def throttled(row: Row) -> bool:
    return (row.get("gpu.throttled") or "").strip().lower() in ("true", "1")


def _energy_cells(r: Row, ok: bool) -> list[str]:
    """J per solve (``n/a`` where the case measured none, as energy_method says), mean
    power, and the throttle mark: ``THROTTLED (flags)`` as the progress line prints it."""
    if not ok:
        return [fmt.DASH] * 3
    energy = number(r.get("energy_j"))
    method = (r.get("energy_method") or "").strip()
    flags = (r.get("gpu.throttle_flags") or "").strip()
    mark = f"THROTTLED ({flags or 'reason unnamed'})" if throttled(r) else \
        "no" if (r.get("gpu.throttled") or "").strip() else fmt.DASH
    return [fmt.joules(energy) if energy is not None else (method or "n/a"),
            fmt.watts(number(r.get("power_w"))), mark]


def _throughput_text(results: Results, r: Row) -> str:
    """``403 G/s``, or ``1.2 M nodes/s`` where counters.json declares the solver's work unit."""
    value = number(r.get("throughput"))
    unit = results.counters.solver_work_unit(r.get("problem", ""), r.get("solver", "")) \
        if results.counters is not None else None
    return counters.rate(value, unit) if unit else fmt.rate(value)


def _case_cells(results: Results, case: Case) -> list[str]:
    r = case.row
    ok = r.get("status", "").strip() == "ok"
    v = verdict(r, results.noise_threshold)
    valid = (r.get("valid") or "").strip() or ("n/a" if ok else "")
    low, high = number(r.get("time_min_s")), number(r.get("time_max_s"))
    objective = (r.get("objective") or "").strip()
    known = (r.get("known_optimum") or "").strip()  # from the file's OPTIMA.tsv or the generator
    if known:
        objective += f" (known {known})"
    return [r.get("case_id", ""), r.get("solver", ""), r.get("instance", ""),
            r.get("status", ""), valid,
            fmt.seconds(number(r.get("time_median_s"))) if ok else fmt.DASH,
            f"{fmt.seconds(low)} \u2013 {fmt.seconds(high)}" if ok and low is not None else fmt.DASH,
            fmt.percent(v.rsd) if ok else fmt.DASH,
            v.text if ok else fmt.DASH,
            _throughput_text(results, r) if ok else fmt.DASH,
            *(_energy_cells(r, ok) if has_energy(results) else []),
            fmt.speedup(case.speedup),
            objective or fmt.DASH]


def context_items(results: Results) -> list[tuple[str, str]]:
    """(label, text) pairs of what context.json says about the run and the machine."""
    c = results.context
    gpu = c.get("gpu") if isinstance(c.get("gpu"), dict) else None
    host = c.get("host") if isinstance(c.get("host"), dict) else {}
    items = [("experiment", str(c.get("experiment") or results.experiment_name)),
             ("description", results.description),
             ("start \u2013 end", f"{c.get('start', '?')} \u2013 {c.get('end', '?')}"),
             ("git commit", str(c.get("git_commit", "unknown")))]
    if "command_line" in host:
        items.append(("command line", " ".join(map(str, host["command_line"]))))
    if gpu:
        items.append(("GPU", f"{gpu.get('name', '?')}, {gpu.get('sm_count', '?')} SMs, "
                             f"compute capability {gpu.get('compute_capability', '?')}"))
        items.append(("driver / CUDA", f"{gpu.get('driver', '?')} / runtime "
                                       f"{gpu.get('cuda_runtime_version', '?')}"))
        for key, label in (("gpu_clocks_start", "GPU at start"), ("gpu_clocks_end", "GPU at end")):
            g = c.get(key)
            if isinstance(g, dict):
                items.append((label, f"SM {g.get('sm_clock_mhz', '?')} MHz, memory "
                                     f"{g.get('memory_clock_mhz', '?')} MHz, "
                                     f"{g.get('temperature_c', '?')} \u00b0C, {g.get('power_w', '?')} W, "
                                     f"throttle reasons {g.get('throttle_reasons', '?')}"))
    else:
        items.append(("GPU", "none" if "gpu" in c else "unknown"))
    cpu = f"{host.get('cpu', '?')}, {host.get('cores', '?')} cores"
    if "cpu_governor" in host:
        cpu += f", governor {host['cpu_governor']}"
    if "cpu_mhz" in host:
        cpu += f", {host['cpu_mhz']:.0f} MHz"
    items.append(("CPU", cpu))
    if "memory_total_bytes" in host:
        items.append(("memory", f"{host.get('memory_available_bytes', 0) / 2**30:.1f} GiB available of "
                                f"{host['memory_total_bytes'] / 2**30:.1f} GiB"))
    for key, label in (("load_start", "load at start"), ("host_load_end", "load at end")):
        load = host.get(key) if key in host else c.get(key)
        if isinstance(load, dict):
            items.append((label, load_text(load)))
    items.append(("compiler", str(host.get("compiler", "?"))))
    items.append(("noise threshold", f"rsd above {results.noise_threshold:.0%} is flagged noisy"))
    return [(k, v) for k, v in items if v]


def load_text(load: dict) -> str:
    avg = load.get("loadavg") or []
    text = "load average " + " / ".join(f"{v:.2f}" for v in avg) if avg else "load unknown"
    busy = load.get("busy_processes") or []
    if busy:
        text += "; busy: " + ", ".join(f"{p.get('name')} ({p.get('cpu_percent')}%)" for p in busy[:5])
    else:
        text += "; no other busy process"
    return text


def _figures(directory: str) -> list[str]:
    folder = os.path.join(directory, "figures")
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".png"))


def _metrics(results: Results) -> list[Row]:
    path = os.path.join(results.directory, results_mod.METRICS)
    if not os.path.isfile(path):
        return []
    return results_mod.read_csv(path)[1]


METRIC_HEAD = ("case", "solver", "kernel", "metric", "mean", "min", "max", "launches", "status")


def _metric_cells(r: Row) -> list[str]:
    return [r.get("case_id", ""), r.get("solver", ""), r.get("kernel", ""), r.get("metric", ""),
            r.get("mean", ""), r.get("min", ""), r.get("max", ""),
            f"{r.get('launches_profiled', '')} of {r.get('launches_total', '')}",
            r.get("status", "") + (f": {r.get('message', '')}" if r.get("message") else "")]


def failures(rows: list[Row]) -> list[Row]:
    return [r for r in rows if r.get("status", "").strip() not in ("ok", "skipped")
            or (r.get("valid") or "").strip().lower() == "false"]


def missing_cases(results: Results, rows: list[Row]) -> tuple[int, list[str]]:
    """(planned cases, those of them with no row): from plan.json (the shard's cases for a
    shard's folder), so a run stopped early is not reported as complete. (0, []) without one."""
    try:
        with open(os.path.join(results.directory, "plan.json"), encoding="utf-8") as f:
            plan = json.load(f)
        shard = plan.get("shard") or {}
        planned = shard.get("cases") if shard else plan.get("fingerprint", {}).get("cases", [])
    except (OSError, ValueError, AttributeError):
        return 0, []
    have = {r.get("case_id", "") for r in rows}
    return len(planned), [c for c in planned if c not in have]


def _missing_lines(planned: int, missing: list[str], limit: int = 20) -> list[str]:
    lines = [f"{len(missing)} of the plan's {planned} cases have no results (the run stopped before them; "
             f"continue it with dpgpu run FILE --out DIR --resume):"]
    lines += [f"- {c}" for c in missing[:limit]]
    if len(missing) > limit:
        lines.append(f"- and {len(missing) - limit} more")
    return lines


def _summary_line(rows: list[Row], cases: list[Case], threshold: float) -> str:
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.get("status", "") or "?"] = counts.get(r.get("status", "") or "?", 0) + 1
    noisy = sum(1 for c in cases if c.row.get("status") == "ok" and verdict(c.row, threshold).noisy)
    parts = [f"{len(rows)} cases: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))]
    parts.append(f"{noisy} noisy")
    hot = sum(1 for c in cases if c.row.get("status") == "ok" and throttled(c.row))
    if hot:
        parts.append(f"{hot} throttled")
    invalid = sum(1 for r in rows if (r.get("valid") or "").strip().lower() == "false")
    if invalid:
        parts.append(f"{invalid} invalid")
    return "; ".join(parts)


STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:12px;margin:.5em 0}
td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0}
td.num{text-align:right;white-space:nowrap}
tr.noisy td.noise{background:#fde2e1}tr.throttled td.throttle{background:#fde2e1}tr.failed td{background:#fff3cd}
tr.skipped td{color:#888}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 14px}dt{font-weight:600}dd{margin:0}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:12px;color:#555}
.wide{overflow-x:auto}
"""

CHECK_SCRIPT = """
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.querySelectorAll('img.figure'));
  document.body.dataset.figures = imgs.length;
  document.body.dataset.figuresLoaded = imgs.filter(function (i) {
    return i.complete && i.naturalWidth > 0; }).length;
  document.body.dataset.caseRows = document.querySelectorAll('table.cases tbody tr').length;
});
"""

NUMERIC = {"median", "min\u2013max", "rsd", "throughput", "speed-up", "energy/solve", "power"}


def _table(head: Sequence[str], rows: list[list[str]], cls: str,
           row_classes: Optional[list[str]] = None) -> str:
    e = html.escape
    out = [f'<div class="wide"><table class="{cls}"><thead><tr>'
           + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for i, cells in enumerate(rows):
        rc = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        tds = []
        for h, c in zip(head, cells):
            klass = "num" if h in NUMERIC else h if h in ("noise", "throttle") else ""
            tds.append(f'<td class="{klass}">{e(c)}</td>' if klass else f"<td>{e(c)}</td>")
        out.append(f"<tr{rc}>" + "".join(tds) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _md_table(head: Sequence[str], rows: list[list[str]]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(cell(h) for h in head) + " |",
             "|" + "|".join("---:" if h in NUMERIC else "---" for h in head) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


CLAIM_HEAD = ("claim", "paper", "says", "holds", "numbers")


def load_claims(directory: str) -> Optional[dict]:
    """The folder's claims as `dpgpu verify --json` evaluates them, or None where there is no
    dpgpu to ask ($DPGPU_BIN, set by `dpgpu report`) or the claims cannot be read."""
    binary = os.environ.get("DPGPU_BIN")
    if not binary:
        return None
    import json
    import subprocess
    out = subprocess.run([binary, "verify", "--json", directory], capture_output=True, text=True)
    if out.returncode == 2:
        print(f"{PROG}: note: claims not evaluated: {out.stderr.strip()}", file=sys.stderr)
        return None
    try:
        folders = json.loads(out.stdout)["folders"]
    except (ValueError, KeyError):
        return None
    return folders[0] if folders and folders[0]["claims"] else None


def _claim_rows(claims: Optional[dict]) -> list[list[str]]:
    if not claims:
        return []
    return [[c["id"], c["paper"], c["says"], "yes" if c["held"] else "NO",
             f"{c['comparison']}: {c['detail']}"] for c in claims["claims"]]


def build(results: Results, claims: Optional[dict] = None) -> tuple[str, str]:
    """(report.html, report.md) of a results folder: the claims and the figures first, then
    the cases, failures and profiler metrics, then the experiment and the machine."""
    rows = results.rows
    base_label, speedups, declared = _baseline(results, rows)
    cases = [Case(r, speedups.get(r.get("case_id", ""))) for r in rows]
    threshold = results.noise_threshold
    case_rows = [_case_cells(results, c) for c in cases]
    classes = []
    for c in cases:
        status = c.row.get("status", "").strip()
        if status == "skipped":
            classes.append("skipped")
        elif status != "ok" or (c.row.get("valid") or "").strip().lower() == "false":
            classes.append("failed")
        elif verdict(c.row, threshold).noisy:
            classes.append("noisy throttled" if throttled(c.row) else "noisy")
        elif throttled(c.row):
            classes.append("throttled")
        else:
            classes.append("")
    failed = failures(rows)
    fail_rows = [[r.get("case_id", ""), r.get("status", ""), r.get("valid", ""),
                  " ".join((r.get("message") or "").split())] for r in failed]
    skipped = [r for r in rows if r.get("status", "").strip() == "skipped"]
    skip_reasons: dict[str, int] = {}
    for r in skipped:
        reason = " ".join((r.get("message") or "no message").split())
        skip_reasons[reason] = skip_reasons.get(reason, 0) + 1
    metrics = _metrics(results)
    figures = _figures(results.directory)
    context = context_items(results)
    title = results.title
    summary = _summary_line(rows, cases, threshold)
    planned, missing = missing_cases(results, rows)
    if missing:
        summary += f"; {len(missing)} of {planned} planned cases missing"
    rule = ("the baseline of the experiment's speedup figure" if declared else
            "default baseline: the slowest CPU solver by geometric-mean time over the instances "
            "every CPU solver ran, as the speedup figure's default")
    base_note = (f"speed-up: {base_label}'s median time on the same instance / the case's "
                 f"({rule})") if base_label else \
        "speed-up: not computed (fewer than two solvers with ok rows)"
    if has_energy(results):
        methods = sorted({(r.get("energy_method") or "").strip() for r in rows
                          if r.get("status", "").strip() == "ok"} - {""})
        base_note += (f". energy/solve: energy_j (energy_method: {', '.join(methods) or 'none'}; a "
                      f"method name in the cell where the case measured none); power: power_w, mean "
                      f"over the energy window; throttle: NVML's throttle reasons during the case")

    e = html.escape
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{e(title)}</title>", f"<style>{STYLE}</style></head><body>",
            f"<h1>{e(title)}</h1>", f"<p>{e(summary)}</p>"]
    claim_rows = _claim_rows(claims)
    if claim_rows:
        held = sum(1 for r in claim_rows if r[3] == "yes")
        page.append(f"<h2>Claims</h2><p>{held} of {len(claim_rows)} claims hold on these records "
                    f"(<code>dpgpu verify</code>; claims from {e(claims['claims_file'])}).</p>")
        page.append(_table(CLAIM_HEAD, claim_rows, "claims", ["" if r[3] == "yes" else "failed" for r in claim_rows]))
    page.append("<h2>Figures</h2>")
    if not figures:
        page.append("<p>No figures (run <code>dpgpu plot</code>).</p>")
    for path in figures:
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        name = os.path.basename(path)
        page.append(f'<figure><img class="figure" alt="{e(name)}" src="data:image/png;base64,{data}">'
                    f"<figcaption>{e(name)}</figcaption></figure>")
    page.append(f"<h2>Cases</h2><p>{e(base_note)}. Noise: relative standard deviation of the "
                f"run times; noisy above {threshold:.0%}.</p>")
    page.append(_table(case_head(results), case_rows, "cases", classes))
    page.append("<h2>Failures</h2>")
    page.append(_table(("case", "status", "valid", "message"), fail_rows, "failures")
                if fail_rows else "<p>None: every case that ran is ok and valid.</p>")
    if missing:
        head, *items = _missing_lines(planned, missing)
        page.append(f"<h2>Missing</h2><p>{e(head)}</p><ul>" +
                    "".join(f"<li>{e(i[2:])}</li>" for i in items) + "</ul>")
    if skip_reasons:
        page.append("<h2>Skipped</h2><ul>" + "".join(
            f"<li>{n} \u00d7 {e(reason)}</li>" for reason, n in sorted(skip_reasons.items())) + "</ul>")
    if metrics:
        page.append("<h2>Profiler metrics</h2>")
        page.append(_table(METRIC_HEAD, [_metric_cells(r) for r in metrics], "metrics"))
    page.append("<h2>Experiment and machine</h2><dl>")
    page += [f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in context]
    page.append("</dl>")
    page.append(f"<script>{CHECK_SCRIPT}</script></body></html>")

    md = [f"# {title}", "", summary, ""]
    if claim_rows:
        md += ["## Claims", "", f"{sum(1 for r in claim_rows if r[3] == 'yes')} of {len(claim_rows)} claims "
               f"hold on these records (`dpgpu verify`; claims from {claims['claims_file']}).", "",
               _md_table(CLAIM_HEAD, claim_rows), ""]
    md += ["## Figures", ""]
    md += [f"![{os.path.basename(p)}](figures/{os.path.basename(p)})" for p in figures] or ["No figures."]
    md += ["", "## Cases", "", base_note + ".", "", _md_table(case_head(results), case_rows), "",
           "## Failures", ""]
    md += [_md_table(("case", "status", "valid", "message"), fail_rows)] if fail_rows else \
        ["None: every case that ran is ok and valid."]
    if missing:
        md += ["", "## Missing", ""] + _missing_lines(planned, missing)
    if skip_reasons:
        md += ["", "## Skipped", ""] + [f"- {n} \u00d7 {reason}" for reason, n in sorted(skip_reasons.items())]
    if metrics:
        md += ["", "## Profiler metrics", "", _md_table(METRIC_HEAD, [_metric_cells(r) for r in metrics])]
    md += ["", "## Experiment and machine", ""]
    md += [f"- **{k}**: {v}" for k, v in context]
    md.append("")
    return "\n".join(page) + "\n", "\n".join(md)


REPORT_FILES = ("report.html", "report.md")
MARKER = ".dpgpu-report"  # in RESULTS_DIR: the report files dpgpu report wrote, one a line


def refuse_others_reports(directory: str, adopt: bool) -> Optional[str]:
    """report overwrites only the report files it wrote (listed in RESULTS_DIR/.dpgpu-report):
    a user's report.md there is named and kept (issue 35, item 17's kind). `adopt` takes such
    files over (a report an older dpgpu report wrote, before the list)."""
    path = None if adopt else written_files.first_unlisted(directory, MARKER, REPORT_FILES)
    if path is None:
        return None
    return (f"{path}: not written by dpgpu report ({os.path.join(directory, MARKER)} does "
            f"not list it); not overwritten: move it away, or pass --adopt-unlisted if an "
            f"older dpgpu report wrote it")


def _write_reports(directory: str, texts: Sequence[tuple[str, str]]) -> int:
    for name, text in texts:
        path = os.path.join(directory, name)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            written_files.note_written(directory, MARKER, [name])
        except OSError as e:
            print(f"{PROG}: {path}: cannot write: {e.strerror}", file=sys.stderr)
            return 2
        except PlotError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return 2
        print(path)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="dpgpu report", description=(
        "Write RESULTS_DIR/report.html (self-contained) and report.md: the experiment and the "
        "machine, a row per case, figures, failures and profiler metrics."))
    p.add_argument("results_dir", metavar="RESULTS_DIR")
    p.add_argument("--no-plot", action="store_true",
                   help="use the figures already in RESULTS_DIR/figures (default: draw them first)")
    p.add_argument("--adopt-unlisted", action="store_true",
                   help="overwrite a report.html/report.md that .dpgpu-report does not list (one an "
                        "older dpgpu report wrote)")
    args = p.parse_args(argv)
    try:
        results = results_mod.load(args.results_dir)
    except PlotError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return e.exit_status
    refusal = refuse_others_reports(args.results_dir, args.adopt_unlisted)
    if refusal:
        print(f"{PROG}: {refusal}", file=sys.stderr)
        return 2
    if not args.no_plot and results.usable_rows():
        from .cli import main as plot_main
        status = plot_main([args.results_dir, "--format", "png"])
        if status:
            print(f"{PROG}: note: some figures could not be drawn (exit {status}); the report "
                  f"shows those that were", file=sys.stderr)
    page, md = build(results, load_claims(args.results_dir))
    return _write_reports(args.results_dir, (("report.html", page), ("report.md", md)))
