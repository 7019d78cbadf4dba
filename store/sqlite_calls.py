"""One call to aiosqlite's thread per statement, under SQLAlchemy's asyncio engine (issue #33).

aiosqlite runs each call on its connection's own thread and wakes the event loop when it is done: a
"crossing". SQLAlchemy's aiosqlite adapter makes three or four of them per statement (open a cursor, execute,
fetch the rows, close the cursor), so a move cost 21 crossings, and each waits its turn on a busy loop while
the writer's lock is held. This wrapper gives SQLAlchemy the connection it expects but runs each statement as
one public aiosqlite call:

- a statement without rows (BEGIN, UPDATE, DELETE) is ``execute_fetchall``, an INSERT ``execute_insert``
  (which also brings back the row id); the rows a statement changed are the difference in the connection's
  ``total_changes`` around it, read while the thread is idle (the store's lock lets one task at a time use a
  connection);
- a statement with rows is ``execute_fetchall`` too, once its column description is known: sqlite3 describes
  a statement's columns by its text alone, so the description of the first run (a plain ``execute``, then
  fetch and close, three crossings) is kept by the text; a ``*`` or any schema change (a migration's DDL)
  goes the long way, since the columns may change;
- ``commit`` and ``rollback`` cross only inside a transaction, where sqlite3 itself would act;
- ``executemany`` of several rows is one call and the close of its cursor, one row the single path;
- inside a transaction the store began (``BEGIN …``), an INSERT or DELETE of known text is queued without
  waiting for it: the thread runs it while the event loop goes on, and the next statement that is waited for
  (an UPDATE, whose changed rows the store checks, a read, a savepoint, the COMMIT) first collects every
  queued one, in order, and raises the first one's error, if any. So a move's log rows and timers ride to
  the thread together and its transaction comes back to the loop three times (BEGIN, the version-checked
  UPDATE, COMMIT), not once per statement: under load each return waits its turn behind other channels' work
  while the writer's lock is held. A queued statement's error rolls the transaction back as any other.

Only aiosqlite's public API; every other attribute is the aiosqlite connection's own.
"""

from __future__ import annotations

import asyncio

DDL = ("CREATE", "ALTER", "DROP")
KEEP = 512                  # descriptions kept; a longer list starts again (IN lists make texts of each length)


class Connection:
    """An aiosqlite connection as SQLAlchemy's adapter uses it, with statements in one crossing."""

    def __init__(self, conn):
        self._real = conn
        self._described: dict[str, tuple | None] = {}
        self._queued: list = []           # (future, coroutine) of statements sent and not yet collected
        self._in_transaction = False      # a BEGIN of ours ran and no COMMIT or ROLLBACK since

    def queue(self, call) -> None:
        """Start ``call`` (a coroutine of one of aiosqlite's calls) up to the point where it has handed its
        work to the connection's thread, and keep it to be collected."""
        try:
            waiting = call.send(None)
        except StopIteration:
            return
        except BaseException:
            call.close()
            raise
        # the future it waits on, as a task would take it: asyncio's protocol marks a future a coroutine
        # yielded as "blocking" until its task takes it; here nobody did, so we do it, and await it later
        waiting._asyncio_future_blocking = False
        self._queued.append((waiting, call))

    async def collect(self, raise_errors: bool = True) -> None:
        """Wait for every queued statement, in order; raise the first error among them."""
        queued, self._queued = self._queued, []
        first = None
        for i, (waiting, call) in enumerate(queued):
            try:
                await waiting
            except asyncio.CancelledError:    # the task was cancelled: the thread still runs what it was
                for _, left in queued[i:]:     # handed, and the rollback that follows is queued behind it
                    left.close()
                raise
            except Exception:  # noqa: BLE001 — the coroutine gets the future's outcome below
                pass
            try:
                call.send(None)
            except StopIteration:
                continue
            except Exception as e:  # noqa: BLE001
                first = first or e
            else:                   # aiosqlite waited twice: not what its calls do; finish it plainly
                call.close()
        if first is not None and raise_errors:
            raise first

    def __getattr__(self, name):
        return getattr(self._real, name)

    def cursor(self) -> Cursor:
        return Cursor(self)

    async def commit(self) -> None:
        """Commit, unless a queued statement failed: then the transaction is rolled back here and its error
        raised, so nothing of it is kept whatever the caller does next."""
        self._in_transaction = False
        try:
            await self.collect()
        except BaseException:
            if self._real.in_transaction:
                await self._real.rollback()
            raise
        if self._real.in_transaction:
            await self._real.commit()

    async def rollback(self) -> None:
        self._in_transaction = False
        await self.collect(raise_errors=False)
        if self._real.in_transaction:
            await self._real.rollback()

    async def close(self) -> None:
        await self.collect(raise_errors=False)
        await self._real.close()


