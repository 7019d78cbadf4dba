"""The store's statements, SQLAlchemy Core, built once: at import for those every database shares, per
dialect and shards (``Statements``) for the few that differ, so that SQLAlchemy's compiled cache (and on
PostgreSQL asyncpg's prepared statements) serve every later call."""

from __future__ import annotations

import functools

from sqlalchemy import (
    Double,
    and_,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.types import BigInteger, Integer, Text

from .dialects import ByteOrder, JsonHas, NamesObject, ShardOf, upsert, upsert_from_select
from .schema import (
    OPEN,
    actions,
    analyses,
    away_spells,
    clocks,
    games,
    hours,
    locales,
    notify,
    outbox,
    results,
    seats,
    settings,
    timers,
)

OPEN_STATUSES = ("lobby", "running")
ENDED = ("finished", "abandoned")


def _param(name: str, type_=Text):
    return bindparam(name, type_=type_)


def _many(name: str):
    return bindparam(name, expanding=True)


# ----- games and seats -----------------------------------------------------------------------------------
g, s = games.alias("g"), seats.alias("s")

# A game with its seats in one statement (a row per seat, the game's columns repeated; a lobby's seats are
# never empty, its host sits): a read is one round trip, not two.
_SEATED = (select(games, seats.c.user_id.label("seat_user"), seats.c.name.label("seat_name"),
                  seats.c.is_bot.label("seat_bot"))
           .select_from(games.outerjoin(seats, seats.c.game_id == games.c.id)).order_by(seats.c.position))
GAME = _SEATED.where(games.c.id == _param("id", BigInteger))
OPEN_GAME = _SEATED.where(games.c.channel == _param("channel"), games.c.status.in_(OPEN_STATUSES))
_LATEST_ID = (select(g.c.id).where(g.c.channel == _param("channel"))
              .order_by(g.c.status.in_(OPEN_STATUSES).desc(), g.c.id.desc()).limit(1).scalar_subquery())
LATEST_GAME = _SEATED.where(games.c.id == _LATEST_ID)
GAME_IDS = select(games.c.id).where(games.c.status.in_(_many("statuses"))).order_by(games.c.id)
GAME_IDS_OF_GUILD = GAME_IDS.where(games.c.guild == _param("guild"))
GAME_IDS_OF_USER = (select(g.c.id).join(s, s.c.game_id == g.c.id)
                    .where(s.c.user_id == _param("user"), g.c.status.in_(_many("statuses")))
                    .order_by(g.c.updated_at))

NEW_GAME = insert(games).returning(games.c.id)
IMPORT_GAME = NEW_GAME
NEW_SEAT = insert(seats)
DROP_SEATS = delete(seats).where(seats.c.game_id == _param("game_id", BigInteger))


@functools.lru_cache(maxsize=32)
def bump(columns: tuple[str, ...]):
    """UPDATE games SET <columns>, version + 1 … WHERE id = :game_id AND version = :read_version."""
    return (update(games)
            .where(games.c.id == _param("game_id", BigInteger), games.c.version == _param("read_version", Integer))
            .values(version=games.c.version + 1, updated_at=_param("now", Double),
                    **{c: bindparam(c, type_=games.c[c].type) for c in columns}))


# the next log row, numbered after the game's last one in the same statement (no SELECT first)
APPEND_ACTION = insert(actions).from_select(
    ["game_id", "seq", "seat", "action", "line", "at"],
    select(_param("game_id", BigInteger), func.coalesce(func.max(actions.c.seq), 0) + 1, _param("seat"),
           _param("action"), _param("line"), _param("at", Double))
    .where(actions.c.game_id == _param("game_id", BigInteger)))

# PostgreSQL: a move that goes on (the same seats, no ending) in one statement, one round trip in autocommit. The
# general path (BEGIN, the update, the log rows, the timers out and in, COMMIT) waits for the server six times
# (seven with the read before it), and on a busy machine each wait may be for a core. Every part hangs on the
# version-checked update: if another process moved first, nothing is written and the count is 0. The parts of a
# WITH run once, to completion, on one snapshot: the DELETE does not see the timers the INSERT adds.
PG_RECORD_MOVE = text("""
WITH bumped AS (
    UPDATE games SET status = :status, state = :state, waiting = :waiting, version = version + 1,
                     updated_at = :now
    WHERE id = :game_id AND version = :read_version
    RETURNING id
), logged AS (
    INSERT INTO actions (game_id, seq, seat, action, line, at)
    SELECT bumped.id, last.n + m.ord, m.seat, m.action, m.line, :now
    FROM bumped,
         (SELECT COALESCE(MAX(seq), 0) AS n FROM actions WHERE game_id = :game_id) AS last,
         unnest(CAST(:seats AS TEXT[]), CAST(:actions AS TEXT[]), CAST(:lines AS TEXT[]))
             WITH ORDINALITY AS m(seat, action, line, ord)
), dropped AS (
    DELETE FROM timers
    WHERE game_id IN (SELECT id FROM bumped) AND fired IS NULL AND kind <> ALL(CAST(:keep AS TEXT[]))
), timed AS (
    INSERT INTO timers (game_id, kind, version, due)
    SELECT bumped.id, t.kind, :version, t.due
    FROM bumped, unnest(CAST(:kinds AS TEXT[]), CAST(:dues AS DOUBLE PRECISION[])) AS t(kind, due)
)
SELECT count(*) FROM bumped""")

LOG = (select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.line, actions.c.at)
       .where(actions.c.game_id == _param("game_id", BigInteger)).order_by(actions.c.seq)
       .limit(_param("limit", Integer)).offset(_param("offset", Integer)))
