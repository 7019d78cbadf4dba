"""SQLite storage for tables (aiosqlite): games, their seats and an append-only action log.

- The schema is versioned by ``PRAGMA user_version`` and upgraded by the ordered MIGRATIONS on open.
- WAL mode (readers do not block the writer) and foreign keys on.
- At most one unfinished game (lobby or running) per channel: a partial unique index says so, so even two
  bot processes cannot open two.
- Every change of a game is one transaction guarded by an optimistic version check: the write names the
  version it read, and if another writer got there first nothing is written and ``VersionConflict`` is
  raised. A crash mid-move leaves the previous state, because the state and its log row commit together.
- The action log cannot be changed or deleted (triggers), only appended to.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path

import aiosqlite

from .shards import Shards

log = logging.getLogger("teahouse.store")

OPEN_STATUSES = ("lobby", "running")
BOT_PREFIX = "cpu-"   # computer seats' ids; a person handed to a computer keeps their own id

# The rows of ``results`` for ended games: every person seated (computers left out; a person handed to a
# computer lost), a shared victory a win, an abandoned started game 'abandoned'.
RESULTS_OF = """
    INSERT OR REPLACE INTO results (game_id, guild, game, user_id, name, outcome, ended_at)
    SELECT g.id, g.guild, g.game, s.user_id, s.name,
           CASE WHEN g.status = 'abandoned' THEN 'abandoned'
                WHEN s.is_bot = 0 AND EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w
                                              WHERE w.value = s.user_id) THEN 'win'
                ELSE 'loss' END,
           g.updated_at
    FROM games g JOIN seats s ON s.game_id = g.id
    WHERE g.status IN ('finished', 'abandoned') AND g.state IS NOT NULL
          AND (s.is_bot = 0 OR s.user_id NOT LIKE 'cpu-%') AND {where}"""

MIGRATIONS: list[str] = [
    # 1: games, seats, the action log
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild       TEXT,
        channel     TEXT NOT NULL,
        game        TEXT NOT NULL,
        options     TEXT NOT NULL DEFAULT '{}',
        status      TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        host        TEXT NOT NULL,
        seed        INTEGER,
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel) WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_guild ON games (guild, status);
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        position  INTEGER NOT NULL,
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        is_bot    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE actions (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        seat     TEXT NOT NULL,
        action   TEXT NOT NULL,
        line     TEXT NOT NULL,
        at       REAL NOT NULL,
        UNIQUE (game_id, seq)
    );
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        WHEN (SELECT status FROM games WHERE id = OLD.game_id) IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    """,
    # 2: play across a day — server settings, notification preferences, timers, results, game threads
    """
    CREATE TABLE settings (
        guild            TEXT PRIMARY KEY,
        reminder_hours   REAL NOT NULL DEFAULT 4,
        deadline_hours   REAL NOT NULL DEFAULT 24,
        deadline_action  TEXT NOT NULL DEFAULT 'vote' CHECK (deadline_action IN ('vote', 'skip', 'remove')),
        threads          INTEGER NOT NULL DEFAULT 0,
        mention          INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE notify (
        user_id  TEXT PRIMARY KEY,
        dm       INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE timers (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind     TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline', 'limit')),
        version  INTEGER NOT NULL,
        due      REAL NOT NULL,
        fired    REAL
    );
    CREATE INDEX timers_pending ON timers (due) WHERE fired IS NULL;
    ALTER TABLE games ADD COLUMN parent_channel TEXT;
    ALTER TABLE games ADD COLUMN result TEXT;
    CREATE INDEX seats_by_user ON seats (user_id);
    """,
    # 3: the outbox — what the scheduler must still send; a row goes only once Discord has taken every part
    """
    CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id     INTEGER REFERENCES games (id) ON DELETE CASCADE,
        channel     TEXT NOT NULL,
        payload     TEXT NOT NULL,
        parts_done  INTEGER NOT NULL DEFAULT 0,
        attempts    INTEGER NOT NULL DEFAULT 0,
        created_at  REAL NOT NULL
    );
    """,
    # 4: listings that scale — who a running game waits for, one row per person per ended game, and the
    #    indexes /games, /mygames, /stats and /leaderboard read (issue 13)
    """
    ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX games_by_channel ON games (channel, id);
    CREATE TABLE results (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild     TEXT,
        game      TEXT NOT NULL,
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        outcome   TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'abandoned')),
        ended_at  REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_by_user ON results (user_id, guild, game);
    CREATE INDEX results_by_board ON results (guild, game, user_id);
    """ + RESULTS_OF.format(where="1 = 1") + ";",
    # 5: the language of each server (its preferred locale) and user, for what the bot says unprompted:
    #    reminders and deadlines in the channel, direct messages (issue 17)
    """
    CREATE TABLE locales (
        who     TEXT PRIMARY KEY,
        locale  TEXT NOT NULL
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The database cannot be used: the message says what file, what is wrong and what to do."""


