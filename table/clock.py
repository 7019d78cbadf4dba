"""Game clocks across days (issue #34): pure arithmetic, no store and no clock of its own — every function is
given the instants it works on (UNIX seconds, UTC), so it can be checked against a computation by hand.

- A **speed** is a table option chosen in the lobby and fixed at the start: a bank of time each person starts
  with, an increment added after each of their moves, and a cap the bank never exceeds (Fischer's clock, in
  hours rather than seconds). ``untimed`` (the default, and every game stored before clocks) has no bank: the
  server's reminder and turn deadline (``/settings``) apply as they always did.
- A person's bank runs only while the game waits for them *and* they are in their **playing hours**: every hour
  outside their quiet hours (a daily span in their own time zone, at most ``MAX_QUIET_HOURS`` long) and outside
  an away spell (``away_until``, at most ``MAX_AWAY_DAYS`` ahead). Nobody is mentioned or sent a direct
  message in their quiet hours or while away.
- When the bank reaches zero the turn is past its deadline: the server's deadline action applies (the other
  players choose, or a computer plays the turn, or takes the seat).

Quiet hours are local wall-clock times (``zoneinfo``): "23:00-07:00" in Europe/Rome is eight hours most nights,
seven or nine on the nights the clocks change. A local time that does not exist (skipped by a change to
summer time) is read with the offset before the change, as ``zoneinfo`` does with ``fold=0``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

H = 3600.0
DAY = 24 * H
MAX_QUIET_HOURS = 12          # quiet hours are at most half a day: a bank always runs at least 12 h a day
MAX_AWAY_DAYS = 21            # away at most 21 days in any AWAY_WINDOW_DAYS (one spell or several)
AWAY_WINDOW_DAYS = 60
MIN_WINDOW_HOURS = 2          # a table's playing hours are at least two hours a day
NEVER = 60 * DAY              # awake_at's answer for someone never reachable at a table (as good as never)
UNTIMED = "untimed"


@dataclass(frozen=True)
class Speed:
    """A clock: ``bank`` seconds at the start, ``increment`` added after each of one's moves, never more than
    ``cap`` (playing hours only)."""
    name: str
    bank: float
    increment: float
    cap: float


SPEEDS: dict[str, Speed | None] = {
    UNTIMED: None,
    "fast": Speed("fast", 6 * H, 3 * H, 12 * H),
    "daily": Speed("daily", 24 * H, 12 * H, 48 * H),
    "relaxed": Speed("relaxed", 72 * H, 24 * H, 120 * H),
}


def speed_of(options: dict) -> Speed | None:
    """The clock a table's options name (None: untimed, also for a table stored before clocks existed)."""
    return SPEEDS.get(options.get("speed", UNTIMED))


@dataclass(frozen=True)
class Hours:
    """A person's hours: their time zone, their quiet hours (minutes after local midnight, from and to; None
    for none) and the instant an away spell ends (None: not away). ``window``: at a table with playing hours,
    the table's daily window (zone, from, to in minutes after local midnight there): a bank then runs inside
    the window only, whatever the person's own quiet hours (see ``at_table``)."""
    zone: str = "UTC"
    quiet: tuple[int, int] | None = None
    away_until: float | None = None
    window: tuple[str, int, int] | None = None
    keep_quiet: bool = False      # with a window: the person's quiet hours count too (whom to remind, when)


ANYTIME = Hours()


@dataclass(frozen=True)
class SeatClock:
    """One person's clock in one game: ``bank`` seconds left as of ``since`` (the instant the game began to
    wait for them, None while it does not), and ``credit``, the increment their last move earned (an undo
    takes it back)."""
    bank: float
    since: float | None = None
    credit: float = 0.0


# ----- parsing what people type -----------------------------------------------------------------------------
class BadHours(ValueError):
    """What is wrong with a zone, quiet hours or an away spell; ``args[0]`` a key of ``WHY`` and its values."""


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def parse_zone(text: str) -> str:
    """An IANA zone name as typed ("europe/rome" too), or BadHours."""
    text = text.strip()
    if not text or ".." in text or text.startswith("/") or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", text):
        raise BadHours("zone", text)
    for candidate in (text, "/".join(p.capitalize() if p.islower() else p for p in text.split("/")), text.upper()):
        try:
            zone(candidate)
            return candidate
        except (ZoneInfoNotFoundError, ValueError, OSError):
            continue
    raise BadHours("zone", text)


