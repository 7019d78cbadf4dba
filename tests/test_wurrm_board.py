"""WURRM World's board (Z1), the Start spaces in play (Z2), the gates of random boards (issue #14) and setup
(Z4), from hand-built positions; the positions are built by tests/test_wurrm.py's helpers."""

import json
import random
from collections import Counter

import pytest

from engine import GAMES, IllegalAction
from engine.rng import Rng, seed_state
from engine.wurrm import (
    BANK,
    MAX_DRAWN_WIDTH,
    MAX_RACE,
    MIN_RACE,
    RACE_SPREAD_ALL,
    SEAT_BONUS,
    SEAT_BONUS_3,
    SEAT_EDGE,
    board_for,
    candidate_layouts,
    default_layout,
    expected_race,
    fair_layout,
    fair_race,
    fair_seats,
    finish_chances,
    layout_key,
    open_starts,
    race_turns,
    random_layout,
    random_layouts,
    random_players,
    seat_chances,
    seat_edge,
)
from tests.test_wurrm import BOARD, A, B, placed, total_gems

G = GAMES["wurrm"]



# ----- Z1 the board ------------------------------------------------------------------------------------------
def test_Z1_default_board_has_seven_tiles_and_connects_every_start_to_both_sleeps():
    tiles = Counter(sp["tile"] for sp in BOARD.spaces.values())
    assert len(tiles) == 7 and set(tiles.values()) == {7}
    assert len(BOARD.starts) == 6 and len(BOARD.sleeps) == 2
    assert BOARD.connected()
    dist = BOARD.distances_to_sleep()
    assert min(dist[s] for s in BOARD.starts) >= MIN_RACE    # a real race


def test_Z1_two_routes_sharing_no_space_lead_from_every_start_to_each_sleep():
    """Issue #14: no single space (like the old End-your-turn b4) is a gate every race must pass."""
    for start in BOARD.starts:
        for sleep in BOARD.sleeps:
            assert BOARD.disjoint_routes(start, sleep) >= 2, (start, sleep)
    # The seat gate is for random boards: the recommended board's seats are measured by whole games
    # (bench/wurrm_balance.py, DESIGN.md), where its lone racers' edge (0.14) says little (Attacks hand gems back).
    assert BOARD.open_routes() and fair_layout(BOARD, seats=False) and not fair_seats(BOARD)
    dist = BOARD.distances_to_sleep()
    assert MIN_RACE <= min(dist[s] for s in BOARD.starts) and max(dist[s] for s in BOARD.starts) <= MAX_RACE


def test_Z1_a_board_with_a_single_gate_is_refused():
    from engine import wurrm
    saved = json.loads(json.dumps(wurrm.TILES))
    try:
        for tile in ("d", "e"):           # close the Thicket's south pocket: d1/e1 becomes the only way on
            wurrm.TILES[tile]["rim"][4] = "hostile"
        wurrm.board_for.cache_clear()
        board = board_for(layout_key(default_layout()))
        assert board.connected() and not board.open_routes() and not fair_layout(board)
    finally:
        wurrm.TILES.clear()
        wurrm.TILES.update(saved)
        wurrm.board_for.cache_clear()


def test_Z2_issue14_start_spaces_in_play_race_alike_and_the_far_pair_holds_more_gems():
    """Issue #14: a1, a3, a4 and a6 each step straight onto a wing (a lone beginner's expected race is the same
    from all four); a2 and a5 lie a step behind, are in play only with five or six players, and hold 3 gems
    (1 on the others) to make up for it."""
    race = race_turns(BOARD)
    near = [s for s in BOARD.starts if s not in ("a2", "a5")]
    assert max(race[s] for s in near) - min(race[s] for s in near) < 1e-9
    assert 0 < race["a2"] - race["a1"] <= RACE_SPREAD_ALL and race["a2"] == race["a5"]
    assert all(BOARD.spaces[s]["gems"] == 1 for s in near)
    assert BOARD.spaces["a2"]["gems"] == 3 == BOARD.spaces["a5"]["gems"]
    assert all(open_starts(BOARD, n) == near for n in (2, 3, 4))
    assert [len(open_starts(BOARD, n)) for n in range(2, 7)] == [4, 4, 4, 5, 6]
    assert set(open_starts(BOARD, 5)) - set(near) in ({"a2"}, {"a5"})


