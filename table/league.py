"""Leagues (issue #35): a season in a server's channel that pairs its entrants round after round, opens each
pairing as a real game at the league's speed, keeps the standings and ends with a winner.

Formats: Swiss (two-player tables; table/pairing.py's exact matching), round robin (Berger tables, at most
``MAX_ROUND_ROBIN`` entrants) and pods (tables of the game's best size, for games of three or more). The
store keeps everything (store/leagues.py); ``settle`` looks at the running leagues, scores their ended games,
and pairs the next round at once when a round is complete, so a restart loses nothing and pairs nothing twice
(a round's tables are one version-checked write, and a table's game is looked for in its channel before one
is opened). What the league says unprompted (a round's pairings, the final standings) goes through the outbox.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from engine import GAMES, ai
from i18n import N_, _, ngettext, pgettext
from store.leagues import Entrant, Event, LeagueRow, LeagueStore, Pairing
from store.rows import BOT_PREFIX, GameRow, Seat
from store.store import ChannelBusy, VersionConflict

from . import pairing as pr
from .clock import SPEEDS
from .context import Context, speaks
from .lobby import Lobby
from .replies import Notice, Picture, Reply, User, Where, payload
from .scheduler import Scheduler
from .texts import BOT_NAME

log = logging.getLogger("teahouse.table")

FORMATS = ("swiss", "round-robin", "pods")
FORMAT_WORDS = {"swiss": N_("Swiss"), "round-robin": N_("round robin"), "pods": N_("pods")}
STATUS_WORDS = {"signup": N_("sign-up open"), "running": N_("under way"), "paused": N_("paused"),
                "finished": N_("finished"), "cancelled": N_("cancelled")}
SPEED_WORDS = {"untimed": N_("untimed"), "fast": N_("fast"), "daily": N_("daily"), "relaxed": N_("relaxed")}
# the table size pods are made of, per game of three or more players
BEST_POD = {"wagara": 3, "mywuxing": 4, "seikatsu": 3, "wurrm": 4}
MAX_ROUNDS = 20
# what a round says when a Swiss found no pairing under all its rules (table/swiss.py: after withdrawals, or in
# the last round, where only the leaders may break the colour rule by the Dutch rules)
RELAXED_WORDS = {"colours": N_("No other pairing was left: this round someone moves first (or second) more often "
                               "than the colour rule allows."),
                 "rematch": N_("No other pairing was left after the withdrawals: this round has a rematch.")}
LEAGUE = "_league"          # a league game's unseen option: the league's id


def signup_controls() -> list[tuple[str, str]]:
    """A sign-up message's buttons (act, label), in the language spoken now: Discord's and the console's."""
    return [("join", _("Join")), ("leave", _("Leave")), ("start", _("Start (organiser)"))]


def pod_game(key: str) -> bool:
    return GAMES[key].max_players >= 3


