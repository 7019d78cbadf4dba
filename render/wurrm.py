"""WURRM World images: the board (render/wurrm_board.py) under a banner, and the panels under it: the legend,
the variants, what just happened, the dice and the players (or the final scores).

Everything is drawn from the view (engine.wurrm.Wurrm.view).
"""

from __future__ import annotations

from PIL import Image

import i18n
from i18n import W_, _, ngettext, pgettext

from . import register
from .colours import BACKGROUND, HIGHLIGHT, INK, MUTED, PLAYER_COLOURS, darken, lighten
from .common import banner, canvas, die, fit_text, font, hexagon, text_centered, with_names, wrap_words
from .wurrm_board import (
    ATTACK,
    BANNER_H,
    HOSTILE,
    MARGIN,
    REACH,
    TOLL,
    WIDTH,
    attack_shape,
    avatar,
    board_geometry,
    draw_avatars,
    draw_compass,
    draw_options,
    draw_reach,
    end_shape,
    gem_shape,
    paste_board,
    reach_shown,
    sleep_shape,
)

TYPE_NAMES = {"start": W_("Start"), "gem": W_("Gem"), "attack": W_("Attack"), "end": W_("End your turn"),
              "sleep": W_("Sleep"), "plain": W_("plain")}


def colours_for(seats: list[str]) -> dict[str, tuple]:
    return {s: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, s in enumerate(seats)}


def short(names: dict, seat: str | None) -> str:
    if seat is None:
        return "?"
    return str(names.get(seat, seat))


# ----- panels --------------------------------------------------------------------------------------------
def banner_text(view, names) -> tuple[str, tuple]:
    colours = colours_for(view["seats"])
    res = view.get("result")
    if res:
        w = res["winners"][0]
        if res.get("reason") == "sleep":
            return _("{name} falls asleep. Good night!", name=short(names, w)), colours[w]
        return _("{name} owns 13 gems. Good job!", name=short(names, w)), colours[w]
    phase = view["phase"]
    if phase == "vote":
        waiting = ", ".join(short(names, s) for s in view["to_act"])
        return _("Petition vote: waiting for {players}", players=waiting), INK
    actor = view["actor"]
    doing = {
        "place": _("place your avatar on a Start space"), "lucky": _("pick a lucky number and roll"),
        "wish": _("make a wish"), "reroll": _("reroll or stop"), "move": _("move"), "bump": _("bump"),
        "target": _("choose whom to attack"), "bribe": _("offer a bribe?"), "answer": _("accept the bribe?"),
        "petition": _("choose whom to petition"), "ask": _("ask for gems"),
    }.get(phase, phase)
    move = view.get("move")
    if phase == "move" and move:
        doing = ngettext("move — rolled {value}, {n} step left", "move — rolled {value}, {n} steps left",
                         move["left"], value=move["value"])
    # (a context: a bare "{name}: {doing}" would be a pattern matching every "a: b" line i18n.line reads)
    return pgettext("banner", "{name}: {doing}", name=short(names, actor), doing=doing), colours.get(actor, INK)


def draw_players(draw, view, names, colours, top, viewer) -> int:
    """One row per player in the current turn order: avatar, name, gems, lucky number, steps to Sleep."""
    seats = view["order"]
    row_h = 46
    col_w = (WIDTH - 2 * MARGIN) // 2
    rows = (len(seats) + 1) // 2
    f = font(22)
    fb = font(22, bold=True)
    title = _("Turn order")
    draw.text((MARGIN, top), title, font=fb, fill=INK)
    bank_x = MARGIN + draw.textlength(title, font=fb) + 28
    gem_shape(draw, (bank_x + 10, top + 13), 22)
    draw.text((bank_x + 26, top), _("{n} in the bank", n=view["bank"]), font=f, fill=MUTED)
    top += 34
    for i, seat in enumerate(seats):
        row, col = divmod(i, 2)   # reading order: 1 2 / 3 4 / 5 6
        x, y = MARGIN + col * col_w, top + row * row_h
        if seat in view["to_act"] and view["phase"] != "over":
            draw.rounded_rectangle([x - 6, y - 4, x + col_w - 24, y + row_h - 6], radius=10,
                                   fill=lighten(HIGHLIGHT, 0.6))
        avatar(draw, (x + 20, y + 20), 36, colours[seat], view["lucky"].get(seat))
        dist = view["distance"].get(seat)
        tail = f"{view['gems'][seat]}"
        gem_x = x + col_w - 165
        name = (_("{place}. {name} (you)", place=i + 1, name=short(names, seat)) if seat == viewer
                else f"{i + 1}. {short(names, seat)}")
        t, nf = fit_text(draw, name, gem_x - x - 52, 22, bold=seat == viewer, min_size=18)
        draw.text((x + 46, y + 8), t, font=nf, fill=INK)
        gem_shape(draw, (gem_x + 12, y + 20), 26)
        draw.text((gem_x + 30, y + 8), tail, font=fb, fill=INK)
        if dist is not None:
            draw.text((gem_x + 70, y + 8), f"{dist}→", font=f, fill=MUTED)
            sleep_shape(draw, (gem_x + 70 + draw.textlength(f'{dist}→', font=f) + 14, y + 21), 22,
                        BACKGROUND if seat not in view["to_act"] else lighten(HIGHLIGHT, 0.6))
    return top + rows * row_h


