#!/bin/sh
# The liborc crash loop of Benchmarks/INVESTIGATION.md, section 7, and docs/scheduler.md ("No run-time SIMD code").
#
# Usage: Benchmarks/orc_crash_loop.sh ALBUM RUNS [WORKERS]
#   ALBUM    the album binary to loop (e.g. .build/debug/album)
#   RUNS     how many runs of the job (the figures in the docs: 270 with liborc on, 150 with it off)
#   WORKERS  workers per run (default 2; the crash needs at least 2)
#
# Each run imports, thumbnails and exports 150 distinct 64x48 JPEGs into a fresh catalogue (the job of
# Tests/AlbumTests/EnvironmentFaultTests' descriptor test, without its descriptor limit) and the loop counts the
# runs that ended by a signal (a crash) rather than with an exit status. It prints one line per crash and a total:
#   crashes: 2 of 270 runs (album: .build/debug/album, 2 workers)
#
# album runs liborc under ProgramLock (Vips.Settings.vectorCode = true, in Sources/Vips/Wrapper/Vips.swift): with the
# shipped binary the loop checks that no run crashes (INVESTIGATION.md, section 14: 500 loaded runs). To measure the
# crash itself, build a copy whose ProgramLock.building and ProgramLock.release skip the mutex, or use
# Benchmarks/orc_race, which reproduces it in C.
#
# Needs: vips (libvips' command line, to make the photos), a POSIX shell.
set -eu

album=${1:?usage: $0 ALBUM RUNS [WORKERS]}
runs=${2:?usage: $0 ALBUM RUNS [WORKERS]}
workers=${3:-2}
case $album in /*) ;; *) album=$PWD/$album ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/photos"
i=0
while [ $i -lt 150 ]; do
    # A grey level and a size of its own per photo, so no two files have the same bytes (one photo).
    vips black "$work/b.v" $((64 + i % 10)) $((48 + i / 10)) --bands 3
    vips linear "$work/b.v" "$work/photos/p$i.jpg[Q=90]" 1 $((i % 200 + 20)) --uchar
    i=$((i + 1))
done
rm -f "$work/b.v"
cat > "$work/job.yml" <<'EOF'
version: 1
stages:
  - import: {from: photos}
  - thumbnail: {size: 32x32}
  - export: {from: thumbnail, to: "out/{name}.jpg"}
EOF

crashes=0
run=1
while [ $run -le "$runs" ]; do
    rm -rf "$work/album" "$work/out"
    status=0
    (cd "$work" && "$album" run job.yml --workers "$workers" >/dev/null 2>"$work/stderr.txt") || status=$?
    # A shell reports a death by signal N as 128 + N; album's own statuses are 0-3, 130 and 143 (SIGINT/SIGTERM,
    # which nobody sends here).
    if [ $status -gt 128 ]; then
        crashes=$((crashes + 1))
        echo "run $run: ended by signal $((status - 128)); stderr ends: $(tail -c 300 "$work/stderr.txt" | tr '\n' ' ')"
    elif [ $status -ne 0 ]; then
        echo "run $run: exit status $status (not a crash): $(tail -c 300 "$work/stderr.txt" | tr '\n' ' ')"
    fi
    run=$((run + 1))
done
echo "crashes: $crashes of $runs runs (album: $album, $workers workers)"
