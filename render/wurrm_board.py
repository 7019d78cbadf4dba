"""WURRM World's board: the hex geometry, the space symbols, tiles, borders, avatars and the move's marks
(render/wurrm.py draws the image around it: the banner and the panels under the board).

Space types have shapes as well as colours so they read without colour vision: Gem a faceted diamond, Attack
crossed blades, End-your-turn a wave under a bar, Sleep a crescent moon, Start the gem count as small
diamonds. Toll borders are gold bars with a coin, hostile borders thick red saw-teeth; the sides between tiles
are drawn heavier. Avatars are four-sided dice (triangles) in player colours showing their lucky number.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

import i18n
from engine.hexgrid import to_pixel

from .colours import HIGHLIGHT, INK, MUTED, contrast, darken, lighten
from .common import IDLE_CACHES, canvas, font, hexagon, keep_exact, text_centered

WIDTH = 800   # a phone shows ~400 px: 18 px text stays 9 px there
MARGIN = 24
BANNER_H = 60
MAX_HEX = 40  # circumradius: a space's name at 18 px fits under its symbol

TILE_TINTS = {  # pale grounds per tile, so tiles read as pieces
    "a": (236, 226, 204), "b": (222, 236, 214), "c": (214, 228, 238), "d": (236, 222, 214),
    "e": (226, 220, 238), "f": (210, 204, 236), "g": (210, 204, 236),
}
GEM = (0, 150, 160)
ATTACK = (200, 40, 40)
END = (60, 60, 80)
SLEEP = (120, 70, 170)
TOLL = (214, 160, 0)
HOSTILE = (170, 20, 30)
SEAM = (110, 90, 60)
REACH = (30, 90, 220)   # where the move can end: blue, apart from the green next steps and the last move's gold
keep_exact(*TILE_TINTS.values(), GEM, ATTACK, END, SLEEP, TOLL, HOSTILE, SEAM, REACH, game="wurrm")


# ----- geometry ------------------------------------------------------------------------------------------
class Geometry:
    """Pixel placement of the board inside a box, pointy-top hexes."""

    def __init__(self, spaces: list[dict], left: int, top: int, width: int, max_height: int,
                 size: float | None = None):
        raw = {sp["id"]: to_pixel(sp["q"], sp["r"], 1.0) for sp in spaces}
        # A board wider than tall is turned a quarter (flat-top hexes), so it runs down a narrow phone image.
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        self.pointy = max(xs) - min(xs) <= max(ys) - min(ys)
        if not self.pointy:
            raw = {sid: (-y, x) for sid, (x, y) in raw.items()}
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        span_x = max(xs) - min(xs) + (math.sqrt(3) if self.pointy else 2)
        span_y = max(ys) - min(ys) + (2 if self.pointy else math.sqrt(3))
        self.size = size or min(MAX_HEX, width / span_x, max_height / span_y)
        board_w, board_h = span_x * self.size, span_y * self.size
        self.width = board_w
        ox = left + (width - board_w) / 2 + (span_x / 2 - (max(xs) - min(xs)) / 2 - min(xs)) * self.size
        oy = top + (span_y / 2 - (max(ys) - min(ys)) / 2 - min(ys)) * self.size
        self.height = board_h
        self.centres = {sid: (ox + x * self.size, oy + y * self.size) for sid, (x, y) in raw.items()}

    @classmethod
    def placed(cls, size: float, centres: dict, pointy: bool = True) -> Geometry:
        geo = cls.__new__(cls)
        geo.size, geo.centres, geo.pointy = size, centres, pointy
        geo.height = 0.0
        return geo

    def corners(self, sid: str, shrink: float = 1.0):
        return hexagon(self.centres[sid], self.size * shrink, self.pointy)

    def side(self, a: str, b: str, inset: float = 0.0):
        """The shared side of two neighbouring hexes as a segment (optionally shortened at both ends)."""
        (ax, ay), (bx, by) = self.centres[a], self.centres[b]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        # The side is perpendicular to the line of centres, as long as the circumradius.
        px, py = -dy / length, dx / length
        half = self.size / 2 * (1 - inset)
        return (mx + px * half, my + py * half), (mx - px * half, my - py * half)


# ----- symbols -------------------------------------------------------------------------------------------
def gem_shape(draw, centre, size, fill=GEM):
    cx, cy = centre
    h = size / 2
    top = [(cx - h * 0.6, cy - h * 0.35), (cx - h * 0.3, cy - h * 0.75), (cx + h * 0.3, cy - h * 0.75),
           (cx + h * 0.6, cy - h * 0.35)]
    pts = top + [(cx, cy + h * 0.8)]
    draw.polygon(pts, fill=fill, outline=darken(fill, 0.4), width=max(1, int(size / 14)))
    draw.line([(cx - h * 0.6, cy - h * 0.35), (cx + h * 0.6, cy - h * 0.35)], fill=darken(fill, 0.4),
              width=max(1, int(size / 16)))
    draw.line([(cx - h * 0.3, cy - h * 0.35), (cx, cy + h * 0.8), (cx + h * 0.3, cy - h * 0.35)],
              fill=lighten(fill, 0.45), width=max(1, int(size / 18)))


def attack_shape(draw, centre, size):
    cx, cy = centre
    h = size / 2
    w = max(3, int(size / 8))
    for sgn in (-1, 1):
        draw.line([(cx - sgn * h * 0.75, cy - h * 0.75), (cx + sgn * h * 0.55, cy + h * 0.55)], fill=ATTACK,
                  width=w)
        hx, hy = cx + sgn * h * 0.5, cy + h * 0.5  # the hilt guard
        draw.line([(hx - h * 0.28, hy + sgn * h * 0.28 * 0 + h * 0.05 * 0 - h * 0.28 * sgn * 0 + 0),
                   (hx + h * 0.28, hy)], fill=darken(ATTACK, 0.4), width=w)


def end_shape(draw, centre, size):
    """The rulebook's 〰 under a stop bar."""
    cx, cy = centre
    h = size / 2
    draw.line([(cx - h * 0.8, cy - h * 0.45), (cx + h * 0.8, cy - h * 0.45)], fill=END, width=max(3, int(size / 8)))
    pts = [(cx - h * 0.85 + i * (1.7 * h / 24), cy + h * 0.2 + math.sin(i / 24 * 4 * math.pi) * h * 0.25)
           for i in range(25)]
    draw.line(pts, fill=END, width=max(3, int(size / 9)), joint="curve")


