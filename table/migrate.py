"""Move a Teahouse SQLite database into PostgreSQL, every row of every table, and check the counts.

    python -m table.migrate data/teahouse.db postgresql://teahouse:secret@db.example/teahouse

The SQLite file is first brought up to this Teahouse's schema (as the bot would on start); the PostgreSQL
database is created up to the same schema, must hold no games yet, and receives everything in one transaction:
games, seats, the action log, timers, the outbox, server settings, notification preferences and results, with
their ids (the id sequences continue after them). If any table's count differs afterwards nothing is kept.
Stop the bot first: what it writes to the file meanwhile would not be moved.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from .factory import is_postgres_url
from .pgstore import TABLES, PgStore
from .store import Store, StoreError

SEQUENCES = ("games", "actions", "timers", "outbox")   # the tables whose ids a sequence hands out


class MigrationError(StoreError):
    """The move was refused or its counts did not match; the PostgreSQL database was left as it was."""


async def migrate(source: str | Path, url: str, *, say=print) -> dict[str, int]:
    """Copy every table of the SQLite ``source`` into the PostgreSQL ``url``; returns the rows per table."""
    if not Path(source).is_file():
        raise MigrationError(f"There is no SQLite file {source}.")
    async with Store(source) as src, PgStore(url) as dst:
        counts: dict[str, int] = {}
        async with dst.db.acquire() as conn, conn.transaction():
            if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
                raise MigrationError(f"The database {dst.path} already holds games; move into an empty one.")
            for table in TABLES:
                async with src.db.execute(f"SELECT * FROM {table}") as cur:
                    columns = [d[0] for d in cur.description]
                    rows = [tuple(r) for r in await cur.fetchall()]
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
                counts[table] = len(rows)
            for table in SEQUENCES:
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                   f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
            for table, n in counts.items():
                got = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
                if got != n:
                    raise MigrationError(f"{table}: {n} rows in {source} but {got} in {dst.path}; nothing was "
                                         "moved.")
        for table, n in counts.items():
            say(f"{table:>8}: {n} rows")
        say(f"Moved {counts['games']} games from {source} to {dst.path}; every table's count matches.")
        return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m table.migrate",
                                     description="Move a Teahouse SQLite database into an empty PostgreSQL one.")
    parser.add_argument("sqlite", help="the SQLite file (e.g. data/teahouse.db)")
    parser.add_argument("url", help="postgresql://user:password@host/database")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.url):
        print("teahouse: the target must be a postgresql:// URL.", file=sys.stderr)
        return 2
    try:
        asyncio.run(migrate(args.sqlite, args.url))
    except StoreError as e:
        print(f"teahouse: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
