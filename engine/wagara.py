"""Wagara: canoes on a flowing river, gems carried to the beach (rulebook 001, RULES.md §2, G1–G10).

Every round each player secretly chooses a paddle card (1–6 or the Cloud). Then, from the buoy holder
clockwise, each reveals it and acts: the Cloud moves the weather marker, a number n gives each of that
player's canoes exactly n points to paddle, load and unload. At the round's end the river flows by the
lowest number revealed plus the weather; canoes carried past position 9 fall into the rapids. The game ends
after a round in which someone has collected 5 different colours, 4 of one colour or 7 gems.

The river (G1): positions 1 (at the rope) .. 9 (at the falls); the beach is upstream of position 1 and
counts as one step from it. Deposits lie beside positions 3 violet, 4 white, 5 yellow, 6 blue, 7 red.

Actions (canonical texts; ``legal_actions`` lists them all):
    play <card>                         phase 1, secret: ``play 3``, ``play cloud``
    recover canoe <i>, pay <colour>     start of one's action: a canoe from the rapids to the beach
    weather <value>                     Cloud: the marker's new value, ``weather +2`` .. ``weather -1``
    canoe <i>: <part>, <part>, ...      number card: one canoe's whole move for the round
    end turn                            number card: once every canoe on the river has moved, finish
                                        without launching (optional) or recovering (optional)
A canoe's parts, in this order: loading/unloading at the start ``unload``, ``load <colour>``; then at most
one movement ``up <k>``, ``down <k>``, ``land`` (paddle up to the beach and deliver) or, for a canoe on the
beach, ``launch to <position>``; then ``unload`` / ``load <colour>`` at the end, or ``steal <colour>``
(``steal <colour> from <seat>`` when canoes of several players there carry that colour). Examples:
``canoe 1: unload, up 3, steal red``, ``canoe 2: launch to 3, load violet``, ``canoe 1: load blue, land``.

Decisions this module makes where RULES.md and the rulebook are silent:
- The first buoy holder is drawn at random (players at a table pick a start player so).
- Cards are the strings "1".."6" and "cloud". A player who holds a single card (the seventh round of a
  cycle) has it chosen for them: everybody knows which card it is, so nothing secret is given away.
- A deposit is a place, not a colour: unloading puts the gem into the deposit beside the canoe's position
  whatever its colour (G4: "unloading may go into any deposit"), so a deposit can hold several colours and
  loading there chooses among them (the rulebook: "se ci sono più tipi di gemme c'è libertà di scelta").
  Gems going back after the falls or a recovery payment return to the deposit of their own colour (G4, G5).
- At each end of a move a canoe unloads at most once and loads at most once, unloading first; loading and
  then unloading at the same place would change nothing but burn points, so it is refused. With no steps
  the loading and unloading happen at one place and count as the start of the move.
- Only positions with a deposit (3–7) allow loading and unloading.
- Landing is ``land``: the canoe paddles upstream all the way to the beach. ``up <k>`` must stop on the
  river (k less than the position). A canoe carrying a gem may land with points left (they are lost); an
  empty canoe lands only with its last point (G10).
- G9: a gem one of a player's canoes unloaded this turn may not be loaded by the other. Gems of a colour at
  a deposit look alike, so the other canoe may still load as many of that colour as lay there besides.
- Stealing ends a canoe's move: the canoe must arrive empty (it may unload before paddling, G4) and does
  nothing after the theft. It needs at least one step upstream and the victim must be on the final
  position (never one passed over).
- The free recovery (both canoes in the rapids, no gems) happens by itself when the player's action
  starts: taking the canoe back can never hurt. The paid recovery is optional, one canoe per action, and
  only before any other action of that turn.
- A canoe that landed this round stays on the beach: it has moved. A canoe recovered this round may be
  launched (still one launch per round).
- The end (G7) is checked once the river has flowed. ``scores`` are the gems collected; ``values`` their
  total value; winners come only from the players who qualify.
- ``view()["deposits"]`` is the number of gems lying at each deposit (all colours), ``deposit_gems`` the
  colours in each.
"""

from __future__ import annotations

import re

from i18n import N_, W_  # marks only: the engine writes English, the edge translates what it shows

