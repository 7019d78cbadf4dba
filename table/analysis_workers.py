"""The analysis's worker processes (issue #37): the lowest priority there is, death with the bot, and the pause
that stops them (SIGSTOP) while play is in flight in the bot and continues them (SIGCONT) once it is calm.
table/analysis.py hands them work; why a stop and not only a priority is told in ``Pause``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
import weakref

from . import inflight

NICE = 19                   # the workers' priority: the lowest
PAUSE_CALM = 0.03           # seconds without play in flight before stopped workers go on
LOOK_EVERY = 0.05           # seconds between two looks for a starting worker's id while play pauses the workers
PR_SET_PDEATHSIG = 1        # linux/prctl.h


def worker_start(pids, parent: int) -> None:
    """An analysis worker's first acts (the pool's initializer): the lowest priority, death with the bot, and
    its process id told to the bot (``pids``, a queue), which pauses it while play is in flight (``Pause``).
    The id comes with whether the worker dies with the bot: only such a worker is ever stopped."""
    lowest_priority()
    pids.put((os.getpid(), die_with_bot(parent)))


def die_with_bot(parent: int) -> bool:
    """Linux: the kernel kills this process (SIGKILL) when the bot's thread that started it ends, the bot
    killed, crashed or stopped while this worker was stopped (a stopped process cannot exit by itself). The
    pool starts its workers from the thread that hands it work, the event loop's (``run_in_executor`` submits
    there): the worker lives no longer than the loop's thread, as it should. False where there is no such
    promise (not Linux, or prctl refused): such a worker is never stopped."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:       # the bot died before the promise was made: go too
        os._exit(1)
    return True


def lowest_priority() -> None:
    """An analysis worker's first act: the lowest priority there is. On Linux that is SCHED_IDLE, not only nice
    19: a nice-19 process still holds a core until the scheduler's next tick when the bot wakes (a move's save
    and picture wake several threads and processes), and beside an analysis the move-saved p95 doubled; an idle
    -class process gives the core up at once. Elsewhere, nice 19."""
    if hasattr(os, "nice"):
        os.nice(NICE)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:      # not allowed here (a container's policy): nice 19 stays
            pass


