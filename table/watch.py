"""Watching a game (issue #49): ``/game watch`` and ``/game unwatch``, by the channel's game or by its number from
anywhere in the server, and the direct messages a watcher gets.

A watcher of a game played in a thread is added to the thread (the front end does it: ``Reply.thread_member``),
so Discord itself tells them of each move. Anyone else is told by direct message, as they chose once: each
round's picture, or only the end with the result and a Review button. Those messages wait in the store
(``spectator_mail``) for their moment — never in the watcher's quiet hours or while they are away — and a
round's message still waiting when the next round comes is replaced by it: a watcher back from the night gets
the latest round, once. Every message is made when it is sent, from the game as it stands then, and shows what
a spectator may see: the table's public picture and words, never a hand or a secret choice.

Followers' messages (table/follow.py) wait in the same place and are sent by the same ``deliver``.
"""

from __future__ import annotations

import logging
import time

import i18n
from engine import GAMES
from i18n import _, ngettext
from store.spectators import Mail, SpectatorStore, Watcher

from . import clock
from .context import Context, speaks
from .replies import Control, Private, Reply, User, Where
from .review import round_kind, round_mark

log = logging.getLogger("teahouse.table")

SEND = ("rounds", "end")          # what a watcher's direct messages carry
WATCHERS_TTL = 30.0               # seconds a game's watchers are kept in memory


def stop_control(game_id: int) -> Control:
    """A watcher's one click to stop: under every message about the game, and the answer to a watch."""
    return Control("watch.stop", _("Stop watching"), ("game", "unwatch"), (("game", str(game_id)),), emoji="🛑")


def watch_control(game_id: int) -> Control:
    """👀 Watch, on a table's cards and under a follower's message about a running game."""
    return Control("watch", _("Watch"), ("game", "watch"), (("game", str(game_id)),), emoji="👀")


def send_controls(game_id: int) -> list[Control]:
    """The choice a first watcher makes once: what their direct messages carry."""
    return [Control("watch.rounds", _("Each round's picture"), ("game", "watch"),
                    (("game", str(game_id)), ("send", "rounds")), emoji="🖼"),
            Control("watch.end", _("Only the end"), ("game", "watch"), (("game", str(game_id)), ("send", "end")),
                    emoji="🏁")]


def review_control(game_id: int) -> Control:
    return Control("review", _("Review"), ("game", "review"), (("game", str(game_id)),), emoji="🔎")


def new_round(row, game, prev, state) -> int | None:
    """The round ``state`` begins, when the change from ``prev`` began one (else None): the view's round or hand
    number, or — for a game that numbers neither — the turn coming back to the first seat."""
    if prev is None or state is None:
        return None
    before, after = game.view(prev, None), game.view(state, None)
    kind = round_kind(after)
    was, now = round_mark(kind, game, prev, before), round_mark(kind, game, state, after)
    if kind in ("round", "hand"):
        return now if isinstance(now, int) and now != was else None
    first = row.seats[0].user_id if row.seats else None
    return 0 if now == first and was != first else None


