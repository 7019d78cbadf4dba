"""Wassamasaw as two player sheets side by side: the 5×5 grid with its circles, the conversion tracks, the
dice pool, whose turn it is, what just happened, and the score breakdown once the game is over.

Everything is drawn from the view (engine.wassamasaw.Wassamasaw.view); nothing in Wassamasaw is hidden, so
every viewer sees the same picture except that the viewer's own sheet is marked "you".
"""

from __future__ import annotations

from PIL import Image

from engine.elements import ELEMENTS, FEEDS
from engine.wassamasaw import FORBIDDEN
from i18n import _, ngettext, word

from . import register
from .colours import ELEMENT_COLOURS, GRID, HIGHLIGHT, INK, MUTED, PLAYER_COLOURS, contrast, darken, lighten
from .common import banner, canvas, die, element_symbol, fit_lines, fit_text, font, text_centered

# The pairs that may never touch (engine.wassamasaw.FORBIDDEN, W3), each once.
FORBIDDEN_PAIRS = sorted({tuple(sorted((a, b), key=ELEMENTS.index)) for a, bs in FORBIDDEN.items() for b in bs},
                         key=lambda p: (ELEMENTS.index(p[0]), ELEMENTS.index(p[1])))

WIDTH = 600              # a phone shows ~400 px: the two sheets are stacked, not side by side
PANEL = WIDTH
BANNER_H = 60
LAST_H = 56
POOL_TITLE_H = 36
TILE_W, TILE_H = 94, 86    # a pool die's tile: the die, its symbol beside it, room under it for a "convert" tag
POOL_COLS = 5
POOL_LEFT = 12
POOL_H = POOL_TITLE_H + 2 * TILE_H + 6
KEY_H = 76
KEY_FONT = 17              # 11 px at phone width
KEY_SYMBOL = 22
CELL = 76
GRID_LEFT = 56            # room for the row numbers (the die faces) left of the grid
HEADER_H = 56
COL_LABEL_H = 30
TRACK_ROW = 46
BOX = 38
SUMMARY_H = 40
TABLE_ROW = 36


@register("wassamasaw")
def render(view: dict, names: dict, viewer: str | None) -> Image.Image:
    seats = view["seats"]
    over = view.get("result") is not None
    table_h = (len(ELEMENTS) + 4) * TABLE_ROW + 24 if over else 0
    panel_h = HEADER_H + COL_LABEL_H + 5 * CELL + 18 + 5 * TRACK_ROW + SUMMARY_H
    sheets_h = len(seats) * panel_h
    pool_h = 0 if over else POOL_H            # once over the pool is empty: give the room to the score
    top = BANNER_H + LAST_H + pool_h + KEY_H
    img, draw = canvas(WIDTH, top + sheets_h + table_h + 16)

    def name(seat):
        return names.get(seat, seat)

    _banner(draw, view, seats, name)
    _last_line(draw, view, name)
    if not over:
        _pool(draw, view, BANNER_H + LAST_H)
    _key(draw, BANNER_H + LAST_H + pool_h)
    placed, crossed = _highlights(view)
    for i, seat in enumerate(seats):
        _sheet(draw, view, seat, i, name(seat), viewer, (0, top + i * panel_h), placed.get(seat, set()),
               crossed.get(seat, {}))
        if i:
            draw.line([6, top + i * panel_h, WIDTH - 6, top + i * panel_h], fill=GRID, width=2)
    if over:
        _score_table(draw, view, seats, name, top + sheets_h + 8)
    return img


