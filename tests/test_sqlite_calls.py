"""store/sqlite_calls.py: one call to aiosqlite's thread per statement, and everything SQLAlchemy reads from a
cursor still right (rows, changed rows, row ids, errors, rollbacks)."""

import asyncio
import logging

import aiosqlite
import pytest
from sqlalchemy import Column, Integer, MetaData, Table, Text, insert, select, update
from sqlalchemy.exc import IntegrityError

from store import sqlite_calls
from store.dialects import SqliteSide

meta = MetaData()
things = Table("things", meta, Column("id", Integer, primary_key=True), Column("name", Text, unique=True))


class Calls(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.calls = []

    def emit(self, record):
        if record.msg.startswith("executing"):
            self.calls.append(str(record.args[0]))


@pytest.fixture
async def side(tmp_path):
    side = SqliteSide(str(tmp_path / "calls.db"))
    await side.open()
    async with side.connection("write") as conn:
        await side.prepare(conn)
        await conn.run_sync(meta.create_all)
    yield side
    await side.close()


async def test_rows_changed_rows_and_row_ids_come_through(side):
    for _ in range(2):                           # the first time each text is new, then it is known
        async with side.connection("write") as conn:
            await conn.execute(things.delete())
            first = await conn.execute(insert(things).values(name="a"))
            assert first.inserted_primary_key[0] is not None or first.rowcount in (-1, 1)
            await conn.execute(insert(things), [{"name": "b"}, {"name": "c"}])
            done = await conn.execute(update(things).where(things.c.name != "a").values(name=things.c.name + "!"))
            assert done.rowcount == 2
            assert (await conn.execute(select(things.c.name).order_by(things.c.name))).scalars().all() == \
                ["a", "b!", "c!"]


async def test_a_failing_statement_of_known_text_rolls_the_transaction_back(side):
    async with side.connection("write") as conn:
        await conn.execute(insert(things), [{"name": "x"}])
    for _ in range(2):                           # the second time every text is known: one call each
        with pytest.raises(IntegrityError):
            async with side.connection("write") as conn:
                await conn.execute(insert(things), [{"name": "y"}])
                await conn.execute(insert(things), [{"name": "x"}])        # unique: fails, and nothing after runs
                await conn.execute(insert(things), [{"name": "z"}])
        async with side.connection("read") as conn:
            assert (await conn.execute(select(things.c.name))).scalars().all() == ["x"]   # nothing of it stayed


async def test_a_statement_of_known_text_is_one_call_to_the_thread(side):
    async with side.connection("write") as conn:
        await conn.execute(insert(things), [{"name": "warm"}])          # every text below is known now
        await conn.execute(things.delete().where(things.c.name == "e"))
        await conn.execute(things.delete())
    calls, log = Calls(), logging.getLogger("aiosqlite")
    level = log.level
    log.setLevel(logging.DEBUG)
    log.addHandler(calls)
    try:
        async with side.connection("write") as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            assert isinstance(raw, sqlite_calls.Connection)
            for name in "abcde":
                await conn.execute(insert(things), [{"name": name}])
            await conn.execute(things.delete().where(things.c.name == "e"))
    finally:
        log.removeHandler(calls)
        log.setLevel(level)
    # BEGIN IMMEDIATE, five INSERTs and a DELETE, COMMIT: one call each, no cursor opened or closed
    assert len(calls.calls) == 8, calls.calls
    async with side.connection("read") as conn:
        assert (await conn.execute(select(things.c.name).order_by(things.c.name))).scalars().all() == list("abcd")


async def test_a_cancelled_writer_leaves_nothing_behind(side):
    async with side.connection("write") as conn:
        await conn.execute(insert(things), [{"name": "warm"}])
        await conn.execute(things.delete())
    started = asyncio.Event()

    async def write():
        async with side.connection("write") as conn:
            for name in "pqr":
                await conn.execute(insert(things), [{"name": name}])
            started.set()
            await asyncio.Event().wait()       # cancelled here, inside the transaction

    task = asyncio.create_task(write())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with side.connection("write") as conn:         # the writer is usable and nothing was kept
        assert (await conn.execute(select(things.c.name))).scalars().all() == []


async def test_the_changed_rows_of_known_texts_come_through_outside_a_transaction(tmp_path):
    conn = sqlite_calls.Connection(await aiosqlite.connect(str(tmp_path / "plain.db"), isolation_level=None))
    try:
        cur = conn.cursor()
        await cur.execute("CREATE TABLE t (a)")
        for _ in range(2):
            await cur.execute("INSERT INTO t VALUES (?)", (1,))
            assert cur.rowcount == 1
        await cur.execute("SELECT count(*) FROM t")
        assert await cur.fetchall() == [(2,)]
    finally:
        await conn.close()
