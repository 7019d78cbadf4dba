"""Images read on a phone: Discord shows an attachment about 400 px wide there, so the smallest text of every image,
scaled to 400 px wide, must stay at least 9 px high. Measured by recording the font size of every text drawn
(render.common.record_text) for every game at 2 and the most players, at the start, middle and end of a game, in
the channel image and a player's private image."""

import random

import pytest

from engine import GAMES
from engine.wurrm import random_players
from render import RENDERERS
from render.common import record_text

PHONE_WIDTH = 400
MIN_PHONE_PX = 9
NAMES = {str(100 + i): n for i, n in enumerate(["Ann", "Bartholomew the Long-Named", "Cy", "Dee", "Éloïse", "Fu",
                                                 "Gao", "Hana"])}


# Options whose private images hold more (MyWuXing's Think version shows the viewer's hand and chosen card).
# WURRM World's random boards too (issue #14: one wider than the default would shrink on a phone).
OPTIONS = {"mywuxing": [None, {"version": "think", "power_cards": "on"}], "wurrm": [None, {"board": "random"}]}


def positions(key: str, n: int, seed: int, options: dict | None = None) -> list[dict]:
    """Start, middle and end of a seeded random game."""
    game = GAMES[key]
    rnd = random.Random(seed)
    state = game.new([str(100 + i) for i in range(n)], seed, options)
    states = [state]
    while game.result(state) is None and len(states) < 5000:
        seat = rnd.choice(game.to_act(state))
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
        states.append(state)
    return [states[0], states[len(states) // 2], states[-1]]


def clear_render_caches() -> None:
    """Cached layers (WURRM's board) hold text drawn before recording began: draw them afresh."""
    import sys
    for name, module in list(sys.modules.items()):
        if name.startswith("render."):
            for value in list(vars(module).values()):
                if (hasattr(value, "cache_clear") and not isinstance(value, type)
                        and getattr(value, "__name__", "") != "font"):
                    value.cache_clear()


def smallest_on_phone(key: str, view: dict, viewer) -> tuple[float, int, str, int]:
    clear_render_caches()
    with record_text() as drawn:
        img = RENDERERS[key](view, NAMES, viewer)
    assert drawn, "no text recorded"
    size, text = min(drawn)
    return size * PHONE_WIDTH / img.width, size, text, img.width


def test_recorder_sees_text():
    from render.common import canvas, font
    _, draw = canvas(100, 50)
    with record_text() as drawn:
        draw.text((0, 0), "hi", font=font(21), fill=(0, 0, 0))
    draw.text((0, 0), "unrecorded", font=font(11), fill=(0, 0, 0))
    assert drawn == [(21, "hi")]


@pytest.mark.parametrize("key", sorted(set(RENDERERS) & set(GAMES)))    # the games' (the analysis graph: #37)
def test_smallest_text_readable_at_phone_width(key):
    game = GAMES[key]
    worst = []
    checked = 0
    for options in OPTIONS.get(key, [None]):
        for n in sorted({2, game.max_players}):
            if options and options.get("board") == "random":
                n = min(n, max(random_players()))      # random boards are listed for some table sizes only
            for state in positions(key, n, seed=n, options=options):
                for viewer in (None, state["seats"][0], state["seats"][-1]):
                    px, size, text, width = smallest_on_phone(key, game.view(state, viewer), viewer)
                    checked += 1
                    if px < MIN_PHONE_PX:
                        worst.append(f"{n} players, {options}, viewer {viewer}: {text!r} at {size} px on {width} px"
                                     f" = {px:.1f} px at phone width")
    assert checked >= 9
    assert not worst, "\n".join(worst)
