"""Every command's answer while the database does not answer (issue #38), in English and in Italian.

The real bot (discord.py and the cogs) runs against the fake Discord of the tests (tests/fakediscord.py) on a
store of either kind. A Wassamasaw game is started in one channel and a lobby opened in another; then every
connection the store asks for fails with the driver's own error for a server that went away
(``asyncpg``'s ConnectionDoesNotExistError, SQLite's "disk I/O error"), as SQLAlchemy hands it on, and each
slash command and button is tried by an English and by an Italian user. What each was answered is printed.

    .venv/bin/python -m tools.store_failing [--postgres [--stopped]] > docs/words-store-failing.txt

``--postgres`` runs on a throwaway PostgreSQL server (tests/pg.py) instead of a SQLite file; with ``--stopped``
nothing is injected: the server itself is stopped while the commands are tried (the case issue #38 met), and
started again after. tests/test_store_failing.py runs the same on both databases and reads every answer.
docs/words-store-failing.txt holds the SQLite run and the stopped PostgreSQL server's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# read: only shows something; write: would change a table, a seat or a setting (table/errors.py decides)
READS = [
    ("game status", {}), ("game clock", {}), ("game hand", {}), ("game history", {}), ("game replay", {}),
    ("game review", {}), ("game export", {}), ("game analysis", {}), ("game hint", {}),
    ("games", {}), ("mygames", {}), ("stats", {}), ("leaderboard", {"game": "wassamasaw"}), ("profile", {}),
    ("game rules", {"game": "wassamasaw"}), ("league standings", {}), ("league pairings", {}),
]
WRITES = [
    ("game new", {"game": "wassamasaw"}), ("game learn", {"game": "wassamasaw"}), ("game join", {}),
    ("game leave", {}), ("game addbot", {}), ("game option", {"name": "hints", "value": "off"}), ("game start", {}),
    ("game move", {"action": "take fire 3"}), ("game undo", {}), ("game skip", {"player": "bob"}),
    ("game remove", {"player": "bob"}), ("game rematch", {}), ("game abandon", {}),
    ("wassamasaw take", {"die": "fire 3"}),
    ("settings", {"reminder_hours": 2}), ("notify", {"zone": "Europe/Rome"}), ("away", {"days": 3}),
    ("league new", {"game": "seikatsu", "format": "swiss", "rounds": 3}), ("league join", {}), ("league start", {}),
]
BUTTONS = [("button my view", "read"), ("button action", "write"), ("button lobby join", "write")]


@dataclass
class Answer:
    kind: str          # read, write
    command: str       # as typed: /game status, or a button's name
    locale: str
    text: str


def failing_error(store):
    """The error the store's driver raises when its server is gone, wrapped as SQLAlchemy hands it on."""
    from sqlalchemy import exc

    if store.side.name == "postgresql":
        import asyncpg

        orig = asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")
    else:
        orig = sqlite3.OperationalError("disk I/O error")
    return exc.OperationalError("SELECT 1", None, orig)


@contextlib.asynccontextmanager
async def server_stopped(server):
    """Within the block the PostgreSQL server (tests/pg.py's) is stopped, as in issue #38; started again after."""
    stop = ("pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop")
    start = ("pg_ctl", "-D", str(server.data), "-w", "-t", "60", "-l", str(server.data / "log"), "-o",
             f"-h 127.0.0.1 -p {server.port} -k {server.data} -F", "start")
    r = await asyncio.to_thread(server._run, *stop)
    assert r.returncode == 0, r.stderr
    try:
        yield
    finally:
        r = await asyncio.to_thread(server._run, *start)
        assert r.returncode == 0, r.stderr


@contextlib.contextmanager
def store_fails(store):
    """Within the block every connection the store asks for fails, reads and writes alike."""
    side = store.side
    original = side.connection

    @contextlib.asynccontextmanager
    async def broken(mode):
        raise failing_error(store)
        yield  # pragma: no cover

    side.connection = broken
    try:
        yield
    finally:
        side.connection = original


