"""Storage for tables — games, their seats and an append-only action log — on SQLAlchemy Core (asyncio): a
SQLite file (one bot process) or a PostgreSQL database (``postgresql://``; several processes or machines).

The same tables (``store/schema.py``), queries and rules on both; what differs by database is in
``store/dialects.py``:

- The schema is upgraded on open by Alembic (``store/migrations``; ``store/upgrade.py``), a SQLite file copied
  beside itself first; databases written before Alembic are adopted at their schema version.
- At most one unfinished game (lobby or running) per channel: a partial unique index says so, so even two
  bot processes cannot open two (``ChannelBusy``).
- Every change of a game is one transaction guarded by an optimistic version check: the write names the
  version it read, and if another writer got there first nothing is written and ``VersionConflict`` is
  raised. A crash mid-move leaves the previous state, because the state and its log row commit together.
- The action log cannot be changed or deleted (triggers), only appended to.
- ``batch()`` and ``snapshot()`` are transactions that the task which opened them joins on every call; other
  tasks wait (SQLite: one connection) or use another pooled connection (PostgreSQL).
- A timer is claimed once, of however many processes (PostgreSQL: ``FOR UPDATE SKIP LOCKED``).
- Storage failures (a full disk, a busy file, a server gone) raise ``StoreError``/``StoreFull`` with one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import json
from dataclasses import replace
from pathlib import Path

from sqlalchemy import exc as sa_exc

from . import queries as q
from .dialects import StoreError, StoreFull, driver_error, not_saved, side_for
from .queries import OPEN_STATUSES
from .ratings import rate_game
from .rows import BOT_PREFIX, GameRow, LogEntry, Outgoing, Seat, Settings, Timer
from .shards import Shards

# BOT_PREFIX (store/rows.py): table/analysis.py still imports it from here
__all__ = ["OPEN_STATUSES", "BOT_PREFIX", "SCHEMA_VERSION", "ChannelBusy", "Store", "StoreError", "StoreFull",
           "VersionConflict"]

SCHEMA_VERSION = 13   # the newest Alembic revision, 0013 (and the legacy user_version/schema_version it matches)


class VersionConflict(Exception):
    """Someone else changed the game after it was read; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an unfinished game."""


# the transaction (store, task, connection) the current task owns, if any
_OWNER: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("teahouse_store_owner", default=None)


def _plain_errors(cls):
    """Every public coroutine raises StoreError/StoreFull (not the driver's own) when storage fails — a full
    disk, a busy file, a server gone — so the front ends can say so in one line; other errors pass unchanged."""
    def wrap(fn):
        @functools.wraps(fn)
        async def method(self, *args, **kwargs):
            try:
                return await fn(self, *args, **kwargs)
            except Exception as e:    # noqa: BLE001 — sorted by _storage_error, re-raised as they were otherwise
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
class Store:
    """The store of one database: ``Store("data/teahouse.db")`` or ``Store("postgresql://…")`` (or
    ``open_store``), then ``await store.open()`` or ``async with``."""

    def __init__(self, target: str | Path, shards: Shards | None = None):
        self.side = side_for(str(target))
        self.path = self.side.path                # what messages name (a URL without its password)
        self.shards = shards      # only these shards' timers fire and notices go out here (None: all of them)
        self.sql = q.Statements(self.side.name, shards)
        self.errors = 0           # storage failures so far (the metrics' database errors)
        self.endings = 0          # games this process ended (finished or abandoned): a league looks again (#35)

    # ----- opening and closing ---------------------------------------------------------------------------
    async def open(self, revision: str = "head", apart: bool = False) -> Store:
        """Open (creating if needed) and bring the schema up to ``revision`` (tests build older schemas); with
        ``apart`` (the bot), a migration runs in a process of its own, so Alembic never stays in this one's
        memory (store/upgrade.py). Anything that makes the database unusable — a damaged or foreign file, a
        newer schema, a read-only file or folder, a server that cannot be reached or refuses — raises
        StoreError with one clear line."""
        from .upgrade import upgrade

        await self.opened_for(lambda: upgrade(self, revision, apart))
        return self

    async def opened_for(self, work):
        """Open the database, then ``await work()`` (its result returned); on any failure the store is closed
        and the reason raised as ``open`` raises it (a migration's child process uses it: store/upgrade.py)."""
        try:
            await self.side.open()
            return await work()
        except StoreError as e:
            await self.close()
            cause = e.__cause__
            if cause is not None and cause is not e and not isinstance(e, StoreFull):
                raise StoreError(self.side.explain(driver_error(cause))) from cause
            raise
        except Exception as e:   # noqa: BLE001 — every way a database fails to open gets its line
            await self.close()
            if not isinstance(driver_error(e), (sa_exc.SQLAlchemyError, *self.side.extra_errors, ValueError)):
                raise
            raise StoreError(self.side.explain(driver_error(e))) from e

    async def close(self) -> None:
        await self.side.close()

    @property
    def closed(self) -> bool:
        """Not open (yet, or any more)."""
        return self.side.closed

    async def __aenter__(self) -> Store:
        """Opens the store (unless it is open already: ``async with await store.open(apart=True)``); the end of
        the block closes it."""
        return self if not self.closed else await self.open()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # ----- schema ----------------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        """The number of the database's Alembic revision (0 for none)."""
        from .upgrade import current_revision

        async with self._connection("read") as conn:
            rev = await conn.run_sync(current_revision)
        return int(rev) if rev else 0

    async def migrate(self, target: int | str = "head") -> int:
        """Bring the schema up to revision ``target`` (a number or "head"); the revision it is at then."""
        from .upgrade import upgrade

        await upgrade(self, target if isinstance(target, str) else f"{target:04d}")
        return await self.schema_version()

    # ----- connections and transactions ------------------------------------------------------------------
    def _owned(self):
        owner = _OWNER.get()
        if owner is not None and owner[0] is self and owner[1] is asyncio.current_task():
            return owner[2]
        return None

    @contextlib.asynccontextmanager
    async def _connection(self, mode: str = "read"):
        """The task's transaction's connection, else one of ``mode``: read (single statements), write or
        snapshot (a transaction that commits, or rolls back, at the end)."""
        owned = self._owned()
        if owned is not None:
            yield owned
            return
        async with self.side.connection(mode) as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def _owning(self, mode: str):
        """A transaction the task owns until the block ends: its store calls join it."""
        if self._owned() is not None:
            yield self
            return
        try:
            async with self.side.connection(mode) as conn:
                token = _OWNER.set((self, asyncio.current_task(), conn))
                try:
                    yield self
                finally:
                    _OWNER.reset(token)
        except Exception as e:   # noqa: BLE001 — storage failures said plainly, the rest unchanged
            err = self._storage_error(e)
            if err is e:
                raise
            raise err from e

    def batch(self):
        """One transaction around several store writes (the task that opened it joins it on every write):
        all of them commit, or none."""
        return self._owning("write")

    def snapshot(self):
        """Consistent reads: every read inside sees the database at one moment (no move lands between a game
        and its log)."""
        return self._owning("snapshot")

    async def _transaction(self, work, mode: str = "write"):
        """Run ``work(conn)`` in one write transaction (``mode`` "read": one statement in autocommit, atomic on
        its own); inside ``batch()`` it joins the batch's. A deadlock or a failed serialization (PostgreSQL:
        another process got there first) is retried once."""
        for attempt in (1, 2):
            try:
                async with self._connection(mode) as conn:
                    return await work(conn)
            except sa_exc.DBAPIError as e:
                if attempt == 2 or self._owned() is not None or not self.side.retry_once(driver_error(e)):
                    raise

    def _storage_error(self, e: BaseException) -> BaseException:
        if isinstance(e, sa_exc.TimeoutError):          # no pooled connection came free in time
            self.errors += 1
            return not_saved(e)
        if not isinstance(e, (sa_exc.DBAPIError, *self.side.extra_errors)):
            return e
        err = self.side.storage_error(driver_error(e))
        if err is driver_error(e):
            return e
        self.errors += 1
        return err

    async def select(self, stmt, params: dict | None = None) -> list:
        """The rows of a read statement built elsewhere (store/ratings.py), in the task's transaction if any."""
        return await self._all(stmt, params)

    async def transaction(self, work):
        """``await work(conn)`` in one write transaction (store/ratings.py's rebuild)."""
        return await self._transaction(work)

    async def _all(self, stmt, params=None) -> list:
        async with self._connection() as conn:
            return (await conn.execute(stmt, params)).all()

    async def _one(self, stmt, params=None):
        async with self._connection() as conn:
            return (await conn.execute(stmt, params)).first()

    # ----- reading ---------------------------------------------------------------------------------------
    async def _row(self, stmt, params: dict) -> GameRow | None:
        rows = (await self._all(stmt, params))
        if not rows:
            return None
        row = rows[0]._mapping
        seats = [r for r in rows if r.seat_user is not None]
        return GameRow(
            id=row["id"], guild=row["guild"], channel=row["channel"], game=row["game"],
            options=json.loads(row["options"]), status=row["status"], host=row["host"], seed=row["seed"],
            state=row["state"], version=row["version"], created_at=row["created_at"],
            updated_at=row["updated_at"], parent_channel=row["parent_channel"], waiting=json.loads(row["waiting"]),
            result=json.loads(row["result"]) if row["result"] else None, rules=row["rules"],
            seats=[Seat(r.seat_user, r.seat_name, bool(r.seat_bot)) for r in seats])

    async def game(self, game_id: int) -> GameRow | None:
        return await self._row(q.GAME, {"id": game_id})

    async def open_game(self, channel: str) -> GameRow | None:
        """The unfinished game of a channel, if any."""
        return await self._row(q.OPEN_GAME, {"channel": channel})

    async def latest_game(self, channel: str) -> GameRow | None:
        """The channel's unfinished game, else its most recently ended one."""
        return await self._row(q.LATEST_GAME, {"channel": channel})

    async def games(self, status: tuple[str, ...] = OPEN_STATUSES, guild: str | None = None) -> list[GameRow]:
        stmt = q.GAME_IDS if guild is None else q.GAME_IDS_OF_GUILD
        ids = [r[0] for r in await self._all(stmt, {"statuses": list(status), "guild": guild})]
        return [await self.game(i) for i in ids]

    async def games_of_user(self, user_id: str, status: tuple[str, ...] = OPEN_STATUSES) -> list[GameRow]:
        ids = [r[0] for r in await self._all(q.GAME_IDS_OF_USER, {"user": user_id, "statuses": list(status)})]
        return [await self.game(i) for i in ids]

    async def log(self, game_id: int, offset: int = 0, limit: int = 1_000_000) -> list[LogEntry]:
        rows = await self._all(q.LOG, {"game_id": game_id, "limit": limit, "offset": offset})
        return [LogEntry(r.seq, r.seat, r.action, r.line, r.at) for r in rows]

    async def log_length(self, game_id: int) -> int:
        return (await self._one(q.LOG_LENGTH, {"game_id": game_id}))[0]

    # ----- writing games ---------------------------------------------------------------------------------
    async def create_game(self, *, guild: str | None, channel: str, game: str, options: dict, host: Seat,
                          now: float, parent_channel: str | None = None) -> GameRow:
        async def work(conn):
            try:
                async with conn.begin_nested():    # a savepoint: a busy channel leaves a batch usable
                    gid = (await conn.execute(q.NEW_GAME, {
                        "guild": guild, "channel": channel, "game": game, "options": json.dumps(options),
                        "status": "lobby", "host": host.user_id, "created_at": now, "updated_at": now,
                        "parent_channel": parent_channel})).scalar_one()
            except sa_exc.IntegrityError as e:
                raise ChannelBusy(channel) from e
            await conn.execute(q.NEW_SEAT, {"game_id": gid, "position": 0, "user_id": host.user_id,
                                            "name": host.name, "is_bot": int(host.is_bot)})
            return gid

        return await self.game(await self._transaction(work))

    async def import_game(self, *, guild: str | None, channel: str, game: str, status: str, host: str,
                          seed: int | None, state: str | None, now: float, seats: list[tuple[str, str, bool]],
                          result: dict | None = None, options: dict | None = None) -> int:
        """Store a whole game at once (benchmarks, and moving games between databases). Returns its id."""
        async def work(conn):
            gid = (await conn.execute(q.IMPORT_GAME, {
                "guild": guild, "channel": channel, "game": game, "options": json.dumps(options or {}),
                "status": status, "host": host, "seed": seed, "state": state, "version": 1, "created_at": now,
                "updated_at": now, "result": json.dumps(result, sort_keys=True) if result is not None else None,
            })).scalar_one()
            await conn.execute(q.NEW_SEAT, [{"game_id": gid, "position": i, "user_id": u, "name": n,
                                             "is_bot": int(b)} for i, (u, n, b) in enumerate(seats)])
            if status not in OPEN_STATUSES:
                await conn.execute(self.sql.write_results, {"game_id": gid})
                await rate_game(conn, self.side.name, gid)
            return gid
        return await self._transaction(work)

    async def update_lobby(self, game: GameRow, *, seats: list[Seat], options: dict, host: str, now: float,
                           status: str = "lobby") -> GameRow:
        """Replace a lobby's seats, options and host (version-checked)."""
        async def work(conn):
            await self._bump(conn, game, now, status=status, options=json.dumps(options), host=host)
            await self._replace_seats(conn, game.id, seats)

        await self._transaction(work)
        return await self.game(game.id)

    async def start_game(self, game: GameRow, *, seats: list[Seat], seed: int, state: str, now: float,
                         timers: list[tuple[str, float]] = (), waiting: list[str] = (), rules: int = 1) -> GameRow:
        """Start a lobby's game: its seats in order, its seed, its first state and the rules version it is
        played by."""
        async def work(conn):
            await self._bump(conn, game, now, status="running", seed=seed, state=state,
                             waiting=json.dumps(list(waiting)), rules=rules)
            await self._set_timers(conn, game.id, game.version + 1, timers)
            await self._replace_seats(conn, game.id, seats)

        await self._transaction(work)
        return replace(game, status="running", seed=seed, state=state, version=game.version + 1, updated_at=now,
                       seats=list(seats), waiting=list(waiting), rules=rules)

    async def record_moves(self, game: GameRow, moves: list[tuple[str, str, str]], state: str, *, now: float,
                           status: str = "running", timers: list[tuple[str, float]] = (),
                           keep: tuple[str, ...] = (), result: dict | None = None,
                           seats: list[Seat] | None = None, waiting: list[str] = ()) -> GameRow:
        """Append ``moves`` (seat, action, log line) and store the state they lead to, all or nothing.

        The game's pending timers are replaced by ``timers`` (kind, due), except those of a kind in ``keep``
        (a rules time limit that runs on across answers); ``seats`` replaces the seats (a player handed
        to a computer). Returns the game as stored, without reading it back. One statement per kind of
        row: the version-checked update, the log rows (each numbered after the last in the same statement),
        the timers out and in, and the results of a game that ended; on PostgreSQL a move that goes on is all
        of that in one statement (``_record_in_one``)."""
        if self.side.MOVE_IN_ONE and status in OPEN_STATUSES and result is None and seats is None:
            await self._record_in_one(game, moves, state, now=now, status=status, timers=timers, keep=keep,
                                      waiting=waiting)
            return replace(game, status=status, state=state, version=game.version + 1, updated_at=now,
                           waiting=list(waiting))

        async def work(conn):
            columns = {"status": status, "state": state, "waiting": json.dumps(list(waiting))}
            if result is not None:
                columns["result"] = json.dumps(result, sort_keys=True)
            await self._bump(conn, game, now, **columns)
            if moves:
                await conn.execute(q.APPEND_ACTION, [{"game_id": game.id, "seat": seat, "action": action,
                                                      "line": line, "at": now} for seat, action, line in moves])
            if seats is not None:
                await self._replace_seats(conn, game.id, seats)
            await self._set_timers(conn, game.id, game.version + 1, timers, keep)
            if status not in OPEN_STATUSES:
                await conn.execute(self.sql.write_results, {"game_id": game.id})
                await rate_game(conn, self.side.name, game.id)     # its ratings end with it (issue #27)

        await self._transaction(work)
        if status not in OPEN_STATUSES:
            self.endings += 1
        return replace(game, status=status, state=state, version=game.version + 1, updated_at=now,
                       result=result if result is not None else game.result,
                       seats=list(seats) if seats is not None else game.seats, waiting=list(waiting))

    async def _record_in_one(self, game: GameRow, moves, state: str, *, now: float, status: str, timers, keep,
                             waiting) -> None:
        """record_moves on PostgreSQL for a move that goes on: one statement (queries.PG_RECORD_MOVE), in
        autocommit on its own or in the task's batch, with what record_moves does in several."""
        params = {"status": status, "state": state, "waiting": json.dumps(list(waiting)), "now": now,
                  "game_id": game.id, "read_version": game.version, "version": game.version + 1,
                  "seats": [m[0] for m in moves], "actions": [m[1] for m in moves], "lines": [m[2] for m in moves],
                  "keep": list(keep), "kinds": [kind for kind, _ in timers], "dues": [float(due) for _, due in timers]}

        async def work(conn):
            if (await conn.execute(q.PG_RECORD_MOVE, params)).scalar() != 1:
                raise VersionConflict(game.id)

        await self._transaction(work, mode="read")

    async def set_status(self, game: GameRow, status: str, *, now: float, result: dict | None = None) -> GameRow:
        """A new status (an abandoned game, a closed lobby); ``result`` is stored with it when given."""
        async def work(conn):
            extra = {"result": json.dumps(result, sort_keys=True)} if result is not None else {}
            await self._bump(conn, game, now, status=status, waiting="[]", **extra)
            if status not in OPEN_STATUSES:
                await self._set_timers(conn, game.id, game.version + 1, ())
                await conn.execute(self.sql.write_results, {"game_id": game.id})
                await rate_game(conn, self.side.name, game.id)
        await self._transaction(work)
        if status not in OPEN_STATUSES:
            self.endings += 1
        return replace(game, status=status, version=game.version + 1, updated_at=now, waiting=[],
                       result=result if result is not None else game.result)

    async def _bump(self, conn, game: GameRow, now: float, **columns) -> None:
        """The version-checked update of a game: nothing, and VersionConflict, if someone got there first."""
        done = await conn.execute(q.bump(tuple(columns)),
                                  {**columns, "now": now, "game_id": game.id, "read_version": game.version})
        if done.rowcount != 1:
            raise VersionConflict(game.id)

    async def _replace_seats(self, conn, game_id: int, seats: list[Seat]) -> None:
        await conn.execute(q.DROP_SEATS, {"game_id": game_id})
        if seats:
            await conn.execute(q.NEW_SEAT, [{"game_id": game_id, "position": i, "user_id": s.user_id,
                                             "name": s.name, "is_bot": int(s.is_bot)} for i, s in enumerate(seats)])

    async def _set_timers(self, conn, game_id: int, version: int, timers, keep: tuple[str, ...] = ()) -> None:
        await conn.execute(q.DROP_TIMERS, {"game_id": game_id, "keep": list(keep)})
        if timers:
            await conn.execute(q.NEW_TIMER, [{"game_id": game_id, "kind": kind, "version": version, "due": due}
                                             for kind, due in timers])

    # ----- timers ----------------------------------------------------------------------------------------
    async def pending_timers(self, game_id: int | None = None) -> list[Timer]:
        stmt = q.PENDING if game_id is None else q.PENDING_OF_GAME
        return [Timer(*r) for r in await self._all(stmt, {"game_id": game_id})]

    async def due_timers(self, now: float) -> list[Timer]:
        """The timers due by ``now`` (of this process's shards' games), each still to be claimed."""
        return [Timer(*r) for r in await self._all(self.sql.due_timers, {"now": now})]

    async def next_due(self) -> float | None:
        return (await self._one(self.sql.next_due))[0]

    async def claim_timer(self, timer: Timer, now: float) -> bool:
        """Mark a timer fired; False if it was already fired or replaced, or another process is claiming it
        this moment (PostgreSQL: its row is locked, SKIP LOCKED passes it by). Of several exactly one wins."""
        async def work(conn):
            return (await conn.execute(q.CLAIM_TIMER, {"now": now, "timer_id": timer.id})).first() is not None
        return await self._transaction(work)

    async def add_timer(self, game_id: int, kind: str, version: int, due: float) -> None:
        await self._write(q.NEW_TIMER, {"game_id": game_id, "kind": kind, "version": version, "due": due})

    async def _write(self, stmt, params):
        async def work(conn):
            return await conn.execute(stmt, params)
        return await self._transaction(work)

    async def reset_timers(self, game_id: int, version: int, timers: list[tuple[str, float]],
                           keep: tuple[str, ...] = ("limit",)) -> None:
        """Replace a game's pending timers (but those of a kind in ``keep``) by ``timers`` at ``version``, the
        game itself unchanged (a person's hours changed: issue #34)."""
        async def work(conn):
            await self._set_timers(conn, game_id, version, timers, keep)
        await self._transaction(work)

    # ----- clocks and hours (issue #34) ----------------------------------------------------------------------
    async def clocks(self, game_id: int) -> dict[str, tuple[float, float | None, float]]:
        """A game's clocks: person → (bank, since, credit); empty for an untimed game."""
        return {r.user_id: (r.bank, r.since, r.credit) for r in await self._all(q.CLOCKS, {"game_id": game_id})}

    async def save_clocks(self, game_id: int, clocks: dict[str, tuple[float, float | None, float]]) -> None:
        """Replace a game's clocks (in the caller's batch, with the change they follow)."""
        async def work(conn):
            await conn.execute(q.DROP_CLOCKS, {"game_id": game_id})
            if clocks:
                await conn.execute(q.NEW_CLOCK, [{"game_id": game_id, "user_id": u, "bank": b, "since": s,
                                                  "credit": c} for u, (b, s, c) in clocks.items()])
        await self._transaction(work)

    async def hours_of(self, users: list[str]) -> dict[str, tuple[str, int | None, int | None, float | None]]:
        """People's hours: user → (zone, quiet from, quiet to, away until); those never set are left out."""
        if not users:
            return {}
        return {r.user_id: (r.zone, r.quiet_from, r.quiet_to, r.away_until)
                for r in await self._all(q.HOURS, {"users": list(users)})}

    async def save_hours(self, user_id: str, zone: str, quiet: tuple[int, int] | None,
                         away_until: float | None) -> None:
        await self._write(self.sql.save_hours, {"user_id": user_id, "zone": zone,
                                                "quiet_from": quiet[0] if quiet else None,
                                                "quiet_to": quiet[1] if quiet else None, "away_until": away_until})

    async def finished_spans(self, game: str, limit: int = 500) -> list[tuple[dict, int, float, float]]:
        """The latest finished games of ``game``: (options, players, first move's instant, end), newest first."""
        rows = await self._all(q.FINISHED_SPANS, {"game": game, "limit": limit})
        return [(json.loads(r.options), r.players, r.first, r.updated_at) for r in rows if r.first is not None]

    async def away_spells(self, user_id: str, since: float) -> list[tuple[float, float]]:
        """The away spells ``user_id`` took that end after ``since``: (start, end), oldest first."""
        return [(r.began, r.ended) for r in await self._all(q.AWAY_SPELLS, {"user_id": user_id, "since": since})]

    async def save_away_spells(self, user_id: str, spells: list[tuple[float, float]]) -> None:
        """Store away spells (a spell with the start of one stored is replaced: cut short, or begun anew)."""
        async def work(conn):
            await conn.execute(self.sql.save_away_spell, [{"user_id": user_id, "began": a, "ended": b}
                                                          for a, b in spells])
        if spells:
            await self._transaction(work)

    # ----- the outbox -------------------------------------------------------------------------------------
    async def add_outgoing(self, game_id: int | None, channel: str, payload: dict, now: float) -> None:
        await self._write(q.NEW_OUTGOING, {"game_id": game_id, "channel": channel,
                                           "payload": json.dumps(payload, sort_keys=True), "created_at": now})

    async def outgoing(self, limit: int = 100) -> list[Outgoing]:
        """The oldest notices still to send (of this process's shards: a notice without a game is shard 0)."""
        return [Outgoing(r.id, r.game_id, r.channel, json.loads(r.payload), r.parts_done, r.attempts)
                for r in await self._all(self.sql.outgoing, {"limit": limit})]

    async def outgoing_progress(self, outgoing_id: int, parts_done: int) -> None:
        await self._write(q.OUTGOING_PROGRESS, {"outgoing_id": outgoing_id, "parts_done": parts_done})

    async def outgoing_failed(self, outgoing_id: int) -> int:
        """Count a failed attempt; how many there have been."""
        async def work(conn):
            return (await conn.execute(q.OUTGOING_FAILED, {"outgoing_id": outgoing_id})).scalar() or 0
        return await self._transaction(work)

    async def outgoing_done(self, outgoing_id: int) -> None:
        await self._write(q.OUTGOING_DONE, {"outgoing_id": outgoing_id})

    # ----- server settings, notification preferences, languages --------------------------------------------
    async def settings(self, guild: str | None) -> Settings:
        r = await self._one(q.SETTINGS, {"guild": guild or ""})
        if r is None:
            return Settings()
        return Settings(r.reminder_hours, r.deadline_hours, r.deadline_action, bool(r.threads), bool(r.mention),
                        r.speed, r.league_role)

    async def save_settings(self, guild: str | None, settings: Settings) -> None:
        await self._write(self.sql.save_settings, {
            "guild": guild or "", "reminder_hours": float(settings.reminder_hours),
            "deadline_hours": float(settings.deadline_hours), "deadline_action": settings.deadline_action,
            "threads": int(settings.threads), "mention": int(settings.mention), "speed": settings.speed,
            "league_role": settings.league_role})

    async def locale_of(self, who: str) -> str | None:
        """The remembered language of ``who``: ``guild:<id>`` or ``user:<id>``."""
        r = await self._one(q.LOCALE, {"who": who})
        return r[0] if r else None

    async def remember_locale(self, who: str, locale: str) -> None:
        await self._write(self.sql.save_locale, {"who": who, "locale": locale})

    async def wants_dm(self, user_id: str) -> bool:
        r = await self._one(q.WANTS_DM, {"user_id": user_id})
        return bool(r and r[0])

    async def set_dm(self, user_id: str, on: bool) -> None:
        await self._write(self.sql.save_dm, {"user_id": user_id, "dm": int(on)})

    # ----- analyses (issue #37): derived data, one per game and rules version ------------------------------
    async def analysis(self, game_id: int, rules: int) -> dict | None:
        """A game's stored analysis: engine (its version), moves, data (the judgements, JSON-able), seconds,
        created_at; None when there is none."""
        r = await self._one(q.ANALYSIS, {"game_id": game_id, "rules": rules})
        if r is None:
            return None
        return {"engine": r.engine, "moves": r.moves, "data": json.loads(r.data), "seconds": r.seconds,
                "created_at": r.created_at}

    async def save_analysis(self, game_id: int, rules: int, *, engine: int, moves: int, data: dict,
                            seconds: float, now: float) -> None:
        """Keep a game's analysis (replacing an older one of the same game and rules version)."""
        await self._write(self.sql.save_analysis, {
            "game_id": game_id, "rules": rules, "engine": engine, "moves": moves,
            "data": json.dumps(data, sort_keys=True, separators=(",", ":")), "seconds": float(seconds),
            "created_at": now})

    # ----- health and metrics ------------------------------------------------------------------------------
    async def ping(self) -> None:
        """One trivial statement: returns when the database answers, raises StoreError when it does not."""
        await self._one(q.PING)

    async def gauges(self, now: float, late_before: float) -> dict:
        """Counts for the metrics, in one round trip of indexed reads, over every shard's games: open games,
        timers due by ``now`` and due by ``late_before`` (late) but not fired, notices in the outbox and when
        the oldest of them was queued (None when it is empty)."""
        return dict((await self._one(q.GAUGES, {"now": now, "late_before": late_before}))._mapping)

    # ----- listings: one indexed query each, whatever the number of games ------------------------------------
    @staticmethod
    def _summaries(rows) -> list[dict]:
        return [{"id": r.id, "game": r.game, "guild": r.guild, "channel": r.channel, "status": r.status,
                 "waiting": json.loads(r.waiting),
                 "names": {k: v for k, v in json.loads(r.names).items() if k is not None and k != "null"},
                 "updated_at": r.updated_at} for r in rows]

    async def open_games_of(self, guild: str | None) -> list[dict]:
        """The unfinished games of a server: id, game, channel, status, whom each waits for, seat names."""
        return self._summaries(await self._all(q.OPEN_GAMES_OF, {"guild": guild}))

    async def recent_games(self, guild: str | None, limit: int = 25) -> list[dict]:
        """The started games of a server (running or ended), newest first, as ``open_games_of`` lists them."""
        return self._summaries(await self._all(q.RECENT_OF, {"guild": guild, "limit": limit}))

    async def turns_of(self, user_id: str) -> list[dict]:
        """The running games, in any server, that wait for ``user_id`` now."""
        return self._summaries(await self._all(q.TURNS_OF, {"user": user_id}))

    async def record_of(self, user_id: str, guild: str | None = None) -> list[tuple[str, str, int]]:
        """(game, outcome, count) of a person's ended games, everywhere or in one server."""
        stmt = q.RECORD if guild is None else q.RECORD_IN_GUILD
        return [(r[0], r[1], r[2]) for r in await self._all(stmt, {"user": user_id, "guild": guild})]

    async def board(self, game: str, guild: str | None = None, limit: int = 10) -> list[tuple[str, str, int, int, int]]:
        """The best players of a game: (user id, latest name, wins, finished games, abandoned), most wins first,
        then best win rate, then most played."""
        stmt = q.BOARD if guild is None else q.BOARD_IN_GUILD
        rows = await self._all(stmt, {"game": game, "guild": guild, "limit": limit})
        return [(r[0], r[1], int(r[2]), int(r[3]), int(r[4])) for r in rows]
