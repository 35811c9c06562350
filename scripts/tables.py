#!/usr/bin/env python3
"""Tables of measured numbers, generated from committed results.

A Markdown file marks a block; this script rewrites what lies between the marks:

    <!-- dpgpu:table results/reference/h100/pipeline_p_sweep where="s.sync=grid;i.n=67108864" cols="s.p:p;c.steps:steps:int;time_median_s:median time:time;c.step_ns:step (ns):f0" sort="s.p" -->
    ...
    <!-- /dpgpu:table -->

    <!-- dpgpu:claims results/reference/h100/ivm_table2_speedups -->
    ...
    <!-- /dpgpu:claims -->

    <!-- dpgpu:solvers -->
    ...
    <!-- /dpgpu:solvers -->

    <!-- dpgpu:reproduction results/reference/h200/reproduce_quick -->
    ...
    <!-- /dpgpu:reproduction -->

`table`: rows of the folder's summary.csv (known_optimum joined from runs.csv, m.<metric>.min
and .max from metrics.csv) that pass every `where` filter (column=value, values split by |),
columns `column[:heading[:format]]` split by `;`, sorted by `sort` (numbers as numbers).
Formats: time (s or ms), int, f0..f4, g3, x (a ratio, 12.3x), gcups and tcups (cells/s in 10^9, 10^12).
`file="table2.csv"` reads that CSV of the folder instead (a table derived from the records,
e.g. scripts/mcm_table2.py's ranges).
`claims`: the folder's claims, evaluated by `dpgpu verify --markdown`.
Each of these two is captioned with the experiment and the device (context.json).
`solvers`: every registered solver, from `dpgpu list --markdown` (the registry).
`reproduction`: a `dpgpu reproduce` folder's claims.csv as which claims hold on the reference
GPU (the committed folder each claim came from), on the reproducing GPU, and on both.

    scripts/tables.py                # rewrite every block in the project's READMEs
    scripts/tables.py --check        # exit 1 naming each stale block (CI)
    scripts/tables.py --bare-numbers # exit 1 naming each measured number typed by hand (CI)

A measured number (a time, a ratio, a rate, a share: `12 ms`, `3.4x`, `13.5 TCUPS`, `87 %`)
belongs in a generated block or in a claim; outside them a README may name claims by id.
Fenced code, inline code (settings and inputs: `timeout_s: 300`, `5 s`), HTML comments and
quotations ("...": a paper's words) are not searched, nor a product of sizes (`65 × 65`).
"""
import argparse
import csv
import difflib
import glob
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = ["README.md", "results/reference/README.md", "results/reproductions/README.md", "strategies/*/README.md", "strategies/*/*_README.md",
                 "strategies/README.md", "problems/README.md", "problems/*/README.md", "baselines/*/README.md",
                 "experiments/README.md", "harness/README.md", "plots/README.md", "tests/fuzz/README.md", "docs/*.md"]
BLOCK = re.compile(r"(<!-- dpgpu:(table|claims|solvers|reproduction)(?: (.*?))? -->\n)(.*?)(<!-- /dpgpu:\2 -->)", re.S)


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def folder_rows(folder):
    """summary.csv with known_optimum (runs.csv) and m.<metric>.min/.max (metrics.csv) joined."""
    rows = read_csv(os.path.join(folder, "summary.csv"))
    if not rows:
        raise ValueError(f"{folder}: no summary.csv")
    extra = {}
    for r in read_csv(os.path.join(folder, "runs.csv")):
        if r.get("known_optimum"):
            extra.setdefault(r["case_id"], {})["known_optimum"] = r["known_optimum"]
    for m in read_csv(os.path.join(folder, "metrics.csv")):
        if m.get("status", "ok") != "ok":
            continue
        e = extra.setdefault(m["case_id"], {})
        for key, col, pick in ((f"m.{m['metric']}.min", "min", min), (f"m.{m['metric']}.max", "max", max)):
            v = number(m.get(col))
            if v is not None:
                e[key] = v if key not in e else pick(e[key], v)
    for r in rows:
        for k, v in extra.get(r["case_id"], {}).items():
            if not r.get(k):
                r[k] = str(v)
    return rows


def context(folder):
    path = os.path.join(folder, "context.json")
    if not os.path.exists(path):
        return "?", "?"
    c = json.load(open(path))
    device = (c.get("gpu") or {}).get("name") or (c.get("host") or {}).get("cpu", "?")
    return c.get("experiment", os.path.basename(folder)), device


