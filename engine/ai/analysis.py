"""After the game (issues #37, #46): where it turned — each human decision judged from the view its seat had
then, in the game's own currency (points, cards, gems, steps) as well as in win chance.

Pure and deterministic given its seed: budgets are counts, never time, and nothing here reads the true hidden
state (every rollout draws it again from the judged seat's view, ``Game.determinize``, as the hint does). The
table service (table/analysis.py) runs ``judge`` for each decision in worker processes and keeps the result.

How a decision is judged (``judge``):

1. The search (``ismcts.search``, ``Effort.search`` iterations, rollouts of ``Effort.rollout_cap`` moves) from
   the seat's view finds the moves it likes best: its ``Effort.candidates`` favourites.
2. Those and the move played are each valued by ``Effort.value`` playouts *to the end of the game* (both sides
   playing on as the beginner plays, ``bot_actions``) that share their random numbers: playout i of every move
   draws the same hidden cards, dice and shuffles and the same stream of choices, so the difference between
   two moves is measured on the same imagined games. A move's value is its seat's expected final **margin**
   in the game's currency (``CURRENCY``: its own score less the mean of the other sides') and its **win
   chance** (a win 1, a shared win 1/k, a loss 0).
3. The best move is the one of highest margin; the **cost** of the move played is the gap between the two
   (never below 0). A gap that could earn a mark (``CONFIRM_AT``: half the least one) is measured again, on
   other random numbers (``Effort.confirm`` playouts of the two moves alone): the cost is then the mean of the
   two gaps, and a mark (``THRESHOLDS``, per game) needs *both* at least its threshold, so that no mark rests
   on the engine's noise alone.

Why not the win chance alone, as issue #37 first did (the search's reward, 20-move rollouts scored by a
heuristic, a tenth for the score margin): measured on play (docs/analysis.md), a random player and one who
followed the hint came out at the same accuracy. A win chance says nothing once a game is decided (every
move of a lost game costs 0 %), and over a game of 50–100 small decisions one move moves it by a point or
two; the 20-move rollouts scored Wassamasaw by its score *so far*, which stays near 0 until the
conversions of the last rounds; and the score margin weighed a tenth. The margin at the end of whole
playouts sees every point a move gives or throws away, in a lost game too.

A seat's accuracy comes from the means of its judged decisions' cost and loss of win chance, per game and
table size (``ACCURACY``): for each, 100 for play that costs no more than the analysis's own choices are
measured to (its noise), 50 for random play (a move picked at random among those offered), halving again
with each as much more;
the accuracy is the mean of the two (the currency sees the points a move throws away in a lost game, the
win chance what matters in a close one, and their mean is steadier than either). The anchors are measured
on games played by random moves, each computer level and the hint's moves (bench/analysis_calibration.py;
the table is in docs/analysis.md). Single decisions are too noisy to be scored one by one (a move of a good player
costs 0 or a point of the engine's noise, half the time); their mean over a game is not. The mean cost is
shown beside the accuracy with the hard computer's own (``HARD_COST``, the same runs) for a yardstick.

Decision (not in the rulebooks): WURRM World is a race whose ``scores`` are the gems left, which do not decide
it; its currency is the steps to the nearer Sleep space (the winner at 0 when the race ends), so that a move
that loses ground counts in a race already lost as in a close one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass

from ..core import Game, IllegalAction, State, lower
from ..rng import Rng, seed_state
from .heuristics import HEURISTICS, evaluate, sides
from .ismcts import rollout, search
from .policy import search_actions

VERSION = 2             # the analysis as computed: a stored analysis of another version is computed again


def _steps(game: Game, state: State) -> dict[str, float]:
    """WURRM World: minus each seat's steps to the nearer Sleep space (the winner is there)."""
    from ..wurrm import board_of

    dist = board_of(state).distances_to_sleep()
    winner = state.get("winner")
    return {s: 0.0 if s == winner else -float(dist.get(state["positions"][s], 12)
                                                if state["positions"][s] is not None else 12)
            for s in state["seats"]}


def _final_scores(game: Game, state: State) -> dict[str, float]:
    res = game.result(state) or {}
    return {s: float(v) for s, v in (res.get("scores") or {}).items()}


