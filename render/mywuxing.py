"""MyWuXing as a card table: the Universe deck, the pot with its top card, the Void, the hand in play or the
last hand and what happened to each of its cards, a Five Elements wheel that lights up the relation that
decided the hand (so a newcomer learns the cycles from play), every player's cards around the table, and
for a seated viewer a private strip with their own hand. Once the game is over, the final count.

Everything is drawn from the view (engine.mywuxing.MyWuXing.view): the channel image (viewer None) never
holds a hand, because the view does not.
"""

from __future__ import annotations

import math

from PIL import Image

from engine.elements import DESTROYS, ELEMENTS, FEEDS
from engine.mywuxing import CARD_TITLES
from i18n import _, line, ngettext, pgettext, word

from . import register
from .colours import ELEMENT_COLOURS, GRID, HIGHLIGHT, INK, MUTED, PLAYER_COLOURS, contrast, darken, lighten
from .common import banner, canvas, element_symbol, fit_text, font, keep_exact, text_centered

CARD_COLOURS = {**ELEMENT_COLOURS, "dragon": (120, 60, 170), "star": (50, 44, 60)}
BACK = (44, 58, 104)
PANEL_FILL = (238, 231, 216)
keep_exact(*CARD_COLOURS.values(), BACK, PANEL_FILL, game="mywuxing")

FATE_STYLE = {  # what happened to a card: (label, colour); fate_label gives the label in the image's language
    "won": ("won", (0, 128, 64)),
    "deck": ("back to deck", (0, 100, 170)),
    "pot": ("to the pot", (176, 120, 20)),
    "void": ("to the Void", (70, 60, 80)),
}

WIDTH = 800               # a phone shows ~400 px: 18 px text stays 9 px there
BANNER_H = 60
TABLE_H = 300
HAND_H = 420
PLAYERS_PER_ROW = 3
PLAYER_W, PLAYER_H = (WIDTH - 32 - 8 * (PLAYERS_PER_ROW - 1)) // PLAYERS_PER_ROW, 104
CARD_W, CARD_H = 104, 146
TEXT_W = 520               # the hand's cards and words, left of the wheel
TEXT_Y = 56 + 26 + CARD_H + 10 + 30 + 16  # the explanation line under a row of cards and their fate tags


@register("mywuxing")
def render(view: dict, names: dict, viewer: str | None) -> Image.Image:
    seats = view["seats"]
    over = view.get("result") is not None
    rows = math.ceil(len(seats) / PLAYERS_PER_ROW)
    players_h = 40 + rows * (PLAYER_H + 12)
    own_h = 252 if viewer in seats and not over and view["version"] == "think" else 0
    score_h = 70 + 40 * len(seats) if over else 0
    height = BANNER_H + TABLE_H + HAND_H + players_h + own_h + score_h + 10
    img, draw = canvas(WIDTH, height)

    def name(seat):
        return names.get(seat, seat)

    _banner(draw, view, name)
    y = BANNER_H + 8
    _table(draw, view, y)
    y += TABLE_H
    _hand_panel(draw, view, name, y)
    y += HAND_H
    _players(draw, view, name, viewer, y)
    y += players_h
    if own_h:
        _own_hand(draw, view, y)
        y += own_h
    if over:
        _scores(draw, view, name, y)
    return img


def card_name(card: str) -> str:
    """A card's name in the current language (the engine's game word: Fire → Fuoco)."""
    return word(CARD_TITLES[card])


def fate_label(fate: str) -> str:
    return {"won": pgettext("mywuxing", "won"), "deck": pgettext("mywuxing", "back to deck"),
            "pot": pgettext("mywuxing", "to the pot"), "void": pgettext("mywuxing", "to the Void")}[fate]


