"""What the table service hands back: plain data any front end (Discord, the console, tests) can send."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class User:
    id: str
    name: str


@dataclass(frozen=True)
class Where:
    channel: str
    guild: str | None = None


@dataclass
class Picture:
    filename: str
    data: bytes


@dataclass
class Private:
    """Seen only by ``user`` (an ephemeral reply in Discord)."""
    user: str
    text: str
    image: Picture | None = None


@dataclass
class Turn:
    """The decision a game awaits now, for front ends that offer it as buttons.

    ``public_actions`` holds the legal actions of seats whose choices are public information; a seat in
    ``private_seats`` (a hand, a secret pick, or one of several choosing at once) must be offered its
    actions privately, on request.
    """
    game_id: int
    game: str
    version: int
    to_act: list[str]
    public_actions: dict[str, list[str]] = field(default_factory=dict)
    private_seats: list[str] = field(default_factory=list)


@dataclass
class Reply:
    ok: bool = True
    text: str | None = None                    # for the channel
    image: Picture | None = None               # for the channel
    private: list[Private] = field(default_factory=list)
    mention: list[str] = field(default_factory=list)   # user ids to ping: whoever must act next
    game_id: int | None = None
    version: int | None = None
    status: str | None = None                  # lobby, running, finished, abandoned
    turn: Turn | None = None
    stale: bool = False                        # the click named an old version of the game
    log: list[str] = field(default_factory=list)   # the public lines this reply added to the log

    @classmethod
    def fail(cls, user: str, text: str, **kw) -> Reply:
        return cls(ok=False, private=[Private(user, text)], **kw)

    def private_for(self, user: str) -> list[Private]:
        return [p for p in self.private if p.user == user]
