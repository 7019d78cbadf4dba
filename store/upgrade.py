"""Bringing a database's schema up to date on open, with Alembic (the revisions in ``store/migrations``).

- One revision chain for SQLite and PostgreSQL: 0001 … 0005 are the five schema versions Teahouse had before
  Alembic, so a database at SQLite ``PRAGMA user_version`` k or PostgreSQL ``schema_version`` k (and no
  ``alembic_version``) is stamped at revision k — *adopted* — and then upgraded, losing nothing.
- Every pending revision runs in one transaction: all of them, or none (SQLite and PostgreSQL both change
  their schema transactionally). On PostgreSQL an advisory lock makes processes that start at once migrate one
  at a time; on SQLite BEGIN IMMEDIATE does.
- Before a SQLite file that holds a Teahouse schema is upgraded, it is copied beside itself with SQLite's
  backup API: ``teahouse.db.before-0005.bak`` (the file was at revision 0005), or for a file from before Alembic
  ``teahouse.db.before-user_version-3.bak``; docs/store.md says how to restore it.
- The legacy number is kept in step (SQLite ``user_version``, PostgreSQL's ``schema_version`` table, both the
  revision's number), so a Teahouse from before Alembic refuses a newer database instead of misreading it.
- Refused before anything is written: a revision this code does not know, or a legacy number above the newest
  revision (a newer Teahouse wrote it), tables without any Teahouse schema (a foreign database), and a
  PostgreSQL database that a move from SQLite (``python -m store.migrate``) has not finished filling.

- The bot migrates in a process of its own (``Store.open(apart=True)``: bot.py, the console, bench/load.py): a
  database that needs a revision is brought up to date by a child process that loads Alembic, so the bot's own
  memory never holds it (Alembic, Mako and their templates: 7–12 MB, for as long as the bot runs, after every
  upgrade that brings a revision). The checks, the backup and the log line stay in the bot; the child does the
  write below and says the revision it reached, or the one line that explains its failure. A database that
  is up to date (most starts) needs no child; an in-memory one is migrated in place. Tests migrate in place.

To add a revision: ``alembic -c store/migrations/alembic.ini revision --rev-id 0008 -m "what changes"`` (the
file name must start with its four-digit id: a start at the newest revision knows the chain by these names), then
write its ``upgrade()`` with ``op.`` calls (``op.get_bind().dialect.name`` for what differs by database) and
bump ``SCHEMA_VERSION`` in store/store.py; the bot applies it on its next start.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
from pathlib import Path

from sqlalchemy import inspect, text

from .backup import copy
from .dialects import StoreError

log = logging.getLogger("teahouse.store")
HERE = Path(__file__).resolve().parent / "migrations"
# Alembic (about 8 MB in the bot) is imported only when a database needs a migration: a start at the newest
# revision reads the revision with one query and knows the chain by its files' names.
# the note python -m store.migrate keeps in a PostgreSQL database while it moves a SQLite file in (store/migrate.py)
UNFINISHED_MOVE = "teahouse_migration"
REVISIONS = tuple(sorted(p.name[:4] for p in (HERE / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")))
HEAD = REVISIONS[-1]


@functools.lru_cache(maxsize=1)
def scripts():
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(HERE))


def _config(sync_conn=None):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = sync_conn
    return config


def current_revision(sync_conn) -> str | None:
    """The database's Alembic revision (None for none), read as Alembic keeps it: one row of
    ``alembic_version``."""
    if not inspect(sync_conn).has_table("alembic_version"):
        return None
    return sync_conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _look(sync_conn) -> tuple[set[str], str | None]:
    return set(inspect(sync_conn).get_table_names()), current_revision(sync_conn)


def _known(revision: str) -> bool:
    return revision in REVISIONS


def _run(sync_conn, legacy: int, target: str) -> str | None:
    """Adopt a database from before Alembic at its legacy number, then upgrade it to ``target``."""
    revision = current_revision(sync_conn)
    if revision == HEAD and target == "head":
        return revision                 # up to date: most starts, and no Alembic to load
    from alembic import command

    if revision is None and legacy:
        command.stamp(_config(sync_conn), f"{legacy:04d}")
    if revision is None or revision != HEAD or target != "head":
        command.upgrade(_config(sync_conn), target)
    return current_revision(sync_conn)


async def upgrade(store, target: str = "head", apart: bool = False) -> None:
    """Check, back up and upgrade ``store``'s database (see the module's docstring); with ``apart``, a
    migration runs in a child process."""
    side, head = store.side, HEAD
    async with side.connection("read") as conn:
        tables, revision = await conn.run_sync(_look)
        legacy = await side.legacy_version(conn)
        if revision is not None and not _known(revision):
            raise StoreError(side.newer(revision, head))
        if revision is None and legacy > int(head):
            raise StoreError(side.newer(legacy, int(head)))
        if revision is None and not legacy and side.foreign_tables(tables):
            raise StoreError(side.foreign())
        if UNFINISHED_MOVE in tables:         # half the games would be missing
            raise StoreError(f"The move of a SQLite file into {side.path} is not finished: run python -m "
                             "store.migrate again with the same file (it goes on where it stopped).")
        await side.prepare(conn)
    if side.name == "sqlite" and (revision or legacy) and revision != head:
        await backup(side.path, f"before-{revision}" if revision else f"before-user_version-{legacy}")
    if apart and not (revision == head and target == "head") and side.reachable_apart():
        now = await _apart(store, target)
    else:
        now = await migrate_here(side, target)
    if now != revision:
        was = revision or (f"user_version {legacy}" if legacy else "nothing: a new database")
        log.info("the database %s is at revision %s (it was at %s)", side.path, now, was)


async def migrate_here(side, target: str) -> str | None:
    """Adopt and upgrade the database to ``target`` in one transaction; the revision it is at then."""
    async with side.connection("write") as conn:       # the write also shows a read-only file or folder
        await side.lock_for_migration(conn)
        legacy = await side.legacy_version(conn)       # another process may have migrated meanwhile
        now = await conn.run_sync(_run, legacy, target)
        await side.set_legacy_version(conn, int(now or 0))
    return now


ROOT = str(Path(__file__).resolve().parent.parent)
_CHILD = "import sys; sys.path.insert(0, sys.argv[1]); from store.upgrade import migrate_child; migrate_child()"


async def _apart(store, target: str) -> str | None:
    """``migrate_here`` in a child process (``migrate_child``): the database's address goes down its
    standard input (a PostgreSQL URL holds a password: never on a command line), the revision reached or the
    reason it failed comes back on its standard output."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _CHILD, ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await child.communicate(json.dumps({"db": store.side.address(), "target": target}).encode())
    try:
        answer = json.loads(out.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        answer = {}
    if "revision" in answer:
        return answer["revision"]
    if "error" in answer:
        raise StoreError(answer["error"])
    log.error("the migration's process failed (exit %s): %s", child.returncode, err.decode(errors="replace")[-2000:])
    raise StoreError(f"The database {store.side.path} could not be brought up to date: its migration's process "
                     f"ended without an answer (exit {child.returncode}); the log says more.")


def migrate_child() -> None:
    """The process that ``Store.open(apart=True)`` starts to migrate a database (``_apart``): the
    database's address and the target revision come on standard input; the revision reached
    (``{"revision": …}``) or the one line that explains the failure, as ``open`` would raise it
    (``{"error": …}``), goes out on standard output. A bug (not the database) raises on: its traceback goes to
    the bot's log."""
    from .store import Store

    asked = json.loads(sys.stdin.read())

    async def main() -> dict:
        store = Store(asked["db"])
        try:
            return {"revision": await store.opened_for(lambda: migrate_here(store.side, asked["target"]))}
        except StoreError as e:
            return {"error": str(e)}
        finally:
            await store.close()

    print(json.dumps(asyncio.run(main())))


async def backup(path: str, suffix: str) -> Path:
    """Copy the SQLite file ``path`` beside itself (``<path>.<suffix>.bak``, or ``.<suffix>.2.bak`` … if
    that exists) with SQLite's backup API: a consistent copy, WAL included, even while it is open."""
    def make() -> Path:
        source = Path(path)
        target = source.with_name(f"{source.name}.{suffix}.bak")
        n = 2
        while target.exists():
            target, n = source.with_name(f"{source.name}.{suffix}.{n}.bak"), n + 1
        copy(source, target)
        return target

    if path.startswith("file:") or path == ":memory:":
        return Path(path)
    target = await asyncio.to_thread(make)
    log.info("copied %s to %s before upgrading its schema", path, target)
    return target
