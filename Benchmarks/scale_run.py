#!/usr/bin/env python3
"""Issue 34's scaling row: what a rerun, a listing, a plan and a verify cost as the library grows from 10^3 to 10^6
photos, beside a stat walk of the same files, and what the catalogue weighs.

    Benchmarks/scale_run.py [N ...] [--album [LABEL=]BINARY ...] [--rounds R] [--large-rounds R] [--deep-sample S]
                            [--work DIR] [--keep] [--fill-only] [--results FILE | --no-results]

N defaults to 1000 10000 100000 1000000; --album to .build/release/album, and may be given several times: the
binaries are measured side by side, alternating their order every round, each on its own copy of the same library
(photos hard-linked, `catalogue.db` copied, so a binary that migrates its catalogue does not touch another's).

For each N, makes a library of N + 1 photos cheaply (`scale_listing.fill`): `album run` records one 64x48 JPEG, its
import and thumbnail steps and its 32x32 thumbnail, then sqlite3 copies its rows for N tiny distinct files (1 000 a
folder) with their true stat and SHA-256, each with its step rows and a thumbnail row whose file is a hard link to the
recorded one and whose input is the copy's bytes, so a rerun finds every photo up to date (the no-op). Then R rounds
(--large-rounds at 10^6 and above), each binary: the no-op `album run job.yml --quiet`, `album ls --json`,
`album plan job.yml`, `album verify --quick` and the deep check (`album verify`; from 10^6 its sampled form,
`--sample S --seed 1`, timed per photo checked); a Python os.walk + os.stat of the photos folder (the floor: a look
at every file); then each binary's rerun after 1 % of its files were rewritten with new bytes (each round other
files: they are imported and thumbnailed). Each is timed with its peak RSS (getrusage(RUSAGE_CHILDREN) in a fresh
Python parent). The catalogue's size and each table's and index's bytes per photo (SQLite's dbstat) are read once,
after the fill.

Prints one JSON line per measurement (medians), keeps every row in WORK/results.json (by photos and binary, so sizes
measured in separate invocations add up), and writes the table from it as the section "## Libraries of 10³ to 10⁶
photos (issue 34)" of Benchmarks/RESULTS.md (or --results), in place: `make bench` and
`run.py --refresh-investigation` keep that section. Also `Benchmarks/run.py --only scale` (its --album, --rounds).
The libraries are deleted when their size is done unless --keep is given (at 10^6: about 2.3 GB of catalogue and
three million inodes); a kept library is reused (its next 1 % change takes other files). --fill-only makes the
libraries and stops: a 10^6 one (about 15 min on this machine) can be filled while a smaller size is measured,
though that slows the measurement. Before any measurement each binary imports an empty folder, untimed: the fill
wrote the database behind album's back, so the first writer checks it whole (quick_check) and records its stamp.
"""
import argparse, datetime, errno, json, os, shutil, sqlite3, statistics, subprocess, sys, time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import scale_listing  # noqa: E402
from scale_listing import PEAK, WALK  # noqa: E402

DEFAULT_COUNTS = [1000, 10000, 100000, 1000000]
LARGE = 1000000  # from this size on: --large-rounds rounds, and the deep check sampled
HEADING = "## Libraries of 10³ to 10⁶ photos (issue 34)"


