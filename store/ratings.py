"""Skill ratings (issue #27): who is getting better, per game and per server.

The model is openskill's Weng-Lin Plackett-Luce (it rates 2 to 8 players, ties and teams alike). Every rated
entity has a rating (mu, sigma), starting at (25, 25/3); what players see is one familiar number:

    shown = round(1500 + 20 * (mu - 3 * sigma))

the conservative estimate (the skill we are ~99 % sure a player has at least), so a new player shows 1500, and
it is marked provisional, ``1500?``, until sigma has dropped below 6 (about a dozen two-player games, fewer at
bigger tables). Because sigma shrinks as games are played, a player who merely holds their level climbs a
little at first: the number says how sure we are as well as how good.

How a game is rated:

- Ratings are kept per game and per server (guild): nobody's play in one server shows in another. Games in
  direct messages (no guild) are rated in a pool of their own (guild ``''``).
- The places come from the engine's result: the winners share first place; then the result's ``ranking``
  if it has one, else the scores (equal scores tie).
- Teams (Seikatsu at four, ``result["teams"]``) are rated as teams: a team's place is its members' place, and
  a shared win is a tie.
- A person removed for missing a deadline (``Seat.removed``: a computer took the seat) places last, below
  everyone who stayed (several removed tie there); in a team they are split from it and placed last alone.
- Each computer level is a rated entity per game and per server (``cpu:easy``, ``cpu:medium``, ``cpu:hard``),
  updated like anyone else; the leaderboard shows them as reference rows. Two computers of one level at a
  table are rated as two players from the same rating; the level then keeps the mean of their new ratings.
- A player who abandons a started game (``/game abandon`` by a seated person) places last and everyone else
  shares first place: leaving a game that is going badly never saves a rating. The table service stores such
  a game's result as ``{"winners": [the others], "abandoned_by": seat}``. A game abandoned by a host who is
  not seated, or a lobby closed, is not rated.
- A table rates its game when its ``rated`` option is on. Unless the host set it, it is on when at least two
  people are seated at the start (computers do not count), off otherwise. An unrated game changes nobody.

The rating of a game is written by the store in the same transaction as the game's end (``rate_game``): a
game cannot end without its ratings, and two games ending at once for the same player both count (the rating
rows are locked, in one order, while they are updated). Every change is kept (``rating_changes``): the card's
history line, and what ``python -m store.rerate [db]`` recomputes from the stored games and results
in the order they were rated, giving exactly the numbers live play gave. Games that ended before this
revision (0007) were never rated live: a rebuild rates them too, first, in the order they ended — run it once
after upgrading, with the bot stopped, to rate a server's history.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from sqlalchemy import bindparam, delete, desc, func, insert, select, union_all, update
from sqlalchemy.types import BigInteger, Double, Integer, Text

from .dialects import INSERTS
from .schema import games, rating_changes, ratings, results, seats

MU, SIGMA = 25.0, 25.0 / 3       # openskill's defaults, a new player's rating (tests hold them to the model's)


@functools.cache
def model():
    """openskill's Plackett-Luce model, loaded when a game is first rated (not with every bot start)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)
BASE, SCALE = 1500, 20
PROVISIONAL_SIGMA = 6.0
CPU = "cpu:"          # a computer level's entity: cpu:easy, cpu:medium, cpu:hard
LEVELS = ("easy", "medium", "hard")


# ----- pure: what a game's result does to ratings --------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def score(self) -> float:
        """The conservative estimate: what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        return display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA


def display(mu: float, sigma: float) -> int:
    """The familiar number: 1500 for a new player."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def shown(mu: float, sigma: float) -> str:
    """The number as players read it, with "?" while it is provisional."""
    return f"{display(mu, sigma)}{'?' if sigma >= PROVISIONAL_SIGMA else ''}"


def guild_key(guild: str | None) -> str:
    return guild or ""


def entity(user_id: str, name: str, is_bot: bool) -> str:
    """Who a seat's rating belongs to: the person (also once removed), or the computer's level."""
    if is_bot and user_id.startswith("cpu-"):
        return CPU + computer_level(name)
    return user_id


def computer_level(name: str) -> str:
    """A computer seat's level, from its stored (English) name "Computer 2 (hard)"; older ones play easy."""
    for level in LEVELS:
        if f"({level})" in name:
            return level
    return "easy"


