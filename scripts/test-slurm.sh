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
set -euo pipefail
cd "$(dirname "$0")/.."
album=$(realpath "${1:-.build/release/album}")
[ -x "$album" ] || { echo "test-slurm: no album binary at $album (make release)" >&2; exit 2; }

work=$(mktemp -d /tmp/album-test-slurm.XXXXXX)
slurm=$work/slurm
failures=0
started=$(date +%s)

say() { echo "test-slurm: $*" >&2; }
fail() { say "FAIL: $*"; failures=$((failures + 1)); }
pass() { say "ok: $*"; }
cleanup() {
    scripts/slurm-local.sh stop "$slurm" >/dev/null 2>&1 || true
    if [ "$failures" -eq 0 ]; then rm -rf "$work"; else say "kept $work for a look"; fi
}
trap cleanup EXIT

q() { sqlite3 "$1/catalogue.db" "$2"; }

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
[ "$status" = 1 ] || fail "the one-machine run exited $status, not 1 (one damaged photo)"
facts "$work/one"

say "starting Slurm"
eval "$(scripts/slurm-local.sh start "$slurm")"
export SLURM_CONF

wait_merged() {  # $1 catalogue: the merge job has ended and the run is merged
    wait_for "[ \"\$(q $1 \"SELECT state FROM distributed\")\" = merged ]" "${2:-150}"
}
slurm_idle() { wait_for '[ -z "$(squeue -h -o %i)" ]' "${1:-150}"; }

# --- 1. a 2-node run equals the one-machine run -------------------------------------------------------------------
say "1. --distribute slurm over two nodes"
"$album" run "$work/job.yml" --catalogue "$work/two" --set out="$work/out-two" --distribute slurm --chunks 6 --max-parallel 2 \
    >"$work/two.submit" 2>&1 || fail "submitting exited $?: $(cat "$work/two.submit")"
if wait_merged "$work/two"; then
    same_as_one "$work/two" "2-node run" "$work/out-two"
    run=$(ls -d "$work/two/dist/run-"*)
    nodes=$(cat "$run"/engine/chunk-*.log | sed -n 's/.* on node \([^,]*\),.*/\1/p' | sort -u | tr '\n' ' ')
    [ "$nodes" = "n1 n2 " ] && pass "chunks ran on both nodes ($nodes)" || fail "chunks ran on nodes '$nodes', not n1 and n2"
    [ "$(q "$work/two" "SELECT COUNT(DISTINCT chunk) FROM runs WHERE parent IS NOT NULL")" = 6 ] || fail "not six chunk runs under the parent"
else
    fail "the 2-node run was not merged within 150 s: $(tail -n 5 "$(ls -d "$work/two/dist/run-"*)/engine/merge.log" 2>/dev/null)"
fi
slurm_idle

# --- 2. a chunk killed with SIGKILL, then run again --------------------------------------------------------------
say "2. SIGKILL a chunk mid-run"
"$album" run "$work/job.yml" --catalogue "$work/three" --set out="$work/out-three" --distribute slurm --chunks 3 --max-parallel 2 --workers 1 \
    >"$work/three.submit" 2>&1 || fail "submitting exited $?"
run=$(ls -d "$work/three/dist/run-"*)
victim=""
# The first chunk with a few committed done steps and no outcome yet: kill its album process.
running_chunk() {
    local k n
    for k in 0 1 2; do
        [ -e "$run/chunk-$k.done" ] && continue
        [ -s "$run/chunk-$k.db" ] || continue  # (sqlite3 would create a missing file)
        n=$(sqlite3 -readonly "$run/chunk-$k.db" "SELECT COUNT(*) FROM steps WHERE status = 'done'" 2>/dev/null || echo 0)
        if [ "${n:-0}" -gt 2 ]; then echo "$k" >"$work/victim"; return 0; fi
    done
    return 1
}
if wait_for running_chunk 60; then
    victim=$(cat "$work/victim")
    pid=$(pgrep -f "album chunk $run" | while read -r p; do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "SLURM_ARRAY_TASK_ID=$victim" && echo "$p"; done | head -n 1 || true)
    if [ -n "$pid" ]; then
        kill -KILL "$pid"; say "killed chunk $victim (pid $pid)"
    else
        fail "chunk $victim's process was not found to kill"
    fi
else
    fail "no chunk got far enough to be killed mid-run"
