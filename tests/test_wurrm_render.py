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
                        assert im.format == "PNG" and 800 <= im.width <= 1000 and im.height >= 1000  # runs down
            if G.result(s) is not None:
                break
            seat = rnd.choice(G.to_act(s))
            s = G.apply(s, seat, rnd.choice(G.bot_actions(s, seat)))
            step += 1
    assert {"place", "lucky", "wish", "reroll", "move", "over"} <= phases


# ----- issue 14, item 3: what a mover needs on the image ------------------------------------------------------
def test_issue14_names_replace_whole_seat_ids_only_in_the_status_line():
    from render.common import with_names

    assert with_names("4 moves e to b4", {"4": "Fay"}) == "Fay moves e to b4"


def test_issue14_the_legend_is_true_to_the_variants():
    from render.wurrm import legend_items

    plain = dict(legend_items({"options": {}, "seats": ["a", "b", "c"]}))
    assert plain["attack"] == "Attack" and plain["gem"] == "Gem +1" and plain["hostile"] == "Hostile"
    rich = dict(legend_items({"options": {"petition": True, "bribery": True, "reverse": True},
                              "seats": ["a", "b", "c"]}))
    assert rich["attack"] == "Petition, order reverses" and rich["gem"] == "Gem +2" and "6 gems" in rich["hostile"]
    two = dict(legend_items({"options": {"petition": True}, "seats": ["a", "b"]}))
    assert two["attack"] == "Attack"                       # at two players Attack spaces attack (issue 14)


def test_issue14_the_banner_says_the_roll_and_the_steps_left():
    from render.wurrm import banner_text

    view = {"seats": ["a", "b"], "result": None, "phase": "move", "actor": "a",
            "move": {"value": 5, "left": 3, "path": [], "options": {}}}
    assert banner_text(view, {"a": "Ann"})[0] == "Ann: move — rolled 5, 3 steps left"


def test_issue14_random_boards_are_drawn_at_the_default_hex_size():
    from render.wurrm_board import board_geometry, default_hex_size

    game = GAMES["wurrm"]
    for seed in range(5):
        view = game.view(game.new(["a", "b"], seed, {"board": "random"}), None)
        geo, width = board_geometry(view)
        assert geo.size == default_hex_size() and width >= geo.width


def test_issue14_the_legend_wraps_within_the_image():
    from render.common import canvas
    from render.wurrm import draw_legend
    from render.wurrm_board import MARGIN, WIDTH

    img, draw = canvas(WIDTH, 200)
    spans = []
    real = draw.text

    def text(xy, label, font=None, **kw):
        spans.append((xy[0], xy[0] + draw.textlength(label, font=font), label))
        return real(xy, label, font=font, **kw)
    draw.text = text
    view = {"options": {"petition": True, "bribery": True, "reverse": True}, "seats": ["a", "b", "c"]}
    bottom = draw_legend(draw, 0, view)
    assert {label for _, _, label in spans} >= {"Hostile (6 gems)", "Petition, order reverses"}
    assert all(right <= WIDTH - MARGIN for _, right, _ in spans) and bottom > 34


def test_issue14_the_movers_image_marks_every_space_the_move_can_end_on():
    """Z5 reach: the mover's own image (and the channel's) draws a blue rim on each space ``reach`` lists,
    another player's private image does not; the legend explains the mark only where it is drawn."""
    from render import RENDERERS
    from render.wurrm_board import REACH, board_geometry, reach_shown

    seats = ["0", "1", "2"]
    s = G.new(seats, 4)
    rnd = random.Random(4)
    while not (s["phase"] == "move" and len(G.view(s, None)["move"]["reach"]) >= 3):
        seat = rnd.choice(G.to_act(s))
        s = G.apply(s, seat, rnd.choice(G.bot_actions(s, seat)))
    mover = s["actor"]
    other = next(x for x in seats if x != mover)
    names = {x: f"P{x}" for x in seats}
    reach = G.view(s, mover)["move"]["reach"]

    def blue(viewer):
        img = RENDERERS["wurrm"](G.view(s, viewer), names, viewer)
        geo, _ = board_geometry(G.view(s, viewer))
        rgb = img.convert("RGB")
        marked = []
        for sid in geo.centres:
            (x0, y0), (x1, y1) = geo.corners(sid, 0.9)[:2]     # the middle of one side of the blue rim
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            if any(rgb.getpixel((int(mx) + dx, int(my) + dy)) == REACH for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                marked.append(sid)
        return marked
    assert reach_shown(G.view(s, mover), mover) == reach == reach_shown(G.view(s, None), None)
    assert reach_shown(G.view(s, other), other) == []
    assert set(reach) <= set(blue(mover)) and not blue(other)
    from render.common import record_text
    for viewer, shown in ((mover, True), (other, False)):
        with record_text() as drawn:
            RENDERERS["wurrm"](G.view(s, viewer), names, viewer)
        assert any(text == "Move can end here" for _, text in drawn) == shown


def test_the_cached_board_with_its_highlights_is_the_board_drawn_whole():
    """paste_board (the board drawn once, then only the patches around highlighted spaces drawn again, on a
    small scratch moved by whole pixels) gives the very pixels draw_board gives, on both kinds of board."""
    from render.common import canvas
    from render.wurrm import colours_for
    from render.wurrm_board import board_geometry, draw_board, paste_board

    names = {str(i): f"P{i}" for i in range(4)}
    checked = 0
    for seed, opts in enumerate([{}, {"board": "random"}, {"board": "random", "bumpers": True}]):
        seats = [str(i) for i in range(2 + seed)]
        rnd, s = random.Random(seed), G.new(seats, seed, opts)
        pointy = set()
        for _ in range(60):
            if G.result(s) is not None:
                break
            seat = rnd.choice(G.to_act(s))
            s = G.apply(s, seat, rnd.choice(G.bot_actions(s, seat)))
            view = G.view(s, None)
            if not (view.get("last") or {}).get("spaces"):
                continue
            colours = colours_for(view["seats"])
            geo, width = board_geometry(view)
            height = int(geo.height) + 200
            cached, _ = canvas(width, height)
            paste_board(cached, view, geo, colours, names)
            whole, draw = canvas(width, height)
            draw_board(draw, view, geo, colours, names)
            assert cached.tobytes() == whole.tobytes()
            pointy.add(geo.pointy)
            checked += 1
        assert pointy
    assert checked >= 10
