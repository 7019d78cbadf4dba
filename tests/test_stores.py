"""One suite for both stores: every test here runs against SQLite and against PostgreSQL (a real server,
tests/pg.py), and the service tests of test_service, test_daylong, test_speed, test_hardening and test_clocks run again
on PostgreSQL."""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import replace

import asyncpg
import pytest
from sqlalchemy import exc, text

from store import open_store
from store.rows import Seat, Settings
from store.shards import Shards
from store.store import SCHEMA_VERSION, ChannelBusy, StoreError, VersionConflict
from table import TableService
from tests import test_clocks, test_daylong, test_hardening, test_service, test_speed
from tests.support import Clock

ALICE, BOB = Seat("alice", "Alice"), Seat("bob", "Bob")


async def raw(store, sql: str):
    """Run SQL on the store's own connection (either kind), in a write transaction."""
    async def work(conn):
        return await conn.execute(text(sql))
    return await store._transaction(work)


async def running(store, channel="c", guild="g"):
    g = await store.create_game(guild=guild, channel=channel, game="pebbles", options={}, host=ALICE, now=1)
    return await store.start_game(g, seats=[ALICE, BOB], seed=2**61, state='{"s":0}', now=2)


async def test_a_new_database_gets_the_current_schema(any_store):
    assert await any_store.schema_version() == SCHEMA_VERSION
    assert await any_store.migrate() == SCHEMA_VERSION       # a second run changes nothing


async def test_one_unfinished_game_per_channel(any_store):
    store = any_store
    g = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
    with pytest.raises(ChannelBusy):
        await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=BOB, now=2)
    await store.set_status(g, "abandoned", now=3)
    again = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=BOB, now=4)
    assert again.id != g.id and again.host == "bob" and [s.name for s in again.seats] == ["Bob"]


async def test_stale_version_writes_nothing(any_store):
    store = any_store
    g = await running(store)
    first = await store.record_moves(g, [("alice", "bid 1", "alice bids.")], '{"s":1}', now=3)
    with pytest.raises(VersionConflict):
        await store.record_moves(g, [("bob", "bid 2", "bob bids.")], '{"s":2}', now=4)
    now = await store.game(g.id)
    assert now.state == '{"s":1}' and now.version == first.version and now.seed == 2**61
    assert [e.action for e in await store.log(g.id)] == ["bid 1"]


async def test_several_moves_are_numbered_in_order_with_their_timers(any_store):
    """The log rows of one save follow the last in the order given, the timers carry the new version; on
    PostgreSQL a move that goes on is one statement in autocommit (no BEGIN, no COMMIT round trips), a move that
    ends the game the general transaction (its results and ratings)."""
    from sqlalchemy import event

    store = any_store
    g = await running(store)
    g = await store.record_moves(g, [("alice", "a", "A.")], '{"s":1}', now=3, timers=[("limit", 90)])
    trace: list[tuple[str, str | None]] = []

    def traced(conn, cursor, statement, *args):
        # each statement the server runs, and whether it ran in autocommit (SQLAlchemy's own begin and commit
        # events fire in autocommit too, and asyncpg then sends neither)
        trace.append((statement.split()[0], conn.get_execution_options().get("isolation_level")))

    postgres = store.side.name == "postgresql"
    if postgres:
        sync = store.side.engines["write"].sync_engine
        event.listen(sync, "before_cursor_execute", traced)
    try:
        g2 = await store.record_moves(g, [("bob", "b", "B."), ("alice", "c", "C."), ("bob", "d", "D.")],
                                      '{"s":2}', now=4.5, timers=[("reminder", 60), ("deadline", 70)],
                                      keep=("limit",), waiting=["alice"])
        moved = list(trace)
        await store.record_moves(g2, [("alice", "e", "E.")], "{}", now=5, status="finished",
                                 result={"winners": ["alice"], "scores": {"alice": 1, "bob": 0}})
    finally:
        if postgres:
            event.remove(sync, "before_cursor_execute", traced)
    if postgres:
        assert moved == [("WITH", "AUTOCOMMIT")], moved
        ended = trace[1:]
        assert len(ended) >= 4 and {level for _, level in ended} == {None}, ended   # in a transaction
    assert g2.version == g.version + 1 and g2.waiting == ["alice"]
    stored = await store.game(g.id)
    assert stored.status == "finished" and stored.version == g2.version + 1
    log = await store.log(g.id)
    assert [(e.seq, e.seat, e.action, e.line) for e in log] == [
        (1, "alice", "a", "A."), (2, "bob", "b", "B."), (3, "alice", "c", "C."), (4, "bob", "d", "D."),
        (5, "alice", "e", "E.")]
    assert [e.at for e in log][1:4] == [4.5, 4.5, 4.5]
    assert await store.pending_timers(g.id) == []            # an ended game keeps no timers


