"""Every started game records the rules version it started under (issue #26), beside its state (which keeps
it too, for the engine): listings and exports read it without loading the game. Every game started before
this revision was played under version 1, the only one there was; a lobby gets its version when it starts.
SQLite also gets the index of timers by game that PostgreSQL had from 0002 (a move replaces its game's
timers), so both databases have one schema.

Revision 0006, after 0005.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.add_column("games", sa.Column("rules", sa.Integer))
    op.execute("UPDATE games SET rules = 1 WHERE state IS NOT NULL")
    if op.get_bind().dialect.name == "sqlite":
        op.create_index("timers_by_game", "timers", ["game_id"])


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
