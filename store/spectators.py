"""Spectators in the store (issue #49): watchers, follows, people's choices about both, the direct messages that
wait for their moment, and a server's TV channel with its cards — for SQLite and PostgreSQL alike. The service
is table/watch.py, table/follow.py and table/tv.py; this module knows nothing of them.

What a process sends (the waiting messages, the TV cards) is of its own shards' servers only, as the outbox is:
a row without a server (a direct message's game, the console) is shard 0's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import BigInteger, Double, Integer, Text, bindparam, delete, func, insert, select, true, update

from .dialects import ShardOf, upsert
from .schema import follows, games, spectator_mail, spectator_prefs, tv_cards, tv_channels, watchers
from .store import Store


def _p(name: str, type_=Text):
    return bindparam(name, type_=type_)


@dataclass
class Watcher:
    game_id: int
    user_id: str
    guild: str | None
    how: str            # thread: added to the game's thread; dm: told by direct message
    since: float


@dataclass
class Follow:
    follower: str
    followed: str
    guild: str
    name: str
    since: float


@dataclass
class Mail:
    id: int
    user_id: str
    kind: str           # round, end, follow
    guild: str | None
    game_id: int | None
    payload: dict
    due: float
    created_at: float


@dataclass
class TvCard:
    game_id: int
    guild: str | None
    channel: str
    message: str | None
    shown: int
    moves: int
    shown_at: float | None
    ended_at: float | None


WATCHERS = select(watchers).where(watchers.c.game_id == _p("game_id", BigInteger)).order_by(watchers.c.since)
WATCHING = select(watchers).where(watchers.c.user_id == _p("user_id")).order_by(watchers.c.since)
WATCH_COUNT = select(func.count()).select_from(watchers).where(watchers.c.game_id == _p("game_id", BigInteger))
UNWATCH = delete(watchers).where(watchers.c.game_id == _p("game_id", BigInteger),
                                 watchers.c.user_id == _p("user_id"))
PREFS = select(spectator_prefs).where(spectator_prefs.c.user_id == _p("user_id"))
FOLLOWING = select(follows).where(follows.c.follower == _p("follower")).order_by(follows.c.since)
FOLLOWERS = select(follows).where(follows.c.followed == _p("followed"), follows.c.guild == _p("guild"))
UNFOLLOW = delete(follows).where(follows.c.follower == _p("follower"), follows.c.followed == _p("followed"))
PENDING = select(spectator_mail).where(spectator_mail.c.user_id == _p("user_id"),
                                       spectator_mail.c.kind == _p("kind"),
                                       spectator_mail.c.game_id == _p("game_id", BigInteger),
                                       spectator_mail.c.sent.is_(None))
SENT_SINCE = select(func.count()).select_from(spectator_mail).where(
    spectator_mail.c.user_id == _p("user_id"), spectator_mail.c.kind == _p("kind"),
    spectator_mail.c.created_at >= _p("since", Double))
MAIL_DONE = update(spectator_mail).where(spectator_mail.c.id == _p("mail", BigInteger)).values(sent=_p("at", Double))
MAIL_LATER = update(spectator_mail).where(spectator_mail.c.id == _p("mail", BigInteger)).values(due=_p("d", Double))
MAIL_NEW = insert(spectator_mail)
MAIL_REPLACE = update(spectator_mail).where(spectator_mail.c.id == _p("mail", BigInteger)).values(
    payload=_p("body"), due=_p("d", Double))
MAIL_DROP_GAME = delete(spectator_mail).where(spectator_mail.c.user_id == _p("user_id"),
                                              spectator_mail.c.game_id == _p("game_id", BigInteger),
                                              spectator_mail.c.sent.is_(None))
TV_CHANNEL = select(tv_channels).where(tv_channels.c.guild == _p("guild"))
TV_UNSET = delete(tv_channels).where(tv_channels.c.guild == _p("guild"))
CARD = select(tv_cards).where(tv_cards.c.game_id == _p("game_id", BigInteger))
CARDS_OF = select(tv_cards).where(tv_cards.c.guild == _p("guild")).order_by(tv_cards.c.game_id)
# what a TV channel must show, in one read: its server's running games and the games of its cards, each with
# what the card shows (the game's id, status, version and last change; the card's columns, None without one)
_TV_COLUMNS = (games.c.id, games.c.status, games.c.version, games.c.updated_at, tv_cards.c.message, tv_cards.c.shown,
               tv_cards.c.channel, tv_cards.c.ended_at)
TV_STATE = (select(*_TV_COLUMNS).select_from(games.outerjoin(tv_cards, tv_cards.c.game_id == games.c.id))
            .where(games.c.guild == _p("guild"), games.c.status == "running")
            .union(select(*_TV_COLUMNS).select_from(tv_cards.join(games, games.c.id == tv_cards.c.game_id))
                   .where(tv_cards.c.guild == _p("guild"))))
CARD_NEW = insert(tv_cards)
CARD_DROP = delete(tv_cards).where(tv_cards.c.game_id == _p("game_id", BigInteger))
CARD_SHOWN = update(tv_cards).where(tv_cards.c.game_id == _p("game", BigInteger)).values(
    message=_p("msg"), shown=_p("version", Integer), moves=_p("length", Integer), shown_at=_p("at", Double),
    ended_at=_p("ended", Double))


def _mail(r) -> Mail:
    return Mail(r.id, r.user_id, r.kind, r.guild, r.game_id, json.loads(r.payload), r.due, r.created_at)


def _card(r) -> TvCard:
    return TvCard(r.game_id, r.guild, r.channel, r.message, r.shown, r.moves, r.shown_at, r.ended_at)


class SpectatorStore:
    """The spectators' rows in ``store``."""

    def __init__(self, store: Store):
        self.store = store
        self._sql: dict | None = None

    def sql(self) -> dict:
        """The statements that depend on the dialect (upserts) and on the process's shards, built once."""
        if self._sql is None:
            side, shards = self.store.side.name, self.store.shards

            def mine(column):
                return true() if shards is None else ShardOf(column, shards.count).in_(list(shards.ids))
            self._sql = {
                "watch": upsert(side, watchers, ["game_id", "user_id"]),
                "prefs": upsert(side, spectator_prefs, ["user_id"]),
                "follow": upsert(side, follows, ["follower", "followed", "guild"]),
                "tv": upsert(side, tv_channels, ["guild"]),
                "due": (select(spectator_mail).where(spectator_mail.c.sent.is_(None),
                                                     spectator_mail.c.due <= _p("now", Double),
                                                     mine(spectator_mail.c.guild))
                        .order_by(spectator_mail.c.due, spectator_mail.c.id).limit(_p("limit", Integer))),
                "next": select(func.min(spectator_mail.c.due)).where(spectator_mail.c.sent.is_(None),
                                                                     mine(spectator_mail.c.guild)),
                "tv_all": select(tv_channels).where(mine(tv_channels.c.guild)).order_by(tv_channels.c.guild),
            }
        return self._sql

    async def _write(self, stmt, params: dict | list[dict]):
        async def work(conn):
            return await conn.execute(stmt, params)
        return await self.store.transaction(work)

    # ----- watchers --------------------------------------------------------------------------------------
    async def watchers(self, game_id: int) -> list[Watcher]:
        return [Watcher(r.game_id, r.user_id, r.guild, r.how, r.since)
                for r in await self.store.select(WATCHERS, {"game_id": game_id})]

    async def watching(self, user_id: str) -> list[Watcher]:
        return [Watcher(r.game_id, r.user_id, r.guild, r.how, r.since)
                for r in await self.store.select(WATCHING, {"user_id": user_id})]

    async def count(self, game_id: int) -> int:
        rows = await self.store.select(WATCH_COUNT, {"game_id": game_id})
        return int(rows[0][0]) if rows else 0

    async def watch(self, w: Watcher) -> None:
        await self._write(self.sql()["watch"], {"game_id": w.game_id, "user_id": w.user_id, "guild": w.guild,
                                                "how": w.how, "since": w.since})

    async def unwatch(self, game_id: int, user_id: str) -> None:
        """Stop ``user_id`` watching; their messages about that game still waiting go too."""
        async def work(conn):
            await conn.execute(UNWATCH, {"game_id": game_id, "user_id": user_id})
            await conn.execute(MAIL_DROP_GAME, {"game_id": game_id, "user_id": user_id})
        await self.store.transaction(work)

    # ----- people's choices ------------------------------------------------------------------------------
    async def prefs(self, user_id: str) -> tuple[str | None, bool]:
        """(what a watched game's direct messages carry: rounds, end or None not chosen; whether they accept
        followers)."""
        rows = await self.store.select(PREFS, {"user_id": user_id})
        return (rows[0].watch_dm, bool(rows[0].followers)) if rows else (None, True)

    async def save_prefs(self, user_id: str, watch_dm: str | None, followers: bool) -> None:
        await self._write(self.sql()["prefs"], {"user_id": user_id, "watch_dm": watch_dm,
                                                "followers": int(followers)})

    # ----- follows ---------------------------------------------------------------------------------------
    async def following(self, follower: str) -> list[Follow]:
        return [Follow(r.follower, r.followed, r.guild, r.name, r.since)
                for r in await self.store.select(FOLLOWING, {"follower": follower})]

    async def followers(self, followed: str, guild: str) -> list[Follow]:
        return [Follow(r.follower, r.followed, r.guild, r.name, r.since)
                for r in await self.store.select(FOLLOWERS, {"followed": followed, "guild": guild})]

    async def follow(self, f: Follow) -> None:
        await self._write(self.sql()["follow"], {"follower": f.follower, "followed": f.followed, "guild": f.guild,
                                                 "name": f.name, "since": f.since})

    async def unfollow(self, follower: str, followed: str) -> None:
        await self._write(UNFOLLOW, {"follower": follower, "followed": followed})

    # ----- direct messages waiting for their moment ------------------------------------------------------
    async def pending(self, user_id: str, kind: str, game_id: int) -> Mail | None:
        rows = await self.store.select(PENDING, {"user_id": user_id, "kind": kind, "game_id": game_id})
        return _mail(rows[0]) if rows else None

    async def sent_since(self, user_id: str, kind: str, since: float) -> int:
        """How many messages of ``kind`` were queued for ``user_id`` since ``since`` (sent or waiting)."""
        rows = await self.store.select(SENT_SINCE, {"user_id": user_id, "kind": kind, "since": since})
        return int(rows[0][0]) if rows else 0

    async def add_mail(self, user_id: str, kind: str, guild: str | None, game_id: int | None, payload: dict,
                       due: float, now: float) -> None:
        await self._write(MAIL_NEW, {"user_id": user_id, "kind": kind, "guild": guild, "game_id": game_id,
                                     "payload": json.dumps(payload, sort_keys=True), "due": due, "created_at": now,
                                     "sent": None})

    async def replace_mail(self, mail_id: int, payload: dict, due: float) -> None:
        await self._write(MAIL_REPLACE, {"mail": mail_id, "body": json.dumps(payload, sort_keys=True), "d": due})

    async def due_mail(self, now: float, limit: int = 100) -> list[Mail]:
        return [_mail(r) for r in await self.store.select(self.sql()["due"], {"now": now, "limit": limit})]

    async def next_mail(self) -> float | None:
        rows = await self.store.select(self.sql()["next"])
        return rows[0][0] if rows else None

    async def mail_sent(self, mail_id: int, at: float) -> None:
        await self._write(MAIL_DONE, {"mail": mail_id, "at": at})

    async def mail_later(self, mail_id: int, due: float) -> None:
        await self._write(MAIL_LATER, {"mail": mail_id, "d": due})

    # ----- the TV channel --------------------------------------------------------------------------------
    async def tv_channel(self, guild: str) -> str | None:
        rows = await self.store.select(TV_CHANNEL, {"guild": guild})
        return rows[0].channel if rows else None

    async def tv_channels(self) -> dict[str, str]:
        """Every server of this process's shards with a TV channel: guild → channel."""
        return {r.guild: r.channel for r in await self.store.select(self.sql()["tv_all"])}

    async def set_tv_channel(self, guild: str, channel: str | None, user_id: str, now: float) -> None:
        """Set (or, with None, turn off) a server's TV channel; the cards of the old one are forgotten (the
        service deletes their messages first)."""
        async def work(conn):
            if channel is None:
                await conn.execute(TV_UNSET, {"guild": guild})
            else:
                await conn.execute(self.sql()["tv"], {"guild": guild, "channel": channel, "set_by": user_id,
                                                      "set_at": now})
            await conn.execute(delete(tv_cards).where(tv_cards.c.guild == guild))
        await self.store.transaction(work)

    async def tv_state(self, guild: str) -> list:
        """(id, status, version, updated_at, message, shown, channel, ended_at) of each game the server's TV
        channel shows or must show: its running games and those with a card."""
        return await self.store.select(TV_STATE, {"guild": guild})

    async def card(self, game_id: int) -> TvCard | None:
        rows = await self.store.select(CARD, {"game_id": game_id})
        return _card(rows[0]) if rows else None

    async def cards(self, guild: str) -> list[TvCard]:
        return [_card(r) for r in await self.store.select(CARDS_OF, {"guild": guild})]

    async def new_card(self, game_id: int, guild: str | None, channel: str) -> None:
        await self._write(CARD_NEW, {"game_id": game_id, "guild": guild, "channel": channel, "message": None,
                                     "shown": 0, "moves": 0, "shown_at": None, "ended_at": None})

    async def card_shown(self, game_id: int, message: str | None, shown: int, moves: int, at: float,
                         ended_at: float | None) -> None:
        await self._write(CARD_SHOWN, {"game": game_id, "msg": message, "version": shown, "length": moves,
                                       "at": at, "ended": ended_at})

    async def drop_card(self, game_id: int) -> None:
        await self._write(CARD_DROP, {"game_id": game_id})


__all__ = ["Follow", "Mail", "SpectatorStore", "TvCard", "Watcher"]
