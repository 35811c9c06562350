#!/usr/bin/env bash
# dpgpu slurm against a real Slurm: starts munged, slurmctld and slurmd as a one-node cluster
# of this machine (configuration, keys, state and logs in a temporary folder, ports chosen
# free), submits tests/slurm/cpu_small.yaml as an array of 4 shards with `dpgpu slurm
# --submit`, waits for the merge job, and checks that the merged folder holds the same
# (case, repetition) rows, statuses and objectives as one plain `dpgpu run`. Before
# submitting, two shard folders are set up as a cluster would leave them: shard 1 cut short
# (one case committed, as after a kill: its task must resume, not redo), shard 3 holding
# another plan's results (its task must fail, exit 2). So the first merge job must merge
# nothing and name shard 3; the test then runs the rerun line that merge job printed,
# verbatim, and the second merge must complete. It stops only the daemons it started, by
# pid, on success and on failure.
#
# usage: slurm_e2e.sh DPGPU_BINARY
# exit 0 passed, 1 failed, 77 skipped (not root, or Slurm/munge not installed: the Debian
# packages slurmctld, slurmd, slurm-client and munge, which scripts/install-deps.sh installs).
# DPGPU_SLURM_KEEP=1 keeps the temporary folder.
set -euo pipefail
readonly SKIP=77 shards=4 wait_s=${DPGPU_SLURM_WAIT_S:-150}
export PATH="$PATH:/usr/sbin:/sbin"
dpgpu=$(realpath "${1:?usage: $0 DPGPU_BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
experiment=$here/cpu_small.yaml

skip() { echo "SKIP: $*"; exit "$SKIP"; }
[ "$(id -u)" = 0 ] || skip "not root: the private cluster's munged, slurmctld and slurmd run as root (SlurmUser=root)"
for program in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol scancel python3; do
  command -v "$program" > /dev/null || skip "$program is not installed (scripts/install-deps.sh installs munge, slurmctld, slurmd, slurm-client)"
done

tmp=$(mktemp -d /tmp/dpgpu-slurm.XXXXXX)
chmod 755 "$tmp"
mkdir -p "$tmp"/{munge,state,spool,log}
chmod 755 "$tmp/munge"  # munged: the socket's folder must be searchable by all
pids=()     # daemons this test started, stopped in reverse order
jobs_=()    # jobs it submitted
started=$(date +%s)
log() { echo "[slurm-e2e +$(($(date +%s) - started))s] $*"; }

stop_daemons() {
  local rc=$?
  set +e
  if [ ${#jobs_[@]} -gt 0 ] && [ -n "${SLURM_CONF:-}" ]; then
    scancel "${jobs_[@]}" 2> /dev/null
    for _ in $(seq 20); do [ -z "$(squeue -h 2> /dev/null)" ] && break; sleep 0.5; done
  fi
  if [ "$rc" != 0 ] && [ "$rc" != "$SKIP" ]; then
    log "FAILED (exit $rc); logs:"
    for f in "$tmp"/log/* "$tmp"/job/slurm/logs/*; do
      [ -s "$f" ] && { echo "----- $f (last 25 lines)"; tail -n 25 "$f"; }
    done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    local pid=${pids[i]}
    kill -TERM "$pid" 2> /dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2> /dev/null && { log "pid $pid ignored SIGTERM for 5 s: SIGKILL"; kill -KILL "$pid"; }
    wait "$pid" 2> /dev/null
  done
  if [ "${DPGPU_SLURM_KEEP:-0}" = 1 ]; then log "kept $tmp"; else rm -rf "$tmp"; fi
  exit "$rc"
}
trap stop_daemons EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# munge: a key of its own and a socket in the temporary folder, so nothing of the system's
# munge (key, socket, running daemon) is used or touched.
mungekey --create --keyfile="$tmp/munge/munge.key"
munged --foreground --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" \
  > "$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge/munge.sock" ] || { log "munged made no socket in 5 s"; exit 1; }

read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
node=$(hostname -s)
cat > "$tmp/slurm.conf" << EOF
ClusterName=dpgputest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=600
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=dpgpu Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" > "$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$tmp/log/slurmd.out" 2>&1 &
pids+=($!)

# The reference: one plain run, while the daemons come up.
log "plain run of $experiment"
(cd "$tmp" && "$dpgpu" run "$experiment" --out "$tmp/plain" > "$tmp/log/plain.out" 2>&1)

for _ in $(seq 60); do
  [ "$(sinfo -h -N -o %T 2> /dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -N -o %T 2> /dev/null)" = idle ] || { log "node $node not idle after 30 s: $(sinfo -N 2>&1)"; exit 1; }
log "cluster up: node $node idle, ports $ctld_port/$slurmd_port"

# Shard 1 as a killed task leaves it: its run cut to the first committed case.
(cd "$tmp" && "$dpgpu" run "$experiment" --shard 1/$shards --out "$tmp/job/shard-1-of-$shards" > "$tmp/log/shard-1-seed.out" 2>&1)
head -n 1 "$tmp/job/shard-1-of-$shards/journal.jsonl" > "$tmp/journal" && mv "$tmp/journal" "$tmp/job/shard-1-of-$shards/journal.jsonl"
# Shard 3's folder holds another plan (other repetitions): its task's --resume is refused.
(cd "$tmp" && "$dpgpu" run "$experiment" --set repetitions=1 --shard 3/$shards --out "$tmp/job/shard-3-of-$shards" > "$tmp/log/shard-3-seed.out" 2>&1)

(cd "$tmp" && "$dpgpu" slurm "$experiment" --shards "$shards" --out "$tmp/job" --partition dpgpu --time 5 --submit) \
  | tee "$tmp/log/dpgpu-slurm.out"
read -r array merge < <(sed -n 's/^submitted: array job \([0-9]*\) .*, merge job \([0-9]*\)$/\1 \2/p' "$tmp/log/dpgpu-slurm.out")
[ -n "${merge:-}" ] || { log "dpgpu slurm printed no job ids"; exit 1; }
jobs_=("$array" "$merge")
log "array job $array, merge job $merge"

state() { scontrol -o show job "$1" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
# Waits until job $1 has ended; prints its final state.
wait_for() {
  local s
  for ((t = 0; t < wait_s * 2; t++)); do
    s=$(state "$1")
    case "$s" in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE) echo "$s"; return ;;
    esac
    sleep 0.5
  done
  log "job $1 not done after ${wait_s} s: $(squeue 2>&1)" >&2
  echo "$s"
}

# First round: shard 3 fails, so the merge (afterany) runs, merges nothing, names it.
[ "$(wait_for "$merge")" = FAILED ] || { log "merge job $merge did not fail on the unfinished shard 3"; exit 1; }
merge_log=$tmp/job/slurm/logs/merge.out
grep -q "^shard 3/$shards did not finish (exit code 2)" "$merge_log" || { log "merge log names no unfinished shard 3"; exit 1; }
[ ! -e "$tmp/job/merged" ] || { log "merged although shard 3 did not finish"; exit 1; }
grep -q "holds results of another plan" "$tmp/job/slurm/logs/shard-3-of-$shards.err" || { log "shard 3 failed otherwise"; exit 1; }
rerun=$(sed -n 's/^  \(sbatch --dependency=afterany:.*--array=3 .*\)$/\1/p' "$merge_log")
[ -n "$rerun" ] || { log "merge log gives no rerun line for shard 3"; exit 1; }
log "first merge job failed as it should, naming shard 3; rerunning it with: $rerun"

# Second round: the folder in the way is gone; the merge log's own line reruns shard 3.
rm -rf "$tmp/job/shard-3-of-$shards"
merge=$(cd "$tmp" && eval "$rerun" | sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p')
[ -n "$merge" ] || { log "the rerun line submitted no merge job"; exit 1; }
jobs_+=("$merge")
[ "$(wait_for "$merge")" = COMPLETED ] || { log "second merge job $merge ended $(state "$merge")"; exit 1; }
for ((k = 0; k < shards; k++)); do  # each shard ran as an array task of this cluster
  grep -q "^dpgpu slurm: shard $k/$shards on .*(array [0-9]*," "$tmp/job/slurm/logs/shard-$k-of-$shards.out" ||
    { log "shard $k's log does not show it ran as an array task"; exit 1; }
  [ "$(cat "$tmp/job/slurm/status/shard-$k-of-$shards.exit")" = 0 ] || { log "shard $k exited non-zero"; exit 1; }
done
grep -q '"resumed_cases": 1' "$tmp/job/shard-1-of-$shards/context.json" || { log "shard 1 did not resume its committed case"; exit 1; }
log "second merge job completed"

# The merged folder against the plain run: the same (case, repetition) rows, each with the
# same status and objective, and the same summary rows; every shard held some of them.
python3 - "$tmp/plain" "$tmp/job/merged" "$tmp/job" "$shards" << 'EOF'
import csv, os, sys
plain, merged, job, shards = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def rows(folder, name):
    with open(os.path.join(folder, name), newline="") as f:
        return list(csv.DictReader(f))
def runs(folder):
    out = {}
    for r in rows(folder, "runs.csv"):
        key = (r["case_id"], r["rep"])
        assert key not in out, f"{folder}: row {key} twice"
        out[key] = (r["status"], r["objective"], r["valid"])
    return out
a, b = runs(plain), runs(merged)
assert set(a) == set(b), f"rows only in the plain run: {sorted(set(a) - set(b))[:5]}, only merged: {sorted(set(b) - set(a))[:5]}"
for key in a:
    assert a[key] == b[key], f"{key}: plain {a[key]}, merged {b[key]}"
assert all(v[0] == "ok" for v in a.values()), "the plain run has rows that are not ok"
sa = sorted(r["case_id"] for r in rows(plain, "summary.csv"))
sb = sorted(r["case_id"] for r in rows(merged, "summary.csv"))
assert sa == sb, "summary.csv case ids differ"
per_shard = [len(rows(os.path.join(job, f"shard-{k}-of-{shards}"), "runs.csv")) for k in range(shards)]
assert sum(per_shard) == len(a), f"shards hold {per_shard} rows, the plain run {len(a)}"
print(f"merged == plain: {len(a)} (case, rep) rows, {len(sa)} cases; rows per shard {per_shard}")
EOF
log "passed"
