#!/usr/bin/python3
"""The power-loss test (issue 30, `make test-power`): album's catalogue and exports on powerfs, cut at random moments.

    /usr/bin/python3 tools/powercut/powercut.py ALBUM [--cuts N] [--seed S] [--no-xattr] [--keep]

powerfs (powerfs.py beside this file) keeps only what was fsynced; a cut freezes it, album is killed with SIGKILL, and
the file system is mounted again as the power cut left it. Half the cuts land in a first run (sepia), half in a rerun
that replaces every export with another look (noir) after a complete sepia run. After each cut:

- every `done` step event album printed has its row;
- every rendition row describes the bytes at its path, or `album verify` lists it as a file the cut run was writing;
- no export from the completed run is lost: each export holds its sepia bytes or its noir bytes, whole;
- the rerun exits 0, `album verify` then exits 0, and `album gc JOB` leaves no temporary file;
- no export root holds a zero-byte or torn file.

Before the cuts: a complete run, then a cut right after it reports success, loses nothing (verify 0, every file).
Without /dev/fuse or fusermount3 the test says so and is skipped (exit 0, "SKIPPED: …" on stdout). --no-xattr runs
it on a file system without extended attributes, where album's export tags are not kept.
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = 16


def skip(reason):
    print(f"SKIPPED: the power-loss test cannot run here: {reason}")
    sys.exit(0)


class Failure(Exception):
    pass


def fail(message, context):
    raise Failure(f"FAIL ({context}): {message}")


def make_photos(folder, seed):
    from PIL import Image, ImageDraw, ImageFilter
    rng = random.Random(seed)
    os.makedirs(folder)
    for i in range(PHOTOS):
        size = (1200, 900)
        image = Image.new("RGB", size)
        draw = ImageDraw.Draw(image)
        for y in range(0, size[1], 6):
            draw.rectangle([0, y, size[0], y + 6], fill=(rng.randrange(256), (y * 255) // size[1], rng.randrange(256)))
        for _ in range(60):
            x, y = rng.randrange(size[0]), rng.randrange(size[1])
            draw.ellipse([x, y, x + rng.randrange(20, 200), y + rng.randrange(20, 200)],
                         fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        image = image.filter(ImageFilter.GaussianBlur(1.5))
        image.save(os.path.join(folder, f"p{i:03d}.jpg"), quality=88)


# How long one album command may take before the test calls it hung: far beyond a slow run of 16 photos.
RUN_TIMEOUT = 600


class Mount:
    """One powerfs process serving STATE at MOUNTPOINT."""

    def __init__(self, state, point, xattrs):
        self.state, self.point = state, point
        os.makedirs(point, exist_ok=True)
        for stale in (state + ".cut",):
            if os.path.exists(stale):
                os.remove(stale)
        args = [sys.executable, os.path.join(HERE, "powerfs.py"), state, point] + ([] if xattrs else ["--no-xattr"])
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=open(state + ".log", "a"))
        # Bounds for a layer that failed, never for a slow one (Python, trio and pyfuse3 starting on a loaded
        # 2-core machine): each wait ends as soon as its condition holds.
        for _ in range(1200):
            if os.path.ismount(point):
                return
            if self.process.poll() is not None:
                fail(f"powerfs did not start (exit {self.process.returncode}; {state}.log)", "mount")
            time.sleep(0.05)
        fail("powerfs did not mount within 60 s", "mount")

    def cut(self):
        """The power cut: powerfs freezes and writes what survives; then it and the mount go."""
        self.process.send_signal(signal.SIGUSR1)
        for _ in range(2400):
            if os.path.exists(self.state + ".cut"):
                return
            time.sleep(0.025)
        fail("powerfs did not acknowledge the cut within 60 s", "cut")

    def stop(self):
        if self.process.poll() is not None and not os.path.ismount(self.point):
            return
        self.process.kill()
        self.process.wait()
        subprocess.run(["fusermount3", "-u", "-z", self.point], stderr=subprocess.DEVNULL)
        for _ in range(200):
            if not os.path.ismount(self.point):
                return
            time.sleep(0.05)


class Run:
    """album running a job, its stdout (JSON events) read as it comes."""

    def __init__(self, album, job, preset, extra=()):
        self.lines = []
        self.process = subprocess.Popen([album, "run", job, "--set", f"LOOK={preset}", "-j", "2", "--log-format", "json", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.stderr = b""
        threading.Thread(target=self.read_stderr, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.append(line.decode())

    def read_stderr(self):
        self.stderr = self.process.stderr.read()

    def kill(self):
        """SIGKILL, not waited for: a request powerfs holds keeps album until the mount goes (`Mount.stop`)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def reap(self):
        self.wait()
        self.reader.join(5)

    def finish(self):
        self.wait()
        self.reader.join(30)
        return self.process.returncode

    def wait(self):
        """Waits for album; a run that hangs (a wedged FUSE request) fails the test instead of hanging CI."""
        try:
            self.process.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            self.process.wait()
            fail(f"album did not end within {RUN_TIMEOUT} s; its stderr: {self.stderr.decode(errors='replace')[-2000:]}", "run")

    def done_steps(self):
        done = []
        for line in self.lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue  # the line the kill cut short
            if event.get("event") == "step" and event.get("status") in ("done", "failed"):
                done.append((event["run"], event["stage"], event["path"], event["status"]))
        return done


