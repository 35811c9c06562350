#!/usr/bin/env bash
# Checks that every C++/CUDA source git sees (tracked, or new and not ignored) is laid out as .clang-format says, changing
# nothing; exit 1 naming the files (and the first differences) that are not.
#   scripts/format-check.sh            # check
#   scripts/format-check.sh --fix      # format them in place
# The test command runs it. Needs clang-format 14 (Debian 12's `clang-format`; other versions lay out some
# constructs differently): CLANG_FORMAT=... to use another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$clang_format" ]; then
  echo "format-check: clang-format not found (apt-get install clang-format)" >&2
  exit 2
fi
version=$("$clang_format" --version | grep -o 'version [0-9]*' | cut -d' ' -f2)
if [ "$version" != 14 ]; then
  echo "format-check: $clang_format is version $version; .clang-format was chosen with 14" >&2
fi
# Tracked and untracked-but-not-ignored files (a new file is checked before its first commit);
# a tracked file deleted in the working tree is left out.
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' '*.cc' '*.h' \
                       '*.cu' '*.cuh' | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
if [ "${1:-}" = --fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 "$clang_format" -i --style=file
  exit 0
fi
bad=$(printf '%s\0' "${files[@]}" | xargs -0 "$clang_format" --dry-run --Werror --style=file 2>&1 |
      grep -o '^[^:]*:[0-9]*:[0-9]*: error' | cut -d: -f1 | sort -u || true)
if [ -n "$bad" ]; then
  echo "format-check: not laid out as .clang-format says (scripts/format-check.sh --fix):"
  echo "$bad" | sed 's/^/  /'
  exit 1
fi
echo "format-check: ${#files[@]} files laid out as .clang-format says"
