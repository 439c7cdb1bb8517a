#!/usr/bin/env bash
# The shard path on a real scheduler: starts a single-node Slurm (munge,
# slurmctld, slurmd) configured in a temporary folder, submits the job
# array of docs/scale-out.md ("Slurm: a job array") for
# `grade --class --partition`, merges the shard stores and checks that the
# gradebook equals the single-machine one.
#
#   grade-array.sh JUDGE ROOT CLASS WORK [PROBLEM...]
#
# JUDGE: the judge binary; ROOT: the folder holding problems/; CLASS: the
# class folder; WORK: an empty folder for everything this script makes;
# PROBLEMs: the problem ids to grade (default: all).
# Exit 0: equal. Exit 77: skipped (says "skipped: ..." with why). Anything
# else: a failure. Installs Debian's munge and Slurm when they are missing
# and it can (root, apt-get). Every daemon it starts runs in the
# foreground under its PID, and is killed by that PID when the script ends.
set -euo pipefail

judge=$1 root=$2 class=$3 work=$4
shift 4
problems=("$@")
tasks=3

skip() {
    echo "skipped: $*"
    exit 77
}

[ "$(id -u)" = 0 ] || skip "no slurm (a test node needs root)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || skip "no slurm (and no apt-get to install it)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq munge slurmctld slurmd slurm-client >/dev/null) \
        || skip "no slurm (apt-get could not install it)"
fi

pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill -KILL "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# munge: a key of its own and a socket in the work folder.
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/shards"
chmod 0711 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed" >"$work/munge/munged.out" 2>&1 &
pids+=($!)

node=$(hostname)
cpus=$(nproc)
conf="$work/slurm.conf"
cat >"$conf" <<EOF
ClusterName=judgetest
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$socket
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
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=judge Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
slurmctld -D -f "$conf" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$conf" -N "$node" >"$work/slurmd.out" 2>&1 &
pids+=($!)
up=
for _ in $(seq 150); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -q idle; then up=1; break; fi
    sleep 0.2
done
if [ -z "$up" ]; then
    echo "the Slurm node did not come up; its logs:" >&2
    tail -n 20 "$work"/*.log "$work"/*.out >&2 || true
    exit 1
fi

# The documented job array, its judge and class named by the arguments.
cat >"$work/grade.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=grade-class
#SBATCH --array=1-$tasks
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/shards/grade-%a.log
set -euo pipefail
"$judge" --color never --root "$root" -j "\$SLURM_CPUS_PER_TASK" grade --class "$class" \\
  ${problems[*]} --db "$work/shards/shard-\$SLURM_ARRAY_TASK_ID.db"
EOF
cd "$work"
sbatch --wait --quiet "$work/grade.sbatch" || {
    echo "the job array failed; its logs:" >&2
    tail -n 20 "$work"/shards/*.log >&2 || true
    exit 1
}
for k in $(seq "$tasks"); do
    grep -q "shard $k/$tasks (from SLURM_ARRAY_TASK_ID)" "$work/shards/grade-$k.log" || {
        echo "task $k did not grade shard $k/$tasks from Slurm's variables:" >&2
        cat "$work/shards/grade-$k.log" >&2
        exit 1
    }
done

j() { "$judge" --color never --root "$root" "$@"; }
j merge "$work"/shards/shard-*.db --db "$work/merged.db" >/dev/null
j report --db "$work/merged.db" --csv "$work/merged.csv" >/dev/null
env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_MIN -u SLURM_ARRAY_TASK_COUNT \
    "$judge" --color never --root "$root" grade --class "$class" "${problems[@]}" \
    --db "$work/single.db" >/dev/null
j report --db "$work/single.db" --csv "$work/single.csv" >/dev/null
if ! cmp -s "$work/merged.csv" "$work/single.csv"; then
    echo "the merged gradebook differs from the single-machine one:" >&2
    diff "$work/single.csv" "$work/merged.csv" >&2 || true
    exit 1
fi
echo "slurm: $tasks array tasks merged into the single-machine gradebook"
