#!/usr/bin/env bash
# Issue 39's call on a host with two or four GPUs (kind nvidia-h200-x2 or -x4): gpu.wavefront
# for the TSP with every Held-Karp layer split across the GPUs. In order:
#   0. build dpgpu, test_tsp_multigpu, test_tsp_split, test_energy_gpu and
#      test_multigpu_repetitions into build-gpu (skipped when bin/ holds working copies of
#      them, e.g. carried packed as bins.tar.gz; BUILD_ONLY=1 stops here);
#   1. the host test, then the GPU test on the real cards: the same cost and tour as one GPU
#      (2 and 4 logical GPUs over the cards), the per-GPU counters, the refusal, and the
#      repetitions through one stream on home devices 0 and 1 (whole binary run twice); the
#      energy of a case over two cards summed from both (test_energy_gpu,
#      test_multigpu_repetitions);
#   2. compute-sanitizer memcheck on the small 2-GPU cases (cards 0 and 1 only); then
#      `gpus: [1, all]` on n = 20 through dpgpu run (2 repetitions after a warm-up);
#   3. dpgpu check experiments/tsp_multigpu.yaml (each case's memory plan);
#   4. dpgpu run experiments/tsp_multigpu.yaml: n = 25..33 on one and two GPUs, n = 34 on
#      two, and n = 35 on four when four cards are visible (left out otherwise: its case
#      would break the planner's cards rule); then dpgpu verify and plot;
#   5. the best one-card time on this same host: experiments/tsp_one_card.yaml at n = 33 on
#      card 0 alone (the split driver with logical GPUs sharing it), what two cards must beat.
# Everything comes back under $OUT/tspmg (results as $OUT/tspmg/results.tar.gz), one line per
# step in $OUT/tspmg/steps.log. DEADLINE_S (default 560) bounds the whole script: each step
# gets what is left.
set -u
cd "$(dirname "$0")/.."
[ -f .deps/activate.sh ] && . .deps/activate.sh  # the build's dependencies, where carried
export NCCL_NVLS_ENABLE=0
O=$OUT/tspmg; R=$O/results; mkdir -p "$R"
deadline=${DEADLINE_S:-560}
step() { echo "== $(date -u +%T) +${SECONDS}s $*" | tee -a "$O/steps.log"; }
left() { echo $((deadline - SECONDS - ${1:-0})); }
nvidia-smi topo -m > "$O/topo.txt" 2>&1; nvidia-smi > "$O/nvidia-smi.txt" 2>&1
free -g > "$O/free.txt" 2>&1
cards=$(nvidia-smi -L | wc -l)

# Binaries: bin/ when carried (bins.tar.gz), else build-gpu/ (ignored by git, so it stays on a
# warm device machine between calls: a second call rebuilds nothing). BUILD_ONLY=1 stops
# after the build (a first call, when the build and the runs do not fit one call's limit).
[ -f bins.tar.gz ] && mkdir -p bin && tar -xzf bins.tar.gz -C bin
if bin/dpgpu list solvers > /dev/null 2>&1 && [ -x bin/test_tsp_multigpu ] && [ -x bin/test_tsp_split ] &&
  [ -x bin/test_energy_gpu ] && [ -x bin/test_multigpu_repetitions ]; then
  D=bin/dpgpu T=bin
else
  step "0. build (dpgpu and the tests) in build-gpu"
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPGPU_CUDA=ON > "$O/build.log" 2>&1 &&
    timeout "$(left 60)" cmake --build build-gpu -j "$(nproc)" \
      --target dpgpu test_tsp_multigpu test_tsp_split test_energy_gpu test_multigpu_repetitions \
      >> "$O/build.log" 2>&1 ||
    { tail -30 "$O/build.log"; exit 1; }
  D=build-gpu/harness/dpgpu T=build-gpu/strategies/wavefront H=build-gpu/tests
