#!/usr/bin/env bash
# Issue 27's call on a host with four GPUs (kind nvidia-h100-x4), from a copy of the sources
# with binaries built beforehand in bin/ or packed in bins.tar.gz (dpgpu, test_bitlcs_multigpu,
# test_ivm_multigpu; built here with CMake when bin/dpgpu does not start). In order:
#   1. test_bitlcs_multigpu on the four cards (answers equal to one GPU's, on 2 and 4 GPUs);
#   2. `gpus: all` checked and run on the host (a small LCS and a small gpu.ivm case);
#   3. experiments/lcs_bitparallel_multigpu.yaml, all four cards visible, nothing else running;
#   4. experiments/multigpu_sweep.yaml with --gpus all (alone), then at the same time: the plain
#      run on card 0, shard 0/2 on card 1, shard 1/2 on card 2, and compute-sanitizer (memcheck,
#      racecheck) on the multi-GPU small cases on card 3; then dpgpu merge of the two shards.
# Wall times of the sweep's runs go to wall.json. Everything comes back as $OUT/mgpu.tar.gz.
# DEADLINE_S (default 420) bounds the whole script: each step gets what is left.
set -u
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
O=$OUT/mgpu; R=$O/results; mkdir -p "$R"
deadline=${DEADLINE_S:-420}
step() { echo "== $(date -u +%T) +${SECONDS}s $*" | tee -a "$O/steps.log"; }
left() { echo $((deadline - SECONDS - ${1:-0})); }
now() { date +%s.%N; }
minus() { awk "BEGIN { printf \"%.3f\", $1 - $2 }"; }
nvidia-smi topo -m > "$O/topo.txt" 2>&1; nvidia-smi > "$O/nvidia-smi.txt" 2>&1

[ -f bins.tar.gz ] && mkdir -p bin && tar -xzf bins.tar.gz -C bin  # carried packed: the tree's size limit
D=bin/dpgpu
if ! $D list solvers > /dev/null 2>&1; then
  step "bin/dpgpu does not start: building"
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPGPU_CUDA=ON > "$O/build.log" 2>&1 &&
    cmake --build build-gpu -j "$(nproc)" --target dpgpu test_bitlcs_multigpu test_ivm_multigpu >> "$O/build.log" 2>&1
  mkdir -p bin && cp build-gpu/harness/dpgpu build-gpu/strategies/bitparallel/test_bitlcs_multigpu \
    build-gpu/strategies/backtracking/test_ivm_multigpu bin/
fi

step "1. test_bitlcs_multigpu on $(nvidia-smi -L | wc -l) cards"
timeout 120 bin/test_bitlcs_multigpu > "$O/test_bitlcs_multigpu.log" 2>&1
echo "  exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$O/test_bitlcs_multigpu.log" | tr '\n' ' ')" | tee -a "$O/steps.log"

step "2. gpus: all"
cat > "$O/gpus_all.yaml" <<'EOF'
name: gpus_all
parts:
  - problem: lcs
    instances: [{generator: random, params: {n: 1048576}, seeds: [1]}]
    solvers: [{name: gpu.bitparallel, params: {gpus: [1, all]}}]
  - problem: tsp
    instances: [{generator: coin, params: {n: [13]}}]
    solvers: [{name: gpu.ivm, params: {gpus: [1, all]}}]
repetitions: 1
warmup: 0
EOF
$D check "$O/gpus_all.yaml" > "$O/gpus_all.check.log" 2>&1; echo "  check exit $?" | tee -a "$O/steps.log"
timeout 60 $D run "$O/gpus_all.yaml" --out "$R/gpus_all" > "$O/gpus_all.run.log" 2>&1
echo "  run exit $?" | tee -a "$O/steps.log"

step "3. lcs_bitparallel_multigpu (at most $(left 150) s)"
timeout "$(left 150)" $D run experiments/lcs_bitparallel_multigpu.yaml --out "$R/lcs_bitparallel_multigpu" \
  2> "$O/lcs_bitparallel_multigpu.log"
echo "  exit $?" | tee -a "$O/steps.log"; tail -3 "$O/lcs_bitparallel_multigpu.log"

E=experiments/multigpu_sweep.yaml
step "4a. multigpu_sweep --gpus all"
t0=$(now); timeout "$(left 100)" $D run $E --gpus all --out "$R/multigpu_sweep" 2> "$O/sweep_all.log"
rc_all=$?; t1=$(now); echo "  exit $rc_all" | tee -a "$O/steps.log"

step "4b. plain on card 0 | shards on cards 1, 2 | sanitizers on card 3"
sanitize() {
  export CUDA_VISIBLE_DEVICES=3
  grep -hv '^#' strategies/bitparallel/sanitize*.txt strategies/backtracking/sanitize*.txt | grep multigpu |
    while read -r tool bin filter; do
      t=$(left 10); [ "$t" -gt 100 ] && t=100
      [ "$t" -gt 10 ] || { echo "  sanitizer $tool $bin: not run (deadline)" >> "$O/sanitize.txt"; continue; }
      timeout "$t" compute-sanitizer --tool "$tool" --error-exitcode 9 "bin/$bin" --gtest_filter="$filter" \
        > "$O/sanitize-$tool-$bin.log" 2>&1
      echo "  sanitizer $tool $bin $filter: exit $? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' \
        "$O/sanitize-$tool-$bin.log" | tr '\n' ' ')" >> "$O/sanitize.txt"
    done
}
budget=$(left 40)
sanitize & s_pid=$!
t2=$(now); CUDA_VISIBLE_DEVICES=0 timeout "$budget" $D run $E --out "$R/multigpu_sweep_one_gpu" 2> "$O/sweep_plain.log" &
p_pid=$!
CUDA_VISIBLE_DEVICES=1 timeout "$budget" $D run $E --shard 0/2 --out "$O/shards/shard-0-of-2" 2> "$O/sweep_shard0.log" &
a_pid=$!
CUDA_VISIBLE_DEVICES=2 timeout "$budget" $D run $E --shard 1/2 --out "$O/shards/shard-1-of-2" 2> "$O/sweep_shard1.log" &
b_pid=$!
wait $p_pid; rc_plain=$?; t3=$(now)
wait $a_pid; rc_a=$?; wait $b_pid; rc_b=$?; t4=$(now)
echo "  plain exit $rc_plain, shards exit $rc_a $rc_b" | tee -a "$O/steps.log"
$D merge "$O/shards/shard-0-of-2" "$O/shards/shard-1-of-2" --into "$R/multigpu_sweep_sharded" > "$O/merge.log" 2>&1
echo "  merge exit $?" | tee -a "$O/steps.log"
cat > "$O/wall.json" <<EOF
{"gpus_all_s": $(minus $t1 $t0), "one_gpu_s": $(minus $t3 $t2), "shards_s": $(minus $t4 $t2), "exit": {"gpus_all": $rc_all, "one_gpu": $rc_plain, "shards": [$rc_a, $rc_b]},
 "note": "one_gpu ran on card 0 while the shards ran on cards 1 and 2 and compute-sanitizer on card 3"}
EOF
wait $s_pid
cat "$O/sanitize.txt" | tee -a "$O/steps.log"
step "done"
(cd "$OUT" && tar -czf mgpu.tar.gz mgpu && rm -rf mgpu)