def is_rated(options: dict, seats_: list) -> bool:
    """The table's ``rated`` option; unset, on when at least two people were seated at the start."""
    if "rated" in options:
        return bool(options["rated"])
    return sum(1 for s in seats_ if not s.user_id.startswith("cpu-")) >= 2


def standings(result: dict, seats_: list) -> list[tuple[list[str], int]]:
    """The game's units (lists of seat ids: a player, or a team) with their places, 1 the best; equal places
    tie. Seats are (user_id, name, is_bot) rows or Seats; removed persons place last."""
    removed = {s.user_id for s in seats_ if s.is_bot and not s.user_id.startswith("cpu-")}
    winners = set(result.get("winners") or [])
    ranking = result.get("ranking")
    scores = result.get("scores") or {}

    def key(seat: str):
        if seat in winners:
            return (0, 0)
        if ranking and seat in ranking:
            return (1, ranking.index(seat))
        value = scores.get(seat)
        return (1, -value if isinstance(value, int | float) else 0)

    everyone = [s.user_id for s in seats_]
    teams = [t for t in result.get("teams") or [] if t]
    grouped = {s for t in teams for s in t}
    units = [[s for s in t if s not in removed] for t in teams] + [[s] for s in everyone
                                                                   if s not in grouped and s not in removed]
    units = [u for u in units if u]
    keys = sorted({key(u[0]) for u in units})
    placed = [(u, keys.index(key(u[0])) + 1) for u in units]
    last = len(keys) + 1
    return placed + [([s], last) for s in everyone if s in removed]


def rate(units: list[tuple[list[str], int]], entity_of: dict[str, str],
         before: dict[str, Rating]) -> dict[str, Rating]:
    """The new rating of every entity at the table, from the places of ``units`` (of seat ids) and the entities'
    ratings ``before``. An entity seated twice (two computers of one level) keeps the mean of its new ratings."""
    if len(units) < 2:
        return {}
    teams = [[model().rating(mu=before[entity_of[s]].mu, sigma=before[entity_of[s]].sigma) for s in seats_]
             for seats_, _place in units]
    new = model().rate(teams, ranks=[place for _seats, place in units])
    got: dict[str, list[Rating]] = {}
    for (seats_, _place), team in zip(units, new, strict=True):
        for seat, r in zip(seats_, team, strict=True):
            got.setdefault(entity_of[seat], []).append(Rating(r.mu, r.sigma))
    return {e: rs[0] if len(rs) == 1 else Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs))
            for e, rs in got.items()}


@dataclass
class Rated:
    """What rating one ended game does: the new ratings, and per entity its place and name."""
    guild: str
    game: str
    ended_at: float
    after: dict[str, Rating]
    places: dict[str, int]
    names: dict[str, str]


def counts(status: str, result: dict | None) -> bool:
    """Is an ended game rated at all: finished with a result, or abandoned by one of its players."""
    return bool(result) and (status == "finished" or (status == "abandoned" and "abandoned_by" in result))


def plan(guild: str | None, game: str, options: dict, status: str, result: dict | None, seats_: list,
         ended_at: float, ratings_now) -> Rated | None:
    """The rating of one ended game (None when it is not rated); ``ratings_now(entities)`` gives the current
    ratings of the entities at the table."""
    if not counts(status, result) or not is_rated(options, seats_):
        return None
    units = standings(result, seats_)
    entity_of = {s.user_id: entity(s.user_id, s.name, bool(s.is_bot)) for s in seats_}
    if len(units) < 2:
        return None
    before = ratings_now(sorted(set(entity_of.values())))
    after = rate(units, entity_of, before)
    places, names = {}, {}
    for seats_of_unit, place in units:
        for s in seats_of_unit:
            e = entity_of[s]
            places[e] = min(place, places.get(e, place))
    for s in seats_:
        e = entity_of[s.user_id]
        names[e] = computer_level(s.name) if e.startswith(CPU) else s.name
    return Rated(guild_key(guild), game, ended_at, after, places, names)


# ----- the statements ------------------------------------------------------------------------------------------
def _p(name: str, type_=Text):
    return bindparam(name, type_=type_)


