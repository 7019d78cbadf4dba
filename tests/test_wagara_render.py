"""Wagara images (render/wagara.py): views from seeded games at every stage, for the channel and each seat."""

import io
import random

import pytest
from PIL import Image

from engine import GAMES
from render import RENDERERS, render_png
from render.wagara import WIDTH, _last_text
from tests.test_wagara import position
from tests.test_wagara_random import PURPOSEFUL

G = GAMES["wagara"]
SEATS = ["111111111111111111", "222222222222222222", "333333333333333333", "444444444444444444",
         "555555555555555555"]
NAMES = {SEATS[0]: "Ann", SEATS[1]: "Bartholomew Ignatius of the Very Long Display Name", SEATS[2]: "Cy",
         SEATS[3]: "Dörte Łukasiewicz", SEATS[4]: "Ed"}


def states_of(seed, n, seats=SEATS):
    """Every state of a seeded game of the first ``n`` of ``seats``, played with purposeful random moves."""
    rnd = random.Random(seed)
    state = G.new(seats[:n], seed)
    states = [state]
    while G.result(state) is None:
        seat = rnd.choice(G.to_act(state))
        state = G.apply(state, seat, rnd.choice(PURPOSEFUL.legal_actions(state, seat)))
        states.append(state)
    return states


def png(view, viewer):
    img = Image.open(io.BytesIO(render_png("wagara", view, NAMES, viewer)))
    img.load()
    return img


def test_renderer_is_registered():
    assert "wagara" in RENDERERS


@pytest.mark.parametrize("seed, n", [(0, 2), (1, 3), (2, 5)])
def test_png_at_start_middle_and_end_for_everyone(seed, n):
    states = states_of(seed, n)
    rnd = random.Random(seed)
    picks = sorted({0, len(states) - 1, *rnd.sample(range(1, len(states) - 1), 4)})
    for i in picks:
        for viewer in (None, *SEATS[:n]):
            img = png(G.view(states[i], viewer), viewer)
            assert img.size[0] == WIDTH and 1000 <= img.size[1] <= 1700   # the river runs down the image (phone layout)
            assert img.mode in ("P", "RGB")  # palette PNG (render.common.to_png), RGB when too many colours


def test_private_strip_only_for_a_seated_viewer():
    state = G.apply(G.new(SEATS[:3], 4), SEATS[0], "play 5")
    mine, channel = png(G.view(state, SEATS[0]), SEATS[0]), png(G.view(state, None), None)
    assert mine.size[1] > channel.size[1]
    assert png(G.view(state, SEATS[1]), SEATS[1]).size == mine.size


def test_a_crowded_river_and_mixed_deposits_render():
    seats = SEATS
    canoes = [(s, n, "river", 5, "red" if i % 2 else None) for i, s in enumerate(seats) for n in (1, 2)]
    state = position(canoes, seats=seats, sites={"yellow": {"red": 1, "blue": 2}}, cards={seats[0]: "2"})
    img = png(G.view(state, None), None)
    assert img.size[0] == WIDTH


def test_the_last_line_names_players_and_never_a_hidden_card():
    state = G.apply(G.new(SEATS[:3], 4), SEATS[1], "play 6")
    text = _last_text(G.view(state, None), NAMES)
    assert text == "Last: Bartholomew Ignatius of the Very Long Display Name chose a card"
    state = position([(SEATS[0], 1, "river", 6, None), (SEATS[1], 1, "river", 4, "white")],
                     seats=SEATS[:3], cards={SEATS[0]: "2"})
    state = G.apply(state, SEATS[0], "canoe 1: up 2, steal white")
    assert _last_text(G.view(state, None), NAMES).startswith(
        "Last: Ann's canoe 1: up 2 to 4, stole white from Bartholomew")
