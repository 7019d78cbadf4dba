"""MyWuXing rules (RULES.md §3, X1–X9, and the module's decisions M1–M11), hand-built positions. The showdowns
(X3, X4, X7) are in tests/test_mywuxing_showdown.py, on the helpers here."""

from collections import Counter

import pytest

from engine import GAMES, IllegalAction
from engine.elements import DESTROYS, ELEMENTS, FEEDS
from engine.mywuxing import DEAL, HAND_LIMIT, cards_in_game, full_deck

G = GAMES["mywuxing"]
AB = ["ann", "bob"]
ABC = ["ann", "bob", "cy"]


def absorbs(x, y):
    """x absorbs y when y feeds x (X2) — written from the cycle table, not the engine."""
    return FEEDS[y] == x


def kills(x, y):
    return DESTROYS[x] == y


# ----- building positions --------------------------------------------------------------------------------
def position(seats=AB, version="learn", u="water", pot=(), decks=None, hands=None, universe=(), lead=None,
             partner=None, mode="universe", phase=None, **options):
    """A state at the start of a hand: U already on the pot (above ``pot``), Universe deck ``universe``
    (empty: the game ends by count right after this hand, so pot and Void stay as the hand left them)."""
    seats = list(seats)
    s = G.new(seats, 1, {"version": version, **options})
    lead = lead or seats[0]
    s.update(pot=list(pot) + [u], u=u, void=[], universe=list(universe), lead=lead, chosen={}, revealed={},
             window=None, out=[])
    s["decks"] = {x: list((decks or {}).get(x, ["earth", "earth"])) for x in seats}
    s["hands"] = {x: list((hands or {}).get(x, [])) for x in seats}
    if version == "learn":
        s.update(partner=partner or G.next_active(s, lead), mode="universe", phase="choose")
    else:
        s.update(partner=partner, mode=mode if partner else None, phase=phase or ("choose" if partner else "target"))
    return s


def learn_hand(u, a, b, pot=(), universe=(), decks=None, **kw):
    """ann leads, bob partners; their top cards are a and b (decks: whole decks, a and b on top)."""
    decks = decks or {"ann": [a, "earth"], "bob": [b, "earth"]}
    s = position(u=u, pot=pot, decks=decks, universe=universe, **kw)
    s = G.apply(s, "ann", "reveal")
    return G.apply(s, "bob", "reveal")


def think_hand(u, a, b, mode="universe", seats=AB, hands=None, verb="play", **kw):
    """Think: ann (lead) plays a, bob plays b; each keeps an earth in hand."""
    hands = hands or {"ann": [a, "earth"], "bob": [b, "earth"]}
    s = position(seats=seats, version="think", u=u, partner="bob", mode=mode, hands=hands, **kw)
    s = G.apply(s, "ann", f"{verb} {a}")
    return G.apply(s, "bob", f"{verb} {b}")


# ----- X1: the deck and the deal -------------------------------------------------------------------------
def test_X1_deck_has_52_cards():
    assert Counter(full_deck()) == Counter({**{e: 8 for e in ELEMENTS}, "dragon": 8, "star": 4})
    assert len(full_deck()) == 52


@pytest.mark.parametrize("n,each", [(2, 8), (3, 7), (4, 6), (5, 5), (6, 5), (7, 4), (8, 4)])
def test_X1_deal_by_player_count(n, each):
    seats = [f"p{i}" for i in range(n)]
    s = G.new(seats, 11)
    assert DEAL[n] == each
    assert all(len(s["decks"][x]) == each for x in seats)
    assert len(s["universe"]) == 52 - n * each - 1  # one already turned onto the pot
    assert len(s["pot"]) == 1 and s["void"] == [] or s["pot"] == ["star"]
    assert cards_in_game(s) == Counter(full_deck())


def test_X1_think_hands_are_drawn_from_the_deck():
    s = G.new(ABC, 4, {"version": "think"})
    for x in ABC:
        assert len(s["hands"][x]) == 2 and len(s["decks"][x]) == 5
    assert cards_in_game(s) == Counter(full_deck())


def test_options_refused_when_unknown():
    with pytest.raises(IllegalAction):
        G.new(AB, 1, {"version": "fast"})
    with pytest.raises(IllegalAction):
        G.new(AB, 1, {"think_option": 4})
    with pytest.raises(IllegalAction):
        G.new(["a"], 1)


