#!/usr/bin/env python3
"""Differential fuzzing of the job-file YAML parser against ruamel.yaml (dev only).

Mutates every corpus document with seeded random edits, parses each mutant
with both `yaml-dump --batch` (our parser) and ruamel.yaml (typ='safe', pure,
YAML 1.2), and compares:

  MISMATCH      both accept, trees differ           -> a bug: must be fixed
  LENIENT       we accept, ruamel rejects           -> review (often ruamel's
                YAML 1.1 habits, e.g. tabs, '=' values, invalid dates)
  STRICT        we reject, ruamel accepts           -> fine by design
  agree         both accept the same tree, or both reject

usage: swift build && tools/yaml-differential.py [--count N] [--seed S] [--out DIR]
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yamljson  # noqa: E402
import yamlgen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Tests", "AlbumTests", "YAML", "Corpus")
DUMP = os.path.join(ROOT, ".build", "debug", "album")
SIGNIFICANT = [b":", b"-", b"#", b"'", b'"', b"[", b"]", b"{", b"}", b"|", b">", b"\t", b"\n",
               b" ", b",", b"\\", b"- ", b": ", b" #", b"&", b"*", b"!", b"?", b"...", b"---"]


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        n = len(data)
        if op == 0 and n:  # byte flip
            i = rng.randrange(n)
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert a YAML-significant token
            i = rng.randrange(n + 1)
            data[i:i] = rng.choice(SIGNIFICANT)
        elif op == 2 and n:  # delete a run
            i = rng.randrange(n)
            del data[i:i + rng.randint(1, 4)]
        elif op == 3:  # duplicate a line
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
        elif op == 4 and n:  # truncate
            del data[rng.randrange(n):]
        elif op == 5:  # change indentation of a line
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            lines[i] = (b" " * rng.randint(0, 3)) + lines[i].lstrip(b" ") if rng.random() < 0.5 else b" " + lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def ruamel_result(data):
    try:
        value = yamljson.load(data)
    except Exception as e:  # noqa: BLE001 - any failure is a rejection
        return False, type(e).__name__ + ": " + " ".join(str(e).split())[:160]
    try:
        return True, yamljson.render(value, pretty=False)
    except TypeError as e:
        return True, "<unrenderable: %s>" % e


def main():
    warnings.simplefilter("ignore")
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "yaml-differential"))
    ap.add_argument("--include-originals", action="store_true", default=True)
    ap.add_argument("--generate", action="store_true",
                    help="generate random documents (tools/yamlgen.py) instead of mutating the corpus")
    ap.add_argument("--mutate", action="store_true", help="with --generate: also mutate each generated document")
    args = ap.parse_args()
    sources = sorted(glob.glob(os.path.join(CORPUS, "*", "*.yaml")))
    docs = [open(p, "rb").read() for p in sources]
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for old in glob.glob(os.path.join(args.out, "*")):
        os.remove(old)
    mutants = list(docs) if args.include_originals else []
    while len(mutants) < args.count + (len(docs) if args.include_originals else 0):
        if args.generate:
            doc = yamlgen.document(rng)
            mutants.append(mutate(doc, rng) if args.mutate else doc)
        else:
            mutants.append(mutate(rng.choice(docs), rng))
    paths = []
    for i, m in enumerate(mutants):
        p = os.path.join(args.out, "m%06d.yaml" % i)
        with open(p, "wb") as f:
            f.write(m)
        paths.append(p)
    proc = subprocess.run([DUMP, "parse", "--batch"], input="\n".join(paths) + "\n", capture_output=True,
                          text=True, timeout=600)
    ours = proc.stdout.split("\n")
    counts = {"same tree": 0, "both reject": 0, "MISMATCH": 0, "LENIENT": 0, "STRICT": 0}
    report = []
    for p, m, line in zip(paths, mutants, ours):
        status, _, payload = line.partition("\t")
        r_ok, r_text = ruamel_result(m)
        if status == "OK" and r_ok:
            kind = "same tree" if payload == r_text else "MISMATCH"
        elif status == "OK":
            kind = "LENIENT"
        elif r_ok:
            kind = "STRICT"
        else:
            kind = "both reject"
        counts[kind] += 1
        if kind in ("MISMATCH", "LENIENT", "STRICT"):
            report.append("%s %s\n  ours:   %s\n  ruamel: %s\n" % (kind, p, payload[:300], r_text[:300]))
        else:
            os.remove(p)
    with open(os.path.join(args.out, "REPORT.txt"), "w", errors="backslashreplace") as f:
        f.write("".join(report))
    print("%d documents (%d corpus originals + mutants), seed %d: %s" % (
        len(mutants), len(docs), args.seed, ", ".join("%s %d" % kv for kv in counts.items())))
    print("details: %s" % os.path.join(args.out, "REPORT.txt"))
    return 1 if counts["MISMATCH"] else 0


if __name__ == "__main__":
    sys.exit(main())
