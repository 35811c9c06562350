#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages dpgpu needs, only those missing. The CUDA toolkit is
# optional: without nvcc, dpgpu builds CPU-only and records GPU cases as skipped.
set -euo pipefail
pkgs=(cmake ninja-build g++ git libyaml-cpp-dev libbenchmark-dev libgtest-dev googletest
      libcli11-dev nlohmann-json3-dev libfmt-dev python3 python3-matplotlib python3-yaml)
# Optional: headless Chromium opens `dpgpu report`'s page in its test (skipped without it).
[ "${DPGPU_NO_BROWSER:-0}" = 1 ] || pkgs+=(chromium)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
