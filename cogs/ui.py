"""The components of Discord messages: the buttons and selects each Reply offers, laid out in action rows that
cogs/cards.py puts inside the message's card (issue #48), and who asks and in what language.

Every component is a ``DynamicItem`` whose custom id carries what it needs — ``th:<kind>:<game>:<version>:<arg>``
— and re-reads the game from the database when clicked, so buttons work after a restart, and a click on
an old message is answered with "this has moved on" and the current prompt. The ids are those the bot used
before its messages became cards (#48): the buttons of a plain message sent then still work.

Kinds: ``a`` an action (arg: its index among the seat's legal actions at that version), ``s`` a select of
actions (values are indices), ``g`` a group of actions (opens a picker for one group), ``p`` "choose
privately" (opens the clicker's picker, ephemeral), ``v`` "my view" (ephemeral private view), ``l`` a
lobby button (join/leave/start/bot), ``o`` the lobby's option select, ``x`` abandon confirmation,
``d`` skip or remove a player past the turn deadline (arg: ``skip-<seat>`` or ``remove-<seat>``), ``n`` the
analysis of an ended game (issue #37: beside Review and Rematch on its end-of-game message).

A review (issue #28) has its own: ``th:w:<game>:<step>:<nav>.<viewer>`` buttons and ``th:j:…`` selects, where
``<step>`` is the step to show, ``<nav>`` which button it is (``f`` first, ``p`` back, ``n`` next, ``l`` the
latest step at click time, ``r`` Review on an ended game's message, ``j`` a jump, ``s`` a chosen view) and
``<viewer>`` the view asked for ("" the clicker's own, ``t`` the table's, a seat's position). What the clicker
may see is decided when they click; a review id this code cannot read is answered, never ignored.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

import i18n
from i18n import N_, _, pgettext
from table import Reply, ReviewPage, Turn, User, Where
from table.service import seconds_text

from . import cards, observe
from .cards import file_of, mention_line, timed  # noqa: F401  (used here and by the cogs)

log = logging.getLogger("teahouse.discord")

MAX_BUTTONS = 20          # four rows of five; the last row stays free for "my view" and the like
MAX_SELECT = 25
MAX_LABEL = 80
PREFIX = "th"

NO_PINGS = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)


APOLOGY = N_("Sorry, something went wrong in Teahouse. The game is safe; try again in a minute.")
RESTARTING = N_("Teahouse is restarting; please try again in a moment.")


def to_user(interaction: discord.Interaction):
    """Speak the language of the user behind ``interaction``, for an answer only they see, even where the
    interaction's languages were never set (an error before a command ran)."""
    return i18n.speaking(i18n.normalise(interaction.locale))


async def apologize(interaction: discord.Interaction, text: str | None = None) -> None:
    """The short answer to an unexpected error (already logged): never a traceback, never silence."""
    if text is None:
        with to_user(interaction):
            text = _(APOLOGY)
    observe.outcome(interaction, "error")
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**cards.words(text).send(ephemeral=True))
        else:
            await interaction.response.send_message(**cards.words(text).send(ephemeral=True))
            observe.answered(interaction)
    except discord.HTTPException:
        pass


async def restarting(interaction: discord.Interaction) -> None:
    """The answer to an interaction that arrives while the bot stops (nothing was done); a suggestion
    request gets none."""
    if interaction.type == discord.InteractionType.autocomplete:
        return
    with to_user(interaction):
        text = _(RESTARTING)
    try:
        await interaction.response.send_message(**cards.words(text).send(ephemeral=True))
    except discord.HTTPException:
        pass


ACK_WITHIN = 0.1   # seconds: an interaction is answered or deferred this soon, far inside Discord's three


async def defer(interaction: discord.Interaction, *, private: bool) -> None:
    """Acknowledge now and answer later: a click updates its message later (no placeholder); a command shows
    "thinking", privately for a command whose answer is private. Remembered in ``interaction.extras``."""
    if interaction.response.is_done():
        return
    if interaction.type == discord.InteractionType.component:
        await interaction.response.defer()
        interaction.extras["deferred"] = "update"
    else:
        await interaction.response.defer(thinking=True, ephemeral=private)
        interaction.extras["deferred"] = "private" if private else "public"
    observe.answered(interaction)


