#!/usr/bin/env python3
"""What album's pre-write check (`PRAGMA quick_check`) costs on catalogues of 10 000 and 100 000 photos.

Each catalogue is made by `album import` (so its schema is album's own), then filled by SQL with rows shaped like
album's: per photo one photos row, a thumbnail and an export rendition, and RUNS runs of three steps (import,
thumbnail, export) with album's parameter JSON and hashes. Then, on a warm page cache, it times a connection that
opens the file and runs quick_check (what every writing command now does first), and integrity_check for
comparison, with the same SQLite library album links (Python's sqlite3 module, checked to be the same version).
Then it times `album import` of an empty folder three times: the first writer after the SQL fill finds no stamp
and checks in full; the next ones find the file as the last writer left it (`catalogue.checked`) and skip it.

    python3 Benchmarks/quick_check_cost.py [--album .build/release/album] [--photos 10000 100000] [--runs 3]
"""
import argparse, hashlib, os, sqlite3, statistics, subprocess, tempfile, time, uuid

def build(album, folder, photos, runs):
    empty = os.path.join(folder, "empty")
    os.makedirs(empty)
    catalogue = os.path.join(folder, "album")
    subprocess.run([album, "import", empty, "--catalogue", catalogue], check=True, capture_output=True)
    db = sqlite3.connect(os.path.join(catalogue, "catalogue.db"))
    db.execute("PRAGMA synchronous = OFF")
    h = lambda s: hashlib.sha256(s.encode()).hexdigest()
    ids = [str(uuid.UUID(int=i + 1)).upper() for i in range(photos)]
    with db:
        for r in range(runs):
            db.execute("INSERT INTO runs (job, job_path, job_hash, started, finished, status, counts, album_version, vips_version, sqlite_version, host) "
                       "VALUES ('photos', '/home/me/jobs/photos.yml', ?, '2026-11-30T08:40:00.123Z', '2026-11-30T09:40:00.123Z', 'ok', "
                       "'{\"import\":{\"done\":1}}', '0.9.0', '8.14.1', '3.40.1', 'host')", (h(str(r)),))
        db.executemany("INSERT INTO photos (id, hash, path, bytes, mtime_ns, inode, width, height, format, taken, added, camera) "
                       "VALUES (?, ?, ?, 4123456, 1700000000123456789, ?, 4032, 3024, 'jpeg', '2023-07-14T10:11:12', '2026-11-30T08:40:01.000Z', 'Canon EOS R6')",
                       ((pid, h(pid), f"/home/me/Pictures/2023/07/IMG_{i:06d}.JPG", 1000 + i) for i, pid in enumerate(ids)))
        params = h("params")
        db.executemany("INSERT INTO renditions (photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes, run) VALUES (?,?,?,?,?,?,?,?,?,1)",
                       ((pid, kind, params, h(pid), f"/home/me/album/thumbnails/{pid[:2]}/{pid}-{params[:8]}-{h(pid)[:8]}.jpg" if kind == "thumbnail"
                         else f"/home/me/export/2023/IMG_{i:06d}.jpg", h(kind + pid), 256, 192, 14000)
                        for i, pid in enumerate(ids) for kind in ("thumbnail", "export")))
        stage_params = {"import": '{"from":"/home/me/Pictures","mode":"reference","fail-on":"error","max-pixels":100}',
                        "thumbnail": '{"size":"256x256","fit":"inside","format":"jpeg","quality":80,"strip":true}',
                        "export": '{"from":"image","to":"/home/me/export/{taken:%Y}/{name}.jpg","format":"jpeg","quality":90,"if-exists":"replace"}'}
        for r in range(runs):
            db.executemany("INSERT INTO steps (run, photo, path, stage, params, input_hash, output_hash, ms, status, error, at) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, 12.5, ?, NULL, '2026-11-30T08:40:02.000Z')",
                           ((r + 1, pid, f"/home/me/Pictures/2023/07/IMG_{i:06d}.JPG", stage, stage_params[stage], h(pid), h(stage + pid),
                             "done" if r == 0 else "skipped") for i, pid in enumerate(ids) for stage in ("import", "thumbnail", "export")))
    db.close()
    return os.path.join(catalogue, "catalogue.db")

def timed(path, pragma, rounds):
    seconds = []
    for _ in range(rounds):
        start = time.perf_counter()
        db = sqlite3.connect(path)
        result = db.execute(pragma).fetchall()
        db.close()
        seconds.append(time.perf_counter() - start)
        assert result == [("ok",)], result
    return statistics.median(seconds), min(seconds), max(seconds)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--album", default=".build/release/album")
    parser.add_argument("--photos", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"SQLite {sqlite3.sqlite_version}; {args.runs} runs of 3 steps per photo; median (min-max) of {args.rounds}, warm page cache")
    print("| photos | steps rows | file MB | quick_check s | integrity_check s | album import of nothing: 1st (full check), 2nd, 3rd (stamp) s |")
    print("|---|---|---|---|---|---|")
    for photos in args.photos:
        with tempfile.TemporaryDirectory() as folder:
            path = build(os.path.abspath(args.album), folder, photos, args.runs)
            timed(path, "PRAGMA quick_check", 1)  # warm the page cache
            quick = timed(path, "PRAGMA quick_check", args.rounds)
            full = timed(path, "PRAGMA integrity_check", args.rounds)
            size = os.path.getsize(path) / 1e6
            imports = []
            for _ in range(3):
                start = time.perf_counter()
                subprocess.run([os.path.abspath(args.album), "import", os.path.join(folder, "empty"), "--catalogue",
                                os.path.dirname(path)], check=True, capture_output=True)
                imports.append(time.perf_counter() - start)
            print(f"| {photos} | {photos * 3 * args.runs} | {size:.0f} | {quick[0]:.3f} ({quick[1]:.3f}-{quick[2]:.3f}) | {full[0]:.3f} ({full[1]:.3f}-{full[2]:.3f}) | "
                  + ", ".join(f"{t:.2f}" for t in imports) + " |", flush=True)

if __name__ == "__main__":
    main()
