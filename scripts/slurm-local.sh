#!/usr/bin/env bash
# A real Slurm on this one machine, for the tests of album's distributed runs (`make test-slurm`,
# scripts/test-slurm.sh; docs/distributed.md).
#
#   scripts/slurm-local.sh start [DIR]    install slurm-wlm and munge if missing, then start munged (unless one is
#                                         running), one slurmctld and two slurmd nodes, n1 and n2, on ports of
#                                         their own; waits until both nodes are idle, then prints the SLURM_CONF
#                                         line to export
#   scripts/slurm-local.sh stop [DIR]     cancel every job of this cluster, then stop what `start` started, by PID
#   scripts/slurm-local.sh status [DIR]   sinfo and squeue of this cluster
#
# DIR (default $ALBUM_SLURM_DIR, else /tmp/album-slurm) holds everything: slurm.conf, state, spool, logs and PID
# files. Runs as root, without systemd. Debian's slurm-wlm 22.05 and munge 0.5; cgroups are not used
# (proctrack/linuxproc, task/none), so nothing of the host's configuration is touched but /etc/munge/munge.key,
# which is made only when missing.
set -euo pipefail

command=${1:-}
dir=${2:-${ALBUM_SLURM_DIR:-/tmp/album-slurm}}
conf=$dir/slurm.conf
here=$(cd "$(dirname "$0")" && pwd)

say() { echo "slurm-local: $*" >&2; }
die() { say "error: $*"; exit 1; }

pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
pid_of() { [ -s "$1" ] && cat "$1" || true; }

# tail_of FILE...: the last lines of each file, for a message that says why something did not start.
tail_of() {
    local file
    for file in "$@"; do
        echo "--- $file (last 20 lines):"
        tail -n 20 "$file" 2>&1 | sed 's/^/| /'
    done
}

# Three TCP ports free on every address, below the kernel's ephemeral range: a port the kernel gave out (bind to 0)
# is one it may give again to any connection (an scontrol, another program) before the daemon binds it.
free_ports() {
    python3 - "$1" <<'EOF'
import random, socket, sys
low, high = map(int, open("/proc/sys/net/ipv4/ip_local_port_range").read().split())
# Below the ephemeral range when it leaves room there, else above it (a range tuned to start at 1024).
band = (max(1024, low - 12000), low) if low - 1024 >= 2000 else (high + 1, 65536)
if band[1] - band[0] < 100:
    band = (1024, 65536)
ports = []
while len(ports) < int(sys.argv[1]):
    port = random.randrange(*band)
    if port in ports: continue
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as slurmctld and slurmd bind
    try:
        s.bind(("0.0.0.0", port))
        ports.append(port)
    except OSError:
        pass
    finally:
        s.close()
print(*ports)
EOF
}

# Waits up to $2 seconds for the command in $1 to succeed.
wait_for() {
    local what=$1 seconds=$2
    for _ in $(seq $((seconds * 5))); do
        if eval "$what" >/dev/null 2>&1; then return 0; fi
        sleep 0.2
    done
    return 1
}

start_munge() {
    if [ ! -s /etc/munge/munge.key ]; then
        say "making /etc/munge/munge.key (1024 random bytes)"
        install -d -o munge -g munge -m 700 /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        return 0  # a munged is already running: not ours to stop
    fi
    install -d -o munge -g munge -m 755 /run/munge
    install -d -o munge -g munge -m 700 /var/lib/munge /var/log/munge
    su -s /bin/sh munge -c /usr/sbin/munged
    wait_for "munge -n | unmunge" 60 || die "munged did not start
$(tail_of /var/log/munge/munged.log)"
    cp /run/munge/munged.pid "$dir/munged.pid"
}

