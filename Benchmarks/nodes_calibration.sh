#!/usr/bin/env bash
# The distributed runs Benchmarks/simulate_nodes.py takes its overheads from (issue 18; INVESTIGATION.md section 17).
# Not part of `make bench`. Each run goes into a fresh catalogue in Benchmarks/work/nodes-NAME, kept afterwards:
#
#   corpus-C2, corpus-C8, corpus-C40   the first 120 corpus photos (run.py --only distributed's set), thumbnail.yml,
#                                      C chunks one at a time, 1 worker: per-photo costs, and the per-chunk overhead
#                                      against the chunk's size
#   synth-1k, synth-10k                1 000 and 10 000 synthesised 320x240 photos (run.py's photos-10000), C = 10 and
#                                      50, 2 at a time: a first run, then the same command again (a no-op rerun: each
#                                      chunk copies a snapshot of a 1 000- or 10 000-photo catalogue), planning and
#                                      merging against the catalogue's size
#   synth-10k-C10, synth-10k-C200      the 10 000 again as 10 and 200 chunks (first runs): the merge against the
#                                      number of chunks
#
# Usage: Benchmarks/nodes_calibration.sh [ALBUM]    (default .build/release/album; needs Benchmarks/corpus/photos)
# Then:  /usr/bin/python3 Benchmarks/simulate_nodes.py --catalogue Benchmarks/work/nodes-corpus-C8 \
#            --catalogue Benchmarks/work/nodes-corpus-C2 ... (every folder this prints)
set -euo pipefail
cd "$(dirname "$0")/.."
ALBUM=$(realpath "${1:-.build/release/album}")
WORK=$PWD/Benchmarks/work
JOB=$PWD/Benchmarks/thumbnail.yml
mkdir -p "$WORK/logs"

/usr/bin/python3 - <<'EOF'
import sys
sys.path.insert(0, "Benchmarks")
import run
files = run.corpus_files(run.PHOTOS, False)[:run.DIST_PHOTOS]
run.link_set("distributed-set", files)  # the scaling row's 120 photos
run.synthesise(10000)
EOF

# NAME SOURCE CHUNKS PARALLEL [again]: one distributed run, timed; `again` keeps the catalogue (a rerun).
measure() {
    local name=$1 source=$2 chunks=$3 parallel=$4 again=${5:-}
    local catalogue=$WORK/nodes-$name out=$WORK/out/nodes-$name
    [ -n "$again" ] || { rm -rf "$catalogue" "$out"; mkdir -p "$out"; }
    local start end
    start=$(date +%s.%N)
    BENCH_SRC=$source BENCH_OUT=$out "$ALBUM" run "$JOB" --distribute local --chunks "$chunks" \
        --max-parallel "$parallel" --workers 1 --catalogue "$catalogue" >"$WORK/logs/nodes-$name${again:+-again}.log" 2>&1
    end=$(date +%s.%N)
    printf '%-12s %s chunks, %s at a time%s: %.2f s (load %s)\n' "$name" "$chunks" "$parallel" \
        "${again:+, again}" "$(echo "$end - $start" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
}

for chunks in 2 8 40; do measure "corpus-C$chunks" "$WORK/distributed-set" "$chunks" 1; done
measure synth-1k "$WORK/photos-10000/d00" 10 2
measure synth-1k "$WORK/photos-10000/d00" 10 2 again
measure synth-10k "$WORK/photos-10000" 50 2
measure synth-10k "$WORK/photos-10000" 50 2 again
measure synth-10k-C10 "$WORK/photos-10000" 10 2
measure synth-10k-C200 "$WORK/photos-10000" 200 2
echo "catalogues: $(ls -d "$WORK"/nodes-* | tr '\n' ' ')"
