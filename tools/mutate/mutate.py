#!/usr/bin/env python3
"""album's mutation check: does the test suite catch the regressions it claims to guard against?

Each mutation in tools/mutate/mutations/*.json is one small edit to one product file, with the tests
expected to catch it. This script copies the repository (its tracked and untracked-but-not-ignored
files, as they are in the working tree, uncommitted changes included) into a scratch folder, builds
it once, runs each catcher once unmutated (the baseline: a catcher that already fails proves
nothing), then for each mutation: applies it, rebuilds incrementally, runs its catchers, and
restores the file. It prints a Markdown table and exits 1 unless every mutation was caught.

It never writes to the checkout it is run from: every write goes through `ScratchCopy.write`,
which refuses any path outside the scratch folder, and the scratch folder may not be inside the
checkout. See tools/mutate/README.md.

usage: tools/mutate/mutate.py [--only ID]... [--list] [--keep] [--scratch DIR]
                              [--timeout SECONDS] [--repeat N] [--no-baseline]
Standard library only (Debian's python3).
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MUTATIONS = os.path.join(ROOT, "tools", "mutate", "mutations")
SWIFT = os.environ.get("SWIFT", "swift")
KEYS = {"id", "file", "find", "replace", "catchers", "why"}
MANIFEST = ".mutate-manifest"


class Interrupted(Exception):
    """Ctrl-C, SIGTERM or SIGHUP: stop after restoring the mutated file."""


def on_signal(number, _frame):
    raise Interrupted(signal.Signals(number).name)


def say(message):
    """Progress goes to stderr; stdout carries only the table and the summary."""
    print(message, file=sys.stderr, flush=True)


# --- the mutation list -------------------------------------------------------------------------

def load_mutations():
    """Every mutation of every list file, checked for shape; exits 2 naming the file and entry at fault."""
    mutations, problems, seen = [], [], {}
    for path in sorted(glob.glob(os.path.join(MUTATIONS, "*.json"))):
        name = os.path.basename(path)
        try:
            with open(path, encoding="utf-8") as handle:
                entries = json.load(handle)
        except (OSError, ValueError) as error:
            problems.append(f"{name}: not readable JSON: {error}")
            continue
        if not isinstance(entries, list):
            problems.append(f"{name}: must be a JSON array of mutations")
            continue
        for index, entry in enumerate(entries):
            where = f"{name} entry {index + 1}"
            if not isinstance(entry, dict):
                problems.append(f"{where}: must be an object")
                continue
            missing = KEYS - entry.keys()
            if missing:
                problems.append(f"{where} ({entry.get('id', 'no id')}): missing {', '.join(sorted(missing))}")
                continue
            unknown = entry.keys() - KEYS
            if unknown:
                say(f"warning: {where} ({entry['id']}): ignoring unknown keys {', '.join(sorted(unknown))}")
            if not all(isinstance(entry[k], str) and entry[k] for k in ("id", "file", "find", "why")) \
                    or not isinstance(entry["replace"], str):
                problems.append(f"{where} ({entry['id']}): id, file, find and why must be non-empty strings,"
                                " replace a string")
                continue
            catchers = entry["catchers"]
            if not isinstance(catchers, list) or not catchers or not all(isinstance(c, str) and c for c in catchers):
                problems.append(f"{where} ({entry['id']}): catchers must be a non-empty list of test filters")
                continue
            if entry["find"] == entry["replace"]:
                problems.append(f"{where} ({entry['id']}): replace is the same as find")
                continue
            if not entry["file"].startswith("Sources/") or ".." in entry["file"].split("/"):
                problems.append(f"{where} ({entry['id']}): file must be product code under Sources/")
                continue
            if entry["id"] in seen:
                problems.append(f"{where}: id {entry['id']} is also used in {seen[entry['id']]}")
                continue
            seen[entry["id"]] = name
            mutations.append(dict(entry, list=name))
    if problems:
        for problem in problems:
            say(f"mutate: {problem}")
        sys.exit(2)
    return mutations


# --- the scratch copy --------------------------------------------------------------------------

def git(*arguments):
    """Reads the checkout with git; --no-optional-locks keeps `git status` from refreshing (writing) its index."""
    return subprocess.run(["git", "--no-optional-locks", "-C", ROOT, *arguments], check=True, capture_output=True).stdout


class ScratchCopy:
    """A copy of the checkout's files in a folder outside it, the only place this script writes."""

    def __init__(self, folder):
        """Refuses (exit 2) a folder inside the checkout or holding it, and an existing folder that is neither
        empty nor an earlier scratch copy: its files would be overwritten."""
        self.folder = os.path.realpath(folder)
        inside = lambda path, outer: path == outer or path.startswith(outer.rstrip(os.sep) + os.sep)
        if inside(self.folder, ROOT) or inside(ROOT, self.folder):
            say(f"mutate: the scratch folder {self.folder} must be outside the checkout {ROOT}, which is never edited")
            sys.exit(2)
        if os.path.isdir(self.folder) and os.listdir(self.folder) \
                and not os.path.isfile(os.path.join(self.folder, MANIFEST)):
            say(f"mutate: {self.folder} is not empty and is not a scratch copy of an earlier run: choose a new folder")
            sys.exit(2)

    def path(self, relative):
        full = os.path.realpath(os.path.join(self.folder, relative))
        if not full.startswith(self.folder + os.sep) or full.startswith(ROOT + os.sep):
            raise RuntimeError(f"refusing to write {full}: outside the scratch copy {self.folder}")
        return full

    def read(self, relative):
        with open(self.path(relative), "rb") as handle:
            return handle.read()

    def write(self, relative, data):
        full = self.path(relative)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as handle:
            handle.write(data)

    def sync(self):
        """Copies the checkout's files in, rewriting only those that differ, so that a kept scratch
        copy's .build stays valid and the next build is incremental. Returns the number of files the
        working tree has changed or added since HEAD, which the copy includes."""
        listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard").decode().split("\0")
        files = sorted({f for f in listed if f and os.path.isfile(os.path.join(ROOT, f))})
        for relative in files:
            with open(os.path.join(ROOT, relative), "rb") as handle:
                data = handle.read()
            target = self.path(relative)
            if os.path.isfile(target) and self.read(relative) == data:
                continue
            self.write(relative, data)
            shutil.copymode(os.path.join(ROOT, relative), target)
        manifest = os.path.join(self.folder, MANIFEST)
        if os.path.isfile(manifest):
            with open(manifest, encoding="utf-8") as handle:
                for stale in set(handle.read().split("\0")) - set(files) - {""}:
                    if os.path.isfile(self.path(stale)):
                        os.remove(self.path(stale))
        with open(manifest, "w", encoding="utf-8") as handle:
            handle.write("\0".join(files))
        return len([line for line in git("status", "--porcelain").decode().splitlines() if line.strip()])


