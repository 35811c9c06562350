"""The files a dpgpu command wrote into a folder, listed one a line in a list file there
(figures/.dpgpu-figures, .dpgpu-compare, .dpgpu-report): a command overwrites only what its
list names, never a user's file that happens to share a name (issue 35, item 17)."""

from __future__ import annotations

import os
from typing import Optional, Sequence

from .errors import PlotError


def listed(directory: str, list_file: str) -> list[str]:
    """The names `directory/list_file` lists ([] when there is none)."""
    path = os.path.join(directory, list_file)
    try:
        with open(path, encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        return []
    except OSError as e:
        raise PlotError(f"{path}: cannot read: {e.strerror}") from None


def first_unlisted(directory: str, list_file: str, names: Sequence[str]) -> Optional[str]:
    """The path of the first of `names` that exists in `directory` while the list does not
    name it (someone else's file), or None."""
    mine = set(listed(directory, list_file))
    for name in names:
        path = os.path.join(directory, name)
        if os.path.lexists(path) and name not in mine:
            return path
    return None


def note_written(directory: str, list_file: str, names: Sequence[str]) -> None:
    """Adds `names` to the list, each once."""
    path = os.path.join(directory, list_file)
    names_now = listed(directory, list_file)
    for name in names:
        if name not in names_now:
            names_now.append(name)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(n + "\n" for n in names_now))
    except OSError as e:
        raise PlotError(f"{path}: cannot write: {e.strerror}") from None