class Cursor:
    """What ``AsyncAdapt_dbapi_cursor`` calls: it executes, then reads ``description`` and ``fetchall()``."""

    arraysize = 1

    def __init__(self, conn: Connection):
        self._conn = conn
        self.description = None
        self.rowcount = -1
        self.lastrowid = None
        self._rows: list = []

    async def __aenter__(self) -> Cursor:
        return self

    async def __aexit__(self, *exc) -> None:
        return None

    async def execute(self, sql: str, parameters=()) -> Cursor:
        conn = self._conn
        real = conn._real
        parameters = () if parameters is None else parameters
        head = sql.lstrip()[:6].upper()
        if (conn._in_transaction and head in ("INSERT", "DELETE") and sql in conn._described
                and conn._described[sql] is None):
            conn.queue(real.execute_fetchall(sql, parameters))        # collected by the next awaited call
            return self
        await conn.collect()
        if head.startswith(("COMMIT", "END", "ROLLBA")):
            conn._in_transaction = False
        if head.startswith(DDL):
            conn._described.clear()           # the columns behind a known text may change
        elif sql in conn._described and "*" not in sql:
            self.description = conn._described[sql]
            before = real.total_changes
            if self.description is None and head == "INSERT":
                row = await real.execute_insert(sql, parameters)
                self.lastrowid = row[0] if row else None
            else:
                self._rows = list(await real.execute_fetchall(sql, parameters))
            self.rowcount = real.total_changes - before if self.description is None else -1
            conn._in_transaction |= head.startswith("BEGIN")
            return self
        cursor = await real.execute(sql, parameters)
        try:
            self.description = cursor.description
            self._rows = list(await cursor.fetchall()) if self.description else []
            self.rowcount, self.lastrowid = cursor.rowcount, cursor.lastrowid
        finally:
            await cursor.close()
        conn._in_transaction |= head.startswith("BEGIN")
        if not head.startswith(DDL):
            if len(conn._described) >= KEEP:
                conn._described.clear()
            conn._described[sql] = self.description
        return self

    async def executemany(self, sql: str, seq_of_parameters) -> Cursor:
        rows = list(seq_of_parameters)
        conn = self._conn
        if len(rows) == 1 or (conn._in_transaction and conn._described.get(sql, ()) is None):
            for row in rows:                  # queued one by one inside a transaction: the thread runs them on
                await self.execute(sql, row)
            return self
        await conn.collect()
        cursor = await conn._real.executemany(sql, rows)
        try:
            self.description, self.rowcount, self.lastrowid = None, cursor.rowcount, cursor.lastrowid
        finally:
            await cursor.close()
        if len(conn._described) < KEEP:
            conn._described[sql] = None       # sqlite3's executemany takes no statement that returns rows
        return self

    async def fetchall(self) -> list:
        rows, self._rows = self._rows, []
        return rows

    async def fetchone(self):
        return self._rows.pop(0) if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list:
        size = self.arraysize if size is None else size
        rows, self._rows = self._rows[:size], self._rows[size:]
        return rows

    async def close(self) -> None:
        self._rows = []

    async def nextset(self) -> None:
        return None

    async def setinputsizes(self, *sizes) -> None:
        return None

    def setoutputsize(self, size, column=None) -> None:
        return None