def sleep_shape(draw, centre, size, ground):
    cx, cy = centre
    h = size / 2
    draw.ellipse([cx - h, cy - h, cx + h, cy + h], fill=SLEEP)
    off = h * 0.45
    draw.ellipse([cx - h + off, cy - h - off * 0.4, cx + h + off, cy + h - off * 0.4], fill=ground)


def start_marks(draw, centre, size, gems, closed=False):
    """1–3 small diamonds: the gems this Start space gives; grey on a Start space not in play at this table
    (fewer than five players, Z2 as decided in engine/wurrm.py)."""
    cx, cy = centre
    step = size * 0.42
    for i in range(gems):
        x = cx + (i - (gems - 1) / 2) * step
        gem_shape(draw, (x, cy), size * 0.4, fill=(190, 190, 190) if closed else GEM)


def avatar(draw, centre, size, colour, lucky, ring=None):
    """A four-sided die from above: a triangle with the lucky number on top."""
    cx, cy = centre
    h = size / 2
    pts = [(cx, cy - h), (cx + h * 0.95, cy + h * 0.7), (cx - h * 0.95, cy + h * 0.7)]
    if ring:
        big = [(cx, cy - h - 7), (cx + h * 0.95 + 7, cy + h * 0.7 + 4), (cx - h * 0.95 - 7, cy + h * 0.7 + 4)]
        draw.polygon(big, fill=ring)
    draw.polygon(pts, fill=colour, outline=INK, width=3)
    label = "?" if lucky is None else str(lucky)
    text_centered(draw, (cx, cy + h * 0.18), label, font(max(18, int(size * 0.42)), bold=True),
                  fill=contrast(colour))


