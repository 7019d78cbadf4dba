"""Every kind of message of each game at its largest, measured against Discord's limits (issue #48).

    python -m tools.card_limits [game ...]

Plays each game at its largest table (8 at MyWuXing, 6 at WURRM…) with every option that adds decisions turned
on, through the table service, and builds each message exactly as the Discord front end sends it (cogs/cards.py
with the components of cogs/sending.py and cogs/ui.py): the lobby once every seat is taken, every turn message,
each acting player's private picker (and each of its groups), their private view, a click on an older
message, the status, reminders and
deadline offers fired by the clock, the end with its follow-ups, the review's steps. Names are 32 characters (the
longest Discord allows) and ids full-length snowflakes, so the mentions are as long as they get. Prints the
largest of each kind: components (every nested one counted, as Discord counts them) and characters of text, and
fails when one is over 40 or 4,000. ``tests/test_card_limits.py`` runs the same walk.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from cogs import cards, ui
from cogs.sending import Sending
from engine import GAMES
from store import Store
from table import TableService, User, Where
from table.cards import MAX_COMPONENTS, MAX_TEXT

# the options that give a game the most decisions (and so the most buttons and the longest lines)
LARGEST = {"wassamasaw": {}, "wagara": {}, "seikatsu": {"yarimizu": True},
           "mywuxing": {"version": "think", "power_cards": "on", "end": "recycle"},
           "wurrm": {"bumpers": True, "bribery": True, "reverse": True, "petition": True, "lucky": True}}
HOURS = 3600.0


@dataclass
class Largest:
    """The largest message seen of each kind: kind → (components, characters, what it was)."""
    game: str
    players: int = 0
    kinds: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    def note(self, kind: str, message: cards.Message, what: str = "") -> None:
        components, characters = measured(message)
        old = self.kinds.get(kind)
        if old is None or (components, characters) > old[:2]:
            self.kinds[kind] = (components, characters, what)

    def over(self) -> list[str]:
        return [f"{self.game} {kind}: {c} components, {n} characters ({what})"
                for kind, (c, n, what) in self.kinds.items() if c > MAX_COMPONENTS or n > MAX_TEXT]

    def largest(self) -> tuple[str, int, int]:
        kind, (c, n, _what) = max(self.kinds.items(), key=lambda kv: kv[1][:2])
        return kind, c, n


def measured(message: cards.Message) -> tuple[int, int]:
    """(components, characters) of a message as Discord receives it: its components' JSON walked (every nested
    one counted, a section's accessory too), its text displays' characters together."""
    every = list(_walk(message.view.to_components()))
    assert len(every) == len(list(message.view.walk_children())), "discord.py counts these otherwise"
    return len(every), sum(len(c.get("content") or "") for c in every if c.get("type") == 10)


def _walk(components):
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]


def drawn(reply):
    """The reply with its pictures as if drawn (a stand-in PNG: only that they are shown counts here)."""
    for picture in reply.pictures():
        picture.data = picture.data or b"\x89PNG\r\n\x1a\n"
    return reply


class Clock:
    def __init__(self):
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def people(n: int) -> list[User]:
    """``n`` players with the longest names Discord allows (32) and full-length ids."""
    return [User(str(1_234_567_890_123_456_780 + i), f"Player {i} with a name this long!!"[:32].ljust(32, "!"))
            for i in range(n)]


async def walk(key: str, folder: Path, seed: int = 1) -> Largest:
    """Play ``key`` to its end at its largest table, noting every message; see the module."""
    game = GAMES[key]
    clock = Clock()
    seen = Largest(key)
    async with Store(folder / f"{key}.db") as store:
        svc = TableService(store, clock=clock)
        sender = SimpleNamespace(service=svc)
        where = Where("9" * 19, guild="8" * 19)
        players = people(game.max_players)
        names = {p.id: p for p in players}
        host = players[0]
        await svc.change_settings(where.guild, host, True, reminder_hours=1, deadline_hours=2,
                                  deadline_action="vote", mention=True)

        async def public(kind: str, reply, what: str = "") -> None:
            drawn(reply)
            ui.in_discord_times(reply)
            rows = await Sending.components(sender, reply)
            seen.note(kind, cards.public(reply, rows, key), what)

        def private(kind: str, reply, rows=(), what: str = "") -> None:
            drawn(reply)
            ui.in_discord_times(reply)
            for p in reply.private:
                seen.note(kind, cards.private(p, rows, key), what)

        opened = await svc.open_table(where, host, key, dict(LARGEST.get(key, {})))
        assert opened.ok, opened.private
        for p in players[1:]:
            assert (await svc.join(where, p)).ok
        await public("lobby", await svc.status(where, host), "every seat taken")
        reply = await svc.start(where, host)
        await public("turn", reply, "the first turn")
        seen.players = len((await svc.store.open_game(where.channel)).seats)
        rnd = random.Random(seed)
        steps = 0
        asked_before: set[tuple] = set()
        while True:
            row = await svc.store.open_game(where.channel)
            if row is None or row.status != "running":
                break
            state = game.load(row.state)
            acting = game.to_act(state)
            for seat in acting:
                if (seat, tuple(game.legal_actions(state, seat))) in asked_before:
                    continue          # the same choice as already asked (the others of a round choosing)
                asked_before.add((seat, tuple(game.legal_actions(state, seat))))
                asked = await svc.prompt(where, names[seat])
                if asked.ok:
                    rows = ui.picker_rows(asked.turn, asked.choices)
                    private("picker", asked, rows, f"{len(asked.choices)} choices")
                    for k in range(len(ui.groups(asked.choices)) if len(asked.choices) > ui.MAX_SELECT else 0):
                        private("picker (a group)", asked, ui.picker_rows(asked.turn, asked.choices, k))
            seat = acting[0]
            private("my view", await svc.hand(where, names[seat]))
            if row.version > 1:          # a click on the message before: "moved on", with the buttons of now
                stale = await svc.prompt(where, names[seat], version=row.version - 1)
                if stale.stale:
                    private("stale click", stale, await Sending.components(sender, stale))
            choices = game.bot_actions(state, seat) or game.legal_actions(state, seat)
            reply = await svc.act(where, names[seat], rnd.choice(choices))
            assert reply.ok, reply.private
            await public("end" if reply.rematch else "turn", reply, f"move {steps}")
            steps += 1
            if steps % 7 == 0:                # the clock moves on: reminders, deadline offers, time limits
                clock.now += 3 * HOURS
                await svc.fire_due()

                async def to_channel(notice):
                    await public("deadline offer" if notice.reply.offer else "reminder", notice.reply)

                async def to_user(notice, dm, part):
                    seen.note("direct message", cards.words(f"{dm.text} <#{notice.channel}>", key))
                await svc.deliver(to_channel, to_user)
            if steps % 25 == 0:
                await public("status", await svc.status(where, host), f"move {steps}")
        await public("status", await svc.status(where, host), "the end")
        for user in (host, User("5" * 19, "a spectator")):
            for step in (0, steps // 2, None):
                page = await svc.review(where, user, opened.game_id, step)
                if page.ok:
                    private("review", page, ui.review_rows(page.review))
        private("history", await svc.history(where, host, 1))
    return seen


async def walk_all(keys) -> list[Largest]:
    with tempfile.TemporaryDirectory() as tmp:
        return [await walk(key, Path(tmp)) for key in keys]


def main(argv: list[str]) -> int:
    keys = argv or list(LARGEST)
    found = asyncio.run(walk_all(keys))
    over = []
    for seen in found:
        print(f"{seen.game} ({GAMES[seen.game].max_players} players):")
        for kind, (c, n, what) in sorted(seen.kinds.items(), key=lambda kv: kv[1][:2], reverse=True):
            print(f"  {kind:18} {c:3} components  {n:5} characters  {what}")
        most = max(seen.kinds.items(), key=lambda kv: kv[1][0])
        longest = max(seen.kinds.items(), key=lambda kv: kv[1][1])
        print(f"  largest: {most[1][0]} components ({most[0]}), {longest[1][1]} characters ({longest[0]})")
        over += seen.over()
    print(f"limits: {MAX_COMPONENTS} components, {MAX_TEXT} characters; over them: {len(over)}")
    for line in over:
        print("  " + line)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
