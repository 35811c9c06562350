#!/usr/bin/env bash
# Configures and builds dpgpu into build/ (CUDA strategies too when nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${DPGPU_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$(nproc)"
