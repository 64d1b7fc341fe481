#!/usr/bin/env python3
"""`album verify --quick` against the deep check (plain `album verify`) on a catalogue of PHOTOS real photos.

Makes one 640x480 JPEG with ffmpeg and PHOTOS distinct copies of it (a JPEG comment segment after SOI numbers each),
runs a job that imports them and makes 128 px thumbnails, then times, alternating, ROUNDS rounds of
`album verify --quick` and `album verify` on a warm page cache, and prints medians (min-max).

    python3 Benchmarks/verify_depth.py [--album .build/release/album] [--photos 3000] [--rounds 5]
"""
import argparse, os, statistics, subprocess, tempfile, time

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--album", default=".build/release/album")
    parser.add_argument("--photos", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    album = os.path.abspath(args.album)
    with tempfile.TemporaryDirectory() as folder:
        seed = os.path.join(folder, "seed.jpg")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", seed], check=True)
        data = open(seed, "rb").read()
        photos = os.path.join(folder, "photos")
        os.makedirs(photos)
        for i in range(args.photos):
            comment = f"photo {i}".encode()
            segment = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
            with open(os.path.join(photos, f"p{i:06d}.jpg"), "wb") as f:
                f.write(data[:2] + segment + data[2:])
        with open(os.path.join(folder, "job.yml"), "w") as f:
            f.write("version: 1\nname: bench\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 128x128}\n")
        subprocess.run([album, "run", "job.yml"], cwd=folder, check=True, capture_output=True)
        size = sum(os.path.getsize(os.path.join(photos, n)) for n in os.listdir(photos))
        times = {"quick": [], "deep": []}
        for _ in range(args.rounds + 1):  # the first round warms the page cache and is not counted
            for name, extra in (("quick", ["--quick"]), ("deep", [])):
                start = time.perf_counter()
                result = subprocess.run([album, "verify"] + extra, cwd=folder, capture_output=True)
                times[name].append(time.perf_counter() - start)
                assert result.returncode == 0, result.stderr
        print(f"{args.photos} photos ({size / 1e6:.0f} MB of originals) and {args.photos} thumbnails; median (min-max) of {args.rounds}, warm page cache")
        for name in ("quick", "deep"):
            t = times[name][1:]
            print(f"  verify --{name}: {statistics.median(t):.3f} s ({min(t):.3f}-{max(t):.3f})")

if __name__ == "__main__":
    main()
