"""A small fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of the real discord.py client.

The real, unmodified discord.py client talks to it: while a ``FakeDiscord`` is running, ``discord.http.Route.BASE``
points at its REST API and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at its websocket (both restored on
stop).  The fake holds one guild with text channels, roles and members, records everything the bot sends (command
syncs, interaction callbacks, follow-ups, channel messages, files) and lets a test play users who type slash
commands, pick autocomplete entries, click buttons and choose from selects.

Example (pytest-asyncio, ``asyncio_mode = "auto"``)::

    from tests.fakediscord import FakeDiscord

    async def test_new_game():
        async with FakeDiscord() as fake:              # starts the server, patches discord.py's URLs
            bot = make_bot()                           # any commands.Bot / discord.Client
            async with fake.run(bot):                  # bot.start(fake.token); waits for READY + GUILD_CREATE
                alice = fake.user("alice")
                r = await fake.slash(alice, "general", "game new", options={"game": "pebbles"})
                assert r.callback_type == 4 and not r.ephemeral
                assert "Join" in [c["label"] for c in r.message.buttons()]
                r2 = await fake.click(fake.user("bob"), r.message, label="Join")
                assert r2.ephemeral and "joined" in r2.content
                choices = (await fake.autocomplete(alice, "general", "game move", {"action": "pl"}, "action")).choices
                png = r.message.attachments[0].image()          # PIL.Image, asserts it is a PNG
            # restart: a new bot instance on the same fake still sees the old messages
            async with fake.run(make_bot()):
                await fake.click(alice, r.message, label="Start")

Main API (see the docstrings below for details):

* ``FakeDiscord(users=("alice", "bob", "carol", "dave"), channels=("general", "games"), token=..., settle=0.05,
  callback_deadline=3.0)``; ``await fake.start()`` / ``await fake.stop()`` or ``async with FakeDiscord() as fake``.
* ``fake.run(bot)``: async context manager running ``bot.start(fake.token)`` until READY/GUILD_CREATE was sent; on
  exit closes the bot and awaits its task.  ``fake.wait_until_connected()``, ``fake.close_gateway()``.
* ``fake.user(name)`` -> ``FakeUser``; ``fake.channel(name_or_id)`` -> ``FakeChannel``; ``fake.guild``,
  ``fake.bot_user``, ``fake.application_id``.  Languages: ``fake.user(name).locale = "it"`` (the client's, each
  interaction's ``locale``) and ``fake.guild.locale = "it"`` (the server's preferred, ``guild_locale``).
* ``await fake.slash(user, channel, "group sub", options={...})``, ``await fake.autocomplete(user, channel,
  "group sub", options={...}, focused="name")``, ``await fake.click(user, message, custom_id=None, *, label=None)``,
  ``await fake.select(user, message, custom_id, values)``, ``await fake.submit_modal(user, record, values)``:
  each returns an ``InteractionRecord`` once the bot answered (callback within ``callback_deadline`` seconds like
  Discord, a deferred "thinking" answer must then be completed by an edit or a follow-up) and the fake has been
  quiet for ``settle`` seconds.
* Records: ``fake.messages(channel=None)``, ``fake.last_message(channel)``, ``fake.message(id)`` (a message's
  ``said``, ``pinged()`` and ``components_v2``),
  ``fake.interactions``, ``fake.synced`` / ``fake.sync_payloads`` / ``fake.commands(guild=...)``,
  ``fake.requests``, ``fake.unknown_routes``, ``fake.errors``, ``fake.identifies``, ``fake.gateway_queries``.
* Waiting for late work (e.g. an image rendered off the event loop): ``await fake.settle()``,
  ``await fake.wait_for_message(pred, channel=..., timeout=...)``, ``await record.wait_followups(n)``.

Behaviour worth knowing:

* Every JSON answer has ``Content-Type: application/json`` exactly: discord.py's ``json_or_text`` compares the
  header verbatim, and aiohttp's ``web.json_response`` would append ``; charset=utf-8`` (discord.py then hands the
  raw text to code expecting a dict).
* discord.py 2.7 always asks for ``?v=10&encoding=json&compress=zlib-stream`` (``zstd-stream`` when zstandard is
  installed).  The fake honours ``zlib-stream`` (one shared zlib context per connection, every frame ending in a
  ``Z_SYNC_FLUSH``) and answers any other compression with plain text frames, which discord.py also accepts
  (``received_message`` only decompresses ``bytes``).  ``FakeDiscord(compress=False)`` always sends text.
* The interaction callback is called with ``?with_response=1`` and must return ``{"interaction": {...},
  "resource": {"type": <callback type>, "message": <message>}}``; discord.py parses it into
  ``InteractionCallbackResponse``.  A second callback gets 400/40060, a callback after ``callback_deadline`` gets
  404/10062, like Discord.  Ephemeral messages cannot be fetched or edited through ``/channels`` (404/10008).
* Messages are validated against Discord's limits (content 2000, 10 embeds, 5 action rows of 5 buttons, a select
  alone in its row with at most 25 options, labels <= 80, custom ids <= 100 and unique); a violation answers 400
  code 50035 and is recorded in ``fake.errors``.  A Components V2 message (flag ``IS_COMPONENTS_V2`` = 1 << 15)
  has no content, embeds, stickers or poll beside the flag, at most 40 components (nested ones counted) and
  4,000 characters in its text displays together, and each ``attachment://`` it shows is attached; an edit may
  set the flag (a plain message becomes a card, its content cleared) and never removes it.  ``message.said`` (and
  ``record.said``) reads a message's words either way: its content, or its text displays in order.
* Every request body is also checked against Discord's own OpenAPI description (``tests/discordspec.py``), as
  Discord checks it: an invalid one is refused with 400/50035 and kept in ``fake.openapi_refused``, and leaving
  ``async with FakeDiscord()`` then fails the test (``FakeDiscord(openapi=False)`` turns the check off;
  ``tally=False`` keeps a fake's requests out of the session's count, for the fake's own tests).  The
  checks are counted in ``fake.openapi_checked`` and, for a whole test session, ``fakediscord.OPENAPI``
  (tests/conftest.py prints the session's total), with the messages sent or edited as cards (the V2 flag) or
  plain (``fake.plain_sent`` lists this fake's).
* The bot's READY only lists the guild as unavailable; ``on_ready`` fires ``guild_ready_timeout`` (discord.py
  default 2 s) after GUILD_CREATE.  Interactions work as soon as GUILD_CREATE was handled, which is what
  ``fake.run`` waits for; pass ``guild_ready_timeout=0.1`` to the bot if a test needs ``on_ready``.
* Shards: by default READY echoes IDENTIFY's shard and every shard gets the one guild.  ``fake.add_guild(name,
  channels, shard=(i, n))`` adds a server on shard i of n (its id chosen so); once one is added, each connection
  gets only its shard's servers, and a user's interaction in a channel goes to the connection of its server's
  shard, as Discord routes them.
* Discord's global limit: ``FakeDiscord(global_limit=50)`` answers 429 (``"global": true``, ``Retry-After``,
  ``X-RateLimit-Global``, as Discord does) to a REST request that counts against the bot's global limit (all
  but the interaction callback and its webhook) when ``global_limit`` were accepted in the second before it.
  ``fake.counted`` holds the loop times of the counted requests accepted, ``fake.limited`` of those refused;
  ``fake.busiest_second()`` is the most accepted in any one second.
* Discord's limit on one channel: ``FakeDiscord(channel_limit=(5, 5.0))`` answers 429 (``"global": false``,
  ``retry_after``) to a request to a channel (``/channels/{id}/…``) past 5 accepted in the 5 seconds before it,
  each channel counted on its own (``tests/channel_limit.py``: ``fake.channel_limit.accepted``, ``.limited``,
  ``.busiest(channel)``); a test that compresses time passes a shorter window.
* Not supported: voice, reactions beyond recording, pins, audit logs, per-route rate limits but the channel's
  above (no rate-limit headers are sent), ETF encoding, zstd compression, forum channels, DM interactions.

Where it lives: this module holds ``FakeDiscord`` itself (set-up, lifecycle, lookups for tests) and re-exports
the public names; the model objects are in ``tests/fakediscord_models.py``, and ``FakeDiscord``'s routes are mixins
grouped by area: ``fakediscord_interactions`` (acting as users; callbacks and the interaction webhook),
``fakediscord_messages`` (channel messages and their checks), ``fakediscord_rest`` (the REST app, middleware,
limits, the OpenAPI check; the bot's user, commands, guild, channels, threads, DMs) and ``fakediscord_gateway``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterable

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from tests.channel_limit import ChannelLimit
from tests.fakediscord_gateway import Gateway
from tests.fakediscord_interactions import Interactions
from tests.fakediscord_messages import Messages
from tests.fakediscord_models import (  # noqa: F401  (re-exported: tests import them from here)
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    COMPONENTS_V2,
    COUNTED,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    DISCORD_EPOCH,
    EPHEMERAL,
    LOADING,
    MEMBER_PERMISSIONS,
    MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    OPENAPI,
    PING,
    PONG,
    UPDATE_MESSAGE,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionFailed,
    InteractionRecord,
    RequestLog,
    _Conn,
    _ids,
    _lookup,
    body_text,
    json_response,
    snowflake,
)
from tests.fakediscord_rest import Rest

__all__ = [
    "FakeDiscord",
    "FakeUser",
    "FakeChannel",
    "FakeGuild",
    "FakeMessage",
    "FakeAttachment",
    "InteractionRecord",
    "InteractionFailed",
    "RequestLog",
]


# ----------------------------------------------------------------------------------------------- the fake


class FakeDiscord(Interactions, Gateway, Rest, Messages):
    """A fake Discord API + gateway on 127.0.0.1 (random free port).  See the module docstring."""

    def __init__(
        self,
        *,
        users: Iterable[str] = ("alice", "bob", "carol", "dave"),
        channels: Iterable[str] = ("general", "games"),
        guild_name: str = "Teahouse test guild",
        bot_name: str = "Teahouse",
        token: str = "fake.bot.token",
        settle: float = 0.05,
        callback_deadline: float = 3.0,
        compress: bool = True,
        patch: bool = True,
        heartbeat_interval: int = 41250,
        global_limit: int | None = None,
        channel_limit: tuple[int, float] | None = None,
        openapi: bool = True,
        tally: bool = True,
    ):
        self.token = token
        self.openapi = openapi
        self.tally = tally          # its requests count in the session's totals (not the fake's own tests')
        self.openapi_checked = 0
        self.openapi_refused: list[str] = []
        self.plain_sent: list[str] = []         # messages the bot sent or edited without IS_COMPONENTS_V2
        self.settle_time = settle
        self.callback_deadline = callback_deadline
        self.compress = compress
        self.patch = patch
        self.heartbeat_interval = heartbeat_interval
        self.global_limit = global_limit
        self.channel_limit = ChannelLimit(*channel_limit) if channel_limit else None     # per channel (#49)

        self.bot_user = FakeUser(snowflake(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        gid = snowflake()
        self.everyone_role = {
            "id": str(gid), "name": "@everyone", "permissions": MEMBER_PERMISSIONS, "position": 0, "color": 0,
            "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None, "unicode_emoji": None,
        }  # fmt: skip
        bot_role_id = snowflake()
        self.bot_role = dict(self.everyone_role, id=str(bot_role_id), name=bot_name, permissions=ALL_PERMISSIONS,
                             position=1, managed=True, tags={"bot_id": str(self.bot_user.id)})  # fmt: skip
        self.bot_user.roles = [bot_role_id]
        members = [self.bot_user] + [FakeUser(snowflake(), n) for n in users]
        chans = [FakeChannel(snowflake(), n, 0, gid, position=i) for i, n in enumerate(channels)]
        self.guild = FakeGuild(gid, guild_name, members[1].id if len(members) > 1 else self.bot_user.id,
                               [self.everyone_role, self.bot_role], chans, members)  # fmt: skip
        self._users: dict[int, FakeUser] = {u.id: u for u in members}
        self._channels: dict[int, FakeChannel] = {c.id: c for c in chans}
        self.guilds: dict[int, FakeGuild] = {gid: self.guild}
        self._shard_of: dict[int, tuple[int, int]] = {}     # guild id → (shard, count), for the added ones

        # records
        self.requests: list[RequestLog] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.errors: list[dict] = []
        self.identifies: list[dict] = []
        self.gateway_queries: list[dict] = []
        self.gateway_received: list[dict] = []
        self.sync_payloads: list[tuple[int | None, list[dict]]] = []
        self.synced: dict[int | None, list[dict]] = {}
        self.interactions: list[InteractionRecord] = []
        self.counted: list[float] = []      # loop times of the accepted requests that count against the global limit
        self.limited: list[float] = []      # and of those answered 429 for it
        self._messages: dict[int, FakeMessage] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._by_id: dict[int, InteractionRecord] = {}
        self._files: dict[str, FakeAttachment] = {}
        self._conns: list[_Conn] = []
        self._sessions: set[str] = set()
        self._ready_count = 0
        self._inflight = 0
        self._last_activity = 0.0
        self._changed: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        self._saved: tuple | None = None
        self.base_url = self.api_url = self.gateway_url = ""
        self.app = self._make_app()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        """Start the server on a free port and (unless ``patch=False``) point discord.py at it."""
        if self.openapi:           # read Discord's description now (once a process), not while a bot connects
            from tests import discordspec

            discordspec._spec()
        self._changed = asyncio.Event()
        self._runner = web.AppRunner(self.app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        self.api_url = f"{self.base_url}/api/v10"
        self.gateway_url = f"ws://{host}:{port}/gateway"
        if self.patch:
            self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
            discord.http.Route.BASE = self.api_url
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        self._last_activity = asyncio.get_running_loop().time()
        return self

    async def stop(self) -> None:
        """Close gateway connections, stop the server and restore discord.py's URLs."""
        await self.close_gateway(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()
        if exc[0] is None and self.openapi_refused:
            raise AssertionError(f"{len(self.openapi_refused)} requests the bot made are invalid against Discord's "
                                 f"OpenAPI description: {self.openapi_refused[:3]}")

    @contextlib.asynccontextmanager
    async def run(self, client: discord.Client, *, token: str | None = None, timeout: float = 5.0) -> AsyncIterator:
        """Run ``client.start(token)`` in a task until its gateway got READY and GUILD_CREATE; on exit close it.

        Fails fast with the client's own exception if it dies while starting (bad token, setup_hook error...).
        """
        before = self._ready_count
        task = asyncio.create_task(client.start(token or self.token), name="fakediscord-bot")
        try:
            await self._wait_or_die(lambda: self._ready_count > before, task, timeout, "the bot to connect")
            yield client
        finally:
            await client.close()
            done, _ = await asyncio.wait({task}, timeout=timeout)
            if not done:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            elif not task.cancelled():
                task.exception()  # mark it retrieved; re-raised below when the body itself succeeded
            await self.settle()
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()

    async def _wait_or_die(self, pred: Callable[[], bool], task: asyncio.Task, timeout: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not pred():
            if task.done():
                task.result()  # re-raise the client's exception
                raise AssertionError(f"the bot stopped while waiting for {what}")
            if loop.time() > end:
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}; unknown routes: {self.unknown_routes}"
                )
            await self._wait_changed(min(0.05, max(end - loop.time(), 0.001)))

    async def _wait_changed(self, timeout: float) -> None:
        assert self._changed is not None
        self._changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()

    async def wait_until_connected(self, timeout: float = 5.0) -> None:
        """Wait until a gateway connection got READY and GUILD_CREATE."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not any(c.ready for c in self._conns):
            if loop.time() > end:
                raise AssertionError(f"no bot connected within {timeout}s")
            await self._wait_changed(0.05)

    @property
    def connected(self) -> bool:
        return any(c.ready for c in self._conns)

    async def close_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection from the server side (a client with ``reconnect=True`` will RESUME)."""
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=code)
        self._conns.clear()
        self._notify()

    async def settle(self, quiet: float | None = None, timeout: float = 5.0) -> None:
        """Wait until no REST request is in flight and none arrived for ``quiet`` seconds (default ``settle``)."""
        quiet = self.settle_time if quiet is None else quiet
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            idle = loop.time() - self._last_activity
            if self._inflight == 0 and idle >= quiet:
                return
            await asyncio.sleep(max(quiet - idle, 0.005))

    # ------------------------------------------------------------------ lookups for tests

    def user(self, name_or_id: str | int | FakeUser) -> FakeUser:
        """A user by name or id; an unknown name creates a new guild member (not announced to the bot)."""
        known = _lookup(FakeUser, self._users, name_or_id)
        if known is not None:
            return known
        u = FakeUser(snowflake(), name_or_id)
        self._users[u.id] = u
        self.guild.members.append(u)
        return u

    @property
    def users(self) -> list[FakeUser]:
        return [u for u in self._users.values() if not u.bot]

    def channel(self, name_or_id: str | int | FakeChannel) -> FakeChannel:
        known = _lookup(FakeChannel, self._channels, name_or_id)
        if known is not None:
            return known
        raise LookupError(f"no channel {name_or_id!r}; have {[c.name for c in self._channels.values()]}")

    def add_channel(self, name: str, type: int = 0) -> FakeChannel:
        """Add a text channel before the bot connects (it is part of the next GUILD_CREATE)."""
        c = FakeChannel(snowflake(), name, type, self.guild.id, position=len(self.guild.channels))
        self._channels[c.id] = c
        self.guild.channels.append(c)
        return c

    def add_guild(self, name: str, channels: Iterable[str], shard: tuple[int, int]) -> FakeGuild:
        """Add a server (before the bot connects) whose id puts it on ``shard`` = (id, count), with text channels
        named ``channels`` and the same members as the first; from now on each connection gets its shard's."""
        wanted, count = shard
        stamp = int(time.time() * 1000) - DISCORD_EPOCH
        stamp += (wanted - stamp) % count
        gid = (stamp << 22) | (next(_ids) & 0x3FFFFF)
        everyone = dict(self.everyone_role, id=str(gid))
        chans = [FakeChannel(snowflake(), n, 0, gid, position=i) for i, n in enumerate(channels)]
        guild = FakeGuild(gid, name, self.guild.owner_id, [everyone, self.bot_role], chans, self.guild.members)
        self.guilds[gid] = guild
        self._shard_of[gid] = (wanted, count)
        self._channels.update({c.id: c for c in chans})
        return guild

    def busiest_second(self) -> int:
        """The most counted requests accepted within any one second."""
        times, most, start = self.counted, 0, 0
        for end in range(len(times)):
            while times[end] - times[start] >= 1.0:
                start += 1
            most = max(most, end - start + 1)
        return most

    def _guild_of(self, channel: FakeChannel | None) -> FakeGuild:
        return self.guilds.get(getattr(channel, "guild_id", None), self.guild)

    def _conn_for(self, guild: FakeGuild) -> _Conn | None:
        """The ready connection that gets ``guild``'s events: its shard's once servers were added by shard."""
        ready = [c for c in reversed(self._conns) if c.ready]
        if self._shard_of:
            ready = [c for c in ready if self._on_shard(guild, c.shard)]
        return ready[0] if ready else None

    def _on_shard(self, guild: FakeGuild, shard: list | None) -> bool:
        if not shard:
            return True
        return (guild.id >> 22) % shard[1] == shard[0]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self._channels.values() if c.is_thread]

    def dm_channel(self, user: str | int | FakeUser) -> FakeChannel | None:
        u = self.user(user)
        return next((c for c in self._channels.values() if c.type == 1 and c.recipients[0].id == u.id), None)

    def message(self, message_id: int | str) -> FakeMessage:
        return self._messages[int(message_id)]

    def messages(
        self,
        channel: str | int | FakeChannel | None = None,
        *,
        ephemeral: bool | None = None,
        deleted: bool = False,
        source: str | None = None,
    ) -> list[FakeMessage]:
        """Messages in creation order.  ``ephemeral``: None = all, False = public only, True = ephemeral only."""
        cid = None if channel is None else self.channel(channel).id
        out = []
        for m in self._messages.values():
            if cid is not None and m.channel_id != cid:
                continue
            if ephemeral is not None and m.ephemeral != ephemeral:
                continue
            if (m.deleted and not deleted) or (source is not None and m.source != source):
                continue
            out.append(m)
        return out

    def last_message(self, channel: str | int | FakeChannel | None = None, *, ephemeral: bool | None = False):
        """The newest (public by default) message in ``channel`` (any channel if None), or None."""
        msgs = self.messages(channel, ephemeral=ephemeral)
        return msgs[-1] if msgs else None

    async def wait_for_message(
        self,
        pred: Callable[[FakeMessage], bool] = lambda m: True,
        *,
        channel: str | int | FakeChannel | None = None,
        after: int | FakeMessage | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a (new, if ``after`` is given) message matching ``pred``."""
        after_id = after.id if isinstance(after, FakeMessage) else (after or 0)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for m in self.messages(channel, deleted=True):
                if m.id > after_id and pred(m):
                    return m
            if loop.time() > end:
                raise AssertionError(f"no matching message within {timeout}s")
            await self._wait_changed(0.05)

    def commands(self, guild: bool | int | None = None) -> list[dict]:
        """The commands as last synced (with their assigned ids): global ones, or the fake guild's with
        ``guild=True`` (or a guild id)."""
        key = self.guild.id if guild is True else (guild or None)
        return self.synced.get(key, [])

    def find_command(self, name: str, type: int = 1) -> tuple[dict, int | None]:
        """(command, guild_id or None) for a synced top-level command; guild commands win over global ones."""
        for key in (self.guild.id, None):
            for cmd in self.synced.get(key, []):
                if cmd["name"] == name and cmd.get("type", 1) == type:
                    return cmd, key
        names = {k: [c["name"] for c in v] for k, v in self.synced.items()}
        raise LookupError(f"command {name!r} was not synced; synced: {names}")
