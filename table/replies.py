"""What the table service hands back: plain data any front end (Discord, the console, tests) can send."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import i18n
from engine.core import with_names
from i18n import N_, _, pgettext

from . import inflight

# An instant in a reply's text, in a form no front end shows as it is: Discord writes it as ``<t:UNIX:R>`` (each
# reader sees it in their own time zone and language), the console as UTC and the time from now (issue #34).
TIME_MARK = re.compile("\u27e6t:(-?\\d+):([a-zA-Z])\u27e7")


def when(t: float, style: str = "R") -> str:
    """The instant ``t`` (UNIX seconds) marked in a text: ``R`` relative ("in 3 hours"), ``f`` date and time."""
    return f"\u27e6t:{int(t)}:{style}\u27e7"


def with_times(text, shown: Callable[[int, str], str]):
    """``text`` with every marked instant written by the front end's ``shown(unix, style)``."""
    if not text or "\u27e6t:" not in text:
        return text
    return TIME_MARK.sub(lambda m: shown(int(m.group(1)), m.group(2)), str(text))


@dataclass(frozen=True)
class User:
    id: str
    name: str
    locale: str | None = None       # the language the user's client speaks (None: the process default)


@dataclass(frozen=True)
class Where:
    channel: str
    guild: str | None = None
    locale: str | None = None       # the server's preferred language, for public messages (None: the user's)


@dataclass
class Picture:
    """An image of the game. It may arrive unrendered (``data`` None, ``make`` set): front ends answer
    quickly first and then render off the event loop with ``Reply.render()``."""
    filename: str
    data: bytes | None = None
    make: Callable[[], bytes | None] | None = field(default=None, repr=False)
    job: tuple | None = field(default=None, repr=False)   # render_png's arguments: drawn by render.workers
    key: tuple | None = field(default=None, repr=False)   # (game id, viewer): a newer job of the same key
    order: int = 0                                        # (a higher order, the version) supersedes a waiting one
    alt: str = ""       # the picture in words, for screen readers (Discord's attachment description), #16


@dataclass
class Private:
    """Seen only by ``user`` (an ephemeral reply in Discord). ``image`` is its attachment: a picture, or a
    file such as an exported log."""
    user: str
    text: str
    image: Picture | None = None

    def __post_init__(self):
        # made while speaking to the channel; the caller reads it in their own language (#17)
        self.text = i18n.for_user(self.user, self.text)


def pages(text: str, limit: int = 2000) -> list[str]:
    """``text`` cut into messages of at most ``limit`` characters (a card holds 4,000: ``cards.MAX_TEXT``), at
    paragraph boundaries (blank lines) where possible, else at line ends, else anywhere."""
    pieces = [piece for para in text.strip().split("\n\n") for piece in _pieces(para, limit)]
    return _packed(pieces, "\n\n", limit) or [""]


def _pieces(para: str, limit: int) -> list[str]:
    """A paragraph in runs of whole lines of at most ``limit`` characters; a longer line cut at the limit."""
    if len(para) <= limit:
        return [para]
    cut = [line[i:i + limit] for line in para.split("\n") for i in range(0, max(len(line), 1), limit)]
    return _packed(cut, "\n", limit)


def _packed(pieces: list[str], sep: str, limit: int) -> list[str]:
    """``pieces`` (each at most ``limit`` long) joined by ``sep`` in order, as many to a run as fit in ``limit``."""
    out: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}{sep}{piece}" if current else piece
        if len(joined) <= limit:
            current = joined
        else:
            out.append(current)
            current = piece
    if current:
        out.append(current)
    return out


def name_seats(text: str, names: dict[str, str]) -> str:
    """Replace seat ids in an engine text (a log line, an action) with display names (whole ids only)."""
    return with_names(text, names)


