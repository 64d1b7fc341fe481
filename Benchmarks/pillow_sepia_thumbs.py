"""The Pillow peer of the filter row: pillow_thumbs.py's 240x240 cover-crop JPEG at quality 70 (draft mode, EXIF
orientation, ImageOps.fit), then the W3C sepia matrix of Benchmarks/sepia.mat on the small image, as album applies
its recipe after the shrink. A pool of N processes. No colour management: an embedded ICC profile is ignored.

Usage: python3 pillow_sepia_thumbs.py N OUTDIR FILE...
"""
import os
import sys
from multiprocessing import Pool

from PIL import Image, ImageOps

OUT = sys.argv[2]


def sepia_matrix():
    """sepia.mat (a `vips recomb` matrix: a "3 3" header, then one row per output band) as Pillow's 12-tuple."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sepia.mat")) as f:
        rows = [[float(v) for v in line.split()] for line in f.read().splitlines()[1:] if line.strip()]
    return tuple(v for row in rows for v in row + [0.0])


MATRIX = sepia_matrix()


def thumbnail(path):
    with Image.open(path) as image:
        image.draft("RGB", (480, 480))
        upright = ImageOps.exif_transpose(image)
        small = ImageOps.fit(upright, (240, 240))
        if small.mode != "RGB":
            small = small.convert("RGB")
        name = os.path.splitext(os.path.basename(path))[0]
        small.convert("RGB", MATRIX).save(os.path.join(OUT, name + ".jpg"), "JPEG", quality=70)


if __name__ == "__main__":
    workers = int(sys.argv[1])
    with Pool(workers) as pool:
        for _ in pool.imap_unordered(thumbnail, sys.argv[3:], chunksize=4):
            pass
        pool.close()
        pool.join()