@dataclass(frozen=True)
class Currency:
    """What a game's margin is counted in: ``unit`` (points, cards, gems or steps: the front ends word it) and
    the seats' standing in it at the end (``final``). A playout cut short (``PLAYOUT_CAP``) is scored by the
    game's heuristic (engine.ai.heuristics), in the same currency."""
    unit: str
    final: Callable[[Game, State], dict[str, float]]


CURRENCY: dict[str, Currency] = {
    "wassamasaw": Currency("points", _final_scores),
    "seikatsu": Currency("points", _final_scores),
    "mywuxing": Currency("cards", _final_scores),
    "wagara": Currency("gems", _final_scores),
    "wurrm": Currency("steps", _steps),
}

# The least cost that earns each mark, per game, in its currency (the worst mark first); from the calibration
# runs (random play's lesser gaps: about its 90th, 97th and 99th percentiles) and the engine's own noise
# (docs/analysis.md, bench/analysis_calibration.py).
THRESHOLDS: dict[str, tuple[tuple[str, float], ...]] = {
    "wassamasaw": (("blunder", 15.0), ("mistake", 10.0), ("inaccuracy", 6.0)),
    "seikatsu": (("blunder", 8.0), ("mistake", 6.0), ("inaccuracy", 3.5)),
    "mywuxing": (("blunder", 4.5), ("mistake", 3.0), ("inaccuracy", 1.5)),
    "wagara": (("blunder", 2.0), ("mistake", 1.4), ("inaccuracy", 0.8)),
    "wurrm": (("blunder", 3.5), ("mistake", 2.5), ("inaccuracy", 1.5)),
}
MARKS = ("inaccuracy", "mistake", "blunder")
# a gap at least this (in the game's currency) is measured a second time (``judge``, step 3): at most half the
# game's least mark, so that every gap that could earn one is; the smaller ones keep their first measure
CONFIRM_AT: dict[str, float] = {"wassamasaw": 2.5, "seikatsu": 1.5, "mywuxing": 0.75, "wagara": 0.4, "wurrm": 0.75}


@dataclass(frozen=True)
class Anchors:
    """How a seat's mean cost and mean loss of win chance become an accuracy, in one game at one table size:
    for each, a (floor, random) pair: ``floor`` what the analysis's own best move is measured to cost (its
    noise: play that good scores 100), ``random`` what a move picked at random among those offered costs on
    average (50); ``weight`` is the cost's share of the accuracy, the rest the loss of win chance's."""
    cost: tuple[float, float]          # in the game's currency
    loss: tuple[float, float]          # in points of win chance (0-100)
    weight: float = 0.5


# A player's accuracy, per game and table size, from the calibration runs (bench/analysis_calibration.py,
# docs/analysis.md: 20 games of each policy; the weights chosen there, game by game).
ACCURACY: dict[str, dict[int, Anchors]] = {
    "wassamasaw": {2: Anchors((0.54, 2.63), (0.8, 4.3))},
    "seikatsu": {2: Anchors((0.58, 2.12), (2.0, 7.7)), 4: Anchors((0.70, 1.66), (2.3, 4.5))},
    "mywuxing": {2: Anchors((0.18, 0.67), (1.1, 3.4)), 4: Anchors((0.07, 0.35), (0.9, 3.2))},
    "wagara": {2: Anchors((0.06, 0.30), (0.5, 2.2)), 4: Anchors((0.01, 0.28), (0.1, 2.1))},
    "wurrm": {2: Anchors((0.09, 0.54), (1.4, 3.8)), 4: Anchors((0.09, 0.39), (1.5, 2.8))},
}
# the hard computer's mean cost per decision (the same runs): the yardstick shown beside a player's
HARD_COST: dict[str, dict[int, float]] = {
    "wassamasaw": {2: 1.05},
    "seikatsu": {2: 1.04, 4: 0.64},
    "mywuxing": {2: 0.21, 4: 0.13},
    "wagara": {2: 0.06, 4: 0.06},
    "wurrm": {2: 0.09, 4: 0.05},
}


