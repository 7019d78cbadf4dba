"""WURRM World rules versions (issue #26): rules 2 makes every table size fair (seat gems, Z4; random boards
per size, Z1), and a game begun under rules 1 finishes under rules 1 — its seat gems and its list of random
boards — whether it was started by this code (``new(..., rules=1)``) or saved by the old code (the legacy
fixture database). Rules 3 (issue #36) changes the four-player seat gems (Z4); a game begun under rules 1 or 2
finishes under its own."""

import json
import random
import sqlite3
from pathlib import Path

import pytest

from engine import GAMES, IllegalAction
from engine.rng import Rng, seed_state
from engine.wurrm import (
    BANK,
    SEAT_BONUS,
    SEAT_BONUS_2,
    SEAT_BONUS_3,
    board_for,
    board_of,
    default_layout,
    layout_key,
    listed_layouts,
    open_starts,
    random_layout,
    random_layouts,
    random_players,
    seat_bonus,
)
from tests.corpus import views_digest

G = GAMES["wurrm"]
BOARD = board_for(layout_key(default_layout()))
LEGACY = Path(__file__).resolve().parent / "fixtures" / "legacy" / "teahouse-v5.db"


def placements(state):
    """Place every avatar as the beginner does (reverse turn order, Z4); returns the state and, per seat, the
    Start space it took and the gems it took there."""
    took = {}
    while state["phase"] == "place":
        seat = G.to_act(state)[0]
        action = G.bot_actions(state, seat)[0]
        before = state["gems"][seat]
        state = G.apply(state, seat, action)
        took[seat] = (action.split()[1], state["gems"][seat] - before)
    return state, took


def play_out(state, rnd, check=lambda s: None, cap=5000):
    """Play to the end as the ``easy`` level does (a uniform choice among ``bot_actions``), calling ``check``
    on every state."""
    for _ in range(cap):
        check(state)
        if G.result(state) is not None:
            return state
        seat = rnd.choice(sorted(G.to_act(state)))
        state = G.apply(state, seat, rnd.choice(G.bot_actions(state, seat)))
    raise AssertionError("the game did not end")


def test_issue26_issue36_a_new_wurrm_game_starts_under_rules_3_and_says_what_changed():
    assert G.rules == 3 and G.new(["a", "b"], 1)["rules"] == 3
    assert G.rules_changes[1] and "every table size" in G.rules_changes[2] and "four players" in G.rules_changes[3]
    assert G.new(["a", "b"], 1, rules=1)["rules"] == 1 and G.new(["a", "b"], 1, rules=2)["rules"] == 2


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_Z4_issue26_issue36_seat_gems_by_rules_version_at_every_table_size(n):
    """Ruling Z4 (issues #26, #36): under rules 3 the k-th seat takes SEAT_BONUS_3[n][k] gems beside its Start
    space's, under rules 2 SEAT_BONUS_2[n][k], under rules 1 SEAT_BONUS[n][k] as before. Placement stays in
    reverse turn order under all three."""
    seats = [str(i) for i in range(n)]
    for rules, table in ((3, SEAT_BONUS_3), (2, SEAT_BONUS_2), (1, SEAT_BONUS)):
        state, took = placements(G.new(seats, 11, rules=rules))
        assert list(took) == seats[::-1]
        for k, seat in enumerate(seats):
            sid, gems = took[seat]
            here = BOARD.spaces[sid]["gems"]
            assert gems == here + table[n][k] == here + seat_bonus(k, n, rules)
        assert state["bank"] + sum(state["gems"].values()) == BANK
    for table in (SEAT_BONUS_2, SEAT_BONUS_3):
        assert table[n][0] == 0 and list(table[n]) == sorted(table[n])


def test_Z4_issue26_rules_2_seat_gems_as_ruled():
    """The table of the ruling (engine docstring, DESIGN.md); rules 1's table is never changed."""
    assert SEAT_BONUS == {2: (0, 1), 3: (0, 1, 1), 4: (0, 1, 1, 2), 5: (0, 1, 1, 2, 2), 6: (0, 1, 1, 2, 2, 3)}
    assert SEAT_BONUS_2 == {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 1, 2), 5: (0, 0, 0, 1, 1), 6: (0, 0, 0, 1, 1, 1)}


