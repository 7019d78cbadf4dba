"""After the game (issue #37): where it turned — each human decision judged by the hard engine, from the view
its seat had then.

Pure and deterministic given its seed: budgets are iterations, never time, and nothing here reads the true
hidden state (every iteration draws it again from the judged seat's view, ``Game.determinize``, as the hint
does). The table service (table/analysis.py) runs ``judge`` for each decision in worker processes and keeps
the result.

How a decision is judged (``judge``):

1. The hard search (``ismcts.search``, ``Effort.search`` iterations) from the seat's view finds the moves it
   likes best.
2. Its two favourites and the move that was played are each *valued*: ``Effort.value`` iterations of the same
   search whose root may play only that move (the rest of the game is searched as usual below it). The three
   valuations share their random numbers (the same determinizations, the same future dice, iteration by
   iteration), so the difference between two moves is measured on the same imagined games, and far less
   noisy than two separate estimates.
3. The best move is the one valued highest; ``before`` is its value (the seat's chance before the move, with
   the best move), ``after`` the played move's (its chance after the move it made), ``loss`` the difference.
   A loss of at least ``THRESHOLDS`` marks an inaccuracy, a mistake or a blunder.

Values are the search's rewards: a win 1, a shared win 1/k, a loss 0, with a tenth for the score margin
(``ismcts.rewards``); we call them the win chance. The thresholds were measured against the engine's own noise
(docs/analysis.md): the same decision judged twice with different seeds.

A seat's accuracy is the mean over its judged decisions of ``accuracy(loss)``, lichess's curve of the win
chance kept (100 for no loss, about 65 for a loss of 10 points, 39 for 20, 24 for 30).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass

from ..core import Game, IllegalAction, State, lower
from ..rng import Rng, seed_state
from .ismcts import Node, _iterate, search
from .policy import search_actions

VERSION = 1             # the analysis as computed: a stored analysis of another version is computed again

# (mark, the least loss in win-chance points that earns it), the worst first
THRESHOLDS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
MARKS = tuple(m for m, _t in reversed(THRESHOLDS))      # inaccuracy, mistake, blunder


@dataclass(frozen=True)
class Effort:
    """The budget of one judgement, in iterations (never seconds: the result must not depend on the machine)."""
    search: int = 80           # the search for the best moves
    value: int = 100           # each valuation of a candidate move
    rollout_cap: int = 20      # moves a rollout plays before the position is scored (hard: 40; shorter is steadier)
    candidates: int = 2        # the search's favourites valued beside the played move


EFFORT = Effort()


@dataclass
class Judgement:
    step: int                  # the move's number in the game (1 the first), as the review counts them
    seat: str
    action: str                # as played (its canonical text)
    best: str                  # the better move (the action itself when it was the best)
    before: float              # the seat's win chance before the move, with the best move
    after: float               # its chance after the move played
    loss: float                # before - after, never below 0
    mark: str = ""             # "", "inaccuracy", "mistake" or "blunder"
    options: int = 0           # how many moves the seat could choose among

    def to_dict(self) -> dict:
        out = asdict(self)
        for k in ("before", "after", "loss"):
            out[k] = round(out[k], 4)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Judgement:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def mark_of(loss: float) -> str:
    for mark, least in THRESHOLDS:
        if loss >= least - 1e-9:
            return mark
    return ""


def accuracy(loss: float) -> float:
    """The accuracy (0–100) of one decision that lost ``loss`` of win chance (0–1): lichess's curve."""
    points = max(0.0, loss) * 100
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))


def choices(game: Game, state: State, seat: str) -> list[str]:
    """The moves a judgement weighs: the seat's legal actions as the search sees them (WURRM World's die
    toggles left out: they only prepare a reroll)."""
    if seat not in game.to_act(state):
        return []
    return search_actions(game, state, seat, game.legal_actions(state, seat))


def judged_action(game: Game, state: State, seat: str, action: str) -> str | None:
    """``action`` as one of ``choices`` (the log keeps what was typed, tidied), or None when it is not one
    (a die toggle) or the decision had a single move: nothing to judge."""
    moves = choices(game, state, seat)
    if len(moves) < 2:
        return None
    text = " ".join(action.split())
    for candidate in (text, lower(text)):
        if candidate in moves:
            return candidate
    return None


def value_of(game: Game, state: State, seat: str, action: str, *, iterations: int, seed: int | str,
             rollout_cap: int = 40) -> float:
    """``seat``'s mean reward over ``iterations`` iterations of the search whose root plays ``action``: what
    the move is worth from the seat's view. The same ``seed`` gives every action the same determinizations
    (and the same dice to come), iteration by iteration."""
    rnd = random.Random(f"value:{seed}")
    det_rng = Rng({"rng": seed_state(rnd.getrandbits(62))})
    root = Node()
    allowed = {action}
    for _ in range(iterations):
        _iterate(game, state, seat, root, [action], allowed, rnd, det_rng, rollout_cap)
    child = root.children.get(action)
    return child.reward / child.visits if child is not None and child.visits else 0.5


