"""Cheap evaluations of unfinished positions, for rollouts cut short by their move cap.

Each function reads a (determinized) state and gives every seat a score in the game's own currency, and a
scale: a score lead of one scale is worth about 73 % (a logistic curve) to the leader. A game without one
is evaluated at 0.5 for everybody. They only ever see the determinized copy the search plays on, never the
true hidden state.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..core import Game, State


def _wassamasaw(game: Game, state: State) -> dict[str, float]:
    from ..wassamasaw import score_breakdown
    breakdown = score_breakdown(state["sheets"], state["seats"])
    return {s: float(breakdown[s]["total"]) for s in state["seats"]}


def _wagara(game: Game, state: State) -> dict[str, float]:
    from ..wagara import COLOURS, qualifies
    out = {}
    for s in state["seats"]:
        col = state["collections"][s]
        counts = [col[c] for c in COLOURS]
        score = sum(counts) + 0.25 * sum(1 for n in counts if n) + 0.25 * max(counts) + 2.0 * qualifies(col)
        for canoe in state["canoes"]:
            if canoe["owner"] == s and canoe["gem"] is not None and canoe["where"] == "river":
                pos = canoe["position"] or 9
                score += 0.7 * (1.0 - (pos - 1) / 12)       # a gem on its way home, more so near the beach
        out[s] = score
    return out


def _mywuxing(game: Game, state: State) -> dict[str, float]:
    return {s: float(len(state["decks"][s]) + len(state["hands"][s])) for s in state["seats"]}


def _seikatsu(game: Game, state: State) -> dict[str, float]:
    final = game.final_scores(state)
    return {s: float(final[state["pagodas"][s]]["total"]) for s in state["seats"]}


def _wurrm(game: Game, state: State) -> dict[str, float]:
    from ..wurrm import board_of
    dist = board_of(state).distances_to_sleep()
    out = {}
    for s in state["seats"]:
        pos = state["positions"][s]
        d = dist.get(pos, 12) if pos is not None else 12
        out[s] = -float(d) + 0.35 * min(state["gems"][s], 8)
    return out


# game key → (scores, scale)
HEURISTICS: dict[str, tuple[Callable[[Game, State], dict[str, float]], float]] = {
    "wassamasaw": (_wassamasaw, 12.0),
    "wagara": (_wagara, 1.5),
    "mywuxing": (_mywuxing, 4.0),
    "seikatsu": (_seikatsu, 10.0),
    "wurrm": (_wurrm, 2.5),
}


def sides(game: Game, state: State) -> dict[str, list[str]]:
    """Each seat's side: its team where the game plays in teams (``Game.teams``), else itself alone."""
    side = {s: [s] for s in state["seats"]}
    for team in game.teams(state):
        for s in team:
            side[s] = team
    return side


def evaluate(game: Game, state: State) -> dict[str, float]:
    """Each seat's chance of winning from an unfinished position, roughly: a logistic curve of its score
    lead over the best seat of another side (a teammate's score is its own: ``Game.teams``)."""
    entry = HEURISTICS.get(game.key)
    seats = state["seats"]
    if entry is None:
        return {s: 0.5 for s in seats}
    fn, scale = entry
    try:
        scores = fn(game, state)
    except (KeyError, TypeError, ValueError, AttributeError):
        return {s: 0.5 for s in seats}
    side = sides(game, state)
    out = {}
    for s in seats:
        others = [scores[o] for o in seats if o not in side[s]]
        lead = scores[s] - max(others) if others else 0.0
        out[s] = 1.0 / (1.0 + math.exp(-lead / scale))
    return out
