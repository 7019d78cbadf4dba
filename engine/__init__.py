"""Teahouse's rules engine: pure, synchronous, deterministic. No Discord, no I/O, no clock.

``GAMES`` maps a game key to its Game (engine.core). Each game module registers itself on import; this
package imports every game module that is present.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from .core import Game, IllegalAction, State, UnknownRules
from .rng import Rng

GAMES: dict[str, Game] = {}

GAME_MODULES = ("wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm")


def register(game: Game) -> Game:
    if not game.key:
        raise ValueError("a game needs a key")
    GAMES[game.key] = game
    return game


def _load_games() -> None:
    here = Path(__file__).parent
    for name in GAME_MODULES:
        if (here / f"{name}.py").exists():
            importlib.import_module(f"{__name__}.{name}")


_load_games()

__all__ = ["GAMES", "Game", "IllegalAction", "Rng", "State", "UnknownRules", "register"]
