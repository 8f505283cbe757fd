"""The app's icons, drawn here: a card with a red diamond on the table's blue.

A PNG is written with :mod:`zlib` alone (no imaging library): rows of RGBA
pixels, each pixel sampled four times so that the edges are smooth.
"""

from __future__ import annotations

import struct
import zlib

__all__ = ["icon_png", "icon_svg"]

BLUE = (31, 78, 121)
WHITE = (255, 255, 255)
RED = (196, 0, 0)


def _colour_at(x: float, y: float) -> tuple[int, int, int]:
    """The colour at a point of the unit square (0..1 both ways)."""
    dx, dy = abs(x - 0.5), abs(y - 0.5)
    if dx / 0.17 + dy / 0.25 <= 1:
        return RED
    # the card: 0.62 wide, 0.78 tall, corners rounded by 0.06
    half_w, half_h, r = 0.31, 0.39, 0.06
    qx, qy = max(dx - (half_w - r), 0.0), max(dy - (half_h - r), 0.0)
    if dx <= half_w and dy <= half_h and qx * qx + qy * qy <= r * r:
        return WHITE
    return BLUE


def _pixel(x: int, y: int, size: int) -> bytes:
    samples = [_colour_at((x + fx) / size, (y + fy) / size) for fx in (0.25, 0.75) for fy in (0.25, 0.75)]
    return bytes(sum(s[i] for s in samples) // 4 for i in range(3)) + b"\xff"


def _chunk(kind: bytes, data: bytes) -> bytes:
    check = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", check)


def icon_png(size: int) -> bytes:
    """The icon as a ``size``×``size`` PNG (RGBA, 8 bits)."""
    # the picture is symmetric both ways: a quarter is drawn, the rest mirrored
    half = (size + 1) // 2
    quarter = [[_pixel(x, y, size) for x in range(half)] for y in range(half)]
    lines = [row + row[: size - half][::-1] for row in quarter]
    lines += lines[: size - half][::-1]
    rows = b"".join(b"\x00" + b"".join(line) for line in lines)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, 9))
            + _chunk(b"IEND", b""))


def icon_svg() -> str:
    """The same icon as SVG (any size)."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<rect width="100" height="100" fill="#1f4e79"/>'
            '<rect x="19" y="11" width="62" height="78" rx="6" fill="#fff"/>'
            '<path d="M50 25 L67 50 L50 75 L33 50 Z" fill="#c40000"/></svg>\n')
