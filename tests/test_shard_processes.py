"""Two real bot processes on two shards sharing one PostgreSQL database, against the fake Discord: each fires
the timers and sends the notices of its own shard's servers only; one is killed with SIGKILL mid-delivery and,
once restarted, every due notice has still arrived exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from store import open_store
from store.shards import Shards
from table import TableService, User, Where
from tests.fakediscord import FakeDiscord
from tests.test_faults import check_exactly_once, expected_done

ROOT = Path(__file__).resolve().parent.parent
H = 3600
GUILDS = {str(2 << 22): "vote", str(4 << 22): "skip",      # shard 0 of 2
          str(1 << 22): "vote", str(3 << 22): "skip"}      # shard 1 of 2


async def prepare(url: str, fake: FakeDiscord, channels: list) -> tuple[dict, dict]:
    """Games started 30 h ago, two per server, each with a due reminder and deadline. Returns channel id →
    the deadline kind there, and channel id → its shard."""
    alice, bob = (User(str(fake.user(n).id), n.title()) for n in ("alice", "bob"))
    clock = [time.time() - 30 * H]
    kinds, shard = {}, {}
    async with open_store(url) as store:
        svc = TableService(store, clock=lambda: clock[0], render=False)
        for guild, kind in GUILDS.items():
            if kind == "skip":
                await svc.change_settings(guild, alice, True, deadline_action="skip")
        for i, ch in enumerate(channels):
            guild = list(GUILDS)[i % len(GUILDS)]
            where = Where(str(ch.id), guild)
            assert (await svc.open_table(where, alice, "wassamasaw")).ok
            assert (await svc.join(where, bob)).ok
            assert (await svc.start(where, alice)).ok
            kinds[ch.id], shard[ch.id] = GUILDS[guild], Shards.of(guild, 2)
        assert len(await store.due_timers(time.time())) == 2 * len(channels)
    return kinds, shard


async def spawn(fake, url, shard: int, posts: Path, crash: str | None = None):
    env = dict(os.environ, FAKE_API=fake.api_url, FAKE_GATEWAY=fake.gateway_url, TOKEN=fake.token, DB=url,
               SHARD_COUNT="2", SHARD_IDS=str(shard), POSTS=str(posts),
               LOG_LEVEL=os.environ.get("BOT_LOG", "WARNING"))
    env.pop("CRASH", None)
    if crash:
        env["CRASH"] = crash
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.botproc", cwd=ROOT, env=env)


async def until(check, timeout: float = 40.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.2)


async def stop(proc) -> int:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 20)
    return proc.returncode


def posted(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


async def test_two_shards_share_postgres_and_survive_a_kill_9(pg_url, tmp_path):
    async with FakeDiscord(channels=[f"t{i}" for i in range(8)]) as fake:
        channels = [fake.channel(f"t{i}") for i in range(8)]
        kinds, shard = await prepare(pg_url, fake, channels)
        mine = {s: {c: k for c, k in kinds.items() if shard[c] == s} for s in (0, 1)}
        a_posts, b_posts = tmp_path / "a.txt", tmp_path / "b.txt"

        # 1. both start; the shard-1 process dies (kill -9) just before its second post
        a = await spawn(fake, pg_url, 0, a_posts)
        b = await spawn(fake, pg_url, 1, b_posts, crash="post:2")
        try:
            await asyncio.wait_for(b.wait(), 40)
            assert b.returncode == -signal.SIGKILL
            await until(lambda: expected_done(fake, mine[0]))
            await fake.settle(quiet=1.0)
            assert {s.get("shard", [None])[0] for s in fake.identifies} == {0, 1}
            assert all(s["shard"][1] == 2 for s in fake.identifies)
            # each process posted only to its own shard's channels; shard 1's notices wait for their process
            assert {shard[c] for c in posted(a_posts)} == {0}
            assert {shard[c] for c in posted(b_posts)} == {1} and len(posted(b_posts)) == 1
            assert not expected_done(fake, mine[1])
            async with open_store(pg_url) as store:
                assert await store.due_timers(time.time()) == []        # every timer claimed, once
                left = await store.outgoing()
                assert left and {shard[int(o.channel)] for o in left} == {1}

            # 2. the shard-1 process comes back and sends what it owed, nothing twice
            b = await spawn(fake, pg_url, 1, b_posts)
            await until(lambda: expected_done(fake, kinds))
            await fake.settle(quiet=1.0)
        finally:
            codes = [await stop(a), await stop(b)]
        assert codes == [0, 0]
        check_exactly_once(fake, kinds)
        assert len(fake.sync_payloads) == 1          # the commands were synced by the shard-0 process only
        assert {shard[c] for c in posted(a_posts)} == {0} and {shard[c] for c in posted(b_posts)} == {1}
        async with open_store(pg_url) as store:
            assert await store.outgoing() == []
        assert not fake.errors
