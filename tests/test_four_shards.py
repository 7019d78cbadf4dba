"""Four bots, one per shard (SHARD_COUNT=4), sharing one PostgreSQL database behind a fake Discord that answers 429
past 50 requests a second (tests/cluster.py, issue #50): each fires the timers, pairs the leagues and sends the
notices of its own shard's server only, and their counted requests share one budget; players move in every
server; one bot is killed while the others play, and once started again it fires what came due meanwhile, once.
No move a player saw made is lost, nothing is shown twice, no league round is paired twice, no request meets a
429, and every request the fake received is valid by Discord's own API description.

The four bots run in this process, each with its own connections to the database and to Discord, so the test
costs seconds, not four interpreters' starts: the kill stops the bot's tasks where they are and drops its
connections with nothing said or saved on the way out (Cluster.kill_here). The same run with four real
processes and a real SIGKILL, larger, is bench/shards.py (docs/scale.md has its figures); real SIGKILLs of bot
processes are also in tests/test_shard_processes.py and tests/test_faults.py."""

from __future__ import annotations

import asyncio
import time

from tests import discordspec
from tests.cluster import Cluster
from tests.fakediscord import FakeDiscord


async def until(check, timeout: float = 40.0, why=lambda: "") -> None:
    end = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < end, f"timed out: {why()}"
        await asyncio.sleep(0.1)


async def test_four_shards_share_postgres_and_the_global_limit_and_survive_a_kill(pg_url):
    async with FakeDiscord(users=("alice", "bob", "carol", "dave"), channels=[], global_limit=50) as fake:
        # the schedulers wake each second, not each minute: a league's pairings (shard 0's to send) go out sooner
        async with Cluster(fake, pg_url, timer_games=2, play_games=1, pictures=False, tick=1.0) as cluster:
            await check_four_shards(fake, pg_url, cluster)


async def check_four_shards(fake, pg_url, cluster) -> None:
    """The run in the test's docstring; ``cluster`` stops the processes however it ends."""
    await cluster.prepare()
    shards = cluster.shards
    killed, others = shards[1], [s for s in shards if s is not shards[1]]
    began, phases = time.monotonic(), {}
    try:
        # 1. all four start, and a move is made in every server
        for shard in shards:
            await cluster.start_here(shard)

        async def all_connected():
            return all(cluster.connected(s) for s in shards) and bool(fake.synced.get(None))
        await until(all_connected)
        phases["connected"] = time.monotonic() - began
        played = await cluster.play(shards, 1)
        assert played == len(shards), cluster.failed
        # 2. once its league's second round was announced (a kill between pairing a round and announcing it
        # would lose the announcement: table/league.py's gap, reported), shard 1's bot is killed while the others
        # play on; a reminder comes due in its server while it is down

        async def paired():
            return cluster.announced(killed) == 1
        await until(paired)
        others_play = asyncio.ensure_future(cluster.play(others, 2))
        await cluster.kill_here(killed)
        assert await cluster.make_reminders_due(killed) == 1
        assert await others_play == 2 * len(others)
        phases["killed, others played"] = time.monotonic() - began

        async def others_done():
            return all(cluster.notices_once(s) == (0, 0) and cluster.announced(s) for s in others)
        await until(others_done, why=lambda: [(s.index, cluster.notices_once(s), cluster.announced(s))
                                              for s in shards])
        phases["others' notices"] = time.monotonic() - began

        # 3. it comes back: it fires what came due, sends what it owed, and its players play again
        await cluster.start_here(killed)
        back_at = killed.started_at

        async def fired():
            return await cluster.first_fired_after(killed, back_at) is not None
        await until(fired)
        first = await cluster.first_fired_after(killed, back_at) - back_at
        phases["fired after restart"] = time.monotonic() - began

        async def killed_done():
            return (cluster.notices_once(killed) == (0, 0) and cluster.announced(killed)
                    and _reminded(cluster, killed))
        await until(killed_done, why=lambda: (cluster.notices_once(killed), cluster.announced(killed),
                                              _reminded(cluster, killed), cluster.bot_messages(
                                                  killed.timer_channels[0])[-2:], phases))
        played += await cluster.play([killed], 1) + 2 * len(others)
        await fake.settle(quiet=0.5)
    finally:
        codes = [await cluster.stop(s) for s in shards]
    assert codes == [0, 0, 0, 0]
    print(f"\nfour shards: {played} moves, {len(fake.counted)} counted requests, busiest second "
          f"{fake.busiest_second()}, 429s {len(fake.limited)}; shard 1 killed, its first due timer fired "
          f"{first:.2f} s after its restart; " + ", ".join(f"{k} {v:.1f} s" for k, v in phases.items()))

    # nothing lost, nothing twice
    assert all(cluster.notices_once(s) == (0, 0) for s in shards)
    logged = await cluster.logged_moves()
    for ch, moves in cluster.confirmed.items():
        assert logged[ch] == moves, (ch, logged[ch], moves)     # every move seen made, and no other
    assert cluster.failed == {}                                  # the other three never noticed
    rounds = await cluster.rounds_paired()
    assert all(tables == [(1, 1), (1, 2), (2, 1), (2, 2)] for tables in rounds.values()), rounds
    assert all(cluster.announced(s) == 1 for s in shards)       # each second round announced once
    assert len(fake.threads) == 2 * len(shards)                  # and its two tables opened once
    # each process on its own shard; the commands synced once, by shard 0's
    assert sorted(s["shard"][0] for s in fake.identifies) == [0, 1, 1, 2, 3]     # shard 1's twice
    assert all(s["shard"][1] == 4 for s in fake.identifies)
    assert len(fake.sync_payloads) == 1
    # Discord's global limit: never more than 50 a second, no 429; every request valid
    assert fake.limited == [] and fake.busiest_second() <= 50
    checked, problems = discordspec.check(fake.requests)
    assert checked and problems == [] and not fake.errors
    assert await cluster.store.outgoing() == [] and await cluster.store.due_timers(time.time()) == []


def _reminded(cluster, shard) -> bool:
    return all(any("Reminder" in t for t in cluster.bot_messages(ch)) for ch in shard.play_channels)
