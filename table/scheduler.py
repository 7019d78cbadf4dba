"""Play across a day: the timers a stored change set (reminders, turn deadlines, rules time limits) fired
when due, skipping or removing a player past a deadline, and the outbox that carries what the bot says on
its own until the front end has sent it."""

from __future__ import annotations

import logging

import i18n
from engine import Game, UnknownRules
from i18n import N_, _
from store.rows import GameRow, Seat
from store.store import StoreError

from . import clock
from .context import Context, speaks
from .play import Play
from .records import REMOVED
from .replies import Notice, Offer, Private, Reply, User, Where, payload
from .texts import STAND_IN_LEVEL, duration
from .timekeeping import bank_text

log = logging.getLogger("teahouse.table")


class Scheduler:
    def __init__(self, ctx: Context, play: Play):
        self.ctx = ctx
        self.play = play

    # ----- firing timers ---------------------------------------------------------------------------------
    async def fire_due(self) -> int:
        """Fire every due timer once. For each, one transaction claims the timer, stores its effect (a
        computer's move past a deadline, the next reminder) and puts what must be said into the outbox; so a
        crash at any point either leaves the timer to fire again or leaves its notice waiting to be sent.
        Returns how many notices were queued."""
        ctx = self.ctx
        now = ctx.clock()
        queued = 0
        for timer in await ctx.store.due_timers(now):
            row = await ctx.store.game(timer.game_id)
            if row is None:
                continue
            async with ctx.lock(row.channel):
                try:
                    async with ctx.store.batch():
                        if not await ctx.store.claim_timer(timer, now):
                            continue
                        row = await ctx.store.game(timer.game_id)
                        if row.status != "running":
                            continue
                        # said unprompted: in the server's language, direct messages in each user's (#17)
                        with i18n.speaking(await ctx.locale_of(f"guild:{row.guild or ''}")), i18n.playing(row.game):
                            notice = await getattr(self, f"_fire_{timer.kind}")(row, timer)
                        if notice is not None:
                            notice.dm = [Private(p.user, await ctx.in_language_of(p.user, p.text))
                                         for p in notice.dm]
                            notice.expires = timer.kind == "reminder" or notice.reply.offer is not None
                            await ctx.store.add_outgoing(row.id, notice.channel, payload(notice), now)
                            queued += 1
                except StoreError:
                    raise
                except UnknownRules:
                    # a game from a newer Teahouse (#26): its timer is dropped, the game kept as it is
                    log.warning("game %s: %s timer dropped: the game needs a newer Teahouse", row.id, timer.kind)
                    await ctx.store.claim_timer(timer, now)
                except Exception:
                    # a timer that cannot fire is dropped, so it does not fail again every minute
                    log.exception("game %s: %s timer failed", row.id, timer.kind)
                    await ctx.store.claim_timer(timer, now)
        leagues = getattr(ctx, "leagues", None)
        if leagues is not None:         # a league whose round ended pairs its next round (#35)
            try:
                await leagues.settle()
            except StoreError:
                raise
            except Exception:
                log.exception("the leagues could not be brought up to date")
        return queued

    async def next_due(self) -> float | None:
        return await self.ctx.store.next_due()

    async def _overdue(self, row: GameRow, timer):
        """If the turn a timer was set for still waits for a person: (game, state, the people awaited, their
        names, how long they have waited), else None."""
        if row.version != timer.version:
            return None
        game, state = self.ctx.state_of(row)
        humans = {s.user_id for s in row.seats if not s.is_bot}
        acting = [s for s in game.to_act(state) if s in humans]
        if not acting:
            return None
        names = ", ".join(self.ctx.text_names(row)[s] for s in acting)
        return game, state, acting, names, duration(self.ctx.clock() - row.updated_at)

    async def _direct(self, seats: list[str], text: str) -> list[Private]:
        """``text`` as a direct message to each of ``seats`` who asked for them (/notify)."""
        return [Private(s, text) for s in seats if await self.ctx.store.wants_dm(s)]

    async def _fire_reminder(self, row: GameRow, timer) -> Notice | None:
        overdue = await self._overdue(row, timer)
        if overdue is None:
            return None
        game, state, acting, names, waited = overdue
        tk, now = self.ctx.timekeeping, self.ctx.clock()
        # nobody is reminded in their quiet hours, away, or outside the table's playing hours (#34)
        awake = await tk.remindable(row, acting, now)
        hours = await tk.reach_hours(row, acting)
        if not awake:                                  # try again when the first of them is back
            await self.ctx.store.add_timer(row.id, "reminder", row.version,
                                           min(clock.awake_at(hours[p], now) for p in acting))
            return None
        names = ", ".join(self.ctx.text_names(row)[s] for s in awake)
        text = _("⏰ Reminder: {names} — {title} is waiting for you ({time} so far).", names=names,
                 title=game.title, time=waited)
        lines = await tk.turn_lines(row, awake, now)
        reply = Reply(text="\n".join([text, *lines]), mention=awake, game_id=row.id, version=row.version,
                      status=row.status)
        reply.turn = self.ctx.turn(row, game, state)
        dms = await self._direct(awake, _("⏰ It is your move in {title} (waiting {time}).", title=game.title,
                                          time=waited))
        # remind again until the deadline (or, without one, a few more times), out of quiet hours; at a speed,
        # at the bank's next point (#47)
        interval = (await self.ctx.settings(row.guild)).reminder_hours * 3600
        deadline = next((t.due for t in await self.ctx.store.pending_timers(row.id) if t.kind == "deadline"), None)
        clocks = await tk.clocks(row)
        if clocks is not None:
            nxt = await tk.bank_reminder(row, acting, clocks, now + 1) if interval > 0 else None
            if nxt is not None:
                await self.ctx.store.add_timer(row.id, "reminder", row.version, nxt)
        elif interval > 0:
            nxt = tk.reminder_due([p for p in acting if p in awake], hours, now, interval)
            asleep = [p for p in acting if p not in awake]
            if asleep:              # those asleep now are reminded when they wake, if that comes first
                nxt = min(nxt, min(clock.awake_at(hours[p], now) for p in asleep))
            if (deadline is not None and nxt < deadline) or (deadline is None and now - row.updated_at < 6 * interval):
                await self.ctx.store.add_timer(row.id, "reminder", row.version, nxt)
        return Notice(row.channel, reply, dms)

    async def _fire_deadline(self, row: GameRow, timer) -> Notice | None:
        overdue = await self._overdue(row, timer)
        if overdue is None:
            return None
        game, state, acting, _names, hours = overdue
        tk, now = self.ctx.timekeeping, self.ctx.clock()
        settings = await self.ctx.settings(row.guild)
        absent, later = await tk.absent(row, acting, now, settings, since=timer.due)
        if later is not None:               # another bank runs out later (or someone is away): a deadline then
            await self.ctx.store.add_timer(row.id, "deadline", row.version, later)
        if not absent:
            return None
        timed = tk.speed(row) is not None
        names = ", ".join(self.ctx.text_names(row)[s] for s in absent)
        if settings.deadline_action == "skip":
            head = (_("{names} ran out of time on the clock: a computer played for them.", names=names) if timed
                    else _("{names} missed the deadline ({time}): a computer played for them.", names=names,
                           time=hours))
            return Notice(row.channel, await self.stand_in(row, game, state, absent, head))
        if settings.deadline_action == "remove":
            return Notice(row.channel, await self.hand_over(row, game, state, absent))
        if timed:
            text = _("⌛ {names} ran out of time on the clock. The other players may skip this turn (a computer "
                     "plays it for them) or remove them from the game (a computer takes the seat). Nothing happens "
                     "unless someone chooses.", names=names)
        else:
            text = _("⌛ {names} has not played for {time}. The other players may skip this turn (a computer plays "
                     "it for them) or remove them from the game (a computer takes the seat). Nothing happens "
                     "unless someone chooses.", names=names, time=hours)
        reply = Reply(text=text, game_id=row.id, version=row.version, status=row.status)
        reply.offer = Offer(row.id, row.version, absent, dict(row.names))
        dms = await self._direct(await tk.awake(absent, now),
                                 _("⌛ Your turn in {title} is past its deadline; the others may now skip you.",
                                   title=game.title))
        return Notice(row.channel, reply, dms)

    async def _fire_limit(self, row: GameRow, timer) -> Notice | None:
        game, state = self.ctx.state_of(row)
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
        committed = await self.play.commit(row, game, prev, state, moves)
        if committed is None:
            return None
        recorded, state, lines = committed
        return Notice(row.channel, await self.play.after_change(recorded, game, state, [_("⏱ Time is up.")] + lines))

    # ----- past a deadline: skip or remove ---------------------------------------------------------------
    async def stand_in(self, row: GameRow, game: Game, state, seats: list[str], head: str) -> Reply:
        """A computer plays the current decision of each absent seat (at the stand-in level, medium); ``head``
        says who missed what."""
        moves, prev = [], state
        # at a speed (#34) the computer plays the rest of the empty bank's turn, up to where the game waits for
        # someone else: an empty bank would otherwise be past its deadline again at once, a decision at a time
        steps = 50 if self.ctx.timekeeping.speed(row) is not None else 1
        for seat in seats:
            for step in range(steps):
                if seat not in game.to_act(state) or game.result(state) is not None:
                    break
                seed = f"{row.id}:{row.version}:skip:{seat}" + (f":{step}" if step else "")
                state = await self.play.computer_plays(game, state, seat, STAND_IN_LEVEL, seed, moves)
        return await self._told(await self.play.commit(row, game, prev, state, moves), game, [head])

    async def hand_over(self, row: GameRow, game: Game, state, seats: list[str]) -> Reply:
        """Hand the absent seats to computer players for the rest of the game."""
        new_seats = [Seat(s.user_id, s.name, s.is_bot or s.user_id in seats) for s in row.seats]
        names = ", ".join(self.ctx.text_names(row)[s] for s in seats)
        # stored in the log in English, as the engine's lines are; translated where shown
        moves = [(s, REMOVED, N_("{seat} was removed from the game; a computer plays the seat.").format(seat=s))
                 for s in seats]
        committed = await self.play.commit(row, game, state, state, moves, seats=new_seats, told=False)
        return await self._told(committed, game, [_("{names} removed from the game: a computer plays for them "
                                                    "now.", names=names)])

    async def _told(self, committed, game: Game, head: list[str]) -> Reply:
        """The channel's message once a change was committed (``head`` first), or a failure if it was not."""
        if committed is None:
            return Reply(ok=False)
        row, state, lines = committed
        return await self.play.after_change(row, game, state, head + lines)

    @speaks
    async def skip(self, where: Where, user: User, seat: str, version: int | None = None) -> Reply:
        async def skipped(row, game, state):
            head = _("{names} missed the deadline; {name} skipped the turn: a computer played for them.",
                     names=self.ctx.text_names(row)[seat], name=self.ctx.shown(user.name))
            return await self.stand_in(row, game, state, [seat], head)
        return await self._past_deadline(where, user, seat, version, skipped)

    @speaks
    async def remove(self, where: Where, user: User, seat: str, version: int | None = None) -> Reply:
        async def removed(row, game, state):
            return await self.hand_over(row, game, state, [seat])
        return await self._past_deadline(where, user, seat, version, removed)

    async def _past_deadline(self, where: Where, user: User, seat: str, version: int | None, then) -> Reply:
        """``then(row, game, state)`` once another player may act for ``seat`` past its turn deadline (under
        the channel's lock), else why not."""
        async with self.ctx.lock(where.channel):
            checked = await self._deadline_check(where, user, seat, version)
            if isinstance(checked, Reply):
                return checked
            reply = await then(*checked)
        return reply if reply.ok else Reply.fail(user.id, _("The game moved meanwhile; look again."))

    async def _deadline_check(self, where: Where, user: User, seat: str, version: int | None):
        ctx = self.ctx
        running = await ctx.running(where, user, version)
        if isinstance(running, Reply):
            return running
        row, game, state = running
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
                                         name=ctx.shown(target.name)), game_id=row.id)
        on_clock = await ctx.timekeeping.left(row, seat, ctx.clock())       # a game at a speed (#34)
        if on_clock is not None:
            if on_clock >= 1.0:
                return Reply.fail(user.id, _("{name} still has {time} on the clock.", name=ctx.shown(target.name),
                                             time=bank_text(on_clock)), game_id=row.id)
            return row, game, state
        settings = await ctx.settings(row.guild)
        left = settings.deadline_hours * 3600 - (ctx.clock() - row.updated_at)
        if settings.deadline_hours <= 0:
            return Reply.fail(user.id, _("This server has no turn deadline (see `/settings`)."), game_id=row.id)
        if left > 0:
            return Reply.fail(user.id, _("{name} still has {time} before the turn deadline.",
                                         name=ctx.shown(target.name), time=duration(left)), game_id=row.id)
        return row, game, state

    # ----- the outbox ------------------------------------------------------------------------------------
    async def outbox(self) -> list[Notice]:
        """The notices fired and not yet delivered, oldest first. A reminder or deadline offer whose turn has
        since been played is marked expired (``reply.ok`` False): there is nothing left to say."""
        ctx = self.ctx
        notices = []
        for item in await ctx.store.outgoing():
            p = item.payload
            reply = Reply(text=p["text"], mention=p["mention"], game_id=item.game_id, version=p["version"],
                          status=p["status"], notes=[tuple(n) for n in p["notes"]], rematch=p.get("rematch"))
            row = await ctx.store.game(item.game_id) if item.game_id is not None else None
            current = row is not None and row.version == p["version"] and row.status == p["status"]
            locale = await ctx.locale_of(f"guild:{row.guild or ''}") if row is not None else i18n.user_locale()
            if current and row.state is not None:
                game, state = ctx.state_of(row)
                with i18n.speaking(locale), i18n.playing(row.game):
                    if p["turn"] and row.status == "running":
                        reply.turn = ctx.turn(row, game, state)
                    if p["image"]:
                        reply.image = ctx.image(row, game, state, None)
                if p["offer"]:
                    reply.offer = Offer(row.id, row.version, p["offer"], dict(row.names))
            elif p["expires"]:
                reply.ok = False
            if reply.mention:        # re-checked at send time (#34): nobody now in quiet hours or away is pinged
                reply.mention = await ctx.timekeeping.awake(reply.mention, ctx.clock())
            notices.append(Notice(item.channel, reply, [Private(u, t) for u, t in p["dm"]], id=item.id,
                                  parts_done=item.parts_done, expires=p["expires"], locale=locale))
        return notices

    async def deliver(self, to_channel, to_user, attempts: int = 5) -> list[Notice]:
        """Send the outbox: ``to_channel(notice)`` posts the channel message, ``to_user(notice, private,
        part)`` a direct message; each raises if the platform did not take it. A notice leaves the outbox only
        once every part went out (at least once; the parts' nonces keep a resend from showing twice). A
        notice that fails ``attempts`` times is dropped with a warning. Returns the notices delivered."""
        store = self.ctx.store
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
                        await store.outgoing_progress(item, done)
                    # a direct message to someone now in quiet hours or away is not sent (#34): a notice sent
                    # late (after a restart) says it in the channel, without their ping
                    awake = set(await self.ctx.timekeeping.awake([p.user for p in notice.dm]))
                    while done <= len(notice.dm):
                        if notice.dm[done - 1].user in awake:
                            await to_user(notice, notice.dm[done - 1], done)
                        done += 1
                        await store.outgoing_progress(item, done)
            except StoreError:
                raise
            except Exception as e:
                tries = await store.outgoing_failed(item)
                log.warning("game %s: a notice could not be sent (%s; attempt %d)", notice.reply.game_id,
                            type(e).__name__, tries)
                if tries >= attempts:
                    await store.outgoing_done(item)
                continue
            await store.outgoing_done(item)
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


_payload = payload        # the name it had
