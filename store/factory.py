"""Choosing the storage: a ``postgresql://`` URL opens PostgreSQL, anything else is a SQLite file."""

from __future__ import annotations

from pathlib import Path

from .shards import Shards
from .store import Store


def is_postgres_url(target) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def open_store(url_or_path: str | Path, shards: Shards | None = None) -> Store:
    """The store for ``url_or_path``, not yet opened: ``await store.open()``, or ``async with open_store(…)``.
    PostgreSQL (``DATABASE_URL=postgresql://user:password@host/db``) for several processes or machines; a SQLite
    file (``TEAHOUSE_DB``, the default) for one process on one machine. One ``Store`` class serves both."""
    return Store(url_or_path, shards)