async def test_a_move_that_goes_on_replaces_timers_but_those_kept(any_store):
    store = any_store
    g = await running(store)
    g = await store.record_moves(g, [("alice", "a", "A.")], "{}", now=3, timers=[("limit", 90), ("reminder", 9)])
    g = await store.record_moves(g, [("bob", "b", "B.")], "{}", now=4, timers=[("reminder", 60), ("deadline", 70)],
                                 keep=("limit",))
    pending = sorted((t.kind, t.due, t.version) for t in await store.pending_timers(g.id))
    assert pending == [("deadline", 70, g.version), ("limit", 90, g.version - 1), ("reminder", 60, g.version)]
    g = await store.record_moves(g, [], "{}", now=5)          # no moves, no timers: the timers all go
    assert await store.pending_timers(g.id) == [] and [e.seq for e in await store.log(g.id)] == [1, 2]
    with pytest.raises(VersionConflict):                     # stale: nothing of it is written
        await store.record_moves(replace(g, version=g.version - 1), [("bob", "x", "x")], "{}", now=6,
                                 timers=[("reminder", 99)])
    assert await store.pending_timers(g.id) == [] and len(await store.log(g.id)) == 2


async def test_two_connections_racing_on_one_game_apply_exactly_one(db_target):
    async with open_store(db_target) as a, open_store(db_target) as b:
        g = await running(a)
        ga, gb = await a.game(g.id), await b.game(g.id)
        results = await asyncio.gather(
            a.record_moves(ga, [("alice", "x", "x")], '{"a":1}', now=3),
            b.record_moves(gb, [("bob", "y", "y")], '{"b":1}', now=3),
            return_exceptions=True)
        assert sum(isinstance(r, VersionConflict) for r in results) == 1, results
        assert len(await a.log(g.id)) == 1


async def test_the_action_log_is_append_only(any_store):
    store = any_store
    g = await running(store)
    await store.record_moves(g, [("alice", "x", "x")], "{}", now=3)
    for sql in ("UPDATE actions SET action = 'y'", "DELETE FROM actions"):
        with pytest.raises(exc.DBAPIError, match="append-only"):
            await raw(store, sql)
    await raw(store, f"DELETE FROM games WHERE id = {g.id}")    # a deleted game takes its log with it
    assert await store.log(g.id) == []


async def test_a_batch_is_all_or_nothing(any_store):
    store = any_store
    g = await running(store)
    with pytest.raises(RuntimeError):
        async with store.batch():
            await store.record_moves(g, [("alice", "x", "x")], '{"s":1}', now=3)
            await store.add_outgoing(g.id, "c", {"text": "hi"}, 3)
            raise RuntimeError("crash")
    assert (await store.game(g.id)).version == g.version
    assert await store.log(g.id) == [] and await store.outgoing() == []


async def test_reads_see_one_moment_in_a_snapshot(any_store):
    store = any_store
    g = await running(store)
    async with store.snapshot():
        row = await store.game(g.id)
        assert len(await store.log(row.id)) == 0


async def test_timers_fire_once_and_a_move_replaces_them(any_store):
    store = any_store
    g = await store.create_game(guild="g", channel="c", game="pebbles", options={}, host=ALICE, now=1)
    g = await store.start_game(g, seats=[ALICE, BOB], seed=1, state="{}", now=2,
                               timers=[("reminder", 10), ("deadline", 20)])
    assert await store.next_due() == 10
    assert [t.kind for t in await store.due_timers(15)] == ["reminder"]
    t = (await store.due_timers(15))[0]
    assert await store.claim_timer(t, 15) and not await store.claim_timer(t, 16)
    assert [t.kind for t in await store.pending_timers(g.id)] == ["deadline"]
    g = await store.record_moves(g, [("alice", "x", "x")], "{}", now=17, timers=[("reminder", 30), ("limit", 40)])
    assert sorted(t.kind for t in await store.pending_timers()) == ["limit", "reminder"]
    await store.record_moves(g, [("bob", "y", "y")], "{}", now=18, timers=[("reminder", 50)], keep=("limit",))
    assert sorted((t.kind, t.due) for t in await store.pending_timers(g.id)) == [("limit", 40), ("reminder", 50)]
    await store.add_timer(g.id, "deadline", g.version, 60)
    assert await store.next_due() == 40


