#!/bin/bash
# A real single-node Slurm runs scripts/slurm-sweep.sh (docs/cli.md, "Sweeps on a cluster"):
# its own munged, slurmctld and slurmd on this machine, on ports and in a scratch directory
# of their own (nothing of the machine's configuration read or changed), the shards as a
# job array and the merge after them; the merged CSV must equal the unsharded sweep's byte
# for byte and the report must be written. Where the daemons cannot run (not installed, not
# root, they do not come up) it says skipped, with the reason, and exits 77.
#   tests/slurm_single_node.sh FIXROUTE SCRATCH
set -u
fixroute=$(realpath "$1")
work=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
sweep_options=(--max-size 6 --engine ref)
shards=3

skip() {
  echo "skipped: $*"
  exit 77
}
for program in munged mungekey slurmctld slurmd sbatch squeue sinfo; do
  command -v "$program" > /dev/null || skip "no $program on this machine (scripts/install-deps.sh installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd runs jobs as their user only when started as root; this is uid $(id -u)"

rm -rf "$work"
mkdir -p "$work"/state "$work"/spool "$work"/out
chmod 700 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null; done
  wait 2> /dev/null
}
trap cleanup EXIT
log_tail() { tail -n 3 "$work/$1" 2> /dev/null | tr '\n' ' '; }

# munge: a key and a socket of this test's own
mungekey --create --keyfile="$work/munge.key" > /dev/null 2>&1 || skip "mungekey could not create a key"
munged --foreground --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed" &
pids+=($!)

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" << EOF
ClusterName=fixroute-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=fixroute Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
for i in $(seq 50); do [ -S "$work/munge.socket" ] && break; sleep 0.1; done
[ -S "$work/munge.socket" ] || skip "munged did not start: $(log_tail munged.log)"
slurmctld -D -i > "$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D > "$work/slurmd.out" 2>&1 &
pids+=($!)
state=""
for i in $(seq 60); do
  state=$(sinfo -h -n "$host" -o %t 2> /dev/null)
  [ "$state" = "idle" ] && break
  sleep 0.5
done
[ "$state" = "idle" ] || skip "the node did not come up (state '${state:-none}'): slurmctld: $(log_tail slurmctld.log) slurmd: $(log_tail slurmd.log)"

# The array and the merge, as a user submits them.
FIXROUTE="$fixroute" "$repo/scripts/slurm-sweep.sh" "$shards" "$work/out" "${sweep_options[@]}" || {
  echo "FAIL: slurm-sweep.sh could not submit"
  exit 1
}
for i in $(seq 240); do
  [ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -o %i)" ] || { echo "FAIL: jobs still queued after 120 s: $(squeue -h)"; exit 1; }

"$fixroute" sweep --quiet --no-report "${sweep_options[@]}" --csv "$work/unsharded.csv" > /dev/null
status=0
for k in $(seq "$shards"); do
  [ -s "$work/out/shard-$k.csv" ] || { echo "FAIL: shard $k wrote no CSV: $(tail -n 3 "$work/out/shard-$k.log" 2> /dev/null)"; status=1; }
done
if cmp -s "$work/out/results.csv" "$work/unsharded.csv"; then
  echo "merged CSV equals the unsharded sweep's: $(($(wc -l < "$work/unsharded.csv") - 1)) rows from $shards shards"
else
  echo "FAIL: $work/out/results.csv differs from the unsharded sweep's (merge log: $(tail -n 3 "$work/out/merge.log" 2> /dev/null))"
  status=1
fi
[ -s "$work/out/report/index.html" ] || { echo "FAIL: no report at $work/out/report/index.html"; status=1; }
exit $status