def judge(game: Game, state: State, seat: str, action: str, step: int, seed: int | str,
          effort: Effort = EFFORT) -> Judgement | None:
    """The judgement of ``seat`` playing ``action`` in ``state`` (the move numbered ``step``), or None when
    there was nothing to choose. Deterministic given ``seed``."""
    played = judged_action(game, state, seat, action)
    if played is None:
        return None
    moves = choices(game, state, seat)
    try:
        stats = search(game, state, seat, iterations=effort.search, seed=f"{seed}:search",
                       rollout_cap=effort.rollout_cap)
    except (NotImplementedError, IllegalAction, ValueError):
        return None
    candidates = [a for a, _n, _w in stats.actions[:effort.candidates]]
    if played not in candidates:
        candidates.append(played)
    values = {a: value_of(game, state, seat, a, iterations=effort.value, seed=f"{seed}:value",
                          rollout_cap=effort.rollout_cap) for a in candidates}
    best = max(candidates, key=lambda a: (values[a], a == played))     # a tie goes to the move played
    loss = max(0.0, values[best] - values[played])
    return Judgement(step, seat, played, best, values[best], values[played], loss, mark_of(loss), len(moves))


@dataclass
class Decision:
    """A decision to judge: the state before it (dumped), whose it was and what was played."""
    step: int
    seat: str
    action: str
    state: str


def decisions(game: Game, dumps: list[str], moves: list[tuple[str, str]], humans: set[str]) -> list[Decision]:
    """The decisions of ``humans`` worth judging in a game: ``dumps[k]`` the state after k moves (dumped),
    ``moves[k - 1]`` the k-th move (seat, action)."""
    out = []
    for k, (seat, action) in enumerate(moves, start=1):
        if seat not in humans:
            continue
        state = game.load(dumps[k - 1])
        if judged_action(game, state, seat, action) is not None:
            out.append(Decision(k, seat, action, dumps[k - 1]))
    return out


def judge_dumped(key: str, decision: Decision, seed: str, effort: Effort = EFFORT) -> dict | None:
    """``judge`` on plain data, for a worker process: the game's key and a ``Decision``; a dict back."""
    from .. import GAMES

    game = GAMES[key]
    done = judge(game, game.load(decision.state), decision.seat, decision.action, decision.step,
                 f"{seed}:{decision.step}", effort)
    return None if done is None else done.to_dict()


@dataclass
class Summary:
    """What a game's judgements add up to, per seat: accuracy (0–100, None without a judged decision), the
    count of each mark, and the costliest moves (judgements, worst first)."""
    accuracy: dict[str, float | None]
    marks: dict[str, dict[str, int]]
    costliest: dict[str, list[Judgement]]


def summarise(judgements: list[Judgement], seats: list[str], most: int = 3) -> Summary:
    acc: dict[str, float | None] = {}
    marks: dict[str, dict[str, int]] = {}
    costliest: dict[str, list[Judgement]] = {}
    for s in seats:
        mine = [j for j in judgements if j.seat == s]
        acc[s] = sum(accuracy(j.loss) for j in mine) / len(mine) if mine else None
        marks[s] = {m: sum(1 for j in mine if j.mark == m) for m in MARKS}
        costliest[s] = sorted((j for j in mine if j.mark), key=lambda j: (-j.loss, j.step))[:most]
    return Summary(acc, marks, costliest)


def curves(judgements: list[Judgement], seats: list[str], moves: int, result: dict | None,
           teams: list[list[str]] | None = None) -> dict[str, list[tuple[int, float]]]:
    """Each judged seat's win chance across the game, in seat order: (step, chance) points — before its first
    judged move, after each of them, and at the end (``moves``) 1 for a win, 1/k for a share of k winning
    sides, 0 for a loss (none for a game without a result: abandoned)."""
    out: dict[str, list[tuple[int, float]]] = {}
    for j in sorted(judgements, key=lambda j: (seats.index(j.seat) if j.seat in seats else len(seats), j.step)):
        points = out.setdefault(j.seat, [])
        if not points:
            points.append((j.step - 1, j.before))
        points.append((j.step, j.after))
    if result and result.get("winners") is not None:
        winners = set(result.get("winners") or [])
        side = {s: [s] for s in seats}
        for team in teams or []:
            for s in team:
                side[s] = team
        won = {tuple(side[s]) for s in seats if set(side[s]) & winners}
        for s, points in out.items():
            share = (1.0 / len(won)) if won and tuple(side[s]) in won else 0.0
            points.append((moves, share))
    return out


def leaders(curves_: dict[str, list[tuple[int, float]]], moves: int, parts: int = 3) -> list[str | None]:
    """Who led in each of ``parts`` stretches of the game (the seat with the highest mean chance over it,
    read from its curve; None when no curve reaches that stretch)."""
    out: list[str | None] = []
    for p in range(parts):
        lo, hi = moves * p / parts, moves * (p + 1) / parts
        best, best_value = None, -1.0
        for seat, points in curves_.items():
            values = [v for k, v in points if lo <= k <= hi]
            if not values:
                values = [_at(points, (lo + hi) / 2)] if points and points[0][0] <= hi else []
            if values:
                mean = sum(values) / len(values)
                if mean > best_value:
                    best, best_value = seat, mean
        out.append(best)
    return out


def _at(points: list[tuple[int, float]], k: float) -> float:
    """A curve's chance at step ``k``, read between its points."""
    before = [p for p in points if p[0] <= k]
    after = [p for p in points if p[0] >= k]
    if not before:
        return after[0][1]
    if not after:
        return before[-1][1]
    (k0, v0), (k1, v1) = before[-1], after[0]
    return v0 if k1 == k0 else v0 + (v1 - v0) * (k - k0) / (k1 - k0)


__all__ = ["EFFORT", "MARKS", "THRESHOLDS", "VERSION", "Decision", "Effort", "Judgement", "Summary", "accuracy",
           "choices", "curves", "decisions", "judge", "judge_dumped", "judged_action", "leaders", "mark_of",
           "summarise", "value_of"]