LOG_LENGTH = select(func.count()).select_from(actions).where(actions.c.game_id == _param("game_id", BigInteger))

# ----- timers and the outbox ---------------------------------------------------------------------------------
TIMER_COLUMNS = (timers.c.id, timers.c.game_id, timers.c.kind, timers.c.version, timers.c.due)
PENDING = select(*TIMER_COLUMNS).where(timers.c.fired.is_(None)).order_by(timers.c.due, timers.c.id)
PENDING_OF_GAME = PENDING.where(timers.c.game_id == _param("game_id", BigInteger))
DROP_TIMERS = delete(timers).where(timers.c.game_id == _param("game_id", BigInteger), timers.c.fired.is_(None),
                                   timers.c.kind.not_in(_many("keep")))
NEW_TIMER = insert(timers)
# one claimer wins: the row is locked while claimed (PostgreSQL; SQLite has one writer and no FOR UPDATE)
CLAIM_TIMER = (update(timers).values(fired=_param("now", Double))
               .where(timers.c.id == select(timers.c.id)
                      .where(timers.c.id == _param("timer_id", BigInteger), timers.c.fired.is_(None))
                      .with_for_update(skip_locked=True).scalar_subquery())
               .returning(timers.c.id))

NEW_OUTGOING = insert(outbox)
OUTGOING_PROGRESS = update(outbox).where(outbox.c.id == _param("outgoing_id", BigInteger)).values(
    parts_done=_param("parts_done", Integer))
OUTGOING_FAILED = (update(outbox).where(outbox.c.id == _param("outgoing_id", BigInteger))
                   .values(attempts=outbox.c.attempts + 1).returning(outbox.c.attempts))
OUTGOING_DONE = delete(outbox).where(outbox.c.id == _param("outgoing_id", BigInteger))

# ----- how long games took (the lobby's estimate, #34): the latest finished games of one game ----------------
FINISHED_SPANS = (select(g.c.options, g.c.updated_at,
                         select(func.count()).where(seats.c.game_id == g.c.id).scalar_subquery().label("players"),
                         select(func.min(actions.c.at)).where(actions.c.game_id == g.c.id)
                         .scalar_subquery().label("first"))
                  .where(g.c.game == _param("game"), g.c.status == "finished")
                  .order_by(g.c.id.desc()).limit(_param("limit", Integer)))

