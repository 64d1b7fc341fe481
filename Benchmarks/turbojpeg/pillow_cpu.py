#!/usr/bin/python3
"""Pillow-draft thumbnails (Benchmarks/pillow_thumbs.py's steps) to memory, in one process, files read first: CPU per
round, on stderr. Usage: pillow_cpu.py ROUNDS FILE...   (ONLY=pil or ONLY=pildecode runs one of the two variants)"""
import io, sys, time
from PIL import Image, ImageOps
rounds = int(sys.argv[1]); datas = [open(p, "rb").read() for p in sys.argv[2:]]
def thumb(data):
    with Image.open(io.BytesIO(data)) as image:
        image.draft("RGB", (480, 480))
        small = ImageOps.fit(ImageOps.exif_transpose(image), (240, 240))
        if small.mode not in ("RGB", "L"): small = small.convert("RGB")
        small.save(io.BytesIO(), "JPEG", quality=70)
def decode(data):
    image = Image.open(io.BytesIO(data)); image.draft("RGB", (480, 480)); image.load()
for r in range(rounds):
    for name, f in [p for p in ((("pildecode", decode), ("pil", thumb)) if r % 2 == 0 else (("pil", thumb), ("pildecode", decode))) if __import__("os").environ.get("ONLY", p[0]) == p[0]]:
        t = time.process_time()
        for d in datas: f(d)
        s = time.process_time() - t
        print(f"  {name:<11} {s:7.3f} s CPU  {1000*s/len(datas):.2f} ms/photo", file=sys.stderr, flush=True)