_CLOCK_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?$")


def _minutes(text: str) -> int:
    m = _CLOCK_TIME.match(text.strip())
    if not m:
        raise BadHours("quiet", text)
    h, mins = int(m.group(1)), int(m.group(2) or 0)
    if h > 24 or mins > 59 or (h == 24 and mins):
        raise BadHours("quiet", text)
    return (h * 60 + mins) % (24 * 60)


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Quiet hours "23:00-07:00" (or "23-7") as minutes (from, to); "off" is None. BadHours when they cannot be
    read, cover the whole day, or last more than MAX_QUIET_HOURS."""
    text = text.strip().lower()
    if text in ("off", "none", "no", "0"):
        return None
    parts = re.split(r"\s*[-–]\s*", text)
    if len(parts) != 2:
        raise BadHours("quiet", text)
    start, end = _minutes(parts[0]), _minutes(parts[1])
    length = (end - start) % (24 * 60)
    if length == 0:
        raise BadHours("whole_day", text)
    if length > MAX_QUIET_HOURS * 60:
        raise BadHours("too_long", text)
    return start, end


def parse_away(days: float, now: float) -> float | None:
    """An away spell of ``days`` from ``now``: the instant it ends (None for 0: back now), or BadHours."""
    if days != days or days < 0 or days > MAX_AWAY_DAYS:
        raise BadHours("away", days)
    return None if days == 0 else now + days * DAY


def away_taken(spells: list[tuple[float, float]], start: float, end: float) -> float:
    """The seconds of [start, end] covered by the away ``spells`` (start, end) — they never overlap."""
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spells)


def away_room(spells: list[tuple[float, float]], now: float) -> float:
    """How many days one may be away from ``now`` on, given the spells taken before (each ended by ``now``):
    at most MAX_AWAY_DAYS in any AWAY_WINDOW_DAYS. A spell [now, now + d] puts the most away time in the
    window that ends with it: d plus what was taken in [now + d - 60 days, now]. That grows with d, so the
    room is the largest d with d + taken(now + d - 60 days, now) <= 21 days (found by bisection, to a minute)."""
    limit, window = MAX_AWAY_DAYS * DAY, AWAY_WINDOW_DAYS * DAY

    def total(d: float) -> float:
        return d + away_taken(spells, now + d - window, now)
    if total(0.0) >= limit:
        return 0.0
    lo, hi = 0.0, limit
    while hi - lo > 60:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if total(mid) <= limit else (lo, mid)
    return lo / DAY


def check_away(spells: list[tuple[float, float]], days: float, now: float) -> float | None:
    """``parse_away`` under the bound that cannot be gamed: BadHours("away_bound", days, room in days) when a
    spell of ``days`` from ``now`` would put more than MAX_AWAY_DAYS away in some AWAY_WINDOW_DAYS."""
    until = parse_away(days, now)
    if until is not None:
        room = away_room(spells, now)
        if days > room + 1 / (24 * 60):
            raise BadHours("away_bound", days, room)
    return until


def parse_window(text: str) -> tuple[int, int] | None:
    """A table's playing hours "18:00-23:00" (or "9-21") as minutes (from, to), crossing midnight or not;
    "off" is None. BadHours("window") when they cannot be read, ("window_day") when they are empty or the
    whole day (from = to)."""
    text = str(text).strip().lower()
    if text in ("off", "none", "no", "-", ""):
        return None
    parts = re.split(r"\s*[-–]\s*", text)
    if len(parts) != 2:
        raise BadHours("window", text)
    try:
        start, end = _minutes(parts[0]), _minutes(parts[1])
    except BadHours:
        raise BadHours("window", text) from None
    if start == end:
        raise BadHours("window_day", text)
    if (end - start) % (24 * 60) < MIN_WINDOW_HOURS * 60:
        raise BadHours("window_short", text)
    return start, end


def at_table(hours: Hours, window: tuple[str, int, int] | None) -> Hours:
    """A person's hours as a table's banks see them: with the table's playing window, if it has one (the
    window then replaces their quiet hours: everyone's bank runs in the same hours)."""
    return hours if window is None else replace(hours, window=window, keep_quiet=False)


