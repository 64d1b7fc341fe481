#!/usr/bin/env bash
# `make test-slurm`: album's distributed runs on a real Slurm on this machine (scripts/slurm-local.sh: munge, one
# slurmctld, two slurmd nodes), over photos this script generates (docs/distributed.md, docs/testing.md).
#
#   1. a 2-node `--distribute slurm` run's merged catalogue equals a one-machine run of the same job: the same
#      photos by content hash, the same renditions by parameters and input hash with byte-identical files, the
#      same aliases and states, `album verify` exit 0; chunks ran on both nodes;
#   2. a chunk killed with SIGKILL mid-run, then run again, loses nothing and duplicates no row;
#   3. one chunk run twice at once (two srun on two nodes) is harmless: both exit 0, the catalogue is sound;
#   4. a chunk whose import root is missing on its node exits 75, never 0.
#
# Usage: scripts/test-slurm.sh [ALBUM]   (default .build/release/album). Exits 0 when every check passes.
# A failing check prints its command's own output; any failure (or an unexpected error, named by line) also prints
# squeue, sinfo and the tails of the Slurm daemons' logs, and keeps the scratch folder. ALBUM_TEST_SLURM_KEEP=1
# keeps it after a pass too. Every line says how many seconds the test has run.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
album=$(realpath "${1:-.build/release/album}")
[ -x "$album" ] || { echo "test-slurm: no album binary at $album (make release)" >&2; exit 2; }

work=$(mktemp -d /tmp/album-test-slurm.XXXXXX)
slurm=$work/slurm
failures=0
started=$(date +%s)
error_at=""

