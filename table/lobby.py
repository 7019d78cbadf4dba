"""A table's life outside play: opening it in a channel, taking and leaving seats, computer players, the
table's options, the start, and abandoning it."""

from __future__ import annotations

import logging
import random
import secrets

import i18n
from engine import GAMES, IllegalAction, ai
from i18n import N_, _, ngettext, pgettext
from store.rows import BOT_PREFIX, GameRow, Seat
from store.store import ChannelBusy, VersionConflict

from . import clock
from .clock import SPEEDS, BadHours
from .context import Context, speaks
from .play import Play
from .records import REMATCH, TABLE_OPTIONS, at_start, game_options, table_options
from .replies import Private, Reply, User, Where, confirm_abandon
from .texts import BOT_NAME, duration, parse_option, show
from .timekeeping import why_not

log = logging.getLogger("teahouse.table")


def table_option(name: str, value):
    """A table option's value as stored, or ValueError with the line that says why not (an unknown speed, an
    unknown zone, playing hours that cannot be read or are empty or the whole day)."""
    if name == "speed":
        value = str(value).strip().lower()
        if value not in SPEEDS:
            raise ValueError(_("There is no speed '{speed}'. Speeds: {speeds}.", speed=value,
                               speeds=", ".join(SPEEDS)))
    try:
        if name == "playing_hours":
            return clock.window_text(clock.parse_window(value))
        if name == "zone":
            return clock.parse_zone(str(value))
    except BadHours as e:
        raise ValueError(why_not(e)) from None
    return value


def hints_or_rated(options: dict, row: GameRow, name: str) -> tuple[dict, str | None]:
    """A rated table gives no hints (#47): hints turned on make the table unrated, and a table made rated has
    its hints turned off. The options so, and the sentence that says what else changed (or None)."""
    shown = table_options(row.options, row.seats)
    if name == "hints" and options["hints"] and shown["rated"]:
        return {**options, "rated": False}, N_("With hints on, the table is unrated: rated games have no hints.")
    if name == "rated" and options["rated"] and shown["hints"]:
        return {**options, "hints": False}, N_("A rated table has no hints: hints are off.")
    return options, None


def in_order(row: GameRow, seats: list[Seat]) -> list[Seat]:
    """A rematch's seats in its rotated order (anyone new after them); any other table's as they are."""
    order = (row.options.get(REMATCH) or {}).get("order")
    if not order:
        return seats
    return sorted(seats, key=lambda s: order.index(s.user_id) if s.user_id in order else len(order))