def test_Z4_issue36_rules_3_seat_gems_as_ruled():
    """The table of the ruling (issue #36): four players +0/+1/+2/+2 (the third seat takes as many as the fourth);
    every other size as under rules 2, whose table is never changed."""
    assert SEAT_BONUS_3 == {**SEAT_BONUS_2, 4: (0, 1, 2, 2)}
    assert SEAT_BONUS_2[4] == SEAT_BONUS[4] == (0, 1, 1, 2)
    for n in (2, 3, 5, 6):
        assert all(seat_bonus(k, n, 3) == seat_bonus(k, n, 2) for k in range(n))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_Z2_issue26_issue36_start_spaces_in_play_by_rules_version(n):
    """Ruling Z2 (issues #26, #36): the Start spaces in play are the same under all three versions."""
    for rules in (1, 2, 3):
        state = G.new([str(i) for i in range(n)], 5, rules=rules)
        assert state["starts"] == open_starts(BOARD, n)
        offered = {a.split()[1] for a in G.legal_actions(state, G.to_act(state)[0])}
        assert offered == set(state["starts"])
    assert open_starts(BOARD, n) == ([s for s in BOARD.starts if s not in ("a2", "a5")] if n <= 4 else
                                        [s for s in BOARD.starts if n == 6 or s != "a5"])


def test_Z1_issue26_board_random_at_five_players_under_rules_2_but_refused_under_rules_1():
    """Rules 1 lists no random board for five players (issue #14) and still refuses one; rules 2 has at least
    three arrangements for every size from 2 to 6, each drawn from its own list."""
    seats = [str(i) for i in range(5)]
    with pytest.raises(IllegalAction, match="only at these numbers of players: 2, 3, 4, 6. This table has 5"):
        G.new(seats, 3, {"board": "random"}, rules=1)
    assert random_players(1) == [2, 3, 4, 6] and random_players(2) == [2, 3, 4, 5, 6]
    for n in range(2, 7):
        assert sum(n in x["players"] for x in listed_layouts(2)) >= 3, n
        drawn = {layout_key(G.new([str(i) for i in range(n)], seed, {"board": "random"}, rules=2)["layout"])
                 for seed in range(30)}
        assert drawn <= {layout_key(x["layout"]) for x in listed_layouts(2) if n in x["players"]}
    state = G.new(seats, 3, {"board": "random"}, rules=2)
    assert state["rules"] == 2 and state["layout"] != default_layout() and len(state["starts"]) == 5


def test_Z1_issue26_a_rules_1_random_board_is_drawn_from_rules_1s_list_as_before():
    """A rules-1 game draws from issue #14's list exactly as the old code did (one number from the rng), so a
    rules-1 game rebuilt from its seed gets the board it was dealt."""
    v1 = json.loads((Path(__file__).resolve().parent.parent / "data" / "wurrm" / "random_layouts.json")
                    .read_text(encoding="utf-8"))["layouts"]
    assert listed_layouts(1) == v1
    for n in (2, 3, 4, 6):
        for seed in range(10):
            listed = [x["layout"] for x in v1 if n in x["players"]]
            expected = Rng({"rng": seed_state(seed)}).choice(listed)
            assert random_layout(Rng({"rng": seed_state(seed)}), n, 1) == expected
            state = G.new([str(i) for i in range(n)], seed, {"board": "random"}, rules=1)
            assert state["layout"] in listed and state["rules"] == 1


@pytest.mark.parametrize(("rules", "n"), [(1, 3), (1, 5), (1, 6), (1, 4), (2, 4)])
def test_issue26_issue36_a_game_begun_under_an_older_rules_version_finishes_under_it(rules, n):
    """Created with ``rules=1`` (issue #26) or, at four players, ``rules=2`` (issue #36) and played to its end by
    the easy level: it keeps its version in every state, takes that version's seat gems (at four players rules 1
    and 2 give +0/+1/+1/+2, not rules 3's +0/+1/+2/+2), and rebuilds (``restart``, replays and exports) under
    it."""
    table = {1: SEAT_BONUS, 2: SEAT_BONUS_2}[rules]
    seats = [str(i) for i in range(n)]
    for seed in range(3):
        start = G.new(seats, seed, {"bumpers": seed == 1}, rules=rules)
        state, took = placements(start)
        for k, seat in enumerate(seats):
            assert took[seat][1] == BOARD.spaces[took[seat][0]]["gems"] + table[n][k]
        if n == 4:      # the third seat: +1 under rules 1 and 2, +2 in a new game (rules 3)
            assert took["2"][1] == BOARD.spaces[took["2"][0]]["gems"] + 1
            _, now = placements(G.new(seats, seed, {"bumpers": seed == 1}))
            assert now["2"][1] == BOARD.spaces[now["2"][0]]["gems"] + 2
        log = []

        def check(s):
            assert s["rules"] == rules

        rnd = random.Random(seed)
        rebuilt = G.restart(seats, seed, {"bumpers": seed == 1}, state)
        assert rebuilt["rules"] == rules and rebuilt == start
        for _ in range(5000):
            check(state)
            if G.result(state) is not None:
                break
            seat = rnd.choice(sorted(G.to_act(state)))
            action = rnd.choice(G.bot_actions(state, seat))
            log.append((seat, action))
            state = G.apply(state, seat, action)
        assert G.result(state) is not None
        again, _ = placements(G.restart(seats, seed, {"bumpers": seed == 1}, state))
        for seat, action in log:
            again = G.apply(again, seat, action)
        assert views_digest(G, again) == views_digest(G, state)


