#!/usr/bin/python3
"""Where the thumbnail time goes, in one process each, with no process start-up, file reading or writing timed:
the JPEG decode at the thumbnailers' DCT scale through Pillow and through libvips, then each one's whole thumbnail.

Not part of `make bench`: it needs pyvips (PyPI; `python3 -m pip install --break-system-packages pyvips`, which
builds against libvips-dev) besides Debian's Pillow. Used for Benchmarks/INVESTIGATION.md, section 2.

Usage: Benchmarks/decode_cost.py [FOLDER] [--rounds N]     (default: Benchmarks/corpus/photos, 3 rounds)
Prints CPU seconds (process time) per variant and round, alternating the order, and the medians. The last variant
is album's whole job (Benchmarks/thumbnail.yml, 1 worker, a fresh catalogue) as a child process: its user + system
CPU, start-up, reading, hashing, catalogue and writing included.
"""
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import pyvips
from PIL import Image, ImageOps

pyvips.cache_set_max(0)  # as album: batch work, no operation cache
pyvips.concurrency_set(1)  # as album and the peers: one thread per pipeline


def shrink_on_load_scale(width, height, box=240):
    """libvips 8.14's DCT scale for a box² cover crop (the same as Pillow's draft to 2x the box)."""
    for scale in (8, 4, 2):
        if min(width, height) // scale >= 2 * box:
            return scale
    return 1


def pillow_decode(data, size):
    image = Image.open(io.BytesIO(data))
    image.draft("RGB", (480, 480))
    image.load()


def pillow_thumbnail(data, size):
    with Image.open(io.BytesIO(data)) as image:
        image.draft("RGB", (480, 480))
        small = ImageOps.fit(ImageOps.exif_transpose(image), (240, 240))
        small.convert("RGB").save(io.BytesIO(), "JPEG", quality=70)


def vips_decode(data, size):
    image = pyvips.Image.new_from_buffer(data, "", access="sequential", shrink=shrink_on_load_scale(*size))
    image.write_to_memory()


def vips_thumbnail(data, size):
    image = pyvips.Image.thumbnail_buffer(data, 240, height=240, crop="centre")
    image.jpegsave_buffer(Q=70, strip=True)


BENCH = os.path.dirname(os.path.abspath(__file__))
ALBUM = os.path.join(os.path.dirname(BENCH), ".build", "release", "album")


def album_whole_job(folder):
    """album's CPU seconds (user + system) for the thumbnail job on `folder`, into a fresh catalogue."""
    work = tempfile.mkdtemp(prefix="album-decode-cost-")
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        env = dict(os.environ, BENCH_SRC=folder, BENCH_OUT=os.path.join(work, "out"))
        subprocess.run([ALBUM, "run", os.path.join(BENCH, "thumbnail.yml"), "--workers", "1", "--catalogue",
                        os.path.join(work, "catalogue")], env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    finally:
        shutil.rmtree(work, ignore_errors=True)


VARIANTS = [pillow_decode, vips_decode, pillow_thumbnail, vips_thumbnail, album_whole_job]


def main():
    args = sys.argv[1:]
    rounds = 3
    if "--rounds" in args:
        at = args.index("--rounds")
        rounds = int(args[at + 1])
        del args[at:at + 2]
    folder = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "photos")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".jpg"))
    photos = []
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        with Image.open(io.BytesIO(data)) as image:
            photos.append((data, image.size))
    print(f"{len(photos)} photos from {folder}, {rounds} rounds, CPU seconds")
    times = {v.__name__: [] for v in VARIANTS}
    for r in range(rounds):
        order = VARIANTS if r % 2 == 0 else list(reversed(VARIANTS))
        for variant in order:
            if variant is album_whole_job:
                seconds = album_whole_job(os.path.abspath(folder))
            else:
                start = time.process_time()
                for data, size in photos:
                    variant(data, size)
                seconds = time.process_time() - start
            times[variant.__name__].append(seconds)
            print(f"  round {r + 1}: {variant.__name__:<18} {seconds:6.2f} s", flush=True)
    print("medians:")
    for name, values in times.items():
        print(f"  {name:<18} {statistics.median(values):6.2f} s")


if __name__ == "__main__":
    main()
