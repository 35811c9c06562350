#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages dpgpu needs, only those missing. The CUDA toolkit is
# optional: without nvcc, dpgpu builds CPU-only and records GPU cases as skipped.
set -euo pipefail
pkgs=(cmake ninja-build g++ git libyaml-cpp-dev libbenchmark-dev libgtest-dev googletest
      libcli11-dev nlohmann-json3-dev libfmt-dev python3 python3-matplotlib python3-yaml
      clang-format libedlib-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
else
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Optional: headless Chromium opens `dpgpu report`'s page in its test (skipped without it).
# On Ubuntu the package may be a snap stub that cannot install here: say so, go on.
if [ "${DPGPU_NO_BROWSER:-0}" != 1 ] && ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  $sudo apt-get install -y -qq --no-install-recommends chromium ||
    echo "install-deps: chromium not installed; the report page's browser test will be skipped"
fi

# Optional: a one-node Slurm for tests/slurm (`dpgpu slurm` against real slurmctld, slurmd and
# munge; the test starts and stops its own daemons and is skipped without them or without root).
slurm_pkgs=(munge slurmctld slurmd slurm-client)
slurm_missing=()
for p in "${slurm_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || slurm_missing+=("$p")
done
if [ "${DPGPU_NO_SLURM:-0}" != 1 ] && [ ${#slurm_missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${slurm_missing[*]}"
  $sudo apt-get install -y -qq --no-install-recommends "${slurm_missing[@]}" ||
    echo "install-deps: ${slurm_missing[*]} not installed; the Slurm end-to-end test will be skipped"
fi

# The fuzz targets (scripts/fuzz.sh, part of the test command) need clang and the libFuzzer
# runtime of clang's own version (Debian and Ubuntu name it libfuzzer-<version>-dev).
if ! command -v clang++ >/dev/null; then
  echo "install-deps: installing clang"
  $sudo apt-get install -y -qq --no-install-recommends clang
fi
clang_major=$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
if ! dpkg-query -W -f='${Status}' "libfuzzer-$clang_major-dev" 2>/dev/null | grep -q "install ok installed"; then
  echo "install-deps: installing libfuzzer-$clang_major-dev"
  $sudo apt-get install -y -qq --no-install-recommends "libfuzzer-$clang_major-dev"
fi
