"""Backups of the SQLite database (store/backup.py): a copy made while moves are being saved is consistent and
every game in it continues; old copies are pruned; errors are one line and exit code 1; a restore puts a copy
back (refused while the bot holds the database) and the real bot process continues every game in it."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import sqlite3
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine import GAMES
from store import Store
from store import backup as backups
from table import TableService, User, Where
from table.records import rebuild
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
KINDS = ["wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm"]
ALICE, BOB = User("101", "Alice"), User("102", "Bob")


def at(second: int) -> datetime:
    return datetime(2025, 3, 1, 12, 0, second, tzinfo=UTC)


async def seed(svc, alice=ALICE, bob=BOB, channels=None) -> list[Where]:
    """One started two-player game of each kind, each in its own channel."""
    wheres = []
    for i, kind in enumerate(KINDS):
        where = Where(str(channels[i]) if channels else f"chan-{kind}", "guild")
        assert (await svc.open_table(where, alice, kind)).ok
        assert (await svc.join(where, bob)).ok
        assert (await svc.start(where, alice)).ok
        wheres.append(where)
    return wheres


async def mover(svc, where, players=(ALICE, BOB)) -> tuple[User, list[str]] | None:
    """Who must act in ``where`` and their legal actions (None once the game is over)."""
    for user in players:
        actions = await svc.legal(where, user)
        if actions:
            return user, actions
    return None


async def play_one(svc, where, rng, players=(ALICE, BOB)) -> bool:
    turn = await mover(svc, where, players)
    if turn is None:
        return False
    user, actions = turn
    reply = await svc.act(where, user, rng.choice(actions))
    assert reply.ok, reply.private
    return True


async def consistent(store) -> dict[int, int]:
    """Each game's state is the one its action log replays to (a copy torn between two commits would differ);
    the games' versions."""
    versions = {}
    for row in await store.games(("lobby", "running", "finished", "abandoned")):
        game = GAMES[row.game]
        states = rebuild(game, row, await store.log(row.id))
        assert game.dump(states[-1]) == row.state, f"game {row.id} ({row.game}) does not replay to its state"
        versions[row.id] = row.version
    return versions


async def continue_every_game(db: Path, players=(ALICE, BOB)) -> int:
    """Open the table service on ``db`` and, in every running game, play a move and take it back where the
    rules allow; the number of moves taken back."""
    undone = 0
    async with Store(db) as store:
        svc = TableService(store, render=False)
        rows = await store.games(("running",))
        assert rows
        for row in rows:
            where = Where(row.channel, row.guild)
            user, before = await mover(svc, where, players)
            reply = await svc.act(where, user, before[0])
            assert reply.ok, (row.game, reply.private)
            assert (await store.game(row.id)).version == row.version + 1
            back = await svc.undo(where, user)
            if back.ok:
                undone += 1
                assert (await mover(svc, where, players)) == (user, before)
            else:       # a roll, a draw or a secret choice stays: the rules say so, nothing else is wrong
                assert "cannot be taken back" in back.private[0].text or "no move" in back.private[0].text, \
                    back.private[0].text
    return undone


async def test_a_backup_taken_while_moves_are_saved_is_consistent_and_every_game_in_it_continues(tmp_path):
    db, folder = tmp_path / "teahouse.db", tmp_path / "copies"
    async with Store(db) as store:
        svc = TableService(store, render=False)
        wheres = await seed(svc)
        stop, moves = asyncio.Event(), [0]

        async def writer():
            rng = random.Random(29)
            while not stop.is_set():
                for where in wheres:
                    if await play_one(svc, where, rng):
                        moves[0] += 1

        async def moved(n: int) -> None:        # by count, not by time: a busy machine plays slower
            target = moves[0] + n
            while moves[0] < target:
                await asyncio.sleep(0.01)

        task = asyncio.create_task(writer())
        made = []
        for i in range(3):
            await moved(8)
            made.append(await asyncio.to_thread(backups.backup, db, folder, 7, at(i)))
        await moved(2)                            # and moves after the last copy
        stop.set()
        await task
        final = await consistent(store)
    assert moves[0] > 20

    seen, undone = [], 0
    for m in made:
        assert m.path.parent == folder and m.games == len(KINDS)
        assert m.path.name == f"teahouse-{m.path.stem.split('-', 1)[1]}.db"
        conn = sqlite3.connect(m.path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"     # one self-contained file
        conn.close()
        trial = tmp_path / f"trial-{m.path.name}"
        shutil.copy(m.path, trial)
        async with Store(trial) as store:
            versions = await consistent(store)
        assert all(versions[g] <= final[g] for g in versions)
        seen.append(sum(versions.values()))
        undone += await continue_every_game(trial)      # every game plays on in every copy
    assert undone >= 1          # some move taken back: one copy's games may all wait on a roll or a secret
    assert seen == sorted(seen) and seen[-1] < sum(final.values())      # copies of three different moments
    assert not list(folder.glob(".*"))      # no temporary file is left behind


def test_a_copy_holds_the_last_commit_not_a_write_under_way(tmp_path):
    """The bot's writer holds its transaction open (a move being saved) while the copy is made: the copy
    neither waits for it nor holds any of it."""
    db = tmp_path / "teahouse.db"
    setup = sqlite3.connect(db, isolation_level=None)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, version INTEGER)")
    setup.executemany("INSERT INTO games VALUES (?, 1)", [(i,) for i in range(1, 201)])
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE games SET version = 2")
    started = time.monotonic()
    made = backups.backup(db, now=at(0))
    assert time.monotonic() - started < 2          # it did not wait for the writer (its busy timeout is 5 s)
    writer.execute("COMMIT")
    copy = sqlite3.connect(made.path)
    assert copy.execute("SELECT DISTINCT version FROM games").fetchall() == [(1,)] and made.games == 200
    assert setup.execute("SELECT DISTINCT version FROM games").fetchall() == [(2,)]
    for conn in (copy, writer, setup):
        conn.close()


