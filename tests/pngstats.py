#!/usr/bin/env python3
# pngstats.py FILE.png: what a screenshot of a flame graph shows, from the
# PNG itself (zlib, no imaging library): its distinct colours, the share of
# non-white pixels, whether some pixel is the search highlight (magenta),
# and how many pixels are a deep red and a deep blue (a differential graph's
# grown and shrunk frames).
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours, nonwhite, magenta, red, blue = set(), 0, False, 0, 0
for y in range(h):
    ft = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if ft == 1: line[i] = (line[i] + a) & 255
        elif ft == 2: line[i] = (line[i] + b) & 255
        elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif ft == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        if px != b"\xff\xff\xff":
            nonwhite += 1
        if px == b"\xe6\x00\xe6":
            magenta = True
        red += px[0] == 255 and px[1] < 128 and px[2] < 128
        blue += px[2] == 255 and px[0] < 128 and px[1] < 128
    prev = line
print(len(colours), round(100.0 * nonwhite / (w * h), 1), "magenta" if magenta else "no-magenta", red, blue)
