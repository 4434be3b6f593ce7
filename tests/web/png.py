"""Just enough PNG decoding (8-bit RGB/RGBA, not interlaced) to look at screenshots."""
from __future__ import annotations

import struct
import zlib


def decode(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    prev = bytearray(stride)
    i = 0
    for _ in range(height):
        ftype = raw[i]
        line = bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = prev[x]
            if ftype == 1:
                line[x] = (line[x] + left) & 255
            elif ftype == 2:
                line[x] = (line[x] + up) & 255
            elif ftype == 3:
                line[x] = (line[x] + ((left + up) >> 1)) & 255
            elif ftype == 4:
                ul = prev[x - channels] if x >= channels else 0
                p = left + up - ul
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else ul
                line[x] = (line[x] + pred) & 255
        prev = line
        if channels == 4:
            rows.append(bytes(b for j in range(0, stride, 4) for b in line[j : j + 3]))
        else:
            rows.append(bytes(line))
    return width, height, rows


def colours(rows: list[bytes], box: tuple[int, int, int, int] | None = None,
            step: int = 3) -> dict[tuple[int, int, int], int]:
    """How often each colour appears (every ``step``-th pixel) inside ``box`` (x0, y0, x1, y1)."""
    height, width = len(rows), len(rows[0]) // 3
    x0, y0, x1, y1 = box or (0, 0, width, height)
    seen: dict[tuple[int, int, int], int] = {}
    for y in range(max(0, y0), min(height, y1), step):
        row = rows[y]
        for x in range(max(0, x0), min(width, x1), step):
            c = (row[3 * x], row[3 * x + 1], row[3 * x + 2])
            seen[c] = seen.get(c, 0) + 1
    return seen
