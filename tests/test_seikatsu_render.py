"""Seikatsu images: views from random games at many stages, for the channel and for every seat."""

from __future__ import annotations

import io
import math
import random

import pytest
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


# ----- #16: rotated private views keep the space names the commands take, upright ----------------------------
def drawn_texts(view, viewer, monkeypatch) -> list[tuple[tuple[float, float], str, str | None, dict]]:
    """Every text the renderer draws, with its point, anchor and any extra options; turning or mirroring any
    image while drawing fails the test (a name drawn on a layer turned afterwards would not read upright)."""
    import render.common
    calls = []
    original = render.common.Draw.text

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
        calls.append((tuple(xy), text, anchor, {"args": args, **kwargs}))
        return original(self, xy, text, fill, font, anchor, *args, **kwargs)

    def refuse(*_a, **_k):
        raise AssertionError("an image was turned or mirrored while drawing")

    with monkeypatch.context() as m:
        m.setattr(render.common.Draw, "text", text)
        for name in ("rotate", "transpose", "transform"):
            m.setattr(Image.Image, name, refuse)
        RENDERERS["seikatsu"](view, NAMES, viewer)
    return calls


def inside(point, polygon) -> bool:
    """Point in a convex polygon (the hexagon of a space)."""
    x, y = point
    signs = set()
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) == 1


def mid_game(n, seed, moves=10):
    rnd = random.Random(seed)
    state = G.new(SEATS[:n], seed)
    for _ in range(moves):
        seat = G.to_act(state)[0]
        state = G.apply(state, seat, rnd.choice(G.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_seat_reads_each_space_name_upright_on_its_own_space(n, monkeypatch):
    from engine.seikatsu import CELL
    from render.seikatsu import garden_for, label_positions
    state = mid_game(n, n)
    seen_rotations = set()
    for viewer in [None, *SEATS[:n]]:
        view = G.view(state, viewer)
        garden = garden_for(view, viewer)
        if viewer is not None:
            seen_rotations.add(garden.steps)
        positions = label_positions(view, viewer)
        assert set(positions) == set(CELL)          # the very names the commands take
        calls = drawn_texts(view, viewer, monkeypatch)
        for *_, extra in calls:         # no direction, features or other layout option: plain upright text
            assert extra == {"args": ()}, extra
        for name, point in positions.items():
            drawn = [c for c in calls if c[1] == name]
            assert len(drawn) == 1, (viewer, name, len(drawn))
            xy, _, anchor, _ = drawn[0]
            assert anchor == "mm" and math.dist(xy, point) < 0.5
            # The name stands on its own space in this seat's turned garden.
            assert inside(point, list(garden.hexagon(CELL[name])))
        # The spaces a command may name now are the ones drawn as open (bold) in the image.
        seat = G.to_act(state)[0]
        placeable = {a.split()[-1] for a in G.legal_actions(state, seat) if a.startswith("place ")}
        assert placeable <= set(view["open_spaces"]) <= set(positions)
    assert len(seen_rotations) == len(set(G.view(state, None)["pagodas"].values()))   # one per pagoda side


@pytest.mark.parametrize("n", [2, 3, 4])
def test_turned_views_are_rotations_with_the_seats_pagoda_at_the_bottom(n):
    """Each private garden is the channel garden turned (never mirrored) so the seat's own pagoda is lowest."""
    from engine.seikatsu import CELL, PAGODA_CORNER
    from render.seikatsu import garden_for
    state = G.new(SEATS[:n], 5)
    channel = garden_for(G.view(state, None), None)
    for seat in SEATS[:n]:
        view = G.view(state, seat)
        garden = garden_for(view, seat)
        corner = PAGODA_CORNER[view["pagodas"][seat]]
        assert garden.px(corner)[1] == max(garden.px(c)[1] for c in CELL.values())
        turn = math.radians(60 * garden.steps)
        for cell in CELL.values():
            x, y = channel.px(cell)[0] - channel.cx, channel.px(cell)[1] - channel.cy
            turned = (garden.cx + x * math.cos(turn) - y * math.sin(turn),
                      garden.cy + x * math.sin(turn) + y * math.cos(turn))
            assert math.dist(turned, garden.px(cell)) < 1e-6, (seat, cell)


def drawing_order(view, viewer, monkeypatch) -> list[tuple[str, bool]]:
    """In drawing order: ("<fountain>", False) for each fountain badge, (name, halo) for each planted space's
    name, (text, False) for any other text."""
    import render.common
    import render.seikatsu
    order = []
    text, badge, label = render.common.Draw.text, render.seikatsu.draw_fountain, render.seikatsu.draw_tile_label

    def recorded_text(self, xy, t, *a, **k):
        if not (order and order[-1] == (t, True)):
            order.append((t, False))
        return text(self, xy, t, *a, **k)

    def recorded_badge(*a, **k):
        order.append(("<fountain>", False))
        return badge(*a, **k)

    def recorded_label(draw, garden, cell, tile, name, halo=False):
        order.append((name, halo))
        return label(draw, garden, cell, tile, name, halo)

    with monkeypatch.context() as m:
        m.setattr(render.common.Draw, "text", recorded_text)
        m.setattr(render.seikatsu, "draw_fountain", recorded_badge)
        m.setattr(render.seikatsu, "draw_tile_label", recorded_label)
        RENDERERS["seikatsu"](view, NAMES, viewer)
    return order


def test_a_name_beside_a_fountain_is_written_over_the_badge_with_a_halo(monkeypatch):
    """A fountain stands at a corner of three planted spaces; in some seat's turn of the garden that corner is
    next to a space's name, so the names of those three spaces are drawn after the badge, each on a plate of
    its tile's colour."""
    state = next(s for s in states(3, 4) if s["fountains"])
    fountain = set(state["fountains"][0]["spaces"])
    for viewer in [None, *SEATS[:3]]:
        order = drawing_order(G.view(state, viewer), viewer, monkeypatch)
        assert {t for t, halo in order if halo} == fountain
        last_badge = max(i for i, (t, _) in enumerate(order) if t == "<fountain>")
        assert all(order.index((name, True)) > last_badge for name in fountain)
        assert [t for t, _ in order].count(next(iter(fountain))) == 1     # each name once, upright, as text


def test_a_panel_taller_than_foreseen_is_drawn_again_whole(monkeypatch):
    """The sheet has room for the tallest panel seen, and for the scored rows only once the game is over; a
    panel that reaches further is drawn again on a sheet that holds it: the same picture, nothing cut off."""
    import random

    import render.seikatsu as rs
    from engine import GAMES

    game, names = GAMES["seikatsu"], {"1": "Ann", "2": "Bo", "3": "Cy"}
    state, rnd = game.new(["1", "2", "3"], 5), random.Random(5)
    views = []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        if len(views) < 2:
            views.append((game.view(state, "1"), "1"))              # a seat's: its hand in the panel
    views.append((game.view(state, None), None))                  # over: the scored rows too
    foreseen = [rs.render(v, names, viewer) for v, viewer in views]
    monkeypatch.setattr(rs, "PANEL_MAX_H", 40)
    again = [rs.render(v, names, viewer) for v, viewer in views]
    for a, b in zip(foreseen, again, strict=True):
        assert a.size == b.size and a.tobytes() == b.tobytes()
    assert foreseen[-1].height > rs.BANNER_H + rs.GARDEN_H + 40 + 2 * rs.ROWS_H   # it did reach beyond