# ----- board ---------------------------------------------------------------------------------------------
def draw_board(draw, view, geo: Geometry, colours, names):
    spaces = {sp["id"]: sp for sp in view["spaces"]}
    last = view.get("last") or {}
    lit = set(last.get("spaces") or [])
    for sid, sp in spaces.items():
        ground = TILE_TINTS.get(sp["tile"], (230, 230, 230))
        draw.polygon(geo.corners(sid), fill=ground, outline=lighten(SEAM, 0.35), width=2)
    for sid in lit:
        if sid in spaces:
            draw.polygon(geo.corners(sid, 0.9), outline=HIGHLIGHT, width=max(4, int(geo.size / 9)))
    for sid, sp in spaces.items():
        draw_symbol(draw, sp, geo.centres[sid], geo.size, TILE_TINTS.get(sp["tile"], (230, 230, 230)))
        cx, cy = geo.centres[sid]
        text_centered(draw, (cx, cy + geo.size * 0.52), sid, font(max(18, int(geo.size * 0.3))), fill=MUTED)
    tile_of = {sid: sp["tile"] for sid, sp in spaces.items()}
    for b in view["borders"]:
        if tile_of[b["a"]] != tile_of[b["b"]]:
            draw.line(geo.side(b["a"], b["b"]), fill=SEAM, width=max(3, int(geo.size / 12)))
    for b in view["borders"]:
        if b["kind"] == "toll":
            draw_toll(draw, geo, b["a"], b["b"])
        elif b["kind"] == "hostile":
            draw_hostile(draw, geo, b["a"], b["b"])


def paste_board(img, view, geo: Geometry, colours, names) -> None:
    """draw_board through a cache: the board without highlights is drawn once per board and pasted; the
    patches around highlighted spaces are then drawn afresh (every space and border near enough to reach
    them, in draw_board's order, at the same coordinates) and pasted over it, so the pixels are those
    draw_board would draw."""
    spaces = tuple((sp["id"], sp["q"], sp["r"], sp["tile"], sp["type"], sp.get("gems"), sp.get("closed", False))
                   for sp in view["spaces"])
    borders = tuple((b["a"], b["b"], b["kind"]) for b in view["borders"])
    layer = board_layer(spaces, borders, geo.size, tuple(geo.centres.items()), img.width, geo.pointy,
                        i18n.current())
    img.paste(layer, (0, 0))
    lit = [sid for sid in (view.get("last") or {}).get("spaces") or [] if sid in geo.centres]
    if not lit:
        return
    reach = int(geo.size) + 6
    near = {s for s, (x, y) in geo.centres.items()
            if any(math.hypot(x - geo.centres[t][0], y - geo.centres[t][1]) <= 3.5 * geo.size for t in lit)}
    patch_view = {
        "spaces": [sp for sp in view["spaces"] if sp["id"] in near],
        "borders": [b for b in view["borders"] if b["a"] in near and b["b"] in near],
        "last": {"spaces": lit},
    }
    boxes = [(int(cx) - reach, int(cy) - reach, int(cx) + reach + 1, int(cy) + reach + 1)
             for cx, cy in (geo.centres[sid] for sid in lit)]
    # a scratch reaching only as far right and down as the patches: the board-sized one cost ~1 ms a picture to
    # clear, with its outline mask. Not cut at the top or left: moving the spaces would round their corners
    # differently, a pixel here and there.
    scratch, draw = canvas(min(layer.width, max(b[2] for b in boxes)), min(layer.height, max(b[3] for b in boxes)))
    draw_board(draw, patch_view, geo, colours, names)
    for box in boxes:
        img.paste(scratch.crop(box), box[:2])


@lru_cache(maxsize=1)
def default_hex_size() -> float:
    """The hex size of the default board in its box: every board is drawn at it, a larger random board on a
    wider image, so spaces and their names stay as legible as on the default board."""
    from engine.wurrm import Board, default_layout

    board = Board(default_layout())
    spaces = [{"id": sp["id"], "q": sp["q"], "r": sp["r"]} for sp in board.spaces.values()]
    return Geometry(spaces, MARGIN, BANNER_H + 10, WIDTH - 2 * MARGIN, 10**6).size


