"""Teahouse's tables as one SQLAlchemy ``MetaData``: what the queries of ``store/store.py`` read and write,
for SQLite and PostgreSQL alike.

This is the schema at the newest Alembic revision (``store/migrations/versions``); the revisions themselves
say how a database gets there and never import this module (a revision stays as it was written). Game
states, options, results and the list of waiting seats are JSON kept as text, as they always were.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    text,
)

# ids: INTEGER PRIMARY KEY (the rowid, AUTOINCREMENT) on SQLite, BIGSERIAL on PostgreSQL
Id = BigInteger().with_variant(Integer(), "sqlite")
OPEN = "status IN ('lobby', 'running')"

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", Id, primary_key=True),
    Column("guild", Text),
    Column("channel", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("options", Text, nullable=False, server_default="{}"),
    Column("status", Text, CheckConstraint("status IN ('lobby', 'running', 'finished', 'abandoned')"),
           nullable=False),
    Column("host", Text, nullable=False),
    Column("seed", BigInteger),
    Column("state", Text),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
    Column("parent_channel", Text),
    Column("result", Text),
    Column("waiting", Text, nullable=False, server_default="[]"),
    Column("rules", Integer),          # the rules version the game started under (#26); None in the lobby
    Index("games_one_open_per_channel", "channel", unique=True, sqlite_where=text(OPEN),
          postgresql_where=text(OPEN)),
    Index("games_by_guild", "guild", "status"),
    Index("games_by_channel", "channel", "id"),
    sqlite_autoincrement=True,
)

seats = Table(
    "seats", metadata,
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("user_id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("is_bot", Integer, nullable=False, server_default="0"),
    Index("seats_by_user", "user_id"),
)

actions = Table(       # append-only: triggers refuse UPDATE and DELETE (revision 0001)
    "actions", metadata,
    Column("id", Id, primary_key=True),
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Text, nullable=False),
    Column("action", Text, nullable=False),
    Column("line", Text, nullable=False),
    Column("at", Double, nullable=False),
    UniqueConstraint("game_id", "seq"),
    sqlite_autoincrement=True,
)

settings = Table(
    "settings", metadata,
    Column("guild", Text, primary_key=True),
    Column("reminder_hours", Double, nullable=False, server_default="4"),
    Column("deadline_hours", Double, nullable=False, server_default="24"),
    Column("deadline_action", Text, CheckConstraint("deadline_action IN ('vote', 'skip', 'remove')"),
           nullable=False, server_default="vote"),
    Column("threads", Integer, nullable=False, server_default="0"),
    Column("mention", Integer, nullable=False, server_default="1"),
    Column("speed", Text, nullable=False, server_default="untimed"),     # a new table's speed (#34, 0010)
    Column("league_role", Text, nullable=False, server_default=""),      # who may organise leagues (#35, 0011)
)

notify = Table(
    "notify", metadata,
    Column("user_id", Text, primary_key=True),
    Column("dm", Integer, nullable=False, server_default="0"),
)

timers = Table(
    "timers", metadata,
    Column("id", Id, primary_key=True),
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("kind", Text, CheckConstraint("kind IN ('reminder', 'deadline', 'limit')"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("due", Double, nullable=False),
    Column("fired", Double),
    Index("timers_pending", "due", sqlite_where=text("fired IS NULL"), postgresql_where=text("fired IS NULL")),
    Index("timers_by_game", "game_id"),      # a move replaces its game's timers
    sqlite_autoincrement=True,
)

outbox = Table(        # what the scheduler must still send; a row goes once Discord took every part
    "outbox", metadata,
    Column("id", Id, primary_key=True),
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE")),
    Column("channel", Text, nullable=False),
    Column("payload", Text, nullable=False),
    Column("parts_done", Integer, nullable=False, server_default="0"),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("created_at", Double, nullable=False),
    sqlite_autoincrement=True,
)

results = Table(       # one row per person per ended game: /stats and /leaderboard
    "results", metadata,
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("guild", Text),
    Column("game", Text, nullable=False),
    Column("user_id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("outcome", Text, CheckConstraint("outcome IN ('win', 'loss', 'abandoned')"), nullable=False),
    Column("ended_at", Double, nullable=False),
    Index("results_by_user", "user_id", "guild", "game"),
    Index("results_by_board", "guild", "game", "user_id"),
    Index("results_latest", "user_id", "guild", "ended_at"),
)

locales = Table(       # the language of a server (guild:<id>) or user (user:<id>), for what is said unprompted
    "locales", metadata,
    Column("who", Text, primary_key=True),
    Column("locale", Text, nullable=False),
)

ratings = Table(       # a skill rating per player (or computer level, cpu:<level>), game and server ('' for DMs)
    "ratings", metadata,
    Column("guild", Text, primary_key=True),
    Column("game", Text, primary_key=True),
    Column("player", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("score", Double, nullable=False),          # mu - 3 sigma, the conservative estimate shown
    Column("games", Integer, nullable=False, server_default="0"),
    Column("updated_at", Double, nullable=False),
    Index("ratings_board", "guild", "game", "score"),
    Index("ratings_of_player", "player", "guild"),
)

rating_changes = Table(   # what each rated game did to each rating, in the order it was done (store/ratings.py)
    "rating_changes", metadata,
    Column("id", Id, primary_key=True),
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("guild", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("player", Text, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Double, nullable=False),
    Column("sigma_before", Double, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("ended_at", Double, nullable=False),
    UniqueConstraint("game_id", "player"),
    Index("rating_changes_of_player", "player", "guild", "game", "id"),
    sqlite_autoincrement=True,
)

analyses = Table(      # an ended game's analysis (issue #37): derived data, computed again when missing
    "analyses", metadata,
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("rules", Integer, primary_key=True),
    Column("engine", Integer, nullable=False),
    Column("moves", Integer, nullable=False),
    Column("data", Text, nullable=False),
    Column("seconds", Double, nullable=False),
    Column("created_at", Double, nullable=False),
)

clocks = Table(        # a person's bank in a game with a speed (issue #34, table/clock.py); none for untimed games
    "clocks", metadata,
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Text, primary_key=True),
    Column("bank", Double, nullable=False),          # seconds left as of ``since``
    Column("since", Double),                         # when the game began to wait for them (None: it does not)
    Column("credit", Double, nullable=False, server_default="0"),   # the increment their last move earned
)

hours = Table(         # a person's time zone, quiet hours and away spell (/notify, issue #34)
    "hours", metadata,
    Column("user_id", Text, primary_key=True),
    Column("zone", Text, nullable=False, server_default="UTC"),
    Column("quiet_from", Integer),                   # minutes after local midnight; both None: no quiet hours
    Column("quiet_to", Integer),
    Column("away_until", Double),
)

away_spells = Table(   # the away spells people took (#34, 0010): the bound of 21 days in any 60 reads them
    "away_spells", metadata,
    Column("user_id", Text, primary_key=True),
    Column("began", Double, primary_key=True),
    Column("ended", Double, nullable=False),         # cut to the moment of return when one comes back early
)

leagues = Table(       # a league (issue #35): a season of paired games in a server's channel (table/league.py)
    "leagues", metadata,
    Column("id", Id, primary_key=True),
    Column("guild", Text),
    Column("channel", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("format", Text, CheckConstraint("format IN ('swiss', 'round-robin', 'pods')"), nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("speed", Text, nullable=False),
    Column("status", Text, CheckConstraint("status IN ('signup', 'running', 'paused', 'finished', 'cancelled')"),
           nullable=False),
    Column("organiser", Text, nullable=False),
    Column("round", Integer, nullable=False, server_default="0"),     # the round being played (0: none yet)
    Column("version", Integer, nullable=False, server_default="0"),
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
    Index("leagues_by_guild", "guild", "status"),
    sqlite_autoincrement=True,
)

league_players = Table(
    "league_players", metadata,
    Column("league_id", Id, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("seed", Integer, nullable=False),                          # the order of entry
    Column("is_bot", Integer, nullable=False, server_default="0"),
    Column("status", Text, CheckConstraint("status IN ('active', 'withdrawn', 'dropped')"), nullable=False,
           server_default="active"),
)

league_games = Table(  # a round's table (or bye): its seats in order, its game, and what it scored once ended
    "league_games", metadata,
    Column("id", Id, primary_key=True),
    Column("league_id", Id, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),                         # the table's number in its round
    Column("seats", Text, nullable=False),                            # JSON: user ids, first mover first
    Column("game_id", Id, ForeignKey("games.id", ondelete="SET NULL")),
    Column("points", Text),                                           # JSON {user: league points}; None: not yet
    Column("scores", Text),                                           # JSON {user: the game's own score}
    Column("fixed", Text),                                            # the organiser's note when a result was fixed
    UniqueConstraint("league_id", "round", "board"),
    Index("league_games_by_game", "game_id"),
    sqlite_autoincrement=True,
)

league_events = Table(  # what the organiser did (pause, drop, fix ...), shown with the standings
    "league_events", metadata,
    Column("id", Id, primary_key=True),
    Column("league_id", Id, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("at", Double, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("data", Text, nullable=False, server_default="{}"),
    sqlite_autoincrement=True,
)

send_budget = Table(   # Discord's global limit shared by the bot's processes (issue #50, store/budget.py, 0012)
    "send_budget", metadata,
    Column("name", Text, primary_key=True),            # 'global': the one budget of a bot token
    Column("next_at", Double, nullable=False),         # when the next request may go (GCRA), the database's clock
)

# ----- spectators (issue #49, 0013; store/spectators.py) -----------------------------------------------------
watchers = Table(      # who watches a game: added to its thread, or told by direct message (spectator_prefs)
    "watchers", metadata,
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Text, primary_key=True),
    Column("guild", Text),
    Column("how", Text, CheckConstraint("how IN ('thread', 'dm')"), nullable=False),
    Column("since", Double, nullable=False),
    Index("watchers_of_user", "user_id"),
)

spectator_prefs = Table(   # a person's choices: what a watched game's direct messages carry, followers or not
    "spectator_prefs", metadata,
    Column("user_id", Text, primary_key=True),
    Column("watch_dm", Text, CheckConstraint("watch_dm IN ('rounds', 'end')")),     # None: not chosen yet
    Column("followers", Integer, nullable=False, server_default="1"),             # 0: refuses followers
)

follows = Table(       # follower → followed, per server they share (the one it was asked in)
    "follows", metadata,
    Column("follower", Text, primary_key=True),
    Column("followed", Text, primary_key=True),
    Column("guild", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("since", Double, nullable=False),
    Index("follows_of_followed", "followed", "guild"),
)

spectator_mail = Table(   # a watcher's or follower's direct message, held until its moment and then sent once
    "spectator_mail", metadata,
    Column("id", Id, primary_key=True),
    Column("user_id", Text, nullable=False),
    Column("kind", Text, CheckConstraint("kind IN ('round', 'end', 'follow')"), nullable=False),
    Column("guild", Text),
    Column("game_id", Id),
    Column("payload", Text, nullable=False),
    Column("due", Double, nullable=False),
    Column("created_at", Double, nullable=False),
    Column("sent", Double),
    Index("spectator_mail_due", "due", sqlite_where=text("sent IS NULL"), postgresql_where=text("sent IS NULL")),
    Index("spectator_mail_of_user", "user_id", "kind", "created_at"),
    sqlite_autoincrement=True,
)

tv_channels = Table(   # a server's TV channel (/settings tv_channel:)
    "tv_channels", metadata,
    Column("guild", Text, primary_key=True),
    Column("channel", Text, nullable=False),
    Column("set_by", Text, nullable=False),
    Column("set_at", Double, nullable=False),
)

tv_cards = Table(      # a game's live card in its server's TV channel
    "tv_cards", metadata,
    Column("game_id", Id, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("guild", Text),
    Column("channel", Text, nullable=False),
    Column("message", Text),                          # None: not posted yet
    Column("shown", Integer, nullable=False, server_default="0"),     # the game's version the card shows
    Column("moves", Integer, nullable=False, server_default="0"),     # the log's length it shows
    Column("shown_at", Double),
    Column("ended_at", Double),                       # the game ended (or was abandoned) then
    Index("tv_cards_of_guild", "guild"),
)

# every table, parents first (the order a copy inserts them in)
TABLES = tuple(t.name for t in metadata.sorted_tables)
# the tables whose ids a sequence (PostgreSQL) or AUTOINCREMENT (SQLite) hands out
SEQUENCED = ("games", "actions", "timers", "outbox", "rating_changes", "leagues", "league_games", "league_events",
             "spectator_mail")
