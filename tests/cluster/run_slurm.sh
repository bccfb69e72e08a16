#!/usr/bin/env bash
# The cluster path on a real single-node SLURM (issue 16): installs SLURM and munge from
# Debian's packages when they are absent, starts munged, slurmctld and slurmd by hand (no
# systemd) with their configuration, state and sockets in a private temporary folder and
# private ports, then runs tests/cluster/check_slurm.py (the tiny workflow through
# `snakemake --profile profiles/slurm`, checked against a local run). Every daemon started
# here is stopped on exit, by PID, whatever the outcome.
#
#   bash tests/cluster/run_slurm.sh [--accounting] [--keep-logs]
#     --accounting  also install MariaDB + slurmdbd and run the cluster with accounting
#                   (sacct works); without it the cluster has none, as many small ones.
#     --keep-logs   keep the temporary folder (daemon logs, results) after the run.
#
# Exit status: 0 passed, 77 skipped (one line "SKIP: <reason>" says why), anything else failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
SKIP=77
ACCOUNTING=0
KEEP=0
for arg in "$@"; do
  case "$arg" in
    --accounting) ACCOUNTING=1 ;;
    --keep-logs) KEEP=1 ;;
    *) echo "usage: $0 [--accounting] [--keep-logs]" >&2; exit 2 ;;
  esac
done
T0=$(date +%s)
skip() { echo "SKIP: cluster test: $*"; exit "$SKIP"; }
note() { echo "== [$(( $(date +%s) - T0 ))s] $*"; }

# --- preconditions and installation ------------------------------------------------------
[ "$(id -u)" -eq 0 ] || skip "needs root to install and start SLURM (uid $(id -u))"
python3 -c 'import snakemake_executor_plugin_slurm' 2>/dev/null \
  || skip "snakemake-executor-plugin-slurm is not installed (pip install snakemake-executor-plugin-slurm)"
packages=(slurmctld slurmd slurm-client munge)
[ "$ACCOUNTING" -eq 1 ] && packages+=(slurmdbd mariadb-server)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || skip "SLURM is not installed and there is no apt-get"
  note "installing ${missing[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  # no daemon may start at install time (there is no systemd; we start ours by hand)
  policy=/usr/sbin/policy-rc.d
  made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy" && made_policy=1
    trap 'rm -f "$policy"' EXIT
  fi
  timeout 300 apt-get update -qq >/dev/null 2>&1
  update_status=$?
  timeout 600 apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120 \
    "${missing[@]}" > /tmp/threshold-choice-slurm-apt.log 2>&1
  install_status=$?
  [ "$made_policy" -eq 1 ] && { rm -f "$policy"; trap - EXIT; }
  if [ "$install_status" -ne 0 ]; then
    [ "$update_status" -ne 0 ] && skip "cannot reach Debian's package archive (apt-get update failed)"
    tail -5 /tmp/threshold-choice-slurm-apt.log
    skip "apt-get install ${missing[*]} failed (log: /tmp/threshold-choice-slurm-apt.log)"
  fi
  note "installed"
fi
for cmd in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$cmd" >/dev/null 2>&1 || { echo "FAIL: $cmd missing after installation"; exit 1; }
done