def linked_thumbnail(catalogue, rendition, index, digest):
    """A copy's thumbnail row whose file is a hard link to the recorded one and whose input is the copy's bytes, so
    a rerun finds it up to date."""
    def absolute(path):
        return path if os.path.isabs(path) else os.path.join(catalogue, path)
    copy = {k: v for k, v in rendition.items() if k != "id"}
    linked = os.path.join(os.path.dirname(rendition["path"]), "f%07d.jpg" % index)
    # A file takes at most 65 000 links (ext4): a copy of the recorded one for each 50 000 copies.
    source = absolute(rendition["path"]) + ".%d" % (index // 50000)
    if not os.path.exists(source):
        shutil.copyfile(absolute(rendition["path"]), source)
    os.link(source, absolute(linked))
    copy.update(path=linked, input_hash=digest)
    return copy


def make_library(album, root, count):
    scale_listing.make_library(album, root, count, linked_thumbnail, with_steps=True)


def fill_only(album, base, count):
    """Makes the library of `count` photos where bench_size looks for it, and records how long that took."""
    seed = os.path.join(base, str(count), "seed")
    started = time.monotonic()
    make_library(album, seed, count)
    with open(os.path.join(seed, "fill-seconds"), "w") as f:
        f.write("%.1f\n" % (time.monotonic() - started))


def clone(seed, dest):
    """The seed library again for one binary: every file a hard link, except the catalogue's own files (its database,
    its lock, its checked stamp: each copy must lock alone), which are copied (the binary writes them; album writes a rendition or an original only by a new file renamed over).
    A file that has as many links as it takes (the thumbnails' few files) is copied once, and the copy linked on."""
    linked_to = {}
    for folder, dirs, names in os.walk(seed):
        target = os.path.join(dest, os.path.relpath(folder, seed))
        os.makedirs(target, exist_ok=True)
        for name in names:
            source, made = os.path.join(folder, name), os.path.join(target, name)
            if name.startswith("catalogue.") or os.path.islink(source):
                shutil.copy2(source, made, follow_symlinks=False)
                continue
            inode = os.stat(source).st_ino
            try:
                os.link(linked_to.get(inode, source), made)
            except OSError as error:
                if error.errno != errno.EMLINK:
                    raise
                shutil.copy2(source, made)
                linked_to[inode] = made


def measure(command, cwd, check=True):
    """(seconds, peak RSS in KiB, exit status) of one command in a fresh Python parent."""
    done = subprocess.run([sys.executable, "-c", PEAK] + command, cwd=cwd, capture_output=True, text=True)
    out = done.stdout.split()
    if done.returncode != 0 or len(out) != 3 or (check and out[2] != "0"):
        raise SystemExit("%s in %s exited %s: %s" % (" ".join(command), cwd, out[2:] or done.returncode, done.stderr[-2000:]))
    return float(out[0]), int(out[1]), int(out[2])


def change_one_percent(root, count, round_index):
    """Rewrites 1 % of the copies (a different 1 % each round) as the recorded 64x48 JPEG with a comment of its own
    (a COM segment after SOI), so each is a new photo to import and thumbnail. Each is a new file renamed over the
    old, so another binary's library, which shares the old file by a hard link, keeps it."""
    with open(os.path.join(root, "photos", "a.jpg"), "rb") as original:
        jpeg = original.read()
    step = 100
    for index in range(round_index % step, count, step):
        path = os.path.join(root, "photos", "g%03d/f%07d.jpg" % (index // 1000, index))
        comment = b"scale photo %d changed in round %d" % (index, round_index)
        with open(path + ".new", "wb") as out:
            out.write(jpeg[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + jpeg[2:])
        os.replace(path + ".new", path)


def next_change(root):
    """The number of the next 1 % change of this library (1, 2, …; kept in the library), so that a kept library's
    next invocation changes other files, and every binary's copy the same ones."""
    record = os.path.join(root, "changes-made")
    made = int(open(record).read()) if os.path.exists(record) else 0
    with open(record, "w") as f:
        f.write("%d\n" % (made + 1))
    return made + 1


def catalogue_size(root, photos):
    """The catalogue's file after a checkpoint, and its bytes a photo by table and index (dbstat)."""
    database = os.path.join(root, "album", "catalogue.db")
    db = sqlite3.connect(database)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return os.path.getsize(database), scale_listing.table_bytes(database, photos)


def parse_album(text):
    label, _, path = text.rpartition("=") if "=" in text else ("", "", text)
    path = os.path.abspath(path)
    if not label:
        # /work/wt-NAME/.build/release/album -> wt-NAME at the last commit that changed its sources, when it is a git
        # checkout (a commit of benchmarks or docs builds the same binary).
        tree = os.path.dirname(os.path.dirname(os.path.dirname(path))) if "/.build/" in path else os.path.dirname(path)
        label = os.path.basename(tree)
        commit = subprocess.run(["git", "-C", tree, "log", "-1", "--format=%h", "--", "Sources", "Package.swift"],
                                capture_output=True, text=True)
        if commit.returncode == 0:
            label += "@" + commit.stdout.strip()
    return label, path


def describe(label, path):
    built = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    return "%s: `%s`, built %s UTC (%s)" % (label, os.path.relpath(path, ROOT) if path.startswith(ROOT) else path,
                                           built.strftime("%Y-%m-%d %H:%M"), "; ".join(version))


def median_row(runs):
    return {"seconds": round(statistics.median(r[0] for r in runs), 3),
            "seconds_all": [round(r[0], 3) for r in runs],
            "peak_rss_mb": round(statistics.median(r[1] for r in runs) / 1024, 1),
            "status": sorted({r[2] for r in runs})}


def bench_size(albums, base, count, rounds, deep_sample, keep):
    """Measures one library size; returns its rows (one per binary) and the floor's."""
    seed = os.path.join(base, str(count), "seed")
    first = next(iter(albums.values()))
    started = time.monotonic()
    filled = not os.path.exists(os.path.join(seed, "album"))
    if filled:
        shutil.rmtree(seed, ignore_errors=True)
        print("filling %d photos" % count, file=sys.stderr, flush=True)
        make_library(first, seed, count)
    record = os.path.join(seed, "fill-seconds")
    if filled:
        with open(record, "w") as f:
            f.write("%.1f\n" % (time.monotonic() - started))
    fill_seconds = float(open(record).read()) if os.path.exists(record) else None
    size, tables = catalogue_size(seed, count + 1)
    roots = {label: seed for label in albums}
    for label in albums if len(albums) > 1 else []:
        roots[label] = os.path.join(base, str(count), label.replace("/", "_"))
        if not os.path.exists(os.path.join(roots[label], "album")):
            shutil.rmtree(roots[label], ignore_errors=True)
            clone(seed, roots[label])
    for label, album in albums.items():
        # The fill wrote the database behind album's back, so the first writer checks it whole (`quick_check`) and
        # records its stamp: done here, untimed, by importing an empty folder, so that no measurement pays it.
        empty = os.path.join(roots[label], "empty")
        os.makedirs(empty, exist_ok=True)
        settled = measure([album, "import", empty, "--catalogue", "album"], roots[label])
        print("%d photos: %s settled the catalogue in %.1f s, peak RSS %.0f MB" % (count, label, settled[0], settled[1] / 1024),
              file=sys.stderr, flush=True)
    sampled = count >= LARGE
    deep = ["verify", "--sample", str(deep_sample), "--seed", "1"] if sampled else ["verify"]
    commands = {"no-op run": ["run", "job.yml", "--quiet"], "ls --json": ["ls", "--json"], "plan": ["plan", "job.yml"],
                "verify --quick": ["verify", "--quick"], "deep verify": deep}
    results = {}
    floor_root = next(iter(roots.values()))
    for round_index in range(rounds):
        order = list(albums.items()) if round_index % 2 == 0 else list(reversed(albums.items()))
        for label, album in order:
            for name, arguments in commands.items():
                print("%d photos, round %d: %s %s" % (count, round_index + 1, label, name), file=sys.stderr, flush=True)
                # verify exits 1 when it finds a problem: its time counts, its status is kept and shown.
                results.setdefault((label, name), []).append(
                    measure([album] + arguments, roots[label], check="verify" not in name))
        results.setdefault(("floor", "stat walk"), []).append(
            measure([sys.executable, "-c", WALK, os.path.join(floor_root, "photos")], floor_root))
        for label, album in order:
            change_one_percent(roots[label], count, next_change(roots[label]))
            print("%d photos, round %d: %s 1 %% changed run" % (count, round_index + 1, label), file=sys.stderr, flush=True)
            results.setdefault((label, "1 % changed run"), []).append(measure([album, "run", "job.yml", "--quiet"], roots[label]))
    floor = median_row(results[("floor", "stat walk")])
    rows = []
    for label, album in albums.items():
        row = {"photos": count + 1, "binary": label, "path": album, "rounds": rounds,
               "measured": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
               "load": os.getloadavg()[0], "fill_seconds": fill_seconds and round(fill_seconds, 1), "catalogue_bytes": size,
               "bytes_per_photo": round(size / (count + 1)), "tables": tables, "stat_walk": floor,
               "deep_sample": deep_sample if sampled else None}
        for name in commands:
            row[name] = median_row(results[(label, name)])
        row["1 % changed run"] = median_row(results[(label, "1 % changed run")])
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "tables"}), flush=True)
    if not keep:
        shutil.rmtree(os.path.join(base, str(count)))
    return rows


def mb(value):
    return "%.0f MB" % value if value >= 10 else "%.1f MB" % value


def seconds(value):
    return "%.0f s" % value if value >= 100 else ("%.1f s" % value if value >= 10 else "%.2f s" % value)


def section(rows, command):
    """The RESULTS.md section from every stored row."""
    rows = sorted(rows, key=lambda r: (r["photos"], r["binary"]))
    lines = [HEADING, "",
             "Not written by `make bench` (which keeps this section as it is): `%s`, appending to the rows kept in its "
             "work folder's `results.json`. Libraries of N + 1 photos: N tiny distinct files (about 20 bytes, 1 000 a "
             "folder) and one recorded 64x48 JPEG, each photo with its import and thumbnail step rows and a recorded "
             "32x32 thumbnail (a hard link), made in SQL from the one recorded photo's rows (`scale_listing.fill`), so "
             "that the rerun is a no-op; the job imports and makes a 32x32 thumbnail, at album's default 2 workers. "
             "Medians of the rounds (one round at 10⁶), binaries alternating, each on its own copy of the library; "
             "peak RSS is `getrusage(RUSAGE_CHILDREN)` of a fresh parent. The floor is Python's `os.walk` + `os.stat` "
             "of the photos folder. The deep check is `album verify` in full, and from 10⁶ `album verify --sample S "
             "--seed 1` (its time, and the same per photo checked × N). The catalogue is `catalogue.db` after the "
             "fill, checkpointed. The 2-core machine is shared with other engineers' builds: read the ratios." % command,
             "",
             "| photos | album | no-op rerun | its peak RSS | `ls --json` | its RSS | `plan` | its RSS | 1 % changed | its RSS "
             "| `verify --quick` | its RSS | deep verify | its RSS | stat walk (floor) | no-op ÷ floor | catalogue | bytes a photo | rounds |",
             "|" + "---|" * 19]
    notes_of = {}
    for r in rows:
        def cell(name):
            m = r[name]
            flag = "" if m["status"] == [0] else " (exit %s)" % "/".join(str(s) for s in m["status"])
            return seconds(m["seconds"]) + flag, mb(m["peak_rss_mb"])
        deep = r["deep verify"]
        if r.get("deep_sample"):
            # Not per photo: the database-wide checks, which run in full whatever the sample, are in it.
            deep_text = "%s for a sample of %s%s" % (
                seconds(deep["seconds"]), format(r["deep_sample"], ",").replace(",", " "),
                "" if deep["status"] == [0] else " (exit %s)" % "/".join(str(s) for s in deep["status"]))
        else:
            deep_text = cell("deep verify")[0]
        noop, ls, plan, changed, quick = (cell(n) for n in ("no-op run", "ls --json", "plan", "1 % changed run", "verify --quick"))
        notes = notes_of.setdefault(r.get("note"), len(notes_of) + 1) if r.get("note") else None
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f× | %s | %s | %d |" % (
            format(r["photos"], ",").replace(",", " "), r["binary"] + (" (note %d)" % notes if notes else ""), noop[0], noop[1], ls[0], ls[1], plan[0], plan[1],
            changed[0], changed[1], quick[0], quick[1], deep_text, mb(deep["peak_rss_mb"]), seconds(r["stat_walk"]["seconds"]),
            r["no-op run"]["seconds"] / r["stat_walk"]["seconds"], mb(r["catalogue_bytes"] / 2 ** 20),
            format(r["bytes_per_photo"], ",").replace(",", " "), r["rounds"]))
    lines.append("")
    for note, number in notes_of.items():
        lines.append("Note %d: %s" % (number, note))
        lines.append("")
    seen = set()
    for r in sorted(rows, key=lambda r: (r["photos"], r["catalogue_bytes"])):
        if r["photos"] in seen:
            continue
        seen.add(r["photos"])
        top = sorted(r["tables"].items(), key=lambda kv: -kv[1])
        lines.append("- %s photos, bytes a photo by table and index (dbstat): %s; %s." % (
            format(r["photos"], ",").replace(",", " "), ", ".join("`%s` %d" % kv for kv in top if kv[1] >= 5),
            "filled in " + seconds(r["fill_seconds"]) if r["fill_seconds"] else "a kept library"))
    lines.append("")
    binaries = {}
    for r in rows:
        binaries.setdefault(r["binary"], (r["path"], []))[1].append("%s at %s UTC (load %.1f)" % (
            format(r["photos"], ",").replace(",", " "), r["measured"], r["load"]))
    for label, (path, when) in sorted(binaries.items()):
        described = describe(label, path) if os.path.exists(path) else "%s: `%s`" % (label, path)
        lines.append("- %s; measured: %s." % (described, "; ".join(when)))
    return "\n".join(lines) + "\n"


