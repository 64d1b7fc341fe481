#!/usr/bin/python3
"""Writes a small DNG for album's tests: TIFF structure with struct, a 16-bit RGGB mosaic, and optionally an embedded
JPEG preview (made with Pillow) in a SubIFD, as cameras and Adobe's converter write them.

    make_dng.py OUT [--size 640x480] [--preview 480x320] [--preview-orientation N] [--orientation N]
                [--make Canon] [--model "Canon EOS 6D"] [--lens "EF24-105mm f/4L IS USM"]
                [--taken "2024:05:06 07:08:09"] [--truncate BYTES] [--preview-jpeg FILE]

The picture is the tests' quadrants: red top-left, green top-right, blue bottom-left, white bottom-right (as stored,
before the orientation). --truncate cuts the written file to its first BYTES (its sensor data is last).
--preview-jpeg embeds FILE, a JPEG, as the preview instead (its size read by Pillow). --not-dng leaves out DNGVersion:
a TIFF-structured RAW as a camera maker's own formats are (libraw tells them by the maker).
"""
import argparse
import io
import struct

from PIL import Image

BYTE, ASCII, SHORT, LONG, RATIONAL, SRATIONAL = 1, 2, 3, 4, 5, 10
SIZES = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, SRATIONAL: 8}


def quadrant(x, y, width, height):
    """The linear RGB (0..1) of the quadrant picture at (x, y)."""
    top, left = y < height // 2, x < width // 2
    if top and left:
        return (0.9, 0.05, 0.05)
    if top:
        return (0.05, 0.9, 0.05)
    if left:
        return (0.05, 0.05, 0.9)
    return (0.9, 0.9, 0.9)


def mosaic(width, height):
    """RGGB Bayer samples, 16 bits each, little-endian."""
    out = bytearray()
    for y in range(height):
        row = []
        for x in range(width):
            r, g, b = quadrant(x, y, width, height)
            channel = (r, g)[x % 2] if y % 2 == 0 else (g, b)[x % 2]
            row.append(int(channel * 60000))
        out += struct.pack("<%dH" % width, *row)
    return bytes(out)


def preview_jpeg(width, height, orientation):
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            pixels[x, y] = tuple(int(255 * c ** (1 / 2.2)) for c in quadrant(x, y, width, height))
    out = io.BytesIO()
    exif = Image.Exif()
    if orientation:
        exif[0x0112] = orientation
    image.save(out, "JPEG", quality=90, exif=exif.tobytes() if orientation else b"")
    data = out.getvalue()
    if orientation and data[2:4] == b"\xff\xe0":
        # The Exif segment first after SOI, as a camera's preview has it: libraw then hands the preview over as it is
        # (to one without, libraw prepends an Exif segment of its own with the RAW's orientation).
        data = data[:2] + data[4 + int.from_bytes(data[4:6], "big"):]
    return data


class IFD:
    """One IFD's entries, laid out by `Writer`."""

    def __init__(self):
        self.entries = {}

    def add(self, tag, kind, values):
        if kind == ASCII:
            values = values.encode() + b"\0"
        self.entries[tag] = (kind, values)


def pack_values(kind, values):
    if kind in (ASCII, BYTE):
        return bytes(values)
    if kind == SHORT:
        return struct.pack("<%dH" % len(values), *values)
    if kind == LONG:
        return struct.pack("<%dI" % len(values), *values)
    if kind == RATIONAL:
        return b"".join(struct.pack("<II", n, d) for n, d in values)
    return b"".join(struct.pack("<ii", n, d) for n, d in values)


def layout(ifd, at):
    """(IFD bytes, extra data bytes) for an IFD placed at `at`, its large values right after it."""
    count = len(ifd.entries)
    extra_at = at + 2 + 12 * count + 4
    head, extra = struct.pack("<H", count), b""
    for tag in sorted(ifd.entries):
        kind, values = ifd.entries[tag]
        data = pack_values(kind, values)
        n = len(values)
        if len(data) <= 4:
            head += struct.pack("<HHI", tag, kind, n) + data.ljust(4, b"\0")
        else:
            if len(extra) % 2:
                extra += b"\0"
            head += struct.pack("<HHII", tag, kind, n, extra_at + len(extra))
            extra += data
    head += struct.pack("<I", 0)
    if len(extra) % 2:
        extra += b"\0"
    return head, extra


