#!/usr/bin/env python3
"""A distributed no-op rerun against the one-machine no-op, and the run folder's disk (issue 34).

It synthesises PHOTOS small distinct JPEGs (noop_growth.py's), runs Benchmarks/thumbnail.yml once into a catalogue
with the first ALBUM, then, for each album given (the same catalogue copied for each, so both read the same rows):
a one-machine no-op rerun, then a no-op `--distribute local` rerun with the default chunk count, each RERUNS times
alternating, medians. The distributed run's phases are told apart by its stderr lines, timed as they arrive:
planning ends at "C chunks in", the chunks at the last "chunks done", the merge at the exit. While it runs, the
run folder's size is sampled every 0.1 s (each file's allocated blocks, each inode once: a hard link is not a copy,
and a link of catalogue.db itself, a chunk's view of it, is not counted)
and its largest value kept, with the largest peak RSS (VmHWM) of an `album chunk` process seen; the catalogue's
database file is measured beside it. Not part of `make bench` or `make test`.

With --fill the library is scale_run.py's instead (its job: import and a 32x32 thumbnail; one photo recorded by
album, then its rows copied by sqlite3 for PHOTOS tiny distinct files, so a 10^5 library takes a minute, not a
first run of 20), and the catalogue is used in place when only one album is measured.

    /usr/bin/python3 Benchmarks/dist_noop.py --album .build/release/album [--compare OTHER] [--photos 10000] [--reruns 3] [--fill]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, threading, time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
from noop_growth import synthesise  # noqa: E402


def folder_bytes(folder, linked=None):
    """The bytes allocated under `folder`, each inode once; `linked` (a file outside it, catalogue.db) is not counted
    through its hard links in the folder: a chunk's view of the catalogue is no copy of it."""
    total, seen = 0, set()
    if linked:
        try:
            status = os.stat(linked)
            seen.add((status.st_dev, status.st_ino))
        except FileNotFoundError:
            pass
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                status = os.lstat(os.path.join(root, name))
            except FileNotFoundError:
                continue
            if (status.st_dev, status.st_ino) not in seen:
                seen.add((status.st_dev, status.st_ino))
                total += status.st_blocks * 512
    return total


def chunk_rss(album):
    """The largest VmHWM (bytes) of a running `album chunk` process of this album."""
    largest = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                arguments = file.read().split(b"\0")
            if not os.path.basename(arguments[0].decode()).startswith("album") or b"chunk" not in arguments[1:3]:
                continue
            with open(f"/proc/{pid}/status") as file:
                for line in file:
                    if line.startswith("VmHWM:"):
                        largest = max(largest, int(line.split()[1]) * 1024)
        except (FileNotFoundError, ProcessLookupError, PermissionError, UnicodeDecodeError):
            pass
    return largest


def run(album, photos, catalogue, out, extra, job=os.path.join(BENCH, "thumbnail.yml")):
    env = dict(os.environ, BENCH_SRC=photos, BENCH_OUT=out)
    peak, rss = [0], [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], folder_bytes(os.path.join(catalogue, "dist"), os.path.join(catalogue, "catalogue.db")))
            rss[0] = max(rss[0], chunk_rss(album))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    start = time.perf_counter()
    process = subprocess.Popen([album, "run", job, "--catalogue", catalogue] + extra,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines, planned, chunked = [], None, None
    for line in process.stderr:
        lines.append(line)
        if "chunks in" in line:
            planned = time.perf_counter() - start
        if "chunks done)" in line:
            chunked = time.perf_counter() - start
    process.wait()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"{album} {' '.join(extra)} exited {process.returncode}: {''.join(lines)[-2000:]}")
    chunks = next((line.strip() for line in lines if "chunks in" in line), "")
    phases = None
    if planned is not None and chunked is not None:
        phases = (planned, chunked - planned, seconds - chunked)
    return seconds, peak[0], chunks, phases, rss[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--album", default=".build/release/album")
    parser.add_argument("--compare", help="a second album binary, measured the same way on a copy of the same catalogue")
    parser.add_argument("--photos", type=int, default=10000)
    parser.add_argument("--reruns", type=int, default=3)
    parser.add_argument("--fill", action="store_true", help="scale_run.py's library (rows copied by sqlite3), not a first run")
    args = parser.parse_args()
    albums = [os.path.abspath(args.album)] + ([os.path.abspath(args.compare)] if args.compare else [])
    with tempfile.TemporaryDirectory() as folder:
        photos = os.path.join(folder, "photos")
        job = os.path.join(BENCH, "thumbnail.yml")
        if args.fill:
            import scale_run
            root = os.path.join(folder, "library")
            start = time.perf_counter()
            scale_run.make_library(albums[0], root, args.photos)
            job, base = os.path.join(root, "job.yml"), os.path.join(root, "album")
            print(f"{args.photos + 1} photos filled in {time.perf_counter() - start:.1f} s (scale_run.py); {os.cpu_count()} cores")
        else:
            synthesise(photos, args.photos)
            base = os.path.join(folder, "base")
            first = run(albums[0], photos, base, os.path.join(folder, "out"), ["--workers", str(os.cpu_count())])[0]
            print(f"{args.photos} photos, first run {first:.1f} s; {os.cpu_count()} cores")
        works = {}
        for album in albums:
            # A copy beside the catalogue it copies: its recorded paths are relative to its folder (../photos/…).
            works[album] = base if len(albums) == 1 else os.path.join(os.path.dirname(base), f"work-{albums.index(album)}")
            if len(albums) > 1:
                shutil.copytree(base, works[album])
        size = os.path.getsize(os.path.join(base, "catalogue.db"))
        keys = ("one", "dist", "peak", "plan", "chunks", "merge", "rss")
        times = {album: {key: [] for key in keys} for album in albums}
        notes = {}
        for _ in range(args.reruns):
            for album in albums:
                catalogue = works[album]
                one = run(album, photos, catalogue, os.path.join(folder, "out"), ["--workers", str(os.cpu_count())], job)[0]
                dist, peak, chunks, phases, rss = run(album, photos, catalogue, os.path.join(folder, "out"), ["--distribute", "local"], job)
                for key, value in zip(keys, (one, dist, peak) + (phases or (float("nan"),) * 3) + (rss,)):
                    times[album][key].append(value)
                notes[album] = chunks
        print(f"catalogue.db: {size / 1e6:.1f} MB\n")
        print("| album | one-machine no-op (s) | distributed no-op (s) | ratio | plan (s) | chunks (s) | merge (s) "
              "| run folder peak (MB) | of the catalogue | chunk peak RSS (MB) | chunks |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for album in albums:
            one, dist, peak, plan, chunked, merge, rss = (statistics.median(times[album][k]) for k in keys)
            print(f"| {album} | {one:.2f} | {dist:.2f} | {dist / one:.1f}x | {plan:.2f} | {chunked:.2f} | {merge:.2f} "
                  f"| {peak / 1e6:.1f} | {100 * peak / size:.0f} % | {rss / 1e6:.0f} | {notes[album]} |")


if __name__ == "__main__":
    main()