def fmt_value(text, how):
    v = number(text)
    if text in (None, ""):
        return "–"
    if v is None or not how:
        return text
    if how == "time":
        return f"{v * 1e3:.3g} ms" if v < 1 else f"{v:.3g} s"
    if how == "int":
        return f"{v:,.0f}"
    if how == "x":
        return f"{v:.3g}×"
    if how == "tcups":
        return f"{v / 1e12:.3g}"
    if how == "gcups":
        return f"{v / 1e9:.3g}"
    if how == "g3":
        return f"{v:.3g}"
    if re.fullmatch(r"f\d", how):
        return f"{v:.{how[1]}f}"
    raise ValueError(f"unknown format '{how}' (time, int, x, gcups, tcups, g3, f0..f4)")


def passes(row, where):
    for cond in filter(None, (w.strip() for w in where.split(";"))):
        col, _, want = cond.partition("=")
        cell = row.get(col.strip())
        if cell is None:
            raise ValueError(f"where: no column '{col.strip()}'")
        wants = [w.strip() for w in want.split("|")]
        if not any(cell == w or (number(cell) is not None and number(cell) == number(w)) for w in wants):
            return False
    return True


def sort_key(columns):
    def key(row):
        out = []
        for c in columns:
            v = number(row.get(c))
            out.append((0, v, "") if v is not None else (1, 0, row.get(c, "")))
        return out
    return key


def parse_col(spec):
    """column[@col=value,col=value][:heading[:format]] -> (column, filters, heading, format)."""
    parts = spec.split(":")
    column, _, picks = parts[0].partition("@")
    heading = parts[1] if len(parts) > 1 and parts[1] else column
    return column.strip(), picks, heading, parts[2] if len(parts) > 2 else ""


def render_table(folder, opts):
    """One row per selected summary row; with group=COLUMN, one row per value of COLUMN whose
    cells come from the group's row passing the column's @filters (a pivot)."""
    rows = read_csv(os.path.join(folder, opts["file"])) if "file" in opts else folder_rows(folder)
    if not rows:
        raise ValueError(f"{folder}: no rows in {opts.get('file', 'summary.csv')}")
    experiment, device = context(folder)
    rows = [r for r in rows if passes(r, opts.get("where", ""))]
    if not rows:
        raise ValueError(f"{folder}: where=\"{opts.get('where', '')}\" selects no row")
    if "sort" in opts:
        rows.sort(key=sort_key(opts["sort"].split(",")))
    cols = [parse_col(c) for c in opts["cols"].split(";")]
    for column, picks, _, _ in cols:
        if not any(column in r for r in rows):
            raise ValueError(f"{folder}: no column '{column}'")
    lines = [f"`{experiment}` on {device} (`{os.path.relpath(folder, ROOT)}`; generated by `scripts/tables.py`):", "",
             "| " + " | ".join(c[2] for c in cols) + " |", "|" + "---|" * len(cols)]
    if "group" in opts:
        groups = {}
        for r in rows:
            groups.setdefault(r.get(opts["group"], ""), []).append(r)
        table = list(groups.values())
    else:
        table = [[r] for r in rows]
    for group in table:
        cells = []
        for column, picks, _, how in cols:
            hit = [r for r in group if passes(r, picks.replace(",", ";"))]
            cells.append(fmt_value(hit[0].get(column) if hit else None, how))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def render_claims(folder, dpgpu):
    out = subprocess.run([dpgpu, "verify", "--markdown", folder], capture_output=True, text=True, cwd=ROOT)
    if out.returncode == 2 or not out.stdout.strip():
        raise ValueError(f"{folder}: dpgpu verify failed: {out.stderr.strip() or 'no claims'}")
    return out.stdout.rstrip("\n").replace(os.path.join(ROOT, ""), "") + "\n"


