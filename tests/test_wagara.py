"""Wagara (engine/wagara.py): each ruling of RULES.md §2 (G1–G8) from hand-built positions."""

import json

import pytest

from engine import GAMES, IllegalAction
from engine.wagara import CARDS, COLOURS, GEM_VALUE, parse_move

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


# ----- G4: spending the points -------------------------------------------------------------------------------

def test_G4_every_canoe_on_the_river_moves_spending_exactly_the_card():
    state = position([("ann", 1, "river", 2, None), ("ann", 2, "river", 8, None)], cards={"ann": "3"})
    # down 1 then load at the violet deposit costs 1 + 2; an empty canoe may not land with a point left (G10)
    assert set(canoe_actions(state, "ann", 1)) == {"canoe 1: down 3", "canoe 1: down 1, load violet"}
    assert "end turn" not in G.legal_actions(state, "ann")
    refused(state, "ann", "end turn", "must move first")
    refused(state, "ann", "canoe 1: down 2", "spend all 3 points")
    refused(state, "ann", "canoe 2: up 1", "spend all 3 points")
    state = play(state, "ann", "canoe 1: down 3")
    assert G.to_act(state) == ["ann"]                                    # canoe 2 still has to move
    refused(state, "ann", "canoe 1: down 3", "already moved")
    state = play(state, "ann", "canoe 2: up 3")
    assert canoe(state, "ann", 1)["position"] == 5 and canoe(state, "ann", 2)["position"] == 5
    assert G.to_act(state) == ["bob"]                                    # no beach canoe: the turn ends


def test_G4_each_canoe_gets_the_full_value_in_the_order_the_player_likes():
    state = position([("ann", 1, "river", 9, None), ("ann", 2, "river", 9, None)], cards={"ann": "5"})
    state = play(state, "ann", "canoe 2: up 5")
    state = play(state, "ann", "canoe 1: up 3, load blue")
    assert [canoe(state, "ann", n)["position"] for n in (1, 2)] == [6, 4]
    assert canoe(state, "ann", 1)["gem"] == "blue" and state["sites"]["blue"]["blue"] == 6


def test_G4_landing_delivers_and_loses_the_leftover_points():
    state = position([("ann", 1, "river", 2, "red"), ("ann", 2, "river", 9, None)], cards={"ann": "6"})
    assert "canoe 1: land" in canoe_actions(state, "ann", 1)
    state = play(state, "ann", "canoe 1: land")
    assert canoe(state, "ann", 1) == {"owner": "ann", "number": 1, "where": "beach", "position": None, "gem": None}
    assert state["collections"]["ann"]["red"] == 1
    event = state["last"]["events"][0]
    assert event["kind"] == "land" and event["delivered"] == "red"
    # the landed canoe has moved: it may not be launched again this round
    assert canoe_actions(state, "ann", 1) == [] and "end turn" not in G.legal_actions(state, "ann")
    state = play(state, "ann", "canoe 2: up 6")
    assert G.to_act(state) == ["bob"]


def test_G4_landing_costs_one_per_position_and_the_last_step_ashore():
    state = position([("ann", 1, "river", 4, "white")], cards={"ann": "3"})
    refused(state, "ann", "canoe 1: land", "Landing from position 4 costs 4")
    refused(state, "ann", "canoe 1: up 4", "say 'land'")
    state = position([("ann", 1, "river", 4, "white")], cards={"ann": "4"})
    assert "canoe 1: land" in canoe_actions(state, "ann", 1)
    state = position([("ann", 1, "river", 3, None)], cards={"ann": "5"})
    state = play(state, "ann", "canoe 1: load violet, land")           # 2 to load + 3 to the beach = 5
    assert state["collections"]["ann"]["violet"] == 1


def test_G10_an_empty_canoe_may_land_with_its_last_point():
    state = play(position([("ann", 1, "river", 1, None)], cards={"ann": "1"}), "ann", "canoe 1: land")
    assert canoe(state, "ann", 1)["where"] == "beach"
    assert state["collections"]["ann"] == {c: 0 for c in COLOURS}
    state = play(position([("ann", 1, "river", 3, None)], cards={"ann": "3"}), "ann", "canoe 1: land")
    assert canoe(state, "ann", 1)["where"] == "beach"


