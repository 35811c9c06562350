"""The command line: ``dpgpu_plot.py RESULTS_DIR [--figure NAME] [--format png,pdf]``.

Exit status: 0 when every figure was written, 2 for a problem with the input or the
options (the message names the file or option), 1 when Matplotlib cannot be imported.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from . import results as results_mod
from .errors import PlotError

FORMATS = ("png", "pdf", "svg")
DPI = 150
PROG = "dpgpu_plot"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dpgpu_plot.py",
        description="Draw figures from a dpgpu results folder (reads summary.csv and "
                    "context.json; writes RESULTS_DIR/figures/NAME.FORMAT).")
    p.add_argument("results_dir", nargs="?", metavar="RESULTS_DIR",
                   help="a results folder written by dpgpu (holds summary.csv)")
    p.add_argument("--figure", default="runtime", metavar="NAME[,NAME...]",
                   help="figure kinds to draw, comma-separated, or 'all' (default: runtime; "
                        "--list shows the kinds)")
    p.add_argument("--format", default="png", metavar="FMT[,FMT...]",
                   help=f"output formats, comma-separated, of {', '.join(FORMATS)} (default: png)")
    p.add_argument("--x", metavar="COLUMN",
                   help="x column, e.g. i.n or s.block (default: the i. column with the most "
                        "distinct numeric values)")
    p.add_argument("--list", action="store_true", help="list the figure kinds and exit")
    return p


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_formats(text: str) -> list[str]:
    formats = [f.lower().lstrip(".") for f in split_list(text)]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise PlotError(f"--format {text!r}: choose from {', '.join(FORMATS)}")
    return list(dict.fromkeys(formats))


def specs_from_args(args, registry) -> list:
    """The figures the command line asks for. (A ``plot:`` section of experiment.yaml will
    later be read into the same FigureSpec list, next to this function.)"""
    from .figures import FigureSpec

    names = split_list(args.figure)
    if names == ["all"]:
        names = list(registry)
    unknown = [n for n in names if n not in registry]
    if unknown or not names:
        raise PlotError(f"--figure {args.figure!r}: unknown figure kind "
                        f"{', '.join(repr(n) for n in unknown) or '(none given)'} "
                        f"(known: {', '.join(registry)}, or all)")
    return [FigureSpec(kind=name, x=args.x) for name in dict.fromkeys(names)]


def save(fig, directory: str, stem: str, formats: Sequence[str]) -> list[str]:
    """Write fig as directory/figures/stem.FMT for each format; the paths written."""
    out_dir = os.path.join(directory, "figures")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise PlotError(f"{out_dir}: cannot create: {e.strerror}") from None
    paths = []
    for fmt in formats:
        path = os.path.join(out_dir, f"{stem}.{fmt}")
        # No creation dates in PDF/SVG, so that redrawing the same data gives the same file.
        metadata = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}.get(fmt)
        try:
            fig.savefig(path, format=fmt, dpi=DPI, metadata=metadata)
        except OSError as e:
            raise PlotError(f"{path}: cannot write: {e.strerror}") from None
        paths.append(path)
    return paths


def _import_figures():
    try:
        from . import figures
    except ImportError as e:
        print(f"{PROG}: {sys.executable} cannot import Matplotlib ({e}); run with the Python "
              f"that plots/find_python.sh prints", file=sys.stderr)
        sys.exit(1)
    return figures


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    if args.list:
        figures = _import_figures()
        for kind in figures.REGISTRY.values():
            print(f"{kind.name:12} {kind.help}")
        return 0
    if not args.results_dir:
        parser().error("the following argument is required: RESULTS_DIR")
    try:
        formats = parse_formats(args.format)
        results = results_mod.load(args.results_dir)
        # Every figure kind so far draws measured (ok, valid) rows: say why there are none
        # before importing Matplotlib, so the message does not depend on having it.
        results.require_usable_rows()
        figures = _import_figures()
        specs = specs_from_args(args, figures.REGISTRY)
    except PlotError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return e.exit_status

    status = 0
    for spec in specs:
        try:
            fig = figures.build(results, spec)
            for path in save(fig, args.results_dir, spec.stem, formats):
                print(path)
        except PlotError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            status = e.exit_status
    return status