# ----- X6/X7: who leads next --------------------------------------------------------------------------------
def next_lead(seats, version, option, u, a, b, mode="universe", partner="bob", out=()):
    if version == "learn":
        decks = {"ann": [a, "earth"], "bob": [b, "earth"], "cy": ["earth"], "dee": ["earth"]}
        s = position(seats=seats, u=u, decks=decks,
                     universe=["metal", "metal"])
        s = G.apply(G.apply(s, "ann", "reveal"), "bob", "reveal")
        return s["lead"]
    hands = {x: ["earth"] for x in seats}
    hands.update(ann=[a], bob=[b])
    decks = {x: ["earth", "earth"] for x in seats}
    for x in out:
        decks[x] = []
    s = position(seats=seats, version="think", u=u, partner=partner, mode=mode, hands=hands, decks=decks,
                 universe=["metal", "metal"], think_option=option)
    s = G.apply(G.apply(s, "ann", f"play {a}"), partner, f"play {b}")
    return s["lead"]


def test_X6_learn_partner_leads_next():
    assert next_lead(ABC, "learn", 1, "water", "wood", "fire") == "bob"


def test_X6_learn_partner_out_next_clockwise_leads():
    s = position(seats=ABC, u="water", decks={"ann": ["wood", "earth"], "bob": ["fire"], "cy": ["earth"]},
                 universe=["metal"])
    s = G.apply(G.apply(s, "ann", "reveal"), "bob", "reveal")
    assert s["out"] == ["bob"] and s["lead"] == "cy" and s["partner"] == "ann"


def test_X7_option1_lead_passes_clockwise():
    assert next_lead(ABC, "think", 1, "water", "wood", "fire") == "bob"  # ann won, yet bob leads


def test_X7_option2_player_played_against_leads():
    seats = ["ann", "bob", "cy", "dee"]
    hands = {"ann": ["wood"], "bob": ["earth"], "cy": ["fire"], "dee": ["earth"]}
    s = position(seats=seats, version="think", u="water", think_option=2, hands=hands, universe=["metal"] * 3)
    assert "against cy" in G.legal_actions(s, "ann")
    s = G.apply(s, "ann", "against cy")
    s = G.apply(G.apply(s, "ann", "play wood"), "cy", "play fire")  # fire absorbs wood: cy wins
    assert s["lead"] == "cy"


def test_X7_option2_winner_leads_when_partner_is_out():
    seats = ["ann", "bob", "cy"]
    assert next_lead(seats, "think", 2, "water", "wood", "fire", out=["bob"]) == "ann"


def test_X7_option3_winner_leads_again():
    assert next_lead(ABC, "think", 3, "water", "wood", "fire") == "ann"
    assert next_lead(ABC, "think", 3, "water", "metal", "wood") == "bob"


def test_X7_option3_draw_next_player_clockwise_leads():
    assert next_lead(ABC, "think", 3, "water", "fire", "fire") == "bob"


# ----- X5 / X9: elimination and endings -------------------------------------------------------------------
def test_X5_player_without_cards_is_out_and_skipped():
    decks = {"ann": ["fire"], "bob": ["fire", "earth", "earth"], "cy": ["earth", "earth"]}
    s = position(seats=ABC, u="water", decks=decks,
                 universe=["metal", "metal"])
    s = G.apply(G.apply(s, "ann", "reveal"), "bob", "reveal")
    assert s["out"] == ["ann"] and G.view(s, None)["players"]["ann"]["out"] is True
    assert (s["lead"], s["partner"]) == ("bob", "cy")
    s = G.apply(G.apply(s, "bob", "reveal"), "cy", "reveal")
    assert (s["lead"], s["partner"]) == ("cy", "bob")  # ann skipped
    with pytest.raises(IllegalAction, match="out"):
        G.apply(s, "ann", "reveal")


def test_X9_last_player_with_cards_wins():
    s = learn_hand("water", "fire", "wood", universe=["metal"], decks={"ann": ["fire"], "bob": ["wood", "earth"]})
    assert G.result(s)["winners"] == ["bob"] and G.result(s)["reason"] == "last_standing"
    assert G.to_act(s) == []


def test_X9_count_most_cards_wins_when_universe_runs_out():
    s = learn_hand("water", "fire", "earth", seats=ABC)
    # fire to the Void; earth destroys water, back under bob's deck. universe empty: count.
    res = G.result(s)
    assert res["reason"] == "count"
    assert res["scores"] == {"ann": 1, "bob": 2, "cy": 2}
    assert res["winners"] == ["bob", "cy"]  # ties are shared


