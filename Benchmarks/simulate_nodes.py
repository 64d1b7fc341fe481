#!/usr/bin/python3
"""How many chunks for how many nodes (issue 18): a discrete-event simulation of a Slurm job array of album chunks.

N nodes pull chunks from `sbatch --array=0-(C-1)%M`: whenever a node is free it takes the next pending chunk, at
most min(N, M) at once. Planning runs before the array on one machine and the merge after it, chunk after chunk
(`album merge`, one transaction per chunk): both are serial, and both are in the makespan.

The costs are measured ones. Each photo's cost is the sum of its rows' `steps.ms` in a catalogue (the latest
distributed run's chunk runs, or the latest run with steps, or `--run ID`), resampled with a seed. A chunk's photo
count is what a stable hash of the paths gives (binomial, P photos over C chunks: Poisson below a mean of 30, else
normal); its photo cost is the sum of that many resampled photos below 30 photos, and above, by the central limit
theorem, mean·n + Normal(0, 1)·sd·√n (10⁷ photos in plain Python; /usr/bin/python3 has no numpy here). Every
chunk also pays overheads, fitted from the run folders of the catalogues given (`chunk-K.done`,
`distributed_chunks.merged`; `measured_overheads`), else taken from the options, else from DEFAULTS: on its node a
fixed part (process start, its database made, its outcome written) and a part per photo outside the photo's steps;
in the merge a part per chunk and a part per photo; planning; and, for a catalogue that holds photos already
(`--snapshot-photos`), a part per photo of the snapshot on the node (every chunk copies it) and in the merge (which
compares the chunk's copy with it).

Scenarios: all nodes equal; one node at half speed for the whole run; one node killed at a time drawn uniformly
over the equal run's array phase, never coming back: the chunk it was running is requeued and may start again
174 s later (the requeue delay measured on Slurm here), before any chunk not yet started. A killed chunk is
simulated two ways: rerun whole (`rerun`: everything it did is lost), and resumed from its chunk database as
`album chunk` does (`resume`: only the photos since the last commit, every 0.5 s, and the one in flight are
lost, plus the overhead paid again).

Makespans are given relative to the ideal, the photos' own time ÷ N (no per-chunk overhead, no planning, no
merge), for C = N, 4N, 16N, photos/1000, photos/200, √photos, max(N, √photos), max(4N, √photos) and album's
defaults; the last table names, for each photo count and N, the choice whose worst ratio to the best choice over
the four scenarios is least.

Usage: Benchmarks/simulate_nodes.py --catalogue DIR [--catalogue DIR ...] [--json] [--seed S] [--trials T]
           [--nodes 16,64] [--photos 1e4,1e5,1e6,1e7] [--snapshot-photos S] [--node-speed X] [--requeue 174]
           [--chunk-fixed S] [--chunk-item S] [--chunk-snapshot S] [--merge-fixed S] [--merge-item S]
           [--merge-snapshot S] [--plan-fixed S] [--plan-item S] [--plan-snapshot S]
       Benchmarks/nodes_calibration.sh makes the catalogues (INVESTIGATION.md section 17 has the full command).
"""
import argparse
import collections
import heapq
import json
import math
import os
import random
import sqlite3
import statistics
import sys
import time

REQUEUE_SECONDS = 174.0  # Slurm here: a requeued array task became eligible again 174 s after its node died
COMMIT_SECONDS = 0.5     # CatalogueOwner commits every 500 operations or 0.5 s: what a resumed chunk keeps
# Used when neither an option nor a run folder gives them (seconds): this machine's figures, from
# Benchmarks/nodes_calibration.sh's runs (INVESTIGATION.md section 17), rounded.
DEFAULTS = {"chunk_fixed": 0.2, "chunk_item": 0.0009, "chunk_snapshot": 0.00012,
            "merge_fixed": 0.03, "merge_item": 0.00024, "merge_snapshot": 0.000023,
            "plan_fixed": 0.1, "plan_item": 0.000015, "plan_snapshot": 0.00003}  # planning: after the import scan
CLUSTER_PARALLEL = 32    # DistributedPlanner.clusterParallel
ITEMS_PER_CHUNK = 200    # DistributedPlanner.itemsPerChunk


