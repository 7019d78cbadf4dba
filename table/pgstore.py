"""PostgreSQL storage (asyncpg), for several bot processes on several machines sharing one database.

The same interface, rules and schema versions as the SQLite ``Store`` (table/store.py):

- The schema is versioned by a ``schema_version`` table (SQLite: ``PRAGMA user_version``) and upgraded by the
  ordered ``PG_MIGRATIONS``, one per SQLite migration, on open; an advisory lock keeps two processes from
  migrating at once.
- At most one unfinished game per channel (a partial unique index); every change of a game is one transaction
  guarded by an optimistic version check (``VersionConflict``); the action log is append-only (PL/pgSQL
  triggers).
- A timer is claimed with ``SELECT … FOR UPDATE SKIP LOCKED``: of several processes, exactly one fires it.
- ``batch()`` and ``snapshot()`` hold one pooled connection for the task that opened them; every other read or
  write takes its own connection from the pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import json
import logging
from dataclasses import replace
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .shards import Shards
from .store import (
    OPEN_STATUSES,
    SCHEMA_VERSION,
    ChannelBusy,
    GameRow,
    LogEntry,
    Outgoing,
    Seat,
    Settings,
    StoreError,
    StoreFull,
    Timer,
    VersionConflict,
)

log = logging.getLogger("teahouse.store")

# The rows of ``results`` for ended games (see table/store.py): jsonb's ``?`` in place of json_each.
PG_RESULTS_OF = """
    INSERT INTO results (game_id, guild, game, user_id, name, outcome, ended_at)
    SELECT g.id, g.guild, g.game, s.user_id, s.name,
           CASE WHEN g.status = 'abandoned' THEN 'abandoned'
                WHEN s.is_bot = 0 AND COALESCE(g.result::jsonb -> 'winners' ? s.user_id, FALSE) THEN 'win'
                ELSE 'loss' END,
           g.updated_at
    FROM games g JOIN seats s ON s.game_id = g.id
    WHERE g.status IN ('finished', 'abandoned') AND g.state IS NOT NULL
          AND (s.is_bot = 0 OR s.user_id NOT LIKE 'cpu-%') AND {where}
    ON CONFLICT (game_id, user_id) DO UPDATE SET guild = excluded.guild, game = excluded.game,
        name = excluded.name, outcome = excluded.outcome, ended_at = excluded.ended_at"""

# One per SQLite migration, in the same order, so a schema version means the same tables in both.
PG_MIGRATIONS: list[str] = [
    # 1: games, seats, the action log
    """
    CREATE TABLE games (
        id          BIGSERIAL PRIMARY KEY,
        guild       TEXT,
        channel     TEXT NOT NULL,
        game        TEXT NOT NULL,
        options     TEXT NOT NULL DEFAULT '{}',
        status      TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        host        TEXT NOT NULL,
        seed        BIGINT,
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        created_at  DOUBLE PRECISION NOT NULL,
        updated_at  DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel) WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_guild ON games (guild, status);
    CREATE TABLE seats (
        game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        position  INTEGER NOT NULL,
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        is_bot    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE actions (
        id       BIGSERIAL PRIMARY KEY,
        game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        seat     TEXT NOT NULL,
        action   TEXT NOT NULL,
        line     TEXT NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        UNIQUE (game_id, seq)
    );
    CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- a deleted game takes its log with it; nothing else may change or remove a logged action
        IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'the action log is append-only';
    END $$;
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only();
    CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only();
    """,
    # 2: play across a day — server settings, notification preferences, timers, results, game threads
    """
    CREATE TABLE settings (
        guild            TEXT PRIMARY KEY,
        reminder_hours   DOUBLE PRECISION NOT NULL DEFAULT 4,
        deadline_hours   DOUBLE PRECISION NOT NULL DEFAULT 24,
        deadline_action  TEXT NOT NULL DEFAULT 'vote' CHECK (deadline_action IN ('vote', 'skip', 'remove')),
        threads          INTEGER NOT NULL DEFAULT 0,
        mention          INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE notify (
        user_id  TEXT PRIMARY KEY,
        dm       INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE timers (
        id       BIGSERIAL PRIMARY KEY,
        game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind     TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline', 'limit')),
        version  INTEGER NOT NULL,
        due      DOUBLE PRECISION NOT NULL,
        fired    DOUBLE PRECISION
    );
    CREATE INDEX timers_pending ON timers (due) WHERE fired IS NULL;
    CREATE INDEX timers_by_game ON timers (game_id);
    ALTER TABLE games ADD COLUMN parent_channel TEXT;
    ALTER TABLE games ADD COLUMN result TEXT;
    CREATE INDEX seats_by_user ON seats (user_id);
    """,
    # 3: the outbox — what the scheduler must still send; a row goes only once Discord has taken every part
    """
    CREATE TABLE outbox (
        id          BIGSERIAL PRIMARY KEY,
        game_id     BIGINT REFERENCES games (id) ON DELETE CASCADE,
        channel     TEXT NOT NULL,
        payload     TEXT NOT NULL,
        parts_done  INTEGER NOT NULL DEFAULT 0,
        attempts    INTEGER NOT NULL DEFAULT 0,
        created_at  DOUBLE PRECISION NOT NULL
    );
    """,
    # 4: listings that scale — who a running game waits for, one row per person per ended game, and the
    #    indexes /games, /mygames, /stats and /leaderboard read (issue 13)
    """
    ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX games_by_channel ON games (channel, id);
    CREATE TABLE results (
        game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild     TEXT,
        game      TEXT NOT NULL,
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        outcome   TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'abandoned')),
        ended_at  DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_by_user ON results (user_id, guild, game);
    CREATE INDEX results_by_board ON results (guild, game, user_id);
    """ + PG_RESULTS_OF.format(where="TRUE") + ";",
    # 5: the language of each server (its preferred locale) and user, for what the bot says unprompted:
    #    reminders and deadlines in the channel, direct messages (issue 17)
    """
    CREATE TABLE locales (
        who     TEXT PRIMARY KEY,
        locale  TEXT NOT NULL
    );
    """,
]
assert len(PG_MIGRATIONS) == SCHEMA_VERSION, "every SQLite migration has its PostgreSQL twin"

MIGRATION_LOCK = 0x7EA40E5E        # pg_advisory_xact_lock key: one process migrates at a time
TABLES = ("games", "seats", "actions", "settings", "notify", "timers", "outbox", "results", "locales")

# the transaction (store, task, connection) the current task owns, if any
_CONN: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("teahouse_pg_batch", default=None)

# the server is gone, or the connection broke under a query (a killed backend can leave asyncpg's protocol in a
# state it reports as an internal error)
UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.CannotConnectNowError, asyncpg.ConnectionFailureError,
               asyncpg.InterfaceError, asyncpg.InternalClientError)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
        if parts.password:
            netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
            return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        pass
    return url


def _plain_errors(cls):
    """Every public coroutine of the store raises StoreError (not asyncpg's own) when the server is gone or
    refuses, as SQLite's store does for a busy or full file; other errors pass unchanged."""
    def wrap(fn):
        @functools.wraps(fn)
        async def method(self, *args, **kwargs):
            try:
                return await fn(self, *args, **kwargs)
            except (asyncpg.PostgresError, *UNREACHABLE) as e:
                err = self._storage_error(e)
                if err is e:
                    raise
                raise err from e
        return method

    for name, fn in list(vars(cls).items()):
        if not name.startswith("_") and name not in ("open", "close") and inspect.iscoroutinefunction(fn):
            setattr(cls, name, wrap(fn))
    return cls


@_plain_errors
class PgStore:
    """A pool of asyncpg connections to one PostgreSQL database."""

    def __init__(self, url: str, shards: Shards | None = None, *, pool_size: int = 10):
        self.url = url
        self.path = redact(url)          # what messages name (no password)
        self.db: asyncpg.Pool | None = None
        self.shards = shards
        self.pool_size = pool_size

    # ----- opening ---------------------------------------------------------------------------------------
    async def open(self) -> PgStore:
        """Connect and migrate. A server that cannot be reached, a refused login, a missing database, a newer
        schema or a database that is not Teahouse's raise StoreError with one clear line."""
        try:
            self.db = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size, timeout=10,
                                                command_timeout=60)
        except Exception as e:   # noqa: BLE001 — every way a connection fails gets its own message
            raise StoreError(self._explain(e)) from e
        try:
            await self._check_database()
            await self.migrate()
        except StoreError:
            await self.close()
            raise
        except (asyncpg.PostgresError, *UNREACHABLE) as e:
            await self.close()
            raise StoreError(self._explain(e)) from e
        return self

    def _explain(self, e: BaseException) -> str:
        where = self.path
        if isinstance(e, (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError)):
            return (f"PostgreSQL refused the login to {where} ({e}). Check the user name and password in "
                    "DATABASE_URL.")
        if isinstance(e, asyncpg.InvalidCatalogNameError):
            return (f"The database of {where} does not exist on the server. Create it (createdb, or CREATE "
                    "DATABASE) or fix DATABASE_URL.")
        if isinstance(e, asyncpg.InsufficientPrivilegeError):
            return (f"The user of {where} may not create or change Teahouse's tables ({e}). Grant it the rights "
                    "on the database, or point DATABASE_URL at another one.")
        if isinstance(e, asyncpg.DiskFullError):
            return f"The disk of the database server {where} is full. Free some space and start again."
        if isinstance(e, UNREACHABLE) or isinstance(e, asyncpg.PostgresConnectionError):
            return (f"Cannot reach the database server {where} ({type(e).__name__}: {e}). Check DATABASE_URL and "
                    "that PostgreSQL is running and accepts connections from here.")
        if isinstance(e, ValueError):
            return f"DATABASE_URL {where} is not a PostgreSQL URL ({e}): postgresql://user:password@host/database."
        return f"The database {where} cannot be used: {e}."

    async def _check_database(self) -> None:
        """Refuse a database that is not Teahouse's, or one a newer Teahouse wrote, before writing to it."""
        tables = {r[0] for r in await self.db.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(self._newer(version))
        if version == 0 and tables - {"schema_version"}:
            raise StoreError(f"The database {self.path} holds tables that are not Teahouse's (no Teahouse schema "
                             "version). Point DATABASE_URL at another database.")

    def _newer(self, version: int) -> str:
        return (f"The database {self.path} was written by a newer Teahouse (schema {version}; this one knows "
                f"{SCHEMA_VERSION}). Update Teahouse, or point DATABASE_URL at another database.")

    async def close(self) -> None:
        if self.db is not None:
            pool, self.db = self.db, None
            try:
                await asyncio.wait_for(pool.close(), 10)
            except Exception:       # noqa: BLE001 — a connection stuck in a query, or the server gone: drop them all
                pool.terminate()

    async def __aenter__(self) -> PgStore:
        return await self.open()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # ----- schema ----------------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        exists = await self._q().fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            return 0
        return await self._q().fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Bring the schema up to ``target``; each step commits with its new version number."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StoreError(self._newer(current))
        for version in range(current + 1, target + 1):
            async def step(version=version):
                conn = self._q()
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                if await self.schema_version() >= version:    # another process migrated meanwhile
                    return
                await conn.execute(PG_MIGRATIONS[version - 1])
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
            await self._transaction(step)
        return await self.schema_version()

    # ----- connections and transactions ------------------------------------------------------------------
    def _q(self):
        """The connection of the task's transaction, or the pool (each query then takes a connection)."""
        owner = _CONN.get()
        if owner is not None and owner[0] is self and owner[1] is asyncio.current_task():
            return owner[2]
        if self.db is None:
            raise StoreError(f"The database {self.path} is closed.")
        return self.db

    def _in_batch(self) -> bool:
        owner = _CONN.get()
        return owner is not None and owner[0] is self and owner[1] is asyncio.current_task()

    @contextlib.asynccontextmanager
    async def _owned(self, **options):
        """A connection and a transaction on it, owned by this task until the block ends."""
        if self.db is None:
            raise StoreError(f"The database {self.path} is closed.")
        try:
            conn = await self.db.acquire(timeout=30)
        except (asyncpg.PostgresError, *UNREACHABLE) as e:
            raise self._storage_error(e) from e
        try:
            tx = conn.transaction(**options)
            await tx.start()
            token = _CONN.set((self, asyncio.current_task(), conn))
            try:
                yield conn
            except BaseException:
                with contextlib.suppress(Exception):
                    await tx.rollback()
                raise
            else:
                await tx.commit()
            finally:
                _CONN.reset(token)
        finally:
            with contextlib.suppress(Exception):
                await self.db.release(conn)

    async def _transaction(self, work):
        """Run ``work`` in one transaction; inside ``batch()`` it joins the batch's. A deadlock or a failed
        serialization (another process got there first) is retried once."""
        if self._in_batch():
            return await work()
        for attempt in (1, 2):
            try:
                async with self._owned():
                    return await work()
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as e:
                if attempt == 2:
                    raise self._storage_error(e) from e
                log.warning("a transaction met another process's (%s); trying once more", type(e).__name__)
            except (asyncpg.PostgresError, *UNREACHABLE) as e:
                err = self._storage_error(e)
                if err is e:
                    raise
                raise err from e

    def _storage_error(self, e: BaseException) -> BaseException:
        if isinstance(e, (asyncpg.DiskFullError, asyncpg.OutOfMemoryError)):
            return StoreFull()
        if isinstance(e, asyncpg.IntegrityConstraintViolationError):
            return e
        if isinstance(e, (*UNREACHABLE, asyncpg.PostgresConnectionError, asyncpg.DeadlockDetectedError,
                          asyncpg.SerializationError, asyncpg.ReadOnlySQLTransactionError,
                          asyncpg.InsufficientResourcesError, asyncpg.OperatorInterventionError)):
            return StoreError(f"The game could not be saved ({type(e).__name__}: {e}); nothing was changed. Try "
                              "again in a moment.")
        return e

    @contextlib.asynccontextmanager
    async def batch(self):
        """One transaction around several store writes (the task that opened it joins it on every write):
        all of them commit, or none."""
        if self._in_batch():
            yield self
            return
        try:
            async with self._owned():
                yield self
        except (asyncpg.PostgresError, *UNREACHABLE) as e:
            err = self._storage_error(e)
            if err is e:
                raise
            raise err from e

    @contextlib.asynccontextmanager
    async def snapshot(self):
        """Consistent reads: every read inside sees the database at one moment (repeatable read)."""
        if self._in_batch():
            yield self
            return
        try:
            async with self._owned(isolation="repeatable_read", readonly=True):
                yield self
        except (asyncpg.PostgresError, *UNREACHABLE) as e:
            err = self._storage_error(e)
            if err is e:
                raise
            raise err from e

    # ----- reading ---------------------------------------------------------------------------------------
    async def _row(self, sql: str, *args) -> GameRow | None:
        q = self._q()
        row = await q.fetchrow(sql, *args)
        if row is None:
            return None
        game = GameRow(
            id=row["id"], guild=row["guild"], channel=row["channel"], game=row["game"],
            options=json.loads(row["options"]), status=row["status"], host=row["host"], seed=row["seed"],
            state=row["state"], version=row["version"], created_at=row["created_at"],
            updated_at=row["updated_at"], parent_channel=row["parent_channel"], waiting=json.loads(row["waiting"]),
            result=json.loads(row["result"]) if row["result"] else None,
        )
        game.seats = [Seat(r["user_id"], r["name"], bool(r["is_bot"])) for r in await q.fetch(
            "SELECT user_id, name, is_bot FROM seats WHERE game_id = $1 ORDER BY position", game.id)]
        return game

    async def game(self, game_id: int) -> GameRow | None:
        return await self._row("SELECT * FROM games WHERE id = $1", game_id)

    async def open_game(self, channel: str) -> GameRow | None:
        return await self._row("SELECT * FROM games WHERE channel = $1 AND status IN ('lobby', 'running')", channel)

    async def latest_game(self, channel: str) -> GameRow | None:
        return await self._row(
            "SELECT * FROM games WHERE channel = $1 ORDER BY (status IN ('lobby', 'running')) DESC, id DESC "
            "LIMIT 1", channel)

    async def games(self, status: tuple[str, ...] = OPEN_STATUSES, guild: str | None = None) -> list[GameRow]:
        sql, args = "SELECT id FROM games WHERE status = ANY($1::text[])", [list(status)]
        if guild is not None:
            sql, args = sql + " AND guild = $2", args + [guild]
        ids = [r[0] for r in await self._q().fetch(sql + " ORDER BY id", *args)]
        return [await self.game(i) for i in ids]

    async def log(self, game_id: int, offset: int = 0, limit: int = 1_000_000) -> list[LogEntry]:
        rows = await self._q().fetch(
            "SELECT seq, seat, action, line, at FROM actions WHERE game_id = $1 ORDER BY seq LIMIT $2 OFFSET $3",
            game_id, limit, offset)
        return [LogEntry(r["seq"], r["seat"], r["action"], r["line"], r["at"]) for r in rows]

    async def log_length(self, game_id: int) -> int:
        return await self._q().fetchval("SELECT COUNT(*) FROM actions WHERE game_id = $1", game_id)

    # ----- writing ---------------------------------------------------------------------------------------
    async def create_game(self, *, guild: str | None, channel: str, game: str, options: dict, host: Seat,
                          now: float, parent_channel: str | None = None) -> GameRow:
        async def work():
            q = self._q()
            # a savepoint, so that a busy channel inside a batch leaves the batch usable
            try:
                async with q.transaction():
                    gid = await q.fetchval(
                        "INSERT INTO games (guild, channel, game, options, status, host, created_at, updated_at, "
                        "parent_channel) VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $7, $8) RETURNING id",
                        guild, channel, game, json.dumps(options), host.user_id, now, now, parent_channel)
            except asyncpg.UniqueViolationError as e:
                raise ChannelBusy(channel) from e
            await q.execute("INSERT INTO seats (game_id, position, user_id, name, is_bot) VALUES ($1, 0, $2, $3, $4)",
                            gid, host.user_id, host.name, int(host.is_bot))
            return gid

        return await self.game(await self._transaction(work))

    async def import_game(self, *, guild: str | None, channel: str, game: str, status: str, host: str,
                          seed: int | None, state: str | None, now: float, seats: list[tuple[str, str, bool]],
                          result: dict | None = None, options: dict | None = None) -> int:
        """Store a whole game at once (benchmarks, and moving games between databases). Returns its id."""
        async def work():
            q = self._q()
            gid = await q.fetchval(
                "INSERT INTO games (guild, channel, game, options, status, host, seed, state, version, created_at, "
                "updated_at, result) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $11) RETURNING id",
                guild, channel, game, json.dumps(options or {}), status, host, seed, state, now, now,
                json.dumps(result, sort_keys=True) if result is not None else None)
            await q.executemany(
                "INSERT INTO seats (game_id, position, user_id, name, is_bot) VALUES ($1, $2, $3, $4, $5)",
                [(gid, i, u, n, int(b)) for i, (u, n, b) in enumerate(seats)])
            if status not in OPEN_STATUSES:
                await self._write_results(gid)
            return gid
        return await self._transaction(work)

    async def update_lobby(self, game: GameRow, *, seats: list[Seat], options: dict, host: str, now: float,
                           status: str = "lobby") -> GameRow:
        async def work():
            await self._bump(game, now, status=status, options=json.dumps(options), host=host)
            await self._replace_seats(game.id, seats)

        await self._transaction(work)
        return await self.game(game.id)

    async def start_game(self, game: GameRow, *, seats: list[Seat], seed: int, state: str, now: float,
                         timers: list[tuple[str, float]] = (), waiting: list[str] = ()) -> GameRow:
        async def work():
            await self._bump(game, now, status="running", seed=seed, state=state, waiting=json.dumps(list(waiting)))
            await self._set_timers(game.id, game.version + 1, timers)
            await self._replace_seats(game.id, seats)

        await self._transaction(work)
        return replace(game, status="running", seed=seed, state=state, version=game.version + 1, updated_at=now,
                       seats=list(seats), waiting=list(waiting))

    async def record_moves(self, game: GameRow, moves: list[tuple[str, str, str]], state: str, *, now: float,
                           status: str = "running", timers: list[tuple[str, float]] = (),
                           keep: tuple[str, ...] = (), result: dict | None = None,
                           seats: list[Seat] | None = None, waiting: list[str] = ()) -> GameRow:
        """Append ``moves`` and store the state they lead to, all or nothing (see ``Store.record_moves``)."""
        async def work():
            q = self._q()
            columns = {"status": status, "state": state, "waiting": json.dumps(list(waiting))}
            if result is not None:
                columns["result"] = json.dumps(result, sort_keys=True)
            await self._bump(game, now, **columns)
            seq = await q.fetchval("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1", game.id)
            await q.executemany(
                "INSERT INTO actions (game_id, seq, seat, action, line, at) VALUES ($1, $2, $3, $4, $5, $6)",
                [(game.id, seq + i, seat, action, line, now) for i, (seat, action, line) in enumerate(moves, 1)])
            if seats is not None:
                await self._replace_seats(game.id, seats)
            await self._set_timers(game.id, game.version + 1, timers, keep)
            if status not in OPEN_STATUSES:
                await self._write_results(game.id)

        await self._transaction(work)
        return replace(game, status=status, state=state, version=game.version + 1, updated_at=now,
                       result=result if result is not None else game.result,
                       seats=list(seats) if seats is not None else game.seats, waiting=list(waiting))

    async def _write_results(self, game_id: int) -> None:
        await self._q().execute(PG_RESULTS_OF.format(where="g.id = $1"), game_id)

    async def _replace_seats(self, game_id: int, seats: list[Seat]) -> None:
        q = self._q()
        await q.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await q.executemany("INSERT INTO seats (game_id, position, user_id, name, is_bot) VALUES ($1, $2, $3, $4, $5)",
                            [(game_id, i, s.user_id, s.name, int(s.is_bot)) for i, s in enumerate(seats)])

    async def _set_timers(self, game_id: int, version: int, timers, keep: tuple[str, ...] = ()) -> None:
        q = self._q()
        await q.execute("DELETE FROM timers WHERE game_id = $1 AND fired IS NULL AND NOT (kind = ANY($2::text[]))",
                        game_id, list(keep))
        if timers:
            await q.executemany("INSERT INTO timers (game_id, kind, version, due) VALUES ($1, $2, $3, $4)",
                                [(game_id, kind, version, due) for kind, due in timers])

    async def set_status(self, game: GameRow, status: str, *, now: float) -> GameRow:
        async def work():
            await self._bump(game, now, status=status, waiting="[]")
            if status not in OPEN_STATUSES:
                await self._set_timers(game.id, game.version + 1, ())
                await self._write_results(game.id)
        await self._transaction(work)
        return replace(game, status=status, version=game.version + 1, updated_at=now, waiting=[])

    async def _bump(self, game: GameRow, now: float, **columns) -> None:
        sets = ", ".join(f"{k} = ${i}" for i, k in enumerate(columns, 1))
        n = len(columns)
        status = await self._q().execute(
            f"UPDATE games SET {sets}, version = version + 1, updated_at = ${n + 1} WHERE id = ${n + 2} "
            f"AND version = ${n + 3}", *columns.values(), now, game.id, game.version)
        if status != "UPDATE 1":
            raise VersionConflict(game.id)

    # ----- timers ----------------------------------------------------------------------------------------
    def _shard_filter(self, guild: str = "g.guild") -> str:
        """SQL that holds for the games of this process's shards (see ``Store._shard_filter``)."""
        if self.shards is None:
            return "TRUE"
        ids = ",".join(str(int(i)) for i in self.shards.ids)
        return (f"(CASE WHEN {guild} ~ '^[0-9]{{1,30}}$' THEN mod(div({guild}::numeric, 4194304), "
                f"{int(self.shards.count)}) ELSE 0 END) IN ({ids})")

    @staticmethod
    def _timer(r) -> Timer:
        return Timer(r["id"], r["game_id"], r["kind"], r["version"], r["due"])

    async def pending_timers(self, game_id: int | None = None) -> list[Timer]:
        sql, args = "SELECT * FROM timers WHERE fired IS NULL", []
        if game_id is not None:
            sql, args = sql + " AND game_id = $1", [game_id]
        return [self._timer(r) for r in await self._q().fetch(sql + " ORDER BY due, id", *args)]

    async def due_timers(self, now: float) -> list[Timer]:
        """The timers due by ``now`` of this process's shards' games (each still to be claimed: ``claim_timer``)."""
        sql = "SELECT t.* FROM timers t WHERE t.fired IS NULL AND t.due <= $1"
        if self.shards is not None:
            sql += f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = t.game_id AND {self._shard_filter()})"
        return [self._timer(r) for r in await self._q().fetch(sql + " ORDER BY t.due, t.id", now)]

    async def next_due(self) -> float | None:
        sql = "SELECT MIN(t.due) FROM timers t WHERE t.fired IS NULL"
        if self.shards is not None:
            sql += f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = t.game_id AND {self._shard_filter()})"
        return await self._q().fetchval(sql)

    async def claim_timer(self, timer: Timer, now: float) -> bool:
        """Mark a timer fired; False if it was already fired or replaced, or another process is claiming it
        this moment (its row is locked: SKIP LOCKED passes it by). Of several processes exactly one wins."""
        async def work():
            got = await self._q().fetchval(
                "UPDATE timers SET fired = $1 WHERE id = (SELECT id FROM timers WHERE id = $2 AND fired IS NULL "
                "FOR UPDATE SKIP LOCKED) RETURNING id", now, timer.id)
            return got is not None
        return await self._transaction(work)

    async def add_timer(self, game_id: int, kind: str, version: int, due: float) -> None:
        async def work():
            await self._q().execute("INSERT INTO timers (game_id, kind, version, due) VALUES ($1, $2, $3, $4)",
                                    game_id, kind, version, due)
        await self._transaction(work)

    # ----- the outbox -------------------------------------------------------------------------------------
    async def add_outgoing(self, game_id: int | None, channel: str, payload: dict, now: float) -> None:
        async def work():
            await self._q().execute(
                "INSERT INTO outbox (game_id, channel, payload, created_at) VALUES ($1, $2, $3, $4)",
                game_id, channel, json.dumps(payload, sort_keys=True), now)
        await self._transaction(work)

    async def outgoing(self, limit: int = 100) -> list[Outgoing]:
        sql = "SELECT o.* FROM outbox o"
        if self.shards is not None:
            sql += f" LEFT JOIN games g ON g.id = o.game_id WHERE {self._shard_filter()}"
        rows = await self._q().fetch(sql + " ORDER BY o.id LIMIT $1", limit)
        return [Outgoing(r["id"], r["game_id"], r["channel"], json.loads(r["payload"]), r["parts_done"],
                         r["attempts"]) for r in rows]

    async def outgoing_progress(self, outgoing_id: int, parts_done: int) -> None:
        async def work():
            await self._q().execute("UPDATE outbox SET parts_done = $1 WHERE id = $2", parts_done, outgoing_id)
        await self._transaction(work)

    async def outgoing_failed(self, outgoing_id: int) -> int:
        async def work():
            r = await self._q().fetchval("UPDATE outbox SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts",
                                         outgoing_id)
            return r or 0
        return await self._transaction(work)

    async def outgoing_done(self, outgoing_id: int) -> None:
        async def work():
            await self._q().execute("DELETE FROM outbox WHERE id = $1", outgoing_id)
        await self._transaction(work)

    # ----- server settings and notification preferences ---------------------------------------------------
    async def settings(self, guild: str | None) -> Settings:
        r = await self._q().fetchrow("SELECT * FROM settings WHERE guild = $1", guild or "")
        if r is None:
            return Settings()
        return Settings(r["reminder_hours"], r["deadline_hours"], r["deadline_action"], bool(r["threads"]),
                        bool(r["mention"]))

    async def save_settings(self, guild: str | None, settings: Settings) -> None:
        async def work():
            await self._q().execute(
                "INSERT INTO settings (guild, reminder_hours, deadline_hours, deadline_action, threads, mention) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild) DO UPDATE SET "
                "reminder_hours = excluded.reminder_hours, deadline_hours = excluded.deadline_hours, "
                "deadline_action = excluded.deadline_action, threads = excluded.threads, mention = excluded.mention",
                guild or "", float(settings.reminder_hours), float(settings.deadline_hours), settings.deadline_action,
                int(settings.threads), int(settings.mention))
        await self._transaction(work)

    async def locale_of(self, who: str) -> str | None:
        """The remembered language of ``who``: ``guild:<id>`` or ``user:<id>``."""
        return await self._q().fetchval("SELECT locale FROM locales WHERE who = $1", who)

    async def remember_locale(self, who: str, locale: str) -> None:
        async def work():
            await self._q().execute("INSERT INTO locales (who, locale) VALUES ($1, $2) "
                                    "ON CONFLICT (who) DO UPDATE SET locale = excluded.locale", who, locale)
        await self._transaction(work)

    async def wants_dm(self, user_id: str) -> bool:
        r = await self._q().fetchval("SELECT dm FROM notify WHERE user_id = $1", user_id)
        return bool(r)

    async def set_dm(self, user_id: str, on: bool) -> None:
        async def work():
            await self._q().execute("INSERT INTO notify (user_id, dm) VALUES ($1, $2) "
                                    "ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm", user_id, int(on))
        await self._transaction(work)

    async def games_of_user(self, user_id: str, status: tuple[str, ...] = OPEN_STATUSES) -> list[GameRow]:
        rows = await self._q().fetch(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = $1 "
            "AND g.status = ANY($2::text[]) ORDER BY g.updated_at", user_id, list(status))
        return [await self.game(r[0]) for r in rows]

    # ----- listings: one indexed query each ---------------------------------------------------------------
    _SUMMARY = ("SELECT g.id, g.game, g.guild, g.channel, g.status, g.waiting, g.updated_at, "
                "COALESCE((json_object_agg(s.user_id, s.name ORDER BY s.position) "
                "FILTER (WHERE s.user_id IS NOT NULL))::text, '{}') AS names "
                "FROM games g LEFT JOIN seats s ON s.game_id = g.id ")

    @staticmethod
    def _summaries(rows) -> list[dict]:
        return [{"id": r["id"], "game": r["game"], "guild": r["guild"], "channel": r["channel"],
                 "status": r["status"], "waiting": json.loads(r["waiting"]), "names": json.loads(r["names"]),
                 "updated_at": r["updated_at"]} for r in rows]

    async def open_games_of(self, guild: str | None) -> list[dict]:
        return self._summaries(await self._q().fetch(
            self._SUMMARY + "WHERE g.guild IS NOT DISTINCT FROM $1 AND g.status IN ('lobby', 'running') "
            "GROUP BY g.id ORDER BY g.id", guild))

    async def turns_of(self, user_id: str) -> list[dict]:
        return self._summaries(await self._q().fetch(
            self._SUMMARY + "WHERE g.status = 'running' AND g.id IN (SELECT game_id FROM seats WHERE user_id = $1) "
            "AND g.waiting::jsonb ? $1 GROUP BY g.id ORDER BY g.updated_at", user_id))

    async def record_of(self, user_id: str, guild: str | None = None) -> list[tuple[str, str, int]]:
        sql, args = "SELECT game, outcome, COUNT(*) FROM results WHERE user_id = $1", [user_id]
        if guild is not None:
            sql, args = sql + " AND guild = $2", args + [guild]
        return [(r[0], r[1], r[2]) for r in await self._q().fetch(sql + " GROUP BY game, outcome", *args)]

    async def board(self, game: str, guild: str | None = None, limit: int = 10) -> list[tuple[str, str, int, int, int]]:
        """The best players of a game (see ``Store.board``): the name is the one of their latest game."""
        where, args = "game = $1", [game]
        if guild is not None:
            where, args = where + " AND guild = $2", args + [guild]
        rows = await self._q().fetch(
            "SELECT user_id, name, wins, played, abandoned FROM ("
            "  SELECT user_id, (array_agg(name ORDER BY ended_at DESC))[1] AS name,"
            "         SUM((outcome = 'win')::int) AS wins, SUM((outcome != 'abandoned')::int) AS played,"
            "         SUM((outcome = 'abandoned')::int) AS abandoned"
            f"  FROM results WHERE {where} GROUP BY user_id) b WHERE played > 0 "
            f"ORDER BY wins DESC, wins::float8 / played DESC, played DESC, LOWER(name) COLLATE \"C\" "
            f"LIMIT ${len(args) + 1}", *args, limit)
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]
