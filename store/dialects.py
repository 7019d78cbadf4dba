"""Everything that differs between SQLite and PostgreSQL, in one place; the store's queries and the Alembic
revisions are otherwise the same for both.

- SQL the two say differently, as SQLAlchemy constructs compiled per dialect: JSON membership
  (``json_each`` / jsonb ``?``), the seat names of a game as one JSON object, a server's shard, byte-order
  sorting of text.
- ``upsert``: INSERT … ON CONFLICT DO UPDATE (each dialect has its own ``insert``).
- The engines, both under SQLAlchemy's asyncio engine: SQLite is one aiosqlite connection that writes (one
  writer per file), on which Teahouse issues ``BEGIN IMMEDIATE`` itself (the driver is put in autocommit,
  SQLAlchemy's documented recipe for the aiosqlite driver), with WAL, a 5 s busy timeout and foreign keys, and
  one that reads; PostgreSQL is a pool of asyncpg connections with their prepared-statement cache, and an
  advisory lock while migrating.
- The one-line explanations of what makes a database unusable, and which driver errors mean "storage failed,
  nothing was saved" (``StoreError``/``StoreFull``) rather than a bug.
- The legacy schema number (SQLite ``PRAGMA user_version``, PostgreSQL's ``schema_version`` table) that the
  stores before Alembic kept, read on adoption and kept in step so those older versions refuse a newer file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.expression import ColumnElement
from sqlalchemy.sql.visitors import InternalTraversal as T
from sqlalchemy.types import Boolean, Integer, Text

log = logging.getLogger("teahouse.store")

MIGRATION_LOCK = 0x7EA40E5E        # pg_advisory_xact_lock key: one process migrates at a time


class StoreError(Exception):
    """The database cannot be used: the message says what file, what is wrong and what to do."""


class StoreFull(StoreError):
    """The disk (or the database's size limit) is full: nothing was saved."""

    def __init__(self, message: str = "The disk is full; nothing was saved. Try again in a moment."):
        super().__init__(message)


def not_saved(e: BaseException) -> StoreError:
    return StoreError(f"The database failed ({type(e).__name__}: {e}); nothing was changed.")


# ----- SQL said differently -------------------------------------------------------------------------------
class JsonHas(ColumnElement):
    """True when the JSON array ``doc`` (or its member ``key``) holds ``value``."""
    type = Boolean()
    inherit_cache = True
    _traverse_internals = [("doc", T.dp_clauseelement), ("value", T.dp_clauseelement), ("key", T.dp_string)]

    def __init__(self, doc, value, key: str | None = None):
        self.doc, self.value, self.key = doc, value, key


@compiles(JsonHas, "sqlite")
def _json_has_sqlite(e, compiler, **kw):
    path = f", '$.{e.key}'" if e.key else ""
    return (f"EXISTS (SELECT 1 FROM json_each({compiler.process(e.doc, **kw)}{path}) "
            f"WHERE json_each.value = {compiler.process(e.value, **kw)})")


@compiles(JsonHas, "postgresql")
def _json_has_postgresql(e, compiler, **kw):
    doc = f"({compiler.process(e.doc, **kw)})::jsonb" + (f" -> '{e.key}'" if e.key else "")
    return f"COALESCE({doc} ? {compiler.process(e.value, **kw)}, FALSE)"


class NamesObject(ColumnElement):
    """The aggregate JSON object {key: value} of a group's rows, as text ('{}' for none)."""
    type = Text()
    inherit_cache = True
    _traverse_internals = [("key", T.dp_clauseelement), ("value", T.dp_clauseelement),
                           ("order", T.dp_clauseelement)]

    def __init__(self, key, value, order):
        self.key, self.value, self.order = key, value, order


@compiles(NamesObject, "sqlite")
def _names_sqlite(e, compiler, **kw):
    return f"json_group_object({compiler.process(e.key, **kw)}, {compiler.process(e.value, **kw)})"


@compiles(NamesObject, "postgresql")
def _names_postgresql(e, compiler, **kw):
    key, value, order = (compiler.process(x, **kw) for x in (e.key, e.value, e.order))
    return (f"COALESCE((json_object_agg({key}, {value} ORDER BY {order}) FILTER (WHERE {key} IS NOT NULL))::text, "
            "'{}')")


class ShardOf(ColumnElement):
    """A server's shard, (id >> 22) % count; no server, or an id that is not a number, is shard 0."""
    type = Integer()
    inherit_cache = True
    _traverse_internals = [("guild", T.dp_clauseelement), ("count", T.dp_plain_obj)]   # the count is in the SQL

    def __init__(self, guild, count: int):
        self.guild, self.count = guild, int(count)


@compiles(ShardOf, "sqlite")
def _shard_sqlite(e, compiler, **kw):
    g = compiler.process(e.guild, **kw)
    return (f"(CASE WHEN {g} IS NOT NULL AND {g} != '' AND {g} NOT GLOB '*[^0-9]*' "
            f"THEN (CAST({g} AS INTEGER) >> 22) % {e.count} ELSE 0 END)")


@compiles(ShardOf, "postgresql")
def _shard_postgresql(e, compiler, **kw):
    g = compiler.process(e.guild, **kw)     # numeric: a snowflake may not fit a signed bigint's shift
    return f"(CASE WHEN {g} ~ '^[0-9]{{1,30}}$' THEN mod(div({g}::numeric, 4194304), {e.count}) ELSE 0 END)"


class ByteOrder(ColumnElement):
    """Text sorted by its bytes, whatever the server's collation (SQLite's BINARY)."""
    type = Text()
    inherit_cache = True
    _traverse_internals = [("expr", T.dp_clauseelement)]

    def __init__(self, expr):
        self.expr = expr


@compiles(ByteOrder, "sqlite")
def _bytes_sqlite(e, compiler, **kw):
    return compiler.process(e.expr, **kw)


@compiles(ByteOrder, "postgresql")
def _bytes_postgresql(e, compiler, **kw):
    return f'{compiler.process(e.expr, **kw)} COLLATE "C"'


INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def upsert(dialect: str, table, keys: list[str], stmt=None, update: list[str] | None = None):
    """INSERT (``stmt``'s, or plain) … ON CONFLICT (``keys``) DO UPDATE the other columns (``update``)."""
    ins = INSERTS[dialect](table) if stmt is None else stmt
    cols = update if update is not None else [c.name for c in table.c if c.name not in keys]
    return ins.on_conflict_do_update(index_elements=keys, set_={c: ins.excluded[c] for c in cols})


def upsert_from_select(dialect: str, table, keys: list[str], columns: list[str], select):
    return upsert(dialect, table, keys, INSERTS[dialect](table).from_select(columns, select),
                  [c for c in columns if c not in keys])


# ----- SQLite -----------------------------------------------------------------------------------------------
class Side:
    """What both databases say alike about a database that is not for this Teahouse."""
    IGNORED: set[str] = set()       # tables any Teahouse database may hold besides the schema's
    ELSEWHERE = FOREIGN = ""
    path = ""
    # a move that goes on saved by one statement in autocommit (queries.PG_RECORD_MOVE): each statement is a
    # round trip to a server; SQLite's calls stay in the process, and its transaction serves as it is
    MOVE_IN_ONE = False

    def foreign_tables(self, tables: set[str]) -> set[str]:
        return tables - self.IGNORED

    def newer(self, version, known) -> str:
        return (f"The database {self.path} was written by a newer Teahouse (schema {version}; this one knows "
                f"{known}). Update Teahouse, or {self.ELSEWHERE}.")

    def foreign(self) -> str:
        return self.FOREIGN.format(path=self.path)

    def address(self) -> str:
        """What ``Store(…)`` was given: another process opens the same database with it."""
        return self.path

    def reachable_apart(self) -> bool:
        """Whether another process can open this same database (a migration's child: store/upgrade.py)."""
        return True


class SqliteSide(Side):
    """Two aiosqlite connections per store: the writer (BEGIN IMMEDIATE issued by Teahouse, one transaction at
    a time) and, once the file is in WAL mode, a reader for single reads and snapshots. WAL lets a reader
    see the last commit while a write is under way, so a read never waits behind another channel's move (the
    writer's commit and its fsync are most of a move's time), and never sees a write that has not
    committed. An in-memory database has one connection for both."""
    name = "sqlite"
    extra_errors: tuple = (sqlite3.Error,)

    def __init__(self, path: str):
        self.path = path
        self.uri = path.startswith("file:")     # a SQLite URI (file:teahouse.db?mode=ro) is taken as one

    def reachable_apart(self) -> bool:
        return self.path != ":memory:" and not (self.uri and "mode=memory" in self.path)

    def engine(self):
        import aiosqlite
        from sqlalchemy.ext.asyncio import create_async_engine
        from sqlalchemy.pool import StaticPool

        from store import sqlite_calls

        async def connect():
            # timeout=5: the busy timeout, set before any statement; isolation_level=None: we BEGIN ourselves;
            # each statement one call to the connection's thread (store/sqlite_calls.py)
            return sqlite_calls.Connection(
                await aiosqlite.connect(self.path, uri=self.uri, timeout=5, isolation_level=None))

        engine = create_async_engine("sqlite+aiosqlite://", async_creator=connect, poolclass=StaticPool)

        @event.listens_for(engine.sync_engine, "connect")
        def _autocommit(dbapi_connection, record):
            dbapi_connection.isolation_level = None      # the driver must not BEGIN or COMMIT on its own

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn):
            # the store says what this transaction is: a writer (IMMEDIATE: queue on the busy timeout rather
            # than fail at the first write), a snapshot (BEGIN), or single reads (no transaction at all)
            begin = conn.info.get("teahouse_begin")
            if begin:
                conn.exec_driver_sql(begin)
        return engine

    BEGIN = {"write": "BEGIN IMMEDIATE", "snapshot": "BEGIN", "read": None}

    async def open(self) -> None:
        from pathlib import Path

        if self.path != ":memory:" and not self.uri:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.lock = asyncio.Lock()          # one transaction at a time on the writer
        self.engine_ = self.engine()
        self.conn = await self.engine_.connect()
        self.reader = None                  # opened by prepare(), once the file is in WAL mode
        self.read_lock = asyncio.Lock()

    async def close(self) -> None:
        """The connections, then their engines; each at most once, whatever fails."""
        for name, ending in (("reader", "close"), ("conn", "close"), ("reader_engine", "dispose"),
                             ("engine_", "dispose")):
            held = getattr(self, name, None)
            setattr(self, name, None)
            if held is not None:
                with contextlib.suppress(Exception):
                    await getattr(held, ending)()

    @property
    def closed(self) -> bool:
        return getattr(self, "conn", None) is None

    async def _begin(self, conn) -> None:
        """Begin, trying once more if another process held the file past the busy timeout."""
        for attempt in (1, 2):
            try:
                await conn.begin()
                return
            except Exception as e:
                if attempt == 2 or not self.is_busy(driver_error(e)):
                    raise
                with contextlib.suppress(Exception):
                    await conn.rollback()
                log.warning("the database was busy for 5 s; trying once more")

    @contextlib.asynccontextmanager
    async def connection(self, mode: str):
        """The one connection, in a transaction of ``mode`` (write, snapshot) or none (read), for the task
        that holds the lock: a write commits at the end, anything else rolls back."""
        reading = mode != "write" and getattr(self, "reader", None) is not None
        async with self.read_lock if reading else self.lock:
            conn = self.reader if reading else self.conn
            if conn is None:
                raise StoreError(f"The database {self.path} is closed.")
            conn.info["teahouse_begin"] = self.BEGIN[mode]
            await self._begin(conn)
            try:
                yield conn
            except BaseException:
                with contextlib.suppress(Exception):
                    await conn.rollback()      # the driver's rollback does nothing if SQLite already ended it
                raise
            try:
                if mode == "write":
                    await conn.commit()      # a COMMIT can fail too (a full disk): roll back
                else:
                    await conn.rollback()
            except BaseException:
                with contextlib.suppress(Exception):
                    await conn.rollback()
                raise

    async def prepare(self, conn) -> None:
        """After the file check: WAL (readers do not block the writer), foreign keys on; then the reader."""
        wal = (await conn.exec_driver_sql("PRAGMA journal_mode=WAL")).scalar()
        await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        if wal == "wal" and getattr(self, "reader", None) is None:
            self.reader_engine = self.engine()
            self.reader = await self.reader_engine.connect()
            await self.reader.exec_driver_sql("PRAGMA query_only=ON")   # it reads; the writer writes
            await self.reader.rollback()      # ends SQLAlchemy's autobegun transaction (SQLite began none)

    async def legacy_version(self, conn) -> int:
        return (await conn.exec_driver_sql("PRAGMA user_version")).scalar()

    async def set_legacy_version(self, conn, version: int) -> None:
        await conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")

    async def lock_for_migration(self, conn) -> None:
        """Nothing: BEGIN IMMEDIATE already keeps every other writer out."""

    IGNORED = {"sqlite_sequence", "alembic_version"}
    ELSEWHERE = "point TEAHOUSE_DB at another file"
    FOREIGN = ("The file {path} holds a database that is not Teahouse's (tables without a Teahouse schema "
               "version). Point TEAHOUSE_DB at another file.")

    def explain(self, e: BaseException) -> str:
        text_ = str(e).lower()
        if "readonly" in text_ or "read-only" in text_ or "unable to open" in text_:
            return (f"The database {self.path} is read-only: Teahouse must write to the file and to its folder "
                    "(for the WAL journal). Fix the permissions, or point TEAHOUSE_DB at a writable file.")
        if "not a database" in text_ or "malformed" in text_ or "corrupt" in text_:
            return (f"The database {self.path} is damaged or not a SQLite file ({e}). Restore it from a backup, "
                    "or move it away to start with an empty one.")
        if "full" in text_:
            return f"The disk holding {self.path} is full. Free some space and start again."
        if "locked" in text_ or "busy" in text_:
            return (f"The database {self.path} is locked by another program that holds it too long. Stop that "
                    "program, or point TEAHOUSE_DB at another file.")
        if isinstance(e, OSError):
            return f"Cannot open the database {self.path}: {e}. Check the path and its folder's permissions."
        return f"The database {self.path} cannot be used: {e}."

    @staticmethod
    def is_busy(e: BaseException) -> bool:
        text_ = str(e).lower()
        return isinstance(e, sqlite3.OperationalError) and ("locked" in text_ or "busy" in text_)

    @staticmethod
    def retry_once(e: BaseException) -> bool:
        return False        # BEGIN IMMEDIATE already waited for the busy timeout

    def storage_error(self, e: BaseException) -> BaseException:
        if not isinstance(e, sqlite3.Error):
            return e
        text_ = str(e).lower()
        if "full" in text_:
            return StoreFull()
        if isinstance(e, sqlite3.IntegrityError):
            return e
        if self.is_busy(e) or "readonly" in text_ or "disk i/o" in text_ or "malformed" in text_:
            return StoreError(f"The database failed ({type(e).__name__}: {e}); nothing was changed.")
        return e


