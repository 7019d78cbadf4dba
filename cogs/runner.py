"""Building and running the Discord bot: intents, cogs, command sync, clean shutdown."""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import pkgutil
import re
import signal
import sys
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from render import workers as rendering
from store import Store, open_store
from store.shards import Shards
from store.store import StoreError
from table import TableService
from table.errors import store_failed

from . import cards, observe, shutdown, ui, watch
from .budget import Sends

log = logging.getLogger("teahouse")

COG_DIR = Path(__file__).resolve().parent
TOKEN = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")   # three parts; no spaces or newlines
NOT_COGS = {"runner", "ui", "common", "shutdown", "cards", "sending"}


def cog_modules() -> list[str]:
    """Every module in cogs/ that has a ``setup`` (the shared helpers have none)."""
    names = []
    for info in pkgutil.iter_modules([str(COG_DIR)]):
        if info.name in NOT_COGS or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"cogs.{info.name}")
        if hasattr(module, "setup"):
            names.append(f"cogs.{info.name}")
    return sorted(names)


# where a command-tree string stands → its context in the commands catalog (names differ from descriptions)
_CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: "command",
    app_commands.TranslationContextLocation.group_name: "command",
    app_commands.TranslationContextLocation.parameter_name: "option",
    app_commands.TranslationContextLocation.choice_name: "choice",
}


class CatalogTranslator(app_commands.Translator):
    """Slash commands, options and choices in every language we have a catalog for (#17): discord.py asks
    for each string in each of Discord's locales when it syncs, and sends the answers as localizations."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        return translate_command(string.message, locale.value, _CONTEXTS.get(context.location))


def translate_command(message: str, locale: str, context: str | None) -> str | None:
    """The translation of a command-tree string, or None (Discord then shows the English)."""
    lang = i18n.normalise(locale)
    if lang == i18n.DEFAULT or not locale.lower().startswith(lang):
        return None
    catalog = i18n.catalog(lang)
    text = catalog.pgettext(context, message) if context else catalog.gettext(message)
    return text if text and text != message else None


class TeahouseBot(commands.Bot):
    def __init__(self, store: Store, *, dev_guild: str | None = None, service: TableService | None = None,
                 **options):
        # Slash commands and components need no privileged intent; guilds gives channels and threads.
        intents = discord.Intents.none()
        intents.guilds = True
        # Discord's global limit, shared with the bot's other processes: counted requests wait their turn (#50)
        shards = store.shards
        self.sends = Sends(store, processes=shards.count // len(shards.ids) if shards else 1)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
                         tree_cls=observe.ObservedTree, http_trace=self.sends.trace(), **options)
        self.store = store
        self.service = service or TableService(store, escape=ui.safe)
        self.service.escape = ui.safe          # names in Discord messages never format or mention
        self.dev_guild = dev_guild
        self.metrics = None        # table.metrics.Metrics when METRICS_PORT is set (cogs/observe.py)
        self.scheduler: asyncio.Task | None = None
        self.scheduler_busy = False          # in a pass (firing, sending): a stop lets it finish
        self.gate = shutdown.Gate()          # interactions in flight; closed when the bot stops
        self.left_running = 0                # what still ran when the bot stopped waiting for it
        self.tick = 60.0   # the longest the scheduler sleeps; it wakes sooner for a due timer

    async def setup_hook(self) -> None:
        if self.store.closed:
            await self.store.open()
        self.add_dynamic_items(*ui.DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogTranslator())
        for name in cog_modules():
            await self.load_extension(name)
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = self.admit
        self.scheduler = asyncio.create_task(self.run_scheduler(), name="teahouse-scheduler")
        shard_ids = getattr(self, "shard_ids", None)     # a sharded bot: the process on shard 0 syncs, once
        if shard_ids is not None and 0 not in shard_ids:
            log.info("on shards %s: the process on shard 0 syncs the commands", ",".join(map(str, shard_ids)))
        elif self.dev_guild:
            guild = discord.Object(int(self.dev_guild))
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.dev_guild)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (Discord may take up to an hour to show them)", len(synced))

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Let a command or click in, counted as in flight; once the bot stops, answer "restarting" instead."""
        if self.gate.admit():
            return True
        await ui.restarting(interaction)
        return False

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        cause = getattr(error, "original", error)
        if isinstance(cause, StoreError):        # the database cannot be used: words for people (#38)
            with ui.to_user(interaction):
                text = store_failed(cause)
            await ui.apologize(interaction, text)
            return
        log.error("command failed in channel %s", interaction.channel_id, exc_info=error)
        await ui.apologize(interaction)

    async def run_scheduler(self) -> None:
        """Reminders, deadlines and reaction windows: the timers live in the database, so a restart picks
        them up where they were; each fires once (the store claims it before it is sent)."""
        await self.wait_until_ready()
        while not self.is_closed() and self.gate.open:
            self.scheduler_busy = True
            try:
                await self.send_due()
            except Exception:
                log.exception("the scheduler failed; it goes on")
            try:
                nxt = min((t for t in (await self.service.next_due(), await self.service.next_spectator_mail())
                           if t is not None), default=None)
            except Exception:       # the database is away for a moment (a server restarting): try again later
                log.exception("the scheduler could not read the next timer; it goes on")
                nxt = None
            finally:
                self.scheduler_busy = False
            delay = self.tick if nxt is None else min(self.tick, max(0.5, nxt - self.service.clock()))
            await self.gate.sleep(delay)

    async def send_due(self) -> None:
        """Fire what is due into the outbox, then send the outbox (what a crash left unsent goes first)."""
        await self.service.fire_due()
        await self.service.deliver(self.notice_to_channel, self.notice_to_user)
        await self.service.spectator_mail(self.spectator_dm)         # watchers' and followers' (#49)

    async def spectator_dm(self, user_id: str, reply, nonce: str) -> None:
        await watch.direct_message(self, user_id, reply, nonce)

    async def notice_to_channel(self, notice) -> None:
        """Post a notice; raises (so it is retried) unless the channel is gone or closed to us for good.
        The nonce makes Discord drop a second copy of a message resent after a crash."""
        try:
            await self.get_cog("GameCog").post(notice.channel, notice.reply, nonce=notice.nonce(0))
        except (discord.NotFound, discord.Forbidden):
            log.warning("cannot post to channel %s (game %s); the notice is dropped", notice.channel,
                        notice.reply.game_id)

    async def notice_to_user(self, notice, dm, part: int) -> None:
        try:
            user = self.get_user(int(dm.user)) or await self.fetch_user(int(dm.user))
            game = await self.get_cog("GameCog").game_key(notice.reply)
            message = cards.words(f"{dm.text} <#{notice.channel}>", game)
            await user.send(**message.send(allowed_mentions=ui.NO_PINGS, nonce=notice.nonce(part)))
        except (discord.NotFound, discord.Forbidden, ValueError):
            log.info("a direct message could not be sent (game %s)", notice.reply.game_id)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def close(self) -> None:
        # new interactions refused; those in flight and the scheduler's pass finish (or are left, counted)
        self.left_running = await shutdown.drain(self)
        await super().close()
        await self.store.close()