@dataclass(frozen=True)
class Control:
    """A button, or one entry of a select, described for any front end (issue #33): ``key`` says which one
    (``rematch``, ``review.next``, ``lobby.join``…), ``label`` its words, and ``command`` with ``options`` the
    command that does the same, as typed in Discord and at the console: ``("game", "review")`` with
    ``(("game", "7"), ("step", "3"))`` is ``/game review game:7 step:3``. ``group``: the select an entry belongs
    to (its placeholder), "" for a button. Discord turns these into components, the console prints each as
    the line to type, where the button would be."""
    key: str
    label: str
    command: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    group: str = ""
    emoji: str = ""


def after_game(game_id: int) -> list[Control]:
    """What the message of a game that just ended offers (``Reply.rematch``), in order: play it again, step
    through it, see where it was won (#37). A new follow-up is added here, once: Discord shows it as a button
    (``cogs.game.FOLLOW_UPS`` names its component), the console prints its line."""
    return [Control("rematch", _("Rematch"), ("game", "rematch"), emoji="🔁"),
            Control("review", _("Review"), ("game", "review"), (("game", str(game_id)),), emoji="🔎"),
            Control("analysis", _("Analysis"), ("game", "analysis"), (("game", str(game_id)),), emoji="🔬")]


# the lobby's buttons: (key, label, command, options); Discord's lobby message shows them in this order
LOBBY_BUTTONS = (("join", N_("Join"), ("game", "join"), ()),
                 ("leave", N_("Leave"), ("game", "leave"), ()),
                 ("bot", N_("Add computer"), ("game", "addbot"), ()),
                 ("start", N_("Start"), ("game", "start"), ()),
                 ("shuffle", N_("Start (shuffled seats)"), ("game", "start"), (("order", "shuffled"),)))


def lobby_controls(options: dict, choices: dict[str, list]) -> list[Control]:
    """A lobby's buttons, then the host's select of table options: one entry per value of each option
    (``options``: the table's as shown, ``choices``: each option's values), the current ones marked ✓."""
    from .texts import seconds_text

    out = [Control(f"lobby.{key}", _(text), command, opts) for key, text, command, opts in LOBBY_BUTTONS]
    group = _("Host: change a table option…")
    for name, current in options.items():
        for value in choices.get(name, []):
            typed = ("on" if value else "off") if isinstance(value, bool) else str(value)
            if name.endswith("_time") and isinstance(value, int):
                words = seconds_text(value)
            elif isinstance(value, bool):
                words = pgettext("switch", "on") if value else pgettext("switch", "off")
            else:
                words = i18n.word(typed)
            mark = " ✓" if value == current else ""
            out.append(Control("lobby.option", f"{i18n.word(name)}: {words}{mark}", ("game", "option"),
                               (("name", name), ("value", typed)), group))
    return out


CONFIRM_ABANDON = "abandon.confirm"


def confirm_abandon() -> Control:
    """The one button under "Abandon this game for everyone?"."""
    return Control(CONFIRM_ABANDON, _("Yes, abandon the game"), ("game", "abandon"), (("confirm", "yes"),))


@dataclass
class Turn:
    """The decision a game awaits now, for front ends that offer it as buttons.

    ``public_actions`` holds the legal actions of seats whose choices are public information; a seat in
    ``private_seats`` (a hand, a secret pick) must be offered its actions privately, on request.
    """
    game_id: int
    game: str
    version: int
    to_act: list[str]
    public_actions: dict[str, list[str]] = field(default_factory=dict)
    private_seats: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)      # seat → display name, for labels
    table: dict = field(default_factory=dict, repr=False)    # the spectator's view: public, for richer labels

    def label(self, action: str) -> str:
        """An action as a player reads it: seat ids become names."""
        return name_seats(action, self.names)

    def controls(self) -> list[Control]:
        """Besides the actions' own buttons (``/game move action:<action>``), what a turn's message offers:
        a private choice for the seats whose choice is secret, and each player's own view."""
        out = []
        if self.private_seats:
            out.append(Control("turn.private", _("Choose (only you see it)"), ("game", "actions"), emoji="🔒"))
        return out + [Control("turn.view", _("My view"), ("game", "hand"), emoji="👁"),
                      Control("watch", _("Watch"), ("game", "watch"), (("game", str(self.game_id)),), emoji="👀")]