def size_of(ifd):
    head, extra = layout(ifd, 0)
    return len(head) + len(extra)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--size", default="640x480")
    parser.add_argument("--preview")
    parser.add_argument("--preview-orientation", type=int, default=0)
    parser.add_argument("--orientation", type=int, default=1)
    parser.add_argument("--make", default="Canon")
    parser.add_argument("--model", default="Canon EOS 6D")
    parser.add_argument("--lens", default="EF24-105mm f/4L IS USM")
    parser.add_argument("--taken", default="2024:05:06 07:08:09")
    parser.add_argument("--truncate", type=int)
    parser.add_argument("--preview-jpeg")
    parser.add_argument("--not-dng", action="store_true")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    raw = mosaic(width, height)
    jpeg = None
    if args.preview:
        pw, ph = (int(v) for v in args.preview.split("x"))
        jpeg = preview_jpeg(pw, ph, args.preview_orientation)
    if args.preview_jpeg:
        with Image.open(args.preview_jpeg) as given:
            pw, ph = given.size
        with open(args.preview_jpeg, "rb") as f:
            jpeg = f.read()

    exif = IFD()
    exif.add(0x9003, ASCII, args.taken)  # DateTimeOriginal
    exif.add(0xA434, ASCII, args.lens)  # LensModel
    sub = None
    if jpeg:
        sub = IFD()
        sub.add(254, LONG, [1])  # a reduced-resolution preview
        sub.add(256, LONG, [pw])
        sub.add(257, LONG, [ph])
        sub.add(258, SHORT, [8, 8, 8])
        sub.add(259, SHORT, [7])  # JPEG
        sub.add(262, SHORT, [6])  # YCbCr
        sub.add(273, LONG, [0])  # filled in below
        sub.add(277, SHORT, [3])
        sub.add(278, LONG, [ph])
        sub.add(279, LONG, [len(jpeg)])
    main_ifd = IFD()
    main_ifd.add(254, LONG, [0])
    main_ifd.add(256, LONG, [width])
    main_ifd.add(257, LONG, [height])
    main_ifd.add(258, SHORT, [16])
    main_ifd.add(259, SHORT, [1])
    main_ifd.add(262, SHORT, [32803])  # CFA
    main_ifd.add(271, ASCII, args.make)
    main_ifd.add(272, ASCII, args.model)
    main_ifd.add(273, LONG, [0])
    main_ifd.add(274, SHORT, [args.orientation])
    main_ifd.add(277, SHORT, [1])
    main_ifd.add(278, LONG, [height])
    main_ifd.add(279, LONG, [len(raw)])
    main_ifd.add(284, SHORT, [1])
    main_ifd.add(306, ASCII, args.taken)
    if sub:
        main_ifd.add(330, LONG, [0])
    main_ifd.add(33421, SHORT, [2, 2])  # CFARepeatPatternDim
    main_ifd.add(33422, BYTE, [0, 1, 1, 2])  # CFAPattern: RGGB
    main_ifd.add(34665, LONG, [0])
    if not args.not_dng:
        main_ifd.add(50706, BYTE, [1, 4, 0, 0])  # DNGVersion
        main_ifd.add(50707, BYTE, [1, 1, 0, 0])
    main_ifd.add(50708, ASCII, args.model)  # UniqueCameraModel
    main_ifd.add(50717, LONG, [65535])  # WhiteLevel
    # ColorMatrix1 (XYZ to camera): the camera's RGB is linear sRGB.
    matrix = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
    main_ifd.add(50721, SRATIONAL, [(int(v * 10000), 10000) for v in matrix])
    main_ifd.add(50728, RATIONAL, [(1, 1), (1, 1), (1, 1)])  # AsShotNeutral
    main_ifd.add(50778, SHORT, [21])  # CalibrationIlluminant1: D65

    at_main = 8
    at_sub = at_main + size_of(main_ifd)
    at_exif = at_sub + (size_of(sub) if sub else 0)
    at_jpeg = at_exif + size_of(exif)
    at_raw = at_jpeg + (len(jpeg) if jpeg else 0)
    at_raw += at_raw % 2
    main_ifd.add(273, LONG, [at_raw])
    main_ifd.add(34665, LONG, [at_exif])
    if sub:
        main_ifd.add(330, LONG, [at_sub])
        sub.add(273, LONG, [at_jpeg])
    out = b"II*\0" + struct.pack("<I", at_main)
    for ifd, at in ((main_ifd, at_main), (sub, at_sub), (exif, at_exif)):
        if ifd:
            head, extra = layout(ifd, at)
            assert len(out) == at, (len(out), at)
            out += head + extra
    if jpeg:
        out += jpeg
    out = out.ljust(at_raw, b"\0") + raw
    if args.truncate:
        out = out[:args.truncate]
    with open(args.out, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