# --- a private cluster -------------------------------------------------------------------
D=$(mktemp -d /tmp/threshold-choice-slurm.XXXXXX)
chmod 755 "$D"  # munged wants every folder above its socket to be searchable by all
PIDS=()
NAMES=()
CHECK=

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  if [ -n "${CHECK:-}" ]; then  # the checker stops its Snakemake runs on SIGTERM
    kill -TERM "$CHECK" 2>/dev/null
    wait "$CHECK" 2>/dev/null
  fi
  if [ -n "${SLURM_CONF:-}" ] && [ "${#PIDS[@]}" -gt 0 ]; then
    timeout 10 scancel --quiet --full --user="$(id -un)" >/dev/null 2>&1
    for _ in $(seq 20); do  # let slurmd end the job steps before it goes
      [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  local i
  for (( i=${#PIDS[@]}-1; i>=0; i-- )); do
    kill -TERM "${PIDS[$i]}" 2>/dev/null
  done
  for (( i=${#PIDS[@]}-1; i>=0; i-- )); do
    for _ in $(seq 40); do kill -0 "${PIDS[$i]}" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "${PIDS[$i]}" 2>/dev/null; then
      echo "== ${NAMES[$i]} (pid ${PIDS[$i]}) ignored SIGTERM: SIGKILL"
      kill -KILL "${PIDS[$i]}" 2>/dev/null
    fi
    wait "${PIDS[$i]}" 2>/dev/null
  done
  [ "${#PIDS[@]}" -gt 0 ] && echo "== stopped ${NAMES[*]}"
  if [ "$status" -ne 0 ] && [ "$status" -ne "$SKIP" ]; then
    for log in "$D"/log/*.log; do
      [ -f "$log" ] && { echo "--- last lines of $log"; tail -15 "$log"; }
    done
  fi
  if [ "$KEEP" -eq 1 ] || { [ "$status" -ne 0 ] && [ "$status" -ne "$SKIP" ]; }; then
    echo "== kept $D"
  else
    rm -rf "$D"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'echo "== interrupted"; exit 130' INT TERM

start() {  # start NAME COMMAND...: in the background, its PID recorded for the clean-up
  local name=$1; shift
  "$@" > "$D/log/$name.log" 2>&1 &
  PIDS+=($!)
  NAMES+=("$name")
}

wait_for() {  # wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds
  local seconds=$1 what=$2; shift 2
  local deadline=$(( $(date +%s) + seconds ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "FAIL: $what not ready after ${seconds}s"; exit 1; fi
    local i
    for i in "${!PIDS[@]}"; do
      kill -0 "${PIDS[$i]}" 2>/dev/null || { echo "FAIL: ${NAMES[$i]} died"; exit 1; }
    done
    sleep 0.5
  done
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mkdir -p "$D/munge" "$D/run" "$D/log" "$D/state" "$D/spool"
chmod 700 "$D/munge"
chmod 755 "$D/run"
head -c 1024 /dev/urandom > "$D/munge/munge.key"
chmod 400 "$D/munge/munge.key"
note "starting munged"
start munged munged --foreground --key-file="$D/munge/munge.key" --socket="$D/run/munge.socket" \
  --pid-file="$D/run/munged.pid" --seed-file="$D/munge/munged.seed" --log-file="$D/log/munged.log"
wait_for 20 munged bash -c "munge -S '$D/run/munge.socket' -n | unmunge -S '$D/run/munge.socket'"

HOST=$(hostname -s)
CPUS=$(nproc)
MEMORY=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)
CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
accounting_lines="AccountingStorageType=accounting_storage/none"
if [ "$ACCOUNTING" -eq 1 ]; then
  DB_PORT=$(free_port)
  DBD_PORT=$(free_port)
  accounting_lines="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$DBD_PORT
# (for slurmdbd this names the munge socket)
AccountingStoragePass=$D/run/munge.socket
JobAcctGatherType=jobacct_gather/linux"
fi
export SLURM_CONF="$D/slurm.conf"
# Our configuration is not at the default place (/etc/slurm), and inside a job the plugin
# calls srun with every SLURM_* variable removed, SLURM_CONF included: an srun first on the
# PATH (exported to the jobs) puts it back.
mkdir -p "$D/bin"
printf '#!/bin/sh\nSLURM_CONF=%s exec %s "$@"\n' "$SLURM_CONF" "$(command -v srun)" > "$D/bin/srun"
chmod 755 "$D/bin/srun"
export PATH="$D/bin:$PATH"
cat > "$SLURM_CONF" <<EOF
ClusterName=threshold-choice
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$D/run/munge.socket
CryptoType=crypto/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/slurmd-%n
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
# no cgroups without systemd
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# the controller's job log: one line per finished job, the proof that jobs ran through SLURM
JobCompType=jobcomp/filetxt
JobCompLoc=$D/log/jobcomp.txt
$accounting_lines
MinJobAge=300
SchedulerParameters=sched_interval=1
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEMORY State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

if [ "$ACCOUNTING" -eq 1 ]; then
  note "starting mariadbd and slurmdbd"
  mkdir -p "$D/mysql" "$D/mysqlrun"
  chown mysql:mysql "$D/mysql" "$D/mysqlrun"
  sock="$D/mysqlrun/mysqld.sock"
  timeout 120 mariadb-install-db --user=mysql --datadir="$D/mysql" \
    --auth-root-authentication-method=normal > "$D/log/mariadb-install.log" 2>&1 \
    || { echo "FAIL: mariadb-install-db"; exit 1; }
  start mariadbd mariadbd --user=mysql --datadir="$D/mysql" --socket="$sock" \
    --pid-file="$D/mysqlrun/mysqld.pid" --bind-address=127.0.0.1 --port="$DB_PORT" --skip-name-resolve
  wait_for 60 mariadbd mariadb --socket="$sock" -e "select 1"
  mariadb --socket="$sock" -e "create database if not exists slurm_acct_db; \
    create user if not exists 'slurm'@'127.0.0.1' identified by 'slurm'; \
    grant all on slurm_acct_db.* to 'slurm'@'127.0.0.1';" || { echo "FAIL: database user"; exit 1; }
  cat > "$D/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$D/run/munge.socket
DbdHost=$HOST
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
SlurmUser=root
PidFile=$D/run/slurmdbd.pid
LogFile=$D/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=slurm
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$D/slurmdbd.conf"
  start slurmdbd slurmdbd -D  # reads slurmdbd.conf beside $SLURM_CONF
  wait_for 60 slurmdbd timeout 5 sacctmgr -i show cluster
  timeout 20 sacctmgr -i add cluster threshold-choice >/dev/null
  timeout 20 sacctmgr -i add account tcacct Description=test Organization=test >/dev/null
  timeout 20 sacctmgr -i add user "$(id -un)" Account=tcacct DefaultAccount=tcacct >/dev/null
fi

note "starting slurmctld and slurmd (ports $CTLD_PORT, $SLURMD_PORT)"
start slurmctld slurmctld -D -f "$SLURM_CONF"
wait_for 30 slurmctld bash -c "timeout 5 scontrol ping | grep -q UP"
start slurmd slurmd -D -f "$SLURM_CONF"
wait_for 60 "node $HOST" bash -c "timeout 5 sinfo -h -n '$HOST' -o %t | grep -qx idle"
note "SLURM is up: $(sinfo -h -o '%P %D %c cpus %m MB %t')"

# --- the workflow through SLURM, checked -------------------------------------------------
export PYTHONPATH="$REPO/src${PYTHONPATH:+:$PYTHONPATH}"
args=(--work "$D/work" --jobcomp "$D/log/jobcomp.txt")
[ "$ACCOUNTING" -eq 1 ] && args+=(--accounting)
# in the background, so that a signal to this script runs the clean-up at once (bash runs
# traps only between commands, and `wait` is interruptible where a foreground command is not)
timeout -k 20 900 python3 tests/cluster/check_slurm.py "${args[@]}" &
CHECK=$!
wait "$CHECK"
status=$?
CHECK=
[ "$status" -eq 124 ] && echo "FAIL: the checks took more than 15 minutes"
note "end to end: $(( $(date +%s) - T0 ))s"
exit "$status"
