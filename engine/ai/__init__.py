"""Computer players worth playing (issue #15): levels, ``choose`` and ``hint``.

- ``easy``: the beginner policy of old, a random choice among ``bot_actions``.
- ``medium`` and ``hard``: SO-ISMCTS (engine.ai.ismcts) with determinization, on budgets of iterations and
  time. The iteration budget makes a decision deterministic given its seed; the time budget caps a decision
  on a slow or busy machine (then the decision depends on the machine's speed, never on hidden information).

Nothing here reads the true hidden state: the search draws it again from the seat's view before each
iteration (``Game.determinize``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core import N_, Game, State
from .ismcts import Stats, search

LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Budget:
    iterations: int
    seconds: float | None
    rollout_cap: int
    floor: int = 0          # iterations a time budget never cuts (the budgets measured against easy)


BUDGETS: dict[str, Budget] = {
    "medium": Budget(iterations=250, seconds=0.25, rollout_cap=30, floor=20),
    "hard": Budget(iterations=3000, seconds=0.85, rollout_cap=40, floor=60),
}


def budget(level: str, *, iterations: int | None = None, timed: bool = True) -> Budget:
    b = BUDGETS[level]
    n = iterations if iterations is not None else b.iterations
    return Budget(n, b.seconds if timed else None, b.rollout_cap, min(b.floor, n))


def choose(game: Game, state: State, seat: str, level: str = "medium", rng_seed: int | str = 0, *,
           iterations: int | None = None, timed: bool = True) -> str:
    """The action ``seat`` plays at ``level`` (one of ``LEVELS``): always one of its legal actions.
    ``iterations`` overrides the level's iteration budget, ``timed=False`` drops its time budget (tests)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if level == "easy":
        actions = game.bot_actions(state, seat)
        if not actions:
            raise ValueError(f"{seat} has no legal action")
        return random.Random(f"easy:{rng_seed}").choice(actions)
    b = budget(level, iterations=iterations, timed=timed)
    try:
        return search(game, state, seat, iterations=b.iterations, seconds=b.seconds, seed=rng_seed,
                      rollout_cap=b.rollout_cap, floor=b.floor).best
    except NotImplementedError:     # a game that cannot resample its hidden information: never peek, play easy
        return choose(game, state, seat, "easy", rng_seed)


def analyse(game: Game, state: State, seat: str, level: str = "hard", rng_seed: int | str = 0, *,
            iterations: int | None = None, timed: bool = True) -> Stats:
    b = budget(level, iterations=iterations, timed=timed)
    return search(game, state, seat, iterations=b.iterations, seconds=b.seconds, seed=rng_seed,
                  rollout_cap=b.rollout_cap, floor=b.floor)


def hint_text(stats: Stats) -> str:
    """One line: what ``hard`` would play and why (the top two actions and their win estimates)."""
    first = stats.actions[0]
    if len(stats.actions) == 1:
        return N_("💡 Only one move is possible: **{action}**.").format(action=first[0])
    second = stats.actions[1]
    return N_("💡 Hard would play **{action}** (wins about {rate} of {n} simulations), "
              "ahead of **{other}** ({other_rate} of {other_n}).").format(
        action=first[0], rate=f"{first[2]:.0%}", n=first[1], other=second[0], other_rate=f"{second[2]:.0%}",
        other_n=second[1])


def hint(game: Game, state: State, seat: str, rng_seed: int | str = 0, *, iterations: int | None = None,
         timed: bool = True) -> str:
    try:
        return hint_text(analyse(game, state, seat, "hard", rng_seed, iterations=iterations, timed=timed))
    except NotImplementedError:
        return N_("No hints for {title}: the computer cannot yet think about it without peeking.").format(
            title=game.title)


__all__ = ["LEVELS", "BUDGETS", "Budget", "Stats", "analyse", "budget", "choose", "hint", "hint_text", "search"]
