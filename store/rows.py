"""What the store hands out and takes in: a game's row (``GameRow``) with its seats, a line of its action log,
a timer, a row of the outbox and a server's settings. Plain dataclasses: ``store/store.py`` reads and writes
them; the table service works with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BOT_PREFIX = "cpu-"   # computer seats' ids; a person handed to a computer keeps their own id


@dataclass
class Seat:
    user_id: str
    name: str
    is_bot: bool = False

    @property
    def removed(self) -> bool:
        """A person whose seat a computer took over (past a turn deadline)."""
        return self.is_bot and not self.user_id.startswith(BOT_PREFIX)


@dataclass
class GameRow:
    id: int
    guild: str | None
    channel: str
    game: str
    options: dict
    status: str
    host: str
    seed: int | None
    state: str | None
    version: int
    created_at: float
    updated_at: float
    parent_channel: str | None = None
    result: dict | None = None
    seats: list[Seat] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)     # the seats the running game waits for
    rules: int | None = None      # the rules version the game started under (#26); None in the lobby

    @property
    def names(self) -> dict[str, str]:
        return {s.user_id: s.name for s in self.seats}

    def seat_of(self, user_id: str) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass
class Settings:
    """A server's choices for play across a day (``/settings``)."""
    reminder_hours: float = 4.0
    deadline_hours: float = 24.0
    deadline_action: str = "vote"     # vote: opponents choose with buttons; skip or remove: done for them
    threads: bool = False
    mention: bool = True
    speed: str = "untimed"            # a new table's speed (#34): untimed, fast, daily or relaxed
    league_role: str = ""             # a role (its id) whose members may organise leagues (#35); '': none


@dataclass
class Timer:
    id: int
    game_id: int
    kind: str       # reminder, deadline, limit
    version: int    # the game version it was set for
    due: float


@dataclass
class Outgoing:
    """A row of the outbox: a notice the scheduler fired and must still deliver (``parts_done`` of its parts,
    the channel message then each direct message, already went out)."""
    id: int
    game_id: int | None
    channel: str
    payload: dict
    parts_done: int
    attempts: int


@dataclass
class LogEntry:
    seq: int
    seat: str
    action: str
    line: str
    at: float
