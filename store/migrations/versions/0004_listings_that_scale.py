"""Listings that scale (issue 13): who a running game waits for, one row per person per ended game (filled
from the games that had already ended), and the indexes /games, /mygames, /stats and /leaderboard read.

Revision 0004, after 0003 (SQLite user_version 4, PostgreSQL schema_version 4).
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"

# every person seated in an ended game (computers left out; a person handed to a computer lost)
BACKFILL = """
    INSERT INTO results (game_id, guild, game, user_id, name, outcome, ended_at)
    SELECT g.id, g.guild, g.game, s.user_id, s.name,
           CASE WHEN g.status = 'abandoned' THEN 'abandoned' WHEN s.is_bot = 0 AND {won} THEN 'win' ELSE 'loss' END,
           g.updated_at
    FROM games g JOIN seats s ON s.game_id = g.id
    WHERE g.status IN ('finished', 'abandoned') AND g.state IS NOT NULL
          AND (s.is_bot = 0 OR s.user_id NOT LIKE 'cpu-%')"""
WON = {"sqlite": "EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w WHERE w.value = s.user_id)",
       "postgresql": "COALESCE(g.result::jsonb -> 'winners' ? s.user_id, FALSE)"}


def upgrade() -> None:
    op.add_column("games", sa.Column("waiting", sa.Text, nullable=False, server_default=sa.text("'[]'")))
    op.create_index("games_by_channel", "games", ["channel", "id"])
    op.create_table(
        "results",
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("guild", sa.Text),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text, sa.CheckConstraint("outcome IN ('win', 'loss', 'abandoned')"), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_index("results_by_user", "results", ["user_id", "guild", "game"])
    op.create_index("results_by_board", "results", ["guild", "game", "user_id"])
    op.execute(BACKFILL.format(won=WON[op.get_bind().dialect.name]))


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