def render_solvers(dpgpu):
    out = subprocess.run([dpgpu, "list", "--markdown"], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0 or not out.stdout.strip():
        raise ValueError(f"dpgpu list --markdown failed: {out.stderr.strip() or 'no solvers'}")
    return "Generated from the registry by `scripts/tables.py` (`dpgpu list --markdown`):\n\n" + out.stdout


def where_held(reference, here):
    """Which GPUs a claim holds on, from the reference folder's verdict and this run's."""
    if here == "not evaluated":
        return "reference only" if reference == "held" else "neither (not evaluated here)"
    if reference == "held" and here == "held":
        return "both"
    if here == "held":
        return "this GPU only"
    return "reference only" if reference == "held" else "neither"


def render_reproduction(folder):
    """The claims of a reproduction beside the reference's verdicts, with counts first."""
    rows = read_csv(os.path.join(folder, "claims.csv"))
    if not rows:
        raise ValueError(f"{folder}: no claims.csv (a `dpgpu reproduce` folder writes one)")
    here = next((r["device"] for r in rows if r["device"]), "this GPU")
    refs = sorted({r["reference_device"] for r in rows if r["reference_device"]})
    counts = {}
    for r in rows:
        w = where_held(r["reference_verdict"], r["verdict"])
        counts[w] = counts.get(w, 0) + 1
    order = ["both", "reference only", "this GPU only", "neither", "neither (not evaluated here)"]
    lines = [f"Reproduction in `{os.path.relpath(folder, ROOT)}` on {here}, against the reference "
             f"folders on {', '.join(refs) or 'no GPU named'}: " +
             "; ".join(f"{counts[k]} {k}" for k in order if k in counts) + ".", "",
             "| claim | paper item | kind | reference | this GPU | holds on |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| `{r['experiment']}` `{r['claim']}` | {r['paper']} | {r['kind']} | "
                     f"{r['reference_verdict']} | {r['verdict']} | "
                     f"{where_held(r['reference_verdict'], r['verdict'])} |")
    return "\n".join(lines) + "\n"


def render(kind, spec, dpgpu):
    if kind == "solvers":
        return render_solvers(dpgpu)
    if kind == "reproduction":
        return render_reproduction(os.path.join(ROOT, shlex.split(spec)[0]))
    words = shlex.split(spec or "")
    folder = os.path.join(ROOT, words[0])
    opts = dict(w.split("=", 1) for w in words[1:])
    return render_table(folder, opts) if kind == "table" else render_claims(folder, dpgpu)


def process(path, dpgpu, check):
    text = open(path).read()
    stale = []

    def replace(m):
        body = render(m.group(2), m.group(3), dpgpu)
        if body != m.group(4):
            line = text[: m.start()].count("\n") + 1
            stale.append((line, m.group(4), body))
        return m.group(1) + body + m.group(5)

    new = BLOCK.sub(replace, text)
    if check:
        for line, old, body in stale:
            print(f"{os.path.relpath(path, ROOT)}:{line}: stale block; run scripts/tables.py")
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), body.splitlines(True), "committed", "generated"))
    elif new != text:
        open(path, "w").write(new)
        print(f"{os.path.relpath(path, ROOT)}: {len(stale)} block(s) rewritten")
    return len(stale)


MEASURED = re.compile(r"(?<![\w.^/-])\d[\d,]*(?:\.\d+)?(?:[–-]\d[\d,]*(?:\.\d+)?)?\s?"
                      r"(?:ms|µs|us|ns|s|x|×|GCUPS|TCUPS|GB/s|TB/s|W|J|%)(?![\w/]|\s?\d)")
# Fenced and inline code, HTML comments, and quotations ("...", a paper's words, over at most
# a few lines).
NOT_PROSE = re.compile(r"```.*?```|<!--.*?-->|`[^`\n]*`|\"[^\"\n]*(?:\n[^\"\n]*){0,4}\"", re.S)


def bare_numbers(path):
    """(line, text) of each measured number outside generated blocks, code and comments."""
    text = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), open(path).read())
    text = NOT_PROSE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [(text[: m.start()].count("\n") + 1, m.group(0)) for m in MEASURED.finditer(text)]


def check_bare_numbers(files):
    found = 0
    for path in files:
        for line, number in bare_numbers(path):
            print(f"{os.path.relpath(path, ROOT)}:{line}: '{number}' typed by hand (generate it, or name its claim)")
            found += 1
    return 1 if found else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("files", nargs="*", help="Markdown files (default: the project's READMEs)")
    ap.add_argument("--check", action="store_true", help="rewrite nothing; exit 1 when a block is stale")
    ap.add_argument("--bare-numbers", action="store_true", help="rewrite nothing; exit 1 on a hand-typed measured number")
    ap.add_argument("--dpgpu", default=os.path.join(ROOT, "build/harness/dpgpu"), help="the dpgpu binary (claims blocks)")
    args = ap.parse_args()
    files = args.files or sorted({f for p in DEFAULT_FILES for f in glob.glob(os.path.join(ROOT, p))})
    if args.bare_numbers:
        return check_bare_numbers(files)
    try:
        stale = sum(process(f, args.dpgpu, args.check) for f in files)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
