"""Wassamasaw: two elemental wizards draft element dice onto a 5×5 sheet or convert them into multipliers.

The rules are the rulebook (seeds/000_88925a3848033716.txt) as settled by RULES.md §1, rulings W1–W6:

- W1 the sheet: rows 1–5 top to bottom, columns 1–5 left to right; circle cells r2c2 r2c3 r3c2 r3c3 r4c4
  r4c5 r5c4 r5c5, four quarters each; a conversion track of 7 boxes per element.
- W2 ten dice, two per element; the face is the row a die goes in, a 6 is wild (any row).
- W3 a round: the first player rolls; players alternate taking one die each to place it (an empty cell of its
  row that touches no forbidden neighbour in any of the eight directions: Fire–Water, Fire–Metal, Wood–Metal;
  Earth touches anything) or, only when it cannot be placed anywhere, to convert it (cross the next box of
  its element's track; a cross past the 7th box is lost). The last two dice are converted: the first player
  picks one, the other player gets the last. Then the first-player token passes.
- W4 once a player's 25 cells are filled or one of their tracks has all 7 boxes crossed, the round is
  finished in full, then the game is scored.
- W5 an element on a circle cell counts +1 for each of its eight neighbours holding the element that feeds
  it, at most +4 (one per quarter); off-circle cells get no bonus.
- W6 strength(e) = cells of e + quarters on cells of e; points = Σ strength(e) × crosses(e), +5 for each
  element whose strength is strictly higher than the opponent's; ties go to more quarters, then are shared.

Decisions this module makes where the rulebook and RULES.md are silent (each has a test):

- D1 First player: "determine the first player by any means" — a seeded coin flip at setup.
- D2 Rolling needs no decision, so each round's dice are rolled automatically when the round begins. The
  very last die of a round is a forced conversion for the second player with nothing to choose, so it is
  converted for them at once, in the same step as the first player's pick of the second-to-last die.
- D3 A turn is at most two small actions. ``take <element> <face>`` takes a die that can be placed; the
  player then must ``place r<row>c<col>`` it (a taken die is in hand, as at the table: it cannot go back,
  and since a die is only takeable when it has a legal cell, a taken die can always be placed).
  ``convert <element> <face>`` takes and converts in one action, offered exactly when converting is the
  legal use of that die (it fits nowhere, or it is one of the last two dice). So for each die in the pool
  exactly one of ``take`` and ``convert`` is legal, and converting a placeable die is refused (W3). Undo
  (#16) never takes back a ``take`` or a ``convert``: the die would go back to the pool. A placement can be.
- D4 Quarters are read from the finished grid, not from the order of drawing: a Fire placed on a circle
  next to Wood already on the sheet gets its quarters at once, just as when the Wood comes second (W5 says
  "gets +1 for each touching cell holding the element that feeds it").
- D5 Two dice of the same element showing the same face are interchangeable: one action stands for both.
- D6 A majority needs a strictly higher strength, so when both players have 0 of an element nobody gets it.
"""

from __future__ import annotations

import re

from i18n import N_, W_

from . import register
from .core import Game, IllegalAction, State, lower, read_number, summary_text
from .elements import ELEMENTS, FED_BY
from .rng import Rng

