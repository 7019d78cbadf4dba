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
from dataclasses import dataclass

from i18n import N_, W_  # marks only: the engine writes English, the edge translates what it shows

from . import register
from .core import Game, IllegalAction, State, lower, read_number, summary_text
from .rng import Rng

COLOURS = [W_("violet"), W_("white"), W_("yellow"), W_("blue"), W_("red")]
GEM_VALUE = {"violet": 1, "white": 2, "yellow": 3, "blue": 4, "red": 5}          # G1, for the tie-break
SITE_POSITION = {"violet": 3, "white": 4, "yellow": 5, "blue": 6, "red": 7}      # G1
SITE_AT = {pos: colour for colour, pos in SITE_POSITION.items()}
GEMS_PER_COLOUR = 7
RIVER_LENGTH = 9
CARDS = ["1", "2", "3", "4", "5", "6", "cloud"]
CLOUD = "cloud"
WEATHER_MIN, WEATHER_MAX = -1, 2
CANOES_PER_PLAYER = 2

UNLOAD = ("unload",)


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


# ----- a canoe's move ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """One canoe's whole move for the round. ``kind`` is "stay" (loading/unloading only), "up", "down",
    "land" or "launch"; ``steps`` counts positions paddled (for "launch": the position reached)."""
    canoe: int
    kind: str
    steps: int = 0
    pre: tuple = ()
    post: tuple = ()
    steal: tuple | None = None  # (colour, seat or None)

    def text(self) -> str:
        parts = [_op_text(op) for op in self.pre]
        if self.kind in ("up", "down"):
            parts.append(f"{self.kind} {self.steps}")
        elif self.kind == "land":
            parts.append("land")
        elif self.kind == "launch":
            parts.append(f"launch to {self.steps}")
        parts += [_op_text(op) for op in self.post]
        if self.steal:
            colour, victim = self.steal
            parts.append(f"steal {colour}" + (f" from {victim}" if victim else ""))
        return f"canoe {self.canoe}: " + ", ".join(parts)

    def cost(self, start: int) -> int:
        """Paddle points used from position ``start`` (0 on the beach)."""
        steps = start if self.kind == "land" else self.steps
        return steps + 2 * (len(self.pre) + len(self.post))


def _op_text(op: tuple) -> str:
    return "unload" if op == UNLOAD else f"load {op[1]}"


_CANOE_RE = re.compile(r"canoe ([0-9]+) ?: ?(.*)", re.IGNORECASE | re.ASCII)


def parse_move(text: str) -> Move:
    """The Move a ``canoe <i>: ...`` text names; only its grammar is checked here."""
    m = _CANOE_RE.fullmatch(text)
    if not m:
        raise IllegalAction("Move a canoe with e.g. 'canoe 1: up 3' or 'canoe 2: launch to 2'.")
    canoe = read_number(m.group(1))
    if canoe is None:
        raise IllegalAction("You have canoes 1 and 2: say e.g. 'canoe 1: up 3'.")
    parts = [p.strip() for p in m.group(2).split(",")]
    pre: list = []
    post: list = []
    kind, steps, steal = "stay", 0, None
    for part in parts:
        words = part.split()
        key = [lower(w) for w in words]
        if steal is not None:
            raise IllegalAction("Stealing ends a canoe's move: nothing may follow it.")
        if kind == "land" and key:
            raise IllegalAction("Landing ends a canoe's move: nothing may follow it.")
        if key == ["unload"]:
            (pre if kind == "stay" else post).append(UNLOAD)
        elif len(key) == 2 and key[0] == "load":
            if key[1] not in COLOURS:
                raise IllegalAction("'{word}' is not a gem colour ({colours}).", word=words[1],
                                    colours=", ".join(COLOURS))
            (pre if kind == "stay" else post).append(("load", key[1]))
        elif (len(key) == 2 and key[0] in ("up", "down")) or key == ["land"] or key[:2] == ["launch", "to"]:
            if kind != "stay":
                raise IllegalAction("A canoe paddles one way only: one 'up', 'down', 'land' or 'launch' per move.")
            if key[0] == "land":
                kind = "land"
                continue
            if key[0] == "launch":
                if pre:
                    raise IllegalAction("A canoe on the beach cannot load or unload: launch it first.")
                if len(key) != 3:
                    raise IllegalAction("Launch with e.g. 'launch to 3'.")
            steps = read_number(key[-1])
            if steps is None or steps < 1:
                raise IllegalAction("'{part}' needs a number of steps, e.g. 'up 2'.", part=part)
            kind = key[0]
        elif key and key[0] == "steal":
            if len(key) == 2 or (len(key) >= 4 and key[2] == "from"):
                if key[1] not in COLOURS:
                    raise IllegalAction("'{word}' is not a gem colour ({colours}).", word=words[1],
                                        colours=", ".join(COLOURS))
                steal = (key[1], " ".join(words[3:]) or None)
            else:
                raise IllegalAction("Steal with e.g. 'steal red'.")
        else:
            raise IllegalAction("'{part}' is not a canoe's move. A canoe's move is e.g. 'canoe 1: unload, up 3, "
                                "steal red' or 'canoe 2: launch to 3, load violet'.", part=part)
    if kind == "stay" and not pre and steal is None:
        raise IllegalAction("Say what the canoe does, e.g. 'canoe 1: down 2'.")
    return Move(canoe, kind, steps, tuple(pre), tuple(post), steal)


# ----- the game ----------------------------------------------------------------------------------------------

class Wagara(Game):
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

    def canoe_moves(self, state: State, idx: int) -> list[Move]:
        """Every legal move of canoe ``state["canoes"][idx]`` now (its owner is acting with a number card):
        the moves spending exactly the card's points, landings, or (if none) those spending the most."""
        canoe = state["canoes"][idx]
        turn = state["turn"]
        if turn is None or turn["card"] == CLOUD or canoe["owner"] != turn["seat"] or canoe["number"] in turn["moved"]:
            return []
        n = int(turn["card"])
        if canoe["where"] == "beach":
            if turn["launched"]:
                return []
            start, candidates = 0, self._launch_candidates
        elif canoe["where"] == "river":
            start, candidates = canoe["position"], self._river_candidates
        else:
            return []
        exact = candidates(state, canoe, n, exact=True)
        if exact:
            return exact
        # G4: no way spends exactly n (the river's geometry always offers one, but the rule says what then)
        scored = [(m.cost(start), m) for m in candidates(state, canoe, n, exact=False)]
        best = max(s for s, _ in scored)
        return [m for s, m in scored if s == best]

    def _launch_candidates(self, state: State, canoe: dict, n: int, exact: bool) -> list[Move]:
        out = []
        for q in range(1, min(n, RIVER_LENGTH) + 1):
            for post, _ in _op_choices(q, None, self._loadable(state, canoe), n - q, exact):
                out.append(Move(canoe["number"], "launch", q, (), post))
        return out

    def _river_candidates(self, state: State, canoe: dict, n: int, exact: bool) -> list[Move]:
        """Moves of a canoe on the river spending exactly ``n`` points, and landings (``exact``); or every
        move spending at most ``n``."""
        p, number = canoe["position"], canoe["number"]
        sites = self._loadable(state, canoe)
        out = []
        for pre, gem in _op_choices(p, canoe["gem"], sites, n, False):
            base = 2 * len(pre)
            if pre and (base == n or not exact):
                out.append(Move(number, "stay", 0, pre))
            if base + p == n or (gem is not None and base + p < n):           # G10
                out.append(Move(number, "land", 0, pre))
            for kind, sign, limit in (("up", -1, p - 1), ("down", 1, RIVER_LENGTH - p)):
                for k in range(1, min(limit, n - base) + 1):
                    q, rest = p + sign * k, n - base - k
                    for post, _ in _op_choices(q, gem, sites, rest, exact):
                        out.append(Move(number, kind, k, pre, post))
                    if kind == "up" and gem is None and (rest == 0 or not exact):
                        out += [Move(number, kind, k, pre, (), steal) for steal in self._steal_targets(state, canoe, q)]
        return out

    def _barred(self, state: State, canoe: dict) -> dict:
        """G9: the gems the owner's other canoes unloaded this turn, {deposit: {colour: count}}: this canoe may
        not load them. Gems of one colour at one deposit look alike, so it may still load as many of that
        colour as lay there besides."""
        barred: dict = {}
        turn = state["turn"]
        if turn is None:
            return barred
        for u in turn.get("unloaded", []):
            if u["canoe"] != canoe["number"]:
                site = barred.setdefault(u["site"], {})
                site[u["gem"]] = site.get(u["gem"], 0) + 1
        return barred

    def _loadable(self, state: State, canoe: dict) -> dict:
        """The deposits as ``canoe`` may load from them this turn (G9: without the other canoe's unloads)."""
        barred = self._barred(state, canoe)
        return {site: {c: n - barred.get(site, {}).get(c, 0) for c, n in counts.items()}
                for site, counts in state["sites"].items()}

    def _steal_targets(self, state: State, canoe: dict, q: int) -> list[tuple]:
        owners: dict[str, list[str]] = {}
        for other in state["canoes"]:
            if (other["where"] == "river" and other["position"] == q and other["gem"]
                    and other["owner"] != canoe["owner"] and other["owner"] not in owners.get(other["gem"], [])):
                owners.setdefault(other["gem"], []).append(other["owner"])
        out = []
        for colour in COLOURS:
            victims = owners.get(colour, [])
            if len(victims) == 1:
                out.append((colour, None))
            elif victims:
                out += [(colour, v) for v in victims]
        return out

    def _move_canoe(self, state: State, seat: str, move: Move, events: list) -> None:
        turn = state["turn"]
        if turn["card"] == CLOUD:
            raise IllegalAction("You played the Cloud: your canoes stay put this round; move the weather marker.")
        canoe = self._own_canoe(state, seat, move.canoe)
        n = int(turn["card"])
        if move.canoe in turn["moved"]:
            raise IllegalAction("Your canoe {number} has already moved this round.", number=move.canoe)
        plan = self._check_move(state, canoe, move, n)
        legal = self.canoe_moves(state, state["canoes"].index(canoe))
        best = max((n if m.kind == "land" else m.cost(plan["start"])) for m in legal)
        spent = n if move.kind == "land" else plan["cost"]
        if spent != best:
            if best == n:
                raise IllegalAction("A canoe must spend all {n} points of your card (this move spends "
                                    "{cost}), unless it lands.", n=n, cost=plan["cost"])
            raise IllegalAction("No move spends all {n} points; this canoe must spend as many as it can ({best}).",
                                n=n, best=best)
        self._carry_out(state, canoe, move, plan, events)
        turn["moved"].append(move.canoe)
        turn["acted"] = True
        if move.kind == "launch":
            turn["launched"] = True
        self._maybe_end_turn(state, seat, events)

    def _check_move(self, state: State, canoe: dict, move: Move, n: int) -> dict:
        """Check a canoe's move against G4 with messages a player understands; return what it does."""
        number = canoe["number"]
        if canoe["where"] == "rapids":
            raise IllegalAction("Your canoe {number} is in the rapids: recover it first ('recover canoe {number}, "
                                "pay <colour>').", number=number)
        if canoe["where"] == "beach":
            if move.kind != "launch":
                raise IllegalAction("Your canoe {number} is on the beach: launch it with 'launch to <position>'.",
                                    number=number)
            if state["turn"]["launched"]:
                raise IllegalAction("Only one canoe may be launched from the beach per round.")
            if move.steps > RIVER_LENGTH:
                raise IllegalAction("The river has positions 1 to {last}.", last=RIVER_LENGTH)
            start, gem = 0, None
        else:
            if move.kind == "launch":
                raise IllegalAction("Your canoe {number} is already on the river.", number=number)
            start, gem = canoe["position"], canoe["gem"]
        sites = {site: dict(counts) for site, counts in state["sites"].items()}
        barred = self._barred(state, canoe)
        gem = _do_ops(move.pre, start, gem, sites, number, barred)
        end = start
        if move.kind == "up":
            if move.steps >= start:
                raise IllegalAction("From position {start} that reaches the beach: say 'land' to come ashore.",
                                    start=start)
            end = start - move.steps
        elif move.kind in ("down", "launch"):
            end = move.steps if move.kind == "launch" else start + move.steps
            if end > RIVER_LENGTH:
                raise IllegalAction("A canoe cannot paddle past position {last}; only the river carries it "
                                    "over the falls.", last=RIVER_LENGTH)
        elif move.kind == "land":
            end = 0
        gem_after_pre = gem
        gem = _do_ops(move.post, end, gem, sites, number, barred)
        victim = None
        if move.steal:
            victim = self._check_steal(state, canoe, move, end, gem_after_pre)
        cost = move.cost(start)
        if move.kind == "land" and cost > n:
            raise IllegalAction("Landing from position {start} costs {cost} points; your card gives {n}.", start=start,
                                cost=cost, n=n)
        if move.kind == "land" and gem is None and cost < n:                                      # G10
            raise IllegalAction("An empty canoe may land only with its last point (landing here costs {cost} of "
                                "your {n}); only a canoe carrying a gem lands with points left.", cost=cost, n=n)
        if cost > n:
            raise IllegalAction("That move costs {cost} points; your card gives {n}.", cost=cost, n=n)
        return {"start": start, "end": end, "cost": cost, "gem": gem, "victim": victim}

    def _check_steal(self, state: State, canoe: dict, move: Move, end: int, gem) -> int:
        colour, named = move.steal
        if move.kind != "up":
            raise IllegalAction("Only a canoe that paddles upstream can steal, at the position where it stops.")
        if move.post:
            raise IllegalAction("A stealing canoe must arrive empty: unload before paddling, not after.")
        if gem is not None:
            raise IllegalAction("Your canoe carries {gem}: a canoe holds one gem, so unload before paddling up "
                                "to steal.", gem=gem)
        here = [i for i, c in enumerate(state["canoes"])
                if c["where"] == "river" and c["position"] == end and c["gem"] == colour and c is not canoe]
        theirs = [i for i in here if state["canoes"][i]["owner"] != canoe["owner"]]
        if named is not None:
            if named == canoe["owner"]:
                raise IllegalAction("You cannot steal from your own canoe.")
            theirs = [i for i in theirs if state["canoes"][i]["owner"] == named]
        if not theirs:
            if any(state["canoes"][i]["owner"] == canoe["owner"] for i in here):
                raise IllegalAction("You cannot steal from your own canoe.")
            if named is not None and here:
                raise IllegalAction("No canoe of {player} at position {position} carries {colour}.", player=named,
                                    position=end, colour=colour)
            raise IllegalAction("No other player's canoe at position {position} carries {colour}: you steal only "
                                "where your canoe stops, never in passing.", position=end, colour=colour)
        if len({state["canoes"][i]["owner"] for i in theirs}) > 1:
            # the action is notation, so it stays whole (an English word inside it is never translated)
            raise IllegalAction("Canoes of several players carry {colour} there: say '{action} <player>'.",
                                colour=colour, action=f"steal {colour} from")
        return theirs[0]

    def _carry_out(self, state: State, canoe: dict, move: Move, plan: dict, events: list) -> None:
        sites = state["sites"]
        start, end = plan["start"], plan["end"]
        event = {"type": "move", "seat": canoe["owner"], "canoe": canoe["number"], "kind": move.kind,
                 "steps": start if move.kind == "land" else move.steps, "from": start, "to": end,
                 "pre": [], "post": [], "stole": None, "delivered": None}
        gem = canoe["gem"]
        for op_list, pos, key in ((move.pre, start, "pre"), (move.post, end, "post")):
            for op in op_list:
                site = SITE_AT[pos]
                if op == UNLOAD:
                    sites[site][gem] += 1
                    event[key].append({"op": "unload", "gem": gem, "site": site})
                    state["turn"].setdefault("unloaded", []).append(
                        {"canoe": canoe["number"], "site": site, "gem": gem})                     # for G9
                    gem = None
                else:
                    sites[site][op[1]] -= 1
                    gem = op[1]
                    event[key].append({"op": "load", "gem": gem, "site": site})
        if plan["victim"] is not None:
            victim = state["canoes"][plan["victim"]]
            gem, victim["gem"] = victim["gem"], None
            event["stole"] = {"gem": gem, "from": victim["owner"], "canoe": victim["number"]}
        if move.kind == "land":
            canoe.update(where="beach", position=None, gem=None)
            if gem:
                state["collections"][canoe["owner"]][gem] += 1
                event["delivered"] = gem
        else:
            canoe.update(where="river", position=end, gem=gem)
        events.append(event)