def by_size(table: dict[str, dict[int, object]], key: str, players: int):
    """A per-game, per-size constant: the measured size nearest ``players`` (the smaller on a tie)."""
    sizes = table[key]
    return sizes[min(sizes, key=lambda n: (abs(n - players), n))]


@dataclass(frozen=True)
class Effort:
    """The budget of one judgement, in iterations and playouts (never seconds: the result must not depend on
    the machine)."""
    search: int = 80           # the search for the candidates
    rollout_cap: int = 20      # moves a search rollout plays before the position is scored
    candidates: int = 2        # the search's favourites valued beside the played move
    value: int = 40            # playouts to the end per candidate
    confirm: int = 40          # playouts of the second valuation of the best and the played move
    playout_cap: int = 400     # the longest playout (no game reaches it; a safety net)


EFFORT = Effort()

# Playouts cut short, per game, where whole ones cost too much: a Wagara game runs ~200 moves of ~130 µs (a
# judgement of ~2 s); after 30 moves its margin is the heuristic's gems (engine.ai.heuristics), and a
# judgement ~0.7 s. Elsewhere the playouts reach the end (``Effort.playout_cap`` is only a safety net).
PLAYOUT_CAP: dict[str, int] = {"wagara": 30}


@dataclass
class Judgement:
    step: int                  # the move's number in the game (1 the first), as the review counts them
    seat: str
    action: str                # as played (its canonical text)
    best: str                  # the better move (the action itself when it was the best)
    before: float              # the seat's win chance before the move, with the best move
    after: float               # its chance after the move played
    loss: float                # before - after, never below 0 (win chance)
    mark: str = ""             # "", "inaccuracy", "mistake" or "blunder"
    options: int = 0           # how many moves the seat could choose among
    cost: float = 0.0          # what the move cost in the game's currency (expected final margin), never below 0
    least: float = 0.0         # the smaller of the two measured gaps, on which a mark rests

    def to_dict(self) -> dict:
        out = asdict(self)
        for k in ("before", "after", "loss"):
            out[k] = round(out[k], 4)
        out["cost"], out["least"] = round(out["cost"], 3), round(out["least"], 3)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Judgement:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def mark_of(key: str, cost: float) -> str:
    """The mark a cost earns in the game ``key`` (in its currency), or ""."""
    for mark, least in THRESHOLDS[key]:
        if cost >= least - 1e-9:
            return mark
    return ""


def accuracy(key: str, players: int, mean_cost: float, mean_loss: float) -> float:
    """A player's accuracy (0–100) in the game ``key`` at ``players`` from the means of their judged decisions'
    cost (in the game's currency) and loss of win chance (0–1): for each, 100 down to the analysis's own noise
    (the ``ACCURACY`` anchors' floor), 50 at random play's mean, halving again with each as much more; the
    accuracy weighs the two by the anchors' ``weight``."""
    a = by_size(ACCURACY, key, players)
    (cost_floor, cost_random), (loss_floor, loss_random) = a.cost, a.loss
    by_cost = 0.5 ** (max(0.0, mean_cost - cost_floor) / (cost_random - cost_floor))
    by_loss = 0.5 ** (max(0.0, 100 * mean_loss - loss_floor) / (loss_random - loss_floor))
    return 100.0 * (a.weight * by_cost + (1.0 - a.weight) * by_loss)


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


@dataclass
class Value:
    """A move's worth from its seat's view: the expected final margin (currency) and win chance."""
    margin: float
    win: float


def standing(game: Game, state: State, seat: str) -> tuple[float, float]:
    """``seat``'s (margin, win share) where a playout stopped: at the end, its margin in the game's currency
    over the mean of the other sides and its share of the win; cut short (never in practice), the currency's
    estimate and the search's heuristic chance."""
    side = sides(game, state)
    res = game.result(state)
    if res is None:
        scores, win = HEURISTICS[game.key][0](game, state), evaluate(game, state)[seat]
    else:
        scores = CURRENCY[game.key].final(game, state)
        winners = set(res.get("winners") or [])
        won = {tuple(side[s]) for s in state["seats"] if set(side[s]) & winners}
        win = 1.0 / len(won) if tuple(side[seat]) in won else 0.0
    others: dict[tuple, float] = {}
    for s in state["seats"]:
        if s not in side[seat]:
            others.setdefault(tuple(side[s]), scores.get(s, 0.0))
    mine = scores.get(seat, 0.0)
    margin = mine - sum(others.values()) / len(others) if others else 0.0
    return margin, win


