"""A fortnight at the table, simulated (issue #34): three people in America/Los_Angeles, Europe/Rome and
Asia/Tokyo, each with quiet hours 23:00-08:00, playing three games at three speeds through the table service on
a clock moved by hand — the ``daily`` one with playing hours (07:00-22:00 in Rome) — one of them away for
three days (``/away days:3``) and another too busy to play for two; the scheduler fires what is due every
quarter of an hour, as the bot's loop does.

Everything the service does is checked against a computation of its own, made the slow obvious way: a
person's quiet hours and the table's window minute by minute with ``datetime`` in their zones, and each bank
charged a minute at a time (never table/clock.py's arithmetic). ``Fortnight.run`` returns the figures:
reminders, mentions and direct messages in someone's quiet hours (must be 0), reminders outside a table's
playing hours (must be 0), quarter hours in which a bank ran outside its owner's playing hours (must be 0),
bank checks and the largest difference from the computation by hand, moves, reminders, banks run out, games
finished. tests/test_fortnight.py runs it in the process; the SIGKILL variant prepares a database with it for a
real bot process.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from unittest import mock
from zoneinfo import ZoneInfo

from table import TableService, User, Where
from table import clock as C

MINUTE = 60
STEP = 15 * MINUTE
H = 3600
DAY = 24 * H
# people: (name, zone, quiet hours from, to in minutes)
PEOPLE = (("ann", "America/Los_Angeles", 23 * 60, 8 * 60), ("bo", "Europe/Rome", 23 * 60, 8 * 60),
          ("chi", "Asia/Tokyo", 23 * 60, 8 * 60))
# tables: (channel suffix, speed, game, playing hours: (zone, from, to in minutes) or None)
WINDOW = ("Europe/Rome", 7 * 60, 22 * 60)
TABLES = (("fast", "fast", "wagara", None), ("daily", "daily", "seikatsu", WINDOW),
          ("relaxed", "relaxed", "mywuxing", None))
# a fortnight over both ends of summer time (Europe 25 October 2026, the United States 1 November 2026)
START = datetime(2026, 10, 20, 0, tzinfo=UTC).timestamp()


@dataclass
class Figures:
    steps: int = 0
    moves: int = 0
    mentions: int = 0
    direct_messages: int = 0
    quiet_violations: int = 0
    bank_checks: int = 0
    bank_max_difference: float = 0.0
    reminders: int = 0
    reminders_in_quiet_hours: int = 0       # a reminder naming (mentioning or writing to) someone asleep or away
    reminders_outside_window: int = 0       # a reminder of a table with playing hours outside them
    bank_quarters: int = 0                  # quarter hours a bank was watched running
    bank_quarters_charged: int = 0          # ... in which it went down
    charged_outside_playing: int = 0        # ... in which it went down although its owner had no playing minute
    banks_run_out: int = 0
    run_out_repeated: int = 0               # a run-out notice (or its direct message) again in the same turn (#47)
    skips: int = 0                          # turns past an empty bank skipped by another player (vote)
    status_checks: int = 0                  # /game status at the timed table of three, once a day at noon
    status_banks: set = field(default_factory=set)     # ... how many banks it showed
    games_finished: int = 0
    away_spells: int = 0
    notices: list = field(default_factory=list, repr=False)


class Person:
    def __init__(self, user: User, zone: str, quiet_from: int, quiet_to: int):
        self.user, self.zone, self.quiet = user, ZoneInfo(zone), (quiet_from, quiet_to)
        self.zone_name = zone
        self.away: tuple[float, float] | None = None

    def asleep(self, t: float) -> bool:
        """Quiet hours or away at ``t``, read off the wall clock in their zone (no table/clock.py)."""
        if self.away and self.away[0] <= t < self.away[1]:
            return True
        local = datetime.fromtimestamp(t, self.zone)
        m = local.hour * 60 + local.minute
        a, b = self.quiet
        return a <= m < b if a < b else (m >= a or m < b)

    def away_at(self, t: float) -> bool:
        return bool(self.away and self.away[0] <= t < self.away[1])

    def plays(self, t: float, window) -> bool:
        """Whether this person's bank runs at ``t`` (when the game waits for them): outside their quiet hours —
        or, at a table with playing hours, inside the window read off the wall clock in its zone — and not
        away."""
        if window is None:
            return not self.asleep(t)
        if self.away_at(t):
            return False
        local = datetime.fromtimestamp(t, ZoneInfo(window[0]))
        m = local.hour * 60 + local.minute
        a, b = window[1], window[2]
        return a <= m < b if a < b else (m >= a or m < b)

    def playing(self, start: float, end: float, window=None) -> float:
        """Playing seconds in [start, end), a minute at a time (instants fall on whole minutes)."""
        return sum(MINUTE for t in range(int(start), int(end), MINUTE) if self.plays(t, window))


class Changes:
    """Whether the service's SQLite database changed since a given moment, asked of a connection of our own:
    ``PRAGMA data_version`` moves whenever another connection (the store's) commits, so a read of the service
    at the same instant and the same version gives what it gave before. None (never the same) for a store
    that is not a SQLite file."""

    def __init__(self, store):
        side = store.side
        self.con = (sqlite3.connect(side.path, uri=side.uri, isolation_level=None)
                    if side.name == "sqlite" and side.path != ":memory:" else None)

    def __call__(self) -> int | None:
        return None if self.con is None else self.con.execute("PRAGMA data_version").fetchone()[0]

    def close(self) -> None:
        if self.con is not None:
            self.con.close()


class Fortnight:
    def __init__(self, svc: TableService, clock, users: list[User], channels: list[str], guild: str,
                 seed: int = 34, days: float = 14, away=((2, 5 * DAY + 12 * H, 3),), action: str = "skip",
                 busy=((0, 9 * DAY, 11 * DAY),), skip_rate: float = 0.5):
        self.svc, self.clock, self.guild, self.days = svc, clock, guild, days
        self.people = [Person(u, z, a, b) for u, (_n, z, a, b) in zip(users, PEOPLE, strict=True)]
        self.by_id = {p.user.id: p for p in self.people}
        self.tables = [(Where(ch, guild), speed, game)
                       for ch, (_s, speed, game, _w) in zip(channels, TABLES, strict=True)]
        self.windows = {ch: w for ch, (_s, _speed, _game, w) in zip(channels, TABLES, strict=True)}
        self.rng = random.Random(seed)
        self.away_plan = list(away)        # (person index, from when after the start, days[, True: once the fast
        #                                    table waits for them on an empty bank]) for each spell
        self.action = action               # the server's deadline action: skip (a computer plays) or vote
        self.busy = busy                   # (person index, from, to after the start): not playing
        self.skip_rate = skip_rate         # with vote: how often someone who looks in skips an empty bank's turn
        self.fig = Figures()
        self.ref: dict[str, dict] = {}     # channel → {game id, log length, banks by hand, running, speed}
        self.turns: dict[tuple[str, str], int] = {}        # (channel, person) → turns begun (waits)
        self.told: dict[tuple, int] = {}                   # (channel, game, person, turn) → run-out notices
        # what a table's sync and the running banks last read, and at which database version: a quarter hour
        # in which nobody moved and nothing fired would read the same again, so the store is not asked again
        # (its reads were most of a fortnight's time)
        self.changes: Changes | None = None
        self.synced: dict[str, int | None] = {}
        self.banks_read: tuple[int | None, list] | None = None

    # ----- checks ------------------------------------------------------------------------------------------
    def heard(self, users, kind: str) -> None:
        now = self.clock()
        for u in users:
            if kind == "mention":
                self.fig.mentions += 1
            else:
                self.fig.direct_messages += 1
            if u in self.by_id and self.by_id[u].asleep(now):
                self.fig.quiet_violations += 1

    def replied(self, reply) -> None:
        self.heard(reply.mention, "mention")

    def noticed(self, notices) -> None:
        now = self.clock()
        for n in notices:
            self.fig.notices.append(n)
            self.heard(n.reply.mention, "mention")
            self.heard([p.user for p in n.dm], "dm")
            text = n.reply.text or ""
            if "Reminder" in text:
                self.fig.reminders += 1
                named = set(n.reply.mention) | {p.user for p in n.dm}
                self.fig.reminders_in_quiet_hours += any(self.by_id[u].asleep(now) for u in named if u in self.by_id)
                window = self.windows.get(n.channel)
                self.fig.reminders_outside_window += window is not None and not self.people[0].plays(now, window)
            self.fig.banks_run_out += "ran out of time" in text
            for line in text.splitlines():
                if " ran out of time" in line:
                    named = line.split(" ran out of time")[0].lstrip("⌛ ").split(", ")
                    for p in self.people:
                        if p.user.name in named:
                            self.tell(n.channel, self.ref.get(n.channel, {}).get("id"), p.user.id)
            for dm in n.dm:
                if "past its deadline" in dm.text:
                    self.tell(n.channel, self.ref.get(n.channel, {}).get("id"), dm.user, "dm")

    def tell(self, channel: str, game, person: str, how: str = "channel") -> None:
        """One more run-out notice for ``person``'s current turn at ``channel``: more than one is a repeat."""
        key = (channel, game, person, self.turns.get((channel, person), 0), how)
        self.told[key] = self.told.get(key, 0) + 1
        self.fig.run_out_repeated += self.told[key] > 1

    # ----- the banks by hand -------------------------------------------------------------------------------
    async def sync(self, where: Where, speed: str) -> None:
        """Follow a table's change in the computation by hand: a person the game stops waiting for keeps what
        was left (never below 0) and, if they moved, gains the increment up to the cap; a person it begins to
        wait for runs."""
        version = self.changes() if self.changes else None
        if version is not None and self.synced.get(where.channel) == version:
            return                                      # nothing changed since this table was followed last
        self.synced[where.channel] = version
        store, sp = self.svc.store, C.SPEEDS[speed]
        row = await store.latest_game(where.channel)
        if row is None or row.state is None:
            return
        ref = self.ref.get(where.channel)
        if ref is None or ref["id"] != row.id:
            ref = self.ref[where.channel] = {"id": row.id, "log": 0, "left": dict.fromkeys(self.by_id, sp.bank),
                                             "running": set()}
        entries = await store.log(row.id, offset=ref["log"])
        ref["log"] += len(entries)
        movers = {e.seat for e in entries if not e.action.startswith("#")}
        waiting = set(row.waiting) & set(self.by_id) if row.status == "running" else set()
        for p in list(ref["running"]):
            if p not in waiting:
                rest = max(0.0, ref["left"][p])
                ref["left"][p] = min(sp.cap, rest + sp.increment) if p in movers else rest
                ref["running"].discard(p)
        for p in waiting - ref["running"]:             # a new wait: a new turn
            self.turns[(where.channel, p)] = self.turns.get((where.channel, p), 0) + 1
        ref["running"] |= waiting

    def charge(self, start: float, end: float) -> None:
        for channel, ref in self.ref.items():
            for p in ref["running"]:
                ref["left"][p] -= self.by_id[p].playing(start, end, self.windows[channel])

    async def compare(self) -> None:
        now = self.clock()
        for channel, row, stored, hours in await self.running():
            ref = self.ref.get(channel)
            if ref is None or row.id != ref["id"]:
                continue
            for p, values in stored.items():
                left = C.left(C.SeatClock(*values), hours[p], now)
                self.fig.bank_checks += 1          # what is left, never below nothing (an empty bank is empty)
                self.fig.bank_max_difference = max(self.fig.bank_max_difference,
                                                   abs(max(0.0, left) - max(0.0, ref["left"][p])))

    async def running(self) -> list[tuple[str, object, dict, dict]]:
        """Each running table's (channel, game row, stored clocks, its players' bank hours) as the service has
        them: read again only once the database changed (what is left of a bank is computed from them at each
        instant, as the service computes it)."""
        version = self.changes() if self.changes else None
        if version is not None and self.banks_read is not None and self.banks_read[0] == version:
            return self.banks_read[1]
        tables = []
        for where, _speed, _game in self.tables:
            row = await self.svc.store.latest_game(where.channel)
            if row is None or row.status != "running":
                continue
            stored = await self.svc.store.clocks(row.id)
            tables.append((where.channel, row, stored, await self.svc.timekeeping.bank_hours(row, list(stored))))
        self.banks_read = (version, tables)
        return tables

    async def banks(self) -> dict[tuple[str, int, str], tuple[float, float]]:
        """Every running bank now, as the service has it: (channel, game, person) → (since, seconds left)."""
        now, out = self.clock(), {}
        for channel, row, stored, hours in await self.running():
            for p, values in stored.items():
                c = C.SeatClock(*values)
                if c.since is not None:
                    out[(channel, row.id, p)] = (c.since, C.left(c, hours[p], now))
        return out

    async def watch(self, before: dict, start: float) -> None:
        """After a quarter hour from ``start`` in which nobody moved: each bank that ran through it went down only
        if its owner had a playing minute in it (by hand: their quiet hours or the table's window, and time
        away), and never while they had none."""
        after = await self.banks()
        for key, (since, was) in before.items():
            if key not in after or after[key][0] != since or was < 1:
                continue
            self.fig.bank_quarters += 1
            if after[key][1] < was - 1e-6:
                self.fig.bank_quarters_charged += 1
                if self.by_id[key[2]].playing(start, self.clock(), self.windows[key[0]]) == 0:
                    self.fig.charged_outside_playing += 1

    # ----- the fortnight ----------------------------------------------------------------------------------
    async def open(self, where: Where, speed: str, game: str) -> None:
        first, *others = [p.user for p in self.people]
        options = {"speed": speed}
        window = self.windows[where.channel]
        if window is not None:
            options |= {"playing_hours": C.quiet_text(window[1:]), "zone": window[0]}
        assert (await self.svc.open_table(where, first, game, options)).ok
        for u in others:
            assert (await self.svc.join(where, u)).ok
        self.replied(await self.svc.start(where, first))
        await self.sync(where, speed)

    async def setup(self) -> None:
        svc = self.svc
        await svc.change_settings(self.guild, self.people[0].user, True, deadline_action=self.action)
        for p, (_n, zone, a, b) in zip(self.people, PEOPLE, strict=True):
            quiet = f"{a // 60:02d}:{a % 60:02d}-{b // 60:02d}:{b % 60:02d}"
            assert (await svc.set_hours(p.user, zone, quiet)).ok
            await svc.set_notify(p.user, True)
        for where, speed, game in self.tables:
            await self.open(where, speed, game)

    async def step(self) -> None:
        svc, now = self.svc, self.clock()
        self.noticed(await svc.due())
        for where, speed, _game in self.tables:
            await self.sync(where, speed)
        for plan in list(self.away_plan):
            who, start_after, days, *empty = plan
            person = self.people[who]
            if now >= self.start + start_after and (not empty or await self.empty_bank(person)):
                self.away_plan.remove(plan)
                person.away = (now, now + days * DAY)
                assert (await svc.away(person.user, days)).ok
                self.fig.away_spells += 1
                for where, speed, _game in self.tables:
                    await self.sync(where, speed)
        if (now - self.start) % DAY == 12 * H:
            await self.look_at_status()
        for i, p in enumerate(self.people):
            if p.asleep(now) or self.rng.random() > 0.12:     # awake, they look in every two hours or so
                continue
            if any(i == who and self.start + a <= now < self.start + b for who, a, b in self.busy):
                continue                                      # too busy to play: their fast bank runs out
            for where, speed, game in self.tables:
                for _ in range(30):                          # a whole turn of several steps
                    actions = await svc.legal(where, p.user)
                    if not actions:
                        break
                    reply = await svc.act(where, p.user, self.rng.choice(actions))
                    assert reply.ok, reply.private
                    self.fig.moves += 1
                    self.replied(reply)
                    await self.sync(where, speed)
                await self.skip_empty(where, speed, p)
                row = await svc.store.latest_game(where.channel)
                if row.status == "finished":
                    self.fig.games_finished += 1
                    await self.open(where, speed, game)

    async def skip_empty(self, where: Where, speed: str, p: Person) -> None:
        """With the vote action, a player who looks in skips (``skip_rate`` of the time) a turn waiting on an
        empty bank."""
        if self.action != "vote":
            return
        row = await self.svc.store.latest_game(where.channel)
        if row is None or row.status != "running":
            return
        for q in row.waiting:
            left = await self.svc.timekeeping.left(row, q, self.clock())
            if q != p.user.id and left is not None and left < 1 and self.rng.random() < self.skip_rate:
                reply = await self.svc.skip(where, p.user, q)
                assert reply.ok, reply.private
                self.fig.skips += 1
                self.replied(reply)
                await self.sync(where, speed)
                return

    async def empty_bank(self, person: Person) -> bool:
        """Whether the fast table waits for ``person`` on an empty bank (the away spell of #47's taro)."""
        row = await self.svc.store.latest_game(self.tables[0][0].channel)
        if row is None or row.status != "running" or person.user.id not in row.waiting:
            return False
        left = await self.svc.timekeeping.left(row, person.user.id, self.clock())
        return left is not None and left < 1

    async def look_at_status(self) -> None:
        """/game status at the timed table of three (the fast one), as a spectator: how many banks it shows."""
        where = self.tables[0][0]
        row = await self.svc.store.latest_game(where.channel)
        if row is None or row.status != "running":
            return
        text = (await self.svc.status(where, User("999", "Spectator"))).text
        self.fig.status_checks += 1
        self.fig.status_banks.add(sum(1 for line in text.splitlines() if "on the clock" in line))

    async def run(self, until: float | None = None) -> Figures:
        # the games' seeds from the fortnight's own seed, so that every run plays the same games (the lobby
        # draws them from the system otherwise, and a fortnight's figures moved with them)
        seeds = random.Random(self.rng.random())
        self.changes = Changes(self.svc.store)
        try:
            with mock.patch("table.lobby.secrets.randbits", lambda bits: seeds.getrandbits(bits)):
                return await self._run(until)
        finally:
            self.changes.close()

    async def _run(self, until: float | None) -> Figures:
        self.start = self.clock()
        await self.setup()
        end = until if until is not None else self.start + self.days * DAY
        while self.clock() < end:
            await self.step()
            before = self.clock()
            banks = await self.banks()
            self.clock.now = before + STEP
            self.charge(before, self.clock())
            self.fig.steps += 1
            await self.watch(banks, before)
            if self.fig.steps % 16 == 0:
                await self.compare()
        await self.compare()
        return self.fig
