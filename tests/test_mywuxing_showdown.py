"""MyWuXing's showdowns (RULES.md §3, engine/mywuxing_cards.py): two cards against a Universe element (X4, every
pair and the rulebook's examples), Dragon and Star (X4, X3) and player against player (X7), from hand-built
positions built by tests/test_mywuxing.py's helpers."""

from collections import Counter

import pytest

from engine import GAMES, IllegalAction
from engine.elements import ELEMENTS
from engine.mywuxing import cards_in_game
from tests.test_mywuxing import ABC, absorbs, kills, learn_hand, position, think_hand

G = GAMES["mywuxing"]


# ----- X4: every element pair against every Universe element ---------------------------------------------
def expected_x4(u, a, b):
    """X4 rules 2 and 4 from the text: (kind, winner, fates)."""
    if a == b:
        fate = "void" if kills(u, a) else "pot"
        return "draw", None, {"ann": fate, "bob": fate}
    for me, mine in (("ann", a), ("bob", b)):
        if absorbs(mine, u):
            return "absorb", me, {"ann": "won", "bob": "won"}
    for me, other, mine in (("ann", "bob", a), ("bob", "ann", b)):
        if kills(mine, u):
            return "destroy", me, {me: "deck", other: "void"}
    fates = {}
    for me, mine in (("ann", a), ("bob", b)):
        fates[me] = "pot" if mine == u or absorbs(u, mine) else "void"
    return "each", None, fates


@pytest.mark.parametrize("u", ELEMENTS)
@pytest.mark.parametrize("a", ELEMENTS)
@pytest.mark.parametrize("b", ELEMENTS)
def test_X4_every_element_pair_against_every_universe_element(u, a, b):
    s = learn_hand(u, a, b, pot=["metal", "fire"])
    kind, winner, fates = expected_x4(u, a, b)
    hand = s["last_hand"]
    assert (hand["kind"], hand["winner"], hand["fates"]) == (kind, winner, fates)
    in_play = Counter(["metal", "fire", u, a, b])
    if kind == "absorb":
        assert s["pot"] == []
        assert Counter(s["decks"][winner][1:]) == in_play  # all cards in play, under the deck
        assert s["void"] == []
    elif kind == "destroy":
        loser_card = b if winner == "ann" else a
        assert s["pot"] == [] and Counter(s["void"]) == Counter(["metal", "fire", u, loser_card])
        assert s["decks"][winner] == ["earth", a if winner == "ann" else b]
    else:
        went = {"pot": [], "void": []}
        for seat, card in (("ann", a), ("bob", b)):
            went[fates[seat]].append(card)
        assert s["pot"] == ["metal", "fire", u] + went["pot"]
        assert s["void"] == went["void"]
        assert s["decks"] == {"ann": ["earth"], "bob": ["earth"]}
    assert cards_in_game(s) == in_play + Counter(["earth", "earth"])


# ----- the rulebook's examples ----------------------------------------------------------------------------
def test_X4_rulebook_wood_absorbs_water():
    s = learn_hand("water", "wood", "metal")
    assert s["last_hand"]["winner"] == "ann"
    assert Counter(s["decks"]["ann"]) == Counter(["earth", "water", "wood", "metal"])


def test_X4_rulebook_fire_absorbs_wood_card_joins_pot():
    s = learn_hand("fire", "wood", "fire")
    assert s["pot"] == ["fire", "wood", "fire"]
    assert s["last_hand"]["fates"] == {"ann": "pot", "bob": "pot"}


def test_X4_rulebook_earth_destroys_water_pot_and_other_card_to_void():
    s = learn_hand("water", "earth", "fire", pot=["metal"])
    assert s["pot"] == [] and Counter(s["void"]) == Counter(["metal", "water", "fire"])
    assert s["decks"]["ann"] == ["earth", "earth"]  # the destroyer's card back under the deck


def test_X4_rulebook_earth_destroys_water_exception_i_same_card_draw():
    s = learn_hand("water", "earth", "earth")
    assert s["last_hand"]["kind"] == "draw"
    assert s["pot"] == ["water", "earth", "earth"]


def test_X4_rulebook_earth_destroys_water_exception_ii_player2_absorbs():
    s = learn_hand("water", "earth", "wood", pot=["fire"])
    assert s["last_hand"]["winner"] == "bob"
    assert Counter(s["decks"]["bob"]) == Counter(["earth", "fire", "water", "earth", "wood"])


def test_X4_rulebook_earth_destroys_water_exception_iii_dragon():
    s = learn_hand("water", "earth", "dragon")
    assert s["last_hand"]["winner"] == "bob"
    assert s["void"] == ["dragon"]
    assert Counter(s["decks"]["bob"]) == Counter(["earth", "water", "earth"])


