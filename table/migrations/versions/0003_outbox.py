"""The outbox: what the scheduler must still send; a row goes only once Discord has taken every part.

Revision 0003, after 0002 (SQLite user_version 3, PostgreSQL schema_version 3).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", ID, primary_key=True),
        sa.Column("game_id", ID, sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("parts_done", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("created_at", sa.Double(), nullable=False),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
