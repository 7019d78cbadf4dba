"""What the clocks cost the scheduler (issue #34): 10,000 running games, each with a reminder and a deadline
pending and a bank per person, in one database; how long the scheduler takes to find what is due next and
what is due now (the two reads of each pass), and the clock arithmetic a move adds (the instant a bank runs
out in someone's playing hours, the next reminder out of quiet hours; the same at a table with playing
hours). Not part of the tests:

    .venv/bin/python bench/clock.py [--games 10000] [--db postgresql://…]

Target: finding what is due next under 5 ms at 10,000 running games.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from store import open_store  # noqa: E402
from table import clock as C  # noqa: E402

TARGET_MS = 5.0
ZONES = ("Europe/Rome", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "UTC")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def seed(store, n: int, now: float, rnd: random.Random) -> None:
    """``n`` running games with two people each, their banks and a reminder and deadline pending (hours to
    days ahead), in transactions of 500 games."""
    from store import queries as q

    for first in range(0, n, 500):
        async def work(conn, first=first):
            for i in range(first, min(n, first + 500)):
                gid = (await conn.execute(q.NEW_GAME, {
                    "guild": str((i % 64) << 22), "channel": f"c{i}", "game": "wassamasaw",
                    "options": '{"speed": "daily"}', "status": "running", "host": "a", "created_at": now,
                    "updated_at": now, "parent_channel": None})).scalar_one()
                await conn.execute(q.NEW_SEAT, [{"game_id": gid, "position": k, "user_id": f"u{i}-{k}",
                                                 "name": f"u{k}", "is_bot": 0} for k in range(2)])
                await conn.execute(q.NEW_CLOCK, [{"game_id": gid, "user_id": f"u{i}-{k}", "bank": 24 * C.H,
                                                  "since": now if k == 0 else None, "credit": 0.0} for k in range(2)])
                await conn.execute(q.NEW_TIMER, [
                    {"game_id": gid, "kind": "reminder", "version": 1, "due": now + rnd.uniform(1, 8) * C.H},
                    {"game_id": gid, "kind": "deadline", "version": 1, "due": now + rnd.uniform(10, 120) * C.H}])
        await store.transaction(work)


def per_call(call, k: int = 20000) -> float:
    """Microseconds a call of ``call(i)`` takes, over i = 0 .. k-1 (the calls of the pure clock functions)."""
    began = time.perf_counter()
    for i in range(k):
        call(i)
    return (time.perf_counter() - began) / k * 1e6


async def timed(call, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        began = time.perf_counter()
        await call()
        out.append((time.perf_counter() - began) * 1000)
    return out


async def main_async(args) -> int:
    rnd = random.Random(34)
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        target = args.db or str(Path(tmp) / "clock.db")
        async with open_store(target) as store:
            began = time.perf_counter()
            await seed(store, args.games, now, rnd)
            print(f"{args.games} running games seeded in {time.perf_counter() - began:.1f} s ({store.side.name})")
            pending = len(await store.pending_timers())
            nxt = await timed(store.next_due, args.runs)
            soon = now + 65 * 60              # a pass a little after the first reminders come due
            due = await timed(lambda: store.due_timers(soon), args.runs)
            ok = statistics.median(nxt) < TARGET_MS
            print(f"timers pending: {pending}")
            print(f"what is due next (next_due):  median {statistics.median(nxt):.3f} ms, p95 {pct(nxt, 95):.3f} ms"
                  f"  — target < {TARGET_MS:g} ms: {'ok' if ok else 'MISSED'}")
            print(f"what is due now (due_timers, {len(await store.due_timers(soon))} due):"
                  f" median {statistics.median(due):.3f} ms, p95 {pct(due, 95):.3f} ms")
            clocks = await timed(lambda: store.clocks(rnd.randint(1, args.games)), args.runs)
            print(f"a game's banks (clocks):      median {statistics.median(clocks):.3f} ms")
    people = [C.Hours(z, (23 * 60, 7 * 60)) for z in ZONES]

    def runs_out(hours):          # banks of 1-120 h, at instants 97 s apart
        return lambda i: C.runs_out(hours[i % len(hours)], now + i * 97.0, (i % 120 + 1) * C.H)

    def awake_at(hours):
        return lambda i: C.awake_at(hours[i % len(hours)], now + i * 97.0)

    print(f"when a bank runs out (runs_out, 1-120 h in someone's playing hours): {per_call(runs_out(people)):.1f}"
          " µs a call")
    print(f"the next waking instant (awake_at): {per_call(awake_at(people)):.1f} µs a call")
    # a table with playing hours (18:00-23:00 in Rome): the banks run in the window; a reminder needs the window
    # and the person's own hours (Tokyo's quiet hours cover that window: never reachable there)
    window = ("Europe/Rome", 18 * 60, 23 * 60)
    at_table = [C.at_table(h, window) for h in people]
    reach = [C.reachable(h, window) for h in people]
    print(f"runs_out at a table with playing hours (5 h a day): {per_call(runs_out(at_table)):.1f} µs a call")
    print(f"awake_at for a reminder there: {per_call(awake_at(reach)):.1f} µs a call")
    return 0 if ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--db", help="a postgresql:// URL (default: a SQLite file in a temporary folder)")
    return asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
