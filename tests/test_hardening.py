"""Issue 12, hardening: each item here failed before its fix — removed seats, settings, bad databases, full
disks, busy files, console errors, escaped names, per-viewer images, torn reads, bad input, quiet libraries."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import tests.tinygame  # noqa: F401  (registers Pebbles)
from console.table import Console
from engine import GAMES
from store import Store
from store.store import SCHEMA_VERSION, StoreError, StoreFull
from table import TableService, User, Where
from tests.support import err, started

ROOT = Path(__file__).resolve().parent.parent
HERE = Where("chan", guild="g")
ALICE, BOB, CY = User("111", "Alice"), User("222", "Bob"), User("333", "Cy")
H = 3600







# ----- 2. a removed player cannot freeze a game ------------------------------------------------------------
async def test_a_removed_player_cannot_undo_act_or_see_the_hand(svc, clock):
    game = GAMES["wassamasaw"]
    await started(svc, ALICE, BOB, game="wassamasaw")
    row = await svc.store.open_game("chan")
    first = game.to_act(game.load(row.state))[0]
    absent, other = (ALICE, BOB) if first == ALICE.id else (BOB, ALICE)
    clock.now += 25 * H
    r = await svc.remove(HERE, other, absent.id)
    assert r.ok
    row = await svc.store.open_game("chan")
    log = await svc.store.log(row.id)
    assert log[-1].seat == absent.id            # the computer's move in the removed player's seat
    assert "removed from this game" in err(await svc.undo(HERE, absent))
    assert "removed from this game" in err(await svc.act(HERE, absent, "anything"))
    assert "removed from this game" in err(await svc.hand(HERE, absent))
    assert await svc.legal(HERE, absent) == []
    after = await svc.store.open_game("chan")
    assert after.version == row.version            # nothing changed
    state = game.load(after.state)
    assert game.to_act(state) and all(not after.seat_of(s).is_bot for s in game.to_act(state))


async def test_the_game_never_waits_on_a_computer_seat_after_an_undo(svc):
    # Pebbles against a computer: whatever the human undoes, the next decision is a person's or the
    # computer has already taken it
    await svc.open_table(HERE, ALICE, "pebbles")
    await svc.add_bot(HERE, ALICE)
    await svc.start(HERE, ALICE)
    game = GAMES["pebbles"]
    for _ in range(6):
        row = await svc.store.open_game("chan")
        if row is None:
            break
        state = game.load(row.state)
        if ALICE.id not in game.to_act(state):
            break
        await svc.act(HERE, ALICE, game.legal_actions(state, ALICE.id)[0])
        await svc.undo(HERE, ALICE)
        row = await svc.store.latest_game("chan")
        state = game.load(row.state)
        if row.status == "running":
            assert all(not row.seat_of(s).is_bot for s in game.to_act(state))


# ----- 5. settings --------------------------------------------------------------------------------------
@pytest.mark.parametrize("changes, words", [
    ({"reminder_hours": 0.0001}, "between 1 and 168"),
    ({"reminder_hours": "nan"}, "between 1 and 168"),
    ({"reminder_hours": "inf"}, "between 1 and 168"),
    ({"reminder_hours": -1}, "between 1 and 168"),
    ({"deadline_hours": 0.5}, "between 1 and 720"),
    ({"deadline_hours": 10_000}, "between 1 and 720"),
    ({"reminder_hours": "soon"}, "number of hours"),
    ({"reminder_hours": 30}, "cannot come before the first reminder"),
    ({"user": "x"}, "no setting called user"),
])
async def test_settings_are_validated_with_clear_errors(svc, changes, words):
    assert words in err(await svc.change_settings("g", ALICE, True, **changes))
    s = await svc.settings("g")
    assert (s.reminder_hours, s.deadline_hours) == (4, 24)      # nothing saved


async def test_settings_off_and_in_range_are_taken(svc):
    assert (await svc.change_settings("g", ALICE, True, reminder_hours=0, deadline_hours=0)).ok
    assert (await svc.change_settings("g", ALICE, True, reminder_hours=1, deadline_hours=1)).ok
    assert (await svc.change_settings("g", ALICE, True, reminder_hours=168, deadline_hours=720)).ok


# ----- 3. databases that cannot be used: one clear line, a non-zero exit, no hang -------------------------
def _bad_databases(tmp: Path) -> dict[str, tuple[str, str]]:
    (tmp / "corrupt.db").write_bytes(b"this is no database " * 200)
    con = sqlite3.connect(tmp / "foreign.db")
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    con = sqlite3.connect(tmp / "newer.db")
    con.execute("PRAGMA user_version = 999")
    con.close()
    con = sqlite3.connect(tmp / "readonly.db")
    con.close()
    return {"corrupt": (str(tmp / "corrupt.db"), "damaged or not a SQLite file"),
            "foreign": (str(tmp / "foreign.db"), "not Teahouse's"),
            "newer": (str(tmp / "newer.db"), "newer Teahouse"),
            "readonly": (f"file:{tmp / 'readonly.db'}?mode=ro", "read-only")}


@pytest.mark.parametrize("apart", [False, True], ids=["in place", "migrated apart"])
@pytest.mark.parametrize("kind", ["corrupt", "foreign", "newer", "readonly"])
async def test_unusable_databases_raise_one_clear_error(tmp_path, kind, apart):
    """Also when the migration runs in a process of its own (the bot's way): a read-only file fails there."""
    path, words = _bad_databases(tmp_path)[kind]
    with pytest.raises(StoreError, match=words):
        await Store(path).open(apart=apart)


async def test_a_migration_process_that_dies_is_one_clear_error_and_nothing_is_half_done(tmp_path, monkeypatch):
    import store.upgrade as upgrade

    monkeypatch.setattr(upgrade, "_CHILD", "import os; os._exit(3)")       # killed before it said anything
    with pytest.raises(StoreError, match="could not be brought up to date"):
        await Store(tmp_path / "t.db").open(apart=True)
    monkeypatch.undo()
    async with await Store(tmp_path / "t.db").open(apart=True) as store:  # the next start migrates it
        assert await store.schema_version() == SCHEMA_VERSION


@pytest.mark.parametrize("kind", ["corrupt", "newer", "readonly"])
@pytest.mark.parametrize("mode", ["console", "discord"])
def test_the_process_exits_with_one_line_and_does_not_hang(tmp_path, kind, mode):
    path, words = _bad_databases(tmp_path)[kind]
    env = dict(os.environ, DISCORD_TOKEN="" if mode == "console" else "abc.def.ghi", LOG_LEVEL="WARNING")
    args = [sys.executable, "bot.py", "--db", path, "--out", str(tmp_path)] + (["--console"] if mode == "console"
                                                                               else [])
    run = subprocess.run(args, input="alice@x /game status\n", capture_output=True, text=True, cwd=ROOT,
                         env=env, timeout=60)
    assert run.returncode == 1
    assert words in run.stderr and "Traceback" not in run.stderr + run.stdout
    assert len([line for line in run.stderr.splitlines() if line.strip()]) == 1


# ----- 6. a full disk ---------------------------------------------------------------------------------------
async def test_a_full_disk_says_so_saves_nothing_and_the_console_goes_on(tmp_path):
    async with Store(tmp_path / "full.db") as store:
        out: list[str] = []
        console = Console(TableService(store, render=False), tmp_path, write=out.append)
        await console.handle("alice@t /game new game:pebbles")
        async with store._connection("write") as conn:
            pages = (await conn.exec_driver_sql("PRAGMA page_count")).scalar()
            await conn.exec_driver_sql(f"PRAGMA max_page_count = {pages}")      # the disk is full from now on
        opened = 0
        for i in range(300):                                  # new tables until a write needs a new page
            await console.handle(f"alice@t{i} /game new game:pebbles")
            if "Nothing was changed" in out[-1]:
                break
            opened += 1
        with pytest.raises(StoreFull):       # the same write again (the console's alice: rows of the same size)
            await TableService(store, render=False).open_table(Where(f"t{opened}"), User("alice", "alice"),
                                                               "pebbles")
        assert await store.open_game(f"t{opened}") is None     # the refused table was not saved
        before = await store.open_game("t")
        # the player reads that nothing was changed (#38); the disk's state is for the log, not for them
        assert out[-1] == "! Nothing was changed: Teahouse cannot save anything right now. Try again in a minute."
        assert not any("no transaction is active" in line for line in out)
        async with store._connection("write") as conn:
            await conn.exec_driver_sql(f"PRAGMA max_page_count = {pages * 100}")
        out.clear()
        assert await console.handle("alice@t /game status")         # still running, and the data intact
        assert any("Pebbles" in line for line in out)
        assert (await store.open_game("t")).id == before.id


# ----- 8. the console survives an unexpected error ------------------------------------------------------------
async def test_one_bad_command_does_not_end_the_console(tmp_path, monkeypatch):
    async with Store(tmp_path / "c.db") as store:
        out: list[str] = []
        svc = TableService(store, render=False)
        console = Console(svc, tmp_path, write=out.append)
        assert await console.handle("alice@t /settings user:x")
        assert any("no setting called user" in line for line in out)

        async def boom(*a, **k):
            raise RuntimeError("unexpected")
        monkeypatch.setattr(svc, "status", boom)
        out.clear()
        assert await console.handle("alice@t /game status") is True
        assert out and "nothing was changed" in out[-1]
        assert await console.handle("alice@t /game new game:pebbles")
        assert any("opened a table" in line for line in out)


# ----- 9. two processes writing one file ---------------------------------------------------------------------
def _writer(path: str, name: str, n: int, errors) -> None:
    async def go():
        async with Store(path) as store:
            svc = TableService(store, render=False)
            for i in range(n):
                where = Where(f"{name}-{i}", "g")
                try:
                    await svc.open_table(where, User(f"{name}{i}", "A"), "pebbles")
                    await svc.join(where, User(f"{name}x{i}", "B"))
                except Exception as e:   # noqa: BLE001 — counted, not hidden
                    errors.append(f"{type(e).__name__}: {e}")
    asyncio.run(go())


def test_two_processes_on_one_file_wait_for_each_other(tmp_path):
    path = str(tmp_path / "shared.db")
    asyncio.run(_create(path))
    with multiprocessing.Manager() as manager:
        errors = manager.list()
        procs = [multiprocessing.get_context("spawn").Process(target=_writer, args=(path, name, 60, errors))
                 for name in ("p", "q")]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
        assert [p.exitcode for p in procs] == [0, 0]
        assert list(errors) == []

    async def count():
        async with Store(path) as store:
            return len(await store.games())
    assert asyncio.run(count()) == 120


async def _create(path: str) -> None:
    async with Store(path):
        pass


# ----- 10. display names never format, hide or ping ---------------------------------------------------------
def test_discord_messages_escape_display_names():
    from cogs.ui import safe

    assert safe("**Bold** ||spoiler|| @everyone <@123>") != "**Bold** ||spoiler|| @everyone <@123>"
    assert "\\*\\*Bold\\*\\*" in safe("**Bold**") and "\\|\\|" in safe("||x||")
    assert "@everyone" not in safe("@everyone")


async def test_the_service_escapes_every_name_it_writes(store, clock):
    from cogs.ui import safe

    svc = TableService(store, clock=clock, render=False, escape=safe)
    evil, bob = User("111", "**Al** @everyone"), User("222", "__Bob__")
    texts = []
    texts.append((await svc.open_table(HERE, evil, "pebbles")).text)
    texts.append((await svc.join(HERE, bob)).text)
    texts.append((await svc.start(HERE, evil)).text)
    texts.append((await svc.act(HERE, evil, "bid 1")).text)
    texts.append((await svc.act(HERE, bob, "bid 2")).text)
    texts.append((await svc.status(HERE, bob)).text)
    texts.append((await svc.history(HERE, bob)).private[0].text)
    for text in texts:
        assert "**Al**" not in text and "@everyone" not in text and "__Bob__" not in text, text
    assert any("\\*\\*Al\\*\\*" in t for t in texts)


# ----- 12. private images are per viewer ---------------------------------------------------------------------
async def test_private_images_get_their_own_file_names(store, clock):
    svc = TableService(store, clock=clock, render=True)
    await started(svc, ALICE, BOB, game="wassamasaw")
    a = (await svc.hand(HERE, ALICE)).private[0].image.filename
    b = (await svc.hand(HERE, BOB)).private[0].image.filename
    table = (await svc.status(HERE, CY)).image.filename
    assert len({a, b, table}) == 3


# ----- 13. steps, control characters, tokens ------------------------------------------------------------------
async def test_an_empty_list_of_steps_is_refused(svc):
    await started(svc, ALICE, BOB)
    before = await svc.store.open_game("chan")
    assert "at least one action" in err(await svc.act(HERE, ALICE, steps=[]))
    assert (await svc.store.open_game("chan")).version == before.version


@pytest.mark.parametrize("text", ["bid 1\x00", "bid\x001", "bid 1\x1b[31m", "bid \u200b1", "bid 1\x7f"])
async def test_control_characters_never_reach_the_log(svc, text):
    await started(svc, ALICE, BOB)
    r = await svc.act(HERE, ALICE, text)
    assert not r.ok
    row = await svc.store.open_game("chan")
    assert all(e.action.isprintable() for e in await svc.store.log(row.id))


def test_a_newline_in_the_token_gets_the_friendly_message(capsys, tmp_path):
    from cogs.runner import run_discord

    assert run_discord("abc.def\n.ghi", tmp_path / "x.db") == 2
    assert run_discord("abc.def.ghi\nmore", tmp_path / "x.db") == 2
    assert "does not look like a bot token" in capsys.readouterr().out


async def test_status_reads_the_game_and_its_log_at_one_moment(svc, monkeypatch):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    store = svc.store
    real_log = store.log
    moved = []

    async def log_after_a_move(game_id, *a, **k):
        # another task's move lands between the two reads: it must wait for the snapshot to end
        if not moved:
            moved.append(asyncio.create_task(svc.act(HERE, BOB, "bid 2")))
            await asyncio.sleep(0.05)
        return await real_log(game_id, *a, **k)
    monkeypatch.setattr(store, "log", log_after_a_move)
    r = await svc.status(HERE, CY)
    await moved[0]
    assert "move 1" in r.text and "Revealed" not in r.text    # the log as of the game read, not after


# ----- 7. debug logging never writes a state ----------------------------------------------------------------
def test_library_loggers_stay_at_info_whatever_log_level_says():
    from bot import configure_logging

    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    try:
        configure_logging("DEBUG")
        for name in ("aiosqlite", "asyncpg", "discord", "discord.gateway", "discord.state", "discord.client",
                     "sqlalchemy", "sqlalchemy.engine", "sqlalchemy.pool", "alembic"):
            assert logging.getLogger(name).getEffectiveLevel() >= logging.INFO, name
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]


async def test_a_debug_log_of_a_whole_game_holds_no_state_or_seed(tmp_path, caplog):
    from bot import configure_logging

    configure_logging("DEBUG")
    caplog.set_level(logging.DEBUG)
    from bot import QUIET_LIBRARIES

    for name, floor in QUIET_LIBRARIES.items():   # what configure_logging set, caplog must not undo
        logging.getLogger(name).setLevel(floor)
    async with Store(tmp_path / "d.db") as store:
        svc = TableService(store, render=False)
        await started(svc, ALICE, BOB)
        await svc.act(HERE, ALICE, "bid 3")
        await svc.act(HERE, BOB, "bid 1")
        row = await store.latest_game("chan")
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert str(row.seed) not in text and '"rng"' not in text and "bid 3" not in text