def album(binary, *args):
    try:
        result = subprocess.run([binary, *args], capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired as expired:
        fail(f"album {' '.join(args)} did not end within {RUN_TIMEOUT} s; its stderr: {expired.stderr}", "album")
    return result.returncode, result.stdout, result.stderr


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def export_files(out):
    found = {}
    for folder, _, names in os.walk(out):
        for name in names:
            found[os.path.join(folder, name)] = os.path.getsize(os.path.join(folder, name))
    return found


def whole_jpeg(path):
    from PIL import Image
    try:
        with Image.open(path) as image:
            image.load()
        with open(path, "rb") as f:
            data = f.read()
        return data.endswith(b"\xff\xd9")
    except Exception:
        return False


def rows(catalogue):
    """The committed step rows and rendition rows, read-only. A cut before the first run's schema was durable leaves
    a database with no tables (its file made, the commit that created them taken back): no rows."""
    # Read from a copy (the database, its log and index), so that SQLite's recovery of the log, which even a reader
    # makes when the index is missing, never changes what the cut left for album to find.
    copy = tempfile.mkdtemp(prefix="album-powercut-rows-")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{catalogue}/catalogue.db{suffix}"):
            shutil.copyfile(f"{catalogue}/catalogue.db{suffix}", f"{copy}/catalogue.db{suffix}")
    database = sqlite3.connect(f"{copy}/catalogue.db")
    try:
        tables = {name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"steps", "renditions"} <= tables:
            return set(), []
        steps = set(database.execute("SELECT run, stage, path, status FROM steps"))
        renditions = list(database.execute("SELECT path, file_hash, bytes, kind FROM renditions"))
    finally:
        database.close()
        shutil.rmtree(copy, ignore_errors=True)
    return steps, renditions


class Trial:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.point = os.path.join(work, "mnt")
        self.job = os.path.join(work, "job.yml")
        self.catalogue = os.path.join(self.point, "album")
        self.out = os.path.join(self.point, "out")

    def write_job(self):
        with open(self.job, "w") as f:
            f.write(f"""version: 1
name: powercut
catalogue: {self.catalogue}
vars:
  LOOK: sepia
stages:
  - import: {{from: {self.work}/src}}
  - filter: {{preset: "${{LOOK}}"}}
  - thumbnail: {{size: 160x160}}
  - export:
      to: {self.out}/{{name}}.jpg
      max-size: 800
      quality: 85
""")

    def check_after_cut(self, run, state_before, context):
        """The checks of issue 30's 'Done when', on the file system as the cut left it."""
        if not os.path.exists(os.path.join(self.catalogue, "catalogue.db")):
            if run.done_steps():
                fail("done events were printed, and the cut left no catalogue", context)
            return {}
        steps, renditions = rows(self.catalogue)
        missing = [s for s in run.done_steps() if s not in steps]
        if missing:
            fail(f"{len(missing)} done events have no row after the cut, e.g. {missing[0]}", context)
        code, verified, err = album(self.args.album, "verify", "-c", self.catalogue, "--json")
        report = json.loads(verified) if verified.strip() else {"problems": [], "unfinished": []}
        listed = {p["path"] for p in report.get("unfinished", [])}
        for path, file_hash, size, kind in renditions:
            full = path if path.startswith("/") else os.path.normpath(os.path.join(self.catalogue, path))
            describes = os.path.isfile(full) and os.path.getsize(full) == size and sha(full) == file_hash
            if not describes and full not in listed:
                fail(f"the {kind} row of {full} does not describe the bytes there, and verify does not list it", context)
        for problem in report["problems"]:
            fail(f"verify right after the cut: {problem['path']}: {problem['message']}", context)
        if code != 0:
            fail(f"verify right after the cut exited {code}: {err}", context)
        now = {}
        for path, size in export_files(self.out).items():
            if os.path.basename(path).startswith("."):
                continue  # album's temporary files: gc's (checked after the rerun)
            if size == 0 or not whole_jpeg(path):
                fail(f"{path} is zero-byte or torn after the cut ({size} bytes)", context)
            now[path] = sha(path)
        for path, digest in state_before.items():
            if path not in now:
                fail(f"{path}, exported by the completed run, is gone after the cut", context)
        return now

    def check_repaired(self, preset, context):
        rerun = Run(self.args.album, self.job, preset)
        code = rerun.finish()
        if code != 0:
            fail(f"the rerun after the cut exited {code}: {rerun.stderr.decode()[-800:]}", context)
        code, verified, err = album(self.args.album, "gc", self.job, "--set", f"LOOK={preset}")
        if code != 0:
            fail(f"gc after the rerun exited {code}: {err}", context)
        code, verified, err = album(self.args.album, "verify", "-c", self.catalogue)
        if code != 0:
            fail(f"verify after the rerun exited {code}: {verified}{err}", context)
        files = export_files(self.out)
        names = sorted(os.path.basename(p) for p in files)
        if names != [f"p{i:03d}.jpg" for i in range(PHOTOS)]:
            fail(f"after the rerun and gc the export root holds {names}", context)
        for path, size in files.items():
            if size == 0 or not whole_jpeg(path):
                fail(f"{path} is zero-byte or torn after the rerun", context)
        return {p: sha(p) for p in files}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("album")
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-xattr", action="store_true")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--keep-going", action="store_true", help="count failed cuts instead of stopping at the first")
    args = parser.parse_args()
    args.album = os.path.abspath(args.album)
    if not os.path.exists("/dev/fuse"):
        skip("/dev/fuse does not exist (no FUSE in this machine or container)")
    if shutil.which("fusermount3") is None:
        skip("fusermount3 is not installed (Debian package fuse3)")
    try:
        import pyfuse3  # noqa: F401
    except ImportError:
        skip("Python's pyfuse3 is missing (Debian package python3-pyfuse3)")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="album-powercut-")
    started = time.monotonic()
    print(f"power-loss test: {args.cuts} cuts, seed {seed}{', no xattrs' if args.no_xattr else ''}, in {work}", flush=True)
    trial = Trial(args, work)
    make_photos(os.path.join(work, "src"), seed)
    trial.write_job()
    xattrs = not args.no_xattr
    state = os.path.join(work, "state")

    failures = 0
    mount = None
    try:
        mount, span, sepia = base(trial, args, state, xattrs)
        mount = None
        for number in range(args.cuts):
            try:
                mount = cut_once(trial, args, state, xattrs, rng, seed, number, span, sepia)
                mount = None
            except Failure as failure:
                print(failure, flush=True)
                failures += 1
                if not args.keep_going:
                    raise
            finally:
                if mount is not None:
                    mount.stop()
                    mount = None
    except Failure as failure:
        if not args.keep_going or failures == 0:
            print(failure, flush=True)
        print(f"power-loss test FAILED (seed {seed}; files kept in {work})")
        sys.exit(1)
    finally:
        if mount is not None:
            mount.stop()
    if failures:
        print(f"power-loss test FAILED: {failures} of {args.cuts} cuts (seed {seed}; files kept in {work})")
        sys.exit(1)
    if not args.keep:
        shutil.rmtree(work)
    print(f"power-loss test: {args.cuts} cuts, every check held ({time.monotonic() - started:.0f} s, seed {seed})")