from . import register
from .core import Game, IllegalAction, State, lower, read_number, summary_text
from .rng import Rng

# The river's data and a canoe's move live in engine/wagara_river.py; engine.wagara names them as before.
from .wagara_river import (  # noqa: F401
    CANOES_PER_PLAYER,
    CARDS,
    CLOUD,
    COLOURS,
    GEM_VALUE,
    GEMS_PER_COLOUR,
    RIVER_LENGTH,
    SITE_AT,
    SITE_POSITION,
    UNLOAD,
    WEATHER_MAX,
    WEATHER_MIN,
    Canoes,
    Move,
    parse_move,
)


def weather_text(value: int) -> str:
    return f"{value:+d}" if value else "0"


def qualifies(collection: dict) -> bool:
    """G7: five different colours, four of one colour, or seven gems."""
    counts = [collection[c] for c in COLOURS]
    return sum(1 for n in counts if n) == 5 or max(counts) >= 4 or sum(counts) >= 7


def _score_text(gems: int, value: int, qualified: bool) -> str:
    """A player's final count, e.g. '3 gems (value 9)' or '1 gem (value 5), not qualified'."""
    if qualified:
        template = N_("{n} gem (value {value})") if gems == 1 else N_("{n} gems (value {value})")
    else:
        template = (N_("{n} gem (value {value}), not qualified") if gems == 1
                    else N_("{n} gems (value {value}), not qualified"))
    return template.format(n=gems, value=value)


def collection_value(collection: dict) -> int:
    return sum(GEM_VALUE[c] * collection[c] for c in COLOURS)



# ----- the game ----------------------------------------------------------------------------------------------