def test_X4_rulebook_earth_destroys_water_exception_iii_star():
    s = learn_hand("water", "earth", "star", pot=["fire"])
    assert s["pot"] == ["star"]
    assert Counter(s["void"]) == Counter(["fire", "water", "earth"])


def test_X4_rulebook_water_destroys_fire():
    s = learn_hand("water", "fire", "fire")
    assert s["void"] == ["fire", "fire"] and s["pot"] == ["water"]
    s = learn_hand("water", "fire", "water")
    assert s["last_hand"]["fates"] == {"ann": "void", "bob": "pot"}


def test_X4_absorb_beats_destroy():
    s = learn_hand("water", "earth", "wood")  # earth destroys water, wood absorbs it
    assert s["last_hand"]["kind"] == "absorb" and s["last_hand"]["winner"] == "bob"


# ----- X4: Dragon and Star cases --------------------------------------------------------------------------
@pytest.mark.parametrize("other", ELEMENTS + ("dragon",))
def test_X4_1_one_star_sends_everything_to_void(other):
    s = learn_hand("fire", other, "star", pot=["wood"])
    assert s["pot"] == ["star"]
    assert Counter(s["void"]) == Counter(["wood", "fire", other])
    assert s["last_hand"]["winner"] == "bob"


def test_X4_1_two_stars_both_join_pot():
    s = learn_hand("fire", "star", "star", pot=["wood"])
    assert s["pot"] == ["wood", "fire", "star", "star"] and s["void"] == []


def test_X4_2_two_dragons_draw_join_pot():
    s = learn_hand("metal", "dragon", "dragon")
    assert s["pot"] == ["metal", "dragon", "dragon"] and s["last_hand"]["kind"] == "draw"


@pytest.mark.parametrize("element", ELEMENTS)
def test_X4_3_dragon_wins_everything_and_goes_to_void(element):
    s = learn_hand("earth", "dragon", element, pot=["star"])
    assert s["void"] == ["dragon"] and s["pot"] == []
    assert Counter(s["decks"]["ann"][1:]) == Counter(["star", "earth", element])


def test_X4_won_cards_are_shuffled_under_the_deck():
    orders = set()
    for seed in range(12):
        s = position(u="water", pot=["fire", "metal", "earth", "wood"],
                     decks={"ann": ["wood", "x"], "bob": ["fire", "y"]})
        s["rng"] = seed * 7919 + 1
        s = G.apply(G.apply(s, "ann", "reveal"), "bob", "reveal")
        assert s["decks"]["ann"][0] == "x"
        orders.add(tuple(s["decks"]["ann"][1:]))
    assert len(orders) > 1


# ----- X3: Universe Dragon and Star -----------------------------------------------------------------------
def test_X3_universe_dragon_learn_both_add_top_card_to_pot():
    s = learn_hand("dragon", "fire", "water", pot=["metal"])
    assert s["pot"] == ["metal", "dragon", "fire", "water"] and s["void"] == []
    assert s["last_hand"]["kind"] == "universe_dragon"


def test_X3_universe_dragon_one_star_added_clears_pot():
    s = learn_hand("dragon", "star", "water", pot=["metal"])
    assert s["pot"] == ["star"]
    assert Counter(s["void"]) == Counter(["metal", "dragon", "water"])


def test_X3_universe_dragon_two_stars_both_stay():
    s = learn_hand("dragon", "star", "star", pot=["metal"])
    assert s["pot"] == ["metal", "dragon", "star", "star"] and s["void"] == []


def test_X3_universe_dragon_think_players_choose_card_to_add():
    s = think_hand("dragon", "wood", "dragon", verb="add", pot=["fire"])
    assert s["pot"] == ["fire", "dragon", "wood", "dragon"]
    assert s["hands"] == {"ann": ["earth"], "bob": ["earth"]}


def test_X3_universe_star_clears_pot_when_turned():
    s = position(u="wood", universe=["star", "fire"], decks={"ann": ["fire", "x"], "bob": ["fire", "y"]}, pot=["metal"])
    s = G.apply(G.apply(s, "ann", "reveal"), "bob", "reveal")  # two fires vs wood: both join the pot
    assert s["u"] == "star" and s["pot"] == ["star"]
    assert Counter(s["void"]) == Counter(["metal", "wood", "fire", "fire"])


def test_X3_universe_star_learn_each_sends_top_card_to_void():
    s = learn_hand("star", "dragon", "water")
    assert s["pot"] == ["star"] and s["void"] == ["dragon", "water"]


def test_X3_universe_star_think_players_choose_card_to_discard():
    s = position(version="think", u="star", partner="bob", hands={"ann": ["wood", "star"], "bob": ["fire", "earth"]})
    assert G.legal_actions(s, "ann") == ["discard wood", "discard star"]
    s = G.apply(G.apply(s, "ann", "discard wood"), "bob", "discard fire")
    assert s["void"] == ["wood", "fire"] and s["hands"]["ann"] == ["star"]