write_conf() {
    local host ctld p1 p2 memory
    host=$(hostname -s)
    read -r ctld p1 p2 <<<"$(free_ports 3)"
    # Each node gets one CPU and a third of the machine's memory, so that two nodes fit one 2-core host.
    memory=$(( $(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024 / 3 ))
    mkdir -p "$dir/state" "$dir/spool/n1" "$dir/spool/n2" "$dir/log"
    cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: one controller and two nodes on $host, everything under $dir.
ClusterName=album-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
SlurmdTimeout=10
# album chunk exits 75 for trouble on its node (an unmounted share): Slurm runs it again (docs/distributed.md).
RequeueExit=75
MinJobAge=300
NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$p1 CPUs=1 RealMemory=$memory State=UNKNOWN
NodeName=n2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$p2 CPUs=1 RealMemory=$memory State=UNKNOWN
PartitionName=batch Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
    [ "$(id -u)" -eq 0 ] || die "run as root: slurmd starts jobs as their users"
    "$here/ensure-packages.sh" slurm-wlm munge python3
    mkdir -p "$dir"
    if pid_alive "$(pid_of "$dir/slurmctld.pid")"; then
        die "a cluster is already running from $dir (scripts/slurm-local.sh stop $dir first)"
    fi
    start_munge
    write_conf
    slurmctld -c -f "$conf"
    # The bounds are for a daemon that failed, not a slow one: each wait ends as soon as the daemon answers.
    wait_for "SLURM_CONF=$conf scontrol ping | grep -q UP" 120 || die "slurmctld did not answer
$(tail_of "$dir/log/slurmctld.log")"
    for node in n1 n2; do
        slurmd -f "$conf" -N "$node"
    done
    # Both nodes idle, as sinfo sees them.
    if ! wait_for "[ \"\$(SLURM_CONF=$conf sinfo -h -N -o '%N %t' | grep -c ' idle\$')\" = 2 ]" 180; then
        SLURM_CONF=$conf sinfo -N >&2 || true
        die "the two nodes did not come up idle
$(tail_of "$dir/log/slurmctld.log" "$dir/log/slurmd-n1.log" "$dir/log/slurmd-n2.log")"
    fi
    say "up: slurmctld and nodes n1, n2 (one CPU each), partition batch"
    echo "export SLURM_CONF=$conf"
}

stop_pid() {
    local file=$1 pid
    pid=$(pid_of "$file")
    if pid_alive "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
        wait_for "! kill -0 $pid" 15 || kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
}

stop() {
    [ -f "$conf" ] || { say "nothing to stop in $dir"; return 0; }
    if pid_alive "$(pid_of "$dir/slurmctld.pid")"; then
        SLURM_CONF=$conf scancel --full --quiet --partition=batch 2>/dev/null || true
        # A cancelled job's slurmstepd ends with it; give them a moment before the daemons go.
        wait_for "[ -z \"\$(SLURM_CONF=$conf squeue -h -o %i)\" ]" 20 || true
    fi
    for node in n1 n2; do stop_pid "$dir/slurmd-$node.pid"; done
    stop_pid "$dir/slurmctld.pid"
    # Steps left by a node killed in a test: slurmstepd processes whose spool is ours.
    for pid in $(pgrep -x slurmstepd || true); do
        if grep -qs "$dir/spool" "/proc/$pid/cmdline" "/proc/$pid/environ" || \
           ls -l "/proc/$pid/cwd" 2>/dev/null | grep -q "$dir"; then
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    [ -f "$dir/munged.pid" ] && stop_pid "$dir/munged.pid"
    say "stopped the cluster of $dir"
}

case "$command" in
    start) start ;;
    stop) stop ;;
    status)
        [ -f "$conf" ] || die "no cluster in $dir"
        pid_alive "$(pid_of "$dir/slurmctld.pid")" || { say "not running (scripts/slurm-local.sh start $dir)"; exit 1; }
        SLURM_CONF=$conf sinfo -N
        SLURM_CONF=$conf squeue
        ;;
    -h|--help|help|"")
        sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
        [ -n "$command" ] || exit 2
        ;;
    *) die "unknown command '$command' (start, stop or status)" ;;
esac
