"""Single-observer Information-Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012, SO-ISMCTS).

The search speaks the engine protocol only. Before each iteration, everything the searching seat cannot see
(other hands, face-down choices, deck and bag order, future dice: the generator) is drawn again with
``game.determinize(state, seat, rng)``, consistently with that seat's view; the iteration then descends one
tree shared by all determinizations, choosing among the actions legal in that determinization (UCB1 with
availability counts: a child's exploration term counts the iterations in which it could have been chosen;
below the root, every seat chooses among its ``bot_actions``: where a game narrows them to a sensible subset
(Wagara, WURRM World), a tree that first tried absurd moves for the other seats would flatter the branches
that hand them the turn sooner),
adds one node, plays a random rollout with the games' beginner policy (``bot_actions``) for at most
``rollout_cap`` moves, and backs up every seat's reward to the nodes that seat chose.

Rewards: a win 1, a shared win 1/k, a loss 0, plus a small score-margin term (``MARGIN``); an unfinished
rollout is scored by ``heuristics.evaluate``. A team (``Game.teams``: Seikatsu at four) is one side: its win
is a whole win for each teammate, and margins are taken over the other side. The only things read from the
true state are what the seat sees: who acts (``to_act``) and the seat's own legal actions, which come from
its view.

Simultaneous choices (face-down cards, secret votes: several seats to act at once) are taken one after the
other in the tree, so a later chooser's node hangs below the earlier choice, as if it saw it: pessimistic
for the searching seat when it chooses first. A variant that weighed each later choice of such a set blind
(statistics kept where the set began, drawn by a softmax) fixed matching pennies but won only 10 of 30
MyWuXing games head to head against this search at medium's budget, so it was left out (issue #15).

Iterations play on one private copy each (the determinization), with ``Game.play`` in place: it is ``apply``
without the deep copy, and the search only offers legal actions to seats that are to act.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ..core import Game, IllegalAction, State
from ..rng import Rng, seed_state
from .heuristics import evaluate, sides
from .policy import search_actions

EXPLORATION = 1.0
MARGIN = 0.1          # weight of the score margin in a finished game's reward
WIDEN = 10            # root progressive widening: one more root action per WIDEN iterations (see ``search``)


class Node:
    __slots__ = ("children", "visits", "avail", "reward", "seat")

    def __init__(self, seat: str | None = None):
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0       # total reward, for ``seat`` (the seat whose action led here)
        self.seat = seat


@dataclass
class Stats:
    """What a search found: per root action, its visits and mean reward for the searching seat."""
    actions: list[tuple[str, int, float]] = field(default_factory=list)   # (action, visits, mean), best first
    iterations: int = 0
    seconds: float = 0.0

    @property
    def best(self) -> str:
        return self.actions[0][0]


def rewards(game: Game, state: State, res: dict | None) -> dict[str, float]:
    """Every seat's reward for a finished game (``res``) or, cut short, the heuristic estimate. A side (a
    seat, or a team: Seikatsu at four) that wins alone earns 1 for each of its seats, a shared win 1/k among
    the k winning sides; the margin is taken over the best seat of another side."""
    seats = state["seats"]
    if res is None:
        return evaluate(game, state)
    side = sides(game, state)
    winners = set(res.get("winners") or [])
    won = {tuple(side[s]) for s in seats if set(side[s]) & winners}
    share = 1.0 / len(won) if won else 0.0
    out = {s: (share if tuple(side[s]) in won else 0.0) for s in seats}
    scores = res.get("scores") or {}
    if MARGIN and len(scores) == len(seats):
        try:
            values = {s: float(scores[s]) for s in seats}
        except (KeyError, TypeError, ValueError):
            return out
        for s in seats:
            others = [values[o] for o in seats if o not in side[s]]
            if not others:
                continue
            best_other = max(others)
            margin = (values[s] - best_other) / (abs(values[s]) + abs(best_other) + 1.0)
            out[s] = (1 - MARGIN) * out[s] + MARGIN * (margin + 1.0) / 2.0
    return out


def root_order(game: Game, state: State, seat: str, root_actions: list[str], det_rng: Rng
               ) -> tuple[list[str], list[str]]:
    """The root actions in the order the search takes them up, and the prior: the beginner's choices
    (``bot_actions``) first. They are read on a determinization, so that a game whose ``bot_actions`` looked
    at hidden information could not leak it; the seat's own legal actions are the same in all of them."""
    seen = game.determinize(state, seat, det_rng)
    preferred = set(search_actions(game, seen, seat, game.bot_actions(seen, seat)))
    prior = [a for a in root_actions if a in preferred] or list(root_actions)
    return prior + [a for a in root_actions if a not in preferred], prior


