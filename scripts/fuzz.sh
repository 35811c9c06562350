#!/usr/bin/env bash
# Fuzzes every instance reader and the experiment parser with libFuzzer (clang, ASan+UBSan):
# configures build-fuzz/ with DPGPU_FUZZ=ON, builds the targets, and runs each as a ctest
# case for --runs executions (default 10^4, the short run of the test command; the long run
# of 10^6 is scripts/fuzz-campaign.sh). Seeds: tests/fuzz/corpus/<target>, experiments/ and
# ../shared/data where present (tests/fuzz/README.md); what a run finds lands in
# build-fuzz/tests/fuzz/found/<target>, crashes as crash-* files.
#
#   scripts/fuzz.sh [--runs N] [-j JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10000 jobs=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    *) echo "fuzz.sh: unknown argument '$1' (use --runs N, -j JOBS)" >&2; exit 2 ;;
  esac
done
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang libfuzzer-14-dev)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDPGPU_CUDA=OFF \
  -DDPGPU_FUZZ=ON -DDPGPU_FUZZ_RUNS="$runs" ${DPGPU_CMAKE_ARGS:-} >/dev/null
targets=$(sed -n 's/^dpgpu_fuzz\(_reader\)\?(\(fuzz_[a-z_]*\).*/\2/p' tests/fuzz/CMakeLists.txt)
cmake --build build-fuzz -j "$jobs" $(printf -- '--target %s ' $targets)
cd build-fuzz && ctest -L fuzz --output-on-failure -j "$jobs"
