"""The table service: lobby, seats, turns, permissions and locking between front ends and the engine.

Platform-neutral (no discord import): the Discord cogs and the console call the same methods and send the
Replies they get back. The engine is the only judge of rules; this layer decides who may do what at a
table, keeps one lock per channel so moves apply one at a time, and stores every change through the Store
(one transaction per move, version-checked).

Seats are user ids (Discord snowflakes, or names at the console). Engine log lines name seats by id; the
service swaps in display names when it shows them. Nothing here logs an action's text: a secret pick must
never reach a log line.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import math
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import i18n
from engine import GAMES, Game, IllegalAction, ai
from engine.bots import random_action
from i18n import N_, W_, _, ngettext, pgettext
from render import RENDERERS

from .records import (
    REMOVED,
    TABLE_OPTIONS,
    UNDO,
    Record,
    Stats,
    effective_actions,
    export,
    export_bytes,
    game_options,
    gif_within,
    rebuild,
    sample,
    table_options,
    tally,
)
from .replies import Notice, Offer, Picture, Private, Reply, Turn, User, Where, name_seats
from .store import BOT_PREFIX, ChannelBusy, GameRow, Seat, Settings, Store, StoreError, VersionConflict

log = logging.getLogger("teahouse.table")

RULES_DIR = Path(__file__).resolve().parent.parent / "data" / "rules"
MAX_BOT_STEPS = 2000
BOT_LEVEL = re.compile(r"\((easy|medium|hard)\)$")
BOT_NAME = N_("Computer {n} ({level})")
LEVEL_WORDS = (W_("easy"), W_("medium"), W_("hard"))
STAND_IN_LEVEL = "medium"     # a computer playing for a person: skipped turns and removed seats
REMOVED_TEXT = N_("You were removed from this game past a turn deadline; a computer plays your seat now, so you "
                  "can no longer act, take back a move or see its hand.")
HISTORY_PAGE = 15
MESSAGE_BUDGET = 1700        # characters of a turn message's text (Discord allows 2,000 with the mentions)
SETTINGS_TTL = 30.0          # seconds a server's settings are kept in memory
MAX_ATTACHMENT = 10 * 2**20   # Discord's default attachment limit (bytes)
MAX_REMINDER_HOURS = 168      # a week
MAX_DEADLINE_HOURS = 720      # a month


class TableService:
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

    def lock(self, channel: str) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    # ----- helpers ---------------------------------------------------------------------------------------
    @staticmethod
    def game_of(key: str) -> Game | None:
        return GAMES.get(key)

    @staticmethod
    def illegal(error: IllegalAction) -> str:
        """An engine's refusal in the caller's language (refusals go to the caller alone)."""
        with i18n.speaking(i18n.user_locale()):
            return i18n.illegal(error)

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

    async def _in_language_of(self, user: str, text: str) -> str:
        """``text`` (made for the channel) re-made in ``user``'s remembered language."""
        if isinstance(text, i18n.Msg):
            return text.to(await self.locale_of(f"user:{user}"))
        return text

    async def locale_of(self, who: str) -> str:
        """The language to use for ``guild:<id>`` or ``user:<id>`` when no interaction says it."""
        if who not in self._locales:
            self._locales[who] = await self.store.locale_of(who) or i18n.user_locale()
        return self._locales[who]

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

    def _state(self, row: GameRow):
        i18n.set_game(row.game)            # this game's words first (until the interaction ends)
        game = GAMES[row.game]
        return game, game.load(row.state)

    def _image(self, row: GameRow, game: Game, state, viewer: str | None) -> Picture | None:
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
        return name_seats(i18n.line(text), {k: TableService.seat_name(k, v) for k, v in row.names.items()})[:1024]

    def turn(self, row: GameRow, game: Game, state) -> Turn:
        acting = game.to_act(state)
        turn = Turn(row.id, row.game, row.version, acting, names=self.seat_names(row), table=game.view(state, None))
        for seat in acting:
            if game.private_actions(state, seat):
                turn.private_seats.append(seat)
            else:
                turn.public_actions[seat] = game.legal_actions(state, seat)
        return turn

    def _result_text(self, row: GameRow, game: Game, state) -> str:
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
            scores = ", ".join(pgettext("score", "team {names} {score}", names=_and(names.get(s, s) for s in t),
                                        score=score(t[0])) for t in ranked)
        if teams and sorted(s for t in teams for s in t) == sorted(res["winners"]):
            winners = [_and(names.get(s, s) for s in t) for t in teams]       # a team win is one win
            if len(teams) == 1:
                head = _("🏆 Team {names} wins!", names=winners[0])
            else:
                head = _("🏆 Shared victory: {teams}!",
                         teams=_and(pgettext("result", "team {names}", names=w) for w in winners))
        elif len(winners) == 1:
            head = _("🏆 {name} wins!", name=winners[0])
        else:
            head = _("🏆 Shared victory: {names}!", names=_and(winners))
        if res.get("note"):
            return _("**Game over.** {head} Scores: {scores}. {note}", head=head, scores=scores,
                     note=self.said(res["note"], row))
        return _("**Game over.** {head} Scores: {scores}.", head=head, scores=scores)

    def _waiting_text(self, row: GameRow, acting: list[str]) -> str:
        names = self.text_names(row)
        who = ", ".join(names.get(s, s) for s in acting)
        if len(acting) > 1:
            return _("Waiting for {names} to choose.", names=who)
        return _("{seat} to play.", seat=who)

    async def _require(self, where: Where, user: User, *, statuses=("lobby", "running")) -> GameRow | Reply:
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

    def _lobby_reply(self, row: GameRow, text: str) -> Reply:
        game = GAMES[row.game]
        names = self.text_names(row)
        seats = "\n".join(_seat_line(i + 1, self.shown(self.seat_name(s.user_id, s.name)), s.removed,
                                      s.user_id == row.host)
                          for i, s in enumerate(row.seats))
        opts = (", ".join(f"{k}: {_show(v)}" for k, v in table_options(row.options).items())
                or pgettext("options", "none"))
        need = i18n.line(game.players_message())
        body = _("{head}\n**{title}** — table open in this channel. {players}\nSeated:\n{seats}\nOptions: {options}\n"
                 "Join with `/game join`; {host} starts with `/game start`.", head=text, title=game.title,
                 players=need, seats=seats, options=opts, host=names.get(row.host, row.host))
        return Reply(text=body, game_id=row.id, version=row.version, status=row.status)

    # ----- the lobby -------------------------------------------------------------------------------------
    async def open_table(self, where: Where, user: User, game_key: str, options: dict | None = None,
                         parent_channel: str | None = None) -> Reply:
        """Open a lobby in ``where``; ``parent_channel`` when ``where`` is a game thread opened for it."""
        game = self.game_of(game_key)
        if game is None:
            known = ", ".join(sorted(k for k in GAMES))
            return Reply.fail(user.id, _("There is no game called '{name}'. Games: {games}.", name=game_key,
                                         games=known))
        try:
            opts = {**game.check_options(game_options(options or {})),
                    **{k: v for k, v in (options or {}).items() if k in TABLE_OPTIONS}}
        except IllegalAction as e:
            return Reply.fail(user.id, self.illegal(e))
        async with self.lock(where.channel):
            existing = await self.store.open_game(where.channel)
            if existing is not None:
                return self._busy(user, existing)
            try:
                row = await self.store.create_game(guild=where.guild, channel=where.channel, game=game.key,
                                                   options=opts, host=Seat(user.id, user.name), now=self.clock(),
                                                   parent_channel=parent_channel)
            except ChannelBusy:
                return self._busy(user, await self.store.open_game(where.channel))
        log.info("game %s: %s opened a %s table", row.id, user.id, game.key)
        return self._lobby_reply(row, _("{name} opened a table.", name=self.shown(user.name)))

    def _busy(self, user: User, row: GameRow | None) -> Reply:
        if row is None:
            return Reply.fail(user.id, _("Another game was just opened here; try again."))
        title = GAMES[row.game].title if row.game in GAMES else row.game
        if row.status == "lobby":
            text = _("This channel already has a game of {title} waiting in the lobby. Finish it, or the host can "
                     "`/game abandon` it, before opening another (or use another channel).", title=title)
        else:
            text = _("This channel already has a game of {title} being played. Finish it, or the host can "
                     "`/game abandon` it, before opening another (or use another channel).", title=title)
        return Reply.fail(user.id, text, game_id=row.id)

    async def join(self, where: Where, user: User) -> Reply:
        async with self.lock(where.channel):
            row = await self._require(where, user, statuses=("lobby",))
            if isinstance(row, Reply):
                return row
            game = GAMES[row.game]
            if row.seat_of(user.id):
                return Reply.fail(user.id, _("You are already seated at this table."), game_id=row.id)
            if len(row.seats) >= game.max_players:
                return Reply.fail(user.id, _("The table is full ({n} players).", n=game.max_players), game_id=row.id)
            seats = row.seats + [Seat(user.id, user.name)]
            row = await self._update_lobby(row, seats=seats)
            if isinstance(row, Reply):
                return Reply.fail(user.id, _("The table changed as you joined; try again."))
        return self._lobby_reply(row, pgettext("lobby", "{name} joined.", name=self.shown(user.name)))

    async def add_bot(self, where: Where, user: User, level: str = "easy") -> Reply:
        if level not in ai.LEVELS:
            return Reply.fail(user.id, _("A computer player's level is easy, medium or hard."))
        async with self.lock(where.channel):
            row = await self._require(where, user, statuses=("lobby",))
            if isinstance(row, Reply):
                return row
            if user.id != row.host:
                return Reply.fail(user.id, _("Only the host can add a computer player."), game_id=row.id)
            game = GAMES[row.game]
            if len(row.seats) >= game.max_players:
                return Reply.fail(user.id, _("The table is full ({n} players).", n=game.max_players), game_id=row.id)
            n = 1 + sum(1 for s in row.seats if s.is_bot)
            while any(s.user_id == f"{BOT_PREFIX}{n}" for s in row.seats):
                n += 1
            # stored in English (the level is read back from it: bot_level); shown translated (seat_name)
            seats = row.seats + [Seat(f"{BOT_PREFIX}{n}", BOT_NAME.format(n=n, level=level), True)]
            row = await self._update_lobby(row, seats=seats)
            if isinstance(row, Reply):
                return Reply.fail(user.id, _("The table changed meanwhile; try again."))
        return self._lobby_reply(row, _("{name} added a computer player ({level}).", name=self.shown(user.name),
                                        level=pgettext("choice", level)))

    async def leave(self, where: Where, user: User) -> Reply:
        async with self.lock(where.channel):
            row = await self.store.open_game(where.channel)
            if row is None:
                return Reply.fail(user.id, _("There is no game in this channel."))
            if row.status == "running":
                return Reply.fail(user.id, _("The game is under way; players cannot leave a running game. "
                                             "The host can `/game abandon` it."), game_id=row.id)
            if not row.seat_of(user.id):
                return Reply.fail(user.id, _("You are not seated at this table."), game_id=row.id)
            seats = [s for s in row.seats if s.user_id != user.id]
            humans = [s for s in seats if not s.is_bot]
            if not humans:
                row = await self.store.update_lobby(row, seats=seats, options=row.options, host=row.host,
                                                    now=self.clock(), status="abandoned")
                return Reply(text=_("{name} left; the table is closed.", name=self.shown(user.name)),
                             game_id=row.id, status=row.status)
            was_host = row.host == user.id
            host = humans[0].user_id if was_host else row.host
            row = await self._update_lobby(row, seats=seats, host=host)
            if isinstance(row, Reply):
                return Reply.fail(user.id, _("The table changed meanwhile; try again."))
        if was_host:
            return self._lobby_reply(row, _("{name} left. {host} is the host now.", name=self.shown(user.name),
                                            host=self.text_names(row)[host]))
        return self._lobby_reply(row, pgettext("lobby", "{name} left.", name=self.shown(user.name)))

    async def set_option(self, where: Where, user: User, name: str, value: str) -> Reply:
        async with self.lock(where.channel):
            row = await self._require(where, user, statuses=("lobby",))
            if isinstance(row, Reply):
                return row
            if user.id != row.host:
                return Reply.fail(user.id, _("Only the host can change the table options."), game_id=row.id)
            game = GAMES[row.game]
            if name not in game.options and name not in TABLE_OPTIONS:
                known = ", ".join([*game.options, *TABLE_OPTIONS]) or pgettext("options", "none")
                return Reply.fail(user.id, _("{title} has no option '{name}'. Options: {options}.", title=game.title,
                                             name=name, options=known), game_id=row.id)
            try:
                if name in TABLE_OPTIONS:
                    options = {**row.options, name: parse_option(TABLE_OPTIONS[name], value)}
                else:
                    parsed = parse_option(game.options[name], value)
                    options = {**row.options, **game.check_options({**game_options(row.options), name: parsed})}
            except IllegalAction as e:
                return Reply.fail(user.id, self.illegal(e), game_id=row.id)
            except ValueError as e:
                return Reply.fail(user.id, e.args[0], game_id=row.id)      # the sentence itself (a Msg)
            row = await self._update_lobby(row, options=options)
            if isinstance(row, Reply):
                return Reply.fail(user.id, _("The table changed meanwhile; try again."))
        return self._lobby_reply(row, _("{name} set {option} to {value}.", name=self.shown(user.name), option=name,
                                        value=_show(options[name])))

    async def _update_lobby(self, row: GameRow, *, seats=None, options=None, host=None) -> GameRow | Reply:
        try:
            return await self.store.update_lobby(row, seats=row.seats if seats is None else seats,
                                                 options=row.options if options is None else options,
                                                 host=row.host if host is None else host, now=self.clock())
        except VersionConflict:
            return Reply(ok=False)

    async def start(self, where: Where, user: User, shuffle: bool = False) -> Reply:
        async with self.lock(where.channel):
            row = await self._require(where, user, statuses=("lobby",))
            if isinstance(row, Reply):
                return row
            if user.id != row.host:
                return Reply.fail(user.id, _("Only the host ({name}) can start the game.",
                                             name=self.text_names(row)[row.host]), game_id=row.id)
            game = GAMES[row.game]
            if not game.min_players <= len(row.seats) <= game.max_players:
                return Reply.fail(user.id, ngettext("{players} {n} seated so far.", "{players} {n} seated so far.",
                                                    len(row.seats), players=self.for_caller(game.players_message())),
                                  game_id=row.id)
            seats = list(row.seats)
            if shuffle:
                random.SystemRandom().shuffle(seats)
            seed = secrets.randbits(62)
            try:
                state = game.new([s.user_id for s in seats], seed, game_options(row.options))
            except IllegalAction as e:
                return Reply.fail(user.id, self.illegal(e), game_id=row.id)
            timers, _keep = await self._timers(row, game, None, state, seats)
            try:
                row = await self.store.start_game(row, seats=seats, seed=seed, state=game.dump(state),
                                                  now=self.clock(), timers=timers, waiting=game.to_act(state))
            except VersionConflict:
                return Reply.fail(user.id, _("The table changed as you started; try again."), game_id=row.id)
            order = ", ".join(self.shown(self.seat_name(s.user_id, s.name)) for s in seats)
            lines = [_("{title} begins! Seat order: {order}.", title=game.title, order=order)]
            row, state, bot_lines = await self._run_bots(row, game, state)
        log.info("game %s: started with %d seats", row.id, len(seats))
        reply = await self._after_change(row, game, state, lines + bot_lines)
        if row.parent_channel:
            reply.notes.append((row.parent_channel, _("A game of {title} started: {order}.", title=game.title,
                                                      order=order)))
        return reply

    # ----- playing ---------------------------------------------------------------------------------------
    @staticmethod
    def _not_a_player(row: GameRow, user: User, not_seated: str) -> Reply | None:
        """Why ``user`` may not act at this table: not seated (``not_seated``), or removed past a deadline
        (a computer plays the seat now); None for a player."""
        seat = row.seat_of(user.id)
        if not seat:
            return Reply.fail(user.id, not_seated, game_id=row.id)
        if seat.is_bot:
            return Reply.fail(user.id, _(REMOVED_TEXT), game_id=row.id)
        return None

    def _stale(self, row: GameRow, game: Game, state, user: User) -> Reply:
        turn = self.turn(row, game, state)
        reply = Reply.fail(user.id, _("This has moved on since that message; here is where the game stands. "
                                      "{waiting}", waiting=self._waiting_text(row, turn.to_act)),
                           game_id=row.id, version=row.version, status=row.status, stale=True)
        reply.turn = turn
        return reply

    async def act(self, where: Where, user: User, action: str | None = None, version: int | None = None,
                  index: int | None = None, steps: list[str] | None = None) -> Reply:
        """Play ``action``, or the ``index``-th of the caller's legal actions (a button), or several ``steps``
        of one turn in a row (all apply, or none: a game command that names a whole turn). With ``version``,
        a game that has moved on since then is not touched: the caller gets the current prompt instead."""
        async with self.lock(where.channel):
            row = await self._require(where, user, statuses=("running",))
            if isinstance(row, Reply):
                return row
            game, state = self._state(row)
            if version is not None and version != row.version:
                return self._stale(row, game, state, user)
            refused = self._not_a_player(row, user, _("You are not playing in this game; spectators can follow "
                                                      "it with `/game status`."))
            if refused:
                return refused
            if steps is not None and not steps:
                return Reply.fail(user.id, _("Name at least one action."), game_id=row.id)
            if index is not None:
                if user.id not in game.to_act(state):
                    return Reply.fail(user.id, self.names_in(self.for_caller(game.waiting_message(state, user.id)),
                                                             row), game_id=row.id)
                actions = game.legal_actions(state, user.id)
                if not 0 <= index < len(actions):
                    return Reply.fail(user.id, _("That choice is no longer offered."), game_id=row.id)
                action = actions[index]
            moves, prev = [], state
            for step in steps if steps is not None else [action]:
                text = " ".join(str(step or "").split())
                if not text.isprintable():
                    return Reply.fail(user.id, _("An action is plain text: it cannot hold control characters."),
                                      game_id=row.id, version=row.version)
                try:
                    new = game.apply(state, user.id, text)
                except IllegalAction as e:
                    why = self.illegal(e)
                    if steps and len(steps) > 1:
                        why = pgettext("step", "{error} (step {n}: {action})", error=why, n=len(moves) + 1, action=text)
                    return Reply.fail(user.id, why, game_id=row.id, version=row.version)
                moves.append((user.id, text, game.describe(state, user.id, text, new)))
                state = new
            row, state, _unused = await self._record(row, game, prev, state, moves)
            if isinstance(row, Reply):
                return Reply.fail(user.id, _("Someone else moved at the same moment, so your move was not "
                                             "applied. Look at the game again and retry."))
            lines = [self.said(line, row) for _seat, _action, line in moves]
            row, state, bot_lines = await self._run_bots(row, game, state)
        log.info("game %s: move %s by %s", row.id, row.version, user.id)
        return await self._after_change(row, game, state, lines + bot_lines)

    async def legal_after(self, where: Where, user: User, steps: list[str]) -> list[str]:
        """The caller's legal actions once ``steps`` were played (for a command's later fields to suggest);
        empty when a step is not legal. Nothing is stored."""
        row = await self.store.open_game(where.channel)
        seat = row.seat_of(user.id) if row is not None else None
        if row is None or row.status != "running" or not seat or seat.is_bot:
            return []
        game, state = self._state(row)
        try:
            for step in steps:
                state = game.apply(state, user.id, step)
        except IllegalAction:
            return []
        if user.id not in game.to_act(state):
            return []
        return game.legal_actions(state, user.id)

    async def _record(self, row: GameRow, game: Game, prev, state, moves, seats: list[Seat] | None = None):
        """Store moves and the state they lead to, with the game's result and its next timers."""
        res = game.result(state)
        timers, keep = await self._timers(row, game, prev, state, seats or row.seats)
        try:
            row = await self.store.record_moves(row, moves, game.dump(state), now=self.clock(),
                                                status="finished" if res is not None else "running",
                                                timers=timers, keep=keep, result=res, seats=seats,
                                                waiting=game.to_act(state) if res is None else [])
        except VersionConflict:
            return Reply(ok=False), state, []
        return row, state, []

    async def _timers(self, row: GameRow, game: Game, prev, state, seats: list[Seat]):
        """The timers a game needs now: a reminder and a deadline while a person must act (server
        settings), and a rules time limit (a reaction window), which runs on while it stays open."""
        if game.result(state) is not None:
            return [], ()
        now = self.clock()
        settings = await self.settings(row.guild)
        humans = {s.user_id for s in seats if not s.is_bot}
        timers = []
        if any(s in humans for s in game.to_act(state)):
            if settings.reminder_hours > 0:
                timers.append(("reminder", now + settings.reminder_hours * 3600))
            if settings.deadline_hours > 0:
                timers.append(("deadline", now + settings.deadline_hours * 3600))
        limit, keep = game.time_limit(state), ()
        if limit:
            same_window = (prev is not None and game.time_limit(prev)
                           and set(game.to_act(state)) <= set(game.to_act(prev))
                           and any(t.kind == "limit" for t in await self.store.pending_timers(row.id)))
            if same_window:
                keep = ("limit",)
            else:
                timers.append(("limit", now + limit["seconds"]))
        return timers, keep

    async def _run_bots(self, row: GameRow, game: Game, state):
        """Let computer seats take their decisions until a human must act or the game ends."""
        bots = {s.user_id for s in row.seats if s.is_bot}
        lines: list[str] = []
        if not bots:
            return row, state, lines
        # a computer seat plays at its level; with no person left at the table, the rest goes quickly (easy)
        levels = {s.user_id: bot_level(s) for s in row.seats if s.is_bot}
        if all(s.is_bot for s in row.seats):
            levels = dict.fromkeys(levels, "easy")
        moves, prev = [], state
        for step in range(MAX_BOT_STEPS):
            if game.result(state) is not None:
                break
            waiting = [s for s in game.to_act(state) if s in bots]
            if not waiting:
                break
            seat = waiting[0]
            rnd = random.Random(f"{row.id}:{row.version}:{step}")
            action = await self._computer_action(game, state, seat, levels[seat], rnd,
                                                 f"{row.id}:{row.version}:{step}")
            new = game.apply(state, seat, action)
            moves.append((seat, action, game.describe(state, seat, action, new)))
            state = new
        if moves:
            recorded, state, _unused = await self._record(row, game, prev, state, moves)
            if isinstance(recorded, Reply):  # another process moved: keep what is stored
                fresh = await self.store.game(row.id)
                return fresh, GAMES[fresh.game].load(fresh.state), []
            row = recorded
            lines = self._summary_of_turns(row, moves)
        return row, state, lines

    def _summary_of_turns(self, row: GameRow, moves) -> list[str]:
        """The computers' moves for the channel: each computer's run of steps in at most three lines — how it
        began, how many steps, how it ended — so several computer turns stay readable in one message (the
        whole log is in `/game history`)."""
        lines: list[str] = []
        for seat, run in itertools.groupby(moves, key=lambda m: m[0]):
            said = [self.said(line, row) for _seat, _action, line in run]
            if len(said) > 3:
                name = self.text_names(row).get(seat, seat)
                said = [said[0], ngettext("… {name}: {n} more step …", "… {name}: {n} more steps …", len(said) - 2,
                                          name=name), said[-1]]
            lines.extend(said)
        return lines

    async def _computer_action(self, game: Game, state, seat: str, level: str, rnd: random.Random, seed: str) -> str:
        """A computer's decision: easy is today's beginner policy; a search runs off the event loop."""
        if level == "easy":
            return random_action(game, state, seat, rnd)
        return await asyncio.to_thread(ai.choose, game, state, seat, level, seed, **self.ai_options)

    async def _after_change(self, row: GameRow, game: Game, state, lines: list[str], *,
                            mention: bool | None = None) -> Reply:
        """The public message after a change: what happened, the image, and who acts next."""
        reply = Reply(game_id=row.id, version=row.version, status=row.status, log=lines)
        humans = {s.user_id for s in row.seats if not s.is_bot}
        if row.status == "finished":
            tail = self._result_text(row, game, state)
            if row.parent_channel:
                reply.notes.append((row.parent_channel, pgettext("note", "{title}: {text}", title=game.title,
                                                                 text=tail)))
        else:
            reply.turn = self.turn(row, game, state)
            if mention is None:
                mention = (await self.settings(row.guild)).mention
            if mention:
                reply.mention = [s for s in reply.turn.to_act if s in humans]
            tail = self._waiting_text(row, reply.turn.to_act)
            limit = game.time_limit(state)
            if limit:
                tail = _("{waiting} ⏱ {time} to answer; silence counts as '{action}'.", waiting=tail,
                         time=seconds_text(limit["seconds"]), action=limit["action"])
        # every line while they fit a message (computers' runs are already summarised); past that, the latest
        shown, size = [], len(tail)
        for line in reversed(lines):
            if size + len(line) + 1 > MESSAGE_BUDGET:
                break
            shown.insert(0, line)
            size += len(line) + 1
        if len(shown) < len(lines):
            shown = [ngettext("… {n} earlier line (see `/game history`)", "… {n} earlier lines (see `/game history`)",
                              len(lines) - len(shown))] + shown
        reply.text = "\n".join(shown + [tail])
        reply.image = self._image(row, game, state, None)
        return reply

    async def prompt(self, where: Where, user: User, version: int | None = None) -> Reply:
        """The caller's own decision now, privately: their legal actions (and their private image)."""
        row = await self._require(where, user, statuses=("running",))
        if isinstance(row, Reply):
            return row
        game, state = self._state(row)
        if version is not None and version != row.version:
            return self._stale(row, game, state, user)
        turn = self.turn(row, game, state)
        seat = row.seat_of(user.id)
        if not seat or seat.is_bot:
            return Reply.fail(user.id, _(REMOVED_TEXT) if seat else _("You are not playing in this game."),
                              game_id=row.id, turn=turn, version=row.version)
        if user.id not in turn.to_act:
            why = self.names_in(self.for_caller(game.waiting_message(state, user.id)), row)
            return Reply.fail(user.id, pgettext("join", "{why} {waiting}", why=why,
                                                waiting=self._waiting_text(row, turn.to_act)),
                              game_id=row.id, turn=turn, version=row.version)
        actions = game.legal_actions(state, user.id)
        reply = Reply(game_id=row.id, version=row.version, status=row.status, turn=turn)
        reply.private.append(Private(user.id, _("Your choices: {actions}", actions="; ".join(actions)),
                                     self._image(row, game, state, user.id)))
        reply.choices = actions
        return reply

    async def legal(self, where: Where, user: User) -> list[str]:
        """The caller's legal actions now (for autocomplete); empty when they have none."""
        return await self.legal_after(where, user, [])

    # ----- looking ---------------------------------------------------------------------------------------
    async def status(self, where: Where, user: User) -> Reply:
        async with self.store.snapshot():       # the game and its log as of one moment
            return await self._status(where, user)

    async def _status(self, where: Where, user: User) -> Reply:
        row = await self.store.latest_game(where.channel)
        if row is None:
            return Reply.fail(user.id, _("There is no game in this channel. Open one with `/game new`."))
        if row.status == "lobby":
            return self._lobby_reply(row, "")
        game = GAMES[row.game]
        if row.state is None:
            return Reply(text=_("The {title} table here was closed before it started.", title=game.title),
                         game_id=row.id, status=row.status)
        state = game.load(row.state)
        entries = await self.store.log(row.id, offset=max(0, await self.store.log_length(row.id) - 5))
        lines = [self.said(e.line, row) for e in entries]
        if row.status == "finished":
            tail = self._result_text(row, game, state)
        elif row.status == "abandoned":
            tail = _("This game was abandoned.")
        else:
            tail = self._waiting_text(row, game.to_act(state))
        head = _("**{title}** — move {n}", title=game.title, n=entries[-1].seq) if entries else \
            _("**{title}** — no moves yet", title=game.title)
        reply = Reply(text="\n".join([head] + lines + [tail]),
                      game_id=row.id, version=row.version, status=row.status)
        if row.status == "running":
            reply.turn = self.turn(row, game, state)
        reply.image = self._image(row, game, state, None)
        return reply

    async def hand(self, where: Where, user: User) -> Reply:
        row = await self.store.latest_game(where.channel)
        if row is None or row.state is None:
            return Reply.fail(user.id, _("There is no game under way in this channel."))
        seat = row.seat_of(user.id)
        if not seat:
            return Reply.fail(user.id, _("You are not playing in this game, so you have no hand here."),
                              game_id=row.id)
        if seat.is_bot and row.status == "running":   # the computer's hand now: not for the removed player
            return Reply.fail(user.id, _(REMOVED_TEXT), game_id=row.id)
        game = GAMES[row.game]
        state = game.load(row.state)
        view = game.view(state, user.id)
        with i18n.speaking(i18n.user_locale()):     # several sentences, all for the caller: in their language
            if user.id in game.to_act(state):
                parts = [_("Your private view of {title}: it is your decision now.", title=game.title)]
            else:
                parts = [_("Your private view of {title}.", title=game.title)]
            actions = game.legal_actions(state, user.id) if user.id in game.to_act(state) else []
            if actions:
                parts.append(_("Your choices: {actions}", actions="; ".join(actions[:40])
                               + (" …" if len(actions) > 40 else "")))
            # only values that mean something now (never "my_choice: None"), in words (#16)
            parts += [pgettext("private", "{what}: {value}", what=_(words), value=_show(_words_of(view[k])))
                      for k, words in PRIVATE_WORDS.items() if view.get(k) not in (None, [], "", {})]
            text = "\n".join(parts)
        return Reply(game_id=row.id, version=row.version, status=row.status,
                     private=[Private(user.id, text, self._image(row, game, state, user.id))])

    async def hint(self, where: Where, user: User) -> Reply:
        """Privately, what the hard computer would play now and why (its top two actions and their win
        estimates): only for the caller's own seat and only when it is their decision. The search sees
        what the caller sees and nothing more (determinization)."""
        row = await self._require(where, user, statuses=("running",))
        if isinstance(row, Reply):
            return row
        refused = self._not_a_player(row, user, _("Hints are for the players of this game."))
        if refused:
            return refused
        if not table_options(row.options)["hints"]:
            return Reply.fail(user.id, _("This table has hints turned off (the host chose so in the lobby: "
                                         "`/game option name:hints value:off`)."), game_id=row.id)
        game, state = self._state(row)
        if user.id not in game.to_act(state):
            return Reply.fail(user.id, _("A hint is for your own decision: {why}", why=self.names_in(
                self.for_caller(game.waiting_message(state, user.id)), row)), game_id=row.id)
        text = await asyncio.to_thread(ai.hint, game, state, user.id, f"{row.id}:{row.version}:hint:{user.id}",
                                       **self.ai_options)
        return Reply(game_id=row.id, version=row.version, status=row.status,
                     private=[Private(user.id, self.names_in(self.for_caller(text), row))])

    async def history(self, where: Where, user: User, page: int = 1) -> Reply:
        async with self.store.snapshot():
            return await self._history(where, user, page)

    async def _history(self, where: Where, user: User, page: int = 1) -> Reply:
        row = await self.store.latest_game(where.channel)
        if row is None:
            return Reply.fail(user.id, _("There is no game in this channel."))
        total = await self.store.log_length(row.id)
        pages = max(1, -(-total // HISTORY_PAGE))
        if not 1 <= page <= pages:
            return Reply.fail(user.id, ngettext("There is {n} page of history; ask for 1 to {n}.",
                                                "There are {n} pages of history; ask for 1 to {n}.", pages))
        entries = await self.store.log(row.id, offset=(page - 1) * HISTORY_PAGE, limit=HISTORY_PAGE)
        title = GAMES[row.game].title if row.game in GAMES else row.game
        with i18n.speaking(i18n.user_locale()):     # for the caller alone: in their language
            body = [f"{e.seq}. {self.said(e.line, row)}" for e in entries] or [_("No moves yet.")]
            text = "\n".join([_("**{title}** history — page {page} of {pages}", title=title, page=page,
                                 pages=pages)] + body)
        return Reply(game_id=row.id, private=[Private(user.id, text)])

    def rules(self, game_key: str) -> str | None:
        game = self.game_of(game_key)
        if game is None:
            return None
        # the guide in the reader's language (data/rules/<key>.<locale>.md), else the English one (#17)
        for path in (RULES_DIR / f"{game.key}.{i18n.current()}.md", RULES_DIR / f"{game.key}.md"):
            if path.exists():
                return path.read_text(encoding="utf-8")
        return f"{game.title}: {i18n.line(game.players_message())}"

    # ----- ending ----------------------------------------------------------------------------------------
    async def abandon(self, where: Where, user: User, confirm: bool = False) -> Reply:
        async with self.lock(where.channel):
            row = await self.store.open_game(where.channel)
            if row is None:
                return Reply.fail(user.id, _("There is no game in this channel to abandon."))
            idle = self.clock() - row.updated_at
            seated = row.seat_of(user.id) is not None
            if user.id != row.host:
                if not seated:
                    return Reply.fail(user.id, _("Only the host or, once the table is idle, a seated player can "
                                                 "abandon this game."), game_id=row.id)
                if idle < self.idle_abandon_seconds:
                    wait = _duration(self.idle_abandon_seconds - idle)
                    return Reply.fail(user.id, _("Only the host can abandon an active game. If nobody moves for "
                                                 "{time} more, any seated player can.", time=wait), game_id=row.id)
            if not confirm:
                return Reply(game_id=row.id, version=row.version, status=row.status,
                             private=[Private(user.id, _("Abandon this game for everyone? It cannot be undone. "
                                                         "Confirm to go ahead."))])
            row = await self.store.set_status(row, "abandoned", now=self.clock())
        log.info("game %s: abandoned by %s", row.id, user.id)
        title = GAMES[row.game].title if row.game in GAMES else row.game
        return Reply(text=_("{name} abandoned the game of {title}. The channel is free for a new one.",
                            name=self.shown(user.name), title=title),
                     game_id=row.id, version=row.version, status=row.status)


    # ===== play across a day: timers, skip/remove past a deadline, undo, replays, stats, settings =====

    # ----- the scheduler ---------------------------------------------------------------------------------
    async def fire_due(self) -> int:
        """Fire every due timer once. For each, one transaction claims the timer, stores its effect (a
        computer's move past a deadline, the next reminder) and puts what must be said into the outbox; so a
        crash at any point either leaves the timer to fire again or leaves its notice waiting to be sent.
        Returns how many notices were queued."""
        now = self.clock()
        queued = 0
        for timer in await self.store.due_timers(now):
            row = await self.store.game(timer.game_id)
            if row is None:
                continue
            async with self.lock(row.channel):
                try:
                    async with self.store.batch():
                        if not await self.store.claim_timer(timer, now):
                            continue
                        row = await self.store.game(timer.game_id)
                        if row.status != "running":
                            continue
                        # said unprompted: in the server's language, direct messages in each user's (#17)
                        with i18n.speaking(await self.locale_of(f"guild:{row.guild or ''}")), i18n.playing(row.game):
                            notice = await getattr(self, f"_fire_{timer.kind}")(row, timer)
                        if notice is not None:
                            notice.dm = [Private(p.user, await self._in_language_of(p.user, p.text))
                                         for p in notice.dm]
                            notice.expires = timer.kind == "reminder" or notice.reply.offer is not None
                            await self.store.add_outgoing(row.id, notice.channel, _payload(notice), now)
                            queued += 1
                except StoreError:
                    raise
                except Exception:
                    # a timer that cannot fire is dropped, so it does not fail again every minute
                    log.exception("game %s: %s timer failed", row.id, timer.kind)
                    await self.store.claim_timer(timer, now)
        return queued

    async def outbox(self) -> list[Notice]:
        """The notices fired and not yet delivered, oldest first. A reminder or deadline offer whose turn has
        since been played is marked expired (``reply.ok`` False): there is nothing left to say."""
        notices = []
        for item in await self.store.outgoing():
            p = item.payload
            reply = Reply(text=p["text"], mention=p["mention"], game_id=item.game_id, version=p["version"],
                          status=p["status"], notes=[tuple(n) for n in p["notes"]])
            row = await self.store.game(item.game_id) if item.game_id is not None else None
            current = row is not None and row.version == p["version"] and row.status == p["status"]
            locale = await self.locale_of(f"guild:{row.guild or ''}") if row is not None else i18n.user_locale()
            if current and row.state is not None:
                game, state = self._state(row)
                with i18n.speaking(locale), i18n.playing(row.game):
                    if p["turn"] and row.status == "running":
                        reply.turn = self.turn(row, game, state)
                    if p["image"]:
                        reply.image = self._image(row, game, state, None)
                if p["offer"]:
                    reply.offer = Offer(row.id, row.version, p["offer"], dict(row.names))
            elif p["expires"]:
                reply.ok = False
            notices.append(Notice(item.channel, reply, [Private(u, t) for u, t in p["dm"]], id=item.id,
                                  parts_done=item.parts_done, expires=p["expires"], locale=locale))
        return notices

    async def deliver(self, to_channel, to_user, attempts: int = 5) -> list[Notice]:
        """Send the outbox: ``to_channel(notice)`` posts the channel message, ``to_user(notice, private,
        part)`` a direct message; each raises if the platform did not take it. A notice leaves the outbox only
        once every part went out (at least once; the parts' nonces keep a resend from showing twice). A
        notice that fails ``attempts`` times is dropped with a warning. Returns the notices delivered."""
        delivered = []
        for notice in await self.outbox():
            item = notice.id
            done = notice.parts_done
            try:
                if notice.reply.ok:
                    if done == 0:
                        with i18n.speaking(notice.locale or i18n.user_locale()):   # its buttons' words too
                            await to_channel(notice)
                        done = 1
                        await self.store.outgoing_progress(item, done)
                    while done <= len(notice.dm):
                        await to_user(notice, notice.dm[done - 1], done)
                        done += 1
                        await self.store.outgoing_progress(item, done)
            except StoreError:
                raise
            except Exception as e:
                tries = await self.store.outgoing_failed(item)
                log.warning("game %s: a notice could not be sent (%s; attempt %d)", notice.reply.game_id,
                            type(e).__name__, tries)
                if tries >= attempts:
                    await self.store.outgoing_done(item)
                continue
            await self.store.outgoing_done(item)
            if notice.reply.ok:
                delivered.append(notice)
        return delivered

    async def due(self) -> list[Notice]:
        """Fire what is due and deliver the outbox to the caller: the notices come back, already marked sent
        (for front ends whose 'sending' cannot fail, such as tests and scripts)."""
        await self.fire_due()
        got: list[Notice] = []

        async def take(notice):
            got.append(notice)

        async def skip_dm(notice, private, part):
            return None
        await self.deliver(take, skip_dm)
        return got

    def _waiting_people(self, row: GameRow, timer):
        """(game, state, people awaited) if the turn a timer was set for still waits for someone, else None."""
        if row.version != timer.version:
            return None
        game, state = self._state(row)
        humans = {s.user_id for s in row.seats if not s.is_bot}
        acting = [s for s in game.to_act(state) if s in humans]
        return (game, state, acting) if acting else None

    async def _fire_reminder(self, row: GameRow, timer) -> Notice | None:
        waiting = self._waiting_people(row, timer)
        if waiting is None:
            return None
        game, state, acting = waiting
        settings = await self.settings(row.guild)
        waited = _duration(self.clock() - row.updated_at)
        who = ", ".join(self.text_names(row)[s] for s in acting)
        reply = Reply(text=_("⏰ Reminder: {names} — {title} is waiting for you ({time} so far).", names=who,
                             title=game.title, time=waited),
                      mention=acting, game_id=row.id, version=row.version, status=row.status)
        reply.turn = self.turn(row, game, state)
        dms = [Private(s, _("⏰ It is your move in {title} (waiting {time}).", title=game.title, time=waited))
               for s in acting if await self.store.wants_dm(s)]
        # remind again until the deadline (or, without one, a few more times)
        interval = settings.reminder_hours * 3600
        deadline = next((t.due for t in await self.store.pending_timers(row.id) if t.kind == "deadline"), None)
        nxt = self.clock() + interval
        if interval > 0 and ((deadline is not None and nxt < deadline)
                             or (deadline is None and self.clock() - row.updated_at < 6 * interval)):
            await self.store.add_timer(row.id, "reminder", row.version, nxt)
        return Notice(row.channel, reply, dms)

    async def _fire_deadline(self, row: GameRow, timer) -> Notice | None:
        waiting = self._waiting_people(row, timer)
        if waiting is None:
            return None
        game, state, absent = waiting
        settings = await self.settings(row.guild)
        hours = _duration(self.clock() - row.updated_at)
        names = ", ".join(self.text_names(row)[s] for s in absent)
        if settings.deadline_action == "skip":
            head = _("{names} missed the deadline ({time}): a computer played for them.", names=names, time=hours)
            return Notice(row.channel, await self._skip(row, game, state, absent, head))
        if settings.deadline_action == "remove":
            return Notice(row.channel, await self._remove(row, game, state, absent))
        reply = Reply(text=_("⌛ {names} has not played for {time}. The other players may skip this turn (a "
                             "computer plays it for them) or remove them from the game (a computer takes the "
                             "seat). Nothing happens unless someone chooses.", names=names, time=hours),
                      game_id=row.id, version=row.version, status=row.status)
        reply.offer = Offer(row.id, row.version, absent, dict(row.names))
        dms = [Private(s, _("⌛ Your turn in {title} is past its deadline; the others may now skip you.",
                            title=game.title))
               for s in absent if await self.store.wants_dm(s)]
        return Notice(row.channel, reply, dms)

    async def _fire_limit(self, row: GameRow, timer) -> Notice | None:
        game, state = self._state(row)
        limit = game.time_limit(state)
        if not limit:
            return None
        moves, prev = [], state
        for seat in list(game.to_act(state)):
            if game.time_limit(state) is None or seat not in game.to_act(state):
                continue
            new = game.apply(state, seat, limit["action"])
            moves.append((seat, limit["action"], game.describe(state, seat, limit["action"], new)))
            state = new
        if not moves:
            return None
        recorded, state, _unused = await self._record(row, game, prev, state, moves)
        if isinstance(recorded, Reply):
            return None
        lines = [_("⏱ Time is up.")] + [self.said(line, recorded) for _seat, _action, line in moves]
        recorded, state, bot_lines = await self._run_bots(recorded, game, state)
        return Notice(row.channel, await self._after_change(recorded, game, state, lines + bot_lines))

    async def next_due(self) -> float | None:
        return await self.store.next_due()

    # ----- past a deadline: skip or remove ---------------------------------------------------------------
    async def _skip(self, row: GameRow, game: Game, state, seats: list[str], head: str) -> Reply:
        """A computer plays the current decision of each absent seat (at the stand-in level, medium); ``head``
        says who missed what."""
        moves, prev = [], state
        for seat in seats:
            if seat not in game.to_act(state) or game.result(state) is not None:
                continue
            rnd = random.Random(f"{row.id}:{row.version}:skip:{seat}")
            action = await self._computer_action(game, state, seat, STAND_IN_LEVEL, rnd,
                                                 f"{row.id}:{row.version}:skip:{seat}")
            new = game.apply(state, seat, action)
            moves.append((seat, action, game.describe(state, seat, action, new)))
            state = new
        recorded, state, _unused = await self._record(row, game, prev, state, moves)
        if isinstance(recorded, Reply):
            return Reply(ok=False)
        lines = [head] + [self.said(line, recorded) for _seat, _action, line in moves]
        recorded, state, bot_lines = await self._run_bots(recorded, game, state)
        return await self._after_change(recorded, game, state, lines + bot_lines)

    async def _remove(self, row: GameRow, game: Game, state, seats: list[str]) -> Reply:
        """Hand the absent seats to computer players for the rest of the game."""
        new_seats = [Seat(s.user_id, s.name, s.is_bot or s.user_id in seats) for s in row.seats]
        names = ", ".join(self.text_names(row)[s] for s in seats)
        # stored in the log in English, as the engine's lines are; translated where shown
        moves = [(s, REMOVED, N_("{seat} was removed from the game; a computer plays the seat.").format(seat=s))
                 for s in seats]
        recorded, state, _unused = await self._record(row, game, state, state, moves, seats=new_seats)
        if isinstance(recorded, Reply):
            return Reply(ok=False)
        recorded, state, bot_lines = await self._run_bots(recorded, game, state)
        return await self._after_change(recorded, game, state,
                                        [_("{names} removed from the game: a computer plays for them now.",
                                           names=names)] + bot_lines)

    async def _deadline_check(self, where: Where, user: User, seat: str, version: int | None):
        row = await self._require(where, user, statuses=("running",))
        if isinstance(row, Reply):
            return row
        game, state = self._state(row)
        if version is not None and version != row.version:
            return self._stale(row, game, state, user)
        me = row.seat_of(user.id)
        if me is None or me.is_bot:
            return Reply.fail(user.id, _("Only the other players in this game can do that."), game_id=row.id)
        if seat == user.id:
            return Reply.fail(user.id, _("That is you: just make your move."), game_id=row.id)
        target = row.seat_of(seat)
        if target is None or target.is_bot:
            return Reply.fail(user.id, _("That player is not a person seated in this game."), game_id=row.id)
        if seat not in game.to_act(state):
            return Reply.fail(user.id, _("{name} is not the one the game is waiting for.",
                                         name=self.shown(target.name)), game_id=row.id)
        settings = await self.settings(row.guild)
        left = settings.deadline_hours * 3600 - (self.clock() - row.updated_at)
        if settings.deadline_hours <= 0:
            return Reply.fail(user.id, _("This server has no turn deadline (see `/settings`)."), game_id=row.id)
        if left > 0:
            return Reply.fail(user.id, _("{name} still has {time} before the turn deadline.",
                                         name=self.shown(target.name), time=_duration(left)), game_id=row.id)
        return row, game, state, target

    async def skip(self, where: Where, user: User, seat: str, version: int | None = None) -> Reply:
        async with self.lock(where.channel):
            checked = await self._deadline_check(where, user, seat, version)
            if isinstance(checked, Reply):
                return checked
            row, game, state, target = checked
            head = _("{names} missed the deadline; {name} skipped the turn: a computer played for them.",
                     names=self.text_names(row)[seat], name=self.shown(user.name))
            reply = await self._skip(row, game, state, [seat], head)
        return reply if reply.ok else Reply.fail(user.id, _("The game moved meanwhile; look again."))

    async def remove(self, where: Where, user: User, seat: str, version: int | None = None) -> Reply:
        async with self.lock(where.channel):
            checked = await self._deadline_check(where, user, seat, version)
            if isinstance(checked, Reply):
                return checked
            row, game, state, target = checked
            reply = await self._remove(row, game, state, [seat])
        return reply if reply.ok else Reply.fail(user.id, _("The game moved meanwhile; look again."))

    # ----- undo ------------------------------------------------------------------------------------------
    async def undo(self, where: Where, user: User) -> Reply:
        """Take back your own last action: only before anyone else acted, never across a random event or
        revealed hidden information (the engine judges which)."""
        async with self.lock(where.channel):
            row = await self._require(where, user, statuses=("running",))
            if isinstance(row, Reply):
                return row
            refused = self._not_a_player(row, user, _("You are not playing in this game."))
            if refused:
                return refused
            game, state = self._state(row)
            entries = await self.store.log(row.id)
            if not entries or entries[-1].action.startswith("#"):
                why = _("You have already taken back your last move.") if entries and entries[-1].action == UNDO \
                    else _("There is no move to take back.")
                return Reply.fail(user.id, why, game_id=row.id)
            last = entries[-1]
            if last.seat != user.id:
                return Reply.fail(user.id, _("Only your own last action can be taken back, and only before anyone "
                                             "else has acted."), game_id=row.id)
            states = rebuild(game, row, entries)
            if game.dump(states[-1]) != row.state:
                log.error("game %s: replay differs from the stored state; undo refused", row.id)
                return Reply.fail(user.id, _("Sorry, that move cannot be taken back."), game_id=row.id)
            before, after = states[-2], states[-1]
            if before["rng"] != after["rng"]:
                return Reply.fail(user.id, _("That move cannot be taken back: it involved a random event (a roll "
                                             "or a draw)."), game_id=row.id)
            if not game.undoable(before, user.id, last.action, after):
                return Reply.fail(user.id, _("That move cannot be taken back: the rules keep it (a secret choice, "
                                             "revealed information or a taken die stays)."), game_id=row.id)
            # stored in the log in English, as the engine's lines are; translated where shown
            line = N_("{seat} took back their last move.").format(seat=user.id)
            row, state, _unused = await self._record(row, game, None, before, [(user.id, UNDO, line)])
            if isinstance(row, Reply):
                return Reply.fail(user.id, _("Someone moved at the same moment; nothing was taken back."))
            row, state, bot_lines = await self._run_bots(row, game, state)   # never wait on a computer seat
        return await self._after_change(row, game, state, [self.said(line, row)] + bot_lines)

    # ----- replays, exports ------------------------------------------------------------------------------
    async def replay(self, where: Where, user: User) -> Reply:
        """An animated GIF of the whole game rebuilt from its seed and log: the channel's images, in order."""
        async with self.store.snapshot():
            row = await self.store.latest_game(where.channel)
            entries = await self.store.log(row.id) if row is not None else []
        if row is None or row.state is None:
            return Reply.fail(user.id, _("There is no started game in this channel to replay."))
        game = GAMES[row.game]
        names = dict(row.names)

        if row.game not in RENDERERS:
            return Reply.fail(user.id, _("This game has no pictures to replay."))

        def make() -> bytes | None:
            states = rebuild(game, row, entries)
            draw = RENDERERS[row.game]
            frames = {i: draw(game.view(states[i], None), names, None) for i in sample(len(states))}
            return gif_within(frames, MAX_ATTACHMENT)

        data = await asyncio.to_thread(make)      # rebuilding and drawing a whole game: off the event loop
        if data is None:
            return Reply.fail(user.id, _("This game is too long for a replay within Discord's {mb} MB attachment "
                                         "limit; `/game export` gives its whole record.", mb=MAX_ATTACHMENT // 2**20),
                              game_id=row.id)
        moves = len(effective_actions(entries))
        with i18n.speaking(i18n.user_locale()):     # the caller's: the text and the picture's description
            text = ngettext("{title}: the whole game, {n} move.", "{title}: the whole game, {n} moves.", moves,
                            title=game.title)
            alt = ngettext("An animated replay of this {title} game, {n} move.",
                           "An animated replay of this {title} game, {n} moves.", moves, title=game.title)
        return Reply(game_id=row.id, private=[Private(
            user.id, text, Picture(f"{row.game}-{row.id}-replay.gif", data=data, alt=alt))])

    async def export(self, where: Where, user: User) -> Reply:
        async with self.store.snapshot():
            row = await self.store.latest_game(where.channel)
            entries = await self.store.log(row.id) if row is not None else []
        if row is None or row.state is None:
            return Reply.fail(user.id, _("There is no started game in this channel to export."))
        game = GAMES[row.game]
        ended = row.status in ("finished", "abandoned")
        data = export(row, game, entries, ended)
        text = _("{title}: the game's record as JSON.", title=game.title) if ended else \
            _("{title}: the game's record as JSON. While the game runs the export holds the public log only; the "
              "full record (actions and seed) comes once it has ended.", title=game.title)
        return Reply(game_id=row.id, private=[Private(
            user.id, text,
            Picture(f"{row.game}-{row.id}-log.json", data=export_bytes(data)))])

    # ----- lists and stats -------------------------------------------------------------------------------
    async def games_here(self, guild: str | None) -> list[dict]:
        """The unfinished games of a server: where, what, and whom each waits for (one indexed query)."""
        return [self._titled(g) for g in await self.store.open_games_of(guild)]

    @staticmethod
    def _titled(summary: dict) -> dict:
        game = GAMES.get(summary["game"])
        return {**summary, "title": game.title if game else summary["game"]}

    async def my_turns(self, user: User) -> list[dict]:
        """Every game, in any server, that is waiting for ``user`` now."""
        return [self._titled(g) for g in await self.store.turns_of(user.id)]

    async def stats(self, user_id: str, guild: str | None = None) -> Stats:
        return tally(await self.store.record_of(user_id, guild))

    async def leaderboard(self, game_key: str, guild: str | None = None, limit: int = 10):
        """(user id, latest name, record) of the best players of a game: most wins, best rate, most played."""
        return [(uid, name, Record(played, wins, played - wins, abandoned))
                for uid, name, wins, played, abandoned in await self.store.board(game_key, guild, limit)]

    # ----- settings and notifications --------------------------------------------------------------------
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

    async def change_settings(self, guild: str | None, user: User, can_manage: bool, /, **changes) -> Reply:
        """Change a server's settings; ``can_manage`` is the front end's word that the user may manage the
        server (Manage Server in Discord)."""
        if not can_manage:
            return Reply.fail(user.id, _("Only members who can manage this server can change its settings."))
        current = await self.store.settings(guild)
        try:
            for name, value in changes.items():
                if value is None:
                    continue
                if name in ("reminder_hours", "deadline_hours"):
                    try:
                        value = float(value)
                    except (TypeError, ValueError):
                        raise ValueError(_("{setting} is a number of hours.", setting=_setting(name))) from None
                    top = MAX_REMINDER_HOURS if name == "reminder_hours" else MAX_DEADLINE_HOURS
                    if not math.isfinite(value) or not (value == 0 or 1 <= value <= top):
                        raise ValueError(_("{setting} must be 0 (off) or between 1 and {top} hours.",
                                           setting=_setting(name), top=top))
                elif name == "deadline_action":
                    if value not in ("vote", "skip", "remove"):
                        raise ValueError(_("past the deadline: vote, skip or remove."))
                elif name in ("threads", "mention"):
                    value = bool(value)
                else:
                    raise ValueError(_("There is no setting called {name}.", name=name))
                setattr(current, name, value)
            if 0 < current.deadline_hours < current.reminder_hours:
                raise ValueError(_("The turn deadline ({deadline} h) cannot come before the first reminder "
                                   "({reminder} h): lengthen the deadline or remind sooner.",
                                   deadline=f"{current.deadline_hours:g}", reminder=f"{current.reminder_hours:g}"))
        except ValueError as e:
            return Reply.fail(user.id, e.args[0])        # the sentence itself (a Msg), not a copy
        await self.store.save_settings(guild, current)
        self._settings.pop(guild, None)
        return Reply(private=[Private(user.id, _("Settings saved.\n{settings}", settings=describe_settings(current)))])

    async def set_notify(self, user: User, on: bool) -> Reply:
        await self.store.set_dm(user.id, on)
        text = (_("I will send you a direct message when a game waits for you.") if on
                else _("No more direct messages; reminders still mention you in the game's channel."))
        return Reply(private=[Private(user.id, text)])


def _payload(notice: Notice) -> dict:
    """What the outbox keeps of a notice: its words and what to rebuild (the prompt, the image, the offer)
    from the game when it is sent."""
    r = notice.reply
    return {"text": r.text, "mention": r.mention, "version": r.version, "status": r.status,
            "turn": r.turn is not None, "image": r.image is not None, "notes": [list(n) for n in r.notes],
            "offer": list(r.offer.absent) if r.offer else None, "dm": [[p.user, p.text] for p in notice.dm],
            "expires": notice.expires}


def parse_option(default, text: str):
    """A table option's text as the type of its default value."""
    text = str(text).strip()
    if isinstance(default, bool):
        low = text.lower()
        if low in ("on", "true", "yes", "1"):
            return True
        if low in ("off", "false", "no", "0"):
            return False
        raise ValueError(_("Say on or off, not '{text}'.", text=text))
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ValueError(_("'{text}' is not a whole number.", text=text)) from None
    return text


PRIVATE_WORDS = {"hand": N_("Your hand"), "my_choice": N_("Your choice this round"), "choice": N_("Your choice"),
                 "my_bid": N_("Your bid"), "secret": N_("Your secret")}

def bot_level(seat: Seat) -> str:
    """The level a computer seat plays at: named in a computer's seat name ("Computer 2 (hard)"; older
    computers, named without one, play easy as they always did); a person's seat taken over plays medium."""
    if not seat.user_id.startswith(BOT_PREFIX):
        return STAND_IN_LEVEL
    m = BOT_LEVEL.search(seat.name)
    return m.group(1) if m else "easy"


def _show(value) -> str:
    if isinstance(value, bool):
        return pgettext("switch", "on") if value else pgettext("switch", "off")
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    return str(value)


def _words_of(value):
    """A private value (a hand, a choice) as the reader's words: the games' words translated, the rest as it is."""
    if isinstance(value, str):
        return i18n.line(value)
    if isinstance(value, list):
        return [_words_of(v) for v in value]
    return value


def seconds_text(seconds: float) -> str:
    """A rules time limit in words: '20 seconds', '5 minutes', '1 hour 30 minutes', '24 hours'."""
    seconds = int(seconds)
    if seconds < 120:
        return ngettext("{n} second", "{n} seconds", seconds)
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    if hours and minutes:
        return pgettext("duration", "{hours} {minutes}", hours=ngettext("{n} hour", "{n} hours", hours),
                        minutes=ngettext("{n} minute", "{n} minutes", minutes))
    if hours:
        return ngettext("{n} hour", "{n} hours", hours)
    return ngettext("{n} minute", "{n} minutes", minutes)


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60) + 1
    if minutes < 120:
        return ngettext("{n} minute", "{n} minutes", minutes)
    return ngettext("{n} hour", "{n} hours", minutes // 60)


def describe_settings(s: Settings) -> str:
    reminder = pgettext("reminders", "every {hours} h", hours=f"{s.reminder_hours:g}") if s.reminder_hours > 0 \
        else pgettext("reminders", "off")
    deadline = pgettext("deadline", "{hours} h", hours=f"{s.deadline_hours:g}") if s.deadline_hours > 0 \
        else pgettext("deadline", "none")
    action = {"vote": _("the other players may skip or remove the absent player (buttons)"),
              "skip": _("a computer plays the missed turn"),
              "remove": _("a computer takes the seat")}[s.deadline_action]
    return _("Reminders: {reminder}. Turn deadline: {deadline}; past it, {action}. A thread per game: {threads}. "
             "Mention on turn: {mention}.", reminder=reminder, deadline=deadline, action=action,
             threads=_show(s.threads), mention=_show(s.mention))


def _and(names) -> str:
    """Names joined as a sentence says them: 'Ann and Cy', 'Ann and Cy and Dee'."""
    names = list(names)
    out = names[0] if names else ""
    for name in names[1:]:
        out = pgettext("list", "{first} and {second}", first=out, second=name)
    return out


def _seat_line(n: int, name: str, computer: bool, host: bool) -> str:
    if computer and host:
        return pgettext("lobby", "{n}. {name} (computer) — host", n=n, name=name)
    if computer:
        return pgettext("lobby", "{n}. {name} (computer)", n=n, name=name)
    if host:
        return pgettext("lobby", "{n}. {name} — host", n=n, name=name)
    return pgettext("lobby", "{n}. {name}", n=n, name=name)


def _setting(name: str) -> str:
    return {"reminder_hours": _("reminder hours"), "deadline_hours": _("deadline hours")}.get(
        name, name.replace("_", " "))



# ----- languages (#17) --------------------------------------------------------------------------------------
def _speaks(method):
    """Run a service call as an interaction: text is made in the channel's language (the server's
    preferred locale, else the caller's) and whatever goes to the caller alone in the caller's."""
    @functools.wraps(method)
    async def call(self, where, user, *args, **kwargs):
        with i18n.interaction(getattr(user, "locale", None), getattr(where, "locale", None),
                              caller=getattr(user, "id", None)):
            try:
                await self.remember_locales(where, user)
            except StoreError:
                log.warning("could not remember the languages of an interaction")
            return await method(self, where, user, *args, **kwargs)
    return call


def _speaks_to(method, user_at: int):
    """As ``_speaks`` for a call with no channel: ``user`` is its argument number ``user_at``."""
    @functools.wraps(method)
    async def call(self, *args, **kwargs):
        user = args[user_at]
        with i18n.interaction(getattr(user, "locale", None), None, caller=getattr(user, "id", None)):
            try:
                await self.remember_locales(None, user)
            except StoreError:
                log.warning("could not remember the language of an interaction")
            return await method(self, *args, **kwargs)
    return call


TableService.change_settings = _speaks_to(TableService.change_settings, 1)
TableService.set_notify = _speaks_to(TableService.set_notify, 0)

for _name in ("open_table", "join", "add_bot", "leave", "set_option", "start", "act", "legal_after", "prompt",
              "legal", "status", "hand", "hint", "history", "abandon", "skip", "remove", "undo", "replay",
              "export"):
    setattr(TableService, _name, _speaks(getattr(TableService, _name)))