class Wagara(Canoes, Game):
    key = "wagara"
    title = "Wagara"
    min_players = 2
    max_players = 5
    options: dict = {}
    option_choices: dict = {}

    # ----- setting up --------------------------------------------------------------------------------------
    def setup(self, state: State, rng: Rng) -> None:
        seats = state["seats"]
        state.update(
            round=0,
            phase="choose",
            buoy=rng.choice(seats),
            weather=0,                                                     # G2
            sites={site: {c: (GEMS_PER_COLOUR if c == site else 0) for c in COLOURS} for site in COLOURS},
            collections={s: {c: 0 for c in COLOURS} for s in seats},
            piles={s: [] for s in seats},
            choices={},
            round_cards={},
            order=[],
            actor=None,
            turn=None,
            canoes=[{"owner": s, "number": i + 1, "where": "beach", "position": None, "gem": None}
                    for s in seats for i in range(CANOES_PER_PLAYER)],
            last={"seat": None, "action": None, "events": []},
            last_flow=None,
            over=False,
        )
        self._start_round(state, state["last"]["events"])

    # ----- reading -----------------------------------------------------------------------------------------
    def to_act(self, state: State) -> list[str]:
        if state["over"]:
            return []
        if state["phase"] == "choose":
            return [s for s in state["seats"] if s not in state["choices"]]
        return [state["actor"]]

    def waiting_message(self, state: State, seat: str) -> str:
        if state["phase"] == "choose":
            return N_("You have chosen your paddle card; waiting for the others to choose theirs.")
        return N_("It is not your turn: players act in order from the buoy holder.")

    def private_actions(self, state: State, seat: str) -> bool:
        return state["phase"] == "choose" and not state["over"]

    def reveals(self, before: State, after: State) -> bool:
        """G3/G4: a face-down paddle card comes to light when its player's turn starts (so the action that
        ends the turn before it reveals it). A player's only card left is no secret: everybody counts the
        played pile. Nothing else in Wagara is hidden."""
        secret = [s for s in before["choices"] if len(before["piles"][s]) < len(CARDS) - 1]
        return any(after["round"] != before["round"] or s not in after["choices"] for s in secret)

    def resample(self, state: State, seat: str | None, rng: Rng) -> None:
        """Every face-down card but ``seat``'s own is drawn again from its player's hand (G3)."""
        for s in state["choices"]:
            if s != seat:
                state["choices"][s] = rng.choice([c for c in CARDS if c not in state["piles"][s]])

    def hand(self, state: State, seat: str) -> list[str]:
        """The cards ``seat`` may still choose from (G3): not in the played pile, not chosen this round."""
        used = set(state["piles"][seat])
        if seat in state["choices"]:
            used.add(state["choices"][seat])
        return [c for c in CARDS if c not in used]

    def legal_actions(self, state: State, seat: str) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "choose":
            return [f"play {c}" for c in self.hand(state, seat)]
        turn = state["turn"]
        actions = [f"recover canoe {n}, pay {c}" for n, c in self._recover_options(state, seat)]
        if turn["card"] == CLOUD:
            return actions + [f"weather {weather_text(w)}" for w in self._weather_options(state)]
        for idx in self._canoe_indices(state, seat):
            actions += [m.text() for m in self.canoe_moves(state, idx)]
        if not self._unmoved_river(state, seat):
            actions.append("end turn")
        return actions

    def result(self, state: State) -> dict | None:
        if not state["over"]:
            return None
        cols = state["collections"]
        scores = {s: sum(cols[s].values()) for s in state["seats"]}
        values = {s: collection_value(cols[s]) for s in state["seats"]}
        qualified = [s for s in state["seats"] if qualifies(cols[s])]
        best = max((scores[s], values[s]) for s in qualified)
        winners = [s for s in qualified if (scores[s], values[s]) == best]
        # G7: the qualifying players first (most gems, then value), then the others: a player with more gems
        # who did not qualify still ranks below every qualifier
        ranking = sorted(state["seats"], key=lambda s: (s not in qualified, -scores[s], -values[s]))
        score_text = {s: _score_text(scores[s], values[s], s in qualified) for s in state["seats"]}
        return {"winners": winners, "scores": scores, "values": values, "qualified": qualified,
                "collections": {s: dict(cols[s]) for s in state["seats"]}, "ranking": ranking,
                "score_text": score_text,
                "note": N_("Only players holding 5 colours, 4 of one colour or 7 gems could win (G7).")}

    def view(self, state: State, viewer: str | None) -> dict:
        seats = state["seats"]
        turn = state["turn"]
        v = {
            "seats": list(seats),
            "to_act": self.to_act(state),
            "phase": "over" if state["over"] else state["phase"],
            "round": state["round"],
            "buoy": state["buoy"],
            "weather": state["weather"],
            "deposits": {site: sum(state["sites"][site].values()) for site in COLOURS},
            "deposit_gems": {site: dict(state["sites"][site]) for site in COLOURS},
            "deposit_positions": dict(SITE_POSITION),
            "collections": {s: dict(state["collections"][s]) for s in seats},
            "played": {s: list(state["piles"][s]) for s in seats},
            "this_round": {s: state["round_cards"].get(s) for s in seats},
            "chosen": {s: s in state["choices"] or s in state["round_cards"] for s in seats},
            "order": list(state["order"]),
            "actor": state["actor"],
            "turn": None if turn is None else {
                "seat": turn["seat"], "card": turn["card"], "moved": list(turn["moved"]),
                "launched": turn["launched"], "recovered": turn["recovered"]},
            "canoes": [dict(c) for c in state["canoes"]],
            "last": _public_last(state["last"]),
            "last_flow": state["last_flow"],
            "result": self.result(state),
        }
        if viewer in seats:
            v["my_choice"] = state["choices"].get(viewer)
            v["hand"] = self.hand(state, viewer)
        return v

    def describe(self, before: State, seat: str, action: str, after: State) -> str:
        return " ".join(_event_text(e, after) for e in after["last"]["events"]) or f"{seat}: {action}"

    def summary(self, view: dict) -> str:
        """Alt text (#16): the last events, the round and weather, the gems collected, whose turn."""
        last = " ".join(_event_text(e, view) for e in view["last"]["events"]
                        if e["type"] not in ("choose", "round", "game_over"))
        gems = {s: sum(view["collections"][s].values()) for s in view["seats"]}
        scores = {s: (N_("{n} gem") if n == 1 else N_("{n} gems")).format(n=n) for s, n in gems.items()}
        extra = N_("Round {round}, weather {weather}.").format(round=view["round"],
                                                               weather=weather_text(view["weather"]))
        return summary_text(self.title, view, last=last, extra=extra, scores=scores)

    # ----- acting ------------------------------------------------------------------------------------------
    def play(self, state: State, seat: str, action: str) -> None:
        events: list = []
        state["last"] = {"seat": seat, "action": None, "events": events}
        if state["phase"] == "choose":
            self._choose(state, seat, action, events)
            return
        state["last"]["action"] = action
        turn = state["turn"]
        lowered = lower(action)
        if lowered.startswith("recover"):
            self._recover(state, seat, lowered, events)
        elif lowered.startswith("weather"):
            self._weather(state, seat, lowered, events)
        elif lowered == "end turn":
            if turn["card"] == CLOUD:
                raise IllegalAction("You played the Cloud: move the weather marker with 'weather ...'.")
            if self._unmoved_river(state, seat):
                raise IllegalAction("Every canoe of yours on the river must move first.")
            events.append({"type": "end_turn", "seat": seat})
            self._end_turn(state, events)
        elif lowered.startswith("canoe"):
            self._move_canoe(state, seat, parse_move(action), events)
        else:
            raise IllegalAction(self._options_hint(state, seat))

    def _options_hint(self, state: State, seat: str) -> str:
        if state["turn"]["card"] == CLOUD:
            return N_("You played the Cloud: say e.g. 'weather +1'.")
        return N_("Move a canoe ('canoe 1: up 3', 'canoe 2: launch to 2'), 'recover canoe 1, pay red', "
                  "or 'end turn'.")

    # phase 1 (G3)
    def _choose(self, state: State, seat: str, action: str, events: list) -> None:
        words = lower(action).split()
        if len(words) != 2 or words[0] != "play" or words[1] not in CARDS:
            raise IllegalAction("Choose a paddle card with 'play 1' .. 'play 6' or 'play cloud'.")
        card = words[1]
        if card not in self.hand(state, seat):
            raise IllegalAction("Your card {card} is already in your played pile; choose another.", card=card)
        state["choices"][seat] = card
        events.append({"type": "choose", "seat": seat})
        if len(state["choices"]) == len(state["seats"]):
            self._begin_acting(state, events)

    def _start_round(self, state: State, events: list) -> None:
        state["round"] += 1
        state["phase"] = "choose"
        state["choices"], state["round_cards"], state["order"] = {}, {}, []
        state["actor"], state["turn"] = None, None
        events.append({"type": "round", "round": state["round"]})
        if any(len(state["piles"][s]) == len(CARDS) for s in state["seats"]):
            events.append({"type": "takeback"})
        for s in state["seats"]:
            if len(state["piles"][s]) == len(CARDS):          # G3: the whole pile comes back
                state["piles"][s] = []
            hand = self.hand(state, s)
            if len(hand) == 1:                                # the last card: no secret, no choice
                state["choices"][s] = hand[0]
        if len(state["choices"]) == len(state["seats"]):
            self._begin_acting(state, events)

    def _begin_acting(self, state: State, events: list) -> None:
        seats = state["seats"]
        first = seats.index(state["buoy"])
        state["phase"] = "act"
        state["order"] = seats[first:] + seats[:first]                  # G4: from the buoy, clockwise
        self._start_turn(state, state["order"][0], events)

    def _start_turn(self, state: State, seat: str, events: list) -> None:
        card = state["choices"].pop(seat)                                  # revealed only now (G4, G8)
        state["piles"][seat].append(card)
        state["round_cards"][seat] = card
        state["actor"] = seat
        state["turn"] = {"seat": seat, "card": card, "moved": [], "launched": False, "recovered": False,
                         "acted": False, "unloaded": []}
        events.append({"type": "reveal", "seat": seat, "card": card})
        mine = [state["canoes"][i] for i in self._canoe_indices(state, seat)]
        if all(c["where"] == "rapids" for c in mine) and not sum(state["collections"][seat].values()):
            mine[0]["where"] = "beach"                                     # G4: the free recovery
            state["turn"]["recovered"] = True
            events.append({"type": "free_recover", "seat": seat, "canoe": mine[0]["number"]})

    def _end_turn(self, state: State, events: list) -> None:
        order = state["order"]
        i = order.index(state["actor"])
        if i + 1 < len(order):
            self._start_turn(state, order[i + 1], events)
            return
        self._flow(state, events)
        if any(qualifies(state["collections"][s]) for s in state["seats"]):    # G7
            state["over"] = True
            state["phase"] = "over"
            state["actor"], state["turn"] = None, None
            events.append({"type": "game_over", "winners": self.result(state)["winners"]})
            return
        seats = state["seats"]
        state["buoy"] = seats[(seats.index(state["buoy"]) + 1) % len(seats)]      # G6
        events.append({"type": "buoy", "seat": state["buoy"]})
        self._start_round(state, events)

    # G5
    def _flow(self, state: State, events: list) -> None:
        numbers = [int(c) for c in state["round_cards"].values() if c != CLOUD]
        lowest = min(numbers) if numbers else 0
        k = max(0, lowest + state["weather"])
        fell = []
        for canoe in state["canoes"]:
            if canoe["where"] != "river":
                continue
            canoe["position"] += k
            if canoe["position"] > RIVER_LENGTH:
                gem = canoe["gem"]
                if gem:
                    state["sites"][gem][gem] += 1
                fell.append({"owner": canoe["owner"], "canoe": canoe["number"], "gem": gem})
                canoe.update(where="rapids", position=None, gem=None)
        flow = {"round": state["round"], "lowest": lowest, "weather": state["weather"], "k": k, "fell": fell}
        state["last_flow"] = flow
        events.append({"type": "flow"})                 # the details are in state["last_flow"]

    # recovery (G4)
    def _recover_options(self, state: State, seat: str) -> list[tuple[int, str]]:
        turn = state["turn"]
        if turn["acted"] or turn["recovered"]:
            return []
        wrecked = [c for c in (state["canoes"][i] for i in self._canoe_indices(state, seat)) if c["where"] == "rapids"]
        if not wrecked:
            return []
        return [(wrecked[0]["number"], c) for c in COLOURS if state["collections"][seat][c]]

    def _recover(self, state: State, seat: str, action: str, events: list) -> None:
        m = re.fullmatch(r"recover canoe ([0-9]+) ?, ?pay (\w+)", action, re.ASCII)
        if not m or read_number(m.group(1)) is None:
            raise IllegalAction("Recover with e.g. 'recover canoe 1, pay red'.")
        which, colour = read_number(m.group(1)), m.group(2)
        turn = state["turn"]
        canoe = self._own_canoe(state, seat, which)
        if canoe["where"] != "rapids":
            raise IllegalAction("Your canoe {number} is not in the rapids.", number=which)
        if turn["recovered"]:
            raise IllegalAction("You may bring back only one canoe from the rapids per turn.")
        if turn["acted"]:
            raise IllegalAction("A canoe comes back from the rapids only at the start of your action.")
        if colour not in COLOURS:
            raise IllegalAction("'{word}' is not a gem colour ({colours}).", word=colour, colours=", ".join(COLOURS))
        if not state["collections"][seat][colour]:
            raise IllegalAction("You have no {colour} gem to pay with.", colour=colour)
        state["collections"][seat][colour] -= 1
        state["sites"][colour][colour] += 1
        canoe.update(where="beach", position=None, gem=None)
        turn["recovered"] = True
        turn["acted"] = True
        events.append({"type": "recover", "seat": seat, "canoe": which, "paid": colour})
        if turn["card"] != CLOUD:
            self._maybe_end_turn(state, seat, events)

    # the Cloud (G4)
    def _weather_options(self, state: State) -> list[int]:
        w = state["weather"]
        return [x for x in (w + 1, w - 1) if WEATHER_MIN <= x <= WEATHER_MAX]

    def _weather(self, state: State, seat: str, action: str, events: list) -> None:
        if state["turn"]["card"] != CLOUD:
            raise IllegalAction("Only the Cloud moves the weather marker; you played a number: move your canoes.")
        words = action.split()
        options = {weather_text(w): w for w in self._weather_options(state)}
        if len(words) == 2 and words[1] in ("up", "down"):
            words[1] = weather_text(state["weather"] + (1 if words[1] == "up" else -1))
        if len(words) != 2 or words[1] not in options:
            now, allowed = weather_text(state["weather"]), [f"'weather {t}'" for t in options]
            if len(allowed) == 1:
                raise IllegalAction("The marker moves one step from {weather}: say {action}.", weather=now,
                                    action=allowed[0])
            raise IllegalAction("The marker moves one step from {weather}: say {action} or {other}.", weather=now,
                                action=allowed[0], other=allowed[1])
        old = state["weather"]
        state["weather"] = options[words[1]]
        events.append({"type": "weather", "seat": seat, "from": old, "to": state["weather"]})
        self._end_turn(state, events)

    # canoes (G4)
    def bot_actions(self, state: State, seat: str) -> list[str]:
        """A beginner's preferences: choosing uniformly among all legal actions never ends a game (canoes
        drift into the rapids and pay back their gems), so computer players keep to these. Cards: at
        least the position of a loaded canoe, so it can land. Cloud: calm the weather. Each canoe: land a
        gem, else carry one furthest upstream, else end holding a gem."""
        actions = self.legal_actions(state, seat)
        if not actions:
            return actions
        if state["phase"] == "choose":
            mine = [state["canoes"][i] for i in self._canoe_indices(state, seat)]
            need = [c["position"] for c in mine if c["where"] == "river" and c["gem"]]
            strong = [a for a in actions if need and a != "play cloud" and int(a.split()[1]) >= min(need)]
            return strong or actions
        if state["turn"]["card"] == CLOUD:
            calmer = [a for a in actions if a.startswith("weather") and int(a.split()[1]) < state["weather"]]
            weather = [a for a in actions if a.startswith("weather")]
            return [a for a in actions if a.startswith("recover")] + (calmer or weather) or actions
        keep = [a for a in actions if not a.startswith("canoe")]
        for idx in self._canoe_indices(state, seat):
            moves = self.canoe_moves(state, idx)
            if moves:
                keep += [m.text() for m in _preferred(state["canoes"][idx], moves)]
        return [a for a in keep if a in actions] or actions

    def _canoe_indices(self, state: State, seat: str) -> list[int]:
        first = state["seats"].index(seat) * CANOES_PER_PLAYER
        return list(range(first, first + CANOES_PER_PLAYER))

    def _own_canoe(self, state: State, seat: str, number: int) -> dict:
        if not 1 <= number <= CANOES_PER_PLAYER:
            raise IllegalAction("You have canoes 1 and 2; there is no canoe {number}.", number=number)
        return state["canoes"][self._canoe_indices(state, seat)[number - 1]]

    def _unmoved_river(self, state: State, seat: str) -> list[dict]:
        moved = state["turn"]["moved"]
        return [c for c in (state["canoes"][i] for i in self._canoe_indices(state, seat))
                if c["where"] == "river" and c["number"] not in moved]

    def _maybe_end_turn(self, state: State, seat: str, events: list) -> None:
        """The turn ends by itself once nothing is left to decide: every river canoe has moved and no
        launch remains possible."""
        turn = state["turn"]
        if self._unmoved_river(state, seat):
            return
        can_launch = not turn["launched"] and any(
            c["where"] == "beach" and c["number"] not in turn["moved"]
            for c in (state["canoes"][i] for i in self._canoe_indices(state, seat)))
        if not can_launch:
            self._end_turn(state, events)

