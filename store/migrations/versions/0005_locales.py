"""The language of each server (its preferred locale) and user, for what the bot says unprompted: reminders
and deadlines in the channel, direct messages (issue 17).

Revision 0005, after 0004 (SQLite user_version 5, PostgreSQL schema_version 5).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "locales",
        sa.Column("who", sa.Text, primary_key=True),
        sa.Column("locale", sa.Text, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
