"""The table service: lobby, seats, turns, permissions and locking between front ends and the engine.

Platform-neutral (no discord import): the Discord cogs and the console call the same methods and send the
Replies they get back. ``TableService`` is the one object they hold; each call is answered by one concern:

- ``lobby`` (table/lobby.py): opening a table, seats, computer players, options, the start, abandoning;
- ``play`` (table/play.py): moves, undo, the computer seats, and what a player may look at;
- ``scheduler`` (table/scheduler.py): reminders, deadlines and time limits, skip/remove, the outbox;
- ``community`` (table/community.py): replays, exports, lists, records, settings, notifications;
- ``learning`` (table/learn.py): learn tables — one person against gentle computers, coached privately;
- ``reviews`` (table/review.py): stepping through a game, move by move, as its viewer may see it;
- ``analyses`` (table/analysis.py): an ended game's analysis (engine/ai/analysis.py), in the background;
- ``timekeeping`` (table/timekeeping.py, on table/clock.py): speeds and banks, time zones, quiet hours, away;
- ``leagues`` (table/league.py, on table/pairing.py): seasons of paired games with standings (issue #35);
- ``watching``, ``following``, ``tv`` (table/watch.py, follow.py, tv.py): spectators (issue #49).

They share one ``Context`` (table/context.py) — the service itself: the store, the clock, the per-channel
locks and caches, and how a table is shown. Words that need no table are in table/texts.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from store.store import Store

from .analysis import Analyses
from .community import MAX_ATTACHMENT, MAX_DEADLINE_HOURS, MAX_REMINDER_HOURS, Community
from .context import SETTINGS_TTL, Context
from .follow import Following
from .league import Leagues
from .learn import Learn
from .lobby import Lobby
from .play import HISTORY_PAGE, MAX_BOT_STEPS, MESSAGE_BUDGET, RULES_DIR, Play, rules
from .review import Review
from .scheduler import Scheduler
from .texts import (
    BOT_LEVEL,
    BOT_NAME,
    LEVEL_WORDS,
    PRIVATE_WORDS,
    REMOVED_TEXT,
    STAND_IN_LEVEL,
    bot_level,
    describe_settings,
    parse_option,
    seconds_text,
)
from .timekeeping import Timekeeping
from .tv import Tv
from .watch import Watching

# the calls front ends make, by the concern that answers each
CALLS = {
    "lobby": ("open_table", "join", "add_bot", "leave", "set_option", "start", "abandon", "rematch"),
    "play": ("act", "undo", "prompt", "legal_after", "legal", "status", "hand", "hint", "history"),
    "scheduler": ("fire_due", "next_due", "skip", "remove", "outbox", "deliver", "due"),
    "community": ("replay", "export", "games_here", "my_turns", "stats", "leaderboard", "change_settings",
                  "set_notify", "rating_board", "rating_stats", "profile"),
    "learning": ("learn",),
    "reviews": ("review", "recent_games"),
    "analyses": ("analysis",),
    "timekeeping": ("game_clock", "set_hours", "away"),
}


class TableService(Context):
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 idle_abandon_seconds: float = 24 * 3600, render: bool = True,
                 escape: Callable[[str], str] = str):
        super().__init__(store, clock=clock, idle_abandon_seconds=idle_abandon_seconds, render=render,
                         escape=escape)
        self.timekeeping = Timekeeping(self)
        self.play = Play(self)
        self.lobby = Lobby(self, self.play)
        self.scheduler = Scheduler(self, self.play)
        self.community = Community(self)
        self.learning = Learn(self, self.lobby, self.play)
        self.reviews = Review(self)
        self.analyses = Analyses(self, self.reviews)
        self.leagues = Leagues(self, self.lobby, self.scheduler)
        # spectators (#49): watchers, followers and the TV channel, told of every change (Context.event)
        self.watching = Watching(self)
        self.following = Following(self, self.watching.rows)
        self.tv = Tv(self, self.watching.rows)

    async def spectator_mail(self, send) -> int:
        """Send the watchers' and followers' messages whose moment came (table/watch.py ``deliver``)."""
        return await self.watching.deliver(send, self.following.message)

    async def next_spectator_mail(self) -> float | None:
        return await self.watching.next_due()

    rules = staticmethod(rules)       # a guide needs no table (nor a service: a front end may ask any time)

    # the shared helpers under the names tests and scripts have long called them by
    def _state(self, row):
        return self.state_of(row)

    def _result_text(self, row, game, state):
        return self.result_text(row, game, state)

    async def _skip(self, row, game, state, seats, head):
        return await self.scheduler.stand_in(row, game, state, seats, head)

    async def _remove(self, row, game, state, seats):
        return await self.scheduler.hand_over(row, game, state, seats)


def _answered_by(concern: str, name: str):
    """``TableService.<name>``: the call handed to the concern that answers it."""
    concerns = {"lobby": Lobby, "play": Play, "scheduler": Scheduler, "community": Community, "learning": Learn,
                "reviews": Review, "analyses": Analyses, "timekeeping": Timekeeping}
    method = getattr(concerns[concern], name)

    async def call(self, *args, **kwargs):
        return await getattr(getattr(self, concern), name)(*args, **kwargs)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = method.__doc__
    return call


for _concern, _names in CALLS.items():
    for _name in _names:
        setattr(TableService, _name, _answered_by(_concern, _name))

__all__ = ["BOT_LEVEL", "BOT_NAME", "CALLS", "HISTORY_PAGE", "LEVEL_WORDS", "MAX_ATTACHMENT", "MAX_BOT_STEPS",
           "MAX_DEADLINE_HOURS", "MAX_REMINDER_HOURS", "MESSAGE_BUDGET", "PRIVATE_WORDS", "REMOVED_TEXT", "RULES_DIR",
           "SETTINGS_TTL", "STAND_IN_LEVEL", "TableService", "bot_level", "describe_settings", "parse_option",
           "seconds_text"]