def legacy_wurrm():
    """The 3-player WURRM World game the old code saved mid-play in the legacy fixture database: its seats,
    seed, options, saved state and action log."""
    con = sqlite3.connect(f"file:{LEGACY}?mode=ro", uri=True)
    gid, seed, options, text = con.execute(
        "SELECT id, seed, options, state FROM games WHERE game = 'wurrm' AND status = 'running'").fetchone()
    seats = [r[0] for r in con.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY position", (gid,))]
    log = [(s, a) for s, a in con.execute("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,))
           if not a.startswith("#")]
    return seats, seed, json.loads(options), text, log


def test_issue26_the_legacy_rules_1_wurrm_game_finishes_under_rules_1():
    """A real rules-1 state (saved by the old code, before rules versions) loads as rules 1, rebuilds from its
    seed and log under rules 1's seat gems (the third seat took 1 + 1 gems; rules 2 would give it more), and
    plays on to its end under rules 1."""
    seats, seed, options, text, log = legacy_wurrm()
    assert len(seats) == 3 and "rules" not in json.loads(text)
    state = G.load(text)
    assert state["rules"] == 1 and board_of(state).layout == layout_key(default_layout())
    rebuilt = G.restart(seats, seed, options, state)
    assert rebuilt["rules"] == 1
    for seat, action in log:
        if action.startswith("place"):
            before = rebuilt["gems"][seat]
            after = G.apply(rebuilt, seat, action)
            k = seats.index(seat)
            assert after["gems"][seat] - before == BOARD.spaces[action.split()[1]]["gems"] + SEAT_BONUS[3][k]
            rebuilt = after
        else:
            rebuilt = G.apply(rebuilt, seat, action)
    assert views_digest(G, rebuilt) == views_digest(G, state)
    # the same seed and placements under rules 2 hand the third seat (on a4) 1 + 2 gems, not 1 + 1
    other = G.new(seats, seed, options)
    for seat, action in log[:3]:
        other = G.apply(other, seat, action)
    assert log[0] == ("333", "place a4") and other["gems"]["333"] == 3

    def check(s):
        assert s["rules"] == 1 and G.load(G.dump(s))["rules"] == 1

    final = play_out(state, random.Random(26), check)
    assert G.result(final)["winners"]


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_Z4_issue36_rules_3_plays_exactly_as_rules_2_at_every_size_but_four(n):
    """Rules 3 changed four players only (issue #36): at every other size a rules-3 game and a rules-2 game from
    the same seed and actions, random board included, are the same game (only the version differs), so rules 2's
    balance there is rules 3's (DESIGN.md)."""
    seats = [str(i) for i in range(n)]
    for seed, options in ((0, {}), (1, {"board": "random"}), (2, {"bumpers": True, "reverse": True})):
        two, three = G.new(seats, seed, options, rules=2), G.new(seats, seed, options)
        rnd = random.Random(seed)
        for _ in range(3000):
            assert {**two, "rules": 3} == three
            if G.result(three) is not None:
                break
            seat = rnd.choice(sorted(G.to_act(three)))
            action = rnd.choice(G.bot_actions(three, seat))
            two, three = G.apply(two, seat, action), G.apply(three, seat, action)
        assert G.result(three) is not None and G.result(two) == G.result(three)


def test_Z1_issue36_rules_3_draws_random_boards_from_rules_2s_list():
    """Ruling (issue #36): rules 3 has no list of its own; its four-player entries were played again under
    +0/+1/+2/+2 and kept (DESIGN.md). A four-player rules-3 game draws the board a rules-2 game of the same seed
    draws, and then takes rules 3's seat gems on it."""
    assert listed_layouts(3) == listed_layouts(2) == random_layouts()
    assert sum(4 in x["players"] for x in listed_layouts(3)) >= 3
    seats = [str(i) for i in range(4)]
    for seed in range(10):
        three = G.new(seats, seed, {"board": "random"})
        assert three["layout"] == G.new(seats, seed, {"board": "random"}, rules=2)["layout"]
        assert three["layout"] in [x["layout"] for x in listed_layouts(2) if 4 in x["players"]]
