#!/usr/bin/env bash
# Checks that no host function is over 80 lines, builds dpgpu and runs every test (C++ through
# ctest, the plot scripts through unittest, both under ctest), then a short libFuzzer run of
# every reader and the experiment parser. The fuzz stage runs even when a ctest case failed;
# the exit status is 1 when either stage failed.
# GPU tests are reported skipped on a machine without a GPU; tests and experiments that read
# the data sets beside the clone (../shared, README.md) are skipped with the reason without it.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
# step LABEL COMMAND...: runs it and says how long it took.
step() {
  local label=$1 t0=$SECONDS rc=0
  shift
  echo "test: $label ..."
  "$@" || rc=$?
  echo "test: $label took $((SECONDS - t0)) s$([ $rc = 0 ] || echo ", FAILED (exit $rc)")"
  return $rc
}
# The test-only packages (clang-format, clang and libFuzzer; optionally Slurm and Chromium).
step "installing test packages" scripts/install-deps.sh --test
# The layout first (seconds): every C++/CUDA source as .clang-format says.
step "layout check" scripts/format-check.sh
# Kokkos (OpenMP and Serial backends) for the kokkos.* solvers, from the source archive beside
# the repository when there is one; cached in .kokkos/openmp (about 2 min the first time on
# 2 cores). DPGPU_TEST_KOKKOS=0 skips it (the Kokkos solvers are then listed as unavailable).
kokkos_archive=$(ls ../shared/deps/kokkos-*.tar.gz 2>/dev/null | tail -1 || true)
if [ "${DPGPU_TEST_KOKKOS:-1}" = 1 ] && [ -n "$kokkos_archive" ]; then
  step "building Kokkos" scripts/build-kokkos.sh "$kokkos_archive" .kokkos/openmp > /dev/null
fi
# Host functions stay within 80 lines (the known longer ones may not grow).
step "function lengths" python3 scripts/long-functions.py
step "building everything" scripts/build.sh
ctest_rc=0
step "ctest" ctest --test-dir build --output-on-failure -j "$(nproc)" || ctest_rc=$?
# The readers and the experiment parser under libFuzzer, 10^4 executions per target.
fuzz_rc=0
step "fuzzing" scripts/fuzz.sh --runs 10000 || fuzz_rc=$?
echo "test: done in $((SECONDS - start)) s; ctest $([ $ctest_rc = 0 ] && echo passed || echo FAILED)," \
  "fuzz $([ $fuzz_rc = 0 ] && echo passed || echo FAILED)"
[ $ctest_rc = 0 ] && [ $fuzz_rc = 0 ]