class Lobby:
    def __init__(self, ctx: Context, play: Play):
        self.ctx = ctx
        self.play = play

    @speaks
    async def open_table(self, where: Where, user: User, game_key: str, options: dict | None = None,
                         parent_channel: str | None = None) -> Reply:
        """Open a lobby in ``where``; ``parent_channel`` when ``where`` is a game thread opened for it."""
        ctx = self.ctx
        game = ctx.game_of(game_key)
        if game is None:
            known = ", ".join(sorted(k for k in GAMES))
            return Reply.fail(user.id, _("There is no game called '{name}'. Games: {games}.", name=game_key,
                                         games=known))
        try:
            opts = {**game.check_options(game_options(options or {})),
                    **{k: table_option(k, v) for k, v in (options or {}).items() if k in TABLE_OPTIONS}}
            if "speed" not in opts:                 # the server's speed for new tables (/settings speed:)
                default = (await ctx.settings(where.guild)).speed
                if default != "untimed":
                    opts["speed"] = default
        except IllegalAction as e:
            return Reply.fail(user.id, ctx.illegal(e))
        except ValueError as e:
            return Reply.fail(user.id, e.args[0])
        async with ctx.lock(where.channel):
            row = await self.create(where, user, game, opts, parent_channel)
            if isinstance(row, Reply):
                return row
        log.info("game %s: %s opened a %s table", row.id, user.id, game.key)
        return await ctx.lobby_reply(row, _("{name} opened a table.", name=ctx.shown(user.name)))

    async def create(self, where: Where, user: User, game, options: dict,
                     parent_channel: str | None) -> GameRow | Reply:
        """(Under the channel's lock.) A new table of ``game`` in ``where`` hosted by ``user``, or the Reply
        refusing it when the channel already has a game (one open game per channel, also across processes)."""
        ctx = self.ctx
        existing = await ctx.store.open_game(where.channel)
        if existing is not None:
            return self._busy(user, existing)
        try:
            return await ctx.store.create_game(guild=where.guild, channel=where.channel, game=game.key,
                                               options=options, host=Seat(user.id, user.name), now=ctx.clock(),
                                               parent_channel=parent_channel)
        except ChannelBusy:
            return self._busy(user, await ctx.store.open_game(where.channel))

    # ----- a rematch (#27) -----------------------------------------------------------------------------------
    @speaks
    async def rematch(self, where: Where, user: User, game_id: int | None = None) -> Reply:
        """Play an ended game again in its channel: the first former player to ask opens a table with the same
        game and options, the computers back in their seats and the seat order turned by one (someone else
        moves first); the others are called to join. Asking again, or another former player asking, joins
        that table. ``game_id`` None: the channel's latest ended game."""
        ctx = self.ctx
        async with ctx.lock(where.channel):
            ended = await (ctx.store.game(game_id) if game_id is not None else ctx.store.latest_game(where.channel))
            if ended is None or ended.channel != where.channel or ended.status != "finished":
                return Reply.fail(user.id, _("There is no ended game here to play again."))
            humans = [s.user_id for s in ended.seats if not s.user_id.startswith(BOT_PREFIX)]
            if user.id not in humans:
                return Reply.fail(user.id, _("Only the players of that game can ask for a rematch."),
                                  game_id=ended.id)
            row = await ctx.store.open_game(where.channel)
            if row is not None:
                if (row.options.get(REMATCH) or {}).get("of") != ended.id:
                    return self._busy(user, row)
                if row.status != "lobby":
                    return Reply.fail(user.id, _("The rematch has already started."), game_id=row.id)
                if row.seat_of(user.id):
                    return Reply.fail(user.id, _("You are already seated at the rematch."), game_id=row.id)
                joined = await self._update(row, user, seats=in_order(row, row.seats + [Seat(user.id, user.name)]))
                if isinstance(joined, Reply):
                    return joined
                return await ctx.lobby_reply(joined, pgettext("lobby", "{name} joined.", name=ctx.shown(user.name)))
            order = [s.user_id for s in ended.seats[1:] + ended.seats[:1]]
            options = {**ended.options, REMATCH: {"of": ended.id, "order": order}}
            try:
                row = await ctx.store.create_game(guild=where.guild, channel=where.channel, game=ended.game,
                                                  options=options, host=Seat(user.id, user.name), now=ctx.clock(),
                                                  parent_channel=ended.parent_channel)
            except ChannelBusy:
                return self._busy(user, await ctx.store.open_game(where.channel))
            computers = [s for s in ended.seats if s.user_id.startswith(BOT_PREFIX)]
            row = await self._update(row, user, seats=in_order(row, row.seats + computers))
            if isinstance(row, Reply):
                return row
        log.info("game %s: %s asked for a rematch of game %s", row.id, user.id, ended.id)
        reply = await ctx.lobby_reply(row, _("{name} asks for a rematch of {title}. Join them!",
                                             name=ctx.shown(user.name), title=GAMES[row.game].title))
        reply.mention = await ctx.timekeeping.awake([h for h in humans if h != user.id])   # not in quiet hours
        return reply

    @staticmethod
    def _busy(user: User, row: GameRow | None) -> Reply:
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

    # ----- seats and options -----------------------------------------------------------------------------
    @speaks
    async def join(self, where: Where, user: User) -> Reply:
        async with self.ctx.lock(where.channel):
            row = await self._lobby(where, user)
            if isinstance(row, Reply):
                return row
            if row.seat_of(user.id):
                return Reply.fail(user.id, _("You are already seated at this table."), game_id=row.id)
            full = self._full(row, user)
            if full:
                return full
            row = await self._update(row, user, seats=in_order(row, row.seats + [Seat(user.id, user.name)]),
                                     conflict=N_("The table changed as you joined; try again."))
            if isinstance(row, Reply):
                return row
        return await self.ctx.lobby_reply(row, pgettext("lobby", "{name} joined.", name=self.ctx.shown(user.name)))

    @speaks
    async def add_bot(self, where: Where, user: User, level: str = "easy") -> Reply:
        if level not in ai.LEVELS:
            return Reply.fail(user.id, _("A computer player's level is easy, medium or hard."))
        async with self.ctx.lock(where.channel):
            row = await self._lobby(where, user, host_only=N_("Only the host can add a computer player."))
            if isinstance(row, Reply):
                return row
            full = self._full(row, user)
            if full:
                return full
            n = 1 + sum(1 for s in row.seats if s.is_bot)
            while any(s.user_id == f"{BOT_PREFIX}{n}" for s in row.seats):
                n += 1
            # stored in English (the level is read back from it: bot_level); shown translated (seat_name)
            seats = row.seats + [Seat(f"{BOT_PREFIX}{n}", BOT_NAME.format(n=n, level=level), True)]
            row = await self._update(row, user, seats=seats)
            if isinstance(row, Reply):
                return row
        return await self.ctx.lobby_reply(row, _("{name} added a computer player ({level}).",
                                           name=self.ctx.shown(user.name), level=pgettext("choice", level)))

    async def _lobby(self, where: Where, user: User, host_only: str | None = None) -> GameRow | Reply:
        """The channel's table in its lobby, or why not; ``host_only``: the refusal (a template) for anyone but
        the host."""
        row = await self.ctx.require(where, user, statuses=("lobby",))
        if isinstance(row, Reply) or host_only is None or user.id == row.host:
            return row
        return Reply.fail(user.id, _(host_only), game_id=row.id)

    @staticmethod
    def _full(row: GameRow, user: User) -> Reply | None:
        game = GAMES[row.game]
        if len(row.seats) >= game.max_players:
            return Reply.fail(user.id, _("The table is full ({n} players).", n=game.max_players), game_id=row.id)
        return None

    @speaks
    async def leave(self, where: Where, user: User) -> Reply:
        ctx = self.ctx
        async with ctx.lock(where.channel):
            row = await ctx.store.open_game(where.channel)
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
                row = await ctx.store.update_lobby(row, seats=seats, options=row.options, host=row.host,
                                                   now=ctx.clock(), status="abandoned")
                return Reply(text=_("{name} left; the table is closed.", name=ctx.shown(user.name)),
                             game_id=row.id, status=row.status)
            was_host = row.host == user.id
            host = humans[0].user_id if was_host else row.host
            row = await self._update(row, user, seats=seats, host=host)
            if isinstance(row, Reply):
                return row
        if was_host:
            return await ctx.lobby_reply(row, _("{name} left. {host} is the host now.", name=ctx.shown(user.name),
                                          host=ctx.text_names(row)[host]))
        return await ctx.lobby_reply(row, pgettext("lobby", "{name} left.", name=ctx.shown(user.name)))

    @speaks
    async def set_option(self, where: Where, user: User, name: str, value: str) -> Reply:
        async with self.ctx.lock(where.channel):
            row = await self._lobby(where, user, host_only=N_("Only the host can change the table options."))
            if isinstance(row, Reply):
                return row
            game = GAMES[row.game]
            if name not in game.options and name not in TABLE_OPTIONS:
                known = ", ".join([*game.options, *TABLE_OPTIONS]) or pgettext("options", "none")
                return Reply.fail(user.id, _("{title} has no option '{name}'. Options: {options}.", title=game.title,
                                             name=name, options=known), game_id=row.id)
            also = None
            try:
                if name in TABLE_OPTIONS:
                    options = {**row.options, name: table_option(name, parse_option(TABLE_OPTIONS[name], value))}
                    options, also = hints_or_rated(options, row, name)
                else:
                    parsed = parse_option(game.options[name], value)
                    options = {**row.options, **game.check_options({**game_options(row.options), name: parsed})}
            except IllegalAction as e:
                return Reply.fail(user.id, self.ctx.illegal(e), game_id=row.id)
            except ValueError as e:
                return Reply.fail(user.id, e.args[0], game_id=row.id)      # the sentence itself (a Msg)
            row = await self._update(row, user, options=options)
            if isinstance(row, Reply):
                return row
        value = options[name]               # the option and its value in the reader's words, as the lobby shows them
        said = _("{name} set {option} to {value}.", name=self.ctx.shown(user.name), option=i18n.word(name),
                 value=i18n.word(value) if isinstance(value, str) else show(value))
        return await self.ctx.lobby_reply(row, said + (" " + _(also) if also else ""))

    async def _update(self, row: GameRow, user: User, *, seats=None, options=None, host=None,
                      conflict: str = N_("The table changed meanwhile; try again.")) -> GameRow | Reply:
        """The lobby stored with its changes, or the refusal (``conflict``, a template) when it changed
        meanwhile."""
        try:
            return await self.ctx.store.update_lobby(row, seats=row.seats if seats is None else seats,
                                                     options=row.options if options is None else options,
                                                     host=row.host if host is None else host, now=self.ctx.clock())
        except VersionConflict:
            return Reply.fail(user.id, _(conflict))

    # ----- the start and the end -------------------------------------------------------------------------
    @speaks
    async def start(self, where: Where, user: User, shuffle: bool = False) -> Reply:
        ctx = self.ctx
        async with ctx.lock(where.channel):
            row = await ctx.require(where, user, statuses=("lobby",))
            if isinstance(row, Reply):
                return row
            if user.id != row.host:
                return Reply.fail(user.id, _("Only the host ({name}) can start the game.",
                                             name=ctx.text_names(row)[row.host]), game_id=row.id)
            begun = await self.begin(row, user, shuffle)
        return await self.begun(begun, user)

    async def begin(self, row: GameRow, user: User, shuffle: bool = False):
        """Start the lobby ``row`` (the caller holds its channel's lock and has checked who may): the first
        state stored and the computers' first moves played, as (row, game, state, lines, seat order) for
        ``begun``; or the refusal."""
        ctx, play = self.ctx, self.play
        game = GAMES[row.game]
        if not game.min_players <= len(row.seats) <= game.max_players:
            return Reply.fail(user.id, ngettext("{players} {n} seated so far.", "{players} {n} seated so far.",
                                                len(row.seats), players=ctx.for_caller(game.players_message())),
                              game_id=row.id)
        seats = list(row.seats)
        if shuffle:
            random.SystemRandom().shuffle(seats)
        options = at_start(row.options, seats)           # hints as the lobby showed them, kept to the end (#47)
        if options != row.options:
            try:
                row = await ctx.store.update_lobby(row, seats=row.seats, options=options, host=row.host,
                                                   now=ctx.clock())
            except VersionConflict:
                return Reply.fail(user.id, _("The table changed as you started; try again."), game_id=row.id)
        seed = secrets.randbits(62)
        try:
            state = game.new([s.user_id for s in seats], seed, game_options(row.options))
        except IllegalAction as e:
            return Reply.fail(user.id, ctx.illegal(e), game_id=row.id)
        clocks = ctx.timekeeping.start(row, game, state, seats)        # a speed's banks (#34), else None
        timers, _keep = await play.timers(row, game, None, state, seats, clocks)
        try:
            async with play._with_clocks(clocks):
                started = await ctx.store.start_game(row, seats=seats, seed=seed, state=game.dump(state),
                                                     now=ctx.clock(), timers=timers, waiting=game.to_act(state),
                                                     rules=state["rules"])
                if clocks is not None:
                    await ctx.timekeeping.save(row.id, clocks)
            row = started
        except VersionConflict:
            return Reply.fail(user.id, _("The table changed as you started; try again."), game_id=row.id)
        order = ", ".join(ctx.shown(ctx.seat_name(s.user_id, s.name)) for s in seats)
        lines = [_("{title} begins! Seat order: {order}.", title=game.title, order=order)]
        await ctx.event("start", row, game=game, state=state)        # followers, the TV (#49)
        row, state, bot_lines = await play.run_bots(row, game, state)
        return row, game, state, lines + bot_lines, order

    async def begun(self, begun, user: User) -> Reply:
        """The answer to a start (``begin``'s outcome), made once the channel's lock is free again."""
        if isinstance(begun, Reply):
            return begun
        row, game, state, lines, order = begun
        log.info("game %s: started with %d seats", row.id, len(row.seats))
        reply = await self.play.after_change(row, game, state, lines)
        if row.parent_channel:
            reply.notes.append((row.parent_channel, _("A game of {title} started: {order}.", title=game.title,
                                                      order=order)))
        return await self.play.coached(reply, row, game, state, user)

    @speaks
    async def abandon(self, where: Where, user: User, confirm: bool = False) -> Reply:
        ctx = self.ctx
        async with ctx.lock(where.channel):
            row = await ctx.store.open_game(where.channel)
            if row is None:
                return Reply.fail(user.id, _("There is no game in this channel to abandon."))
            idle = ctx.clock() - row.updated_at
            seated = row.seat_of(user.id) is not None
            if user.id != row.host:
                if not seated:
                    return Reply.fail(user.id, _("Only the host or, once the table is idle, a seated player can "
                                                 "abandon this game."), game_id=row.id)
                if idle < ctx.idle_abandon_seconds:
                    wait = duration(ctx.idle_abandon_seconds - idle)
                    return Reply.fail(user.id, _("Only the host can abandon an active game. If nobody moves for "
                                                 "{time} more, any seated player can.", time=wait), game_id=row.id)
            if not confirm:
                return Reply(game_id=row.id, version=row.version, status=row.status,
                             private=[Private(user.id, _("Abandon this game for everyone? It cannot be undone. "
                                                         "Confirm to go ahead."))], controls=[confirm_abandon()])
            seat = row.seat_of(user.id)
            left = None        # a seated person who abandons a started game places last (issue #27)
            if row.status == "running" and seat is not None and not seat.is_bot:
                left = {"winners": [s.user_id for s in row.seats if s.user_id != user.id], "abandoned_by": user.id}
            row = await ctx.store.set_status(row, "abandoned", now=ctx.clock(), result=left)
            await ctx.event("abandon", row)                             # watchers, the TV (#49)
        log.info("game %s: abandoned by %s", row.id, user.id)
        title = GAMES[row.game].title if row.game in GAMES else row.game
        return Reply(text=_("{name} abandoned the game of {title}. The channel is free for a new one.",
                            name=ctx.shown(user.name), title=title),
                     game_id=row.id, version=row.version, status=row.status)