class ShardedTeahouseBot(TeahouseBot, commands.AutoShardedBot):
    """The bot on some of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``): several processes, one database.
    Its store fires the timers and sends the notices of its shards' servers only."""


def make_bot(store, *, shards: Shards | None = None, **options) -> TeahouseBot:
    if shards is None:
        return TeahouseBot(store, **options)
    store.shards = shards
    return ShardedTeahouseBot(store, shard_count=shards.count, shard_ids=list(shards.ids), **options)


async def serve(token: str, db_path: Path | str, dev_guild: str | None = None, idle_abandon_hours: float = 24,
                shards: Shards | None = None, metrics_at: tuple[str, int] | None = None) -> int:
    store = open_store(db_path, shards)     # a SQLite file, or DATABASE_URL's PostgreSQL
    try:
        # before logging in: a database that cannot be used stops us at once; a migration runs in a process of
        # its own (Alembic never stays in the bot's memory)
        await store.open(apart=True)
    except StoreError as e:
        print(f"teahouse: {e}", file=sys.stderr)
        return 1
    rendering.start()              # images are drawn in worker processes (IMAGE_WORKERS, else cores - 1)
    bot = make_bot(store, shards=shards, dev_guild=dev_guild,
                   service=TableService(store, idle_abandon_seconds=idle_abandon_hours * 3600, escape=ui.safe))
    bot.service.analyses.use_processes()     # analyses in worker processes at the lowest priority (#37)
    if shards is not None:
        log.info("on shards %s of %d", ",".join(map(str, shards.ids)), shards.count)
    try:
        metrics = await observe.start_metrics(bot, *metrics_at) if metrics_at else None
    except OSError as e:            # the port is taken, or the address is not this machine's
        reason = os.strerror(e.errno) if e.errno else str(e)
        print(f"teahouse: cannot serve the metrics on {metrics_at[0]}:{metrics_at[1]}: {reason}", file=sys.stderr)
        await store.close()
        rendering.stop()
        return 1
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stopping.set)
        except NotImplementedError:  # Windows
            pass
    runner = asyncio.create_task(bot.start(token))
    stopper = asyncio.create_task(stopping.wait())
    done, _pending = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    code, deadline = 0, None
    if runner in done:
        try:
            runner.result()
        except StoreError as e:
            print(f"teahouse: {e}", file=sys.stderr)
            code = 1
        except discord.LoginFailure:
            print("Discord refused the token. Check DISCORD_TOKEN in .env: it is the bot token from the "
                  "Developer Portal (Bot → Reset Token), not the application id or client secret.")
            code = 2
        except discord.PrivilegedIntentsRequired:
            print("Discord refused an intent; Teahouse needs no privileged intents, so check the bot settings.")
            code = 2
    else:
        log.info("shutting down")
        deadline = shutdown.watchdog()      # exit 0 within STOP_WITHIN seconds, whatever hangs
    stopper.cancel()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.remove_signal_handler(sig)
        except NotImplementedError:
            pass
    if not bot.is_closed():
        await bot.close()
    elif not store.closed:
        await store.close()
    if not runner.done():
        runner.cancel()
    if metrics is not None:
        await metrics.stop()
    bot.service.analyses.stop()
    rendering.stop(timeout=1.0)
    if deadline is not None and not bot.left_running:
        deadline.cancel()       # a clean stop; work left hanging keeps the deadline (asyncio.run would wait)
    return code


def run_discord(token: str, db_path: Path | str, dev_guild: str | None = None, idle_abandon_hours: float = 24,
                shards: Shards | None = None, metrics_at: tuple[str, int] | None = None) -> int:
    if dev_guild and not dev_guild.isdigit():
        print(f"DEV_GUILD_ID must be a server id (a number), not {dev_guild!r}.")
        return 2
    if not TOKEN.fullmatch(token):
        print("DISCORD_TOKEN does not look like a bot token (three parts separated by dots). Copy it again from "
              "the Developer Portal: your application → Bot → Reset Token.")
        return 2
    return asyncio.run(serve(token, db_path, dev_guild, idle_abandon_hours, shards, metrics_at))
