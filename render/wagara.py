"""Wagara as a river seen from above, flowing down the image: the beach and the rope at the top, positions 1–9
flowing down to the falls and the rapids below them; each deposit, with the gems lying there, beside its
position; canoes in their owners' colours, each with its owner's letter and number and the gem it carries; the
weather track, the buoy, what the river did last round; each player's collection, played cards and this round's
choice; and, for a seated viewer, their own hand and secret choice. Once the game is over, the final count.
The image is 800 px wide so its smallest text stays legible on a phone (Discord shows it about 400 px wide).

Everything is drawn from the view (engine.wagara.Wagara.view), so the channel image never shows a choice that
is still secret. The last action is highlighted: the canoe that moved (with an arrow from where it started),
canoes that went over the falls, a delivered gem, the weather marker.
"""

from __future__ import annotations

from PIL import ImageDraw

from engine.wagara import COLOURS
from i18n import _, ngettext, pgettext, word

from . import register
from .colours import BACKGROUND, GRID, HIGHLIGHT, INK, MUTED, PLAYER_COLOURS, contrast, darken, lighten
from .common import banner, canvas, fit_lines, fit_text, font, keep_exact, text_centered

GEM_COLOURS = {"violet": (128, 60, 200), "white": (250, 250, 250), "yellow": (245, 200, 30), "blue": (30, 100, 215),
               "red": (215, 40, 40)}
WATER = (150, 200, 230)
WATER_DARK = (95, 150, 195)
SAND = (236, 215, 160)
ROCK = (120, 120, 125)
PANEL = (238, 231, 216)
keep_exact(*GEM_COLOURS.values(), WATER, WATER_DARK, SAND, ROCK, PANEL, game="wagara")

WIDTH = 800               # a phone shows ~400 px: 18 px text stays 9 px there
BANNER_H = 60
INFO_Y, INFO_H = 68, 84
RIVER_Y = INFO_Y + INFO_H
BAND_H = 104                                     # the beach above the river, the rapids below it
POS_H = 50                                       # one position of the river
WATER_X = 316                                    # the water (canoes) right of the position discs and deposits
DEPOSIT_X, DEPOSIT_W = 64, WATER_X - 64 - 8
RIVER_H = BAND_H + 9 * POS_H + 22 + BAND_H       # beach, nine positions, the falls, the rapids
CANOE_W, CANOE_H, CANOE_GAP = 92, 40, 6
CANOE_GEM = 38
LAST_Y = RIVER_Y + RIVER_H + 10
LAST_H = 56
PLAYERS_Y = LAST_Y + LAST_H + 10
ROW_H = 104
CARD_W, CARD_H = 30, 40
GEM_LETTER_MIN = 18   # the smallest letter on a gem (legible on a phone)


@register("wagara")
def render(view: dict, names: dict, viewer: str | None):
    seats = view["seats"]
    colour_of = {s: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, s in enumerate(seats)}
    name_of = {s: str(names.get(s, s)) for s in seats}
    labels = _canoe_labels(seats, name_of)
    over = view["result"] is not None
    private = viewer in seats
    height = PLAYERS_Y + ROW_H * len(seats) + (60 if over else 0) + (70 if private and not over else 0) + 16
    img, draw = canvas(WIDTH, height)
    hl = _highlights(view)

    _banner(draw, view, name_of, colour_of)
    _info(draw, view, name_of, hl)
    _river(draw, view, colour_of, labels, hl)
    _deposits(draw, view)
    _last_line(draw, view, name_of)
    y = PLAYERS_Y
    if over:
        y = _result_header(draw, view, y)
    for seat in seats:
        _player_row(draw, view, seat, y, name_of, colour_of, labels, hl, viewer)
        y += ROW_H
    if private and not over:
        _hand_strip(draw, view, viewer, y + 8, colour_of[viewer])
    return img


# ----- what to highlight ---------------------------------------------------------------------------------