class StoreFull(StoreError):
    """The disk (or the database's size limit) is full: nothing was saved."""

    def __init__(self, message: str = "The disk is full; nothing was saved. Try again in a moment."):
        super().__init__(message)


class VersionConflict(Exception):
    """Someone else changed the game after it was read; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an unfinished game."""


@dataclass
class Seat:
    user_id: str
    name: str
    is_bot: bool = False

    @property
    def removed(self) -> bool:
        """A person whose seat a computer took over (past a turn deadline)."""
        return self.is_bot and not self.user_id.startswith(BOT_PREFIX)


@dataclass
class GameRow:
    id: int
    guild: str | None
    channel: str
    game: str
    options: dict
    status: str
    host: str
    seed: int | None
    state: str | None
    version: int
    created_at: float
    updated_at: float
    parent_channel: str | None = None
    result: dict | None = None
    seats: list[Seat] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)     # the seats the running game waits for

    @property
    def names(self) -> dict[str, str]:
        return {s.user_id: s.name for s in self.seats}

    def seat_of(self, user_id: str) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass
class Settings:
    """A server's choices for play across a day (``/settings``)."""
    reminder_hours: float = 4.0
    deadline_hours: float = 24.0
    deadline_action: str = "vote"     # vote: opponents choose with buttons; skip or remove: done for them
    threads: bool = False
    mention: bool = True


@dataclass
class Timer:
    id: int
    game_id: int
    kind: str       # reminder, deadline, limit
    version: int    # the game version it was set for
    due: float


@dataclass
class Outgoing:
    """A row of the outbox: a notice the scheduler fired and must still deliver (``parts_done`` of its parts,
    the channel message then each direct message, already went out)."""
    id: int
    game_id: int | None
    channel: str
    payload: dict
    parts_done: int
    attempts: int


@dataclass
class LogEntry:
    seq: int
    seat: str
    action: str
    line: str
    at: float