async def acknowledged(interaction: discord.Interaction, work, *, private: bool):
    """Run ``work()``; if it has not finished within ACK_WITHIN (a busy database, fifty channels moving at
    once), defer the interaction meanwhile, so it is never answered late. Fast answers stay one message."""
    task = asyncio.ensure_future(work())
    done, _pending = await asyncio.wait({task}, timeout=ACK_WITHIN)
    if not done:
        try:
            await defer(interaction, private=private)
        except discord.HTTPException:
            log.warning("could not defer an interaction in channel %s", interaction.channel_id)
    return await task


def safe(name: str) -> str:
    """A display name as written into a message: markdown and mentions escaped, so '**x**', '||x||' or
    '@everyone' in a name shows as typed. (Button and select labels are plain text and take names as they are.)"""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(str(name)))


def custom_id(kind: str, game_id: int, version: int = 0, arg: str = "") -> str:
    cid = f"{PREFIX}:{kind}:{game_id}:{version}:{arg}"
    if len(cid) > 100:
        raise ValueError("custom id longer than Discord allows")
    return cid


def label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def who(interaction: discord.Interaction) -> tuple[User, Where]:
    user = interaction.user
    name = getattr(user, "display_name", None) or user.name
    channel = interaction.channel_id
    guild = interaction.guild_id
    # the user's client language, and the server's preferred one for public messages (#17)
    locale = i18n.normalise(interaction.locale)
    public = i18n.normalise(interaction.guild_locale) if guild and interaction.guild_locale else None
    i18n.use(locale, public, str(user.id))       # this interaction's task speaks them (labels, errors)
    return User(str(user.id), name, locale), Where(str(channel), str(guild) if guild else None, public)


