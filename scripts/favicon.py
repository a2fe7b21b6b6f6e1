"""Draw ``static/favicon.ico`` from the shapes of ``static/favicon.svg`` (the header's gold spade on the felt green),
with the standard library alone: ``python scripts/favicon.py``.

The pages link the SVG; the ICO is what ``/favicon.ico`` gives the browsers that ask for that address whatever the
page links (and the admin's and the API's pages, which have no link of their own). It holds a 16 and a 32 pixel
image, each a PNG (every browser in use reads PNG images inside an ICO), drawn four samples a pixel each way for
smooth edges.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT = (0x0B, 0x5D, 0x3B)
GOLD = (0xF5, 0xB8, 0x00)
VIEW = 32.0
"""The SVG's view box is VIEW × VIEW; the shapes below are in its units."""
CORNER = 6.0
LOBES = ((11.5, 17.5), (20.5, 17.5))
LOBE_RADIUS = 5.5
TOP = ((16.0, 4.0), (7.37, 13.88), (11.5, 17.5), (20.5, 17.5), (24.63, 13.88))
"""The spade's point and its sides, tangent to the lobes."""
STEM = ((15.0, 19.0), (17.0, 19.0), (19.5, 28.0), (12.5, 28.0))
SAMPLES = 4
SIZES = (16, 32)
OUTPUT = Path(__file__).resolve().parent.parent / "static" / "favicon.ico"


def in_polygon(x: float, y: float, corners: tuple[tuple[float, float], ...]) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def in_background(x: float, y: float) -> bool:
    """Within the rounded square (``rx`` = CORNER)."""
    nearest_x = min(max(x, CORNER), VIEW - CORNER)
    nearest_y = min(max(y, CORNER), VIEW - CORNER)
    return 0 <= x <= VIEW and 0 <= y <= VIEW and (x - nearest_x) ** 2 + (y - nearest_y) ** 2 <= CORNER**2


def in_spade(x: float, y: float) -> bool:
    return (
        any((x - cx) ** 2 + (y - cy) ** 2 <= LOBE_RADIUS**2 for cx, cy in LOBES)
        or in_polygon(x, y, TOP)
        or in_polygon(x, y, STEM)
    )


def pixels(size: int) -> list[bytes]:
    """Rows of RGBA pixels, each the average of SAMPLES × SAMPLES points."""
    scale = VIEW / size
    rows = []
    for row in range(size):
        line = bytearray()
        for column in range(size):
            felt = gold = 0
            for sample_y in range(SAMPLES):
                for sample_x in range(SAMPLES):
                    x = (column + (sample_x + 0.5) / SAMPLES) * scale
                    y = (row + (sample_y + 0.5) / SAMPLES) * scale
                    if in_background(x, y):
                        if in_spade(x, y):
                            gold += 1
                        else:
                            felt += 1
            covered = felt + gold
            if not covered:
                line += bytes(4)
                continue
            colour = (round((felt * f + gold * g) / covered) for f, g in zip(FELT, GOLD, strict=True))
            line += bytes((*colour, round(255 * covered / SAMPLES**2)))
        rows.append(bytes(line))
    return rows


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + row for row in pixels(size))  # filter type 0 (none) on each row
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ico(images: dict[int, bytes]) -> bytes:
    directory = struct.pack("<HHH", 0, 1, len(images))
    offset = len(directory) + 16 * len(images)
    entries, data = b"", b""
    for size, image in images.items():
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset + len(data))
        data += image
    return directory + entries + data


def main() -> None:
    OUTPUT.write_bytes(ico({size: png(size) for size in SIZES}))
    print(f"{OUTPUT}: {OUTPUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
