"""The command line: ``dpgpu_plot.py RESULTS_DIR [--figure NAME] [--format png,pdf]``.

Without --figure it draws the figures that the ``plot:`` section of RESULTS_DIR/
experiment.yaml declares (``plotspec``), or ``runtime`` when there is none.

Exit status: 0 when every figure was written, 2 for a problem with the input or the
options (the message names the file or option), 1 when Matplotlib cannot be imported.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from . import plotspec
from . import results as results_mod
from . import written_files
from .errors import PlotError
from .plotspec import FigureSpec

FORMATS = ("png", "pdf", "svg")
DEFAULT_FORMATS = "png,pdf"
DPI = 150
PROG = "dpgpu_plot"
# Kinds that draw summary.csv's ok, valid rows (the others read metrics.csv or series.csv).
SUMMARY_KINDS = ("runtime", "throughput", "phases", "speedup")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dpgpu_plot.py",
        description="Draw figures from a dpgpu results folder (reads summary.csv, metrics.csv, "
                    "series.csv, context.json and the plot: section of experiment.yaml; writes "
                    "RESULTS_DIR/figures/NAME.FORMAT).")
    p.add_argument("results_dirs", nargs="*", metavar="RESULTS_DIR",
                   help="results folders written by dpgpu (each holds summary.csv); several: "
                        "each is drawn in turn, e.g. results/reference/h100/*")
    p.add_argument("--figure", metavar="NAME[,NAME...]",
                   help="figures to draw, by plot: name or kind, comma-separated, or 'all' "
                        "(default: every figure experiment.yaml's plot: section declares, else "
                        "runtime; --list shows the kinds)")
    p.add_argument("--format", default=DEFAULT_FORMATS, metavar="FMT[,FMT...]",
                   help=f"output formats, comma-separated, of {', '.join(FORMATS)} "
                        f"(default: {DEFAULT_FORMATS})")
    p.add_argument("--x", metavar="COLUMN",
                   help="x column, e.g. i.n or s.block, for every figure that has one "
                        "(default: the plot: section's, else the i. column with the most "
                        "distinct numeric values)")
    p.add_argument("--series", metavar="COLUMN[,COLUMN...]",
                   help="columns whose values make the series (one line or bar group each), e.g. "
                        "solver or solver,s.block, for every figure that has series (default: the "
                        "plot: section's, else the solver and every varying s. column)")
    p.add_argument("--adopt-unlisted", action="store_true",
                   help="overwrite figures/ files that figures/.dpgpu-figures does not list (drawn by "
                        "dpgpu before that list existed) and list them; without it such a file is "
                        "never overwritten")
    p.add_argument("--list", action="store_true",
                   help="list the figure kinds (and RESULTS_DIR's declared figures) and exit")
    return p


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_formats(text: str) -> list[str]:
    formats = [f.lower().lstrip(".") for f in split_list(text)]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise PlotError(f"--format {text!r}: choose from {', '.join(FORMATS)}")
    return list(dict.fromkeys(formats))


@dataclass(frozen=True)
class Planned:
    spec: FigureSpec
    optional: bool = False  # from --figure all and not declared: skipped when it cannot be drawn


def specs_from_args(args, declared: Sequence[FigureSpec]) -> list[Planned]:
    """The figures to draw: --figure's names (a declared figure's name, else the declared
    figures of that kind, else a kind with default options; ``all``: the declared figures
    and then every other kind), or without --figure the declared figures, else runtime.
    --x overrides the x of every figure whose kind has one, --series the series of every figure
    whose kind has them (re-plotting a folder needs no edit of its experiment.yaml)."""
    kinds = list(plotspec.KIND_KEYS)
    if args.figure is None:
        planned = [Planned(s) for s in declared] or [Planned(FigureSpec(kind="runtime"))]
    else:
        names = split_list(args.figure)
        if not names:
            raise PlotError(f"--figure {args.figure!r}: no figure named")
        planned = []
        for name in names:
            if name == "all":
                planned += [Planned(s) for s in declared]
                used = {s.kind for s in declared}
                planned += [Planned(FigureSpec(kind=k), optional=True) for k in kinds if k not in used]
                continue
            by_name = [s for s in declared if s.name == name]
            by_kind = [s for s in declared if s.kind == name]
            if by_name or by_kind:
                planned += [Planned(s) for s in by_name or by_kind]
            elif name in kinds:
                planned.append(Planned(FigureSpec(kind=name)))
            else:
                known = f"kinds: {', '.join(kinds)}"
                named = [s.name for s in declared if s.name]
                if named:
                    known = f"figures of experiment.yaml: {', '.join(named)}; " + known
                raise PlotError(f"--figure {args.figure!r}: unknown figure kind {name!r}, and no "
                                f"figure of the plot: section has that name ({known}; or all)")
    out, seen = [], set()
    for p in planned:
        if p.spec.stem in seen:
            continue
        seen.add(p.spec.stem)
        if args.x and "x" in plotspec.KIND_KEYS[p.spec.kind]:
            p = Planned(replace(p.spec, x=args.x), p.optional)
        if getattr(args, "series", None) and "series" in plotspec.KIND_KEYS[p.spec.kind]:
            series = split_list(args.series)
            if not series:
                raise PlotError(f"--series {args.series!r}: no column named")
            p = Planned(replace(p.spec, options={**p.spec.options, "series": series}), p.optional)
        out.append(p)
    return out


def _figures_dir(directory: str) -> str:
    out_dir = os.path.join(directory, "figures")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise PlotError(f"{out_dir}: cannot create: {e.strerror}") from None
    return out_dir


MANIFEST = ".dpgpu-figures"  # the files dpgpu drew: `dpgpu run` removes only these when the data change


def _refuse_unlisted(out_dir: str, paths: Sequence[str], adopt: bool) -> None:
    """Never overwrite a file dpgpu plot did not draw: a path that exists and that the
    manifest does not list is refused (issue 35, item 17), unless `adopt` (--adopt-unlisted)."""
    if adopt:
        return
    path = written_files.first_unlisted(out_dir, MANIFEST, [os.path.basename(p) for p in paths])
    if path:
        raise PlotError(
            f"{path}: not drawn by dpgpu plot ({os.path.join(out_dir, MANIFEST)} does not list it); "
            f"not overwritten. Move it away, or pass --adopt-unlisted if dpgpu drew it before "
            f"that list existed")


def _note_written(out_dir: str, paths: list[str]) -> None:
    """Add the files' names to figures/.dpgpu-figures (one a line), so that a later run that
    changes the data removes the figures dpgpu drew and never a file of the user's."""
    written_files.note_written(out_dir, MANIFEST, [os.path.basename(p) for p in paths])