SIZE = 5
TRACK = 7                      # boxes on each conversion track (W1)
WILD = 6                       # a 6 may go in any row (W2)
MAJORITY_BONUS = 5             # W6
MAX_QUARTERS = 4               # W5
CIRCLES = ((2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (4, 5), (5, 4), (5, 5))   # W1, 1-based (row, col)

# W3: who may not touch whom, both ways; Earth touches anything.
FORBIDDEN = {
    "wood": {"metal"},
    "fire": {"water", "metal"},
    "earth": set(),
    "metal": {"fire", "wood"},
    "water": {"fire"},
}

_CELL = re.compile(r"r([1-5])c([1-5])")

# The element names as game words, so the edge shows them in the reader's language (i18n.word, i18n.line);
# capitalised too, for the refusals that begin with one.
ELEMENT_WORDS = (W_("wood"), W_("fire"), W_("earth"), W_("metal"), W_("water"),
                 W_("Wood"), W_("Fire"), W_("Earth"), W_("Metal"), W_("Water"))
# A list of dice ("fire 3, water 5") or of quarters ("fire +1"), read item by item at the edge: one template
# per element for an item, and one for an item followed by the rest of the list.
DIE_ITEMS = (N_("wood {face}"), N_("fire {face}"), N_("earth {face}"), N_("metal {face}"), N_("water {face}"),
             N_("wood {face}, {more}"), N_("fire {face}, {more}"), N_("earth {face}, {more}"),
             N_("metal {face}, {more}"), N_("water {face}, {more}"))
# The actions as a player reads them on a button (the action itself stays this English notation).
ACTION_FORMS = (N_("take {element} {face}"), N_("convert {element} {face}"), N_("place {cell}"))


# ----- the sheet -------------------------------------------------------------------------------------------
def cell_name(row: int, col: int) -> str:
    return f"r{row}c{col}"


def _touching(row: int, col: int) -> tuple[tuple[int, int], ...]:
    return tuple((row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dr or dc) and 1 <= row + dr <= SIZE and 1 <= col + dc <= SIZE)


# every cell's touching cells, worked out once: the computer players and the analysis ask millions of times
_NEIGHBOURS = {(r, c): _touching(r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1)}


def neighbours(row: int, col: int) -> tuple[tuple[int, int], ...]:
    """The up to eight touching cells (orthogonal and diagonal), 1-based, in reading order."""
    return _NEIGHBOURS[row, col]


def at(grid, row: int, col: int):
    return grid[row - 1][col - 1]


def conflict(grid, element: str, row: int, col: int):
    """The first touching cell holding a forbidden neighbour of ``element``, or None (W3)."""
    forbidden = FORBIDDEN[element]
    for r, c in _NEIGHBOURS[row, col]:
        if grid[r - 1][c - 1] in forbidden:
            return r, c
    return None


def rows_for(face: int) -> range:
    return range(1, SIZE + 1) if face == WILD else range(face, face + 1)


def targets(grid, element: str, face: int) -> list[tuple[int, int]]:
    """Every cell where this die may be placed, in reading order (W2, W3)."""
    return [(r, c) for r in rows_for(face) for c in range(1, SIZE + 1)
            if grid[r - 1][c - 1] is None and conflict(grid, element, r, c) is None]


def quarters_at(grid, row: int, col: int) -> int:
    """Quarters filled on the circle at (row, col): one per touching feeder, at most four (W5, D4)."""
    element = at(grid, row, col)
    if (row, col) not in CIRCLES or element is None:
        return 0
    feeder = FED_BY[element]
    return min(MAX_QUARTERS, sum(1 for r, c in _NEIGHBOURS[row, col] if grid[r - 1][c - 1] == feeder))


def total_quarters(grid) -> int:
    return sum(quarters_at(grid, r, c) for r, c in CIRCLES)


def strength(grid) -> dict[str, int]:
    """Per element: cells holding it plus the quarters filled on them (W6)."""
    out = {e: 0 for e in ELEMENTS}
    for r in range(1, SIZE + 1):
        for c in range(1, SIZE + 1):
            e = at(grid, r, c)
            if e is not None:
                out[e] += 1 + quarters_at(grid, r, c)
    return out


def is_full(grid) -> bool:
    return all(e is not None for row in grid for e in row)


def triggers_end(sheet) -> bool:
    """W4: a full grid or one track with all seven boxes crossed."""
    return is_full(sheet["grid"]) or any(n >= TRACK for n in sheet["crosses"].values())


def score_breakdown(sheets: dict, seats: list[str]) -> dict:
    """W6 for both players: per-element strength × crosses, majorities, quarters and total."""
    strengths = {s: strength(sheets[s]["grid"]) for s in seats}
    out = {}
    for s in seats:
        other = next(o for o in seats if o != s)
        crosses = sheets[s]["crosses"]
        points = {e: strengths[s][e] * crosses[e] for e in ELEMENTS}
        majorities = [e for e in ELEMENTS if strengths[s][e] > strengths[other][e]]   # D6
        bonus = MAJORITY_BONUS * len(majorities)
        out[s] = {
            "strength": strengths[s],
            "crosses": dict(crosses),
            "points": points,
            "majorities": majorities,
            "bonus": bonus,
            "quarters": total_quarters(sheets[s]["grid"]),
            "total": sum(points.values()) + bonus,
        }
    return out


def die_text(die) -> str:
    return f"{die['element']} {die['face']}"


def _die_key(die):
    return ELEMENTS.index(die["element"]), die["face"]


# ----- the game --------------------------------------------------------------------------------------------
class Wassamasaw(Game):
    key = "wassamasaw"
    title = "Wassamasaw"
    min_players = 2
    max_players = 2

    def setup(self, state: State, rng: Rng) -> None:
        seats = state["seats"]
        state.update(
            round=0,
            first=rng.choice(seats),          # D1
            pool=[],
            taken=0,                          # dice taken from the pool this round
            held=None,                        # a taken die waiting to be placed (D3)
            sheets={s: {"grid": [[None] * SIZE for _ in range(SIZE)],
                        "crosses": {e: 0 for e in ELEMENTS},
                        "lost": {e: 0 for e in ELEMENTS}} for s in seats},
            over=False,
            last={"seat": None, "action": None, "events": []},
        )
        self._new_round(state, rng, state["first"])

    # ----- reading ---------------------------------------------------------------------------------------
    def to_act(self, state: State) -> list[str]:
        if state["over"]:
            return []
        return [self._current(state)]

    def _current(self, state: State) -> str:
        seats = state["seats"]
        first = seats.index(state["first"])
        return seats[(first + state["taken"]) % 2]

    def waiting_message(self, state: State, seat: str) -> str:
        if state["held"] is not None:
            return N_("It is not your turn: the other player is placing the die they took.")
        return N_("It is not your turn: the other player is choosing a die.")

    def legal_actions(self, state: State, seat: str) -> list[str]:
        if seat not in self.to_act(state):
            return []
        grid = state["sheets"][seat]["grid"]
        held = state["held"]
        if held is not None:
            return ["place " + cell_name(r, c) for r, c in targets(grid, held["element"], held["face"])]
        actions = []
        for die in _distinct(state["pool"]):                                 # D5
            verb = "take" if self._may_place(state, grid, die) else "convert"  # D3
            actions.append(f"{verb} {die_text(die)}")
        return actions

    def _may_place(self, state: State, grid, die) -> bool:
        """W3: the last two dice are always converted; otherwise a die is placed when it fits somewhere."""
        return len(state["pool"]) > 2 and bool(targets(grid, die["element"], die["face"]))

    def view(self, state: State, viewer: str | None) -> dict:
        seats = state["seats"]
        held = state["held"]
        current = None if state["over"] else self._current(state)
        view = {
            "to_act": self.to_act(state),
            "seats": list(seats),
            "round": state["round"],
            "first_player": state["first"],
            "pool": [dict(d) for d in state["pool"]],
            # Per pool die: True when the seat to choose may only convert it (D3; public, read from the sheet).
            "convert_only": ([not self._may_place(state, state["sheets"][current]["grid"], d) for d in state["pool"]]
                             if current is not None and held is None else [False] * len(state["pool"])),
            "held": dict(held) if held else None,
            "targets": ([cell_name(r, c) for r, c in targets(state["sheets"][current]["grid"],
                                                              held["element"], held["face"])]
                        if held else []),
            "last_round": any(triggers_end(state["sheets"][s]) for s in seats),
            "circles": [[r, c] for r, c in CIRCLES],
            "track_length": TRACK,
            "sheets": {s: self._sheet_view(state["sheets"][s]) for s in seats},
            "score": score_breakdown(state["sheets"], seats),
            "last": _copy_last(state["last"]),
            "over": state["over"],
        }
        result = self.result(state)
        if result is not None:
            view["result"] = result
        return view

    def _sheet_view(self, sheet) -> dict:
        grid = sheet["grid"]
        return {
            "grid": [list(row) for row in grid],
            "crosses": dict(sheet["crosses"]),
            "lost": dict(sheet["lost"]),
            "quarters": total_quarters(grid),
            # Quarters filled per cell: an int on circle cells, None elsewhere (for drawing the circles).
            "circle_quarters": [[quarters_at(grid, r, c) if (r, c) in CIRCLES else None
                                 for c in range(1, SIZE + 1)] for r in range(1, SIZE + 1)],
            "full": is_full(grid),
        }

    def result(self, state: State) -> dict | None:
        if not state["over"]:
            return None
        seats = state["seats"]
        breakdown = score_breakdown(state["sheets"], seats)
        scores = {s: breakdown[s]["total"] for s in seats}
        quarters = {s: breakdown[s]["quarters"] for s in seats}
        best = max(scores.values())
        leaders = [s for s in seats if scores[s] == best]
        decided_by = "score"
        if len(leaders) > 1:                                   # W6 tie-break: more quarters, then shared
            most = max(quarters[s] for s in leaders)
            leaders = [s for s in leaders if quarters[s] == most]
            decided_by = "quarters" if len(leaders) == 1 else "shared"
        return {"winners": leaders, "scores": scores, "quarters": quarters, "decided_by": decided_by,
                "breakdown": breakdown}

    def undoable(self, before: State, seat: str, action: str, after: State) -> bool:
        """D3 (#16): a taken die is in hand and cannot go back to the pool, so neither ``take`` nor ``convert``
        (which takes and converts at once) can be taken back. Placing the held die can: it stays in hand."""
        if after["pool"] != before["pool"] or after["round"] != before["round"]:
            return False
        return super().undoable(before, seat, action, after)

    def resample(self, state: State, seat: str | None, rng: Rng) -> None:
        """Nothing is hidden but the dice still to be rolled, which live in the generator (reseeded)."""

    def summary(self, view: dict) -> str:
        """Alt text (#16): the last events, the round, the running scores (W6), whose turn."""
        events = (view.get("last") or {}).get("events") or []
        last = " ".join(_event_text(e) for e in events if e["kind"] != "end")
        scores = {s: view["score"][s]["total"] for s in view["seats"]} if view.get("score") else None
        sentences = [N_("Round {round}.").format(round=view["round"])]
        pool, only = view.get("pool") or [], view.get("convert_only") or []
        if pool and not view.get("held"):
            dice = _distinct(d for d, c in zip(pool, only, strict=False) if c)
            if len(pool) <= 2:
                sentences.append(N_("The last two dice of the round are converted."))
            elif len(dice) == len(_distinct(pool)):
                sentences.append(N_("Every die in the pool can only be converted."))
            elif dice:
                sentences.append(N_("Can only be converted (fits nowhere): {dice}.").format(
                    dice=", ".join(die_text(d) for d in dice)))
        extra = " ".join(sentences)
        return summary_text(self.title, view, last=last, scores=scores, extra=extra)

    def describe(self, before: State, seat: str, action: str, after: State) -> str:
        return " ".join(_event_text(e) for e in after["last"]["events"])

    # ----- playing ---------------------------------------------------------------------------------------
    def play(self, state: State, seat: str, action: str) -> None:
        words = lower(action).split()
        state["last"] = {"seat": seat, "action": " ".join(words), "events": []}
        if state["held"] is not None:
            self._play_place(state, seat, words)
        elif words and words[0] in ("take", "convert"):
            self._play_pick(state, seat, words)
        elif words and words[0] == "place":
            raise IllegalAction("Take a die from the pool first: say 'take <element> <face>', e.g. '{action}'.",
                                action=self.legal_actions(state, seat)[0])
        else:
            raise IllegalAction("Choose a die from the pool: 'take <element> <face>' to place it, or "
                                "'convert <element> <face>' when it cannot be placed.")

    def _play_pick(self, state: State, seat: str, words: list[str]) -> None:
        verb = words[0]
        die = self._parse_die(state, words[1:])
        grid = state["sheets"][seat]["grid"]
        placeable = self._may_place(state, grid, die)
        if verb == "take" and not placeable:
            if len(state["pool"]) <= 2:
                raise IllegalAction("The last two dice of a round are converted: say '{action}'.",
                                    action=f"convert {die_text(die)}")
            raise IllegalAction("{element} {face} fits nowhere on your sheet, so it must be converted: say "
                                "'{action}'.", element=die["element"].capitalize(), face=die["face"],
                                action=f"convert {die_text(die)}")
        if verb == "convert" and placeable:
            raise IllegalAction("{element} {face} can still be placed, and a die is converted only when it "
                                "cannot be: say '{action}'.", element=die["element"].capitalize(),
                                face=die["face"], action=f"take {die_text(die)}")
        state["pool"].remove(die)
        if verb == "take":
            state["held"] = die
            state["last"]["events"].append({"kind": "take", "seat": seat, **die})
            return
        self._convert(state, seat, die)
        self._advance(state)

    def _parse_die(self, state: State, words: list[str]) -> dict:
        face = read_number(words[1]) if len(words) == 2 else None
        if len(words) != 2 or words[0] not in ELEMENTS or face is None:
            raise IllegalAction("Name a die by its element and face, e.g. 'take fire 3'.")
        die = {"element": words[0], "face": face}
        if die not in state["pool"]:
            have = ", ".join(die_text(d) for d in _distinct(state["pool"]))
            # Both as typed (actions stay English): the die asked for and the dice to choose from.
            raise IllegalAction("There is no {die} in the pool (it holds {have}).", die=die_text(die), have=have)
        return die

    def _play_place(self, state: State, seat: str, words: list[str]) -> None:
        held = state["held"]
        match = _CELL.fullmatch(words[1]) if len(words) == 2 and words[0] == "place" else None
        if match is None:
            raise IllegalAction("You hold {element} {face}: place it with 'place r<row>c<column>', e.g. "
                                "'{action}'.", element=held["element"], face=held["face"],
                                action=self.legal_actions(state, seat)[0])
        row, col = int(match.group(1)), int(match.group(2))
        grid = state["sheets"][seat]["grid"]
        element = held["element"]
        if held["face"] != WILD and row != held["face"]:
            raise IllegalAction("A {face} goes in row {face}, not row {row}.", face=held["face"], row=row)
        if at(grid, row, col) is not None:
            raise IllegalAction("{cell} already holds {element}.", cell=cell_name(row, col),
                                element=at(grid, row, col))
        bad = conflict(grid, element, row, col)
        if bad is not None:
            raise IllegalAction("{element} may not touch {other}, and {cell} touches the {other} at {at}.",
                                element=element.capitalize(), other=at(grid, *bad), cell=cell_name(row, col),
                                at=cell_name(*bad))
        before = strength(grid)
        grid[row - 1][col - 1] = element
        after = strength(grid)
        gained = {e: after[e] - before[e] - (1 if e == element else 0) for e in ELEMENTS}
        state["held"] = None
        state["last"]["events"].append({
            "kind": "place", "seat": seat, **held, "cell": [row, col],
            # Quarters this placement filled, per element they count for (W5), for the log and the image.
            "quarters": {e: n for e, n in gained.items() if n},
        })
        self._advance(state)

    def _convert(self, state: State, seat: str, die: dict, auto: bool = False) -> None:
        sheet = state["sheets"][seat]
        element = die["element"]
        box = None
        if sheet["crosses"][element] < TRACK:
            sheet["crosses"][element] += 1
            box = sheet["crosses"][element]
        else:
            sheet["lost"][element] += 1                      # W3: a conversion past the 7th box is lost
        state["last"]["events"].append({"kind": "convert", "seat": seat, **die, "box": box, "auto": auto})

    def _advance(self, state: State) -> None:
        """One die is used: pass the turn, hand the very last die over (D2), or end the round (W3, W4)."""
        state["taken"] += 1
        if len(state["pool"]) == 1:
            self._convert(state, self._current(state), state["pool"].pop(), auto=True)   # D2
            state["taken"] += 1
        if state["pool"]:
            return
        seats = state["seats"]
        if any(triggers_end(state["sheets"][s]) for s in seats):          # W4
            state["over"] = True
            result = self.result(state)
            state["last"]["events"].append({"kind": "end", "scores": result["scores"],
                                            "winners": result["winners"], "decided_by": result["decided_by"]})
            return
        other = next(s for s in seats if s != state["first"])               # W3: the token passes
        self._new_round(state, Rng(state), other)

    def _new_round(self, state: State, rng: Rng, first: str) -> None:
        state["round"] += 1
        state["first"] = first
        state["taken"] = 0
        pool = [{"element": e, "face": rng.die()} for e in ELEMENTS for _ in range(2)]   # W2
        state["pool"] = sorted(pool, key=_die_key)
        state["last"]["events"].append({"kind": "roll", "seat": first, "round": state["round"],
                                        "dice": [dict(d) for d in state["pool"]]})


def _distinct(pool):
    seen = []
    for die in pool:
        if die not in seen:
            seen.append(die)
    return seen


def _copy_last(last):
    return {"seat": last["seat"], "action": last["action"],
            "events": [_copy_event(e) for e in last["events"]]}


def _copy_event(event):
    out = {}
    for k, v in event.items():
        if isinstance(v, list):
            out[k] = [dict(x) if isinstance(x, dict) else x for x in v]
        elif isinstance(v, dict):
            out[k] = dict(v)
        else:
            out[k] = v
    return out


def _event_text(e) -> str:
    """One event as the log shows it, each sentence from one marked template (translated at the edge)."""
    kind = e["kind"]
    if kind == "roll":
        dice = ", ".join(die_text(d) for d in e["dice"])
        return N_("Round {round}: {seat} rolls {dice}.").format(round=e["round"], seat=e["seat"], dice=dice)
    if kind == "take":
        return N_("{seat} takes {element} {face}.").format(seat=e["seat"], element=e["element"], face=e["face"])
    if kind == "place":
        params = {"seat": e["seat"], "element": e["element"], "cell": cell_name(*e["cell"])}
        if e["quarters"]:
            fed = ", ".join(f"{e2} +{n}" for e2, n in e["quarters"].items())
            return N_("{seat} places {element} at {cell} (circle quarters: {quarters}).").format(
                quarters=fed, **params)
        return N_("{seat} places {element} at {cell}.").format(**params)
    if kind == "convert":
        params = {"seat": e["seat"], "element": e["element"], "face": e["face"], "box": e["box"], "track": TRACK}
        if e["auto"]:
            if e["box"] is None:
                return N_("The last die, {element} {face}, goes to {seat}: the {element} track is full, so the "
                          "cross is lost.").format(**params)
            return N_("The last die, {element} {face}, goes to {seat}: {element} box {box} of {track} "
                      "crossed.").format(**params)
        if e["box"] is None:
            return N_("{seat} converts {element} {face}: the {element} track is full, so the cross is "
                      "lost.").format(**params)
        return N_("{seat} converts {element} {face}: {element} box {box} of {track} crossed.").format(**params)
    if kind == "end":
        scores = ", ".join(f"{s} {n}" for s, n in e["scores"].items())
        winners = e["winners"]
        if len(winners) == 1:
            verdict = (N_("{winner} wins on circle quarters.") if e["decided_by"] == "quarters"
                       else N_("{winner} wins.")).format(winner=winners[0])
        else:
            verdict = N_("{winner} and {other} win, shared.").format(winner=winners[0], other=winners[1])
        return N_("Game over: {scores}.").format(scores=scores) + " " + verdict
    raise ValueError(kind)


GAME = register(Wassamasaw())
