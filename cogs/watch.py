"""Spectators on Discord (issue #49): ``/game watch`` and ``/game unwatch`` (their commands are in cogs/game.py's
group; the work is here), the 👀 and 🛑 buttons, ``/follow``, ``/unfollow``, ``/following``, the watchers' and
followers' direct messages, and the TV channel's loop. Thin: table/watch.py, follow.py and tv.py decide.

The TV channel's requests are paced in this process (``table.tv.Pace``: 5 per 5 seconds to the channel, counted
as Discord counts them); a 429 Discord answers all the same is waited out and the request made again by
discord.py, so a card's edit is never lost, and a card is posted again only when Discord said it was not.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from table import Reply, User, Where
from table.replies import Control
from table.tv import NEEDED, WINDOW, Pace, TvGone

from . import cards, ui
from .ui import NO_PINGS, who

log = logging.getLogger("teahouse.discord")


def controls_rows(controls: list[Control]) -> list[discord.ui.ActionRow]:
    """A spectator's controls (table/watch.py) as buttons: 👀 Watch, the choice of what comes, 🛑 Stop, 🔎 Review."""
    buttons = []
    for c in controls:
        game_id = int(dict(c.options).get("game", "0") or 0)
        if c.key == "review":
            buttons.append(ui.ReviewButton(game_id))
        elif c.key in ("watch", "watch.rounds", "watch.end", "watch.stop"):
            buttons.append(ui.WatchButton(game_id, {"watch": "watch", "watch.rounds": "rounds", "watch.end": "end",
                                                    "watch.stop": "stop"}[c.key]))
    return ui.rows(buttons)


async def watch(cog, interaction: discord.Interaction, game_id: int | None, send: str | None,
                stop: bool = False) -> None:
    """/game watch, /game unwatch and their buttons: answered privately, with the buttons that go with it."""
    user, where = who(interaction)

    async def work():
        here = await from_direct_message(cog, interaction, where, game_id)
        svc = cog.service.watching
        reply = await (svc.unwatch(here, user, game_id) if stop else svc.watch(here, user, game_id, send))
        await join_thread(cog, reply)
        return ui_answer(reply)

    await cog.guarded(interaction, work, private=True)


async def from_direct_message(cog, interaction: discord.Interaction, where: Where, game_id: int | None) -> Where:
    """Where a button under a direct message about a game acts (a follower's Watch, a watcher's Stop, Review):
    that game's channel and server, as the bot itself named the game there. Anywhere else: where it is."""
    if where.guild is None and game_id is not None and interaction.type == discord.InteractionType.component:
        row = await cog.service.store.game(game_id)
        if row is not None:
            return Where(row.channel, row.guild, where.locale)
    return where


def ui_answer(reply: Reply):
    from .sending import Answer

    return Answer(reply, controls_rows(reply.controls)) if reply.ok and reply.controls else reply


async def on_watch(cog, interaction, kind, game_id, version, arg) -> None:
    """A 👀 / 🖼 / 🏁 / 🛑 button: watch, choose what comes, or stop."""
    if arg == "stop":
        await watch(cog, interaction, game_id, None, stop=True)
    else:
        await watch(cog, interaction, game_id, arg if arg in ("rounds", "end") else None)


async def join_thread(cog, reply: Reply) -> None:
    """A watcher of a game in a thread is added to it: Discord itself tells them of each move."""
    if not reply.ok or reply.thread_member is None:
        return
    thread_id, user_id = reply.thread_member
    try:
        thread = await cog.channel(thread_id)
        await thread.add_user(discord.Object(int(user_id)))
    except (discord.HTTPException, ValueError, AttributeError):
        log.warning("could not add a watcher to the thread %s", thread_id)


async def direct_message(bot, user_id: str, reply: Reply, nonce: str) -> None:
    """A watcher's or follower's message (table/watch.py ``deliver``): raises to be tried again later, unless
    it can never go (closed direct messages, an unknown user)."""
    try:
        user = bot.get_user(int(user_id)) or await bot.fetch_user(int(user_id))
        gamecog = bot.get_cog("GameCog")
        game = await gamecog.game_key(reply) if gamecog else None
        await reply.render()
        ui.in_discord_times(reply)
        part = reply.private[0]
        message = cards.private(part, controls_rows(reply.controls), game)
        await user.send(**message.send(allowed_mentions=NO_PINGS, nonce=nonce))
    except (discord.NotFound, discord.Forbidden, ValueError):
        log.info("a spectator's direct message could not be sent (game %s)", reply.game_id)


