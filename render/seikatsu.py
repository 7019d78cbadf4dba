"""Seikatsu images: the hexagonal garden with its tiles, koi ponds, fountains and streams; a side panel with
the score track, garden cards, the bag, the viewer's own hand and what just happened; at the end each
pagoda's seven flower rows with their best flower highlighted.

Everything is drawn from the view (engine.seikatsu.Seikatsu.view); the engine's fixed geometry (space
names, pagoda corners) is imported, never its state. A seated player sees the garden from their own
pagoda, placed at the bottom so that their flower rows stand as the columns of the picture; the channel
image (no viewer) keeps one fixed side with the blue pagoda at the top.

Tiles read without colour vision: the bird is a round badge with the initial of its name in the image's
language (C crane, F finch, H heron, S sparrow; in Italian G gru, F fringuello, A airone, P passero) and
the flower has its own number of petals (iris 3, poppy 4, lily 6, marigold 10) besides its
colour. Each space shows its name (as in the actions: ``place heron lily c3``).
"""

from __future__ import annotations

import math

from engine.hexgrid import rotate, to_pixel
from engine.seikatsu import CELL, LABEL, PAGODA_CORNER, PAGODA_ORDER
from i18n import _, ngettext, pgettext, word

from . import register
from .colours import BACKGROUND, GRID, HIGHLIGHT, INK, MUTED, contrast, darken, lighten
from .common import banner, canvas, fit_text, font, hexagon, keep_exact, text_centered, wrap_words

WIDTH = 720               # a phone shows ~400 px: the panel goes under the garden, not beside it
SIZE = 50                 # hex circumradius of the main garden
GARDEN_W = WIDTH          # the garden's part of the image (all its width; the panel is below)
BANNER_H = 56
GARDEN_H = 770

PAGODA_COLOURS = {"pink": (222, 96, 150), "blue": (40, 105, 200), "green": (30, 140, 75)}
BIRD_COLOURS = {"crane": (45, 45, 55), "finch": (240, 196, 20), "heron": (90, 130, 175), "sparrow": (150, 95, 45)}
FLOWER_COLOURS = {"iris": (120, 80, 200), "lily": (250, 250, 246), "poppy": (222, 52, 42),
                  "marigold": (246, 150, 20)}
LILY_GROUND = (196, 222, 170)   # a lily pad: a lily tile's ground, so it never looks like an empty (paper) space
PETALS = {"iris": 3, "poppy": 4, "lily": 6, "marigold": 10}
WATER = (120, 180, 215)
KOI_FISH = (240, 110, 30)
PAPER = (252, 249, 240)
keep_exact(*PAGODA_COLOURS.values(), *BIRD_COLOURS.values(), *FLOWER_COLOURS.values(), WATER, KOI_FISH, PAPER,
           LILY_GROUND, game="seikatsu")


# ----- geometry -----------------------------------------------------------------------------------------
def rotation_for(view: dict, viewer: str | None) -> int:
    """Sixths of a turn that bring the viewer's pagoda to the bottom of the picture (0 for the channel)."""
    colour = view["pagodas"].get(viewer) if viewer is not None else None
    if colour is None:
        return 0
    corner = PAGODA_CORNER[colour]
    return next(k for k in range(6) if rotate(corner, k) == (0, 3))


class Garden:
    """Maps axial cells to pixels for one picture of the garden."""

    def __init__(self, centre: tuple[float, float], size: float, steps: int):
        self.cx, self.cy = centre
        self.size = size
        self.steps = steps

    def px(self, cell) -> tuple[float, float]:
        q, r = rotate((cell[0], cell[1]), self.steps)
        x, y = to_pixel(q, r, self.size, pointy=False)
        return self.cx + x, self.cy + y

    def hexagon(self, cell, shrink: float = 0.0):
        return hexagon(self.px(cell), self.size - shrink, pointy=False)

    def outward(self, cell, distance: float) -> tuple[float, float]:
        """A point beyond ``cell`` away from the centre (for pagodas)."""
        x, y = self.px(cell)
        dx, dy = x - self.cx, y - self.cy
        norm = math.hypot(dx, dy) or 1.0
        return x + dx / norm * distance, y + dy / norm * distance


