#!/usr/bin/env bash
# One full, repeatable call on the GPU machine: build for the GPU present, run every test
# (GPU tests included), compute-sanitizer (memcheck, racecheck) on small GPU cases, then
# the named experiments through dpgpu. Logs and results land in $OUT (a tarball, since only
# a few files come back).
#
#   . .deps/activate.sh; scripts/device-run.sh [--no-tests] [--no-sanitize] [EXPERIMENT.yaml ...]
#
# Narrower calls: BUILD_TARGETS="dpgpu test_x" builds only those targets, TEST_REGEX limits
# ctest (-R), SANITIZE_LISTS picks sanitizer lists. The shared data sets do not exist on the
# GPU machine: scripts/carry-shared.sh copies them into .shared/ (ignored by git); carry it
# and this script links ../shared to it.
# DEADLINE_S=570 stops starting experiments, and stops the one running (its finished rows
# stay), so that the results are packed before the call's own limit; RUN_ARGS are added to
# every `dpgpu run` (e.g. "--repetitions 1"). KOKKOS_TARBALL=kokkos-4.6.01.tar.gz first builds
# Kokkos with its CUDA backend into .kokkos/cuda (scripts/build-kokkos.sh) and the kokkos.*
# solvers with it. --compare-profilers runs paper 000's Fig. 5 profiling experiment through
# both profiler backends (CUPTI in the worker; ncu in application and in kernel replay) for
# each cache setting in CACHES (default "all") and compares them with
# scripts/compare-profilers.py (2 % / 0.02 IPC, cost <= 5x).
# REPRODUCE_OUT=DIR runs `dpgpu reproduce --tier quick` of the papers in REPRODUCE (all five
# when empty) into DIR, or continues it (`--resume`) when DIR holds one already, stopped with
# SIGINT at DEADLINE_S (default 570) so that its report is written; DIR comes back packed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/results"
log() { echo "== $*" | tee -a "$OUT/steps.log"; }

tests=1 sanitize=1 profilers=0 experiments=()
for a in "$@"; do
  case "$a" in
    --no-tests) tests=0 ;;
    --no-sanitize) sanitize=0 ;;
    --compare-profilers) profilers=1 ;;
    *) experiments+=("$a") ;;
  esac
done

nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
if [ -d .shared/data ] && [ ! -e ../shared ]; then
  ln -s "$PWD/.shared" ../shared 2>/dev/null && log "../shared -> .shared (carried data sets)"
fi
kokkos_args=()
if [ -n "${KOKKOS_TARBALL:-}" ]; then
  log "kokkos (CUDA backend)"
  scripts/build-kokkos.sh "$KOKKOS_TARBALL" .kokkos/cuda --cuda > "$OUT/kokkos-build.log" 2>&1 ||
    { tail -30 "$OUT/kokkos-build.log"; exit 1; }
  kokkos_args=(-DDPGPU_KOKKOS=ON -DKokkos_ROOT="$PWD/.kokkos/cuda")
fi
log "build"
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPGPU_CUDA=ON "${kokkos_args[@]}" > "$OUT/build.log" 2>&1 &&
  cmake --build build-gpu -j "$(nproc)" "${targets[@]}" >> "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }

if [ $tests = 1 ]; then
  log "tests"
  ctest --test-dir build-gpu --output-on-failure -j 4 ${TEST_REGEX:+-R "$TEST_REGEX"} > "$OUT/ctest.log" 2>&1
  echo "ctest exit $?" | tee -a "$OUT/steps.log"
  grep -E "tests passed|tests failed|Failed|Skipped|\*\*\*" "$OUT/ctest.log" | tail -25
fi

