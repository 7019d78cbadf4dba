"""The SQLite store: migrations, the one-open-game rule, version checks, append-only log, reopening."""

import asyncio
import sqlite3

import pytest
from sqlalchemy import exc, text

from store.rows import Seat
from store.store import SCHEMA_VERSION, ChannelBusy, Store, StoreError, VersionConflict

ALICE, BOB = Seat("alice", "Alice"), Seat("bob", "Bob")


async def test_migrating_an_empty_database(tmp_path):
    async with Store(tmp_path / "t.db") as store:
        assert await store.schema_version() == SCHEMA_VERSION
        async with store._connection("write") as conn:      # the writer (reads have a connection of their own)
            assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
            assert (await conn.exec_driver_sql("PRAGMA user_version")).scalar() == SCHEMA_VERSION


async def test_migrating_an_existing_database_keeps_its_games(tmp_path):
    path = tmp_path / "old.db"
    store = await Store(path).open(revision="0001")   # a database made by the first release
    assert await store.schema_version() == 1
    await raw(store, "INSERT INTO games (guild, channel, game, status, host, created_at, updated_at) "
                     "VALUES ('g', 'c', 'pebbles', 'lobby', 'alice', 1, 1)")
    await store.close()
    async with Store(path) as store:            # opening it upgrades it
        assert await store.schema_version() == SCHEMA_VERSION
        row = await store.open_game("c")
        assert row.game == "pebbles" and row.parent_channel is None and row.result is None
        assert (await store.settings("g")).reminder_hours == 4     # the new tables are there


async def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    with pytest.raises(StoreError, match="newer Teahouse"):
        await Store(path).open()


async def raw(store, sql: str, params=None):
    """Run SQL on the store's own connection, in a write transaction."""
    async def work(conn):
        return await conn.execute(text(sql), params)
    return await store._transaction(work)


async def test_one_unfinished_game_per_channel(tmp_path):
    async with Store(tmp_path / "t.db") as store:
        g = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
        with pytest.raises(ChannelBusy):
            await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=BOB, now=2)
        await store.set_status(g, "abandoned", now=3)
        again = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=BOB, now=4)
        assert again.id != g.id


async def test_stale_version_writes_nothing(tmp_path):
    async with Store(tmp_path / "t.db") as store:
        g = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
        g = await store.start_game(g, seats=[ALICE, BOB], seed=1, state='{"s":0}', now=2)
        first = await store.record_moves(g, [("alice", "bid 1", "alice bids.")], '{"s":1}', now=3)
        with pytest.raises(VersionConflict):
            await store.record_moves(g, [("bob", "bid 2", "bob bids.")], '{"s":2}', now=4)
        now = await store.game(g.id)
        assert now.state == '{"s":1}' and now.version == first.version
        assert [e.action for e in await store.log(g.id)] == ["bid 1"]


async def test_two_connections_racing_on_one_game_apply_exactly_one(tmp_path):
    """Two bot processes (two connections) read the same version; only one write lands."""
    path = tmp_path / "t.db"
    async with Store(path) as a, Store(path) as b:
        g = await a.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
        g = await a.start_game(g, seats=[ALICE, BOB], seed=1, state="{}", now=2)
        ga, gb = await a.game(g.id), await b.game(g.id)
        results = await asyncio.gather(
            a.record_moves(ga, [("alice", "x", "x")], '{"a":1}', now=3),
            b.record_moves(gb, [("bob", "y", "y")], '{"b":1}', now=3),
            return_exceptions=True,
        )
        assert sum(isinstance(r, VersionConflict) for r in results) == 1
        assert len(await a.log(g.id)) == 1


async def test_the_action_log_is_append_only(tmp_path):
    async with Store(tmp_path / "t.db") as store:
        g = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
        g = await store.start_game(g, seats=[ALICE, BOB], seed=1, state="{}", now=2)
        await store.record_moves(g, [("alice", "x", "x")], "{}", now=3)
        for sql in ("UPDATE actions SET action = 'y'", "DELETE FROM actions"):
            with pytest.raises(exc.IntegrityError, match="append-only"):
                await raw(store, sql)


async def test_a_failed_move_transaction_leaves_the_previous_state(tmp_path):
    async with Store(tmp_path / "t.db") as store:
        g = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
        g = await store.start_game(g, seats=[ALICE, BOB], seed=1, state='{"v":0}', now=2)
        # a duplicate sequence number makes the second insert fail after the state update
        with pytest.raises(exc.IntegrityError):
            await store._transaction(lambda conn: _half_move(store, conn, g))
        again = await store.game(g.id)
        assert again.state == '{"v":0}' and again.version == g.version
        assert await store.log(g.id) == []


async def _half_move(store, conn, g):
    await store._bump(conn, g, 5, state='{"v":1}')
    for _ in range(2):
        await conn.execute(text("INSERT INTO actions (game_id, seq, seat, action, line, at) "
                                "VALUES (:g, 1, 'a', 'x', 'x', 5)"), {"g": g.id})


async def test_closing_and_reopening_resumes_every_game(tmp_path):
    path = tmp_path / "t.db"
    async with Store(path) as store:
        for ch in ("c1", "c2"):
            g = await store.create_game(guild="g", channel=ch, game="pebbles", options={"rounds": 2}, host=ALICE,
                                        now=1)
            g = await store.start_game(g, seats=[ALICE, BOB], seed=9, state=f'{{"ch":"{ch}"}}', now=2)
            await store.record_moves(g, [("alice", "bid 1", "alice bids.")], f'{{"ch":"{ch}","m":1}}', now=3)
    async with Store(path) as store:
        games = await store.games()
        assert [g.channel for g in games] == ["c1", "c2"]
        for g in games:
            assert g.status == "running" and g.options == {"rounds": 2} and g.seed == 9
            assert [s.name for s in g.seats] == ["Alice", "Bob"]
            assert g.state == f'{{"ch":"{g.channel}","m":1}}'
            assert len(await store.log(g.id)) == 1
