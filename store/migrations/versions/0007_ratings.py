"""Skill ratings (issue 27): a rating per player, per game and per server (``ratings``; computer levels too),
and the change each rated game made to each of its players (``rating_changes``: the card's history line, and
what ``python -m store.rerate`` rewrites). An index for a person's latest results (/stats).
"""

import sqlalchemy as sa
from alembic import op

from store.migrations.columns import Id, game_ref

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("guild", sa.Text, primary_key=True),           # '' for direct messages
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, primary_key=True),          # a user id, or cpu:<level>
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("score", sa.Double, nullable=False),           # mu - 3 sigma: what the leaderboard sorts by
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.Double, nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["guild", "game", "score"])
    op.create_index("ratings_of_player", "ratings", ["player", "guild"])
    op.create_table(
        "rating_changes",
        sa.Column("id", Id, primary_key=True),                   # the order the changes were made in
        game_ref(nullable=False),
        sa.Column("guild", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Double, nullable=False),
        sa.Column("sigma_before", sa.Double, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("ended_at", sa.Double, nullable=False),
        sa.UniqueConstraint("game_id", "player"),
        sqlite_autoincrement=True,
    )
    op.create_index("rating_changes_of_player", "rating_changes", ["player", "guild", "game", "id"])
    op.create_index("results_latest", "results", ["user_id", "guild", "ended_at"])


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
