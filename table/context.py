"""What every part of the table service shares: the store, the clock, one lock per channel, the cached
settings and languages, and how a table is shown — seat names, engine lines in the reader's words, the
pictures, whose turn it is and how a game ended.

Seats are user ids (Discord snowflakes, or names at the console). Engine log lines name seats by id; the
service swaps in display names when it shows them. Nothing here logs an action's text: a secret pick must
never reach a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace

import i18n
from engine import GAMES, Game, IllegalAction, UnknownRules
from i18n import N_, _, ngettext, pgettext
from store import ratings
from store.rows import BOT_PREFIX, GameRow, Settings
from store.store import Store, StoreError

from .records import table_options
from .replies import Picture, Reply, Turn, User, Where, name_seats
from .texts import and_list, seat_line, show, span_text

log = logging.getLogger("teahouse.table")

SETTINGS_TTL = 30.0          # seconds a server's settings are kept in memory


def _unobserved(what: str, seconds: float) -> None:
    """No metrics: a timing goes nowhere."""


class Context:
    """The service's shared state and its ways of showing a table; each concern (lobby, play, scheduler,
    community) is handed one."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 idle_abandon_seconds: float = 24 * 3600, render: bool = True,
                 escape: Callable[[str], str] = str):
        self.store = store
        # how a display name is written into a message: a front end whose messages are markup (Discord's
        # markdown and mentions) escapes it, so a name shows as typed and never formats, hides or pings
        self.escape = escape
        self.clock = clock
        self.idle_abandon_seconds = idle_abandon_seconds
        self.render = render
        self._locks: dict[str, asyncio.Lock] = {}
        self._settings: dict[str | None, tuple[float, Settings]] = {}
        self._locales: dict[str, str] = {}     # guild:<id> / user:<id> → language, as last seen (#17)
        self.ai_options: dict = {}    # keyword arguments for engine.ai (tests: fixed iterations, untimed)
        # how long a step took (what, seconds), for the metrics when they are on (table/metrics.py)
        self.observe: Callable[[str, float], None] = _unobserved
        self.last_played = 0.0        # time.monotonic() of the last move saved: background work lets play go first
        # people's hours and the games' clocks (issue #34), shared by play, the lobby and the scheduler: set by
        # the service (table/service.py), as timekeeping builds on this module
        self.timekeeping = None
        from .estimate import Estimates
        self.estimates = Estimates(store)      # the lobby's estimate of a game's length (#34)
        # who hears of a game's changes beyond its channel — watchers, followers, the TV channel (#49): each
        # ``await listener(kind, row, **data)``; a failing one is logged and never costs the change
        self.listeners: list[Callable] = []
        self.watching = None          # table/watch.py's Watching, set by the service: a table shows who watches

    async def event(self, kind: str, row=None, **data) -> None:
        """Tell the listeners of a change stored: ``move`` (a game moved: ``game``, ``prev`` and ``state``),
        ``start``, ``abandon``, ``league`` (someone joined a league: ``league``, ``user``)."""
        for listener in self.listeners:
            try:
                await listener(kind, row, **data)
            except Exception:
                log.exception("a listener failed on %s of game %s; the change stands", kind,
                              getattr(row, "id", None))

    def lock(self, channel: str) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    # ----- settings and languages ------------------------------------------------------------------------
    async def settings(self, guild: str | None) -> Settings:
        """A server's settings, read at most once per SETTINGS_TTL seconds (every move needs them twice; they
        change rarely, and a change made here is seen at once, one made by another process within the TTL)."""
        now = time.monotonic()
        hit = self._settings.get(guild)
        if hit is not None and now - hit[0] < SETTINGS_TTL:
            return replace(hit[1])
        settings = await self.store.settings(guild)
        self._settings[guild] = (now, settings)
        return replace(settings)

    async def save_settings(self, guild: str | None, settings: Settings) -> None:
        await self.store.save_settings(guild, settings)
        self._settings.pop(guild, None)

    async def remember_locales(self, where: Where | None, user: User | None) -> None:
        """Keep the languages an interaction showed, for what the bot later says on its own: a server's for
        reminders and deadlines in its channels, a user's for direct messages. Written only on a change."""
        for who, locale in ((f"guild:{where.guild or ''}" if where else "", where.locale if where else None),
                            (f"user:{user.id}" if user else "", user.locale if user else None)):
            if not who or not locale:
                continue
            locale = i18n.normalise(locale)
            if self._locales.get(who) != locale:
                if await self.store.locale_of(who) != locale:
                    await self.store.remember_locale(who, locale)
                self._locales[who] = locale

    async def in_language_of(self, user: str, text: str) -> str:
        """``text`` (made for the channel) re-made in ``user``'s remembered language."""
        if isinstance(text, i18n.Msg):
            return text.to(await self.locale_of(f"user:{user}"))
        return text

    async def locale_of(self, who: str) -> str:
        """The language to use for ``guild:<id>`` or ``user:<id>`` when no interaction says it."""
        if who not in self._locales:
            self._locales[who] = await self.store.locale_of(who) or i18n.user_locale()
        return self._locales[who]

    # ----- names and engine lines ------------------------------------------------------------------------
    @staticmethod
    def game_of(key: str) -> Game | None:
        return GAMES.get(key)

    @staticmethod
    def illegal(error: IllegalAction) -> str:
        """An engine's refusal in the caller's language (refusals go to the caller alone)."""
        with i18n.speaking(i18n.user_locale()):
            return i18n.illegal(error)

    def shown(self, name: str) -> str:
        """A display name as written into a message (escaped for the front end's markup)."""
        return self.escape(name)

    @staticmethod
    def seat_name(user_id: str, name: str) -> str:
        """A seat's name as shown: a computer's stored English name ("Computer 2 (hard)", which also keeps
        its level) in the reader's language; a person's as typed."""
        return i18n.line(name) if user_id.startswith(BOT_PREFIX) else name

    def seat_names(self, row: GameRow) -> dict[str, str]:
        """Seat id → display name as typed (computers' in the reader's language), for images and labels."""
        return {k: self.seat_name(k, v) for k, v in row.names.items()}

    def text_names(self, row: GameRow) -> dict[str, str]:
        """Seat id → display name, escaped for messages (images and labels take ``seat_names`` as typed)."""
        return {k: self.escape(v) for k, v in self.seat_names(row).items()}

    def names_in(self, text: str, row: GameRow) -> str:
        """An engine text (a log line) with seat ids replaced by display names, for a message."""
        return name_seats(text, self.text_names(row))

    def said(self, text: str, row: GameRow) -> str:
        """An engine's English line (a log line, a waiting message) as shown: translated, then named. In that
        order: the templates match the engine's seat ids, and a name must never be taken for a word."""
        with i18n.playing(getattr(row, "game", None)):
            return self.names_in(i18n.line(text), row)

    @staticmethod
    def for_caller(text: str) -> str:
        """An engine's English line for the caller alone, in the caller's language."""
        with i18n.speaking(i18n.user_locale()):
            return i18n.line(text)

    def why_waiting(self, row: GameRow, game: Game, state, user_id: str) -> str:
        """The engine's word to a player who may not act now (whom the game waits for), in their language."""
        return self.names_in(self.for_caller(game.waiting_message(state, user_id)), row)

    async def game_and_length(self, where: Where, game_id: int | None) -> tuple[GameRow | None, int]:
        """The server's game ``game_id`` (else the channel's latest) and its log's length, read at one moment
        (a review step, an analysis)."""
        async with self.store.snapshot():
            row = await (self.store.game(game_id) if game_id is not None else self.store.latest_game(where.channel))
            return row, await self.store.log_length(row.id) if row is not None else 0

    # ----- a table shown ---------------------------------------------------------------------------------
    def state_of(self, row: GameRow):
        """The game of a stored row and its state (its words are the interaction's from here on)."""
        i18n.set_game(row.game)            # this game's words first (until the interaction ends)
        game = GAMES[row.game]
        return game, game.load(row.state)

    def image(self, row: GameRow, game: Game, state, viewer: str | None) -> Picture | None:
        """The picture of ``viewer``'s view now, to be rendered later (Reply.render)."""
        if not self.render:
            return None
        view = game.view(state, viewer)
        names = self.seat_names(row)
        who = "table" if viewer is None else "private-" + re.sub(r"[^A-Za-z0-9_-]", "_", viewer)[:40]
        # the channel's picture speaks the channel's language, a private one its viewer's (when it is the caller)
        locale = i18n.user_locale() if viewer is not None and viewer == i18n.caller() else i18n.current()
        with i18n.speaking(locale):           # its description in words too
            alt = self.alt_text(row, game, view if viewer is None else game.view(state, None))
        return Picture(f"{row.game}-{row.id}-v{row.version}-{who}.png",
                       job=(row.game, view, names, viewer, locale), key=(row.id, viewer, locale),
                       order=row.version, alt=alt)

    @staticmethod
    def alt_text(row: GameRow, game: Game, public_view: dict) -> str:
        """An image's description in words (#16) from the game's summary of the public view, with names;
        a generic line if the game cannot say more. Discord takes at most 1024 characters."""
        try:
            text = game.summary(public_view)
        except Exception:                      # a description must never stop the picture being sent
            log.exception("summary of %s failed", row.game)
            text = N_("{title}: the table.").format(title=game.title)
        return name_seats(i18n.line(text), {k: Context.seat_name(k, v) for k, v in row.names.items()})[:1024]

    def turn(self, row: GameRow, game: Game, state) -> Turn:
        acting = game.to_act(state)
        turn = Turn(row.id, row.game, row.version, acting, names=self.seat_names(row), table=game.view(state, None))
        for seat in acting:
            if game.private_actions(state, seat):
                turn.private_seats.append(seat)
            else:
                turn.public_actions[seat] = game.legal_actions(state, seat)
        return turn

    def result_text(self, row: GameRow, game: Game, state) -> str:
        res = game.result(state)
        names = self.text_names(row)
        winners = [names.get(w, w) for w in res["winners"]]
        order = res.get("ranking") or sorted(res["scores"], key=lambda s: -res["scores"][s])
        shown = res.get("score_text") or res["scores"]

        def score(seat):          # a game's words for a score ("3 gems") are an engine line
            value = shown[seat]
            return self.said(value, row) if isinstance(value, str) else value
        scores = ", ".join(pgettext("score", "{name} {score}", name=names.get(s, s), score=score(s)) for s in order)
        all_teams = [t for t in res.get("teams") or [] if t]
        teams = [t for t in all_teams if set(t) & set(res["winners"])]
        if all_teams:                                                  # a team shares one score
            ranked = sorted(all_teams, key=lambda t: order.index(t[0]))
            scores = ", ".join(pgettext("score", "team {names} {score}", names=and_list(names.get(s, s) for s in t),
                                        score=score(t[0])) for t in ranked)
        if teams and sorted(s for t in teams for s in t) == sorted(res["winners"]):
            winners = [and_list(names.get(s, s) for s in t) for t in teams]       # a team win is one win
            if len(teams) == 1:
                head = _("🏆 Team {names} wins!", names=winners[0])
            else:
                head = _("🏆 Shared victory: {teams}!",
                         teams=and_list(pgettext("result", "team {names}", names=w) for w in winners))
        elif len(winners) == 1:
            head = _("🏆 {name} wins!", name=winners[0])
        else:
            head = _("🏆 Shared victory: {names}!", names=and_list(winners))
        if res.get("note"):
            return _("**Game over.** {head} Scores: {scores}. {note}", head=head, scores=scores,
                     note=self.said(res["note"], row))
        return _("**Game over.** {head} Scores: {scores}.", head=head, scores=scores)

    def ratings_text(self, row: GameRow, changes: list) -> str:
        """The new ratings a game ended with, and their changes: "Ratings: Bob 1569? (+69), Alice 1463? (-37)."."""
        names = {ratings.entity(s.user_id, s.name, s.is_bot): self.text_names(row)[s.user_id] for s in row.seats}
        parts = [pgettext("rating", "{name} {rating} ({change})", name=names.get(c.player, c.player),
                          rating=ratings.shown(c.after.mu, c.after.sigma), change=f"{c.delta:+d}") for c in changes]
        return _("Ratings: {list}.", list=", ".join(parts))

    def waiting_text(self, row: GameRow, acting: list[str]) -> str:
        names = self.text_names(row)
        who = ", ".join(names.get(s, s) for s in acting)
        if len(acting) > 1:
            return _("Waiting for {names} to choose.", names=who)
        return _("{seat} to play.", seat=who)

    async def clock_lines(self, row: GameRow) -> list[str]:
        """The lobby's lines on the table's clock (#34): its speed in words, its playing hours, and how long the
        game will take — the median of finished games of the same game, size and speed when there are enough,
        else the formula of table/estimate.py."""
        from . import clock, estimate
        from .texts import speed_text

        speed = clock.speed_of(row.options)
        lines = [_("Clock: {speed}.", speed=speed_text(speed))]
        window = clock.window_of(row.options)
        if window is not None:
            lines.append(_("Playing hours: {hours} ({zone}): clocks run and reminders come only then.",
                           hours=clock.quiet_text(window[1:]), zone=window[0]))
        players = max(len(row.seats), GAMES[row.game].min_players)
        name = speed.name if speed is not None else clock.UNTIMED
        record = estimate.by_record(await self.estimates.spans(row.game), players, name, window)
        if record is not None:
            lines.append(ngettext("Length: about {time} (the middle of the {n} finished game at this size and speed).",
                                  "Length: about {time} (the middle of the {n} finished games at this size and "
                                  "speed).", record[1], time=span_text(record[0])))
            return lines
        settings = await self.settings(row.guild)
        guess = estimate.by_formula(row.game, players, speed, window, settings.reminder_hours,
                                    settings.deadline_hours)
        if guess is not None:
            lines.append(_("Length: about {time} (a game has about {turns} turns; fewer finished games here than "
                           "needed to measure it).", time=span_text(guess[0]), turns=guess[1]))
        return lines

    async def lobby_reply(self, row: GameRow, text: str) -> Reply:
        game = GAMES[row.game]
        names = self.text_names(row)
        seats = "\n".join(seat_line(i + 1, self.shown(self.seat_name(s.user_id, s.name)), s.removed,
                                    s.user_id == row.host)
                          for i, s in enumerate(row.seats))
        # each option and value in the reader's words, as the host's select names them (table/replies.py)
        shown = table_options(row.options, row.seats)
        opts = (", ".join(f"{i18n.word(k)}: {i18n.word(v) if isinstance(v, str) else show(v)}"
                          for k, v in shown.items())
                or pgettext("options", "none"))
        need = i18n.line(game.players_message())
        body = _("{head}\n**{title}** — table open in this channel. {players}\nSeated:\n{seats}\nOptions: {options}\n"
                 "Join with `/game join`; {host} starts with `/game start`.", head=text, title=game.title,
                 players=need, seats=seats, options=opts, host=names.get(row.host, row.host))
        rated = [_("Rated: no hints at this table (turning hints on makes it unrated).")] if shown["rated"] else []
        body = "\n".join([body, *rated, *await self.clock_lines(row)])
        return Reply(text=body, game_id=row.id, version=row.version, status=row.status)

    def stale(self, row: GameRow, game: Game, state, user: User) -> Reply:
        """The answer to a button or command made for an older version: where the game stands now."""
        turn = self.turn(row, game, state)
        reply = Reply.fail(user.id, _("This has moved on since that message; here is where the game stands. "
                                      "{waiting}", waiting=self.waiting_text(row, turn.to_act)),
                           game_id=row.id, version=row.version, status=row.status, stale=True)
        reply.turn = turn
        return reply

    # ----- the game in a channel -------------------------------------------------------------------------
    async def require(self, where: Where, user: User, *, statuses=("lobby", "running")) -> GameRow | Reply:
        """The channel's open game in one of ``statuses``, or the refusal that says why there is none."""
        row = await self.store.open_game(where.channel)
        if row is not None:
            i18n.set_game(row.game)
        if row is None or row.status not in statuses:
            if row is None:
                return Reply.fail(user.id, _("There is no game in this channel. Open one with `/game new`."))
            if row.status == "lobby":
                return Reply.fail(user.id, _("The game has not started yet: the host starts it with `/game start`."),
                                  game_id=row.id)
            return Reply.fail(user.id, _("The game here has already started."), game_id=row.id)
        return row

    async def running(self, where: Where, user: User, version: int | None = None):
        """The channel's running game as (row, game, state), or why not: there is none, or (with ``version``,
        that of the message acted on) it has moved on since — then the reply shows where it stands."""
        row = await self.require(where, user, statuses=("running",))
        if isinstance(row, Reply):
            return row
        game, state = self.state_of(row)
        if version is not None and version != row.version:
            return self.stale(row, game, state, user)
        return row, game, state