def draw_dice(draw, view, names, colours, top) -> int:
    """The six dice while rolling (or the last roll): counted dice green, marked dice dimmed with ↻."""
    roll = view.get("dice")
    finished = False
    if roll is None:
        roll = view.get("last_roll")
        finished = True
        if roll is None or view["phase"] in ("place",):
            return top
        # show the finished roll only right after it, while the turn it belongs to is still visible
        if view["last"].get("action") not in ("stop",):
            return top
    who = short(names, roll["roller"])

    wish = roll["wish"]
    size = 56
    gap = 12
    x0 = MARGIN
    y = top + 8
    if roll["purpose"] == "move":
        head = (_("{name} rolls to move — wish {wish}", name=who, wish=wish) if wish
                else _("{name} rolls to move — no wish yet", name=who))
    else:
        target = short(names, roll["target"])
        head = (_("{name} rolls to rob {target} — wish {wish}", name=who, target=target, wish=wish) if wish
                else _("{name} rolls to rob {target} — no wish yet", name=who, target=target))
    t, hf = fit_text(draw, head, WIDTH - 2 * MARGIN, 24, bold=True, min_size=18)
    draw.text((x0, y), t, font=hf, fill=INK)
    y += 36
    counting = set(roll.get("counting") or [])
    for i, face in enumerate(roll["faces"]):
        cx = x0 + size / 2 + i * (size + gap)
        cy = y + size / 2
        marked = roll["marked"][i] and not finished
        if i in counting:
            draw.rounded_rectangle([cx - size / 2 - 6, cy - size / 2 - 6, cx + size / 2 + 6, cy + size / 2 + 6],
                                   radius=14, fill=(40, 170, 70))
        colour = (225, 225, 225) if marked else (255, 255, 255)
        die(draw, (cx, cy), size, face, colour=colour, pip_colour=MUTED if marked else INK)
        text_centered(draw, (cx, cy + size / 2 + 16), ("↻ " if marked else "") + str(i + 1), font(18),
                      fill=ATTACK if marked else MUTED)
    info_x = x0 + DICE_BLOCK(size, gap) + 20
    lines = [_("Lucky number {lucky}: never shows", lucky=roll["lucky"]),
             _("{count} of {wish} dice show {wish}", count=len(counting), wish=wish) if wish
             else _("Wish 1–6 next")]
    if finished:
        val = roll.get("value") or 0
        lines.append(_("Value {value} — wish came true", value=val) if len(counting) >= (wish or 99)
                     else _("Value {value} — wish failed", value=val))
    else:
        lines.append(_("free reroll used; paid {paid}", paid=roll["paid"]) if roll["free_used"]
                     else _("free reroll left; paid {paid}", paid=roll["paid"]))
    for k, line in enumerate(lines):
        t, lf = fit_text(draw, line, WIDTH - MARGIN - info_x, 22, bold=k == 2 and finished, min_size=18)
        draw.text((info_x, y + k * 28 - 4), t, font=lf, fill=INK)
    return y + size + 34


def DICE_BLOCK(size, gap):  # noqa: N802 — a width, named like the constants around it
    return 6 * size + 5 * gap