# ----- PostgreSQL -------------------------------------------------------------------------------------------
def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
        if parts.password:
            return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))
    except ValueError:
        pass
    return url


class PostgresSide(Side):
    """A pool of asyncpg connections: sized for a bot's concurrent channels plus the scheduler."""
    name = "postgresql"
    POOL_SIZE, MAX_OVERFLOW = 10, 10
    MOVE_IN_ONE = True

    def __init__(self, url: str):
        import asyncpg

        self.url = url
        self.path = redact(url)
        self.asyncpg = asyncpg
        # the server is gone, or the connection broke under a query (a killed backend can leave asyncpg's
        # protocol in a state it reports as an internal error)
        self.unreachable = (OSError, asyncio.TimeoutError, asyncpg.CannotConnectNowError,
                            asyncpg.ConnectionFailureError, asyncpg.InterfaceError, asyncpg.InternalClientError)
        self.extra_errors = (asyncpg.PostgresError, *self.unreachable)

    def address(self) -> str:
        return self.url

    def engine(self):
        url = "postgresql+asyncpg://" + self.url.split("://", 1)[1]
        from sqlalchemy.ext.asyncio import create_async_engine

        return create_async_engine(
            url, pool_size=self.POOL_SIZE, max_overflow=self.MAX_OVERFLOW, pool_timeout=30,
            connect_args={"timeout": 10, "command_timeout": 60})

    async def open(self) -> None:
        engine = self.engine()
        self.engines = {"write": engine,
                        "snapshot": engine.execution_options(isolation_level="REPEATABLE READ",
                                                             postgresql_readonly=True),
                        "read": engine.execution_options(isolation_level="AUTOCOMMIT")}   # one statement each
        async with engine.connect():       # an unreachable server, a refused login show here
            pass

    async def close(self) -> None:
        engines, self.engines = getattr(self, "engines", None), None
        if engines:
            try:
                await asyncio.wait_for(engines["write"].dispose(), 10)
            except Exception:   # noqa: BLE001 — a connection stuck in a query, or the server gone: drop them all
                await engines["write"].dispose(close=False)

    @property
    def closed(self) -> bool:
        return not getattr(self, "engines", None)

    @contextlib.asynccontextmanager
    async def connection(self, mode: str):
        """A pooled connection: in a transaction (write; snapshot: repeatable read, read only), or in
        autocommit for single reads (no BEGIN and ROLLBACK round trips)."""
        if not getattr(self, "engines", None):
            raise StoreError(f"The database {self.path} is closed.")
        async with self.engines[mode].connect() as conn:
            if mode == "read":
                yield conn
                return
            async with conn.begin():
                yield conn

    async def prepare(self, conn) -> None:
        """Nothing to set per connection."""

    async def legacy_version(self, conn) -> int:
        if not (await conn.exec_driver_sql("SELECT to_regclass('schema_version') IS NOT NULL")).scalar():
            return 0
        return (await conn.exec_driver_sql("SELECT COALESCE(MAX(version), 0) FROM schema_version")).scalar()

    async def set_legacy_version(self, conn, version: int) -> None:
        await conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        await conn.exec_driver_sql("DELETE FROM schema_version")
        await conn.execute(text("INSERT INTO schema_version (version) VALUES (:v)"), {"v": int(version)})

    async def lock_for_migration(self, conn) -> None:
        """Several processes starting at once migrate one at a time (the lock ends with the transaction)."""
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})

    IGNORED = {"schema_version", "alembic_version"}
    ELSEWHERE = "point DATABASE_URL at another database"
    FOREIGN = ("The database {path} holds tables that are not Teahouse's (no Teahouse schema version). Point "
               "DATABASE_URL at another database.")

    def explain(self, e: BaseException) -> str:
        pg, where = self.asyncpg, self.path
        if isinstance(e, (pg.InvalidPasswordError, pg.InvalidAuthorizationSpecificationError)):
            return (f"PostgreSQL refused the login to {where} ({e}). Check the user name and password in "
                    "DATABASE_URL.")
        if isinstance(e, pg.InvalidCatalogNameError):
            return (f"The database of {where} does not exist on the server. Create it (createdb, or CREATE "
                    "DATABASE) or fix DATABASE_URL.")
        if isinstance(e, pg.InsufficientPrivilegeError):
            return (f"The user of {where} may not create or change Teahouse's tables ({e}). Grant it the rights "
                    "on the database, or point DATABASE_URL at another one.")
        if isinstance(e, pg.DiskFullError):
            return f"The disk of the database server {where} is full. Free some space and start again."
        if isinstance(e, (*self.unreachable, pg.PostgresConnectionError)):
            return (f"Cannot reach the database server {where} ({type(e).__name__}: {e}). Check DATABASE_URL and "
                    "that PostgreSQL is running and accepts connections from here.")
        if isinstance(e, ValueError):
            return f"DATABASE_URL {where} is not a PostgreSQL URL ({e}): postgresql://user:password@host/database."
        return f"The database {where} cannot be used: {e}."

    def is_busy(self, e: BaseException) -> bool:
        return False

    def retry_once(self, e: BaseException) -> bool:
        """A deadlock or a failed serialization: another process got there first; worth one more try."""
        return isinstance(e, (self.asyncpg.DeadlockDetectedError, self.asyncpg.SerializationError))

    def storage_error(self, e: BaseException) -> BaseException:
        pg = self.asyncpg
        if isinstance(e, (pg.DiskFullError, pg.OutOfMemoryError)):
            return StoreFull()
        if isinstance(e, pg.IntegrityConstraintViolationError):
            return e
        if isinstance(e, (*self.unreachable, pg.PostgresConnectionError, pg.DeadlockDetectedError,
                          pg.SerializationError, pg.ReadOnlySQLTransactionError, pg.InsufficientResourcesError,
                          pg.OperatorInterventionError)):
            return not_saved(e)
        return e


def side_for(target: str):
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresSide(target)
    return SqliteSide(target)


def driver_error(e: BaseException) -> BaseException:
    """The driver's own exception under SQLAlchemy's wrapping (and asyncpg's adapter), or ``e``."""
    from sqlalchemy import exc

    if isinstance(e, exc.DBAPIError) and e.orig is not None:
        e = e.orig
    with contextlib.suppress(AttributeError):
        if type(e).__module__.startswith("sqlalchemy") and e.__cause__ is not None:
            return e.__cause__
    return e