# --- building and testing ----------------------------------------------------------------------

def run(command, cwd, timeout):
    """Runs `command` in its own process group; returns (exit status or None on timeout, output, seconds).
    On timeout or interruption the whole group is killed, so no test process outlives its mutation."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output.decode(errors="replace"), time.monotonic() - start
    except subprocess.TimeoutExpired:
        kill_group(process)
        output, _ = process.communicate()
        return None, output.decode(errors="replace"), time.monotonic() - start
    except BaseException:
        kill_group(process)
        process.wait()
        raise


def kill_group(process):
    """Kills `process`, its group and every descendant: swift test starts the test runner in a process group of its
    own, and the runner starts album in others, so the group alone is not enough. The tree is read from /proc
    first, then stopped (SIGSTOP) and killed, so that no child is reparented or forks meanwhile."""
    tree = [process.pid] + descendants(process.pid)
    for pid in tree:
        try:
            os.kill(pid, signal.SIGSTOP)
        except ProcessLookupError:
            pass
    tree += [pid for pid in descendants(process.pid) if pid not in tree]
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def descendants(root):
    """The pids of every descendant of `root`, from /proc/PID/stat's parent field."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, queue = [], [root]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def build(scratch, timeout):
    """`swift build --build-tests`: (None, seconds) when it built, else (the first compiler error, seconds)."""
    status, output, seconds = run([SWIFT, "build", "--build-tests"], scratch.folder, timeout)
    if status == 0:
        return None, seconds
    if status is None:
        return f"the build did not finish in {timeout} s", seconds
    errors = [line.strip() for line in output.splitlines() if re.search(r"\berror: ", line)]
    first = errors[0] if errors else (output.strip().splitlines() or ["no output"])[-1]
    return first.replace(scratch.folder + os.sep, ""), seconds


def test(scratch, catcher, timeout):
    """Runs one catcher; returns (outcome, detail, seconds), outcome one of passed, failed, timeout, empty."""
    command = [SWIFT, "test", "--disable-swift-testing", "--skip-build", "--filter", catcher]
    status, output, seconds = run(command, scratch.folder, timeout)
    if status is None:
        return "timeout", f"{catcher} still running after {timeout:.0f} s", seconds
    executed = [int(n) for n in re.findall(r"Executed (\d+) tests?", output)]
    if status == 0:
        if not executed or max(executed) == 0:
            return "empty", f"{catcher} matches no test", seconds
        return "passed", "", seconds
    failed = re.findall(r"Test Case '([^']+)' failed", output)
    if failed:
        return "failed", failed[0].replace("AlbumTests.", "").replace(".", "/", 1), seconds
    signalled = re.search(r"exited with (?:unexpected )?signal code (\d+)", output, re.IGNORECASE)
    if signalled:
        return "failed", f"{catcher} crashed (signal {signalled.group(1)})", seconds
    error = re.search(r"(Fatal error: [^\n]*|error: [^\n]*)", output)
    return "failed", f"{catcher}: {error.group(1) if error else f'exit status {status}'}", seconds


