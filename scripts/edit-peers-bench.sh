#!/usr/bin/env bash
# Issue 38's peers on the GPU machine (kind nvidia-h200): StringZilla's CUDA batch
# (peer.stringzilla) beside gpu.myers and OpenMP edlib, experiments/edit_peers.yaml. In order:
#   0. installs the carried wheels .whl/*.whl (stringzilla and stringzillas-cuda 5.3.2, cp312)
#      into /tmp/site and puts it on PYTHONPATH (the machine has no network), then asks the
#      worker whether it can import them (peers/stringzilla/sz_worker.py --probe);
#   1. configures build-gpu (CMake probes StringZilla again: peer.stringzilla is available
#      only when it finds the CUDA backend) and builds dpgpu and test_peer_stringzilla
#      (BUILD_ONLY=1 stops here);
#   2. test_peer_stringzilla (CPU backend and, on the GPU, peer.stringzilla against the reference);
#   3. dpgpu check, then dpgpu run experiments/edit_peers.yaml, verify and plot.
# Everything comes back under $OUT/edit_peers (results as results.tar.gz), one line per step in
# steps.log. DEADLINE_S (default 560) bounds the whole script.
#   run: carry [".whl"] (plus .deps where the build needs it), command scripts/edit-peers-bench.sh
set -u
cd "$(dirname "$0")/.."
[ -f .deps/activate.sh ] && . .deps/activate.sh  # the build's dependencies, where carried
O=${OUT:-$PWD/device-out}/edit_peers; R=$O/results; mkdir -p "$R"
deadline=${DEADLINE_S:-560}
step() { echo "== $(date -u +%T) +${SECONDS}s $*" | tee -a "$O/steps.log"; }
left() { echo $((deadline - SECONDS - ${1:-0})); }
nvidia-smi > "$O/nvidia-smi.txt" 2>&1

step "0. wheels from .whl into /tmp/site"
ls .whl/*.whl > "$O/wheels.txt" 2>&1 || { echo "no .whl/*.whl: carry .whl" | tee -a "$O/steps.log"; exit 1; }
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  > "$O/pip.log" 2>&1 || { tail -5 "$O/pip.log"; exit 1; }
export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
echo "  $(python3 peers/stringzilla/sz_worker.py --probe 2>&1)" | tee -a "$O/steps.log"

step "1. build (dpgpu test_peer_stringzilla) in build-gpu"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPGPU_CUDA=ON > "$O/build.log" 2>&1 &&
  timeout "$(left 60)" cmake --build build-gpu -j "$(nproc)" --target dpgpu test_peer_stringzilla \
    >> "$O/build.log" 2>&1 || { tail -30 "$O/build.log"; exit 1; }
grep "StringZilla\|stringzilla" "$O/build.log" | head -3 | tee -a "$O/steps.log"
D=build-gpu/harness/dpgpu
if [ "${BUILD_ONLY:-0}" = 1 ]; then step "built (BUILD_ONLY)"; exit 0; fi

step "2. test_peer_stringzilla"
timeout 120 build-gpu/peers/stringzilla/test_peer_stringzilla > "$O/test.log" 2>&1
echo "  exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/test.log" | tr '\n' ' ')" | tee -a "$O/steps.log"
$D list solvers 2>&1 | grep -E "stringzilla|gpu.myers|cpu.edlib" | tee -a "$O/steps.log"

E=experiments/edit_peers.yaml
step "3. dpgpu check $E"
$D check "$E" > "$O/check.log" 2>&1; echo "  exit $?" | tee -a "$O/steps.log"
grep -iE "skip|unavailable|error" "$O/check.log" | head -8
step "3. dpgpu run $E (at most $(left 30) s)"
timeout "$(left 30)" $D run "$E" --out "$R/edit_peers" 2> "$O/run.log"
echo "  exit $?" | tee -a "$O/steps.log"; tail -6 "$O/run.log"
$D verify "$R/edit_peers" > "$O/verify.log" 2>&1; echo "  verify exit $?" | tee -a "$O/steps.log"
grep -E "claim|holds|fails|no rows" "$O/verify.log" | tail -8
$D plot "$R/edit_peers" > "$O/plot.log" 2>&1
(cd "$O" && tar -czf results.tar.gz results && rm -rf results)
step "done"