def reachable(hours: Hours, window: tuple[str, int, int] | None) -> Hours:
    """A person's hours as reminders see them: outside their quiet hours and away spell, and inside the
    table's playing window if it has one."""
    return hours if window is None else replace(hours, window=window, keep_quiet=True)


def window_of(options: dict) -> tuple[str, int, int] | None:
    """A table's playing window from its options (``playing_hours`` "18:00-23:00" in ``zone``), None without
    one (also for every table stored before playing hours existed)."""
    try:
        w = parse_window(options.get("playing_hours", "off"))
    except BadHours:
        return None
    return None if w is None else (options.get("zone") or "UTC", w[0], w[1])


def window_text(window: tuple[int, int] | None) -> str:
    return "off" if window is None else quiet_text(window)


def quiet_text(quiet: tuple[int, int] | None) -> str:
    if quiet is None:
        return "-"
    return f"{quiet[0] // 60:02d}:{quiet[0] % 60:02d}-{quiet[1] // 60:02d}:{quiet[1] % 60:02d}"


# ----- quiet and playing hours --------------------------------------------------------------------------------
def _local_date(t: float, tz: ZoneInfo) -> date:
    return datetime.fromtimestamp(t, tz).date()


def _at(day: date, minutes: int, tz: ZoneInfo) -> float:
    return datetime.combine(day, time(minutes // 60, minutes % 60), tzinfo=tz).timestamp()


def _daily(zone_name: str, qs: int, qe: int, start: float, end: float) -> list[tuple[float, float]]:
    """The spans of [start, end] inside a daily span from ``qs`` to ``qe`` (minutes, local time in the zone)."""
    spans = []
    tz = zone(zone_name)
    day = _local_date(start, tz) - timedelta(days=1)
    last = _local_date(end, tz)
    while day <= last:
        a = _at(day, qs, tz)
        b = _at(day + timedelta(days=1) if qe <= qs else day, qe, tz)
        if b > start and a < end:
            spans.append((max(a, start), min(b, end)))
        day += timedelta(days=1)
    return spans


def excluded(hours: Hours, start: float, end: float) -> list[tuple[float, float]]:
    """The spans of [start, end] outside ``hours``' playing hours, merged and in order: their quiet hours — or,
    at a table with a playing window, the hours outside that window instead — and an away spell."""
    spans: list[tuple[float, float]] = []
    if hours.window is not None:
        wz, ws, we = hours.window
        spans += _daily(wz, we, ws, start, end)         # closed from the window's end to its next start
    if hours.quiet is not None and (hours.window is None or hours.keep_quiet):
        spans += _daily(hours.zone, hours.quiet[0], hours.quiet[1], start, end)
    if hours.away_until is not None and hours.away_until > start:
        spans.append((start, min(hours.away_until, end)))
    spans.sort()
    merged: list[tuple[float, float]] = []
    for a, b in spans:
        if b <= a:
            continue
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def playing_seconds(hours: Hours, start: float, end: float) -> float:
    """How much of [start, end] is in ``hours``' playing hours: what a bank is charged for that wait."""
    if end <= start:
        return 0.0
    return (end - start) - sum(b - a for a, b in excluded(hours, start, end))


def is_quiet(hours: Hours, t: float) -> bool:
    """Whether ``t`` is in the person's quiet hours or away spell: no mention, no direct message."""
    return any(a <= t < b for a, b in excluded(hours, t, t + 1))


def awake_at(hours: Hours, t: float) -> float:
    """The first instant at or after ``t`` in the person's playing hours."""
    for _ in range(64):                    # a window of two days at a time (an away spell is at most 21 days)
        spans = excluded(hours, t, t + 2 * DAY)
        if not spans or spans[0][0] > t:
            return t
        if spans[0][1] >= t + 2 * DAY and (hours.away_until is None or hours.away_until <= t):
            return t + NEVER               # two whole days without a moment: quiet hours that cover a window
        t = spans[0][1]
    return t


def runs_out(hours: Hours, since: float, bank: float) -> float:
    """The instant a bank of ``bank`` seconds, running from ``since`` in the person's playing hours only, is
    used up (``since`` itself for an empty bank)."""
    if bank <= 0:
        return since
    t, left = since, bank
    while True:
        window = t + max(left, H) + 2 * DAY          # a window that holds at least ``left`` playing seconds
        for a, b in excluded(hours, t, window):       # (quiet hours ≤ 12 h a day, an away spell ≤ 14 days:
            if a - t >= left:                          #  the loop ends after a few windows)
                return t + left
            left -= a - t
            t = b
        if window - t >= left:
            return t + left
        left -= window - t
        t = window


# ----- banks ---------------------------------------------------------------------------------------------------
def left(clock: SeatClock, hours: Hours, now: float) -> float:
    """The seconds left on a bank at ``now`` (negative past its end)."""
    if clock.since is None:
        return clock.bank
    return clock.bank - playing_seconds(hours, clock.since, now)


def starting(speed: Speed, people: list[str], waiting: list[str], now: float) -> dict[str, SeatClock]:
    """Every person's clock at the start: the full bank, running for those the game waits for first."""
    return {p: SeatClock(speed.bank, now if p in waiting else None) for p in people}


def advance(speed: Speed, clocks: dict[str, SeatClock], before: list[str], after: list[str], movers: set[str],
            undoer: str | None, hours: dict[str, Hours], now: float) -> dict[str, SeatClock]:
    """The clocks once a change is stored at ``now``: the game waited for ``before`` and now waits for ``after``
    (people only). A person it stops waiting for is charged their playing hours since it began to, and if they
    moved (``movers``) earns the increment, never above the cap (an empty bank earns it too: a turn a computer
    played for them leaves them one increment). A person it begins waiting for starts running now; the
    ``undoer`` gives back the increment their undone move earned."""
    out = dict(clocks)
    for p, c in clocks.items():
        if p in before and p not in after and c.since is not None:
            rest = max(0.0, left(c, hours.get(p, ANYTIME), now))
            bank = min(speed.cap, rest + speed.increment) if p in movers else rest
            out[p] = SeatClock(bank, None, bank - rest if p in movers else 0.0)
    for p in after:
        c = out.get(p)
        if c is None:
            continue
        if c.since is None:
            bank = max(0.0, c.bank - c.credit) if p == undoer else c.bank
            out[p] = SeatClock(bank, now, 0.0 if p == undoer else c.credit)
    return out


def settle(clock: SeatClock, hours: Hours, now: float) -> SeatClock:
    """A running clock charged up to ``now`` and running on from there (before a person's hours change, so
    the time before counts under the hours that held then). A bank already empty keeps the instant it ran
    out, under those hours (#47): whatever hours come next, it stays empty, and that instant stays the one
    its deadline was announced for."""
    if clock.since is None:
        return clock
    rest = left(clock, hours, now)
    if rest <= 0:
        return replace(clock, bank=0.0, since=runs_out(hours, clock.since, clock.bank))
    return replace(clock, bank=rest, since=now)


def reminders(clock: SeatClock, hours: Hours, after: float, few: float) -> list[float]:
    """When a running bank should remind its owner (#47), after ``after``: once half of what it held when it
    began to run is used, and once ``few`` seconds are left (at most a quarter of it) — instants in the
    owner's playing hours, since the bank runs only then. None once it is empty."""
    if clock.since is None or clock.bank <= 0:
        return []
    points = {runs_out(hours, clock.since, clock.bank - rest) for rest in (clock.bank / 2, min(clock.bank / 4, few))}
    return sorted(t for t in points if t > after)


def hm(seconds: float) -> tuple[int, int]:
    """Hours and minutes of a bank, to the nearest minute (never below zero)."""
    minutes = max(0, int(round(seconds / 60)))
    return minutes // 60, minutes % 60


def utc(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def local_time(zone_name: str, t: float) -> str:
    """The wall-clock time in ``zone_name`` at ``t``: '14:05'."""
    return datetime.fromtimestamp(t, zone(zone_name)).strftime("%H:%M")