async def test_the_outbox_keeps_progress_and_counts_attempts(any_store):
    store = any_store
    g = await running(store)
    await store.add_outgoing(g.id, "c", {"text": "hello", "dm": []}, 5)
    await store.add_outgoing(None, "d", {"text": "dm"}, 6)
    first, second = await store.outgoing()
    assert first.payload == {"text": "hello", "dm": []} and first.game_id == g.id and second.game_id is None
    await store.outgoing_progress(first.id, 1)
    assert await store.outgoing_failed(first.id) == 1 and await store.outgoing_failed(first.id) == 2
    assert (await store.outgoing())[0].parts_done == 1 and (await store.outgoing())[0].attempts == 2
    await store.outgoing_done(first.id)
    assert [o.id for o in await store.outgoing()] == [second.id]


async def test_settings_and_direct_message_preferences(any_store):
    store = any_store
    assert await store.settings("g") == Settings()
    await store.save_settings("g", Settings(2.5, 12, "skip", True, False))
    await store.save_settings("g", Settings(3, 12, "remove", True, False))
    assert await store.settings("g") == Settings(3, 12, "remove", True, False)
    assert await store.settings(None) == Settings()
    assert not await store.wants_dm("alice")
    await store.set_dm("alice", True)
    assert await store.wants_dm("alice")
    await store.set_dm("alice", False)
    assert not await store.wants_dm("alice")


async def test_listings_and_results(any_store):
    store = any_store
    g = await running(store, "c1")
    await store.record_moves(g, [("alice", "x", "x")], "{}", now=3, waiting=["bob"])
    lobby = await store.create_game(guild="g", channel="c2", game="pebbles", options={}, host=BOB, now=4)
    ended = await running(store, "c3", guild="h")
    await store.record_moves(ended, [("alice", "x", "x")], "{}", now=5, status="finished",
                             result={"winners": ["alice"]})
    gone = await running(store, "c4")
    await store.set_status(gone, "abandoned", now=6)
    assert [(s["channel"], s["waiting"], s["names"]) for s in await store.open_games_of("g")] == [
        ("c1", ["bob"], {"alice": "Alice", "bob": "Bob"}), ("c2", [], {"bob": "Bob"})]
    assert await store.open_games_of(None) == []
    assert [s["channel"] for s in await store.turns_of("bob")] == ["c1"] and await store.turns_of("alice") == []
    assert sorted(await store.record_of("alice")) == [("pebbles", "abandoned", 1), ("pebbles", "win", 1)]
    assert await store.record_of("bob", "h") == [("pebbles", "loss", 1)]
    assert await store.board("pebbles") == [("alice", "Alice", 1, 1, 1), ("bob", "Bob", 0, 1, 1)]
    assert [r.id for r in await store.games_of_user("bob")] == [g.id, lobby.id]
    assert [r.channel for r in await store.games(("finished",))] == ["c3"]
    assert [r.channel for r in await store.games(guild="g")] == ["c1", "c2"]
    assert (await store.latest_game("c3")).status == "finished" and await store.open_game("c3") is None
    gid = await store.import_game(guild="h", channel="c9", game="pebbles", status="finished", host="bob", seed=3,
                                  state="{}", now=7, seats=[("bob", "Bob", False), ("cpu-1", "Cpu", True)],
                                  result={"winners": ["bob"]})
    assert (await store.game(gid)).result == {"winners": ["bob"]}
    assert sorted(await store.record_of("bob", "h")) == [("pebbles", "loss", 1), ("pebbles", "win", 1)]


