#!/usr/bin/env bash
# Prints the path of a Python that can `import matplotlib`, trying in order:
#   $DPGPU_PYTHON, <repo>/.venv/bin/python, /usr/bin/python3, python3 on PATH.
# Exit status 1, with a message on stderr, when none can.
# Usage: "$(plots/find_python.sh)" plots/dpgpu_plot.py results/quickstart
set -u

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

candidates=()
[[ -n "${DPGPU_PYTHON:-}" ]] && candidates+=("$DPGPU_PYTHON")
candidates+=("$repo/.venv/bin/python" /usr/bin/python3)
if on_path="$(command -v python3 2>/dev/null)"; then
  candidates+=("$on_path")
fi

for py in "${candidates[@]}"; do
  if [[ -x "$py" ]] || command -v "$py" >/dev/null 2>&1; then
    if "$py" -c 'import matplotlib' >/dev/null 2>&1; then
      command -v "$py"   # an absolute path when $py was a bare name
      exit 0
    fi
  fi
  if [[ -n "${DPGPU_PYTHON:-}" && "$py" == "$DPGPU_PYTHON" ]]; then
    echo "find_python.sh: DPGPU_PYTHON=$DPGPU_PYTHON cannot import matplotlib; trying others" >&2
  fi
done

echo "find_python.sh: no Python with Matplotlib found; install python3-matplotlib (Debian) or run scripts/setup.sh" >&2
echo "find_python.sh: tried: ${candidates[*]}" >&2
exit 1
