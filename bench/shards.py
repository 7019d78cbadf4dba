"""Four bot processes and a kill, at size (issue #50): SHARD_COUNT=4, one process a shard, one PostgreSQL, a fake
Discord that answers 429 past 50 counted requests a second (tests/cluster.py's scenario, larger).

    .venv/bin/python bench/shards.py [--timer-games 40] [--play-games 8] [--moves 6]

Run twice in one go, the budget off (DISCORD_GLOBAL_RATE=0: each process sends as fast as it can, discord.py
waits out the 429s) and on (the default, 45): each time every server's timer games (a reminder and a deadline due
each) and the leagues' second rounds make the four processes send at once while players move in every server;
shard 1's process is killed with SIGKILL mid-play and started again. Reported: the busiest second of counted
requests against the limit of 50, the 429s met, the time from the restart to the first due timer the restarted
process fired, the moves lost (seen made but not in the log), the notices shown twice and the league rounds paired
twice; and the REST requests of one move and of one notice, which of them count against the global limit.
The load average is printed with each run: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.cluster import Cluster  # noqa: E402
from tests.fakediscord import COUNTED, FakeDiscord  # noqa: E402
from tests.pg import PgServer  # noqa: E402


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def route(path: str) -> str:
    path = re.sub(r"/api/v\d+", "", path)
    path = re.sub(r"/(interactions|webhooks)/\d+/[^/]+", r"/\1/{id}/{token}", path)
    return re.sub(r"\d{5,}", "{id}", path)


def matched(seen: list[str], log: list[str]) -> int:
    """How many of the moves seen made are in the log, in order (a move in flight at the kill may be logged
    without having been seen: it is not counted against the others)."""
    it, n = iter(log), 0
    for move in seen:
        if any(move == x for x in it):
            n += 1
    return n


async def until(check, timeout: float = 300.0) -> bool:
    """Whether ``check`` came true within ``timeout`` seconds (what did not is reported, not raised)."""
    end = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.2)
    return True


async def run(server: PgServer, args, rate: str) -> dict:
    url = await server.fresh()
    async with FakeDiscord(users=("alice", "bob", "carol", "dave"), channels=[], global_limit=50) as fake:
        async with Cluster(fake, url, timer_games=args.timer_games, play_games=args.play_games,
                           env={"DISCORD_GLOBAL_RATE": rate, "BOT_LOG": "ERROR"}) as cluster:
            return await scenario(fake, cluster, args, rate)


async def scenario(fake, cluster, args, rate: str) -> dict:
    await cluster.prepare()
    shards = cluster.shards
    killed, others = shards[1], [s for s in shards if s is not shards[1]]
    out = {}
    try:
        for shard in shards:
            await cluster.spawn(shard)

        async def connected():
            return all(cluster.connected(s) for s in shards) and bool(fake.synced.get(None))
        assert await until(connected)
        played = await cluster.play(shards, 1)
        # the kill falls mid-play: while every server's players move and the processes send their notices
        playing = asyncio.ensure_future(cluster.play(shards, args.moves))
        await asyncio.sleep(args.kill_after)
        killed.proc.send_signal(signal.SIGKILL)
        await killed.proc.wait()
        played += await playing
        await cluster.make_reminders_due(killed)

        async def others_done():
            return all(cluster.notices_once(s) == (0, 0) for s in others)
        out["others_done"] = await until(others_done, 120)
        await cluster.spawn(killed)
        back = killed.started_at

        async def fired():
            return await cluster.first_fired_after(killed, back) is not None
        assert await until(fired)
        out["first_timer_s"] = await cluster.first_fired_after(killed, back) - back

        async def all_done():
            return all(cluster.notices_once(s) == (0, 0) and cluster.announced(s) for s in shards)
        out["all_done"] = await until(all_done, 120)
        played += await cluster.play(shards, 1)
        await fake.settle(quiet=1.0)
        # one move and its requests, alone
        before = len(fake.requests)
        played += await cluster.move(shards[0], shards[0].play_channels[0])
        await fake.settle(quiet=1.0)
        out["one_move"] = Counter(f"{r.method} {route(r.path)}" for r in fake.requests[before:])
    finally:
        for s in shards:
            await cluster.stop(s)
    logged = await cluster.logged_moves()
    lost = sum(len(moves) - matched(moves, logged[ch]) for ch, moves in cluster.confirmed.items())
    extra = sum(max(0, len(logged[ch]) - len(moves)) for ch, moves in cluster.confirmed.items())
    twice = sum(cluster.notices_once(s)[1] for s in shards)
    missing = sum(cluster.notices_once(s)[0] for s in shards)
    rounds = await cluster.rounds_paired()
    paired_twice = sum(len(t) - len(set(t)) for t in rounds.values())
    announced = [cluster.announced(s) for s in shards]
    notice_posts = [r for r in fake.requests if r.method == "POST" and any(
        r.path.endswith(f"/channels/{c}/messages") for s in shards for c in s.timer_channels)]
    by_route = Counter(f"{r.method} {route(r.path)}" for r in fake.requests if COUNTED.match(r.path))
    out.update(rate=rate, moves=played, seen=sum(len(m) for m in cluster.confirmed.values()), lost=lost,
               extra=extra, twice=twice, missing=missing, paired_twice=paired_twice, announced=announced,
               counted=len(fake.counted), busiest=fake.busiest_second(), limited=len(fake.limited),
               notices=2 * args.timer_games * len(shards), notice_posts=len(notice_posts),
               failed={k: len(v) for k, v in cluster.failed.items()}, by_route=by_route, load=load())
    return out


async def main_async(args) -> int:
    server = PgServer(durable=True).start()
    try:
        print(f"load average at start: {load()}")
        for rate in ("0", "45"):
            r = await run(server, args, rate)
            name = "budget off" if rate == "0" else f"budget {rate}/s"
            print(f"{name}: {r['moves']} moves made ({r['seen']} seen made by their players), {r['counted']} counted "
                  f"requests accepted, busiest second {r['busiest']} (limit 50), 429s met {r['limited']}; shard 1 "
                  f"killed mid-play, restarted: first due timer fired {r['first_timer_s']:.2f} s after; moves lost "
                  f"{r['lost']} (in the log but never seen: {r['extra']}), notices missing {r['missing']}, shown "
                  f"twice {r['twice']}, league rounds paired twice {r['paired_twice']}, round 2 announced "
                  f"{r['announced']}; interactions failed by shard {r['failed']}; everything delivered within 2 "
                  f"minutes: {r['all_done']}   (load {r['load']})")
            print(f"  {r['notices']} timer notices went out in {r['notice_posts']} channel posts (each counted); "
                  "counted requests by route: " + ", ".join(f"{k} {v}" for k, v in r["by_route"].most_common()))
            print("  one move's requests: " + ", ".join(
                f"{k} {v} ({'counted' if COUNTED.match('/api/v10' + k.split(' ', 1)[1]) else 'exempt'})"
                for k, v in r["one_move"].items()))
    finally:
        server.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timer-games", type=int, default=40, help="games a server with a reminder and deadline due")
    parser.add_argument("--play-games", type=int, default=8, help="games a server in which players move")
    parser.add_argument("--moves", type=int, default=6, help="moves a play game while the kill falls")
    parser.add_argument("--kill-after", type=float, default=3.0, help="seconds into that play")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