@contextlib.asynccontextmanager
async def _sync(manager):
    with manager:
        yield


def shown(message) -> str:
    return message.said if message is not None else ""


async def collect(target, failing=None, after=None) -> list[Answer]:
    """Every command's answer with the store failing, on the database at ``target`` (a path or a URL).
    ``failing()``: the block in which the store fails (by default every connection it asks for fails);
    ``after(fake, store)``, if given, runs once the store works again (that play resumes)."""
    from cogs.runner import TeahouseBot
    from store import open_store
    from table import TableService
    from tests.fakediscord import FakeDiscord
    from tests.support import answer

    out: list[Answer] = []
    async with FakeDiscord() as fake:
        for name, locale in (("alice", "en-US"), ("bob", "en-US"), ("carla", "it"), ("dario", "it")):
            fake.user(name).locale = locale
        store = open_store(target)
        bot = TeahouseBot(store, service=TableService(store, render=False))
        async with fake.run(bot):
            # a game under way in #general (alice, bob), a lobby in #games (carla's)
            lobby = await answer(await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"}))
            joined = await answer(await fake.click("bob", lobby, label="Join"))
            turn = await answer(await fake.click("alice", joined, label="Start"))
            other = await answer(await fake.slash("carla", "games", "game new", options={"game": "wassamasaw"}))
            action = next(b for b in turn.buttons() if b["custom_id"].startswith(("th:a:", "th:g:", "th:p:")))
            view = next(b for b in turn.buttons() if b["custom_id"].startswith("th:v:"))
            join = next(b for b in other.buttons() if b["custom_id"].startswith("th:l:") and
                        b["custom_id"].endswith(":join"))
            await fake.settle()
            async with (failing() if failing is not None else _sync(store_fails(store))):
                for user in ("alice", "carla"):
                    locale = "it" if user == "carla" else "en"
                    for kind, commands in (("read", READS), ("write", WRITES)):
                        for command, options in commands:
                            options = {k: (fake.user(v) if k == "player" else v) for k, v in options.items()}
                            message = await answer(await fake.slash(user, "general", command, options=options))
                            out.append(Answer(kind, "/" + command, locale, shown(message)))
                    for name, kind in BUTTONS:
                        message, custom = {"button my view": (turn, view), "button action": (turn, action),
                                           "button lobby join": (other, join)}[name]
                        got = await answer(await fake.click(user, message, custom["custom_id"]))
                        out.append(Answer(kind, name, locale, shown(got)))
            await fake.settle()
            if after is not None:
                await after(fake, turn)
        await store.close()
    return out


def report(answers: list[Answer], database: str) -> str:
    lines = [f"Every command's answer while the store fails ({database}), as each user read it: alice (en) and",
             "carla (it). Commands by their English names (carla's client shows them as /partita …); carla is not",
             "a manager of the server, so /settings answers her with that before it reaches the database.", ""]
    for locale in ("en", "it"):
        for kind in ("read", "write"):
            lines.append(f"## {locale}, {kind}s")
            for a in answers:
                if a.locale == locale and a.kind == kind:
                    text = a.text.split("\n")
                    more = f"  [… {len(text) - 1} more lines: the guide needs no database]" if len(text) > 1 else ""
                    lines.append(f"{a.command:<22} {text[0]}{more}")
            lines.append("")
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="on a throwaway PostgreSQL server (tests/pg.py)")
    parser.add_argument("--stopped", action="store_true", help="with --postgres: stop the server itself while the "
                                                               "commands are tried, then start it again")
    args = parser.parse_args(argv)
    if args.postgres:
        from tests.pg import PgServer

        server = PgServer().start()
        try:
            failing = (lambda: server_stopped(server)) if args.stopped else None
            name = "PostgreSQL, the server stopped" if args.stopped else "PostgreSQL"
            print(report(await collect(await server.fresh(), failing), name))
        finally:
            server.stop()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            print(report(await collect(Path(tmp) / "t.db"), "SQLite"))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
