#!/usr/bin/env bash
# Quick start: installs what is missing, builds the `dpgpu` binary (nothing else: the tests are
# built by scripts/test.sh), runs experiments/quickstart.yaml and draws its figure under
# results/quickstart/figures/. Prints how long each step took.
#
# CUDA: with nvcc and a GPU visible, the GPU solvers are built too. With nvcc but no GPU
# (nvidia-smi lists none) the build is CPU-only, since every GPU case would be skipped anyway
# and the CUDA code is most of the build time; DPGPU_CUDA=ON scripts/setup.sh builds it
# regardless, DPGPU_CUDA=OFF never.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
start=$SECONDS

# step LABEL COMMAND...: runs it and says how long it took.
step() {
  local label=$1 t0=$SECONDS rc=0
  shift
  echo "setup: $label ..."
  "$@" || rc=$?
  echo "setup: $label took $((SECONDS - t0)) s$([ $rc = 0 ] || echo ", FAILED (exit $rc)")"
  return $rc
}

gpu_visible() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q "^GPU "; }
cuda=${DPGPU_CUDA:-}
if [ -z "$cuda" ]; then
  if ! command -v nvcc >/dev/null; then
    cuda=AUTO  # no CUDA compiler: CPU-only anyway
  elif gpu_visible; then
    cuda=AUTO
  else
    cuda=OFF
    echo "setup: nvcc found but no GPU visible: building CPU-only (GPU cases would be skipped);" \
      "DPGPU_CUDA=ON scripts/setup.sh builds the CUDA code too"
  fi
fi

configure() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPGPU_CUDA="$cuda" \
    ${DPGPU_CMAKE_ARGS:-} >/dev/null
}

step "installing packages" scripts/install-deps.sh
step "configuring build/ (DPGPU_CUDA=$cuda)" configure
step "building dpgpu" cmake --build build -j "$(nproc)" --target dpgpu
# A rerun moves old results aside (--fresh), never overwrites them.
step "running experiments/quickstart.yaml" build/harness/dpgpu run experiments/quickstart.yaml --fresh
step "drawing its figure" build/harness/dpgpu plot results/quickstart
echo "setup: done in $((SECONDS - start)) s; the figure is results/quickstart/figures/runtime.png"
