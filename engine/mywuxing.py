"""MyWuXing: the Five Elements card game for 2–8 players (rulebook 002, RULES.md §3, rulings X1–X9).

Both versions are here: Learn WuXing (no decisions: the two players of a hand press ``reveal`` and the top
cards of their decks meet the Universe card) and Think WuXing (a hidden hand of two, a secret choice revealed
together, the Universe or a player directly, table options 1/2/3 for who leads), with Power Card Activation
as a Think table option (a reaction window for Destructive Stars and both counters of X8).

Cards are the plain words ``wood fire earth metal water dragon star``. A deck's top is index 0, its bottom
the end of the list; the pot's top is its last card.

Flow of one hand (X3): the top Universe card is turned onto the pot (this is U). If U is a Star, every other
pot card goes to the Void at once. Then the lead and a partner each put out one card:

* Learn (X6): the partner is the next active player clockwise; both press ``reveal`` (their top deck card).
* Think (X7): everyone's hand is refilled to two from their deck, the lead names the target
  (``universe with <seat>`` or ``against <seat>``), then both choose a card secretly (``play``/``add``/
  ``discard <card>``); the choices are revealed together when both have chosen.
* Power Card Activation (X8, Think only): after the reveal every other active player answers ``pass`` or
  ``activate star``; after an activation everyone but the Star's owner answers ``pass``, ``counter with
  star``, ``counter with dragon`` or ``counter with 2 dragons``. The engine has no clock: when the table's
  reaction time runs out, the front end sends ``pass`` for every player who has not answered.

Decisions beyond RULES.md (a player of the physical game would expect these; each is tested):

* M1 Every hand turns a Universe card, also a hand the lead plays against a player directly: the card simply
  stays in the pot ("each play begins with a card being released").
* M2 Think: U is shown before the lead chooses. When U is a Dragon or a Star the hand must be played with the
  Universe (its rule forces both players to give a card): the lead only picks the partner (``universe with
  <seat>``); under option 1 there is nothing to pick and the hand goes straight to the choice of card.
  The choice of card is then ``add <card>`` (U Dragon: to the pot) or ``discard <card>`` (U Star: to the Void).
* M3 Think: at the start of every hand every active player's hand is refilled to two cards from their deck
  (so a reacting player holds two cards too). Won cards go under the deck, never into the hand.
* M4 The reaction window opens for hands whose two played cards meet the Universe element or each other
  (X4 and player-against-player hands); Universe Dragon and Star hands are forced and get no window.
* M5 Counters may come from any active player but the Star's owner, the two players of the hand included
  (with the card left in their hand). Answers are taken in the order they arrive: the first Star activated
  opens the counter window; a counter Star, or the second Dragon, settles it at once. A pledged Dragon that
  is not joined by a second one returns to its owner's hand when the window closes. A player holding two
  Dragons may counter alone with both.
* M6 An activated Star that stands sends all cards in play (pot and both played cards) to the Void, as in
  X8; in a player-against-player hand the pot is in play too ("all cards in play include those in the
  Universe Pot"). A hand stopped by an activated Star, or cancelled by a counter, has no winner.
* M7 The hand's winner (for option 3, and option 2 when the partner is out): the one who absorbs, destroys,
  wins with a Dragon or plays the lone Star (X4/X7). Draws, "each card on its own" and forced Universe
  Dragon/Star hands have no winner, and the lead passes to the next active player clockwise.
* M8 ``recycle`` (X9): when the Universe deck is empty at the start of a hand the Void is shuffled into a new
  Universe deck while fewer than HAND_LIMIT (100) hands have been played and the Void is not empty;
  otherwise the game ends by ``count``.
* M9 If the last hand knocks out every remaining player at once, those players share the win (all at 0).
* M10 In Learn the first ``reveal`` takes the top card off the deck but shows it only when the partner
  reveals too, like Think's choices, so both cards meet the Universe together.
* M11 Scores are the cards a player holds (deck and hand); the Void and the pot belong to nobody. Ties are
  shared (X9: no tie-breaker).
* M12 A lone ``counter with dragon`` is offered only while it may still be matched: a Dragon is already
  pledged, or another player may still answer.
* M13 ``reaction_time`` defaults to 86400 seconds (a day), for tables that play across a day; shorter
  choices suit live play. ``power_cards: on`` with Learn is refused when the game is created.
"""