@dataclass
class Offer:
    """Past a turn deadline: the other players may skip the absent players' turn or remove them."""
    game_id: int
    version: int
    absent: list[str]
    names: dict[str, str] = field(default_factory=dict)

    def controls(self) -> list[Control]:
        """Skip and Remove for each absent player (at most twelve)."""
        out = []
        for seat in self.absent[:12]:
            name = self.names.get(seat)
            player = (("player", seat),)
            out.append(Control("deadline.skip", _("Skip {name}'s turn", name=name) if name else _("Skip their turn"),
                               ("game", "skip"), player))
            out.append(Control("deadline.remove", _("Remove {name}", name=name) if name else _("Remove them"),
                               ("game", "remove"), player))
        return out


@dataclass
class ReviewPage:
    """One step of a game's review (``/game review``, issue #28), for front ends that offer buttons to step
    on: where it is (``step`` of ``moves``, 0 the start), whose view it shows (``viewer``: "t" the table's,
    else the position of a seat in the game's seat list), the other views that may be chosen (an ended
    game's: (code, label)) and the jumps (label, step) to a round or to a player's move. ``seats``: the game's
    seat ids in order (a view's code is a position among them)."""
    game_id: int
    step: int
    moves: int
    viewer: str
    ended: bool
    viewers: list[tuple[str, str]] = field(default_factory=list)
    jumps: list[tuple[str, int]] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)

    def navigation(self) -> list[tuple[str, str, int | None, bool]]:
        """The step buttons, as (key, symbol, the step each shows, whether it is off): ⏮ ◀ ▶ ⏭. ⏭'s step is
        None, "the latest at the time": it stays on while the game runs, to fetch the newest move."""
        k, n = self.step, self.moves
        return [("review.first", "⏮", 0, k == 0), ("review.previous", "◀", max(k - 1, 0), k == 0),
                ("review.next", "▶", min(k + 1, n), k >= n),
                ("review.last", "⏭", n if self.ended else None, k >= n and self.ended)]

    def controls(self, user: str) -> list[Control]:
        """The page's buttons (those not off) and selects' entries for ``user``, who reads it: each the
        ``/game review`` that shows that step, naming the view only where it is not ``user``'s own."""
        words = {"review.first": _("first"), "review.previous": _("previous"), "review.next": _("next"),
                 "review.last": _("last")}
        out = []
        for key, symbol, step, off in self.navigation():
            if not off:
                out.append(Control(key, words[key], ("game", "review"), self._options(step, self.viewer, user),
                                   emoji=symbol))
        jump = _("Jump to a round or a player's move…")
        out += [Control("review.jump", text, ("game", "review"), self._options(step, self.viewer, user), jump)
                for text, step in self.jumps]
        view = _("See it as…")
        out += [Control("review.view", text + (" ✓" if code == self.viewer else ""), ("game", "review"),
                        self._options(self.step, code, user, named=True), view) for code, text in self.viewers]
        return out

    def _options(self, step: int | None, viewer: str, user: str, named: bool = False) -> tuple[tuple[str, str], ...]:
        own = str(self.seats.index(user)) if user in self.seats else "t"
        opts = [("game", str(self.game_id)), ("step", "last" if step is None else str(step))]
        if viewer != own or named:
            seat = self.seats[int(viewer)] if viewer.isdigit() and int(viewer) < len(self.seats) else None
            opts.append(("seen_by", "table" if seat is None else seat))
        return tuple(opts)


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
    notes: list[tuple[str, str]] = field(default_factory=list)  # (channel, text): e.g. a game thread's parent
    offer: Offer | None = None                 # skip/remove choices after a missed deadline
    choices: list[str] = field(default_factory=list)   # the caller's own legal actions (private, for a picker)
    rematch: int | None = None                 # the ended game a Rematch button reopens (#27)
    review: ReviewPage | None = None           # a review's step, for its buttons (#28)
    controls: list[Control] = field(default_factory=list)   # buttons for the caller beyond those above: a
    #                                                           confirmation (#33)
    analysis: object | None = None             # an analysis under way (table/analysis.py Ticket), to follow (#37)
    thread_member: tuple[str, str] | None = None   # (thread, user): a watcher the front end adds to the game's
    #                                                 thread (#49)

    @classmethod
    def fail(cls, user: str, text: str, **kw) -> Reply:
        return cls(ok=False, private=[Private(user, text)], **kw)

    def private_for(self, user: str) -> list[Private]:
        """``user``'s private parts that hold something (a part with neither text nor picture is never sent:
        Discord refuses an empty message)."""
        return [p for p in self.private if p.user == user and (p.text or p.image is not None)]

    def pictures(self) -> list[Picture]:
        return [p for p in [self.image] + [q.image for q in self.private] if p is not None]

    @property
    def needs_render(self) -> bool:
        return any(p.data is None for p in self.pictures())

    async def render(self) -> Reply:
        """Render every picture not yet drawn, off the event loop: game images in the image workers
        (render.workers), other files (a replay) in a thread. A picture whose game has no renderer is dropped.
        While pictures are drawn, play is in flight (table/inflight.py): the analysis workers wait."""
        if self.needs_render:
            with inflight.playing():
                await self._draw()
        if self.image is not None and self.image.data is None:
            self.image = None
        for q in self.private:
            if q.image is not None and q.image.data is None:
                q.image = None
        return self

    async def _draw(self) -> None:
        """Every picture begun at once, then awaited: a move's channel picture and its players' private ones
        (a hand, a secret choice) are drawn side by side by the image workers, not one after another (a reply
        of two pictures waited for both in turn: most of the slowest twentieth at 50 channels, issue #33)."""
        from render import workers as rendering

        drawing: list[tuple[Picture, asyncio.Future]] = []
        for pic in self.pictures():
            if pic.data is None and pic.job is not None:
                drawing.append((pic, rendering.begin(pic.job, pic.key, pic.order)))
            elif pic.data is None and pic.make is not None:
                drawing.append((pic, asyncio.ensure_future(asyncio.to_thread(pic.make))))
        done = await asyncio.gather(*(fut for _pic, fut in drawing), return_exceptions=True)
        for (pic, _fut), data in zip(drawing, done, strict=True):
            if not isinstance(data, BaseException):
                pic.data = data
        failed = next((data for data in done if isinstance(data, BaseException)), None)
        if failed is not None:          # every picture was waited for; the first failure is the reply's
            raise failed


