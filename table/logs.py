"""The bot's log: one line per event, as plain text or, with ``LOG_FORMAT=json``, as JSON lines
(``ts``, ``level``, ``logger``, ``msg``, then the context fields and ``exc`` for a traceback).

The context fields — ``guild``, ``channel``, ``game``, ``command``, ``latency_ms`` and the like — come from
a log call's ``extra`` or from ``context()``, which the Discord layer opens around each interaction, so that
every line logged while an interaction is handled names its server, channel and command.

What is never logged (hands, secret choices, the seed, the token) is kept out at the source: the service logs
ids and counts, never an action's text, and the libraries that log whole payloads at DEBUG (statements with
their arguments, gateway events) are held at INFO or above by ``QUIET_LIBRARIES``.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import time
from typing import IO

# the context fields, in the order a text line shows them
FIELDS = ("guild", "channel", "game", "command", "outcome", "latency_ms", "ack_ms")

# Libraries that log whole payloads at DEBUG (aiosqlite every statement with its arguments — game states,
# hands, the seed; discord's gateway every event, with the options a player typed): they never go below
# these levels, whatever LOG_LEVEL says.
QUIET_LIBRARIES = {"aiosqlite": logging.INFO, "asyncpg": logging.INFO, "discord": logging.INFO,
                   "discord.http": logging.WARNING, "asyncio": logging.INFO, "PIL": logging.INFO,
                   "sqlalchemy": logging.WARNING, "alembic": logging.WARNING, "aiohttp.access": logging.WARNING}

_context: contextvars.ContextVar[dict | None] = contextvars.ContextVar("teahouse_log_context", default=None)


@contextlib.contextmanager
def context(**fields):
    """Within the block (and the tasks it starts), every log line carries ``fields`` (those not None)."""
    token = _context.set({**(_context.get() or {}), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


def current() -> dict:
    """The context fields of the current task (an empty dict outside any context)."""
    return dict(_context.get() or {})


def set_context(**fields) -> None:
    """Add fields to the current context (a game id learnt halfway through an interaction)."""
    _context.set({**(_context.get() or {}), **{k: v for k, v in fields.items() if v is not None}})


class ContextFilter(logging.Filter):
    """Stamps the current context on a record when it is made (a handler that formats later still has it);
    a field given in the call's ``extra`` wins."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_context.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


def fields_of(record: logging.LogRecord) -> dict:
    """A record's context fields that are set."""
    return {k: getattr(record, k) for k in FIELDS if getattr(record, k, None) is not None}


class LineFormatter(logging.Formatter):
    """One line per record: ``time level logger: message key=value …`` or a JSON object. A traceback stays on
    the line (text: its newlines written as ``\\n``), so a line is always one event."""

    def __init__(self, json_lines: bool = False):
        super().__init__()
        self.json_lines = json_lines

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        trace = None
        if record.exc_info:
            trace = self.formatException(record.exc_info)
        elif record.exc_text:
            trace = record.exc_text
        if record.stack_info:
            trace = f"{trace}\n{record.stack_info}" if trace else record.stack_info
        fields = fields_of(record)
        if self.json_lines:
            line = {"ts": self.timestamp(record), "level": record.levelname, "logger": record.name, "msg": message,
                    **fields}
            if trace:
                line["exc"] = trace
            return json.dumps(line, ensure_ascii=False, default=str)
        text = f"{self.formatTime(record)} {record.levelname:<7} {record.name}: {message}"
        if fields:
            text += " " + " ".join(f"{k}={v}" for k, v in fields.items())
        if trace:
            text += " | " + trace
        return text.replace("\r", "\\r").replace("\n", "\\n")

    @staticmethod
    def timestamp(record: logging.LogRecord) -> str:
        """ISO 8601 in UTC with milliseconds: 2025-01-31T18:04:05.123Z."""
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"


_HANDLER_MARK = "_teahouse_handler"


def configure(level: str, fmt: str | None = None, stream: IO[str] | None = None) -> logging.Handler:
    """The root logger at ``level`` (a name; INFO if unknown), writing one line per event to ``stream``
    (standard error) as text or, ``fmt`` "json", JSON lines; the noisy libraries held by QUIET_LIBRARIES.
    Called again, it replaces the handler it installed before (and leaves other handlers alone)."""
    chosen = getattr(logging, str(level).upper(), None)
    if not isinstance(chosen, int):
        chosen = logging.INFO
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _HANDLER_MARK, False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream)
    setattr(handler, _HANDLER_MARK, True)
    handler.addFilter(ContextFilter())
    handler.setFormatter(LineFormatter(json_lines=(fmt or "").strip().lower() == "json"))
    root.addHandler(handler)
    root.setLevel(chosen)
    for name, floor in QUIET_LIBRARIES.items():
        logging.getLogger(name).setLevel(max(chosen, floor))
    return handler