class Pause:
    """The analysis workers stopped (SIGSTOP) the moment play is in flight in this process (table/inflight.py),
    continued (SIGCONT) once none has been for PAUSE_CALM seconds. A priority alone is not enough: on a small
    machine even an idle-class worker slows a move (the cores share their caches, and a decision already
    being judged runs on while moves arrive); a stopped one costs nothing.

    Only workers that told their process id and die with the bot (``worker_start``) are stopped, each through
    a pidfd (Linux), so that a process id taken over by another process after a worker's end is never
    signalled. Elsewhere (macOS, Windows: no pidfd, no PDEATHSIG, no SIGSTOP on Windows) nothing is paused:
    the workers run at the lowest priority only. The event loop never waits on a stopped worker: a signal is
    sent and returns; only the pool's own thread waits for a result."""

    def __init__(self, pids, workers: int, loop: asyncio.AbstractEventLoop, stats: dict):
        self._pids = pids                       # the workers' queue of (process id, dies with the bot)
        self._workers = workers
        self._loop = loop
        self._look: asyncio.TimerHandle | None = None
        self._fds: dict[int, int] = {}          # process id → pidfd
        self._lock = threading.Lock()
        self._later: asyncio.TimerHandle | bool | None = None     # the calm's timer (True: being set)
        self._since = 0.0
        self.paused = False
        self.stats = stats
        _pauses.add(self)
        inflight.watch(self._changed)
        if inflight.busy():
            self._changed(True)

    def pids(self) -> list[int]:
        """The workers that are paused with play (those that told their id so far)."""
        with self._lock:
            self._gather()
            return sorted(self._fds)

    def _gather(self) -> None:
        """The workers' ids told since the last look (a worker tells it as it starts); one that starts while
        play is in flight is stopped at once."""
        while not self._pids.empty():
            pid, dies = self._pids.get()
            if not dies or not hasattr(os, "pidfd_open"):
                continue
            try:
                fd = os.pidfd_open(pid)
            except OSError:                     # gone already, or a kernel without pidfds: never stopped
                continue
            if not _our_child(pid):             # gone before the pidfd was open and its id taken: not ours
                os.close(fd)
                continue
            self._fds[pid] = fd
            # the kernel's default slice, not the bot's short one it inherited: woken by a SIGCONT, a worker
            # must not take a core from an image worker at once (render/timeslice.py, BOT_SLICE_NS)
            from render.timeslice import set_slice  # here: a worker itself loads no Pillow

            set_slice(0, pid)
            if self.paused:
                self._signal(pid, signal.SIGSTOP)

    def _signal(self, pid: int, sig: int) -> None:
        try:
            signal.pidfd_send_signal(self._fds[pid], sig)
        except OSError:                         # the worker ended: forgotten
            os.close(self._fds.pop(pid))

    def _changed(self, started: bool) -> None:
        """table/inflight.py's news: play started (stop the workers now) or stopped (go on after the calm)."""
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            here = False
        with self._lock:
            if started:
                if here and isinstance(self._later, asyncio.TimerHandle):   # the calm starts again later
                    self._later.cancel()
                    self._later = None
                self._gather()
                if not self.paused:
                    for pid in list(self._fds):
                        self._signal(pid, signal.SIGSTOP)
                    self.paused, self._since = True, time.monotonic()
                    self.stats["pauses"] += 1
                    if here:
                        self._look_again()
                return
            if not self.paused or self._later is not None:
                return
            if here:
                self._later = self._loop.call_later(PAUSE_CALM, self._go_on)
            elif not self._loop.is_closed():   # play in another thread: the calm is timed on the pool's loop
                self._later = True             # (one timer at a time)
                self._loop.call_soon_threadsafe(self._time_calm)
            else:
                self._resume()

    def _look_again(self) -> None:
        """While paused and a worker has not told its id yet (it is starting), look again in LOOK_EVERY
        seconds: it is stopped as soon as it tells, not only at the next move."""
        if self.paused and len(self._fds) < self._workers and self._look is None:
            self._look = self._loop.call_later(LOOK_EVERY, self._looked)

    def _looked(self) -> None:
        with self._lock:
            self._look = None
            if self.paused:
                self._gather()
                self._look_again()

    def _time_calm(self) -> None:
        with self._lock:
            self._later = self._loop.call_later(PAUSE_CALM, self._go_on)

    def _go_on(self) -> None:
        """The calm is over: the workers go on unless play started again meanwhile (then the next calm's
        timer is set when that play stops)."""
        with self._lock:
            self._later = None
            if not inflight.busy():
                self._resume()

    def _resume(self) -> None:
        if self.paused:
            for pid in list(self._fds):
                self._signal(pid, signal.SIGCONT)
            self.paused = False
            self.stats["paused"] += time.monotonic() - self._since

    def close(self) -> None:
        """The workers continued for good (before the pool shuts down: a stopped process cannot exit)."""
        inflight.unwatch(self._changed)
        with self._lock:
            for timer in (self._later, self._look):
                if isinstance(timer, asyncio.TimerHandle):
                    timer.cancel()
            self._later = self._look = None
            self._gather()
            self._resume()
            for fd in self._fds.values():
                os.close(fd)
            self._fds.clear()
        _pauses.discard(self)


_pauses: weakref.WeakSet[Pause] = weakref.WeakSet()


def _continue_all() -> None:
    """At the interpreter's exit, before concurrent.futures waits for its workers: any still stopped (the bot
    ended without ``Analyses.stop``) go on, or that wait would never end."""
    for pause in list(_pauses):
        pause.close()


def _our_child(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1]) == os.getpid()
    except (OSError, ValueError, IndexError):
        return False


_exit_guarded = False


def guard_exit() -> None:
    """``_continue_all`` runs at exit before concurrent.futures joins its workers' threads. That join is
    registered with ``threading._register_atexit`` (ordinary ``atexit`` hooks run only after it), and those
    hooks run last registered first: there is no public hook early enough, so this one is the same private
    function, registered after concurrent.futures.process was imported. Without it, only ``stop`` (which the
    bot and the console call at shutdown) continues the workers."""
    global _exit_guarded
    register = getattr(threading, "_register_atexit", None)
    if _exit_guarded or register is None:
        return
    with contextlib.suppress(RuntimeError):      # the interpreter is already shutting down
        register(_continue_all)
        _exit_guarded = True
