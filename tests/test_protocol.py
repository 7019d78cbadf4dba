"""The protocol on the test game (Pebbles) and the shared engine pieces."""

import pytest

from engine import GAMES, IllegalAction
from engine.elements import DESTROYS, ELEMENTS, FEEDS, relation
from engine.hexgrid import distance, neighbours, ring, rotate, spiral
from engine.rng import Rng, seed_state
from tests.protocol import play_random, replay
from tests.tinygame import PEBBLES

SEATS = ["ann", "bob", "cy"]


def test_registered():
    assert GAMES["pebbles"] is PEBBLES


def test_same_seed_and_actions_give_identical_dump():
    state, log = play_random(PEBBLES, SEATS, seed=7)
    again = replay(PEBBLES, SEATS, 7, None, log)
    assert PEBBLES.dump(again) == PEBBLES.dump(state)


def test_different_seeds_differ():
    dice = set()
    for seed in range(20):
        s = PEBBLES.new(SEATS, seed)
        for seat in SEATS:
            s = PEBBLES.apply(s, seat, "bid 2")
        dice.add(s["die"])
    assert len(dice) > 1


def test_dump_load_round_trip_is_exact():
    s = PEBBLES.new(SEATS, 3, {"rounds": 2})
    s = PEBBLES.apply(s, "bob", "bid 3")
    text = PEBBLES.dump(s)
    assert PEBBLES.load(text) == s
    assert PEBBLES.dump(PEBBLES.load(text)) == text


def test_illegal_action_leaves_state_untouched():
    s = PEBBLES.new(SEATS, 3)
    before = PEBBLES.dump(s)
    for seat, action in [("ann", "bid 9"), ("ann", ""), ("zed", "bid 1"), ("ann", "keep")]:
        with pytest.raises(IllegalAction):
            PEBBLES.apply(s, seat, action)
    assert PEBBLES.dump(s) == before
    s2 = PEBBLES.apply(s, "ann", "bid 1")
    with pytest.raises(IllegalAction, match="already bid"):
        PEBBLES.apply(s2, "ann", "bid 2")


def test_simultaneous_choices_are_hidden_from_others():
    s = PEBBLES.apply(PEBBLES.new(SEATS, 1), "ann", "bid 3")
    assert PEBBLES.view(s, "ann")["my_bid"] == 3
    assert "my_bid" not in PEBBLES.view(s, "bob")
    assert "my_bid" not in PEBBLES.view(s, None)
    assert PEBBLES.view(s, None)["chosen"] == {"ann": True, "bob": False, "cy": False}
    assert PEBBLES.to_act(s) == ["bob", "cy"]


def test_new_refuses_bad_seats_and_options():
    with pytest.raises(IllegalAction, match="2 to 4"):
        PEBBLES.new(["solo"], 1)
    with pytest.raises(IllegalAction, match="different"):
        PEBBLES.new(["a", "a"], 1)
    with pytest.raises(IllegalAction, match="no option"):
        PEBBLES.new(SEATS, 1, {"colour": "red"})
    with pytest.raises(IllegalAction, match="can be"):
        PEBBLES.new(SEATS, 1, {"rounds": 99})


def test_many_random_games_finish():
    for seed in range(50):
        state, _ = play_random(PEBBLES, SEATS[: 2 + seed % 2], seed)
        assert PEBBLES.result(state)["winners"]


def test_rng_is_deterministic_and_uniformish():
    a, b = {"rng": seed_state(42)}, {"rng": seed_state(42)}
    ra, rb = Rng(a), Rng(b)
    assert [ra.die() for _ in range(100)] == [rb.die() for _ in range(100)]
    counts = [0] * 6
    r = Rng({"rng": seed_state(1)})
    for _ in range(6000):
        counts[r.die() - 1] += 1
    assert all(850 < c < 1150 for c in counts)
    items = list(range(10))
    r.shuffle(items)
    assert sorted(items) == list(range(10))


def test_element_cycles_rules_0():
    """RULES.md §0: for two different elements exactly one relation holds."""
    assert FEEDS["wood"] == "fire" and DESTROYS["water"] == "fire"
    for a in ELEMENTS:
        for b in ELEMENTS:
            if a != b:
                rels = {relation(a, b), relation(b, a)}
                assert len(rels) == 2 and "same" not in rels


def test_hexgrid():
    assert len(spiral(3)) == 37
    assert len(ring(2)) == 12
    assert all(distance((0, 0), c) == 1 for c in neighbours(0, 0))
    assert rotate((1, 0), 6) == (1, 0)
    assert [rotate((1, 0), k) for k in range(6)] == [rotate(rotate((1, 0), k - 1), 1) for k in range(6)]
    assert len({rotate((2, -1), k) for k in range(6)}) == 6