from __future__ import annotations

from collections import Counter

from i18n import N_

from . import register
from .core import Game, IllegalAction, summary_text

# The deck and the showdowns live in engine/mywuxing_cards.py; engine.mywuxing names them as before.
from .mywuxing_cards import (  # noqa: F401
    CARD_TITLES,
    CARD_WORDS,
    CARDS,
    CHOICE_VERBS,
    DEAL,
    DECK_COUNTS,
    EACH_ON_ITS_OWN,
    HAND_LIMIT,
    HAND_SIZE,
    POWER,
    Showdowns,
    full_deck,
    title,
)
from .rng import Rng

# What a player answers in a counter window, as the log tells it (X8).
ANSWERS = {
    "counter with star": N_("{seat} answers: counter with star."),
    "counter with dragon": N_("{seat} answers: counter with dragon."),
    "counter with 2 dragons": N_("{seat} answers: counter with 2 dragons."),
}


def cards_in_game(state) -> Counter:
    """Every card wherever it lies (for the check that all 52 are accounted for)."""
    found = Counter(state["universe"]) + Counter(state["pot"]) + Counter(state["void"])
    for seat in state["seats"]:
        found += Counter(state["decks"][seat]) + Counter(state["hands"][seat])
    found += Counter(state["chosen"].values()) + Counter(state["revealed"].values())
    if state["window"]:
        found += Counter(p["card"] for p in state["window"]["played"])
    return found