def save(fig, directory: str, stem: str, formats: Sequence[str], adopt: bool = False) -> list[str]:
    """Write fig as directory/figures/stem.FMT for each format; the paths written. A file
    there that dpgpu plot did not draw is refused before anything is written."""
    out_dir = _figures_dir(directory)
    planned = [os.path.join(out_dir, f"{stem}.{fmt}") for fmt in formats]
    _refuse_unlisted(out_dir, planned, adopt)
    paths = []
    for fmt, path in zip(formats, planned):
        # No creation dates in PDF/SVG, so that redrawing the same data gives the same file.
        metadata = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}.get(fmt)
        try:
            fig.savefig(path, format=fmt, dpi=DPI, metadata=metadata)
        except OSError as e:
            _note_written(out_dir, paths)
            raise PlotError(f"{path}: cannot write: {e.strerror}") from None
        paths.append(path)
    _note_written(out_dir, paths)
    return paths


def save_texts(texts: dict, directory: str, stem: str, adopt: bool = False) -> list[str]:
    """Write each text (extension -> contents) as directory/figures/stem.EXT (refusing, as
    save, a file there that dpgpu plot did not draw)."""
    if not texts:
        return []
    out_dir = _figures_dir(directory)
    planned = {ext: os.path.join(out_dir, f"{stem}.{ext}") for ext in texts}
    _refuse_unlisted(out_dir, list(planned.values()), adopt)
    paths = []
    for ext, text in texts.items():
        path = planned[ext]
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            _note_written(out_dir, paths)
            raise PlotError(f"{path}: cannot write: {e.strerror}") from None
        paths.append(path)
    _note_written(out_dir, paths)
    return paths


def _import_figures():
    try:
        from . import figures
    except ImportError as e:
        print(f"{PROG}: {sys.executable} cannot import Matplotlib ({e}); run with the Python "
              f"that plots/find_python.sh prints", file=sys.stderr)
        sys.exit(1)
    return figures


def _list(args) -> int:
    for kind in plotspec.KIND_KEYS:
        print(f"{kind:14} {plotspec.KIND_HELP[kind]}")
    if args.results_dir:
        try:
            declared = plotspec.read_plot_section(os.path.join(args.results_dir, results_mod.EXPERIMENT))
        except PlotError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return e.exit_status
        if declared:
            print(f"\nfigures declared in {os.path.join(args.results_dir, results_mod.EXPERIMENT)}:")
            for s in declared:
                print(f"  {s.stem:14} {s.kind}")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    args.results_dir = args.results_dirs[0] if args.results_dirs else None
    if args.list:
        if len(args.results_dirs) > 1:
            parser().error("--list takes at most one RESULTS_DIR")
        return _list(args)
    if not args.results_dirs:
        parser().error("the following argument is required: RESULTS_DIR")
    status = 0
    for directory in args.results_dirs:
        args.results_dir = directory
        status = max(status, plot_folder(args))
    return status


def plot_folder(args) -> int:
    """Draw one folder's figures; the exit status for it."""
    try:
        formats = parse_formats(args.format)
        results = results_mod.load(args.results_dir)
        declared = plotspec.read_plot_section(results.experiment_path)
        planned = specs_from_args(args, declared)
        # When every figure draws summary rows, say why there are none before importing
        # Matplotlib, so the message does not depend on having it.
        if all(p.spec.kind in SUMMARY_KINDS and not p.optional for p in planned):
            results.require_usable_rows()
        figures = _import_figures()
    except PlotError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return e.exit_status

    status = 0
    for p in planned:
        spec = p.spec
        if p.optional:
            why = figures.REGISTRY[spec.kind].unavailable(results)
            if why:
                print(f"{PROG}: note: --figure all: no {spec.kind} figure ({why})", file=sys.stderr)
                continue
        try:
            out = figures.render(results, spec)
            adopt = getattr(args, "adopt_unlisted", False)
            paths = save(out.figure, args.results_dir, spec.stem, formats, adopt) if out.figure else []
            paths += save_texts(out.texts, args.results_dir, spec.stem, adopt)
            for path in paths:
                print(path)
        except PlotError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            status = e.exit_status
    return status
