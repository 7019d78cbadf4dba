"""Leagues (issue 35): a season of paired games in a server's channel — the league, its players, each round's
tables with the game opened for each and what it scored, and the organiser's actions; and the role a server
lets organise leagues (``settings.league_role``).

Revision 0011 (SQLite user_version 11, PostgreSQL schema_version 11), after 0010 (the clocks' terms).
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # the role whose members may organise leagues besides those who manage the server (a role id; '': none)
    op.add_column("settings", sa.Column("league_role", sa.Text, nullable=False, server_default=""))
    op.create_table(
        "leagues",
        sa.Column("id", Id, primary_key=True),
        sa.Column("guild", sa.Text),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("format", sa.Text, sa.CheckConstraint("format IN ('swiss', 'round-robin', 'pods')"), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("speed", sa.Text, nullable=False),
        sa.Column("status", sa.Text,
                  sa.CheckConstraint("status IN ('signup', 'running', 'paused', 'finished', 'cancelled')"),
                  nullable=False),
        sa.Column("organiser", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("leagues_by_guild", "leagues", ["guild", "status"])
    op.create_table(
        "league_players",
        sa.Column("league_id", Id, sa.ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("is_bot", sa.Integer, nullable=False, server_default="0"),
        sa.Column("status", sa.Text, sa.CheckConstraint("status IN ('active', 'withdrawn', 'dropped')"),
                  nullable=False, server_default="active"),
    )
    op.create_table(
        "league_games",
        sa.Column("id", Id, primary_key=True),
        sa.Column("league_id", Id, sa.ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="SET NULL")),
        sa.Column("points", sa.Text),
        sa.Column("scores", sa.Text),
        sa.Column("fixed", sa.Text),
        sa.UniqueConstraint("league_id", "round", "board"),
        sqlite_autoincrement=True,
    )
    op.create_index("league_games_by_game", "league_games", ["game_id"])
    op.create_table(
        "league_events",
        sa.Column("id", Id, primary_key=True),
        sa.Column("league_id", Id, sa.ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at", sa.Double, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False, server_default="{}"),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
