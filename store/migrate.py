"""Move a Teahouse SQLite database into PostgreSQL, every row of every table, streamed, and check it.

    python -m store.migrate data/teahouse.db postgresql://teahouse:secret@db.example/teahouse

The SQLite file is first brought up to this Teahouse's schema (as the bot would on start); the PostgreSQL
database is created up to the same schema and must hold no games yet. Then each table, parents first, is read
in the order of its rows (SQLite's rowid) a batch at a time and written with COPY: a batch is about
``BATCH_BYTES`` of data whatever its rows hold (a game's state is kilobytes, a log row a hundred bytes), so
memory stays bounded however large the file. A progress bar (tqdm) shows the rows per second and the time left.

Every batch commits together with the migration's own note of how far it got (the table ``teahouse_migration``
in the target): stopped at any point (Ctrl-C, a lost connection, kill -9), the same command goes on after the
last batch that committed, and writes no row twice. The bot refuses a database with that note (the move is not
finished). At the end every table's row count and a checksum of its rows (the sum of a 64-bit hash of each
row, read back from PostgreSQL) must equal the file's; then the id sequences continue after the moved ids and
the note is dropped. If a count or checksum differs, every table is emptied again: nothing is kept. Stop the
bot first: what it writes to the file meanwhile would not be moved (a resumed move refuses a file whose row
counts changed since the move began).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .factory import is_postgres_url
from .schema import SEQUENCED, TABLES, metadata
from .store import Store, StoreError
from .upgrade import UNFINISHED_MOVE as NOTE

BATCH_BYTES = 4 << 20          # about this much row data a batch (two batches are in memory at once)
FIRST_BATCH = 200              # rows in a table's first batch, before its rows' size is known
MAX_BATCH = 50_000
HASH_MASK = (1 << 64) - 1


class MigrationError(StoreError):
    """The move was refused or its counts or checksums did not match; what was moved was emptied again."""


def row_hash(row: tuple) -> int:
    """A row's 64-bit hash: its values as Python reads them from either database (int, float, str, None)."""
    return int.from_bytes(hashlib.blake2b(repr(tuple(row)).encode(), digest_size=8).digest(), "little")


def rows_checksum(rows) -> int:
    """The sum of the rows' hashes, modulo 2**64: independent of order, so it adds up batch by batch."""
    return sum(map(row_hash, rows)) & HASH_MASK


@dataclass
class Part:
    """One table's share of the move: the rows the file has, how many moved, their checksum, the last rowid."""
    name: str
    total: int
    rows: int = 0
    checksum: int = 0
    last: int = -(1 << 63)
    done: bool = False

    @property
    def columns(self) -> list[str]:
        return [c.name for c in metadata.tables[self.name].columns]


class Source:
    """The SQLite file, read only, in one read transaction (every batch sees the file at one moment); its
    reads run in a thread so the next batch is read while the last one is written."""

    def __init__(self, path: str | Path):
        self.db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True, isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("BEGIN")

    def count(self, name: str) -> int:
        return self.db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]

    def batch(self, part: Part, after: int, limit: int) -> tuple[list[tuple], int, int, int]:
        """Up to ``limit`` rows after rowid ``after``: (rows, the last rowid, their checksum, their size in
        bytes, roughly)."""
        cols = ", ".join(f'"{c}"' for c in part.columns)
        got = self.db.execute(f'SELECT rowid, {cols} FROM "{part.name}" WHERE rowid > ? ORDER BY rowid LIMIT ?',
                              (after, limit)).fetchall()
        if not got:
            return [], after, 0, 0
        rows = [r[1:] for r in got]
        sample = rows[::16]             # the size of every 16th row is enough to size the next batch
        size = sum(len(v) if isinstance(v, str) else 8 for r in sample for v in r) * len(rows) // len(sample)
        return rows, got[-1][0], rows_checksum(rows), size

    def close(self) -> None:
        self.db.close()