def draw_status(draw, view, names, top) -> int:
    """The last log line (what just happened), plus the petition's progress."""
    f = font(20)
    text = with_names(i18n.line((view.get("last") or {}).get("text") or ""),
                      {s: short(names, s) for s in view["seats"]})
    lines = wrap_words(draw, text, WIDTH - 2 * MARGIN, f)[:3]
    for i, line in enumerate(lines):
        draw.text((MARGIN, top + i * 26), line, font=f, fill=INK)
    top += len(lines) * 26 + 6
    pet = view.get("petition")
    if pet and pet.get("amount"):
        voted = ", ".join(short(names, s) for s, v in pet["voted"].items() if v) or _("nobody yet")
        line = _("Petition: {petitioner} asks {amount} from {target}. Voted: {voted}.",
                 petitioner=short(names, pet["petitioner"]), amount=pet["amount"], target=short(names, pet["target"]),
                 voted=voted)
        if pet.get("my_vote"):
            line = (pgettext("petition", "{line} You voted yes.", line=line) if pet["my_vote"] == "yes"
                    else pgettext("petition", "{line} You voted no.", line=line))
        for i, ln in enumerate(wrap_words(draw, line, WIDTH - 2 * MARGIN, font(20, bold=True))[:2]):
            draw.text((MARGIN, top + i * 26), ln, font=font(20, bold=True), fill=INK)
        top += 58
    return top


def draw_scores(draw, view, names, colours, top) -> int:
    """The final breakdown: who slept or got rich, gems held, steps from Sleep, turns taken."""
    res = view["result"]
    fb = font(22, bold=True)
    f = font(22)
    cols = [MARGIN + 50, WIDTH - 360, WIDTH - 250, WIDTH - 110]
    heads = [_("Player"), _("Gems"), _("To Sleep"), _("Turns")]
    for x, h in zip(cols, heads, strict=True):
        draw.text((x, top), h, font=fb, fill=INK)
    top += 34
    ranked = sorted(view["seats"], key=lambda s: (s not in res["winners"], view["distance"].get(s) or 0,
                                                 -res["scores"][s]))
    for seat in ranked:
        avatar(draw, (MARGIN + 20, top + 14), 32, colours[seat], view["lucky"].get(seat))
        mark = " ★" if seat in res["winners"] else ""
        t, nf = fit_text(draw, short(names, seat) + mark, cols[1] - cols[0] - 20, 22, bold=bool(mark))
        draw.text((cols[0], top), t, font=nf, fill=INK)
        dist = view["distance"].get(seat)
        for x, val in zip(cols[1:], [res["scores"][seat], "—" if dist is None else dist,
                                     res.get("turns", {}).get(seat, "")], strict=True):
            draw.text((x, top), str(val), font=f, fill=INK)
        top += 38
    return top


VARIANT_WORDS = {"bumpers": W_("Bumpers (+1 to every value)"), "bribery": W_("Bribery"), "reverse": W_("Reverse"),
                 "petition": W_("Petition"), "lucky": W_("Lucky (13 gems win)")}


def legend_items(view) -> list[tuple[str, str]]:
    """The symbols and what they do at this table: the variants change some of them."""
    opts = view.get("options") or {}
    petition = opts.get("petition") and len(view["seats"]) > 2     # at two players Attack spaces attack
    if opts.get("reverse"):
        attack = _("Petition, order reverses") if petition else _("Attack, order reverses")
    else:
        attack = _("Petition") if petition else _("Attack")
    return [("gem", _("Gem +2") if opts.get("bribery") else _("Gem +1")), ("attack", attack), ("end", _("End turn")),
            ("sleep", _("Sleep")), ("toll", _("Toll 1")),
            ("hostile", _("Hostile (6 gems)") if opts.get("bribery") else _("Hostile"))]


def draw_variants(draw, view, top) -> int:
    opts = view.get("options") or {}
    on = [i18n.word(VARIANT_WORDS[v]) for v in VARIANT_WORDS if opts.get(v)]
    if opts.get("board") == "random":
        on.insert(0, _("random board"))
    if not on:
        return top
    # wrapped: with every variant on, the line is wider than the image (in English too)
    lines = wrap_words(draw, _("Variants: {variants}", variants=", ".join(on)), WIDTH - 2 * MARGIN, font(19, bold=True))
    for i, line in enumerate(lines):
        draw.text((MARGIN, top + i * 26), line, font=font(19, bold=True), fill=MUTED)
    return top + 26 * (len(lines) - 1) + 28