def test_only_the_newest_copies_are_kept_and_nothing_else_is_touched(tmp_path):
    db = tmp_path / "teahouse.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    others = [folder / "teahouse-notes.db", folder / "other-20250101T000000Z.db", folder / "README.txt"]
    for path in others:
        path.write_text("mine")
    made = [backups.backup(db, keep=3, now=at(s)) for s in (0, 1, 1, 2, 3)]
    assert made[2].path.name == "teahouse-20250301T120001Z-2.db"     # a second copy in the same second
    kept = sorted(p.name for p in folder.iterdir() if p not in others)
    assert kept == ["teahouse-20250301T120001Z-2.db", "teahouse-20250301T120002Z.db",
                    "teahouse-20250301T120003Z.db"]
    assert [p.name for p in made[-1].removed] == ["teahouse-20250301T120001Z.db"]
    assert all(p.read_text() == "mine" for p in others)


@pytest.mark.parametrize("args, says", [
    (["--db", "{tmp}/missing.db"], "there is no database at"),
    (["--db", "postgresql://teahouse:secret@localhost/teahouse"], "back it up with pg_dump"),
    (["--db", "{tmp}/garbage.db"], "is not a SQLite database"),
    (["--db", "{tmp}/ok.db", "--dir", "{tmp}/ok.db/backups"], "cannot write backups to"),
    (["--db", "{tmp}/ok.db", "--keep", "0"], "--keep must be at least 1"),
    (["--db", "postgres://localhost/teahouse", "--restore", "{tmp}/ok.db"], "restore it with pg_restore"),
    (["--db", "{tmp}/ok.db", "--restore", "{tmp}/missing.db"], "there is no backup at"),
    (["--db", "{tmp}/ok.db", "--restore", "{tmp}/garbage.db"], "is not a usable SQLite database"),
    (["--db", "{tmp}/ok.db", "--restore", "{tmp}/foreign.db"], "holds no Teahouse tables"),
])
def test_bad_input_is_one_line_and_exit_code_1(tmp_path, capsys, args, says):
    (tmp_path / "garbage.db").write_bytes(b"not a database at all" * 100)
    for name, table in (("ok.db", "games"), ("foreign.db", "recipes")):
        conn = sqlite3.connect(tmp_path / name)
        conn.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY)")
        conn.commit()
        conn.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert backups.main([a.replace("{tmp}", str(tmp_path)) for a in args]) == 1
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and out.err.startswith("teahouse backup: ")
    assert says in out.err
    assert sorted(p.name for p in tmp_path.iterdir()) == before      # nothing was made, moved or removed


async def test_a_restore_is_refused_while_the_bot_holds_the_database(tmp_path, capsys):
    db = tmp_path / "teahouse.db"
    async with Store(db) as store:
        svc = TableService(store, render=False)
        wheres = await seed(svc)
        copy = backups.backup(db, now=at(0)).path
        assert await play_one(svc, wheres[0], random.Random(1))
        version = (await store.open_game(wheres[0].channel)).version
        assert backups.main(["--db", str(db), "--restore", str(copy)]) == 1
        assert "is in use (is the bot running?)" in capsys.readouterr().err
        assert (await store.open_game(wheres[0].channel)).version == version     # the bot's own, untouched
        assert await play_one(svc, wheres[0], random.Random(2))                 # and it goes on writing
    assert not list(tmp_path.glob("*.before-restore-*")) and not list(tmp_path.glob(".*restoring"))


