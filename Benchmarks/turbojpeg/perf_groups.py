#!/usr/bin/python3
"""Groups a perf cpu-clock profile (perf report --sort dso,sym) of the ceiling program by library and, inside the
stripped libvips, by source file (address ranges between its exported symbols): reduceh.cpp and reducev.cpp."""
import re, subprocess, sys, collections
out = subprocess.run(["perf", "report", "-i", sys.argv[1], "--sort", "dso,sym", "--stdio"], capture_output=True, text=True).stdout
g = collections.Counter()
for line in out.splitlines():
    m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(\S+)", line)
    if not m: continue
    pct, dso, sym = float(m.group(1)), m.group(2), m.group(4)
    if dso.startswith("libvips") and sym.startswith("0x"):
        a = int(sym, 16)
        key = "libvips reduceh.cpp" if 0xfdd40 <= a < 0xffa60 else "libvips reducev.cpp" if 0xffa60 <= a < 0x101980 else "libvips other"
    elif dso.startswith("libvips"): key = "libvips other"
    elif "orcexec" in dso or dso == "[unknown]" or "liborc" in dso: key = "ORC (liborc + generated code)"
    else: key = dso
    g[key] += pct
for k, v in g.most_common(14): print(f"  {v:6.2f}%  {k}")