def draw_legend(draw, top, view=None, reach: bool = False) -> int:
    items = legend_items(view) if view else [("gem", _("Gem +1")), ("attack", _("Attack")), ("end", _("End turn")),
                                              ("sleep", _("Sleep")), ("toll", _("Toll 1")), ("hostile", _("Hostile"))]
    if reach:
        items = [*items, ("reach", _("Move can end here"))]
    x = MARGIN
    f = font(19)
    for kind, label in items:
        if x > MARGIN and x + 32 + draw.textlength(label, font=f) > WIDTH - MARGIN:   # the row is full: wrap
            x, top = MARGIN, top + 34
        c = (x + 14, top + 14)
        if kind == "gem":
            gem_shape(draw, c, 26)
        elif kind == "attack":
            attack_shape(draw, c, 24)
        elif kind == "end":
            end_shape(draw, c, 26)
        elif kind == "sleep":
            sleep_shape(draw, c, 24, BACKGROUND)
        elif kind == "reach":
            draw.polygon(hexagon(c, 14, True), fill=lighten(REACH, 0.7), outline=REACH, width=3)
        elif kind == "toll":
            draw.line([(c[0] - 13, c[1]), (c[0] + 13, c[1])], fill=TOLL, width=7)
            draw.ellipse([c[0] - 6, c[1] - 6, c[0] + 6, c[1] + 6], fill=TOLL, outline=darken(TOLL, 0.45))
        else:
            draw.line([(c[0] - 13, c[1]), (c[0] + 13, c[1])], fill=HOSTILE, width=6)
            for dx in (-8, 0, 8):
                draw.polygon([(c[0] + dx - 3, c[1]), (c[0] + dx, c[1] - 8), (c[0] + dx + 3, c[1])], fill=HOSTILE)
        draw.text((x + 32, top + 3), label, font=f, fill=INK)
        x += 32 + int(draw.textlength(label, font=f)) + 28
    return top + 34


# ----- the image -----------------------------------------------------------------------------------------
@register("wurrm")
def render(view: dict, names: dict, viewer: str | None) -> Image.Image:
    colours = colours_for(view["seats"])
    geo, width = board_geometry(view)
    board_bottom = BANNER_H + 10 + geo.height + 8
    # One pass: draw on a canvas tall enough for the largest panels, then keep what the panels used.
    room = int(board_bottom) + PANELS_MAX + MARGIN
    while True:
        img, draw = canvas(width, room)
        paste_board(img, view, geo, colours, names)   # first: its layer starts at the top of the image
        if not geo.pointy:
            draw_compass(draw, (MARGIN + 76, BANNER_H + 96))
        text, colour = banner_text(view, names)
        banner(draw, width, text, colour, height=BANNER_H)
        draw_reach(img, view, geo, viewer)
        draw_options(draw, view, geo)
        draw_avatars(draw, view, geo, colours)
        height = int(layout_panels(draw, view, names, colours, board_bottom, viewer) + MARGIN)
        if height <= room:
            return img.crop((0, 0, width, height))
        room = height  # panels taller than foreseen: draw again on a canvas that fits


# The most the panels under the board can take: legend (three rows), three status lines and a petition, then
# the dice and three rows of players (or the scores of six players).
PANELS_MAX = 3 * 34 + 28 + 4 + 3 * 26 + 6 + 58 + max(8 + 34 + 6 * 38, 8 + 36 + 64 + 34 + 6 + 34 + 3 * 46)


def layout_panels(draw, view, names, colours, top, viewer) -> int:
    top = draw_legend(draw, top, view, reach=bool(reach_shown(view, viewer)))
    top = draw_variants(draw, view, top)
    top = draw_status(draw, view, names, top + 4)
    if view.get("result"):
        return draw_scores(draw, view, names, colours, top + 8)
    top = draw_dice(draw, view, names, colours, top)
    return draw_players(draw, view, names, colours, top + 6, viewer)
