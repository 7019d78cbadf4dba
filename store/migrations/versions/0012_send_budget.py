"""Discord's global rate limit shared by a bot's processes (issue 50): one row per budget holding the moment the
next request may go, on the database's clock (store/budget.py). Only PostgreSQL's processes use it (a SQLite
file has one process, which keeps its budget in memory); the table is on both so the schema is one.

Revision 0012 (SQLite user_version 12, PostgreSQL schema_version 12), after 0011 (leagues).
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.create_table(
        "send_budget",
        sa.Column("name", sa.Text, primary_key=True),             # 'global': the one budget of a bot token
        sa.Column("next_at", sa.Double, nullable=False),          # the GCRA's theoretical arrival time, epoch s
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
