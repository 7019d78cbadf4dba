"""The kernel's time slices (Linux 6.12 and later), through ``sched_setattr`` with ctypes: the bot's threads ask
for the shortest slice (``quick_threads``, called when the image workers start), the processes it starts (image
and analysis workers) set the default back (``set_slice(0)``). Elsewhere every call does nothing and says so.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys

# A move is many short steps on several of the bot's threads (the event loop, the database's thread, the reader
# of each worker's pictures), each waking the next: about sixteen wake-ups from arrival to saved. Linux's
# scheduler (EEVDF) lets a running thread finish its slice before a woken one of the same priority takes the
# core, 1.4 ms by default on 2 cores; with both cores drawing, a move waited out a worker's slice at many of
# its steps (bench/load.py at 50 channels: move-saved p95 8.5–10 ms without pictures, 18–20 ms with them). A
# thread whose slice is shorter than the running thread's takes the core at once when it wakes (EEVDF's
# PREEMPT_SHORT): the bot's threads ask for the shortest slice, its workers keep the default. A slice says when
# a thread runs, not how much: the workers' share of the processor is what it was (docs/performance.md).
BOT_SLICE_NS = 100_000        # the bot's threads: 0.1 ms, the shortest the kernel grants
_SCHED_SETATTR = {"x86_64": 314, "aarch64": 274, "armv7l": 380, "armv6l": 380}    # syscall numbers
_SCHED_GETATTR = {"x86_64": 315, "aarch64": 275, "armv7l": 381, "armv6l": 381}
_SCHED_FLAG_KEEP_POLICY = 0x08


class _SchedAttr(ctypes.Structure):
    _fields_ = [("size", ctypes.c_uint32), ("policy", ctypes.c_uint32), ("flags", ctypes.c_uint64),
                ("nice", ctypes.c_int32), ("priority", ctypes.c_uint32), ("runtime", ctypes.c_uint64),
                ("deadline", ctypes.c_uint64), ("period", ctypes.c_uint64), ("util_min", ctypes.c_uint32),
                ("util_max", ctypes.c_uint32)]


def _sched_call(table: dict, tid: int, attr: _SchedAttr, *args) -> bool:
    number = table.get(os.uname().machine) if sys.platform.startswith("linux") else None
    if number is None:
        return False
    lib = libc()
    try:
        return lib is not None and lib.syscall(number, tid, ctypes.byref(attr), *args) == 0
    except AttributeError:
        return False


def get_slice(tid: int = 0) -> int | None:
    """The time slice (ns) of thread or process ``tid`` (0: the calling thread); None where it cannot be read."""
    attr = _SchedAttr()
    return attr.runtime if _sched_call(_SCHED_GETATTR, tid, attr, ctypes.sizeof(attr), 0) else None


def set_slice(ns: int, tid: int = 0) -> bool:
    """Ask for a time slice of ``ns`` nanoseconds for thread ``tid`` (0: the calling one; ``ns`` 0: the kernel's
    default), its policy and nice value unchanged. Threads and processes it starts later inherit it. False
    where nothing was set (not Linux, or refused); a kernel before 6.12 takes the call and ignores the slice."""
    attr = _SchedAttr()
    if not _sched_call(_SCHED_GETATTR, tid, attr, ctypes.sizeof(attr), 0):
        return False
    # the thread's own nice value goes back with the slice (KEEP_PARAMS would keep the old slice too)
    attr.size, attr.flags, attr.runtime = ctypes.sizeof(attr), _SCHED_FLAG_KEEP_POLICY, ns
    return _sched_call(_SCHED_SETATTR, tid, attr, 0)


def quick_threads(ns: int = BOT_SLICE_NS) -> int:
    """Give every thread of this process the short slice (those it starts later inherit it); how many took it.
    Called by ``render.workers.start``: the processes the bot starts (image and analysis workers) set the default
    back."""
    try:
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        return 0
    return sum(set_slice(ns, tid) for tid in tids)


@functools.lru_cache(maxsize=1)
def libc():
    """The C library, looked up once (find_library may run ldconfig); None where it cannot be loaded."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
