#!/usr/bin/python3
"""Per-photo instruction counts by function group from a callgrind profile (callgrind_annotate; inclusive for the
named entry points, exclusive for the stripped kernels located by address). Usage: callgrind_groups.py CALLGRIND_OUT PHOTOS
(Benchmarks/INVESTIGATION.md section 12; the libvips and libjpeg addresses are those of Debian 12's builds.)"""
import re, subprocess, sys
def table(path, inclusive):
    args = ["callgrind_annotate", "--threshold=100"] + (["--inclusive=yes"] if inclusive else []) + [path]
    rows = {}
    for line in subprocess.run(args, capture_output=True, text=True).stdout.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*?)(?: \[(.*)\])?$", line)
        if m and "PROGRAM TOTALS" in line:
            rows["TOTAL"] = int(m.group(1).replace(",", ""))
        elif m:
            fn = m.group(2) if m.group(2).startswith("???:0x") else m.group(2).split(":", 1)[-1]
            key = fn.split("'")[0] + "@" + (m.group(3) or "")
            rows[key] = max(rows.get(key, 0), int(m.group(1).replace(",", "")))
    return rows
path, photos = sys.argv[1], int(sys.argv[2])
inc, exc = table(path, True), table(path, False)
total = exc["TOTAL"]
def i(*names): return sum(v for k, v in inc.items() if k.split("@")[0] in names)
def e(pattern): return sum(v for k, v in exc.items() if re.search(pattern, k))
groups = [
  ("JPEG decode (libjpeg: read_header + start_decompress + read_scanlines + finish)", i("jpeg_read_header", "jpeg_start_decompress", "jpeg_read_scanlines", "jpeg_finish_decompress")),
  ("  of which Huffman decode_mcu (jdhuff.c, 0x226a0 / tj 0x225a0)", e(r"0x00000000000226a0@.*libjpeg|0x00000000000225a0@.*turbojpeg|jpeg_fill_bit_buffer")),
  ("TurboJPEG tjDecompress2 (inclusive)", i("tjDecompress2")),
  ("JPEG encode (jpeg_start_compress + write_scanlines + finish_compress)", i("jpeg_start_compress", "jpeg_write_scanlines", "jpeg_finish_compress")),
  ("libvips reducev C kernel (reducev.cpp, 0x100f80)", e(r"0x0000000000100f80@.*libvips")),
  ("libvips reduceh C kernel (reduceh.cpp, 0xff1a0)", e(r"0x00000000000ff1a0@.*libvips")),
  ("Pillow ImagingResampleHorizontal_8bpc", e(r"ImagingResampleHorizontal_8bpc")),
  ("Pillow ImagingResampleVertical_8bpc", e(r"ImagingResampleVertical_8bpc")),
  ("lcms2 (all cms* and liblcms2)", e(r"liblcms2")),
  ("SHA-256 (libcrypto)", e(r"libcrypto")),
  ("SQLite (libsqlite3)", e(r"libsqlite3")),
  ("Swift runtime + stdlib + Foundation", e(r"libswift|libFoundation|lib_FoundationICU|libdispatch")),
  ("album's own code (the album binary)", e(r"@.*/album$")),
  ("libc memset/memcpy", e(r"memset|memmove|memcpy")),
  ("dynamic linking (ld.so)", e(r"ld-linux")),
  ("vips_init (inclusive, once)", i("vips_init")),
]
print(f"{path}: total {total/1e6:,.0f} M instructions, {photos} photos")
for name, value in groups:
    print(f"  {name:<80} {value/1e6:9,.1f} M  = {value/photos/1e6:7.2f} M/photo")
