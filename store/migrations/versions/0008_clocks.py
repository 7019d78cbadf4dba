"""Clocks across days (issue #34): each person's bank in a game played at a speed (``clocks``), and each
person's time zone, quiet hours and away spell (``hours``). Games stored before have no clock rows: they are
untimed, played to their end under the server's reminder and turn deadline as they started (docs/lifecycle.md).
"""

import sqlalchemy as sa
from alembic import op

from store.migrations.columns import game_ref

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.create_table(
        "clocks",
        game_ref(primary_key=True),
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("bank", sa.Double, nullable=False),
        sa.Column("since", sa.Double),
        sa.Column("credit", sa.Double, nullable=False, server_default="0"),
    )
    op.create_table(
        "hours",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("zone", sa.Text, nullable=False, server_default="UTC"),
        sa.Column("quiet_from", sa.Integer),
        sa.Column("quiet_to", sa.Integer),
        sa.Column("away_until", sa.Double),
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
