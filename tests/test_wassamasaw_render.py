"""Wassamasaw images: views from random games at every stage, for the channel and for each seat."""

import io
import random

from PIL import Image

from engine.wassamasaw import GAME
from render import RENDERERS, render_png
from tests.protocol import play_random

A, B = "111111111111111111", "222222222222222222"
NAMES = {A: "Ann", B: "Bartholomew Ignatius of the Very Long Display Name"}


def states_of(seed):
    final, log = play_random(GAME, [A, B], seed, check_every=10**6)
    state = GAME.new([A, B], seed)
    states = [state]
    for seat, action in log:
        state = GAME.apply(state, seat, action)
        states.append(state)
    assert GAME.dump(state) == GAME.dump(final)
    return states


def png_size(view, viewer):
    data = render_png("wassamasaw", view, NAMES, viewer)
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.size


def test_renderer_is_registered():
    assert "wassamasaw" in RENDERERS


def stages(states, rnd, extra):
    """Indices of the start, the end, a die in hand (targets shown) and ``extra`` random moments."""
    held = next(i for i, s in enumerate(states) if s["held"] is not None)
    return sorted({0, held, len(states) - 1} | set(rnd.sample(range(1, len(states) - 1), extra)))


def test_png_at_start_middle_and_end_for_everyone():
    states = states_of(0)
    for i in stages(states, random.Random(0), 2):
        for viewer in (None, A, B):
            width, height = png_size(GAME.view(states[i], viewer), viewer)
            assert width == 600 and 1600 <= height <= 2200


def test_images_at_many_stages_of_random_games():
    # The PNG encoder is the slow part and the same for every image, so most stages check the Pillow image.
    rnd = random.Random(1)
    for seed in range(1, 5):
        states = states_of(seed)
        for i in stages(states, rnd, 8):
            for viewer in (None, A, B):
                img = RENDERERS["wassamasaw"](GAME.view(states[i], viewer), NAMES, viewer)
                assert img.size[0] == 600 and 1600 <= img.size[1] <= 2200


def test_end_image_is_taller_for_the_score_table():
    states = states_of(9)
    running = png_size(GAME.view(states[-2], None), None)
    over = png_size(GAME.view(states[-1], None), None)
    assert over[1] > running[1]


def test_names_missing_from_the_map_fall_back_to_seats():
    state = GAME.new([A, B], 1)
    data = render_png("wassamasaw", GAME.view(state, None), {}, None)
    assert Image.open(io.BytesIO(data)).size[0] == 600