def test_X9_recycle_turns_the_void_into_a_new_universe_deck():
    s = learn_hand("water", "fire", "earth", end="recycle")
    assert G.result(s) is None
    assert s["recycles"] == 1 and s["u"] in ("fire", "water")
    assert len(s["universe"]) == 1 and s["void"] == []


def test_M8_recycle_stops_after_the_hand_limit():
    s = position(u="water", decks={"ann": ["fire", "earth"], "bob": ["earth", "earth"]}, end="recycle")
    s["hands_played"] = HAND_LIMIT - 1
    s = G.apply(G.apply(s, "ann", "reveal"), "bob", "reveal")
    assert G.result(s)["reason"] == "count"


def test_M8_recycle_with_empty_void_ends_by_count():
    s = learn_hand("water", "water", "water", end="recycle")  # a draw: nothing reaches the Void
    assert s["void"] == [] and s["recycles"] == 0
    assert G.result(s)["reason"] == "count"


def test_M9_everyone_knocked_out_together_share_the_win():
    s = learn_hand("star", "fire", "wood", decks={"ann": ["fire"], "bob": ["wood"]}, universe=["metal"])
    res = G.result(s)
    assert sorted(res["winners"]) == ["ann", "bob"] and res["scores"] == {"ann": 0, "bob": 0}


# ----- X8: Power Card Activation --------------------------------------------------------------------------
FOUR = ["ann", "bob", "cy", "dee"]


def power_position(hands_extra, u="water", a="wood", b="fire", mode="universe", pot=("metal",)):
    hands = {"ann": [a, "earth"], "bob": [b, "earth"], **hands_extra}
    s = position(seats=FOUR, version="think", u=u, partner="bob", mode=mode, hands=hands, pot=pot,
                 power_cards="on", universe=[])
    return G.apply(G.apply(s, "ann", f"play {a}"), "bob", f"play {b}")


def test_X8_window_offered_to_every_other_active_player():
    s = power_position({"cy": ["star", "wood"], "dee": ["earth", "earth"]})
    assert s["phase"] == "react"
    assert G.to_act(s) == ["cy", "dee"]
    assert G.legal_actions(s, "cy") == ["pass", "activate star"]
    assert G.legal_actions(s, "dee") == ["pass"]
    assert G.private_actions(s, "dee") and G.private_actions(s, "cy")  # nobody learns who holds a Star
    assert G.view(s, None)["revealed"] == {"ann": "wood", "bob": "fire"}


def test_X8_all_pass_resolves_normally():
    s = power_position({"cy": ["star", "wood"], "dee": ["earth", "earth"]})
    s = G.apply(G.apply(s, "dee", "pass"), "cy", "pass")
    assert s["last_hand"]["kind"] == "absorb" and s["last_hand"]["winner"] == "ann"


def test_X8_activated_star_stands_sends_all_in_play_to_void():
    s = power_position({"cy": ["star", "wood"], "dee": ["earth", "earth"]})
    s = G.apply(s, "cy", "activate star")
    assert s["phase"] == "counter" and G.to_act(s) == ["ann", "bob", "dee"]  # M5: not the Star's owner
    assert G.legal_actions(s, "cy") == []
    for x in ("ann", "bob", "dee"):
        s = G.apply(s, x, "pass")
    assert s["pot"] == ["star"]
    assert Counter(s["void"]) == Counter(["metal", "water", "wood", "fire"])
    assert s["hands"]["cy"] == ["wood"]
    assert s["last_hand"]["kind"] == "star_activated" and s["last_hand"]["reaction"]["star"] == "cy"


def test_X8_star_countered_by_second_star():
    s = power_position({"cy": ["star", "wood"], "dee": ["star", "earth"]})
    s = G.apply(s, "cy", "activate star")
    assert "counter with star" in G.legal_actions(s, "dee")
    s = G.apply(s, "dee", "counter with star")
    assert s["pot"] == ["metal", "water", "wood", "fire", "star", "star"] and s["void"] == []
    assert s["last_hand"]["kind"] == "countered" and s["hands"]["dee"] == ["earth"]


def test_X8_star_countered_by_two_dragons_from_two_players():
    s = power_position({"cy": ["star", "wood"], "dee": ["dragon", "earth"]},
                       )
    s["hands"]["ann"] = ["dragon"]  # ann, a player of the hand, may counter with the card she kept (M5)
    s = G.apply(s, "cy", "activate star")
    s = G.apply(s, "dee", "counter with dragon")
    assert s["phase"] == "counter" and G.view(s, None)["window"]["dragons"] == ["dee"]
    s = G.apply(s, "ann", "counter with dragon")
    assert s["pot"] == ["metal", "water", "wood", "fire", "star"]
    assert s["void"] == ["dragon", "dragon"]
    assert s["last_hand"]["reaction"] == {"star": "cy", "counter": "dragons", "by": ["dee", "ann"]}


