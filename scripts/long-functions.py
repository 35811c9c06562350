#!/usr/bin/env python3
"""Lists host functions longer than a limit (default 80 lines) in harness/, baselines/,
problems/ and strategies/ (*.cpp, *.hpp, *.cu, *.cuh); exit 1 when there is one.

A heuristic, not a parser: comments and literals are blanked, then braces are matched. A
brace opens a function body when the text before it (since the last ';', '{' or '}') holds a
parameter list and is not a namespace, a class, an initializer ('=') or a control statement;
the body's length runs from the first line of that text (the signature) to the closing brace.
Braces inside a function (blocks, lambdas, local classes) count toward it. CUDA __global__
and __device__ functions are device code and left out.

  scripts/long-functions.py            # the check: names each function over 80 lines
  scripts/long-functions.py --top 10   # the ten longest, whatever their length

scripts/long-functions.allow lists the functions known to be longer, each with its length
today ("path name lines"): one may shrink (then lower or drop its line), not grow; a
function not listed may not pass the limit.
"""
import argparse
import re
import sys
from pathlib import Path

ROOTS = ("harness", "baselines", "problems", "strategies", "peers")
SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc"}
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|else|do|try)\b")


def blank(text):
    """Comments, strings and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator (1'000)
                out.append(" "); i += 1; continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else "")); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def strip_template(h):
    """`template <class T, ...>` before a declaration, dropped (its `class` names no class)."""
    while True:
        m = re.match(r"\s*template\s*<", h)
        if not m:
            return h
        depth, i = 1, m.end()
        while i < len(h) and depth:
            depth += {"<": 1, ">": -1}.get(h[i], 0)
            i += 1
        h = h[i:]


def header_kind(header):
    h = strip_template(" ".join(header.split()))
    if re.search(r"\bnamespace\b", h) or re.match(r'^extern\s*"', h):
        return "scope"
    paren = h.find("(")
    kw = re.search(r"\b(class|struct|union|enum)\b", h)
    if kw and (paren < 0 or kw.start() < paren) and "=" not in h[: kw.start()]:
        return "scope"
    if paren < 0 or CONTROL.match(h) or re.search(r"=\s*$|=\s*[^=]*$", h.split(")")[-1]):
        return "other"
    if re.search(r"\b__(global|device)__\b", h) and not re.search(r"\b__host__\b", h):
        return "device"
    if "=" in h[:paren] and not re.search(r"\boperator\b", h[:paren]):
        return "other"  # a variable initialized from a call: `auto x = f(...) {`? no: data
    return "function"


def functions(path):
    text = blank(path.read_text(errors="replace"))
    stack = []  # (kind, start line, name)
    header_start = 0  # offset after the last ; { }
    line_of = lambda off: text.count("\n", 0, off) + 1
    for i, c in enumerate(text):
        if c == ";" and (not stack or stack[-1][0] == "scope"):
            header_start = i + 1
        elif c == "{":
            if stack and stack[-1][0] != "scope":
                stack.append(("inner", 0, ""))
            else:
                header = text[header_start:i]
                kind = header_kind(header)
                first = header_start + (len(header) - len(header.lstrip()))
                name = ""
                m = re.search(r"([\w:~<>=!+\-*/&|\[\]]+)\s*\([^()]*(\([^()]*\)[^()]*)*\)[^()]*$", " ".join(header.split()))
                if m:
                    name = m.group(1)
                stack.append((kind, line_of(first), name))
            header_start = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    yield name, start, line_of(i) - start + 1
            if not stack or stack[-1][0] == "scope":
                header_start = i + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max", type=int, default=80, help="the longest a function may be (lines)")
    ap.add_argument("--top", type=int, help="list the N longest functions instead of checking")
    ap.add_argument("--allow", type=Path, default=Path(__file__).with_suffix(".allow"),
                    help="known long functions and their lengths (default: scripts/long-functions.allow)")
    ap.add_argument("paths", nargs="*", help="files or folders (default: the four source roots)")
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    paths = [Path(p) for p in args.paths] or [root / r for r in ROOTS]
    files = []
    for p in paths:
        files += [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file())
    found = []
    for f in files:
        rel = f.resolve().relative_to(root) if f.resolve().is_relative_to(root) else f
        found += [(length, f"{rel}:{start}", name) for name, start, length in functions(f)]
    found.sort(key=lambda x: (-x[0], x[1]))
    if args.top:
        for length, where, name in found[: args.top]:
            print(f"{length:5d}  {where}  {name}")
        return 0
    allowed = {}
    if args.allow.exists():
        for line in args.allow.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                path, name, lines = line.split()
                allowed[(path, name)] = int(lines)
    long = []
    for length, where, name in found:
        limit = max(args.max, allowed.get((where.rsplit(":", 1)[0], name), 0))
        if length > limit:
            long.append((length, where, name, limit))
    for length, where, name, limit in long:
        print(f"{where}: {name} is {length} lines (at most {limit})")
    if long:
        print(f"{len(long)} host function(s) too long: split them (scripts/long-functions.py)")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