# ----- symbols ------------------------------------------------------------------------------------------
def draw_flower(draw, centre, radius: float, flower: str) -> None:
    cx, cy = centre
    colour = FLOWER_COLOURS[flower]
    edge = darken(colour, 0.45)
    n = PETALS[flower]
    petal = radius * (0.62 if n <= 4 else 0.5 if n <= 6 else 0.36)
    for i in range(n):
        a = -math.pi / 2 + 2 * math.pi * i / n
        px, py = cx + math.cos(a) * radius * 0.55, cy + math.sin(a) * radius * 0.55
        draw.ellipse([px - petal, py - petal, px + petal, py + petal], fill=colour, outline=edge, width=1)
    heart = radius * 0.28
    draw.ellipse([cx - heart, cy - heart, cx + heart, cy + heart], fill=(250, 215, 60), outline=edge, width=1)


def draw_bird(draw, centre, radius: float, bird: str) -> None:
    cx, cy = centre
    colour = BIRD_COLOURS[bird]
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=colour,
                 outline=darken(colour, 0.5), width=2)
    text_centered(draw, (cx, cy + 1), word(bird)[0].upper(), font(max(14, int(radius * 1.25)), bold=True),
                  fill=contrast(colour))


def draw_koi(draw, centre, size: float) -> None:
    """A koi fish swimming in a pond."""
    cx, cy = centre
    body_w, body_h = size * 0.42, size * 0.2
    draw.ellipse([cx - body_w, cy - body_h, cx + body_w * 0.7, cy + body_h], fill=KOI_FISH,
                 outline=darken(KOI_FISH, 0.4), width=2)
    tail = [(cx + body_w * 0.55, cy), (cx + body_w * 1.05, cy - body_h * 1.1), (cx + body_w * 1.05, cy + body_h * 1.1)]
    draw.polygon(tail, fill=KOI_FISH, outline=darken(KOI_FISH, 0.4))
    eye = size * 0.04
    draw.ellipse([cx - body_w * 0.6 - eye, cy - eye * 1.5, cx - body_w * 0.6 + eye, cy + eye * 0.5], fill=INK)


def tile_ground(tile: dict | None):
    if tile is None:
        return PAPER
    if tile["koi"]:
        return WATER
    if tile["flower"] == "lily":
        return LILY_GROUND
    return lighten(FLOWER_COLOURS[tile["flower"]], 0.6)


def draw_tile_ground(draw, garden: Garden, cell, tile: dict | None, open_space: bool = True) -> None:
    """A space's hexagon: paper when empty (white where a tile may go now), the flower's colour (water for a
    koi pond) when planted."""
    ground = tile_ground(tile) if tile is not None or open_space else BACKGROUND
    draw.polygon(garden.hexagon(cell, shrink=1.5), fill=ground,
                 outline=GRID if tile is None else darken(ground, 0.35), width=2)


def label_point(garden: Garden, cell, planted: bool) -> tuple[float, float]:
    """Where a space's name is centred: mid-space when empty, above the bird on a tile. Only the space's
    centre turns with the viewer's side; the name itself is always drawn upright, so every seat reads the same
    names the commands take (``place heron lily c3``)."""
    x, y = garden.px(cell)
    return (x, y - garden.size * 0.6) if planted else (x, y)


def draw_tile_face(draw, garden: Garden, cell, tile: dict | None, label: str, open_space: bool = True) -> None:
    """What stands on a space: its name, and the bird badge and flower, or a koi."""
    size = garden.size
    x, y = garden.px(cell)
    if tile is None:
        if label:
            text_centered(draw, label_point(garden, cell, False), label,
                          font(max(14, int(size * 0.4)), bold=open_space), fill=INK if open_space else MUTED)
        return
    if tile["koi"]:
        draw_koi(draw, (x, y + size * 0.12), size)
    else:
        draw_bird(draw, (x, y - size * 0.02), size * 0.3, tile["bird"])
        draw_flower(draw, (x, y + size * 0.55), size * 0.24, tile["flower"])
    if label:
        draw_tile_label(draw, garden, cell, tile, label)


def draw_tile_label(draw, garden: Garden, cell, tile: dict, label: str, halo: bool = False) -> None:
    """A planted space's name; ``halo`` sets it on a small plate of the tile's ground colour where a fountain
    badge would otherwise run into it (a plate, not a text stroke: stroked text bypasses the glyph cache)."""
    x, y = label_point(garden, cell, True)
    fnt = font(max(12, int(garden.size * 0.36)))
    ground = tile_ground(tile)
    if halo:
        half_w, half_h = draw.textlength(label, font=fnt) / 2 + 3, fnt.size * 0.55
        draw.rounded_rectangle([x - half_w, y - half_h, x + half_w, y + half_h], radius=4, fill=ground)
    text_centered(draw, (x, y), label, fnt, fill=darken(ground, 0.6))