# ----- top: banner, last action, pool --------------------------------------------------------------------------
def _banner(draw, view, seats, name) -> None:
    result = view.get("result")
    if result is not None:
        scores = result["scores"]
        score_text = " – ".join(str(scores[s]) for s in seats)
        if len(result["winners"]) > 1:
            text = _("Game over · shared win · {scores}", scores=score_text)
        elif result["decided_by"] == "quarters":
            text = _("Game over · {winner} wins on circle quarters · {scores}", winner=name(result["winners"][0]),
                     scores=score_text)
        else:
            text = _("Game over · {winner} wins · {scores}", winner=name(result["winners"][0]), scores=score_text)
        banner(draw, WIDTH, text, INK, height=BANNER_H)
        return
    seat = view["to_act"][0]
    colour = PLAYER_COLOURS[seats.index(seat)]
    held = view["held"]
    who = {"round": view["round"], "seat": name(seat)}
    if held and view["last_round"]:
        text = _("Round {round} · LAST ROUND · {seat} to place {element} {face}", element=word(held["element"]),
                 face=held["face"], **who)
    elif held:
        text = _("Round {round} · {seat} to place {element} {face}", element=word(held["element"]),
                 face=held["face"], **who)
    elif view["last_round"]:
        text = _("Round {round} · LAST ROUND · {seat} to choose a die", **who)
    else:
        text = _("Round {round} · {seat} to choose a die", **who)
    banner(draw, WIDTH, text, colour, height=BANNER_H)


def _event_text(e, name) -> str | None:
    kind = e["kind"]
    if kind == "roll":
        return _("round {round}: {seat} rolled", round=e["round"], seat=name(e["seat"]))
    if kind not in ("take", "place", "convert"):
        return None
    die_of = {"seat": name(e["seat"]), "element": word(e["element"]), "face": e["face"]}
    if kind == "take":
        return _("{seat} took {element} {face}", **die_of)
    if kind == "place":
        gained = sum(e["quarters"].values())
        cell = f"r{e['cell'][0]}c{e['cell'][1]}"
        if gained:
            return ngettext("{seat} placed {element} {face} at {cell} (+{n} quarter)",
                            "{seat} placed {element} {face} at {cell} (+{n} quarters)", gained, cell=cell, **die_of)
        return _("{seat} placed {element} {face} at {cell}", cell=cell, **die_of)
    if e["auto"]:
        if e["box"]:
            return _("last die {element} {face} converted for {seat} (box {box})", box=e["box"], **die_of)
        return _("last die {element} {face} converted for {seat} (track full, lost)", **die_of)
    if e["box"]:
        return _("{seat} converted {element} {face} (box {box})", box=e["box"], **die_of)
    return _("{seat} converted {element} {face} (track full, lost)", **die_of)


