"""Wagara (engine/wagara.py): each ruling of RULES.md §2 (G1–G8) from hand-built positions. A canoe's move
(G4 spending, loading, stealing, the rapids; G9, G10) and its text are in tests/test_wagara_canoes.py, on the
helpers here."""

import json

import pytest

from engine import GAMES, IllegalAction
from engine.wagara import CARDS, COLOURS, GEM_VALUE

G = GAMES["wagara"]
SEATS = ["ann", "bob", "cy"]


# ----- building positions ------------------------------------------------------------------------------------

def canoe(state, owner, number):
    return next(c for c in state["canoes"] if c["owner"] == owner and c["number"] == number)


def position(canoes=(), cards=None, weather=0, collections=None, seats=SEATS, sites=None):
    """A game whose first seat holds the buoy, with canoes ``(owner, number, where, position, gem)`` placed
    and gems ``collections`` collected (both taken from their deposits, so all 35 gems stay accounted for),
    after everyone played ``cards`` (default 1). The first seat is then to act."""
    state = G.new(seats, 1)
    state["buoy"] = seats[0]
    state["weather"] = weather
    for owner, number, where, pos, gem in canoes:
        canoe(state, owner, number).update(where=where, position=pos, gem=gem)
        if gem:
            state["sites"][gem][gem] -= 1
    for seat, gems in (collections or {}).items():
        for colour, n in gems.items():
            state["collections"][seat][colour] += n
            state["sites"][colour][colour] -= n
    for site, gems in (sites or {}).items():             # move gems between deposits: {site: {colour: n}}
        for colour, n in gems.items():
            state["sites"][site][colour] += n
            state["sites"][colour][colour] -= n
    cards = cards or {}
    for seat in seats:
        state = G.apply(state, seat, f"play {cards.get(seat, '1')}")
    assert_gems_accounted(state)
    return state


def gem_count(state):
    counts = {c: 0 for c in COLOURS}
    for site in state["sites"].values():
        for c, n in site.items():
            counts[c] += n
    for c in state["canoes"]:
        if c["gem"]:
            counts[c["gem"]] += 1
    for col in state["collections"].values():
        for c, n in col.items():
            counts[c] += n
    return counts


def assert_gems_accounted(state):
    assert gem_count(state) == {c: 7 for c in COLOURS}
    assert all(n >= 0 for site in state["sites"].values() for n in site.values())


def refused(state, seat, action, match):
    before = G.dump(state)
    with pytest.raises(IllegalAction, match=match):
        G.apply(state, seat, action)
    assert G.dump(state) == before
    assert action not in G.legal_actions(state, seat)


def play(state, seat, action):
    assert action in G.legal_actions(state, seat), G.legal_actions(state, seat)
    after = G.apply(state, seat, action)
    assert_gems_accounted(after)
    assert G.describe(state, seat, action, after)
    return after


def canoe_actions(state, seat, number):
    return [a for a in G.legal_actions(state, seat) if a.startswith(f"canoe {number}:")]


# ----- G1, G2: the river, the deposits, the pieces ----------------------------------------------------------

def test_registered():
    assert G.key == "wagara" and (G.min_players, G.max_players) == (2, 5)


def test_G1_G2_setup():
    state = G.new(["a", "b", "c", "d", "e"], 9)
    v = G.view(state, None)
    assert v["round"] == 1 and v["phase"] == "choose" and v["weather"] == 0
    assert v["buoy"] in v["seats"]
    assert v["deposit_positions"] == {"violet": 3, "white": 4, "yellow": 5, "blue": 6, "red": 7}
    assert v["deposits"] == {c: 7 for c in COLOURS}
    assert v["deposit_gems"]["red"] == {"violet": 0, "white": 0, "yellow": 0, "blue": 0, "red": 7}
    assert [GEM_VALUE[c] for c in COLOURS] == [1, 2, 3, 4, 5]
    assert len(v["canoes"]) == 10
    assert all(c["where"] == "beach" and c["position"] is None and c["gem"] is None for c in v["canoes"])
    assert v["collections"]["a"] == {c: 0 for c in COLOURS}
    assert G.view(state, "c")["hand"] == CARDS == ["1", "2", "3", "4", "5", "6", "cloud"]
    assert_gems_accounted(state)


