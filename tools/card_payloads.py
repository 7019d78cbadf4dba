"""What the bot sends Discord for a game's lobby, a turn and its end (issue #48): the JSON payloads, as the real
discord.py client sends them to the fake Discord of the tests (tests/fakediscord.py) on 127.0.0.1.

    python -m tools.card_payloads [game]

Opens a table (``/game new``), seats a second player (Join: the lobby's message then), starts it (``/game
start``), plays it to its last move through the table service (quick), and makes that move by ``/game move``:
prints the body of the lobby's, the first turn's and the end's message (an interaction's ``data`` for a
message made by its callback). Every request was checked against Discord's OpenAPI description on the way; the
count is printed last. ``tests/test_discord_cards.py`` plays the same and checks what it finds.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from engine import GAMES
from table import User, Where


async def lobby_turn_end(fake, bot, key: str = "wassamasaw") -> dict:
    """Play ``key`` by alice and bob as the module says: {"lobby"|"turn"|"end": (message, the body sent)}."""
    from tests.support import answer

    out = {}
    lobby = await answer(await fake.slash("alice", "general", "game new", options={"game": key}))
    mark = len(fake.requests)
    lobby = await answer(await fake.click("bob", lobby, label="Join"))     # the lobby with both seated
    out["lobby"] = (lobby, last_body(fake, mark))
    mark = len(fake.requests)
    turn = await answer(await fake.slash("alice", "general", "game start"))
    await fake.settle()
    out["turn"] = (turn, last_body(fake, mark))
    svc, where = bot.service, Where(str(fake.channel("general").id), str(fake.guild.id))
    game = GAMES[key]
    names = {str(fake.user(n).id): n for n in ("alice", "bob")}
    while True:
        state = game.load((await svc.store.open_game(where.channel)).state)
        seat = game.to_act(state)[0]
        action = (game.bot_actions(state, seat) or game.legal_actions(state, seat))[0]
        if not game.to_act(game.apply(game.load(game.dump(state)), seat, action)):
            break
        reply = await svc.act(where, User(seat, names[seat]), action)
        assert reply.ok, reply.private
    mark = len(fake.requests)
    end = await answer(await fake.slash(names[seat], "general", "game move", options={"action": action}))
    await fake.settle()
    out["end"] = (end, last_body(fake, mark))
    return out


def last_body(fake, since: int) -> dict:
    """The last message body the bot sent since request ``since`` that holds components (a callback's ``data``)."""
    for r in reversed(fake.requests[since:]):
        body = r.json if isinstance(r.json, dict) else {}
        body = body.get("data", body) if r.path.endswith("/callback") else body
        if body and body.get("components"):
            return body
    raise AssertionError("no message with components was sent")


async def main(key: str) -> int:
    from cogs.runner import TeahouseBot
    from store import Store
    from table import TableService
    from tests.fakediscord import FakeDiscord

    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            store = Store(Path(tmp) / "cards.db")
            async with fake.run(TeahouseBot(store, service=TableService(store))) as bot:
                shown = await lobby_turn_end(fake, bot, key)
            for name, (_message, body) in shown.items():
                print(f"--- {name}")
                print(json.dumps(body, indent=1, ensure_ascii=False))
            print(f"--- {fake.openapi_checked} requests checked against Discord's OpenAPI description, "
                  f"{len(fake.openapi_refused)} refused; the fake's own checks refused {len(fake.errors)}")
            return 1 if fake.openapi_refused or fake.errors else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "wassamasaw")))
