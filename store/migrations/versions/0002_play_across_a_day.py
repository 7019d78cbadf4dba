"""Play across a day: server settings, notification preferences, timers, results and game threads.

Revision 0002, after 0001 (SQLite user_version 2, PostgreSQL schema_version 2).
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
REAL = sa.Double()


def upgrade() -> None:
    op.create_table(
        "settings",
        sa.Column("guild", sa.Text, primary_key=True),
        sa.Column("reminder_hours", REAL, nullable=False, server_default=sa.text("4")),
        sa.Column("deadline_hours", REAL, nullable=False, server_default=sa.text("24")),
        sa.Column("deadline_action", sa.Text, sa.CheckConstraint("deadline_action IN ('vote', 'skip', 'remove')"),
                  nullable=False, server_default=sa.text("'vote'")),
        sa.Column("threads", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("mention", sa.Integer, nullable=False, server_default=sa.text("1")),
    )
    op.create_table(
        "notify",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("dm", sa.Integer, nullable=False, server_default=sa.text("0")),
    )
    op.create_table(
        "timers",
        sa.Column("id", ID, primary_key=True),
        sa.Column("game_id", ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.Text, sa.CheckConstraint("kind IN ('reminder', 'deadline', 'limit')"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("due", REAL, nullable=False),
        sa.Column("fired", REAL),
        sqlite_autoincrement=True,
    )
    op.create_index("timers_pending", "timers", ["due"], sqlite_where=sa.text("fired IS NULL"),
                    postgresql_where=sa.text("fired IS NULL"))
    if op.get_bind().dialect.name == "postgresql":     # SQLite finds a game's timers through its rowid scan
        op.create_index("timers_by_game", "timers", ["game_id"])
    op.add_column("games", sa.Column("parent_channel", sa.Text))
    op.add_column("games", sa.Column("result", sa.Text))
    op.create_index("seats_by_user", "seats", ["user_id"])


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
