"""The app's icons (the web app manifest's PNGs), drawn from the favicon's shapes.

``python -m redtable.web.icons`` writes ``static/icons/icon-<size>.png`` (the "any" purpose:
the rounded dark tile with the red and the gold card, as in ``favicon.svg``),
``maskable-<size>.png`` (full-bleed background, the cards inside the safe circle of 80 %)
and ``apple-touch-icon.png`` (180 px, full-bleed). Pure Python (zlib): no imaging library.
Each pixel is the average of ``SS``×``SS`` samples (anti-aliased edges).
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent / "static" / "icons"
ANY_SIZES = (96, 144, 192, 512)
MASKABLE_SIZES = (192, 512)
APPLE = 180
SS = 3

TILE = (0x1D, 0x18, 0x22)
RED = (0xB3, 0x26, 0x2E)
GOLD = (0xD4, 0xAF, 0x37)

# favicon.svg, in its 64-unit box: (x, y, w, h, rx, colour, degrees, centre x, centre y)
CARDS = (
    (14, 12, 24, 36, 4, RED, -10, 26, 30),
    (26, 16, 24, 36, 4, GOLD, 8, 38, 34),
)


def _in_round_rect(px: float, py: float, x: float, y: float, w: float, h: float, r: float) -> bool:
    if px < x or py < y or px > x + w or py > y + h:
        return False
    cx = min(max(px, x + r), x + w - r)
    cy = min(max(py, y + r), y + h - r)
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r


def _colour_at(u: float, v: float, maskable: bool, full_bleed: bool) -> tuple[int, int, int, int]:
    """The colour (RGBA) at (u, v) in the 64-unit box."""
    if maskable:  # the cards shrink into the safe zone (a circle of 40 % radius around the centre)
        u, v = 32 + (u - 32) / 0.72, 32 + (v - 32) / 0.72
    colour: tuple[int, int, int, int] = (0, 0, 0, 0)
    if full_bleed or _in_round_rect(u, v, 0, 0, 64, 64, 14):
        colour = (*TILE, 255)
    for x, y, w, h, rx, rgb, deg, cx, cy in CARDS:
        a = math.radians(-deg)  # the point, turned back by the card's rotation
        du, dv = u - cx, v - cy
        ru, rv = cx + du * math.cos(a) - dv * math.sin(a), cy + du * math.sin(a) + dv * math.cos(a)
        if _in_round_rect(ru, rv, x, y, w, h, rx):
            colour = (*rgb, 255)
    return colour


def draw(size: int, maskable: bool = False, full_bleed: bool = False) -> bytes:
    """The icon as PNG bytes (RGBA, 8 bits)."""
    rows = []
    scale = 64 / size
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            acc = [0, 0, 0, 0]
            for sj in range(SS):
                for si in range(SS):
                    c = _colour_at((i + (si + 0.5) / SS) * scale, (j + (sj + 0.5) / SS) * scale, maskable, full_bleed)
                    a = c[3]
                    acc[0] += c[0] * a
                    acc[1] += c[1] * a
                    acc[2] += c[2] * a
                    acc[3] += a
            n = SS * SS
            alpha = acc[3] / n
            if acc[3]:
                row += bytes([round(acc[0] / acc[3]), round(acc[1] / acc[3]), round(acc[2] / acc[3]), round(alpha)])
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return _png(size, size, b"".join(rows))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height (from its IHDR)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def write_all(out: Path = ICONS) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for s in ANY_SIZES:
        written.append(out / f"icon-{s}.png")
        written[-1].write_bytes(draw(s))
    for s in MASKABLE_SIZES:
        written.append(out / f"maskable-{s}.png")
        written[-1].write_bytes(draw(s, maskable=True, full_bleed=True))
    written.append(out / "apple-touch-icon.png")
    written[-1].write_bytes(draw(APPLE, full_bleed=True))
    return written


if __name__ == "__main__":
    for p in write_all():
        print(p)
