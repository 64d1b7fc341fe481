"""The Pillow peer: 240x240 cover-crop JPEG thumbnails at quality 70, EXIF-oriented, in a pool of N processes.

JPEG draft mode asks libjpeg for a DCT-scaled decode no smaller than 480x480 (2x the box, as ImageMagick's
-define jpeg:size=480x480 and libvips' shrink-on-load leave), then ImageOps.fit crops and resizes (Pillow's default
filter). No colour management: an embedded ICC profile is ignored.

Usage: python3 pillow_thumbs.py N OUTDIR FILE...
"""
import os
import sys
from multiprocessing import Pool

from PIL import Image, ImageOps

OUT = sys.argv[2]


def thumbnail(path):
    with Image.open(path) as image:
        image.draft("RGB", (480, 480))
        upright = ImageOps.exif_transpose(image)
        small = ImageOps.fit(upright, (240, 240))
        if small.mode not in ("RGB", "L"):
            small = small.convert("RGB")
        name = os.path.splitext(os.path.basename(path))[0]
        small.save(os.path.join(OUT, name + ".jpg"), "JPEG", quality=70)


if __name__ == "__main__":
    workers = int(sys.argv[1])
    with Pool(workers) as pool:
        for _ in pool.imap_unordered(thumbnail, sys.argv[3:], chunksize=4):
            pass
        pool.close()
        pool.join()