def search(game: Game, state: State, seat: str, *, iterations: int, seconds: float | None = None,
           seed: int | str = 0, rollout_cap: int = 40, floor: int = 0) -> Stats:
    """Search the decision of ``seat`` (who must be to act in ``state``) for at most ``iterations``
    iterations and, when given, ``seconds`` of wall time, but never fewer than ``floor`` iterations (a busy
    machine must not cut a level below the budget measured to make it stronger than the beginner).
    Deterministic given ``seed`` when only the iteration budget binds (tests never use time).

    Root progressive widening: with a few dozen iterations, a root that weighs every legal action gives each
    a handful of noisy rollouts and picks a blunder the beginner would never play (``medium`` lost to
    ``easy`` in Wagara and WURRM World that way, issue #15). So the root starts with the beginner's choices
    (``bot_actions``, the prior) and admits the other legal actions one by one, the k-th root action once
    ``WIDEN * k`` iterations are done: a small budget searches among sensible moves, a large one still finds
    the moves the beginner never makes."""
    if seat not in game.to_act(state):
        raise ValueError(f"{seat} is not to act")
    root_actions = search_actions(game, state, seat, game.legal_actions(state, seat))
    if not root_actions:
        raise ValueError(f"{seat} has no legal action")
    start = time.perf_counter()
    if len(root_actions) == 1:
        return Stats([(root_actions[0], 0, 0.5)], 0, time.perf_counter() - start)
    rnd = random.Random(f"ismcts:{seed}")
    det_rng = Rng({"rng": seed_state(rnd.getrandbits(62))})
    ordered, prior_actions = root_order(game, state, seat, root_actions, det_rng)
    prior = len(prior_actions)
    root = Node()
    allowed = set(root_actions)
    deadline = None if seconds is None else start + seconds
    done = 0
    while done < iterations:
        if deadline is not None and done >= floor and time.perf_counter() >= deadline:
            break
        # root progressive widening: the beginner's choices first, then one more action per WIDEN iterations
        width = max(prior, done // WIDEN)
        _iterate(game, state, seat, root, ordered[:width], allowed, rnd, det_rng, rollout_cap)
        done += 1
    ranked = sorted(((a, n.visits, n.reward / n.visits if n.visits else 0.0) for a, n in root.children.items()
                     if a in allowed), key=lambda t: (-t[1], -t[2], ordered.index(t[0])))
    seen = {a for a, _, _ in ranked}
    ranked += [(a, 0, 0.0) for a in ordered if a not in seen]
    return Stats(ranked, done, time.perf_counter() - start)


def rollout(game: Game, state: State, rnd: random.Random, cap: int) -> dict | None:
    """Play ``state`` on in place for at most ``cap`` moves, every seat choosing at random among its
    ``bot_actions`` (the beginner's policy); the result, or None when the game goes on."""
    res = game.result(state)
    steps = 0
    while res is None and steps < cap:
        acting = game.to_act(state)
        if not acting:
            break
        mover = acting[0] if len(acting) == 1 else acting[rnd.randrange(len(acting))]
        choices = game.bot_actions(state, mover)
        if not choices:
            break
        try:
            game.play(state, mover, choices[rnd.randrange(len(choices))])
        except IllegalAction:       # never expected: the engine offered it
            break
        steps += 1
        res = game.result(state)
    return res


def _iterate(game: Game, truth: State, seat: str, root: Node, root_actions: list[str], allowed: set[str],
             rnd: random.Random, det_rng: Rng, rollout_cap: int) -> None:
    state = game.determinize(truth, seat, det_rng)
    node, path = root, []
    expanded = False
    # selection and expansion
    while game.result(state) is None:
        acting = game.to_act(state)
        if not acting:
            break
        if node is root:
            mover, actions = seat, root_actions
        else:
            mover = acting[0]
            actions = search_actions(game, state, mover, game.bot_actions(state, mover))
        if not actions:
            break
        children = node.children
        untried = [a for a in actions if a not in children]
        for a in actions:
            child = children.get(a)
            if child is not None:
                child.avail += 1
        if untried:
            action = untried[rnd.randrange(len(untried))]
            child = Node(mover)
            child.avail = 1
            children[action] = child
            expanded = True
        else:
            log_of = math.log
            best, best_value = None, -1.0
            for a in actions:
                c = children[a]
                value = c.reward / c.visits + EXPLORATION * math.sqrt(log_of(c.avail) / c.visits)
                if value > best_value:
                    best, best_value = a, value
            action, child = best, children[best]
        try:
            game.play(state, mover, action)
        except IllegalAction:       # never expected (a determinization keeps the seat's view): skip this one
            return
        path.append(child)
        node = child
        if expanded:
            break
    res = rollout(game, state, rnd, rollout_cap)
    reward = rewards(game, state, res)
    for n in path:
        n.visits += 1
        n.reward += reward.get(n.seat, 0.0)