def test_G1_first_buoy_holder_is_drawn_from_the_seed():
    assert len({G.new(SEATS, seed)["buoy"] for seed in range(30)}) == 3


def test_G1_no_deposit_away_from_positions_3_to_7():
    state = position([("ann", 1, "river", 2, None)], cards={"ann": "3"})
    refused(state, "ann", "canoe 1: up 1, load violet", "no gem deposit at position 1")
    state = position([("ann", 1, "river", 8, "red")], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: unload", "no gem deposit at position 8")


# ----- G3: the secret choice --------------------------------------------------------------------------------

def test_G3_choice_is_simultaneous_and_hidden():
    state = G.new(SEATS, 4)
    assert G.to_act(state) == SEATS
    assert all(G.private_actions(state, s) for s in SEATS)
    after = G.apply(state, "bob", "play 4")
    line = G.describe(state, "bob", "play 4", after)
    assert "4" not in line and "bob" in line
    assert G.to_act(after) == ["ann", "cy"]
    mine = G.view(after, "bob")
    assert mine["my_choice"] == "4" and "4" not in mine["hand"]
    for viewer in (None, "ann", "cy"):
        v = G.view(after, viewer)
        assert v["chosen"] == {"ann": False, "bob": True, "cy": False}
        assert v.get("my_choice") is None
        assert v["this_round"]["bob"] is None and v["played"]["bob"] == []
        assert v["last"] == {"seat": "bob", "action": None, "events": [{"type": "choose", "seat": "bob"}]}
    with pytest.raises(IllegalAction, match="You have chosen your paddle card"):
        G.apply(after, "bob", "play 5")


def test_G3_G8_choices_stay_hidden_until_each_turn_comes():
    state = position(cards={"ann": "2", "bob": "5", "cy": "cloud"})
    assert G.to_act(state) == ["ann"]
    for viewer in (None, "ann", "cy"):
        v = G.view(state, viewer)
        assert v["this_round"] == {"ann": "2", "bob": None, "cy": None}
        assert v["played"] == {"ann": ["2"], "bob": [], "cy": []}
        assert "5" not in json.dumps(v["last"])
    assert G.view(state, "bob")["my_choice"] == "5"
    assert not G.private_actions(state, "ann")
    after = play(state, "ann", "end turn")
    assert "bob reveals 5" in G.describe(state, "ann", "end turn", after)
    assert G.view(after, None)["this_round"] == {"ann": "2", "bob": "5", "cy": None}


def test_G3_a_played_card_cannot_be_chosen_again():
    state = G.new(SEATS, 2)
    state["piles"]["ann"] = ["3", "cloud"]
    assert G.legal_actions(state, "ann") == ["play 1", "play 2", "play 4", "play 5", "play 6"]
    refused(state, "ann", "play 3", "already in your played pile")
    refused(state, "ann", "play 7", "Choose a paddle card")


def end_round_by_ending_turns(state):
    """Every player still to act ends their turn (all their canoes ashore); a Cloud takes its first option."""
    while state["phase"] == "act":
        seat = G.to_act(state)[0]
        state = play(state, seat, "end turn" if state["turn"]["card"] != "cloud" else G.legal_actions(state, seat)[0])
    return state


def test_G3_the_last_card_is_chosen_by_itself_then_the_pile_of_seven_comes_back():
    state = G.new(SEATS, 2)
    state["buoy"] = "ann"
    state["piles"] = {"ann": ["1", "2", "3", "4", "5"], "bob": ["1", "2", "3", "4", "5"], "cy": ["1"]}
    for seat in SEATS:
        state = G.apply(state, seat, "play 6")
    state = end_round_by_ending_turns(state)
    # round 2: ann and bob hold only the Cloud, so it is chosen for them; cy still chooses
    assert state["round"] == 2 and state["phase"] == "choose"
    assert G.to_act(state) == ["cy"]
    assert G.view(state, "ann")["my_choice"] == "cloud"
    assert G.view(state, "cy")["chosen"] == {"ann": True, "bob": True, "cy": False}
    assert G.view(state, "cy").get("my_choice") is None
    state = G.apply(state, "cy", "play 2")
    assert state["phase"] == "act" and G.to_act(state) == ["bob"]         # the buoy passed to bob
    state = end_round_by_ending_turns(state)
    # round 3: ann's and bob's piles held all seven; they take them back, cy's pile stays
    assert state["piles"] == {"ann": [], "bob": [], "cy": ["1", "6", "2"]}
    assert G.legal_actions(state, "ann") == [f"play {c}" for c in CARDS]
    assert G.legal_actions(state, "cy") == ["play 3", "play 4", "play 5", "play cloud"]


# ----- G4: the Cloud ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("weather, options", [(0, ["weather +1", "weather -1"]), (2, ["weather +1"]),
                                              (-1, ["weather 0"]), (1, ["weather +2", "weather 0"])])
