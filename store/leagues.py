"""Leagues in the store (issue #35): the league, its players, each round's tables and the organiser's log, for
SQLite and PostgreSQL alike. The service is table/league.py; this module knows nothing of pairing.

A round's tables are written in one transaction with the league's round number and version (optimistic: the
write names the version it read), and the tables' (league, round, board) are unique, so two processes, or a
restart, never pair a round twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlalchemy import BigInteger, Text, bindparam, insert, select, update

from . import queries as q
from .schema import league_events, league_games, league_players, leagues
from .store import Store, VersionConflict


def _p(name: str, type_=Text):
    return bindparam(name, type_=type_)


@dataclass
class LeagueRow:
    id: int
    guild: str | None
    channel: str
    game: str
    format: str
    rounds: int
    speed: str
    status: str
    organiser: str
    round: int
    version: int
    created_at: float
    updated_at: float


@dataclass
class Entrant:
    user_id: str
    name: str
    seed: int
    is_bot: bool
    status: str = "active"


@dataclass
class Pairing:
    id: int
    round: int
    board: int
    seats: list[str]
    game_id: int | None
    points: dict[str, float] | None = None
    scores: dict[str, float] | None = None
    fixed: str | None = None

    @property
    def bye(self) -> bool:
        return len(self.seats) == 1


@dataclass
class Event:
    at: float
    user_id: str
    kind: str
    data: dict = field(default_factory=dict)


NEW_LEAGUE = insert(leagues).returning(leagues.c.id)
LEAGUE = select(leagues).where(leagues.c.id == _p("id", BigInteger))
LEAGUES = select(leagues.c.id).where(leagues.c.status.in_(bindparam("statuses", expanding=True))).order_by(
    leagues.c.id)
LEAGUES_OF_CHANNEL = select(leagues.c.id).where(leagues.c.channel == _p("channel")).order_by(leagues.c.id.desc())
PLAYERS = select(league_players).where(league_players.c.league_id == _p("id", BigInteger)).order_by(
    league_players.c.seed)
GAMES = select(league_games).where(league_games.c.league_id == _p("id", BigInteger)).order_by(
    league_games.c.round, league_games.c.board)
BY_GAME = select(league_games.c.league_id).where(league_games.c.game_id == _p("game_id", BigInteger))
EVENTS = select(league_events).where(league_events.c.league_id == _p("id", BigInteger)).order_by(league_events.c.id)


def _league(r) -> LeagueRow:
    m = r._mapping
    return LeagueRow(**{k: m[k] for k in LeagueRow.__dataclass_fields__})


def _pairing(r) -> Pairing:
    return Pairing(r.id, r.round, r.board, json.loads(r.seats), r.game_id,
                   json.loads(r.points) if r.points is not None else None,
                   json.loads(r.scores) if r.scores is not None else None, r.fixed)


class LeagueStore:
    """The leagues' rows in ``store``: reads and version-checked writes."""

    def __init__(self, store: Store):
        self.store = store

    # ----- reading ---------------------------------------------------------------------------------------
    async def league(self, league_id: int) -> LeagueRow | None:
        rows = await self.store.select(LEAGUE, {"id": league_id})
        return _league(rows[0]) if rows else None

    async def leagues(self, statuses: tuple[str, ...] = ("signup", "running", "paused")) -> list[LeagueRow]:
        ids = [r[0] for r in await self.store.select(LEAGUES, {"statuses": list(statuses)})]
        return [x for x in [await self.league(i) for i in ids] if x is not None]

    async def of_channel(self, channel: str) -> list[int]:
        """The leagues of a channel, newest first."""
        return [r[0] for r in await self.store.select(LEAGUES_OF_CHANNEL, {"channel": channel})]

    async def of_game(self, game_id: int) -> int | None:
        rows = await self.store.select(BY_GAME, {"game_id": game_id})
        return rows[0][0] if rows else None

    async def players(self, league_id: int) -> list[Entrant]:
        return [Entrant(r.user_id, r.name, r.seed, bool(r.is_bot), r.status)
                for r in await self.store.select(PLAYERS, {"id": league_id})]

    async def pairings(self, league_id: int) -> list[Pairing]:
        return [_pairing(r) for r in await self.store.select(GAMES, {"id": league_id})]

    async def events(self, league_id: int) -> list[Event]:
        return [Event(r.at, r.user_id, r.kind, json.loads(r.data))
                for r in await self.store.select(EVENTS, {"id": league_id})]

    # ----- writing ---------------------------------------------------------------------------------------
    async def create(self, *, guild: str | None, channel: str, game: str, fmt: str, rounds: int, speed: str,
                     organiser: str, now: float) -> LeagueRow:
        async def work(conn):
            return (await conn.execute(NEW_LEAGUE, {
                "guild": guild, "channel": channel, "game": game, "format": fmt, "rounds": rounds, "speed": speed,
                "status": "signup", "organiser": organiser, "round": 0, "version": 0, "created_at": now,
                "updated_at": now})).scalar_one()
        return await self.league(await self.store.transaction(work))

    async def _bump(self, conn, league: LeagueRow, now: float, **columns) -> None:
        res = await conn.execute(update(leagues).where(leagues.c.id == league.id,
                                                       leagues.c.version == league.version)
                                 .values(version=league.version + 1, updated_at=now, **columns))
        if res.rowcount != 1:
            raise VersionConflict(league.id)

    async def change(self, league: LeagueRow, now: float, *, event: Event | None = None, notice: dict | None = None,
                     **columns) -> LeagueRow:
        """Set columns of the league (version-checked), with an event for its log and a notice (an outbox
        payload) for its channel, all or nothing."""
        async def work(conn):
            await self._bump(conn, league, now, **columns)
            if event is not None:
                await self._event(conn, league.id, event)
            if notice is not None:
                await self._notice(conn, league, notice, now)
        await self.store.transaction(work)
        return await self.league(league.id)

    async def _notice(self, conn, league: LeagueRow, notice: dict, now: float) -> None:
        await conn.execute(q.NEW_OUTGOING, {"game_id": None, "channel": league.channel,
                                            "payload": json.dumps(notice, sort_keys=True), "created_at": now})

    async def _event(self, conn, league_id: int, event: Event) -> None:
        await conn.execute(insert(league_events), {"league_id": league_id, "at": event.at, "user_id": event.user_id,
                                                   "kind": event.kind, "data": json.dumps(event.data, sort_keys=True)})

    async def enter(self, league: LeagueRow, entrant: Entrant, now: float) -> LeagueRow:
        """Add an entrant to a league in sign-up (version-checked)."""
        async def work(conn):
            await self._bump(conn, league, now)
            await conn.execute(insert(league_players), {
                "league_id": league.id, "user_id": entrant.user_id, "name": entrant.name, "seed": entrant.seed,
                "is_bot": int(entrant.is_bot), "status": "active"})
        await self.store.transaction(work)
        return await self.league(league.id)

    async def leave(self, league: LeagueRow, user_id: str, now: float) -> LeagueRow:
        async def work(conn):
            await self._bump(conn, league, now)
            await conn.execute(league_players.delete().where(league_players.c.league_id == league.id,
                                                             league_players.c.user_id == user_id))
        await self.store.transaction(work)
        return await self.league(league.id)

    async def set_player(self, league: LeagueRow, user_id: str, status: str, now: float,
                         event: Event | None = None) -> LeagueRow:
        async def work(conn):
            await self._bump(conn, league, now)
            await conn.execute(update(league_players).where(league_players.c.league_id == league.id,
                                                            league_players.c.user_id == user_id)
                               .values(status=status))
            if event is not None:
                await self._event(conn, league.id, event)
        await self.store.transaction(work)
        return await self.league(league.id)

    async def pair_round(self, league: LeagueRow, round_no: int, tables: list[tuple[str, ...]], now: float,
                         byes: dict[str, float] | None = None, event: Event | None = None, **columns) -> LeagueRow:
        """Store round ``round_no``'s tables (and the league at that round), all or nothing, with ``event`` for
        the log ("paired": the announcement still owed); a bye's points are written at once. VersionConflict
        when the league moved on (another process paired it)."""
        async def work(conn):
            await self._bump(conn, league, now, round=round_no, **columns)
            if event is not None:
                await self._event(conn, league.id, event)
            for board, seats in enumerate(tables, 1):
                bye = len(seats) == 1
                await conn.execute(insert(league_games), {
                    "league_id": league.id, "round": round_no, "board": board, "seats": json.dumps(list(seats)),
                    "game_id": None, "points": json.dumps({seats[0]: (byes or {}).get(seats[0], 1.0)}) if bye else None,
                    "scores": json.dumps({}) if bye else None, "fixed": None})
        await self.store.transaction(work)
        return await self.league(league.id)

    async def announce(self, league: LeagueRow, round_no: int, payload: dict, now: float) -> LeagueRow:
        """Queue a round's announcement in the league's channel and log it ("announced"), in one version-checked
        transaction: a process killed after pairing announces on its return, once (VersionConflict if another
        write came first)."""
        async def work(conn):
            await self._bump(conn, league, now)
            await self._event(conn, league.id, Event(now, "", "announced", {"round": round_no}))
            await self._notice(conn, league, payload, now)
        await self.store.transaction(work)
        return await self.league(league.id)

    async def set_game(self, pairing_id: int, game_id: int) -> None:
        """The game opened for a table (once: a table that has one keeps it)."""
        async def work(conn):
            await conn.execute(update(league_games).where(league_games.c.id == pairing_id,
                                                          league_games.c.game_id.is_(None)).values(game_id=game_id))
        await self.store.transaction(work)

    async def score(self, pairing_id: int, points: dict[str, float], scores: dict[str, float],
                    fixed: str | None = None, event: tuple[int, Event] | None = None) -> None:
        async def work(conn):
            values = {"points": json.dumps(points, sort_keys=True), "scores": json.dumps(scores, sort_keys=True)}
            if fixed is not None:
                values["fixed"] = fixed
            await conn.execute(update(league_games).where(league_games.c.id == pairing_id).values(**values))
            if event is not None:
                await self._event(conn, *event)
        await self.store.transaction(work)


__all__ = ["Entrant", "Event", "LeagueRow", "LeagueStore", "Pairing"]
