"""Spectators (issue 49): who watches which game (and how), whom people follow, each person's choices about
both, the direct messages waiting for their moment (quiet hours, time away, a few a day), and a server's TV
channel with its one live card per game.

Revision 0013 (SQLite user_version 13, PostgreSQL schema_version 13), after 0012 (the send budget).
"""

import sqlalchemy as sa
from alembic import op

from store.migrations.columns import Id, game_ref

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.create_table(
        "watchers",
        game_ref(primary_key=True),
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("guild", sa.Text),
        sa.Column("how", sa.Text, sa.CheckConstraint("how IN ('thread', 'dm')"), nullable=False),
        sa.Column("since", sa.Double, nullable=False),
    )
    op.create_index("watchers_of_user", "watchers", ["user_id"])
    op.create_table(
        "spectator_prefs",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("watch_dm", sa.Text, sa.CheckConstraint("watch_dm IN ('rounds', 'end')")),   # None: not chosen
        sa.Column("followers", sa.Integer, nullable=False, server_default="1"),           # 0: refuses followers
    )
    op.create_table(
        "follows",
        sa.Column("follower", sa.Text, primary_key=True),
        sa.Column("followed", sa.Text, primary_key=True),
        sa.Column("guild", sa.Text, primary_key=True),          # a server both are in: where it was asked
        sa.Column("name", sa.Text, nullable=False),              # the followed person's name then
        sa.Column("since", sa.Double, nullable=False),
    )
    op.create_index("follows_of_followed", "follows", ["followed", "guild"])
    op.create_table(
        "spectator_mail",
        sa.Column("id", Id, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, sa.CheckConstraint("kind IN ('round', 'end', 'follow')"), nullable=False),
        sa.Column("guild", sa.Text),
        sa.Column("game_id", Id),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("due", sa.Double, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("sent", sa.Double),
        sqlite_autoincrement=True,
    )
    op.create_index("spectator_mail_due", "spectator_mail", ["due"], sqlite_where=sa.text("sent IS NULL"),
                    postgresql_where=sa.text("sent IS NULL"))
    op.create_index("spectator_mail_of_user", "spectator_mail", ["user_id", "kind", "created_at"])
    op.create_table(
        "tv_channels",
        sa.Column("guild", sa.Text, primary_key=True),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("set_by", sa.Text, nullable=False),
        sa.Column("set_at", sa.Double, nullable=False),
    )
    op.create_table(
        "tv_cards",
        game_ref(primary_key=True),
        sa.Column("guild", sa.Text),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("message", sa.Text),                           # None: not posted yet
        sa.Column("shown", sa.Integer, nullable=False, server_default="0"),   # the game's version it shows
        sa.Column("moves", sa.Integer, nullable=False, server_default="0"),   # the log's length it shows
        sa.Column("shown_at", sa.Double),
        sa.Column("ended_at", sa.Double),                        # the game ended (or was abandoned) then
    )
    op.create_index("tv_cards_of_guild", "tv_cards", ["guild"])


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