def values(game: Game, state: State, seat: str, actions: list[str], *, playouts: int, seed: int | str,
           cap: int = EFFORT.playout_cap) -> dict[str, Value]:
    """Each of ``actions`` valued by ``playouts`` playouts to the end after it (everyone then choosing at
    random among ``bot_actions``), from ``seat``'s view. Playout i of every action starts from the same
    determinization and draws from the same random stream (common random numbers)."""
    total = {a: [0.0, 0.0] for a in actions}
    for i in range(playouts):
        base = random.Random(f"playout:{seed}:{i}").getrandbits(62)
        for action in actions:
            rnd = random.Random(base)
            state_i = game.determinize(state, seat, Rng({"rng": seed_state(rnd.getrandbits(62))}))
            game.play(state_i, seat, action)
            rollout(game, state_i, rnd, cap)
            margin, win = standing(game, state_i, seat)
            total[action][0] += margin
            total[action][1] += win
    return {a: Value(m / playouts, w / playouts) for a, (m, w) in total.items()}


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
    cap = min(effort.playout_cap, PLAYOUT_CAP.get(game.key, effort.playout_cap))
    first = values(game, state, seat, candidates, playouts=effort.value, seed=f"{seed}:value", cap=cap)
    best = max(candidates, key=lambda a: (first[a].margin, a == played))     # a tie goes to the move played
    gap = first[best].margin - first[played].margin
    before, after = first[best].win, first[played].win
    cost, least, mark = max(0.0, gap), 0.0, ""
    if best != played and gap >= CONFIRM_AT[game.key]:
        # a gap that could earn a mark is measured again, on other random numbers
        again = values(game, state, seat, [best, played], playouts=effort.confirm, seed=f"{seed}:confirm",
                       cap=cap)
        gap2 = again[best].margin - again[played].margin
        n1, n2 = effort.value, effort.confirm
        cost = max(0.0, (n1 * gap + n2 * gap2) / (n1 + n2))
        before = (n1 * before + n2 * again[best].win) / (n1 + n2)
        after = (n1 * after + n2 * again[played].win) / (n1 + n2)
        least = max(0.0, min(gap, gap2))
        mark = mark_of(game.key, least)          # both valuations must earn it
    return Judgement(step, seat, played, best, before, after, max(0.0, before - after), mark, len(moves), cost,
                     least)


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
    mean cost per judged decision (in the game's currency), the count of each mark, and the costliest moves
    (marked judgements, worst first)."""
    accuracy: dict[str, float | None]
    cost: dict[str, float | None]
    marks: dict[str, dict[str, int]]
    costliest: dict[str, list[Judgement]]


def summarise(key: str, players: int, judgements: list[Judgement], seats: list[str], most: int = 3) -> Summary:
    acc: dict[str, float | None] = {}
    cost: dict[str, float | None] = {}
    marks: dict[str, dict[str, int]] = {}
    costliest: dict[str, list[Judgement]] = {}
    for s in seats:
        mine = [j for j in judgements if j.seat == s]
        cost[s] = sum(j.cost for j in mine) / len(mine) if mine else None
        acc[s] = accuracy(key, players, cost[s], sum(j.loss for j in mine) / len(mine)) if mine else None
        marks[s] = {m: sum(1 for j in mine if j.mark == m) for m in MARKS}
        costliest[s] = sorted((j for j in mine if j.mark), key=lambda j: (-j.cost, j.step))[:most]
    return Summary(acc, cost, marks, costliest)


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


__all__ = ["ACCURACY", "CONFIRM_AT", "CURRENCY", "EFFORT", "HARD_COST", "MARKS", "PLAYOUT_CAP", "THRESHOLDS",
           "VERSION", "Anchors", "Currency", "Decision", "Effort", "Judgement", "Summary", "Value", "accuracy",
           "by_size", "choices", "curves", "decisions", "judge", "judge_dumped", "judged_action", "leaders", "mark_of",
           "standing", "summarise", "values"]