async def migrate(source: str | Path, url: str, *, say=print, progress: bool | None = None,
                  stop_after: int | None = None) -> dict[str, int]:
    """Copy every table of the SQLite ``source`` into the PostgreSQL ``url`` (or go on with a copy that was
    stopped); returns the rows per table. ``progress``: the bar on standard error (None: when it is a
    terminal). ``stop_after``: stop once that many rows committed, as an interruption would (the tests)."""
    if not Path(source).is_file():
        raise MigrationError(f"There is no SQLite file {source}.")
    import asyncpg

    async with Store(source):                # the file up to this Teahouse's schema (a backup first)
        pass
    where, source = Store(url).path, str(Path(source).resolve())
    try:
        conn = await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError) as e:
        raise MigrationError(f"Cannot reach {where} ({type(e).__name__}: {e}).") from e
    src = None
    try:
        if await conn.fetchval("SELECT to_regclass($1)", NOTE) is None:
            async with Store(url):           # the target created up to the same schema (a move going on has it)
                pass
        src = await asyncio.to_thread(Source, source)
        parts = await _parts(conn, src, source, where)
        began = time.monotonic()
        moved = await _copy(conn, src, parts, progress, stop_after)
        if stop_after is not None and moved >= stop_after and not all(p.done for p in parts):
            say(f"Stopped after {moved} rows; run the same command again to go on.")
            return {p.name: p.rows for p in parts}
        seconds = time.monotonic() - began
        say(f"Copied {moved} rows in {seconds:.1f} s ({moved / max(seconds, 1e-9):,.0f} rows/s); checking.")
        await _check(conn, parts, str(source), where, progress)
    finally:
        await conn.close()
        if src is not None:
            src.close()
    for p in parts:
        say(f"{p.name:>14}: {p.rows} rows, checksum {p.checksum:016x}")
    games = next(p.rows for p in parts if p.name == "games")
    say(f"Moved {games} games from {source} to {where}; every table's count and checksum match.")
    return {p.name: p.rows for p in parts}


async def _parts(conn, src: Source, source: str, where: str) -> list[Part]:
    """The tables still to move: from the target's note when a move was under way (refused if the file's
    counts changed since), else a new note in an empty target."""
    counts = {name: await asyncio.to_thread(src.count, name) for name in TABLES}
    if await conn.fetchval("SELECT to_regclass($1)", NOTE) is not None:
        noted = {r["name"]: r for r in await conn.fetch(f"SELECT * FROM {NOTE}")}
        if noted.get("", {}).get("last_key") != source or set(noted) - {""} != set(TABLES):
            raise MigrationError(f"The database {where} holds a move from another file "
                                 f"({noted.get('', {}).get('last_key')}); finish that one, or empty the database.")
        changed = [n for n in TABLES if noted[n]["total"] != counts[n]]
        if changed:
            raise MigrationError(f"{source} changed since the move into {where} began ({', '.join(changed)}: did "
                                 "the bot run?); empty the database and move again.")
        return [Part(n, counts[n], noted[n]["rows"], int(noted[n]["checksum"], 16), int(noted[n]["last_key"]),
                     noted[n]["done"]) for n in TABLES]
    if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
        raise MigrationError(f"The database {where} already holds games; move into an empty one.")
    parts = [Part(n, counts[n]) for n in TABLES]
    async with conn.transaction():
        await conn.execute(f"CREATE TABLE {NOTE} (name TEXT PRIMARY KEY, total BIGINT NOT NULL, rows BIGINT NOT "
                           "NULL, checksum TEXT NOT NULL, last_key TEXT NOT NULL, done BOOLEAN NOT NULL)")
        await conn.executemany(f"INSERT INTO {NOTE} VALUES ($1, $2, $3, $4, $5, $6)",
                               [("", 0, 0, "", source, False)]          # the row that names the file
                               + [(p.name, p.total, 0, "0", str(p.last), False) for p in parts])
    return parts


def _bar(progress: bool | None, total: int, initial: int, what: str):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit=" rows", unit_scale=True, desc=what, file=sys.stderr,
                disable=None if progress is None else not progress, dynamic_ncols=True, smoothing=0.05)