def test_Z2_issue14_placement_offers_only_the_start_spaces_in_play():
    for n, expected in ((2, 4), (4, 4), (6, 6)):
        s = G.new([str(i) for i in range(n)], 5)
        assert len(G.legal_actions(s, G.to_act(s)[0])) == expected
    s = G.new([A, B], 5)
    with pytest.raises(IllegalAction):
        G.apply(s, B, "place a2")                            # left empty below five players
    assert G.view(s, None)["spaces"][2]["closed"] is True    # drawn grey (render/wurrm_board.py)


def test_issue14_the_beginner_value_table_matches_the_engines_beginner():
    """BEGINNER_VALUES (the race gate's dice) against 3,000 rolls by the engine's own beginner policy."""
    from engine.wurrm import BEGINNER_VALUES
    rnd = random.Random(3)
    counts = Counter()
    s = placed()
    for k in range(3000):
        t = json.loads(json.dumps(s))
        t["rng"] = seed_state(k)
        seat = G.to_act(t)[0]
        t = G.apply(t, seat, rnd.choice(G.bot_actions(t, seat)))        # the lucky number, and the roll
        while t["phase"] in ("wish", "reroll"):
            t = G.apply(t, seat, rnd.choice(G.bot_actions(t, seat)))
        counts[t["last_roll"]["value"]] += 1
    for v, p in enumerate(BEGINNER_VALUES[:4]):
        assert abs(counts[v] / 3000 - p) < 0.03, (v, counts[v] / 3000, p)


def test_Z1_spaces_of_neighbouring_tiles_touch():
    cross = {(BOARD.spaces[a]["tile"], BOARD.spaces[b]["tile"]) for a, ls in BOARD.links.items()
             for b, _ in ls.values() if BOARD.spaces[a]["tile"] != BOARD.spaces[b]["tile"]}
    assert len(cross) >= 12                                   # six tile-to-tile joins, both ways


def test_Z1_issue14_random_layouts_pass_every_check():
    """``board: random`` draws from data/wurrm/random_layouts.json (bench/wurrm_layouts.py): every entry is one of
    ``candidate_layouts`` (two wings, the half turn of itself) and passes ``fair_layout`` — two routes sharing no
    space, no trap, a race of 7–10 steps, the image width, the race gate ``fair_race`` and the seat gate
    ``fair_seats`` — checked again here, entry by entry."""
    entries = random_layouts()
    listed = [x["layout"] for x in entries]
    assert all(x["players"] and set(x["players"]) <= {2, 3, 4, 5, 6} for x in entries)
    assert 2 in random_players()
    candidates = {layout_key(c) for c in candidate_layouts()}
    for layout in listed:
        board = board_for(layout_key(layout))
        assert layout_key(layout) in candidates and layout != default_layout()
        assert board.connected() and fair_layout(board) and fair_race(board) and fair_seats(board), layout
        assert board.open_routes() and board.drawn_width() <= MAX_DRAWN_WIDTH
        dist = board.distances_to_sleep()
        assert min(dist[s] for s in board.starts) >= MIN_RACE
        pos = {(p[1], p[2]): p[0] for p in layout}
        assert all(pos[(-a, -b)] == {"a": "a", "b": "c", "c": "b", "d": "e", "e": "d", "f": "g", "g": "f"}[t]
                   for (a, b), t in pos.items())                 # the half turn of itself
    assert len({layout_key(x) for x in listed}) == len(listed)
    for n in random_players():
        choices = [x["layout"] for x in entries if n in x["players"]]
        drawn = [random_layout(Rng({"rng": seed_state(seed)}), n) for seed in range(12)]
        assert all(d in choices for d in drawn)
        assert len({layout_key(d) for d in drawn}) >= min(len(choices), 4)     # they really vary


def test_Z1_issue14_a_table_size_with_no_checked_random_board_is_refused_and_told_why(monkeypatch):
    import engine.wurrm as wurrm
    monkeypatch.setattr(wurrm, "random_layouts", lambda: [{"layout": default_layout(), "players": [2, 3]}])
    assert G.new(["0", "1", "2"], 1, {"board": "random"})["layout"] == default_layout()
    with pytest.raises(IllegalAction, match="only at these numbers of players: 2, 3. This table has 4"):
        G.new(["0", "1", "2", "3"], 1, {"board": "random"})
    assert G.new(["0", "1", "2", "3"], 1)["layout"] == default_layout()      # the recommended board is always there