def log(message):
    print(message, file=sys.stderr, flush=True)


def iso_seconds(text):
    import datetime
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


# ---- measured costs -----------------------------------------------------------------------------------------------

def photo_costs(catalogue, run=None):
    """Seconds per photo (the sum of its step rows' ms) and where they came from."""
    db = sqlite3.connect(f"file:{os.path.join(catalogue, 'catalogue.db')}?mode=ro", uri=True)
    try:
        columns = [row[1] for row in db.execute("PRAGMA table_info(runs)")]
        if run is None and "parent" in columns:
            parent = db.execute("SELECT MAX(parent) FROM runs WHERE parent IS NOT NULL").fetchone()[0]
            if parent is not None:
                rows = db.execute("SELECT SUM(s.ms) FROM steps s JOIN runs r ON s.run = r.id WHERE r.parent = ? "
                                  "GROUP BY COALESCE(s.photo, s.path)", (parent,)).fetchall()
                return [ms / 1000 for (ms,) in rows], f"distributed run {parent}'s chunk runs"
        if run is None:
            run = db.execute("SELECT MAX(run) FROM steps").fetchone()[0]
        rows = db.execute("SELECT SUM(ms) FROM steps WHERE run = ? GROUP BY COALESCE(photo, path)", (run,)).fetchall()
        return [ms / 1000 for (ms,) in rows], f"run {run}"
    finally:
        db.close()


def run_folder_overheads(catalogue):
    """From every merged distributed run in `catalogue` whose run folder is still there: its planning (the parent
    run's start to the first chunk's `started`), and per chunk its items, its own time (`chunk-K.done`) less its
    photos' step time ÷ workers, and its merge (the interval between its `distributed_chunks.merged` time and the
    previous chunk's); the gaps between one chunk's end and the next one's start when chunks ran one at a time (a
    process ending, the next starting); and the photos its snapshot held (the catalogue's photos less those merged
    by this run and later ones: right for first runs and reruns of the same photos, which is what
    Benchmarks/nodes_calibration.sh makes)."""
    db = sqlite3.connect(f"file:{os.path.join(catalogue, 'catalogue.db')}?mode=ro", uri=True)
    found = []
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "distributed" not in tables:
            return found
        total = db.execute("SELECT COUNT(*) FROM photos").fetchone()[0]
        runs = db.execute("SELECT d.run, d.folder, r.started FROM distributed d JOIN runs r ON r.id = d.run "
                          "WHERE d.state = 'merged' ORDER BY d.run").fetchall()
        merged_photos = {run: db.execute("SELECT COALESCE(SUM(photos), 0) FROM distributed_chunks WHERE run = ?",
                                         (run,)).fetchone()[0] for run, _, _ in runs}
        for parent, folder, started in runs:
            rundir = os.path.join(catalogue, folder)
            plan_file = os.path.join(rundir, "run.json")
            if not os.path.exists(plan_file):
                continue
            with open(plan_file) as f:
                plan = json.load(f)
            snapshot = total - sum(n for run, n in merged_photos.items() if run >= parent)
            steps = dict(db.execute("SELECT r.chunk, SUM(s.ms) FROM steps s JOIN runs r ON s.run = r.id "
                                    "WHERE r.parent = ? GROUP BY r.chunk", (parent,)).fetchall())
            merged = sorted((iso_seconds(m), p) for m, p in db.execute(
                "SELECT merged, photos FROM distributed_chunks WHERE run = ?", (parent,)))
            chunks = []
            for k in range(plan["chunks"]):
                path = os.path.join(rundir, f"chunk-{k}.done")
                if not os.path.exists(path):
                    continue
                with open(path) as f:
                    done = json.load(f)
                seconds = iso_seconds(done["finished"]) - iso_seconds(done["started"])
                chunks.append({"items": done["items"], "started": iso_seconds(done["started"]),
                               "finished": iso_seconds(done["finished"]),
                               "outside": seconds - (steps.get(k) or 0) / 1000 / max(1, done.get("workers", 1))})
            if not chunks:
                continue
            chunks.sort(key=lambda c: c["started"])
            gaps = ([b["started"] - a["finished"] for a, b in zip(chunks, chunks[1:])]
                    if plan.get("max_parallel") == 1 else [])
            merges, before = [], snapshot + (merged[0][1] if merged else 0)
            for a, b in zip(merged, merged[1:]):
                merges.append({"seconds": b[0] - a[0], "photos": b[1], "catalogue": before})
                before += b[1]
            items = sum(c["items"] for c in chunks)
            found.append({"run": parent, "catalogue": catalogue, "chunks": chunks, "gaps": gaps, "merges": merges,
                          "snapshot": snapshot, "items": items, "max_parallel": plan.get("max_parallel"),
                          "plan_s": chunks[0]["started"] - iso_seconds(started),
                          "merge_s": merged[-1][0] - max(c["finished"] for c in chunks) if merged else None})
    finally:
        db.close()
    return found