def test_G4_cloud_moves_the_weather_one_step_within_the_track(weather, options):
    state = position([("ann", 1, "river", 4, None)], cards={"ann": "cloud"}, weather=weather)
    assert G.legal_actions(state, "ann") == options
    after = play(state, "ann", options[0])
    assert after["weather"] == int(options[0].split()[1])
    assert G.to_act(after) == ["bob"]


def test_G4_cloud_from_plus_two_only_to_plus_one_and_from_minus_one_only_to_zero():
    refused(position(cards={"ann": "cloud"}, weather=2), "ann", "weather +3", "'weather \\+1'")
    refused(position(cards={"ann": "cloud"}, weather=-1), "ann", "weather -2", "'weather 0'")
    refused(position(cards={"ann": "cloud"}, weather=0), "ann", "weather +2", "one step")


def test_G4_cloud_player_canoes_do_not_move_load_or_steal():
    state = position([("ann", 1, "river", 5, None), ("bob", 1, "river", 4, "white")], cards={"ann": "cloud"})
    assert not [a for a in G.legal_actions(state, "ann") if a.startswith("canoe")]
    refused(state, "ann", "canoe 1: up 1, steal white", "Cloud")
    refused(state, "ann", "canoe 1: load yellow", "Cloud")
    refused(state, "ann", "end turn", "Cloud")


def test_G4_a_number_card_does_not_move_the_weather():
    refused(position(cards={"ann": "3"}), "ann", "weather +1", "Only the Cloud")


# ----- G5: the river flows ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, weather, flow", [
    ({"ann": "3", "bob": "5", "cy": "4"}, 1, 4),
    ({"ann": "6", "bob": "5", "cy": "4"}, 0, 4),
    ({"ann": "1", "bob": "5", "cy": "2"}, -1, 0),
    ({"ann": "2", "bob": "2", "cy": "2"}, 2, 4),
])
def test_G5_the_river_flows_the_lowest_number_plus_the_weather(cards, weather, flow):
    state = end_round_by_ending_turns(position(cards=cards, weather=weather))
    assert state["round"] == 2
    assert state["last_flow"] == {"round": 1, "lowest": min(int(c) for c in cards.values()), "weather": weather,
                                  "k": flow, "fell": []}


def test_G5_clouds_count_nothing_and_the_weather_they_set_counts():
    state = position([("ann", 1, "river", 1, None), ("bob", 1, "river", 1, None), ("cy", 1, "river", 1, None)],
                     cards={"ann": "cloud", "bob": "cloud", "cy": "cloud"}, weather=1)
    state = play(state, "ann", "weather +2")
    state = play(state, "bob", "weather +1")
    state = play(state, "cy", "weather +2")
    assert state["last_flow"] == {"round": 1, "lowest": 0, "weather": 2, "k": 2, "fell": []}
    assert [canoe(state, s, 1)["position"] for s in SEATS] == [3, 3, 3]


def test_G5_flow_is_never_negative():
    state = position([("ann", 1, "river", 5, None)], cards={"ann": "cloud", "bob": "1", "cy": "1"}, weather=0)
    state = play(state, "ann", "weather -1")
    state = play(state, "bob", "end turn")
    state = play(state, "cy", "end turn")
    assert state["last_flow"]["k"] == 0 and canoe(state, "ann", 1)["position"] == 5


