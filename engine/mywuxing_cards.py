"""MyWuXing's cards: the deck (X1), their names, and what happens when two meet (X3, X4, X7) or a power card
is played against them (X8): ``Showdowns``, a part of ``engine.mywuxing.MyWuXing``, which keeps the flow of hands,
the choices, the views and the log. The rulings are in engine/mywuxing.py's docstring.
"""

from __future__ import annotations

from i18n import N_, W_

from .elements import ELEMENTS, destroys, feeds, relation

CARDS = ELEMENTS + ("dragon", "star")
POWER = ("dragon", "star")
DECK_COUNTS = {**{e: 8 for e in ELEMENTS}, "dragon": 8, "star": 4}  # X1: 52 cards
DEAL = {2: 8, 3: 7, 4: 6, 5: 5, 6: 5, 7: 4, 8: 4}  # X1: cards per player deck by player count
HAND_SIZE = 2  # X7
HAND_LIMIT = 100  # M8

# The card names as log lines write them: game words, translated where a line is shown (i18n.line).
CARD_TITLES = {"wood": W_("Wood"), "fire": W_("Fire"), "earth": W_("Earth"), "metal": W_("Metal"),
               "water": W_("Water"), "dragon": W_("Dragon"), "star": W_("Star")}
# The cards as actions name them: marked so a label for an action (the cog's suggestions) can name the card
# in the player's language (i18n.word) while the action sent stays these English words.
CARD_WORDS = (W_("wood"), W_("fire"), W_("earth"), W_("metal"), W_("water"), W_("dragon"), W_("star"))
CHOICE_VERBS = {"dragon": "add", "star": "discard"}  # M2: the verb for a card given to a Universe power card

# X4.4, each card on its own against the Universe element: one whole sentence per pair of fates (the lead's
# card first), so it translates as one sentence. "joins": the same element; "absorbed": it feeds the Universe.
EACH_ON_ITS_OWN = {
    ("joins", "absorbed"): N_("{first} joins the pot; the Universe's {universe} absorbs {second}."),
    ("joins", "destroyed"): N_("{first} joins the pot; the Universe's {universe} destroys {second}."),
    ("absorbed", "joins"): N_("The Universe's {universe} absorbs {first}; {second} joins the pot."),
    ("destroyed", "joins"): N_("The Universe's {universe} destroys {first}; {second} joins the pot."),
    ("absorbed", "absorbed"): N_("The Universe's {universe} absorbs {first}; the Universe's {universe} absorbs "
                                 "{second}."),
    ("absorbed", "destroyed"): N_("The Universe's {universe} absorbs {first}; the Universe's {universe} destroys "
                                  "{second}."),
    ("destroyed", "absorbed"): N_("The Universe's {universe} destroys {first}; the Universe's {universe} absorbs "
                                  "{second}."),
    ("destroyed", "destroyed"): N_("The Universe's {universe} destroys {first}; the Universe's {universe} "
                                   "destroys {second}."),
}


def full_deck() -> list[str]:
    return [card for card in CARDS for _ in range(DECK_COUNTS[card])]


def title(card: str) -> str:
    return CARD_TITLES[card]


