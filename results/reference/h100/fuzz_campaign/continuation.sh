#!/bin/bash
# Local continuation of the device campaign: the remaining executions of the five targets
# that stopped short at 360 s, seeded with the device's new corpus entries (< 8 KB).
B=/tmp/fz/keep; R=/work/main/.wt/fuzz; S=/work/shared/data; D=/tmp/fz/dev; O=/tmp/fz/cont
export UBSAN_OPTIONS=print_stacktrace=1
while IFS=$'\t' read -r name limits repo data; do
  case $name in
    fuzz_lcs_fasta) n=359361 ;; fuzz_knapsack_plain) n=123556 ;; fuzz_knapsack_csv) n=77038 ;;
    fuzz_tsplib) n=23643 ;; fuzz_experiment) n=6976 ;; *) continue ;;
  esac
  mkdir -p $O/$name/corpus $O/$name/artifacts
  seeds=(); for s in $repo; do seeds+=($R/$s); done; for s in $data; do seeds+=($S/$s); done
  start=$(date +%s)
  nice -n 19 $B/$name -runs=$n $limits -print_final_stats=1 -artifact_prefix=$O/$name/artifacts/ \
    $O/$name/corpus $D/$name/corpus "${seeds[@]}" > $O/$name/log 2>&1
  echo "$name rc=$? runs=$n secs=$(( $(date +%s) - start )) execs=$(sed -n 's/^stat::number_of_executed_units: *//p' $O/$name/log)" >> $O/summary.txt
done < $B/fuzz_targets.tsv
echo done >> $O/summary.txt