class MyWuXing(Showdowns, Game):
    key = "mywuxing"
    title = "MyWuXing"
    min_players = 2
    max_players = 8
    # M13: the reaction window lasts a day by default (tables play across a day); shorter ones for live play
    options = {"version": "learn", "think_option": 1, "power_cards": "off", "end": "count",
               "reaction_time": 86400}
    option_choices = {"version": ["learn", "think"], "think_option": [1, 2, 3], "power_cards": ["off", "on"],
                      "end": ["count", "recycle"],
                      "reaction_time": [10, 15, 20, 30, 45, 60, 90, 120, 300, 3600, 43200, 86400]}

    def check_options(self, options):
        """X8: Power Card Activation is a Think WuXing option; asking for it with Learn is refused."""
        merged = super().check_options(options)
        if merged["power_cards"] == "on" and merged["version"] != "think":
            raise IllegalAction("Power cards (power_cards: on) are played only in Think WuXing: set version "
                                "to think, or power_cards to off.")
        return merged

    # ----- setting up ------------------------------------------------------------------------------------
    def setup(self, state, rng):
        seats = state["seats"]
        deck = full_deck()
        rng.shuffle(deck)
        n = DEAL[len(seats)]
        state.update(
            decks={s: deck[i * n:(i + 1) * n] for i, s in enumerate(seats)},
            hands={s: [] for s in seats},
            universe=deck[len(seats) * n:],
            pot=[], void=[], out=[],
            lead=seats[0], partner=None, mode=None, u=None, phase="start",
            chosen={}, revealed={}, window=None,
            hand_number=0, hands_played=0, recycles=0,
            last=None, last_hand=None, end=None,
        )
        self._start_hand(state, rng)

    # ----- small queries ---------------------------------------------------------------------------------
    @staticmethod
    def _think(state) -> bool:
        return state["options"]["version"] == "think"

    @staticmethod
    def _power(state) -> bool:
        return state["options"]["version"] == "think" and state["options"]["power_cards"] == "on"

    @staticmethod
    def cards_held(state, seat) -> int:
        return len(state["decks"][seat]) + len(state["hands"][seat])

    def active(self, state) -> list[str]:
        return [s for s in state["seats"] if s not in state["out"]]

    def clockwise_from(self, state, seat) -> list[str]:
        """The other active players in clockwise (seat) order, starting after ``seat``."""
        seats = state["seats"]
        i = seats.index(seat)
        order = seats[i + 1:] + seats[:i]
        return [s for s in order if s not in state["out"]]

    def next_active(self, state, seat):
        following = self.clockwise_from(state, seat)
        return following[0] if following else None

    # ----- the flow of hands -----------------------------------------------------------------------------
    def _start_hand(self, state, rng) -> None:
        """X3/X9: check the end, refill hands (Think), turn the Universe card and set up the hand."""
        state.update(partner=None, mode=None, u=None, chosen={}, revealed={}, window=None)
        if len(self.active(state)) <= 1:
            self._finish(state, "last_standing")
            return
        if not state["universe"]:
            if (state["options"]["end"] == "recycle" and state["void"]
                    and state["hands_played"] < HAND_LIMIT):  # M8
                state["universe"], state["void"] = state["void"], []
                rng.shuffle(state["universe"])
                state["recycles"] += 1
            else:
                self._finish(state, "count")
                return
        if self._think(state):  # M3
            for seat in self.active(state):
                hand, deck = state["hands"][seat], state["decks"][seat]
                while len(hand) < HAND_SIZE and deck:
                    hand.append(deck.pop(0))
        u = state["universe"].pop(0)
        state["pot"].append(u)
        if u == "star":  # X3: the Star clears the pot at once and stays as its only card
            state["void"].extend(state["pot"][:-1])
            state["pot"] = ["star"]
        state["u"] = u
        state["hand_number"] += 1
        lead = state["lead"]
        if not self._think(state):  # X6
            state.update(partner=self.next_active(state, lead), mode="universe", phase="choose")
        elif u in POWER and state["options"]["think_option"] == 1:  # M2: nothing to choose
            state.update(partner=self.next_active(state, lead), mode="universe", phase="choose")
        else:
            state["phase"] = "target"

    def _finish(self, state, reason: str, knocked_out=()) -> None:
        state["phase"] = "over"
        active = self.active(state)
        if reason == "count":
            best = max(self.cards_held(state, s) for s in active)
            winners = [s for s in active if self.cards_held(state, s) == best]
        elif active:
            winners = active
        else:  # M9
            winners = list(knocked_out) or list(state["out"][-1:])
        state["end"] = {"reason": reason, "winners": winners}

    def _end_hand(self, state, rng, record: dict) -> None:
        """After any hand: record it, knock out empty players (X5), pass the lead (X6/X7), start the next."""
        lead, partner, winner = state["lead"], state["partner"], record.get("winner")
        knocked = [s for s in self.active(state) if self.cards_held(state, s) == 0]
        state["out"].extend(knocked)
        record["out"] = knocked
        record["gained"] = {s: n for s, n in record.get("gained", {}).items() if n}
        state["last_hand"] = record
        state["hands_played"] += 1
        if len(self.active(state)) <= 1:
            state.update(chosen={}, revealed={}, window=None)
            self._finish(state, "last_standing", knocked)
            return
        state["lead"] = self._next_lead(state, lead, partner, winner)
        self._start_hand(state, rng)

    def _next_lead(self, state, lead, partner, winner):
        def active(s):
            return s is not None and s not in state["out"]

        if not self._think(state):  # X6: the partner leads next
            return partner if active(partner) else self.next_active(state, partner)
        option = state["options"]["think_option"]
        if option == 2 and active(partner):
            return partner
        if option in (2, 3) and active(winner):
            return winner
        return self.next_active(state, lead)

    # ----- reading the game ------------------------------------------------------------------------------
    def to_act(self, state):
        phase = state["phase"]
        if phase == "target":
            return [state["lead"]]
        if phase == "choose":
            return [s for s in (state["lead"], state["partner"]) if s not in state["chosen"]]
        if phase in ("react", "counter"):
            w = state["window"]
            return [s for s in w["members"] if s not in w["answered"]]
        return []

    def waiting_message(self, state, seat):
        if seat in state["out"]:
            return N_("You are out of this game: you have no cards left.")
        phase = state["phase"]
        if phase == "choose" and seat in state["chosen"]:
            return N_("You have already chosen; waiting for the other player of this hand.")
        if phase in ("react", "counter") and seat in state["window"]["answered"]:
            return N_("You have already answered; waiting for the others.")
        if phase == "target":
            return N_("{lead} is choosing whom to play this hand.").format(lead=state["lead"])
        if phase == "choose":
            return N_("This hand is between {lead} and {partner}.").format(lead=state["lead"],
                                                                            partner=state["partner"])
        return N_("It is not your turn.")

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "target":
            return self._target_actions(state)
        if phase == "choose":
            if not self._think(state):
                return ["reveal"]
            hand = state["hands"][seat]
            verb = self._choice_verb(state)
            return [f"{verb} {c}" for c in CARDS if c in hand]
        hand = state["hands"][seat]
        actions = ["pass"]
        if phase == "react":
            if "star" in hand:
                actions.append("activate star")
            return actions
        if "star" in hand:
            actions.append("counter with star")
        if "dragon" in hand and self._dragon_may_be_matched(state, seat):
            actions.append("counter with dragon")
        if "dragon" in hand:
            if hand.count("dragon") >= 2 and not state["window"]["dragons"]:
                actions.append("counter with 2 dragons")
        return actions

    @staticmethod
    def _dragon_may_be_matched(state, seat) -> bool:
        """M12 (X8: two Dragons cancel a Star): a lone Dragon counters only with a second one, so it is offered
        when a Dragon is already pledged or someone else may still answer; when ``seat`` is the last to answer
        and nobody pledged one, it could never be matched and is not offered (public facts only)."""
        window = state["window"]
        return bool(window["dragons"]) or any(s != seat and s not in window["answered"] for s in window["members"])

    def _target_actions(self, state):
        lead = state["lead"]
        if state["options"]["think_option"] == 1:
            others = [self.next_active(state, lead)]
        else:
            others = self.clockwise_from(state, lead)
        actions = [f"universe with {s}" for s in others]
        if state["u"] not in POWER:  # M2
            actions += [f"against {s}" for s in others]
        return actions

    def _choice_verb(self, state) -> str:
        return CHOICE_VERBS.get(state["u"], "play")

    # Decks (their order and, for others, their cards), the Universe deck, other hands and face-down cards:
    # any change there reveals or draws a card, with no random event (so the generator does not show it).
    # Only the lead's choice of target changes none of them.
    hidden_keys = ("decks", "hands", "universe", "chosen")

    def resample(self, state, seat, rng):
        """Deal again every card ``seat`` cannot see (all decks, its own too: they lie face down; the
        Universe deck; other hands; face-down cards, its own too in Learn, M10), keeping every pile's size.
        What ``seat`` saw go under a deck earlier is not remembered: only the view now is kept."""
        own_choice = self._think(state) and seat in state["chosen"]
        others = [s for s in state["seats"] if s != seat]
        hidden_chosen = [s for s in state["chosen"] if not (own_choice and s == seat)]
        piles = ([state["decks"][s] for s in state["seats"]] + [state["universe"]]
                 + [state["hands"][s] for s in others])
        pool = [c for pile in piles for c in pile] + [state["chosen"][s] for s in hidden_chosen]
        pool.sort()         # dealt from a canonical order: the deal depends on the view only, not on the truth
        rng.shuffle(pool)
        for pile in piles:
            pile[:], pool = pool[:len(pile)], pool[len(pile):]
        for s in hidden_chosen:
            state["chosen"][s] = pool.pop()

    def time_limit(self, state):
        """X8: a reaction window closes when its reaction time runs out; whoever has not answered passes."""
        if state["phase"] in ("react", "counter"):
            return {"seconds": int(state["options"]["reaction_time"]), "action": "pass"}
        return None

    def private_actions(self, state, seat):
        """Think choices list the hand; window answers show whether one holds a Star or Dragon, so every
        window member is asked privately (X8: nobody learns who holds a Star)."""
        phase = state["phase"]
        return (phase == "choose" and self._think(state)) or phase in ("react", "counter")

    def result(self, state):
        if state["phase"] != "over":
            return None
        scores = {s: self.cards_held(state, s) for s in state["seats"]}
        return {"winners": list(state["end"]["winners"]), "scores": scores, "reason": state["end"]["reason"],
                "out": list(state["out"])}

    def view(self, state, viewer):
        """Counts only for decks, hands and the Universe deck; the viewer's own hand and secret choice."""
        window = state["window"]
        v = {
            "seats": list(state["seats"]),
            "to_act": self.to_act(state),
            "phase": state["phase"],
            "version": state["options"]["version"],
            "options": dict(state["options"]),
            "universe": len(state["universe"]),
            "pot": list(state["pot"]),
            "void": list(state["void"]),
            "universe_card": state["u"],
            "players": {s: {"deck": len(state["decks"][s]), "hand": len(state["hands"][s]),
                            "out": s in state["out"], "chosen": s in state["chosen"]}
                        for s in state["seats"]},
            "lead": state["lead"],
            "partner": state["partner"],
            "mode": state["mode"],
            "revealed": dict(state["revealed"]),
            "window": None if window is None else {
                "kind": window["kind"], "members": list(window["members"]),
                "answered": list(window["answered"]), "star": window["star"],
                "dragons": list(window["dragons"])},
            "last": state["last"],
            "last_hand": state["last_hand"],
            "hand_number": state["hand_number"],
            "hands_played": state["hands_played"],
            "recycles": state["recycles"],
            "result": self.result(state),
        }
        if viewer in state["seats"]:
            v["hand"] = list(state["hands"][viewer])
            # M10: in Learn the card is face down until both reveal, for its owner too
            v["my_choice"] = state["chosen"].get(viewer) if self._think(state) else None
        return v

    # ----- changing the game -----------------------------------------------------------------------------
    def play(self, state, seat, action):
        legal = self.legal_actions(state, seat)
        if action not in legal:
            self._refuse(state, action)
        rng = Rng(state)
        phase = state["phase"]
        public = action
        if phase == "target":
            self._play_target(state, action)
        elif phase == "choose":
            public = self._play_choice(state, rng, seat, action)
        elif phase == "react":
            self._play_react(state, rng, seat, action)
        else:
            self._play_counter(state, rng, seat, action)
        state["last"] = {"seat": seat, "action": public, "hand": state["hands_played"]}

    def _refuse(self, state, action: str):
        """Why ``action`` is not allowed now (each refusal a literal template, translated where shown)."""
        phase = state["phase"]
        if phase == "target":
            raise IllegalAction("Choose the hand's target: 'universe with <player>' or 'against <player>' "
                                "(against a player only when the Universe card is an element).")
        if phase == "choose":
            if not self._think(state):
                raise IllegalAction("In Learn WuXing you only press 'reveal'.")
            raise IllegalAction("Choose a card from your hand: '{verb} <card>'.", verb=self._choice_verb(state))
        if phase == "react":
            raise IllegalAction("Answer 'pass', or 'activate star' if you hold a Destructive Star.")
        if action == "counter with dragon" and state["window"] and not state["window"]["dragons"]:
            raise IllegalAction("Nobody else can still add a second Dragon, and one Dragon alone does not cancel "
                                "the Star: answer 'pass' (or 'counter with 2 dragons' if you hold two, or "
                                "'counter with star').")
        raise IllegalAction("Answer 'pass', or counter the Star: 'counter with star', 'counter with dragon' "
                            "(two Dragons are needed) or 'counter with 2 dragons'.")

    def _play_target(self, state, action: str) -> None:
        words = action.split()
        if words[0] == "universe":
            state.update(mode="universe", partner=" ".join(words[2:]))
        else:
            state.update(mode="player", partner=" ".join(words[1:]))
        state["phase"] = "choose"

    def _play_choice(self, state, rng, seat, action) -> str:
        if self._think(state):
            verb, card = action.split()
            state["hands"][seat].remove(card)
            public = verb
        else:
            card = state["decks"][seat].pop(0)
            public = "reveal"
        state["chosen"][seat] = card
        if len(state["chosen"]) == 2:
            self._reveal(state, rng)
        return public

    def _reveal(self, state, rng) -> None:
        lead, partner = state["lead"], state["partner"]
        state["revealed"] = {lead: state["chosen"][lead], partner: state["chosen"][partner]}
        state["chosen"] = {}
        u = state["u"]
        if u == "dragon":
            self._end_hand(state, rng, self._resolve_universe_dragon(state))
        elif u == "star":
            self._end_hand(state, rng, self._resolve_universe_star(state))
        elif self._power(state) and self._open_window(state, "react", [
                s for s in self.clockwise_from(state, lead) if s != partner]):
            return
        else:
            self._end_hand(state, rng, self._resolve(state, rng))

    def _resolve(self, state, rng) -> dict:
        if state["mode"] == "universe":
            return self._resolve_universe_element(state, rng)
        return self._resolve_player(state, rng)

    # ----- the log ---------------------------------------------------------------------------------------
    # Every sentence below comes from one marked template; a log line is several of them joined by spaces, so
    # the edge translates it sentence by sentence (i18n.line).
    def summary(self, view: dict) -> str:
        """Alt text (#16): the last hand's outcome, the cards each player holds, the Universe, pot and Void."""
        last = (view.get("last_hand") or {}).get("text")
        held = {s: (N_("{n} cards (out)") if p["out"] else N_("{n} cards")).format(n=p["deck"] + p["hand"])
                for s, p in view["players"].items()}
        counts = {"universe": view["universe"], "pot": len(view["pot"]), "void": len(view["void"])}
        if view.get("lead") and view["phase"] != "over":
            extra = N_("Universe {universe} cards, pot {pot}, Void {void}; this hand {lead} leads.").format(
                lead=view["lead"], **counts)
        else:
            extra = N_("Universe {universe} cards, pot {pot}, Void {void}.").format(**counts)
        return summary_text(self.title, view, last=last, scores=held, extra=extra)

    def describe(self, before, seat, action, after):
        phase = before["phase"]
        if phase == "target":
            if action.split()[0] == "universe":
                return N_("{seat} plays the Universe's {card} with {partner}.").format(
                    seat=seat, card=title(before["u"]), partner=after["partner"])
            return N_("{seat} plays {partner} directly.").format(seat=seat, partner=after["partner"])
        if phase == "choose":
            if after["hands_played"] == before["hands_played"] and not after["revealed"]:
                head = N_("{seat} reveals.") if not self._think(before) else N_("{seat} has chosen a card.")
                return head.format(seat=seat)
            head = N_("{seat} reveals.") if not self._think(before) else N_("{seat} chooses.")
        elif phase == "react":
            head = N_("{seat} passes.") if action == "pass" else N_("{seat} activates a Destructive Star!")
        else:
            head = N_("{seat} passes.") if action == "pass" else ANSWERS[action]
        sentences = [head.format(seat=seat)]
        if after["revealed"] and not before["revealed"]:
            sentences.append(self._revealed_text(after["revealed"]))
            if after["phase"] == "react":
                sentences.append(N_("Everyone else may react."))
        if after["hands_played"] > before["hands_played"]:
            hand = after["last_hand"]
            if before["phase"] == "choose":
                sentences.append(self._revealed_text(hand["cards"]))
            sentences.append(hand["text"])
            if hand["out"]:
                sentences.append(N_("Out of cards: {seats}.").format(seats=", ".join(hand["out"])))
            sentences.append(self._next_text(after))
        return " ".join(sentences)

    @staticmethod
    def _revealed_text(cards: dict) -> str:
        (first, first_card), (second, second_card) = cards.items()  # the lead's card, then the partner's
        return N_("Revealed: {first} {first_card}, {second} {second_card}.").format(
            first=first, first_card=title(first_card), second=second, second_card=title(second_card))

    def _next_text(self, state) -> str:
        if state["phase"] == "over":
            winners = self.result(state)["winners"]
            if len(winners) == 1:
                return N_("Game over: {winner} wins.").format(winner=winners[0])
            if len(winners) == 2:
                return N_("Game over: {first} and {second} win.").format(first=winners[0], second=winners[1])
            # three or more share the win (a tie on the count): the last name takes the rest of the list
            return N_("Game over: {first} and {second} and {third} win.").format(
                first=winners[0], second=winners[1], third=" and ".join(winners[2:]))
        return N_("Next hand: {lead} leads; the Universe turns up {card}.").format(
            lead=state["lead"], card=title(state["u"]))


GAME = register(MyWuXing())
