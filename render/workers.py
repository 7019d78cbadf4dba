"""Where the game images are drawn: in a pool of worker processes while a bot runs, so drawing never holds
the event loop's interpreter lock (a move is saved and answered while images are drawn elsewhere); in a
thread when no pool was started (tests, the console, scripts).

    rendering.start()          # the bot, at start: IMAGE_WORKERS, else one worker per core but one
    png = await rendering.draw(("wagara", view, names, None), key=("game 7", None), order=12)
    rendering.stop()           # at shutdown

A job is ``(game key, view, names, viewer, locale[, caption])``, the arguments of ``render.render_png``: plain data that
pickles, so a worker needs nothing else. If a worker dies, the pool is started again and the image is drawn
in a thread meanwhile: an image is never lost to a broken pool.

Under more moves than the cores can draw, images wait here, in the bot, not in the pool: only one job per
worker (and one spare, so a worker never idles between jobs) is handed to the pool at a time. A job given a
``key`` (a game and a viewer) that finds an older job of the same key still waiting takes its place: only the
newest picture of a table is drawn, and every caller waiting for that key gets it. So a busy table's queue
never holds more than one picture per viewer, and the wait for an image stays bounded by the number of
tables rather than growing with the number of moves.

Memory: a worker hands the heap its images freed back to the system when it falls idle (``malloc_trim`` on
glibc), and the pool is replaced by a fresh one every ``RECYCLE_AFTER`` jobs, so memory fragmented by many
different images is returned too. (``max_tasks_per_child`` would do that, but on Python
3.11–3.13 it can stop the pool for good: CPython issue 115634.) A bot is idle most of a day: after
``IDLE_STOP_AFTER`` seconds without a job the pool goes to sleep: its workers exit, and so does
multiprocessing's resource tracker, so an idle bot is one process. The next picture starts
them again and costs a worker's start and its cold caches (about half a second instead of ~30 ms), so the
wait is long enough that tables playing a session keep warm workers, and short enough that a bot whose games
move a few times an hour holds only itself between moves.

Workers: ``IMAGE_WORKERS``, else one per core but one (``default_workers``): one on a small machine.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

log = logging.getLogger("teahouse.render")

IDLE_TRIM_AFTER = 0.5         # seconds a worker waits for its next job before handing freed memory back
RECYCLE_AFTER = 2000          # jobs drawn by one pool before a fresh pool replaces it (a few minutes' worth)
IDLE_STOP_AFTER = 600.0       # seconds without a job before the workers exit (a fresh pool starts them again)
SPARE = 1                     # jobs handed to the pool beyond one per worker

_pool: ProcessPoolExecutor | None = None
_size = 0
_given = 0                    # jobs handed to the current pool
_lock = threading.Lock()      # guards the queue below: draw runs on a loop, completions on the pool's thread
_queue: OrderedDict[object, _Slot] = OrderedDict()
_in_pool = 0
_last_done = 0.0              # time.monotonic() when the last job finished
_reaper: threading.Thread | None = None
_asleep = False               # the pool was put to sleep while idle; the next picture starts a fresh one
_waking = threading.Lock()    # a pool going to sleep, or waking
_stopping = threading.Event()
stats = {"drawn": 0, "coalesced": 0, "pools": 0, "idle_stops": 0}
# called with (game key, seconds) when a picture is ready, the wait in the queue included (table/metrics.py);
# plain callables, so a worker that imports this module carries no metrics library
observers: list = []


class _Slot:
    """A job waiting to be drawn and the callers waiting for its picture (several once jobs coalesced)."""

    __slots__ = ("job", "order", "waiters")

    def __init__(self, job: tuple, order: int) -> None:
        self.job, self.order = job, order
        self.waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []


def _trimmer():
    """glibc's malloc_trim, which hands freed heap pages back to the system (free() keeps them for later);
    None elsewhere (musl, macOS), where there is nothing to call."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


_trim = None
_started = 0                  # jobs begun by this worker


def _warm() -> None:
    """Load fonts and game data once per worker, so its first image is as fast as the rest; and yield the
    processor to the bot itself, so saving and answering a move never waits behind drawing."""
    global _trim
    import render  # noqa: F401

    _trim = _trimmer()
    if hasattr(os, "nice"):
        os.nice(5)


def _render_png(*job) -> bytes | None:
    """render.render_png, imported where a picture is drawn: a bot with image workers never loads Pillow and
    the renderers itself (about 9 MB)."""
    from render import render_png

    return render_png(*job)


def _draw_in_worker(key: str, view: dict, names: dict, viewer: str | None, locale: str = "en",
                    caption: str | None = None) -> bytes | None:
    """render_png, then, once the worker has been idle a moment, give back the memory images took: a canvas,
    masks and copies (several MB) are freed after each image, but glibc keeps their pages, so a worker would
    hold the most any image ever needed. Not after every image: trimming costs ~2 ms, and while jobs follow
    one another the next image needs those pages again."""
    global _started
    _started += 1
    try:
        return _render_png(key, view, names, viewer, locale, caption)
    finally:
        if _trim is not None:
            timer = threading.Timer(IDLE_TRIM_AFTER, _trim_when_idle, (_started,))
            timer.daemon = True
            timer.start()