def mentions(ids: list[str]) -> discord.AllowedMentions:
    """Ping exactly the players who must act; never @everyone or roles, whatever a name contains."""
    users = [discord.Object(int(i)) for i in ids if i.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def in_discord_times(reply: Reply) -> Reply:
    """``reply`` with its public and private texts' instants written as Discord's timestamps (issue #34)."""
    reply.text = timed(reply.text)
    for p in reply.private:
        p.text = timed(p.text)
    return reply


# ----- grouping a seat's actions into one or two clicks ------------------------------------------------------
def groups(actions: list[str]) -> list[tuple[str, list[int]]]:
    """Split a long list of actions into at most 25 groups by their leading words, each at most 25 long.

    Actions are small steps in readable words (``place fire 3 r2c4``); grouping by the first words makes a
    long list a choice of a group, then of an action in it: two clicks.
    """
    for depth in range(1, 6):
        buckets: dict[str, list[int]] = {}
        for i, a in enumerate(actions):
            key = " ".join(a.split()[:depth])
            buckets.setdefault(key, []).append(i)
        if len(buckets) > MAX_SELECT:
            break
        if all(len(v) <= MAX_SELECT for v in buckets.values()):
            return list(buckets.items())
    # fall back: consecutive chunks of 25
    return [(f"{actions[i]} … {actions[min(i + MAX_SELECT, len(actions)) - 1]}",
             list(range(i, min(i + MAX_SELECT, len(actions))))) for i in range(0, len(actions), MAX_SELECT)]


# A game's cog may describe its actions better than their canonical text, from the public table view
# (e.g. WURRM World's "toggle 3" as "die 3: 5 ↻"): game key → (action, table view) → label.
LABELS: dict[str, Callable[[str, dict], str]] = {}


def action_text(game: str, action: str, table: dict) -> str:
    """An action as its button reads, in the current language, before seat ids become names (``table``: the
    public view). Also the words learn mode's tips name moves with, so a tip names the button to press."""
    special = LABELS.get(game)
    with i18n.playing(game):
        return i18n.line(special(action, table) if special else action)


def action_items(turn: Turn, actions: list[str], indices: list[int] | None = None) -> list:
    """Buttons for a few actions, a select for up to 25, groups for more. Labels name seats by name."""
    game_id, version = turn.game_id, turn.version

    def shown(action: str) -> str:
        # what the player reads, in the current language; the custom id keeps the action's index (#17)
        return turn.label(action_text(turn.game, action, turn.table))
    idx = list(range(len(actions))) if indices is None else indices
    if len(idx) <= MAX_BUTTONS:
        return [ActionButton(game_id, version, i, shown(actions[i])) for i in idx]
    if len(idx) <= MAX_SELECT:
        return [ActionSelect(game_id, version, [(i, shown(actions[i])) for i in idx])]
    gs = groups([actions[i] for i in idx])
    gs = [(name, [idx[j] for j in members]) for name, members in gs]
    if len(gs) <= MAX_BUTTONS:
        return [GroupButton(game_id, version, k, shown(name)) for k, (name, _members) in enumerate(gs)]
    return [GroupSelect(game_id, version, [(k, shown(name)) for k, (name, _members) in enumerate(gs)])]


def rows(*groups: list) -> list[discord.ui.ActionRow]:
    """Components laid out in action rows, each group from a new row: buttons five to a row, a select alone in
    its own (Discord's rule)."""
    out: list[discord.ui.ActionRow] = []
    for group in groups:
        row: list = []
        for item in group:
            if row and (len(row) == 5 or item.width == 5 or row[0].width == 5):
                out.append(discord.ui.ActionRow(*row))
                row = []
            row.append(item)
        if row:
            out.append(discord.ui.ActionRow(*row))
    return out


def children(action_rows: list[discord.ui.ActionRow]) -> list:
    """The components of ``action_rows``, in order."""
    return [item for row in action_rows for item in row.children]


def turn_rows(turn: Turn | None, *, with_my_view: bool = True) -> list[discord.ui.ActionRow]:
    """The components of a public message: the next decision, when it may be shown in public; under it the
    private choice and "my view". At most 4 rows of actions and one of those two: 27 components (MAX_BUTTONS)."""
    if turn is None or not turn.to_act:
        return []
    actions: list = []
    aside: list = []
    public = list(turn.public_actions.values())
    shared = bool(public) and all(p == public[0] for p in public)
    if turn.private_seats or (public and not shared):
        # a secret choice, or several players with different choices: each opens their own picker
        aside.append(PrivateButton(turn.game_id, turn.version))
    if shared:
        # one decision, or the same one for everyone acting (both players press Reveal): the buttons
        # name actions by their index among the clicker's own legal actions, the same for each of them
        actions = action_items(turn, public[0])
    if with_my_view:
        aside += [MyViewButton(turn.game_id), WatchButton(turn.game_id)]
    return rows(actions, aside)


def picker_rows(turn: Turn, actions: list[str], group: int | None = None) -> list[discord.ui.ActionRow]:
    """An ephemeral picker for one seat: all its actions, or one group of them."""
    if group is not None:
        gs = groups(actions)
        members = gs[group][1] if 0 <= group < len(gs) else []
        return rows(action_items(turn, actions, members))
    return rows(action_items(turn, actions))


# ----- the dynamic items -------------------------------------------------------------------------------------
# Their callbacks are set by the cog (cogs.game) through HANDLERS, so this module stays free of the service.
Handler = Callable[[discord.Interaction, str, int, int, str], Awaitable[None]]
HANDLERS: dict[str, Handler] = {}


async def _dispatch(interaction: discord.Interaction, kind: str, game_id: int, version: int, arg: str) -> None:
    admit = getattr(interaction.client, "admit", None)      # the bot's door (closed while it stops)
    if admit is not None and not await admit(interaction):
        return
    async with observe.observed(interaction, observe.button_name(kind, arg), game_id):
        handler = HANDLERS.get(kind)
        if handler is None:
            with to_user(interaction):
                text = _("This button belongs to a feature that is not loaded.")
            await interaction.response.send_message(**cards.words(text).send(ephemeral=True))
            return
        await handler(interaction, kind, game_id, version, arg)


BUTTON_ID = r"th:(?P<kind>[adeglnprvx]):(?P<g>\d+):(?P<v>\d+):(?P<arg>[^:]*)"
SELECT_ID = r"th:(?P<kind>[sgo]):(?P<g>\d+):(?P<v>\d+):(?P<arg>[^:]*)"


class _Button(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_ID):
    def __init__(self, kind: str, game_id: int, version: int, arg: str, text: str,
                 style=discord.ButtonStyle.secondary, emoji: str | None = None, disabled: bool = False):
        self.kind, self.game_id, self.version, self.arg = kind, game_id, version, arg
        super().__init__(discord.ui.Button(label=label(text), style=style, emoji=emoji, disabled=disabled,
                                           custom_id=custom_id(kind, game_id, version, arg)))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], int(match["g"]), int(match["v"]), match["arg"], item.label or "?", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.kind, self.game_id, self.version, self.arg)