def least_squares(rows, names):
    """Least squares y = Σ b_i·x_i over rows of (x_1 … x_n, y), by the normal equations; a column that never
    varies from zero is left out (its coefficient 0)."""
    used = [i for i in range(len(names)) if any(r[i] for r in rows)]
    n = len(used)
    a = [[sum(r[used[i]] * r[used[j]] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[used[i]] * r[-1] for r in rows) for i in range(n)]
    for col in range(n):  # Gaussian elimination with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        if abs(a[col][col]) < 1e-12:
            return None
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            a[r] = [x - f * y for x, y in zip(a[r], a[col])]
            b[r] -= f * b[col]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (b[r] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    out = dict.fromkeys(names, 0.0)
    out.update({names[i]: x[k] for k, i in enumerate(used)})
    return out


def measured_overheads(catalogues):
    """The overheads, from every run folder given (a key is missing when they do not measure it):
    - on its node, a chunk of n photos costs chunk_fixed + chunk_item·n (fitted over the chunks of first runs, whose
      snapshot is empty), plus chunk_snapshot per photo its snapshot holds (the no-op reruns: all of a rerun
      chunk's time beyond chunk_fixed, put on its snapshot copy; its up-to-date checks are in it too). chunk_fixed
      includes the median gap between chunks run one at a time (one process ending, the next starting);
    - merging a chunk of n photo rows costs merge_fixed + merge_item·n (fitted over the second half of each first
      run's merges, as the catalogue reaches the run's size), plus merge_snapshot per photo of the snapshot (the
      no-op reruns: the merge compares the chunk's copy of the catalogue with the snapshot, table by table);
    - planning costs plan_fixed + plan_item·photos + plan_snapshot·(photos in the catalogue), from the parent run's
      start (after the import scan) to the first chunk's start."""
    runs = [r for c in catalogues for r in run_folder_overheads(c)]
    out = {"runs": [(os.path.basename(r["catalogue"].rstrip("/")), r["run"], r["items"], r["snapshot"],
                     len(r["chunks"])) for r in runs]}
    first = [r for r in runs if r["snapshot"] == 0]
    again = [r for r in runs if r["snapshot"] > 0]
    gaps = [g for r in runs for g in r["gaps"]]
    out["gap"] = statistics.median(gaps) if gaps else 0.0
    fit = least_squares([(1.0, c["items"], c["outside"]) for r in first for c in r["chunks"]], ["fixed", "item"])
    if fit:
        out["chunk_fixed"], out["chunk_item"] = fit["fixed"] + out["gap"], max(0.0, fit["item"])
        if again:
            out["chunk_snapshot"] = statistics.median(max(0.0, c["outside"] - fit["fixed"]) / r["snapshot"]
                                                      for r in again for c in r["chunks"])
    late = [(1.0, m["photos"], m["seconds"]) for r in first for m in r["merges"][len(r["merges"]) // 2:]]
    fit = least_squares(late, ["fixed", "item"]) if len(late) >= 3 else None
    if fit and fit["item"] < 0:  # chunks too alike to separate the two: all of it per photo
        fit = {"fixed": 0.0, "item": sum(m[2] for m in late) / sum(m[1] for m in late)}
    if fit:
        out["merge_fixed"], out["merge_item"] = max(0.0, fit["fixed"]), fit["item"]
        if again:
            out["merge_snapshot"] = statistics.median(max(0.0, m["seconds"] - out["merge_fixed"]) / r["snapshot"]
                                                      for r in again for m in r["merges"] if m["photos"] == 0)
    plans = [(1.0, r["items"], r["snapshot"], r["plan_s"]) for r in runs]
    fit = least_squares(plans, ["fixed", "item", "snapshot"]) if len(plans) >= 3 else None
    if fit:
        out["plan_fixed"], out["plan_item"], out["plan_snapshot"] = (max(0.0, fit["fixed"]), max(0.0, fit["item"]),
                                                                     max(0.0, fit["snapshot"]))
    return out


# ---- the simulation -----------------------------------------------------------------------------------------------

class Costs:
    """Draws chunk sizes and chunk photo costs from the measured per-photo costs."""

    def __init__(self, costs, rng):
        self.costs = costs
        self.mean = statistics.fmean(costs)
        self.sd = statistics.pstdev(costs)
        self.rng = rng

    def chunk_sizes(self, photos, chunks):
        """Photos per chunk under a uniform hash: binomial(photos, 1/chunks), summing to about `photos`."""
        mean = photos / chunks
        sd = math.sqrt(mean * (1 - 1 / chunks))
        rng = self.rng
        if mean < 30:
            limit = math.exp(-mean)
            sizes = []
            for _ in range(chunks):  # Poisson, Knuth's method
                k, p = 0, rng.random()
                while p > limit:
                    k += 1
                    p *= rng.random()
                sizes.append(k)
            return sizes
        return [max(0, round(rng.gauss(mean, sd))) for _ in range(chunks)]

    def chunk_work(self, n):
        if n < 30:
            return sum(self.rng.choice(self.costs) for _ in range(n))
        return max(0.0, self.mean * n + self.rng.gauss(0, 1) * self.sd * math.sqrt(n))


def simulate(work, slots, overhead, speed=None, kill=None, resume=False, resume_overhead=0.0, mean_photo=0.0,
             requeue=REQUEUE_SECONDS):
    """The array phase: `work[k]` seconds of photo work for chunk k (at speed 1), each chunk paying `overhead` on
    its node. `speed[i]`: node i's speed (1 when None), for everything it does. `kill`: (time, node): that node
    dies then and never comes back; the chunk it was running is requeued, eligible `requeue` seconds later and then
    taken before any chunk not yet started. With `resume`, that chunk keeps the photos committed before its last
    0.5 s and pays `resume_overhead` (its database is there: no snapshot copy) instead of `overhead`. Returns (end
    of the last chunk, node-seconds lost to the kill)."""
    speed = speed or [1.0] * slots
    free = [(0.0, i) for i in range(slots)]
    heapq.heapify(free)
    pending = collections.deque(range(len(work)))
    left = list(work)  # photo work a chunk still has to do
    cost = [overhead] * len(work)  # what starting it costs
    delayed = []  # (eligible at, chunk)
    end, lost = 0.0, 0.0
    while pending or delayed:
        t, node = heapq.heappop(free)
        if kill and node == kill[1] and t >= kill[0]:
            continue  # dead while idle
        if delayed and (delayed[0][0] <= t or not pending):
            eligible, chunk = heapq.heappop(delayed)
            t = max(t, eligible)
        else:
            chunk = pending.popleft()
        duration = (cost[chunk] + left[chunk]) / speed[node]
        if kill and node == kill[1] and t <= kill[0] < t + duration:
            progress = (kill[0] - t) * speed[node]
            done = 0.0
            if resume:  # the photos committed before the last 0.5 s, the one in flight not
                done = min(left[chunk], max(0.0, progress - cost[chunk] - COMMIT_SECONDS - mean_photo))
                cost[chunk] = resume_overhead
            lost += (progress - done) / speed[node]
            left[chunk] -= done
            heapq.heappush(delayed, (kill[0] + requeue, chunk))
            continue  # the node is gone
        end = max(end, t + duration)
        heapq.heappush(free, (t + duration, node))
    return end, lost


def chunk_choices(photos, nodes):
    """(name, C, M) for the table: C = N, 4N, 16N, photos/1000, photos/200, √photos, max(N, √photos),
    max(4N, √photos), album's default with M = N, and for N other than 32 album's cluster default (M = 32, C for
    M = 32)."""
    n = nodes
    root = math.ceil(math.sqrt(photos))
    choices = [("C = N", n, n), ("C = 4N", 4 * n, n), ("C = 16N", 16 * n, n),
               ("C = photos/1000", math.ceil(photos / 1000), n), ("C = photos/200", math.ceil(photos / 200), n),
               ("C = √photos", root, n), ("C = max(N, √photos)", max(n, root), n),
               ("C = max(4N, √photos)", max(4 * n, root), n),
               ("album default, M = N", default_chunks(photos, n), n)]
    if n != CLUSTER_PARALLEL:
        choices.append((f"album default, M = {CLUSTER_PARALLEL}", default_chunks(photos, CLUSTER_PARALLEL),
                        CLUSTER_PARALLEL))
    unique = []
    for name, c, m in choices:
        c = max(1, min(photos, c))
        same = [i for i, (_, cc, mm) in enumerate(unique) if (cc, mm) == (c, m)]
        if same:
            unique[same[0]] = (unique[same[0]][0] + ", " + name, c, m)
        else:
            unique.append((name, c, m))
    return unique


def default_chunks(items, parallel):
    """DistributedPlanner.defaultChunks."""
    return max(1, min(items, max(math.ceil(items / ITEMS_PER_CHUNK), 4 * parallel)))


SCENARIOS = ("equal", "half", "kill_rerun", "kill_resume")


def evaluate(photos, nodes, chunks, parallel, params, costs, trials, seed):
    """Every scenario for one (photos, N, C, M), averaged over `trials` draws of the chunk costs and kills."""
    slots = min(nodes, parallel)
    snapshot = params["snapshot_photos"]
    overhead = params["chunk_fixed"] + params["chunk_snapshot"] * snapshot
    speed = params["node_speed"]
    results = collections.defaultdict(list)
    for trial in range(trials):
        rng = random.Random(f"{seed}-{photos}-{nodes}-{chunks}-{parallel}-{trial}")
        costs.rng = rng
        sizes = costs.chunk_sizes(photos, chunks)
        work = [(costs.chunk_work(n) + params["chunk_item"] * n) / speed for n in sizes]
        ideal = sum(work) / nodes
        plan = params["plan_fixed"] + params["plan_item"] * photos + params["plan_snapshot"] * snapshot
        merge = sum(params["merge_fixed"] + params["merge_item"] * n + params["merge_snapshot"] * snapshot
                    for n in sizes)
        equal, _ = simulate(work, slots, overhead)
        half, _ = simulate(work, slots, overhead, speed=[0.5] + [1.0] * (slots - 1))
        kill = (rng.uniform(0, equal), rng.randrange(slots))
        common = dict(kill=kill, requeue=params["requeue"], resume_overhead=params["chunk_fixed"],
                      mean_photo=costs.mean / speed)
        rerun, lost_rerun = simulate(work, slots, overhead, **common)
        resumed, lost_resume = simulate(work, slots, overhead, resume=True, **common)
        results["ideal_s"].append(ideal)
        results["plan_s"].append(plan)
        results["merge_s"].append(merge)
        for name, array in zip(SCENARIOS, (equal, half, rerun, resumed)):
            results[name].append((plan + array + merge) / ideal)
            results[name + "_array"].append(array / ideal)
        results["lost_rerun_s"].append(lost_rerun)
        results["lost_resume_s"].append(lost_resume)
        results["lost_rerun_pct"].append(100 * lost_rerun / (ideal * nodes))
    summary = {key: statistics.fmean(values) for key, values in results.items()}
    summary["kill_rerun_max"] = max(results["kill_rerun"])
    summary["kill_resume_max"] = max(results["kill_resume"])
    summary.update({"photos": photos, "nodes": nodes, "chunks": chunks, "max_parallel": parallel, "slots": slots,
                    "photos_per_chunk": photos / chunks, "trials": trials})
    return summary


def fmt_count(n):
    exponent = round(math.log10(n)) if n > 0 else 0
    return f"10^{exponent}" if n > 0 and 10 ** exponent == n else f"{n:,}"


def duration(seconds):
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} d"


def describe(params, source):
    p = params
    snap = (f"; every chunk's snapshot holds {p['snapshot_photos']:,} photos (a catalogue that size: "
            f"{duration(p['chunk_snapshot'] * p['snapshot_photos'])} per chunk on its node, "
            f"{duration(p['merge_snapshot'] * p['snapshot_photos'])} per chunk in the merge)" if p["snapshot_photos"] else
            "; a first run (empty snapshot)")
    return (f"Per-photo costs: {source}. Overheads: a chunk {p['chunk_fixed']:.3f} s on its node + "
            f"{p['chunk_item'] * 1000:.2f} ms per photo outside its steps; merge {p['merge_fixed']:.3f} s per chunk + "
            f"{p['merge_item'] * 1000:.2f} ms per photo; planning {p['plan_fixed']:.2f} s + "
            f"{p['plan_item'] * 1e6:.0f} µs per photo{snap}. Requeue delay {p['requeue']:.0f} s; node speed "
            f"{p['node_speed']:g}. Makespan ÷ ideal (the photos' own time ÷ N), planning and merge included, mean of "
            f"{p['trials']} draws (kills: the worst draw in brackets).")


def markdown(results, params, source):
    lines = [describe(params, source), ""]
    by_nodes = collections.defaultdict(list)
    for r in results:
        by_nodes[r["nodes"]].append(r)
    for nodes, rows in by_nodes.items():
        lines += [f"**N = {nodes} nodes**", "",
                  "| photos | ideal | choice | C | M | photos/chunk | equal nodes | one at half speed | "
                  "one killed, chunk rerun | one killed, chunk resumed | work lost (rerun; resumed) | planning + merge |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            lines.append(
                f"| {fmt_count(r['photos'])} | {duration(r['ideal_s'])} | {r['choice']} | {r['chunks']:,} | "
                f"{r['max_parallel']} | {r['photos_per_chunk']:.4g} | {r['equal']:.2f} | {r['half']:.2f} | "
                f"{r['kill_rerun']:.2f} ({r['kill_rerun_max']:.2f}) | {r['kill_resume']:.2f} "
                f"({r['kill_resume_max']:.2f}) | {duration(r['lost_rerun_s'])} ({r['lost_rerun_pct']:.2f} %); "
                f"{duration(r['lost_resume_s'])} | {duration(r['plan_s'] + r['merge_s'])} |")
        lines.append("")
    return "\n".join(lines)


def recommend(results):
    """For each (photos, N), among the choices with M = N: the best in each scenario, and the choice whose worst
    ratio to the best over the four scenarios (its regret) is least; album's default (M = N) beside it."""
    groups = collections.defaultdict(list)
    for r in results:
        groups[(r["photos"], r["nodes"])].append(r)
    out = []
    for (photos, nodes), rows in groups.items():
        rows = [r for r in rows if r["max_parallel"] == nodes]
        best = {s: min(r[s] for r in rows) for s in SCENARIOS}
        regret = lambda r: max(r[s] / best[s] for s in SCENARIOS)
        winner = min(rows, key=regret)
        default = next(r for r in rows if "album default, M = N" in r["choice"])
        out.append({"photos": photos, "nodes": nodes, "choice": winner["choice"], "chunks": winner["chunks"],
                    "regret": regret(winner), "values": {s: winner[s] for s in SCENARIOS},
                    "default_chunks": default["chunks"], "default_regret": regret(default),
                    "default_values": {s: default[s] for s in SCENARIOS}, "best": best})
    return out


def recommendation_table(best):
    lines = ["| photos | N | least regret over the four scenarios | its C | equal / half / killed rerun / resumed | "
             "regret | album's default C (M = N) | equal / half / killed rerun / resumed | regret |",
             "|---|---|---|---|---|---|---|---|---|"]
    show = lambda v: " / ".join(f"{v[s]:.2f}" for s in SCENARIOS)
    for b in best:
        lines.append(f"| {fmt_count(b['photos'])} | {b['nodes']} | {b['choice']} | {b['chunks']:,} | {show(b['values'])} | "
                     f"{b['regret']:.3f} | {b['default_chunks']:,} | {show(b['default_values'])} | "
                     f"{b['default_regret']:.3f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--catalogue", action="append", default=[], help="a catalogue with measured runs (repeatable: "
                        "costs come from the first, overheads from every one's run folders)")
    parser.add_argument("--run", type=int, default=None, help="the run whose steps give the costs (default: the latest "
                        "distributed run's chunk runs, else the latest run)")
    parser.add_argument("--nodes", default="16,64")
    parser.add_argument("--photos", default="1e4,1e5,1e6,1e7")
    parser.add_argument("--snapshot-photos", type=float, default=0,
                        help="photos the catalogue holds already, copied by every chunk (default 0: a first run)")
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", default="18")
    for name, what in (("chunk-fixed", "seconds per chunk on its node"),
                       ("chunk-item", "seconds per photo on its node outside its steps"),
                       ("chunk-snapshot", "seconds per chunk per photo of the snapshot, on its node"),
                       ("merge-fixed", "merge seconds per chunk"), ("merge-item", "merge seconds per photo"),
                       ("merge-snapshot", "merge seconds per chunk per photo of the snapshot"),
                       ("plan-fixed", "planning seconds"), ("plan-item", "planning seconds per photo"),
                       ("plan-snapshot", "planning seconds per photo of the catalogue")):
        parser.add_argument("--" + name, type=float, default=None, help=what + " (default: measured, else "
                            f"{DEFAULTS[name.replace('-', '_')]})")
    parser.add_argument("--requeue", type=float, default=REQUEUE_SECONDS)
    parser.add_argument("--node-speed", type=float, default=1.0,
                        help="photo-seconds a node does per second (1: one worker as measured)")
    parser.add_argument("--json", action="store_true", help="JSON on stdout instead of the Markdown tables")
    args = parser.parse_args()
    if not args.catalogue:
        parser.error("--catalogue DIR is needed: the per-photo costs come from it")

    costs_list, source = photo_costs(args.catalogue[0], args.run)
    if len(costs_list) < 2:
        sys.exit(f"{args.catalogue[0]}: fewer than two photos with step rows")
    measured = measured_overheads(args.catalogue)
    params = {"requeue": args.requeue, "node_speed": args.node_speed, "trials": args.trials,
              "snapshot_photos": int(args.snapshot_photos)}
    origin = {}
    for key, default in DEFAULTS.items():
        given = getattr(args, key)
        if given is not None:
            params[key], origin[key] = given, "given"
        elif measured.get(key) is not None:
            params[key], origin[key] = measured[key], "measured"
        else:
            params[key], origin[key] = default, "default"
    costs = Costs(costs_list, random.Random(args.seed))
    source = (f"{len(costs_list)} photos of {source} in {os.path.basename(os.path.abspath(args.catalogue[0]))}, "
              f"mean {costs.mean * 1000:.1f} ms, sd {costs.sd * 1000:.1f} ms")
    log(f"simulate_nodes: {source}")
    log("  overheads: " + ", ".join(f"{k} {params[k]:.6g} ({origin[k]})" for k in DEFAULTS))
    log(f"  from {len(measured['runs'])} run folder(s): {measured['runs']}")

    results = []
    started = time.perf_counter()
    for nodes in [int(n) for n in args.nodes.split(",")]:
        for photos in [int(float(p)) for p in args.photos.split(",")]:
            for name, chunks, parallel in chunk_choices(photos, nodes):
                r = evaluate(photos, nodes, chunks, parallel, params, costs, args.trials, args.seed)
                r["choice"] = name
                results.append(r)
            log(f"  N={nodes} photos={photos}: done ({time.perf_counter() - started:.0f} s)")
    best = recommend(results)
    if args.json:
        json.dump({"source": source, "params": params, "origin": origin, "measured": measured, "results": results,
                   "recommendation": best}, sys.stdout, indent=1)
        print()
        return
    print(markdown(results, params, source))
    print(recommendation_table(best))


if __name__ == "__main__":
    main()
