#!/usr/bin/env python3
"""Writes Rankscope's icon: rankscope.svg and hicolor PNGs at the usual sizes.

One description of shapes (a rounded tile with four timeline lanes and a
cursor), written once as SVG and rasterised here (4x4 supersampling, pure
Python), so the PNGs and the SVG always match. Deterministic.
"""
import struct
import zlib

SIZE = 256
TILE = (8, 8, 240, 240, 44, (0x1c, 0x22, 0x2e))  # x, y, w, h, corner radius, colour
LANES = [  # y, height, colour, [(x, width)...]: kernels, memcpy, NVTX, NCCL
    (52, 30, (0x76, 0xb9, 0x00), [(28, 70), (104, 38), (148, 80)]),
    (96, 30, (0x4a, 0x90, 0xd9), [(28, 26), (122, 20), (200, 28)]),
    (140, 30, (0xf5, 0xa6, 0x23), [(28, 200)]),
    (184, 30, (0xb0, 0x6a, 0xd9), [(60, 90), (170, 58)]),
]
CURSOR = (161, 36, 5, 188, (0xff, 0xff, 0xff))


def shapes():
    x, y, w, h, r, c = TILE
    yield ('tile', (x, y, w, h, r), c)
    for ly, lh, colour, bars in LANES:
        for bx, bw in bars:
            yield ('rect', (bx, ly, bw, lh, 4), colour)
    cx, cy, cw, ch, c = CURSOR
    yield ('rect', (cx, cy, cw, ch, 0), c)


def inside(shape, px, py):
    x, y, w, h, r = shape
    if px < x or py < y or px >= x + w or py >= y + h:
        return False
    # Rounded corners: distance to the corner circle's centre.
    cx = min(max(px, x + r), x + w - r)
    cy = min(max(py, y + r), y + h - r)
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r


def render(size):
    scale = SIZE / size
    items = list(shapes())
    rows = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            acc = [0, 0, 0, 0]
            for sj in range(4):
                for si in range(4):
                    px = (i + (si + 0.5) / 4) * scale
                    py = (j + (sj + 0.5) / 4) * scale
                    colour = None
                    for _, geometry, c in items:
                        if inside(geometry, px, py):
                            colour = c
                    if colour:
                        acc[0] += colour[0]
                        acc[1] += colour[1]
                        acc[2] += colour[2]
                        acc[3] += 255
            n = acc[3] // 255
            if n:
                row += bytes([acc[0] // n, acc[1] // n, acc[2] // n, acc[3] // 16])
            else:
                row += b'\0\0\0\0'
        rows.append(bytes(row))
    return rows


def png(size, rows):
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    raw = b''.join(b'\0' + r for r in rows)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def svg():
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">']
    for _, (x, y, w, h, r), c in shapes():
        out.append('  <rect x="%d" y="%d" width="%d" height="%d" rx="%d" fill="#%02x%02x%02x"/>' % (x, y, w, h, r, *c))
    out.append('</svg>')
    return '\n'.join(out) + '\n'


with open('rankscope.svg', 'w') as f:
    f.write(svg())
for size in (16, 24, 32, 48, 64, 128, 256):
    with open('rankscope-%d.png' % size, 'wb') as f:
        f.write(png(size, render(size)))