def test_M2_universe_power_card_must_be_played_with_the_universe():
    s = position(seats=ABC, version="think", u="dragon", think_option=2, hands={x: ["wood", "fire"] for x in ABC})
    assert G.legal_actions(s, "ann") == ["universe with bob", "universe with cy"]
    s = position(seats=ABC, version="think", u="water", think_option=2, hands={x: ["wood", "fire"] for x in ABC})
    assert G.legal_actions(s, "ann") == ["universe with bob", "universe with cy", "against bob", "against cy"]


def test_M2_option1_universe_power_card_skips_the_target_step():
    s = G.new(ABC, 1, {"version": "think"})
    s.update(universe=["dragon", "wood"], phase="target", lead="ann", u="fire", pot=["fire"])
    s["hands"] = {x: ["wood"] for x in ABC}
    s["decks"] = {x: ["earth", "earth", "earth"] for x in ABC}
    s = G.apply(s, "ann", "against bob")
    s = G.apply(G.apply(s, "ann", "play wood"), "bob", "play wood")  # draw in the pot; ann leads? no: bob (option 1)
    assert s["u"] == "dragon" and s["phase"] == "choose"
    assert (s["lead"], s["partner"]) == ("bob", "cy")
    assert G.legal_actions(s, "bob")[0].startswith("add ")


# ----- X7: player against player --------------------------------------------------------------------------
@pytest.mark.parametrize("a", ELEMENTS)
@pytest.mark.parametrize("b", ELEMENTS)
def test_X7_player_against_player_elements(a, b):
    s = think_hand("water", a, b, mode="player", pot=["fire"])
    assert s["pot"][:2] == ["fire", "water"]  # M1: the Universe card stays in the pot, untouched
    hand = s["last_hand"]
    if a == b:
        assert s["pot"] == ["fire", "water", a, b] and hand["winner"] is None
    elif absorbs(a, b) or absorbs(b, a):
        w = "ann" if absorbs(a, b) else "bob"
        assert hand["winner"] == w and Counter(s["decks"][w][2:]) == Counter([a, b])
        assert s["void"] == []
    else:
        w = "ann" if kills(a, b) else "bob"
        loser = b if w == "ann" else a
        assert hand["winner"] == w and s["void"] == [loser]
        assert s["decks"][w][2:] == [a if w == "ann" else b]


def test_X7_player_against_player_dragon_wins_element_and_goes_to_void():
    s = think_hand("water", "metal", "dragon", mode="player")
    assert s["void"] == ["dragon"] and s["decks"]["bob"][2:] == ["metal"]
    assert s["last_hand"]["winner"] == "bob"


def test_X7_player_against_player_star_voids_other_card_and_joins_pot():
    s = think_hand("water", "star", "dragon", mode="player", pot=["fire"])
    assert s["void"] == ["dragon"] and s["pot"] == ["fire", "water", "star"]


def test_X7_player_against_player_same_power_cards_join_pot():
    s = think_hand("water", "star", "star", mode="player")
    assert s["pot"] == ["water", "star", "star"] and s["void"] == []
    s = think_hand("water", "dragon", "dragon", mode="player")
    assert s["pot"] == ["water", "dragon", "dragon"] and s["void"] == []


def test_X7_think_choices_are_revealed_together():
    s = position(version="think", u="water", partner="bob", hands={"ann": ["wood", "fire"], "bob": ["earth"]})
    s2 = G.apply(s, "ann", "play wood")
    assert G.view(s2, "ann")["my_choice"] == "wood"
    assert G.view(s2, "bob")["my_choice"] is None
    for viewer in (None, "bob"):
        assert "wood" not in str(G.view(s2, viewer))
    line = G.describe(s, "ann", "play wood", s2)
    assert "wood" not in line.lower()
    assert G.view(s2, None)["players"]["ann"]["chosen"] is True
    with pytest.raises(IllegalAction, match="already chosen"):
        G.apply(s2, "ann", "play fire")


def test_X7_only_cards_in_hand_can_be_played():
    s = position(version="think", u="water", partner="bob", hands={"ann": ["wood", "fire"], "bob": ["earth"]})
    assert G.legal_actions(s, "ann") == ["play wood", "play fire"]
    with pytest.raises(IllegalAction):
        G.apply(s, "ann", "play star")


def test_X7_hands_are_refilled_to_two_from_the_deck():
    s = think_hand("water", "wood", "fire", universe=["metal"], decks={"ann": ["metal", "star"], "bob": ["water"]})
    # ann: earth left in hand + metal from the deck; bob: earth + water
    assert s["hands"]["ann"] == ["earth", "metal"] and s["decks"]["ann"][0] == "star"
    assert s["hands"]["bob"] == ["earth", "water"]
