"""Where the game images are drawn: in worker processes while a bot runs, so drawing never holds the event
loop's interpreter lock (a move is saved and answered while images are drawn elsewhere); in a thread when no
workers were started (tests, the console, scripts).

    rendering.start()          # the bot, at start: IMAGE_WORKERS at most, IMAGE_THREADS each
    png = await rendering.draw(("wagara", view, names, None), key=("game 7", None), order=12)
    rendering.stop()           # at shutdown

A job is ``(game key, view, names, viewer, locale[, caption])``, the arguments of ``render.render_png``: plain
data that pickles, so a worker needs nothing else. A worker is a plain subprocess (``python -c _BOOT``: a
fresh interpreter that imports the renderers, never the bot's script, and no multiprocessing machinery, so
no resource tracker beside it); jobs go down its standard input and pictures come back on its standard
output, each a length and a pickle, read by a thread of the bot. If a worker dies, the pictures it was
drawing are drawn in a thread of the bot and the next ones go to a new worker: an image is never lost.

Under more moves than the workers can draw, images wait here, in the bot: a worker is handed one job per
drawing thread and no more, so a picture goes to whichever worker frees first (one queue for all: a job
handed ahead to a busy worker waited there while the other stood idle). A job given a ``key`` (a game and a viewer)
that finds an older job of the same key still waiting takes its place: only the newest picture of a table is
drawn, and every caller waiting for that key gets it. So a busy table's queue never holds more than one
picture per viewer, and the wait for an image stays bounded by the number of tables rather than growing
with the number of moves.

How many: one worker runs while the bot draws anything; when pictures wait behind every running worker,
another starts (up to ``IMAGE_WORKERS``: one per core but one, and two on a 2-core machine), takes jobs once
it has loaded the renderers, and leaves after ``EXTRA_IDLE_STOP_AFTER`` seconds without one. So a quiet
server pays for one worker and a busy one draws on two cores. ``IMAGE_THREADS`` (default 1) draws on more
threads in each worker: the PNG encoder runs outside the interpreter lock, but the drawing does not, and two
pictures in flight doubled a worker's memory at its peak (docs/performance.md).

Memory: a worker imports Pillow, the renderers and little else (no asyncio: ~26 MB at start). It allocates
from one malloc arena (``worker_env``), so that when it falls idle it hands back what its images freed (the
heap's free pages: ``malloc_trim`` on glibc, which gives back the top of that arena too), the
boards and glyph masks kept for a run of pictures, and the font pages it mapped (once per font size); and
it is replaced by a fresh one every ``RECYCLE_AFTER`` jobs, so memory fragmented by many different images is
returned too. A bot is idle most of a day: after ``IDLE_STOP_AFTER`` seconds without a job the workers
exit, so an idle bot is one process. The next picture starts one again and costs its start and cold caches
(about half a second instead of ~30 ms), so the wait is long enough that tables playing a session keep a
warm worker, and short enough that a bot whose games move a few times an hour holds only itself.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import logging
import os
import pickle
import queue
import signal
import struct
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

from .timeslice import libc, quick_threads, set_slice

if TYPE_CHECKING:
    import asyncio

# asyncio and subprocess are imported where the bot uses them: a worker imports this module too, and asyncio
# brings ssl, sockets and more (~5 MB a worker)

log = logging.getLogger("teahouse.render")

IDLE_TRIM_AFTER = 0.5         # seconds a worker waits for its next job before handing freed memory back
RECYCLE_AFTER = 2000          # jobs drawn by one worker before a fresh worker replaces it (a few minutes' worth)
IDLE_STOP_AFTER = 600.0       # seconds without a job before the workers exit (the next picture starts one again)
EXTRA_IDLE_STOP_AFTER = 60.0  # the same for a worker beyond the first (started while pictures queued up)
SPARE = 0                     # jobs handed to a worker beyond one per drawing thread (see _capacity)

ROOT = str(Path(__file__).resolve().parent.parent)
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from render.workers import _serve; _serve(int(sys.argv[2]))"
_HEAD = struct.Struct("!I")
READY = -1                    # the id of a worker's first message: it has loaded the renderers

_size = 0                     # worker processes at most
_threads = 0                  # drawing threads in each worker
_running = False
_workers: list[_Worker] = []
_lock = threading.Lock()      # guards the queue and the workers' jobs: draw runs on a loop, results on readers
_queue: OrderedDict[object, _Slot] = OrderedDict()
_in_pool = 0                  # jobs handed to workers and not finished yet
_last_done = 0.0              # time.monotonic() when the last job finished
_ids = itertools.count()
_reaper: threading.Thread | None = None
_stopping = threading.Event()
stats = {"drawn": 0, "coalesced": 0, "pools": 0, "idle_stops": 0}   # pools: worker processes started
# called with (game key, seconds) when a picture is ready, the wait in the queue included (table/metrics.py);
# plain callables, so a worker that imports this module carries no metrics library
observers: list = []


class _Slot:
    """A job waiting to be drawn and the callers waiting for its picture (several once jobs coalesced)."""

    __slots__ = ("job", "order", "waiters")

    def __init__(self, job: tuple, order: int) -> None:
        self.job, self.order = job, order
        self.waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []


# ----- the frames between the bot and a worker: a length, then a pickle ---------------------------------------
def _send(stream, message) -> None:
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    stream.write(_HEAD.pack(len(data)) + data)
    stream.flush()


def _receive(stream):
    """The next message, or None at the end of the stream (the other side closed it, or died)."""
    head = stream.read(_HEAD.size)
    if len(head) < _HEAD.size:
        return None
    data = stream.read(_HEAD.unpack(head)[0])
    return pickle.loads(data) if data is not None else None


# ----- in a worker process ------------------------------------------------------------------------------------
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
_active = 0                   # jobs being drawn by this worker now
_counts = threading.Lock()


def _warm() -> None:
    """Load fonts and game data once per worker, so its first image is as fast as the rest; and yield the
    processor to the bot itself, so saving and answering a move never waits behind drawing."""
    global _trim
    import render

    render.renderers()        # every renderer, Pillow and the fonts

    _trim = _trimmer()
    set_slice(0)              # the kernel's default slice, not the bot's short one it inherited (quick_threads)
    if hasattr(os, "nice"):
        os.nice(5)


def _serve(threads: int) -> None:
    """A worker's life: jobs come on standard input, pictures go out on standard output (each in a frame:
    ``(id, job)`` in, ``(id, ok, png or exception)`` out), drawn by ``threads`` threads; it ends when the bot
    closes its input (or dies), once the jobs it was given are drawn."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the bot's to handle; it closes our input
    out = os.fdopen(os.dup(1), "wb")                  # the frames' own stream; a stray print goes to stderr
    os.dup2(2, 1)
    inp = sys.stdin.buffer
    _warm()
    jobs: queue.SimpleQueue = queue.SimpleQueue()
    writing = threading.Lock()
    try:
        _send(out, (READY, True, None))               # warm: the bot may hand it jobs without waiting longer
    except OSError:                                   # the bot ended while this worker was starting
        return

    def work() -> None:
        while (item := jobs.get()) is not None:
            ident, job = item
            try:
                answer = (ident, True, _draw_in_worker(*job))
            except Exception as e:  # noqa: BLE001 — the caller gets the error, the worker goes on
                try:
                    pickle.dumps(e)
                except Exception:  # noqa: BLE001
                    e = RuntimeError(repr(e))
                answer = (ident, False, e)
            with writing:
                try:
                    _send(out, answer)
                except OSError:          # the bot is gone
                    return

    drawers = [threading.Thread(target=work, name=f"draw-{i}") for i in range(max(1, threads))]
    for t in drawers:
        t.start()
    while (item := _receive(inp)) is not None:
        jobs.put(item)
    for _ in drawers:
        jobs.put(None)
    for t in drawers:
        t.join()


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
    global _started, _active
    with _counts:
        _started += 1
        _active += 1
    try:
        return _render_png(key, view, names, viewer, locale, caption)
    finally:
        with _counts:
            _active -= 1
            started = _started
        if _trim is not None:
            timer = threading.Timer(IDLE_TRIM_AFTER, _trim_when_idle, (started,))
            timer.daemon = True
            timer.start()