class Showdowns:
    """A hand's showdown and the power cards' counter window, as methods of the game
    (``engine.mywuxing.MyWuXing``)."""

    # ----- X4: two cards against a Universe element ------------------------------------------------------
    def _record(self, state, kind, winner, fates, pot_fate, text, gained=None) -> dict:
        return {"number": state["hand_number"], "lead": state["lead"], "partner": state["partner"],
                "mode": state["mode"], "universe": state["u"], "cards": dict(state["revealed"]),
                "kind": kind, "winner": winner, "fates": fates, "pot": pot_fate, "text": text,
                "gained": gained or {}, "reaction": None}

    def _win(self, state, rng, seat, cards) -> int:
        """X4: won cards are shuffled together and put under the winner's deck."""
        cards = list(cards)
        rng.shuffle(cards)
        state["decks"][seat].extend(cards)
        return len(cards)

    def _resolve_universe_element(self, state, rng) -> dict:
        u, lead, partner = state["u"], state["lead"], state["partner"]
        cards = state["revealed"]
        a, b = cards[lead], cards[partner]
        pot, void = state["pot"], state["void"]
        U = title(u)

        def other(s):
            return partner if s == lead else lead

        stars = [s for s in (lead, partner) if cards[s] == "star"]
        if len(stars) == 1:  # X4.1
            s = stars[0]
            void.extend(pot + [cards[other(s)]])
            state["pot"] = ["star"]
            return self._record(state, "star", s, {s: "pot", other(s): "void"}, "void",
                                N_("{seat}'s Star sends every card in play to the Void and stays alone in the "
                                   "pot.").format(seat=s))
        if len(stars) == 2:  # X4.1
            pot.extend([a, b])
            return self._record(state, "stars", None, {lead: "pot", partner: "pot"}, "stays",
                                N_("Two Stars cancel out: both join the pot."))
        if a == b:  # X4.2
            if a in ELEMENTS and destroys(u, a):
                void.extend([a, b])
                return self._record(state, "draw", None, {lead: "void", partner: "void"}, "stays",
                                    N_("A draw, but the Universe's {universe} destroys {card}: both cards go to "
                                       "the Void.").format(universe=U, card=title(a)))
            pot.extend([a, b])
            return self._record(state, "draw", None, {lead: "pot", partner: "pot"}, "stays",
                                N_("A draw: both {card}s join the pot.").format(card=title(a)))
        dragons = [s for s in (lead, partner) if cards[s] == "dragon"]
        if dragons:  # X4.3
            s = dragons[0]
            void.append("dragon")
            won = pot + [cards[other(s)]]
            state["pot"] = []
            n = self._win(state, rng, s, won)
            return self._record(state, "dragon", s, {s: "void", other(s): "won"}, "won",
                                N_("{seat}'s Dragon absorbs everything: {seat} wins {n} cards; the Dragon goes "
                                   "to the Void.").format(seat=s, n=n),
                                {s: n})
        absorbers = [s for s in (lead, partner) if feeds(u, cards[s])]
        if absorbers:  # X4.4: absorb beats destroy
            s = absorbers[0]
            won = pot + [a, b]
            state["pot"] = []
            n = self._win(state, rng, s, won)
            return self._record(state, "absorb", s, {lead: "won", partner: "won"}, "won",
                                N_("{card} absorbs the Universe's {universe}: {seat} wins all {n} cards in "
                                   "play.").format(card=title(cards[s]), universe=U, seat=s, n=n),
                                {s: n})
        destroyers = [s for s in (lead, partner) if destroys(cards[s], u)]
        if destroyers:  # X4.4
            s = destroyers[0]
            void.extend(pot + [cards[other(s)]])
            state["pot"] = []
            state["decks"][s].append(cards[s])
            return self._record(state, "destroy", s, {s: "deck", other(s): "void"}, "void",
                                N_("{card} destroys the Universe's {universe}: the pot and {other}'s {lost} go "
                                   "to the Void; {seat}'s card goes back under their deck.").format(
                                    card=title(cards[s]), universe=U, other=other(s), lost=title(cards[other(s)]),
                                    seat=s))
        fates, ways = {}, []
        for s in (lead, partner):  # X4.4: each card on its own
            c = cards[s]
            if c == u or feeds(c, u):
                pot.append(c)
                fates[s] = "pot"
                ways.append("joins" if c == u else "absorbed")
            else:
                void.append(c)
                fates[s] = "void"
                ways.append("destroyed")
        text = EACH_ON_ITS_OWN[tuple(ways)].format(universe=U, first=title(a), second=title(b))
        return self._record(state, "each", None, fates, "stays", text)

    # ----- X7: player against player ---------------------------------------------------------------------
    def _resolve_player(self, state, rng) -> dict:
        lead, partner = state["lead"], state["partner"]
        cards = state["revealed"]
        a, b = cards[lead], cards[partner]

        def other(s):
            return partner if s == lead else lead

        if a == b:
            state["pot"].extend([a, b])
            return self._record(state, "draw", None, {lead: "pot", partner: "pot"}, "stays",
                                N_("A draw: both {card}s join the pot.").format(card=title(a)))
        if "star" in (a, b):
            s = lead if a == "star" else partner
            state["void"].append(cards[other(s)])
            state["pot"].append("star")
            return self._record(state, "star", s, {s: "pot", other(s): "void"}, "stays",
                                N_("{seat}'s Star sends {other}'s {card} to the Void and joins the pot.").format(
                                    seat=s, other=other(s), card=title(cards[other(s)])))
        if "dragon" in (a, b):
            s = lead if a == "dragon" else partner
            state["void"].append("dragon")
            n = self._win(state, rng, s, [cards[other(s)]])
            return self._record(state, "dragon", s, {s: "void", other(s): "won"}, "stays",
                                N_("{seat}'s Dragon absorbs {card}: {seat} wins it; the Dragon goes to the "
                                   "Void.").format(seat=s, card=title(cards[other(s)])),
                                {s: n})
        rel = relation(a, b)
        if rel in ("fed_by", "feeds"):  # an absorber wins the other card and keeps its own
            s, o = (lead, partner) if rel == "fed_by" else (partner, lead)
            n = self._win(state, rng, s, [cards[s], cards[o]])
            return self._record(state, "absorb", s, {s: "deck", o: "won"}, "stays",
                                N_("{card} absorbs {other_card}: {seat} wins {other}'s card.").format(
                                    card=title(cards[s]), other_card=title(cards[o]), seat=s, other=o),
                                {s: n})
        s, o = (lead, partner) if rel == "destroys" else (partner, lead)
        state["void"].append(cards[o])
        state["decks"][s].append(cards[s])
        return self._record(state, "destroy", s, {s: "deck", o: "void"}, "stays",
                            N_("{card} destroys {other_card}: {other}'s card goes to the Void.").format(
                                card=title(cards[s]), other_card=title(cards[o]), other=o))

    # ----- X3: Universe Dragon and Star -----------------------------------------------------------------
    def _resolve_universe_dragon(self, state) -> dict:
        lead, partner = state["lead"], state["partner"]
        cards = state["revealed"]
        stars = [s for s in (lead, partner) if cards[s] == "star"]
        if len(stars) == 1:
            s = stars[0]
            o = partner if s == lead else lead
            state["void"].extend(state["pot"] + [cards[o]])
            state["pot"] = ["star"]
            return self._record(state, "universe_dragon", None, {s: "pot", o: "void"}, "void",
                                N_("The Universe's Dragon calls for a card each; {seat}'s Star sends every other "
                                   "pot card to the Void and stays alone in the pot.").format(seat=s))
        state["pot"].extend([cards[lead], cards[partner]])
        return self._record(state, "universe_dragon", None, {lead: "pot", partner: "pot"}, "stays",
                            N_("The Universe's Dragon takes a card from each player into the pot."))

    def _resolve_universe_star(self, state) -> dict:
        lead, partner = state["lead"], state["partner"]
        state["void"].extend([state["revealed"][lead], state["revealed"][partner]])
        return self._record(state, "universe_star", None, {lead: "void", partner: "void"}, "stays",
                            N_("The Universe's Star sends a card from each player to the Void."))

    # ----- X8: Power Card Activation --------------------------------------------------------------------
    def _open_window(self, state, kind, members, star=None) -> bool:
        if not members:
            return False
        state["window"] = {"kind": kind, "members": members, "answered": [], "star": star, "dragons": [],
                           "played": [] if star is None else [{"seat": star, "card": "star"}]}
        state["phase"] = kind
        return True

    def _play_react(self, state, rng, seat, action) -> None:
        window = state["window"]
        if action == "pass":
            window["answered"].append(seat)
            if len(window["answered"]) == len(window["members"]):
                state["window"] = None
                self._end_hand(state, rng, self._resolve(state, rng))
            return
        state["hands"][seat].remove("star")
        # M5: everyone but the Star's owner may counter, in seat order from the lead
        members = [s for s in [state["lead"]] + self.clockwise_from(state, state["lead"]) if s != seat]
        self._open_window(state, "counter", members, star=seat)

    def _play_counter(self, state, rng, seat, action) -> None:
        window = state["window"]
        window["answered"].append(seat)
        if action == "counter with star":
            state["hands"][seat].remove("star")
            window["played"].append({"seat": seat, "card": "star"})
            self._close_counter(state, rng, "star", [seat])
            return
        if action in ("counter with dragon", "counter with 2 dragons"):
            for _ in range(2 if action.endswith("2 dragons") else 1):
                state["hands"][seat].remove("dragon")
                window["played"].append({"seat": seat, "card": "dragon"})
                window["dragons"].append(seat)
            if len(window["dragons"]) >= 2:
                self._close_counter(state, rng, "dragons", list(window["dragons"]))
                return
        if len(window["answered"]) == len(window["members"]):
            self._close_counter(state, rng, None, [])

    def _close_counter(self, state, rng, counter, by) -> None:
        window = state["window"]
        owner = window["star"]
        lead, partner = state["lead"], state["partner"]
        played = [state["revealed"][lead], state["revealed"][partner]]
        if counter != "dragons":  # M5: a lone pledged Dragon goes back to its owner's hand
            for p in window["played"]:
                if p["card"] == "dragon":
                    state["hands"][p["seat"]].append("dragon")
        state["window"] = None
        if counter is None:  # X8/M6: the Star stands
            state["void"].extend(state["pot"] + played)
            state["pot"] = ["star"]
            record = self._record(state, "star_activated", None, {lead: "void", partner: "void"}, "void",
                                  N_("{seat} activates a Star: every card in play goes to the Void and the Star "
                                     "stays alone in the pot.").format(seat=owner))
        elif counter == "star":
            state["pot"].extend(played + ["star", "star"])
            record = self._record(state, "countered", None, {lead: "pot", partner: "pot"}, "stays",
                                  N_("{seat}'s Star is cancelled by {other}'s Star: both Stars and the played "
                                     "cards join the pot.").format(seat=owner, other=by[0]))
        else:
            state["pot"].extend(played + ["star"])
            state["void"].extend(["dragon", "dragon"])
            owners = list(dict.fromkeys(by))
            if len(owners) == 1:  # M5: one player countering alone with both Dragons
                text = N_("{seat}'s Star is cancelled by two Dragons ({other}): the Star and the played cards "
                          "join the pot, the Dragons go to the Void.").format(seat=owner, other=owners[0])
            else:
                text = N_("{seat}'s Star is cancelled by two Dragons ({first} and {second}): the Star and the "
                          "played cards join the pot, the Dragons go to the Void.").format(
                              seat=owner, first=owners[0], second=owners[1])
            record = self._record(state, "countered", None, {lead: "pot", partner: "pot"}, "stays", text)
        record["reaction"] = {"star": owner, "counter": counter, "by": by}
        self._end_hand(state, rng, record)
