"""Computer players. They see what their seat may see and choose among ``legal_actions`` only."""

from __future__ import annotations

import random

from .core import Game, State


def random_action(game: Game, state: State, seat: str, rnd: random.Random) -> str:
    """A random choice among the game's ``bot_actions`` (all legal actions, or a sensible subset where
    blind play would never end). Its randomness is the bot's own, not the game's: the action log records
    the choice, so replays do not depend on it."""
    actions = game.bot_actions(state, seat)
    if not actions:
        raise ValueError(f"{seat} has no legal action")
    return rnd.choice(actions)