def test_G10_an_empty_canoe_may_not_land_to_dodge_spending_its_points():
    state = position([("ann", 1, "river", 1, None)], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: land", "only with its last point")
    assert canoe_actions(state, "ann", 1) == ["canoe 1: down 2"]
    # emptied by unloading first, it is empty when it lands: 2 to unload + 3 to the beach = 5 < 6
    state = position([("ann", 1, "river", 3, "red")], cards={"ann": "6"})
    refused(state, "ann", "canoe 1: unload, land", "only with its last point")
    assert "canoe 1: land" in canoe_actions(state, "ann", 1)             # carrying its gem it may
    state = position([("ann", 1, "river", 3, "red")], cards={"ann": "5"})
    assert "canoe 1: unload, land" in canoe_actions(state, "ann", 1)     # exactly its last point


def test_G10_a_canoe_carrying_a_gem_lands_with_points_left():
    state = position([("ann", 1, "river", 1, "red")], cards={"ann": "6"})
    assert "canoe 1: land" in canoe_actions(state, "ann", 1)
    state = play(state, "ann", "canoe 1: land")
    assert state["collections"]["ann"]["red"] == 1


def test_G4_loading_and_unloading_cost_two_points():
    state = position([("ann", 1, "river", 3, None)], cards={"ann": "2"})
    assert set(canoe_actions(state, "ann", 1)) == {"canoe 1: load violet", "canoe 1: up 2", "canoe 1: down 2"}
    state = position([("ann", 1, "river", 3, None)], cards={"ann": "3"})
    assert "canoe 1: load violet, up 1" in canoe_actions(state, "ann", 1)
    assert "canoe 1: load violet, down 1" in canoe_actions(state, "ann", 1)
    assert "canoe 1: down 1, load white" in canoe_actions(state, "ann", 1)
    state = position([("ann", 1, "river", 6, "red")], cards={"ann": "4"})
    assert "canoe 1: unload, up 2" in canoe_actions(state, "ann", 1)
    assert "canoe 1: up 2, unload" in canoe_actions(state, "ann", 1)                  # at the white deposit
    assert "canoe 1: unload, down 2" in canoe_actions(state, "ann", 1)
    refused(state, "ann", "canoe 1: unload, up 1", "spend all 4")


def test_G9_a_gem_may_not_pass_between_ones_two_canoes_in_a_turn():
    # canoe 1 unloads red at the white deposit; canoe 2 comes down to it and may not load that red
    state = position([("ann", 1, "river", 4, "red"), ("ann", 2, "river", 2, None)], cards={"ann": "4"})
    state = play(state, "ann", "canoe 1: unload, up 2")
    assert state["sites"]["white"]["red"] == 1
    refused(state, "ann", "canoe 2: down 2, load red", "other canoe unloaded that red gem")
    assert "canoe 2: down 2, load white" in canoe_actions(state, "ann", 2)   # the deposit's own gems are free
    state = play(state, "ann", "canoe 2: down 2, load white")
    # next turn the red lies there like any other gem
    assert state["sites"]["white"]["red"] == 1


def test_G9_the_other_canoe_may_load_a_gem_of_that_colour_that_lay_there_before():
    state = position([("ann", 1, "river", 4, "red"), ("ann", 2, "river", 2, None)], cards={"ann": "4"},
                     sites={"white": {"red": 1}})
    state = play(state, "ann", "canoe 1: unload, up 2")
    assert state["sites"]["white"]["red"] == 2
    state = play(state, "ann", "canoe 2: down 2, load red")              # the red that lay there before
    assert canoe(state, "ann", 2)["gem"] == "red" and state["sites"]["white"]["red"] == 1


def test_G9_a_rival_may_load_the_unloaded_gem_on_their_turn():
    state = position([("ann", 1, "river", 4, "red"), ("bob", 1, "river", 2, None)], cards={"ann": "2", "bob": "4"})
    state = play(state, "ann", "canoe 1: unload")
    state = play(state, "ann", "end turn") if G.to_act(state) == ["ann"] else state
    assert G.to_act(state) == ["bob"]
    assert "canoe 1: down 2, load red" in canoe_actions(state, "bob", 1)


def test_G4_loading_and_unloading_only_before_or_after_the_steps():
    state = position([("ann", 1, "river", 3, None)], cards={"ann": "4"})
    refused(state, "ann", "canoe 1: down 1, load white, down 1", "one way only")
    refused(state, "ann", "canoe 1: up 1, down 1", "one way only")


def test_G4_unloading_goes_into_any_deposit_and_loading_chooses_among_its_colours():
    state = position([("ann", 1, "river", 5, "red"), ("ann", 2, "river", 9, None), ("bob", 1, "river", 7, None)],
                     cards={"ann": "2", "bob": "4"})
    state = play(state, "ann", "canoe 1: unload")
    assert state["sites"]["yellow"] == {"violet": 0, "white": 0, "yellow": 7, "blue": 0, "red": 1}
    assert G.view(state, None)["deposits"]["yellow"] == 8
    assert G.view(state, None)["deposit_gems"]["yellow"]["red"] == 1
    state = play(state, "ann", "canoe 2: up 2")
    # bob's canoe reaches the yellow deposit with 2 points left: red or yellow
    assert {"canoe 1: up 2, load red", "canoe 1: up 2, load yellow"} <= set(canoe_actions(state, "bob", 1))
    state = play(state, "bob", "canoe 1: up 2, load red")
    assert canoe(state, "bob", 1)["gem"] == "red" and state["sites"]["yellow"]["red"] == 0


def test_G4_load_a_colour_the_deposit_holds():
    state = position([("ann", 1, "river", 5, None)], sites={"yellow": {"red": 1}}, cards={"ann": "2"})
    assert set(canoe_actions(state, "ann", 1)) == {"canoe 1: load yellow", "canoe 1: load red", "canoe 1: up 2",
                                                   "canoe 1: down 2"}
    refused(state, "ann", "canoe 1: load blue", "no blue gem at the yellow deposit")
    state = play(state, "ann", "canoe 1: load red")
    assert canoe(state, "ann", 1)["gem"] == "red" and state["sites"]["yellow"]["red"] == 0


def test_G4_a_reloaded_gem_must_differ_from_the_unloaded_one():
    state = position([("ann", 1, "river", 7, "red")], sites={"red": {"blue": 1}}, cards={"ann": "4"})
    refused(state, "ann", "canoe 1: unload, load red", "different colour")
    state = play(state, "ann", "canoe 1: unload, load blue")
    assert canoe(state, "ann", 1)["gem"] == "blue"
    assert state["sites"]["red"]["red"] == 7 and state["sites"]["red"]["blue"] == 0


def test_G4_load_then_unload_is_refused():
    state = position([("ann", 1, "river", 7, None)], cards={"ann": "4"})
    refused(state, "ann", "canoe 1: load red, unload", "Unload first")


def test_G4_a_canoe_holds_one_gem():
    state = position([("ann", 1, "river", 6, "red")], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: load blue", "already carries red")


def test_G4_no_paddling_past_position_nine():
    state = position([("ann", 1, "river", 8, None)], cards={"ann": "3"})
    refused(state, "ann", "canoe 1: down 3", "past position 9")
    assert set(canoe_actions(state, "ann", 1)) == {"canoe 1: up 3", "canoe 1: up 1, load red"}


def test_G4_launch_costs_one_to_position_one_and_only_one_launch_per_round():
    state = position(cards={"ann": "1"})
    assert G.legal_actions(state, "ann") == ["canoe 1: launch to 1", "canoe 2: launch to 1", "end turn"]
    state5 = position(cards={"ann": "5"})
    assert canoe_actions(state5, "ann", 1) == ["canoe 1: launch to 3, load violet", "canoe 1: launch to 5"]
    after = play(state5, "ann", "canoe 2: launch to 3, load violet")
    assert canoe(after, "ann", 2) == {"owner": "ann", "number": 2, "where": "river", "position": 3, "gem": "violet"}
    assert G.to_act(after) == ["bob"]                    # the other beach canoe may not launch too
    assert canoe(after, "ann", 1)["where"] == "beach"


def test_G4_launch_with_a_canoe_on_the_river_in_either_order():
    state = position([("ann", 1, "river", 6, None)], cards={"ann": "2"})
    assert "canoe 2: launch to 2" in G.legal_actions(state, "ann")
    state = play(state, "ann", "canoe 2: launch to 2")
    assert G.to_act(state) == ["ann"]                     # canoe 1 must still move
    state = play(state, "ann", "canoe 1: up 2")
    assert G.to_act(state) == ["bob"]


def test_G4_launching_is_optional():
    state = position([("ann", 1, "river", 6, None)], cards={"ann": "2"})
    state = play(state, "ann", "canoe 1: down 2")
    assert G.legal_actions(state, "ann") == ["canoe 2: launch to 2", "end turn"]
    state = play(state, "ann", "end turn")
    assert canoe(state, "ann", 2)["where"] == "beach" and G.to_act(state) == ["bob"]


def test_G4_only_own_canoes_move():
    state = position([("bob", 1, "river", 5, None)], cards={"ann": "2"})
    refused(state, "ann", "canoe 3: down 2", "canoes 1 and 2")
    refused(state, "bob", "canoe 1: down 2", "not your turn")


def test_G4_a_launch_does_not_load_on_the_beach():
    state = position(cards={"ann": "5"})
    refused(state, "ann", "canoe 1: load violet, launch to 3", "cannot load or unload")
    refused(state, "ann", "canoe 1: down 3", "launch it")


# ----- G4: stealing -----------------------------------------------------------------------------------------

def test_G4_steal_after_moving_upstream_onto_the_victim():
    state = position([("ann", 1, "river", 6, None), ("bob", 1, "river", 4, "white")], cards={"ann": "2"})
    assert "canoe 1: up 2, steal white" in canoe_actions(state, "ann", 1)
    assert "canoe 1: up 2" in canoe_actions(state, "ann", 1)              # stealing is optional
    state = play(state, "ann", "canoe 1: up 2, steal white")
    assert canoe(state, "ann", 1)["gem"] == "white" and canoe(state, "bob", 1)["gem"] is None
    assert state["last"]["events"][0]["stole"] == {"gem": "white", "from": "bob", "canoe": 1}


def test_G4_steal_after_unloading_before_moving():
    state = position([("ann", 1, "river", 7, "red"), ("bob", 2, "river", 5, "blue")], cards={"ann": "4"})
    state = play(state, "ann", "canoe 1: unload, up 2, steal blue")
    assert canoe(state, "ann", 1)["gem"] == "blue" and state["sites"]["red"]["red"] == 7


def test_G4_steal_refused_moving_downstream():
    state = position([("ann", 1, "river", 2, None), ("bob", 1, "river", 4, "white")], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: down 2, steal white", "paddles upstream")


def test_G4_steal_refused_without_moving():
    state = position([("ann", 1, "river", 4, "red"), ("bob", 1, "river", 4, "white")], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: unload, steal white", "paddles upstream")


def test_G4_steal_refused_when_passing_over():
    state = position([("ann", 1, "river", 6, None), ("bob", 1, "river", 4, "white")], cards={"ann": "3"})
    refused(state, "ann", "canoe 1: up 3, steal white", "never in passing")


def test_G4_steal_refused_from_own_canoe():
    state = position([("ann", 1, "river", 6, None), ("ann", 2, "river", 4, "white")], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: up 2, steal white", "your own canoe")
    refused(state, "ann", "canoe 1: up 2, steal white from ann", "your own canoe")


def test_G4_steal_refused_with_a_full_canoe():
    state = position([("ann", 1, "river", 6, "blue"), ("bob", 1, "river", 4, "white")], cards={"ann": "2"})
    refused(state, "ann", "canoe 1: up 2, steal white", "holds one gem")


def test_G4_steal_refused_after_unloading_at_the_end():
    state = position([("ann", 1, "river", 7, "red"), ("bob", 1, "river", 5, "blue")], cards={"ann": "4"})
    refused(state, "ann", "canoe 1: up 2, unload, steal blue", "arrive empty")


def test_G4_steal_choose_the_gem_and_the_victim_when_several():
    state = position([("ann", 1, "river", 6, None), ("bob", 1, "river", 4, "white"), ("bob", 2, "river", 4, "blue"),
                      ("cy", 1, "river", 4, "white")], cards={"ann": "2"})
    steals = [a for a in canoe_actions(state, "ann", 1) if "steal" in a]
    assert steals == ["canoe 1: up 2, steal white from bob", "canoe 1: up 2, steal white from cy",
                      "canoe 1: up 2, steal blue"]
    refused(state, "ann", "canoe 1: up 2, steal white", "several players")
    state = play(state, "ann", "canoe 1: up 2, steal white from cy")
    assert canoe(state, "cy", 1)["gem"] is None and canoe(state, "bob", 1)["gem"] == "white"


# ----- G4: the rapids ---------------------------------------------------------------------------------------

def test_G4_recover_from_the_rapids_paying_a_gem_back_to_its_deposit():
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "river", 5, None)],
                     collections={"ann": {"red": 1, "white": 2}}, cards={"ann": "2"})
    options = [a for a in G.legal_actions(state, "ann") if a.startswith("recover")]
    assert options == ["recover canoe 1, pay white", "recover canoe 1, pay red"]
    state = play(state, "ann", "recover canoe 1, pay red")
    assert canoe(state, "ann", 1)["where"] == "beach"
    assert state["collections"]["ann"]["red"] == 0 and state["sites"]["red"]["red"] == 7
    # a recovered canoe may be launched this round
    assert "canoe 1: launch to 2" in G.legal_actions(state, "ann")
    assert not [a for a in G.legal_actions(state, "ann") if a.startswith("recover")]


def test_G4_recovery_also_with_the_cloud_and_only_one_per_turn():
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "rapids", None, None)],
                     collections={"ann": {"blue": 2}}, cards={"ann": "cloud"})
    assert G.legal_actions(state, "ann") == ["recover canoe 1, pay blue", "weather +1", "weather -1"]
    state = play(state, "ann", "recover canoe 1, pay blue")
    assert G.legal_actions(state, "ann") == ["weather +1", "weather -1"]
    refused(state, "ann", "recover canoe 2, pay blue", "only one canoe")