def draw_tile(draw, garden: Garden, cell, tile: dict | None, label: str = "") -> None:
    draw_tile_ground(draw, garden, cell, tile)
    draw_tile_face(draw, garden, cell, tile, label)


def hand_tile(tile: str) -> dict:
    if tile == "koi":
        return {"koi": True, "bird": None, "flower": None}
    bird, flower = tile.split()
    return {"koi": False, "bird": bird, "flower": flower}


def draw_pagoda(draw, centre, size: float, colour) -> None:
    """A three-roofed pagoda."""
    cx, cy = centre
    fill = PAGODA_COLOURS[colour]
    edge = darken(fill, 0.45)
    for i, w in enumerate((0.55, 0.45, 0.35)):
        top = cy + size * (0.3 - 0.3 * i)
        draw.polygon([(cx - size * w, top), (cx + size * w, top), (cx + size * w * 0.6, top - size * 0.2),
                      (cx - size * w * 0.6, top - size * 0.2)], fill=fill, outline=edge)
        draw.rectangle([cx - size * w * 0.45, top, cx + size * w * 0.45, top + size * 0.1], fill=lighten(fill, 0.5),
                       outline=edge)
    draw.line([cx, cy - size * 0.5, cx, cy - size * 0.72], fill=edge, width=3)


def draw_fountain(draw, point, size: float, colour, highlight: bool = False) -> None:
    x, y = point
    r = size * 0.26
    if highlight:
        draw.ellipse([x - r - 6, y - r - 6, x + r + 6, y + r + 6], fill=HIGHLIGHT)
    draw.ellipse([x - r, y - r, x + r, y + r], fill=PAGODA_COLOURS[colour], outline=INK, width=2)
    d = r * 0.55  # a water drop
    draw.polygon([(x, y - d * 1.3), (x + d * 0.7, y + d * 0.2), (x - d * 0.7, y + d * 0.2)], fill=(255, 255, 255))
    draw.ellipse([x - d * 0.7, y - d * 0.4, x + d * 0.7, y + d], fill=(255, 255, 255))


# ----- text helpers -------------------------------------------------------------------------------------
def team_name(view: dict, names: dict, colour: str) -> str:
    return " & ".join(names.get(s, s) for s in view["seats"] if view["pagodas"][s] == colour)


def pagodas_in_use(view: dict) -> list[str]:
    used = set(view["pagodas"].values())
    return [c for c in PAGODA_ORDER if c in used]


def tile_words(tile: str) -> str:
    """A tile's name in the image's language ("heron lily", "koi pond"): each tile is a marked word."""
    return _("koi pond") if tile == "koi" else word(tile)


def describe_last(view: dict, names: dict) -> str:
    last = view.get("last")
    if not last:
        # a context keeps this short pattern from being taken for an engine's sentence (i18n.line)
        tiles = ", ".join(pgettext("image", "{tile} on {space}", tile=word(f"{b['bird']} {b['flower']}"),
                                   space=b["space"]) for b in view["board"])
        return _("The garden is planted: {tiles}.", tiles=tiles)
    who = names.get(last["seat"], last["seat"])
    kind = last["action"]
    if kind == "place":
        space, points = last["space"], last["points"]
        if last["tile"] == "koi":
            if points:
                text = _("{who} placed a koi pond on {space} as a {bird}: +{points}.", who=who, space=space,
                         bird=word(last["bird"]), points=points)
            else:
                text = _("{who} placed a koi pond on {space}: no bird matched.", who=who, space=space)
        elif points:
            text = _("{who} placed {tile} on {space}: +{points}.", who=who, tile=tile_words(last["tile"]),
                     space=space, points=points)
        else:
            text = _("{who} placed {tile} on {space}: no matching bird.", who=who, tile=tile_words(last["tile"]),
                     space=space)
        if last.get("closed"):
            text = _("{text} The 4th koi pond closes the fountains (Mogami River).", text=text)
        return text
    if kind == "fountain":
        return _("{who} placed a fountain at {spaces}.", who=who, spaces=" ".join(last["spaces"]))
    if kind == "card":
        return _("{who} took the {card} card.", who=who, card=word(last["card"]))
    n = last["count"]
    if n == 0:
        return _("{who} kept their hand.", who=who)
    return ngettext("{who} put {n} tile back and drew {n}.", "{who} put {n} tiles back and drew {n}.", n, who=who)


