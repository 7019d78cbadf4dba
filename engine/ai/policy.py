"""Which actions the search weighs, per game: all legal actions, less the steps that only prepare another
action and can be undone by themselves, where the game's own default makes them needless.

WURRM World (Z5): ``toggle K`` marks or unmarks a die for the next reroll; the dice that miss the wish start
marked, which is the sensible reroll. A search that weighs toggles finds them worth the same as anything
else (nothing happens until the reroll) and can toggle forever, so the search leaves them out: it rerolls
the missing dice, pays for another reroll, or stops.
"""

from __future__ import annotations

from ..core import Game, State


def search_actions(game: Game, state: State, seat: str, actions: list[str]) -> list[str]:
    if game.key == "wurrm":
        kept = [a for a in actions if not a.startswith("toggle ")]
        return kept or actions
    return actions
