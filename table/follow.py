"""Following a friend (issue #49): ``/follow user:``, ``/unfollow``, ``/following``, and the direct messages a
follower gets when someone they follow starts a game, joins a league or ends a game in a server they share.

A follow is kept per server (the one it was asked in: both people are in it), so a follower hears of what happens
in the servers they share with the person, and nowhere else. The messages wait with the watchers'
(``spectator_mail``, sent by table/watch.py's ``deliver``): never in the follower's quiet hours or while they are
away, at most ``PER_DAY`` in any 24 hours (those past it are not sent), one per event however many of the table
the follower follows. Someone who wants no followers says so in ``/notify`` (``followers:off``): following them
is then refused, politely, and those who followed them before hear nothing more.
"""

from __future__ import annotations

import logging

from engine import GAMES
from i18n import _
from store.rows import BOT_PREFIX
from store.spectators import Follow, Mail, SpectatorStore

from . import clock
from .context import Context, speaks_to
from .replies import Private, Reply, User, Where
from .watch import review_control, watch_control

log = logging.getLogger("teahouse.table")

PER_DAY = 3                 # a follower's messages in any 24 hours, at most
DAY = 24 * 3600.0


class Following:
    def __init__(self, ctx: Context, rows: SpectatorStore):
        self.ctx = ctx
        self.rows = rows
        ctx.listeners.append(self.changed)

    # ----- /follow, /unfollow, /following ------------------------------------------------------------------
    @speaks_to(0)
    async def follow(self, user: User, where: Where, target: User, is_bot: bool = False) -> Reply:
        if not where.guild:
            return Reply.fail(user.id, _("Follow someone from a server you share with them."))
        if target.id == user.id:
            return Reply.fail(user.id, _("You cannot follow yourself."))
        if is_bot or target.id.startswith(BOT_PREFIX):
            return Reply.fail(user.id, _("{name} is a bot: there is nothing to follow.",
                                         name=self.ctx.shown(target.name)))
        _send, open_to = await self.rows.prefs(target.id)
        if not open_to:
            return Reply.fail(user.id, _("{name} prefers not to have followers, so you cannot follow them. You can "
                                         "still watch their games with `/game watch`.",
                                         name=self.ctx.shown(target.name)))
        mine = await self.rows.following(user.id)
        if any(f.followed == target.id and f.guild == where.guild for f in mine):
            return Reply.fail(user.id, _("You already follow {name}.", name=self.ctx.shown(target.name)))
        await self.rows.follow(Follow(user.id, target.id, where.guild, target.name, self.ctx.clock()))
        return Reply(private=[Private(user.id, _(
            "🔔 You follow {name}: a direct message comes when they start a game, join a league or end a game in "
            "this server — at most {n} a day, never in your quiet hours. `/unfollow` stops it.",
            name=self.ctx.shown(target.name), n=PER_DAY))])

    @speaks_to(0)
    async def unfollow(self, user: User, target: User) -> Reply:
        if not any(f.followed == target.id for f in await self.rows.following(user.id)):
            return Reply.fail(user.id, _("You do not follow {name}.", name=self.ctx.shown(target.name)))
        await self.rows.unfollow(user.id, target.id)
        return Reply(private=[Private(user.id, _("You no longer follow {name}.", name=self.ctx.shown(target.name)))])

    @speaks_to(0)
    async def following(self, user: User) -> Reply:
        mine = await self.rows.following(user.id)
        if not mine:
            return Reply(private=[Private(user.id, _("You follow nobody. `/follow user:` follows a friend."))])
        names = {}
        for f in mine:
            names.setdefault(f.followed, f.name)
        listed = ", ".join(self.ctx.shown(n) for n in names.values())
        return Reply(private=[Private(user.id, _("You follow: {names}.", names=listed))])

    @speaks_to(0)
    async def set_followers(self, user: User, on: bool) -> Reply:
        """``/notify followers:on|off``: whether people may follow ``user``."""
        send, _open_to = await self.rows.prefs(user.id)
        await self.rows.save_prefs(user.id, send, on)
        if on:
            return Reply(private=[Private(user.id, _("Followers: on. Friends may follow you with `/follow`."))])
        return Reply(private=[Private(user.id, _("Followers: off. Nobody can follow you now, and those who did "
                                                 "hear nothing more."))])

    # ----- what followers hear -------------------------------------------------------------------------------
    async def changed(self, kind: str, row, **data) -> None:
        if kind == "start":
            await self._tell(row.guild, [s.user_id for s in row.seats if not s.is_bot], "start", row.id,
                             exclude={s.user_id for s in row.seats})
        elif kind == "move" and row is not None and row.status == "finished":
            await self._tell(row.guild, [s.user_id for s in row.seats if not s.is_bot], "end", row.id,
                             exclude={s.user_id for s in row.seats})
        elif kind == "league":
            league, user = data["league"], data["user"]
            await self._tell(league.guild, [user.id], "league", None, league=league.id)

    async def _tell(self, guild: str | None, people: list[str], event: str, game_id: int | None,
                    exclude: set[str] = frozenset(), **extra) -> None:
        """Queue one message per follower of any of ``people`` in ``guild`` (not those in ``exclude``)."""
        if not guild or not people:
            return
        ctx = self.ctx
        by_follower: dict[str, list[str]] = {}
        for person in people:
            if not (await self.rows.prefs(person))[1]:
                continue                          # no followers wanted: nobody hears of them
            for f in await self.rows.followers(person, guild):
                if f.follower not in exclude:
                    by_follower.setdefault(f.follower, []).append(person)
        if not by_follower:
            return
        now = ctx.clock()
        hours = await ctx.timekeeping.hours(list(by_follower))
        for follower, whom in by_follower.items():
            if await self.rows.sent_since(follower, "follow", now - DAY) >= PER_DAY:
                log.info("a follower's message left out: %d in a day already", PER_DAY)
                continue
            payload = {"event": event, "people": whom, **extra}
            await self.rows.add_mail(follower, "follow", guild, game_id, payload,
                                     clock.awake_at(hours[follower], now), now)

    async def message(self, mail: Mail) -> Reply | None:
        """A follower's message, made when it is sent: who did what, where, and Watch (a running game) or
        Review (an ended one). None when it no longer applies (they unfollowed, or the person wants no
        followers now)."""
        ctx = self.ctx
        p = mail.payload
        follows = {f.followed: f.name for f in await self.rows.following(mail.user_id) if f.guild == mail.guild}
        people = [x for x in p.get("people", []) if x in follows and (await self.rows.prefs(x))[1]]
        if not people:
            return None
        names = ", ".join(ctx.shown(follows[x]) for x in people)
        if p.get("event") == "league":
            from store.leagues import LeagueStore

            league = await LeagueStore(ctx.store).league(int(p.get("league", 0)))
            if league is None:
                return None
            title = GAMES[league.game].title if league.game in GAMES else league.game
            text = _("🔔 {names} joined league #{id} ({title}) in <#{channel}>.", names=names, id=league.id,
                     title=title, channel=league.channel)
            return Reply(private=[Private(mail.user_id, text)])
        row = await ctx.store.game(mail.game_id) if mail.game_id is not None else None
        if row is None or row.game not in GAMES:
            return None
        title = GAMES[row.game].title
        if p.get("event") == "start" and row.status != "running":
            return None                   # it ended meanwhile: the end's message says it
        if p.get("event") == "start":
            text = _("🔔 {names} started a game of {title} in <#{channel}> (game #{id}).", names=names, title=title,
                     channel=row.channel, id=row.id)
        else:
            text = _("🔔 {names} finished a game of {title} in <#{channel}> (game #{id}).", names=names,
                     title=title, channel=row.channel, id=row.id)
        if row.status == "finished":
            game, state = ctx.state_of(row)
            text = "\n".join([text, ctx.result_text(row, game, state)])
            return Reply(private=[Private(mail.user_id, text)], controls=[review_control(row.id)], game_id=row.id)
        if row.status == "running":
            return Reply(private=[Private(mail.user_id, text)], controls=[watch_control(row.id)], game_id=row.id)
        return Reply(private=[Private(mail.user_id, text)], game_id=row.id)


__all__ = ["DAY", "PER_DAY", "Following"]
