"""Databases written by the stores before Alembic (tests/fixtures/legacy, made by make_legacy.py there): a
SQLite file at each schema version 1…5 and a PostgreSQL dump at 5 are adopted, upgraded and backed up,
nothing is lost, and the games go on — moves, undo, replays, exports, timers and the outbox."""

from __future__ import annotations

import asyncio
import fcntl
import gzip
import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import asyncpg
import pytest

import engine  # noqa: F401  (registers the games)
from store import open_store
from store.migrate import main as migrate_main
from store.store import SCHEMA_VERSION, Store, StoreError
from table import TableService, User, Where
from tests.support import Clock

LEGACY = Path(__file__).resolve().parent / "fixtures" / "legacy"
EXPECTED = json.loads((LEGACY / "expected.json").read_text())
GUILD = "900000000000000001"
H = 3600


@pytest.fixture(scope="session")
def gif_store(tmp_path_factory) -> Path:
    """A folder the whole session shares (all of xdist's workers: the parent of their own temporary folders),
    new with every session."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "legacy-gifs"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(autouse=True)
def each_replay_encoded_once(monkeypatch, gif_store):
    """Every file here holds the same games, so their replays are the same pictures: each replay's frames are
    drawn from the store as adopted, every time, and a run of frames already encoded in this session, by this
    process or another worker (the very same pixels, found by their digest), gets the GIF made of them then;
    a worker that wants one another is encoding waits for it. Encoding took most of this module's processor
    time, once in each worker."""
    import table.community as community

    encode = community.gif_within

    def gif_within(frames: dict, limit: int) -> bytes | None:
        key = hashlib.sha256(repr((limit, *((i, f.mode, f.size, hashlib.sha256(f.tobytes()).hexdigest())
                                            for i, f in sorted(frames.items())))).encode()).hexdigest()
        done, none = gif_store / f"{key}.gif", gif_store / f"{key}.none"
        with open(gif_store / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if none.exists():
                return None
            if not done.exists():
                data = encode(frames, limit)
                if data is None:
                    none.touch()
                    return None
                part = gif_store / f"{key}.part"
                part.write_bytes(data)
                part.replace(done)
            return done.read_bytes()

    monkeypatch.setattr(community, "gif_within", gif_within)


def legacy_copy(tmp_path: Path, version: int) -> Path:
    """A copy of the committed file (the tests never change the committed ones)."""
    path = tmp_path / f"teahouse-v{version}.db"
    shutil.copyfile(LEGACY / f"teahouse-v{version}.db", path)
    return path


async def check_stored(store, expected: dict, version: int) -> None:
    """Every game, seat, status, version, log length and option as the old store wrote them; the tables the
    old schema had (results from 2 on, the outbox from 3, waiting seats from 4, languages from 5)."""
    games = await store.games(("lobby", "running", "finished", "abandoned"))
    assert sorted(str(g.id) for g in games) == sorted(expected["games"])
    for row in games:
        want = expected["games"][str(row.id)]
        assert (row.game, row.status, row.version, row.channel, row.options) == (
            want["game"], want["status"], want["version"], want["channel"], want["options"]), row.id
        assert [[s.user_id, s.name, s.is_bot] for s in row.seats] == want["seats"]
        assert await store.log_length(row.id) == want["log"]
        assert row.result == (want["result"] if version >= 2 else None)
        assert row.waiting == (want["waiting"] if version >= 4 else [])
        assert row.rules == (None if want["status"] == "lobby" else 1)   # revision 0006: all played by rules 1
    if version >= 2:
        assert len(await store.pending_timers()) == expected["timers"]
        # a server stored before revision 0010 starts new tables untimed, as it always did (#34), and only
        # those who manage it organise leagues (0011, #35)
        assert {g: vars(await store.settings(g)) for g in expected["settings"]} == {
            g: {**v, "speed": "untimed", "league_role": ""} for g, v in expected["settings"].items()}
        assert {u: await store.wants_dm(u) for u in expected["dm"]} == expected["dm"]
        records = {u: sorted(map(list, await store.record_of(u))) for u in expected["records"]}
        assert records == expected["records"]         # from 2 to 3, filled by revision 0004
    if version >= 3:
        assert len(await store.outgoing(1000)) == expected["outbox"]
    if version >= 5:
        assert {w: await store.locale_of(w) for w in expected["locales"]} == expected["locales"]


async def play_on(store, expected: dict) -> None:
    """Every running game goes on by a few legal moves; undo, replay and export; due timers fire and the
    outbox holds their notices."""
    clock = Clock(expected["clock"] + 60)
    svc = TableService(store, clock=clock, render=False)
    svc.ai_options = {"iterations": 5}
    running = [(gid, g) for gid, g in expected["games"].items() if g["status"] == "running"]
    assert running
    for gid, g in running:
        where = Where(g["channel"], GUILD)
        people = [User(uid, name) for uid, name, bot in g["seats"] if not bot]
        for _ in range(3):
            mover = None
            for person in people:
                if await svc.legal(where, person):
                    mover = person
                    break
            if mover is None:
                break
            actions = await svc.legal(where, mover)
            reply = await svc.act(where, mover, actions[0])
            assert reply.ok, reply.private
            clock.now += 30
        assert len(await store.log(int(gid))) > g["log"]
        await check_untimed(svc, store, int(gid), where, people[0])
        if mover is not None:
            await svc.undo(where, mover)        # allowed or refused, by the rules; never an error
        for what in (svc.replay, svc.export):
            assert (await what(where, people[0])).ok
    ended = next(g for g in expected["games"].values() if g["status"] == "finished")
    owner = User(ended["seats"][0][0], ended["seats"][0][1])
    for what in (svc.replay, svc.export):
        assert (await what(Where(ended["channel"], GUILD), owner)).ok
    clock.now += 30 * H
    assert await svc.fire_due() > 0
    assert await svc.outbox()


async def check_untimed(svc, store, game_id: int, where, person) -> None:
    """A game stored before clocks (issue #34) goes on untimed, as it started: no banks, and its deadline is the
    server's turn deadline from the last move (docs/lifecycle.md)."""
    assert await store.clocks(game_id) == {}
    assert "untimed" in (await svc.game_clock(where, person)).private[0].text
    row = await store.game(game_id)
    deadlines = [t.due for t in await store.pending_timers(game_id) if t.kind == "deadline"]
    settings = await store.settings(row.guild)
    if row.status == "running" and deadlines and settings.deadline_hours > 0:
        assert deadlines == [row.updated_at + settings.deadline_hours * H]


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5])
async def test_an_old_sqlite_file_is_adopted_backed_up_and_plays_on(tmp_path, version):
    path = legacy_copy(tmp_path, version)
    async with Store(path) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        await check_stored(store, EXPECTED, version)
        await play_on(store, EXPECTED)
    backup = tmp_path / f"teahouse-v{version}.db.before-user_version-{version}.bak"
    con = sqlite3.connect(backup)          # the file as it was, before adoption
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == version
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == len(EXPECTED["games"])
        assert not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'alembic_version'").fetchall()
    finally:
        con.close()
    con = sqlite3.connect(path)            # adopted: Alembic's revision, and the old number kept in step
    try:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [(f"{SCHEMA_VERSION:04d}",)]
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        con.close()
    async with Store(path) as store:       # opening it again neither upgrades nor copies anything
        assert len(await store.games(("lobby", "running", "finished", "abandoned"))) == len(EXPECTED["games"])
    assert len(list(tmp_path.glob("*.bak"))) == 1