async def test_a_process_sees_only_its_shards_timers_and_notices(db_target):
    one, zero = str(1 << 22), str(2 << 22)          # (id >> 22) % 2: shard 1 and shard 0
    async with open_store(db_target) as store:
        for i, guild in enumerate((one, zero, None, "not-a-number")):
            g = await store.create_game(guild=guild, channel=f"c{i}", game="pebbles", options={}, host=ALICE, now=1)
            await store.start_game(g, seats=[ALICE, BOB], seed=1, state="{}", now=2, timers=[("reminder", 10 + i)])
            await store.add_outgoing(g.id, f"c{i}", {"i": i}, 3)
        await store.add_outgoing(None, "dm", {"i": "dm"}, 3)
    async with open_store(db_target, Shards(2, (0,))) as a, open_store(db_target, Shards(2, (1,))) as b:
        assert [t.game_id for t in await a.due_timers(100)] == [2, 3, 4]
        assert [t.game_id for t in await b.due_timers(100)] == [1]
        assert await a.next_due() == 11 and await b.next_due() == 10
        assert [o.payload["i"] for o in await a.outgoing()] == [1, 2, 3, "dm"]
        assert [o.payload["i"] for o in await b.outgoing()] == [0]
    assert Shards.of(one, 2) == 1 and Shards.of(zero, 2) == 0 and Shards.of(None, 2) == 0
    assert Shards.parse("", "") is None and Shards.parse("4", "3,1") == Shards(4, (1, 3))
    assert Shards.parse("2", None) == Shards(2, (0, 1))
    for count, ids in (("2", "2"), ("x", ""), ("", "1"), ("0", "")):
        with pytest.raises(ValueError):
            Shards.parse(count, ids)


async def test_many_claimers_of_one_timer_fire_it_once(db_target):
    """Several processes (stores) claim every due timer at once: each timer goes to exactly one."""
    async with open_store(db_target) as store:
        for i in range(20):
            g = await store.create_game(guild="g", channel=f"c{i}", game="pebbles", options={}, host=ALICE, now=1)
            await store.start_game(g, seats=[ALICE, BOB], seed=1, state="{}", now=2, timers=[("reminder", 5)])
    stores = [await open_store(db_target).open() for _ in range(4)]
    try:
        async def claimer(s):
            won = []
            for t in await s.due_timers(10):
                if await s.claim_timer(t, 10):
                    won.append(t.id)
            return won
        wins = await asyncio.gather(*(claimer(s) for s in stores))
    finally:
        for s in stores:
            await s.close()
    every = [t for w in wins for t in w]
    assert sorted(every) == sorted(set(every)) and len(every) == 20


# ----- the service's own tests, again on PostgreSQL ----------------------------------------------------------
SQLITE_ONLY = {"test_listings_and_channel_lookups_use_indexes", "test_a_move_costs_few_statements_and_is_not_read_back",
               "test_images_are_drawn_in_worker_processes_and_survive_a_dead_worker",
               "test_without_a_pool_images_are_drawn_in_a_thread"}
SERVICE_MODULES = (test_service, test_daylong, test_speed, test_hardening, test_clocks)
SERVICE_TESTS = [fn for module in SERVICE_MODULES for name, fn in vars(module).items()
                 if name.startswith("test_") and name not in SQLITE_ONLY and inspect.iscoroutinefunction(fn)
                 and set(inspect.signature(fn).parameters) <= {"svc", "clock", "store"}]


@pytest.mark.parametrize("test", SERVICE_TESTS, ids=[f"{t.__module__.split('.')[-1]}.{t.__name__}"
                                                     for t in SERVICE_TESTS])
async def test_the_service_on_postgres(test, pg_url):
    async with open_store(pg_url) as store:
        clock = Clock(getattr(inspect.getmodule(test), "CLOCK_START", 1_000_000.0))   # a module's own start
        kwargs = {"svc": TableService(store, clock=clock, render=False), "clock": clock, "store": store}
        await test(**{k: v for k, v in kwargs.items() if k in inspect.signature(test).parameters})


async def test_a_server_that_cannot_be_reached_is_one_clear_line(unused_port):
    with pytest.raises(StoreError, match="Cannot reach the database server postgresql://teahouse:\\*\\*\\*@"):
        await open_store(f"postgresql://teahouse:secret@127.0.0.1:{unused_port}/teahouse").open()


