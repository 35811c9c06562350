#!/usr/bin/env bash
# The long fuzz run: every target of a built fuzz folder at once, each until --runs
# executions (10^6) or --seconds, whichever comes first, with the limits and seeds that
# build-fuzz/tests/fuzz/fuzz_targets.tsv lists for it. Builds nothing, so it also runs on a
# machine that only has the binaries (the GPU machine's 16 cores: tests/fuzz/README.md).
# A target given N workers runs in libFuzzer's fork mode (-fork=N).
#
#   scripts/fuzz-campaign.sh [--bin DIR] [--out DIR] [--data DIR] [--runs N] [--seconds S]
#                            [--workers "target=N ..."]
#
# Writes OUT/<target>/{corpus/,artifacts/,log} and OUT/summary.tsv: per target the workers,
# executions, exit status, seconds and findings (crash-/leak-/timeout-/oom- files). Exits
# non-zero when a target failed, found something or stopped short of --runs.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$repo/build-fuzz/tests/fuzz out=$repo/build-fuzz/campaign data=$repo/../shared/data
runs=1000000 seconds=3600 workers=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    *) echo "fuzz-campaign.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
manifest=$bin/fuzz_targets.tsv
[ -f "$manifest" ] || { echo "fuzz-campaign.sh: no $manifest (build with scripts/fuzz.sh first)" >&2; exit 2; }
bin=$(cd "$bin" && pwd); mkdir -p "$out"; out=$(cd "$out" && pwd)
# Fork mode keeps its job files in TMPDIR; memory-backed is much faster than a disk /tmp.
[ -w /dev/shm ] && export TMPDIR=/dev/shm
export UBSAN_OPTIONS=print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}

workers_of() {
  local w
  for w in $workers; do [ "${w%%=*}" = "$1" ] && { echo "${w#*=}"; return; }; done
  echo 1
}

while IFS=$'\t' read -r name limits repo_seeds data_seeds; do
  dir=$out/$name
  rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
  corpora=("$dir/corpus")
  for s in $repo_seeds; do corpora+=("$repo/$s"); done
  for s in $data_seeds; do [ -d "$data/$s" ] && corpora+=("$data/$s"); done
  n=$(workers_of "$name")
  fork=(); [ "$n" -gt 1 ] && fork=(-fork="$n")
  (
    start=$(date +%s)
    # shellcheck disable=SC2086  # limits is a list of flags
    "$bin/$name" -runs="$runs" -max_total_time="$seconds" $limits -print_final_stats=1 "${fork[@]}" \
      -artifact_prefix="$dir/artifacts/" "${corpora[@]}" > "$dir/log" 2>&1
    echo "$? $(( $(date +%s) - start ))" > "$dir/status"
  ) &
done < "$manifest"
wait

failed=0
printf 'target\tworkers\texecutions\texit\tseconds\tfindings\n' > "$out/summary.tsv"
while IFS=$'\t' read -r name _; do
  dir=$out/$name
  read -r rc secs < "$dir/status"
  # One process prints its final stats; fork mode's last progress line holds the total.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\):* .*/\1/p' "$dir/log" | tail -1)
  findings=$(ls "$dir/artifacts" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-' || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(workers_of "$name")" "${execs:-0}" "$rc" "$secs" "$findings" \
    >> "$out/summary.tsv"
  if [ "$rc" != 0 ] || [ "$findings" != 0 ] || [ "${execs:-0}" -lt "$runs" ]; then failed=1; fi
done < "$manifest"
column -t -s $'\t' "$out/summary.tsv" 2>/dev/null || cat "$out/summary.tsv"
exit $failed