def _trim_when_idle(started: int) -> None:
    if started == _started and _trim is not None:     # no job began since: the worker is idle
        # Pillow keeps up to 8 freed image blocks for the next image (~20 MB after a few large boards);
        # an idle worker needs none of them.
        from PIL import Image

        import render

        render.release()                # and the boards and glyph masks kept for a run of pictures
        Image.core.clear_cache()
        _trim(0)


def default_workers() -> int:
    """``IMAGE_WORKERS`` if set, else one worker per core but one: the bot's own process needs a core to save
    and answer moves, and on a small machine (one or two cores) one worker draws a busy server's pictures
    within their target and saves a worker's memory (~70 MB)."""
    chosen = os.getenv("IMAGE_WORKERS", "").strip()
    if chosen:
        try:
            return max(1, int(chosen))
        except ValueError:
            log.warning("IMAGE_WORKERS must be a number of processes, not %r; using the default", chosen)
    return max(1, (os.cpu_count() or 1) - 1)


def start(processes: int | None = None) -> None:
    global _size, _asleep, _reaper
    if _pool is not None:
        return
    _size = processes or default_workers()
    _asleep = False
    _new_pool()
    if _reaper is None or not _reaper.is_alive():
        _stopping.clear()
        _reaper = threading.Thread(target=_reap, name="image-pool-reaper", daemon=True)
        _reaper.start()


def _new_pool() -> None:
    global _pool, _given
    # spawn: never fork a running event loop. (A forkserver starts workers faster, but it is a process of
    # ~13 MB more, and a sleeping pool's next picture would start it again anyway.)
    _pool = ProcessPoolExecutor(max_workers=_size, mp_context=multiprocessing.get_context("spawn"),
                                initializer=_warm)
    _given = 0
    stats["pools"] += 1


def _reap() -> None:
    """Put a pool idle for IDLE_STOP_AFTER seconds to sleep (see ``_sleep``)."""
    while not _stopping.wait(min(IDLE_STOP_AFTER, 5.0)):
        with _lock:
            pool = _pool
            idle = (pool is not None and _in_pool == 0 and not _queue
                    and time.monotonic() - _last_done >= IDLE_STOP_AFTER)
        if idle and getattr(pool, "_processes", None):
            _sleep(pool)


def _sleep(pool: ProcessPoolExecutor) -> None:
    """An idle pool's workers exit, and so does multiprocessing's resource tracker (~12 MB): a quiet bot is
    one process. The next picture wakes them (``_wake``), in about half a
    second."""
    global _pool, _asleep
    with _waking:
        with _lock:
            if _pool is not pool or _in_pool or _queue:
                return
            _pool, _asleep = None, True
        pool.shutdown(wait=True)
        _stop_helpers()
        stats["idle_stops"] += 1


def _stop_helpers() -> None:
    """multiprocessing's resource tracker (and a forkserver, if anything started one), which it starts again
    when it next needs them. (Their ``_stop`` is what CPython's own tests call; where it is missing they
    simply stay.)"""
    from multiprocessing import forkserver, resource_tracker

    for helper in (getattr(forkserver, "_forkserver", None), getattr(resource_tracker, "_resource_tracker", None)):
        stop_ = getattr(helper, "_stop", None)
        if stop_ is not None:
            try:
                stop_()
            except Exception:   # noqa: BLE001 — a helper that will not stop costs memory, never a picture
                log.warning("could not stop a multiprocessing helper process", exc_info=True)


def _wake() -> None:
    """A picture for a sleeping pool: a fresh one (its workers start with the picture)."""
    global _asleep
    with _waking:
        if _asleep and _pool is None and not _stopping.is_set():
            _new_pool()
            _asleep = False


def stop(timeout: float | None = None) -> None:
    """Stop the workers once their pictures are drawn; with ``timeout``, those still drawing after that many
    seconds are killed (a stuck picture never holds up a shutdown)."""
    global _pool, _asleep
    _stopping.set()
    _asleep = False
    if _pool is not None:
        pool, _pool = _pool, None
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=timeout is None, cancel_futures=True)
        if timeout is not None:
            end = time.monotonic() + timeout
            for worker in workers:
                worker.join(max(0.0, end - time.monotonic()))
            _kill(workers)
    with _lock:
        waiting = list(_queue.values())
        _queue.clear()
    for slot in waiting:
        for loop, fut in slot.waiters:
            _tell(loop, _settle, fut, None, asyncio.CancelledError())


def _kill(workers) -> None:
    for worker in workers:
        if worker.is_alive():
            log.warning("an image worker was still drawing at shutdown; it is stopped")
            worker.kill()


def kill() -> None:
    """Kill the workers at once (the process is about to end without waiting for anything)."""
    pool = _pool
    _kill(list((getattr(pool, "_processes", None) or {}).values()) if pool else [])


def worker_pids() -> list[int]:
    """The image workers' process ids (for measuring their memory)."""
    pool = _pool
    return [p.pid for p in (getattr(pool, "_processes", None) or {}).values()] if pool else []