RATED_ALREADY = select(rating_changes.c.id).where(rating_changes.c.game_id == _p("game_id", BigInteger)).limit(1)
ENDED_GAME = (select(games.c.guild, games.c.game, games.c.options, games.c.status, games.c.result,
                     games.c.updated_at, games.c.state.is_not(None).label("started"))
              .where(games.c.id == _p("game_id", BigInteger)))
SEATS = (select(seats.c.user_id, seats.c.name, seats.c.is_bot)
         .where(seats.c.game_id == _p("game_id", BigInteger)).order_by(seats.c.position))
LOCK = (select(ratings.c.player, ratings.c.mu, ratings.c.sigma)
        .where(ratings.c.guild == _p("guild"), ratings.c.game == _p("game"),
               ratings.c.player.in_(bindparam("players", expanding=True)))
        .order_by(ratings.c.player).with_for_update())
SET_RATING = (update(ratings)
              .where(ratings.c.guild == _p("g"), ratings.c.game == _p("k"), ratings.c.player == _p("p"))
              .values(mu=_p("new_mu", Double), sigma=_p("new_sigma", Double), score=_p("new_score", Double),
                      name=_p("new_name"), games=ratings.c.games + 1, updated_at=_p("at", Double)))
NEW_CHANGE = insert(rating_changes)
NEW_RATINGS = insert(ratings)

CHANGES_OF_GAME = (select(rating_changes.c.player, rating_changes.c.mu_before, rating_changes.c.sigma_before,
                          rating_changes.c.mu, rating_changes.c.sigma, rating_changes.c.place)
                   .where(rating_changes.c.game_id == _p("game_id", BigInteger)).order_by(rating_changes.c.place))

