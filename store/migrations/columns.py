"""Column pieces the Alembic revisions since 0007 share. A revision's DDL must never change once released:
change nothing here; a new shape is a new name."""

import sqlalchemy as sa

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")     # SQLite: the rowid; PostgreSQL: BIGSERIAL


def game_ref(**kw) -> sa.Column:
    """``game_id``, a game's rows going with the game (``ON DELETE CASCADE``); ``kw``: ``primary_key=True``
    or ``nullable=False``."""
    return sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), **kw)
