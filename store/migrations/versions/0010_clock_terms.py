"""Clock terms (issue #34, the rest): a server's default speed for new tables (``settings.speed``, chosen with
``/settings speed:``) and the away spells people took (``away_spells``), so the bound of 21 days away in any 60
holds across ending and restarting an away spell.

Revision 0010 (SQLite user_version 10, PostgreSQL schema_version 10), after 0009 (the analyses). Self-contained:
it only adds a column with a default and a new table.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.add_column("settings", sa.Column("speed", sa.Text, nullable=False, server_default="untimed"))
    op.create_table(
        "away_spells",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("began", sa.Double, primary_key=True),
        sa.Column("ended", sa.Double, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