def ActionButton(game_id: int, version: int, index: int, text: str) -> _Button:
    return _Button("a", game_id, version, str(index), text, discord.ButtonStyle.primary)


def GroupButton(game_id: int, version: int, index: int, text: str) -> _Button:
    return _Button("g", game_id, version, str(index), text + " …", discord.ButtonStyle.primary)


def PrivateButton(game_id: int, version: int) -> _Button:
    return _Button("p", game_id, version, "", _("Choose (only you see it)"),
                   discord.ButtonStyle.success, "🔒")


def MyViewButton(game_id: int) -> _Button:
    return _Button("v", game_id, 0, "", _("My view"), discord.ButtonStyle.secondary, "👁")


def WatchButton(game_id: int, what: str = "watch") -> _Button:
    """A spectator's buttons (#49): 👀 Watch on a table's card, the choice of what a watcher's direct messages
    carry (``rounds``, ``end``) and the one click that stops (``stop``)."""
    words = {"watch": (_("Watch"), "👀"), "rounds": (_("Each round's picture"), "🖼"),
             "end": (_("Only the end"), "🏁"), "stop": (_("Stop watching"), "🛑")}
    text, emoji = words[what]
    return _Button("e", game_id, 0, what, text, discord.ButtonStyle.secondary, emoji)


def LobbyButton(game_id: int, what: str, text: str, style=discord.ButtonStyle.secondary) -> _Button:
    return _Button("l", game_id, 0, what, text, style)


def RematchButton(game_id: int) -> _Button:
    """On an ended game's message, for good (its id is in the custom id): play it again (#27)."""
    return _Button("r", game_id, 0, "", _("Rematch"), discord.ButtonStyle.success, "🔁")


def AnalysisButton(game_id: int) -> _Button:
    """On an ended game's message, beside Review and Rematch: that game's analysis, privately (#37)."""
    return _Button("n", game_id, 0, "", _("Analysis"), discord.ButtonStyle.secondary, "🔬")


def ConfirmAbandon(game_id: int) -> _Button:
    return _Button("x", game_id, 0, "", _("Yes, abandon the game"),
                   discord.ButtonStyle.danger)


def ReviewButton(game_id: int) -> _ReviewButton:
    """On an ended game's message, beside Rematch: step through that game, privately (#28)."""
    return _ReviewButton(str(game_id), "0", "r.", _("Review"), emoji="🔎")


