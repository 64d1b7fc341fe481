"""The Pillow peer of the multi-size row: one draft-mode decode per photo for the largest size, then both outputs
from it, in a pool of N processes.

Draft mode asks libjpeg for a DCT-scaled decode no smaller than twice the preview (a long edge of 2x1440, as
pillow_thumbs.py drafts to twice its box); the EXIF-oriented decode is reduced to the preview (long edge at most
1440, never enlarged: Image.thumbnail), saved at quality 80, and the 240x240 cover thumbnail (quality 70) is made
from the preview (ImageOps.fit), not from the original again. No colour management, no metadata written.

Usage: python3 pillow_multisize.py N OUTDIR FILE...   (writes OUTDIR/thumb/NAME.jpg and OUTDIR/preview/NAME.jpg)
"""
import os
import sys
from multiprocessing import Pool

from PIL import Image, ImageOps

OUT = sys.argv[2]
PREVIEW = 1440


def outputs(path):
    with Image.open(path) as image:
        scale = min(1.0, PREVIEW / max(image.size))
        image.draft("RGB", (max(1, round(2 * image.width * scale)), max(1, round(2 * image.height * scale))))
        upright = ImageOps.exif_transpose(image)
        if upright.mode not in ("RGB", "L"):
            upright = upright.convert("RGB")
        preview = upright  # exif_transpose's copy: thumbnail() below reduces it in place
        preview.thumbnail((PREVIEW, PREVIEW))
        name = os.path.splitext(os.path.basename(path))[0] + ".jpg"
        preview.save(os.path.join(OUT, "preview", name), "JPEG", quality=80)
        ImageOps.fit(preview, (240, 240)).save(os.path.join(OUT, "thumb", name), "JPEG", quality=70)


if __name__ == "__main__":
    workers = int(sys.argv[1])
    for sub in ("thumb", "preview"):
        os.makedirs(os.path.join(OUT, sub), exist_ok=True)
    with Pool(workers) as pool:
        for _ in pool.imap_unordered(outputs, sys.argv[3:], chunksize=4):
            pass
        pool.close()
        pool.join()
