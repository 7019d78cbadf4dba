"""Several processes on one PostgreSQL database: writers on different channels all land, racers on one channel
open one game, and every due timer fires exactly once however many schedulers claim it; and bot.py's
one-line exits for DATABASE_URL, the shard settings and DISCORD_GLOBAL_RATE."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

from store import open_store
from table import TableService, User, Where

ROOT = Path(__file__).resolve().parent.parent
H = 3600


def _run(coro_fn, *args) -> None:
    import tests.tinygame  # noqa: F401  (registers Pebbles in the spawned process)

    asyncio.run(coro_fn(*args))


async def _writer(url: str, name: str, n: int, errors, opened) -> None:
    async with open_store(url) as store:
        svc = TableService(store, render=False)
        for i in range(n):
            where = Where(f"{name}-{i}" if name != "race" else f"race-{i}", "g")
            try:
                r = await svc.open_table(where, User(f"{name}{os.getpid()}{i}", "A"), "pebbles")
                if r.ok:
                    opened.append(where.channel)
                    await svc.join(where, User(f"{name}x{os.getpid()}{i}", "B"))
            except Exception as e:   # noqa: BLE001 — counted, not hidden
                errors.append(f"{type(e).__name__}: {e}")


async def _scheduler(url: str, rounds: int, claims, seconds) -> None:
    async with open_store(url) as store:
        svc = TableService(store, clock=time.time, render=False)
        start = time.perf_counter()
        for _ in range(rounds):
            claims.append((os.getpid(), await svc.fire_due()))
        seconds.append(time.perf_counter() - start)


def _processes(target, argsets) -> list[int]:
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_run, args=(target, *a)) for a in argsets]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    return [p.exitcode for p in procs]


async def test_processes_writing_different_channels_all_land_and_racers_open_one_game_each(pg_url):
    async with open_store(pg_url):
        pass
    with multiprocessing.Manager() as manager:
        errors, opened = manager.list(), manager.list()
        codes = await asyncio.to_thread(_processes, _writer, [(pg_url, name, 30, errors, opened)
                                                              for name in ("p", "q", "race", "race")])
        assert codes == [0, 0, 0, 0] and list(errors) == []
        races = [c for c in opened if c.startswith("race-")]
        assert sorted(races) == sorted(set(races)) and len(races) == 30     # one game per raced channel
    async with open_store(pg_url) as store:
        assert len(await store.games()) == 90


async def test_two_schedulers_fire_every_due_timer_exactly_once(pg_url):
    import tests.tinygame  # noqa: F401

    n = 120
    async with open_store(pg_url) as store:
        clock = [time.time() - 30 * H]
        svc = TableService(store, clock=lambda: clock[0], render=False)
        for i in range(n):
            where = Where(f"c{i}", "g")
            assert (await svc.open_table(where, User("alice", "Alice"), "pebbles")).ok
            assert (await svc.join(where, User("bob", "Bob"))).ok
            assert (await svc.start(where, User("alice", "Alice"))).ok
        due = len(await store.due_timers(time.time()))
        assert due == 2 * n
    with multiprocessing.Manager() as manager:
        claims, seconds = manager.list(), manager.list()
        codes = await asyncio.to_thread(_processes, _scheduler, [(pg_url, 3, claims, seconds)] * 2)
        assert codes == [0, 0]
        by_process: dict[int, int] = {}
        for pid, k in claims:
            by_process[pid] = by_process.get(pid, 0) + k
        took = max(seconds)
    async with open_store(pg_url) as store:
        assert await store.due_timers(time.time()) == []
        notices = await store.outgoing(limit=10_000)
        # a reminder and a deadline notice per game, each queued by exactly one of the two processes
        assert len(notices) == sum(by_process.values())
        keys = [(o.game_id, o.payload["text"]) for o in notices]
        assert len(keys) == len(set(keys))
        assert {o.game_id for o in notices} == set(range(1, n + 1))
    print(f"\n{due} due timers, two schedulers: {by_process} notices queued in {took:.2f} s")


def test_bot_py_exits_with_one_line_for_postgres_and_shard_settings(tmp_path):
    env = dict(os.environ, DISCORD_TOKEN="abc.def.ghi", LOG_LEVEL="WARNING",
               DATABASE_URL="postgresql://teahouse:secret@127.0.0.1:9/teahouse")
    run = subprocess.run([sys.executable, "bot.py"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "Cannot reach the database server" in run.stderr and "secret" not in run.stderr
    assert len([line for line in run.stderr.splitlines() if line.strip()]) == 1
    for count, ids, rate, said in (("two", "", "", "SHARD_"), ("2", "5", "", "SHARD_"), ("", "1", "", "SHARD_"),
                                   ("", "", "fast", "DISCORD_GLOBAL_RATE must be a number")):
        env = dict(os.environ, DISCORD_TOKEN="abc.def.ghi", SHARD_COUNT=count, SHARD_IDS=ids,
                   DISCORD_GLOBAL_RATE=rate, TEAHOUSE_DB=str(tmp_path / "x.db"))
        env.pop("DATABASE_URL", None)
        run = subprocess.run([sys.executable, "bot.py"], capture_output=True, text=True, cwd=ROOT, env=env,
                             timeout=60)
        assert run.returncode == 2 and said in run.stdout, run.stdout + run.stderr
