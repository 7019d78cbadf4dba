"""MyWuXing images: views from random games at many stages, for the channel and for every seat."""

import io
import random

from PIL import Image

from engine import GAMES
from render import RENDERERS, render_png

G = GAMES["mywuxing"]
SEATS = [f"{111111111111111111 * k}" for k in range(1, 9)]
NAMES = dict(zip(SEATS, ["Ann", "Bartholomew Ignatius of the Very Long Display Name", "Cy", "Dee", "Éloïse",
                         "Fu", "Gao", "Hana"], strict=True))


def states_of(n, seed, options, bold=False):
    """Every state of a random game (``bold``: reactions prefer activating and countering)."""
    rnd = random.Random(seed)
    state = G.new(SEATS[:n], seed, options)
    states = [state]
    while G.result(state) is None:
        seat = rnd.choice(G.to_act(state))
        actions = G.legal_actions(state, seat)
        eager = [a for a in actions if a != "pass"] if bold else []
        state = G.apply(state, seat, rnd.choice(eager or actions))
        states.append(state)
    return states


def test_renderer_is_registered():
    assert "mywuxing" in RENDERERS


def test_png_opens_with_expected_size_at_start_middle_and_end():
    states = states_of(3, 0, {"version": "think"})
    for state in (states[0], states[len(states) // 2], states[-1]):
        for viewer in [None] + SEATS[:3]:
            data = render_png("mywuxing", G.view(state, viewer), NAMES, viewer)
            img = Image.open(io.BytesIO(data))
            img.load()
            assert img.size[0] == 800 and 800 <= img.size[1] <= 1800


def test_images_at_many_stages_of_random_games():
    rnd = random.Random(1)
    cases = [(2, {"version": "learn"}), (5, {"version": "learn", "end": "recycle"}),
             (4, {"version": "think", "think_option": 2, "power_cards": "on"}),
             (8, {"version": "think", "think_option": 3, "power_cards": "on"})]
    phases = set()
    for seed, (n, options) in enumerate(cases):
        states = states_of(n, seed, options, bold=seed >= 2)
        picks = sorted({0, len(states) - 1} | set(rnd.sample(range(len(states)), min(10, len(states)))))
        picks += [i for i, s in enumerate(states) if s["phase"] in ("react", "counter")][:3]
        for i in picks:
            phases.add(states[i]["phase"])
            for viewer in [None] + SEATS[:n]:
                img = RENDERERS["mywuxing"](G.view(states[i], viewer), NAMES, viewer)
                assert img.size[0] == 800 and 700 <= img.size[1] <= 1900
    assert {"choose", "react", "counter", "over"} <= phases


def test_channel_image_same_for_every_hand_content():
    """The spectator image is drawn from the view only: two games that differ only in hidden cards give
    the same picture."""
    state = G.new(SEATS[:3], 5, {"version": "think"})
    other = dict(state, hands={s: list(reversed(h)) for s, h in state["hands"].items()})
    a = render_png("mywuxing", G.view(state, None), NAMES, None)
    b = render_png("mywuxing", G.view(other, None), NAMES, None)
    assert a == b
    mine = render_png("mywuxing", G.view(state, SEATS[0]), NAMES, SEATS[0])
    assert mine != a  # the seat's own image shows its hand