def running() -> bool:
    """Pictures go to worker processes (a pool that may be asleep, see ``_sleep``)."""
    return _pool is not None or _asleep


def helper_pids() -> list[int]:
    """multiprocessing's forkserver (if any) and resource tracker, while they run (they exit with a sleeping
    pool)."""
    from multiprocessing import forkserver, resource_tracker

    pids = [getattr(forkserver._forkserver, "_forkserver_pid", None),
            getattr(resource_tracker._resource_tracker, "_pid", None)]
    return [p for p in pids if p]


def waiting() -> int:
    """Jobs waiting in the bot for a worker (for measurements)."""
    return len(_queue)


def drawing() -> int:
    """Jobs handed to the pool and not finished yet."""
    return _in_pool


async def draw(job: tuple, key: object = None, order: int = 0) -> bytes | None:
    """The PNG for a job, drawn in the pool (or a thread without one). ``key`` names what the picture shows
    (a game and a viewer) and ``order`` how recent it is (the game's version): a newer job of the same key
    replaces one still waiting, and both callers get the newer picture."""
    began = time.perf_counter()
    png = await _draw(job, key, order)
    for observe in observers:
        observe(job[0], time.perf_counter() - began)
    return png


async def _draw(job: tuple, key: object, order: int) -> bytes | None:
    if _asleep:
        await asyncio.to_thread(_wake)
    if _pool is None:
        return await asyncio.to_thread(_render_png, *job)
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    with _lock:
        slot = _queue.get(key) if key is not None else None
        if slot is None:
            slot = _queue[key if key is not None else object()] = _Slot(job, order)
        else:
            stats["coalesced"] += 1
            if order >= slot.order:        # keep the newest; it keeps the older job's place in the queue
                slot.job, slot.order = job, order
        slot.waiters.append((loop, fut))
    _pump()
    if _asleep:          # the pool went to sleep as the job came: wake it for the job
        await asyncio.to_thread(_wake)
        _pump()
    return await fut


def _pump() -> None:
    """Hand waiting jobs to the pool while it has a free worker (or a spare place)."""
    global _in_pool, _given, _pool
    while True:
        with _lock:
            pool = _pool
            if pool is None or not _queue or _in_pool >= _size + SPARE:
                return
            key, slot = _queue.popitem(last=False)
            _in_pool += 1
            _given += 1
            recycle = _given >= RECYCLE_AFTER
        try:
            future = pool.submit(_draw_in_worker, *slot.job)
        except RuntimeError:          # the pool was replaced (recycled) or stopped meanwhile
            with _lock:
                if _pool is not None and _pool is not pool and key not in _queue:
                    _in_pool -= 1
                    _queue[key] = slot                       # first in line for the new pool
                    _queue.move_to_end(key, last=False)
                    continue
            future = Future()
            future.set_exception(BrokenProcessPool("the image pool was stopped"))
        except BrokenProcessPool as e:
            future = Future()
            future.set_exception(e)
        future.add_done_callback(lambda f, slot=slot, pool=pool: _finished(f, slot, pool))
        if recycle:
            _replace(pool)


def _replace(pool: ProcessPoolExecutor, *, broken: bool = False) -> None:
    """A fresh pool for the next jobs. A pool replaced after its jobs (recycled) draws what it was given,
    then its workers exit; a broken one has nothing left to draw (its jobs are redrawn in a thread)."""
    global _pool
    with _lock:
        if _pool is not pool:
            return
        _pool = None
    start(_size)
    pool.shutdown(wait=False, cancel_futures=broken)


def _finished(future: Future, slot: _Slot, pool: ProcessPoolExecutor) -> None:
    """On the pool's thread: the job is done; give its picture to its callers and the next job to the pool."""
    global _in_pool, _last_done
    with _lock:
        _in_pool -= 1
        _last_done = time.monotonic()
        stats["drawn"] += 1
    error = future.exception() if not future.cancelled() else asyncio.CancelledError()
    if isinstance(error, BrokenProcessPool):
        log.warning("an image worker died; starting the pool again")
        _replace(pool, broken=True)
        for loop, fut in slot.waiters:      # this picture is drawn in a thread, as without a pool
            _tell(loop, _redraw, fut, slot.job)
    else:
        data = None if error is not None else future.result()
        for loop, fut in slot.waiters:
            _tell(loop, _settle, fut, data, error)
    _pump()


def _tell(loop: asyncio.AbstractEventLoop, callback, *args) -> None:
    """Run ``callback`` on the caller's loop, unless that loop has ended (the caller is gone)."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:
        pass


def _settle(fut: asyncio.Future, data, error) -> None:
    if fut.done():                       # the caller gave up waiting (cancelled)
        return
    if error is not None:
        fut.set_exception(error)
    else:
        fut.set_result(data)


def _redraw(fut: asyncio.Future, job: tuple) -> None:
    if fut.done():
        return
    task = asyncio.ensure_future(asyncio.to_thread(_render_png, *job))
    task.add_done_callback(lambda t: fut.cancel() if t.cancelled()
                           else _settle(fut, None if t.exception() else t.result(), t.exception()))
