#!/usr/bin/env python3
"""A distributed no-op rerun against the one-machine no-op, and the run folder's disk (issue 34).

It synthesises PHOTOS small distinct JPEGs (noop_growth.py's), runs Benchmarks/thumbnail.yml once into a catalogue
with the first ALBUM, then, for each album given (the same catalogue copied for each, so both read the same rows):
a one-machine no-op rerun, then a no-op `--distribute local` rerun with the default chunk count, each RERUNS times
alternating, medians. While the distributed run runs, the run folder's size is sampled every 0.1 s (`du`-like, the
files' allocated blocks) and its largest value kept; the catalogue's database file is measured beside it. Not part
of `make bench` or `make test`.

    /usr/bin/python3 Benchmarks/dist_noop.py --album .build/release/album [--compare OTHER] [--photos 10000] [--reruns 3]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, threading, time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
from noop_growth import synthesise  # noqa: E402


def folder_bytes(folder):
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except FileNotFoundError:
                pass
    return total


def run(album, photos, catalogue, out, extra):
    env = dict(os.environ, BENCH_SRC=photos, BENCH_OUT=out)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], folder_bytes(os.path.join(catalogue, "dist")))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    start = time.perf_counter()
    result = subprocess.run([album, "run", os.path.join(BENCH, "thumbnail.yml"), "--catalogue", catalogue] + extra,
                            env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    if result.returncode != 0:
        raise SystemExit(f"{album} {' '.join(extra)} exited {result.returncode}: {result.stderr[-2000:]}")
    chunks = next((line for line in result.stderr.splitlines() if "chunks in" in line), "")
    return seconds, peak[0], chunks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--album", default=".build/release/album")
    parser.add_argument("--compare", help="a second album binary, measured the same way on a copy of the same catalogue")
    parser.add_argument("--photos", type=int, default=10000)
    parser.add_argument("--reruns", type=int, default=3)
    args = parser.parse_args()
    albums = [os.path.abspath(args.album)] + ([os.path.abspath(args.compare)] if args.compare else [])
    with tempfile.TemporaryDirectory() as folder:
        photos = os.path.join(folder, "photos")
        synthesise(photos, args.photos)
        base = os.path.join(folder, "base")
        first, _, _ = run(albums[0], photos, base, os.path.join(folder, "out"), ["--workers", str(os.cpu_count())])
        print(f"{args.photos} photos, first run {first:.1f} s; {os.cpu_count()} cores")
        works = {}
        for album in albums:
            works[album] = os.path.join(folder, f"work-{albums.index(album)}")
            shutil.copytree(base, works[album])
        size = os.path.getsize(os.path.join(base, "catalogue.db"))
        times = {album: {"one": [], "dist": [], "peak": []} for album in albums}
        notes = {}
        for _ in range(args.reruns):
            for album in albums:
                catalogue = works[album]
                one, _, _ = run(album, photos, catalogue, os.path.join(folder, "out"), ["--workers", str(os.cpu_count())])
                dist, peak, chunks = run(album, photos, catalogue, os.path.join(folder, "out"), ["--distribute", "local"])
                times[album]["one"].append(one)
                times[album]["dist"].append(dist)
                times[album]["peak"].append(peak)
                notes[album] = chunks
        print(f"catalogue.db: {size / 1e6:.1f} MB\n")
        print("| album | one-machine no-op (s) | distributed no-op (s) | ratio | run folder peak (MB) | of the catalogue | chunks |")
        print("|---|---|---|---|---|---|---|")
        for album in albums:
            one, dist, peak = (statistics.median(times[album][k]) for k in ("one", "dist", "peak"))
            print(f"| {album} | {one:.2f} | {dist:.2f} | {dist / one:.1f}x | {peak / 1e6:.1f} | {100 * peak / size:.0f} % | {notes[album]} |")


if __name__ == "__main__":
    main()
