"""Discord's limits by construction (issue #48): every kind of message of every game at its largest table (8 at
MyWuXing, 6 at WURRM…) stays within 40 components and 4,000 characters of text. The walk is
tools/card_limits.py (``python -m tools.card_limits`` prints the figures)."""

from __future__ import annotations

import pytest

from engine import GAMES
from table.cards import MAX_COMPONENTS, MAX_TEXT
from tools import card_limits

KINDS = {"lobby", "turn", "picker", "my view", "status", "reminder", "deadline offer", "end", "review", "history",
         "stale click"}


@pytest.mark.parametrize("key", list(card_limits.LARGEST))
async def test_every_kind_of_message_at_the_largest_table_is_within_discords_limits(key, tmp_path):
    seen = await card_limits.walk(key, tmp_path)
    assert not seen.over(), seen.over()
    assert KINDS <= set(seen.kinds), KINDS - set(seen.kinds)
    kind, components, characters = seen.largest()
    assert components <= MAX_COMPONENTS and characters <= MAX_TEXT
    assert seen.players == GAMES[key].max_players == {"mywuxing": 8, "wurrm": 6}.get(key, seen.players)
