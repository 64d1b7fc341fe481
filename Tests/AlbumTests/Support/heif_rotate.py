#!/usr/bin/python3
"""Gives every image item of a HEIF file an `irot` transform property, as a camera that stores its pixels sideways
does (ISO/IEC 23008-12 6.5.10): album's tests need such a file, and heif-enc 1.15 writes none. A test fixture
writer, with struct: it adds the property to `ipco`, associates it with each item in `ipma`, grows the boxes that
hold them, and moves every `iloc` offset by what `meta` grew (the item data lies after it, in `mdat`).

    heif_rotate.py IN OUT ANGLE     (ANGLE: 1, 2 or 3 quarter turns anticlockwise)
"""
import struct
import sys


def boxes(data, start, end):
    """(type, start, header size, end) of each box in data[start:end]."""
    at = start
    while at < end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind.decode("latin-1"), at, header, at + size
        at += size


def find(data, start, end, kind):
    for found in boxes(data, start, end):
        if found[0] == kind:
            return found
    sys.exit(f"no {kind} box")


def rotated(data, angle):
    ftyp = find(data, 0, len(data), "ftyp")
    meta = find(data, 0, len(data), "meta")
    meta_body = meta[1] + meta[2] + 4  # a FullBox
    iprp = find(data, meta_body, meta[3], "iprp")
    ipco = find(data, iprp[1] + iprp[2], iprp[3], "ipco")
    ipma = find(data, iprp[1] + iprp[2], iprp[3], "ipma")
    iloc = find(data, meta_body, meta[3], "iloc")
    properties = sum(1 for _ in boxes(data, ipco[1] + ipco[2], ipco[3]))
    irot = struct.pack(">I4sB", 9, b"irot", angle)
    index = properties + 1  # 1-based

    # ipma, rebuilt with the new property associated with every item.
    version, flags = data[ipma[1] + 8], int.from_bytes(data[ipma[1] + 9:ipma[1] + 12], "big")
    at = ipma[1] + 12
    count = struct.unpack(">I", data[at:at + 4])[0]
    at += 4
    body = struct.pack(">I", count)
    wide = flags & 1
    for _ in range(count):
        id_size = 2 if version < 1 else 4
        item = data[at:at + id_size]
        at += id_size
        n = data[at]
        at += 1
        size = 2 if wide else 1
        associations = data[at:at + n * size]
        at += n * size
        added = struct.pack(">H", 0x8000 | index) if wide else bytes([0x80 | index])
        body += item + bytes([n + 1]) + associations + added
    new_ipma = struct.pack(">I4sB", 12 + len(body), b"ipma", version) + flags.to_bytes(3, "big") + body
    grow_ipma = len(new_ipma) - (ipma[3] - ipma[1])
    grow = len(irot) + grow_ipma

    # iloc: every offset moves by what meta grows (the data is after meta).
    iloc_data = bytearray(data[iloc[1]:iloc[3]])
    v = iloc_data[8]
    at = 12
    offset_size, length_size = iloc_data[at] >> 4, iloc_data[at] & 15
    base_size, index_size = iloc_data[at + 1] >> 4, (iloc_data[at + 1] & 15) if v in (1, 2) else 0
    at += 2
    if v < 2:
        items = struct.unpack(">H", iloc_data[at:at + 2])[0]
        at += 2
    else:
        items = struct.unpack(">I", iloc_data[at:at + 4])[0]
        at += 4

    def shift(position, size):
        if size == 0:
            return
        value = int.from_bytes(iloc_data[position:position + size], "big")
        iloc_data[position:position + size] = (value + grow).to_bytes(size, "big")

    for _ in range(items):
        at += 2 if v < 2 else 4
        method = 0
        if v in (1, 2):
            method = struct.unpack(">H", iloc_data[at:at + 2])[0] & 15
            at += 2
        at += 2  # data_reference_index
        if method == 0 and base_size:
            shift(at, base_size)
        base_offset_here = at
        at += base_size
        extents = struct.unpack(">H", iloc_data[at:at + 2])[0]
        at += 2
        for _ in range(extents):
            at += index_size
            if method == 0 and not base_size:
                shift(at, offset_size)
            at += offset_size + length_size

    def resized(start, end, extra):
        """The box header at start with its size grown by extra (32-bit sizes only)."""
        size = struct.unpack(">I", data[start:start + 4])[0]
        return struct.pack(">I", size + extra) + data[start + 4:start + 8]

    out = bytearray()
    out += data[:meta[1]]
    out += resized(meta[1], meta[3], grow) + data[meta[1] + 8:iloc[1]]
    out += iloc_data
    out += data[iloc[3]:iprp[1]]
    out += resized(iprp[1], iprp[3], grow) + data[iprp[1] + 8:ipco[1]]
    out += resized(ipco[1], ipco[3], len(irot)) + data[ipco[1] + 8:ipco[3]] + irot
    # ipco and ipma are siblings in iprp; whatever lies between or around them is kept in order.
    rest = data[ipco[3]:iprp[3]]
    rest = rest.replace(data[ipma[1]:ipma[3]], new_ipma, 1)
    out += rest
    out += data[iprp[3]:]
    return bytes(out)


if __name__ == "__main__":
    source, target, angle = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(source, "rb") as f:
        data = f.read()
    with open(target, "wb") as f:
        f.write(rotated(data, angle))
