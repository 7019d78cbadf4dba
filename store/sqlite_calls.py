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
- ``executemany`` of several rows is one call and the close of its cursor, one row the single path.

Each statement is still waited for before the next is sent. Sending a transaction's statements ahead was
tried and left out: a full disk or an I/O error can make SQLite roll the whole transaction back by itself, and
the statements already sent would then run outside it, each committed on its own (a log row without its move).

Only aiosqlite's public API; every other attribute is the aiosqlite connection's own.
"""

from __future__ import annotations

DDL = ("CREATE", "ALTER", "DROP")
KEEP = 512                  # descriptions kept; a longer list starts again (IN lists make texts of each length)


class Connection:
    """An aiosqlite connection as SQLAlchemy's adapter uses it, with statements in one crossing."""

    def __init__(self, conn):
        self._real = conn
        self._described: dict[str, tuple | None] = {}

    def __getattr__(self, name):
        return getattr(self._real, name)

    def cursor(self) -> Cursor:
        return Cursor(self)

    async def commit(self) -> None:
        if self._real.in_transaction:
            await self._real.commit()

    async def rollback(self) -> None:
        if self._real.in_transaction:
            await self._real.rollback()

    async def close(self) -> None:
        await self._real.close()

    def known(self, sql: str, description) -> None:
        if len(self._described) >= KEEP:
            self._described.clear()
        self._described[sql] = description


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
            return self
        cursor = await real.execute(sql, parameters)
        try:
            self.description = cursor.description
            self._rows = list(await cursor.fetchall()) if self.description else []
            self.rowcount, self.lastrowid = cursor.rowcount, cursor.lastrowid
        finally:
            await cursor.close()
        if not head.startswith(DDL):
            conn.known(sql, self.description)
        return self

    async def executemany(self, sql: str, seq_of_parameters) -> Cursor:
        rows = list(seq_of_parameters)
        if len(rows) == 1:
            return await self.execute(sql, rows[0])
        cursor = await self._conn._real.executemany(sql, rows)
        try:
            self.description, self.rowcount, self.lastrowid = None, cursor.rowcount, cursor.lastrowid
        finally:
            await cursor.close()
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