def _public_last(last: dict) -> dict:
    return {"seat": last["seat"], "action": last["action"], "events": [dict(e) for e in last["events"]]}


def _event_text(e: dict, state: State) -> str:
    t = e["type"]
    if t == "choose":
        return N_("{seat} chooses a paddle card.").format(seat=e["seat"])
    if t == "reveal":
        if e["card"] == CLOUD:
            return N_("{seat} reveals the Cloud.").format(seat=e["seat"])
        return N_("{seat} reveals {card}.").format(seat=e["seat"], card=e["card"])
    if t == "free_recover":
        return N_("{seat} gets canoe {canoe} back from the rapids for free.").format(seat=e["seat"], canoe=e["canoe"])
    if t == "recover":
        return N_("{seat} pays a {gem} gem to bring canoe {canoe} back from the rapids.").format(
            seat=e["seat"], gem=e["paid"], canoe=e["canoe"])
    if t == "weather":
        return N_("{seat} moves the weather from {old} to {new}.").format(
            seat=e["seat"], old=weather_text(e["from"]), new=weather_text(e["to"]))
    if t == "end_turn":
        return N_("{seat} ends the turn.").format(seat=e["seat"])
    if t == "move":
        return _move_text(e)
    if t == "flow":
        e = state["last_flow"]
        sentences = [N_("The river flows {k} (lowest card {lowest}, weather {weather}).").format(
            k=e["k"], lowest=e["lowest"], weather=weather_text(e["weather"]))]
        for f in e["fell"]:
            if f["gem"]:
                sentences.append(N_("{seat}'s canoe {canoe} goes over the falls and its {gem} gem returns to its "
                                    "deposit.").format(seat=f["owner"], canoe=f["canoe"], gem=f["gem"]))
            else:
                sentences.append(N_("{seat}'s canoe {canoe} goes over the falls.").format(seat=f["owner"],
                                                                                           canoe=f["canoe"]))
        return " ".join(sentences)
    if t == "buoy":
        return N_("The buoy passes to {seat}.").format(seat=e["seat"])
    if t == "round":
        return N_("Round {round}: choose your paddle cards.").format(round=e["round"])
    if t == "takeback":
        return N_("Everyone takes back their seven paddle cards.")
    if t == "game_over":
        if len(e["winners"]) == 1:
            return N_("Game over: {seats} wins.").format(seats=e["winners"][0])
        return N_("Game over: {seats} share the win.").format(seats=", ".join(e["winners"]))
    return ""


