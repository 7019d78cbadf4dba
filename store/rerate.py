"""Rate every stored game again, in the order they were rated: ``python -m store.rerate [db]`` (a SQLite file
or ``postgresql://…``; default ``DATABASE_URL``, else ``TEAHOUSE_DB``, else data/teahouse.db). Run it once with
the bot stopped after upgrading, to rate the games that ended before ratings existed (see store/ratings.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import time

from . import ratings
from .factory import open_store


async def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print("usage: python -m store.rerate [db]   (db: a SQLite file or postgresql://…; default "
              "TEAHOUSE_DB or DATABASE_URL)", file=sys.stderr)
        return 2
    target = (argv[0] if argv else os.getenv("DATABASE_URL", "").strip() or os.getenv("TEAHOUSE_DB")
              or "data/teahouse.db")
    store = await open_store(target).open()
    try:
        start = time.perf_counter()
        n = await ratings.rebuild(store)
        print(f"rebuilt the ratings of {n} rated games in {time.perf_counter() - start:.2f} s")
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
