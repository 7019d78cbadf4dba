"""Alembic's environment for Teahouse. The store runs it on open (``store/upgrade.py``) on its own connection,
inside its own transaction, passed as ``config.attributes["connection"]``.

From the command line (``alembic -c store/migrations/alembic.ini upgrade head``) it upgrades the database of
``TEAHOUSE_DB`` or ``DATABASE_URL`` the way the bot does on start: through the store, backup included.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context

from store.schema import metadata

connection = context.config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():       # joins the store's transaction
        context.run_migrations()
else:
    from store.store import Store

    async def _open_and_close(target: str) -> None:
        async with Store(target):
            pass

    asyncio.run(_open_and_close(os.environ.get("DATABASE_URL") or os.environ.get("TEAHOUSE_DB", "data/teahouse.db")))