def test_X8_star_countered_by_two_dragons_from_one_hand():
    s = power_position({"cy": ["star", "wood"], "dee": ["dragon", "dragon"]})
    s = G.apply(s, "cy", "activate star")
    assert G.legal_actions(s, "dee") == ["pass", "counter with dragon", "counter with 2 dragons"]
    s = G.apply(s, "dee", "counter with 2 dragons")
    assert s["void"] == ["dragon", "dragon"] and s["hands"]["dee"] == []


def test_X8_lone_dragon_does_not_counter_and_returns_to_hand():
    s = power_position({"cy": ["star", "wood"], "dee": ["dragon", "earth"]})
    s = G.apply(s, "cy", "activate star")
    s = G.apply(s, "dee", "counter with dragon")
    assert s["hands"]["dee"] == ["earth"]
    s = G.apply(G.apply(s, "ann", "pass"), "bob", "pass")  # the window closes: the Star stands
    assert s["pot"] == ["star"] and sorted(s["hands"]["dee"]) == ["dragon", "earth"]


def test_X8_star_owner_cannot_counter_own_star():
    s = power_position({"cy": ["star", "star"], "dee": ["earth", "earth"]})
    s = G.apply(s, "cy", "activate star")
    assert "cy" not in G.to_act(s)
    with pytest.raises(IllegalAction):
        G.apply(s, "cy", "counter with star")


def test_X8_star_in_player_against_player_hand():
    s = power_position({"cy": ["star", "wood"], "dee": ["earth"]}, mode="player", a="metal", b="wood")
    s = G.apply(s, "cy", "activate star")
    for x in ("ann", "bob", "dee"):
        s = G.apply(s, x, "pass")
    assert s["pot"] == ["star"] and Counter(s["void"]) == Counter(["metal", "water", "metal", "wood"])


def test_X8_no_window_without_power_cards_option():
    s = think_hand("water", "wood", "fire", seats=ABC, hands={"ann": ["wood"], "bob": ["fire"], "cy": ["star"]})
    assert s["last_hand"]["kind"] == "absorb" and s["phase"] == "over"


def test_X8_no_window_when_no_other_active_player():
    s = position(version="think", u="water", partner="bob", hands={"ann": ["wood"], "bob": ["fire"]},
                 power_cards="on")
    s = G.apply(G.apply(s, "ann", "play wood"), "bob", "play fire")
    assert s["last_hand"]["kind"] == "absorb"


def test_M4_no_window_for_universe_power_card_hands():
    hands = {"ann": ["wood"], "bob": ["fire"], "cy": ["star"]}
    s = position(seats=ABC, version="think", u="dragon", partner="bob", hands=hands,
                 power_cards="on")
    s = G.apply(G.apply(s, "ann", "add wood"), "bob", "add fire")
    assert s["last_hand"]["kind"] == "universe_dragon"


def test_X8_timeout_is_pass_for_the_unanswered():
    s = power_position({"cy": ["star", "wood"], "dee": ["earth", "earth"]})
    for seat in G.to_act(s):  # the front end's timeout
        assert "pass" in G.legal_actions(s, seat)
        s = G.apply(s, seat, "pass")
    assert s["last_hand"] is not None and s["phase"] == "over"


def test_X8_answering_twice_is_refused():
    s = power_position({"cy": ["star", "wood"], "dee": ["earth", "earth"]})
    s = G.apply(s, "dee", "pass")
    with pytest.raises(IllegalAction, match="already answered"):
        G.apply(s, "dee", "pass")


# ----- hidden information ------------------------------------------------------------------------------------
def test_views_hide_hands_and_deck_order():
    s = G.new(FOUR, 9, {"version": "think", "power_cards": "on"})
    spectator = G.view(s, None)
    assert "hand" not in spectator and "my_choice" not in spectator
    assert not {"decks", "hands", "universe_order", "chosen", "rng"} & set(spectator)
    assert isinstance(spectator["universe"], int)
    assert spectator["players"]["ann"] == {"deck": 4, "hand": 2, "out": False, "chosen": False}
    for seat in FOUR:
        v = G.view(s, seat)
        assert v["hand"] == s["hands"][seat]
        assert all(isinstance(p["hand"], int) and isinstance(p["deck"], int) for p in v["players"].values())