def _trim_when_idle(started: int) -> None:
    with _counts:
        idle = started == _started and _active == 0       # no job began since, none is being drawn
    if idle and _trim is not None:
        # image blocks Pillow kept, if PILLOW_BLOCKS_MAX asked it to; an idle worker needs none of them
        from PIL import Image

        import render

        render.release()                # and the boards and glyph masks kept for a run of pictures
        Image.core.clear_cache()
        _trim(0)
        _unmap_fonts()


MADV_DONTNEED = 4


def _unmap_fonts() -> None:
    """Let go of the font pages an idle worker holds. FreeType maps the font file once per font size (36 sizes
    of two files: ~11 MB resident); the mappings are read-only copies of the file, so dropping their pages
    loses nothing: the next picture reads them back from the page cache (minor faults, well under a
    millisecond)."""
    from render.common import FONT_DIR

    lib = libc()
    if lib is None:
        return
    folder = str(FONT_DIR)
    try:
        with open("/proc/self/maps") as maps:
            lines = maps.readlines()
    except OSError:
        return
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[1] == "r--p" and fields[5].strip().startswith(folder):
            low, high = (int(x, 16) for x in fields[0].split("-"))
            lib.madvise(ctypes.c_void_p(low), ctypes.c_size_t(high - low), MADV_DONTNEED)