def _highlights(view: dict) -> dict:
    """From the last action's events: the canoe moved (owner, number, from, to), the canoes that fell, a
    delivered gem, a weather change, a recovery."""
    hl = {"moved": None, "fell": set(), "delivered": None, "weather": None, "recovered": set(), "flowed": False,
          "robbed": None}
    for e in view["last"]["events"]:
        if e["type"] == "move":
            hl["moved"] = e
            if e["stole"]:
                hl["robbed"] = (e["stole"]["from"], e["stole"]["canoe"])
            if e["delivered"]:
                hl["delivered"] = (e["seat"], e["delivered"])
        elif e["type"] == "weather":
            hl["weather"] = e["to"]
        elif e["type"] in ("recover", "free_recover"):
            hl["recovered"].add((e["seat"], e["canoe"]))
        elif e["type"] == "flow":
            hl["flowed"] = True
    if hl["flowed"] and view["last_flow"]:
        hl["fell"] = {(f["owner"], f["canoe"]) for f in view["last_flow"]["fell"]}
    return hl


def _canoe_labels(seats, name_of) -> dict:
    """A letter per player for the canoes: the name's initial, or the seat's letter in order (A, B, C…) if initials
    clash or one is not a letter. Never a digit, so a canoe label ("E2") can never read as a number ("52")."""
    initials = [(name_of[s].strip()[:1] or "?").upper() for s in seats]
    if len(set(initials)) == len(initials) and all(i.isalpha() for i in initials):
        return dict(zip(seats, initials, strict=True))
    return {s: "ABCDEFGH"[i] for i, s in enumerate(seats)}


# ----- the banner and the weather --------------------------------------------------------------------------

def _card_name(card) -> str:
    return _("the Cloud") if card == "cloud" else str(card)


def _colour(colour: str) -> str:
    """A gem colour as the viewer reads it."""
    return word(colour)


def _banner(draw, view, name_of, colour_of) -> None:
    r = view["result"]
    if r is not None:
        winners = " & ".join(name_of[s] for s in r["winners"])
        text = (_("Game over · {winners} wins", winners=winners) if len(r["winners"]) == 1
                else _("Game over · {winners} share the win", winners=winners))
        banner(draw, WIDTH, text, colour=HIGHLIGHT, height=BANNER_H)
    elif view["phase"] == "choose":
        done = sum(1 for s in view["seats"] if view["chosen"][s])
        banner(draw, WIDTH, _("Round {round} · choose your paddle cards ({done}/{total} chosen)", round=view["round"],
                              done=done, total=len(view["seats"])), colour=INK, height=BANNER_H)
    else:
        actor = view["actor"]
        card = view["turn"]["card"]
        if card == "cloud":
            text = _("Round {round} · {name} to move · played the Cloud", round=view["round"], name=name_of[actor])
        else:
            text = _("Round {round} · {name} to move · played {card}", round=view["round"], name=name_of[actor],
                     card=card)
        banner(draw, WIDTH, text, colour=colour_of[actor], height=BANNER_H)