def board_geometry(view) -> tuple[Geometry, int]:
    """Where the board goes, at the default board's hex size, and the image width that holds it."""
    size = default_hex_size()
    probe = Geometry(view["spaces"], MARGIN, BANNER_H + 10, WIDTH - 2 * MARGIN, 10**6, size=size)
    width = max(WIDTH, int(math.ceil(probe.width)) + 2 * MARGIN)
    return Geometry(view["spaces"], MARGIN, BANNER_H + 10, width - 2 * MARGIN, 10**6, size=size), width


@lru_cache(maxsize=8)   # a board is ~4 MB; a table keeps its board all game (dropped when the worker idles)
def board_layer(spaces: tuple, borders: tuple, size: float, centres: tuple, width: int = 0,
                pointy: bool = True, locale: str = "") -> Image.Image:
    """The board with no space highlighted, on a strip of background from the top of the image to a little
    below the board (panels draw over that margin later, as they did over the board's edge)."""
    geo = Geometry.placed(size, dict(centres), pointy)
    view = {
        "spaces": [{"id": i, "q": q, "r": r, "tile": t, "type": k, "closed": c, **({} if g is None else {"gems": g})}
                   for i, q, r, t, k, g, c in spaces],
        "borders": [{"a": a, "b": b, "kind": k} for a, b, k in borders],
        "last": {},
    }
    bottom = max(y for _, y in geo.centres.values()) + 2 * size
    img, draw = canvas(max(width, WIDTH), int(bottom))
    draw_board(draw, view, geo, {}, {})
    return img


IDLE_CACHES.append(board_layer)


def draw_symbol(draw, sp, centre, size, ground):
    cx, cy = centre
    s = size * 0.78
    kind = sp["type"]
    at = (cx, cy - size * 0.1)
    if kind == "gem":
        gem_shape(draw, at, s)
    elif kind == "attack":
        attack_shape(draw, at, s * 0.9)
    elif kind == "end":
        end_shape(draw, at, s)
    elif kind == "sleep":
        sleep_shape(draw, at, s, ground)
    elif kind == "start":
        start_marks(draw, at, size, sp.get("gems", 1), sp.get("closed", False))


def draw_toll(draw, geo, a, b):
    p, q = geo.side(a, b, inset=0.12)
    w = max(6, int(geo.size / 7))
    draw.line([p, q], fill=TOLL, width=w)
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    r = geo.size * 0.17   # a coin: the legend says a toll costs 1 (a digit this small would not read on a phone)
    draw.ellipse([mx - r, my - r, mx + r, my + r], fill=TOLL, outline=darken(TOLL, 0.45), width=2)
    draw.ellipse([mx - r * 0.45, my - r * 0.45, mx + r * 0.45, my + r * 0.45], outline=darken(TOLL, 0.45), width=1)


def draw_hostile(draw, geo, a, b):
    p, q = geo.side(a, b, inset=0.05)
    w = max(5, int(geo.size / 9))
    draw.line([p, q], fill=HOSTILE, width=w)
    # saw-teeth on both faces, so the wall reads as "no way through"
    (ax, ay), (bx, by) = geo.centres[a], geo.centres[b]
    nx, ny = (bx - ax), (by - ay)
    n = math.hypot(nx, ny)
    nx, ny = nx / n, ny / n
    teeth = 4
    for i in range(teeth):
        t = (i + 0.5) / teeth
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        for sgn in (-1, 1):
            tip = (x + sgn * nx * geo.size * 0.16, y + sgn * ny * geo.size * 0.16)
            ex, ey = (q[0] - p[0]) / teeth * 0.35, (q[1] - p[1]) / teeth * 0.35
            draw.polygon([(x - ex, y - ey), tip, (x + ex, y + ey)], fill=HOSTILE)