@dataclass
class Notice:
    """Something the scheduler says on its own: a reminder, a deadline, a closed reaction window.
    ``reply`` goes to ``channel``; ``dm`` holds direct messages for users who asked for them.

    A fired notice waits in the outbox (``id``) until every part went out: part 0 is the channel message,
    part k the k-th direct message; ``parts_done`` of them already did. ``nonce(k)`` names a part for the
    platform's de-duplication, so a part resent after a crash is not shown twice. ``expires``: a reminder
    or deadline offer that only makes sense while its turn still waits."""
    channel: str
    reply: Reply
    dm: list[Private] = field(default_factory=list)
    id: int | None = None
    parts_done: int = 0
    expires: bool = False
    locale: str | None = None      # the language of the channel's server

    def nonce(self, part: int) -> str | None:
        return None if self.id is None else f"th{self.id}p{part}"


def payload(notice: Notice) -> dict:
    """What the outbox keeps of a notice: its words and what to rebuild (the prompt, the image, the offer)
    from the game when it is sent."""
    r = notice.reply
    return {"text": r.text, "mention": r.mention, "version": r.version, "status": r.status,
            "turn": r.turn is not None, "image": r.image is not None, "notes": [list(n) for n in r.notes],
            "offer": list(r.offer.absent) if r.offer else None, "dm": [[p.user, p.text] for p in notice.dm],
            "expires": notice.expires, "rematch": r.rematch}
