#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages dpgpu needs, only those missing.
#
#   scripts/install-deps.sh          what building dpgpu and drawing figures needs (set-up)
#   scripts/install-deps.sh --test   also what only the test command needs: clang-format,
#                                    clang and libFuzzer (scripts/fuzz.sh), and, optionally,
#                                    a one-node Slurm and headless Chromium (their tests are
#                                    skipped without them)
#
# The CUDA toolkit is optional: without nvcc, dpgpu builds CPU-only and records GPU cases as
# skipped. apt waits up to 10 minutes for a dpkg lock another process holds
# (DPGPU_APT_LOCK_TIMEOUT seconds) instead of failing at once.
set -euo pipefail
test_deps=0
case "${1:-}" in
  "") ;;
  --test) test_deps=1 ;;
  *) echo "install-deps: unknown argument '$1' (use --test or nothing)" >&2; exit 2 ;;
esac
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o "DPkg::Lock::Timeout=${DPGPU_APT_LOCK_TIMEOUT:-600}")
updated=0

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing_of() { for p in "$@"; do installed "$p" || echo "$p"; done; }

# apt-get install of the given packages; the package lists are refreshed once, first.
apt_install() {
  if [ "$updated" = 0 ]; then
    $sudo apt-get "${apt_opts[@]}" update -qq
    updated=1
  fi
  $sudo apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "$@"
}

# install_missing LABEL OPTIONAL PACKAGE...: installs those missing; an optional group that
# cannot install (a snap stub, no network) is reported and skipped.
install_missing() {
  local label=$1 optional=$2
  shift 2
  local missing
  missing=$(missing_of "$@" | tr '\n' ' ')
  if [ -z "${missing// /}" ]; then
    echo "install-deps: $label: all present"
    return
  fi
  echo "install-deps: $label: installing $missing"
  # shellcheck disable=SC2086
  if [ "$optional" = 1 ]; then
    apt_install $missing || echo "install-deps: $label ($missing) not installed; its tests will be skipped"
  else
    apt_install $missing
  fi
}

install_missing "build and figures" 0 cmake ninja-build g++ git libyaml-cpp-dev libbenchmark-dev \
  libgtest-dev googletest libcli11-dev nlohmann-json3-dev libfmt-dev python3 python3-matplotlib \
  python3-yaml libedlib-dev
[ "$test_deps" = 1 ] || exit 0

# Optional: StringZilla's CPU backend for peer.stringzilla_cpu's tests (peers/README.md), in the
# ignored venv .venv-peers that CMake's probe prefers; without network or python3-venv: skipped.
venv="$(cd "$(dirname "$0")/.." && pwd)/.venv-peers"
"$venv/bin/python3" -c "import stringzillas" 2>/dev/null || { python3 -m venv --system-site-packages "$venv" && "$venv/bin/python3" -m pip install -q stringzilla==5.3.2 stringzillas-cpus==5.3.2; } || echo "install-deps: stringzilla not installed (pip); peer.stringzilla's tests will be skipped"

# The test command's own tools: the layout check and the fuzz targets, which need clang and
# the libFuzzer runtime of clang's own version (Debian and Ubuntu: libfuzzer-<version>-dev).
install_missing "layout check" 0 clang-format
command -v clang++ >/dev/null || install_missing "fuzzing" 0 clang
clang_major=$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
# The fuzz build links the OpenMP solvers with clang, whose OpenMP runtime is libomp, and
# -fsanitize=fuzzer,address needs clang's runtime archives: in libclang-rt-<v>-dev where the
# distribution splits them out (Debian 12), in libclang-common-<v>-dev otherwise.
fuzz_packages=("libfuzzer-$clang_major-dev" "libomp-$clang_major-dev")
if apt-cache show "libclang-rt-$clang_major-dev" > /dev/null 2>&1; then
  fuzz_packages+=("libclang-rt-$clang_major-dev")
fi
install_missing "fuzzing" 0 "${fuzz_packages[@]}"

# Optional: headless Chromium opens `dpgpu report`'s page in its test. On Ubuntu the package
# may be a snap stub that cannot install here: say so, go on.
[ "${DPGPU_NO_BROWSER:-0}" = 1 ] || install_missing "report browser test (chromium)" 1 chromium
# Optional: a one-node Slurm for tests/slurm (`dpgpu slurm` against real slurmctld, slurmd and
# munge; the test starts and stops its own daemons and is skipped without them or without root).
[ "${DPGPU_NO_SLURM:-0}" = 1 ] || install_missing "Slurm end-to-end test" 1 munge slurmctld slurmd slurm-client
