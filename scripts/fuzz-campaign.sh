#!/usr/bin/env bash
# The long fuzz run: every target of a built fuzz folder at once, each until --runs
# executions (10^6) or --seconds, whichever comes first, with the limits and seeds that
# build-fuzz/tests/fuzz/fuzz_targets.tsv lists for it. Builds nothing, so it also runs on a
# machine that only has the binaries (the GPU machine's 16 cores: tests/fuzz/README.md).
#
#   scripts/fuzz-campaign.sh [--bin DIR] [--out DIR] [--data DIR] [--runs N] [--seconds S]
#                            [--workers "target=N ..."]
#
# Writes OUT/<target>/{corpus/,artifacts/,log.W,status.W} and OUT/summary.tsv: per target the
# workers, executions (summed), exit status, seconds and findings (crash-/leak-/timeout-/oom-
# files). Exits non-zero when a target failed, found something or stopped short of --runs.
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
  # N workers are N processes sharing the corpus folder (libFuzzer reloads it every second),
  # each taking 1/N of the executions; unlike -fork, each stops at --seconds sharp.
  for ((w = 1; w <= n; w++)); do
    (
      start=$(date +%s)
      # shellcheck disable=SC2086  # limits is a list of flags
      "$bin/$name" -runs=$(( (runs + n - 1) / n )) -max_total_time="$seconds" $limits -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/" "${corpora[@]}" > "$dir/log.$w" 2>&1
      echo "$? $(( $(date +%s) - start ))" > "$dir/status.$w"
    ) &
  done
done < "$manifest"
wait

failed=0
printf 'target\tworkers\texecutions\texit\tseconds\tfindings\n' > "$out/summary.tsv"
while IFS=$'\t' read -r name _; do
  dir=$out/$name execs=0 rc=0 secs=0
  for status in "$dir"/status.*; do
    w=${status##*.}
    read -r w_rc w_secs < "$status"
    [ "$w_rc" = 0 ] || rc=$w_rc
    [ "$w_secs" -gt "$secs" ] && secs=$w_secs
    w_execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.$w" | tail -1)
    execs=$(( execs + ${w_execs:-0} ))
  done
  findings=$(find "$dir/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
               -o -name 'oom-*' -o -name 'slow-unit-*' \) | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(workers_of "$name")" "$execs" "$rc" "$secs" "$findings" \
    >> "$out/summary.tsv"
  if [ "$rc" != 0 ] || [ "$findings" != 0 ] || [ "$execs" -lt "$runs" ]; then failed=1; fi
done < "$manifest"
column -t -s $'\t' "$out/summary.tsv" 2>/dev/null || cat "$out/summary.tsv"
exit $failed