def base(trial, args, state, xattrs):
    """A complete sepia run, then a cut right after it reports success: nothing is lost."""
    mount = Mount(state, trial.point, xattrs)
    try:
        began = time.monotonic()
        run = Run(args.album, trial.job, "sepia")
        if run.finish() != 0:
            fail(f"the first complete run exited {run.process.returncode}: {run.stderr.decode()[-800:]}", "base")
        span = time.monotonic() - began
        sepia = {p: sha(p) for p in export_files(trial.out)}
        mount.cut()
        mount.stop()
        mount = Mount(state, trial.point, xattrs)
        if {p: sha(p) for p in export_files(trial.out)} != sepia or len(sepia) != PHOTOS:
            fail("a cut right after a run reported success lost exports", "cut after success")
        trial.check_after_cut(run, sepia, "cut after success")
        code, verified, err = album(args.album, "verify", "-c", trial.catalogue)
        if code != 0:
            fail(f"verify after a cut right after success exited {code}: {verified}{err}", "cut after success")
    finally:
        mount.stop()
    shutil.copy(state, state + ".sepia")
    print(f"  a complete run ({span:.1f} s) and a cut right after it: nothing lost", flush=True)
    return None, span, sepia


def cut_once(trial, args, state, xattrs, rng, seed, number, span, sepia):
    """One cut at a random moment of a first run (even numbers) or of a noir rerun over sepia (odd ones)."""
    rerun = number % 2 == 1
    if rerun:
        shutil.copy(state + ".sepia", state)
    elif os.path.exists(state):
        os.remove(state)
    mount = Mount(state, trial.point, xattrs)
    try:
        preset = "noir" if rerun else "sepia"
        delay = rng.uniform(0.05, span * 1.1)
        context = f"cut {number + 1}, {'rerun (noir over sepia)' if rerun else 'first run'}, {delay:.2f} s in, seed {seed}"
        run = Run(args.album, trial.job, preset)
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline and run.process.poll() is None:
            time.sleep(0.01)
        mount.cut()
        run.kill()
        mount.stop()
        run.reap()
        mount = Mount(state, trial.point, xattrs)
        before = trial.check_after_cut(run, sepia if rerun else {}, context)
        after = trial.check_repaired(preset, context)
        if rerun:
            for path, digest in before.items():
                if digest not in (sepia.get(path), after.get(path)):
                    fail(f"{path} held neither its sepia bytes nor its noir bytes after the cut", context)
    finally:
        mount.stop()
    kind = "rerun" if rerun else "first run"
    print(f"  cut {number + 1:2d}: {kind:9s} at {delay:4.2f} s, {len(run.done_steps()):3d} done events, "
          f"sound after the cut, repaired by the rerun", flush=True)
    return None


if __name__ == "__main__":
    main()
