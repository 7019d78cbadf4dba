"""Computer players. They see what their seat may see and choose among ``legal_actions`` only."""

from __future__ import annotations

import random
from collections.abc import Callable

from .core import Game, State


def random_action(game: Game, state: State, seat: str, rnd: random.Random) -> str:
    """A random choice among the game's ``bot_actions`` (all legal actions, or a sensible subset where
    blind play would never end). Its randomness is the bot's own, not the game's: the action log records
    the choice, so replays do not depend on it."""
    actions = game.bot_actions(state, seat)
    if not actions:
        raise ValueError(f"{seat} has no legal action")
    return rnd.choice(actions)


def play(game: Game, state: State, rnd: random.Random, turns: int,
         choose: Callable[[Game, State, str, random.Random], str] = random_action) -> State:
    """The state after ``turns`` turns from ``state``, or at the game's end if that comes first. Each turn
    ``rnd`` picks one of the seats to act, whose action is ``choose(game, state, seat, rnd)``: by default
    ``random_action``, a computer playing at random (benchmarks and tests that want finished games)."""
    for _ in range(turns):
        if game.result(state) is not None:
            break
        seat = rnd.choice(game.to_act(state))
        state = game.apply(state, seat, choose(game, state, seat, rnd))
    return state