_RATING_COLUMNS = (ratings.c.player, ratings.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
_humans = (select(*_RATING_COLUMNS)
           .where(ratings.c.guild == _p("guild"), ratings.c.game == _p("game"), ratings.c.player.not_like("cpu:%"))
           .order_by(desc(ratings.c.score), ratings.c.player).limit(_p("limit", Integer)))
_computers = select(*_RATING_COLUMNS).where(ratings.c.guild == _p("guild"), ratings.c.game == _p("game"),
                                            ratings.c.player.like("cpu:%"))
# the best people of a game in a server, and every computer level there (reference rows): one statement
BOARD = union_all(_humans.subquery().select(), _computers)

OF_PLAYER = (select(ratings.c.game, ratings.c.mu, ratings.c.sigma, ratings.c.games)
             .where(ratings.c.player == _p("user"), ratings.c.guild == _p("guild")).order_by(ratings.c.game))
# the latest results of a person in a server: the last ten and the current streak (a streak past this: "50+")
STREAK_DEPTH = 50


def _latest(in_guild):
    return (select(results.c.game, results.c.outcome, results.c.ended_at)
            .where(results.c.user_id == _p("user"), in_guild, results.c.outcome != "abandoned")
            .order_by(desc(results.c.ended_at), desc(results.c.game_id)).limit(STREAK_DEPTH))


# one server's, or the direct messages' (guild = NULL is never true; IS NOT DISTINCT FROM skips the index)
LATEST_IN, LATEST_IN_DMS = _latest(results.c.guild == _p("guild")), _latest(results.c.guild.is_(None))
HISTORY = (select(rating_changes.c.game, rating_changes.c.mu, rating_changes.c.sigma, rating_changes.c.place)
           .where(rating_changes.c.player == _p("user"), rating_changes.c.guild == _p("guild"))
           .order_by(rating_changes.c.game, rating_changes.c.id))

# every rating, in key order (what a rebuild must give back exactly)
EVERY_RATING = select(ratings).order_by(ratings.c.guild, ratings.c.game, ratings.c.player)

# rebuild: every ended game, its seats, and the order the games were rated in (plan() keeps the rated ones)
REBUILD_GAMES = (select(games.c.id, games.c.guild, games.c.game, games.c.options, games.c.status, games.c.result,
                        games.c.updated_at, func.min(rating_changes.c.id).label("rated"))
                 .select_from(games.outerjoin(rating_changes, rating_changes.c.game_id == games.c.id))
                 .where(games.c.status.in_(("finished", "abandoned")), games.c.state.is_not(None))
                 .group_by(games.c.id))
REBUILD_SEATS = (select(seats.c.game_id, seats.c.user_id, seats.c.name, seats.c.is_bot)
                 .where(seats.c.game_id.in_(select(games.c.id).where(games.c.status.in_(("finished", "abandoned")))))
                 .order_by(seats.c.game_id, seats.c.position))


def _ensure(dialect: str):
    return INSERTS[dialect](ratings).on_conflict_do_nothing(index_elements=["guild", "game", "player"])


# ----- in the store's transaction: rating a game as it ends ----------------------------------------------------
async def rate_game(conn, dialect: str, game_id: int) -> None:
    """Rate the game that just ended (in the transaction that ended it): nothing for an unrated or abandoned
    game, or one already rated. The entities' rating rows are created if new, then locked in one order."""
    row = (await conn.execute(ENDED_GAME, {"game_id": game_id})).first()
    if row is None or not row.started or not counts(row.status, json.loads(row.result) if row.result else None):
        return
    if (await conn.execute(RATED_ALREADY, {"game_id": game_id})).first() is not None:
        return
    seat_rows = (await conn.execute(SEATS, {"game_id": game_id})).all()
    guild, now = guild_key(row.guild), row.updated_at
    locked: dict[str, Rating] = {}

    def current(entities):
        return {e: locked[e] for e in entities}

    result = json.loads(row.result) if row.result else None
    options = json.loads(row.options)
    if result is None or not is_rated(options, seat_rows) or len(standings(result, seat_rows)) < 2:
        return
    entities = sorted({entity(s.user_id, s.name, bool(s.is_bot)) for s in seat_rows})
    await conn.execute(_ensure(dialect), [{"guild": guild, "game": row.game, "player": e, "name": e, "mu": MU,
                                            "sigma": SIGMA, "score": MU - 3 * SIGMA, "games": 0, "updated_at": now}
                                           for e in entities])
    for r in (await conn.execute(LOCK, {"guild": guild, "game": row.game, "players": entities})).all():
        locked[r.player] = Rating(r.mu, r.sigma)
    rated = plan(row.guild, row.game, options, row.status, result, seat_rows, now, current)
    if rated is not None:
        await write(conn, game_id, rated, locked)


async def write(conn, game_id: int, rated: Rated, before: dict[str, Rating]) -> None:
    """Store a game's new ratings and their changes."""
    entities = sorted(rated.after)
    await conn.execute(SET_RATING, [{"g": rated.guild, "k": rated.game, "p": e, "new_mu": rated.after[e].mu,
                                     "new_sigma": rated.after[e].sigma, "new_score": rated.after[e].score,
                                     "new_name": rated.names[e], "at": rated.ended_at} for e in entities])
    await conn.execute(NEW_CHANGE, [_change(game_id, rated, e, before[e]) for e in entities])


def _change(game_id: int, rated: Rated, e: str, before: Rating) -> dict:
    return {"game_id": game_id, "guild": rated.guild, "game": rated.game, "player": e, "place": rated.places[e],
            "mu_before": before.mu, "sigma_before": before.sigma, "mu": rated.after[e].mu,
            "sigma": rated.after[e].sigma, "ended_at": rated.ended_at}


# ----- reading ------------------------------------------------------------------------------------------------
@dataclass
class Change:
    player: str
    before: Rating
    after: Rating
    place: int

    @property
    def delta(self) -> int:
        return self.after.shown - self.before.shown


async def changes_of(store, game_id: int) -> list[Change]:
    """What a game did to its players' ratings, best place first ([] if it was not rated)."""
    return [Change(r.player, Rating(r.mu_before, r.sigma_before), Rating(r.mu, r.sigma), r.place)
            for r in await store.select(CHANGES_OF_GAME, {"game_id": game_id})]


async def board(store, guild: str | None, game: str, limit: int = 10) -> list[tuple[str, str, Rating, int]]:
    """(player, name, rating, games) of a server's best at a game, best first, with every computer level
    there among them (its player ``cpu:<level>``, its name the level)."""
    rows = await store.select(BOARD, {"guild": guild_key(guild), "game": game, "limit": limit})
    out = [(r.player, r.name, Rating(r.mu, r.sigma), int(r.games)) for r in rows]
    return sorted(out, key=lambda x: (-x[2].score, x[0]))


async def ratings_of(store, user: str, guild: str | None) -> dict[str, tuple[Rating, int]]:
    """A person's rating and rated games per game, in one server."""
    return {r.game: (Rating(r.mu, r.sigma), int(r.games))
            for r in await store.select(OF_PLAYER, {"user": user, "guild": guild_key(guild)})}


async def latest(store, user: str, guild: str | None) -> list[tuple[str, str, float]]:
    """A person's latest finished games in a server (game, win/loss, when), newest first (at most 50)."""
    stmt = LATEST_IN if guild is not None else LATEST_IN_DMS
    return [(r.game, r.outcome, r.ended_at) for r in await store.select(stmt, {"user": user, "guild": guild})]


def streak(outcomes: list[str]) -> tuple[str, int] | None:
    """The current run of equal outcomes (newest first): (outcome, length), or None."""
    if not outcomes:
        return None
    n = next((i for i, o in enumerate(outcomes) if o != outcomes[0]), len(outcomes))
    return outcomes[0], n


async def history(store, user: str, guild: str | None) -> dict[str, tuple[list[int], int]]:
    """Per game, a person's shown rating after each rated game, oldest first (from 1500), and how many of those
    games they won (first place, alone or shared)."""
    out: dict[str, tuple[list[int], int]] = {}
    for r in await store.select(HISTORY, {"user": user, "guild": guild_key(guild)}):
        line, won = out.get(r.game, ([display(MU, SIGMA)], 0))
        out[r.game] = (line + [display(r.mu, r.sigma)], won + (r.place == 1))
    return out


# ----- rebuild: ratings are derived data ----------------------------------------------------------------------
class _Seat:
    __slots__ = ("user_id", "name", "is_bot")

    def __init__(self, user_id, name, is_bot):
        self.user_id, self.name, self.is_bot = user_id, name, is_bot


async def rebuild(store) -> int:
    """Recompute every rating from the stored games, in the order they were rated (games rated before any
    change was kept, by when they ended): all of it in one transaction. Returns how many games were rated."""
    async def work(conn):
        game_rows = (await conn.execute(REBUILD_GAMES)).all()
        seats_of: dict[int, list[_Seat]] = {}
        for r in (await conn.execute(REBUILD_SEATS)).all():
            seats_of.setdefault(r.game_id, []).append(_Seat(r.user_id, r.name, bool(r.is_bot)))
        order = sorted(game_rows, key=lambda g: (g.rated is not None, g.rated or 0, g.updated_at, g.id))
        current: dict[tuple[str, str, str], Rating] = {}
        counts: dict[tuple[str, str, str], int] = {}
        names: dict[tuple[str, str, str], tuple[str, float]] = {}
        changes = []
        for g in order:
            guild = guild_key(g.guild)
            rated = plan(g.guild, g.game, json.loads(g.options), g.status,
                         json.loads(g.result) if g.result else None, seats_of.get(g.id, []), g.updated_at,
                         lambda es, guild=guild, k=g.game: {e: current.get((guild, k, e), Rating()) for e in es})
            if rated is None:
                continue
            for e in sorted(rated.after):
                k = (guild, g.game, e)
                changes.append(_change(g.id, rated, e, current.get(k, Rating())))
                current[k] = rated.after[e]
                counts[k] = counts.get(k, 0) + 1
                names[k] = (rated.names[e], rated.ended_at)
        await conn.execute(delete(rating_changes))
        await conn.execute(delete(ratings))
        rows = [{"guild": k[0], "game": k[1], "player": k[2], "name": names[k][0], "mu": r.mu, "sigma": r.sigma,
                 "score": r.score, "games": counts[k], "updated_at": names[k][1]} for k, r in current.items()]
        for i in range(0, len(rows), 5000):
            await conn.execute(NEW_RATINGS, rows[i:i + 5000])
        for i in range(0, len(changes), 5000):
            await conn.execute(NEW_CHANGE, changes[i:i + 5000])
        return len({c["game_id"] for c in changes})
    return await store.transaction(work)


__all__ = ["BASE", "SCALE", "PROVISIONAL_SIGMA", "Rating", "Change", "display", "shown", "standings", "rate",
           "plan", "rate_game", "rebuild", "board", "ratings_of", "latest", "streak", "history", "changes_of"]
