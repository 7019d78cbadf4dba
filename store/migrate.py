"""Move a Teahouse SQLite database into PostgreSQL, every row of every table, and check the counts.

    python -m store.migrate data/teahouse.db postgresql://teahouse:secret@db.example/teahouse

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

from sqlalchemy import func, insert, select, text

from .factory import is_postgres_url
from .schema import SEQUENCED, TABLES, metadata
from .store import Store, StoreError

BATCH = 5000       # rows per INSERT round trip


class MigrationError(StoreError):
    """The move was refused or its counts did not match; the PostgreSQL database was left as it was."""


async def _count(conn, table) -> int:
    return (await conn.execute(select(func.count()).select_from(metadata.tables[table]))).scalar_one()


async def migrate(source: str | Path, url: str, *, say=print) -> dict[str, int]:
    """Copy every table of the SQLite ``source`` into the PostgreSQL ``url``; returns the rows per table."""
    if not Path(source).is_file():
        raise MigrationError(f"There is no SQLite file {source}.")
    async with Store(source) as src, Store(url) as dst:
        counts: dict[str, int] = {}
        async with src.snapshot():
            reader = src._owned()                    # the snapshot's connection (the batch's is the task's now)
            await _copy(reader, dst, source, counts)
        for name in TABLES:
            say(f"{name:>8}: {counts[name]} rows")
        say(f"Moved {counts['games']} games from {source} to {dst.path}; every table's count matches.")
        return counts


async def _copy(reader, dst: Store, source, counts: dict[str, int]) -> None:
    """Every row, in one transaction of ``dst``: counts checked, sequences continued after the moved ids."""
    async with dst.batch():
        writer = dst._owned()
        if (await writer.execute(select(metadata.tables["games"].c.id).limit(1))).first() is not None:
            raise MigrationError(f"The database {dst.path} already holds games; move into an empty one.")
        for name in TABLES:                      # parents first: the foreign keys hold at every row
            table = metadata.tables[name]
            rows = [dict(r) for r in (await reader.execute(select(table))).mappings()]
            for i in range(0, len(rows), BATCH):
                await writer.execute(insert(table), rows[i:i + BATCH])
            counts[name] = len(rows)
        for name in SEQUENCED:
            await writer.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                      f"COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)"))
        for name, n in counts.items():
            got = await _count(writer, name)
            if got != n:
                raise MigrationError(f"{name}: {n} rows in {source} but {got} in {dst.path}; nothing was "
                                     "moved.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store.migrate",
                                     description="Move a Teahouse SQLite database into an empty PostgreSQL one.")
    parser.add_argument("sqlite", help="the SQLite file (e.g. data/teahouse.db)")
    parser.add_argument("url", help="postgresql://user:password@host/database")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.url):
        return _said("the target must be a postgresql:// URL.", 2)
    try:
        asyncio.run(migrate(args.sqlite, args.url))
    except StoreError as e:
        return _said(e, 1)
    return 0


def _said(problem, status: int) -> int:
    """The one line an operator reads on standard error; the exit status."""
    print(f"teahouse: {problem}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
