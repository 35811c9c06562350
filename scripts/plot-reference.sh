#!/usr/bin/env bash
# Redraws every committed reference figure from the committed data, in one command:
# each folder of results/reference/<device>/ that holds a summary.csv and a figures/
# folder gets the figures its experiment.yaml's plot: section declares (png and pdf).
# Options pass through to plots/dpgpu_plot.py (e.g. --format png).
# Usage: scripts/plot-reference.sh [--format png,pdf] [RESULTS_DIR...]
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="$("$repo/plots/find_python.sh")"

options=() dirs=()
while (($#)); do
  case "$1" in
    --*) options+=("$1" "$2"); shift 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
if ((${#dirs[@]} == 0)); then
  for d in "$repo"/results/reference/*/*/; do
    [[ -f "$d/summary.csv" && -d "$d/figures" ]] && dirs+=("${d%/}")
  done
fi
# Every committed figure is a declared one (tests/test_reference_figures.py): dpgpu drew them,
# some before figures/.dpgpu-figures listed what it drew, so take the unlisted ones over.
exec "$py" "$repo/plots/dpgpu_plot.py" --adopt-unlisted "${options[@]}" "${dirs[@]}"