def test_G5_over_the_falls_into_the_rapids_the_gem_back_to_its_own_deposit():
    state = position([("bob", 1, "river", 7, "violet"), ("cy", 1, "river", 5, None), ("cy", 2, "river", 3, "red")],
                     cards={"ann": "cloud", "bob": "3", "cy": "4"}, weather=1)
    state = play(state, "ann", "weather +2")
    state = play(state, "bob", "canoe 1: up 1, unload")                    # at 6, the blue deposit
    assert state["sites"]["blue"]["violet"] == 1
    state = play(state, "bob", "end turn")
    state = play(state, "cy", "canoe 1: down 4")                            # to 9
    state = play(state, "cy", "canoe 2: down 4")                            # with red, to 7
    # flow: lowest 3 + weather 2 = 5: bob's canoe 6 -> 11, cy's 9 -> 14 and 7 -> 12: all over the falls
    fell = state["last_flow"]["fell"]
    assert state["last_flow"]["k"] == 5
    assert fell == [{"owner": "bob", "canoe": 1, "gem": None}, {"owner": "cy", "canoe": 1, "gem": None},
                    {"owner": "cy", "canoe": 2, "gem": "red"}]
    assert all(canoe(state, o, n)["where"] == "rapids" for o, n in [("bob", 1), ("cy", 1), ("cy", 2)])
    assert state["sites"]["red"]["red"] == 7 and state["sites"]["blue"]["violet"] == 1
    line = G.describe(state, "cy", "canoe 2: down 4", state)
    assert "cy's canoe 2 goes over the falls and its red gem returns to its deposit" in line


def test_G5_canoes_at_position_nine_fall_with_any_positive_flow():
    state = position([("ann", 1, "river", 9, "blue"), ("bob", 1, "river", 8, None)],
                     cards={"ann": "1", "bob": "1", "cy": "1"})
    state = play(state, "ann", "canoe 1: up 1")        # 8
    state = play(state, "ann", "end turn")
    state = play(state, "bob", "canoe 1: down 1")      # 9
    state = play(state, "bob", "end turn")
    state = play(state, "cy", "end turn")
    assert canoe(state, "ann", 1)["position"] == 9 and canoe(state, "bob", 1)["where"] == "rapids"
    assert canoe(state, "ann", 1)["gem"] == "blue"


# ----- G6: the buoy -----------------------------------------------------------------------------------------

def test_G6_act_in_order_from_the_buoy_which_then_passes_clockwise():
    state = G.new(SEATS, 1)
    state["buoy"] = "bob"
    for seat in SEATS:
        state = G.apply(state, seat, "play 2")
    assert state["order"] == ["bob", "cy", "ann"] and G.to_act(state) == ["bob"]
    state = end_round_by_ending_turns(state)
    assert state["buoy"] == "cy" and state["round"] == 2
    for seat in SEATS:
        state = G.apply(state, seat, "play 3")
    assert state["order"] == ["cy", "ann", "bob"]
    state = end_round_by_ending_turns(state)
    assert state["buoy"] == "ann"


# ----- G7: the end ------------------------------------------------------------------------------------------

def test_G7_the_three_ways_to_qualify():
    from engine.wagara import qualifies
    five = {"violet": 1, "white": 1, "yellow": 1, "blue": 1, "red": 1}
    assert qualifies(five)
    assert qualifies({"violet": 0, "white": 0, "yellow": 0, "blue": 4, "red": 0})
    assert qualifies({"violet": 3, "white": 2, "yellow": 2, "blue": 0, "red": 0})
    assert not qualifies({"violet": 3, "white": 3, "yellow": 0, "blue": 0, "red": 0})
    assert not qualifies({"violet": 1, "white": 1, "yellow": 1, "blue": 3, "red": 0})


def test_G7_the_game_ends_only_after_the_round():
    state = position([("ann", 1, "river", 1, "red")],
                     collections={"ann": {"violet": 2, "white": 2, "yellow": 2}}, cards={"ann": "1"})
    state = play(state, "ann", "canoe 1: land")                 # seven gems, but the round goes on
    assert sum(state["collections"]["ann"].values()) == 7
    assert G.result(state) is None and G.to_act(state) == ["ann"]
    state = play(state, "ann", "end turn")
    assert G.result(state) is None and G.to_act(state) == ["bob"]
    state = end_round_by_ending_turns(state)
    res = G.result(state)
    assert res["winners"] == ["ann"] and res["qualified"] == ["ann"]
    assert res["scores"] == {"ann": 7, "bob": 0, "cy": 0} and res["values"]["ann"] == 2 + 4 + 6 + 5
    assert G.to_act(state) == [] and G.view(state, None)["phase"] == "over"
    assert G.describe(state, "cy", "end turn", state).endswith("Game over: ann wins.")


