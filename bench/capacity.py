"""How far one bot process goes (issue #50): the rate of moves raised step by step until a target breaks.

    .venv/bin/python bench/capacity.py [--db sqlite|postgres] [--stored 10000] [--games 300]
                                       [--levels 60,120,240,480,960,1920] [--seconds 60]

One process as the bot runs it — the table service with its image workers (bench/load.py's setup, reused) —
against a fake Discord in a process of its own (tests/fakediscord.py): every move's picture is sent to it
through discord.py, as the bot sends a move's answer. The players are those of real asynchronous play:
``--games`` running games (two to four seats, one in three with a computer seat, which plays at once after
the person before it), ``--stored`` ended games already stored. At each level the moves arrive as a Poisson
process at that many a minute, in bursts (a fifth of the time at three times the rate: an evening's peak), each
by the person a random game waits for; every second the scheduler's pass fires the reminders and deadlines
due (one comes due for every four moves) and sends their notices (with their pictures).

Measured at each level against the targets: the interaction acknowledged (arrival until the handler runs
and its first answer is back from the fake) p99 ≤ 1 s; the move saved p95 ≤ 100 ms; the picture ready p95 ≤
1 s (both from arrival); the memory of the bot and its workers ≤ ``--ceiling`` MB. Then, from the last level
that held: moves a minute sustained, the active games that rate carries (a game moves every ``--think``
minutes on average, ×3 at the peak), processor time a move in the bot (save, computer, send) and in the
workers (picture), the memory per 1,000 stored games (the database's bytes; the process holds none). The load
average is printed with every level: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import KEYS, cpu_seconds, memory_report, pct, store_ended_games  # noqa: E402
from engine import GAMES  # noqa: E402
from render import workers as rendering  # noqa: E402

TARGETS = {"ack_p99": 1000.0, "saved_p95": 100.0, "picture_p95": 1000.0}
FAKE = """
import asyncio, sys
sys.path.insert(0, sys.argv[1])
from tests.fakediscord import FakeDiscord
async def main():
    async with FakeDiscord(patch=False, channels=["table"], settle=0) as fake:
        print(fake.api_url, fake.token, fake.channel("table").id, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
asyncio.run(main())
"""


class Discord:
    """The fake Discord in a process of its own, and discord.py's HTTP client talking to it (the budget off: a
    move's answer goes through the interaction's endpoints, which Discord does not count)."""

    async def start(self) -> Discord:
        import discord
        from discord.http import HTTPClient

        root = str(Path(__file__).resolve().parent.parent)
        self.proc = subprocess.Popen([sys.executable, "-c", FAKE, root], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        api, token, channel = (await asyncio.to_thread(self.proc.stdout.readline)).split()
        discord.http.Route.BASE = api
        self.channel = int(channel)
        self.http = HTTPClient(asyncio.get_running_loop())
        await self.http.static_login(token)
        return self

    async def send(self, text: str, png: bytes | None) -> None:
        import discord
        from discord.http import handle_message_parameters

        files = {"files": [discord.File(io.BytesIO(png), "move.png")]} if png else {}
        with handle_message_parameters(content=text[:1900], **files) as params:
            await self.http.send_message(self.channel, params=params)

    async def ping(self) -> None:
        """What acknowledging an interaction costs: one small request and its answer."""
        await self.http.get_channel(self.channel)

    async def stop(self) -> None:
        await self.http.close()
        self.proc.stdin.close()
        self.proc.wait(10)


async def open_games(svc, n: int, rnd: random.Random) -> list:
    from table import User, Where

    tables = []
    for c in range(n):
        key = KEYS[c % len(KEYS)]
        game = GAMES[key]
        seats = max(game.min_players, min(game.max_players, 2 + c % 3))
        people = seats - 1 if c % 3 == 0 else seats         # one table in three has a computer seat
        users = [User(f"{200000 + c * 10 + i}", f"Player {c}-{i}") for i in range(people)]
        where = Where(f"cap{c}", f"guild{c % 100}")
        assert (await svc.open_table(where, users[0], key)).ok
        for u in users[1:]:
            assert (await svc.join(where, u)).ok
        if people < seats:
            assert (await svc.add_bot(where, users[0], "easy")).ok
        assert (await svc.start(where, users[0])).ok
        tables.append((where, {u.id: u for u in users}, game))
    return tables


async def level(svc, discord, tables, per_minute: float, seconds: float, rnd: random.Random) -> dict:
    """One level: moves arriving at ``per_minute`` (bursty) for ``seconds``; the scheduler every second."""
    store = svc.store
    acks, saved, pictures, busy = [], [], [], set()
    counts = {"moves": 0, "notices": 0, "refused": 0}
    stop = time.perf_counter() + seconds

    async def move(where, users, game):
        arrived = time.perf_counter()
        await asyncio.sleep(0)                   # the handler's turn on the loop
        await discord.ping()                     # its first answer (the deferral) and Discord's reply
        acks.append((time.perf_counter() - arrived) * 1000)
        try:
            row = await store.open_game(where.channel)
            if row is None:                      # the game ended: a new one at the same table
                first = next(iter(users.values()))
                await svc.open_table(where, first, game.key)
                for u in list(users.values())[1:]:
                    await svc.join(where, u)
                await svc.start(where, first)
                return
            state = game.load(row.state)
            humans = [s for s in game.to_act(state) if s in users]
            if not humans:
                return
            seat = rnd.choice(humans)
            reply = await svc.act(where, users[seat], rnd.choice(game.bot_actions(state, seat)), version=row.version)
            if not reply.ok:
                counts["refused"] += 1
                return
            saved.append((time.perf_counter() - arrived) * 1000)
            await reply.render()
            pictures.append((time.perf_counter() - arrived) * 1000)
            await discord.send(reply.text or "", reply.image.data if reply.image else None)
            counts["moves"] += 1
        finally:
            busy.discard(where.channel)

    async def scheduler():
        async def to_channel(notice):
            await notice.reply.render()
            await discord.send(notice.reply.text or "", notice.reply.image.data if notice.reply.image else None)
            counts["notices"] += 1

        async def to_user(notice, private, part):
            return None
        while time.perf_counter() < stop:
            await svc.fire_due()
            await svc.deliver(to_channel, to_user)
            await asyncio.sleep(1.0)

    # reminders and deadlines come due during the level: one for every four moves expected
    expected = int(per_minute * seconds / 60 / 4)
    due = [(where, time.time() + rnd.uniform(0, seconds))
           for where, _u, _g in rnd.sample(tables, min(len(tables), expected))]
    for where, when in due:
        row = await store.open_game(where.channel)
        if row is not None and row.status == "running":
            await store.add_timer(row.id, rnd.choice(["reminder", "deadline"]), row.version, when)
    running = []
    sched = asyncio.create_task(scheduler())
    cpu0, draw0 = cpu_seconds()
    t0 = time.perf_counter()
    peak = 0.0
    next_mem = t0
    while (now := time.perf_counter()) < stop:
        burst = (now - t0) % 30 < 6                      # six seconds of every thirty at three times the rate
        rate = per_minute / 60 * (3 if burst else 0.5)   # the same mean: 0.2 * 3 + 0.8 * 0.5 = 1
        await asyncio.sleep(rnd.expovariate(rate))
        free = [t for t in tables if t[0].channel not in busy]
        if free:
            where, users, game = rnd.choice(free)
            busy.add(where.channel)
            running.append(asyncio.create_task(move(where, users, game)))
        if now >= next_mem:
            peak = max(peak, memory_report()[0])
            next_mem = now + 5.0
    await asyncio.gather(*running, sched)
    wall = time.perf_counter() - t0
    cpu1, draw1 = cpu_seconds()
    mem, whose = memory_report()
    n = max(1, counts["moves"])
    return {"per_minute": per_minute, "moves": counts["moves"], "moves_per_minute": counts["moves"] / wall * 60,
            "notices": counts["notices"], "refused": counts["refused"],
            "ack_p99": pct(acks, 99), "saved_p95": pct(saved, 95), "saved_p50": pct(saved, 50),
            "picture_p95": pct(pictures, 95), "picture_p50": pct(pictures, 50), "rss_mb": max(peak, mem),
            "whose": whose, "cpu_bot_ms": (cpu1 - cpu0) / n * 1000, "cpu_draw_ms": (draw1 - draw0) / n * 1000,
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}


async def send_cost(discord, svc, tables) -> float:
    """The bot's processor time to send one move's answer (its picture) through discord.py: ms, of 100."""
    where, users, game = tables[0]
    row = await svc.store.open_game(where.channel)
    state = game.load(row.state)
    png = await rendering.draw((game.key, game.view(state, None), {u: x.name for u, x in users.items()}, None, "en"))
    t = time.process_time()
    for _ in range(100):
        await discord.send(f"game {row.id}", png)
    return (time.process_time() - t) * 10


async def main_async(args) -> int:
    from store import open_store
    from table import TableService

    rnd = random.Random(50)
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        if args.db == "postgres":
            from tests.pg import PgServer

            server = PgServer(durable=True).start()
            target = await server.fresh()
        else:
            target = str(Path(tmp) / "capacity.db")
        discord = await Discord().start()
        try:
            async with await open_store(target).open(apart=True) as store:
                svc = TableService(store)
                t = time.perf_counter()
                await store_ended_games(svc, args.stored)
                print(f"{args.db}: stored {args.stored} ended games in {time.perf_counter() - t:.0f} s; "
                      f"{args.games} running")
                tables = await open_games(svc, args.games, rnd)
                size = await database_bytes(store, target)
                send_ms = await send_cost(discord, svc, tables)
                print(f"  sending a move's picture through discord.py: {send_ms:.1f} ms of processor time in the bot")
                results, broke = [], None
                for per_minute in args.levels:
                    r = await level(svc, discord, tables, per_minute, args.seconds, rnd)
                    results.append(r)
                    over = [k for k, limit in TARGETS.items() if r[k] > limit]
                    if r["rss_mb"] > args.ceiling:
                        over.append("memory")
                    print(f"  {per_minute:6.0f}/min asked: {r['moves_per_minute']:6.0f} moves/min made, "
                          f"{r['notices']} notices; ack p99 {r['ack_p99']:6.0f} ms, saved p50/p95 "
                          f"{r['saved_p50']:.0f}/{r['saved_p95']:.0f} ms, picture p50/p95 {r['picture_p50']:.0f}/"
                          f"{r['picture_p95']:.0f} ms, memory {r['rss_mb']:.0f} MB, CPU a move {r['cpu_bot_ms']:.1f} "
                          f"ms bot + {r['cpu_draw_ms']:.1f} ms pictures   (load {r['load']})"
                          + (f"   ← {', '.join(over)} past the target" if over else ""))
                    if over:
                        broke = (per_minute, over, r)
                        break
                held = [r for r in results if r is not (broke[2] if broke else None)]
                best = held[-1] if held else None
                if best is not None:
                    active = best["moves_per_minute"] * args.think / 3      # a move every --think min, ×3 at peak
                    print(f"  sustained: {best['moves_per_minute']:.0f} moves/min; at a move every {args.think:g} min "
                          f"a game (×3 at the evening peak) that is {active:,.0f} active games; stored "
                          f"{args.stored:,} ended: the database {size / 2**20:.0f} MB "
                          f"({size / max(1, args.stored) * 1000 / 2**20:.1f} MB per 1,000 stored games), the "
                          f"process none of them; CPU a move: {best['cpu_bot_ms']:.1f} ms in the bot (of which "
                          f"~{send_ms:.1f} ms sending) + {best['cpu_draw_ms']:.1f} ms drawing")
                print(f"  first target past: {', '.join(broke[1]) + f' at {broke[0]:.0f}/min' if broke else 'none'}")
                print(json.dumps({"db": args.db, "levels": [{k: v for k, v in r.items() if k != "whose"}
                                                            for r in results],
                                  "broke": broke[1] if broke else None, "send_ms": send_ms,
                                  "db_bytes": size, "stored": args.stored}, default=str))
        finally:
            await discord.stop()
            if server is not None:
                server.stop()
    return 0


async def database_bytes(store, target: str) -> int:
    if store.side.name == "sqlite":
        return sum(p.stat().st_size for p in Path(target).parent.glob(Path(target).name + "*"))
    return (await store.select(_size()))[0][0]


def _size():
    from sqlalchemy import text
    return text("SELECT pg_database_size(current_database())")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--stored", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--levels", type=lambda s: [float(x) for x in s.split(",")],
                        default=[60, 120, 240, 480, 960, 1920])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=30.0, help="mean minutes between a game's moves")
    parser.add_argument("--ceiling", type=float, default=400.0, help="MB: the bot and its workers")
    args = parser.parse_args()
    rendering.start()
    try:
        return asyncio.run(main_async(args))
    finally:
        rendering.stop()


if __name__ == "__main__":
    sys.exit(main())