if [ $sanitize = 1 ]; then
  # Each strategy folder lists its small cases in sanitize*.txt: TOOL BINARY GTEST_FILTER.
  # SANITIZE_LISTS / SANITIZE_TOOLS narrow a rerun (e.g. one list, racecheck only).
  for list in ${SANITIZE_LISTS:-strategies/*/sanitize*.txt}; do
    dir=build-gpu/$(dirname "$list")
    n=0
    grep -v '^#' "$list" | while read -r tool bin filter; do
      [ -n "$tool" ] || continue
      n=$((n + 1))
      case " ${SANITIZE_TOOLS:-memcheck racecheck} " in *" $tool "*) ;; *) continue ;; esac
      log "compute-sanitizer $tool $bin $filter"
      timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 "$dir/$bin" --gtest_filter="$filter" \
        > "$OUT/sanitize-$tool-$bin-$n.log" 2>&1
      echo "  exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$OUT/sanitize-$tool-$bin-$n.log" | tr '\n' ' ')" |
        tee -a "$OUT/steps.log"
    done
  done
fi

if [ $profilers = 1 ]; then
  # The reference is ncu in application replay (a whole solve per pass, as the CUPTI backend
  # does); ncu's default kernel replay is run and compared too, for the record.
  for cache in ${CACHES:-all}; do
    for backend in cupti ncu-application ncu-kernel; do
      dir="$OUT/results/fig5-$backend-$cache"
      log "wavefront_fig5_profile through $backend, cache_control $cache"
      args=(--set "profile.backend=${backend%%-*}")
      [ "$backend" = cupti ] || args+=(--set "profile.replay=${backend#ncu-}")
      DPGPU_CUPTI_TRACE=1 build-gpu/harness/dpgpu run experiments/wavefront_fig5_profile.yaml "${args[@]}" \
        --set profile.cache_control=$cache --out "$dir" -v > "$dir.log" 2>&1
      echo "  exit $?" | tee -a "$OUT/steps.log"
    done
    for ref in application kernel; do
      python3 scripts/compare-profilers.py "$OUT/results/fig5-cupti-$cache" "$OUT/results/fig5-ncu-$ref-$cache" |
        tee "$OUT/compare-profilers-$cache-$ref.txt" | tail -2
    done
  done
fi

for e in "${experiments[@]}"; do
  name=$(basename "$e" .yaml)
  limit=100000
  if [ -n "${DEADLINE_S:-}" ]; then
    limit=$((DEADLINE_S - SECONDS - 20))
    if [ $limit -lt 15 ]; then log "experiment $name skipped: DEADLINE_S reached"; continue; fi
  fi
  log "experiment $name (at most ${limit} s)"
  DPGPU_KEEP_NCU="$OUT/results/ncu-$name" timeout "$limit" build-gpu/harness/dpgpu run "$e" --out "$OUT/results/$name" ${RUN_ARGS:-} 2> "$OUT/results/$name.log"
  echo "  exit $?" | tee -a "$OUT/steps.log"
  tail -4 "$OUT/results/$name.log"
  build-gpu/harness/dpgpu plot "$OUT/results/$name" >> "$OUT/results/$name.log" 2>&1
done

if [ -n "${REPRODUCE_OUT:-}" ]; then
  left=$((${DEADLINE_S:-570} - SECONDS - 20))
  if [ -f "$REPRODUCE_OUT/seeds.json" ]; then
    args=(--resume --out "$REPRODUCE_OUT")
  else
    read -r -a papers <<< "${REPRODUCE:-}"
    args=(--tier quick "${papers[@]}" --out "$REPRODUCE_OUT")
  fi
  log "reproduce ${args[*]} (at most ${left} s)"
  timeout -s INT "$left" build-gpu/harness/dpgpu reproduce "${args[@]}" > "$OUT/reproduce.log" 2>&1
  echo "  exit $?" | tee -a "$OUT/steps.log"
  tail -3 "$OUT/reproduce.log"
  mkdir -p "$OUT/results/reproduction" && cp -r "$REPRODUCE_OUT" "$OUT/results/reproduction/"
fi

# Few files come back: everything goes into one tarball; steps.log and ctest.log stay beside it.
(cd "$OUT" && tar -czf device-results.tar.gz results *.log nvidia-smi.txt && rm -rf results build.log kokkos-build.log sanitize-*.log)
log "done"