class Watching:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.rows = SpectatorStore(ctx.store)
        self._watchers: dict[int, tuple[float, list[Watcher]]] = {}     # game → (read at, its watchers)
        ctx.listeners.append(self.changed)

    async def watchers(self, game_id: int) -> list[Watcher]:
        """A game's watchers, read at most once per WATCHERS_TTL seconds (every move asks: a move stays one read
        and one write); a watch or stop made here is seen at once, one made by another process within the TTL."""
        now = time.monotonic()
        hit = self._watchers.get(game_id)
        if hit is not None and now - hit[0] < WATCHERS_TTL:
            return hit[1]
        found = await self.rows.watchers(game_id)
        if len(self._watchers) > 10_000:                     # games not seen for a while
            self._watchers = {g: v for g, v in self._watchers.items() if now - v[0] < WATCHERS_TTL}
        self._watchers[game_id] = (now, found)
        return found

    # ----- /game watch, /game unwatch ----------------------------------------------------------------------
    async def _game(self, where: Where, user: User, game_id: int | None, statuses=("lobby", "running")):
        """The game meant: number ``game_id`` of this server, else the channel's; or the refusal that says why."""
        ctx = self.ctx
        if game_id is None:
            row = await ctx.store.open_game(where.channel)
            if row is None:
                return Reply.fail(user.id, _("There is no game in this channel to watch. Name one by its number: "
                                             "`/game watch game:<number>` (`/games` lists them)."))
        else:
            row = await ctx.store.game(game_id)
            if row is None:
                return Reply.fail(user.id, _("There is no game #{id}.", id=game_id))
            if (row.guild or None) != (where.guild or None):
                return Reply.fail(user.id, _("Game #{id} is played in another server: you can watch this "
                                             "server's games only.", id=game_id))
        if row.status not in statuses:
            return Reply.fail(user.id, _("Game #{id} has ended: step through it with `/game review game:{id}`.",
                                         id=row.id), game_id=row.id)
        return row

    @speaks
    async def watch(self, where: Where, user: User, game_id: int | None = None, send: str | None = None) -> Reply:
        """Watch a game: added to its thread, or told by direct message (``send``: rounds or end, chosen once
        and kept for every game watched after)."""
        ctx = self.ctx
        if send is not None and send not in SEND:
            return Reply.fail(user.id, _("send can be rounds or end."))
        row = await self._game(where, user, game_id)
        if isinstance(row, Reply):
            return row
        seat = row.seat_of(user.id)
        if seat is not None and not seat.removed:
            return Reply.fail(user.id, _("You play in game #{id}: its messages reach you already.", id=row.id),
                              game_id=row.id)
        title = GAMES[row.game].title if row.game in GAMES else row.game
        chosen, followers = await self.rows.prefs(user.id)
        if send is not None and send != chosen:
            await self.rows.save_prefs(user.id, send, followers)
            chosen = send
        already = any(w.game_id == row.id for w in await self.rows.watching(user.id))
        how = "thread" if row.parent_channel else "dm"
        if not already:
            await self.rows.watch(Watcher(row.id, user.id, row.guild, how, ctx.clock()))
            self._watchers.pop(row.id, None)
        controls = [stop_control(row.id)]
        if how == "thread":
            text = _("👀 You watch game #{id} ({title}): you are in its thread <#{channel}>, so Discord tells you of "
                     "each move.", id=row.id, title=title, channel=row.channel)
        elif chosen is None:
            text = _("👀 You watch game #{id} ({title}). How shall I tell you by direct message: each round's "
                     "picture, or only the end with the result? (Until you choose: only the end.)", id=row.id,
                     title=title)
            controls = send_controls(row.id) + controls
        elif chosen == "rounds":
            text = _("👀 You watch game #{id} ({title}): each round's picture comes by direct message, never in "
                     "your quiet hours or while you are away.", id=row.id, title=title)
        else:
            text = _("👀 You watch game #{id} ({title}): its end comes by direct message, with the result and a "
                     "Review button, never in your quiet hours or while you are away.", id=row.id, title=title)
        if already and send is None:
            text = _("You already watch game #{id}.", id=row.id) + "\n" + text
        reply = Reply(private=[Private(user.id, text)], controls=controls, game_id=row.id)
        if how == "thread":
            reply.thread_member = (row.channel, user.id)
        return reply

    @speaks
    async def unwatch(self, where: Where, user: User, game_id: int | None = None) -> Reply:
        """Stop watching a game (one click on any of its messages): nothing more comes about it."""
        watching = await self.rows.watching(user.id)
        if game_id is None:
            row = await self.ctx.store.open_game(where.channel)
            game_id = row.id if row is not None else None
            if game_id is None or not any(w.game_id == game_id for w in watching):
                if len(watching) == 1:
                    game_id = watching[0].game_id
                else:
                    return Reply.fail(user.id, self._not_watching(watching))
        if not any(w.game_id == game_id for w in watching):
            return Reply.fail(user.id, _("You do not watch game #{id}.", id=game_id) + "\n" +
                              self._not_watching(watching))
        await self.rows.unwatch(game_id, user.id)
        self._watchers.pop(game_id, None)
        return Reply(private=[Private(user.id, _("You no longer watch game #{id}; nothing more comes about it.",
                                                 id=game_id))], game_id=game_id)

    @staticmethod
    def _not_watching(watching: list[Watcher]) -> str:
        if not watching:
            return _("You watch no game.")
        return _("You watch: {games}. Say which: `/game unwatch game:<number>`.",
                 games=", ".join(f"#{w.game_id}" for w in watching))

    async def count(self, game_id: int) -> int:
        return len(await self.watchers(game_id))

    async def watching_line(self, game_id: int) -> str:
        """"👀 2 watching" under a table's card, or nothing when nobody watches."""
        n = await self.count(game_id)
        return ngettext("👀 {n} watching", "👀 {n} watching", n) if n else ""

    # ----- a game changed: its watchers' messages ----------------------------------------------------------
    async def changed(self, kind: str, row, **data) -> None:
        if row is None:
            return
        if kind == "start":
            await self.watchers(row.id)           # known before the first move, which then reads nothing more
            return
        if kind not in ("move", "abandon"):
            return
        ended = row.status in ("finished", "abandoned")
        dm = [w for w in await self.watchers(row.id) if w.how == "dm"]
        if ended:
            self._watchers.pop(row.id, None)
        if not dm:
            return
        if not ended and new_round(row, data.get("game"), data.get("prev"), data.get("state")) is None:
            return
        now = self.ctx.clock()
        hours = await self.ctx.timekeeping.hours([w.user_id for w in dm])
        for w in dm:
            due = clock.awake_at(hours[w.user_id], now)
            if ended:
                await self.rows.add_mail(w.user_id, "end", row.guild, row.id, {}, due, now)
                continue
            if ((await self.rows.prefs(w.user_id))[0] or "end") != "rounds":
                continue
            waiting = await self.rows.pending(w.user_id, "round", row.id)
            if waiting is not None:       # the newer round replaces it: the latest is shown, once
                await self.rows.replace_mail(waiting.id, {}, max(waiting.due, due) if waiting.due > now else due)
            else:
                await self.rows.add_mail(w.user_id, "round", row.guild, row.id, {}, due, now)

    # ----- sending what waits --------------------------------------------------------------------------------
    async def next_due(self) -> float | None:
        return await self.rows.next_mail()

    async def deliver(self, send, make_follow=None) -> int:
        """Send every waiting message whose moment came: ``await send(user_id, reply, nonce)`` (the reply's
        private part with its picture, and its ``controls``). One in someone's quiet hours (they changed them
        since) waits on. A message is marked sent once ``send`` returned: ``send`` raises to try again later,
        and swallows what can never go (closed direct messages). Returns how many went."""
        ctx = self.ctx
        now = ctx.clock()
        sent = 0
        for mail in await self.rows.due_mail(now):
            hours = (await ctx.timekeeping.hours([mail.user_id]))[mail.user_id]
            if clock.is_quiet(hours, now):
                await self.rows.mail_later(mail.id, clock.awake_at(hours, now))
                continue
            with i18n.speaking(await ctx.locale_of(f"user:{mail.user_id}")):
                if mail.kind == "follow":
                    reply = await make_follow(mail) if make_follow is not None else None
                else:
                    reply = await self.message(mail)
            if reply is not None:
                await send(mail.user_id, reply, f"sp{mail.id}")
                sent += 1
            await self.rows.mail_sent(mail.id, now)
        return sent

    async def message(self, mail: Mail) -> Reply | None:
        """A watcher's message, made from the game as it stands: the round's public picture and whose turn, or
        the result with Review; None when it no longer applies (they stopped watching)."""
        ctx = self.ctx
        row = await ctx.store.game(mail.game_id) if mail.game_id is not None else None
        if row is None or not any(w.game_id == row.id for w in await self.rows.watching(mail.user_id)):
            return None
        game = GAMES.get(row.game)
        title = game.title if game else row.game
        if mail.kind == "round" and row.status != "running":
            return None                   # the end's own message says it
        with i18n.playing(row.game):
            if row.status == "abandoned":
                text = _("👀 Game #{id} ({title}) in <#{channel}> was abandoned.", id=row.id, title=title,
                         channel=row.channel)
                return Reply(private=[Private(mail.user_id, text)], controls=[], game_id=row.id)
            game, state = ctx.state_of(row)
            picture = ctx.image(row, game, state, None)
            if row.status == "finished":
                text = "\n".join([_("👀 Game #{id} ({title}) in <#{channel}> has ended.", id=row.id, title=title,
                                    channel=row.channel), ctx.result_text(row, game, state)])
                return Reply(private=[Private(mail.user_id, text, picture)], controls=[review_control(row.id)],
                             game_id=row.id)
            text = "\n".join([_("👀 Game #{id} ({title}) in <#{channel}>: a new round.", id=row.id, title=title,
                                channel=row.channel), ctx.waiting_text(row, game.to_act(state))])
            return Reply(private=[Private(mail.user_id, text, picture)], controls=[stop_control(row.id)],
                         game_id=row.id)


__all__ = ["SEND", "Watching", "new_round", "review_control", "send_controls", "stop_control", "watch_control"]
