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


def test_the_largest_controls_any_message_can_carry_fit_by_construction():
    """Beyond the games played: the most a card can hold. A turn with 20 choices as buttons beside the private
    choice and "My view" (more become a select, then groups), a deadline offer for 12 absent players, a review
    with every jump and view, a text of 10,000 characters: all within 40 components and 4,000 characters."""
    from cogs import cards, ui
    from table.cards import PART
    from table.replies import Offer, Picture, Private, Reply, ReviewPage, Turn

    def turn(n: int) -> Turn:
        acting = [str(10**18 + i) for i in range(3)]
        public = {seat: [f"take {k} of something long enough to be cut at eighty characters, as labels are"
                         for k in range(n)] for seat in acting[:1]}
        return Turn(1, "wurrm", 9, acting, public, acting[1:], {s: "N" * 32 for s in acting})

    picture = Picture("wurrm-1-v9-table.png", data=b"png", alt="A" * 1024)
    long = "x" * 10_000 + "\n" + "y" * 3000
    for n in (20, 21, 25, 26, 625):
        t = turn(n)
        reply = Reply(text=long + PART + "z" * 900, image=picture, turn=t,
                      mention=t.to_act, game_id=1)
        for message in (cards.public(reply, ui.turn_rows(t), "wurrm"),
                        cards.private(Private("1", long, picture), ui.picker_rows(t, t.public_actions[t.to_act[0]]))):
            components, characters = card_limits.measured(message)
            assert components <= MAX_COMPONENTS and characters <= MAX_TEXT, (n, components, characters)
    offer = Offer(1, 9, [str(10**18 + i) for i in range(12)], {str(10**18 + i): "N" * 32 for i in range(12)})
    message = cards.public(Reply(text=long, image=picture, offer=offer, mention=offer.absent), ui.offer_rows(offer))
    assert card_limits.measured(message)[0] <= MAX_COMPONENTS
    page = ReviewPage(1, 3, 9, "t", True, [(str(i), "V" * 100) for i in range(30)],
                      [("J" * 100, i) for i in range(30)], [str(i) for i in range(8)])
    components, characters = card_limits.measured(cards.private(Private("1", long, picture), ui.review_rows(page)))
    assert components <= MAX_COMPONENTS and characters <= MAX_TEXT