# --- one mutation ------------------------------------------------------------------------------

def mutate(scratch, mutation, arguments):
    """Applies, builds, tests and restores one mutation. Returns (result, detail, seconds)."""
    start = time.monotonic()
    original = scratch.read(mutation["file"]) if os.path.isfile(scratch.path(mutation["file"])) else None
    if original is None:
        return "no longer applies", f"{mutation['file']} does not exist", 0.0
    text = original.decode("utf-8")
    count = text.count(mutation["find"])
    if count != 1:
        return "no longer applies", f"`find` occurs {count} times in {mutation['file']}", 0.0
    try:
        scratch.write(mutation["file"], text.replace(mutation["find"], mutation["replace"]).encode("utf-8"))
        error, _ = build(scratch, arguments.build_timeout)
        if error:
            return "invalid", error, time.monotonic() - start
        results = [catch(scratch, mutation["catchers"], arguments.timeout) for _ in range(arguments.repeat)]
        seconds = time.monotonic() - start
        caught = [r for r in results if r[0] != "survived"]
        if any(r[0] == "invalid" for r in results):
            return next(r for r in results if r[0] == "invalid") + (seconds,)
        if arguments.repeat > 1 and 0 < len(caught) < arguments.repeat:
            return f"flaky: caught {len(caught)} of {arguments.repeat}", caught[0][1], seconds
        return results[0] + (seconds,)
    finally:
        # Restored whatever happens; a second Ctrl-C cannot cut the restore short.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
        try:
            scratch.write(mutation["file"], original)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def catch(scratch, catchers, timeout):
    """Runs `catchers` in turn until one fails. Returns (result, detail): caught, caught (timeout), survived, or
    invalid for a catcher that matches no test."""
    deadline = time.monotonic() + timeout  # test time only: a slow rebuild is not a hang
    passed = []  # catchers that ran and passed: said beside a later catcher's catch, since that is news too
    for catcher in catchers:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "caught (timeout)", f"over {timeout:.0f} s before {catcher} ran"
        outcome, detail, _ = test(scratch, catcher, remaining)
        also = f" ({', '.join(passed)} passed)" if passed else ""
        if outcome == "failed":
            return "caught", detail + also
        if outcome == "timeout":
            return "caught (timeout)", detail + also
        if outcome == "empty":
            return "invalid", detail
        passed.append(catcher)
    return "survived", ""


# --- the report --------------------------------------------------------------------------------

def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def table(rows):
    lines = ["| mutation | file | catchers | result | seconds |", "| --- | --- | --- | --- | ---: |"]
    for mutation, result, detail, seconds in rows:
        shown = f"**{result}**" if not result.startswith("caught") else result
        if detail:
            shown += f": {detail}"
        lines.append(f"| {cell(mutation['id'])} | {cell(mutation['file'].removeprefix('Sources/'))} "
                     f"| {cell(', '.join(mutation['catchers']))} | {cell(shown)} | {seconds:.0f} |")
    return "\n".join(lines)


