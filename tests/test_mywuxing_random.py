"""MyWuXing through legal_actions only: seeded random games of both versions and every table option.

All 52 cards are checked after every action (X1), hidden information is checked by changing it and seeing
that no other seat's view changes, and 400 games per version must finish.
"""

import random
from collections import Counter

import pytest

from engine import GAMES
from engine.mywuxing import cards_in_game, full_deck
from tests.protocol import check_view, play_random, replay

G = GAMES["mywuxing"]
DECK = Counter(full_deck())

OPTION_SETS = [
    {"version": "learn"},
    {"version": "learn", "end": "recycle"},
    {"version": "think", "think_option": 1},
    {"version": "think", "think_option": 2, "power_cards": "on"},
    {"version": "think", "think_option": 3, "power_cards": "on", "end": "recycle"},
    {"version": "think", "think_option": 2, "end": "recycle"},
]


def seats_for(n):
    return [f"{100000000000000000 + 7 * i}" for i in range(n)]  # seats look like Discord ids


def fast_game(seed, options, n):
    """A random game played on one state (no copies, for speed), checking the card count after every action."""
    rnd = random.Random(seed)
    seats = seats_for(n)
    state = G.new(seats, seed, options)
    assert cards_in_game(state) == DECK
    for _ in range(5000):
        if G.result(state) is not None:
            return state
        seat = rnd.choice(G.to_act(state))
        G.play(state, seat, rnd.choice(G.legal_actions(state, seat)))
        assert cards_in_game(state) == DECK
    raise AssertionError("game did not finish")


@pytest.mark.parametrize("version", ["learn", "think"])
def test_X1_X9_400_seeded_games_per_version_finish_with_all_52_cards(version):
    """400 games of each version take every branch of engine/mywuxing.py that 1,000 took (the first 12 games of
    learn take them all, the first 117 of think: coverage.py's branch coverage)."""
    reasons = Counter()
    for seed in range(400):
        options = {"version": version}
        if version == "think":
            options.update(think_option=1 + seed % 3, power_cards=("on", "off")[seed % 2])
        if seed % 4 == 3:
            options["end"] = "recycle"
        state = fast_game(seed, options, 2 + seed % 7)
        res = G.result(state)
        assert res["winners"] and set(res["scores"]) == set(state["seats"])
        best = max(res["scores"].values())
        if res["reason"] == "count":
            assert all(res["scores"][w] == best for w in res["winners"])
        reasons[res["reason"]] += 1
    assert reasons["count"] and reasons["last_standing"]  # both endings occur


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_protocol_random_games(options):
    for seed in range(12):
        seats = seats_for(2 + seed % 7)
        state, log = play_random(G, seats, seed, options, check_every=5)
        assert cards_in_game(state) == DECK
        again = replay(G, seats, seed, options, log)
        assert G.dump(again) == G.dump(state)


def test_power_window_happens_in_random_games():
    """The reaction window, activations and counters are reached through legal actions alone."""
    seen = Counter()
    for seed in range(300):
        rnd = random.Random(seed)
        state = G.new(seats_for(4 + seed % 5), seed, {"version": "think", "power_cards": "on"})
        while G.result(state) is None:
            seat = rnd.choice(G.to_act(state))
            actions = G.legal_actions(state, seat)
            bold = [a for a in actions if a != "pass"] if state["phase"] in ("react", "counter") else actions
            G.play(state, seat, rnd.choice(bold or actions))
            hand = state["last_hand"]
            if hand and hand["reaction"]:
                seen[hand["reaction"]["counter"] or "stood"] += 1
    assert seen["stood"] and seen["star"] and seen["dragons"]


def hide_everything_but(state, viewer):
    """The same position with every secret the viewer may not know changed: other hands and secret choices
    replaced, deck orders and the Universe order reversed, the generator moved."""
    other = dict(state)
    other["rng"] = state["rng"] ^ 12345
    other["universe"] = list(reversed(state["universe"]))
    other["decks"] = {s: list(reversed(d)) for s, d in state["decks"].items()}
    swap = {"wood": "star", "star": "fire", "fire": "dragon", "dragon": "earth", "earth": "metal",
            "metal": "water", "water": "wood"}
    other["hands"] = {s: (h if s == viewer else [swap[c] for c in h]) for s, h in state["hands"].items()}
    other["chosen"] = {s: (c if s == viewer else swap[c]) for s, c in state["chosen"].items()}
    return other


@pytest.mark.parametrize("version", ["learn", "think"])
def test_views_do_not_depend_on_hidden_cards(version):
    """Hands, deck and Universe order and others' secret choices are absent from spectators' and opponents'
    views: changing them leaves those views identical."""
    for seed in range(25):
        rnd = random.Random(seed)
        seats = seats_for(3 + seed % 4)
        state = G.new(seats, seed, {"version": version, "power_cards": "on" if version == "think" else "off"})
        while G.result(state) is None:
            for viewer in [None] + seats:
                v = check_view(G, state, viewer)
                assert G.view(hide_everything_but(state, viewer), viewer) == v
            seat = rnd.choice(G.to_act(state))
            G.play(state, seat, rnd.choice(G.legal_actions(state, seat)))


def test_describe_lines_never_name_a_secret_choice():
    for seed in range(40):
        rnd = random.Random(seed)
        state = G.new(seats_for(3), seed, {"version": "think", "power_cards": "on"})
        while G.result(state) is None:
            seat = rnd.choice(G.to_act(state))
            action = rnd.choice(G.legal_actions(state, seat))
            after = G.apply(state, seat, action)
            line = G.describe(state, seat, action, after)
            if state["phase"] == "choose" and not after["revealed"] and after["hands_played"] == state["hands_played"]:
                assert line == f"{seat} has chosen a card."
            state = after


def test_action_texts_are_short_lowercase_and_stable():
    for seed in range(30):
        rnd = random.Random(seed)
        state = G.new(seats_for(8), seed, {"version": "think", "think_option": 2, "power_cards": "on"})
        while G.result(state) is None:
            seat = rnd.choice(G.to_act(state))
            actions = G.legal_actions(state, seat)
            assert actions == G.legal_actions(state, seat)
            for a in actions:
                assert a == a.lower() and len(a) <= 80 and a == " ".join(a.split())
            G.play(state, seat, rnd.choice(actions))