async def test_postgres_refusals_are_one_clear_line(pg_server, pg_url):
    with pytest.raises(StoreError, match="does not exist on the server"):
        await open_store(pg_server.url("nowhere")).open()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await conn.execute(f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION + 1})")
        with pytest.raises(StoreError, match="newer Teahouse"):
            await open_store(pg_url).open()
        await conn.execute("DROP TABLE schema_version; CREATE TABLE invoices (id INTEGER)")
        with pytest.raises(StoreError, match="not Teahouse's"):
            await open_store(pg_url).open()
    finally:
        await conn.close()


async def test_two_processes_migrating_at_once_migrate_once(pg_url):
    stores = await asyncio.gather(*(open_store(pg_url).open() for _ in range(3)))
    for s in stores:
        assert await s.schema_version() == SCHEMA_VERSION
        await s.close()


@pytest.fixture
def unused_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_connections_the_server_drops_are_replaced_or_a_store_error(pg_url):
    async with open_store(pg_url) as store:
        g = await running(store)
        admin = await asyncpg.connect(pg_url)
        try:
            # the connection of a transaction in progress dies: nothing is saved, and the store says so plainly
            with pytest.raises(StoreError, match="nothing was changed"):
                async with store.batch():
                    pid = (await store._owned().execute(text("SELECT pg_backend_pid()"))).scalar()
                    await admin.execute("SELECT pg_terminate_backend($1)", pid)
                    await store.record_moves(g, [("alice", "x", "x")], '{"s":1}', now=3)
            assert (await store.game(g.id)).version == g.version
            # every idle connection dies: the next calls get new ones (or one StoreError, then new ones)
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid != pg_backend_pid()")
        finally:
            await admin.close()
        try:
            await store.record_moves(g, [("alice", "x", "x")], '{"s":1}', now=3)
        except StoreError as e:
            assert "nothing was changed" in str(e), e
            await store.record_moves(g, [("alice", "x", "x")], '{"s":1}', now=3)
        assert (await store.game(g.id)).state == '{"s":1}'


def test_one_store_class_serves_both_databases(tmp_path):
    from store.store import Store

    assert type(open_store(tmp_path / "t.db")) is Store and type(open_store("postgresql://x@y/z")) is Store
    assert not hasattr(__import__("table"), "pgstore")


async def test_an_older_postgres_schema_is_upgraded_and_migration_4_fills_results(pg_url):
    store = await open_store(pg_url).open(revision="0003")
    assert await store.schema_version() == 3
    await raw(store,
              "INSERT INTO games (id, guild, channel, game, status, host, seed, state, result, created_at, updated_at) "
              "VALUES (1, 'g', 'c', 'pebbles', 'finished', '111', 1, '{}', '{\"winners\": [\"111\"]}', 1, 2)")
    for i, (uid, bot) in enumerate([("111", 0), ("222", 1), ("cpu-1", 1)]):
        await raw(store, f"INSERT INTO seats VALUES (1, {i}, '{uid}', '{uid}', {bot})")
    await store.close()
    async with open_store(pg_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.record_of("111") == [("pebbles", "win", 1)]
        assert await store.record_of("222") == [("pebbles", "loss", 1)] and await store.record_of("cpu-1") == []


async def test_a_full_disk_on_the_server_is_store_full_and_saves_nothing(pg_url):
    from store.store import StoreFull

    async with open_store(pg_url) as store:
        g = await running(store)
        conn = await asyncpg.connect(pg_url)
        try:
            await conn.execute("""
                CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100';
                END $$;
                CREATE TRIGGER full_disk BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION full_disk();""")
            with pytest.raises(StoreFull, match="disk is full"):
                await store.record_moves(g, [("alice", "x", "x")], '{"s":1}', now=3)
            assert (await store.game(g.id)).version == g.version
            await conn.execute("DROP TRIGGER full_disk ON actions")
        finally:
            await conn.close()
        assert (await store.record_moves(g, [("alice", "x", "x")], '{"s":1}', now=3)).version == g.version + 1


async def test_languages_are_remembered_per_server_and_user(any_store):
    # what the bot says on its own (reminders, direct messages) speaks the language last seen (#17)
    store = any_store
    assert await store.locale_of("guild:g") is None
    await store.remember_locale("guild:g", "it")
    await store.remember_locale("user:alice", "en")
    await store.remember_locale("guild:g", "en")
    assert await store.locale_of("guild:g") == "en" and await store.locale_of("user:alice") == "en"
