#!/usr/bin/env python3
"""Times a filter on a date range against album's own thumbnail-only job (issue 17, INVESTIGATION.md section 8).

usage: lazy_filter.py ALBUM FOLDER WORKERS ROUNDS
FOLDER holds photos/; the three job files are written there. Each run gets a fresh catalogue; rounds alternate the
order, and the first round is discarded (it fills the page cache). Prints each job's median, min and max, and the
catalogue's size after its last run.
"""
import os, shutil, statistics, subprocess, sys, time

album, folder, workers, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.chdir(folder)
FILTERS = {
    "thumb": "",
    "lazy": "  - filter: {preset: sepia, intensity: 1.0}\n",
    "kept": "  - filter: {preset: sepia, intensity: 1.0, keep: full-size}\n",
}
for job, filter_line in FILTERS.items():
    with open(f"{job}.yml", "w") as f:
        f.write(f"version: 1\ncatalogue: cat-{job}\nstages:\n  - import: {{from: photos}}\n{filter_line}"
                "  - thumbnail: {size: 240x240, quality: 70}\n")
jobs = list(FILTERS)
times = {job: [] for job in jobs}
for r in range(rounds + 1):
    for job in (jobs if r % 2 == 0 else jobs[::-1]):
        shutil.rmtree(f"cat-{job}", ignore_errors=True)
        start = time.monotonic()
        subprocess.run([album, "run", f"{job}.yml", "--workers", workers], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r > 0:
            times[job].append(time.monotonic() - start)
for job in jobs:
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, names in os.walk(f"cat-{job}") for n in names)
    t = times[job]
    print(f"{workers} workers {job}: median {statistics.median(t):.2f} s (min {min(t):.2f}, max {max(t):.2f}), "
          f"catalogue {size / 1e6:.2f} MB")