class Store:
    """One aiosqlite connection; a lock keeps one transaction at a time on it."""

    def __init__(self, path: str | Path, shards: Shards | None = None):
        self.path = str(path)
        self.db: aiosqlite.Connection | None = None
        self._tx = asyncio.Lock()
        self.shards = shards      # only these shards' timers fire and notices go out here (None: all of them)

    def _shard_filter(self, guild: str = "g.guild") -> str:
        """SQL that holds for the games of this process's shards (a server's shard is (id >> 22) % count;
        no server, or one whose id is not a number, is shard 0)."""
        if self.shards is None:
            return "1 = 1"
        ids = ",".join(str(int(i)) for i in self.shards.ids)
        return (f"(CASE WHEN {guild} IS NOT NULL AND {guild} != '' AND {guild} NOT GLOB '*[^0-9]*' "
                f"THEN (CAST({guild} AS INTEGER) >> 22) % {int(self.shards.count)} ELSE 0 END) IN ({ids})")

    async def open(self) -> Store:
        """Open (creating if needed) and migrate the database. Anything that makes it unusable — a damaged or
        foreign file, a newer schema, a read-only file or folder — raises StoreError with one clear line."""
        where = self.path
        try:
            uri = self.path.startswith("file:")      # a SQLite URI (file:teahouse.db?mode=ro) is taken as one
            if self.path != ":memory:" and not uri:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = await aiosqlite.connect(self.path, isolation_level=None, uri=uri)  # we issue BEGIN ourselves
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"Cannot open the database {where}: {e}. Check the path and its folder's "
                             "permissions.") from e
        try:
            self.db.row_factory = aiosqlite.Row
            await self.db.execute("PRAGMA busy_timeout=5000")   # first: every later statement waits, not fails
            await self._check_file()
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self.migrate()
            await self._begin()        # a read-only file or folder shows here, not at the first move
            await self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            await self.db.execute("ROLLBACK")
        except StoreError as e:
            await self.close()
            if isinstance(e.__cause__, sqlite3.Error):
                raise StoreError(self._explain(e.__cause__)) from e.__cause__
            raise
        except sqlite3.Error as e:
            await self.close()
            raise StoreError(self._explain(e)) from e
        return self

    def _explain(self, e: sqlite3.Error) -> str:
        text = str(e).lower()
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            return (f"The database {self.path} is read-only: Teahouse must write to the file and to its folder "
                    "(for the WAL journal). Fix the permissions, or point TEAHOUSE_DB at a writable file.")
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return (f"The database {self.path} is damaged or not a SQLite file ({e}). Restore it from a backup, "
                    "or move it away to start with an empty one.")
        if "full" in text:
            return f"The disk holding {self.path} is full. Free some space and start again."
        if "locked" in text or "busy" in text:
            return (f"The database {self.path} is locked by another program that holds it too long. Stop that "
                    "program, or point TEAHOUSE_DB at another file.")
        return f"The database {self.path} cannot be used: {e}."

    async def _check_file(self) -> None:
        """Refuse a file that is not a Teahouse database, before anything is written to it."""
        async with self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
            tables = {r[0] for r in await cur.fetchall()}
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(f"The database {self.path} was written by a newer Teahouse (schema {version}; this "
                             f"one knows {SCHEMA_VERSION}). Update Teahouse, or point TEAHOUSE_DB at another file.")
        if version == 0 and tables - {"sqlite_sequence"}:
            raise StoreError(f"The file {self.path} holds a database that is not Teahouse's (tables without a "
                             "Teahouse schema version). Point TEAHOUSE_DB at another file.")

    async def close(self) -> None:
        if self.db is not None:
            db, self.db = self.db, None
            with contextlib.suppress(sqlite3.Error, ValueError):
                await db.close()

    async def __aenter__(self) -> Store:
        return await self.open()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # ----- schema ----------------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            return (await cur.fetchone())[0]

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Bring the schema up to ``target``; each step commits with its new version number."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StoreError(f"The database {self.path} was written by a newer Teahouse (schema {current}; this "
                             f"one knows {SCHEMA_VERSION}). Update Teahouse, or point TEAHOUSE_DB at another file.")
        for version in range(current + 1, target + 1):
            async def step(version=version):
                if await self.schema_version() >= version:    # another process migrated meanwhile
                    return
                for statement in _statements(MIGRATIONS[version - 1]):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version = {version}")
            await self._transaction(step)
        return await self.schema_version()

    # ----- reading ---------------------------------------------------------------------------------------
    async def _row(self, sql: str, args: tuple) -> GameRow | None:
        async with self.db.execute(sql, args) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        game = GameRow(
            id=row["id"], guild=row["guild"], channel=row["channel"], game=row["game"],
            options=json.loads(row["options"]), status=row["status"], host=row["host"], seed=row["seed"],
            state=row["state"], version=row["version"], created_at=row["created_at"],
            updated_at=row["updated_at"], parent_channel=row["parent_channel"], waiting=json.loads(row["waiting"]),
            result=json.loads(row["result"]) if row["result"] else None,
        )
        async with self.db.execute(
            "SELECT user_id, name, is_bot FROM seats WHERE game_id = ? ORDER BY position", (game.id,)
        ) as cur:
            game.seats = [Seat(r["user_id"], r["name"], bool(r["is_bot"])) for r in await cur.fetchall()]
        return game

    async def game(self, game_id: int) -> GameRow | None:
        return await self._row("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game(self, channel: str) -> GameRow | None:
        """The unfinished game of a channel, if any."""
        return await self._row(
            "SELECT * FROM games WHERE channel = ? AND status IN ('lobby', 'running')", (channel,)
        )

    async def latest_game(self, channel: str) -> GameRow | None:
        """The channel's unfinished game, else its most recently ended one."""
        return await self._row(
            "SELECT * FROM games WHERE channel = ? ORDER BY (status IN ('lobby', 'running')) DESC, id DESC "
            "LIMIT 1", (channel,)
        )

    async def games(self, status: tuple[str, ...] = OPEN_STATUSES, guild: str | None = None) -> list[GameRow]:
        marks = ",".join("?" * len(status))
        sql = f"SELECT id FROM games WHERE status IN ({marks})"
        args: tuple = tuple(status)
        if guild is not None:
            sql += " AND guild = ?"
            args += (guild,)
        async with self.db.execute(sql + " ORDER BY id", args) as cur:
            ids = [r[0] for r in await cur.fetchall()]
        return [await self.game(i) for i in ids]

    async def log(self, game_id: int, offset: int = 0, limit: int = 1_000_000) -> list[LogEntry]:
        async with self.db.execute(
            "SELECT seq, seat, action, line, at FROM actions WHERE game_id = ? ORDER BY seq LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        ) as cur:
            return [LogEntry(r["seq"], r["seat"], r["action"], r["line"], r["at"]) for r in await cur.fetchall()]

    async def log_length(self, game_id: int) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) as cur:
            return (await cur.fetchone())[0]

    # ----- writing ---------------------------------------------------------------------------------------
    async def _transaction(self, work):
        """Run ``work`` in one write transaction (BEGIN IMMEDIATE: writers queue on the busy timeout rather
        than fail), retrying the start once if another process held the file past the timeout. Inside
        ``batch()`` it joins the batch's transaction."""
        if self._in_batch():
            return await work()
        async with self._tx:
            await self._begin()
            try:
                result = await work()
                await self.db.execute("COMMIT")
                return result
            except BaseException as e:
                await self._rollback()
                self._reraise(e)

    async def _begin(self) -> None:
        for attempt in (1, 2):
            try:
                await self.db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as e:
                if attempt == 2 or not _is_busy(e):
                    self._reraise(e)
                log.warning("the database was busy for 5 s; trying once more")

    async def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite ends one by itself on a full disk, and a second
        ROLLBACK would hide the real error behind 'no transaction is active')."""
        if self.db is not None and self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self.db.execute("ROLLBACK")

    def _reraise(self, e: BaseException):
        """Raise ``e``, or the StoreError a front end can show for a storage failure."""
        err = self._storage_error(e) if isinstance(e, sqlite3.Error) else e
        if err is e:
            raise e
        raise err from e

    def _storage_error(self, e: sqlite3.Error) -> Exception:
        text = str(e).lower()
        if "full" in text:
            return StoreFull()
        if isinstance(e, sqlite3.IntegrityError):
            return e
        if _is_busy(e) or "readonly" in text or "disk i/o" in text or "malformed" in text:
            return StoreError(f"The game could not be saved ({e}); nothing was changed. Try again in a moment.")
        return e

    def _in_batch(self) -> bool:
        """Is this task inside one of this store's batches? (A task started inside one inherits the context
        variable, but not the transaction: it must queue like anyone else.)"""
        owner = _BATCH.get()
        return owner is not None and owner[0] is self and owner[1] is asyncio.current_task()

    @contextlib.asynccontextmanager
    async def batch(self):
        """One transaction around several store writes (the task that opened it joins it on every write):
        all of them commit, or none."""
        if self._in_batch():
            yield self
            return
        async with self._tx:
            await self._begin()
            token = _BATCH.set((self, asyncio.current_task()))
            try:
                yield self
                await self.db.execute("COMMIT")
            except BaseException as e:
                await self._rollback()
                self._reraise(e)
            finally:
                _BATCH.reset(token)

    @contextlib.asynccontextmanager
    async def snapshot(self):
        """Consistent reads: every read inside sees the database at one moment (no move lands between a game
        and its log). Writes of other tasks wait until it ends."""
        if self._in_batch():
            yield self
            return
        async with self._tx:
            await self.db.execute("BEGIN")
            token = _BATCH.set((self, asyncio.current_task()))
            try:
                yield self
            finally:
                _BATCH.reset(token)
                await self._rollback()

    async def create_game(self, *, guild: str | None, channel: str, game: str, options: dict, host: Seat,
                          now: float, parent_channel: str | None = None) -> GameRow:
        async def work():
            try:
                cur = await self.db.execute(
                    "INSERT INTO games (guild, channel, game, options, status, host, created_at, updated_at, "
                    "parent_channel) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild, channel, game, json.dumps(options), host.user_id, now, now, parent_channel),
                )
            except aiosqlite.IntegrityError as e:
                raise ChannelBusy(channel) from e
            gid = cur.lastrowid
            await self.db.execute(
                "INSERT INTO seats (game_id, position, user_id, name, is_bot) VALUES (?, 0, ?, ?, ?)",
                (gid, host.user_id, host.name, int(host.is_bot)),
            )
            return gid

        return await self.game(await self._transaction(work))

    async def import_game(self, *, guild: str | None, channel: str, game: str, status: str, host: str,
                          seed: int | None, state: str | None, now: float, seats: list[tuple[str, str, bool]],
                          result: dict | None = None, options: dict | None = None) -> int:
        """Store a whole game at once (benchmarks, and moving games between databases). Returns its id."""
        async def work():
            cur = await self.db.execute(
                "INSERT INTO games (guild, channel, game, options, status, host, seed, state, version, created_at, "
                "updated_at, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                (guild, channel, game, json.dumps(options or {}), status, host, seed, state, now, now,
                 json.dumps(result, sort_keys=True) if result is not None else None))
            gid = cur.lastrowid
            await self.db.executemany(
                "INSERT INTO seats (game_id, position, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
                [(gid, i, u, n, int(b)) for i, (u, n, b) in enumerate(seats)])
            if status not in OPEN_STATUSES:
                await self._write_results(gid)
            return gid
        return await self._transaction(work)

    async def update_lobby(self, game: GameRow, *, seats: list[Seat], options: dict, host: str, now: float,
                           status: str = "lobby") -> GameRow:
        """Replace a lobby's seats, options and host (version-checked)."""
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
        """Append ``moves`` (seat, action, log line) and store the state they lead to, all or nothing.

        The game's pending timers are replaced by ``timers`` (kind, due), except those of a kind in ``keep``
        (a rules time limit that runs on across answers); ``seats`` replaces the seats (a player handed
        to a computer). Returns the game as stored, without reading it back."""
        async def work():
            columns = {"status": status, "state": state, "waiting": json.dumps(list(waiting))}
            if result is not None:
                columns["result"] = json.dumps(result, sort_keys=True)
            await self._bump(game, now, **columns)
            async with self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game.id,)
            ) as cur:
                seq = (await cur.fetchone())[0]
            await self.db.executemany(
                "INSERT INTO actions (game_id, seq, seat, action, line, at) VALUES (?, ?, ?, ?, ?, ?)",
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
        await self.db.execute(RESULTS_OF.format(where="g.id = ?"), (game_id,))

    async def _replace_seats(self, game_id: int, seats: list[Seat]) -> None:
        await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        for i, s in enumerate(seats):
            await self.db.execute(
                "INSERT INTO seats (game_id, position, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
                (game_id, i, s.user_id, s.name, int(s.is_bot)),
            )

    async def _set_timers(self, game_id: int, version: int, timers, keep: tuple[str, ...] = ()) -> None:
        marks = ",".join("?" * len(keep))
        extra = f" AND kind NOT IN ({marks})" if keep else ""
        await self.db.execute(f"DELETE FROM timers WHERE game_id = ? AND fired IS NULL{extra}", (game_id, *keep))
        for kind, due in timers:
            await self.db.execute("INSERT INTO timers (game_id, kind, version, due) VALUES (?, ?, ?, ?)",
                                  (game_id, kind, version, due))

    async def set_status(self, game: GameRow, status: str, *, now: float) -> GameRow:
        async def work():
            await self._bump(game, now, status=status, waiting="[]")
            if status not in OPEN_STATUSES:
                await self._set_timers(game.id, game.version + 1, ())
                await self._write_results(game.id)
        await self._transaction(work)
        return replace(game, status=status, version=game.version + 1, updated_at=now, waiting=[])

    # ----- timers ----------------------------------------------------------------------------------------
    async def pending_timers(self, game_id: int | None = None) -> list[Timer]:
        sql, args = "SELECT * FROM timers WHERE fired IS NULL", ()
        if game_id is not None:
            sql, args = sql + " AND game_id = ?", (game_id,)
        async with self.db.execute(sql + " ORDER BY due, id", args) as cur:
            return [Timer(r["id"], r["game_id"], r["kind"], r["version"], r["due"]) for r in await cur.fetchall()]

    async def due_timers(self, now: float) -> list[Timer]:
        """The timers due by ``now`` (of this process's shards' games)."""
        sql = "SELECT t.* FROM timers t WHERE t.fired IS NULL AND t.due <= ?"
        if self.shards is not None:
            sql += f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = t.game_id AND {self._shard_filter()})"
        async with self.db.execute(sql + " ORDER BY t.due, t.id", (now,)) as cur:
            return [Timer(r["id"], r["game_id"], r["kind"], r["version"], r["due"]) for r in await cur.fetchall()]

    async def next_due(self) -> float | None:
        sql = "SELECT MIN(t.due) FROM timers t WHERE t.fired IS NULL"
        if self.shards is not None:
            sql += f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = t.game_id AND {self._shard_filter()})"
        async with self.db.execute(sql) as cur:
            return (await cur.fetchone())[0]

    async def claim_timer(self, timer: Timer, now: float) -> bool:
        """Mark a timer fired; False if it was already fired or replaced (so nothing is sent twice)."""
        async def work():
            cur = await self.db.execute("UPDATE timers SET fired = ? WHERE id = ? AND fired IS NULL",
                                        (now, timer.id))
            return cur.rowcount == 1
        return await self._transaction(work)

    async def add_timer(self, game_id: int, kind: str, version: int, due: float) -> None:
        async def work():
            await self.db.execute("INSERT INTO timers (game_id, kind, version, due) VALUES (?, ?, ?, ?)",
                                  (game_id, kind, version, due))
        await self._transaction(work)

    # ----- the outbox -------------------------------------------------------------------------------------
    async def add_outgoing(self, game_id: int | None, channel: str, payload: dict, now: float) -> None:
        async def work():
            await self.db.execute("INSERT INTO outbox (game_id, channel, payload, created_at) VALUES (?, ?, ?, ?)",
                                  (game_id, channel, json.dumps(payload, sort_keys=True), now))
        await self._transaction(work)

    async def outgoing(self, limit: int = 100) -> list[Outgoing]:
        """The oldest notices still to send (of this process's shards: a notice without a game is shard 0)."""
        sql = "SELECT o.* FROM outbox o"
        if self.shards is not None:
            sql += f" LEFT JOIN games g ON g.id = o.game_id WHERE {self._shard_filter()}"
        async with self.db.execute(sql + " ORDER BY o.id LIMIT ?", (limit,)) as cur:
            return [Outgoing(r["id"], r["game_id"], r["channel"], json.loads(r["payload"]), r["parts_done"],
                             r["attempts"]) for r in await cur.fetchall()]

    async def outgoing_progress(self, outgoing_id: int, parts_done: int) -> None:
        async def work():
            await self.db.execute("UPDATE outbox SET parts_done = ? WHERE id = ?", (parts_done, outgoing_id))
        await self._transaction(work)

    async def outgoing_failed(self, outgoing_id: int) -> int:
        """Count a failed attempt; how many there have been."""
        async def work():
            async with self.db.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ? RETURNING attempts",
                                       (outgoing_id,)) as cur:
                r = await cur.fetchone()
            return r[0] if r else 0
        return await self._transaction(work)

    async def outgoing_done(self, outgoing_id: int) -> None:
        async def work():
            await self.db.execute("DELETE FROM outbox WHERE id = ?", (outgoing_id,))
        await self._transaction(work)

    # ----- server settings and notification preferences ---------------------------------------------------
    async def settings(self, guild: str | None) -> Settings:
        async with self.db.execute("SELECT * FROM settings WHERE guild = ?", (guild or "",)) as cur:
            r = await cur.fetchone()
        if r is None:
            return Settings()
        return Settings(r["reminder_hours"], r["deadline_hours"], r["deadline_action"], bool(r["threads"]),
                        bool(r["mention"]))

    async def save_settings(self, guild: str | None, settings: Settings) -> None:
        async def work():
            await self.db.execute(
                "INSERT INTO settings (guild, reminder_hours, deadline_hours, deadline_action, threads, mention) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild) DO UPDATE SET reminder_hours = excluded.reminder_hours, "
                "deadline_hours = excluded.deadline_hours, deadline_action = excluded.deadline_action, "
                "threads = excluded.threads, mention = excluded.mention",
                (guild or "", settings.reminder_hours, settings.deadline_hours, settings.deadline_action,
                 int(settings.threads), int(settings.mention)))
        await self._transaction(work)

    async def locale_of(self, who: str) -> str | None:
        """The remembered language of ``who``: ``guild:<id>`` or ``user:<id>``."""
        async with self.db.execute("SELECT locale FROM locales WHERE who = ?", (who,)) as cur:
            r = await cur.fetchone()
        return r["locale"] if r else None

    async def remember_locale(self, who: str, locale: str) -> None:
        async def work():
            await self.db.execute("INSERT INTO locales (who, locale) VALUES (?, ?) "
                                  "ON CONFLICT (who) DO UPDATE SET locale = excluded.locale", (who, locale))
        await self._transaction(work)

    async def wants_dm(self, user_id: str) -> bool:
        async with self.db.execute("SELECT dm FROM notify WHERE user_id = ?", (user_id,)) as cur:
            r = await cur.fetchone()
        return bool(r and r["dm"])

    async def set_dm(self, user_id: str, on: bool) -> None:
        async def work():
            await self.db.execute("INSERT INTO notify (user_id, dm) VALUES (?, ?) "
                                  "ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm", (user_id, int(on)))
        await self._transaction(work)

    async def games_of_user(self, user_id: str, status: tuple[str, ...] = OPEN_STATUSES) -> list[GameRow]:
        marks = ",".join("?" * len(status))
        async with self.db.execute(
            f"SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) "
            "ORDER BY g.updated_at", (user_id, *status)) as cur:
            ids = [r[0] for r in await cur.fetchall()]
        return [await self.game(i) for i in ids]

    # ----- listings: one indexed query each, whatever the number of games ------------------------------------
    _SUMMARY = ("SELECT g.id, g.game, g.guild, g.channel, g.status, g.waiting, g.updated_at, "
                "json_group_object(s.user_id, s.name) AS names FROM games g LEFT JOIN seats s ON s.game_id = g.id ")

    @staticmethod
    def _summaries(rows) -> list[dict]:
        return [{"id": r["id"], "game": r["game"], "guild": r["guild"], "channel": r["channel"],
                 "status": r["status"], "waiting": json.loads(r["waiting"]),
                 "names": {k: v for k, v in json.loads(r["names"]).items() if k is not None and k != "null"},
                 "updated_at": r["updated_at"]} for r in rows]

    async def open_games_of(self, guild: str | None) -> list[dict]:
        """The unfinished games of a server: id, game, channel, status, whom each waits for, seat names."""
        async with self.db.execute(self._SUMMARY + "WHERE g.guild IS ? AND g.status IN ('lobby', 'running') "
                                   "GROUP BY g.id ORDER BY g.id", (guild,)) as cur:
            return self._summaries(await cur.fetchall())

    async def turns_of(self, user_id: str) -> list[dict]:
        """The running games, in any server, that wait for ``user_id`` now."""
        async with self.db.execute(
                self._SUMMARY + "WHERE g.status = 'running' AND g.id IN (SELECT game_id FROM seats WHERE user_id = ?) "
                "AND EXISTS (SELECT 1 FROM json_each(g.waiting) w WHERE w.value = ?) GROUP BY g.id "
                "ORDER BY g.updated_at", (user_id, user_id)) as cur:
            return self._summaries(await cur.fetchall())

    async def record_of(self, user_id: str, guild: str | None = None) -> list[tuple[str, str, int]]:
        """(game, outcome, count) of a person's ended games, everywhere or in one server."""
        sql = "SELECT game, outcome, COUNT(*) FROM results WHERE user_id = ?"
        args: tuple = (user_id,)
        if guild is not None:
            sql, args = sql + " AND guild = ?", args + (guild,)
        async with self.db.execute(sql + " GROUP BY game, outcome", args) as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def board(self, game: str, guild: str | None = None, limit: int = 10) -> list[tuple[str, str, int, int, int]]:
        """The best players of a game: (user id, latest name, wins, finished games, abandoned), most wins first,
        then best win rate, then most played."""
        where, args = "game = ?", (game,)
        if guild is not None:
            where, args = where + " AND guild = ?", args + (guild,)
        async with self.db.execute(
                "SELECT user_id, name, wins, played, abandoned FROM ("
                "  SELECT user_id, name, MAX(ended_at), SUM(outcome = 'win') AS wins,"
                "         SUM(outcome != 'abandoned') AS played, SUM(outcome = 'abandoned') AS abandoned"
                f"  FROM results WHERE {where} GROUP BY user_id) WHERE played > 0 "
                "ORDER BY wins DESC, CAST(wins AS REAL) / played DESC, played DESC, LOWER(name) LIMIT ?",
                args + (limit,)) as cur:
            return [(r[0], r[1], r[2], r[3], r[4]) for r in await cur.fetchall()]

    async def _bump(self, game: GameRow, now: float, **columns) -> None:
        sets = ", ".join(f"{k} = ?" for k in columns)
        cur = await self.db.execute(
            f"UPDATE games SET {sets}, version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (*columns.values(), now, game.id, game.version),
        )
        if cur.rowcount != 1:
            raise VersionConflict(game.id)


_BATCH: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("teahouse_store_batch", default=None)


def _is_busy(e: sqlite3.Error) -> bool:
    text = str(e).lower()
    return "locked" in text or "busy" in text


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (BEGIN … END;) whole."""
    out, buf = [], []
    for line in script.strip().splitlines():
        buf.append(line)
        text = "\n".join(buf).strip()
        if sqlite3.complete_statement(text):
            out.append(text)
            buf = []
    if "\n".join(buf).strip():
        out.append("\n".join(buf).strip())
    return out

