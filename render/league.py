"""A league's standings (issue #35, ``/league standings``): a table to read on a phone (720 px wide, no text under
18 px), the leaders marked, players out of the league greyed. Every word is given by the caller already in the
reader's language."""

from __future__ import annotations

from .colours import GRID, INK, MUTED, PLAYER_COLOURS, lighten
from .common import banner, canvas, fit_text, font, to_png

WIDTH = 720
PAD = 20
HEAD = 64
ROW = 46
# columns: place (centre), player (left edge), then the centres of points, tie-break 1, tie-break 2, games
COLUMNS = (PAD + 24, PAD + 58, 412, 512, 604, 680)
NUMBER_W = 92              # the widest a number column's head may be
GOLD, SILVER, BRONZE = (214, 168, 36), (150, 156, 166), (176, 112, 64)


def _num(x: float) -> str:
    return f"{x:g}"


def standings_png(titles: tuple[str, ...], rows: list[tuple]) -> bytes:
    """``titles``: (the league in words, then the column heads: place, player, points, two tie-breaks, games);
    ``rows``: (rank, name, points, (tie1, tie2), games, byes, out) best first."""
    caption, *heads = titles
    height = 56 + PAD + HEAD + max(1, len(rows)) * ROW + PAD
    img, draw = canvas(WIDTH, height)
    text, f = fit_text(draw, caption, WIDTH - 2 * PAD, 24, bold=True)
    banner(draw, WIDTH, "", colour=PLAYER_COLOURS[0])
    draw.text((WIDTH // 2, 28), text, font=f, fill=(255, 255, 255), anchor="mm")
    top = 56 + PAD
    label, lf = fit_text(draw, heads[0], 2 * (COLUMNS[0] - 2), 18)
    draw.text((COLUMNS[0], top + HEAD - 14), label, font=lf, fill=MUTED, anchor="ms")
    draw.text((COLUMNS[1], top + HEAD - 14), heads[1], font=font(18), fill=MUTED, anchor="ls")
    for x, h in zip(COLUMNS[2:], heads[2:], strict=True):
        label, lf = fit_text(draw, h, NUMBER_W, 18)
        draw.text((x, top + HEAD - 14), label, font=lf, fill=MUTED, anchor="ms")
    draw.line([PAD, top + HEAD - 4, WIDTH - PAD, top + HEAD - 4], fill=GRID, width=2)
    medals = {1: GOLD, 2: SILVER, 3: BRONZE}
    for i, (rank, name, points, ties, games, byes, out) in enumerate(rows):
        y = top + HEAD + i * ROW
        if i % 2 == 0:
            draw.rectangle([PAD, y, WIDTH - PAD, y + ROW], fill=lighten(PLAYER_COLOURS[0], 0.9))
        ink = MUTED if out else INK
        mid = y + ROW // 2
        if rank in medals and not out:
            draw.ellipse([COLUMNS[0] - 18, mid - 17, COLUMNS[0] + 18, mid + 17], fill=medals[rank])
            draw.text((COLUMNS[0], mid), str(rank), font=font(22, True), fill=(255, 255, 255), anchor="mm")
        else:
            draw.text((COLUMNS[0], mid), str(rank), font=font(22, True), fill=ink, anchor="mm")
        shown, nf = fit_text(draw, name + (" ✗" if out else ""), COLUMNS[2] - 40 - COLUMNS[1], 24, bold=rank == 1)
        draw.text((COLUMNS[1], mid), shown, font=nf, fill=ink, anchor="lm")
        draw.text((COLUMNS[2], mid), _num(points), font=font(26, True), fill=ink, anchor="mm")
        draw.text((COLUMNS[3], mid), _num(ties[0]), font=font(22), fill=ink, anchor="mm")
        draw.text((COLUMNS[4], mid), _num(ties[1]), font=font(22), fill=ink, anchor="mm")
        draw.text((COLUMNS[5], mid), str(games + byes), font=font(22), fill=ink, anchor="mm")
    return to_png(img)