def test_G4_recovery_only_at_the_start_of_the_action():
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "river", 5, None)],
                     collections={"ann": {"red": 1}}, cards={"ann": "2"})
    assert "recover canoe 1, pay red" in G.legal_actions(state, "ann")
    # with two canoes a turn never goes on after a canoe moves while one is wrecked; as a position:
    state["turn"]["acted"] = True
    refused(state, "ann", "recover canoe 1, pay red", "start of your action")


def test_G4_recovery_refused_without_the_gem_or_the_wreck():
    state = position([("ann", 1, "rapids", None, None)], collections={"ann": {"red": 1}}, cards={"ann": "2"})
    refused(state, "ann", "recover canoe 1, pay blue", "no blue gem")
    refused(state, "ann", "recover canoe 2, pay red", "not in the rapids")


def test_G4_free_recovery_with_both_canoes_wrecked_and_no_gems():
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "rapids", None, None)], cards={"ann": "3"})
    assert canoe(state, "ann", 1)["where"] == "beach" and canoe(state, "ann", 2)["where"] == "rapids"
    assert state["last"]["events"][-1] == {"type": "free_recover", "seat": "ann", "canoe": 1}
    assert G.legal_actions(state, "ann") == ["canoe 1: launch to 3", "end turn"]


def test_G4_no_free_recovery_with_gems_or_one_canoe_left():
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "rapids", None, None)],
                     collections={"ann": {"violet": 1}}, cards={"ann": "3"})
    assert [c["where"] for c in state["canoes"][:2]] == ["rapids", "rapids"]
    assert G.legal_actions(state, "ann") == ["recover canoe 1, pay violet", "end turn"]
    state = position([("ann", 1, "rapids", None, None), ("ann", 2, "river", 5, None)], cards={"ann": "3"})
    assert canoe(state, "ann", 1)["where"] == "rapids"
    assert not [a for a in G.legal_actions(state, "ann") if a.startswith("recover")]


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