async def test_after_a_restore_the_service_continues_every_game_of_the_copy(tmp_path, capsys):
    db = tmp_path / "teahouse.db"
    rng = random.Random(3)
    async with Store(db) as store:
        svc = TableService(store, render=False)
        wheres = await seed(svc)
        for _ in range(4):
            for where in wheres:
                await play_one(svc, where, rng)
        at_backup = await consistent(store)
    assert backups.main(["--db", str(db), "--keep", "2"]) == 0
    line = capsys.readouterr().out
    assert line.startswith(f"backed up {db} to ") and "(5 games," in line and "integrity ok" in line
    copy = next((tmp_path / "backups").glob("teahouse-*.db"))

    async with Store(db) as store:      # the games go on after the copy; then something goes wrong
        svc = TableService(store, render=False)
        for where in wheres:
            await play_one(svc, where, rng)
        later = await consistent(store)
    assert all(later[g] == at_backup[g] + 1 for g in at_backup)

    assert backups.main(["--db", str(db), "--restore", str(copy)]) == 0
    assert "Start the bot." in capsys.readouterr().out
    aside = next(tmp_path.glob("teahouse.db.before-restore-*.bak"))
    async with Store(db) as store:
        assert await consistent(store) == at_backup
    async with Store(aside) as store:   # what was replaced is kept, later moves and all
        assert await consistent(store) == later
    assert await continue_every_game(db) >= 1


async def test_the_bot_process_continues_every_game_of_a_restored_copy(tmp_path):
    async with FakeDiscord(channels=[f"t{i}" for i in range(len(KINDS))]) as fake:
        alice, bob = (User(str(fake.user(n).id), n.title()) for n in ("alice", "bob"))
        channels = [fake.channel(f"t{i}").id for i in range(len(KINDS))]
        db = tmp_path / "teahouse.db"
        rng = random.Random(5)
        async with Store(db) as store:
            svc = TableService(store, render=False)
            wheres = await seed(svc, alice, bob, channels)
            for where in wheres:
                await play_one(svc, where, rng, (alice, bob))
        copy = backups.backup(db, now=at(0)).path
        async with Store(db) as store:
            svc = TableService(store, render=False)
            for where in wheres:
                await play_one(svc, where, rng, (alice, bob))
        assert backups.main(["--db", str(db), "--restore", str(copy)]) == 0

        turns = {}
        async with Store(db) as store:
            svc = TableService(store, render=False)
            for where in wheres:
                user, actions = await mover(svc, where, (alice, bob))
                turns[int(where.channel)] = (user, actions[0], (await store.open_game(where.channel)).version)
        env = dict(os.environ, FAKE_API=fake.api_url, FAKE_GATEWAY=fake.gateway_url, TOKEN=fake.token, DB=str(db),
                   LOG_LEVEL=os.environ.get("BOT_LOG", "WARNING"))
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.botproc", cwd=ROOT, env=env)
        try:
            end = time.monotonic() + 30
            while not fake.synced or not fake.connected:
                assert proc.returncode is None and time.monotonic() < end, "the bot did not come up"
                await asyncio.sleep(0.1)
            for channel, (user, action, _version) in turns.items():
                name = "alice" if user.id == alice.id else "bob"
                r = await fake.slash(name, channel, "game move", options={"action": action}, timeout=15)
                assert r.messages and not r.messages[-1].ephemeral, r.messages
        finally:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 15) == 0
        async with Store(db) as store:
            for channel, (_user, _action, version) in turns.items():
                assert (await store.open_game(str(channel))).version == version + 1
        assert not fake.errors


async def test_the_copy_made_before_a_schema_upgrade_restores_and_is_upgraded_again(tmp_path):
    """README: going back from an upgrade is a restore of its ``.before-<revision>.bak``."""
    db = tmp_path / "teahouse.db"
    await (await Store(db).open(revision="0003")).close()
    await (await Store(db).open()).close()              # the upgrade copies the file beside itself first
    bak = tmp_path / "teahouse.db.before-0003.bak"
    assert bak.exists()
    assert backups.main(["--db", str(db), "--restore", str(bak)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("teahouse.db.before-0003")) == [bak.name]
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0003"
    conn.close()
    async with Store(db) as store:                      # upgraded again on open, and usable
        svc = TableService(store, render=False)
        assert (await svc.open_table(Where("c", "g"), ALICE, "wagara")).ok
