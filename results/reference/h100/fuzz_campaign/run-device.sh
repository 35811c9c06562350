#!/bin/bash
# The fuzz campaign on the GPU machine (16 cores), run from .carry/fuzz: unpacks the carried
# binaries and libraries, checks that they load, runs scripts/fuzz-campaign.sh and packs
# what comes back into $OUT (logs, artifacts, summary, new corpus entries under 8 KB).
set -u
cd "$(dirname "$0")"
RUNS=${RUNS:-1000000} DURATION=${DURATION:-360}
WORKERS=${WORKERS:-"fuzz_knapsack_csv=7 fuzz_knapsack_plain=7 fuzz_lcs_fasta=2 fuzz_experiment=2"}
gunzip -f bin/*.gz lib/*.gz lib-fallback/*.gz && chmod +x bin/fuzz_*
B=$(sed "s|\t.*||;s|^|bin/|" bin/fuzz_targets.tsv)
export LD_LIBRARY_PATH=$PWD/lib
{ uname -a; head -3 /etc/os-release; echo "nproc $(nproc)"; grep -m1 "model name" /proc/cpuinfo
  free -g; df -h /dev/shm /tmp; ldd --version | head -1; } > "$OUT/device.txt" 2>&1
if ldd $B | grep -q "not found"; then
  export LD_LIBRARY_PATH=$PWD/lib:$PWD/lib-fallback; echo "lib-fallback used" >> "$OUT/device.txt"
fi
ldd bin/fuzz_experiment >> "$OUT/device.txt" 2>&1
if ldd $B | grep "not found" >> "$OUT/device.txt"; then cat "$OUT/device.txt"; exit 3; fi
mkdir -p /dev/shm/smoke
if ! bin/fuzz_lcs_text -runs=100 /dev/shm/smoke tests/fuzz/corpus/fuzz_lcs_text > "$OUT/smoke.txt" 2>&1; then
  cat "$OUT/device.txt"; tail -30 "$OUT/smoke.txt"; exit 4
fi
W=/dev/shm/campaign
echo "RUNS=$RUNS DURATION=$DURATION WORKERS=$WORKERS start $(date -u +%FT%TZ)" > "$OUT/campaign.txt"
scripts/fuzz-campaign.sh --bin bin --out $W --data ../../.shared/data --runs "$RUNS" --seconds "$DURATION" \
  --workers "$WORKERS" >> "$OUT/campaign.txt" 2>&1
echo "campaign exit $? end $(date -u +%FT%TZ)" >> "$OUT/campaign.txt"
cat "$OUT/campaign.txt"
cp $W/summary.tsv "$OUT/"
tar czf "$OUT/logs.tar.gz" -C $W --exclude=corpus .
for limit in 8k 2k 1k; do
  (cd $W && find . -path '*/corpus/*' -type f -size -$limit | tar czf "$OUT/corpus-small.tar.gz" -T -)
  [ "$(stat -c %s "$OUT/corpus-small.tar.gz")" -lt 15000000 ] && break
done
echo "corpus-small limit $limit"; du -sh $W/*/corpus | sort -h | tail -3; ls -la "$OUT"