def banner_text(view: dict, names: dict, viewer) -> tuple[str, tuple]:
    result = view.get("result")
    if result:
        best = max(result["scores"].values())
        winners = result["winners"]
        colours = {view["pagodas"][s] for s in winners}
        if len(colours) == 1:
            colour = colours.pop()
            return ngettext("{team} wins with {best}", "{team} win with {best}", len(winners),
                            team=team_name(view, names, colour), best=best), PAGODA_COLOURS[colour]
        teams = ", ".join(team_name(view, names, c) for c in pagodas_in_use(view) if c in colours)
        return _("Shared win at {best}: {teams}", best=best, teams=teams), INK
    seat = view["turn"]
    phase = view["phase"]
    if phase == "place" and view["free_corners"] and view["fountains_left"].get(seat):
        step = _("place a tile or a fountain")
    else:
        step = {"place": _("place a tile"), "card": _("take a garden card"), "putback": _("put tiles back?")}[phase]
    if seat == viewer:
        return _("Your turn — {step}", step=step), PAGODA_COLOURS[view["pagodas"][seat]]
    return _("{name}'s turn — {step}", name=names.get(seat, seat), step=step), PAGODA_COLOURS[view["pagodas"][seat]]


# ----- the garden ---------------------------------------------------------------------------------------
def garden_for(view: dict, viewer) -> Garden:
    """The main garden as ``render`` draws it for this viewer (turned so their pagoda is at the bottom)."""
    return Garden((GARDEN_W / 2 + 5, BANNER_H + GARDEN_H / 2 - 5), SIZE, rotation_for(view, viewer))


def label_positions(view: dict, viewer) -> dict[str, tuple[float, float]]:
    """Each space's name and the point its (upright) text is centred on in this viewer's image."""
    garden = garden_for(view, viewer)
    planted = {(t["q"], t["r"]) for t in view["board"]}
    return {name: label_point(garden, cell, cell in planted) for cell, name in LABEL.items()}


def draw_garden(draw, view: dict, names: dict, garden: Garden) -> None:
    size = garden.size
    board = {(t["q"], t["r"]): t for t in view["board"]}
    # the printed centre pond: a round pond on the paper, so it is not taken for a koi pond tile
    x, y = garden.px((0, 0))
    draw.polygon(garden.hexagon((0, 0), shrink=1.5), fill=BACKGROUND, outline=GRID, width=2)
    draw.ellipse([x - size * 0.78, y - size * 0.62, x + size * 0.78, y + size * 0.62], fill=lighten(WATER, 0.2),
                 outline=darken(WATER, 0.3), width=2)
    draw_koi(draw, (x, y), size * 0.8)
    open_spaces = {tuple(CELL[s]) for s in view["open_spaces"]}
    for cell in LABEL:
        draw_tile_ground(draw, garden, cell, board.get(cell), cell in open_spaces)
    draw_streams(draw, view, garden)  # under the symbols, so birds and flowers stay readable
    for cell, label in LABEL.items():
        # A planted space's name sits near its upper corners, where a fountain may stand in this seat's turn of
        # the garden: it is written after the fountains so the badge never hides it.
        draw_tile_face(draw, garden, cell, board.get(cell), "" if cell in board else label, cell in open_spaces)
    last = view.get("last") or {}
    if last.get("action") == "place":
        draw.polygon(garden.hexagon((last["q"], last["r"]), shrink=3), outline=HIGHLIGHT, width=7)
    highlighted = tuple(last.get("spaces", [])) if last.get("action") in ("fountain", "card", "putback") else ()
    for f in view["fountains"]:
        point = corner_point(garden, f["cells"])
        draw_fountain(draw, point, size, f["pagoda"], highlight=tuple(f["spaces"]) == highlighted)
    at_fountain = {tuple(c) for f in view["fountains"] for c in f["cells"]}
    for cell, tile in board.items():
        draw_tile_label(draw, garden, cell, tile, LABEL[cell], halo=cell in at_fountain)
    for colour in pagodas_in_use(view):
        corner = PAGODA_CORNER[colour]
        at = garden.outward(corner, size * 1.55)
        draw_pagoda(draw, at, size * 0.95, colour)
        draw_pagoda_name(draw, view, names, garden, colour, at)


