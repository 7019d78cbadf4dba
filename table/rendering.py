"""Where the game images are drawn: in a pool of worker processes while a bot runs, so drawing never holds
the event loop's interpreter lock (a move is saved and answered while images are drawn elsewhere); in a
thread when no pool was started (tests, the console, scripts).

    rendering.start()          # the bot, at start: one worker per core
    png = await rendering.draw(("wagara", view, names, None))
    rendering.stop()           # at shutdown

A job is ``(game key, view, names, viewer)``, the arguments of ``render.render_png``: plain data that
pickles, so a worker needs nothing else. If a worker dies, the pool is started again and the image is drawn
in a thread meanwhile: an image is never lost to a broken pool.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from render import render_png

log = logging.getLogger("teahouse.render")

_pool: ProcessPoolExecutor | None = None
_size = 0


def _warm() -> None:
    """Load fonts and game data once per worker, so its first image is as fast as the rest; and yield the
    processor to the bot itself, so saving and answering a move never waits behind drawing."""
    import render  # noqa: F401

    if hasattr(os, "nice"):
        os.nice(5)


def start(processes: int | None = None) -> None:
    global _pool, _size
    if _pool is not None:
        return
    _size = processes or os.cpu_count() or 1
    method = "forkserver" if sys.platform.startswith("linux") else "spawn"   # never fork a running event loop
    _pool = ProcessPoolExecutor(max_workers=_size, mp_context=multiprocessing.get_context(method),
                                initializer=_warm)


def stop() -> None:
    global _pool
    if _pool is not None:
        pool, _pool = _pool, None
        pool.shutdown(wait=True, cancel_futures=True)


def worker_pids() -> list[int]:
    """The image workers' process ids (for measuring their memory)."""
    pool = _pool
    return [p.pid for p in (getattr(pool, "_processes", None) or {}).values()] if pool else []


def running() -> bool:
    return _pool is not None


async def draw(job: tuple) -> bytes | None:
    """The PNG for a job, drawn in the pool (or a thread without one)."""
    global _pool
    pool = _pool
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, render_png, *job)
        except BrokenProcessPool:
            log.warning("an image worker died; starting the pool again")
            if _pool is pool:
                _pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                start(_size)
    return await asyncio.to_thread(render_png, *job)