# What one canoe did, part by part; a move line has one to five parts (two loadings/unloadings at each end and
# a movement, or a theft at the end), each part one marked phrase, the line one template per number of parts.
MOVE_LINES = {
    1: N_("{seat}'s canoe {canoe} {a}."),
    2: N_("{seat}'s canoe {canoe} {a}, {b}."),
    3: N_("{seat}'s canoe {canoe} {a}, {b}, {c}."),
    4: N_("{seat}'s canoe {canoe} {a}, {b}, {c}, {d}."),
    5: N_("{seat}'s canoe {canoe} {a}, {b}, {c}, {d}, {e}."),
}
LANDS = W_("lands")


def _op_part(op: dict) -> str:
    if op["op"] == "unload":
        return N_("unloads {gem} at the {site} deposit").format(gem=op["gem"], site=op["site"])
    return N_("loads {gem}").format(gem=op["gem"])


def _move_text(e: dict) -> str:
    bits = [_op_part(op) for op in e["pre"]]
    if e["kind"] == "launch":
        bits.append(N_("launches to position {position}").format(position=e["to"]))
    elif e["kind"] == "land":
        bits.append(N_("lands and delivers {gem}").format(gem=e["delivered"]) if e["delivered"] else LANDS)
    elif e["kind"] == "up":
        bits.append(N_("paddles up {steps} to position {position}").format(steps=e["steps"], position=e["to"]))
    elif e["kind"] == "down":
        bits.append(N_("paddles down {steps} to position {position}").format(steps=e["steps"], position=e["to"]))
    bits += [_op_part(op) for op in e["post"]]
    if e["stole"]:
        s = e["stole"]
        bits.append(N_("steals {gem} from {seat}'s canoe {canoe}").format(gem=s["gem"], seat=s["from"],
                                                                           canoe=s["canoe"]))
    return MOVE_LINES[len(bits)].format(seat=e["seat"], canoe=e["canoe"], **dict(zip("abcde", bits, strict=False)))


GAME = register(Wagara())


def _preferred(canoe: dict, moves: list) -> list:
    """The moves of one canoe a beginner would pick (see Wagara.bot_actions)."""
    def carried(m):
        gem = canoe["gem"]
        for op in m.pre:
            gem = None if op == UNLOAD else op[1]
        return gem

    def final(m):
        gem = carried(m)
        for op in m.post:
            gem = None if op == UNLOAD else op[1]
        return gem or (m.steal and m.steal[0])

    ups = [m for m in moves if carried(m) and final(m) and m.kind == "up"]
    tiers = [
        [m for m in moves if m.kind == "land" and carried(m)],
        [m for m in ups if m.steps == max(x.steps for x in ups)],
        [m for m in moves if final(m) and m.kind != "down"],
        [m for m in moves if final(m)],
    ]
    return next((t for t in tiers if t), moves)
