"""The clock at the table (issue #34): each person's hours (time zone, quiet hours, an away spell: ``/notify``),
the banks of a game played at a speed, the reminder and deadline a turn needs given both, who may be
mentioned now, and what the channel is told about the clocks. The arithmetic is table/clock.py's; here it
meets the store (banks and hours are rows: a restart loses nothing) and the other concerns:

- every stored change of a game (play.record, lobby.begin) asks ``change``/``start`` for the new banks and
  ``turn_timers`` for its reminder and deadline, and stores them in the same transaction as the move;
- the scheduler asks ``awake`` whom it may mention or write to, and ``absent`` whose bank is empty;
- a change of someone's hours charges their running banks first under the hours that held (``settle``),
  then re-times the games that wait for them.
"""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING

import i18n
from i18n import _, pgettext
from store.rows import GameRow, Settings

from . import clock
from .clock import ANYTIME, BadHours, H, Hours, SeatClock, Speed
from .context import speaks, speaks_to
from .records import UNDO
from .replies import Notice, Private, Reply, User, Where, when
from .texts import speed_text

if TYPE_CHECKING:
    from .context import Context

log = logging.getLogger("teahouse.table")

HOURS_TTL = 30.0     # seconds a person's hours are kept in memory (as a server's settings are: SETTINGS_TTL)
EMPTY = 1.0          # a bank with less than a second left is empty (the scheduler wakes at its instant)
FEW_HOURS = 3 * H    # a bank's second reminder: this much left (or a quarter of the bank, if less), #47


def bank_text(seconds: float) -> str:
    """A bank in words: '5 h 20 min', '45 min', '0 min'."""
    hours, minutes = clock.hm(seconds)
    if hours:
        return pgettext("clock", "{hours} h {minutes} min", hours=hours, minutes=minutes)
    return pgettext("clock", "{minutes} min", minutes=minutes)


def why_not(e: BadHours) -> str:
    """One line on what is wrong with a zone, quiet hours or an away spell."""
    what, value = e.args[0], e.args[1]
    if what == "zone":
        return _("There is no time zone '{zone}'. Use a name such as Europe/Rome, America/New_York or Asia/Tokyo.",
                 zone=value)
    if what == "whole_day":
        return _("Quiet hours cannot cover the whole day: a clock must run at some time.")
    if what == "too_long":
        return _("Quiet hours last at most {n} hours a day.", n=clock.MAX_QUIET_HOURS)
    if what == "away":
        return _("You can be away for 0 (back now) to {n} days at a time.", n=clock.MAX_AWAY_DAYS)
    if what == "away_bound":
        return _("That is more time away than {n} days in any {window}: you can be away for at most {room} more "
                 "days from now.", n=clock.MAX_AWAY_DAYS, window=clock.AWAY_WINDOW_DAYS,
                 room=f"{math.floor((e.args[2] + 1 / 1440) * 10) / 10:g}")
    if what == "not_away":
        return _("You are not away.")
    if what == "window":
        return _("Write playing hours as from-to in the table's time zone, such as 18:00-23:00 (or off).")
    if what == "window_day":
        return _("Playing hours from a time to the same time are empty or the whole day; write off for no "
                 "playing hours.")
    if what == "window_short":
        return _("Playing hours last at least {n} hours a day.", n=clock.MIN_WINDOW_HOURS)
    return _("Write quiet hours as from-to in your own time, such as 23:00-07:00 (or off).")