# ----- clocks and hours (issue #34) ------------------------------------------------------------------------
CLOCKS = (select(clocks.c.user_id, clocks.c.bank, clocks.c.since, clocks.c.credit)
          .where(clocks.c.game_id == _param("game_id", BigInteger)))
DROP_CLOCKS = delete(clocks).where(clocks.c.game_id == _param("game_id", BigInteger))
NEW_CLOCK = insert(clocks)
HOURS = (select(hours.c.user_id, hours.c.zone, hours.c.quiet_from, hours.c.quiet_to, hours.c.away_until)
         .where(hours.c.user_id.in_(_many("users"))))

AWAY_SPELLS = (select(away_spells.c.began, away_spells.c.ended)
               .where(away_spells.c.user_id == _param("user_id"), away_spells.c.ended > _param("since", Double))
               .order_by(away_spells.c.began))

# ----- settings, notification choices, languages ----------------------------------------------------------
SETTINGS = select(settings).where(settings.c.guild == _param("guild"))
LOCALE = select(locales.c.locale).where(locales.c.who == _param("who"))
WANTS_DM = select(notify.c.dm).where(notify.c.user_id == _param("user_id"))

# ----- listings ------------------------------------------------------------------------------------------------
SUMMARY = (select(g.c.id, g.c.game, g.c.guild, g.c.channel, g.c.status, g.c.waiting, g.c.updated_at,
                  NamesObject(s.c.user_id, s.c.name, s.c.position).label("names"))
           .select_from(g.outerjoin(s, s.c.game_id == g.c.id)).group_by(g.c.id))
OPEN_GAMES_OF = (SUMMARY.where(g.c.guild.is_not_distinct_from(_param("guild")), g.c.status.in_(OPEN_STATUSES))
                 .order_by(g.c.id))
TURNS_OF = (SUMMARY.where(g.c.status == "running",
                          g.c.id.in_(select(seats.c.game_id).where(seats.c.user_id == _param("user"))),
                          JsonHas(g.c.waiting, _param("user")))
            .order_by(g.c.updated_at))

# a server's started games, newest first (a review's game to choose, #28)
RECENT_OF = (SUMMARY.where(g.c.guild.is_not_distinct_from(_param("guild")), g.c.state.is_not(None))
             .order_by(g.c.id.desc()).limit(_param("limit", Integer)))

RECORD = (select(results.c.game, results.c.outcome, func.count()).where(results.c.user_id == _param("user"))
          .group_by(results.c.game, results.c.outcome))
RECORD_IN_GUILD = RECORD.where(results.c.guild == _param("guild"))


def _board(in_guild: bool):
    """Per person: the name of their latest game, wins, finished games, abandoned; most wins first, then best
    win rate, then most played, then name (byte order, as SQLite sorts)."""
    r, latest = results.alias("r"), results.alias("latest")
    where = [r.c.game == _param("game")] + ([r.c.guild == _param("guild")] if in_guild else [])
    count = lambda cond: func.sum(case((cond, 1), else_=0))     # noqa: E731
    per = (select(r.c.user_id, func.max(r.c.ended_at).label("last"), count(r.c.outcome == "win").label("wins"),
                  count(r.c.outcome != "abandoned").label("played"),
                  count(r.c.outcome == "abandoned").label("abandoned"))
           .where(*where).group_by(r.c.user_id).subquery("per"))
    same = [latest.c.game == _param("game")] + ([latest.c.guild == _param("guild")] if in_guild else [])
    name = (select(latest.c.name).where(latest.c.user_id == per.c.user_id, latest.c.ended_at == per.c.last, *same)
            .limit(1).scalar_subquery())
    b = select(per, name.label("name")).where(per.c.played > 0).subquery("b")
    return (select(b.c.user_id, b.c.name, b.c.wins, b.c.played, b.c.abandoned)
            .order_by(b.c.wins.desc(), (cast(b.c.wins, Double) / b.c.played).desc(), b.c.played.desc(),
                      ByteOrder(func.lower(b.c.name)))
            .limit(_param("limit", Integer)))