def test_G7_a_player_who_lost_the_qualifying_gem_mid_round_does_not_end_it():
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "river", 5, None)],
                     collections={"ann": {"blue": 4}}, cards={"ann": "2"})
    state = play(state, "ann", "recover canoe 1, pay blue")
    state = play(state, "ann", "canoe 2: down 2")
    state = play(state, "ann", "end turn")
    state = end_round_by_ending_turns(state)
    assert G.result(state) is None and state["round"] == 2


@pytest.mark.parametrize("collections, winners", [
    # most gems first: five colours (5 gems) beat four reds (4 gems)
    ({"ann": {"red": 4}, "bob": {"violet": 1, "white": 1, "yellow": 1, "blue": 1, "red": 1}}, ["bob"]),
    # same number of gems: the higher value wins (4 red = 20 against 4 blue = 16)
    ({"ann": {"red": 4}, "bob": {"blue": 4}}, ["ann"]),
    # same number and value: shared
    ({"ann": {"violet": 1, "white": 1, "yellow": 1, "blue": 1, "red": 1},
      "bob": {"violet": 1, "white": 1, "yellow": 1, "blue": 1, "red": 1}}, ["ann", "bob"]),
    # only those who qualify can win, however many gems the others hold
    ({"ann": {"violet": 4}, "cy": {"red": 3, "blue": 3}}, ["ann"]),
])
def test_G7_tie_breaks_most_gems_then_value_then_shared(collections, winners):
    state = end_round_by_ending_turns(position(collections=collections))
    res = G.result(state)
    assert res["winners"] == winners
    assert set(res["qualified"]) == {s for s in collections if s != "cy"}
    assert res["scores"] == {s: sum(collections.get(s, {}).values()) for s in SEATS}


# ----- G8: public and hidden ----------------------------------------------------------------------------------

def test_G8_the_public_view_shows_cards_collections_deposits_canoes_weather():
    state = position([("bob", 1, "river", 4, "white")], collections={"cy": {"red": 2}},
                     cards={"ann": "cloud"}, weather=1)
    v = G.view(state, None)
    for key in ("round", "buoy", "weather", "deposits", "collections", "played", "canoes", "to_act", "seats",
                "last", "chosen", "this_round"):
        assert key in v
    assert v["weather"] == 1 and v["played"]["ann"] == ["cloud"] and v["collections"]["cy"]["red"] == 2
    assert {"owner": "bob", "number": 1, "where": "river", "position": 4, "gem": "white"} in v["canoes"]
    assert v["deposits"]["white"] == 6 and v["deposits"]["red"] == 5
    assert "hand" not in v and "my_choice" not in v


@pytest.mark.parametrize("phase", ["choose", "act"])
def test_G8_other_players_views_and_the_log_do_not_depend_on_a_hidden_choice(phase):
    """Whatever bob chose, everyone else sees exactly the same."""
    seen = []
    for card in ("2", "5", "cloud"):
        state = G.new(SEATS, 11)
        state["buoy"] = "ann"
        if phase == "act":
            state = G.apply(state, "ann", "play 3")
            state = G.apply(state, "cy", "play 4")
        before = state
        state = G.apply(state, "bob", f"play {card}")
        assert G.view(state, "bob")["my_choice"] == card
        seen.append((json.dumps([G.view(state, v) for v in (None, "ann", "cy")], sort_keys=True),
                     G.describe(before, "bob", f"play {card}", state), G.to_act(state)))
    assert seen[0] == seen[1] == seen[2]


def test_G8_a_spectator_never_sees_a_hand_or_a_choice():
    state = G.apply(G.new(SEATS, 3), "ann", "play 6")
    v = G.view(state, None)
    assert "my_choice" not in v and "hand" not in v
    assert G.view(state, "stranger").get("my_choice") is None
