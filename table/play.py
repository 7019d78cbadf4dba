"""Playing a started game: moves, the computer seats, undo, and what a player may look at (the table, their
hand, a hint, the history, the rules).

The engine is the only judge of rules; this layer decides who may act, keeps moves one at a time per channel
(the context's lock) and stores every change through the Store (one transaction per move, version-checked),
with the timers the new state needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from pathlib import Path

import i18n
from engine import GAMES, Game, IllegalAction, ai
from engine.bots import random_action
from i18n import N_, _, ngettext, pgettext
from store import ratings
from store.rows import GameRow, Seat
from store.store import VersionConflict

from . import inflight
from .cards import PART
from .context import Context, speaks
from .records import LEARN, UNDO, hints_on, rebuild
from .replies import Private, Reply, User, Where
from .texts import PRIVATE_WORDS, REMOVED_TEXT, bot_level, rules_line, seconds_text, show, words_of

log = logging.getLogger("teahouse.table")

RULES_DIR = Path(__file__).resolve().parent.parent / "data" / "rules"
MAX_BOT_STEPS = 2000
HISTORY_PAGE = 15
MESSAGE_BUDGET = 1700        # characters of a turn message's log: short to read on a phone (a card holds 4,000)


def rules(game_key: str) -> str | None:
    """A game's guide in the reader's language (data/rules/<key>.<locale>.md), else the English one (#17)."""
    game = GAMES.get(game_key)
    if game is None:
        return None
    for path in (RULES_DIR / f"{game.key}.{i18n.current()}.md", RULES_DIR / f"{game.key}.md"):
        if path.exists():
            return path.read_text(encoding="utf-8")
    return f"{game.title}: {i18n.line(game.players_message())}"


class Play:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        # the coaching of learn tables (table/learn.py sets itself here): kept out of play so that play needs
        # no knowledge of it, and every other table is answered exactly as before
        self.coach = None

    # ----- moving ----------------------------------------------------------------------------------------
    @speaks
    async def act(self, where: Where, user: User, action: str | None = None, version: int | None = None,
                  index: int | None = None, steps: list[str] | None = None) -> Reply:
        """Play ``action``, or the ``index``-th of the caller's legal actions (a button), or several ``steps``
        of one turn in a row (all apply, or none: a game command that names a whole turn). With ``version``,
        a game that has moved on since then is not touched: the caller gets the current prompt instead.

        From its arrival until its reply is built the move is play in flight (table/inflight.py): the
        analysis workers are stopped meanwhile, so that no background work slows a move."""
        with inflight.playing():
            return await self._act(where, user, action, version, index, steps)

    async def _act(self, where: Where, user: User, action: str | None, version: int | None, index: int | None,
                   steps: list[str] | None) -> Reply:
        ctx = self.ctx
        async with ctx.lock(where.channel):
            running = await ctx.running(where, user, version)
            if isinstance(running, Reply):
                return running
            row, game, state = running
            refused = self._not_a_player(row, user, N_("You are not playing in this game; spectators can follow "
                                                       "it with `/game status`."))
            if refused:
                return refused
            if steps is not None and not steps:
                return Reply.fail(user.id, _("Name at least one action."), game_id=row.id)
            if index is not None:
                if user.id not in game.to_act(state):
                    return Reply.fail(user.id, ctx.why_waiting(row, game, state, user.id), game_id=row.id)
                actions = game.legal_actions(state, user.id)
                if not 0 <= index < len(actions):
                    return Reply.fail(user.id, _("That choice is no longer offered."), game_id=row.id)
                action = actions[index]
            moves, prev, before = [], state, row.version
            for step in steps if steps is not None else [action]:
                text = " ".join(str(step or "").split())
                if not text.isprintable():
                    return Reply.fail(user.id, _("An action is plain text: it cannot hold control characters."),
                                      game_id=row.id, version=row.version)
                try:
                    new = game.apply(state, user.id, text)
                except IllegalAction as e:
                    why = ctx.illegal(e)
                    if steps and len(steps) > 1:
                        why = pgettext("step", "{error} (step {n}: {action})", error=why, n=len(moves) + 1, action=text)
                    return Reply.fail(user.id, why, game_id=row.id, version=row.version)
                moves.append((user.id, text, game.describe(state, user.id, text, new)))
                state = new
            committed = await self.commit(row, game, prev, state, moves)
            if committed is None:
                return Reply.fail(user.id, _("Someone else moved at the same moment, so your move was not "
                                             "applied. Look at the game again and retry."))
            row, state, lines = committed
        log.info("game %s: move %s by %s", row.id, row.version, user.id)
        reply = await self.after_change(row, game, state, lines)
        return await self.coached(reply, row, game, state, user, (before, prev, moves))

    @speaks
    async def undo(self, where: Where, user: User) -> Reply:
        """Take back your own last action: only before anyone else acted, never across a random event or
        revealed hidden information (the engine judges which)."""
        ctx = self.ctx
        async with ctx.lock(where.channel):
            row = await self._player(where, user, N_("You are not playing in this game."))
            if isinstance(row, Reply):
                return row
            game, state = ctx.state_of(row)
            entries = await ctx.store.log(row.id)
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
            committed = await self.commit(row, game, None, before, [(user.id, UNDO, line)])   # bots never wait
            if committed is None:
                return Reply.fail(user.id, _("Someone moved at the same moment; nothing was taken back."))
            row, state, lines = committed
        return await self.coached(await self.after_change(row, game, state, lines), row, game, state, user)

    async def coached(self, reply: Reply, row: GameRow, game: Game, state, user: User, move=None) -> Reply:
        """``reply`` with a learn table's private coaching for ``user`` added (table/learn.py): the comment on
        ``move`` (the version it was played at, the state before it, its steps), then the next decision or the
        end. Any other table's reply as it is. Coaching never costs a move: a failure is logged and skipped."""
        if self.coach is None or not row.options.get(LEARN):
            return reply
        try:
            await self.coach.coach(reply, row, game, state, user, move)
        except Exception:
            log.exception("game %s: the coaching failed; the move stands", row.id)
        return reply

    async def _player(self, where: Where, user: User, not_seated: str) -> GameRow | Reply:
        """The channel's running game if ``user`` plays in it, else why not (``not_seated``: see below)."""
        row = await self.ctx.require(where, user, statuses=("running",))
        if isinstance(row, Reply):
            return row
        return self._not_a_player(row, user, not_seated) or row

    @staticmethod
    def _not_a_player(row: GameRow, user: User, not_seated: str) -> Reply | None:
        """Why ``user`` may not act at this table: not seated (``not_seated``, a template), or removed past a
        deadline (a computer plays the seat now); None for a player."""
        seat = row.seat_of(user.id)
        if not seat:
            return Reply.fail(user.id, _(not_seated), game_id=row.id)
        if seat.is_bot:
            return Reply.fail(user.id, _(REMOVED_TEXT), game_id=row.id)
        return None

    # ----- storing a change ------------------------------------------------------------------------------
    async def commit(self, row: GameRow, game: Game, prev, state, moves, *, seats: list[Seat] | None = None,
                     told: bool = True):
        """Store ``moves`` (from ``prev`` to ``state``), then let the computer seats play on: (row, state, the
        lines for the channel) — the moves' own lines unless not ``told``, then the computers' — or None when
        another process moved first (nothing is stored)."""
        with inflight.playing():           # a change stored (the scheduler's too) is play in flight
            recorded, state = await self.record(row, game, prev, state, moves, seats)
            if recorded is None:
                return None
            lines = [self.ctx.said(line, recorded) for _seat, _action, line in moves] if told else []
            recorded, state, bot_lines = await self.run_bots(recorded, game, state)
            return recorded, state, lines + bot_lines

    async def record(self, row: GameRow, game: Game, prev, state, moves, seats: list[Seat] | None = None):
        """Store moves and the state they lead to, with the game's result and its next timers: (row, state),
        the row None when the stored version had moved on."""
        res = game.result(state)
        clocks = await self.ctx.timekeeping.change(row, game, state, seats or row.seats, moves)
        timers, keep = await self.timers(row, game, prev, state, seats or row.seats, clocks)
        began = time.perf_counter()
        try:
            async with self._with_clocks(clocks):      # the banks commit with the move (#34)
                recorded = await self.ctx.store.record_moves(
                    row, moves, game.dump(state), now=self.ctx.clock(),
                    status="finished" if res is not None else "running", timers=timers, keep=keep, result=res,
                    seats=seats, waiting=game.to_act(state) if res is None else [])
                if clocks is not None:
                    await self.ctx.timekeeping.save(row.id, clocks)
            row = recorded
        except VersionConflict:
            return None, state
        self.ctx.observe("move_save", time.perf_counter() - began)
        self.ctx.last_played = time.monotonic()
        await self.ctx.event("move", row, game=game, prev=prev, state=state)     # watchers, the TV (#49)
        return row, state

    def _with_clocks(self, clocks):
        """One transaction around a move and its banks when the game has a clock; none needed otherwise."""
        return self.ctx.store.batch() if clocks is not None else contextlib.nullcontext()

    async def timers(self, row: GameRow, game: Game, prev, state, seats: list[Seat], clocks=None):
        """The timers a game needs now, set with every stored change (the scheduler fires them): a reminder and
        a deadline while a person must act (server settings; with a speed, the deadline is the moment a bank
        empties; both out of people's quiet hours: table/timekeeping.py), and a rules time limit (a reaction
        window), which runs on while it stays open."""
        if game.result(state) is not None:
            return [], ()
        now = self.ctx.clock()
        settings = await self.ctx.settings(row.guild)
        timers = await self.ctx.timekeeping.turn_timers(row, game, state, seats, clocks, settings, now)
        limit, keep = game.time_limit(state), ()
        if limit:
            same_window = (prev is not None and game.time_limit(prev)
                           and set(game.to_act(state)) <= set(game.to_act(prev))
                           and any(t.kind == "limit" for t in await self.ctx.store.pending_timers(row.id)))
            if same_window:
                keep = ("limit",)
            else:
                timers.append(("limit", now + limit["seconds"]))
        return timers, keep

    # ----- the computer seats ----------------------------------------------------------------------------
    async def run_bots(self, row: GameRow, game: Game, state):
        """Let computer seats take their decisions until a human must act or the game ends."""
        bots = {s.user_id for s in row.seats if s.is_bot}
        lines: list[str] = []
        if not bots:
            return row, state, lines
        with inflight.playing():       # a computer's move is play too (a game's start, the scheduler's)
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
                state = await self.computer_plays(game, state, seat, levels[seat], f"{row.id}:{row.version}:{step}",
                                                  moves)
            if moves:
                recorded, state = await self.record(row, game, prev, state, moves)
                if recorded is None:  # another process moved: keep what is stored
                    fresh = await self.ctx.store.game(row.id)
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
            said = [self.ctx.said(line, row) for _seat, _action, line in run]
            if len(said) > 3:
                name = self.ctx.text_names(row).get(seat, seat)
                said = [said[0], ngettext("… {name}: {n} more step …", "… {name}: {n} more steps …", len(said) - 2,
                                          name=name), said[-1]]
            lines.extend(said)
        return lines

    async def computer_plays(self, game: Game, state, seat: str, level: str, seed: str, moves: list):
        """The state once a computer at ``level`` took ``seat``'s decision (its move appended to ``moves``):
        easy is the beginner policy; a search runs off the event loop."""
        if level == "easy":
            action = random_action(game, state, seat, random.Random(seed))
        else:
            action = await asyncio.to_thread(ai.choose, game, state, seat, level, seed, **self.ctx.ai_options)
        new = game.apply(state, seat, action)
        moves.append((seat, action, game.describe(state, seat, action, new)))
        return new

    # ----- telling the channel ---------------------------------------------------------------------------
    async def after_change(self, row: GameRow, game: Game, state, lines: list[str], *,
                           mention: bool | None = None) -> Reply:
        """The public message after a change: what happened, the image, and who acts next."""
        ctx = self.ctx
        reply = Reply(game_id=row.id, version=row.version, status=row.status, log=lines)
        humans = {s.user_id for s in row.seats if not s.is_bot}
        if row.status == "finished":
            tail = ctx.result_text(row, game, state)
            changes = await ratings.changes_of(ctx.store, row.id)      # rated with the game's end (#27)
            if changes:
                tail = f"{tail}\n{ctx.ratings_text(row, changes)}"
            reply.rematch = row.id
            if row.parent_channel:
                reply.notes.append((row.parent_channel, pgettext("note", "{title}: {text}", title=game.title,
                                                                 text=tail)))
        else:
            reply.turn = ctx.turn(row, game, state)
            if mention is None:
                mention = (await ctx.settings(row.guild)).mention
            if mention:          # nobody is pinged in their quiet hours or while away (#34)
                reply.mention = await ctx.timekeeping.awake([s for s in reply.turn.to_act if s in humans])
            tail = ctx.waiting_text(row, reply.turn.to_act)
            clock_lines = await ctx.timekeeping.turn_lines(row, [s for s in reply.turn.to_act if s in humans],
                                                           ctx.clock())
            if clock_lines:
                tail = "\n".join([tail, *clock_lines])
            limit = game.time_limit(state)
            if limit:
                tail = _("{waiting} ⏱ {time} to answer; silence counts as '{action}'.", waiting=tail,
                         time=seconds_text(limit["seconds"]), action=limit["action"])
        if ctx.watching is not None and (watching := await ctx.watching.watching_line(row.id)):
            tail = f"{tail}\n{watching}"             # the table shows how many watch (#49)
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
        reply.text = "\n".join(shown) + PART + tail      # the card: what happened, the picture, what comes next
        reply.image = ctx.image(row, game, state, None)
        return reply

    # ----- a player's choices ----------------------------------------------------------------------------
    @speaks
    async def prompt(self, where: Where, user: User, version: int | None = None) -> Reply:
        """The caller's own decision now, privately: their legal actions (and their private image)."""
        ctx = self.ctx
        running = await ctx.running(where, user, version)
        if isinstance(running, Reply):
            return running
        row, game, state = running
        turn = ctx.turn(row, game, state)
        seat = row.seat_of(user.id)
        if not seat or seat.is_bot:
            return Reply.fail(user.id, _(REMOVED_TEXT) if seat else _("You are not playing in this game."),
                              game_id=row.id, turn=turn, version=row.version)
        if user.id not in turn.to_act:
            why = ctx.why_waiting(row, game, state, user.id)
            return Reply.fail(user.id, pgettext("join", "{why} {waiting}", why=why,
                                                waiting=ctx.waiting_text(row, turn.to_act)),
                              game_id=row.id, turn=turn, version=row.version)
        actions = game.legal_actions(state, user.id)
        reply = Reply(game_id=row.id, version=row.version, status=row.status, turn=turn)
        reply.private.append(Private(user.id, _("Your choices: {actions}", actions="; ".join(actions)),
                                     ctx.image(row, game, state, user.id)))
        reply.choices = actions
        return reply

    @speaks
    async def legal_after(self, where: Where, user: User, steps: list[str]) -> list[str]:
        """The caller's legal actions once ``steps`` were played (for a command's later fields to suggest);
        empty when a step is not legal. Nothing is stored."""
        row = await self.ctx.store.open_game(where.channel)
        seat = row.seat_of(user.id) if row is not None else None
        if row is None or row.status != "running" or not seat or seat.is_bot:
            return []
        game, state = self.ctx.state_of(row)
        try:
            for step in steps:
                state = game.apply(state, user.id, step)
        except IllegalAction:
            return []
        if user.id not in game.to_act(state):
            return []
        return game.legal_actions(state, user.id)

    @speaks
    async def legal(self, where: Where, user: User) -> list[str]:
        """The caller's legal actions now (for autocomplete); empty when they have none."""
        return await self.legal_after(where, user, [])

    # ----- looking ---------------------------------------------------------------------------------------
    @speaks
    async def status(self, where: Where, user: User) -> Reply:
        async with self.ctx.store.snapshot():       # the game and its log as of one moment
            return await self._status(where, user)

    async def _status(self, where: Where, user: User) -> Reply:
        ctx = self.ctx
        row = await ctx.store.latest_game(where.channel)
        if row is None:
            return Reply.fail(user.id, _("There is no game in this channel. Open one with `/game new`."))
        if row.status == "lobby":
            return await ctx.lobby_reply(row, "")
        game = GAMES[row.game]
        if row.state is None:
            return Reply(text=_("The {title} table here was closed before it started.", title=game.title),
                         game_id=row.id, status=row.status)
        state = game.load(row.state)
        entries = await ctx.store.log(row.id, offset=max(0, await ctx.store.log_length(row.id) - 5))
        lines = [ctx.said(e.line, row) for e in entries]
        if row.status == "finished":
            tail = ctx.result_text(row, game, state)
            changes = await ratings.changes_of(ctx.store, row.id)
            if changes:
                tail = f"{tail}\n{ctx.ratings_text(row, changes)}"
        elif row.status == "abandoned":
            tail = _("This game was abandoned.")
        else:
            acting = game.to_act(state)
            others = [s.user_id for s in row.seats if s.user_id not in acting]     # away, though not their turn
            tk, now = ctx.timekeeping, ctx.clock()
            banks = await tk.bank_lines(row, now)               # every bank, not only the one running (#47)
            tail = "\n".join([ctx.waiting_text(row, acting),
                              *(banks or await tk.turn_lines(row, acting, now)),
                              *await tk.away_lines(row, others, now)])
        head = _("**{title}** — move {n}", title=game.title, n=entries[-1].seq) if entries else \
            _("**{title}** — no moves yet", title=game.title)
        reply = Reply(text="\n".join([head, rules_line(game, state)] + lines) + PART + tail,
                      game_id=row.id, version=row.version, status=row.status)
        if row.status == "running":
            reply.turn = ctx.turn(row, game, state)
        reply.image = ctx.image(row, game, state, None)
        return reply

    @speaks
    async def hand(self, where: Where, user: User) -> Reply:
        row = await self.ctx.store.latest_game(where.channel)
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
            parts += [pgettext("private", "{what}: {value}", what=_(words), value=show(words_of(view[k])))
                      for k, words in PRIVATE_WORDS.items() if view.get(k) not in (None, [], "", {})]
            text = "\n".join(parts)
        return Reply(game_id=row.id, version=row.version, status=row.status,
                     private=[Private(user.id, text, self.ctx.image(row, game, state, user.id))])

    @speaks
    async def hint(self, where: Where, user: User) -> Reply:
        """Privately, what the hard computer would play now and why (its top two actions and their win
        estimates): only for the caller's own seat and only when it is their decision. The search sees
        what the caller sees and nothing more (determinization)."""
        ctx = self.ctx
        row = await self._player(where, user, N_("Hints are for the players of this game."))
        if isinstance(row, Reply):
            return row
        if not hints_on(row.options):
            if ratings.is_rated(row.options, row.seats):      # #47: rated play (league games too) has no engine help
                return Reply.fail(user.id, _("There are no hints at a rated table: ratings and league standings "
                                             "measure the players, not the computer's advice."), game_id=row.id)
            return Reply.fail(user.id, _("This table has hints turned off (the host chose so in the lobby: "
                                         "`/game option name:hints value:off`)."), game_id=row.id)
        game, state = ctx.state_of(row)
        if user.id not in game.to_act(state):
            return Reply.fail(user.id, _("A hint is for your own decision: {why}",
                                         why=ctx.why_waiting(row, game, state, user.id)), game_id=row.id)
        text = await asyncio.to_thread(ai.hint, game, state, user.id, f"{row.id}:{row.version}:hint:{user.id}",
                                       **ctx.ai_options)
        return Reply(game_id=row.id, version=row.version, status=row.status,
                     private=[Private(user.id, ctx.names_in(ctx.for_caller(text), row))])

    @speaks
    async def history(self, where: Where, user: User, page: int = 1) -> Reply:
        async with self.ctx.store.snapshot():
            return await self._history(where, user, page)

    async def _history(self, where: Where, user: User, page: int = 1) -> Reply:
        row = await self.ctx.store.latest_game(where.channel)
        if row is None:
            return Reply.fail(user.id, _("There is no game in this channel."))
        total = await self.ctx.store.log_length(row.id)
        pages = max(1, -(-total // HISTORY_PAGE))
        if not 1 <= page <= pages:
            return Reply.fail(user.id, ngettext("There is {n} page of history; ask for 1 to {n}.",
                                                "There are {n} pages of history; ask for 1 to {n}.", pages))
        entries = await self.ctx.store.log(row.id, offset=(page - 1) * HISTORY_PAGE, limit=HISTORY_PAGE)
        title = GAMES[row.game].title if row.game in GAMES else row.game
        with i18n.speaking(i18n.user_locale()):     # for the caller alone: in their language
            body = [f"{e.seq}. {self.ctx.said(e.line, row)}" for e in entries] or [_("No moves yet.")]
            text = "\n".join([_("**{title}** history — page {page} of {pages}", title=title, page=page,
                                 pages=pages)] + body)
        return Reply(game_id=row.id, private=[Private(user.id, text)])
