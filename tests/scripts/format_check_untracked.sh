#!/usr/bin/env bash
# scripts/format-check.sh sees a new, untracked source (issue 36: it checked tracked files
# only, so a new file's layout was first checked after its commit). In a scratch git
# repository holding the script and .clang-format: a badly laid out untracked file fails the
# check, naming it; an ignored one does not count; once fixed, the check passes.
# Usage: format_check_untracked.sh REPOSITORY_ROOT   (exit 77: no clang-format, skipped)
set -euo pipefail
root=$1
command -v clang-format-14 >/dev/null || command -v clang-format >/dev/null ||
  { echo "skipped: no clang-format"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$root/scripts/format-check.sh" "$tmp/scripts/"
cp "$root/.clang-format" "$tmp/"
cd "$tmp"
git init -q .
printf 'ignored.cpp\n' > .gitignore
git add .gitignore .clang-format scripts && git -c user.name=t -c user.email=t@t commit -qm base
printf 'int  main( ){return 0;}\n' > new.cpp      # untracked, badly laid out
printf 'int  main( ){return 0;}\n' > ignored.cpp  # ignored: not the check's business
if out=$(scripts/format-check.sh 2>&1); then
  echo "FAIL: an untracked badly laid out file passed: $out"; exit 1
fi
printf '%s\n' "$out" | grep -q "new.cpp" || { echo "FAIL: new.cpp not named: $out"; exit 1; }
if printf '%s\n' "$out" | grep -q "ignored.cpp"; then echo "FAIL: ignored file checked"; exit 1; fi
scripts/format-check.sh --fix >/dev/null
scripts/format-check.sh >/dev/null || { echo "FAIL: still failing after --fix"; exit 1; }
echo "format-check sees untracked files"
