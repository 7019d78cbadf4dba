"""Faults a bot meets in production: a real bot process killed with SIGKILL between claiming a timer and
sending its notice, or after sending and before noting it; every due notice still arrives exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from store import Store
from table import TableService, User, Where
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
H = 3600


async def prepare(path: Path, fake: FakeDiscord, channels: list, skip_guild: str) -> dict[int, str]:
    """Games started 30 h ago in every channel, so each has a due reminder and a due deadline; the games of
    ``skip_guild`` have the server's 'skip' past the deadline (a computer plays), the others 'vote'.
    Returns channel id → the deadline kind expected there."""
    alice, bob = (User(str(fake.user(n).id), n.title()) for n in ("alice", "bob"))
    clock = [time.time() - 30 * H]
    async with Store(path) as store:
        svc = TableService(store, clock=lambda: clock[0], render=False)
        await svc.change_settings(skip_guild, alice, True, deadline_action="skip")
        kinds = {}
        for i, ch in enumerate(channels):
            guild = skip_guild if i % 2 else "vote-guild"
            where = Where(str(ch.id), guild)
            assert (await svc.open_table(where, alice, "wassamasaw")).ok
            assert (await svc.join(where, bob)).ok
            assert (await svc.start(where, alice)).ok
            kinds[ch.id] = "skip" if i % 2 else "vote"
        assert len(await store.due_timers(time.time())) == 2 * len(channels)
    return kinds


async def run_bot(fake: FakeDiscord, db: Path, crash: str | None, until, timeout: float = 40.0) -> int | None:
    """Run the bot in a process until it dies (crash) or ``until()`` holds; then stop it with SIGTERM."""
    env = dict(os.environ, FAKE_API=fake.api_url, FAKE_GATEWAY=fake.gateway_url, TOKEN=fake.token, DB=str(db),
               LOG_LEVEL=os.environ.get("BOT_LOG", "WARNING"))
    env.pop("CRASH", None)
    if crash:
        env["CRASH"] = crash
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.botproc", cwd=ROOT, env=env)
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.returncode is None and not until():
        try:
            await asyncio.wait_for(proc.wait(), 0.2)
        except TimeoutError:
            pass
    if proc.returncode is None:
        await fake.settle(quiet=0.5)
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 20)
    return proc.returncode


def notices(fake: FakeDiscord, channel) -> list[str]:
    return [m.said for m in fake.messages(channel) if m.author.id == fake.bot_user.id]


def expected_done(fake, kinds) -> bool:
    for cid, kind in kinds.items():
        texts = notices(fake, cid)
        want = ("missed the deadline",) if kind == "skip" else ("Reminder", "has not played")
        if not all(any(w in t for t in texts) for w in want):
            return False
    return True


def check_exactly_once(fake, kinds) -> None:
    for cid, kind in kinds.items():
        texts = notices(fake, cid)
        if kind == "skip":
            # the deadline's computer move and its message; the reminder of that turn expired with it
            assert sum("missed the deadline" in t for t in texts) == 1, texts
            assert sum("Reminder" in t for t in texts) <= 1, texts
        else:
            assert sum("Reminder" in t for t in texts) == 1, texts
            assert sum("has not played" in t for t in texts) == 1, texts


async def test_kill_9_between_claim_and_send_loses_nothing_and_sends_nothing_twice(tmp_path):
    async with FakeDiscord(channels=[f"t{i}" for i in range(6)]) as fake:
        channels = [fake.channel(f"t{i}") for i in range(6)]
        db = tmp_path / "bot.db"
        kinds = await prepare(db, fake, channels, "skip-guild")

        # 1. dies before its second post: every timer's claim and effect are stored, one notice went out
        code = await run_bot(fake, db, "post:2", lambda: False)
        assert code == -signal.SIGKILL
        async with Store(db) as store:
            assert await store.due_timers(time.time()) == []          # all claimed before the crash
            assert len(await store.outgoing()) >= 1                    # what was not sent is still owed
        # 2. dies just after Discord took its third post, before the outbox heard of it
        code = await run_bot(fake, db, "sent:3", lambda: False)
        assert code == -signal.SIGKILL
        # 3. a clean run sends the rest; the resent third post is the same message (its nonce), not a copy
        code = await run_bot(fake, db, None, lambda: expected_done(fake, kinds))
        assert code == 0
        assert expected_done(fake, kinds)
        check_exactly_once(fake, kinds)
        async with Store(db) as store:
            assert await store.outgoing() == []
            for row in await store.games():
                assert row.status == "running"
        assert not fake.errors
