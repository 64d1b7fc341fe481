#!/usr/bin/python3
"""Issue 33's last target: a library with 10 % videos runs the nightly job without a visible slowdown on its photos.

Two libraries, each run whole by `album run Benchmarks/thumbnail.yml --workers 2` (import, a 240x240 cover
thumbnail, its export: the nightly job of run.py's rows) into a new catalogue, then run again as a no-op rerun, the
order of the two libraries alternating from round to round:
- "photos": N corpus photos (Benchmarks/corpus/photos, every k-th of the sorted corpus),
- "mixed": the same N photos (the same files, hard-linked) plus N/10 video files made here by the `ffmpeg` command
  (fixtures only) from corpus photos, a phone's clips of a still scene: a slow zoom with a little sensor noise,
  1920x1080 at 30 frames/s. Of every ten: four HEVC MOVs of 5 s with a key frame a second at ~10 Mbit/s, three H.264
  MP4s of 5 s (x264's default GOP: one key frame) at ~16 Mbit/s, and three Live Photo movies: HEVC MOVs of 3 s at
  ~8 Mbit/s named as one of the N JPEGs, so that photo and its movie are one item. One clip of each kind is encoded
  (x265 at 1080p takes minutes on a shared machine); the others are its copies (`-c copy`) with their own creation
  time: other files and hashes, the same frames to decode.
Measured per run: the whole run's wall time, its CPU time and peak RSS (`os.wait4`'s rusage of the album process),
the bytes it read (`rchar` of this process's /proc/self/io, which takes in a waited child's), and from the
catalogue's `steps` of that run each step's own time (`ms`) by stage, for the photos (the same N paths in both
libraries) and for the videos apart. A third library, the videos alone, runs in each round for its CPU time only:
the photos' CPU in the mixed run is its CPU less that one's (plus one process's fixed cost, a no-op rerun's CPU).
Target ("no visible slowdown on its photos"): the photos' median per-photo thumbnail and export step times, the sum
of all their steps, and their CPU time within 5 % of the photos-only library's; the whole run grows by the videos'
own work, shown apart. Each photo's thumbnail step is also compared with the same photo's in the photos-only run of
its round, split by whether a video's step ran on the other worker meanwhile (from `steps.at` and `ms`).
The no-op rerun must not hash or decode a video again: its stages' done/skipped/failed counts (`album run`'s
summary), its time and the bytes it read.

Usage: Benchmarks/mixed_library.py [--photos N] [--rounds R] [--album ALBUM]   (or run.py --only mixed)
"""
import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
WORK = os.path.join(BENCH, "work", "mixed")
PHOTOS = os.path.join(BENCH, "corpus", "photos")
JOB = os.path.join(BENCH, "thumbnail.yml")
WORKERS = 2
MARGIN = 0.05  # "no visible slowdown": the photos' medians within 5 % of the photos-only library's

# (kind, seconds, encoder arguments): a phone's clips, at its bit rates.
HEVC = ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1"]
KINDS = {
    "hevc-mov": (5, HEVC + ["-b:v", "10M", "-maxrate", "12M", "-bufsize", "20M",
                            "-x265-params", "keyint=30:min-keyint=30:log-level=error"], ".mov"),
    "h264-mp4": (5, ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "16M", "-maxrate", "18M", "-bufsize", "32M"], ".mp4"),
    "live-mov": (3, HEVC + ["-b:v", "8M", "-maxrate", "10M", "-bufsize", "16M",
                            "-x265-params", "keyint=30:min-keyint=30:log-level=error"], ".mov"),
}
PATTERN = ["hevc-mov", "h264-mp4", "live-mov", "hevc-mov", "h264-mp4", "live-mov", "hevc-mov", "h264-mp4", "live-mov", "hevc-mov"]