class Leagues:
    def __init__(self, ctx: Context, lobby: Lobby, scheduler: Scheduler):
        self.ctx = ctx
        self.lobby = lobby
        self.scheduler = scheduler
        self.rows = LeagueStore(ctx.store)
        # where a table's game is played: a channel of its own (a thread in Discord); the console names one
        self.seen = -1               # the store's count of ended games when the leagues were last settled
        self.channel_for: Callable[[LeagueRow, int, int], Awaitable[str]] = self._named_channel

    @staticmethod
    async def _named_channel(league: LeagueRow, round_no: int, board: int) -> str:
        return f"{league.channel}-L{league.id}-r{round_no}-t{board}"

    # ----- finding the league ------------------------------------------------------------------------------
    async def here(self, where: Where, league_id: int | None = None) -> LeagueRow | None:
        if league_id is not None:
            row = await self.rows.league(league_id)
            return row if row is not None and row.channel == where.channel else None
        ids = await self.rows.of_channel(where.channel)
        return await self.rows.league(ids[0]) if ids else None

    async def _mine(self, where: Where, user: User, manage: bool, statuses: tuple[str, ...]) -> LeagueRow | Reply:
        league = await self.here(where)
        if league is None or league.status not in statuses:
            return Reply.fail(user.id, _("There is no league here for that (see `/league new`)."))
        if user.id != league.organiser and not manage:
            return Reply.fail(user.id, _("Only the organiser or someone who manages the server can do that."))
        return league

    # ----- sign-up -----------------------------------------------------------------------------------------
    @speaks
    async def new(self, where: Where, user: User, game_key: str, fmt: str, rounds: int | None, speed: str,
                  manage: bool) -> Reply:
        """Open a league's sign-up in ``where`` (``manage``: the caller manages the server or holds its role)."""
        if not manage:
            return Reply.fail(user.id, _("Only someone who manages the server (or holds its league role) can "
                                         "open a league."))
        game = GAMES.get(game_key)
        if game is None:
            return Reply.fail(user.id, _("There is no game called '{name}'. Games: {games}.", name=game_key,
                                         games=", ".join(sorted(GAMES))))
        if fmt not in FORMATS:
            return Reply.fail(user.id, _("A league's format is swiss, round-robin or pods."))
        if fmt == "pods" and not pod_game(game.key):
            return Reply.fail(user.id, _("{title} is a game for two: its league is Swiss or round robin, not pods.",
                                         title=game.title))
        if fmt != "pods" and not game.min_players <= 2 <= game.max_players:
            return Reply.fail(user.id, _("{title} is not played by two: its league is pods.", title=game.title))
        if speed not in SPEEDS:
            return Reply.fail(user.id, _("There is no speed '{speed}'. Speeds: {speeds}.", speed=speed,
                                         speeds=", ".join(SPEEDS)))
        if fmt == "round-robin":
            if rounds not in (None, 0):
                return Reply.fail(user.id, _("A round robin has as many rounds as it needs (everyone meets "
                                             "everyone once): leave rounds out."))
            rounds = 0
        elif rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            return Reply.fail(user.id, _("Say how many rounds: 1 to {n}.", n=MAX_ROUNDS))
        current = await self.here(where)
        if current is not None and current.status in ("signup", "running", "paused"):
            return Reply.fail(user.id, _("This channel already has a league; finish or cancel it first."))
        league = await self.rows.create(guild=where.guild, channel=where.channel, game=game.key, fmt=fmt,
                                        rounds=rounds, speed=speed, organiser=user.id, now=self.ctx.clock())
        log.info("league %s: %s opened a %s %s league", league.id, user.id, fmt, game.key)
        return await self.signup_reply(league, _("{name} opened a league.", name=self.ctx.shown(user.name)))

    def describe(self, league: LeagueRow) -> str:
        title = GAMES[league.game].title
        rounds = (_("everyone meets everyone once") if league.format == "round-robin"
                  else ngettext("{n} round", "{n} rounds", league.rounds, n=league.rounds))
        return _("League #{id}: {title}, {format}, {rounds}, speed {speed} — {status}.", id=league.id, title=title,
                 format=_(FORMAT_WORDS[league.format]), rounds=rounds, speed=_(SPEED_WORDS[league.speed]),
                 status=_(STATUS_WORDS[league.status]))

    async def signup_reply(self, league: LeagueRow, head: str) -> Reply:
        players = await self.rows.players(league.id)
        names = ", ".join(self.ctx.shown(self.shown_name(p)) for p in players) or "—"
        need = ""
        if league.format == "swiss" and league.status == "signup":
            least = max(2, league.rounds + (league.rounds % 2 == 0))      # pr.most_rounds(least) >= rounds
            need = ngettext("A Swiss of {rounds} round needs at least {n} players.",
                            "A Swiss of {rounds} rounds needs at least {n} players.", league.rounds,
                            rounds=league.rounds, n=least)
        text = "\n".join([head, self.describe(league),
                          _("Entered ({n}): {names}", n=len(players), names=names), need,
                          _("Join with the button or `/league join`; the organiser starts it with `/league start`.")
                          if league.status == "signup" else ""]).strip()
        return Reply(text=text, status=f"league:{league.status}", game_id=None, version=league.version,
                     controls=[])

    @staticmethod
    def shown_name(p: Entrant) -> str:
        if p.is_bot:
            level = p.name.rsplit("(", 1)[-1].rstrip(")")
            return _(BOT_NAME, n=p.user_id[len(BOT_PREFIX):], level=pgettext("choice", level))
        return p.name

    @speaks
    async def join(self, where: Where, user: User, league_id: int | None = None) -> Reply:
        league = await self.here(where, league_id)
        if league is None:
            return Reply.fail(user.id, _("There is no league here to join."))
        if league.status != "signup":
            return Reply.fail(user.id, _("League #{id} has already started; it takes no more players.",
                                         id=league.id))
        players = await self.rows.players(league.id)
        if any(p.user_id == user.id for p in players):
            return Reply.fail(user.id, _("You are already in league #{id}.", id=league.id))
        if league.format == "round-robin" and len(players) >= pr.MAX_ROUND_ROBIN:
            return Reply.fail(user.id, _("The round robin is full ({n} players).", n=pr.MAX_ROUND_ROBIN))
        try:
            league = await self.rows.enter(league, Entrant(user.id, user.name, len(players) + 1 + _bots(players),
                                                           False), self.ctx.clock())
        except VersionConflict:
            return Reply.fail(user.id, _("The league changed as you joined; try again."))
        await self.ctx.event("league", None, league=league, user=user)           # followers (#49)
        return await self.signup_reply(league, _("{name} entered the league.", name=self.ctx.shown(user.name)))

    @speaks
    async def add_computers(self, where: Where, user: User, level: str, count: int, manage: bool) -> Reply:
        """The organiser enters ``count`` computer players at ``level``, so a small server can fill a league."""
        if level not in ai.LEVELS:
            return Reply.fail(user.id, _("A computer player's level is easy, medium or hard."))
        league = await self._mine(where, user, manage, ("signup",))
        if isinstance(league, Reply):
            return league
        if not 1 <= count <= 50:
            return Reply.fail(user.id, _("Add 1 to 50 computer players at a time."))
        players = await self.rows.players(league.id)
        if league.format == "round-robin" and len(players) + count > pr.MAX_ROUND_ROBIN:
            return Reply.fail(user.id, _("The round robin is full ({n} players).", n=pr.MAX_ROUND_ROBIN))
        n = _bots(players)
        for k in range(count):
            n += 1
            entrant = Entrant(f"{BOT_PREFIX}{n}", BOT_NAME.format(n=n, level=level), len(players) + 1 + k, True)
            league = await self.rows.enter(league, entrant, self.ctx.clock())
        return await self.signup_reply(league, _("{name} entered {n} computer players ({level}).",
                                                 name=self.ctx.shown(user.name), n=count,
                                                 level=pgettext("choice", level)))

    @speaks
    async def leave(self, where: Where, user: User, league_id: int | None = None) -> Reply:
        """Leave a league in sign-up; from a league under way, withdraw: the game in hand is handed to a
        computer and scores as a loss, and no more pairings."""
        league = await self.here(where, league_id)
        if league is None or league.status in ("finished", "cancelled"):
            return Reply.fail(user.id, _("There is no league here to leave."))
        players = {p.user_id: p for p in await self.rows.players(league.id)}
        me = players.get(user.id)
        if me is None or me.status != "active":
            return Reply.fail(user.id, _("You are not playing in league #{id}.", id=league.id))
        if league.status == "signup":
            league = await self.rows.leave(league, user.id, self.ctx.clock())
            return await self.signup_reply(league, _("{name} left the league.", name=self.ctx.shown(user.name)))
        await self._out(league, user.id, "withdrawn", user.id)
        return Reply(text=_("{name} withdrew from league #{id}: their game now scores as a loss, and they are not "
                            "paired again.", name=self.ctx.shown(user.name), id=league.id))

    async def _out(self, league: LeagueRow, player: str, status: str, by: str) -> None:
        await self.rows.set_player(league, player, status, self.ctx.clock(),
                                   Event(self.ctx.clock(), by, status, {"player": player}))
        for p in await self.rows.pairings(league.id):         # their unended game: a computer plays the seat
            if p.round == league.round and p.points is None and p.game_id and player in p.seats:
                row = await self.ctx.store.game(p.game_id)
                if row is not None and row.status == "running":
                    async with self.ctx.lock(row.channel):
                        row = await self.ctx.store.game(p.game_id)
                        seat = row.seat_of(player)
                        if row.status == "running" and seat is not None and not seat.is_bot:
                            game, state = self.ctx.state_of(row)
                            await self.scheduler.hand_over(row, game, state, [player])

    # ----- the organiser -----------------------------------------------------------------------------------
    @speaks
    async def start(self, where: Where, user: User, manage: bool) -> Reply:
        league = await self.here(where)
        if league is not None and league.status in ("running", "paused", "finished"):
            return Reply.fail(user.id, _("League #{id} has already started.", id=league.id))
        league = await self._mine(where, user, manage, ("signup",))
        if isinstance(league, Reply):
            return league
        players = await self.rows.players(league.id)
        game = GAMES[league.game]
        least = max(3, game.min_players) if league.format == "pods" else 2
        if len(players) < least:
            return Reply.fail(user.id, _("League #{id} needs at least {n} players to start; it has {m}.",
                                         id=league.id, n=least, m=len(players)))
        if league.format == "swiss" and league.rounds > pr.most_rounds(len(players)):
            return Reply.fail(user.id, _("A Swiss of {m} players can promise at most {most} rounds (everyone meets "
                                         "everyone once), not {n}: add players (or computers, `/league addbot`), "
                                         "or open it again with fewer rounds.", m=len(players),
                                         most=pr.most_rounds(len(players)), n=league.rounds))
        rounds = league.rounds
        if league.format == "round-robin":
            rounds = len(players) - 1 + len(players) % 2
        try:
            league = await self.rows.change(league, self.ctx.clock(), status="running", rounds=rounds,
                                            event=Event(self.ctx.clock(), user.id, "start"))
        except VersionConflict:
            return Reply.fail(user.id, _("League #{id} has already started.", id=league.id))
        await self.settle()
        league = await self.rows.league(league.id)
        return Reply(text=_("{name} started league #{id}. Round 1 is paired: see the message below, or "
                            "`/league pairings`.", name=self.ctx.shown(user.name), id=league.id))

    @speaks
    async def pause(self, where: Where, user: User, manage: bool, on: bool = True) -> Reply:
        league = await self._mine(where, user, manage, ("running",) if on else ("paused",))
        if isinstance(league, Reply):
            return league
        league = await self.rows.change(league, self.ctx.clock(), status="paused" if on else "running",
                                        event=Event(self.ctx.clock(), user.id, "pause" if on else "resume"))
        if on:
            return Reply(text=_("League #{id} is paused: the games under way go on, and no new round is paired "
                                "until `/league resume`.", id=league.id))
        await self.settle()
        return Reply(text=_("League #{id} goes on.", id=league.id))

    @speaks
    async def cancel(self, where: Where, user: User, manage: bool) -> Reply:
        league = await self._mine(where, user, manage, ("signup", "running", "paused"))
        if isinstance(league, Reply):
            return league
        league = await self.rows.change(league, self.ctx.clock(), status="cancelled",
                                        event=Event(self.ctx.clock(), user.id, "cancel"))
        return Reply(text=_("League #{id} is cancelled. Its games under way go on as ordinary games.",
                            id=league.id))

    @speaks
    async def drop(self, where: Where, user: User, player: str, manage: bool) -> Reply:
        league = await self._mine(where, user, manage, ("running", "paused"))
        if isinstance(league, Reply):
            return league
        players = {p.user_id: p for p in await self.rows.players(league.id)}
        target = players.get(player) or next((p for p in players.values() if p.name == player), None)
        if target is None or target.status != "active":
            return Reply.fail(user.id, _("{name} is not an active player of league #{id}.", name=player,
                                         id=league.id))
        await self._out(league, target.user_id, "dropped", user.id)
        await self.settle()
        return Reply(text=_("{name} was dropped from league #{id}: their game scores as a loss, and they are not "
                            "paired again.", name=self.ctx.shown(self.shown_name(target)), id=league.id))

    @speaks
    async def fix(self, where: Where, user: User, round_no: int, board: int, places: str, manage: bool) -> Reply:
        """Set a table's result by hand: ``places`` the players best first, separated by commas, tied players
        joined by '=' (a drawn pair: 'ann=bob'). Logged, and marked in the standings."""
        league = await self._mine(where, user, manage, ("running", "paused", "finished"))
        if isinstance(league, Reply):
            return league
        table = next((p for p in await self.rows.pairings(league.id) if p.round == round_no and p.board == board),
                     None)
        if table is None or table.bye:
            return Reply.fail(user.id, _("League #{id} has no game at round {round}, table {table}.", id=league.id,
                                         round=round_no, table=board))
        players = {p.user_id: p for p in await self.rows.players(league.id)}
        by_name = {p.name: p.user_id for p in players.values()}
        groups = [[by_name.get(n.strip(), n.strip()) for n in grp.split("=")] for grp in places.split(",")]
        named = [u for grp in groups for u in grp]
        if sorted(named) != sorted(table.seats):
            return Reply.fail(user.id, _("Name every player of that table once, best first: {names}.",
                                         names=", ".join(players[s].name for s in table.seats)))
        points = self.place_points(league, groups, len(table.seats))
        note = places.strip()
        await self.rows.score(table.id, points, table.scores or {}, fixed=note,
                              event=(league.id, Event(self.ctx.clock(), user.id, "fix",
                                                      {"round": round_no, "table": board, "places": note})))
        await self.settle()
        return Reply(text=_("{name} fixed the result of round {round}, table {table}: {places}.",
                            name=self.ctx.shown(user.name), round=round_no, table=board, places=note))

    # ----- scoring -----------------------------------------------------------------------------------------
    @staticmethod
    def place_points(league: LeagueRow, groups: list[list[str]], size: int) -> dict[str, float]:
        if league.format == "pods":
            return pr.place_points(groups, size)
        if len(groups) == 1:                        # a draw
            return dict.fromkeys(groups[0], pr.DRAW)
        return {groups[0][0]: pr.WIN, groups[1][0]: pr.LOSS}

    def score_game(self, league: LeagueRow, table: Pairing, row: GameRow, out: set[str]):
        """(league points, game scores) of an ended game: its places by the result; whoever withdrew, was
        dropped, was removed for time or abandoned the game places last; a game abandoned with no result scores
        nothing for anyone."""
        res = row.result or {}
        seats = list(table.seats)
        losers = {s.user_id for s in row.seats if s.removed} | (out & set(seats))
        if res.get("abandoned_by"):
            losers.add(res["abandoned_by"])
        scores = {s: float(v) for s, v in (res.get("scores") or {}).items()
                  if s in seats and isinstance(v, (int, float))}
        if row.status != "finished" and not res.get("abandoned_by"):
            return dict.fromkeys(seats, 0.0), scores
        if league.format != "pods":
            if losers:
                return {s: 0.0 if s in losers else pr.WIN for s in seats}, scores
            winners = [w for w in res.get("winners", []) if w in seats]
            if len(winners) == 1:
                return {s: pr.WIN if s in winners else pr.LOSS for s in seats}, scores
            return dict.fromkeys(seats, pr.DRAW), scores
        winners = set(res.get("winners", []))
        ranking = res.get("ranking") or sorted(seats, key=lambda s: (s not in winners, -scores.get(s, 0.0)))
        key = {s: (s in losers, s not in winners, ranking.index(s) if res.get("ranking") and s not in winners
                   else 0, -scores.get(s, 0.0)) for s in seats}
        groups: list[list[str]] = []
        for s in sorted(seats, key=lambda s: key[s]):
            if groups and key[groups[-1][0]] == key[s]:
                groups[-1].append(s)
            else:
                groups.append([s])
        return pr.place_points(groups, len(seats)), scores

    # ----- the season's engine -----------------------------------------------------------------------------
    async def settle(self, force: bool = True) -> int:
        """Bring every running league up to date: open the games its tables still lack (after a restart),
        score the games that ended, and when a round is complete pair the next (or end the league with its
        final standings). Returns how many rounds were paired or leagues ended. Safe to call any time, from
        any process: a round is paired by one version-checked write. Not ``force``: only when a game ended
        in this process since the last look (the console after each line; the scheduler's tick forces)."""
        if not force and self.seen == self.ctx.store.endings:
            return 0
        self.seen = self.ctx.store.endings
        done = 0
        for league in await self.rows.leagues(("running",)):
            shards = getattr(self.ctx.store, "shards", None)
            if shards is not None and not shards.owns(league.guild):
                continue            # another process looks after that server
            for _step in range(MAX_ROUNDS + 2):     # all-computer rounds end at once: the next is paired at once
                moved = await self._advance(league)
                if not moved:
                    break
                done += 1
                league = await self.rows.league(league.id)
                if league is None or league.status != "running":
                    break
        return done

    async def _advance(self, league: LeagueRow) -> bool:
        players = await self.rows.players(league.id)
        owed = self.owed(await self.rows.events(league.id), league.round)
        if owed is not None:     # paired, then stopped before its announcement (a kill, a restart): say it now
            for t in [p for p in await self.rows.pairings(league.id) if p.round == league.round and not p.bye]:
                await self._open(league, t, players)
            await self._announce(league, league.round, RELAXED_WORDS.get(owed["relaxed"]))
            return True
        out = {p.user_id for p in players if p.status != "active"}
        tables = [p for p in await self.rows.pairings(league.id) if p.round == league.round]
        for t in tables:
            if t.points is not None:
                continue
            if t.game_id is None:
                await self._open(league, t, players)
                t = next(p for p in await self.rows.pairings(league.id) if p.id == t.id)
                if t.game_id is None:
                    continue
            row = await self.ctx.store.game(t.game_id)
            if row is not None and row.status in ("finished", "abandoned"):
                points, scores = self.score_game(league, t, row, out)
                await self.rows.score(t.id, points, scores)
                t.points = points
        if any(t.points is None for t in tables):
            return False
        history = await self.history(league)
        if league.round >= league.rounds:
            return await self._finish(league, players, history)
        active = [p.user_id for p in players if p.status == "active"]
        next_round = league.round + 1
        try:
            pairs, relaxed = await asyncio.to_thread(      # a search of up to a second: off the event loop
                self.pair, league, [p.user_id for p in players], active, history, next_round)
        except ValueError:                        # nobody left to pair: the league ends, and says so
            return await self._finish(league, players, history, early=True)
        try:
            league = await self.rows.pair_round(league, next_round, pairs, self.ctx.clock(), event=Event(
                self.ctx.clock(), "", "paired", {"round": next_round, "relaxed": relaxed}))
        except VersionConflict:
            return False          # another process paired it
        for t in [p for p in await self.rows.pairings(league.id) if p.round == next_round and not p.bye]:
            await self._open(league, t, players)
        await self._announce(league, next_round, RELAXED_WORDS.get(relaxed))
        log.info("league %s: round %d paired (%d tables%s)", league.id, next_round, len(pairs),
                 f", without {relaxed}" if relaxed else "")
        return True

    def pair(self, league: LeagueRow, entrants: list[str], active: list[str], history: list[pr.Played],
             round_no: int) -> tuple[list[tuple[str, ...]], str | None]:
        """Round ``round_no``'s tables, and what a Swiss could not keep (table/swiss.py: None, "completion",
        "colours" or "rematch", after withdrawals). Round robin: the Berger table of every entrant in order of
        entry; one whose opponent is out has a bye that round. Swiss: the Dutch system, looking ahead to the
        league's last round."""
        if league.format == "round-robin":
            tables = []
            for t in pr.berger(entrants)[round_no - 1]:
                left = tuple(s for s in t if s in active)
                if left:
                    tables.append(left)
            return sorted(tables, key=len, reverse=True), None
        if league.format == "swiss":
            if not active:
                raise ValueError("nobody left")
            got = pr.pair_round(active, history, league.rounds)
            return got.tables, got.relaxed
        game = GAMES[league.game]
        best = min(max(BEST_POD.get(game.key, 3), game.min_players), game.max_players)
        sizes = pr.pod_sizes(len(active), best, max(3, game.min_players) if len(active) >= 3 else game.min_players,
                             game.max_players)
        return pr.pods_round(active, history, sizes), None

    async def history(self, league: LeagueRow) -> list[pr.Played]:
        return [pr.Played(t.round, tuple(t.seats), t.points or {}, t.scores or {})
                for t in await self.rows.pairings(league.id) if t.points is not None]

    async def _open(self, league: LeagueRow, table: Pairing, players: list[Entrant]) -> None:
        """Open and start a table's game in its own channel, seats in order, at the league's speed; or find the
        one opened before a restart."""
        ctx = self.ctx
        names = {p.user_id: p for p in players}
        channel = await self.channel_for(league, table.round, table.board)
        game = GAMES[league.game]
        async with ctx.lock(channel):
            row = await ctx.store.latest_game(channel)
            if row is None:
                host = names[table.seats[0]]
                try:
                    row = await ctx.store.create_game(
                        guild=league.guild, channel=channel, game=game.key,
                        options={"speed": league.speed, "hints": False, LEAGUE: league.id},   # no hints (#47)
                        host=Seat(host.user_id, host.name, host.is_bot), now=ctx.clock(),
                        parent_channel=league.channel)
                except ChannelBusy:
                    row = await ctx.store.open_game(channel)
            await self.rows.set_game(table.id, row.id)
            if row.status != "lobby":
                return
            seats = [Seat(s, names[s].name, names[s].is_bot) for s in table.seats]
            row = await ctx.store.update_lobby(row, seats=seats, options=row.options, host=row.host, now=ctx.clock())
            begun = await self.lobby.begin(row, User(row.host, names[row.host].name))
        if isinstance(begun, Reply):
            log.warning("league %s: round %d table %d did not start", league.id, table.round, table.board)
            return
        reply = await self.lobby.begun(begun, User(row.host, names[row.host].name))
        reply.notes = []
        await ctx.store.add_outgoing(row.id, channel, payload(Notice(channel, reply)), ctx.clock())

    @staticmethod
    def owed(events: list[Event], round_no: int) -> dict | None:
        """The "paired" event of round ``round_no`` when its announcement is still owed, else None. Rounds
        paired before announcements were logged have no such event and are never announced again."""
        paired = next((e.data for e in events if e.kind == "paired" and e.data.get("round") == round_no), None)
        said = any(e.kind == "announced" and e.data.get("round") == round_no for e in events)
        return None if said else paired

    async def _announce(self, league: LeagueRow, round_no: int, note: str | None = None) -> None:
        text, mention = await self.pairings_text(league, round_no)
        if note:
            text += "\n" + _(note)
        reply = Reply(text=text, mention=mention, status=f"league:{league.status}")
        try:
            await self.rows.announce(league, round_no, payload(Notice(league.channel, reply)), self.ctx.clock())
        except VersionConflict:
            pass                  # another process announced it (or moved the league on) first

    async def _finish(self, league: LeagueRow, players: list[Entrant], history: list[pr.Played],
                      early: bool = False) -> bool:
        table = pr.standings([p.user_id for p in players], history, league.format)
        names = {p.user_id: self.shown_name(p) for p in players}
        winners = [names[r.player] for r in table if r.rank == 1]
        head = _("League #{id} is over. The winner: {names}!", id=league.id, names=", ".join(winners))
        if early:
            head = _("League #{id} ends after round {round} of {rounds}: nobody is left to pair.", id=league.id,
                     round=league.round, rounds=league.rounds) + "\n" + head
        reply = Reply(text=head + "\n" + self.standings_lines(league, table, names, await self.rows.events(league.id)),
                      mention=[r.player for r in table if r.rank == 1 and not r.player.startswith(BOT_PREFIX)],
                      status="league:finished")
        try:      # finished and its standings queued in one write: a kill between them loses neither
            league = await self.rows.change(league, self.ctx.clock(), status="finished",
                                            notice=payload(Notice(league.channel, reply)))
        except VersionConflict:
            return False
        log.info("league %s: finished, won by %s", league.id, ", ".join(winners))
        return True

    # ----- what is shown -----------------------------------------------------------------------------------
    async def pairings_text(self, league: LeagueRow, round_no: int) -> tuple[str, list[str]]:
        players = {p.user_id: p for p in await self.rows.players(league.id)}
        lines = [_("League #{id}, round {round} of {rounds} ({title}, {format}):", id=league.id, round=round_no,
                   rounds=league.rounds, title=GAMES[league.game].title, format=_(FORMAT_WORDS[league.format]))]
        mention: list[str] = []
        for t in [p for p in await self.rows.pairings(league.id) if p.round == round_no]:
            who = [self.ctx.shown(self.shown_name(players[s])) for s in t.seats]
            if t.bye:
                lines.append(_("Bye: {name} (scores a win).", name=who[0]))
                continue
            row = await self.ctx.store.game(t.game_id) if t.game_id else None
            if t.points is not None or (row is not None and row.status in ("finished", "abandoned")):
                state = _("ended") + (" " + _("(result fixed by the organiser)") if t.fixed else "")
            elif row is None:
                state = _("opening")
            else:
                state = _("under way")
            link = f"<#{row.channel}>" if row is not None else "—"
            lines.append(_("Table {n}: {players} — {link}, {state}", n=t.board, players=" · ".join(who), link=link,
                           state=state))
            mention += [s for s in t.seats if not players[s].is_bot and s not in mention]
        return "\n".join(lines), mention

    def standings_lines(self, league: LeagueRow, table: list[pr.Standing], names: dict[str, str],
                        events: list[Event]) -> str:
        ties = (_("opponents' points"), _("game score")) if league.format == "pods" else (_("Buchholz"),
                                                                                        _("Sonneborn–Berger"))
        lines = [_("Standings after round {round}: place. name — points ({a}; {b})", round=league.round,
                   a=ties[0], b=ties[1])]
        for r in table:
            lines.append(f"{r.rank}. {self.ctx.shown(names[r.player])} — {_num(r.points)} "
                         f"({_num(r.ties[0])}; {_num(r.ties[1])})")
        for e in events:
            if e.kind == "fix":
                lines.append(_("Fixed by the organiser: round {round}, table {table}: {places}.", **e.data))
            elif e.kind in ("withdrawn", "dropped"):
                lines.append((_("{name} withdrew.") if e.kind == "withdrawn" else _("{name} was dropped."))
                             .format(name=names.get(e.data["player"], e.data["player"])))
        return "\n".join(lines)

    async def table(self, league: LeagueRow):
        players = await self.rows.players(league.id)
        history = await self.history(league)
        return players, pr.standings([p.user_id for p in players], history, league.format), history

    @speaks
    async def standings(self, where: Where, user: User, league_id: int | None = None) -> Reply:
        league = await self.here(where, league_id)
        if league is None:
            return Reply.fail(user.id, _("There is no league here."))
        players, table, _history = await self.table(league)
        names = {p.user_id: self.shown_name(p) for p in players}
        text = self.describe(league) + "\n" + self.standings_lines(league, table, names,
                                                                   await self.rows.events(league.id))
        out = {p.user_id for p in players if p.status != "active"}
        rows = [(r.rank, names[r.player], r.points, r.ties, r.played, r.byes, r.player in out) for r in table]
        heads = ((_("Opp. pts"), _("Score")) if league.format == "pods" else (_("Buchholz"), _("S-B")))
        caption = _("League #{id}: {title}, {format} — {status}", id=league.id, title=GAMES[league.game].title,
                    format=_(FORMAT_WORDS[league.format]), status=_(STATUS_WORDS[league.status]))
        titles = (caption, _("Place"), _("Player"), _("Points"), heads[0], heads[1], _("Games"))

        def make() -> bytes:
            from render.league import standings_png
            return standings_png(titles, rows)
        picture = Picture(f"league-{league.id}-standings.png", make=make, alt=text)
        return Reply(text=text if not self.ctx.render else self.describe(league), image=picture
                     if self.ctx.render else None, status=f"league:{league.status}")

    @speaks
    async def pairings(self, where: Where, user: User, round_no: int | None = None) -> Reply:
        league = await self.here(where)
        if league is None or league.round == 0:
            return Reply.fail(user.id, _("There is no league here with pairings yet."))
        r = league.round if round_no is None else round_no
        if not 1 <= r <= league.round:
            return Reply.fail(user.id, _("League #{id} has rounds 1 to {n} so far.", id=league.id, n=league.round))
        text, _mention = await self.pairings_text(league, r)
        return Reply(text=text, status=f"league:{league.status}")


def _bots(players: list[Entrant]) -> int:
    return sum(1 for p in players if p.is_bot)


def _num(x: float) -> str:
    return f"{x:g}" if x != int(x) else str(int(x))
