#!/usr/bin/env python3
"""Issue 34: what a rerun and a plan cost as the library grows, beside a stat walk of the same files.

    Benchmarks/scale_run.py ALBUM N [N ...] [--rounds R] [--keep DIR] [--compare OTHER_ALBUM]

For each N, makes a library of N + 1 photos cheaply: `album run` records one photo and its 32x32 thumbnail, then
sqlite3 copies its rows for N tiny distinct files with their true stat and SHA-256, each with a thumbnail row whose
file is a hard link to the recorded one and whose input is the copy's bytes, so a rerun finds every photo up to
date (the no-op). Then, R rounds each, alternating the binaries when --compare is given: the no-op `album run
job.yml --quiet`, `album plan job.yml`, and a Python os.walk + os.stat of the photos folder (the floor: a look at
every file), each timed with its peak RSS (getrusage(RUSAGE_CHILDREN) in a fresh Python parent); then one rerun after
1 % of the files were rewritten with new bytes (each round other files: they are imported and thumbnailed). Prints
one JSON line per measurement (medians).
"""
import argparse, hashlib, json, os, shutil, sqlite3, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale_listing import PEAK, WALK  # noqa: E402


def fill(database, count):
    catalogue = os.path.dirname(database)
    photos = os.path.join(os.path.dirname(catalogue), "photos")
    db = sqlite3.connect(database)
    columns = [row[1] for row in db.execute("PRAGMA table_info(photos)")]
    template = dict(zip(columns, db.execute("SELECT * FROM photos").fetchone()))
    kinds = [row[1] for row in db.execute("PRAGMA table_info(renditions)")]
    renditions = [dict(zip(kinds, row)) for row in db.execute("SELECT * FROM renditions WHERE photo = ?", (template["id"],))]
    folder = os.path.dirname(template["path"])

    def absolute(path):
        return path if os.path.isabs(path) else os.path.join(catalogue, path)
    with db:
        for index in range(count):
            name = "g%03d/f%07d.jpg" % (index // 1000, index)
            path = os.path.join(photos, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            content = b"scale photo %d\n" % index
            with open(path, "wb") as out:
                out.write(content)
            status = os.stat(path)
            digest = hashlib.sha256(content).hexdigest()
            row = dict(template, id="%s-%s-8%s-8%s-%s" % (digest[:8], digest[8:12], digest[13:16], digest[17:20], digest[20:32]),
                       hash=digest, path=os.path.join(folder, name), bytes=status.st_size, mtime_ns=status.st_mtime_ns,
                       inode=status.st_ino)
            db.execute("INSERT INTO photos (%s) VALUES (%s)" % (", ".join(row), ", ".join("?" * len(row))), list(row.values()))
            for rendition in renditions:
                copy = {k: v for k, v in rendition.items() if k != "id"}
                linked = os.path.join(os.path.dirname(rendition["path"]), "f%07d.jpg" % index)
                # A file takes at most 65 000 links (ext4): a copy of the recorded one for each 50 000 copies.
                source = absolute(rendition["path"]) + ".%d" % (index // 50000)
                if not os.path.exists(source):
                    shutil.copyfile(absolute(rendition["path"]), source)
                os.link(source, absolute(linked))
                copy.update(photo=row["id"], path=linked, input_hash=digest)
                db.execute("INSERT INTO renditions (%s) VALUES (%s)" % (", ".join(copy), ", ".join("?" * len(copy))), list(copy.values()))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def make_library(album, root, count):
    os.makedirs(os.path.join(root, "photos"))
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=orange:s=64x48", "-frames:v", "1",
                    os.path.join(root, "photos", "a.jpg")], check=True)
    with open(os.path.join(root, "job.yml"), "w") as job:
        job.write("version: 1\nname: scale\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n")
    subprocess.run([album, "run", "job.yml"], cwd=root, check=True, capture_output=True)
    fill(os.path.join(root, "album", "catalogue.db"), count)


def measure(command, cwd):
    out = subprocess.run([sys.executable, "-c", PEAK] + command, cwd=cwd, check=True, capture_output=True, text=True).stdout.split()
    if out[2] != "0":
        raise SystemExit("%s exited %s" % (command, out[2]))
    return float(out[0]), int(out[1])


def change_one_percent(root, count, round_index):
    """Rewrites 1 % of the copies (a different 1 % each round) as the recorded 64x48 JPEG with a comment of its own
    (a COM segment after SOI), so each is a new photo to import and thumbnail."""
    with open(os.path.join(root, "photos", "a.jpg"), "rb") as original:
        jpeg = original.read()
    step = 100
    for index in range(round_index % step, count, step):
        path = os.path.join(root, "photos", "g%03d/f%07d.jpg" % (index // 1000, index))
        comment = b"scale photo %d changed in round %d" % (index, round_index)
        with open(path, "wb") as out:
            out.write(jpeg[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + jpeg[2:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("album")
    parser.add_argument("counts", nargs="+", type=int)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep")
    parser.add_argument("--compare")
    args = parser.parse_args()
    albums = {"album": os.path.abspath(args.album)}
    if args.compare:
        albums["other"] = os.path.abspath(args.compare)
    base = args.keep or tempfile.mkdtemp(prefix="album-scale-run-")
    for count in args.counts:
        root = os.path.join(base, str(count))
        if not os.path.exists(os.path.join(root, "album")):
            shutil.rmtree(root, ignore_errors=True)
            make_library(albums["album"], root, count)
        results = {}
        for round_index in range(args.rounds):
            order = list(albums.items()) if round_index % 2 == 0 else list(reversed(albums.items()))
            for label, album in order:
                for name, command in {"no-op run": [album, "run", "job.yml", "--quiet"], "plan": [album, "plan", "job.yml"]}.items():
                    results.setdefault((label, name), []).append(measure(command, root))
            results.setdefault(("python", "stat walk"), []).append(
                measure([sys.executable, "-c", WALK, os.path.join(root, "photos")], root))
            for label, album in order:
                change_one_percent(root, count, 1 + round_index * len(albums) + (0 if label == "album" else 1))
                results.setdefault((label, "1 % changed run"), []).append(measure([album, "run", "job.yml", "--quiet"], root))
        for (label, name), runs in results.items():
            print(json.dumps({"photos": count + 1, "binary": label, "command": name,
                              "seconds": round(statistics.median(r[0] for r in runs), 3),
                              "peak_rss_mb": round(statistics.median(r[1] for r in runs) / 1024, 1)}), flush=True)
    if not args.keep:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