def _op_choices(position: int, gem, sites: dict, points: int, exact: bool):
    """Loading/unloading at one end of a move, at 2 points each, within ``points`` (exactly ``points`` if
    ``exact``): (ops, gem carried after). Unload first, then load a different colour than the one unloaded
    (G4); nothing where there is no deposit."""
    if points == 0 or (points > 0 and not exact):
        yield (), gem
    site = SITE_AT.get(position)
    if site is None or points < 2:
        return
    counts = sites[site]
    if gem is None:
        if points == 2 or not exact:
            for c in COLOURS:
                if counts[c]:
                    yield (("load", c),), c
        return
    if points == 2 or not exact:
        yield (UNLOAD,), None
    if points == 4 or (points > 4 and not exact):
        for c in COLOURS:
            if c != gem and counts[c]:
                yield (UNLOAD, ("load", c)), c


def _do_ops(ops: tuple, position: int, gem, sites: dict, number: int, barred: dict | None = None):
    """Check and apply loading/unloading at ``position`` on a scratch copy of the deposits. ``barred``: gems
    the player's other canoe unloaded this turn, which this one may not load (G9)."""
    if not ops:
        return gem
    site = SITE_AT.get(position)
    if site is None:
        if position == 0:
            raise IllegalAction("There is no gem deposit at the beach; deposits lie beside positions 3 to 7.")
        raise IllegalAction("There is no gem deposit at position {position}; deposits lie beside positions 3 to 7.",
                            position=position)
    unloaded = None
    for i, op in enumerate(ops):
        if op == UNLOAD:
            if i > 0:
                raise IllegalAction("Unload first, then load: loading and unloading again here changes nothing.")
            if gem is None:
                raise IllegalAction("Your canoe {number} carries no gem to unload.", number=number)
            sites[site][gem] += 1
            unloaded, gem = gem, None
        else:
            colour = op[1]
            if gem is not None:
                raise IllegalAction("Your canoe {number} already carries {gem}: a canoe holds one gem.", number=number,
                                    gem=gem)
            if colour == unloaded:
                raise IllegalAction("After unloading {colour}, reload a different colour (or not at all).",
                                    colour=colour)
            if not sites[site][colour]:
                raise IllegalAction("There is no {colour} gem at the {site} deposit (position {position}).",
                                    colour=colour, site=site, position=position)
            if sites[site][colour] <= (barred or {}).get(site, {}).get(colour, 0):
                raise IllegalAction("Your other canoe unloaded that {colour} gem this turn: gems may not pass "
                                    "between your two canoes in one turn.", colour=colour)
            sites[site][colour] -= 1
            gem = colour
    return gem


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
