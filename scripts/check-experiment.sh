#!/usr/bin/env bash
# check-experiment.sh DPGPU FILE — `dpgpu check` on one committed experiment (the ctest
# experiments.check_all.<name>). What this machine cannot have is reported with the reason,
# never failed:
# - an experiment reading ../shared data absent here (README.md, "Data sets beside the clone")
#   exits 77, which ctest shows as skipped;
# - one asking for more GPUs (solver parameter `gpus`) than are visible is checked with
#   --share-gpus, so every other key and instance is still checked.
# Any other failure of `dpgpu check` fails the test (exit 1).
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 DPGPU FILE" >&2; exit 2; }
dpgpu=$1
f=$2
dir=$(dirname "$f")
# Paths into the shared data, as the file spells them (relative to the file); comments aside.
for p in $(sed 's/\(^\|[[:space:]]\)#.*//' "$f" | grep -oE "[^][ ,{}\"':]*shared/data/[^][ ,{}\"']*" | sort -u); do
  if [ ! -e "$dir/$p" ]; then
    echo "skipped: $f reads $p, absent here (README.md, \"Data sets beside the clone\")"
    exit 77
  fi
done
out=$("$dpgpu" check "$f" 2>&1 >/dev/null) && { echo "checked: $f"; exit 0; }
why=$(printf '%s' "$out" | grep -o "'gpus' is [0-9]* but this host has [0-9]* GPUs* visible" | head -1)
if [ -n "$why" ]; then
  if out=$("$dpgpu" check --share-gpus "$f" 2>&1 >/dev/null); then
    echo "checked with --share-gpus: $f ($why)"
    exit 0
  fi
fi
echo "dpgpu check $f failed:"
printf '%s\n' "$out"
exit 1