fi
slurm_idle
[ -e "$run/chunk-$victim.done" ] && fail "the killed chunk $victim says it finished"
merge=0; "$album" merge "$run" >"$work/three.merge1" 2>&1 || merge=$?
[ "$merge" = 3 ] && grep -q "chunk $victim has not finished" "$work/three.merge1" \
    && pass "merge refuses while chunk $victim is unfinished (exit 3, named)" || fail "merge with a killed chunk exited $merge: $(cat "$work/three.merge1")"
"$album" dist status "$run" >"$work/three.status" 2>&1 || true
grep -q "stopped 1" "$work/three.status" && pass "dist status shows the killed chunk as stopped" || fail "dist status: $(cat "$work/three.status")"
srun -N 1 -w n2 "$album" chunk "$run" "$victim" --workers 1 >"$work/three.rerun" 2>&1 || fail "rerunning chunk $victim on n2 exited $?"
[ "$(q "$work/three" "SELECT 1 FROM distributed WHERE state = 'open'")" = 1 ] || fail "the run closed before the killed chunk was merged"
m=0; "$album" merge "$run" >"$work/three.merge2" 2>&1 || m=$?
[ "$m" = 1 ] || fail "merge after the rerun exited $m, not 1 (the damaged photo): $(cat "$work/three.merge2")"
[ "$(q "$work/three" "SELECT state FROM distributed")" = merged ] || fail "the run is not merged after the rerun"
attempts=$(q "$work/three" "SELECT COUNT(*) FROM runs WHERE parent IS NOT NULL AND chunk = $victim")
[ "$attempts" = 2 ] && pass "the killed chunk kept both attempts (killed, then rerun)" || fail "the killed chunk has $attempts attempts, not 2"
same_as_one "$work/three" "killed-chunk run" "$work/out-three"

# --- 3. one chunk twice at once ----------------------------------------------------------------------------------
say "3. one chunk run twice at once, on n1 and n2"
"$album" run "$work/job.yml" --catalogue "$work/four" --set out="$work/out-four" --distribute k8s --chunks 2 --max-parallel 2 \
    >"$work/four.plan" 2>&1 || fail "planning exited $?"
run=$(ls -d "$work/four/dist/run-"*)
s1=0; s2=0
srun -N 1 -w n1 "$album" chunk "$run" 0 --workers 1 >"$work/four.a" 2>&1 & a=$!
srun -N 1 -w n2 "$album" chunk "$run" 0 --workers 1 >"$work/four.b" 2>&1 & b=$!
wait "$a" || s1=$?; wait "$b" || s2=$?
[ "$s1" = 0 ] && [ "$s2" = 0 ] && pass "both copies of chunk 0 exited 0" || fail "the two copies exited $s1 and $s2"
grep -q "already finished" "$work/four.a" "$work/four.b" && pass "the second copy found the chunk finished" || fail "neither copy waited for the other"
[ "$(sqlite3 "$run/chunk-0.db" 'PRAGMA integrity_check')" = ok ] || fail "chunk 0's database is damaged"
srun -N 1 "$album" chunk "$run" 1 --workers 1 >"$work/four.c" 2>&1 || fail "chunk 1 exited $?"
m=0; "$album" merge "$run" >"$work/four.merge" 2>&1 || m=$?
[ "$m" = 1 ] || fail "merge exited $m, not 1 (the damaged photo): $(cat "$work/four.merge")"
"$album" merge "$run" >/dev/null 2>&1 || fail "merging a merged run again is not a no-op"
same_as_one "$work/four" "duplicate-chunk run" "$work/out-four"

# --- 4. an unmounted share is environment trouble, never success -------------------------------------------------
say "4. a chunk whose import root is missing on its node"
"$album" run "$work/job.yml" --catalogue "$work/five" --set out="$work/out-five" --distribute k8s --chunks 2 \
    >"$work/five.plan" 2>&1 || fail "planning exited $?"
run=$(ls -d "$work/five/dist/run-"*)
mv "$work/photos" "$work/photos.away"
s=0; srun -N 1 "$album" chunk "$run" 0 >"$work/five.chunk" 2>&1 || s=$?
mv "$work/photos.away" "$work/photos"
[ "$s" = 75 ] && grep -q "is it mounted\|mounted on this node" "$work/five.chunk" \
    && pass "a missing import root: exit 75, said" || fail "a missing import root gave exit $s: $(cat "$work/five.chunk")"
[ ! -e "$run/chunk-0.done" ] || fail "a chunk with its import root missing says it finished"

say "done in $(( $(date +%s) - started )) s, $failures failure(s)"
[ "$failures" -eq 0 ]
