"""Stopping the bot gracefully (SIGTERM from systemd or Docker, Ctrl-C), and within STOP_WITHIN seconds.

1. The door closes: a command or a click that arrives now is answered "restarting, try again in a moment"
   and changes nothing (a suggestion request gets no answer).
2. What is under way finishes, for up to DRAIN_WITHIN seconds: the interactions already let in (a move being
   saved, its picture drawn, its answer sent) and the scheduler's current pass (timers fired into the
   outbox, the outbox sent). A notice not sent by then stays in the outbox, in the database, and the next
   start sends it (with the same nonce, so Discord shows it once).
3. The gateway closes, then the database; the picture workers stop (runner.serve; killed if one hangs).

A watchdog thread ends the process with exit code 0 at STOP_WITHIN seconds, whatever still hangs (a stuck
drawing thread keeps asyncio.run from returning): every move is one transaction, so one that did not commit
is simply not there, and nothing half-saved is left. A second signal kills the process at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time

from render import workers as rendering

log = logging.getLogger("teahouse")

STOP_WITHIN = 9.0       # seconds from the signal to the exit, whatever hangs (systemd, Docker: 10 s or more)
DRAIN_WITHIN = 6.0      # of which: the moves in flight and the scheduler's pass


class Gate:
    """The interactions in flight, and the door closed to new ones when the bot stops. An interaction is let
    in by the task that runs it (discord.py runs each command and each click in a task of its own), so the
    whole of it — the move saved, the picture, the answer — counts until that task ends."""

    def __init__(self) -> None:
        self.closing = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()

    @property
    def open(self) -> bool:
        return not self.closing.is_set()

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    def admit(self) -> bool:
        """Let the current task in (False once the door is closed)."""
        if self.closing.is_set():
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return True

    def close(self) -> set[asyncio.Task]:
        """Close the door; the tasks still in flight."""
        self.closing.set()
        return {t for t in self._tasks if t is not asyncio.current_task() and not t.done()}

    async def sleep(self, seconds: float) -> None:
        """Sleep, but wake as soon as the bot stops."""
        try:
            await asyncio.wait_for(self.closing.wait(), seconds)
        except TimeoutError:
            pass


async def drain(bot, within: float = DRAIN_WITHIN) -> int:
    """Steps 1 and 2 of the module's docstring, for ``bot`` (a TeahouseBot): how many interactions, scheduler
    passes or channel moves were still running when it stopped waiting."""
    started = time.monotonic()
    end = started + within
    waiting = bot.gate.close()
    moves = len(waiting)
    scheduler = bot.scheduler
    if scheduler is not None and not scheduler.done():
        if bot.scheduler_busy:
            waiting.add(scheduler)      # it ends after this pass (the door is closed)
        else:
            scheduler.cancel()          # asleep or not started: nothing of it is under way
    pending: set = set()
    if waiting:
        _done, pending = await asyncio.wait(waiting, timeout=within)
        if pending:
            log.warning("stopping: %d interactions or scheduler passes still running after %.0f s; "
                        "unsent notices stay in the outbox for the next start", len(pending), within)
    if scheduler is not None and not scheduler.done():
        scheduler.cancel()
    # moves the scheduler began (a computer's move past a deadline) hold their channel's lock until committed
    busy = 0
    for lock in list(bot.service._locks.values()):
        if not lock.locked():
            continue
        try:
            await asyncio.wait_for(lock.acquire(), max(0.0, end - time.monotonic()))
        except TimeoutError:
            log.warning("stopping: a channel is still busy; its move will not be waited for")
            busy = 1
            break
        lock.release()
    log.info("stopping: %d interactions were in flight; done waiting after %.1f s", moves,
             time.monotonic() - started)
    return len(pending) + busy


def watchdog(seconds: float = STOP_WITHIN) -> threading.Timer:
    """End the process with exit code 0 after ``seconds``, unless cancelled first (see the module)."""
    timer = threading.Timer(seconds, _force_exit, (seconds,))
    timer.daemon = True
    timer.start()
    return timer


def _force_exit(seconds: float) -> None:
    log.error("still stopping after %.1f s; exiting now (committed moves are all saved)", seconds)
    rendering.kill()
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
