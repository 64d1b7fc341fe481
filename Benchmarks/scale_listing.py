#!/usr/bin/env python3
"""Issue 34: what listing a catalogue costs as the library grows, beside a stat walk of the same files.

    Benchmarks/scale_listing.py ALBUM N [N ...] [--rounds R] [--keep DIR]

For each N, makes a catalogue of N + 1 photos cheaply (the way ScaleMemoryTests does): `album run` records one
photo and its thumbnail, then sqlite3 copies its rows for N tiny distinct files with their true stat and SHA-256,
so every photo is `ok`. Then, R rounds each: `album ls -q`, `album ls --json` and a Python os.walk + os.stat of the
photos folder (the floor: a look at every file), each timed and its peak RSS read with getrusage(RUSAGE_CHILDREN)
in a fresh Python parent. Prints one JSON line per measurement (medians), then each table's bytes per photo
(SQLite's dbstat). No rendering is measured: only the catalogue's side.
"""
import argparse, hashlib, json, os, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

FILL_COLUMNS_SKIPPED = {"id"}


def listed_rendition(catalogue, rendition, index, digest):
    """A copy's rendition row for listing: the recorded one's, with a path of its own (no file behind it)."""
    copy = {k: v for k, v in rendition.items() if k not in FILL_COLUMNS_SKIPPED}
    copy.update(path="thumbs/f%07d.jpg" % index)
    return copy


def fill(database, count, rendition_row=listed_rendition, with_steps=False):
    """Copies the one recorded photo's rows for `count` tiny distinct files, each rendition by `rendition_row`
    (catalogue folder, the recorded rendition, the copy's index, its SHA-256) -> the copy's row without `photo`;
    with `with_steps`, also the recorded photo's step rows of its first run (its path and input hash the copy's), as
    a library after one run holds them."""
    catalogue = os.path.dirname(database)
    photos = os.path.join(os.path.dirname(catalogue), "photos")
    db = sqlite3.connect(database)
    # The copies' ids and hashes land all over the indexes: a page cache that holds them all (2.4 KB a photo) keeps
    # 10^6 inserts from spilling pages to the log over and over.
    db.execute("PRAGMA cache_size = %d" % -max(2000, count * 3))
    columns = [row[1] for row in db.execute("PRAGMA table_info(photos)")]
    template = dict(zip(columns, db.execute("SELECT * FROM photos").fetchone()))
    kinds = [row[1] for row in db.execute("PRAGMA table_info(renditions)")]
    renditions = [dict(zip(kinds, row)) for row in db.execute("SELECT * FROM renditions WHERE photo = ?", (template["id"],))]
    folder = os.path.dirname(template["path"])
    steps = []
    if with_steps:
        names = [row[1] for row in db.execute("PRAGMA table_info(steps)")]
        steps = [{k: v for k, v in zip(names, row) if k != "id"}
                 for row in db.execute("SELECT * FROM steps WHERE photo = ?", (template["id"],))]
    with db:
        for index in range(count):
            name = "g%03d/f%07d.jpg" % (index // 1000, index)
            path = os.path.join(photos, name)
            if index % 1000 == 0:
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
                copy = dict(rendition_row(catalogue, rendition, index, digest), photo=row["id"])
                db.execute("INSERT INTO renditions (%s) VALUES (%s)" % (", ".join(copy), ", ".join("?" * len(copy))), list(copy.values()))
            for step in steps:
                copy = dict(step, photo=row["id"], path=row["path"], input_hash=digest)
                db.execute("INSERT INTO steps (%s) VALUES (%s)" % (", ".join(copy), ", ".join("?" * len(copy))), list(copy.values()))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def make_library(album, root, count, rendition_row=listed_rendition, with_steps=False):
    os.makedirs(os.path.join(root, "photos"))
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=orange:s=64x48", "-frames:v", "1",
                    os.path.join(root, "photos", "a.jpg")], check=True)
    with open(os.path.join(root, "job.yml"), "w") as job:
        job.write("version: 1\nname: scale\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n")
    subprocess.run([album, "run", "job.yml"], cwd=root, check=True, capture_output=True)
    fill(os.path.join(root, "album", "catalogue.db"), count, rendition_row, with_steps)


PEAK = ("import resource, subprocess, sys, time\n"
        "start = time.monotonic()\n"
        "status = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "print(time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)\n")
WALK = ("import os, sys\n"
        "n = 0\n"
        "for folder, _, names in os.walk(sys.argv[1]):\n"
        "    for name in names:\n"
        "        s = os.stat(os.path.join(folder, name)); n += 1\n")


def measure(command, cwd):
    out = subprocess.run([sys.executable, "-c", PEAK] + command, cwd=cwd, check=True, capture_output=True, text=True).stdout.split()
    if out[2] != "0":
        raise SystemExit("%s exited %s" % (command, out[2]))
    return float(out[0]), int(out[1])


def table_bytes(database, photos):
    db = sqlite3.connect("file:%s?immutable=1" % database, uri=True)
    rows = db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
    return {name: round(size / photos) for name, size in rows}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("album")
    parser.add_argument("counts", nargs="+", type=int)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep")
    args = parser.parse_args()
    album = os.path.abspath(args.album)
    base = args.keep or tempfile.mkdtemp(prefix="album-scale-")
    for count in args.counts:
        root = os.path.join(base, str(count))
        if not os.path.exists(os.path.join(root, "album")):
            shutil.rmtree(root, ignore_errors=True)
            make_library(album, root, count)
        commands = {"ls -q": [album, "ls", "-q"], "ls --json": [album, "ls", "--json"],
                    "stat walk": [sys.executable, "-c", WALK, os.path.join(root, "photos")]}
        for name, command in commands.items():
            runs = [measure(command, root) for _ in range(args.rounds)]
            print(json.dumps({"photos": count + 1, "command": name, "seconds": round(statistics.median(r[0] for r in runs), 3),
                              "peak_rss_mb": round(statistics.median(r[1] for r in runs) / 1024, 1)}))
        database = os.path.join(root, "album", "catalogue.db")
        print(json.dumps({"photos": count + 1, "catalogue_bytes": os.path.getsize(database),
                          "bytes_per_photo": table_bytes(database, count + 1)}))
    if not args.keep:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