# ----- in the bot ---------------------------------------------------------------------------------------------
# One malloc arena in a worker (glibc). A drawing thread otherwise gets an arena of its own, and malloc_trim gives
# back only the free chunks inside such an arena, never the free space at its top, which glibc lets grow to twice
# its mmap threshold (and the threshold rises to the largest picture buffer freed); so an idle worker kept 0–16 MB
# more from one run to the next, whatever its last picture was. In the main arena, malloc_trim returns the
# top as well. A reproduction (one worker's drawing thread, 1,000 pictures of 50 tables, then idle): 33–47 MB
# after the idle trim in five runs with an arena per thread, 32.4–32.7 MB in five with one (docs/performance.md).
# One drawing thread a worker (the default) has nobody to share the arena's lock with but the reader of its jobs.
WORKER_ARENAS = "1"


def worker_env() -> dict:
    """The environment a worker starts with: the bot's, and one malloc arena unless the host set their own."""
    env = dict(os.environ)
    env.setdefault("MALLOC_ARENA_MAX", WORKER_ARENAS)
    return env


class _Worker:
    """A worker process (``_serve``), the jobs handed to it, and the thread that reads its pictures back."""

    def __init__(self, threads: int) -> None:
        import subprocess

        # a fresh interpreter, never a fork of a running event loop; it imports render, not the bot's script
        self.proc = subprocess.Popen([sys.executable, "-c", _BOOT, ROOT, str(threads)], env=worker_env(),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True)
        self.jobs: dict[int, _Slot] = {}
        self.given = 0
        self.closing = False          # its input is closed (or about to be): it takes no more jobs
        self.ready = False            # it has loaded the renderers (its first message)
        self.idle_since = time.monotonic()
        self._writing = threading.Lock()
        self.reader = threading.Thread(target=self._read, name="image-worker-reader", daemon=True)
        self.reader.start()

    def send(self, ident: int, job: tuple, last: bool) -> None:
        with self._writing:
            try:
                _send(self.proc.stdin, (ident, job))
                if last:
                    self.proc.stdin.close()
            except (OSError, ValueError):    # it died (its reader hands the job back) or its input closed
                self.closing = True

    def close(self) -> None:
        """No more jobs: it draws those it has, then exits."""
        self.closing = True
        with self._writing:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def _read(self) -> None:
        import asyncio

        global _in_pool, _last_done
        while True:
            try:
                message = _receive(self.proc.stdout)
            except Exception:  # noqa: BLE001 — a frame cut short by a dying worker
                message = None
            if message is None:
                break
            ident, ok, payload = message
            if ident == READY:
                self.idle_since = time.monotonic()
                self.ready = True
                _pump()
                continue
            with _lock:
                slot = self.jobs.pop(ident, None)
                _in_pool -= slot is not None
                _last_done = time.monotonic()
                if not self.jobs:
                    self.idle_since = _last_done
                stats["drawn"] += 1
            if slot is not None:
                for loop, fut in slot.waiters:
                    _tell(loop, _settle, fut, payload if ok else None, None if ok else payload)
            _pump()
        self.proc.stdout.close()
        self.proc.wait()
        with _lock:
            lost = list(self.jobs.values())
            self.jobs.clear()
            _in_pool -= len(lost)
            if self in _workers:
                _workers.remove(self)
        if lost and not _stopping.is_set():
            log.warning("an image worker died; its pictures are drawn in a thread, the next ones by a new worker")
            for slot in lost:
                for loop, fut in slot.waiters:
                    _tell(loop, _redraw, fut, slot.job)
        else:
            for slot in lost:
                for loop, fut in slot.waiters:
                    _tell(loop, _settle, fut, None, asyncio.CancelledError())
        _pump()


