"""Seikatsu with Yarimizu: the rulings S1–S11 of RULES.md §4 and the decisions D1–D10 of engine/seikatsu.py."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import GAMES, IllegalAction
from engine.hexgrid import neighbours
from engine.seikatsu import CARDS, CELL, CORNERS, GAME, GARDEN_TILES, KOI, LABEL, ROWS, SPACES
from tests.protocol import check_view, play_random, replay

G = GAME
SEATS = ["ann", "bob", "cy", "dee"]
FILL = "sparrow marigold"


def position(n: int = 2, board: dict | None = None, hands: dict | None = None, bag: list | None = None,
             yarimizu: bool = True, turn: int = 0) -> dict:
    """A hand-built position: a new game edited to the given garden, hands and bag."""
    state = G.new(SEATS[:n], 1, {"yarimizu": yarimizu})
    if board is not None:
        state["board"] = dict(board)
        state["koi_placed"] = sum(1 for t in board.values() if t == KOI)
    if hands is not None:
        state["hands"].update({s: list(h) for s, h in hands.items()})
    if bag is not None:
        state["bag"] = list(bag)
    state["turn"] = turn
    return state


def refused(state: dict, seat: str, action: str, reason: str) -> None:
    """``action`` by ``seat`` is illegal, the engine saying why (``reason``, a pattern)."""
    with pytest.raises(IllegalAction, match=reason):
        G.apply(state, seat, action)


def full_board(**changes) -> dict:
    board = {s: FILL for s in LABEL.values()}
    board.update(changes)
    return board


# ----- S1, S2: the garden and the tiles -------------------------------------------------------------------
def test_registered_with_yarimizu_on_by_default():
    assert GAMES["seikatsu"] is G
    assert G.options == {"yarimizu": True}
    assert G.min_players == 2 and G.max_players == 4


def test_S1_garden_has_36_spaces_around_the_printed_pond():
    assert len(SPACES) == 36 and (0, 0) not in SPACES
    assert all(max(abs(q), abs(r), abs(q + r)) <= 3 for q, r in SPACES)
    assert len(set(LABEL.values())) == 36 and "d4" not in CELL
    # the names as the channel image shows them: column letter, number from the column's bottom
    assert CELL["d5"] == (0, -1) and CELL["d3"] == (0, 1) and CELL["a1"] == (-3, 3) and CELL["g1"] == (3, 0)
    assert CELL["d7"] == (0, -3) and CELL["e3"] == (1, 0)


def test_S1_pagoda_rows_are_the_three_axes_with_lengths_4_5_6_6_6_5_4():
    for colour, axis in (("pink", lambda q, r: r), ("blue", lambda q, r: q), ("green", lambda q, r: -q - r)):
        rows = ROWS[colour]
        assert [len(row) for row in rows] == [4, 5, 6, 6, 6, 5, 4]
        for row in rows:
            assert len({axis(*CELL[s]) for s in row}) == 1
        assert sorted(s for row in rows for s in row) == sorted(LABEL.values())
    assert ROWS["pink"][3] == ["a4", "b4", "c4", "e3", "f2", "g1"]  # through pink's corner g1 = (3, 0)
    assert ROWS["blue"][3] == ["d1", "d2", "d3", "d5", "d6", "d7"]
    assert ROWS["green"][3] == ["a1", "b2", "c3", "e4", "f4", "g4"]


def test_D5_fountain_corners_are_triangles_of_spaces_not_touching_the_centre():
    assert len(CORNERS) == 48  # 54 triangles in a radius-3 hexagon, 6 of them at the printed pond
    for corner in CORNERS:
        a, b, c = (CELL[s] for s in corner)
        assert b in neighbours(*a) and c in neighbours(*a) and c in neighbours(*b)
    assert ("d5", "e4", "e5") in CORNERS and ("d3", "d5", "e3") not in CORNERS


def test_S2_S4_every_tile_is_in_the_bag_the_hands_or_the_garden():
    for n in (2, 3, 4):
        state = G.new(SEATS[:n], 5)
        tiles = list(state["board"].values()) + state["bag"] + [t for h in state["hands"].values() for t in h]
        assert Counter(tiles) == Counter(GARDEN_TILES + [KOI] * 4)
        assert Counter(GARDEN_TILES) == Counter({t: 2 for t in set(GARDEN_TILES)}) and len(set(GARDEN_TILES)) == 16
        assert all(len(h) == 2 for h in state["hands"].values())


# ----- S3, S4: seats and setup ----------------------------------------------------------------------------
@pytest.mark.parametrize("n,spaces,pagodas", [
    (2, {"e3", "d5"}, ["pink", "blue"]),
    (3, {"e3", "d5", "c3"}, ["pink", "blue", "green"]),
    (4, {"e3", "d5", "c4", "d3"}, ["pink", "blue", "pink", "blue"]),
])
def test_S3_S4_setup_by_player_count(n, spaces, pagodas):
    for seed in range(30):
        state = G.new(SEATS[:n], seed)
        assert set(state["board"]) == spaces
        assert KOI not in state["board"].values(), "koi ponds join the bag only after the starting tiles"
        assert list(state["pagodas"].values()) == pagodas
        assert G.to_act(state) == ["ann"]  # D2


def test_S4_flower_spaces_are_the_centre_neighbours_pointing_at_each_pagoda():
    assert CELL["e3"] == (1, 0) and CELL["d5"] == (0, -1) and CELL["c3"] == (-1, 1)
    assert {CELL["c4"], CELL["d3"]} == {(-1, 0), (0, 1)}  # either side of green's (-1, 1) at four players


def test_yarimizu_option_can_be_turned_off():
    state = G.new(SEATS[:2], 3, {"yarimizu": False})
    view = G.view(state, None)
    assert view["yarimizu"] is False and view["cards_open"] == [] and view["fountains_left"] == {"ann": 0, "bob": 0}
    with pytest.raises(IllegalAction, match="can be"):
        G.new(SEATS[:2], 3, {"yarimizu": "maybe"})


# ----- S5: placing ----------------------------------------------------------------------------------------
def test_S5_placement_must_touch_a_tile_and_the_centre_does_not_count():
    state = position(board={"g1": FILL}, hands={"ann": ["crane iris", "koi"]})
    refused(state, "ann", "place crane iris e3", "touches no tile")  # e3 touches only the printed pond and empty spaces
    refused(state, "ann", "place crane iris g1", "already holds")
    refused(state, "ann", "place heron lily f2", "no heron lily")
    refused(state, "ann", "place crane iris d4", "no space")
    places = [a for a in G.legal_actions(state, "ann") if a.startswith("place")]
    assert places == ["place crane iris f1", "place crane iris f2", "place crane iris g2", "place koi f1",
                      "place koi f2", "place koi g2"]


def test_S5_draw_after_placing_then_next_player():
    state = position(board={"e3": FILL}, hands={"ann": ["crane iris", "koi"]}, bag=["heron lily"])
    after = G.apply(state, "ann", "place crane iris e2")
    assert after["hands"]["ann"] == ["koi", "heron lily"] and after["bag"] == []
    assert G.to_act(after) == ["bob"]
    assert after["board"]["e2"] == "crane iris"


def test_S5_D3_empty_bag_hands_are_played_out_and_empty_hands_skipped():
    board = full_board()
    for s in ("a1", "a2", "a3"):
        del board[s]
    state = position(n=3, board=board, hands={"ann": ["crane iris"], "bob": [], "cy": ["koi", "heron lily"]},
                     bag=[])
    state = G.apply(state, "ann", "place crane iris a1")
    assert state["hands"]["ann"] == [] and G.to_act(state) == ["cy"]  # bob, with no tile, is skipped
    state = G.apply(state, "cy", "place koi a2")
    assert G.to_act(state) == ["cy"]  # ann and bob are out: cy plays out the hand
    state = G.apply(state, "cy", "place heron lily a3")
    assert G.result(state) is not None and G.to_act(state) == [] and len(state["board"]) == 36


# ----- S6: birds ------------------------------------------------------------------------------------------
def test_S6_bird_scores_0_without_a_matching_neighbour():
    state = position(board={"e3": "finch iris", "f3": "heron iris"}, hands={"ann": ["crane iris", "koi"]})
    after = G.apply(state, "ann", "place crane iris f2")
    assert after["birds"]["pink"] == 0 and after["last"]["points"] == 0
    assert "0 points" in G.describe(state, "ann", "place crane iris f2", after)


def test_S6_bird_scores_2_for_one_matching_neighbour():
    state = position(board={"e3": "crane lily", "f3": "heron iris"}, hands={"ann": ["crane iris", "koi"]})
    after = G.apply(state, "ann", "place crane iris f2")
    assert after["birds"] == {"pink": 2, "blue": 0}


def test_S6_bird_scores_7_when_surrounded_by_six_matching_birds():
    around_f2 = ["g1", "g2", "f3", "e3", "e2", "f1"]
    flowers = ["iris", "lily", "poppy", "marigold", "iris", "lily"]
    ring = {s: f"crane {f}" for s, f in zip(around_f2, flowers, strict=True)}
    state = position(board=ring, hands={"bob": ["crane poppy", "koi"]}, turn=1)
    after = G.apply(state, "bob", "place crane poppy f2")
    assert after["birds"]["blue"] == 7


def test_S6_D4_koi_pond_scores_as_the_best_bird_then_matches_nothing():
    board = {"e3": "finch iris", "f3": "finch lily", "g1": "crane poppy", "e2": "heron iris"}
    state = position(board=board, hands={"ann": ["koi", "crane lily"]})
    after = G.apply(state, "ann", "place koi f2")  # touches 2 finches, 1 crane, 1 heron: best is finch, 3
    assert after["birds"]["pink"] == 3 and after["last"]["bird"] == "finch"
    assert "as a finch: 3 points" in G.describe(state, "ann", "place koi f2", after)
    after["turn"] = 0
    after["hands"]["ann"] = ["finch poppy"]
    again = G.apply(after, "ann", "place finch poppy f1")  # touches the koi pond f2, crane g1 and heron e2
    assert again["birds"]["pink"] == 3 and again["last"]["points"] == 0, "a placed koi pond has no bird"


def test_D4_koi_pond_ties_name_the_first_bird_and_no_match_scores_0():
    state = position(board={"e3": "heron iris", "g1": "crane lily"}, hands={"ann": ["koi", "crane lily"]})
    after = G.apply(state, "ann", "place koi f2")
    assert after["last"]["bird"] == "crane" and after["birds"]["pink"] == 2
    lonely = position(board={"e3": KOI}, hands={"ann": ["koi", "crane lily"]})
    after = G.apply(lonely, "ann", "place koi e2")
    assert after["birds"]["pink"] == 0 and after["last"]["bird"] is None


def test_S6_team_birds_go_to_the_team_score_at_four():
    state = position(n=4, board={"e3": "crane lily"}, hands={"cy": ["crane iris", "koi"]}, turn=2)
    after = G.apply(state, "cy", "place crane iris e2")
    assert after["birds"] == {"pink": 2, "blue": 0}
    scores = G.view(after, None)["scores"]
    assert scores["ann"]["birds"] == scores["cy"]["birds"] == 2 and scores["bob"]["birds"] == 0


# ----- S7, D10: flowers -----------------------------------------------------------------------------------
def test_S7_flower_rows_for_each_pagoda_hand_counted_with_koi_wild_and_gaps():
    # Pink's middle row a4 b4 c4 e3 f2 g1 reads iris, poppy, iris, koi, iris, marigold: three irises apart
    # from each other plus the koi pond count 4 (10); every other pink row is all marigold:
    # 10 + 15 + 21 + 10 + 21 + 15 + 10 = 102. Blue and green each meet one changed space per row, so each of
    # their rows loses one marigold, except the row holding the koi pond, which counts it as marigold:
    # 6 + 10 + 15 + 21 + 21 + 10 + 6 = 89.
    board = full_board(a4="heron iris", b4="heron poppy", c4="crane iris", e3=KOI, f2="finch iris",
                       g1="finch lily")
    state = position(n=3, board=board)
    final = G.final_scores(state)
    assert final["pink"]["flowers"] == 102
    assert final["blue"]["flowers"] == 89
    assert final["green"]["flowers"] == 89
    middle = final["pink"]["rows"][3]
    assert middle == {"spaces": ["a4", "b4", "c4", "e3", "f2", "g1"], "flower": "iris", "koi": 1, "count": 4,
                      "points": 10}


def test_S7_a_row_of_koi_ponds_alone_counts_them_all():
    board = full_board(d7=KOI, e6=KOI, f5=KOI, g4=KOI)  # pink's first row
    row = G.final_scores(position(board=board))["pink"]["rows"][0]
    assert row["spaces"] == ["d7", "e6", "f5", "g4"]
    assert row["flower"] is None and row["count"] == 4 and row["points"] == 10


@pytest.mark.parametrize("row,flowers,points", [
    (0, ["iris", "lily", "poppy", "marigold"], 1),
    (3, ["iris", "lily", "iris", "poppy", "marigold", "lily"], 3),
    (3, ["iris", "lily", "iris", "poppy", "iris", "marigold"], 6),
    (3, ["iris", "iris", "lily", "iris", "poppy", "iris"], 10),
    (3, ["iris", "iris", "iris", "lily", "iris", "iris"], 15),
    (3, ["iris"] * 6, 21),
])
def test_S7_row_points_are_1_3_6_10_15_21(row, flowers, points):
    spaces = ROWS["blue"][row]  # a1..a4 and d1..d7, hand-checked in test_S1
    board = full_board(**{s: f"crane {f}" for s, f in zip(spaces, flowers, strict=True)})
    assert G.final_scores(position(board=board))["blue"]["rows"][row]["points"] == points


def test_S7_end_when_the_garden_is_full_totals_birds_and_flowers():
    board = full_board()
    del board["a1"]
    state = position(board=board, hands={"ann": ["sparrow marigold"], "bob": []}, bag=[], yarimizu=False)
    state["birds"] = {"pink": 5, "blue": 10}
    end = G.apply(state, "ann", "place sparrow marigold a1")
    res = G.result(end)
    # a1 touches a2, b1 and b2, all sparrows: 4 more; every row is all marigold: 113 each
    assert res["breakdown"]["pink"] == {"birds": 9, "flowers": 113, "fountains": 0, "total": 122}
    assert res["breakdown"]["blue"] == {"birds": 10, "flowers": 113, "fountains": 0, "total": 123}
    assert res["winners"] == ["bob"] and res["scores"] == {"ann": 122, "bob": 123}
    assert "The garden is full" in G.describe(state, "ann", "place sparrow marigold a1", end)
    refused(end, "bob", "keep hand", "over")


def test_S7_ties_are_shared():
    board = full_board()
    del board["a1"]
    state = position(board=board, hands={"ann": ["sparrow marigold"], "bob": []}, bag=[])
    state["birds"] = {"pink": 5, "blue": 9}  # a1 brings ann 4
    end = G.apply(state, "ann", "place sparrow marigold a1")
    assert G.result(end)["winners"] == ["ann", "bob"]


def test_S7_only_pagodas_in_use_are_scored():
    assert set(G.final_scores(position(n=2, board=full_board()))) == {"pink", "blue"}
    assert set(G.final_scores(position(n=3, board=full_board()))) == {"pink", "blue", "green"}
    assert set(G.final_scores(position(n=4, board=full_board()))) == {"pink", "blue"}


# ----- S3, D1: teams at four ------------------------------------------------------------------------------
def test_S3_D1_four_players_alternate_teams_and_share_score_fountains_and_cards():
    state = G.new(SEATS, 9)
    assert state["pagodas"] == {"ann": "pink", "bob": "blue", "cy": "pink", "dee": "blue"}
    order = []
    for _ in range(8):
        seat = G.to_act(state)[0]
        order.append(seat)
        place = next(a for a in G.legal_actions(state, seat) if a.startswith("place"))
        state = G.apply(state, seat, place)
    assert order == SEATS * 2
    # fountains and the card alternation belong to the team
    board = full_board()
    state = position(n=4, board={s: t for s, t in board.items() if s in ("d5", "e4", "e5", "c5", "d6")},
                     hands={"ann": ["koi", "crane iris"], "cy": ["koi", "heron lily"]})
    state = G.apply(state, "ann", "fountain d5 e4 e5")
    state = G.apply(state, "ann", "take crane card")
    state = G.apply(state, "ann", "keep hand")
    view = G.view(state, "cy")
    assert view["fountains_left"]["cy"] == 1 and view["garden_cards"]["cy"] == ["crane"]
    assert view["garden_cards"]["bob"] == [] and view["fountains_left"]["bob"] == 2
    state["turn"] = 2
    state = G.apply(state, "cy", "fountain c5 d5 d6")
    assert G.legal_actions(state, "cy") == ["take iris card", "take lily card", "take poppy card",
                                            "take marigold card"]
    state = G.apply(state, "cy", "take lily card")
    state = G.apply(state, "cy", "keep hand")
    assert state["fountains_left"]["pink"] == 0
    state["turn"] = 0
    assert not [a for a in G.legal_actions(state, "ann") if a.startswith("fountain")]
    assert [f["owner"] for f in G.view(state, None)["fountains"]] == ["ann", "cy"]


def test_D1_teammates_do_not_see_each_others_hands():
    state = G.new(SEATS, 4)
    view = G.view(state, "ann")
    assert view["hand"] == state["hands"]["ann"] and view["hands"] == {s: 2 for s in SEATS}
    assert "hand" not in G.view(state, None)


def test_S3_four_player_result_names_both_teammates():
    board = full_board()
    del board["a1"]
    state = position(n=4, board=board, hands={"ann": [], "bob": ["sparrow marigold"], "cy": [], "dee": []},
                     bag=[], turn=1)
    state["birds"] = {"pink": 1, "blue": 0}
    end = G.apply(state, "bob", "place sparrow marigold a1")
    res = G.result(end)
    assert res["winners"] == ["bob", "dee"] and res["scores"]["bob"] == res["scores"]["dee"] == 117
    assert res["scores"]["ann"] == res["scores"]["cy"] == 114


# ----- S9, S10, D5: fountains -----------------------------------------------------------------------------
def fountain_position(**kw):
    board = {"d5": "crane iris", "e4": "crane lily", "e5": "finch poppy", "c5": "crane poppy", "d6": FILL}
    return position(board=board, hands={"ann": ["heron iris", "koi"]}, bag=["finch iris"] * 5, **kw)


def test_S9_fountain_allowed_on_a_corner_of_three_tiles_and_scores_no_birds():
    state = fountain_position()
    fountains = [a for a in G.legal_actions(state, "ann") if a.startswith("fountain")]
    assert fountains == ["fountain c5 d5 d6", "fountain d5 d6 e5", "fountain d5 e4 e5"]
    after = G.apply(state, "ann", "fountain e5 d5 e4")  # any order of the three spaces
    assert after["fountains"] == [{"owner": "ann", "pagoda": "pink", "spaces": ["d5", "e4", "e5"]}]
    assert after["birds"]["pink"] == 0 and G.to_act(after) == ["ann"] and after["phase"] == "card"
    assert after["hands"]["ann"] == ["heron iris", "koi"], "no tile placed, no tile drawn"
    assert G.describe(state, "ann", "fountain d5 e4 e5", after) == "ann places a fountain at d5 e4 e5."


def test_S9_fountain_refused_with_fewer_than_three_tiles():
    state = fountain_position()
    refused(state, "ann", "fountain d6 e5 e6", "needs tiles on all three")  # e6 is empty
    assert "fountain d6 e5 e6" not in G.legal_actions(state, "ann")


def test_D5_fountain_refused_on_an_occupied_corner_or_three_spaces_not_meeting():
    state = fountain_position()
    state["fountains"] = [{"owner": "bob", "pagoda": "blue", "spaces": ["d5", "e4", "e5"]}]
    refused(state, "ann", "fountain d5 e4 e5", "already stands")
    assert [a for a in G.legal_actions(state, "ann") if a.startswith("fountain")] == ["fountain c5 d5 d6",
                                                                                 "fountain d5 d6 e5"]
    refused(state, "ann", "fountain c5 d5 e4", "do not meet")
    refused(state, "ann", "fountain d5 e4", "three spaces")


def test_S8_each_player_has_only_two_fountains():
    state = fountain_position()
    state["fountains_left"]["pink"] = 0
    assert not [a for a in G.legal_actions(state, "ann") if a.startswith("fountain")]
    refused(state, "ann", "fountain d5 e4 e5", "both your fountains")


def test_S10_fountain_refused_after_the_4th_koi_pond_and_cards_leave():
    state = fountain_position()
    state["koi_placed"] = 3
    after = G.apply(state, "ann", "place koi e3")
    assert after["koi_placed"] == 4 and after["cards_open"] == []
    assert after["fountains_left"] == {"pink": 0, "blue": 0}
    assert "Mogami" in G.describe(state, "ann", "place koi e3", after)
    assert not [a for a in G.legal_actions(after, "bob") if a.startswith("fountain")]
    after["turn"] = 0
    refused(after, "ann", "fountain d5 e4 e5", "Mogami")
    view = G.view(after, None)
    assert view["fountains_open"] is False and view["cards_open"] == []


def test_S10_fountains_stay_open_until_the_4th_koi():
    state = fountain_position()
    state["koi_placed"] = 2
    after = G.apply(state, "ann", "place koi e3")
    assert after["koi_placed"] == 3 and len(after["cards_open"]) == 8
    assert [a for a in G.legal_actions(after, "bob") if a.startswith("fountain")]


def test_no_fountains_without_yarimizu():
    state = fountain_position(yarimizu=False)
    assert not [a for a in G.legal_actions(state, "ann") if a.startswith("fountain")]
    refused(state, "ann", "fountain d5 e4 e5", "without Yarimizu")


# ----- S9, D6: garden cards -------------------------------------------------------------------------------
def test_S9_first_garden_card_of_either_kind_second_of_the_other():
    state = G.apply(fountain_position(), "ann", "fountain d5 e4 e5")
    assert G.legal_actions(state, "ann") == [f"take {c} card" for c in CARDS]
    refused(state, "ann", "place heron iris e3", "Take a garden card")
    state = G.apply(state, "ann", "take poppy card")
    assert state["cards"]["pink"] == ["poppy"] and "poppy" not in state["cards_open"]
    assert G.describe(state, "ann", "take poppy card", state) == "ann takes the poppy card."
    state = G.apply(state, "ann", "keep hand")
    state["turn"] = 0
    state = G.apply(state, "ann", "fountain c5 d5 d6")
    assert G.legal_actions(state, "ann") == ["take crane card", "take finch card", "take heron card",
                                             "take sparrow card"]
    refused(state, "ann", "take iris card", "other kind")
    refused(state, "ann", "take poppy card", "already taken")
    refused(state, "ann", "take rose card", "no 'rose'")
    assert G.apply(state, "ann", "take heron")["cards"]["pink"] == ["poppy", "heron"]


def test_D6_a_card_taken_is_gone_for_the_other_player():
    state = fountain_position()
    state["cards"]["blue"] = ["crane"]
    state["cards_open"].remove("crane")
    state = G.apply(state, "ann", "fountain d5 e4 e5")
    assert "take crane card" not in G.legal_actions(state, "ann")
    refused(state, "ann", "take crane card", "already taken")


def test_cards_and_put_back_only_after_a_fountain():
    state = fountain_position()
    for action in ("take crane card", "put back koi", "keep hand"):
        refused(state, "ann", action, "only after placing a fountain")


# ----- S9, D7: putting tiles back -------------------------------------------------------------------------
def fountain_turn(bag):
    state = fountain_position()
    state["bag"] = list(bag)
    state = G.apply(state, "ann", "fountain d5 e4 e5")
    return G.apply(state, "ann", "take crane card")


def test_S9_put_back_offers_keep_one_or_both():
    state = fountain_turn(["finch iris"] * 3)
    assert G.legal_actions(state, "ann") == ["keep hand", "put back heron iris", "put back koi", "put back both"]
    kept = G.apply(state, "ann", "keep hand")
    assert kept["hands"]["ann"] == ["heron iris", "koi"] and G.to_act(kept) == ["bob"]
    assert G.describe(state, "ann", "keep hand", kept) == "ann keeps their hand."


def test_S9_D7_put_back_returns_tiles_then_draws_as_many():
    state = fountain_turn(["finch iris"])
    one = G.apply(state, "ann", "put back koi")
    assert len(one["hands"]["ann"]) == 2 and "heron iris" in one["hands"]["ann"]
    assert Counter(one["hands"]["ann"] + one["bag"]) == Counter(["heron iris", "koi", "finch iris"])
    both = G.apply(state, "ann", "put back both")
    assert len(both["hands"]["ann"]) == 2 and len(both["bag"]) == 1
    assert Counter(both["hands"]["ann"] + both["bag"]) == Counter(["heron iris", "koi", "finch iris"])
    line = G.describe(state, "ann", "put back both", both)
    assert line == "ann puts 2 tiles back into the bag and draws 2."
    assert "koi" not in line and "heron" not in line
    refused(state, "ann", "put back crane lily", "no crane lily")
    refused(state, "ann", "fountain c5 d5 d6", "keep hand")


def test_S9_put_back_can_bring_new_tiles():
    drawn = set()
    for seed in range(40):
        state = fountain_turn(["finch iris"] * 6)
        state["rng"] = seed * 7919 + 1
        drawn.update(G.apply(state, "ann", "put back both")["hands"]["ann"])
    assert "finch iris" in drawn


def test_D7_no_put_back_when_the_bag_is_empty():
    state = fountain_position()
    state["bag"] = []
    state = G.apply(state, "ann", "fountain d5 e4 e5")
    state = G.apply(state, "ann", "take crane card")
    assert state["phase"] == "place" and G.to_act(state) == ["bob"]


def test_private_actions_name_the_hand_except_the_card_choice():
    state = fountain_position()
    assert G.private_actions(state, "ann") and not G.private_actions(state, "bob")
    state = G.apply(state, "ann", "fountain d5 e4 e5")
    assert not G.private_actions(state, "ann")
    assert not any("heron iris" in a or "koi" in a for a in G.legal_actions(state, "ann"))
    state = G.apply(state, "ann", "take crane card")
    assert G.private_actions(state, "ann")


# ----- S11, D9: streams -----------------------------------------------------------------------------------
def stream_board():
    """Fountain corner d5 e4 e5 holds crane iris, crane lily, finch poppy. Crane c5 touches d5; the koi pond c4
    touches d5 and c5, and the crane b3 beyond it touches no other crane."""
    board = full_board(d5="crane iris", e4="crane lily", e5="finch poppy", c5="crane poppy", c4=KOI,
                       b3="crane lily")
    state = position(board=board)
    state["cards"]["pink"] = ["crane", "poppy"]
    return state


def test_S11_stream_scores_chains_from_the_fountain_and_koi_breaks_them():
    state = stream_board()
    state["fountains"] = [{"owner": "ann", "pagoda": "pink", "spaces": ["d5", "e4", "e5"]}]
    final = G.final_scores(state)["pink"]
    streams = {s["card"]: s for s in final["streams"]}
    assert streams["crane"]["spaces"] == ["c5", "d5", "e4"]  # b3 is cut off by the koi pond c4
    assert streams["poppy"]["spaces"] == ["e5"]  # c5's poppy does not touch the fountain or e5
    assert final["fountains"] == 4


def test_S11_D9_tiles_shared_by_both_fountains_count_once_and_cards_score_at_both():
    state = stream_board()
    state["fountains"] = [{"owner": "ann", "pagoda": "pink", "spaces": ["d5", "e4", "e5"]},
                          {"owner": "ann", "pagoda": "pink", "spaces": ["c5", "d5", "d6"]}]
    final = G.final_scores(state)["pink"]
    streams = {s["card"]: s["points"] for s in final["streams"]}
    assert streams == {"crane": 3, "poppy": 2}  # c5's poppy now sits at the second fountain
    assert final["fountains"] == 5


def test_S11_only_your_own_fountains_and_cards_score():
    state = stream_board()
    state["fountains"] = [{"owner": "bob", "pagoda": "blue", "spaces": ["d5", "e4", "e5"]}]
    final = G.final_scores(state)
    assert final["pink"]["fountains"] == 0 and final["blue"]["fountains"] == 0  # blue holds no card


def test_S11_a_card_matching_no_tile_at_the_fountain_scores_0():
    state = stream_board()
    state["fountains"] = [{"owner": "ann", "pagoda": "pink", "spaces": ["d5", "e4", "e5"]}]
    state["cards"]["pink"] = ["sparrow"]  # sparrows fill the garden but none sits at the fountain
    assert G.final_scores(state)["pink"]["fountains"] == 0


def test_S11_stream_in_view_and_final_result():
    state = stream_board()
    state["fountains"] = [{"owner": "ann", "pagoda": "pink", "spaces": ["d5", "e4", "e5"]}]
    del state["board"]["a1"]
    state["hands"] = {"ann": ["sparrow marigold"], "bob": []}
    state["bag"] = []
    view = G.view(state, None)
    assert view["streams"]["pink"][0] == {"card": "crane", "cells": [[-1, -1], [0, -1], [1, -1]]}
    end = G.apply(state, "ann", "place sparrow marigold a1")
    assert G.result(end)["breakdown"]["pink"]["fountains"] == 4
    assert G.view(end, "bob")["scores"]["ann"]["fountains"] == 4


# ----- views, log and protocol ----------------------------------------------------------------------------
def test_view_keys_and_hidden_hands():
    state = G.new(SEATS[:3], 11)
    for viewer in [None] + SEATS[:3]:
        view = check_view(G, state, viewer)
        for key in ("to_act", "seats", "last", "board", "bag", "hands", "pagodas", "koi_placed", "fountains",
                    "garden_cards", "scores"):
            assert key in view
        assert all(isinstance(n, int) for n in view["hands"].values())
        assert view["bag"] == 36 - 3 - 6
        text = json.dumps(view)
        if viewer is None:
            assert "hand" not in view
        else:
            assert view["hand"] == state["hands"][viewer]
        for other in SEATS[:3]:
            if other != viewer:
                for tile in state["hands"][other]:  # a tile's name shows only in its holder's view
                    if tile != KOI and tile not in state["hands"].get(viewer, []):
                        assert tile not in text
    assert G.view(state, None)["board"][0].keys() >= {"q", "r", "bird", "flower", "koi"}


def test_view_last_names_the_placed_space_for_the_highlight():
    state = position(board={"e3": "crane lily"}, hands={"ann": ["crane iris", "koi"]})
    after = G.apply(state, "ann", "place crane iris e2")
    last = G.view(after, None)["last"]
    assert last["space"] == "e2" and (last["q"], last["r"]) == CELL["e2"] and last["points"] == 2


def test_malformed_actions_are_refused_with_a_message():
    state = fountain_position()
    for action in ("dance", "place", "place heron iris", "place heron e3 e3 e3", "fountain"):
        with pytest.raises(IllegalAction):
            G.apply(state, "ann", action)
    refused(state, "bob", "place heron iris e3", "not your turn")


def test_actions_are_short_lower_case_and_accepted_as_listed():
    for seed in range(5):
        state, log = play_random(G, SEATS[: 2 + seed % 3], seed, check_every=10)
        for _, action in log:
            assert action == action.lower() and len(action) <= 80
    state = fountain_position()
    assert G.apply(state, "ann", "PLACE Heron Iris E3")["board"]["e3"] == "heron iris"


def test_same_seed_and_log_replay_exactly():
    for n in (2, 3, 4):
        state, log = play_random(G, SEATS[:n], 100 + n, check_every=5)
        assert G.dump(replay(G, SEATS[:n], 100 + n, None, log)) == G.dump(state)
