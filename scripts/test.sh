#!/usr/bin/env bash
# Builds dpgpu and runs every test (C++ through ctest, the plot scripts through unittest,
# both under ctest), then a short libFuzzer run of every reader and the experiment parser.
# GPU tests are reported skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
# The readers and the experiment parser under libFuzzer, 10^4 executions per target.
scripts/fuzz.sh --runs 10000
