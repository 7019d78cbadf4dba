"""Wagara's canoes (engine/wagara_river.py): a canoe's move under RULES.md §2 — spending the card's points
(G4, G10), loading and unloading (G4, G9), launching, stealing and the rapids (G4) — and the move's text, from
hand-built positions built by tests/test_wagara.py's helpers."""

import pytest

from engine import GAMES
from engine.wagara import COLOURS, parse_move
from tests.test_wagara import canoe, canoe_actions, play, position, refused

G = GAMES["wagara"]


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
