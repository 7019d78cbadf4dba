"""Rules versions and state shapes in the engine (issue #26): a game keeps the rules it started under, a state
saved before versions existed loads as version 1, converters run in order, and a game from a newer Teahouse
is refused without being touched."""

import json
import sqlite3
from pathlib import Path

import pytest

from engine import GAME_MODULES, GAMES, IllegalAction, UnknownRules
from engine.core import Game
from tests.corpus import views_digest

LEGACY = Path(__file__).resolve().parent / "fixtures" / "legacy" / "teahouse-v5.db"


def legacy_games():
    """(game key, seats, seed, options, saved state, effective log) of every started game the fixture holds:
    states exactly as the store of commit 382d806 saved them."""
    con = sqlite3.connect(f"file:{LEGACY}?mode=ro", uri=True)
    out = []
    for gid, key, seed, options, state in con.execute(
            "SELECT id, game, seed, options, state FROM games WHERE state IS NOT NULL ORDER BY id"):
        seats = [r[0] for r in con.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY position", (gid,))]
        log = []
        for seat, action in con.execute("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)):
            if action == "#undo":
                log.pop()
            elif not action.startswith("#"):
                log.append((seat, action))
        opts = {k: v for k, v in json.loads(options).items() if k != "hints"}
        out.append((key, seats, seed, opts, state, log))
    return out


def test_a_new_game_starts_under_the_current_rules_and_shape():
    for key in GAME_MODULES:
        game = GAMES[key]
        state = game.new(["a", "b"], 7)
        assert state["rules"] == game.rules and state["shape"] == game.shape
        assert game.load(game.dump(state)) == state


def test_every_state_saved_before_rules_versions_loads_as_version_1_and_replays():
    games = legacy_games()
    assert {g[0] for g in games} == set(GAME_MODULES)
    for key, seats, seed, options, text, log in games:
        game = GAMES[key]
        raw = json.loads(text)
        assert "rules" not in raw and "shape" not in raw       # what the old code wrote
        state = game.load(text)
        assert state["rules"] == 1 and state["shape"] == game.shape
        rebuilt = game.restart(seats, seed, options, state)
        for seat, action in log:
            rebuilt = game.apply(rebuilt, seat, action)
        assert views_digest(game, rebuilt) == views_digest(game, state), key
        assert game.result(rebuilt) == game.result(state)


def test_a_game_from_a_newer_teahouse_is_refused_and_left_as_it_is():
    game = GAMES["wagara"]
    text = game.dump(game.new(["a", "b"], 3))
    newer = json.dumps({**json.loads(text), "rules": game.rules + 1})
    with pytest.raises(UnknownRules) as e:
        game.load(newer)
    assert e.value.found == game.rules + 1 and e.value.known == game.rules
    assert "newer than this Teahouse knows" in str(e.value)
    with pytest.raises(UnknownRules):
        game.load(json.dumps({**json.loads(text), "shape": game.shape + 1}))
    with pytest.raises(UnknownRules):
        game.new(["a", "b"], 3, rules=game.rules + 1)
    with pytest.raises(ValueError):
        game.new(["a", "b"], 3, rules=0)


class Counting(Game):
    """A test game with two rules versions and three state shapes: version 2 counts by twos (an explicit
    branch keyed by the version), and shape 3 renamed ``n`` to ``count``."""
    key = "counting"
    title = "Counting"
    rules = 2
    rules_changes = {1: "by ones", 2: "by twos"}
    shape = 3
    upgrades = {**Game.upgrades, 2: lambda s: s.update(count=s.pop("n"))}

    def setup(self, state, rng):
        state["count"] = 0

    def to_act(self, state):
        return [] if state["count"] >= 6 else [state["seats"][0]]

    def legal_actions(self, state, seat):
        return ["count"] if seat in self.to_act(state) else []

    def play(self, state, seat, action):
        if action != "count":
            raise IllegalAction("Only 'count'.")
        state["count"] += 2 if state["rules"] >= 2 else 1

    def view(self, state, viewer):
        return {"count": state["count"]}

    def result(self, state):
        return None if state["count"] < 6 else {"winners": [state["seats"][0]], "scores": {}}


def test_an_older_version_keeps_its_own_code_path():
    game = Counting()
    old, new = game.new(["a", "b"], 1, rules=1), game.new(["a", "b"], 1)
    assert (old["rules"], new["rules"]) == (1, 2)
    assert game.apply(old, "a", "count")["count"] == 1
    assert game.apply(new, "a", "count")["count"] == 2
    # a rebuild from a running state takes that state's version
    assert game.restart(["a", "b"], 1, {}, game.apply(old, "a", "count"))["rules"] == 1


def test_converters_run_in_order_from_the_saved_shape():
    game = Counting()
    shape1 = json.dumps({"game": "counting", "seats": ["a", "b"], "options": {}, "rng": [1, 2], "n": 4})
    state = game.load(shape1)
    assert state["rules"] == 1 and state["shape"] == 3 and state["count"] == 4 and "n" not in state
    assert game.apply(state, "a", "count")["count"] == 5       # and it goes on by version 1's rules
    shape2 = json.dumps({"game": "counting", "seats": ["a", "b"], "options": {}, "rng": [1, 2], "n": 1,
                         "rules": 2, "shape": 2})
    assert game.load(shape2)["count"] == 1 and game.load(shape2)["rules"] == 2