class Timekeeping:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._hours: dict[str, tuple[float, Hours]] = {}     # user → (read at, hours): a move reads none

    # ----- people's hours ----------------------------------------------------------------------------------
    async def hours(self, users) -> dict[str, Hours]:
        """People's hours, read at most once per HOURS_TTL seconds each (every move needs those of whom it
        waits for, twice; a change made here is seen at once, one made by another process within the TTL)."""
        users = list(dict.fromkeys(users))
        now = time.monotonic()
        out = {u: hit[1] for u in users if (hit := self._hours.get(u)) is not None and now - hit[0] < HOURS_TTL}
        missing = [u for u in users if u not in out]
        if missing:
            rows = await self.ctx.store.hours_of(missing)
            for u in missing:
                if u in rows:
                    zone, qf, qt, away = rows[u]
                    out[u] = Hours(zone, (qf, qt) if qf is not None and qt is not None else None, away)
                else:
                    out[u] = ANYTIME
                self._hours[u] = (now, out[u])
            if len(self._hours) > 10_000:                    # people not seen for a while
                self._hours = {u: v for u, v in self._hours.items() if now - v[0] < HOURS_TTL}
        return out

    async def bank_hours(self, row: GameRow, users) -> dict[str, Hours]:
        """People's hours as the banks of ``row``'s table see them (its playing window, if any)."""
        window = clock.window_of(row.options)
        return {u: clock.at_table(h, window) for u, h in (await self.hours(users)).items()}

    async def reach_hours(self, row: GameRow, users) -> dict[str, Hours]:
        """People's hours as the reminders of ``row``'s table see them: their quiet hours and away spells, and
        the table's playing window."""
        window = clock.window_of(row.options)
        return {u: clock.reachable(h, window) for u, h in (await self.hours(users)).items()}

    async def remindable(self, row: GameRow, users, now: float) -> list[str]:
        """Those of ``users`` a reminder of ``row`` may reach at ``now``: awake, not away, and in the table's
        playing hours."""
        hours = await self.reach_hours(row, users)
        return [u for u in users if not clock.is_quiet(hours[u], now)]

    async def awake(self, users, now: float | None = None) -> list[str]:
        """Those of ``users`` outside their quiet hours and not away at ``now``: whom the bot may mention or
        write to."""
        users = list(users)
        if not users:
            return []
        now = self.ctx.clock() if now is None else now
        hours = await self.hours(users)
        return [u for u in users if not clock.is_quiet(hours[u], now)]

    # ----- banks -------------------------------------------------------------------------------------------
    @staticmethod
    def speed(row: GameRow) -> Speed | None:
        return clock.speed_of(row.options)

    async def clocks(self, row: GameRow) -> dict[str, SeatClock] | None:
        """A game's clocks, None for an untimed game (also one stored before clocks existed)."""
        if self.speed(row) is None:
            return None
        return {u: SeatClock(*v) for u, v in (await self.ctx.store.clocks(row.id)).items()} or None

    def start(self, row: GameRow, game, state, seats) -> dict[str, SeatClock] | None:
        speed = self.speed(row)
        if speed is None:
            return None
        people = [s.user_id for s in seats if not s.is_bot]
        return clock.starting(speed, people, [p for p in game.to_act(state) if p in people], self.ctx.clock())

    async def change(self, row: GameRow, game, state, seats, moves) -> dict[str, SeatClock] | None:
        """The clocks once ``moves`` lead from the stored ``row`` to ``state`` (None: untimed)."""
        clocks = await self.clocks(row)
        if clocks is None:
            return None
        people = {s.user_id for s in seats if not s.is_bot}
        before = [p for p in row.waiting if p in clocks]
        after = [p for p in (game.to_act(state) if game.result(state) is None else []) if p in people and p in clocks]
        movers = {seat for seat, action, _line in moves if not action.startswith("#")}
        undoer = next((seat for seat, action, _line in moves if action == UNDO), None)
        hours = await self.bank_hours(row, set(before) | set(after))
        return clock.advance(self.speed(row), clocks, before, after, movers, undoer, hours, self.ctx.clock())

    async def save(self, game_id: int, clocks: dict[str, SeatClock]) -> None:
        await self.ctx.store.save_clocks(game_id, {u: (c.bank, c.since, c.credit) for u, c in clocks.items()})

    # ----- a turn's timers ---------------------------------------------------------------------------------
    @staticmethod
    def reminder_due(acting: list[str], hours: dict[str, Hours], now: float, interval: float) -> float:
        """The next reminder: ``interval`` from now, moved out of quiet hours; for a person in their quiet hours
        now (so not mentioned now), the moment those end."""
        return min(clock.awake_at(hours[p], now) if clock.is_quiet(hours[p], now)
                   else clock.awake_at(hours[p], now + interval) for p in acting)

    async def turn_timers(self, row: GameRow, game, state, seats, clocks: dict[str, SeatClock] | None,
                          settings: Settings, now: float) -> list[tuple[str, float]]:
        """The reminder and the deadline of the turn ``state`` waits for: the deadline is the moment the first
        running bank empties, or for an untimed game the server's turn deadline (from the return of a person
        away, if later)."""
        people = {s.user_id for s in seats if not s.is_bot}
        acting = [p for p in game.to_act(state) if p in people] if game.result(state) is None else []
        if not acting:
            return []
        hours = await self.hours(acting)
        timers = []
        if settings.reminder_hours > 0:
            if clocks is not None:          # at a speed: at points of the bank, not every few hours (#47)
                due = await self.bank_reminder(row, acting, clocks, now)
                if due is not None:
                    timers.append(("reminder", due))
            else:
                reach = await self.reach_hours(row, acting)
                timers.append(("reminder", self.reminder_due(acting, reach, now, settings.reminder_hours * H)))
        if clocks is not None:
            due = await self.bank_deadline(row, acting, clocks, now)
            if due is not None:
                timers.append(("deadline", due))
        elif settings.deadline_hours > 0:
            timers.append(("deadline", min(self.untimed_deadline(hours[p], now, settings) for p in acting)))
        return timers

    async def bank_reminder(self, row: GameRow, acting: list[str], clocks: dict[str, SeatClock],
                            now: float) -> float | None:
        """The next reminder at a game played at a speed: the first of the running banks' reminder points
        (``clock.reminders``) after ``now``, moved out of its owner's quiet hours, if that still comes before
        the bank runs out (the deadline's notice says the rest). Someone in their quiet hours now (so not
        mentioned now) is reminded when they wake, as at an untimed table."""
        people = [p for p in acting if p in clocks and clocks[p].since is not None]
        banks, reach = await self.bank_hours(row, people), await self.reach_hours(row, people)
        due = []
        for p in people:
            end = clock.runs_out(banks[p], clocks[p].since, clocks[p].bank)
            points = clock.reminders(clocks[p], banks[p], now, FEW_HOURS)
            if clock.is_quiet(reach[p], now):
                points.insert(0, now)
            for t in points:
                t = clock.awake_at(reach[p], t)
                if t < end:
                    due.append(t)
                    break
        return min(due, default=None)

    async def bank_deadline(self, row: GameRow, acting: list[str], clocks: dict[str, SeatClock],
                            now: float) -> float | None:
        """The deadline of a turn at a speed: the first instant a running bank runs out, from ``now`` on. A
        bank that ran out before ``now`` in this same turn had its notice then (#47: one turn, one deadline,
        one notice), unless its deadline is still waiting to fire (a move or an away spell came between the
        instant and the scheduler's next look, or at that very instant): that deadline stands."""
        people = [p for p in acting if p in clocks and clocks[p].since is not None]
        banks = await self.bank_hours(row, people)
        outs = [clock.runs_out(banks[p], clocks[p].since, clocks[p].bank) for p in people]
        due = [t for t in outs if t > now]          # at ``now`` itself it may have fired already: see below
        if len(due) < len(outs):
            due += [t.due for t in await self.ctx.store.pending_timers(row.id)
                    if t.kind == "deadline" and t.due <= now]
        return min(due, default=None)

    @staticmethod
    def untimed_deadline(hours: Hours, start: float, settings: Settings) -> float:
        away = hours.away_until if hours.away_until is not None and hours.away_until > start else None
        return (away if away is not None else start) + settings.deadline_hours * H

    async def left(self, row: GameRow, seat: str, now: float) -> float | None:
        """The seconds left on ``seat``'s bank (None: untimed)."""
        clocks = await self.clocks(row)
        if clocks is None or seat not in clocks:
            return None
        return clock.left(clocks[seat], (await self.bank_hours(row, [seat]))[seat], now)

    async def absent(self, row: GameRow, acting: list[str], now: float, settings: Settings, since: float = 0.0):
        """Past a deadline timer due at ``since``: (the people whose bank is empty, the next instant another runs
        out or None) for a game played at a speed — only those whose bank ran out at ``since`` or later: one
        that ran out before had its notice then (#47); for an untimed one, (those of ``acting`` not away, and
        for those away the turn deadline counted from their return)."""
        clocks = await self.clocks(row)
        hours = await (self.hours(acting) if clocks is None else self.bank_hours(row, acting))
        if clocks is None:
            away = [p for p in acting if hours[p].away_until and hours[p].away_until > now]
            later = min((self.untimed_deadline(hours[p], now, settings) for p in away), default=None)
            return [p for p in acting if p not in away], later
        out, later = [], []
        for p in acting:
            c = clocks.get(p)
            if c is None or c.since is None:
                continue
            end = clock.runs_out(hours[p], c.since, c.bank)
            if clock.left(c, hours[p], now) < EMPTY:
                if end >= since - EMPTY:
                    out.append(p)
            else:
                later.append(end)
        return out, min(later) if later else None

    # ----- what the table is told ----------------------------------------------------------------------------
    async def turn_lines(self, row: GameRow, acting: list[str], now: float) -> list[str]:
        """A line per person the game waits for, for a game at a speed: what is on their clock and when it runs
        out (or that it is paused). Bank lengths are public: everyone at the table may know them."""
        clocks = await self.clocks(row)
        names = self.ctx.text_names(row)
        if clocks is None:                  # untimed: only who is away, and until when
            return await self.away_lines(row, acting, now)
        people = [p for p in acting if p in clocks and clocks[p].since is not None]
        hours = await self.bank_hours(row, people)
        lines = []
        for p in people:
            h, c = hours[p], clocks[p]
            rest = clock.left(c, h, now)
            if rest < EMPTY:
                lines.append(_("⌛ {name}: no time left on the clock.", name=names[p]))
            elif h.away_until is not None and h.away_until > now:
                lines.append(_("⏳ {name}: {time} on the clock, paused: away until {back}.", name=names[p],
                               time=bank_text(rest), back=when(h.away_until, "f")))
            elif h.window is not None and clock.is_quiet(h, now):
                lines.append(_("⏳ {name}: {time} on the clock, paused outside the table's playing hours (until "
                               "{end}).", name=names[p], time=bank_text(rest), end=when(clock.awake_at(h, now))))
            elif clock.is_quiet(h, now):
                lines.append(_("⏳ {name}: {time} on the clock, paused for their quiet hours (until {end}).",
                               name=names[p], time=bank_text(rest), end=when(clock.awake_at(h, now))))
            else:
                lines.append(_("⏳ {name}: {time} on the clock; it runs out {end}.", name=names[p],
                               time=bank_text(rest), end=when(clock.runs_out(h, c.since, c.bank))))
        return lines

    async def away_lines(self, row: GameRow, people, now: float) -> list[str]:
        """"🏖 Bo is away until <date>." for each of ``people`` seated at ``row`` (not a computer) who is away."""
        names = self.ctx.text_names(row)
        humans = [p for p in people if (s := row.seat_of(p)) is not None and not s.is_bot]
        hours = await self.hours(humans)
        return [_("🏖 {name} is away until {back}.", name=names[p], back=when(hours[p].away_until, "f"))
                for p in humans if hours[p].away_until is not None and hours[p].away_until > now]

    @speaks
    async def game_clock(self, where: Where, user: User) -> Reply:
        """The clocks of the channel's game: its speed, each person's bank, whose runs and until when."""
        ctx = self.ctx
        row = await ctx.store.latest_game(where.channel)
        if row is None:
            return Reply.fail(user.id, _("There is no game in this channel. Open one with `/game new`."))
        speed = self.speed(row)
        head = _("Speed: {speed}.", speed=speed_text(speed))
        window = clock.window_of(row.options)
        if window is not None:
            head += "\n" + _("Playing hours: {hours} ({zone}): clocks run and reminders come only then.",
                              hours=clock.quiet_text(window[1:]), zone=window[0])
        clocks = await self.clocks(row) if row.status != "lobby" else None
        if clocks is None:
            return Reply(game_id=row.id, private=[Private(user.id, head)])
        lines = [head] + await self.bank_lines(row, ctx.clock(), clocks)
        return Reply(game_id=row.id, private=[Private(user.id, "\n".join(lines))])

    async def bank_lines(self, row: GameRow, now: float, clocks: dict[str, SeatClock] | None = None) -> list[str]:
        """Every person's bank at a game played at a speed, in seat order (``/game clock`` and ``/game status``,
        #47): those running as ``turn_lines`` has them, the others "… on the clock, not running." None for an
        untimed game."""
        clocks = clocks if clocks is not None else await self.clocks(row)
        if clocks is None:
            return []
        names = self.ctx.text_names(row)
        people = [s.user_id for s in row.seats if not s.is_bot and s.user_id in clocks]
        lines = await self.turn_lines(row, [p for p in people if clocks[p].since is not None], now)
        for p in people:
            if clocks[p].since is None:
                lines.append(_("{name}: {time} on the clock, not running.", name=names.get(p, p),
                               time=bank_text(clocks[p].bank)))
        return lines

    # ----- /notify: zone, quiet hours, away ----------------------------------------------------------------
    @speaks_to(0)
    async def set_hours(self, user: User, zone: str | None = None, quiet: str | None = None,
                        away_days: float | str | None = None) -> Reply:
        """Set the caller's time zone, quiet hours or away spell (each None: unchanged). Their running banks
        are charged up to now under the hours that held, then the games waiting for them are re-timed; each
        game they are away from is told. Bad input changes nothing and is answered in one line. (``away_days``
        follows the rule of ``/away``: the bound over the spells taken.)"""
        return await self._set_hours(user, zone, quiet, away_days)

    async def _set_hours(self, user: User, zone: str | None = None, quiet: str | None = None,
                         away_days: float | str | None = None) -> Reply:
        ctx = self.ctx
        now = ctx.clock()
        self._hours.pop(user.id, None)             # this change starts from what is stored
        old = (await self.hours([user.id]))[user.id]
        spells: list[tuple[float, float]] = []
        try:
            z = clock.parse_zone(zone) if zone is not None else old.zone
            q = clock.parse_quiet(quiet) if quiet is not None else old.quiet
            if away_days is not None:
                try:
                    days = float(away_days)
                except (TypeError, ValueError):
                    raise BadHours("away", away_days) from None
                a, spells = await self._away(user.id, days, now)
            else:
                a = old.away_until if old.away_until is not None and old.away_until > now else None
        except BadHours as e:
            return Reply.fail(user.id, why_not(e))
        new = Hours(z, q, a)
        if new != old or spells:
            games = await ctx.store.games_of_user(user.id, ("running",))
            for row in games:                       # charged under the old hours up to now
                await self._settle(row, user.id, old, now)
            async with ctx.store.batch():
                await ctx.store.save_away_spells(user.id, spells)
                await ctx.store.save_hours(user.id, z, q, a)
            self._hours.pop(user.id, None)
            for row in games:                       # then re-timed under the new ones
                await self._retime(row, user, old, new, now)
        return Reply(private=[Private(user.id, self.describe(new, now))])

    async def _away(self, user_id: str, days: float, now: float) -> tuple[float | None, list[tuple[float, float]]]:
        """An away spell of ``days`` from ``now`` (0: back now) under the bound of MAX_AWAY_DAYS in any
        AWAY_WINDOW_DAYS: (the instant it ends or None, the spells to store — a spell still running is cut to
        ``now`` first, so ending and restarting one counts every day taken), or BadHours."""
        window = (clock.AWAY_WINDOW_DAYS + clock.MAX_AWAY_DAYS) * clock.DAY
        taken = await self.ctx.store.away_spells(user_id, now - window)
        cut = [(a, min(b, now)) for a, b in taken if b > now]
        past = [(a, min(b, now)) for a, b in taken]
        until = clock.check_away(past, days, now)
        return until, cut + ([(now, until)] if until is not None else [])

    @speaks_to(0)
    async def away(self, user: User, days: float | str | None = None) -> Reply:
        """``/away days:N`` (``days`` None: ``/away off``): the caller's banks in all their games pause until
        they are back, nobody reminds them, and the tables see "away until …". At most MAX_AWAY_DAYS away in
        any AWAY_WINDOW_DAYS, counted over the spells taken (stored), so no restart resets it."""
        if days is None:
            hours = (await self.hours([user.id]))[user.id]
            if hours.away_until is None or hours.away_until <= self.ctx.clock():
                return Reply.fail(user.id, why_not(BadHours("not_away", None)))
            days = 0
        return await self._set_hours(user, away_days=days)

    def describe(self, h: Hours, now: float) -> str:
        local = clock.local_time(h.zone, now)
        parts = [_("Your time zone: {zone} (it is {time} there now).", zone=h.zone, time=local)]
        parts.append(_("Quiet hours: {hours} — no mentions or direct messages then, and your clock stops.",
                       hours=clock.quiet_text(h.quiet)) if h.quiet else
                     _("Quiet hours: none (`/notify quiet:23:00-07:00` to set them)."))
        if h.away_until is not None and h.away_until > now:
            parts.append(_("Away until {back}: your clocks are paused and nobody is reminded of you.",
                           back=when(h.away_until, "f")))
        return "\n".join(parts)

    async def _settle(self, row: GameRow, user_id: str, old: Hours, now: float) -> None:
        async with self.ctx.lock(row.channel):
            fresh = await self.ctx.store.game(row.id)
            clocks = await self.clocks(fresh) if fresh and fresh.status == "running" else None
            if clocks is None or user_id not in clocks or clocks[user_id].since is None:
                return
            old_there = clock.at_table(old, clock.window_of(fresh.options))
            clocks[user_id] = clock.settle(clocks[user_id], old_there, now)
            await self.save(row.id, clocks)

    async def _retime(self, row: GameRow, user: User, old: Hours, new: Hours, now: float) -> None:
        ctx = self.ctx
        async with ctx.lock(row.channel):
            row = await ctx.store.game(row.id)
            if row is None or row.status != "running" or row.state is None:
                return
            game, state = ctx.state_of(row)
            going = new.away_until is not None and new.away_until != old.away_until
            back = old.away_until is not None and old.away_until > now and new.away_until is None
            if user.id not in game.to_act(state):       # a game waiting for others keeps its timers
                if going or back:
                    await self._tell_table(row, user, new)
                return
            settings = await ctx.settings(row.guild)
            clocks = await self.clocks(row)
            timers = [t for t in await self.turn_timers(row, game, state, row.seats, clocks, settings, now)
                      if t[0] == "reminder" or clocks is not None]
            if clocks is None:                  # untimed: the deadline stands, moved past an away spell
                pending = [t for t in await ctx.store.pending_timers(row.id) if t.kind == "deadline"]
                if pending:
                    due = pending[0].due
                    if new.away_until:
                        due = max(due, self.untimed_deadline(new, now, settings))
                    timers.append(("deadline", due))
            await ctx.store.reset_timers(row.id, row.version, timers)
            if going or back:
                await self._tell_table(row, user, new)

    async def _tell_table(self, row: GameRow, user: User, new: Hours) -> None:
        """A game's channel hears that one of its players is away, or back (through the outbox)."""
        from .replies import payload  # the outbox's form of a notice

        ctx = self.ctx
        with i18n.speaking(await ctx.locale_of(f"guild:{row.guild or ''}")), i18n.playing(row.game):
            name = ctx.text_names(row).get(user.id, ctx.shown(user.name))
            if new.away_until is not None:
                text = _("🏖 {name} is away until {back}; their clock is paused and nobody reminds them.",
                         name=name, back=when(new.away_until, "f"))
            else:
                text = _("{name} is back; their clock runs again.", name=name)
            reply = Reply(text=text, game_id=row.id, version=row.version, status=row.status)
        await ctx.store.add_outgoing(row.id, row.channel, payload(Notice(row.channel, reply)), ctx.clock())

