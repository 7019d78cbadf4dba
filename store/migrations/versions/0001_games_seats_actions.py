"""Games, their seats and the append-only action log (SQLite user_version 1, PostgreSQL schema_version 1).

Revision 0001, the first.
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")     # SQLite: the rowid; PostgreSQL: BIGSERIAL
REAL = sa.Double()
OPEN = "status IN ('lobby', 'running')"

SQLITE_TRIGGERS = [
    """CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
    """CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        WHEN (SELECT status FROM games WHERE id = OLD.game_id) IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
]
POSTGRESQL_TRIGGERS = [
    """CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- a deleted game takes its log with it; nothing else may change or remove a logged action
        IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'the action log is append-only';
    END $$""",
    """CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only()""",
    """CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only()""",
]


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", ID, primary_key=True),
        sa.Column("guild", sa.Text),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("status", sa.Text, sa.CheckConstraint("status IN ('lobby', 'running', 'finished', 'abandoned')"),
                  nullable=False),
        sa.Column("host", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("state", sa.Text),
        sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("created_at", REAL, nullable=False),
        sa.Column("updated_at", REAL, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("games_one_open_per_channel", "games", ["channel"], unique=True,
                    sqlite_where=sa.text(OPEN), postgresql_where=sa.text(OPEN))
    op.create_index("games_by_guild", "games", ["guild", "status"])
    op.create_table(
        "seats",
        sa.Column("game_id", ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("is_bot", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_table(
        "actions",
        sa.Column("id", ID, primary_key=True),
        sa.Column("game_id", ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("at", REAL, nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
        sqlite_autoincrement=True,
    )
    for statement in SQLITE_TRIGGERS if op.get_bind().dialect.name == "sqlite" else POSTGRESQL_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    raise NotImplementedError("Restore the backup made before the upgrade (docs/store.md).")
