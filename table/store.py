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
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

OPEN_STATUSES = ("lobby", "running")
BOT_PREFIX = "cpu-"   # computer seats' ids; a person handed to a computer keeps their own id

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
]
SCHEMA_VERSION = len(MIGRATIONS)


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
class LogEntry:
    seq: int
    seat: str
    action: str
    line: str
    at: float


class Store:
    """One aiosqlite connection; a lock keeps one transaction at a time on it."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.db: aiosqlite.Connection | None = None
        self._tx = asyncio.Lock()

    async def open(self) -> Store:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = await aiosqlite.connect(self.path, isolation_level=None)  # we issue BEGIN ourselves
        self.db.row_factory = aiosqlite.Row
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()
        return self

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
            self.db = None

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
            raise RuntimeError(f"database schema {current} is newer than this Teahouse ({SCHEMA_VERSION})")
        for version in range(current + 1, target + 1):
            async with self._tx:
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(MIGRATIONS[version - 1]):
                        await self.db.execute(statement)
                    await self.db.execute(f"PRAGMA user_version = {version}")
                    await self.db.execute("COMMIT")
                except BaseException:
                    await self.db.execute("ROLLBACK")
                    raise
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
            updated_at=row["updated_at"], parent_channel=row["parent_channel"],
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
        async with self._tx:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                result = await work()
                await self.db.execute("COMMIT")
                return result
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

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

    async def update_lobby(self, game: GameRow, *, seats: list[Seat], options: dict, host: str, now: float,
                           status: str = "lobby") -> GameRow:
        """Replace a lobby's seats, options and host (version-checked)."""
        async def work():
            await self._bump(game, now, status=status, options=json.dumps(options), host=host)
            await self._replace_seats(game.id, seats)

        await self._transaction(work)
        return await self.game(game.id)

    async def start_game(self, game: GameRow, *, seats: list[Seat], seed: int, state: str, now: float,
                         timers: list[tuple[str, float]] = ()) -> GameRow:
        async def work():
            await self._bump(game, now, status="running", seed=seed, state=state)
            await self._set_timers(game.id, game.version + 1, timers)
            await self._replace_seats(game.id, seats)

        await self._transaction(work)
        return await self.game(game.id)

    async def record_moves(self, game: GameRow, moves: list[tuple[str, str, str]], state: str, *, now: float,
                           status: str = "running", timers: list[tuple[str, float]] = (),
                           keep: tuple[str, ...] = (), result: dict | None = None,
                           seats: list[Seat] | None = None) -> GameRow:
        """Append ``moves`` (seat, action, log line) and store the state they lead to, all or nothing.

        The game's pending timers are replaced by ``timers`` (kind, due), except those of a kind in ``keep``
        (a rules time limit that runs on across answers); ``seats`` replaces the seats (a player handed
        to a computer)."""
        async def work():
            columns = {"status": status, "state": state}
            if result is not None:
                columns["result"] = json.dumps(result, sort_keys=True)
            await self._bump(game, now, **columns)
            async with self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game.id,)
            ) as cur:
                seq = (await cur.fetchone())[0]
            for seat, action, line in moves:
                seq += 1
                await self.db.execute(
                    "INSERT INTO actions (game_id, seq, seat, action, line, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, seq, seat, action, line, now),
                )
            if seats is not None:
                await self._replace_seats(game.id, seats)
            await self._set_timers(game.id, game.version + 1, timers, keep)

        await self._transaction(work)
        return await self.game(game.id)

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
            await self._bump(game, now, status=status)
            if status not in OPEN_STATUSES:
                await self._set_timers(game.id, game.version + 1, ())
        await self._transaction(work)
        return await self.game(game.id)

    # ----- timers ----------------------------------------------------------------------------------------
    async def pending_timers(self, game_id: int | None = None) -> list[Timer]:
        sql, args = "SELECT * FROM timers WHERE fired IS NULL", ()
        if game_id is not None:
            sql, args = sql + " AND game_id = ?", (game_id,)
        async with self.db.execute(sql + " ORDER BY due, id", args) as cur:
            return [Timer(r["id"], r["game_id"], r["kind"], r["version"], r["due"]) for r in await cur.fetchall()]

    async def due_timers(self, now: float) -> list[Timer]:
        async with self.db.execute(
            "SELECT * FROM timers WHERE fired IS NULL AND due <= ? ORDER BY due, id", (now,)
        ) as cur:
            return [Timer(r["id"], r["game_id"], r["kind"], r["version"], r["due"]) for r in await cur.fetchall()]

    async def next_due(self) -> float | None:
        async with self.db.execute("SELECT MIN(due) FROM timers WHERE fired IS NULL") as cur:
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

    async def finished_games(self, guild: str | None = None, game: str | None = None) -> list[GameRow]:
        """Ended games (finished or abandoned after starting), for stats."""
        sql = "SELECT id FROM games WHERE status IN ('finished', 'abandoned') AND state IS NOT NULL"
        args: tuple = ()
        if guild is not None:
            sql, args = sql + " AND guild = ?", args + (guild,)
        if game is not None:
            sql, args = sql + " AND game = ?", args + (game,)
        async with self.db.execute(sql + " ORDER BY id", args) as cur:
            ids = [r[0] for r in await cur.fetchall()]
        return [await self.game(i) for i in ids]

    async def _bump(self, game: GameRow, now: float, **columns) -> None:
        sets = ", ".join(f"{k} = ?" for k in columns)
        cur = await self.db.execute(
            f"UPDATE games SET {sets}, version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (*columns.values(), now, game.id, game.version),
        )
        if cur.rowcount != 1:
            raise VersionConflict(game.id)


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

