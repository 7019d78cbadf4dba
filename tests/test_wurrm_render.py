"""WURRM World images at every phase, for the channel and each seat, on both kinds of board."""

import io
import random

from PIL import Image

from engine import GAMES
from render import render_png

G = GAMES["wurrm"]


def test_images_at_every_phase_open_as_pngs():
    names = {str(i): n for i, n in enumerate(["Alice", "Bob", "Cy", "Dmitri the Very Long-Named", "Eve", "Fay"])}
    phases = set()
    for seed, opts in enumerate([{}, {"board": "random", "petition": True, "bribery": True},
                                 {"bumpers": True, "reverse": True, "lucky": True}]):
        seats = [str(i) for i in range(2 + seed * 2)]
        rnd = random.Random(seed)
        s = G.new(seats, seed, opts)
        step = 0
        while True:
            if step % 9 == 0 or s["phase"] not in phases or G.result(s) is not None:
                phases.add(s["phase"])
                for viewer in [None, seats[0]]:
                    png = render_png("wurrm", G.view(s, viewer), names, viewer)
                    with Image.open(io.BytesIO(png)) as im:
                        assert im.format == "PNG" and 1000 <= im.width <= 1200 and im.height >= 500  # a wide board
            if G.result(s) is not None:
                break
            seat = rnd.choice(G.to_act(s))
            s = G.apply(s, seat, rnd.choice(G.bot_actions(s, seat)))
            step += 1
    assert {"place", "lucky", "wish", "reroll", "move", "over"} <= phases
