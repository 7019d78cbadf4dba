"""How long a game will take, for the lobby (issue #34): from the finished games of the same game, table size
and speed (and as many playing hours a day) when there are at least ``ENOUGH`` of them (their median, first move
to end), otherwise from the
game's typical number of turns and the table's pace (the formula in docs/clocks.md):

    days ≈ turns × pace / playing hours a day, where
    pace   = half the speed's increment (an untimed table: half the server's reminder interval, or of its
             turn deadline without reminders) — the time a turn takes, in playing hours;
    playing hours a day = the table's window, or 16 (a day less typical quiet hours of 8) without one.

A turn is a run of one person's decisions (a take and its place, a whole WURRM turn); ``TURNS`` are the
median turns of a whole game by table size in the golden corpus (tests/corpus, rules 1; WURRM rules 3),
counted so: a new turn begins where the log's seat changes.
"""

from __future__ import annotations

import statistics
import time

from . import clock

ENOUGH = 5                 # finished games of the same game, size and speed before their median is used
PLAYING_HOURS = 16.0       # a day's playing hours without a table window: 24 less 8 quiet
TTL = 60.0                 # seconds the finished games of one game are kept in memory

# median turns of a whole game, by players (tests/corpus: python -c in docs/clocks.md)
TURNS = {
    "wassamasaw": {2: 72},
    "wagara": {2: 174, 3: 129, 4: 151, 5: 147},
    "mywuxing": {2: 20, 3: 34, 4: 38, 5: 44, 6: 42, 7: 45, 8: 38},
    "seikatsu": {2: 36, 3: 34, 4: 33},
    "wurrm": {2: 16, 3: 22, 4: 26, 5: 36, 6: 34},
}


def typical_turns(game: str, players: int) -> int | None:
    """The corpus's median turns of ``game`` at ``players`` (the nearest size it has)."""
    sizes = TURNS.get(game)
    if not sizes:
        return None
    return sizes[min(sizes, key=lambda n: (abs(n - players), n))]


def window_hours(window: tuple[str, int, int] | None) -> float:
    """A day's playing hours: a table window's length, or PLAYING_HOURS."""
    if window is None:
        return PLAYING_HOURS
    return ((window[2] - window[1]) % (24 * 60)) / 60


def pace(speed: clock.Speed | None, reminder_hours: float, deadline_hours: float) -> float | None:
    """The playing seconds a turn takes: half the speed's increment; untimed, half the reminder interval (or
    of the turn deadline); None when the server has neither."""
    if speed is not None:
        return speed.increment / 2
    hours = reminder_hours if reminder_hours > 0 else deadline_hours
    return hours * clock.H / 2 if hours > 0 else None


def by_formula(game: str, players: int, speed: clock.Speed | None, window, reminder_hours: float,
               deadline_hours: float) -> tuple[float, int] | None:
    """(seconds the game takes by the formula, turns), or None (a game without turns on record, a server
    without reminders or deadline at an untimed table)."""
    turns, per_turn = typical_turns(game, players), pace(speed, reminder_hours, deadline_hours)
    if turns is None or per_turn is None:
        return None
    return turns * per_turn * 24 / window_hours(window), turns


def by_record(spans: list[tuple[dict, int, float, float]], players: int, speed_name: str,
              window: tuple[str, int, int] | None = None) -> tuple[float, int] | None:
    """(median seconds first move to end, how many games) of the finished games at ``players``, ``speed_name``
    and as many playing hours a day as ``window`` gives (a table with playing hours is measured against
    tables with as many, #47: five hours a day take three times as many days as sixteen) when there are at
    least ENOUGH, else None."""
    hours = window_hours(window)
    durations = [end - first for options, n, first, end in spans
                 if n == players and options.get("speed", clock.UNTIMED) == speed_name and end >= first
                 and window_hours(clock.window_of(options)) == hours]
    if len(durations) < ENOUGH:
        return None
    return statistics.median(durations), len(durations)


class Estimates:
    """The finished games of each game, read at most once per TTL seconds (a lobby changes often)."""

    def __init__(self, store):
        self.store = store
        self._spans: dict[str, tuple[float, list]] = {}

    async def spans(self, game: str) -> list:
        now = time.monotonic()
        hit = self._spans.get(game)
        if hit is None or now - hit[0] > TTL:
            hit = self._spans[game] = (now, await self.store.finished_spans(game))
        return hit[1]