@pytest.mark.parametrize("apart", [False, True], ids=["in place", "in a process of its own"])
async def test_a_file_at_an_older_revision_is_copied_before_the_upgrade(tmp_path, apart):
    path = tmp_path / "t.db"
    await (await Store(path).open(revision="0003")).close()
    async with await Store(path).open(apart=apart) as store:
        assert await store.schema_version() == SCHEMA_VERSION
    con = sqlite3.connect(tmp_path / "t.db.before-0003.bak")
    try:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [("0003",)]
    finally:
        con.close()
    assert not (tmp_path / "t.db.before-none.bak").exists()     # a new file is not copied


async def test_a_revision_this_teahouse_does_not_know_is_refused(tmp_path):
    path = legacy_copy(tmp_path, 5)
    await (await Store(path).open()).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '0099'")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer Teahouse"):
        await Store(path).open()


async def load_dump(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(gzip.decompress((LEGACY / "teahouse-pg.sql.gz").read_bytes()).decode())
    finally:
        await conn.close()


@pytest.mark.parametrize("apart", [False, True], ids=["in place", "in a process of its own"])
async def test_an_old_postgres_database_is_adopted_and_plays_on(pg_url, apart):
    await load_dump(pg_url)
    async with await open_store(pg_url).open(apart=apart) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        await check_stored(store, EXPECTED["pg"], 5)
        await play_on(store, EXPECTED["pg"] | {"clock": EXPECTED["clock"]})
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == f"{SCHEMA_VERSION:04d}"
        assert await conn.fetchval("SELECT version FROM schema_version") == SCHEMA_VERSION
    finally:
        await conn.close()


@pytest.mark.parametrize("version", [1, 5])
async def test_an_old_sqlite_file_moves_into_postgres(tmp_path, pg_url, version):
    path = legacy_copy(tmp_path, version)
    assert await asyncio.to_thread(migrate_main, [str(path), pg_url]) == 0
    async with open_store(pg_url) as store:
        await check_stored(store, EXPECTED, version)
        await play_on(store, EXPECTED)


async def test_the_revisions_build_exactly_the_schema_the_queries_use(any_store):
    """store/schema.py (what the queries are written against) and the revision chain (what a database
    really has) say the same: Alembic finds nothing to add, drop or change, on both databases."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from store.schema import metadata

    def differences(conn):
        # the legacy version number kept in step for older Teahouses (docs/store.md) is not the queries' table
        return [d for d in compare_metadata(MigrationContext.configure(conn), metadata)
                if not (d[0] == "remove_table" and d[1].name == "schema_version")]

    async with any_store._connection("read") as conn:
        assert await conn.run_sync(differences) == []


def test_a_start_at_the_newest_revision_loads_no_alembic(tmp_path):
    """Alembic is loaded only when a database needs a migration (memory at rest, issue #29): a bot that
    starts on an up-to-date database reads the revision with one query; the chain's head is the newest
    revision file, and SCHEMA_VERSION names it. The bot (``open(apart=True)``) migrates a new database in a
    process of its own, so Alembic is never in its memory (issue #33); in place, the first start loads it."""
    import subprocess
    import sys

    from store.upgrade import HEAD, REVISIONS, scripts

    assert HEAD == scripts().get_current_head() == f"{SCHEMA_VERSION:04d}"
    assert list(REVISIONS) == sorted(s.revision for s in scripts().walk_revisions())
    db = tmp_path / "t.db"
    root = Path(__file__).resolve().parent.parent

    def start(path: Path, apart: bool) -> tuple[str, str]:
        code = ("import asyncio, sys; from store import open_store\n"
                "async def main():\n"
                f"    async with await open_store({str(path)!r}).open(apart={apart}) as store:\n"
                "        print(await store.schema_version())\n"
                "asyncio.run(main()); print(any(m.startswith('alembic') for m in sys.modules))")
        run = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
        return tuple(run.stdout.split())

    head = str(SCHEMA_VERSION)
    assert [start(db, False), start(db, False)] == [(head, "True"), (head, "False")]   # created by Alembic; then not
    bots = tmp_path / "bot.db"
    assert [start(bots, True), start(bots, True)] == [(head, "False"), (head, "False")]