async def _copy(conn, src: Source, parts: list[Part], progress, stop_after: int | None) -> int:
    """Every table's remaining rows, a batch a transaction; the next batch is read while one is written.
    Returns how many rows committed in this run."""
    moved = 0
    with _bar(progress, sum(p.total for p in parts), sum(p.rows for p in parts), "moving") as bar:
        for p in parts:
            if p.done:
                continue
            bar.set_description(p.name)
            limit = FIRST_BATCH
            reading = asyncio.ensure_future(asyncio.to_thread(src.batch, p, p.last, limit))
            while True:
                rows, last, checksum, size = await reading
                if not rows:
                    p.done = True
                    await conn.execute(f"UPDATE {NOTE} SET done = TRUE WHERE name = $1", p.name)
                    break
                limit = max(1, min(MAX_BATCH, int(BATCH_BYTES * len(rows) / max(size, 1))))
                reading = asyncio.ensure_future(asyncio.to_thread(src.batch, p, last, limit))
                try:
                    async with conn.transaction():
                        await conn.copy_records_to_table(p.name, records=rows, columns=p.columns)
                        p.rows, p.checksum, p.last = p.rows + len(rows), (p.checksum + checksum) & HASH_MASK, last
                        await conn.execute(f"UPDATE {NOTE} SET rows = $2, checksum = $3, last_key = $4 WHERE "
                                           "name = $1", p.name, p.rows, f"{p.checksum:x}", str(p.last))
                except BaseException:
                    await asyncio.gather(reading, return_exceptions=True)
                    raise
                moved += len(rows)
                bar.update(len(rows))
                del rows
                if stop_after is not None and moved >= stop_after:
                    await asyncio.gather(reading, return_exceptions=True)
                    return moved
    return moved


async def _check(conn, parts: list[Part], source: str, where: str, progress) -> None:
    """Each table's count and checksum read back from the target against the file's; then the sequences and
    the note, in one transaction. A difference empties every table (nothing kept) and raises."""
    bad = [f"{p.name}: {p.total} rows in {source} but {p.rows} moved" for p in parts if p.rows != p.total]
    with _bar(progress, sum(p.rows for p in parts), 0, "checking") as bar:
        for p in parts:
            if bad:
                break
            bar.set_description(f"checking {p.name}")
            got, total = 0, 0
            cols = ", ".join(f'"{c}"' for c in p.columns)
            async with conn.transaction(readonly=True):
                cursor = await conn.cursor(f'SELECT {cols} FROM "{p.name}"')
                while records := await cursor.fetch(10_000):
                    got += len(records)
                    total += rows_checksum(records)
                    bar.update(len(records))
            if got != p.total:
                bad.append(f"{p.name}: {p.total} rows in {source} but {got} in {where}")
            elif total & HASH_MASK != p.checksum:
                bad.append(f"{p.name}: the rows in {where} differ from those in {source} (checksum "
                           f"{total & HASH_MASK:016x}, not {p.checksum:016x})")
    async with conn.transaction():
        if bad:
            await conn.execute("TRUNCATE " + ", ".join(f'"{n}"' for n in TABLES) + " RESTART IDENTITY CASCADE")
        else:
            for name in SEQUENCED:
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                   f"COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)")
        await conn.execute(f"DROP TABLE {NOTE}")
    if bad:
        raise MigrationError("; ".join(bad) + ". Nothing was kept: every table was emptied again.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store.migrate",
                                     description="Move a Teahouse SQLite database into an empty PostgreSQL one "
                                                 "(run it again after an interruption: it goes on).")
    parser.add_argument("sqlite", help="the SQLite file (e.g. data/teahouse.db)")
    parser.add_argument("url", help="postgresql://user:password@host/database")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="the progress bar on standard error (default: when it is a terminal)")
    args = parser.parse_args(argv)
    import asyncpg

    if not is_postgres_url(args.url):
        return _said("the target must be a postgresql:// URL.", 2)
    try:
        asyncio.run(migrate(args.sqlite, args.url, progress=args.progress))
    except KeyboardInterrupt:
        return _said("interrupted; every batch that committed is kept: run the same command again to go on.", 130)
    except StoreError as e:
        return _said(e, 1)
    except (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        return _said(f"the move stopped ({type(e).__name__}: {e}); run the same command again to go on.", 1)
    return 0


def _said(problem, status: int) -> int:
    """The one line an operator reads on standard error; the exit status."""
    print(f"teahouse: {problem}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
