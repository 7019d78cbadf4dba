"""A player card (issue #27, ``/profile``): a player's rating per game in one server, with a small line of how
it went game after game. Drawn to read on a phone (640 px wide, no text under 18 px), every word given by the
caller already in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass, field

from .colours import BACKGROUND, GRID, INK, MUTED, PLAYER_COLOURS, lighten
from .common import banner, canvas, fit_text, font, to_png

WIDTH = 640
PAD = 24
ROW = 150
LINE_W, LINE_H = 250, 96


@dataclass
class CardRow:
    title: str                      # the game's title
    rating: str                     # "1612" or "1512?" (provisional)
    detail: str                     # "12 rated games · 8 won"
    history: list[int] = field(default_factory=list)    # the shown rating after each rated game, from 1500
    caption: str = ""               # the history line's words: "last 20 games" …


def profile_png(name: str, rows: list[CardRow], empty: str = "") -> bytes:
    """The card of ``name``: one band per game (title, rating, detail, history line); ``empty`` the sentence
    shown when there is no rated game."""
    height = 56 + PAD + max(1, len(rows)) * ROW + PAD
    img, draw = canvas(WIDTH, height)
    banner(draw, WIDTH, name, colour=PLAYER_COLOURS[0])
    if not rows:
        text, f = fit_text(draw, empty, WIDTH - 2 * PAD, 26)
        draw.text((WIDTH // 2, 56 + PAD + ROW // 2), text, font=f, fill=MUTED, anchor="mm")
        return to_png(img)
    for i, row in enumerate(rows):
        top = 56 + PAD + i * ROW
        colour = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        draw.rounded_rectangle([PAD, top + 6, WIDTH - PAD, top + ROW - 6], radius=14, fill=lighten(colour, 0.85),
                               outline=GRID, width=2)
        left = PAD + 18
        title, f = fit_text(draw, row.title, WIDTH - 3 * PAD - LINE_W - 18, 28, bold=True)
        draw.text((left, top + 20), title, font=f, fill=INK)
        draw.text((left, top + 56), row.rating, font=font(48, True), fill=colour)
        detail, f = fit_text(draw, row.detail, WIDTH - 3 * PAD - LINE_W - 18, 20)
        draw.text((left, top + 112), detail, font=f, fill=MUTED)
        _history_line(draw, row, (WIDTH - PAD - 18 - LINE_W, top + 22), colour)
    return to_png(img)


def _history_line(draw, row: CardRow, origin, colour) -> None:
    x0, y0 = origin
    draw.rectangle([x0, y0, x0 + LINE_W, y0 + LINE_H], fill=BACKGROUND, outline=GRID, width=1)
    values = row.history[-30:]
    if len(values) >= 2:
        low, high = min(values), max(values)
        span = max(high - low, 20)
        mid = (low + high) / 2
        low, high = mid - span / 2, mid + span / 2

        def point(i, v):
            return (x0 + 8 + i * (LINE_W - 16) / (len(values) - 1),
                    y0 + LINE_H - 8 - (v - low) * (LINE_H - 16) / (high - low))
        draw.line([point(i, v) for i, v in enumerate(values)], fill=colour, width=4, joint="curve")
        x, y = point(len(values) - 1, values[-1])
        draw.ellipse([x - 6, y - 6, x + 6, y + 6], fill=colour, outline=INK)
    if row.caption:
        caption, f = fit_text(draw, row.caption, LINE_W, 18)
        draw.text((x0 + LINE_W // 2, y0 + LINE_H + 6), caption, font=f, fill=MUTED, anchor="ma")