BOARD, BOARD_IN_GUILD = _board(False), _board(True)


def results_of(where):
    """The rows of ``results`` for ended games: every person seated (computers left out; a person handed to a
    computer lost), a shared victory a win, an abandoned started game 'abandoned'."""
    outcome = case((g.c.status == "abandoned", literal("abandoned")),
                   (and_(s.c.is_bot == 0, JsonHas(g.c.result, s.c.user_id, "winners")), literal("win")),
                   else_=literal("loss"))
    return (select(g.c.id, g.c.guild, g.c.game, s.c.user_id, s.c.name, outcome, g.c.updated_at)
            .select_from(g.join(s, s.c.game_id == g.c.id))
            .where(g.c.status.in_(ENDED), g.c.state.is_not(None), or_(s.c.is_bot == 0, s.c.user_id.not_like("cpu-%")),
                   where))


# ----- health and metrics (table/metrics.py): one round trip of indexed counts, read at most every few seconds --
PING = select(literal(1))
_UNFIRED = timers.c.fired.is_(None)
GAUGES = select(
    # the predicate written as the partial index's own, so the count reads that index alone
    select(func.count()).select_from(games).where(text(OPEN)).scalar_subquery().label("open_games"),
    select(func.count()).select_from(timers).where(_UNFIRED, timers.c.due <= _param("now", Double))
    .scalar_subquery().label("timers_due"),
    select(func.count()).select_from(timers).where(_UNFIRED, timers.c.due <= _param("late_before", Double))
    .scalar_subquery().label("timers_late"),
    select(func.count()).select_from(outbox).scalar_subquery().label("outbox"),
    select(func.min(outbox.c.created_at)).scalar_subquery().label("outbox_oldest"))


# an ended game's analysis (issue #37)
ANALYSIS = select(analyses).where(analyses.c.game_id == _param("game_id", BigInteger),
                                  analyses.c.rules == _param("rules", Integer))

RESULT_COLUMNS = ["game_id", "guild", "game", "user_id", "name", "outcome", "ended_at"]


class Statements:
    """The statements that depend on the dialect (upserts) or on the process's shards, built once per store."""

    def __init__(self, dialect: str, shards=None):
        self.write_results = upsert_from_select(dialect, results, ["game_id", "user_id"], RESULT_COLUMNS,
                                                results_of(g.c.id == _param("game_id", BigInteger)))
        self.save_settings = upsert(dialect, settings, ["guild"])
        self.save_locale = upsert(dialect, locales, ["who"])
        self.save_dm = upsert(dialect, notify, ["user_id"])
        self.save_analysis = upsert(dialect, analyses, ["game_id", "rules"])
        self.save_hours = upsert(dialect, hours, ["user_id"])
        self.save_away_spell = upsert(dialect, away_spells, ["user_id", "began"])
        mine = true() if shards is None else ShardOf(g.c.guild, shards.count).in_(list(shards.ids))
        of_my_games = true() if shards is None else select(g.c.id).where(g.c.id == timers.c.game_id, mine).exists()
        self.due_timers = (select(*TIMER_COLUMNS).where(timers.c.fired.is_(None), timers.c.due <= _param("now", Double),
                                                        of_my_games).order_by(timers.c.due, timers.c.id))
        self.next_due = select(func.min(timers.c.due)).where(timers.c.fired.is_(None), of_my_games)
        self.outgoing = (select(outbox).select_from(outbox.outerjoin(g, g.c.id == outbox.c.game_id)).where(mine)
                         .order_by(outbox.c.id).limit(_param("limit", Integer)))
