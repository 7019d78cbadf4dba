"""Ratings benchmark (issue #27): rebuilding every rating from stored results, and the rating listings.

    .venv/bin/python bench/ratings.py [--games 10000] [--db postgresql://…]

Stores ``--games`` ended games the way bench/load.py does (each rated as it is stored, as live play rates
it), then times ``python -m store.ratings rebuild`` (target: under 10 s for 10,000 games), checks that it gave
exactly the live numbers, and times /leaderboard and /stats by rating (target: each under 50 ms).
Not part of the tests: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import store_ended_games  # noqa: E402
from store import (
    open_store,
    ratings,  # noqa: E402
)
from table import TableService  # noqa: E402

TARGET_REBUILD_S, TARGET_QUERY_MS = 10.0, 50.0


async def main_async(args) -> int:
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        async with open_store(args.db or Path(tmp) / "ratings.db") as store:
            svc = TableService(store, render=False)
            t = time.perf_counter()
            await store_ended_games(svc, args.games)
            print(f"stored and rated {args.games} ended games in {time.perf_counter() - t:.1f} s")
            live = await store.select(ratings.EVERY_RATING)
            t = time.perf_counter()
            n = await ratings.rebuild(store)
            took = time.perf_counter() - t
            ok &= took < TARGET_REBUILD_S
            print(f"  rebuild of {n} rated games  {took:7.2f} s   target ≤ {TARGET_REBUILD_S:g} s")
            same = [tuple(r) for r in live] == [tuple(r) for r in await store.select(ratings.EVERY_RATING)]
            ok &= same
            print(f"  rebuild gives the live numbers: {'yes' if same else 'NO'}")
            for label, call in [("/leaderboard by rating", lambda: svc.rating_board("wagara", "guild7")),
                                ("/stats by rating", lambda: svc.rating_stats("000042", "guild7"))]:
                times = []
                for _ in range(5):
                    t = time.perf_counter()
                    await call()
                    times.append((time.perf_counter() - t) * 1000)
                ok &= max(times) <= TARGET_QUERY_MS
                print(f"  {label:26} {statistics.median(times):7.1f} ms (worst of 5 {max(times):.1f})   "
                      f"target ≤ {TARGET_QUERY_MS:g} ms")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--db", help="an empty PostgreSQL database (default: a SQLite file in a temporary folder)")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
