#!/usr/bin/env bash
# Builds dpgpu and runs every test (C++ through ctest, the plot scripts through unittest,
# both under ctest). GPU tests are reported skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