def default_workers() -> int:
    """``IMAGE_WORKERS`` if set, else one per core but one, and two on a 2-core machine: the most worker
    processes drawing at once. Only the first runs all the time; the others start while pictures queue up
    (see ``_pump``)."""
    cores = os.cpu_count() or 1
    return _setting("IMAGE_WORKERS", max(min(2, cores), cores - 1))


def default_threads() -> int:
    """``IMAGE_THREADS`` if set, else 1: the threads each worker draws on. A second thread overlaps one
    picture's PNG encoding (outside the interpreter lock) with the drawing of the next, but the drawing
    itself holds the lock, and two pictures in flight doubled a busy worker's memory; a second process
    draws truly in parallel."""
    return _setting("IMAGE_THREADS", 1)


def _setting(name: str, default: int) -> int:
    chosen = os.getenv(name, "").strip()
    if chosen:
        try:
            return max(1, int(chosen))
        except ValueError:
            log.warning("%s must be a number, not %r; using the default", name, chosen)
    return default


def start(processes: int | None = None, threads: int | None = None) -> None:
    """Draw pictures in worker processes from now on: at most ``processes`` of them (``IMAGE_WORKERS``, else one
    per core but one), each drawing on ``threads`` threads (``IMAGE_THREADS``, else 2). One starts now; more
    start only while pictures queue up for all those running."""
    global _size, _threads, _running, _reaper
    if _running:
        return
    _size = processes or default_workers()
    _threads = threads or default_threads()
    _stopping.clear()
    _running = True
    quick_threads()           # the bot's threads take the core from a drawing worker at once (render/timeslice.py)
    with _lock:
        if not any(not w.closing for w in _workers):
            _spawn()
    if _reaper is None or not _reaper.is_alive():
        _reaper = threading.Thread(target=_reap, name="image-pool-reaper", daemon=True)
        _reaper.start()


def _spawn() -> _Worker:
    """A new worker (with ``_lock`` held)."""
    worker = _Worker(_threads)
    _workers.append(worker)
    stats["pools"] += 1
    return worker


def _reap() -> None:
    """Let idle workers go: every one after IDLE_STOP_AFTER seconds without a picture (a quiet bot is one
    process), one beyond the first after EXTRA_IDLE_STOP_AFTER. And once pictures stop for a moment, the bot's
    own heap goes back to the system too (the views and pictures that passed through it: a few MB)."""
    trim, trimmed = _trimmer(), 0.0
    while not _stopping.wait(min(IDLE_STOP_AFTER, EXTRA_IDLE_STOP_AFTER, 1.0)):
        now = time.monotonic()
        if trim is not None and trimmed < _last_done and now - _last_done >= IDLE_TRIM_AFTER and not _queue \
                and _in_pool == 0:
            trim(0)                    # this thread, not the event loop's: ctypes lets the interpreter go
            trimmed = now
        with _lock:
            live = [w for w in _workers if not w.closing]
            if not live:
                continue
            if not _queue and _in_pool == 0 and now - _last_done >= IDLE_STOP_AFTER:
                leaving = live
            else:
                leaving = [w for w in live[1:] if w.ready and not w.jobs
                           and now - w.idle_since >= EXTRA_IDLE_STOP_AFTER][:1]
            for w in leaving:
                w.closing = True
        for w in leaving:
            w.close()
        for w in leaving:
            w.reader.join(10)
        if leaving and len(leaving) == len(live):
            stats["idle_stops"] += 1


