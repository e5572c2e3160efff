#!/usr/bin/env python3
"""Whether two PNG files hold the same image: the same header (IHDR) and the same rows once their
zlib data is inflated. For scripts/compare.sh, whose C baseline must draw what taskwidget draws:
both write rows without filters, so the same pixels inflate to the same bytes, whatever each
encoder's compression made of them.

Usage: same_pixels.py A.png B.png   (exit 0 when the same, 1 with a line on stderr when not)
"""
import struct, sys, zlib


def image(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path} is not a PNG")
    offset, header, idat = 8, None, b""
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    return header, zlib.decompress(idat)


a, b = image(sys.argv[1]), image(sys.argv[2])
if a != b:
    print(f"{sys.argv[1]} and {sys.argv[2]} differ: {'the header' if a[0] != b[0] else 'the pixels'}", file=sys.stderr)
    sys.exit(1)