def test_private_actions_when_legal_actions_reveal_the_hand():
    s = position(version="think", u="water", partner="bob", hands={"ann": ["wood"], "bob": ["fire"]})
    assert G.private_actions(s, "ann")
    s = position(version="think", u="water", hands={"ann": ["wood"], "bob": ["fire"]})
    assert s["phase"] == "target" and not G.private_actions(s, "ann")
    assert not G.private_actions(position(), "ann")  # Learn: 'reveal' shows nothing


def test_M10_learn_first_reveal_hidden_until_both_reveal():
    s = position(u="water", decks={"ann": ["dragon", "earth"], "bob": ["fire", "earth"]})
    s2 = G.apply(s, "ann", "reveal")
    for viewer in (None, "ann", "bob"):
        assert "dragon" not in str(G.view(s2, viewer))
    assert "dragon" not in G.describe(s, "ann", "reveal", s2).lower()
    s3 = G.apply(s2, "bob", "reveal")
    assert "Dragon" in G.describe(s2, "bob", "reveal", s3)


def test_waiting_messages_say_who_is_playing():
    s = position(seats=ABC, version="think", u="water", hands={x: ["wood"] for x in ABC})
    with pytest.raises(IllegalAction, match="ann is choosing"):
        G.apply(s, "bob", "against cy")
    s = G.apply(s, "ann", "against bob")
    with pytest.raises(IllegalAction, match="between ann and bob"):
        G.apply(s, "cy", "play wood")


def test_X8_reaction_window_has_a_time_limit_and_pass_closes_it():
    """The engine names the reaction time; the table service plays `pass` for the silent (tests/test_timers)."""
    import random

    g = GAMES["mywuxing"]
    for seed in range(200):
        s = g.new(["a", "b", "c"], seed, {"version": "think", "power_cards": "on", "reaction_time": 45})
        rnd = random.Random(seed)
        while g.result(s) is None:
            if s["phase"] in ("react", "counter"):
                assert g.time_limit(s) == {"seconds": 45, "action": "pass"}
                for seat in g.to_act(s):
                    assert "pass" in g.legal_actions(s, seat)
                return
            assert g.time_limit(s) is None
            seat = rnd.choice(g.to_act(s))
            s = g.apply(s, seat, rnd.choice(g.legal_actions(s, seat)))
    raise AssertionError("no reaction window in 200 games")


def test_undo_policy_only_the_target_choice_can_be_taken_back():
    """Undo (issue 9) never crosses revealed hidden information: in MyWuXing only the lead's target step."""
    import random

    g = GAMES["mywuxing"]
    seen = {"target": 0, "other": 0}
    for seed in range(40):
        s = g.new(["a", "b", "c"], seed, {"version": "think", "think_option": 2, "power_cards": "on"})
        rnd = random.Random(seed)
        for _ in range(60):
            if g.result(s) is not None:
                break
            seat = rnd.choice(g.to_act(s))
            action = rnd.choice(g.legal_actions(s, seat))
            after = g.apply(s, seat, action)
            if s["phase"] == "target":
                assert g.undoable(s, seat, action, after)
                seen["target"] += 1
            else:
                assert not g.undoable(s, seat, action, after), (s["phase"], action)
                seen["other"] += 1
            s = after
    assert seen["target"] and seen["other"]
    learn = g.new(["a", "b"], 1, {"version": "learn"})
    after = g.apply(learn, "a", "reveal")
    assert not g.undoable(learn, "a", "reveal", after)


def test_X2_absorb_and_destroy_follow_the_two_cycles():
    """X2: A absorbs B when B feeds A; A destroys B when A overcomes B — the rulebook's four examples, and
    every ordered pair as the engine's shared cycle table (engine.elements.relation) answers it."""
    from engine.elements import relation

    assert relation("wood", "water") == "fed_by"      # Wood absorbs Water
    assert relation("fire", "wood") == "fed_by"       # Fire absorbs Wood
    assert relation("earth", "water") == "destroys"   # Earth destroys Water
    assert relation("water", "fire") == "destroys"    # Water destroys Fire
    for a in ELEMENTS:
        for b in ELEMENTS:
            if a != b:
                assert (relation(a, b) == "fed_by") == absorbs(a, b)
                assert (relation(a, b) == "destroys") == kills(a, b)
