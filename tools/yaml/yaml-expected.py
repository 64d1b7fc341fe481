#!/usr/bin/env python3
"""Regenerate Tests/AlbumTests/YAML/Corpus/accept/NAME.json from NAME.yaml with
ruamel.yaml (typ='safe', pure, YAML 1.2), rendered exactly like
Node.jsonText(pretty: true).

usage: tools/yaml-expected.py [FILE.yaml ...]   (default: the whole accept corpus)
Dev only: `pip install ruamel.yaml`. The tests never run Python.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yamljson  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ACCEPT = os.path.join(ROOT, "Tests", "AlbumTests", "YAML", "Corpus", "accept")

# Documents ruamel rejects although YAML 1.2 accepts them: ruamel refuses a
# tab at the start of an otherwise blank line ("found character '\t' that
# cannot start any token"), which YAML 1.2 reads as a comment line after a
# block scalar when only comments follow, after a plain scalar that ends
# there, and inside a multi-line scalar when the tab comes after enough
# spaces. Their JSON is written by hand from the YAML 1.2 reference parser
# (github.com/yaml/yaml-reference-parser, parser-1.2) and kept as it is.
REFERENCE_ONLY = {
    "block-comment-then-tab-line",
    "block-tab-comment-at-end",
    "block-tab-line-at-end",
    "block-tab-line-at-end-nonl",
    "block-tab-line-before-doc-end",
    "block-tab-line-nested-at-end",
    "plain-space-tab-blank-line",
    "plain-tab-blank-line-root",
    "plain-tab-line-then-key",
}


def main(paths):
    paths = paths or sorted(glob.glob(os.path.join(ACCEPT, "*.yaml")))
    failed = 0
    kept = 0
    for path in paths:
        if os.path.splitext(os.path.basename(path))[0] in REFERENCE_ONLY:
            kept += 1
            continue
        with open(path, "rb") as f:
            data = f.read()
        try:
            value = yamljson.load(data)
        except Exception as e:  # ruamel rejects: not a valid accept document
            print("REJECTED by ruamel: %s: %s" % (path, str(e).splitlines()[0]))
            failed += 1
            continue
        out = os.path.splitext(path)[0] + ".json"
        with open(out, "w", encoding="utf-8") as f:
            f.write(yamljson.render(value, pretty=True) + "\n")
    print("%d files, %d rejected by ruamel, %d kept (REFERENCE_ONLY)" % (len(paths), failed, kept))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
