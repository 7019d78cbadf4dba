"""Seikatsu images: views from random games at many stages, for the channel and for every seat."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.seikatsu import GAME
from render import RENDERERS, render_png
from render.seikatsu import WIDTH, rotation_for

G = GAME
SEATS = ["111111111111111111", "222222222222222222", "333333333333333333", "444444444444444444"]
NAMES = {SEATS[0]: "Ann", SEATS[1]: "Bartholomew the Very Patient Gardener of Kyoto", SEATS[2]: "Łucja Ōtsuka",
         SEATS[3]: "dee"}


def states(n: int, seed: int, options=None):
    """Every state of one random game (fountains chosen often, so streams appear)."""
    rnd = random.Random(seed)
    state = G.new(SEATS[:n], seed, options)
    yield state
    while G.result(state) is None:
        seat = G.to_act(state)[0]
        actions = G.legal_actions(state, seat)
        fountains = [a for a in actions if a.startswith("fountain")]
        action = rnd.choice(fountains) if fountains and rnd.random() < 0.4 else rnd.choice(actions)
        state = G.apply(state, seat, action)
        yield state


def open_png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def quick_png(view, viewer, names=NAMES) -> Image.Image:
    """Drawn by the registered renderer and saved without render_png's slow optimisation, then reopened."""
    buf = io.BytesIO()
    RENDERERS["seikatsu"](view, names, viewer).save(buf, format="PNG")
    return open_png(buf.getvalue())


def test_registered():
    assert "seikatsu" in RENDERERS


def test_renders_start_middle_and_end_for_the_channel_and_every_seat():
    for n, seed, options in ((2, 1, None), (3, 2, None), (4, 3, None), (3, 4, {"yarimizu": False})):
        all_states = list(states(n, seed, options))
        picks = {0, len(all_states) // 3, 2 * len(all_states) // 3, len(all_states) - 1}
        for i in sorted(picks):
            for viewer in [None] + SEATS[:n]:
                img = quick_png(G.view(all_states[i], viewer), viewer)
                assert img.format == "PNG" and img.width == WIDTH
                assert 1200 <= img.height <= 2500   # the panel stands under the garden (phone layout)
        end = G.view(all_states[-1], None)
        assert "rows" in end
        img = open_png(render_png("seikatsu", end, NAMES, None))
        assert img.height > 1700, "the finished garden adds each pagoda's rows"


def test_channel_image_shows_no_hidden_hand():
    """Two games differing only in hands and bag order give the same channel image."""
    state = next(states(3, 7))
    other = G.load(G.dump(state))
    other["hands"][SEATS[0]] = ["koi", "koi"]
    other["rng"] += 1
    assert render_png("seikatsu", G.view(state, None), NAMES, None) == \
        render_png("seikatsu", G.view(other, None), NAMES, None)
    assert render_png("seikatsu", G.view(state, SEATS[0]), NAMES, SEATS[0]) != \
        render_png("seikatsu", G.view(other, SEATS[0]), NAMES, SEATS[0])


def test_each_seat_sees_the_garden_from_its_own_pagoda():
    view = G.view(G.new(SEATS[:3], 1), None)
    assert rotation_for(view, None) == 0  # the channel keeps blue at the top
    steps = {rotation_for(view, s) for s in SEATS[:3]}
    assert len(steps) == 3
    assert rotation_for(view, SEATS[1]) == 3  # blue (0, -3) turned half round to the bottom


def test_missing_names_fall_back_to_seats():
    state = list(states(2, 11))[-1]
    img = open_png(render_png("seikatsu", G.view(state, SEATS[1]), {}, SEATS[1]))
    assert img.width == WIDTH