def test_Z1_issue14_the_seat_gate_refuses_a_board_where_a_second_gem_buys_nothing():
    """A board that passed the race gate before the seat gate (random seed 0's board then): every toll on its
    short routes is paid by the one gem every Start space gives, so the seat gems buy the later seats nothing
    and the first seat won 56.7 % at two beginners (bench/wurrm_balance.py, 300 games). The lone racers'
    first seat wins about 61 % there, outside SEAT_EDGE."""
    layout = [["a", 0, 0, 0], ["b", -1, 0, 4], ["d", -1, -1, 5], ["f", 0, -2, 5], ["c", 1, 0, 1], ["e", 1, 1, 2],
              ["g", 0, 2, 2]]
    board = board_for(layout_key(layout))
    assert fair_layout(board, seats=False) and fair_race(board)
    assert seat_edge(board) > SEAT_EDGE[1] + 0.1 and not fair_seats(board) and not fair_layout(board)
    gems = {g: finish_chances(board, "a1", g) for g in (1, 2, 3)}
    assert gems[1] == gems[2] == gems[3]                     # a second gem changes nothing


def test_issue14_the_lone_race_chances_agree_with_the_expected_race():
    """``finish_chances`` (turn by turn) and ``expected_race`` (value iteration) follow the same chain: the
    expected finish is the sum of the chances of not having finished yet; the seats' chances add up to one and,
    with no seat gems, moving first is an advantage."""
    race = expected_race(BOARD)
    for start in BOARD.starts:
        chances = finish_chances(BOARD, start, BOARD.spaces[start]["gems"] + 1)
        assert chances == sorted(chances) and chances[-1] > 0.999
        assert abs(1 + sum(1 - c for c in chances) - race[start]) < 0.01, start
    for n in (2, 3, 4, 5, 6):
        assert abs(sum(seat_chances(BOARD, n)) - 1) < 1e-9
    layout = random_layouts()[0]["layout"]
    board = board_for(layout_key(layout))
    saved = dict(SEAT_BONUS)
    try:
        SEAT_BONUS[2] = (0, 0)
        assert seat_chances(board, 2)[0] > 0.5
    finally:
        SEAT_BONUS.update(saved)


def test_Z1_issue14_the_race_gate_refuses_a_lopsided_board():
    """A board whose wings differ (one wing's first tile turned) fails ``fair_race`` though its structure
    passes: the quick simulation gate catches what step counts miss."""
    layout = default_layout()
    refused = 0
    for rot in range(6):
        layout[1][3] = rot
        board = board_for(layout_key(layout))
        refused += not fair_race(board)
    assert refused >= 1


def test_Z1_no_space_shuts_a_gemless_player_in_for_good():
    """Decision: from every space a Gem or Sleep space is reachable over open borders alone (checked for the
    default layout and demanded of random ones), so no game can stall with everyone broke behind tolls."""
    assert BOARD.no_traps()
    for seed in range(4):
        assert board_for(layout_key(random_layout(Rng({"rng": seed_state(seed)}), 2))).no_traps()


def test_Z1_random_board_option_replays_from_the_seed():
    a = G.new([A, B], 42, {"board": "random"})
    b = G.new([A, B], 42, {"board": "random"})
    assert a["layout"] == b["layout"] != default_layout()


def test_Z1_a_random_board_game_rebuilds_on_its_own_board_after_the_list_changed(monkeypatch):
    """Replays and exports rebuild a game from its seed and log (table/records.py ``rebuild``, through
    ``restart``): a newer list of random boards must not move a game begun on the older one."""
    import engine.wurrm as wurrm
    from store.rows import GameRow, LogEntry, Seat
    from table.records import rebuild

    rnd = random.Random(8)
    start = G.new([A, B], 42, {"board": "random"})
    state, entries = start, []
    for i in range(40):
        seat = G.to_act(state)[0]
        action = rnd.choice(G.bot_actions(state, seat))
        entries.append(LogEntry(i + 1, seat, action, "", 0.0))
        state = G.apply(state, seat, action)
    row = GameRow(id=1, guild=None, channel="c", game="wurrm", options={"board": "random"}, status="running",
                  host=A, seed=42, state=G.dump(state), version=1, created_at=0.0, updated_at=0.0,
                  seats=[Seat(A, "A"), Seat(B, "B")])
    others = [x for x in random_layouts() if x["layout"] != start["layout"] and 2 in x["players"]]
    monkeypatch.setattr(wurrm, "random_layouts", lambda: others[:5])     # a newer bot, another list
    assert G.new([A, B], 42, {"board": "random"})["layout"] != start["layout"]
    states = rebuild(G, row, entries)
    assert states[0] == start and G.dump(states[-1]) == G.dump(state)
    monkeypatch.setattr(wurrm, "random_layouts", lambda: [{"layout": default_layout(), "players": [3]}])
    with pytest.raises(IllegalAction):                                   # no board for two players now
        G.new([A, B], 42, {"board": "random"})
    states = rebuild(G, row, entries)
    assert states[0] == start and G.dump(states[-1]) == G.dump(state)


