#!/usr/bin/env bash
# Quick start: installs what is missing, builds, runs experiments/quickstart.yaml and draws
# its figure under results/quickstart/figures/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/harness/dpgpu run experiments/quickstart.yaml --fresh  # a rerun moves old results aside
build/harness/dpgpu plot results/quickstart