def draw_compass(draw, centre) -> None:
    """The six direction words of the moves, pointing where they go on a board turned a quarter (north is to
    the right), so 'ne' still finds its neighbour."""
    from engine.hexgrid import DIRECTIONS
    from engine.wurrm import DIRECTION_NAMES

    cx, cy = centre
    draw.ellipse([cx - 8, cy - 8, cx + 8, cy + 8], fill=MUTED)
    for word, (dq, dr) in zip(DIRECTION_NAMES, DIRECTIONS, strict=True):
        x, y = to_pixel(dq, dr, 1.0)
        n = math.hypot(x, y)
        ux, uy = -y / n, x / n                     # as Geometry turns the board
        draw.line([cx + ux * 10, cy + uy * 10, cx + ux * 34, cy + uy * 34], fill=MUTED, width=3)
        text_centered(draw, (cx + ux * 52, cy + uy * 52), word, font(20, bold=True), fill=INK)


def draw_avatars(draw, view, geo, colours):
    by_space: dict[str, list[str]] = {}
    for seat in view["seats"]:
        pos = view["positions"].get(seat)
        if pos is not None:
            by_space.setdefault(pos, []).append(seat)
    acting = set(view["to_act"])
    mover = view.get("actor") or view.get("turn")
    for sid, seats in by_space.items():
        cx, cy = geo.centres[sid]
        n = len(seats)
        size = geo.size * (0.95 if n == 1 else 0.7)
        for i, seat in enumerate(seats):
            dx = (i - (n - 1) / 2) * geo.size * 0.55
            ring = HIGHLIGHT if (seat in acting or seat == mover) and view["phase"] != "over" else None
            avatar(draw, (cx + dx, cy - geo.size * 0.12), size, colours[seat], view["lucky"].get(seat), ring)


def reach_shown(view, viewer) -> list[str]:
    """The spaces the move in progress can end on (engine ``reach``), shown on the mover's own image and the
    channel's, not on another player's private image (issue #14)."""
    move = view.get("move")
    if view["phase"] != "move" or not move or viewer not in (None, view.get("actor")):
        return []
    return list(move.get("reach") or [])


def draw_reach(img, view, geo, viewer) -> None:
    """Every space the move can end on with the steps left gets a blue wash and a blue rim (the next steps keep
    their green outline and direction word on top); the wash is light, so symbols and names still read."""
    from PIL import ImageDraw

    lit = [sid for sid in reach_shown(view, viewer) if sid in geo.centres]
    if not lit:
        return
    # the wash's mask covers the lit spaces only (a mask of the whole image cost more than the rest), at a
    # whole-pixel offset, so its pixels are those of a whole-image mask
    corners = [geo.corners(sid, 0.96) for sid in lit]
    left = max(0, int(min(x for c in corners for x, _ in c)) - 2)
    top = max(0, int(min(y for c in corners for _, y in c)) - 2)
    right = min(img.width, int(max(x for c in corners for x, _ in c)) + 3)
    bottom = min(img.height, int(max(y for c in corners for _, y in c)) + 3)
    mask = Image.new("L", (right - left, bottom - top), 0)
    md = ImageDraw.Draw(mask)
    for c in corners:
        md.polygon([(x - left, y - top) for x, y in c], fill=60)
    img.paste(REACH, (left, top, right, bottom), mask)
    draw = ImageDraw.Draw(img)
    for sid in lit:
        draw.polygon(geo.corners(sid, 0.9), outline=REACH, width=max(3, int(geo.size / 12)))


def draw_options(draw, view, geo):
    """Where the next step or bump can go, labelled with the direction word of the action."""
    opts = {}
    if view.get("move") and view["phase"] == "move":
        opts = view["move"]["options"]
    elif view["phase"] == "bump":
        opts = view.get("bump_options") or {}
    for d, sid in opts.items():
        cx, cy = geo.centres[sid]
        draw.polygon(geo.corners(sid, 0.97), outline=(20, 120, 40), width=max(3, int(geo.size / 12)))
        f = font(max(18, int(geo.size * 0.36)), bold=True)
        tw = draw.textlength(d, font=f)
        y = cy - geo.size * 0.58
        draw.rounded_rectangle([cx - tw / 2 - 6, y - 13, cx + tw / 2 + 6, y + 13], radius=8, fill=(20, 120, 40))
        text_centered(draw, (cx, y), d, f, fill=(255, 255, 255))
