#!/usr/bin/env bash
# One device call for the CUPTI profiler backend (issue 16, part 2): builds dpgpu and the
# profiler tests, runs them (the GPU test prints what CUPTI measured and its cost), then the
# Fig. 5 profiling experiment twice, CUPTI (the default) and ncu, and compares the two.
#   . ../../.deps/activate.sh; OUT=... [CACHES="all none"] [IVM_ARGS="--filter ..."] scripts/device-cupti.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/r"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/r/gpu.txt"
echo "== build"; t=$SECONDS
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPGPU_CUDA=ON > "$OUT/r/build.log" 2>&1 &&
  cmake --build build-gpu -j "$(nproc)" --target dpgpu test_profiler_cupti_gpu test_runner_parts test_experiment \
    >> "$OUT/r/build.log" 2>&1 || { tail -40 "$OUT/r/build.log"; exit 1; }
echo "   $((SECONDS - t)) s"
echo "== GPU test"
DPGPU_CUPTI_TRACE=1 build-gpu/tests/test_profiler_cupti_gpu 2>&1 | tee "$OUT/r/gpu-test.log" | grep -vE "^\[ +(RUN|OK) +\]" | tail -60
build-gpu/tests/test_runner_parts --gtest_filter='Profiler*' > "$OUT/r/host-tests.log" 2>&1; echo "host tests exit $?"
B=build-gpu/harness/dpgpu
# cache_control all (the default: L2 flushed before each profiled launch) and none, each
# through both backends; the trace of the CUPTI stages goes to the logs (-v).
for cache in ${CACHES:-all none}; do
  for backend in cupti ncu; do
    echo "== wavefront_fig5_profile, $backend, cache_control $cache"; t=$SECONDS
    DPGPU_CUPTI_TRACE=1 $B run experiments/wavefront_fig5_profile.yaml --set profile.backend=$backend \
      --set profile.cache_control=$cache --out "$OUT/r/fig5-$backend-$cache" -v > "$OUT/r/fig5-$backend-$cache.log" 2>&1
    echo "   exit $? in $((SECONDS - t)) s"
    grep -E "profiled|profiling failed" "$OUT/r/fig5-$backend-$cache.log" | head -8
  done
  python3 scripts/compare-profilers.py "$OUT/r/fig5-cupti-$cache" "$OUT/r/fig5-ncu-$cache" | tee "$OUT/r/compare-$cache.txt"
done
grep -E "^cupti:" "$OUT/r/fig5-cupti-all.log" | head -40
limit=$(( ${DEADLINE_S:-380} - SECONDS - 15 )); [ "$limit" -gt "${IVM_LIMIT:-90}" ] && limit=${IVM_LIMIT:-90}
if [ -n "${IVM_ARGS:-}" ] && [ "$limit" -gt 10 ]; then
  echo "== ivm_fig5_phases profiled, cupti (at most $limit s)"; t=$SECONDS
  timeout "$limit" $B run experiments/ivm_fig5_phases.yaml --profile $IVM_ARGS --out "$OUT/r/ivm-cupti" \
    > "$OUT/r/ivm-cupti.log" 2>&1; echo "   exit $? in $((SECONDS - t)) s"
  grep -E "profil|ok " "$OUT/r/ivm-cupti.log" | head -20
fi
(cd "$OUT" && tar -czf cupti-results.tar.gz r && cp r/compare-*.txt r/gpu-test.log . 2>/dev/null; rm -rf r)
echo "== done"
