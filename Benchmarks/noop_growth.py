#!/usr/bin/env python3
"""How much a no-op rerun grows album's catalogue (issue 16: under 16 KB on 10 000 photos).

It synthesises PHOTOS small distinct JPEGs (64x48, Debian's Pillow; the image work is not what is measured), runs
Benchmarks/thumbnail.yml over them once into a fresh catalogue (import, thumbnail, export: three steps per photo),
then RERUNS no-op reruns. After each run it checkpoints the WAL into the database (`PRAGMA wal_checkpoint(TRUNCATE)`)
and measures the bytes of the pages in use, `(page_count - freelist_count) * page_size`, with the SQLite library
album links (Python's sqlite3 module, checked to be the same version), and counts the step rows. `--compare ALBUM`
measures a second album binary the same way, on the same photos (an album from before issue 16, to show what changed).
Not part of `make bench` or `make test`.

    /usr/bin/python3 Benchmarks/noop_growth.py [--album .build/release/album] [--photos 10000] [--reruns 3] [--compare OTHER]
"""
import argparse, os, sqlite3, subprocess, tempfile, time

BENCH = os.path.dirname(os.path.abspath(__file__))


def synthesise(folder, count):
    """`count` distinct 64x48 JPEGs in folder/dKK/, 1000 per subfolder: a flat colour that encodes the index, and
    one pixel moved."""
    from PIL import Image
    for i in range(count):
        sub = os.path.join(folder, f"d{i // 1000:02d}")
        if i % 1000 == 0:
            os.makedirs(sub)
        r, g, b = i % 256, (i // 256) % 256, (i * 37) % 256
        image = Image.new("RGB", (64, 48), (r, g, b))
        image.putpixel((i % 64, (i // 64) % 48), (255 - r, 255 - g, 255 - b))
        image.save(os.path.join(sub, f"p{i:05d}.jpg"), "JPEG", quality=90)


def measure(catalogue):
    """Bytes of the pages in use after a checkpoint, the database file's size, and the step rows."""
    db = sqlite3.connect(os.path.join(catalogue, "catalogue.db"))
    try:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0, "the checkpoint was blocked"
        pages, free, size = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count", "page_size"))
        steps = db.execute("SELECT count(*) FROM steps").fetchone()[0]
        counts = db.execute("SELECT counts FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0]
    finally:
        db.close()
    return (pages - free) * size, os.path.getsize(os.path.join(catalogue, "catalogue.db")), steps, counts


def run(album, photos, catalogue, out):
    env = dict(os.environ, BENCH_SRC=photos, BENCH_OUT=out)
    start = time.perf_counter()
    result = subprocess.run([album, "run", os.path.join(BENCH, "thumbnail.yml"), "--workers", str(os.cpu_count()),
                             "--catalogue", catalogue], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{album} exited {result.returncode}: {result.stderr[-2000:]}")
    return seconds


def version(album):
    return subprocess.run([album, "--version"], capture_output=True, text=True).stdout.strip().replace("\n", ", ")


def bench(album, photos, folder, reruns):
    catalogue, out = os.path.join(folder, "catalogue"), os.path.join(folder, "out")
    first = run(album, photos, catalogue, out)
    rows = [("first run", first, *measure(catalogue))]
    for n in range(1, reruns + 1):
        seconds = run(album, photos, catalogue, out)
        rows.append((f"no-op rerun {n}", seconds, *measure(catalogue)))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--album", default=".build/release/album")
    parser.add_argument("--photos", type=int, default=10000)
    parser.add_argument("--reruns", type=int, default=3)
    parser.add_argument("--compare", help="a second album binary, measured the same way on the same photos")
    args = parser.parse_args()
    albums = [os.path.abspath(args.album)] + ([os.path.abspath(args.compare)] if args.compare else [])
    print(f"SQLite {sqlite3.sqlite_version} (Python's); {args.photos} synthesised 64x48 JPEGs; Benchmarks/thumbnail.yml "
          f"(import, thumbnail, export), {os.cpu_count()} workers")
    with tempfile.TemporaryDirectory() as folder:
        photos = os.path.join(folder, "photos")
        synthesise(photos, args.photos)
        for album in albums:
            print(f"\n{album}: {version(album)}\n")
            print("| run | seconds | pages in use (bytes) | grown since the run before | database file | step rows |")
            print("|---|---|---|---|---|---|")
            work = os.path.join(folder, f"work-{albums.index(album)}")
            os.makedirs(work)
            previous = None
            for label, seconds, used, size, steps, counts in bench(album, photos, work, args.reruns):
                grown = "" if previous is None else f"{used - previous:+d}"
                print(f"| {label} | {seconds:.2f} | {used} | {grown} | {size} | {steps} |")
                previous = used
            print(f"\nthe last run's counts: {counts}")


if __name__ == "__main__":
    main()
