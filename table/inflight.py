"""Play in flight (issue #37, "it never slows play"): how many moves are being made or drawn in this process
right now. A move holds ``playing()`` from the moment it arrives until its reply is built (``Play.act``), so
does any stored change (``Play.commit``: the scheduler's moves past a deadline or a time limit too) and the
computer seats' moves (``Play.run_bots``: at a game's start too), and a reply holds it while its pictures are
drawn (``Reply.render``: the front ends draw every picture they send through it).

Background work listens (``watch``): the analysis's worker processes (table/analysis.py) are stopped when
the count leaves 0 and go on once it has stayed at 0 for a short calm. Only a context manager changes the
count, so an exception or a cancelled task can never leave it raised.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

log = logging.getLogger("teahouse.table")

_lock = threading.RLock()          # the event loop's thread holds it; a front end in another thread may too
_count = 0
_watchers: list[Callable[[bool], None]] = []


def busy() -> bool:
    """Whether a move or its pictures are under way in this process."""
    return _count > 0


@contextlib.contextmanager
def playing() -> Iterator[None]:
    """Play in flight for as long as the block runs (nested holds count once each)."""
    global _count
    with _lock:
        _count += 1
        if _count == 1:
            _tell(True)
    try:
        yield
    finally:
        with _lock:
            _count -= 1
            if _count == 0:
                _tell(False)


def watch(watcher: Callable[[bool], None]) -> None:
    """Call ``watcher(True)`` when play starts (the count leaves 0) and ``watcher(False)`` when it stops (back
    to 0). Called at once, in the thread that changed the count: a watcher must be quick and never block."""
    with _lock:
        _watchers.append(watcher)


def unwatch(watcher: Callable[[bool], None]) -> None:
    with _lock:
        with contextlib.suppress(ValueError):
            _watchers.remove(watcher)


def _tell(started: bool) -> None:
    for watcher in list(_watchers):
        try:
            watcher(started)
        except Exception:          # background work's trouble never costs a move
            log.exception("a watcher of play in flight failed")