def list_mutations(mutations):
    print("| mutation | list | file | catchers | applies |")
    print("| --- | --- | --- | --- | --- |")
    for m in mutations:
        path = os.path.join(ROOT, m["file"])
        count = open(path, encoding="utf-8").read().count(m["find"]) if os.path.isfile(path) else 0
        applies = "yes" if count == 1 else f"**no** (`find` occurs {count} times)"
        print(f"| {cell(m['id'])} | {m['list']} | {cell(m['file'].removeprefix('Sources/'))} "
              f"| {cell(', '.join(m['catchers']))} | {applies} |")
    print(f"\n{len(mutations)} mutations")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="ID", help="run only this mutation (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the mutations and whether each still applies")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy (its path is printed)")
    parser.add_argument("--scratch", metavar="DIR",
                        help="use (and keep) this scratch folder; a kept one is reused with an incremental build")
    parser.add_argument("--timeout", type=float, default=600, metavar="SECONDS",
                        help="test time allowed to one mutation; a mutant still running is 'caught (timeout)' (600)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run each mutant's catchers N times: caught only when caught every time (for kill tests)")
    parser.add_argument("--build-timeout", type=float, default=1800, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip running each catcher unmutated first")
    arguments = parser.parse_args()

    if arguments.repeat < 1:
        parser.error("--repeat must be at least 1")
    mutations = load_mutations()
    if arguments.only:
        unknown = set(arguments.only) - {m["id"] for m in mutations}
        if unknown:
            say(f"mutate: no mutation named {', '.join(sorted(unknown))} (see --list)")
            return 2
        mutations = [m for m in mutations if m["id"] in arguments.only]
    if arguments.list:
        list_mutations(mutations)
        return 0
    if not mutations:
        say(f"mutate: no mutations in {MUTATIONS}")
        return 2

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, on_signal)
    keep = arguments.keep or arguments.scratch is not None
    scratch = ScratchCopy(arguments.scratch or tempfile.mkdtemp(prefix="album-mutate-"))
    os.makedirs(scratch.folder, exist_ok=True)
    rows, started = [], time.monotonic()
    try:
        changed = scratch.sync()
        say(f"mutate: scratch copy {scratch.folder}"
            + (f" (with the {changed} uncommitted changes of the working tree)" if changed else ""))
        say("mutate: building the unmutated copy (swift build --build-tests)")
        error, build_seconds = build(scratch, arguments.build_timeout)
        if error:
            say(f"mutate: the unmutated copy does not build: {error}")
            return 2
        if not os.path.isfile(os.path.join(scratch.folder, ".build", "debug", "album")):
            say("mutate: the build made no .build/debug/album, which the end-to-end catchers run")
            return 2
        say(f"mutate: built in {build_seconds:.0f} s")

        baseline_seconds, broken = 0.0, {}
        if not arguments.no_baseline:
            for catcher in dict.fromkeys(c for m in mutations for c in m["catchers"]):
                outcome, detail, seconds = test(scratch, catcher, arguments.timeout)
                baseline_seconds += seconds
                say(f"mutate: baseline {catcher}: {outcome} in {seconds:.0f} s {detail}")
                if outcome != "passed":
                    broken[catcher] = f"{outcome} unmutated ({detail})" if detail else f"{outcome} unmutated"
        broken = {c: why.replace(os.sep.join([scratch.folder, ""]), "") for c, why in broken.items()}

        for index, mutation in enumerate(mutations, 1):
            sound = [c for c in mutation["catchers"] if c not in broken]
            bad = [f"{c} {broken[c]}, not run" for c in mutation["catchers"] if c in broken]
            if not sound:
                result, detail, seconds = "invalid", "every catcher fails unmutated: " + "; ".join(bad), 0.0
            else:
                say(f"mutate: [{index}/{len(mutations)}] {mutation['id']} ...")
                result, detail, seconds = mutate(scratch, dict(mutation, catchers=sound), arguments)
                detail = "; ".join(filter(None, [detail] + bad))
            say(f"mutate: [{index}/{len(mutations)}] {mutation['id']}: {result} in {seconds:.0f} s {detail}")
            rows.append((mutation, result, detail, seconds))
    except Interrupted as interruption:
        say(f"mutate: stopped by {interruption} after {len(rows)} of {len(mutations)} mutations; file restored")
        if rows:
            print(table(rows))
        return 130
    finally:
        if keep:
            say(f"mutate: scratch copy kept at {scratch.folder} (reuse it with --scratch {scratch.folder})")
        else:
            shutil.rmtree(scratch.folder, ignore_errors=True)
            # SwiftPM's lock files for that folder, named after its path in the temporary folder.
            prefix = "_" + scratch.folder.strip(os.sep).replace(os.sep, "_") + "_"
            for lock in glob.glob(os.path.join(tempfile.gettempdir(), glob.escape(prefix) + "*.lock")):
                os.remove(lock)

    print(table(rows))
    counts = {}
    for _, result, _, _ in rows:
        key = result.split(":")[0].split(" (")[0]  # caught (timeout) is caught; flaky: caught 1 of 3 is flaky
        counts[key] = counts.get(key, 0) + 1
    total = time.monotonic() - started
    kinds = ("caught", "survived", "invalid", "no longer applies") + (("flaky",) if "flaky" in counts else ())
    summary = ", ".join(f"{counts.get(k, 0)} {k}" for k in kinds)
    timeouts = sum(1 for _, result, _, _ in rows if result == "caught (timeout)")
    print(f"\n{len(rows)} mutations: {summary}" + (f" ({timeouts} by timeout)" if timeouts else "")
          + f"; {total:.0f} s in all (first build {build_seconds:.0f} s, baseline {baseline_seconds:.0f} s)")
    for catcher, why in broken.items():
        print(f"catcher {catcher} {why}: fix it, since a catcher that fails or matches nothing unmutated proves nothing")
    return 0 if counts.get("caught", 0) == len(rows) and not broken else 1


if __name__ == "__main__":
    sys.exit(main())