# ----- the action texts --------------------------------------------------------------------------------------

def test_move_texts_parse_back_to_themselves():
    for text in ["canoe 1: unload, up 3, steal red", "canoe 2: launch to 3, load violet", "canoe 1: load blue, land",
                 "canoe 2: unload, load red, down 2, unload", "canoe 1: up 2, steal white from bob",
                 "canoe 1: load red"]:
        assert parse_move(text).text() == text
    assert parse_move("Canoe 1 :  Unload ,Up 3 , STEAL red").text() == "canoe 1: unload, up 3, steal red"


@pytest.mark.parametrize("text, match", [
    ("canoe 1: fly 3", "is not a canoe.s move"),
    ("canoe 1: load gold", "not a gem colour"),
    ("canoe 1: land, unload", "Landing ends"),
    ("canoe 1: up 2, steal red, unload", "Stealing ends"),
    ("canoe 1: up x", "number of steps"),
    ("canoe 1:", "is not a canoe.s move|Say what"),
    ("canoe one: up 1", "Move a canoe"),
])
def test_bad_move_texts_are_refused_with_a_hint(text, match):
    state = position([("ann", 1, "river", 5, None)], cards={"ann": "3"})
    refused(state, "ann", text, match)


def test_other_texts_are_refused_with_a_hint():
    state = position([("ann", 1, "river", 5, None)], cards={"ann": "3"})
    refused(state, "ann", "play 3", "Move a canoe")
    refused(state, "ann", "recover canoe 1", "Recover with")
    refused(position(cards={"ann": "cloud"}), "ann", "jump", "weather")
