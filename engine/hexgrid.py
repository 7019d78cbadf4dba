"""Axial hex-grid geometry (pointy or flat does not matter here: only adjacency and distance).

Shared by Seikatsu's garden and WURRM World's board. Coordinates are (q, r); the third cube coordinate
is s = -q - r.
"""

from __future__ import annotations

# The six neighbours in axial coordinates, in a fixed order going round the hex.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return distance(a, b) == 1


def ring(radius: int, centre: tuple[int, int] = (0, 0)) -> list[tuple[int, int]]:
    """The cells at exactly ``radius`` from ``centre`` (the centre itself for radius 0)."""
    if radius == 0:
        return [centre]
    q, r = centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius
    cells = []
    for side in range(6):
        for _ in range(radius):
            cells.append((q, r))
            q, r = q + DIRECTIONS[side][0], r + DIRECTIONS[side][1]
    return cells


def spiral(radius: int, centre: tuple[int, int] = (0, 0)) -> list[tuple[int, int]]:
    """Every cell within ``radius`` of ``centre``, centre first."""
    cells: list[tuple[int, int]] = []
    for k in range(radius + 1):
        cells.extend(ring(k, centre))
    return cells


def line(start: tuple[int, int], direction: tuple[int, int], length: int) -> list[tuple[int, int]]:
    """``length`` cells from ``start`` (included) stepping in ``direction``."""
    return [(start[0] + direction[0] * i, start[1] + direction[1] * i) for i in range(length)]


def rotate(cell: tuple[int, int], steps: int) -> tuple[int, int]:
    """Rotate a cell about (0, 0) by ``steps`` sixths of a turn (positive: the order of DIRECTIONS)."""
    q, r = cell
    s = -q - r
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return (q, r)


def to_pixel(q: int, r: int, size: float, pointy: bool = True) -> tuple[float, float]:
    """Centre of a hex of circumradius ``size`` (for renderers; geometry only)."""
    sqrt3 = 3 ** 0.5
    if pointy:
        return size * (sqrt3 * q + sqrt3 / 2 * r), size * 1.5 * r
    return size * 1.5 * q, size * (sqrt3 / 2 * q + sqrt3 * r)
