"""Wagara's river and a canoe's move: the river's positions, deposits, gems and cards (G1), a canoe's move as
text and as data (``Move``, ``parse_move``), and which moves a canoe may make and what they do (G4, G9, G10:
``Canoes``, a part of ``engine.wagara.Wagara``, which keeps the rounds, the cards, the weather, the flow and the
views). The rulings are in engine/wagara.py's docstring.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from i18n import W_  # marks only: the engine writes English, the edge translates what it shows

from .core import IllegalAction, State, lower, read_number

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


class Canoes:
    """A canoe's legal moves, their checks with a player's words, and carrying them out, as methods of the game
    (``engine.wagara.Wagara``)."""

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
        if not barred:      # nearly always: the deposits themselves (only read, never written, by the callers)
            return state["sites"]
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