def replace_section(text, body):
    """`text` (a RESULTS.md) with this section replaced by `body`, or inserted before its exact commands, or its
    investigation, or at the end."""
    if HEADING in text:
        start = text.index(HEADING)
        end = text.find("\n## ", start + len(HEADING))
        return text[:start] + body + ("\n" + text[end + 1:] if end >= 0 else "")
    for marker in ("## Exact commands", "## Investigation:"):
        if marker in text:
            at = text.index(marker)
            return text[:at] + body + "\n" + text[at:]
    return text.rstrip("\n") + "\n\n" + body


def kept_section(results):
    """This section of an existing results file (for run.py, which rewrites the file): '' when it has none."""
    if not os.path.exists(results):
        return ""
    with open(results) as f:
        text = f.read()
    if HEADING not in text:
        return ""
    start = text.index(HEADING)
    end = text.find("\n## ", start + len(HEADING))
    return text[start:end] if end >= 0 else text[start:]


def write_results(results, rows, command):
    text = open(results).read() if os.path.exists(results) else "# Benchmark results\n"
    with open(results, "w") as f:
        f.write(replace_section(text, section(rows, command)))
    print("written: %s" % results, file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("counts", nargs="*", type=int, default=DEFAULT_COUNTS)
    parser.add_argument("--album", action="append", metavar="[LABEL=]BINARY",
                        help="an album binary (several: side by side, alternating); default .build/release/album")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--large-rounds", type=int, default=1, help="rounds from 10^6 photos on (default 1)")
    parser.add_argument("--deep-sample", type=int, default=100000, help="photos the deep check takes from 10^6 on")
    parser.add_argument("--work", default=os.path.join(BENCH, "work", "scale"))
    parser.add_argument("--keep", action="store_true", help="keep the libraries (a second invocation reuses them)")
    parser.add_argument("--results", default=os.path.join(BENCH, "RESULTS.md"))
    parser.add_argument("--no-results", action="store_true", help="print only; write no results file")
    parser.add_argument("--note", help="a note on this invocation's rows, printed under the table")
    parser.add_argument("--fill-only", action="store_true",
                        help="only make the libraries (kept for a later invocation, which reuses them): a large one "
                             "can be filled while a smaller one is measured")
    args = parser.parse_args(argv)
    albums = dict(parse_album(a) for a in (args.album or [os.path.join(ROOT, ".build", "release", "album")]))
    if args.fill_only:
        for count in args.counts:
            fill_only(next(iter(albums.values())), os.path.abspath(args.work), count)
        return
    os.makedirs(args.work, exist_ok=True)
    store = os.path.join(args.work, "results.json")
    stored = json.load(open(store)) if os.path.exists(store) else []
    command = "Benchmarks/scale_run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    for count in args.counts:
        rounds = args.large_rounds if count >= LARGE else args.rounds
        rows = bench_size(albums, os.path.abspath(args.work), count, rounds, args.deep_sample, args.keep)
        for row in rows:
            row["note"] = args.note
        stored = [r for r in stored if (r["photos"], r["binary"]) not in {(x["photos"], x["binary"]) for x in rows}] + rows
        with open(store, "w") as f:
            json.dump(stored, f, indent=1)
        if not args.no_results:
            write_results(os.path.abspath(args.results), stored, command)


if __name__ == "__main__":
    main()