def base(kind):
    """The one clip of a kind, encoded here from a corpus photo (x265 at 1080p is slow on a shared machine)."""
    path = os.path.join(WORK, "clips", "base-" + kind + KINDS[kind][2])
    if os.path.exists(path):
        return path
    seconds, encoder, extension = KINDS[kind]
    frames = seconds * 30
    corpus = sorted(n for n in os.listdir(PHOTOS) if n.endswith(".jpg") and "-crop" not in n)
    source = os.path.join(PHOTOS, corpus[(list(KINDS).index(kind) * 37 + 11) % len(corpus)])
    # One decode of the photo: zoompan makes every frame from it (d frames per input image), then the noise.
    subprocess.check_call(["ffmpeg", "-loglevel", "error", "-y", "-i", source, "-vf",
                           f"scale=2880:-2,zoompan=z='1+0.0015*on':d={frames}:s=1920x1080:fps=30,noise=alls=4:allf=t",
                           "-frames:v", str(frames), "-pix_fmt", "yuv420p"] + encoder + [path + ".part" + extension])
    os.rename(path + ".part" + extension, path)
    return path


def clip(path, kind, number):
    """A copy of the kind's clip, its streams copied (`-c copy`) with its own creation time: another file (another
    hash), the same frames to decode."""
    if os.path.exists(path):
        return
    extension = KINDS[kind][2]
    tag = ["-tag:v", "hvc1"] if "hevc" in kind or "live" in kind else []
    subprocess.check_call(["ffmpeg", "-loglevel", "error", "-y", "-i", base(kind), "-c", "copy"] + tag +
                          ["-metadata", f"creation_time=2026-06-{1 + number % 28:02d}T12:{number % 60:02d}:00Z",
                           path + ".part" + extension])
    os.rename(path + ".part" + extension, path)


