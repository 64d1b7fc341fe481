#!/usr/bin/env python3
"""`make layers` (run by `make test`): an import of a higher layer in a lower one does not build.

album's Swift library targets are layers (ARCHITECTURE.md): each may import only the targets Package.swift declares
as its dependencies, all of them lower. SwiftPM's `--explicit-target-dependency-import-check error` (which `make
build` and `make test` pass) refuses an import of a target that is not a declared dependency, even when that target
happens to be built already. This script proves it for every pair of adjacent layers: it puts the layers in
dependency order (Package.swift's order among layers that do not depend on each other), and for each adjacent pair
(lower, higher) inserts `import Higher` into the first Swift file of Lower, checks that `swift build --target Lower`
fails naming Higher, and restores the file's bytes, with a new modification time: SwiftPM keeps what it
learnt of a file's imports while its modification time is older than what it saw, so the old time back made a fresh
clone's next build refuse `import Higher` from the restored file (the stale YAML import of a fresh clone's `.ci/run`).

SwiftPM refuses the import while it plans the build, before compiling; it then still builds what it can of the lower
target's dependencies, work the build that follows reuses. So `make test` runs this first, before its own build.

Usage: layers.py [PACKAGE_ROOT]. Exit status 0 when every insertion failed the build, 1 otherwise, 2 when the
package cannot be described."""
import json
import os
import re
import subprocess
import sys

FLAGS = ["--explicit-target-dependency-import-check", "error"]


def layers(root, swift):
    """Album's library targets, lowest first: a topological order of the dependency graph, ties in Package.swift order."""
    described = subprocess.run([swift, "package", "describe", "--type", "json"], cwd=root, capture_output=True,
                               text=True)
    if described.returncode != 0:
        sys.exit(f"layers: swift package describe failed:\n{described.stderr}")
    targets = [t for t in json.loads(described.stdout)["targets"]
               if t["type"] == "library" and t["module_type"] == "SwiftTarget"]
    order = [line for line in re.findall(r'name:\s*"(\w+)"', open(os.path.join(root, "Package.swift")).read())]
    deps = {t["name"]: set(t.get("target_dependencies") or []) for t in targets}
    names = sorted(deps, key=order.index)
    placed, result = set(), []
    while len(result) < len(names):
        ready = [n for n in names if n not in placed and deps[n] & set(names) <= placed]
        if not ready:
            sys.exit("layers: the targets' dependencies have a cycle")
        result.append(ready[0])
        placed.add(ready[0])
    return result, {t["name"]: t["path"] for t in targets}


def first_swift_file(root, path):
    for folder, dirs, files in sorted(os.walk(os.path.join(root, path))):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".swift"):
                return os.path.join(folder, name)
    return None


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    swift = os.environ.get("SWIFT", "swift")
    order, paths = layers(root, swift)
    print("layers, lowest first: " + " < ".join(order), file=sys.stderr)
    failures = 0
    for lower, higher in zip(order, order[1:]):
        path = first_swift_file(root, paths[lower])
        relative = os.path.relpath(path, root)
        original = open(path, "rb").read()
        times = os.stat(path)
        try:
            with open(path, "wb") as file:
                file.write(f"import {higher}\n".encode() + original)
            build = subprocess.run([swift, "build", "--target", lower] + FLAGS, cwd=root, capture_output=True,
                                   text=True)
        finally:
            with open(path, "wb") as file:
                file.write(original)
            # Newer than the mutated file's scan, so the next build reads the restored imports (see above).
            now = max(os.stat(path).st_mtime_ns, times.st_mtime_ns + 1)
            os.utime(path, ns=(now, now))
        output = build.stdout + build.stderr
        if build.returncode != 0 and re.search(rf"\b{higher}\b", output) and "error" in output:
            print(f"ok: import {higher} in {relative} ({lower}) does not build", file=sys.stderr)
        else:
            failures += 1
            print(f"{relative}:1: error: `import {higher}` in {lower} built (exit {build.returncode}): {lower} can "
                  f"reach a higher layer\n{output[-2000:]}")
    print(f"layers: {len(order) - 1} adjacent pairs, {failures} that built", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