# ----- cards -------------------------------------------------------------------------------------------------
def card_symbol(draw, card: str, centre, size: float) -> None:
    """Element cards use the shared element shapes; the Infinite Dragon is an infinity loop, the
    Destructive Star a five-pointed star, so every card reads by shape as well as by colour."""
    if card in ELEMENTS:
        element_symbol(draw, card, centre, size)
        return
    cx, cy = centre
    h = size / 2
    if card == "dragon":
        pts = []
        for i in range(73):
            t = i / 72 * 2 * math.pi
            d = 1 + math.sin(t) ** 2
            pts.append((cx + h * math.cos(t) / d, cy + h * 0.9 * math.sin(t) * math.cos(t) / d))
        draw.line(pts, fill=CARD_COLOURS["dragon"], width=max(4, int(size / 7)), joint="curve")
        return
    pts = []
    for i in range(10):
        r = h if i % 2 == 0 else h * 0.42
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(pts, fill=CARD_COLOURS["star"], outline=(200, 40, 40), width=max(2, int(size / 16)))


def draw_card(draw, x, y, card: str | None, w=CARD_W, h=CARD_H, glow=None, label=True) -> None:
    """A card face (or its back when ``card`` is None), optionally ringed with ``glow``."""
    if glow:
        draw.rounded_rectangle([x - 6, y - 6, x + w + 6, y + h + 6], radius=14, fill=glow)
    if card is None:
        draw.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=BACK, outline=darken(BACK, 0.4), width=3)
        draw.rounded_rectangle([x + 7, y + 7, x + w - 7, y + h - 7], radius=7, outline=lighten(BACK, 0.4), width=2)
        r = min(w, h) * 0.18
        cx, cy = x + w / 2, y + h / 2
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=lighten(BACK, 0.5), width=2)
        return
    colour = CARD_COLOURS[card]
    draw.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=lighten(colour, 0.82), outline=colour, width=4)
    size = w * 0.56
    cy = y + h * (0.42 if label else 0.5)
    card_symbol(draw, card, (x + w / 2, cy), size)
    if label:
        text, f = fit_text(draw, card_name(card), w - 8, max(18, w // 5), bold=True, min_size=18)
        text_centered(draw, (x + w / 2, y + h - 20), text, f, fill=darken(colour, 0.25))


def fate_tag(draw, centre_x, y, fate: str, who: str | None = None, width=CARD_W + 40) -> None:
    colour = FATE_STYLE[fate][1]
    label = pgettext("mywuxing", "won: {name}", name=who) if who and fate == "won" else fate_label(fate)
    text, f = fit_text(draw, label, width - 10, 19, bold=True, min_size=18)
    draw.rounded_rectangle([centre_x - width / 2, y, centre_x + width / 2, y + 30], radius=8, fill=colour)
    text_centered(draw, (centre_x, y + 15), text, f, fill=contrast(colour))


# ----- the banner --------------------------------------------------------------------------------------------
def _banner(draw, view, name) -> None:
    seats = view["seats"]
    result = view.get("result")
    if result is not None:
        winners = result["winners"]
        who = [name(w) for w in winners]
        count = result["reason"] == "count"
        if len(who) == 1:
            text = (_("Game over · {name} wins (most cards)", name=who[0]) if count
                    else _("Game over · {name} wins (last with cards)", name=who[0]))
        else:
            names = pgettext("mywuxing", "{names} and {last}", names=", ".join(who[:-1]), last=who[-1])
            text = (_("Game over · {names} share the win (most cards)", names=names) if count
                    else _("Game over · {names} share the win (last with cards)", names=names))
        banner(draw, WIDTH, text, PLAYER_COLOURS[seats.index(winners[0]) % 8], height=BANNER_H)
        return
    lead, partner, phase = view["lead"], view["partner"], view["phase"]
    n = view["hand_number"]

    def short(seat):  # long display names are cut so the banner stays readable
        text = name(seat)
        return text if len(text) <= 16 else text[:15] + "…"

    waiting = short(view["to_act"][0]) if len(view["to_act"]) == 1 else None
    lead_name, partner_name = short(lead), short(partner) if partner else ""
    if phase == "target":
        text = _("Hand {n} · {lead} chooses whom to play", n=n, lead=lead_name)
    elif phase == "choose":
        if view["version"] == "learn":
            text = _("Hand {n} · {lead} and {partner}: press Reveal", n=n, lead=lead_name, partner=partner_name)
        elif view["universe_card"] == "dragon":
            text = _("Hand {n} · Universe Dragon: {lead} and {partner} each add a card", n=n, lead=lead_name,
                     partner=partner_name)
        elif view["universe_card"] == "star":
            text = _("Hand {n} · Universe Star: {lead} and {partner} each discard a card", n=n, lead=lead_name,
                     partner=partner_name)
        elif view["mode"] == "player":
            text = (_("Hand {n} · {lead} plays {partner} directly · {waiting} to choose", n=n, lead=lead_name,
                      partner=partner_name, waiting=waiting) if waiting
                    else _("Hand {n} · {lead} plays {partner} directly", n=n, lead=lead_name,
                           partner=partner_name))
        else:
            text = (_("Hand {n} · {lead} plays the Universe with {partner} · {waiting} to choose", n=n,
                      lead=lead_name, partner=partner_name, waiting=waiting) if waiting
                    else _("Hand {n} · {lead} plays the Universe with {partner}", n=n, lead=lead_name,
                           partner=partner_name))
    elif phase == "react":
        text = _("Hand {n} · others may activate a Star · {count} to answer", n=n, count=len(view["to_act"]))
    else:
        text = _("{name} activated a Star! Counter or pass · {count} to answer",
                 name=short(view["window"]["star"]), count=len(view["to_act"]))
    banner(draw, WIDTH, text, PLAYER_COLOURS[seats.index(lead) % 8], height=BANNER_H)


# ----- Universe deck, pot and Void -----------------------------------------------------------------------------
def _table(draw, view, y) -> None:
    draw.rounded_rectangle([12, y, WIDTH - 12, y + TABLE_H - 12], radius=16, fill=PANEL_FILL)
    just_turned = view["phase"] != "over"
    # Universe deck: a stack of backs with the count.
    x = 44
    left = view["universe"]
    text_centered(draw, (x + CARD_W / 2, y + 24), _("Universe deck"), font(18, True))
    if left:
        for k in range(min(4, left) - 1, -1, -1):
            draw_card(draw, x + k * 4, y + 48 + k * 4, None)
    else:
        draw.rounded_rectangle([x, y + 48, x + CARD_W, y + 48 + CARD_H], radius=10, outline=GRID, width=3)
    text_centered(draw, (x + CARD_W / 2 + 6, y + 48 + CARD_H + 34), pgettext("mywuxing", "{n} left", n=left),
                  font(22, True))
    if view["recycles"]:
        text_centered(draw, (x + CARD_W / 2 + 6, y + 48 + CARD_H + 62),
                      pgettext("mywuxing", "recycled ×{n}", n=view["recycles"]), font(18), fill=MUTED)

    # Pot: the last cards fanned, the top card whole and ringed.
    pot = view["pot"]
    px, pw, vx_void = 186, 300, 500
    heading, f = fit_text(draw, ngettext("Universe pot · {n} card", "Universe pot · {n} cards", len(pot)),
                          vx_void - px - 10, 22, bold=True, min_size=18)
    draw.text((px, y + 12), heading, font=f, fill=INK)
    note = _("this hand's card on the right") if pot else pgettext("mywuxing", "empty")
    draw.text((px, y + 40), note, font=font(18), fill=MUTED)
    shown = pot[-4:]
    step = 52
    start = px + pw - CARD_W - (len(shown) - 1) * step
    for i, card in enumerate(shown):
        top = i == len(shown) - 1
        glow = HIGHLIGHT if top and just_turned else None
        draw_card(draw, start + i * step, y + 80 + (0 if top else 10), card, glow=glow, label=top)
    if len(pot) > len(shown):
        text_centered(draw, (start - 30, y + 80 + CARD_H / 2), f"+{len(pot) - len(shown)}", font(22, True),
                      fill=MUTED)

    # The Void: its count and what is in it, one line per kind of card.
    vx = vx_void
    void = view["void"]
    draw.text((vx, y + 12), pgettext("mywuxing", "The Void · {n}", n=len(void)), font=font(22, True), fill=INK)
    draw.text((vx, y + 40), _("cards out of play"), font=font(18), fill=MUTED)
    kinds = ELEMENTS + ("dragon", "star")
    for i, card in enumerate(kinds):
        col, row = divmod(i, 4)
        cx, cy = vx + 24 + col * 146, y + 96 + row * 46
        card_symbol(draw, card, (cx, cy), 30)
        count = void.count(card)
        draw.text((cx + 24, cy), f"{card_name(card)} {count}", font=font(19, count > 0), anchor="lm",
                  fill=INK if count else MUTED)


# ----- the hand being played, or the last hand ---------------------------------------------------------------
def _hand_panel(draw, view, name, y) -> None:
    draw.rounded_rectangle([12, y, WIDTH - 12, y + HAND_H - 12], radius=16, fill=PANEL_FILL)
    _wheel(draw, view, (WIDTH - 120, y + 150))
    if view["revealed"]:
        _revealed(draw, view, name, y)
    elif view["last_hand"]:
        _last_hand(draw, view, name, y)
    else:
        draw.text((36, y + 16), _("No hand played yet"), font=font(24, True), fill=INK)
        _wrap(draw, _("Each hand turns a Universe card onto the pot; two players each put out a card against it. "
                      "The wheel shows who absorbs and who destroys whom."), 36, y + 60, TEXT_W, font(20), lines=8)


def _revealed(draw, view, name, y) -> None:
    lead, partner = view["lead"], view["partner"]
    n = view["hand_number"]
    heading = (_("Hand {n} · revealed, against the Universe", n=n) if view["mode"] == "universe"
               else _("Hand {n} · revealed, against each other", n=n))
    heading, f = fit_text(draw, heading, WIDTH - 200, 24, bold=True, min_size=18)
    draw.text((36, y + 14), heading, font=f, fill=INK)
    slots = [(pgettext("mywuxing", "Universe"), view["universe_card"], HIGHLIGHT)] if view["mode"] == "universe" else []
    slots += [(name(lead), view["revealed"][lead], None), (name(partner), view["revealed"][partner], None)]
    w = view["window"]
    if w and w["star"]:  # the Star laid on the table, and any Dragons pledged against it
        slots.append((pgettext("mywuxing", "Star: {name}", name=name(w["star"])), "star", (200, 40, 40)))
        slots += [(pgettext("mywuxing", "Dragon: {name}", name=name(s)), "dragon", None) for s in w["dragons"]]
    _card_row(draw, slots, y + 56, {})
    if w:
        if w["kind"] == "react":
            text = _("Others may now activate a Destructive Star.")
        else:
            pledged = ", ".join(name(s) for s in w["dragons"])
            text = (_("{name} activated a Star: all cards in play go to the Void unless another Star or two "
                      "Dragons counter it. Dragons pledged: {pledged}.", name=name(w["star"]), pledged=pledged)
                    if pledged else
                    _("{name} activated a Star: all cards in play go to the Void unless another Star or two "
                      "Dragons counter it.", name=name(w["star"])))
        _wrap(draw, text, 36, y + TEXT_Y - 30, TEXT_W, font(20, True), lines=5)


def _last_hand(draw, view, name, y) -> None:
    hand = view["last_hand"]
    lead, partner = hand["lead"], hand["partner"]
    heading = (_("Last hand ({n}) · against the Universe", n=hand["number"]) if hand["mode"] == "universe"
               else _("Last hand ({n}) · player against player", n=hand["number"]))
    heading, f = fit_text(draw, heading, WIDTH - 200, 24, bold=True, min_size=18)
    draw.text((36, y + 14), heading, font=f, fill=INK)
    slots = []
    if hand["mode"] == "universe":
        slots.append((pgettext("mywuxing", "Universe"), hand["universe"], HIGHLIGHT))
    slots += [(name(lead), hand["cards"][lead], None), (name(partner), hand["cards"][partner], None)]
    winner = hand["winner"]
    fates = {}
    if hand["mode"] == "universe":
        fates[0] = {"won": "won", "void": "void", "stays": "pot"}[hand["pot"]]
    for i, seat in enumerate((lead, partner), start=len(slots) - 2):
        fates[i] = hand["fates"][seat]
    who = name(winner) if winner else None
    _card_row(draw, slots, y + 56, fates, who)
    text = line(hand["text"])  # the engine's sentence, in the image's language
    for seat in view["seats"]:  # the engine's line names seats; show display names
        text = text.replace(seat, name(seat))
    _wrap(draw, text, 36, y + TEXT_Y, TEXT_W, font(20, True), lines=4)


def _card_row(draw, slots, y, fates, winner_name=None) -> None:
    gap = min(176, TEXT_W // len(slots))
    for i, (label, card, glow) in enumerate(slots):
        cx = 36 + i * gap + max(CARD_W, gap) / 2
        text, f = fit_text(draw, label, gap - 16, 20, bold=True, min_size=18)
        text_centered(draw, (cx, y + 10), text, f)
        draw_card(draw, cx - CARD_W / 2, y + 26, card, glow=glow)
        if i in fates:
            fate_tag(draw, cx, y + 26 + CARD_H + 10, fates[i], winner_name if fates[i] == "won" else None,
                     width=gap - 14)


def _wrap(draw, text, x, y, width, fnt, lines=3) -> None:
    words, current, out = text.split(), "", []
    for w in words:
        trial = f"{current} {w}".strip()
        if draw.textlength(trial, font=fnt) <= width:
            current = trial
        else:
            out.append(current)
            current = w
    out.append(current)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1].rstrip(".") + "…"
    for i, l in enumerate(out):
        draw.text((x, y + i * (fnt.size + 8)), l, font=fnt, fill=INK)


# ----- the Five Elements wheel ---------------------------------------------------------------------------------
def _wheel(draw, view, centre) -> None:
    """Feeding arrows round the rim (the fed element absorbs the feeder), destroying arrows across; the
    arrows that decided the last hand are drawn thick and gold."""
    cx, cy = centre
    r = 80
    pos = {}
    for i, e in enumerate(ELEMENTS):
        a = -math.pi / 2 + i * 2 * math.pi / 5
        pos[e] = (cx + r * math.cos(a), cy + r * math.sin(a))
    lit = _lit_arrows(view)
    for kind, table, colour in (("feeds", FEEDS, (120, 150, 110)), ("destroys", DESTROYS, (190, 110, 110))):
        for a, b in table.items():
            on = (kind, a, b) in lit
            _arrow(draw, pos[a], pos[b], HIGHLIGHT if on else colour, 7 if on else 3, 32)
    nodes = {e for _, a, b in lit for e in (a, b)}
    for e in ELEMENTS:
        x, y = pos[e]
        if e in nodes:
            draw.ellipse([x - 31, y - 31, x + 31, y + 31], fill=HIGHLIGHT)
        draw.ellipse([x - 25, y - 25, x + 25, y + 25], fill=(252, 249, 242), outline=GRID, width=2)
        element_symbol(draw, e, (x, y), 30)
    for k, (text, colour) in enumerate(((_("green: A feeds B,"), (70, 110, 60)), (_("B absorbs A"), (70, 110, 60)),
                                        (_("red: A destroys B"), (170, 70, 70)))):
        text, f = fit_text(draw, text, WIDTH - 24 - (cx - 100), 18, min_size=18)
        draw.text((cx - 100, cy + (104, 126, 150)[k]), text, font=f, fill=colour)


def _lit_arrows(view) -> set:
    """The relations the last (or revealed) hand turned on, as (kind, from, to) arrows."""
    if view["revealed"]:
        cards = list(view["revealed"].values())
        u = view["universe_card"] if view["mode"] == "universe" else None
    elif view["last_hand"]:
        hand = view["last_hand"]
        cards = [hand["cards"][hand["lead"]], hand["cards"][hand["partner"]]]
        u = hand["universe"] if hand["mode"] == "universe" else None
    else:
        return set()
    lit = set()
    pairs = [(c, u) for c in cards] if u else [tuple(cards)]
    for a, b in pairs:
        if a not in ELEMENTS or b not in ELEMENTS or a == b:
            continue
        for x, y in ((a, b), (b, a)):
            if FEEDS[x] == y:
                lit.add(("feeds", x, y))
            if DESTROYS[x] == y:
                lit.add(("destroys", x, y))
    return lit


def _arrow(draw, p, q, colour, width, shorten) -> None:
    (x1, y1), (x2, y2) = p, q
    d = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    x1, y1 = x1 + ux * shorten, y1 + uy * shorten
    x2, y2 = x2 - ux * shorten, y2 - uy * shorten
    draw.line([x1, y1, x2 - ux * 8, y2 - uy * 8], fill=colour, width=width)
    head = 10 + width
    draw.polygon([(x2, y2), (x2 - ux * head - uy * head * 0.55, y2 - uy * head + ux * head * 0.55),
                  (x2 - ux * head + uy * head * 0.55, y2 - uy * head - ux * head * 0.55)], fill=colour)


# ----- players -----------------------------------------------------------------------------------------------
def _players(draw, view, name, viewer, y) -> None:
    seats = view["seats"]
    draw.text((24, y + 4), _("Players · cards held (deck + hand)"), font=font(22, True), fill=INK)
    window = view["window"]
    for i, seat in enumerate(seats):
        col, row = i % PLAYERS_PER_ROW, i // PLAYERS_PER_ROW
        x, top = 16 + col * (PLAYER_W + 8), y + 40 + row * (PLAYER_H + 12)
        p = view["players"][seat]
        colour = PLAYER_COLOURS[i % 8]
        acting = seat in view["to_act"]
        fill = (225, 220, 210) if p["out"] else (252, 249, 242)
        if acting:
            draw.rounded_rectangle([x - 4, top - 4, x + PLAYER_W + 4, top + PLAYER_H + 4], radius=14, fill=HIGHLIGHT)
        draw.rounded_rectangle([x, top, x + PLAYER_W, top + PLAYER_H], radius=12, fill=fill,
                               outline=colour, width=3)
        draw.rectangle([x + 3, top + 3, x + 14, top + PLAYER_H - 3], fill=colour)
        label = pgettext("mywuxing", "{name} (you)", name=name(seat)) if seat == viewer else name(seat)
        text, f = fit_text(draw, label, PLAYER_W - 90, 22, bold=True, min_size=18)
        draw.text((x + 24, top + 10), text, font=f, fill=MUTED if p["out"] else INK)
        total = p["deck"] + p["hand"]
        text_centered(draw, (x + PLAYER_W - 38, top + 34), str(total), font(34, True),
                      fill=MUTED if p["out"] else INK)
        if p["out"]:
            detail = pgettext("mywuxing", "out of cards")
        elif view["version"] == "think":
            detail = pgettext("mywuxing", "deck {deck} · hand {hand}", deck=p["deck"], hand=p["hand"])
        else:
            detail = pgettext("mywuxing", "deck {deck}", deck=p["deck"])
        draw.text((x + 24, top + 42), detail, font=font(19), fill=MUTED)
        tags = []
        if seat == view["lead"] and view["phase"] != "over":
            tags.append((pgettext("mywuxing", "LEAD"), colour))
        if seat == view["partner"] and view["phase"] != "over":
            tags.append((pgettext("mywuxing", "PARTNER"), darken(colour, 0.1)))
        if p["chosen"]:
            tags.append((pgettext("mywuxing", "ready"), (60, 120, 60)))
        if window and seat == window["star"]:
            tags.append((pgettext("mywuxing", "STAR!"), (190, 40, 40)))
        if window and seat in window["dragons"]:
            tags.append((pgettext("mywuxing", "dragon"), CARD_COLOURS["dragon"]))
        if window and seat in window["answered"] and seat not in window["dragons"]:
            tags.append((pgettext("mywuxing", "answered"), MUTED))
        tx = x + 24
        for text, c in tags:
            f = font(18, True)
            w = draw.textlength(text, font=f) + 14
            draw.rounded_rectangle([tx, top + 70, tx + w, top + 96], radius=6, fill=c)
            draw.text((tx + 7, top + 83), text, font=f, fill=contrast(c), anchor="lm")
            tx += w + 6


# ----- the viewer's own hand (private image) -----------------------------------------------------------------
def _own_hand(draw, view, y) -> None:
    hand, mine = view.get("hand", []), view.get("my_choice")
    draw.rounded_rectangle([12, y, WIDTH - 12, y + 240], radius=16, fill=(232, 236, 246))
    draw.text((36, y + 14), _("Your hand (only you see this)"), font=font(24, True), fill=INK)
    u = view["universe_card"] if view["mode"] != "player" else None
    x = 56  # room for the first card's tag (Italian tags run longer)
    for card in hand:
        draw_card(draw, x + 18, y + 50, card)
        tip = against_universe(card, u)
        if tip:  # a tag under the card, no wider than the step between cards (so two tags never touch)
            words, fnt = fit_text(draw, tip[0], CARD_W + 102, 18, bold=True, min_size=18)
            w = draw.textlength(words, font=fnt) + 16
            cx = x + 18 + CARD_W / 2
            draw.rounded_rectangle([cx - w / 2, y + 50 + CARD_H + 6, cx + w / 2, y + 50 + CARD_H + 34], radius=8,
                                   fill=tip[1])
            text_centered(draw, (cx, y + 50 + CARD_H + 20), words, fnt, fill=contrast(tip[1]))
        x += CARD_W + 118
    if not hand:
        draw.text((40, y + 110), pgettext("mywuxing hand", "empty"), font=font(22), fill=MUTED)
    if mine:  # at the right, its label on the heading's line but clear of it (the heading ends near x 410)
        x = max(x, WIDTH - 60 - CARD_W)
        draw.text((WIDTH - 36, y + 24), _("Your card this hand"), font=font(20, True), fill=INK, anchor="ra")
        draw_card(draw, x, y + 62, mine, glow=HIGHLIGHT)


def against_universe(card: str, u: str | None):
    """What ``card`` would do against the Universe card ``u`` on its own (a hint for newcomers), as
    (words, colour); None when the hand is not played against a Universe element."""
    if u is None or u not in ELEMENTS:
        return None
    U = card_name(u)
    if card == "dragon":
        return pgettext("mywuxing", "absorbs all"), FATE_STYLE["won"][1]
    if card == "star":
        return pgettext("mywuxing", "destroys all"), (170, 30, 30)
    if card == u:
        return pgettext("mywuxing", "same: to the pot"), FATE_STYLE["pot"][1]
    if FEEDS[u] == card:
        return pgettext("mywuxing", "absorbs {card}", card=U), FATE_STYLE["won"][1]
    if DESTROYS[card] == u:
        return pgettext("mywuxing", "destroys {card}", card=U), FATE_STYLE["deck"][1]
    if FEEDS[card] == u:
        return pgettext("mywuxing", "{card} absorbs it", card=U), FATE_STYLE["pot"][1]
    return pgettext("mywuxing", "{card} destroys it", card=U), FATE_STYLE["void"][1]


# ----- final count -------------------------------------------------------------------------------------------
def _scores(draw, view, name, y) -> None:
    result = view["result"]
    seats = view["seats"]
    out_order = result["out"]
    ranked = sorted(seats, key=lambda s: (-result["scores"][s], -(out_order.index(s) if s in out_order else 99)))
    draw.rounded_rectangle([12, y, WIDTH - 12, y + 60 + 40 * len(seats)], radius=16, fill=PANEL_FILL)
    headers = [(pgettext("mywuxing", "Player"), 40), (pgettext("mywuxing", "Deck"), 380),
               (pgettext("mywuxing", "Hand"), 470), (pgettext("mywuxing", "Cards"), 560)]
    for text, x in headers:
        draw.text((x, y + 14), text, font=font(20, True), fill=MUTED)
    for k, seat in enumerate(ranked):
        row_y = y + 50 + 40 * k
        p = view["players"][seat]
        won = seat in result["winners"]
        if won:
            draw.rounded_rectangle([24, row_y - 4, WIDTH - 24, row_y + 34], radius=8, fill=lighten(HIGHLIGHT, 0.5))
        text, f = fit_text(draw, name(seat), 320, 22, bold=won, min_size=18)
        draw.text((40, row_y), text, font=f, fill=INK)
        for value, x in ((p["deck"], 380), (p["hand"], 470), (result["scores"][seat], 560)):
            draw.text((x, row_y), str(value), font=font(22, won), fill=INK)
        if won:
            note = pgettext("mywuxing", "winner")
        else:
            note = pgettext("mywuxing", "out ({n}.)", n=out_order.index(seat) + 1) if seat in out_order else ""
        draw.text((660, row_y), note, font=font(20, won), fill=INK if won else MUTED)