def review_rows(page: ReviewPage) -> list[discord.ui.ActionRow]:
    """A review step's components: ⏮ ◀ ▶ ⏭, a select of jumps (a player's moves, the rounds) and, once the game
    has ended, a select of whose view to see. ⏭ stays on while the game runs: it fetches the newest move."""
    gid, k, n, v = str(page.game_id), page.step, page.moves, page.viewer
    steps = [_ReviewButton(gid, str(target), f"{nav}.{v}", text, disabled=off)
             for nav, target, text, off in (("f", 0, "⏮", k == 0), ("p", max(k - 1, 0), "◀", k == 0),
                                            ("n", min(k + 1, n), "▶", k >= n), ("l", 0, "⏭", k >= n and page.ended))]
    selects = []
    if page.jumps:
        options = [discord.SelectOption(label=label(text), value=f"{step}-{i}")
                   for i, (text, step) in enumerate(page.jumps[:MAX_SELECT])]
        selects.append(_ReviewSelect(gid, str(k), f"j.{v}", options, _("Jump to a round or a player's move…")))
    if page.viewers:
        options = [discord.SelectOption(label=label(text), value=code, default=code == v)
                   for code, text in page.viewers[:MAX_SELECT]]
        selects.append(_ReviewSelect(gid, str(k), f"s.{v}", options, _("See it as…")))
    return rows(steps, selects)


def offer_rows(offer) -> list[discord.ui.ActionRow]:
    """Past a turn deadline: Skip and Remove for each absent player (the others decide), a player's two in a row
    of their own; more than eight absent (no game seats so many) five to a row, so it stays within 40."""
    if offer is None:
        return []
    pairs = []
    for seat in offer.absent[:12]:
        name = offer.names.get(seat)
        skip = _("Skip {name}'s turn", name=name) if name else _("Skip their turn")
        remove = _("Remove {name}", name=name) if name else _("Remove them")
        pairs.append([_Button("d", offer.game_id, offer.version, f"skip-{seat}", skip, discord.ButtonStyle.primary),
                      _Button("d", offer.game_id, offer.version, f"remove-{seat}", remove,
                              discord.ButtonStyle.danger)])
    return rows(*pairs) if len(pairs) <= 8 else rows([b for pair in pairs for b in pair])


