#!/usr/bin/python3
"""Issue 33's poster row: a video's poster thumbnail against a JPEG photo of the same frame size.

Three one-item libraries, each run whole by `album run` with a 240x240 thumbnail job (a new catalogue each time:
import, the thumbnail, the run's rows), the order alternating from round to round:
- a 10 s 1920x1080 H.264 MP4 at 30 frames/s (x264's default GOP: one key frame at the start),
- the same clip in HEVC in a QuickTime MOV, with a key frame every second (as a phone writes),
- a 1920x1080 JPEG (quality 92) of the clip's frame at 1 s: the photo of the same frame size.
Target: a video's poster costs at most twice the JPEG's, on the thumbnail step's own time (`steps.ms`: the stage's
work, the poster's search and decode included); the whole run (which also hashes the clip at import) is beside it.

The clips are made here by the `ffmpeg` command (fixtures only) from the corpus' first photo: a slow zoom with a
little temporal noise, at about a phone's bit rates.

Usage: Benchmarks/video_poster.py [--rounds N] [--album ALBUM]   (called by run.py --only video)
"""
import argparse
import os
import statistics
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
WORK = os.path.join(BENCH, "work", "video")
sys.path.insert(0, BENCH)
from embedded_sources import job, print_rows, timed, thumbnail_step  # noqa: E402

PHOTO = os.path.join(BENCH, "corpus", "photos")


def fixtures():
    os.makedirs(WORK, exist_ok=True)
    h264, hevc, jpeg = (os.path.join(WORK, name) for name in ("clip-h264.mp4", "clip-hevc.mov", "frame.jpg"))
    photos = sorted(n for n in os.listdir(PHOTO) if n.endswith(".jpg")) if os.path.isdir(PHOTO) else []
    if not photos:
        sys.exit(f"no corpus in {PHOTO}: run Benchmarks/corpus.sh first (make bench does)")
    # A slow zoom into a real photo with a little sensor noise: a phone's hand-held clip of a still scene.
    ffmpeg = ["ffmpeg", "-loglevel", "error", "-y", "-loop", "1", "-framerate", "30", "-i", os.path.join(PHOTO, photos[0]),
              "-vf", "scale=3840:-2,zoompan=z='1+0.001*on':d=300:s=1920x1080:fps=30,noise=alls=2:allf=t",
              "-t", "10", "-pix_fmt", "yuv420p"]
    if not os.path.exists(h264):
        subprocess.check_call(ffmpeg + ["-c:v", "libx264", "-crf", "20", h264])
    if not os.path.exists(hevc):
        subprocess.check_call(ffmpeg + ["-c:v", "libx265", "-crf", "24", "-tag:v", "hvc1",
                                        "-x265-params", "keyint=30:min-keyint=30:log-level=error", hevc])
    if not os.path.exists(jpeg):
        subprocess.check_call(["ffmpeg", "-loglevel", "error", "-y", "-ss", "1", "-i", h264, "-frames:v", "1",
                               "-q:v", "2", jpeg])
    return h264, hevc, jpeg


def measure(album, rounds):
    """The rows in run.py's shape: (measurement, workers, median s, photos/s, ratio, rss, target, result)."""
    h264, hevc, jpeg = fixtures()
    sides = {"H.264 MP4, one key frame": h264, "HEVC MOV, a key frame a second": hevc, "JPEG of the same frame": jpeg}
    labels = list(sides)
    times = {label: [] for label in labels}
    steps = {label: [] for label in labels}
    sources = {}
    for r in range(rounds):
        for label in (labels if r % 2 == 0 else list(reversed(labels))):
            name = "".join(c if c.isalnum() else "-" for c in label)
            folder = job(os.path.join(WORK, name), sides[label], "size: 240x240")
            times[label].append(timed(album, folder))
            sources[label], step = thumbnail_step(folder)
            steps[label].append(step)
        print(f"video round {r + 1}/{rounds}: " + ", ".join(f"{label} {times[label][-1]:.3f} s ({steps[label][-1] * 1000:.0f} ms)"
                                                          for label in labels), file=sys.stderr)
    run = {label: statistics.median(values) for label, values in times.items()}
    step = {label: statistics.median(values) for label, values in steps.items()}
    base = labels[2]
    rows = []
    for label in labels:
        mine = label != base
        ratio = step[label] / step[base]
        made = sources[label] or "the original"
        rows.append((f"one 10 s 1920x1080 clip or its frame, 240x240 thumbnail: {label} ({made}); whole album run, "
                     "and (its thumbnail step alone)", 1, f"{run[label]:.3f} ({step[label]:.3f})", f"{1 / run[label]:.1f}",
                     f"{run[label] / run[base]:.2f}× ({ratio:.2f}×)" if mine else "", "",
                     "≤ 2× the JPEG's thumbnail step (issue 33)" if mine else "",
                     ("PASS" if ratio <= 2 else "MISS") if mine else ""))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--album", default=os.path.join(ROOT, ".build", "release", "album"))
    args = parser.parse_args()
    print_rows(measure(args.album, args.rounds), args.rounds)


if __name__ == "__main__":
    main()
