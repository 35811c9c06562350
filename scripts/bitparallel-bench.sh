#!/usr/bin/env bash
# Issue 37 on the GPU machine, in one script: build gpu.bitparallel's and gpu.ivm's targets,
# the multi-GPU repetition tests (warm-up + 3 repetitions of every multi-GPU solver on two
# real GPUs; they skip, saying why, with fewer), the bit-parallel GPU tests, compute-sanitizer
# (memcheck, racecheck) on their small cases, then experiments/lcs_bitparallel_ceiling.yaml
# through `dpgpu run` (about 2-3 minutes of GPU time). Everything goes through
# scripts/device-run.sh, so logs and results land in $OUT.
#
#   scripts/bitparallel-bench.sh [all|check|bench|profile|ivm]
#     check:   build, tests, sanitizers (run it on nvidia-h200-x2 for the two-GPU tests)
#     bench:   build (kept from a previous call on a warm machine), the ceiling experiment
#     all:     both (default); split in two calls when one call's 10 minutes are too few
#     profile: experiments/lcs_bitparallel_profile.yaml (CUPTI counters: what limits each size)
#     ivm:     experiments/ivm_multigpu_x2.yaml (gpu.ivm on 1 and 2 GPUs, 3 repetitions; x2 host)
#
# Extra experiments may follow the mode (e.g. experiments/lcs_bitparallel_multigpu.yaml).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
[ $# -gt 0 ] && shift
export BUILD_TARGETS="dpgpu test_bitlcs_gpu test_bitlcs_multigpu test_bitlcs_kernel_on_cpu test_multigpu_repetitions"
export TEST_REGEX="MultiGpuRepetitions|BitLcsGpu|BitLcsMultiGpu|BitLcsKernelOnCpu"
export SANITIZE_LISTS="strategies/bitparallel/sanitize.txt"
OUT=${OUT:-$PWD/device-out}
# Experiments stop (their finished rows kept and packed) before one call's 10 minutes.
DEADLINE_S=${DEADLINE_S:-560}
export OUT DEADLINE_S
case "$mode" in
  check) scripts/device-run.sh "$@" ;;
  bench) scripts/device-run.sh --no-tests --no-sanitize experiments/lcs_bitparallel_ceiling.yaml "$@" ;;
  all) scripts/device-run.sh experiments/lcs_bitparallel_ceiling.yaml "$@" ;;
  profile) scripts/device-run.sh --no-tests --no-sanitize experiments/lcs_bitparallel_profile.yaml "$@" ;;
  ivm) scripts/device-run.sh --no-tests --no-sanitize experiments/ivm_multigpu_x2.yaml "$@" ;;
  *) echo "usage: $0 [all|check|bench|profile|ivm] [EXPERIMENT.yaml ...]" >&2; exit 2 ;;
esac
rc=$?
# The short table last: size, variant, median time, TCUPS, the declared ceiling and share.
summary=$(mktemp)
tar -xzf "$OUT/device-results.tar.gz" -O results/lcs_bitparallel_ceiling/summary.csv > "$summary" 2>/dev/null &&
  python3 - "$summary" <<'PY' || true
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
num = lambda r, k, s=1.0: float(r[k]) / s if r.get(k) else float("nan")
print("n         bits W warps spin win ring status  time_s    TCUPS ceiling share")
for r in rows:
    print("%-9s %-4s %-1s %-5s %-4s %-3s %-4s %-7s %-9s %5.1f %7.1f %5.3f" % (
        r["i.n"], r["s.word_bits"], r["s.words_per_thread"], r["s.warps"], r.get("s.spin_ns", ""),
        r.get("s.windowed", "")[:1], r.get("s.carry_ring", "")[:1], r["status"],
        r["time_median_s"], num(r, "throughput", 1e12), num(r, "c.ceiling_cups", 1e12),
        num(r, "c.ceiling_share")))
PY
rm -f "$summary"
exit $rc