def draw_pagoda_name(draw, view, names, garden: Garden, colour: str, at) -> None:
    """The pagoda's player(s), on the side away from the garden and inside the garden's part of the image:
    beside the pagoda at the top (the banner is above), below it at the bottom; at the sides, where the
    free corner of the image is narrow, in up to two short lines above (upper side) or below (lower side)."""
    size = garden.size
    fill = darken(PAGODA_COLOURS[colour], 0.2)
    name = team_name(view, names, colour)
    central = abs(at[0] - garden.cx) < size
    if central:
        if at[1] < garden.cy:
            text, f = fit_text(draw, name, int(GARDEN_W / 2 - size * 1.2), 20, bold=True, min_size=18)
            draw.text((at[0] + size * 0.7, at[1]), text, font=f, fill=fill, anchor="lm")
        else:
            text, f = fit_text(draw, name, GARDEN_W - 40, 20, bold=True, min_size=18)
            text_centered(draw, (at[0], at[1] + size * 0.62), text, f, fill=fill)
        return
    width = 150
    f = font(19, bold=True)
    lines = wrap_words(draw, name, width, f)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    lines = [fit_text(draw, line, width, 19, bold=True, min_size=18)[0] for line in lines]
    x = min(max(at[0], 8 + width / 2), GARDEN_W - 8 - width / 2)
    step = 23
    if at[1] < garden.cy:
        y = at[1] - size * 0.95 - step * (len(lines) - 1)
    else:
        y = at[1] + size * 0.62
    for i, line in enumerate(lines):
        text_centered(draw, (x, y + i * step), line, f, fill=fill)


def corner_point(garden: Garden, cells) -> tuple[float, float]:
    pts = [garden.px(c) for c in cells]
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def draw_streams(draw, view: dict, garden: Garden) -> None:
    """Each stream as a river in its pagoda's colour, flowing from the fountain through its chain (a tree
    found breadth first, so it reads as a river rather than a net). Bird streams run wide and dark, flower
    streams narrower and lighter."""
    for colour, streams in view["streams"].items():
        fountains = [f["cells"] for f in view["fountains"] if f["pagoda"] == colour]
        for stream in streams:
            is_bird = stream["card"] in BIRD_COLOURS
            col = PAGODA_COLOURS[colour] if is_bird else lighten(PAGODA_COLOURS[colour], 0.45)
            width = 10 if is_bird else 7
            cells = {tuple(c) for c in stream["cells"]}
            seen: set = set()
            segments = []
            frontier = []
            for corner in fountains:
                point = corner_point(garden, corner)
                for c in map(tuple, corner):
                    if c in cells and c not in seen:
                        seen.add(c)
                        frontier.append(c)
                        segments.append((point, garden.px(c)))
            while frontier:
                here = frontier.pop(0)
                for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                    there = (here[0] + dq, here[1] + dr)
                    if there in cells and there not in seen:
                        seen.add(there)
                        frontier.append(there)
                        segments.append((garden.px(here), garden.px(there)))
            for p, q in segments:
                draw.line([p, q], fill=darken(col, 0.35), width=width + 4)
            for p, q in segments:
                draw.line([p, q], fill=col, width=width)