class _Select(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_ID):
    def __init__(self, kind: str, game_id: int, version: int, options: list[discord.SelectOption],
                 placeholder: str, arg: str = ""):
        self.kind, self.game_id, self.version = kind, game_id, version
        super().__init__(discord.ui.Select(custom_id=custom_id(kind, game_id, version, arg or "x"),
                                           placeholder=placeholder, options=options[:MAX_SELECT]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["kind"], int(match["g"]), int(match["v"]), list(item.options), item.placeholder or "",
                   match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await _dispatch(interaction, "a" if self.kind == "s" else self.kind, self.game_id, self.version, value)


def ActionSelect(game_id: int, version: int, entries: list[tuple[int, str]]) -> _Select:
    return _Select("s", game_id, version, [discord.SelectOption(label=label(t), value=str(i)) for i, t in entries],
                   _("Choose your move…"))


def GroupSelect(game_id: int, version: int, entries: list[tuple[int, str]]) -> _Select:
    return _Select("g", game_id, version, [discord.SelectOption(label=label(t), value=str(i)) for i, t in entries],
                   _("Choose what to do…"))


def OptionSelect(game_id: int, options: dict, choices: dict[str, list]) -> _Select | None:
    """The host's select of table options: one entry per option value, the current ones marked."""
    entries = []
    for name, current in options.items():
        for value in choices.get(name, []):
            shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
            mark = " ✓" if value == current else ""
            # the label in the reader's words (an option named as a game word, on/off); the value canonical
            if name.endswith("_time") and isinstance(value, int):
                words = seconds_text(value)
            elif isinstance(value, bool):
                words = switch(value)
            else:
                words = i18n.word(shown)
            entries.append(discord.SelectOption(label=label(f"{i18n.word(name)}: {words}{mark}"),
                                                value=f"{name}={shown}"))
    if not entries:
        return None
    return _Select("o", game_id, 0, entries, _("Host: change a table option…"))


def OptionSelects(game_id: int, options: dict, choices: dict[str, list]) -> list[_Select]:
    """The host's selects of table options: as many as the entries need at 25 a select (a game with many
    options and the table's own, speed among them, #34), each with its own custom id."""
    whole = OptionSelect(game_id, options, choices)
    if whole is None:
        return []
    entries = whole.item.options if len(whole.item.options) < MAX_SELECT else None
    if entries is not None:
        return [whole]
    selects, names = [], list(options)
    chunk: dict = {}
    for name in names:
        n = len(choices.get(name, []))
        if chunk and sum(len(choices.get(k, [])) for k in chunk) + n > MAX_SELECT:
            selects.append(chunk)
            chunk = {}
        chunk[name] = options[name]
    selects.append(chunk)
    out = []
    for i, part in enumerate(selects):
        select = OptionSelect(game_id, part, choices)
        if select is not None:
            if i:
                select.item.custom_id = custom_id("o", game_id, 0, f"x{i}")
            out.append(select)
    return out


def zone_names(current: str, limit: int = 25) -> list[str]:
    """Time zone names holding what was typed (Discord shows at most 25 suggestions)."""
    import zoneinfo

    typed = current.strip().lower().replace(" ", "_")
    found = sorted(z for z in zoneinfo.available_timezones() if typed in z.lower() and "/" in z)
    return found[:limit]


def switch(on: bool) -> str:
    """An option's on/off as the reader says it."""
    return pgettext("switch", "on") if on else pgettext("switch", "off")


def _number(text: str) -> int:
    """A custom id's number, or -1 when it is not one (a malformed id is answered as such, not ignored)."""
    return int(text) if text.isdigit() and len(text) <= 18 else -1


class _ReviewButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:w:(?P<g>[^:]*):(?P<v>[^:]*):(?P<arg>.*)"):
    def __init__(self, game_id: str, step: str, arg: str, text: str, style=discord.ButtonStyle.secondary,
                 emoji: str | None = None, disabled: bool = False):
        self.game_id, self.step, self.arg = game_id, step, arg
        super().__init__(discord.ui.Button(label=label(text), style=style, emoji=emoji, disabled=disabled,
                                           custom_id=f"{PREFIX}:w:{game_id}:{step}:{arg}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["g"], match["v"], match["arg"], item.label or "?", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, "w", _number(self.game_id), _number(self.step), self.arg)


class _ReviewSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"th:j:(?P<g>[^:]*):(?P<v>[^:]*):(?P<arg>.*)"):
    def __init__(self, game_id: str, step: str, arg: str, options: list[discord.SelectOption], placeholder: str):
        self.game_id, self.step, self.arg = game_id, step, arg
        super().__init__(discord.ui.Select(custom_id=f"{PREFIX}:j:{game_id}:{step}:{arg}",
                                           placeholder=placeholder, options=options[:MAX_SELECT]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["g"], match["v"], match["arg"], list(item.options), item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """A jump names the step to show (its value ``<step>-<i>``), a view choice the viewer: both handled as
        the review button that would show it."""
        value = self.item.values[0] if self.item.values else ""
        what, _sep, viewer = self.arg.partition(".")
        if what == "j":
            step, arg = value.partition("-")[0], f"j.{viewer}"
        elif what == "s":
            step, arg = self.step, f"s.{value}"
        else:
            step, arg = "", self.arg
        await _dispatch(interaction, "w", _number(self.game_id), _number(step), arg)


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:L:(?P<id>\d+):(?P<act>join|leave|start)"):
    """A league's sign-up buttons (issue #35): ``th:L:<league>:<join|leave|start>``, answered by cogs.league."""

    def __init__(self, league_id: int, act: str, text: str = "", style=discord.ButtonStyle.secondary):
        self.league_id, self.act = league_id, act
        super().__init__(discord.ui.Button(label=label(text or act), style=style,
                                           custom_id=f"{PREFIX}:L:{league_id}:{act}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["id"]), match["act"], item.label or "?", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        admit = getattr(interaction.client, "admit", None)
        if admit is not None and not await admit(interaction):
            return
        async with observe.observed(interaction, f"league {self.act}", None):
            await interaction.client.get_cog("LeagueCog").clicked(interaction, self.league_id, self.act)


DYNAMIC_ITEMS = (_Button, _Select, _ReviewButton, _ReviewSelect, LeagueButton)
