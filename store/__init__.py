"""The database side: one schema and one set of queries for SQLite and PostgreSQL on SQLAlchemy Core, the
Alembic revisions, the ratings written with a game's end, backups, the SQLite → PostgreSQL copy and shards.

The table service (``table/``) stands on it; nothing here knows of Discord, the console or the service.
``Store`` and ``open_store`` are imported when first used (PEP 562), so ``store.shards`` alone loads no
SQLAlchemy.
"""

from __future__ import annotations

NAMES = ("Store", "StoreError", "open_store", "is_postgres_url")
__all__ = list(NAMES)


def __getattr__(name: str):
    if name not in NAMES:
        raise AttributeError(f"module 'store' has no attribute {name!r}")
    from . import factory, store  # SQLAlchemy comes with these, at the first use of a name above

    return getattr(factory if hasattr(factory, name) else store, name)