fi
H=${H:-bin}
if [ "${BUILD_ONLY:-0}" = 1 ]; then step "built (BUILD_ONLY)"; exit 0; fi

step "1. tests on $cards cards"
timeout 60 $T/test_tsp_split > "$O/test_tsp_split.log" 2>&1
echo "  test_tsp_split exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$O/test_tsp_split.log" | tr '\n' ' ')" | tee -a "$O/steps.log"
timeout 150 $T/test_tsp_multigpu --gtest_repeat=2 > "$O/test_tsp_multigpu.log" 2>&1
rc=$?; L="$O/test_tsp_multigpu.log"
echo "  test_tsp_multigpu exit $rc: ok $(grep -c '^\[       OK \]' "$L"), failed $(grep -c '^\[  FAILED  \] .*ms)' "$L"), skipped $(grep -c '^\[  SKIPPED \] .*ms)' "$L") (2 repeats)" |
  tee -a "$O/steps.log"

for t in test_energy_gpu test_multigpu_repetitions; do
  timeout 120 $H/$t > "$O/$t.log" 2>&1
  echo "  $t exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/$t.log" | tr '\n' ' ')" | tee -a "$O/steps.log"
done

step "2. compute-sanitizer memcheck, 2 cards"
CUDA_VISIBLE_DEVICES=0,1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $T/test_tsp_multigpu \
  --gtest_filter='TspMultiGpu.CountersPerGpu:TspMultiGpu.RepetitionsOnRealGpusKeepTheHomeDevice' \
  > "$O/sanitize-memcheck.log" 2>&1
echo "  exit $? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$O/sanitize-memcheck.log" | tr '\n' ' ')" | tee -a "$O/steps.log"

step "2b. gpus: all (n = 20, one run each)"
cat > "$O/gpus_all.yaml" <<'EOF2'
name: tsp_gpus_all
problem: tsp
instances: [{generator: random_matrix, params: {n: 20, min: 1, max: 1000}, seeds: [3]}]
solvers: [{name: gpu.wavefront, params: {gpus: [1, all]}}]
repetitions: 2
warmup: 1
EOF2
timeout 60 $D run "$O/gpus_all.yaml" --out "$R/gpus_all" > "$O/gpus_all.log" 2>&1
echo "  exit $?" | tee -a "$O/steps.log"

E=experiments/tsp_multigpu.yaml
filter='.'
[ "$cards" -ge 4 ] || filter='n=(2[5-9]|3[0-4])[^0-9]'  # n = 35 needs four cards
step "3. dpgpu check $E"
$D check "$E" > "$O/check.log" 2>&1; echo "  exit $?" | tee -a "$O/steps.log"
grep "memory plan" "$O/check.log" | tail -4

step "4. dpgpu run $E (filter '$filter', at most $(left 30) s)"
timeout "$(left 30)" $D run "$E" --filter "$filter" --out "$R/tsp_multigpu" 2> "$O/run.log"
echo "  exit $?" | tee -a "$O/steps.log"; tail -4 "$O/run.log"
$D verify "$R/tsp_multigpu" > "$O/verify.log" 2>&1; echo "  verify exit $?" | tee -a "$O/steps.log"
grep -E "claim|holds|fails|no rows" "$O/verify.log" | tail -6
$D plot "$R/tsp_multigpu" > "$O/plot.log" 2>&1

step "5. the best one-card time here: tsp_one_card n = 33 on card 0 (at most $(left 30) s)"
CUDA_VISIBLE_DEVICES=0 timeout "$(left 30)" $D run experiments/tsp_one_card.yaml --share-gpus \
  --filter 'n=33[^0-9]' --out "$R/tsp_one_card_same_host" 2> "$O/run_one_card.log"
echo "  exit $?" | tee -a "$O/steps.log"; tail -4 "$O/run_one_card.log"

(cd "$O" && tar -czf results.tar.gz results && rm -rf results)
step "done"