def _info(draw, view, name_of, hl) -> None:
    y = INFO_Y
    label, f = fit_text(draw, _("Weather"), 96, 20, bold=True, min_size=18)
    draw.text((16, y + 20), label, font=f, fill=INK, anchor="lm")
    x0 = 116
    for i, w in enumerate((-1, 0, 1, 2)):
        x = x0 + i * 58
        here = view["weather"] == w
        fill = (lighten(HIGHLIGHT, 0.2) if hl["weather"] == w else (90, 110, 140)) if here else PANEL
        draw.rounded_rectangle([x, y + 2, x + 52, y + 38], radius=8, fill=fill,
                               outline=INK if here else GRID, width=3 if here else 1)
        text_centered(draw, (x + 26, y + 20), f"{w:+d}" if w else "0", font(20, True),
                      fill=contrast(fill) if here else MUTED)
    buoy = _("Buoy: {name}", name=name_of[view["buoy"]])
    bx = x0 + 4 * 58 + 20
    t, f = fit_text(draw, buoy, WIDTH - 16 - bx - 34, 20, bold=True, min_size=18)
    _buoy_icon(draw, (bx + 14, y + 20), 14)
    draw.text((bx + 34, y + 20), t, font=f, fill=INK, anchor="lm")
    flow = view["last_flow"]
    if flow:
        weather = f"{flow['weather']:+d}" if flow["weather"] else "0"
        text = _("Last flow: {k} (lowest card {lowest}, weather {weather})", k=flow["k"], lowest=flow["lowest"],
                 weather=weather)
    else:
        text = _("Flow each round = lowest card + weather")
    t, f = fit_text(draw, text, WIDTH - 32, 20, min_size=18)
    draw.text((16, y + 62), t, font=f, fill=INK if hl["flowed"] else MUTED, anchor="lm")


def _buoy_icon(draw, centre, r) -> None:
    cx, cy = centre
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(230, 60, 50), outline=INK, width=2)
    draw.ellipse([cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5], fill=BACKGROUND, outline=INK, width=2)
    for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        draw.line([cx + dx * r * 0.5, cy + dy * r * 0.5, cx + dx * r, cy + dy * r], fill=(255, 255, 255), width=3)


# ----- gems and canoes -------------------------------------------------------------------------------------

def _gem_letter(colour: str) -> str:
    """The initial on a gem, in the viewer's language (each a literal, so the catalog has it; in Italian bianco
    and blu would share a B, so both take two letters)."""
    return {"violet": pgettext("gem letter", "V"), "white": pgettext("gem letter", "W"),
            "yellow": pgettext("gem letter", "Y"), "blue": pgettext("gem letter", "B"),
            "red": pgettext("gem letter", "R")}[colour]


def gem(draw, centre, size: float, colour: str) -> None:
    """A cut gem: a diamond in the gem's colour with its initial, so colours never need telling apart."""
    cx, cy = centre
    h = size / 2
    fill = GEM_COLOURS[colour]
    draw.polygon([(cx, cy - h), (cx + h * 0.85, cy), (cx, cy + h), (cx - h * 0.85, cy)], fill=fill,
                 outline=darken(fill, 0.45) if colour != "white" else (120, 120, 120), width=2)
    if size >= 34:
        letter = _gem_letter(colour)
        # a two-letter initial (Italian) gets the same minimum size but may not grow past the diamond's waist
        f = font(max(GEM_LETTER_MIN, int(size * (0.42 if len(letter) == 1 else 0.36))), True)
        text_centered(draw, (cx, cy + 1), letter, f, fill=contrast(fill))


