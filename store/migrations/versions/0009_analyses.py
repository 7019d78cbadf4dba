"""After-game analyses (issue 37): each ended game's analysis by the hard engine, kept as derived data (it can
be computed again from the game's seed and log), one per game and rules version.

Revision 0009 (SQLite user_version 9, PostgreSQL schema_version 9), after 0008 (the clocks).
"""

import sqlalchemy as sa
from alembic import op

from store.migrations.columns import game_ref

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "analyses",
        game_ref(primary_key=True),
        sa.Column("rules", sa.Integer, primary_key=True),        # the game's rules version
        sa.Column("engine", sa.Integer, nullable=False),         # the analysis's own version (engine/ai/analysis.py)
        sa.Column("moves", sa.Integer, nullable=False),          # the game's moves when it was analysed
        sa.Column("data", sa.Text, nullable=False),              # JSON: the judgements
        sa.Column("seconds", sa.Double, nullable=False),         # how long it took
        sa.Column("created_at", sa.Double, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