# ----- languages (#17) --------------------------------------------------------------------------------------
def speaks(method):
    """Run a concern's call as an interaction: text is made in the channel's language (the server's
    preferred locale, else the caller's) and whatever goes to the caller alone in the caller's."""
    @functools.wraps(method)
    async def call(self, where, user, *args, **kwargs):
        async with _interaction(self.ctx, where, user):
            try:
                return await method(self, where, user, *args, **kwargs)
            except UnknownRules as e:
                return _refused_newer(method, user, e)
    return call


def speaks_to(user_at: int):
    """As ``speaks`` for a call with no channel: ``user`` is its argument number ``user_at``."""
    def wrap(method):
        @functools.wraps(method)
        async def call(self, *args, **kwargs):
            async with _interaction(self.ctx, None, args[user_at]):
                try:
                    return await method(self, *args, **kwargs)
                except UnknownRules as e:
                    return _refused_newer(method, args[user_at], e)
        return call
    return wrap


def _refused_newer(method, user: User, e: UnknownRules):
    """A game saved by a newer Teahouse (after a downgrade, issue #26) is refused with a clear message and
    left untouched: nothing was written before its state was read. A call that answers with a list (the
    suggestions of legal actions) offers nothing."""
    log.warning("a game needs a newer Teahouse: %s %s %d (this one knows %d)", e.title, e.what, e.found, e.known)
    if str(method.__annotations__.get("return", "")).startswith("list"):
        return []
    return Reply.fail(user.id, unknown_rules_text(e))


def unknown_rules_text(e: UnknownRules) -> str:
    return _("This game of {title} was saved by a newer version of Teahouse (its rules version {found}; this "
             "one knows up to {known}), so it cannot go on here. Update Teahouse to play it; the game is kept "
             "as it is.", title=e.title, found=e.found, known=e.known)


@contextlib.asynccontextmanager
async def _interaction(ctx: Context, where: Where | None, user: User | None):
    with i18n.interaction(getattr(user, "locale", None), getattr(where, "locale", None),
                          caller=getattr(user, "id", None)):
        try:
            await ctx.remember_locales(where, user)
        except StoreError:
            log.warning("could not remember the languages of an interaction")
        yield