def canoe_shape(draw, x, y, colour, label: str, gem_colour, highlight=False) -> None:
    w, h = CANOE_W, CANOE_H
    if highlight:
        draw.rounded_rectangle([x - 4, y - 4, x + w + 4, y + h + 4], radius=8, outline=HIGHLIGHT, width=4)
    hull = [(x, y), (x + w, y), (x + w - 12, y + h), (x + 12, y + h)]
    draw.polygon(hull, fill=colour, outline=darken(colour, 0.4), width=2)
    text_centered(draw, (x + 30, y + h // 2), label, font(20, True), fill=contrast(colour))
    if gem_colour:
        gem(draw, (x + w - 24, y + h // 2), CANOE_GEM, gem_colour)
    else:
        draw.ellipse([x + w - 30, y + h // 2 - 6, x + w - 18, y + h // 2 + 6], outline=contrast(colour), width=2)


def _pos_y(position: int) -> int:
    """The top of a position's row (1–9) down the river."""
    return RIVER_Y + BAND_H + (position - 1) * POS_H


# ----- the deposits and the river ------------------------------------------------------------------------

def _deposits(draw, view) -> None:
    """Each deposit beside its position: its own gems (×n) and the gems unloaded there from elsewhere."""
    for site in COLOURS:
        pos = view["deposit_positions"][site]
        y = _pos_y(pos) + 3
        x, w, h = DEPOSIT_X, DEPOSIT_W, POS_H - 6
        col = GEM_COLOURS[site]
        draw.rounded_rectangle([x, y, x + w, y + h], radius=8, fill=lighten(col, 0.75), outline=darken(col, 0.3),
                               width=2)
        own = view["deposit_gems"][site][site]
        cy = y + h // 2
        gem(draw, (x + 22, cy), 40, site)
        draw.text((x + 42, cy), f"×{own}", font=font(20, True), fill=INK, anchor="lm")
        others = [(c, n) for c, n in view["deposit_gems"][site].items() if n and c != site]
        for i, (c, n) in enumerate(others[:4]):              # gems unloaded here from elsewhere
            gx = x + 104 + i * 50
            gem(draw, (gx, cy), 34, c)
            draw.text((gx + 15, cy), str(n), font=font(18, True), fill=INK, anchor="lm")


def _river(draw, view, colour_of, labels, hl) -> None:
    top = RIVER_Y
    beach_bottom = top + BAND_H
    water_bottom = _pos_y(10)
    rapids_top = water_bottom + 22
    # beach, water, rope, positions, falls, rapids
    draw.rounded_rectangle([16, top, WIDTH - 16, beach_bottom - 6], radius=12, fill=SAND, outline=darken(SAND, 0.3))
    draw.text((26, top + 8), _("BEACH"), font=font(18, True), fill=darken(SAND, 0.6))
    draw.rectangle([16, beach_bottom, WIDTH - 16, water_bottom], fill=WATER)
    draw.line([16, beach_bottom - 2, WIDTH - 16, beach_bottom - 2], fill=(120, 80, 40), width=5)   # the rope
    for p in range(1, 10):
        y = _pos_y(p)
        if p > 1:
            draw.line([16, y, WIDTH - 16, y], fill=WATER_DARK, width=1)
        site = _site_at(view, p)
        fill = lighten(GEM_COLOURS[site], 0.5) if site else (255, 255, 255)
        cy = y + POS_H // 2
        draw.ellipse([40 - 19, cy - 19, 40 + 19, cy + 19], fill=fill, outline=WATER_DARK, width=2)
        text_centered(draw, (40, cy), str(p), font(20, True))
    for x in range(16, WIDTH - 36, 20):                                                     # the falls
        draw.polygon([(x, water_bottom), (x + 10, water_bottom + 20), (x + 20, water_bottom)], fill=WATER_DARK)
    draw.rounded_rectangle([16, rapids_top, WIDTH - 16, rapids_top + BAND_H - 6], radius=12, fill=(200, 205, 210),
                           outline=ROCK)
    draw.text((26, rapids_top + 8), _("RAPIDS"), font=font(18, True), fill=darken(ROCK, 0.3))

    spots: dict = {}
    for c in view["canoes"]:
        key = c["position"] if c["where"] == "river" else c["where"]
        spots.setdefault(key, []).append(c)
    moved = hl["moved"]
    if moved and moved["kind"] != "stay" and not hl["flowed"]:       # after a flow the canoe has drifted on
        _arrow(draw, moved)
    right = WIDTH - 60                                               # room for the arrow at the right
    for key, canoes in spots.items():
        if key in ("beach", "rapids"):
            x0 = 130
            y0 = top + 10 if key == "beach" else rapids_top + 8
            rows = 2
        else:
            x0, y0, rows = WATER_X, _pos_y(key) + (POS_H - CANOE_H) // 2, 1
        per_row = -(-len(canoes) // rows)
        step = min(CANOE_W + CANOE_GAP, (right - x0 - CANOE_W) // max(1, per_row - 1))   # crowded: overlap
        for i, c in enumerate(canoes):
            x = x0 + (i % per_row) * step
            y = y0 + (i // per_row) * (CANOE_H + 4)
            who = (c["owner"], c["number"])
            lit = (moved is not None and (moved["seat"], moved["canoe"]) == who) or who in hl["fell"] \
                or who in hl["recovered"] or who == hl["robbed"]
            canoe_shape(draw, x, y, colour_of[c["owner"]], f"{labels[c['owner']]}{c['number']}", c["gem"], lit)


def _site_at(view, position):
    return next((s for s, p in view["deposit_positions"].items() if p == position), None)


def _spot_y(position: int) -> int:
    """The centre y of a position (0: the beach)."""
    if position == 0:
        return RIVER_Y + BAND_H // 2
    return _pos_y(position) + POS_H // 2


def _arrow(draw, e) -> None:
    """An arrow down the river's right edge from where the last canoe started to where it stopped."""
    x = WIDTH - 36
    a, b = _spot_y(e["from"]), _spot_y(e["to"])
    if a == b:
        return
    draw.line([x, a, x, b], fill=HIGHLIGHT, width=6)
    d = 1 if b > a else -1
    draw.polygon([(x, b), (x - 10, b - d * 16), (x + 10, b - d * 16)], fill=HIGHLIGHT, outline=INK)
    draw.ellipse([x - 6, a - 6, x + 6, a + 6], fill=HIGHLIGHT, outline=INK)


# ----- the last action, in words ---------------------------------------------------------------------------

def _last_line(draw: ImageDraw.ImageDraw, view, name_of) -> None:
    text = _last_text(view, name_of)
    if not text:
        return
    draw.rounded_rectangle([16, LAST_Y, WIDTH - 16, LAST_Y + LAST_H], radius=8, fill=lighten(HIGHLIGHT, 0.7))
    lines, f = fit_lines(draw, text, WIDTH - 48, 20, min_size=18)
    step = f.size + 4
    for i, line in enumerate(lines):
        draw.text((28, LAST_Y + LAST_H / 2 + (i - (len(lines) - 1) / 2) * step), line, font=f, fill=INK,
                  anchor="lm")


def _last_text(view, name_of) -> str:
    bits = []
    for e in view["last"]["events"]:
        t = e["type"]
        who = name_of.get(e.get("seat"), e.get("seat"))
        if t == "move":
            bits.append(_("{name}'s canoe {canoe}: {moves}", name=who, canoe=e["canoe"], moves=_move_words(e, name_of)))
        elif t == "weather":
            bits.append(_("{name} moved the weather to {weather}", name=who,
                          weather=f"{e['to']:+d}" if e["to"] else "0"))
        elif t == "recover":
            bits.append(_("{name} paid {colour} for canoe {canoe}", name=who, colour=_colour(e["paid"]),
                          canoe=e["canoe"]))
        elif t == "free_recover":
            bits.append(_("{name} got canoe {canoe} back free", name=who, canoe=e["canoe"]))
        elif t == "end_turn":
            bits.append(_("{name} ended the turn", name=who))
        elif t == "choose" and view["phase"] == "choose":
            bits.append(_("{name} chose a card", name=who))
        elif t == "flow" and view["last_flow"]:
            flow = view["last_flow"]
            fell = ", ".join(_("{name}'s canoe {canoe}", name=name_of.get(f["owner"], f["owner"]), canoe=f["canoe"])
                             for f in flow["fell"])
            bits.append(_("the river flowed {k} ({canoes} over the falls)", k=flow["k"], canoes=fell) if fell
                        else _("the river flowed {k}", k=flow["k"]))
    if not bits and view["round"] == 1 and view["phase"] == "choose":
        return _("Choose a paddle card: 1–6 paddles your canoes, the Cloud moves the weather.")
    return _("Last: {events}", events="; ".join(bits)) if bits else ""


def _op_words(op) -> str:
    if op["op"] == "unload":
        return _("unload {colour}", colour=_colour(op["gem"]))
    return _("load {colour}", colour=_colour(op["gem"]))


def _move_words(e, name_of) -> str:
    words = [_op_words(op) for op in e["pre"]]
    if e["kind"] == "launch":
        words.append(_("launched to {position}", position=e["to"]))
    elif e["kind"] == "land":
        words.append(_("landed with {colour}", colour=_colour(e["delivered"])) if e["delivered"] else _("landed"))
    elif e["kind"] == "up":
        words.append(_("up {steps} to {position}", steps=e["steps"], position=e["to"]))
    elif e["kind"] == "down":
        words.append(_("down {steps} to {position}", steps=e["steps"], position=e["to"]))
    words += [_op_words(op) for op in e["post"]]
    if e["stole"]:
        words.append(_("stole {colour} from {name}", colour=_colour(e["stole"]["gem"]),
                       name=name_of.get(e["stole"]["from"], e["stole"]["from"])))
    return ", ".join(words)


# ----- the players -----------------------------------------------------------------------------------------

def _result_header(draw, view, y) -> int:
    lines, f = fit_lines(draw, _("Final count: gems, then their value (violet 1 … red 5). ✓ = qualified"),
                         WIDTH - 32, 20, bold=True, min_size=18)
    for i, line in enumerate(lines):
        draw.text((16, y + 14 + i * (f.size + 4)), line, font=f, fill=INK, anchor="lm")
    return y + 52


def _player_row(draw, view, seat, y, name_of, colour_of, labels, hl, viewer) -> None:
    col = colour_of[seat]
    acting = seat in view["to_act"]
    r = view["result"]
    winner = r is not None and seat in r["winners"]
    fill = lighten(HIGHLIGHT, 0.6) if winner else (lighten(col, 0.8) if acting else PANEL)
    draw.rounded_rectangle([16, y + 4, WIDTH - 16, y + ROW_H - 4], radius=10, fill=fill,
                           outline=col if acting or winner else GRID, width=4 if acting or winner else 1)
    # who: colour tile with the canoe letter, name, buoy
    draw.rounded_rectangle([28, y + 24, 68, y + ROW_H - 24], radius=6, fill=col, outline=darken(col, 0.4), width=2)
    text_centered(draw, (48, y + ROW_H // 2), labels[seat], font(22, True), fill=contrast(col))
    name = _("{name} (you)", name=name_of[seat]) if seat == viewer else name_of[seat]
    t, f = fit_text(draw, name, 200, 22, bold=True, min_size=18)
    draw.text((80, y + 34), t, font=f, fill=INK, anchor="lm")
    status = _status(view, seat)
    t, f = fit_text(draw, status, 200, 18, min_size=18)
    draw.text((80, y + 68), t, font=f, fill=INK if acting else MUTED, anchor="lm")
    if view["buoy"] == seat:
        _buoy_icon(draw, (30, y + 20), 12)
    # collection on the first line
    x = 296
    gy = y + 32
    cols = view["collections"][seat]
    delivered = hl["delivered"]
    for c in COLOURS:
        if delivered == (seat, c):
            draw.rounded_rectangle([x - 4, gy - 24, x + 66, gy + 24], radius=6, outline=HIGHLIGHT, width=4)
        gem(draw, (x + 18, gy), 38, c)
        draw.text((x + 38, gy), str(cols[c]), font=font(22, True), fill=INK if cols[c] else MUTED, anchor="lm")
        x += 80
    total = sum(cols.values())
    draw.text((x + 4, gy), f"= {total}", font=font(22, True), fill=INK, anchor="lm")
    # the second line: the value and whether it qualified, or the played pile (oldest first; this round's card,
    # revealed, is framed)
    x, ly = 296, y + 74
    if r is not None:
        ok = seat in r["qualified"]
        draw.text((x, ly), _("value {value}", value=r["values"][seat]), font=font(20, True), fill=INK, anchor="lm")
        t, f = fit_text(draw, _("✓ qualified") if ok else _("not qualified"), WIDTH - 28 - x - 130, 18, bold=True)
        draw.text((x + 130, ly), t, font=f, fill=(0, 120, 60) if ok else MUTED, anchor="lm")
        return
    played = view["played"][seat]
    this = view["this_round"][seat]
    avail = WIDTH - 28 - x
    step = min(CARD_W + 4, max(14, (avail - CARD_W) // max(1, len(played))))
    for i, card in enumerate(played):
        current = this is not None and i == len(played) - 1
        _card(draw, x + i * step, ly - CARD_H // 2 - 2, card, current)
    if not played:
        draw.text((x, ly), _("no cards played"), font=font(18), fill=MUTED, anchor="lm")


def _status(view, seat) -> str:
    if view["result"] is not None:
        n = sum(view["collections"][seat].values())
        if seat in view["result"]["winners"]:
            return ngettext("{n} gem  ★ winner", "{n} gems  ★ winner", n)
        # the engine's summary writes the same two sentences as templates: one catalog entry each, not a plural
        return _("{n} gem", n=n) if n == 1 else _("{n} gems", n=n)
    if view["phase"] == "choose":
        return _("has chosen") if view["chosen"][seat] else _("choosing a card…")
    this = view["this_round"][seat]
    if seat == view["actor"]:
        return _("moving: {card}", card=_card_name(this))
    if this is not None:
        return _("played {card}", card=_card_name(this))
    return _("waiting (card hidden)")


def _card(draw, x, y, card, current=False, size=1.0) -> None:
    w, h = int(CARD_W * size), int(CARD_H * size)
    fill = (255, 255, 255) if card != "cloud" else (205, 220, 235)
    draw.rounded_rectangle([x, y, x + w, y + h], radius=5, fill=fill, outline=HIGHLIGHT if current else INK,
                           width=4 if current else 2)
    if card == "cloud":
        _cloud(draw, (x + w / 2, y + h / 2), w * 0.8)
    else:
        text_centered(draw, (x + w / 2, y + h / 2), str(card), font(int(20 * size), True))


def _cloud(draw, centre, width) -> None:
    cx, cy = centre
    r = width / 4
    fill, line = (255, 255, 255), (90, 110, 140)
    for dx, dy, rr in ((-r, r * 0.3, r), (r, r * 0.3, r), (0, -r * 0.2, r * 1.25)):
        draw.ellipse([cx + dx - rr, cy + dy - rr, cx + dx + rr, cy + dy + rr], fill=fill, outline=line, width=2)
    draw.rectangle([cx - r, cy + r * 0.3 - r + 3, cx + r, cy + r * 0.3 + r - 2], fill=fill)


def _hand_strip(draw, view, viewer, y, col) -> None:
    draw.rounded_rectangle([16, y, WIDTH - 16, y + 58], radius=10, fill=lighten(col, 0.85), outline=col, width=3)
    draw.text((30, y + 29), _("Your hand:"), font=font(20, True), fill=INK, anchor="lm")
    x = 30 + int(draw.textlength(_("Your hand:"), font=font(20, True))) + 14
    for card in view["hand"]:
        _card(draw, x, y + 9, card)
        x += CARD_W + 6
    x += 16
    choice = view.get("my_choice")
    if choice is not None:
        text = _("Your secret choice:")
        draw.text((x, y + 29), text, font=font(20, True), fill=INK, anchor="lm")
        _card(draw, x + int(draw.textlength(text, font=font(20, True))) + 12, y + 9, choice, current=True)
    elif view["phase"] == "choose" and viewer in view["to_act"]:
        t, f = fit_text(draw, _("Choose a card (only you see this)."), WIDTH - 30 - x, 20, min_size=18)
        draw.text((x, y + 29), t, font=f, fill=INK, anchor="lm")