def stop(timeout: float | None = None) -> None:
    """Stop the workers once their pictures are drawn; with ``timeout``, those still drawing after that many
    seconds are killed (a stuck picture never holds up a shutdown)."""
    import asyncio
    import subprocess

    global _running
    _stopping.set()
    _running = False
    with _lock:
        workers = list(_workers)
        waiting = list(_queue.values())
        _queue.clear()
    for slot in waiting:
        for loop, fut in slot.waiters:
            _tell(loop, _settle, fut, None, asyncio.CancelledError())
    for worker in workers:
        worker.close()
    end = None if timeout is None else time.monotonic() + timeout
    for worker in workers:
        try:
            worker.proc.wait(None if end is None else max(0.0, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("an image worker was still drawing at shutdown; it is stopped")
            worker.proc.kill()
    for worker in workers:
        worker.reader.join(5)


def kill() -> None:
    """Kill the workers at once (the process is about to end without waiting for anything)."""
    for worker in list(_workers):
        if worker.proc.poll() is None:
            log.warning("an image worker was still drawing at shutdown; it is stopped")
            worker.proc.kill()


def worker_pids() -> list[int]:
    """The image workers' process ids (for measuring their memory)."""
    return [w.proc.pid for w in list(_workers) if w.proc.returncode is None]


def running() -> bool:
    """Pictures go to worker processes (started with the next picture if none is running now)."""
    return _running


def helper_pids() -> list[int]:
    """Processes started beside the workers: none (the workers are plain subprocesses; multiprocessing's
    forkserver and resource tracker are not used)."""
    return []


def waiting() -> int:
    """Jobs waiting in the bot for a worker (for measurements)."""
    return len(_queue)


def drawing() -> int:
    """Jobs handed to the workers and not finished yet."""
    return _in_pool


async def draw(job: tuple, key: object = None, order: int = 0) -> bytes | None:
    """The PNG for a job, drawn in a worker (or a thread without them). ``key`` names what the picture shows
    (a game and a viewer) and ``order`` how recent it is (the game's version): a newer job of the same key
    replaces one still waiting, and both callers get the newer picture."""
    return await begin(job, key, order)


def begin(job: tuple, key: object = None, order: int = 0) -> asyncio.Future:
    """As ``draw``, but the job is handed over before this returns (a worker may start on it at once), and
    what comes back is a future of the PNG: for a caller that has more to do meanwhile (a reply hands all its
    pictures over before it waits for any). Cancelling the future drops the caller's wait, not the job. Called
    on the event loop."""
    import asyncio

    began = time.perf_counter()
    if not _running:
        fut = asyncio.ensure_future(asyncio.to_thread(_render_png, *job))
    else:
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
    if observers:
        def observed(done: asyncio.Future) -> None:
            if not done.cancelled() and done.exception() is None:
                for observe in observers:
                    observe(job[0], time.perf_counter() - began)
        fut.add_done_callback(observed)
    return fut


def _capacity(worker: _Worker) -> int:
    """Jobs a worker is handed at most: one per drawing thread, and SPARE more (jobs beyond that wait here, in
    the bot, where a newer picture of the same table can replace them). A spare job saved the worker a round
    trip (~0.3 ms) between pictures, but it waited behind a whole picture while another worker might free
    first: with two workers, no spare cut the image-ready p95 from 70 / 62 to 63 / 56 ms (docs/performance.md)."""
    return _threads + SPARE


def _pump() -> None:
    """Hand waiting jobs to the workers while one has a free thread. When pictures wait
    and every worker is full, start another, up to ``_size``: it takes jobs once it has loaded the renderers
    (a few tenths of a second), so meanwhile they go to whichever worker frees first. A worker still starting
    takes jobs only when no other is running (the first picture of a sleeping bot)."""
    global _in_pool
    while True:
        with _lock:
            if not _running or not _queue:
                return
            live = [w for w in _workers if not w.closing]
            if not live:
                live = [_spawn()]
            anyone_ready = any(w.ready for w in live)
            usable = [w for w in live if (w.ready or not anyone_ready) and len(w.jobs) < _capacity(w)]
            if not usable:
                if len(live) < _size and all(w.ready for w in live):
                    _spawn()               # pictures queue up behind busy workers: one more, for a while
                return
            worker = min(usable, key=lambda w: len(w.jobs))
            key, slot = _queue.popitem(last=False)
            ident = next(_ids)
            worker.jobs[ident] = slot
            worker.given += 1
            _in_pool += 1
            last = worker.given >= RECYCLE_AFTER
            if last:                       # recycled: it draws what it was given, then exits
                worker.closing = True
        worker.send(ident, slot.job, last)


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
    import asyncio

    if fut.done():
        return
    task = asyncio.ensure_future(asyncio.to_thread(_render_png, *job))
    task.add_done_callback(lambda t: fut.cancel() if t.cancelled()
                           else _settle(fut, None if t.exception() else t.result(), t.exception()))