def _last_line(draw, view, name) -> None:
    parts = [t for t in (_event_text(e, name) for e in view["last"]["events"]) if t]
    text = " · ".join(parts) if parts else _("The game begins.")
    text = text[0].upper() + text[1:]
    lines, f = fit_lines(draw, text, WIDTH - 32, 24, min_size=18)
    step = f.size + 4
    for i, line in enumerate(lines):
        draw.text((16, BANNER_H + LAST_H // 2 + (i - (len(lines) - 1) / 2) * step), line, font=f, fill=INK,
                  anchor="lm")


def pool_slots(n: int) -> list[tuple[int, int]]:
    """Top-left corner (relative to the pool's top) of each die's tile: five to a row, two rows, leaving the
    right-hand side for the die in hand."""
    return [(POOL_LEFT + (i % POOL_COLS) * TILE_W, POOL_TITLE_H + (i // POOL_COLS) * TILE_H) for i in range(n)]


def _pool(draw, view, y) -> None:
    title = _("Dice pool")
    draw.text((16, y + 10), title, font=font(22, True), fill=INK, anchor="lt")
    pool = view["pool"]
    only = view.get("convert_only") or [False] * len(pool)
    note = None
    if any(only) and not all(only):
        # Says what the hatching means, in words, where the eye meets it.
        note = _("hatched: fits nowhere, convert only")
    elif pool and all(only):
        note = _("the last two dice are converted") if len(pool) <= 2 else _("none fits: each is converted")
    if note:
        # Right of the title, up to the edge (no die is in hand then): smaller, not cut, when a language is longer.
        left = 16 + draw.textlength(title, font=font(22, True)) + 14
        text, f = fit_text(draw, note, WIDTH - 12 - left, 16, min_size=14)
        draw.text((WIDTH - 12, y + 12), text, font=f, fill=MUTED, anchor="rt")
    if not pool:
        draw.text((POOL_LEFT + 8, y + POOL_TITLE_H + TILE_H // 2), _("empty"), font=font(22), fill=MUTED, anchor="lm")
    for d, convert, (tx, ty) in zip(pool, only, pool_slots(len(pool)), strict=True):
        _pool_die(draw, d, convert, tx, y + ty)
    held = view["held"]
    if held:
        hx = (POOL_LEFT + POOL_COLS * TILE_W + WIDTH) // 2
        cy = y + POOL_TITLE_H + TILE_H - 6
        text_centered(draw, (hx, cy - 66), _("In hand"), font(20, True), fill=INK)
        draw.rounded_rectangle([hx - 46, cy - 48, hx + 46, cy + 56], radius=12, fill=lighten(HIGHLIGHT, 0.6),
                               outline=HIGHLIGHT, width=4)
        _die(draw, held, (hx, cy), 56)
    draw.line([0, y + POOL_H - 2, WIDTH, y + POOL_H - 2], fill=GRID, width=2)


def _pool_die(draw, d, convert: bool, x, y) -> None:
    """One pool die in its tile: the die, its element's symbol beside it, and when the seat choosing can only
    convert it, a hatched tile and a "convert" tag (colour alone would not do)."""
    if convert:
        box = [x + 2, y + 2, x + TILE_W - 4, y + TILE_H - 4]
        draw.rounded_rectangle(box, radius=8, fill=(236, 230, 218), outline=MUTED, width=2)
        for k in range(-TILE_H, TILE_W, 12):     # diagonal hatching, clipped to the tile by hand
            x1, y1 = x + 4 + max(k, 0), y + 4 + max(-k, 0)
            n = min(TILE_W - 8 - max(k, 0), TILE_H - 8 - max(-k, 0))
            if n > 0:
                draw.line([x1, y1, x1 + n, y1 + n], fill=(196, 186, 168), width=2)
    colour = ELEMENT_COLOURS[d["element"]]
    if convert:
        colour = lighten(colour, 0.35)
    die(draw, (x + 32, y + 34), 52, d["face"], colour=colour, outline=darken(colour, 0.4))
    element_symbol(draw, d["element"], (x + 74, y + 34), 24)
    if convert:
        text_centered(draw, (x + TILE_W // 2 - 2, y + TILE_H - 16), _("convert"), font(16, True), fill=INK)


def _die(draw, d, centre, size) -> None:
    """A die in its element's colour with pips, and the element's symbol under it for colour-blind eyes."""
    colour = ELEMENT_COLOURS[d["element"]]
    cx, cy = centre
    die(draw, (cx, cy - 8), size, d["face"], colour=colour, outline=darken(colour, 0.4))
    element_symbol(draw, d["element"], (cx, cy + size // 2 + 14), 26)


# ----- the key of the element symbols ----------------------------------------------------------------------------
def key_layout(draw) -> list[tuple[str, float, float, int]]:
    """What the key draws, as (text or 'symbol:<element>', x, y centre, font size): two lines, the feeding cycle
    with each symbol named, then the pairs that may never touch (W3). Returned for the tests as well."""
    items: list[tuple[str, float, float, int]] = []
    size = KEY_FONT
    y1, y2 = KEY_H * 0.3, KEY_H * 0.74
    x = 16.0
    feeds, never = _("Feeds"), _("Never touch")
    items.append((feeds, x, y1, size))
    x += draw.textlength(feeds, font=font(size, True)) + 10
    cycle = [ELEMENTS[0]]
    while len(cycle) <= len(ELEMENTS):
        cycle.append(FEEDS[cycle[-1]])
    for i, element in enumerate(cycle):
        items.append((f"symbol:{element}", x + KEY_SYMBOL / 2, y1, size))
        x += KEY_SYMBOL + 3
        if i < len(ELEMENTS):
            items.append((word(element), x, y1, size))
            x += draw.textlength(word(element), font=font(size)) + 4
            items.append(("→", x, y1, size))
            x += draw.textlength("→", font=font(size)) + 4
    x = 16.0
    items.append((never, x, y2, size))
    x += draw.textlength(never, font=font(size, True)) + 12
    for a, b in FORBIDDEN_PAIRS:
        items.append((f"symbol:{a}", x + KEY_SYMBOL / 2, y2, size))
        x += KEY_SYMBOL + 3
        items.append(("✗", x, y2, size))
        x += draw.textlength("✗", font=font(size, True)) + 3
        items.append((f"symbol:{b}", x + KEY_SYMBOL / 2, y2, size))
        x += KEY_SYMBOL + 16
    items.append(("symbol:earth", x + KEY_SYMBOL / 2, y2, size))
    x += KEY_SYMBOL + 4
    items.append((_("touches all"), x, y2, size))
    return items


def _key(draw, y) -> None:
    for text, x, cy, size in key_layout(draw):
        if text.startswith("symbol:"):
            element_symbol(draw, text.split(":", 1)[1], (x, y + cy), KEY_SYMBOL)
        elif text == "✗":
            draw.text((x, y + cy), text, font=font(size, True), fill=(190, 40, 30), anchor="lm")
        else:
            bold = text in (_("Feeds"), _("Never touch"))
            draw.text((x, y + cy), text, font=font(size, bold), fill=INK if bold else MUTED, anchor="lm")
    draw.line([0, y + KEY_H - 2, WIDTH, y + KEY_H - 2], fill=GRID, width=2)


# ----- a player's sheet ----------------------------------------------------------------------------------------
def _highlights(view):
    """Cells placed and track boxes crossed by the last action, per seat, to mark them on the sheets."""
    placed: dict[str, set] = {}
    crossed: dict[str, dict] = {}
    for e in view["last"]["events"]:
        if e["kind"] == "place":
            placed.setdefault(e["seat"], set()).add(tuple(e["cell"]))
        elif e["kind"] == "convert":
            crossed.setdefault(e["seat"], {})[e["element"]] = e["box"]
    return placed, crossed


def _sheet(draw, view, seat, index, display, viewer, origin, placed, crossed) -> None:
    x0, y0 = origin
    sheet = view["sheets"][seat]
    score = view["score"][seat]
    colour = PLAYER_COLOURS[index]
    acting = seat in view["to_act"]
    _sheet_header(draw, view, seat, display, viewer, colour, acting, x0, y0)

    gx, gy = x0 + GRID_LEFT, y0 + HEADER_H + COL_LABEL_H
    for c in range(5):
        text_centered(draw, (gx + c * CELL + CELL // 2, gy - COL_LABEL_H // 2), str(c + 1), font(20), fill=MUTED)
    for r in range(5):
        text_centered(draw, (gx - 24, gy + r * CELL + CELL // 2), str(r + 1), font(24, True), fill=INK)
    draw.text((x0 + 8, gy - COL_LABEL_H // 2), _("row"), font=font(18), fill=MUTED, anchor="lm")

    targets = set(view["targets"]) if acting else set()
    held = view["held"]
    for r in range(5):
        for c in range(5):
            box = [gx + c * CELL, gy + r * CELL, gx + (c + 1) * CELL, gy + (r + 1) * CELL]
            name = f"r{r + 1}c{c + 1}"
            if name in targets:
                # Where the die in hand may go: tinted in its colour and named as the action names it.
                draw.rectangle(box, fill=lighten(ELEMENT_COLOURS[held["element"]], 0.6))
                text_centered(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), name, font(20, True),
                              fill=INK)
            else:
                draw.rectangle(box, fill=(255, 253, 247))
            draw.rectangle(box, outline=GRID, width=2)
            quarters = sheet["circle_quarters"][r][c]
            if quarters is not None:
                _circle(draw, box, quarters)
            element = sheet["grid"][r][c]
            if element is not None:
                element_symbol(draw, element, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), CELL * 0.54)
            if (r + 1, c + 1) in placed:
                draw.rectangle([box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2], outline=HIGHLIGHT, width=6)
    draw.rectangle([gx, gy, gx + 5 * CELL, gy + 5 * CELL], outline=INK, width=3)
    _strength_column(draw, score, gx + 5 * CELL + 14, gy)

    ty = gy + 5 * CELL + 18
    for i, element in enumerate(ELEMENTS):
        _track(draw, view, sheet, score, element, x0, ty + i * TRACK_ROW, crossed)

    sy = ty + 5 * TRACK_ROW + SUMMARY_H // 2
    lost = sum(sheet["lost"].values())
    if lost:
        summary = _("Quarters {quarters}/32 · Score {score} · {lost} lost", quarters=sheet["quarters"],
                    score=score["total"], lost=lost)
    else:
        summary = _("Quarters {quarters}/32 · Score {score}", quarters=sheet["quarters"], score=score["total"])
    t, f = fit_text(draw, summary, PANEL - 32, 24, bold=True, min_size=18)
    draw.text((x0 + 16, sy), t, font=f, fill=INK, anchor="lm")


def _sheet_header(draw, view, seat, display, viewer, colour, acting, x0, y0) -> None:
    draw.rectangle([x0 + 8, y0 + 8, x0 + PANEL - 8, y0 + HEADER_H - 4],
                   fill=colour if acting else lighten(colour, 0.8), outline=colour, width=3)
    ink = contrast(colour) if acting else INK
    label = _("{name} (you)", name=display) if seat == viewer else display
    right = 0
    if view["first_player"] == seat:
        # The first-player token: a round disc with "1st", as the physical token sits by its owner.
        tx, ty = x0 + PANEL - 44, y0 + HEADER_H // 2 + 2
        draw.ellipse([tx - 22, ty - 20, tx + 22, ty + 20], fill=(250, 250, 250), outline=INK, width=2)
        text_centered(draw, (tx, ty), _("1st"), font(18, True), fill=INK)
        right = 56
    t, f = fit_text(draw, label, PANEL - 40 - right, 28, bold=True, min_size=18)
    draw.text((x0 + 20, y0 + HEADER_H // 2 + 2), t, font=f, fill=ink, anchor="lm")


def _circle(draw, box, quarters: int) -> None:
    """The circle printed on the cell; its filled quarters are thick dark arcs, the others thin outlines."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r = CELL * 0.42
    ring = [cx - r, cy - r, cx + r, cy + r]
    # Quarters are filled clockwise from the top-right, as a player would shade them.
    for q in range(4):
        start = -90 + q * 90
        if q < quarters:
            draw.arc(ring, start + 3, start + 87, fill=INK, width=9)
        else:
            draw.arc(ring, start + 3, start + 87, fill=MUTED, width=2)


def _strength_column(draw, score, x, y) -> None:
    """Right of the grid: each element's strength (cells + quarters), as the player would tally it."""
    draw.text((x, y - COL_LABEL_H // 2), _("strength"), font=font(18), fill=MUTED, anchor="lm")
    for i, element in enumerate(ELEMENTS):
        cy = y + i * CELL + CELL // 2
        element_symbol(draw, element, (x + 16, cy), 28)
        draw.text((x + 40, cy), str(score["strength"][element]), font=font(26, True), fill=INK, anchor="lm")
        if element in score["majorities"]:
            draw.text((x + 84, cy), "+5", font=font(20, True), fill=darken(HIGHLIGHT, 0.3), anchor="lm")


def _track(draw, view, sheet, score, element, x0, y, crossed) -> None:
    """A conversion track: the element's symbol, seven boxes (crossed ones marked ×), and the product."""
    cy = y + TRACK_ROW // 2
    element_symbol(draw, element, (x0 + 30, cy), 30)
    n = sheet["crosses"][element]
    bx = x0 + 56
    colour = ELEMENT_COLOURS[element]
    for k in range(view["track_length"]):
        box = [bx + k * (BOX + 4), cy - BOX // 2, bx + k * (BOX + 4) + BOX, cy + BOX // 2]
        fresh = crossed.get(element, -1) == k + 1
        draw.rectangle(box, fill=lighten(colour, 0.85), outline=HIGHLIGHT if fresh else darken(colour, 0.2),
                       width=5 if fresh else 2)
        if k < n:
            pad = 8
            draw.line([box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad], fill=INK, width=4)
            draw.line([box[0] + pad, box[3] - pad, box[2] - pad, box[1] + pad], fill=INK, width=4)
    if crossed.get(element, -1) is None:        # a cross past the seventh box: shown lost beside the track
        draw.text((bx + 7 * (BOX + 4) + 2, cy), "✗", font=font(24, True), fill=HIGHLIGHT, anchor="lm")
    s = score["strength"][element]
    text = f"{s} × {n} = {score['points'][element]}"
    draw.text((x0 + PANEL - 20, cy), text, font=font(24, True), fill=INK, anchor="rm")


# ----- the end -------------------------------------------------------------------------------------------------
def _score_table(draw, view, seats, name, y) -> None:
    """Per element: strength × crosses = points for each player; then majorities, total, quarters."""
    breakdown = view["result"]["breakdown"]
    winners = view["result"]["winners"]
    x_label, cols = 24, [WIDTH - 190, WIDTH - 24]
    draw.rectangle([8, y, WIDTH - 8, y + (len(ELEMENTS) + 4) * TABLE_ROW + 12], fill=(255, 253, 247),
                   outline=INK, width=2)
    y += 6
    draw.text((x_label, y + TABLE_ROW // 2), _("Score"), font=font(24, True), fill=INK, anchor="lm")
    for seat, x in zip(seats, cols, strict=True):
        t, f = fit_text(draw, name(seat), 150, 24, bold=True, min_size=18)
        draw.text((x, y + TABLE_ROW // 2), t, font=f, fill=PLAYER_COLOURS[seats.index(seat)], anchor="rm")
    y += TABLE_ROW
    for element in ELEMENTS:
        element_symbol(draw, element, (x_label + 14, y + TABLE_ROW // 2), 26)
        draw.text((x_label + 40, y + TABLE_ROW // 2), word(element), font=font(22), fill=INK, anchor="lm")
        for seat, x in zip(seats, cols, strict=True):
            b = breakdown[seat]
            text = f"{b['strength'][element]}×{b['crosses'][element]}={b['points'][element]}"
            if element in b["majorities"]:
                text += " +5"
            draw.text((x, y + TABLE_ROW // 2), text, font=font(22), fill=INK, anchor="rm")
        y += TABLE_ROW
    rows = [(_("majority bonus"), False, lambda b: f"+{b['bonus']}"),
            (_("total"), True, lambda b: str(b["total"])),
            (_("quarters (tie-break)"), False, lambda b: str(b["quarters"]))]
    for label, bold, value in rows:
        draw.text((x_label, y + TABLE_ROW // 2), label, font=font(22, bold), fill=INK, anchor="lm")
        for seat, x in zip(seats, cols, strict=True):
            text = value(breakdown[seat])
            if bold and seat in winners:
                text = "★ " + text
            draw.text((x, y + TABLE_ROW // 2), text, font=font(24 if bold else 22, bold), fill=INK, anchor="rm")
        y += TABLE_ROW
