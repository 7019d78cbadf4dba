"""A SQLite connection on a thread of its own, awaited from the event loop (the SQLite side of the store).

SQLAlchemy's asyncio mode over aiosqlite crosses threads three or four times per statement (execute, fetch,
each wait on the event loop), and a move is seven statements: with 50 channels queued on the one writer, the
crossings were most of a move's time. Here the store's statements run on the connection's own thread through
SQLAlchemy's synchronous engine (the standard library's sqlite3), and:

- a statement awaited on its own crosses once: it runs and its rows are fetched in one go;
- a whole write transaction (``Store._transaction``'s ``work``) crosses once: BEGIN IMMEDIATE, its
  statements and COMMIT run on the thread in a row. ``work`` is the same coroutine function the PostgreSQL
  side awaits statement by statement; here it is driven to its end on the thread, where each of its awaits on
  this connection completes at once. A ``work`` that waits for anything else is a bug, and fails loudly.

The interface is the part of SQLAlchemy's ``AsyncConnection`` the store uses: ``execute``,
``exec_driver_sql``, ``run_sync``, ``begin``, ``begin_nested``, ``commit``, ``rollback`` and ``info``.
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor


class _Inline:
    """An awaitable whose value is already known: awaiting it never suspends."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __await__(self):
        return self.value
        yield  # unreachable: it makes this a generator, which ``await`` requires


def _buffered(result):
    """The rows fetched now, on the connection's thread (a CursorResult would fetch lazily, later, on
    whichever thread reads it); a statement without rows keeps its rowcount."""
    return result.freeze()() if result.returns_rows else result


class ThreadConnection:
    def __init__(self, engine, name: str):
        self.engine = engine
        self.sync = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self.inline = False         # true while a whole transaction runs on the thread

    async def connect(self) -> ThreadConnection:
        """Open the connection (on its thread: opening a file may wait for the disk)."""
        try:
            self.sync = await self._call(self.engine.connect)
        except BaseException:
            self.thread.shutdown(wait=False)
            raise
        return self

    @property
    def info(self) -> dict:
        return self.sync.info

    async def _call(self, fn, *args):
        if self.inline:
            return fn(*args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.thread, contextvars.copy_context().run, fn, *args)

    def _on_thread(self, fn, *args):
        """``fn(*args)``: run now if a whole transaction is running on the thread, else awaited there."""
        return _Inline(fn(*args)) if self.inline else self._call(fn, *args)

    def execute(self, statement, parameters=None):
        return self._on_thread(lambda: _buffered(self.sync.execute(statement, parameters)))

    def exec_driver_sql(self, statement: str, parameters=None):
        return self._on_thread(lambda: _buffered(self.sync.exec_driver_sql(statement, parameters)))

    def run_sync(self, fn, *args):
        return self._on_thread(fn, self.sync, *args)

    def begin(self):
        return self._on_thread(self.sync.begin)

    def commit(self):
        return self._on_thread(self.sync.commit)

    def rollback(self):
        return self._on_thread(self.sync.rollback)

    def begin_nested(self):
        return _Savepoint(self)

    async def single(self, statement, parameters=None):
        """One statement outside any transaction (no BEGIN: SQLite reads the last commit), with its rows,
        in one crossing."""
        def run():
            try:
                return _buffered(self.sync.execute(statement, parameters))
            finally:
                self.sync.rollback()        # SQLAlchemy's own bookkeeping: SQLite began nothing
        return await self._call(run)

    async def transaction(self, begin, work):
        """``begin()``, then ``await work(self)``, then COMMIT (ROLLBACK on any error) in one crossing."""
        def run():
            begin()
            self.inline = True
            try:
                coroutine = work(self)
                try:
                    coroutine.send(None)
                except StopIteration as done:
                    value = done.value
                else:
                    coroutine.close()
                    raise RuntimeError("a store transaction waited for something other than its connection")
            except BaseException:
                self.inline = False
                try:
                    self.sync.rollback()
                except Exception:   # noqa: BLE001 — the error that ended the transaction is the one to report
                    pass
                raise
            self.inline = False
            self.sync.commit()
            return value
        return await self._call(run)

    async def close(self) -> None:
        """The connection, then the engine's pool; the thread ends when its last call is done."""
        def close():
            try:
                if self.sync is not None:
                    self.sync.close()
            finally:
                self.engine.dispose()
        try:
            await self._call(close)
        finally:
            self.thread.shutdown(wait=False)


class _Savepoint:
    """``async with conn.begin_nested():`` — a SAVEPOINT, released at the end, rolled back on an error."""

    def __init__(self, conn: ThreadConnection):
        self.conn = conn

    async def __aenter__(self):
        self.nested = await self.conn._on_thread(self.conn.sync.begin_nested)
        return self.nested

    async def __aexit__(self, kind, error, tb):
        await self.conn._on_thread(self.nested.rollback if kind is not None else self.nested.commit)
        return False
