"""A server's TV channel (issue #49): ``/settings tv_channel:`` (Manage Server) and one live card per running game
of the server there — the picture, whose turn, the latest moves newest first, how many watch — edited in place
after each move; a finished game's card keeps its result for a day, then goes.

Discord lets a bot make about 5 requests per 5 seconds to one channel. When 30 games move at once, the channel
still gets no more than that (``Pace``), so edits are coalesced: a card is made when it is sent, from its game as
it stands then, so a game that moved three times since its card was last edited is edited once. The card that
has waited longest goes first (a new game's card, a moved game's edit, then a day-old card's removal), so no card
lags more than one round of the channel's cards behind its game; each edit lists every move since the last one
(up to ``MOST_MOVES``), so none goes unseen. A request Discord answers with 429 is waited out and made again by
the front end (discord.py does it), never dropped; a card is posted with a nonce Discord holds to, so a post
made again after a crash is not shown twice; and what a card shows is in the store (``tv_cards``), so a restart
edits the cards where they are. Each process keeps the TV channels of its own shards' servers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import i18n
from engine import GAMES
from i18n import N_, _, ngettext
from store.rows import GameRow
from store.spectators import SpectatorStore

from .cards import PART
from .context import Context, speaks_to
from .replies import Private, Reply, User
from .texts import and_list
from .watch import watch_control

log = logging.getLogger("teahouse.table")

LIMIT, WINDOW = 5, 5.0        # Discord's requests to one channel: 5 per 5 seconds
KEEP = 24 * 3600.0            # a finished game's card stays this long
FEWEST_MOVES, MOST_MOVES = 5, 15    # the moves a card lists: those since its last edit, within these
POLL = 30.0                   # how often a channel looks again without being told (another process's moves)
# what the bot needs in a TV channel, and their names as Discord's settings show them
NEEDED = (N_("View Channel"), N_("Send Messages"), N_("Attach Files"), N_("Read Message History"))


class Pace:
    """At most ``limit`` requests in any ``window`` seconds to one channel, as Discord counts them: a request's
    slot is taken when it begins and freed ``window`` after its answer came, so however late a request reaches
    Discord, the one ``limit`` after it cannot reach it within ``window`` of it."""

    def __init__(self, limit: int = LIMIT, window: float = WINDOW, clock=time.monotonic, margin: float = 0.02):
        self.limit, self.window, self.clock, self.margin = limit, window, clock, margin
        self._slots: list[float | None] = []       # answered at (None: still going)

    def wait(self) -> float:
        """Seconds until a request may begin (0: now)."""
        now = self.clock()
        free_at = self.window + self.margin - 1e-9         # a slot is free again this long after its answer
        self._slots = [t for t in self._slots if t is None or now - t < free_at]
        if len(self._slots) < self.limit:
            return 0.0
        done = sorted(t for t in self._slots if t is not None)
        if len(done) <= len(self._slots) - self.limit:
            return self.window / 10        # every slot is a request still going: look again shortly
        oldest = done[len(self._slots) - self.limit]
        return max(oldest + free_at - now, 1e-6)

    async def turn(self) -> int:
        """Wait for a slot and take it: its number, for ``done``."""
        while (delay := self.wait()) > 0:
            await asyncio.sleep(delay)
        self._slots.append(None)
        return len(self._slots) - 1

    def done(self, slot: int) -> None:
        if 0 <= slot < len(self._slots) and self._slots[slot] is None:
            self._slots[slot] = self.clock()
        else:                                   # pruned meanwhile: mark the first one still going
            for i, t in enumerate(self._slots):
                if t is None:
                    self._slots[i] = self.clock()
                    break


@dataclass
class Job:
    """One request to a TV channel: ``op`` post, edit or delete the card of game ``game_id`` (``message``: its
    message, None when not posted yet); ``since``: how long it has waited (the moment its game changed), the
    oldest first."""
    op: str
    game_id: int
    since: float
    message: str | None = None


class TvGone(Exception):
    """The front end cannot use the TV channel now (removed, or a permission taken away): look again later."""


class Tv:
    def __init__(self, ctx: Context, rows: SpectatorStore):
        self.ctx = ctx
        self.rows = rows
        self.waiting: dict[int, float] = {}         # game → when it changed first since its card was shown
        self._channels: dict[str, tuple[float, str | None]] = {}    # guild → (read at, its TV channel)
        self.wakes: dict[str, asyncio.Event] = {}    # a guild's channel loop is woken by a change
        ctx.listeners.append(self.touched)

    # ----- /settings tv_channel: ---------------------------------------------------------------------------
    @speaks_to(1)
    async def set_channel(self, guild: str | None, user: User, can_manage: bool, channel: str | None,
                          missing: list[str] = ()) -> Reply:
        """Set the server's TV channel (``channel`` None: none). ``missing``: the permissions the bot lacks
        there, as the front end found them (their English names, from NEEDED)."""
        if not guild:
            return Reply.fail(user.id, _("A TV channel belongs to a server."))
        if not can_manage:
            return Reply.fail(user.id, _("Only members who can manage the server can set its TV channel."))
        if channel is not None and missing:
            names = and_list(_(m) for m in missing)
            return Reply.fail(user.id, ngettext(
                "Teahouse cannot use <#{channel}> as the TV channel: it lacks the {names} permission there. Grant "
                "it, or choose another channel.",
                "Teahouse cannot use <#{channel}> as the TV channel: it lacks the {names} permissions there. Grant "
                "them, or choose another channel.", len(missing), channel=channel, names=names))
        old = await self.rows.tv_channel(guild)
        if channel == old:
            return Reply(private=[Private(user.id, _("<#{channel}> is already this server's TV channel.",
                                                     channel=channel) if channel else
                                          _("This server has no TV channel."))])
        await self.rows.set_tv_channel(guild, channel, user.id, self.ctx.clock())
        self._channels[guild] = (time.monotonic(), channel)
        self.wake(guild)
        if channel is None:
            return Reply(private=[Private(user.id, _("The TV channel is off; its cards stay as they are."))])
        return Reply(private=[Private(user.id, _("📺 <#{channel}> is this server's TV channel: one live card per "
                                                 "running game, edited after each move.", channel=channel))])

    async def channel_of(self, guild: str | None) -> str | None:
        """A server's TV channel, read at most once per POLL seconds (every move asks)."""
        if not guild:
            return None
        hit = self._channels.get(guild)
        if hit is None or time.monotonic() - hit[0] > POLL:
            hit = (time.monotonic(), await self.rows.tv_channel(guild))
            self._channels[guild] = hit
        return hit[1]

    def wake(self, guild: str) -> asyncio.Event:
        event = self.wakes.setdefault(guild, asyncio.Event())
        event.set()
        return event

    async def touched(self, kind: str, row, **data) -> None:
        """A game changed: its card waits to be shown (nothing is read or sent here: a move pays nothing)."""
        if kind in ("move", "start", "abandon") and row is not None and await self.channel_of(row.guild):
            self.waiting.setdefault(row.id, self.ctx.clock())
            self.wake(row.guild)

    # ----- what the channel needs next ---------------------------------------------------------------------
    async def jobs(self, guild: str) -> list[Job]:
        """Every request the server's TV channel waits for, the longest waiting first (one read)."""
        now = self.ctx.clock()
        channel = await self.rows.tv_channel(guild)
        if channel is None:
            return []
        jobs: list[Job] = []
        for gid, status, version, updated, message, shown, card_channel, ended in await self.rows.tv_state(guild):
            since = self.waiting.get(gid, updated)
            if card_channel is not None and card_channel != channel:
                await self.rows.drop_card(gid)             # a card of the channel before: forgotten
                card_channel = message = shown = ended = None
            if status != "running" and card_channel is None:
                continue
            if message is None:
                if status == "running":
                    jobs.append(Job("post", gid, since))
            elif shown < version or (status != "running" and ended is None):
                jobs.append(Job("edit", gid, since, message))
            elif ended is not None and now - ended >= KEEP:
                jobs.append(Job("delete", gid, ended + KEEP, message))
        jobs.sort(key=lambda j: (j.since, j.game_id))
        return jobs

    async def step(self, guild: str, send, pace: Pace | None = None) -> bool:
        """Make the channel's next request, once ``pace`` lets it: ``await send(op, channel, message, reply,
        nonce)`` posts (returning the new message's id), edits or deletes a card; it raises TvGone when the
        channel cannot be used now. False when nothing waits."""
        if not await self.jobs(guild):
            return False
        slot = await pace.turn() if pace is not None else None
        try:
            jobs = await self.jobs(guild)         # read again after the wait: the latest state goes
            if not jobs:
                return False
            await self._do(guild, jobs[0], send)
        finally:
            if pace is not None:
                pace.done(slot)
        return True

    async def _do(self, guild: str, job: Job, send) -> None:
        ctx = self.ctx
        channel = await self.rows.tv_channel(guild)
        read_at = ctx.clock()
        if job.op == "delete":
            await send("delete", channel, job.message, None, None)
            await self.rows.drop_card(job.game_id)
            return
        row = await ctx.store.game(job.game_id)
        card = await self.rows.card(row.id)
        if card is None:
            await self.rows.new_card(row.id, guild, channel)
        moves = await ctx.store.log_length(row.id)
        with i18n.speaking(await ctx.locale_of(f"guild:{guild}")), i18n.playing(row.game):
            reply = await self.card(row, card.moves if card else 0, moves)
        ended = row.status in ("finished", "abandoned")
        if job.op == "post":
            message = await send("post", channel, None, reply, f"tv{row.id}")
        else:       # None: the message is gone (deleted by hand): the card is posted again
            message = await send("edit", channel, job.message, reply, None)
        await self.rows.card_shown(row.id, message, row.version if message else 0, moves, ctx.clock(),
                                   ((card.ended_at if card and card.ended_at else ctx.clock()) if ended else None))
        if self.waiting.get(row.id, 0) <= read_at:
            self.waiting.pop(row.id, None)

    async def card(self, row: GameRow, shown_moves: int, moves: int) -> Reply:
        """A game's TV card: what it is and who plays, the table's public picture, whose turn (or the result), how
        many watch, and the latest moves newest first — every one since the card's last edit (``shown_moves``),
        at least FEWEST_MOVES, at most MOST_MOVES."""
        ctx = self.ctx
        game = GAMES.get(row.game)
        title = game.title if game else row.game
        names = ", ".join(ctx.shown(ctx.seat_name(s.user_id, s.name)) for s in row.seats)
        head = _("📺 **{title}** · game #{id} in <#{channel}> · {names}", title=title, id=row.id,
                 channel=row.channel, names=names)
        reply = Reply(game_id=row.id, version=row.version, status=row.status)
        if row.status == "abandoned" or game is None or row.state is None:
            tail = _("Abandoned.")
        else:
            game, state = ctx.state_of(row)
            reply.image = ctx.image(row, game, state, None)
            if row.status == "finished":
                tail = ctx.result_text(row, game, state)
            else:
                tail = ctx.waiting_text(row, game.to_act(state))
                reply.controls = [watch_control(row.id)]
        watching = await self.rows.count(row.id)
        if watching:
            tail = "\n".join([tail, ngettext("👀 {n} watching", "👀 {n} watching", watching)])
        count = min(max(moves - shown_moves, FEWEST_MOVES), MOST_MOVES)
        entries = await ctx.store.log(row.id, offset=max(moves - count, 0), limit=count) if moves else []
        if entries:
            lines = [f"`#{e.seq}` {ctx.said(e.line, row)}" for e in reversed(entries)]
            tail = "\n".join([tail, _("Latest moves, newest first:"), *lines])
        reply.text = head + PART + tail
        return reply

    async def run(self, guild: str, send, pace: Pace, stopping: asyncio.Event | None = None) -> None:
        """The channel's loop: a request whenever one waits and ``pace`` allows, else asleep until a change
        here (or POLL seconds, for another process's)."""
        wake = self.wakes.setdefault(guild, asyncio.Event())
        while stopping is None or not stopping.is_set():
            wake.clear()
            try:
                if await self.step(guild, send, pace):
                    continue
            except TvGone:
                log.warning("the TV channel of server %s cannot be used now; trying again later", guild)
            except Exception:
                log.exception("the TV channel of server %s failed; it goes on", guild)
            if await self.rows.tv_channel(guild) is None:
                return
            try:
                await asyncio.wait_for(wake.wait(), POLL)
            except TimeoutError:
                pass


__all__ = ["KEEP", "LIMIT", "NEEDED", "POLL", "WINDOW", "Job", "Pace", "Tv", "TvGone"]
