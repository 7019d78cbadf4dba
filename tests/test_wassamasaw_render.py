"""Wassamasaw images: views from random games at every stage, for the channel and for each seat."""

import io
import random

from PIL import Image

from engine.wassamasaw import GAME
from render import RENDERERS, render_png
from render.common import record_text
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


# ----- #16: the key of the element symbols, and dice that can only be converted -----------------------------------
def test_view_marks_exactly_the_dice_the_seat_choosing_must_convert():
    """``convert_only`` (public: read from the sheets) agrees with the legal actions at every step."""
    marked = 0
    for seed in range(3):
        for state in states_of(seed):
            view = GAME.view(state, None)
            assert len(view["convert_only"]) == len(view["pool"])
            if state["held"] is not None or state["over"]:
                assert not any(view["convert_only"])
                continue
            seat = GAME.to_act(state)[0]
            legal = set(GAME.legal_actions(state, seat))
            for d, only in zip(view["pool"], view["convert_only"], strict=True):
                die = f"{d['element']} {d['face']}"
                assert (f"convert {die}" in legal) == only and (f"take {die}" in legal) == (not only)
                marked += only and len(view["pool"]) > 2
            assert GAME.view(state, A)["convert_only"] == view["convert_only"] == GAME.view(state, B)["convert_only"]
    assert marked, "no game reached a die that fits nowhere: the check above saw no mark"


def convert_moment(seed=3):
    """The first moment of a game where some pool dice must be converted and others can be taken."""
    for state in states_of(seed):
        only = GAME.view(state, None)["convert_only"]
        if any(only) and not all(only):
            return state
    raise AssertionError("no mixed moment")


def test_image_tags_each_convert_only_die_and_alt_text_names_them():
    state = convert_moment()
    view = GAME.view(state, A)
    with record_text() as drawn:
        RENDERERS["wassamasaw"](view, NAMES, A)
    texts = [t for _, t in drawn]
    assert texts.count("convert") == sum(view["convert_only"])
    assert "hatched: fits nowhere, convert only" in texts
    only = []             # the marked dice in pool order, each face once
    for d, c in zip(view["pool"], view["convert_only"], strict=True):
        if c and f"{d['element']} {d['face']}" not in only:
            only.append(f"{d['element']} {d['face']}")
    summary = GAME.summary(GAME.view(state, None))
    assert f"Can only be converted (fits nowhere): {', '.join(only)}. Scores:" in summary


def test_last_two_dice_are_all_tagged_and_said_to_be_converted():
    state = next(s for s in states_of(4) if len(s["pool"]) == 2 and s["held"] is None)
    view = GAME.view(state, None)
    assert view["convert_only"] == [True, True]
    with record_text() as drawn:
        RENDERERS["wassamasaw"](view, NAMES, None)
    texts = [t for _, t in drawn]
    assert texts.count("convert") == 2 and "the last two dice are converted" in texts
    assert "The last two dice of the round are converted." in GAME.summary(view)


def test_no_die_is_tagged_while_one_is_in_hand():
    state = next(s for s in states_of(5) if s["held"] is not None)
    with record_text() as drawn:
        RENDERERS["wassamasaw"](GAME.view(state, None), NAMES, None)
    assert "convert" not in [t for _, t in drawn] and "In hand" in [t for _, t in drawn]


def test_key_shows_the_feeding_cycle_and_every_forbidden_pair():
    from engine.elements import FEEDS
    from engine.wassamasaw import FORBIDDEN
    from render.common import canvas, font
    from render.wassamasaw import WIDTH, key_layout
    _, draw = canvas(WIDTH, 100)
    items = key_layout(draw)
    names = [t for t, *_ in items]
    feeds_line = [t for t, _, y, _ in items if y == items[0][2]]
    symbols = [t.split(":")[1] for t in feeds_line if t.startswith("symbol:")]
    # The feeding line goes round the whole cycle back to where it began, each symbol named beside it.
    assert len(symbols) == 6 and symbols[0] == symbols[-1]
    assert all(FEEDS[a] == b for a, b in zip(symbols, symbols[1:], strict=False))
    for element in symbols[:-1]:
        assert feeds_line[feeds_line.index(f"symbol:{element}") + 1] == element
    # The second line: each forbidden pair once, as symbol ✗ symbol, and Earth touching all.
    pairs = {frozenset((names[i - 1].split(":")[1], names[i + 1].split(":")[1]))
             for i, t in enumerate(names) if t == "✗"}
    assert pairs == {frozenset((a, b)) for a, bs in FORBIDDEN.items() for b in bs}
    assert "touches all" in names and not FORBIDDEN["earth"]
    # Readable on a phone and inside the image.
    for text, x, _, size in items:
        assert size * 400 / WIDTH >= 9
        if not text.startswith("symbol:"):
            assert x + draw.textlength(text, font=font(size, True)) <= WIDTH - 8


def test_pool_tiles_fit_beside_the_die_in_hand():
    from render.wassamasaw import POOL_COLS, TILE_W, WIDTH, pool_slots
    slots = pool_slots(10)
    assert len(set(slots)) == 10 and max(x for x, _ in slots) + TILE_W <= WIDTH - 100   # the hand box's room
    assert POOL_COLS * 2 >= 10
