"""Moving a SQLite database into PostgreSQL: every row of every table, the same games afterwards."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import tests.tinygame  # noqa: F401  (registers Pebbles)
from store import migrate as moving
from store import open_store, ratings
from store.leagues import LeagueStore
from store.migrate import main, migrate
from store.rows import Seat, Settings
from store.schema import TABLES
from store.spectators import SpectatorStore
from store.store import StoreError
from table import TableService, User, Where
from tests.support import Clock, started

ROOT = Path(__file__).resolve().parent.parent
ALICE, BOB = User("alice", "Alice"), User("bob", "Bob")


async def fill(path) -> None:
    clock = Clock()
    async with open_store(path) as store:
        svc = TableService(store, clock=clock, render=False)
        await started(svc, ALICE, BOB, game="pebbles", where=Where("c1", "g"))
        await svc.act(Where("c1", "g"), ALICE, "bid 1")
        await started(svc, ALICE, BOB, game="wassamasaw", where=Where("c2", "g"))
        await started(svc, ALICE, BOB, game="pebbles", where=Where("c3", "h"))
        await svc.abandon(Where("c3", "h"), ALICE, confirm=True)
        await svc.open_table(Where("c4", None), BOB, "pebbles")
        await store.save_settings("g", Settings(2, 10, "skip", True, False, "daily"))
        await store.set_dm("bob", True)
        ended = await store.create_game(guild="g", channel="c5", game="pebbles", options={},
                                        host=Seat("alice", "Alice"),
                                        now=clock())
        ended = await store.start_game(ended, seats=[Seat("alice", "Alice"), Seat("bob", "Bob")], seed=1, state="{}",
                                       now=clock())
        await store.record_moves(ended, [], "{}", now=clock(), status="finished", result={"winners": ["bob"]})
        await store.remember_locale("guild:g", "it")     # the languages move too (#17)
        await store.save_analysis(ended.id, 1, engine=1, moves=0, data={"judgements": []}, seconds=0.1,
                                  now=clock())           # and the analyses (#37)
        await started(svc, ALICE, BOB, game="pebbles", where=Where("c6", "g"), options={"speed": "fast"})
        await svc.set_hours(ALICE, "Europe/Rome", "23:00-07:00")      # the clocks and hours too (#34)
        await svc.away(BOB, 2)                                        # and the away spells taken
        await svc.away(BOB, None)
        league = Where("lg", "g")                                        # and a league (#35)
        assert (await svc.leagues.new(league, ALICE, "pebbles", "swiss", 1, "untimed", True)).ok
        await svc.leagues.join(league, ALICE)
        await svc.leagues.join(league, BOB)
        assert (await svc.leagues.start(league, ALICE, True)).ok
        # and the spectators (#49): a watcher, a follow, their choices, a waiting message, a TV channel and card
        await svc.tv.set_channel("g", ALICE, True, "tv")
        await svc.following.follow(User("carol", "Carol"), Where("x", "g"), ALICE)
        await started(svc, ALICE, BOB, game="pebbles", where=Where("c7", "g"))
        watched = await store.open_game("c7")
        await svc.watching.watch(Where("x", "g"), User("carol", "Carol"), watched.id, "rounds")

        async def shown(op, channel, message, reply, nonce):
            return "m1"
        await svc.tv.step("g", shown)
        clock.now += 30 * 3600
        await svc.fire_due()                       # into the outbox, not delivered
        assert await store.outgoing()


async def snapshot(target) -> dict:
    async with open_store(target) as store:
        games = await store.games(("lobby", "running", "finished", "abandoned"))
        return {"games": [(g.id, g.guild, g.channel, g.status, g.version, g.state, g.seats, g.waiting, g.result)
                          for g in games],
                "logs": [await store.log(g.id) for g in games],
                "timers": await store.pending_timers(),
                "outbox": [(o.id, o.channel, o.payload, o.parts_done) for o in await store.outgoing()],
                "settings": await store.settings("g"), "dm": await store.wants_dm("bob"),
                "locale": await store.locale_of("guild:g"),
                "analyses": [await store.analysis(g.id, 1) for g in games],
                "league": [await LeagueStore(store).league(1), await LeagueStore(store).players(1),
                           await LeagueStore(store).pairings(1), await LeagueStore(store).events(1)],
                "record": sorted(await store.record_of("alice")),
                "ratings": await ratings.board(store, "g", "pebbles"),
                "clocks": [await store.clocks(g.id) for g in games],
                "hours": await store.hours_of([ALICE.id, BOB.id]),
                "away": await store.away_spells(BOB.id, 0),
                "spectators": await spectators(SpectatorStore(store), games)}


async def spectators(rows: SpectatorStore, games) -> list:
    return [[await rows.watchers(g.id) for g in games], await rows.following("carol"), await rows.prefs("carol"),
            await rows.tv_channels(), await rows.cards("g"), await rows.due_mail(1e12)]


async def test_every_table_moves_and_the_games_go_on(tmp_path, pg_url):
    path = tmp_path / "old.db"
    await fill(path)
    counts = await migrate(path, pg_url, say=lambda *_: None)
    # every table has rows to move but send_budget, which only PostgreSQL's processes write (#50)
    assert set(counts) == set(TABLES) and all(counts[t] for t in TABLES if t != "send_budget"), counts
    assert await snapshot(pg_url) == await snapshot(path)
    async with open_store(pg_url) as store:            # new rows get new ids after the moved ones
        svc = TableService(store, clock=Clock(), render=False)
        assert (await svc.open_table(Where("c9", "g"), ALICE, "pebbles")).ok
        assert (await store.open_game("c9")).id == counts["games"] + 1


async def test_a_database_with_games_is_not_moved_into(tmp_path, pg_url):
    path = tmp_path / "old.db"
    await fill(path)
    await migrate(path, pg_url, say=lambda *_: None)
    with pytest.raises(StoreError, match="already holds games"):
        await migrate(path, pg_url, say=lambda *_: None)
    assert await asyncio.to_thread(main, [str(tmp_path / "missing.db"), pg_url]) == 1
    assert await asyncio.to_thread(main, [str(path), "sqlite:///x.db"]) == 2


async def test_the_command_line(tmp_path, pg_url):
    path = tmp_path / "old.db"
    await fill(path)
    run = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "store.migrate", str(path), pg_url],
                                  cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "every table's count and checksum match" in run.stdout and "actions:" in run.stdout


async def test_a_move_stopped_midway_goes_on_with_no_row_twice_and_the_bot_waits_for_it(tmp_path, pg_url,
                                                                                      monkeypatch):
    path = tmp_path / "old.db"
    await fill(path)
    monkeypatch.setattr(moving, "FIRST_BATCH", 2)      # batches of a few rows: the stop falls inside a table
    monkeypatch.setattr(moving, "BATCH_BYTES", 300)
    said = []
    partial = await migrate(path, pg_url, say=said.append, stop_after=25)
    assert "run the same command again" in said[-1] and 25 <= sum(partial.values()) < 40
    with pytest.raises(StoreError, match="not finished"):        # the bot will not start on half the games
        await open_store(pg_url).open()
    counts = await migrate(path, pg_url, say=said.append)       # goes on after the last batch that committed
    assert "count and checksum match" in said[-1]
    assert await snapshot(pg_url) == await snapshot(path)
    async with open_store(pg_url) as store:                     # and the bot may start now
        assert len(await store.games(("lobby", "running", "finished", "abandoned"))) == counts["games"]


async def test_a_resumed_move_refuses_a_changed_file_and_a_wrong_row_empties_every_table(tmp_path, pg_url,
                                                                                       monkeypatch):
    import asyncpg

    path = tmp_path / "old.db"
    await fill(path)
    monkeypatch.setattr(moving, "FIRST_BATCH", 2)
    monkeypatch.setattr(moving, "BATCH_BYTES", 300)
    await migrate(path, pg_url, say=lambda *_: None, stop_after=20)
    async with open_store(path) as store:                       # the bot ran on the file meanwhile
        await store.set_dm("carol", True)
    with pytest.raises(StoreError, match="changed since the move"):
        await migrate(path, pg_url, say=lambda *_: None)
    with sqlite3.connect(path) as con:                        # and is as it was again
        con.execute("DELETE FROM notify WHERE user_id = 'carol'")
    conn = await asyncpg.connect(pg_url)
    try:                                                        # a moved row altered in the target
        await conn.execute("UPDATE games SET host = 'mallory' WHERE id = 1")
        with pytest.raises(StoreError, match="games: the rows in .* differ .* Nothing was kept"):
            await migrate(path, pg_url, say=lambda *_: None)
        assert [await conn.fetchval(f'SELECT COUNT(*) FROM "{t}"') for t in TABLES] == [0] * len(TABLES)
        assert await conn.fetchval("SELECT to_regclass('teahouse_migration')") is None
    finally:
        await conn.close()
    await migrate(path, pg_url, say=lambda *_: None)            # and the move can be made again from scratch
    assert await snapshot(pg_url) == await snapshot(path)