# ----- the panel ----------------------------------------------------------------------------------------
def draw_panel(draw, view: dict, names: dict, x0: int, y0: int) -> int:
    """The score track, cards and bag, the viewer's hand, the last action and a key; returns its bottom."""
    width = WIDTH - x0 - 20
    y = y0
    over = "result" in view
    draw.text((x0, y), _("Final scores") if over else _("Score"), font=font(24, bold=True), fill=INK)
    y += 36
    top = max([s["total"] for s in view["scores"].values()] + [1])
    for colour in pagodas_in_use(view):
        seat = next(s for s in view["seats"] if view["pagodas"][s] == colour)
        score = view["scores"][seat]
        col = PAGODA_COLOURS[colour]
        draw_pagoda(draw, (x0 + 20, y + 22), 34, colour)
        name, f = fit_text(draw, team_name(view, names, colour), width - 130, 22, bold=True, min_size=18)
        draw.text((x0 + 48, y + 2), name, font=f, fill=INK)
        text = str(score["total"])
        draw.text((x0 + width - draw.textlength(text, font=font(30, bold=True)), y - 2), text,
                  font=font(30, bold=True), fill=darken(col, 0.2))
        # the score track: a bar against the leader
        bar_y = y + 34
        draw.rounded_rectangle([x0 + 48, bar_y, x0 + width, bar_y + 10], radius=5, fill=lighten(GRID, 0.5))
        filled = x0 + 48 + (width - 48) * score["total"] / top
        draw.rounded_rectangle([x0 + 48, bar_y, max(x0 + 58, filled), bar_y + 10], radius=5, fill=col)
        y += 52
        parts = [_("birds {n}", n=score["birds"])]
        if over:
            parts += [_("flowers {n}", n=score["flowers"])]
            if view["yarimizu"]:
                parts += [_("fountains {n}", n=score["fountains"])]
        detail = " · ".join(parts)
        if view["yarimizu"]:
            cards = view["garden_cards"][seat]
            left = view["fountains_left"][seat]
            extra = _("cards: {cards}", cards=", ".join(word(c) for c in cards) if cards else pgettext("cards", "none"))
            if not over and view["fountains_open"]:
                extra = _("{cards} · fountains left {n}", cards=extra, n=left)
            detail_lines = [detail, extra]
        else:
            detail_lines = [detail]
        for line in detail_lines:
            for part in wrap_words(draw, line, width - 48, font(19)):
                draw.text((x0 + 48, y), part, font=font(19), fill=MUTED)
                y += 25
        y += 10
    # the bag, koi ponds and the garden cards on the table
    draw.line([x0, y, x0 + width, y], fill=GRID, width=2)
    y += 12
    lines = [ngettext("Bag: {n} tile · koi ponds placed {koi}/4", "Bag: {n} tiles · koi ponds placed {koi}/4",
                      view["bag"], koi=view["koi_placed"])]
    if view["yarimizu"]:
        if view["fountains_open"]:
            lines.append(_("Cards on the table: {cards}",
                           cards=", ".join(word(c) for c in view["cards_open"]) or pgettext("cards", "none")))
            lines.append(_("Fountains until the 4th koi pond."))
        else:
            lines.append(_("Mogami River: no more fountains."))
    for line in lines:
        for part in wrap_words(draw, line, width, font(20)):
            draw.text((x0, y), part, font=font(20), fill=INK)
            y += 26
    y += 8
    # the viewer's hand (only in their private view)
    if view.get("hand"):
        draw.line([x0, y, x0 + width, y], fill=GRID, width=2)
        y += 12
        draw.text((x0, y), _("Your hand"), font=font(22, bold=True), fill=INK)
        y += 32
        hand_size = 46
        for tile in view["hand"]:
            g = Garden((x0 + hand_size + 4, y + hand_size), hand_size, 0)
            draw_tile(draw, g, (0, 0), hand_tile(tile))
            name, f = fit_text(draw, tile_words(tile), width - hand_size * 2 - 24, 22,
                               bold=True, min_size=18)
            if word(tile) == tile:
                draw.text((x0 + hand_size * 2 + 20, y + hand_size - 14), name, font=f, fill=INK)
            else:
                # in another language, the tile's name as the commands take it, beneath the translated one
                draw.text((x0 + hand_size * 2 + 20, y + hand_size - 28), name, font=f, fill=INK)
                typed = _("typed: {tile}", tile=tile)
                draw.text((x0 + hand_size * 2 + 20, y + hand_size + 2), typed, font=font(19), fill=MUTED)
            y += hand_size * 2 + 4
        y += 8
    # what just happened
    draw.line([x0, y, x0 + width, y], fill=GRID, width=2)
    y += 12
    for part in wrap_words(draw, describe_last(view, names), width, font(20))[:4]:
        draw.text((x0, y), part, font=font(20), fill=INK)
        y += 26
    y += 8
    # a key to the symbols
    draw.line([x0, y, x0 + width, y], fill=GRID, width=2)
    y += 14
    for i, bird in enumerate(BIRD_COLOURS):
        bx, by = x0 + (i % 2) * (width // 2), y + (i // 2) * 34
        draw_bird(draw, (bx + 14, by + 14), 14, bird)
        draw.text((bx + 36, by + 2), word(bird), font=font(19), fill=INK)
    y += 70
    for i, flower in enumerate(FLOWER_COLOURS):
        fx, fy = x0 + (i % 2) * (width // 2), y + (i // 2) * 34
        draw_flower(draw, (fx + 14, fy + 14), 15, flower)
        draw.text((fx + 36, fy + 2), word(flower), font=font(19), fill=INK)
    y += 70
    return y


# ----- the end: flower rows per pagoda ------------------------------------------------------------------
ROWS_SIZE = 25
ROWS_H = 410
PANEL_MAX_H = 1100        # room for the panel under the garden (the image is cut to what was used)


def draw_rows(draw, view: dict, names: dict, x: int, y: int, colour: str, width: int) -> None:
    """One pagoda's view of the finished garden, seen from that pagoda (at the bottom): its rows stand as
    columns, the best flower (and the koi ponds) of each row in full colour, the other tiles faded, and under
    each column the row's points and count."""
    size = ROWS_SIZE
    steps = next(k for k in range(6) if rotate(PAGODA_CORNER[colour], k) == (0, 3))
    garden = Garden((x + width / 2, y + 40 + 6.1 * size), size, steps)
    rows = view["rows"][colour]
    best = {tuple(cell): row["flower"] for row in rows for cell in row["cells"]}
    board = {(t["q"], t["r"]): t for t in view["board"]}
    total = sum(row["points"] for row in rows)
    heading = _("{team}: flowers {total}", team=team_name(view, names, colour), total=total)
    head, f = fit_text(draw, heading, width - 10, 21, bold=True,
                       min_size=18)
    text_centered(draw, (x + width / 2, y + 14), head, f, fill=darken(PAGODA_COLOURS[colour], 0.2))
    cx, cy = garden.px((0, 0))
    draw.ellipse([cx - size * 0.7, cy - size * 0.55, cx + size * 0.7, cy + size * 0.55], fill=lighten(WATER, 0.2))
    for cell in LABEL:
        tile = board[cell]
        ground = WATER if tile["koi"] else FLOWER_COLOURS[tile["flower"]]
        poly = garden.hexagon(cell, shrink=1)
        if tile["koi"] or tile["flower"] == best[cell]:
            draw.polygon(poly, fill=ground, outline=darken(ground, 0.55), width=2)
        else:
            draw.polygon(poly, fill=lighten(ground, 0.82), outline=lighten(GRID, 0.3))
    # count × and points under each column, on one line below the garden
    line_y = garden.cy + 6.1 * size + 16
    for row in rows:
        col_x = garden.px(row["cells"][0])[0]
        text_centered(draw, (col_x, line_y), str(row["points"]), font(19, bold=True), fill=INK)
        text_centered(draw, (col_x, line_y + 22), f"×{row['count']}", font(17), fill=MUTED)


# ----- the image ----------------------------------------------------------------------------------------
@register("seikatsu")
def render(view: dict, names: dict, viewer):
    # drawn on a tall sheet, then cut to what was used (the panel grows with a hand and long names); the rows
    # of scored lines come only at the end, so only then does the sheet have room for them (a sheet is
    # cleared before it is drawn on: a third less to clear on every other picture)
    room = BANNER_H + GARDEN_H + PANEL_MAX_H + (2 * ROWS_H if "result" in view else 0)
    img, bottom = draw_sheet(view, names, viewer, room)
    if bottom > room:               # more than foreseen: again, on a sheet that holds it all
        img, bottom = draw_sheet(view, names, viewer, bottom)
    return img.crop((0, 0, WIDTH, bottom))


def draw_sheet(view: dict, names: dict, viewer, height: int):
    """The whole image on a sheet ``height`` tall, and how far down it reached (beyond the sheet: cut off)."""
    over = "result" in view
    img, draw = canvas(WIDTH, height, BACKGROUND)
    text, colour = banner_text(view, names, viewer)
    banner(draw, WIDTH, text, colour=colour, height=BANNER_H)
    garden = garden_for(view, viewer)
    draw_garden(draw, view, names, garden)
    top = BANNER_H + GARDEN_H
    draw.line([20, top, WIDTH - 20, top], fill=GRID, width=2)
    bottom = draw_panel(draw, view, names, 24, top + 14)
    if over:
        draw.line([20, bottom, WIDTH - 20, bottom], fill=GRID, width=2)
        used = pagodas_in_use(view)
        per_line = min(2, len(used))
        cell_w = (WIDTH - 40) // per_line
        for i, colour in enumerate(used):
            draw_rows(draw, view, names, 20 + (i % per_line) * cell_w, bottom + 10 + (i // per_line) * ROWS_H,
                      colour, cell_w)
        bottom += ROWS_H * -(-len(used) // per_line)
    return img, bottom
