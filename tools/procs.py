"""The processes below a process, read from /proc (Linux): the image workers and anything else the bot
started. Used by the load benchmark (whose memory is whose) and the shutdown tests (no worker left behind)."""

from __future__ import annotations

from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Every process started under ``pid``, children before their own children."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:            # it ended while we looked
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out
