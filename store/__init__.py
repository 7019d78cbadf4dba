"""The database side: one schema and one set of queries for SQLite and PostgreSQL on SQLAlchemy Core, the
Alembic revisions, the ratings written with a game's end, backups, the SQLite → PostgreSQL copy and shards.

The table service (``table/``) stands on it; nothing here knows of Discord, the console or the service.
``Store`` and ``open_store`` are imported when first used (PEP 562), so ``store.shards`` alone loads no
SQLAlchemy.
"""

from __future__ import annotations

import importlib

_WHERE = {"open_store": "factory", "is_postgres_url": "factory", "Store": "store", "StoreError": "store"}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'store' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value
