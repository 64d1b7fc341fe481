#!/usr/bin/env python3
"""Issue 34: what each catalogue command costs, in time and peak RSS, as the library grows.

    Benchmarks/scale_commands.py ALBUM N [N ...] [--rounds R] [--keep DIR] [--compare OTHER_ALBUM]

For each N, makes a library of N + 1 photos as scale_run.py does (tiny distinct files, each with a recorded
thumbnail, every photo `ok`), then, R rounds each, alternating the binaries when --compare is given, runs each
command below with GNU time (`/usr/bin/time -f '%e %M'`: elapsed seconds, peak RSS in KB) and prints one JSON line
per command and binary (medians). The commands change nothing on this library (prune and gc find nothing to do).
"""
import argparse, json, os, shutil, sqlite3, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scale_run  # noqa: E402


def commands(album, root):
    db = sqlite3.connect(os.path.join(root, "album", "catalogue.db"))
    photo = db.execute("SELECT id FROM photos ORDER BY id LIMIT 1").fetchone()[0]
    db.close()
    return {
        "ls --json": [album, "ls", "--json"],
        "verify --quick": [album, "verify", "--quick"],
        "verify --sample 100": [album, "verify", "--sample", "100", "--seed", "7"],
        "verify --sample 100 (seed drawn)": [album, "verify", "--sample", "100"],
        "prune --dry-run": [album, "prune", "--dry-run"],
        "prune": [album, "prune"],
        "gc --dry-run": [album, "gc", "--dry-run"],
        "gc": [album, "gc"],
        "runs": [album, "runs"],
        "runs --json": [album, "runs", "--json"],
        "show": [album, "show", photo[:12]],
        "check": [album, "check", "job.yml"],
        "report": [album, "report", "--out", "report.html"],
        "relocate --dry-run": [album, "relocate", "--from", os.path.join(root, "photos"), "--to", os.path.join(root, "elsewhere"), "--dry-run"],
    }


def measure(command, cwd):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + command, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    last = out.stderr.strip().splitlines()[-1].split()
    return float(last[0]), int(last[1]), out.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("album")
    parser.add_argument("counts", nargs="+", type=int)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep")
    parser.add_argument("--compare")
    parser.add_argument("--only", action="append")
    args = parser.parse_args()
    albums = {"album": os.path.abspath(args.album)}
    if args.compare:
        albums["other"] = os.path.abspath(args.compare)
    base = args.keep or tempfile.mkdtemp(prefix="album-scale-commands-")
    for count in args.counts:
        root = os.path.join(base, str(count))
        if not os.path.exists(os.path.join(root, "album")):
            shutil.rmtree(root, ignore_errors=True)
            scale_run.make_library(albums["album"], root, count)
        results = {}
        for round_index in range(args.rounds):
            order = list(albums.items()) if round_index % 2 == 0 else list(reversed(albums.items()))
            for label, album in order:
                for name, command in commands(album, root).items():
                    if args.only and name not in args.only:
                        continue
                    results.setdefault((name, label), []).append(measure(command, root))
        for (name, label), runs in results.items():
            print(json.dumps({"photos": count + 1, "binary": label, "command": name,
                              "seconds": round(statistics.median(r[0] for r in runs), 2),
                              "peak_rss_mb": round(statistics.median(r[1] for r in runs) / 1024, 1),
                              "exit": sorted(set(r[2] for r in runs))}), flush=True)
    if not args.keep:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