say() { echo "test-slurm [$(( $(date +%s) - started ))s]: $*" >&2; }
# show FILE...: the last lines of each file (a failing command's own output), indented.
show() {
    local file
    for file in "$@"; do
        if [ -s "$file" ]; then
            echo "    --- $file (last 25 lines):" >&2
            tail -n 25 "$file" | sed 's/^/    | /' >&2
        else
            echo "    --- $file: missing or empty" >&2
        fi
    done
}
# fail MESSAGE [FILE...]: a failed check, with the files that hold its command's output.
fail() { say "FAIL: $1"; shift; [ $# -eq 0 ] || show "$@"; failures=$((failures + 1)); }
pass() { say "ok: $*"; }
# What Slurm was doing: the queue, the nodes and the daemons' last words.
slurm_report() {
    [ -f "$slurm/slurm.conf" ] || return 0
    say "squeue and sinfo of the test's cluster:"
    SLURM_CONF=$slurm/slurm.conf squeue 2>&1 | sed 's/^/    | /' >&2 || true
    SLURM_CONF=$slurm/slurm.conf sinfo -N 2>&1 | sed 's/^/    | /' >&2 || true
    show "$slurm/log/slurmctld.log" "$slurm/log/slurmd-n1.log" "$slurm/log/slurmd-n2.log"
}
# Any command that fails outside a check (set -e) is named, so that an unexpected error never passes for a pass.
trap 'error_at="line $LINENO: \`$BASH_COMMAND\` exited $?"' ERR
cleanup() {
    local status=$?
    if [ "$status" -ne 0 ] && [ "$failures" -eq 0 ]; then
        say "FAIL: stopped by an unexpected error${error_at:+ at $error_at} (exit $status)"
        failures=1
    fi
    [ "$failures" -eq 0 ] || slurm_report
    scripts/slurm-local.sh stop "$slurm" >/dev/null 2>&1 || true
    if [ "$failures" -eq 0 ] && [ -z "${ALBUM_TEST_SLURM_KEEP:-}" ]; then rm -rf "$work"; else say "kept $work for a look"; fi
    [ "$failures" -eq 0 ] || exit 1
}
trap cleanup EXIT

# The catalogue is in WAL mode: while another process holds it (album merge checkpointing as it closes), a reader
# without a busy timeout fails at once with "database is locked". Wait for the lock, as album does.
q() { sqlite3 -cmd '.timeout 30000' "$1/catalogue.db" "$2"; }

# Waits up to $2 seconds for the shell condition $1.
wait_for() {
    local seconds=$2
    for _ in $(seq $((seconds * 5))); do
        if eval "$1" >/dev/null 2>&1; then return 0; fi
        sleep 0.2
    done
    return 1
}

# The facts two catalogues must share, one file per kind, and whether they are equal. Photos by content hash with
# their state's facts; renditions by photo hash, kind, parameters (export parameters hold the export folder, which
# differs, so exports are compared without them), input and file hash; aliases by photo hash and size.
facts() {
    local c=$1
    q "$c" "SELECT hash, bytes, width, height, filter, damage IS NULL, replaces IS NULL, missing_kept IS NULL FROM photos ORDER BY hash" >"$c.photos"
    q "$c" "SELECT p.hash, r.kind, CASE r.kind WHEN 'export' THEN '' ELSE r.params_hash END, r.input_hash, r.file_hash, r.width, r.height, r.bytes
            FROM renditions r JOIN photos p ON p.id = r.photo ORDER BY 1, 2, 3, 4, 5" >"$c.renditions"
    q "$c" "SELECT p.hash, a.bytes FROM aliases a JOIN photos p ON p.id = a.photo ORDER BY 1, 2" >"$c.aliases"
    "$album" ls --catalogue "$c" --json | /usr/bin/python3 -c '
import json, sys
for p in json.load(sys.stdin):
    print(p["hash"], p["state"])' | sort >"$c.states"
}
same_as_one() {
    local c=$1 what=$2 ok=1
    facts "$c"
    for kind in photos renditions aliases states; do
        if ! cmp -s "$work/one.$kind" "$c.$kind"; then
            fail "$what: $kind differ from the one-machine run's"; diff "$work/one.$kind" "$c.$kind" | head -5 >&2; ok=0
        fi
    done
    # Every export file byte for byte the one-machine run's.
    local out=$3
    for file in "$work/out-one"/*; do
        cmp -s "$file" "$out/$(basename "$file")" || { fail "$what: export $(basename "$file") differs or is missing"; ok=0; }
    done
    [ "$(ls "$work/out-one" | wc -l)" = "$(ls "$out" | wc -l)" ] || { fail "$what: a different number of exports"; ok=0; }
    if "$album" verify --catalogue "$c" >/dev/null 2>"$c.verify"; then :; else fail "$what: album verify failed: $(cat "$c.verify")"; ok=0; fi
    [ "$(q "$c" 'PRAGMA integrity_check')" = ok ] || { fail "$what: integrity_check"; ok=0; }
    [ -z "$(q "$c" 'SELECT hash FROM photos GROUP BY hash HAVING COUNT(*) > 1')" ] || { fail "$what: a photo twice"; ok=0; }
    # No step done twice for one path and stage across a chunk's attempts (a killed one and its rerun). Two chunks
    # that each found a copy of the same bytes each import it: one photo, with the other path as an alias.
    local twice
    twice=$(q "$c" "SELECT r.chunk, s.path, s.stage FROM steps s JOIN runs r ON r.id = s.run WHERE r.parent IS NOT NULL AND s.status = 'done'
                    GROUP BY r.chunk, s.path, s.stage, s.params HAVING COUNT(*) > 1")
    [ -z "$twice" ] || { fail "$what: steps done twice: $twice"; ok=0; }
    [ "$ok" = 1 ] && pass "$what: equals the one-machine run ($(wc -l <"$c.photos") photos, $(wc -l <"$c.renditions") renditions), verify ok"
    return 0
}

# --- photos and the job -------------------------------------------------------------------------------------------
mkdir -p "$work/photos/a" "$work/photos/b"
/usr/bin/python3 - "$work/photos" <<'EOF'
import random, sys
from PIL import Image, ImageDraw
root = sys.argv[1]
random.seed(18)
for i in range(48):
    w, h = random.choice([(1600, 1200), (1200, 1600), (1400, 1050)])
    im = Image.new("RGB", (w, h), tuple(random.randrange(256) for _ in range(3)))
    d = ImageDraw.Draw(im)
    for _ in range(40):
        x, y = random.randrange(w), random.randrange(h)
        d.ellipse((x, y, x + random.randrange(40, 400), y + random.randrange(40, 400)), fill=tuple(random.randrange(256) for _ in range(3)))
    im.save(f"{root}/{'ab'[i % 2]}/photo-{i:03}.jpg", quality=88)
EOF
cp "$work/photos/a/photo-000.jpg" "$work/photos/b/copy-of-000.jpg"         # the same bytes twice: one photo, an alias
head -c 9000 "$work/photos/b/photo-001.jpg" >"$work/photos/b/truncated.jpg"  # a damaged photo: it fails alone
cat >"$work/job.yml" <<'EOF'
version: 1
name: slurm-test
stages:
  - import:
      from: photos
      recursive: true
  - filter:
      preset: sepia
  - thumbnail:
      size: 240x240
  - export:
      to: "${out}/{name}.jpg"
EOF

say "one-machine run"
status=0; "$album" run "$work/job.yml" --catalogue "$work/one" --set out="$work/out-one" --workers 2 2>"$work/one.log" || status=$?
[ "$status" = 1 ] || fail "the one-machine run exited $status, not 1 (one damaged photo)" "$work/one.log"
facts "$work/one"

say "starting Slurm"
if scripts/slurm-local.sh start "$slurm" >"$work/slurm.start" 2>"$work/slurm.start.log"; then
    eval "$(cat "$work/slurm.start")"
    export SLURM_CONF
    cat "$work/slurm.start.log" >&2
else
    fail "scripts/slurm-local.sh start exited $?" "$work/slurm.start.log"
    exit 1
fi

# The bounds below are for a broken cluster, never for a slow one: each wait ends as soon as its condition holds,
# and a loaded 2-core machine runs these jobs several times slower than an idle one.
slurm_idle() { wait_for '[ -z "$(squeue -h -o %i)" ]' "${1:-600}"; }
# $1 catalogue: the run is merged and its merge job has ended (only then is album merge done with the catalogue).
wait_merged() {
    wait_for "[ \"\$(q $1 \"SELECT state FROM distributed\")\" = merged ]" 600 && slurm_idle
}

# --- 1. a 2-node run equals the one-machine run -------------------------------------------------------------------
say "1. --distribute slurm over two nodes"
"$album" run "$work/job.yml" --catalogue "$work/two" --set out="$work/out-two" --distribute slurm --chunks 6 --max-parallel 2 \
    >"$work/two.submit" 2>&1 || fail "submitting exited $?" "$work/two.submit"
run=$(ls -d "$work/two/dist/run-"* 2>/dev/null || true)
if wait_merged "$work/two"; then
    same_as_one "$work/two" "2-node run" "$work/out-two"
    nodes=$(cat "$run"/engine/chunk-*.log | sed -n 's/.* on node \([^,]*\),.*/\1/p' | sort -u | tr '\n' ' ')
    [ "$nodes" = "n1 n2 " ] && pass "chunks ran on both nodes ($nodes)" || fail "chunks ran on nodes '$nodes', not n1 and n2" "$run"/engine/chunk-*.log
    [ "$(q "$work/two" "SELECT COUNT(DISTINCT chunk) FROM runs WHERE parent IS NOT NULL")" = 6 ] || fail "not six chunk runs under the parent"
else
    fail "the 2-node run was not merged, or its merge job did not end, within 600 s" "$run/engine/merge.log" "$run"/engine/chunk-*.log
fi
slurm_idle

# --- 2. a chunk killed with SIGKILL, then run again --------------------------------------------------------------
say "2. SIGKILL a chunk mid-run"
"$album" run "$work/job.yml" --catalogue "$work/three" --set out="$work/out-three" --distribute slurm --chunks 3 --max-parallel 2 --workers 1 \
    >"$work/three.submit" 2>&1 || fail "submitting exited $?" "$work/three.submit"
run=$(ls -d "$work/three/dist/run-"*)
# The album process of chunk $1 (its environment names its array task), if it runs.
chunk_pid() {
    local p
    for p in $(pgrep -f "album chunk $run" || true); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "SLURM_ARRAY_TASK_ID=$1"; then echo "$p"; return 0; fi
    done
    return 1
}
# Done steps chunk $1 has committed, read from its view (the snapshot, hard-linked) and its own log as album reads
# them (docs/distributed.md): no lock (unix-none), the log's index in this process's memory (exclusive locking
# mode), read-only, so it never checkpoints the log into the snapshot. "0" when there is no view (yet).
done_steps() {
    [ -s "$run/chunk-$1.view.db" ] || { echo 0; return; }  # (sqlite3 would create a missing file)
    sqlite3 -readonly "file:$run/chunk-$1.view.db?vfs=unix-none" \
        "PRAGMA locking_mode = EXCLUSIVE; SELECT COUNT(*) FROM steps WHERE status = 'done'" 2>/dev/null | tail -n 1 | grep -x '[0-9]*' || echo 0
}
# Whether every thread of process $1 has stopped: kill -STOP sends the signal, it does not wait for the stop.
frozen() {
    local states
    for _ in $(seq 250); do
        states=$(sed 's/.*) //' /proc/"$1"/task/*/stat 2>/dev/null | cut -d' ' -f1 | sort -u | tr -d '\n')
        [ "$states" = T ] && return 0
        case "$states" in ""|*Z*|*X*) return 1 ;; esac  # ended
        sleep 0.02
    done
    return 1
}
# Kills a chunk mid-run, however fast the machine: a running chunk's process is frozen (SIGSTOP) before it is looked
# at, so that what is seen is still so when the SIGKILL lands; until it has committed a few done steps it runs on in
# slices of 0.05 s (commits come every 0.5 s, so a fast chunk would otherwise end between two looks). Writes
# "K PID N" (chunk, process, done steps) to $work/victim.
kill_mid_run() {
    local k pid n
    for k in 0 1 2; do
        [ -e "$run/chunk-$k.done" ] && continue
        pid=$(chunk_pid "$k") || continue
        while kill -STOP "$pid" 2>/dev/null; do
            frozen "$pid" || { kill -CONT "$pid" 2>/dev/null; break; }
            [ -e "$run/chunk-$k.done" ] && { kill -CONT "$pid" 2>/dev/null; break; }  # finished: the next chunk
            n=$(done_steps "$k")
            if [ "${n:-0}" -gt 2 ]; then
                kill -KILL "$pid"; echo "$k $pid $n" >"$work/victim"; return 0
            fi
            kill -CONT "$pid" 2>/dev/null || true
            sleep 0.05
        done
    done
    return 1
}
victim=""
if wait_for kill_mid_run 600; then
    read -r victim pid n <"$work/victim"
    say "killed chunk $victim (pid $pid) with $n done steps committed"
else
    fail "no chunk of $run was caught running to be killed" "$run"/engine/chunk-*.log
fi
slurm_idle
if [ -n "$victim" ]; then
    [ -e "$run/chunk-$victim.done" ] && fail "the killed chunk $victim says it finished" "$run/chunk-$victim.done"
    merge=0; "$album" merge "$run" >"$work/three.merge1" 2>&1 || merge=$?
    [ "$merge" = 3 ] && grep -q "chunk $victim has not finished" "$work/three.merge1" \
        && pass "merge refuses while chunk $victim is unfinished (exit 3, named)" || fail "merge with a killed chunk exited $merge" "$work/three.merge1"
    "$album" dist status "$run" >"$work/three.status" 2>&1 || true
    grep -q "stopped 1" "$work/three.status" && pass "dist status shows the killed chunk as stopped" || fail "dist status does not show one stopped chunk" "$work/three.status"
    s=0; srun -N 1 -w n2 "$album" chunk "$run" "$victim" --workers 1 >"$work/three.rerun" 2>&1 || s=$?
    [ "$s" = 0 ] || fail "rerunning chunk $victim on n2 exited $s" "$work/three.rerun"
    [ "$(q "$work/three" "SELECT 1 FROM distributed WHERE state = 'open'")" = 1 ] || fail "the run closed before the killed chunk was merged"
    m=0; "$album" merge "$run" >"$work/three.merge2" 2>&1 || m=$?
    [ "$m" = 1 ] || fail "merge after the rerun exited $m, not 1 (the damaged photo)" "$work/three.merge2"
    [ "$(q "$work/three" "SELECT state FROM distributed")" = merged ] || fail "the run is not merged after the rerun"
    attempts=$(q "$work/three" "SELECT COUNT(*) FROM runs WHERE parent IS NOT NULL AND chunk = $victim")
    [ "$attempts" = 2 ] && pass "the killed chunk kept both attempts (killed, then rerun)" || fail "the killed chunk has $attempts attempts, not 2"
    same_as_one "$work/three" "killed-chunk run" "$work/out-three"
fi

# --- 3. one chunk twice at once ----------------------------------------------------------------------------------
say "3. one chunk run twice at once, on n1 and n2"
"$album" run "$work/job.yml" --catalogue "$work/four" --set out="$work/out-four" --distribute k8s --chunks 2 --max-parallel 2 \
    >"$work/four.plan" 2>&1 || fail "planning exited $?" "$work/four.plan"
run=$(ls -d "$work/four/dist/run-"*)
s1=0; s2=0
srun -N 1 -w n1 "$album" chunk "$run" 0 --workers 1 >"$work/four.a" 2>&1 & a=$!
srun -N 1 -w n2 "$album" chunk "$run" 0 --workers 1 >"$work/four.b" 2>&1 & b=$!
wait "$a" || s1=$?; wait "$b" || s2=$?
[ "$s1" = 0 ] && [ "$s2" = 0 ] && pass "both copies of chunk 0 exited 0" || fail "the two copies exited $s1 and $s2" "$work/four.a" "$work/four.b"
grep -q "already finished" "$work/four.a" "$work/four.b" && pass "the second copy found the chunk finished" || fail "neither copy waited for the other" "$work/four.a" "$work/four.b"
[ "$(sqlite3 "$run/chunk-0.db" 'PRAGMA integrity_check')" = ok ] || fail "chunk 0's database is damaged"
s=0; srun -N 1 "$album" chunk "$run" 1 --workers 1 >"$work/four.c" 2>&1 || s=$?
[ "$s" = 0 ] || fail "chunk 1 exited $s" "$work/four.c"
m=0; "$album" merge "$run" >"$work/four.merge" 2>&1 || m=$?
[ "$m" = 1 ] || fail "merge exited $m, not 1 (the damaged photo)" "$work/four.merge"
"$album" merge "$run" >"$work/four.merge-again" 2>&1 || fail "merging a merged run again is not a no-op" "$work/four.merge-again"
same_as_one "$work/four" "duplicate-chunk run" "$work/out-four"

# --- 4. an unmounted share is environment trouble, never success -------------------------------------------------
say "4. a chunk whose import root is missing on its node"
"$album" run "$work/job.yml" --catalogue "$work/five" --set out="$work/out-five" --distribute k8s --chunks 2 \
    >"$work/five.plan" 2>&1 || fail "planning exited $?" "$work/five.plan"
run=$(ls -d "$work/five/dist/run-"*)
mv "$work/photos" "$work/photos.away"
s=0; srun -N 1 "$album" chunk "$run" 0 >"$work/five.chunk" 2>&1 || s=$?
mv "$work/photos.away" "$work/photos"
[ "$s" = 75 ] && grep -q "is it mounted\|mounted on this node" "$work/five.chunk" \
    && pass "a missing import root: exit 75, said" || fail "a missing import root gave exit $s" "$work/five.chunk"
[ ! -e "$run/chunk-0.done" ] || fail "a chunk with its import root missing says it finished"

say "done, $failures failure(s)"
[ "$failures" -eq 0 ]