def libraries(count):
    """Builds work/mixed/photos and work/mixed/mixed; returns (photo names, video names, live names)."""
    corpus = sorted(n for n in os.listdir(PHOTOS) if n.endswith(".jpg")) if os.path.isdir(PHOTOS) else []
    if len(corpus) < count + count // 10:
        sys.exit(f"{len(corpus)} photos in {PHOTOS}: run Benchmarks/corpus.sh first (make bench does)")
    step = len(corpus) // count
    chosen = corpus[::step][:count]
    clips = os.path.join(WORK, "clips")
    os.makedirs(clips, exist_ok=True)
    videos, lives = [], []
    for i in range(max(1, count // 10)):
        kind = PATTERN[i % len(PATTERN)]
        if kind == "live-mov":
            still = chosen[(i * 7 + 3) % len(chosen)]  # a Live Photo: the movie of one of the N photos, named as it
            name = os.path.splitext(still)[0] + ".mov"
            clip(os.path.join(clips, name), kind, i)
            lives.append(name)
        else:
            # Named to sort among the photos, as a phone's IMG_0042.MOV does among its JPEGs: the videos are
            # spread over the run, beside photos on the other worker, not all at its end.
            near = chosen[(i * len(chosen)) // max(1, count // 10) + 1]
            name = f"{near[:4]}video-{i:03d}-{kind}{KINDS[kind][2]}"
            clip(os.path.join(clips, name), kind, i)
            videos.append(name)
    for library, extra in (("photos", []), ("mixed", videos + lives), ("videos", videos)):
        folder = os.path.join(WORK, library)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name in chosen if library != "videos" else []:
            os.link(os.path.join(PHOTOS, name), os.path.join(folder, name))
        for name in extra:
            os.link(os.path.join(clips, name), os.path.join(folder, name))
    for name in chosen + videos + lives:  # warm the page cache once
        with open(os.path.join(PHOTOS if name in chosen else clips, name), "rb") as f:
            while f.read(1 << 20):
                pass
    return chosen, videos, lives


def rchar():
    with open("/proc/self/io") as f:
        return int(next(line for line in f if line.startswith("rchar:")).split()[1])


def run(album, library, catalogue, out):
    """One `album run` of the nightly job: (wall s, peak RSS MB, MB read, CPU s: user + system)."""
    env = dict(os.environ, BENCH_SRC=os.path.join(WORK, library), BENCH_OUT=out)
    before = rchar()
    start = time.perf_counter()
    process = subprocess.Popen([album, "run", JOB, "--workers", str(WORKERS), "--catalogue", catalogue], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    read = (rchar() - before) / 1e6
    if status != 0:
        sys.exit(f"album run failed on {library}: {output.decode(errors='replace')}")
    return seconds, usage.ru_maxrss / 1024, read, usage.ru_utime + usage.ru_stime, stage_counts(output.decode(errors="replace"))


def stage_counts(output):
    """The run's summary, stage by stage: {stage: (done, skipped, failed)} (a no-op rerun records no step rows: its
    skipped steps are only counted there)."""
    counts = {}
    for line in output.splitlines():
        words = line.split()
        if len(words) >= 4 and words[0] in ("import", "thumbnail", "export") and all(w.isdigit() for w in words[1:4]):
            counts[words[0]] = tuple(int(w) for w in words[1:4])
    return counts


def steps(catalogue):
    """The last run's steps: [(path, stage, status, ms, error, at: when it was recorded, s since the epoch)]."""
    db = sqlite3.connect(f"file:{os.path.join(catalogue, 'catalogue.db')}?immutable=1", uri=True)
    rows = db.execute("SELECT s.path, s.stage, s.status, s.ms, coalesce(s.error, ''), "
                      "(julianday(s.at) - 2440587.5) * 86400.0 "
                      "FROM steps s LEFT JOIN photos p ON p.id = s.photo WHERE s.run = (SELECT max(id) FROM runs)").fetchall()
    db.close()
    return rows


def summarise(rows, photos, videos, lives):
    """Per stage, the photos' and the videos' step times (ms), and the statuses; "live": the Live Photos' stills
    (among the photos too), whose import also reads their movie in the mixed library."""
    photo_set, video_set = set(photos), set(videos)
    stills = {os.path.splitext(n)[0] for n in lives}
    found = {"photo": {}, "video": {}, "live": {}, "status": {}}
    spans = {"photo": [], "video": []}
    for path, stage, status, ms, error, at in rows:
        name = os.path.basename(path)
        side = "photo" if name in photo_set else "video" if name in video_set else None
        if side is None:
            continue
        if status == "done":  # a step runs from about `at` - ms to `at` (the row is written as it ends)
            spans[side].append((at - ms / 1000, at, stage, ms, name))
        if side == "photo" and os.path.splitext(name)[0] in stills:
            found["live"].setdefault(stage, []).append(ms)
        found[side].setdefault(stage, []).append(ms)
        found["status"].setdefault((side, stage, status), 0)
        found["status"][(side, stage, status)] += 1
        if side == "video" and stage == "thumbnail":
            found.setdefault("poster", set()).add(error)
    # Within the mixed run itself (the same load): the photos' thumbnail steps that ran while a video's step ran on
    # the other worker, against those that did not.
    found["thumbnails"], found["beside"] = {}, {}
    for start, end, stage, ms, name in spans["photo"]:
        if stage == "thumbnail":
            found["thumbnails"][name] = ms
            # Which of the videos' stages ran meanwhile, by the time they overlapped.
            overlaps = {}
            for vs, ve, video_stage, _, _ in spans["video"]:
                if vs < end and ve > start:
                    overlaps[video_stage] = overlaps.get(video_stage, 0) + min(ve, end) - max(vs, start)
            if overlaps:
                found["beside"][name] = max(overlaps, key=overlaps.get)
    return found


def beside_ratios(photos_only, mixed):
    """Each photo's thumbnail step in the mixed run ÷ the same photo's in the photos-only run of the same round, by
    the video stage that ran beside it longest ("" when none did): {stage: [ratios]}. Per photo, since a long step
    is more likely to overlap a video's than a short one."""
    ratios = {}
    for x, y in zip(photos_only, mixed):
        for name, ms in y[1]["thumbnails"].items():
            if x[1]["thumbnails"].get(name):
                ratios.setdefault(y[1]["beside"].get(name, ""), []).append(ms / x[1]["thumbnails"][name])
    return ratios


def measure(album, count, rounds):
    photos, videos, lives = libraries(count)
    sizes = {n: os.path.getsize(os.path.join(WORK, "clips", n)) for n in videos + lives}
    print(f"mixed: {len(photos)} photos; {len(videos)} videos and {len(lives)} Live Photo movies "
          f"({sum(sizes.values()) / 1e6:.0f} MB)", file=sys.stderr)
    results = {library: {"first": [], "noop": []} for library in ("photos", "mixed", "videos")}
    for r in range(rounds):
        order = ["photos", "mixed", "videos"] if r % 2 == 0 else ["videos", "mixed", "photos"]
        for library in order:
            catalogue = os.path.join(WORK, "catalogue-" + library)
            out = os.path.join(WORK, "out-" + library)
            shutil.rmtree(catalogue, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            first = run(album, library, catalogue, out)
            results[library]["first"].append((first, summarise(steps(catalogue), photos, videos, lives)))
        order.remove("videos")  # the videos alone are only there for their CPU time
        for library in order:
            catalogue = os.path.join(WORK, "catalogue-" + library)
            noop = run(album, library, catalogue, os.path.join(WORK, "out-" + library))
            results[library]["noop"].append((noop, summarise(steps(catalogue), photos, videos, lives)))
        print(f"mixed round {r + 1}/{rounds}: " + ", ".join(
            f"{library} {results[library]['first'][-1][0][0]:.2f} s (photos' thumbnail median "
            f"{stage_median('photo', 'thumbnail')(results[library]['first'][-1]):.1f} ms, sum "
            f"{stage_sum('photo')(results[library]['first'][-1]) / 1000:.2f} s; no-op {results[library]['noop'][-1][0][0]:.2f} s)"
            for library in order), file=sys.stderr)
    return photos, videos, lives, sizes, results


def median_of(samples, pick):
    values = [pick(sample) for sample in samples]
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def paired(first, second, pick):
    """The median of the rounds' own ratios, second ÷ first: the two libraries of a round ran one after the other,
    so this follows the machine's load better than the ratio of the medians."""
    ratios = [pick(y) / pick(x) for x, y in zip(first, second) if pick(x) and pick(y) is not None]
    return statistics.median(ratios) if ratios else float("nan")


def stage_median(side, stage):
    return lambda sample: statistics.median(sample[1][side][stage]) if sample[1][side].get(stage) else None


def stage_sum(side, stages=None):
    return lambda sample: sum(sum(v) for k, v in sample[1][side].items() if stages is None or k in stages)


def table(photos, videos, lives, sizes, results, rounds):
    """Markdown rows: measurement, photos-only library, mixed library, mixed ÷ photos-only, target, result."""
    p, m = results["photos"]["first"], results["mixed"]["first"]
    lines = [f"| measurement (median of {rounds} rounds) | {len(photos)} photos | the same + {len(videos)} videos, "
             f"{len(lives)} Live movies | mixed ÷ photos (median of the rounds' ratios) | target | result |", "|---|---|---|---|---|---|"]

    def row(what, pick, unit, fmt="{:.1f}", target=None):
        a, b = median_of(p, pick), median_of(m, pick)
        ratio = paired(p, m, pick)
        verdict = "" if target is None else ("PASS" if ratio <= 1 + target else "MISS")
        lines.append(f"| {what} | {fmt.format(a)} {unit} | {fmt.format(b)} {unit} | {ratio:.3f}× | "
                     f"{'≤ %.2f×' % (1 + target) if target is not None else ''} | {verdict} |")

    for stage in ("thumbnail", "export", "import"):
        row(f"photos: per-photo `{stage}` step, median (`steps.ms`)", stage_median("photo", stage), "ms",
            target=MARGIN if stage != "import" else None)
    row("photos: all their steps, summed (worker time)", stage_sum("photo"), "ms", fmt="{:.0f}", target=MARGIN)
    row("Live Photos' stills: `import` step, median (the mixed library also hashes their movie)",
        stage_median("live", "import"), "ms")
    by_stage = beside_ratios(p, m)
    for what, ratios in (("while a video's `import` (its hash) ran on the other worker", by_stage.get("import", [])),
                         ("while a video's `thumbnail` (its poster) ran on the other worker", by_stage.get("thumbnail", [])),
                         ("while a video's `export` ran on the other worker", by_stage.get("export", [])),
                         ("with no video step beside it", by_stage.get("", []))):
        lines.append(f"| photos: `thumbnail` step {what}, in the mixed run ÷ the same photo's in the photos-only run of "
                     f"its round: median of {len(ratios)} | | | {statistics.median(ratios) if ratios else float('nan'):.3f}× | | |")
    row("whole run, wall", lambda s: s[0][0], "s", fmt="{:.2f}")
    row("whole run less the videos' steps ÷ 2 workers", lambda s: s[0][0] - stage_sum("video")(s) / 1000 / WORKERS, "s",
        fmt="{:.2f}", target=MARGIN)
    row("whole run, CPU time (user + system; the machine's load moves it less than wall times)", lambda s: s[0][3], "s",
        fmt="{:.2f}")
    # CPU time moves less with the machine's load than wall times: the photos' CPU in the mixed run is its CPU less
    # the videos-alone run's, plus one process's fixed cost (its start, the catalogue's open: a no-op rerun's CPU),
    # which the videos-alone run paid too.
    v = results["videos"]["first"]
    fixed = median_of(results["photos"]["noop"], lambda s: s[0][3])
    shares = [y[0][3] - z[0][3] + fixed for y, z in zip(m, v)]
    own = [x[0][3] for x in p]
    share_ratio = statistics.median(b / a for a, b in zip(own, shares))
    lines.append(f"| photos' CPU time in the run (mixed: its CPU less the videos-alone run's "
                 f"{median_of(v, lambda s: s[0][3]):.2f} s, plus a process's fixed {fixed:.2f} s) | "
                 f"{statistics.median(own):.2f} s | {statistics.median(shares):.2f} s | {share_ratio:.3f}× | "
                 f"≤ {1 + MARGIN:.2f}× | {'PASS' if share_ratio <= 1 + MARGIN else 'MISS'} |")
    row("peak RSS of the run", lambda s: s[0][1], "MB", fmt="{:.0f}")
    row("bytes read by the run (`rchar`)", lambda s: s[0][2], "MB", fmt="{:.0f}")
    for stage in ("import", "thumbnail", "export"):
        label = {"import": "import (the header, the hash)", "thumbnail": "thumbnail (the poster)", "export": "export"}[stage]
        mid, top = median_of(m, stage_median("video", stage)), median_of(m, lambda s: max(s[1]["video"].get(stage, [0])))
        lines.append(f"| videos: per-video `{stage}` step, median (largest) — {label} | | {mid:.1f} ({top:.1f}) ms | | | |")
    lines.append(f"| videos: all their steps, summed (worker time) | | {median_of(m, stage_sum('video')):.0f} ms | | | |")
    posters = sorted(set().union(*(s[1].get("poster", set()) for s in m)))
    np, nm = results["photos"]["noop"], results["mixed"]["noop"]
    for what, pick, fmt, unit in (("no-op rerun: wall", lambda s: s[0][0], "{:.2f}", "s"),
                                  ("no-op rerun: CPU time", lambda s: s[0][3], "{:.2f}", "s"),
                                  ("no-op rerun: peak RSS", lambda s: s[0][1], "{:.0f}", "MB"),
                                  ("no-op rerun: bytes read (`rchar`)", lambda s: s[0][2], "{:.1f}", "MB")):
        a, b = median_of(np, pick), median_of(nm, pick)
        lines.append(f"| {what} | {fmt.format(a)} {unit} | {fmt.format(b)} {unit} | {b / a if a else float('nan'):.2f}× | | |")
    statuses = {}
    for sample in nm:
        for stage, counts in sample[0][4].items():
            statuses.setdefault(stage, set()).add("/".join(str(n) for n in counts))
    return lines, posters, statuses


def bench_rows(album, count, rounds):
    """make bench's rows, in run.py's shape: (measurement, workers, median s, photos/s, ratio, rss, target, result)."""
    photos, videos, lives, _, results = measure(os.path.abspath(album), count, rounds)
    p, m = results["photos"]["first"], results["mixed"]["first"]
    what = f"nightly job (thumbnail.yml), {len(photos)} photos"
    mixed = f"the same + {len(videos)} videos, {len(lives)} Live movies"
    wall = (median_of(p, lambda s: s[0][0]), median_of(m, lambda s: s[0][0]))
    total = (median_of(p, stage_sum("photo")) / 1000, median_of(m, stage_sum("photo")) / 1000)
    thumb = (median_of(p, stage_median("photo", "thumbnail")), median_of(m, stage_median("photo", "thumbnail")))
    rss = (median_of(p, lambda s: s[0][1]), median_of(m, lambda s: s[0][1]))
    ratios = [paired(p, m, pick) for pick in (lambda s: s[0][0], stage_sum("photo"), stage_median("photo", "thumbnail"))]
    worst = max(ratios[1:])
    noop = [median_of(results[library]["noop"], lambda s: s[0][0]) for library in ("photos", "mixed")]
    poster = (median_of(m, stage_median("video", "thumbnail")), median_of(m, lambda s: max(s[1]["video"].get("thumbnail", [0]))))
    return [
        (f"{what} alone: whole album run, and (the photos' steps summed; their thumbnail step's median, ms)", 2,
         f"{wall[0]:.2f} ({total[0]:.2f}; {thumb[0]:.1f})", f"{len(photos) / wall[0]:.1f}", "", f"{rss[0]:.0f}", "", ""),
        (f"{what}, {mixed}: the same measures, on the same photos", 2,
         f"{wall[1]:.2f} ({total[1]:.2f}; {thumb[1]:.1f})", f"{len(photos) / wall[1]:.1f}",
         f"{ratios[0]:.2f}× ({ratios[1]:.2f}×; {ratios[2]:.2f}×)", f"{rss[1]:.0f}",
         f"photos' steps ≤ {1 + MARGIN:.2f}× (issue 33)", "PASS" if worst <= 1 + MARGIN else "MISS"),
        (f"{what}, {mixed}: a video's poster thumbnail step, median (largest)", 2,
         f"{poster[0] / 1000:.3f} ({poster[1] / 1000:.3f})", "", "", "", "", ""),
        (f"{what} alone, then {mixed}: no-op rerun", 2, f"{noop[0]:.2f}, {noop[1]:.2f}", "",
         f"{paired(results['photos']['noop'], results['mixed']['noop'], lambda s: s[0][0]):.2f}×", "", "", ""),
    ]


def report(album, count, rounds, results=None):
    """Measures, prints the table, and writes it with the command to `results` when given."""
    start = time.perf_counter()
    photos, videos, lives, sizes, measured = measure(os.path.abspath(album), count, rounds)
    lines, posters, statuses = table(photos, videos, lives, sizes, measured, rounds)
    rates = sorted(sizes[n] * 8 / 1e6 / KINDS[next(k for k in KINDS if k in n) if n not in lives else "live-mov"][0]
                   for n in sizes)
    notes = [f"The videos: {len(videos)} clips and {len(lives)} Live Photo movies, {sum(sizes.values()) / 1e6:.0f} MB, "
             f"{rates[0]:.1f}-{rates[-1]:.1f} Mbit/s; their thumbnail steps said: {', '.join(repr(p) for p in posters)}.",
             "The mixed library's no-op reruns, stage by stage (done/skipped/failed, as `album run` prints them; it "
             "records no step rows for skipped steps): "
             + ", ".join(f"{k} {' or '.join(sorted(v))}" for k, v in statuses.items()) + ".",
             f"Command: `Benchmarks/mixed_library.py --photos {count} --rounds {rounds}` ({time.perf_counter() - start:.0f} s)."]
    text = "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    print(text)
    if results:
        with open(results, "w") as f:
            f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--album", default=os.path.join(ROOT, ".build", "release", "album"))
    parser.add_argument("--results", default=None, help="also write the table there")
    args = parser.parse_args()
    report(args.album, args.photos, args.rounds, args.results)


if __name__ == "__main__":
    main()