def missing_permissions(channel, me) -> list[str]:
    """What the bot lacks in ``channel`` of what a TV channel needs (their English names, table/tv.py NEEDED)."""
    perms = channel.permissions_for(me)
    have = (perms.view_channel, perms.send_messages, perms.attach_files, perms.read_message_history)
    return [name for name, ok in zip(NEEDED, have, strict=True) if not ok]


class SpectatorCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.window = WINDOW             # Discord's window of 5 requests a channel (a test compresses time)
        self.loops: dict[str, asyncio.Task] = {}
        self.paces: dict[str, Pace] = {}
        self.stopping = asyncio.Event()
        self._starter: asyncio.Task | None = None

    @property
    def service(self):
        return self.bot.service

    async def cog_load(self) -> None:
        self._starter = asyncio.create_task(self._start_all(), name="teahouse-tv")

    async def cog_unload(self) -> None:
        self.stopping.set()
        for task in [self._starter, *self.loops.values()]:
            if task is not None and not task.done():
                task.cancel()

    async def _start_all(self) -> None:
        """Once connected, every TV channel of this process's shards' servers gets its loop."""
        await self.bot.wait_until_ready()
        try:
            for guild in await self.service.tv.rows.tv_channels():
                self.start_tv(guild)
        except Exception:
            log.exception("the TV channels could not be read; they start on the next change")

    def start_tv(self, guild: str) -> None:
        task = self.loops.get(guild)
        if task is not None and not task.done():
            self.service.tv.wake(guild)
            return
        pace = self.paces.setdefault(guild, Pace(window=self.window))
        self.loops[guild] = asyncio.create_task(self.service.tv.run(guild, self.tv_send, pace, self.stopping),
                                                name=f"teahouse-tv-{guild}")

    async def tv_send(self, op: str, channel_id: str, message_id: str | None, reply: Reply | None,
                      nonce: str | None) -> str | None:
        """A TV card posted (its new message's id), edited (its id; None when the message is gone) or deleted."""
        gamecog = self.bot.get_cog("GameCog")
        try:
            channel = await gamecog.channel(channel_id)
            if op == "delete":
                try:
                    await channel.get_partial_message(int(message_id)).delete()
                except discord.NotFound:
                    pass
                return None
            await reply.render()
            ui.in_discord_times(reply)
            message = cards.public(reply, controls_rows(reply.controls), await gamecog.game_key(reply),
                                   mention=False)
            if op == "post":
                sent = await channel.send(**message.send(allowed_mentions=NO_PINGS, nonce=nonce))
                return str(sent.id)
            try:
                await channel.get_partial_message(int(message_id)).edit(**message.edit(allowed_mentions=NO_PINGS))
            except discord.NotFound:
                return None
            return message_id
        except (discord.Forbidden, discord.NotFound) as e:
            raise TvGone(str(e)) from e

    @app_commands.command(name="follow", description="A direct message when a friend starts, ends or joins "
                                                       "something here")
    @app_commands.guild_only()
    @app_commands.describe(user="Whom to follow")
    async def follow(self, interaction: discord.Interaction, user: discord.User):
        me, where = who(interaction)
        target = User(str(user.id), getattr(user, "display_name", None) or user.name)
        await self.answer(interaction, lambda: self.service.following.follow(me, where, target, user.bot))

    @app_commands.command(name="unfollow", description="Stop following someone")
    @app_commands.describe(user="Whom to stop following")
    async def unfollow(self, interaction: discord.Interaction, user: discord.User):
        me, _where = who(interaction)
        target = User(str(user.id), getattr(user, "display_name", None) or user.name)
        await self.answer(interaction, lambda: self.service.following.unfollow(me, target))

    @app_commands.command(name="following", description="Whom you follow")
    async def following(self, interaction: discord.Interaction):
        me, _where = who(interaction)
        await self.answer(interaction, lambda: self.service.following.following(me))

    async def answer(self, interaction: discord.Interaction, work) -> None:
        await self.bot.get_cog("GameCog").guarded(interaction, work, private=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SpectatorCog(bot))