# ----- Z4 setup ----------------------------------------------------------------------------------------------
def test_Z4_setup_takes_the_start_spaces_gems_from_the_bank_of_27():
    s = G.new([A, B], 1)
    assert G.to_act(s) == [B] and s["bank"] == BANK           # the last seat places first
    start = "a3"
    s = G.apply(s, B, f"place {start}")
    assert s["gems"][B] == 1 + 1 and s["bank"] == BANK - 2   # the second seat's gem for playing later
    assert f"place {start}" not in G.legal_actions(s, A)      # a taken Start space
    with pytest.raises(IllegalAction):
        G.apply(s, A, f"place {start}")
    s = G.apply(s, A, "place a1")
    assert s["gems"][A] == 1 and s["phase"] == "lucky" and G.to_act(s) == [A]   # the first seat plays first


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_Z4_issue14_setup_goes_in_reverse_turn_order_and_later_seats_take_more_gems(n):
    """Decision (issue #14): the last seat places first, and the k-th seat takes SEAT_BONUS[n][k] more gems
    (bench/wurrm_balance.py measured the table). That is rules 1's table; rules 2's and 3's:
    tests/test_wurrm_rules.py."""
    seats = [str(i) for i in range(n)]
    s = G.new(seats, 3, rules=1)
    order = []
    while s["phase"] == "place":
        seat = G.to_act(s)[0]
        order.append(seat)
        sid = G.legal_actions(s, seat)[-1].split()[1]
        s = G.apply(s, seat, f"place {sid}")
        assert s["gems"][seat] == BOARD.spaces[sid]["gems"] + SEAT_BONUS[n][seats.index(seat)]
    assert order == seats[::-1] and SEAT_BONUS[n][0] == 0 and list(SEAT_BONUS[n]) == sorted(SEAT_BONUS[n])
    assert total_gems(s) == BANK and G.to_act(s) == ["0"]


def test_Z4_issue14_a_beginner_places_where_its_race_is_shortest_so_reverse_order_gives_later_seats_the_pick():
    """Decision (issue #14): the computer's beginner places on a free Start space whose race (``race_values``,
    with the gems it would take there) is the shortest. On the recommended board at six players the seats
    placing last (the first seats, who move first) are left a2 and a5, a step behind (rules 1's seat gems; with
    rules 2's, a seat without seat gems may prefer a2's 3 gems: tests/test_wurrm_rules.py)."""
    from engine.wurrm import race_values
    s = G.new([str(i) for i in range(6)], 4, rules=1)
    left = {}
    while s["phase"] == "place":
        seat = G.to_act(s)[0]
        offered = G.bot_actions(s, seat)
        assert offered and set(offered) <= set(G.legal_actions(s, seat))
        free = {a.split()[1] for a in G.legal_actions(s, seat)}
        if free - {"a2", "a5"}:
            assert all(a.split()[1] not in ("a2", "a5") for a in offered)
        left[seat] = offered[0].split()[1]
        s = G.apply(s, seat, offered[0])
    assert {left["0"], left["1"]} == {"a2", "a5"}
    # on a random board the Start spaces differ: the offer is the fastest free one for the seat's gems
    from engine.wurrm import board_of
    n = max(random_players())
    for seed in range(4):
        s = G.new([str(i) for i in range(n)], seed, {"board": "random"})
        board = board_of(s)
        values = race_values(board)
        seat = G.to_act(s)[0]
        bonus = SEAT_BONUS_3[n][n - 1]                 # a new game: rules 3's seat gems (issues #26, #36)
        turns = {a: values[(a.split()[1], min(3, board.spaces[a.split()[1]]["gems"] + bonus))]
                 for a in G.legal_actions(s, seat)}
        assert all(turns[a] <= min(turns.values()) + 0.05 for a in G.bot_actions(s, seat))
