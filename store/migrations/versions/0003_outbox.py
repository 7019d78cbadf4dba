"""The outbox: what the scheduler must still send; a row goes only once Discord has taken every part.

Revision 0003, after 0002 (SQLite user_version 3, PostgreSQL schema_version 3).
"""

from alembic import op
from sqlalchemy import BigInteger, Column, Double, ForeignKey, Integer, Text, text

revision = "0003"
down_revision = "0002"

ID = BigInteger().with_variant(Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "outbox",
        Column("id", ID, primary_key=True),
        Column("game_id", ID, ForeignKey("games.id", ondelete="CASCADE")),
        Column("channel", Text, nullable=False),
        Column("payload", Text, nullable=False),
        Column("parts_done", Integer, nullable=False, server_default=text("0")),
        Column("attempts", Integer, nullable=False, server_default=text("0")),
        Column("created_at", Double(), nullable=False),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
