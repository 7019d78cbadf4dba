"""An ended game's analysis as a graph (issue #37): each player's win chance across the game, in the seat
colours of the board images, with a mark at each inaccuracy (?!), mistake (?) and blunder (??).

Drawn to read on a phone (800 px wide, no text under 18 px, thick lines, marks that differ in shape and size
as well as colour). Registered as the renderer ``analysis``, so the image workers draw it like any board: the
"view" is plain data made by table/analysis.py, every word already in the reader's language::

    {"title": str, "moves": int,
     "series": [{"name", "index" (seat position), "pagoda" (Seikatsu's colour or None),
                 "points": [[step, chance]], "marks": [[step, chance, mark]]}],
     "words": {"move": str, "chance": str, "marks": {mark: word}}}
"""

from __future__ import annotations

from . import register
from .colours import BACKGROUND, GRID, INK, MUTED, PLAYER_COLOURS, darken, lighten
from .common import banner, canvas, fit_text, font

WIDTH = 800
PAD = 24
PLOT_TOP = 56 + 28
PLOT_H = 380
LEFT = 84                  # room for the percentages
RIGHT = 28
LEGEND_ROW = 40
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
RADIUS = {"inaccuracy": 7, "mistake": 9, "blunder": 12}


def colour_of(series: dict):
    """The seat's colour as its board draws it: Seikatsu's pagoda colour, else the seat's player colour."""
    if series.get("pagoda"):
        from .seikatsu import PAGODA_COLOURS

        colour = PAGODA_COLOURS.get(series["pagoda"])
        if colour is not None:
            return colour
    return PLAYER_COLOURS[int(series.get("index", 0)) % len(PLAYER_COLOURS)]


def _legend_rows(draw, series: list[dict], words: dict) -> list[list[tuple[str, tuple, int]]]:
    """The legend's entries (text, colour, width) packed into rows that fit the image."""
    f = font(22, True)
    rows: list[list] = [[]]
    used = PAD
    for s in series:
        text = s["name"][:24]
        w = 36 + int(draw.textlength(text, font=f)) + 24
        if rows[-1] and used + w > WIDTH - PAD:
            rows.append([])
            used = PAD
        rows[-1].append((text, colour_of(s), w))
        used += w
    return rows


@register("analysis")
def render(view: dict, names: dict | None = None, viewer: str | None = None):
    series = view.get("series") or []
    words = view.get("words") or {}
    moves = max(1, int(view.get("moves") or 1))
    probe, probe_draw = canvas(8, 8)
    legend = _legend_rows(probe_draw, series, words)
    height = PLOT_TOP + PLOT_H + 44 + len(legend) * LEGEND_ROW + LEGEND_ROW + PAD
    img, draw = canvas(WIDTH, height)
    banner(draw, WIDTH, view.get("title", ""))
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = PLOT_TOP, PLOT_TOP + PLOT_H

    def xy(step, chance):
        return (x0 + (x1 - x0) * step / moves, y1 - (y1 - y0) * max(0.0, min(1.0, chance)))

    # the grid: 0, 25, 50, 75, 100 %; the moves along the bottom
    small = font(18)
    for pct in (0, 25, 50, 75, 100):
        y = xy(0, pct / 100)[1]
        draw.line([(x0, y), (x1, y)], fill=GRID if pct not in (0, 100) else MUTED, width=2 if pct == 50 else 1)
        draw.text((x0 - 10, y), f"{pct}%", font=small, fill=MUTED, anchor="rm")
    step = _tick_step(moves)
    for k in range(0, moves + 1, step):
        x = xy(k, 0)[0]
        draw.line([(x, y1), (x, y1 + 6)], fill=MUTED, width=2)
        draw.text((x, y1 + 10), str(k), font=small, fill=MUTED, anchor="ma")
    label = words.get("move", "move")
    draw.text((x1, y1 + 10 + 22), label, font=small, fill=MUTED, anchor="ra")
    # each player's line, then the marks on top of every line
    for s in series:
        points = [xy(k, v) for k, v in s.get("points") or []]
        colour = colour_of(s)
        if len(points) >= 2:
            draw.line(points, fill=colour, width=5, joint="curve")
        for p in points[:1] + points[-1:]:
            draw.ellipse([p[0] - 4, p[1] - 4, p[0] + 4, p[1] + 4], fill=colour)
    bold = font(18, True)
    for s in series:
        colour = colour_of(s)
        for k, v, mark in s.get("marks") or []:
            x, y = xy(k, v)
            r = RADIUS.get(mark, 8)
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour if mark != "inaccuracy" else lighten(colour, 0.5),
                         outline=INK, width=3 if mark == "blunder" else 2)
            symbol = SYMBOLS.get(mark, "")
            ty = y - r - 4 if y - r - 26 > y0 else y + r + 4
            # a halo of the paper's colour: the symbol stays readable where it crosses a line
            draw.text((x, ty), symbol, font=bold, fill=darken(colour, 0.35), anchor="mb" if ty < y else "mt",
                      stroke_width=4, stroke_fill=BACKGROUND)
    # the legend: a swatch and each name; then what the marks mean
    y = y1 + 64
    big = font(22, True)
    for row in legend:
        x = PAD
        for text, colour, w in row:
            draw.rounded_rectangle([x, y + 8, x + 26, y + 30], radius=5, fill=colour, outline=INK, width=1)
            draw.text((x + 34, y + 19), text, font=big, fill=INK, anchor="lm")
            x += w
        y += LEGEND_ROW
    # what the marks mean, each with its mark as the graph draws it (the sizes tell them apart)
    marks = words.get("marks") or {}
    entries = [(m, f"{SYMBOLS[m]} {marks.get(m, m)}") for m in ("inaccuracy", "mistake", "blunder")]
    size = 20
    f = font(size)
    while size > 18 and sum(2 * RADIUS[m] + 8 + draw.textlength(t, font=f) + 22 for m, t in entries) > WIDTH - 2 * PAD:
        size -= 1
        f = font(size)
    x, cy = PAD, y + 19
    for m, text in entries:
        r = RADIUS[m]
        draw.ellipse([x, cy - r, x + 2 * r, cy + r], fill=lighten(MUTED, 0.5) if m == "inaccuracy" else MUTED,
                     outline=INK, width=3 if m == "blunder" else 2)
        x += 2 * r + 8
        text, tf = fit_text(draw, text, max(40, WIDTH - PAD - x), size)
        draw.text((x, cy), text, font=tf, fill=INK, anchor="lm")
        x += int(draw.textlength(text, font=tf)) + 22
    return img


def _tick_step(moves: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if moves / step <= 10:
            return step
    return max(1, moves // 10)
