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
* Not supported: voice, reactions beyond recording, pins, audit logs, per-route rate limits (no rate-limit
  headers are sent), ETF encoding, zstd compression, forum channels, DM interactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import re
import secrets
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

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

DISCORD_EPOCH = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
ALL_PERMISSIONS = str((1 << 53) - 1)
MEMBER_PERMISSIONS = "2248473465835073"  # a typical @everyone: view, send, read history, use app commands, ...

# interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# callback types
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 1, 4, 5, 6, 7, 8, 9

_ids = itertools.count(1)
COUNTED = re.compile(r"/api/v\d+/(?!interactions/|webhooks/)")     # what Discord counts against the global limit

# every request body checked against Discord's OpenAPI description in this process, and how many it refused
OPENAPI = {"checked": 0, "refused": 0, "cards": 0, "plain": 0}


def snowflake() -> int:
    """A fresh, increasing snowflake (timestamp << 22 | counter)."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH) << 22) | (next(_ids) & 0x3FFFFF)


def _now() -> str:
    return datetime.now(UTC).isoformat()


class InteractionFailed(AssertionError):
    """The bot did not answer an interaction in time (the user would see "This interaction failed")."""


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        body = {"message": self.message, "code": self.code}
        if self.errors:  # Discord's nested shape, which discord.py flattens into "In <key>: <message>"
            body["errors"] = {"fakediscord": {"_errors": [{"code": "FAKE_LIMIT", "message": e} for e in self.errors]}}
        return body


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json`` (no charset: discord.py compares verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


# ----------------------------------------------------------------------------------------------- model objects


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now)
    locale: str = "en-US"  # the language of the user's Discord client, sent as each interaction's ``locale``

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or (None if self.bot else self.name.title()),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, with_user: bool = True, permissions: str | None = None) -> dict:
        data = {
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "nick": self.nick,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if with_user:
            data["user"] = self.payload()
        if permissions is not None:
            data["permissions"] = permissions
        return data


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int = 0  # 0 text, 1 DM, 11 public thread, 12 private thread
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    owner_id: int | None = None
    recipients: list[FakeUser] = field(default_factory=list)
    archived: bool = False
    locked: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self) -> dict:
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [u.payload() for u in self.recipients],
            }
        data = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                message_count=0,
                member_count=1,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now(),
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": _now(),
                },
            )
            del data["position"], data["permission_overwrites"], data["topic"]
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: list[dict]
    channels: list[FakeChannel]
    members: list[FakeUser]
    locale: str = "en-US"  # the server's preferred locale: ``guild_locale`` of its interactions

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": self.roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.member_payload() for m in self.members],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class FakeAttachment:
    """A file the bot uploaded.  ``data`` holds its bytes; ``url`` serves them back on GET."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data

    def image(self, fmt: str | None = "PNG"):
        """The attachment opened with Pillow (fully loaded); asserts its format is ``fmt`` unless ``fmt`` is None."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        if fmt is not None:
            assert img.format == fmt, f"{self.filename}: expected {fmt}, Pillow says {img.format}"
        return img


def _lookup(kind: type, by_id: dict, name_or_id):
    """A user or channel (``kind``) given as itself, by id (which must be known) or by name; None for an
    unknown name."""
    if isinstance(name_or_id, kind):
        return name_or_id
    if isinstance(name_or_id, int):
        return by_id[name_or_id]
    return next((o for o in by_id.values() if o.name == name_or_id), None)


def _walk_components(components: Iterable[dict]) -> Iterable[dict]:
    for c in components or []:
        yield c
        if isinstance(c.get("components"), list):
            yield from _walk_components(c["components"])
        for key in ("accessory", "component"):  # section accessory; label (type 18) in modals
            if isinstance(c.get(key), dict):
                yield from _walk_components([c[key]])


# Components V2 (the IS_COMPONENTS_V2 flag): what may stand at the top, inside a container, inside a section
V2_TOP = {1, 9, 10, 12, 13, 14, 17}
V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000


def _v2_problems(data: dict, comps: list[dict]) -> list[str]:
    """What Discord refuses in a Components V2 message: content, embeds, stickers or a poll beside the flag; more
    than 40 components, every nested one counted; more than 4,000 characters in its text displays together; an
    empty text display; a component where its kind may not stand (``attachment://`` references are checked once
    the files are known: ``_unknown_media``)."""
    errors = []
    if data.get("content"):
        errors.append("content: not allowed with IS_COMPONENTS_V2 (text goes in text displays)")
    for key in ("embeds", "sticker_ids"):
        if data.get(key):
            errors.append(f"{key}: not allowed with IS_COMPONENTS_V2")
    if data.get("poll"):
        errors.append("poll: not allowed with IS_COMPONENTS_V2")
    every = list(_walk_components(comps))
    if len(every) > MAX_V2_COMPONENTS:
        errors.append(f"components: {len(every)} (max {MAX_V2_COMPONENTS} with IS_COMPONENTS_V2, nested ones counted)")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > MAX_V2_TEXT:
        errors.append(f"components: {text} characters of text displays (max {MAX_V2_TEXT})")
    if any(c.get("type") == 10 and not c.get("content") for c in every):
        errors.append("components: an empty text display")
    for i, c in enumerate(comps):
        if c.get("type") not in V2_TOP:
            errors.append(f"components[{i}]: type {c.get('type')} cannot stand at the top")
        if c.get("type") == 17:
            errors += [f"components[{i}]: a container cannot hold type {k.get('type')}"
                       for k in c.get("components") or [] if k.get("type") not in V2_IN_CONTAINER]
            if not c.get("components"):
                errors.append(f"components[{i}]: an empty container")
        if c.get("type") == 1:
            kids = c.get("components") or []
            if not kids or len(kids) > 5 or (len(kids) > 1 and any(k.get("type") != 2 for k in kids)):
                errors.append(f"components[{i}]: an action row holds 1-5 buttons or one select")
    for c in every:
        if c.get("type") == 1 and c not in comps:
            kids = c.get("components") or []
            if not kids or len(kids) > 5 or (len(kids) > 1 and any(k.get("type") != 2 for k in kids)):
                errors.append("components: an action row holds 1-5 buttons or one select")
        if c.get("type") == 12 and not 1 <= len(c.get("items") or []) <= 10:
            errors.append("components: a media gallery holds 1-10 items")
    return errors


def body_text(body: dict | None) -> str:
    """The words of a message body as sent (a request's JSON): its content, or a Components V2 message's text
    displays in order, one a line (as ``FakeMessage.said`` reads a stored message)."""
    body = body or {}
    texts = [c.get("content") or "" for c in _walk_components(body.get("components") or []) if c.get("type") == 10]
    return "\n".join(t for t in [body.get("content") or "", *texts] if t)


def _media_urls(components: list[dict]) -> list[str]:
    """The ``attachment://`` names a V2 message's gallery items, thumbnails and files show."""
    urls = []
    for c in _walk_components(components):
        for media in [item.get("media") for item in c.get("items") or []] + [c.get("media"), c.get("file")]:
            url = (media or {}).get("url") or ""
            if url.startswith("attachment://"):
                urls.append(url[len("attachment://"):])
    return urls


@dataclass
class FakeMessage:
    """A message as the fake stores it.

    ``source`` says how it was made: ``"channel"`` (POST /channels/{id}/messages), ``"interaction"`` (an interaction
    callback of type 4 or 5), or ``"followup"`` (POST /webhooks/{app}/{token}).  ``interaction_id`` names the
    interaction that made it.  ``edits`` counts edits; ``deleted`` is set instead of removing the message.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    source: str = "channel"
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    allowed_mentions: dict | None = None
    tts: bool = False
    timestamp: str = field(default_factory=_now)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False
    webhook_id: int | None = None
    message_reference: dict | None = None
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("thinking...") response not completed yet."""
        return bool(self.flags & LOADING)

    @property
    def said(self) -> str:
        """The message's words as a reader sees them: its content, or a Components V2 message's text displays
        in order (one a line), where its content must be empty."""
        return body_text({"content": self.content, "components": self.components})

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & COMPONENTS_V2)

    @property
    def mention_everyone(self) -> bool:
        """Whether Discord would ping @everyone/@here for this text and ``allowed_mentions``."""
        if "@everyone" not in self.said and "@here" not in self.said:
            return False
        am = self.allowed_mentions
        return am is None or "everyone" in (am.get("parse") or [])

    def mention_roles(self) -> list[int]:
        """Role ids Discord would ping for this text and ``allowed_mentions``."""
        ids = [int(x) for x in re.findall(r"<@&(\d+)>", self.said)]
        am = self.allowed_mentions
        if am is None or "roles" in (am.get("parse") or []):
            return ids
        allowed = {int(x) for x in am.get("roles") or []}
        return [i for i in ids if i in allowed]

    def pinged(self) -> list[int]:
        """The users Discord would notify for this message as sent (or last edited): those mentioned in its text
        (content or text displays) whom ``allowed_mentions`` lets ping, in order, once each. (A bot's default
        ``allowed_mentions`` is merged into each request by discord.py, so what arrives here is what applies.)"""
        ids = list(dict.fromkeys(int(x) for x in re.findall(r"<@!?(\d+)>", self.said)))
        am = self.allowed_mentions
        if am is None or "users" in (am.get("parse") or []):
            return ids
        allowed = {int(x) for x in am.get("users") or []}
        return [i for i in ids if i in allowed]

    def all_components(self) -> list[dict]:
        """Every component, flattened (rows, containers, sections' accessories included)."""
        return list(_walk_components(self.components))

    def buttons(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def selects(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict:
        """The interactive component with this custom id (or button label); LookupError lists what exists."""
        for c in self.all_components():
            if "custom_id" not in c:
                continue
            if custom_id is not None and c["custom_id"] == custom_id:
                return c
            if custom_id is None and label is not None and c.get("label") == label:
                return c
        have = [
            (c.get("label") or c.get("placeholder"), c["custom_id"]) for c in self.all_components() if "custom_id" in c
        ]
        raise LookupError(f"message {self.id} has no component custom_id={custom_id!r} label={label!r}; has {have}")

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields and components' text, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name')} {f.get('value')}" for f in e.get("fields") or []]
            parts.append((e.get("footer") or {}).get("text") or "")
        for c in self.all_components():
            if c.get("type") == 10:
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [],
            "mention_roles": [str(r) for r in self.mention_roles()],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.source == "interaction" else (19 if self.message_reference else 0),
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": APPLICATION_COMMAND,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
        if self.message_reference:
            data["message_reference"] = self.message_reference
        return data


@dataclass
class InteractionRecord:
    """One interaction the fake sent and everything the bot answered to it.

    * ``callback``: the raw callback body ``{"type": ..., "data": {...}}`` (None until answered) and
      ``callback_type`` (4 message, 5 deferred "thinking", 6 deferred update, 7 update message, 8 autocomplete
      choices, 9 modal).
    * ``message``: the message the response shows: the new message for 4/5 (5 is ``loading`` until edited), the
      clicked message (as edited) for 6/7; None for 8/9.
    * ``followups``: messages posted with the interaction's webhook, in order.
    * ``choices`` (autocomplete), ``modal`` (callback 9 data).
    * ``events``: ``("callback", type) / ("edit", message_id) / ("followup", message_id) / ("delete", message_id)``.
    * ``errors``: error answers the fake gave to requests about this interaction.
    * shortcuts from ``message``: ``content``, ``ephemeral``, ``flags``, ``embeds``, ``components``,
      ``attachments``.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel | None
    payload: dict
    source_message: FakeMessage | None = None
    callback: dict | None = None
    callback_at: float | None = None
    message: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None
    events: list[tuple[str, Any]] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    created_at: float = field(default_factory=time.monotonic)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback["type"]

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_MESSAGE, DEFERRED_UPDATE)

    @property
    def messages(self) -> list[FakeMessage]:
        """The response message (if any) followed by the follow-ups."""
        return ([self.message] if self.message is not None else []) + list(self.followups)

    @property
    def shown(self) -> FakeMessage | None:
        """What the user sees as the answer: the response message, or — when the bot deleted a deferred
        response to answer privately instead — the first follow-up."""
        if self.message is not None and self.message.deleted and self.followups:
            return self.followups[0]
        return self.message

    @property
    def content(self) -> str | None:
        return None if self.shown is None else self.shown.content

    @property
    def said(self) -> str:
        """The words of the message the user sees as the answer (``FakeMessage.said``): a card's text displays."""
        return "" if self.shown is None else self.shown.said

    @property
    def ephemeral(self) -> bool:
        return self.shown is not None and self.shown.ephemeral

    @property
    def flags(self) -> int | None:
        return None if self.message is None else self.message.flags

    @property
    def embeds(self) -> list[dict]:
        return [] if self.message is None else self.message.embeds

    @property
    def components(self) -> list[dict]:
        return [] if self.message is None else self.message.components

    @property
    def attachments(self) -> list[FakeAttachment]:
        return [] if self.message is None else self.message.attachments

    def text(self) -> str:
        """All text of the response and follow-ups (see ``FakeMessage.text``)."""
        return "\n".join(m.text() for m in self.messages)

    def _touch(self, event: str, value: Any) -> None:
        self.events.append((event, value))
        self._changed.set()

    async def _wait(self, pred: Callable[[], bool], timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not pred():
            left = end - loop.time()
            if left <= 0:
                return False
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait until at least ``count`` follow-ups arrived; returns them."""
        if not await self._wait(lambda: len(self.followups) >= count, timeout):
            raise AssertionError(
                f"interaction {self.id}: {len(self.followups)} follow-ups after {timeout}s, wanted {count}"
            )
        return self.followups

    async def wait_completed(self, timeout: float = 5.0) -> FakeMessage | None:
        """Wait until a deferred "thinking" response was edited or followed up."""
        ok = await self._wait(lambda: not (self.message and self.message.loading) or bool(self.followups), timeout)
        if not ok:
            raise InteractionFailed(f"interaction {self.id}: deferred but never completed within {timeout}s")
        return self.message


@dataclass
class RequestLog:
    method: str
    path: str
    query: dict
    json: Any
    files: dict[int, tuple[str, bytes]]
    status: int = 0


_LOG_KEY = web.RequestKey("fakediscord_log", RequestLog)
_REC_KEY = web.RequestKey("fakediscord_interaction", InteractionRecord)


@dataclass
class _Conn:
    ws: web.WebSocketResponse
    compress: bool
    session_id: str | None = None
    ready: bool = False
    seq: int = 0
    zctx: Any = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: list | None = None


# ----------------------------------------------------------------------------------------------- the fake


class FakeDiscord:
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

    # ------------------------------------------------------------------ acting as users

    def _member_payload(self, user: FakeUser) -> dict:
        perms = ALL_PERMISSIONS if user.id == self.guild.owner_id else MEMBER_PERMISSIONS
        return user.member_payload(permissions=perms)

    def _interaction_payload(self, type: int, user: FakeUser, channel: FakeChannel | None, data: dict, **extra) -> dict:
        iid, token = snowflake(), f"fake-{secrets.token_urlsafe(24)}"
        payload = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "app_permissions": ALL_PERMISSIONS,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel is not None and channel.type != 1:
            guild = self._guild_of(channel)
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.locale,
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                channel_id=str(channel.id),
                channel=dict(channel.payload(), permissions=MEMBER_PERMISSIONS),
                member=self._member_payload(user),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": str(user.id)})
            if channel is not None:
                payload.update(channel_id=str(channel.id), channel=channel.payload())
        payload.update(extra)
        return payload

    def _options(self, defs: list[dict], given: dict[str, Any], resolved: dict, focused: str | None) -> list[dict]:
        by_name = {d["name"]: d for d in defs}
        for d in defs:
            # while typing (autocomplete) Discord sends only the options filled in so far
            if d.get("required") and d["name"] not in given and focused is None:
                raise ValueError(f"required option {d['name']!r} missing (Discord would not send the command)")
        out = []
        for name, value in given.items():
            if name not in by_name:
                raise ValueError(f"unknown option {name!r}; the command has {list(by_name)}")
            d = by_name[name]
            t = d["type"]
            opt: dict[str, Any] = {"name": name, "type": t}
            if name == focused:
                opt.update(value=str(value), focused=True)
                out.append(opt)
                continue
            if t == 3:
                value = str(value)
            elif t == 4:
                value = int(value)
            elif t == 10:
                value = float(value)
            elif t == 5:
                value = bool(value)
            elif t in (6, 9) and not isinstance(value, FakeChannel) and not (isinstance(value, dict)):
                u = self.user(value)
                resolved.setdefault("users", {})[str(u.id)] = u.payload()
                resolved.setdefault("members", {})[str(u.id)] = u.member_payload(
                    with_user=False, permissions=MEMBER_PERMISSIONS
                )
                value = str(u.id)
            elif t == 7:
                c = self.channel(value)
                resolved.setdefault("channels", {})[str(c.id)] = dict(c.payload(), permissions=MEMBER_PERMISSIONS)
                value = str(c.id)
            elif t in (8, 9):
                role = value if isinstance(value, dict) else next(r for r in self.guild.roles if r["name"] == value)
                resolved.setdefault("roles", {})[role["id"]] = role
                value = role["id"]
            else:
                raise ValueError(f"option type {t} is not supported by the fake")
            if d.get("choices") and value not in [c["value"] for c in d["choices"]]:
                raise ValueError(f"{value!r} is not a choice of {name!r}: {[c['value'] for c in d['choices']]}")
            opt["value"] = value
            out.append(opt)
        if focused is not None and focused not in given:
            out.append({"name": focused, "type": by_name[focused]["type"], "value": "", "focused": True})
        return out

    def _command_data(self, name: str, options: dict[str, Any] | None, focused: str | None) -> dict:
        parts = name.split()
        cmd, gid = self.find_command(parts[0])
        resolved: dict = {}
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if gid is not None:
            data["guild_id"] = str(gid)
        container, defs = data, cmd.get("options", [])
        for sub in parts[1:]:
            d = next((o for o in defs if o["name"] == sub and o["type"] in (1, 2)), None)
            if d is None:
                raise LookupError(f"{name!r}: no subcommand {sub!r}; have {[o['name'] for o in defs]}")
            node = {"name": sub, "type": d["type"], "options": []}
            container["options"] = [node]
            container, defs = node, d.get("options", [])
        if any(o["type"] in (1, 2) for o in defs):
            raise LookupError(f"{name!r} is a group; name a subcommand: {[o['name'] for o in defs]}")
        container["options"] = self._options(defs, dict(options or {}), resolved, focused)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: str | int | FakeUser,
        channel: str | int | FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Type ``/command`` (``"game new"`` for a subcommand) with ``options`` as ``user`` in ``channel``.

        The command must have been synced (guild commands first, then global); option values are converted to the
        synced option types (users/channels/roles by name, FakeUser or FakeChannel, with ``resolved`` data), choices
        and required options are enforced as the Discord client would.
        """
        data = self._command_data(command, options, None)
        return await self._interact(APPLICATION_COMMAND, user, channel, data, timeout=timeout)

    async def autocomplete(
        self,
        user: str | int | FakeUser,
        channel: str | int | FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        focused: str | None = None,
        *,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """The user is typing ``options[focused]`` (default: the last option given); ``record.choices`` holds the
        bot's answer (list of ``{"name", "value"}``)."""
        options = dict(options or {})
        if focused is None:
            if not options:
                raise ValueError("autocomplete needs the focused option")
            focused = list(options)[-1]
        data = self._command_data(command, options, focused)
        return await self._interact(AUTOCOMPLETE, user, channel, data, timeout=timeout)

    async def click(
        self,
        user: str | int | FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Click the button with ``custom_id`` (or ``label``) on ``message`` as ``user``."""
        msg = message if isinstance(message, FakeMessage) else self.message(message)
        comp = msg.component(custom_id, label=label)
        if comp.get("type") != 2:
            raise ValueError(f"{comp['custom_id']!r} is not a button (type {comp.get('type')})")
        if comp.get("disabled"):
            raise ValueError(f"button {comp.get('label')!r} ({comp['custom_id']}) is disabled")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._component(user, msg, data, timeout)

    async def select(
        self,
        user: str | int | FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: list[Any],
        *,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Choose ``values`` in the select ``custom_id`` on ``message`` (string selects check options and
        min/max_values; user/role/channel selects take names or objects and add ``resolved``)."""
        msg = message if isinstance(message, FakeMessage) else self.message(message)
        comp = msg.component(custom_id)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise ValueError(f"{custom_id!r} is not a select (type {ctype})")
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} not among the options of {custom_id!r}: {allowed}")
            data["values"] = [str(v) for v in values]
        else:
            resolved: dict = {}
            t = {5: 6, 6: 8, 7: 7, 8: 9}[ctype]
            ids = [self._options([{"name": "v", "type": t}], {"v": v}, resolved, None)[0]["value"] for v in values]
            data.update(values=ids, resolved=resolved)
        return await self._component(user, msg, data, timeout)

    async def submit_modal(
        self,
        user: str | int | FakeUser,
        record: InteractionRecord,
        values: dict[str, str],
        *,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Submit the modal the bot opened in answer to ``record``.

        ``values`` maps custom ids to the text typed (text inputs; unset ones keep their default ``value``) or to a
        list of chosen values (string selects inside labels).  The submission mirrors the modal's layout: action
        rows stay rows, labels (type 18) stay labels.
        """
        if record.modal is None:
            raise ValueError(f"interaction {record.id} did not open a modal")
        known = {c["custom_id"] for c in _walk_components(record.modal.get("components", [])) if "custom_id" in c}
        unknown = set(values) - known
        if unknown:
            raise LookupError(f"modal {record.modal.get('custom_id')!r} has no inputs {sorted(unknown)}; has {known}")

        def answer(c: dict) -> dict:
            if c.get("type") == 4:
                text = values.get(c["custom_id"], c.get("value") or "")
                if c.get("required", True) and not text:
                    raise ValueError(f"text input {c['custom_id']!r} is required")
                return {"type": 4, "custom_id": c["custom_id"], "value": text}
            return {"type": c.get("type"), "custom_id": c["custom_id"], "values": list(values.get(c["custom_id"], []))}

        submitted = []
        for top in record.modal.get("components", []):
            if top.get("type") == 1:
                submitted.append({"type": 1, "components": [answer(c) for c in top.get("components", [])]})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                submitted.append({"type": 18, "id": top.get("id"), "component": answer(top["component"])})
        data = {"custom_id": record.modal["custom_id"], "components": submitted}
        extra = {}
        if record.source_message is not None:
            extra["message"] = record.source_message.payload()
        return await self._interact(
            MODAL_SUBMIT, user, record.channel, data, timeout=timeout, _source=record.source_message, **extra
        )

    async def _component(self, user, msg: FakeMessage, data: dict, timeout: float) -> InteractionRecord:
        channel = self._channels.get(msg.channel_id)
        return await self._interact(
            MESSAGE_COMPONENT, user, channel, data, timeout=timeout, message=msg.payload(), _source=msg
        )

    async def _interact(self, type: int, user, channel, data: dict, *, timeout: float, _source=None, **extra):
        user = self.user(user)
        channel = None if channel is None else self.channel(channel)
        conn = self._conn_for(self._guild_of(channel))
        if conn is None:
            raise AssertionError("no bot is connected to the fake gateway (for this server's shard)")
        payload = self._interaction_payload(type, user, channel, data, **extra)
        rec = InteractionRecord(int(payload["id"]), payload["token"], type, user, channel, payload, _source)
        self.interactions.append(rec)
        self._by_id[rec.id] = rec
        self._by_token[rec.token] = rec
        self._last_activity = asyncio.get_running_loop().time()
        await self._dispatch(conn, "INTERACTION_CREATE", payload)
        if not await rec._wait(lambda: rec.callback is not None, min(self.callback_deadline, timeout)):
            raise InteractionFailed(
                f"This interaction failed: no callback within {self.callback_deadline}s for {self._describe(rec)}; "
                f"errors: {rec.errors or self.errors[-3:]}; unknown routes: {self.unknown_routes}"
            )
        if rec.callback_type == DEFERRED_MESSAGE:
            await rec.wait_completed(timeout)
        await self.settle()
        return rec

    @staticmethod
    def _describe(rec: InteractionRecord) -> str:
        d = rec.payload.get("data", {})
        return f"interaction type {rec.type} {d.get('name') or d.get('custom_id')!r} by {rec.user.name}"

    async def dispatch(self, event: str, data: dict) -> None:
        """Send any DISPATCH event to the connected bot (e.g. ``MESSAGE_CREATE``)."""
        conn = next((c for c in reversed(self._conns) if c.ready), None)
        if conn is None:
            raise AssertionError("no bot is connected to the fake gateway")
        await self._dispatch(conn, event, data)

    # ------------------------------------------------------------------ gateway

    async def _send(self, conn: _Conn, msg: dict) -> None:
        raw = json.dumps(msg)
        async with conn.lock:
            if conn.ws.closed:
                return
            if conn.zctx is not None:
                await conn.ws.send_bytes(conn.zctx.compress(raw.encode()) + conn.zctx.flush(zlib.Z_SYNC_FLUSH))
            else:
                await conn.ws.send_str(raw)

    async def _dispatch(self, conn: _Conn, event: str, data: dict) -> None:
        conn.seq += 1
        await self._send(conn, {"op": 0, "t": event, "s": conn.seq, "d": data})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        query = dict(request.query)
        self.gateway_queries.append(query)
        zlib_stream = self.compress and query.get("compress") == "zlib-stream"
        conn = _Conn(ws, zlib_stream, zctx=zlib.compressobj() if zlib_stream else None)
        self._conns.append(conn)
        try:
            await self._send(
                conn, {"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": self.heartbeat_interval}}
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                self.gateway_received.append(data)
                await self._gateway_op(conn, data)
        finally:
            if conn in self._conns:
                self._conns.remove(conn)
            self._notify()
        return ws

    def _guilds_for(self, conn: _Conn) -> list[FakeGuild]:
        """The servers a connection gets: all of them, until servers were added by shard."""
        if not self._shard_of:
            return [self.guild]
        return [g for g in self.guilds.values() if self._on_shard(g, conn.shard)]

    async def _gateway_op(self, conn: _Conn, data: dict) -> None:
        op, d = data.get("op"), data.get("d")
        if op == 1:
            await self._send(conn, {"op": 11, "s": None, "t": None, "d": None})
        elif op == 2:
            self.identifies.append(d)
            conn.shard = d.get("shard")
            if d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            conn.session_id = secrets.token_hex(16)
            self._sessions.add(conn.session_id)
            ready = {
                "v": 10,
                "user": dict(self.bot_user.payload(), verified=True, mfa_enabled=False, flags=0),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in self._guilds_for(conn)],
                "session_id": conn.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "_trace": ["fakediscord"],
            }
            if d.get("shard"):          # a sharded client: READY names the shard it identified as
                ready["shard"] = d["shard"]
            await self._dispatch(conn, "READY", ready)
            for guild in self._guilds_for(conn):
                await self._dispatch(conn, "GUILD_CREATE", guild.payload())
            conn.ready = True
            self._ready_count += 1
            self._notify()
        elif op == 6:
            if d.get("token") != self.token or d.get("session_id") not in self._sessions:
                await self._send(conn, {"op": 9, "s": None, "t": None, "d": False})
                return
            conn.session_id, conn.seq = d["session_id"], int(d.get("seq") or 0)
            await self._dispatch(conn, "RESUMED", {"_trace": ["fakediscord"]})
            conn.ready = True
            self._ready_count += 1
            self._notify()
        elif op == 8:
            ids = d.get("user_ids")
            members = [m for m in self.guild.members if ids is None or str(m.id) in {str(i) for i in ids}]
            q = (d.get("query") or "").lower()
            members = [m for m in members if m.name.lower().startswith(q)]
            chunk = {
                "guild_id": str(self.guild.id),
                "members": [m.member_payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            await self._dispatch(conn, "GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ REST plumbing

    def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{channel}/{att}/{filename}", self._get_attachment)
        for v in ("v10", "v9"):
            a = f"/api/{v}"
            r.add_get(a + "/users/@me", self._users_me)
            r.add_get(a + "/users/{user_id}", self._get_user)
            r.add_post(a + "/users/@me/channels", self._create_dm)
            r.add_get(a + "/gateway", self._get_gateway)
            r.add_get(a + "/gateway/bot", self._get_gateway)
            r.add_get(a + "/oauth2/applications/@me", self._app_info)
            r.add_get(a + "/applications/@me", self._app_info)
            r.add_put(a + "/applications/{app}/commands", self._bulk_commands)
            r.add_put(a + "/applications/{app}/guilds/{guild}/commands", self._bulk_commands)
            r.add_get(a + "/applications/{app}/commands", self._get_commands)
            r.add_get(a + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
            r.add_get(a + "/guilds/{guild}", self._get_guild)
            r.add_get(a + "/guilds/{guild}/channels", self._get_guild_channels)
            r.add_get(a + "/guilds/{guild}/roles", self._get_roles)
            r.add_get(a + "/guilds/{guild}/members", self._get_members)
            r.add_get(a + "/guilds/{guild}/members/{user_id}", self._get_member)
            r.add_get(a + "/channels/{channel}", self._get_channel)
            r.add_patch(a + "/channels/{channel}", self._edit_channel)
            r.add_post(a + "/channels/{channel}/typing", self._no_content)
            r.add_get(a + "/channels/{channel}/messages", self._list_messages)
            r.add_post(a + "/channels/{channel}/messages", self._post_message)
            r.add_get(a + "/channels/{channel}/messages/{message}", self._get_message)
            r.add_patch(a + "/channels/{channel}/messages/{message}", self._patch_message)
            r.add_delete(a + "/channels/{channel}/messages/{message}", self._delete_message)
            r.add_put(a + "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", self._no_content)
            r.add_post(a + "/channels/{channel}/threads", self._create_thread)
            r.add_post(a + "/channels/{channel}/messages/{message}/threads", self._create_thread)
            r.add_put(a + "/channels/{channel}/thread-members/{user_id}", self._no_content)
            r.add_post(a + "/interactions/{iid}/{token}/callback", self._callback)
            r.add_post(a + "/webhooks/{app}/{token}", self._followup)
            r.add_get(a + "/webhooks/{app}/{token}/messages/{message}", self._webhook_get)
            r.add_patch(a + "/webhooks/{app}/{token}/messages/{message}", self._webhook_patch)
            r.add_delete(a + "/webhooks/{app}/{token}/messages/{message}", self._webhook_delete)
        r.add_route("*", "/{tail:.*}", self._unknown, name="unknown")
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        loop = asyncio.get_running_loop()
        self._inflight += 1
        log = RequestLog(request.method, request.path, dict(request.query), None, {})
        self.requests.append(log)
        try:
            request[_LOG_KEY] = log
            limited = self._over_global_limit(request, loop.time())
            if limited is not None:
                log.status = limited.status
                return limited
            try:
                if request.path.startswith("/api/") and request.match_info.route.name != "unknown":
                    auth = request.headers.get("Authorization")
                    is_webhook = "/webhooks/" in request.path or "/interactions/" in request.path
                    if not is_webhook and auth != f"Bot {self.token}":
                        raise _ApiError(401, 0, "401: Unauthorized")
                resp = await handler(request)
            except _ApiError as e:
                err = {"method": request.method, "path": request.path, "status": e.status, "code": e.code,
                       "message": e.message, "problems": list(e.errors or [])}  # fmt: skip
                self.errors.append(err)
                rec = request.get(_REC_KEY)
                if rec is not None:
                    rec.errors.append(err)
                resp = json_response(e.body(), e.status)
            log.status = resp.status
            return resp
        finally:
            self._inflight -= 1
            self._last_activity = loop.time()
            self._notify()

    def _over_global_limit(self, request: web.Request, now: float) -> web.Response | None:
        """A counted request: noted, or answered 429 as Discord answers one past the bot's global limit."""
        if not COUNTED.match(request.path):
            return None
        recent = self.counted[-self.global_limit:] if self.global_limit else []
        if self.global_limit and len(recent) == self.global_limit and now - recent[0] < 1.0:
            self.limited.append(now)
            retry = round(1.0 - (now - recent[0]), 3)
            body = {"message": "You are being rate limited.", "retry_after": retry, "global": True, "code": 0}
            return web.Response(body=json.dumps(body).encode(), status=429, headers={
                "Content-Type": "application/json", "Retry-After": str(retry), "X-RateLimit-Global": "true",
                "X-RateLimit-Scope": "global", "Via": "1.1 google"})
        self.counted.append(now)
        return None

    async def _body(self, request: web.Request) -> tuple[dict, dict[int, tuple[str, bytes, str | None]]]:
        files: dict[int, tuple[str, bytes, str | None]] = {}
        payload: Any = {}
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""
                raw = await part.read()
                if name == "payload_json":
                    payload = json.loads(raw)
                elif m := re.fullmatch(r"files\[(\d+)\]|file(\d*)", name):
                    idx = int(m.group(1) or m.group(2) or 0)
                    files[idx] = (part.filename or f"file{idx}", bytes(raw), part.headers.get("Content-Type"))
        elif request.can_read_body:
            text = await request.text()
            payload = json.loads(text) if text else {}
        log = request.get(_LOG_KEY)
        if log is not None:
            log.json, log.files = payload, {i: (f[0], f[1]) for i, f in files.items()}
        if self.openapi:
            self._judge(request, payload)
        return payload, files

    def _judge(self, request: web.Request, payload: Any) -> None:
        """Check a request's body against Discord's OpenAPI description (tests/discordspec.py) as Discord would:
        refused with 400/50035 (after the fake's own reasons, which read more clearly) and remembered in
        ``openapi_refused``; the checks are counted here and for the whole test session (``OPENAPI``)."""
        from tests import discordspec

        judged, found = discordspec.problem(request.method, request.path, payload)
        self.openapi_checked += judged
        session = OPENAPI if self.tally else {}
        session["checked"] = session.get("checked", 0) + judged
        message = payload.get("data") if request.path.endswith("/callback") and isinstance(payload, dict) else payload
        if isinstance(message, dict) and ("components" in message or message.get("content")):
            # a message the bot sends or edits: a Components V2 card, or a plain one (issue #48 counts them)
            card = bool(int(message.get("flags") or 0) & COMPONENTS_V2)
            session["cards" if card else "plain"] = session.get("cards" if card else "plain", 0) + 1
            if not card:
                self.plain_sent.append(f"{request.method} {request.path}")
        if found is None:
            return
        self.openapi_refused.append(found)
        session["refused"] = session.get("refused", 0) + 1
        errors = [f"OpenAPI: {found}"]
        message = payload.get("data") if request.path.endswith("/callback") and isinstance(payload, dict) else payload
        if isinstance(message, dict):
            try:
                self._validate(message)
            except _ApiError as e:
                errors = list(e.errors or []) + errors
        raise _ApiError(400, 50035, "Invalid Form Body", errors)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append((request.method, request.path))
        return json_response({"message": f"404: Not Found (fakediscord has no route {request.method} "
                                         f"{request.path})", "code": 0}, 404)  # fmt: skip

    async def _no_content(self, request: web.Request) -> web.Response:
        await self._body(request)
        return web.Response(status=204)

    def _chan(self, request: web.Request) -> FakeChannel:
        try:
            return self._channels[int(request.match_info["channel"])]
        except (KeyError, ValueError):
            raise _ApiError(404, 10003, "Unknown Channel") from None

    def _msg(self, request: web.Request, channel: FakeChannel, *, allow_ephemeral=False) -> FakeMessage:
        try:
            m = self._messages[int(request.match_info["message"])]
        except (KeyError, ValueError):
            raise _ApiError(404, 10008, "Unknown Message") from None
        if m.channel_id != channel.id or m.deleted or (m.ephemeral and not allow_ephemeral):
            raise _ApiError(404, 10008, "Unknown Message")
        return m

    # ------------------------------------------------------------------ simple REST

    async def _users_me(self, request: web.Request) -> web.Response:
        return json_response(dict(self.bot_user.payload(), verified=True, mfa_enabled=False, flags=0))

    async def _get_user(self, request: web.Request) -> web.Response:
        try:
            return json_response(self._users[int(request.match_info["user_id"])].payload())
        except (KeyError, ValueError):
            raise _ApiError(404, 10013, "Unknown User") from None

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({
            "url": self.gateway_url, "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })  # fmt: skip

    async def _app_info(self, request: web.Request) -> web.Response:
        owner = self.guild.members[1] if len(self.guild.members) > 1 else self.bot_user
        return json_response({
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None, "description": "",
            "rpc_origins": [], "bot_public": False, "bot_require_code_grant": False,
            "bot": self.bot_user.payload(), "owner": owner.payload(), "team": None, "verify_key": "0" * 64,
            "flags": 0, "summary": "", "interactions_endpoint_url": None, "redirect_uris": [],
            "approximate_guild_count": 1, "tags": [], "integration_types_config": {"0": {}},
        })  # fmt: skip

    async def _bulk_commands(self, request: web.Request) -> web.Response:
        payload, _ = await self._body(request)
        if not isinstance(payload, list):
            raise _ApiError(400, 50035, "Invalid Form Body")
        gid = int(request.match_info["guild"]) if "guild" in request.match_info else None
        self.sync_payloads.append((gid, payload))
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.synced.get(gid, [])}
        stored = []
        for cmd in payload:
            c = dict(cmd)
            c.setdefault("type", 1)
            c["id"] = old.get((c["name"], c["type"])) or str(snowflake())
            c["application_id"] = str(self.application_id)
            c["version"] = str(snowflake())
            c.setdefault("default_member_permissions", None)
            c.setdefault("nsfw", False)
            c.setdefault("description", "")
            if gid is not None:
                c["guild_id"] = str(gid)
            stored.append(c)
        self.synced[gid] = stored
        return json_response(stored)

    async def _get_commands(self, request: web.Request) -> web.Response:
        gid = int(request.match_info["guild"]) if "guild" in request.match_info else None
        return json_response(self.synced.get(gid, []))

    def _check_guild(self, request: web.Request) -> None:
        if not any(request.match_info["guild"] == str(g) for g in self.guilds):
            raise _ApiError(404, 10004, "Unknown Guild")

    async def _get_guild(self, request: web.Request) -> web.Response:
        self._check_guild(request)
        data = self.guild.payload()
        for k in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large", "unavailable"):
            data.pop(k, None)
        data.update(approximate_member_count=len(self.guild.members), approximate_presence_count=0)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        self._check_guild(request)
        return json_response([c.payload() for c in self.guild.channels if not c.is_thread])

    async def _get_roles(self, request: web.Request) -> web.Response:
        self._check_guild(request)
        return json_response(self.guild.roles)

    async def _get_members(self, request: web.Request) -> web.Response:
        self._check_guild(request)
        return json_response([m.member_payload() for m in self.guild.members])

    async def _get_member(self, request: web.Request) -> web.Response:
        self._check_guild(request)
        uid = request.match_info["user_id"]
        m = next((m for m in self.guild.members if str(m.id) == uid), None)
        if m is None:
            raise _ApiError(404, 10007, "Unknown Member")
        return json_response(m.member_payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._chan(request).payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        c = self._chan(request)
        payload, _ = await self._body(request)
        c.name = payload.get("name", c.name)
        c.archived = payload.get("archived", c.archived)
        c.locked = payload.get("locked", c.locked)
        return json_response(c.payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self._body(request)
        u = self.user(int(payload["recipient_id"]))
        c = self.dm_channel(u)
        if c is None:
            c = FakeChannel(snowflake(), f"dm-{u.name}", 1, None, recipients=[u])
            self._channels[c.id] = c
        return json_response(c.payload())

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._chan(request)
        payload, _ = await self._body(request)
        if "message" in request.match_info:
            msg = self._msg(request, parent)
            tid, ttype = msg.id, 11
        else:
            tid, ttype = snowflake(), payload.get("type") or 12
        if tid in self._channels:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        guild = self._guild_of(parent)
        t = FakeChannel(tid, payload.get("name", "thread"), ttype, guild.id, parent.id, owner_id=self.bot_user.id)
        self._channels[t.id] = t
        guild.channels.append(t)
        conn = self._conn_for(guild)
        if conn is not None:
            await self._dispatch(conn, "THREAD_CREATE", dict(t.payload(), newly_created=True))
        return json_response(t.payload())

    async def _get_attachment(self, request: web.Request) -> web.Response:
        att = self._files.get(request.path)
        if att is None:
            raise _ApiError(404, 0, "404: Not Found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"})

    # ------------------------------------------------------------------ messages

    def _validate(self, data: dict) -> None:
        errors: list[str] = []
        content = data.get("content")
        if content is not None and len(str(content)) > 2000:
            errors.append(f"content: {len(content)} characters (max 2000)")
        embeds = data.get("embeds") or []
        if len(embeds) > 10:
            errors.append(f"embeds: {len(embeds)} (max 10)")
        total = 0
        for i, e in enumerate(embeds):
            for key, lim in (("title", 256), ("description", 4096)):
                n = len(e.get(key) or "")
                total += n
                if n > lim:
                    errors.append(f"embeds[{i}].{key}: {n} characters (max {lim})")
            if len(e.get("fields") or []) > 25:
                errors.append(f"embeds[{i}].fields: more than 25")
            for f in e.get("fields") or []:
                total += len(f.get("name") or "") + len(f.get("value") or "")
        if total > 6000:
            errors.append(f"embeds: {total} characters in total (max 6000)")
        comps = data.get("components") or []
        flags = int(data.get("flags") or 0)
        ids: list[str] = []
        if not flags & COMPONENTS_V2:
            if len(comps) > 5:
                errors.append(f"components: {len(comps)} rows (max 5)")
            for i, row in enumerate(comps):
                if row.get("type") != 1:
                    errors.append(f"components[{i}]: top level must be an action row, not type {row.get('type')}")
                    continue
                kids = row.get("components") or []
                if not kids or len(kids) > 5:
                    errors.append(f"components[{i}]: {len(kids)} components (1..5)")
                if any(k.get("type") != 2 for k in kids) and len(kids) > 1:
                    errors.append(f"components[{i}]: a select must be alone in its row")
        else:
            errors += _v2_problems(data, comps)
        for c in _walk_components(comps):
            if "custom_id" in c:
                ids.append(c["custom_id"])
                if not 1 <= len(c["custom_id"]) <= 100:
                    errors.append(f"custom_id {c['custom_id'][:40]!r}...: {len(c['custom_id'])} characters (1..100)")
            if c.get("type") == 2:
                if len(c.get("label") or "") > 80:
                    errors.append(f"button label {c['label'][:30]!r}...: more than 80 characters")
                if c.get("style") == 5 and not c.get("url"):
                    errors.append("link button without url")
                if c.get("style") not in (5, 6) and "custom_id" not in c:
                    errors.append(f"button {c.get('label')!r} without custom_id")
                if not c.get("label") and not c.get("emoji"):
                    errors.append("button without label or emoji")
            if c.get("type") == 3:
                opts = c.get("options") or []
                if not 1 <= len(opts) <= 25:
                    errors.append(f"select {c.get('custom_id')!r}: {len(opts)} options (1..25)")
                for o in opts:
                    if len(o.get("label") or "") > 100 or len(str(o.get("value") or "")) > 100:
                        errors.append(f"select option {o.get('label')!r}: label/value over 100 characters")
                    if len(o.get("description") or "") > 100:
                        errors.append(f"select option {o.get('label')!r}: description over 100 characters")
                if len({o.get("value") for o in opts}) != len(opts):
                    errors.append(f"select {c.get('custom_id')!r}: duplicate option values")
                if len(c.get("placeholder") or "") > 150:
                    errors.append("select placeholder over 150 characters")
        if len(ids) != len(set(ids)):
            errors.append(f"components: duplicate custom_ids {sorted({i for i in ids if ids.count(i) > 1})}")
        if errors:
            raise _ApiError(400, 50035, "Invalid Form Body", errors)

    @staticmethod
    def _unknown_media(m: FakeMessage) -> None:
        """A V2 message shows its files through components: each ``attachment://name`` must name one of them."""
        names = {a.filename for a in m.attachments}
        unknown = [u for u in _media_urls(m.components) if u not in names]
        if unknown:
            raise _ApiError(400, 50035, "Invalid Form Body", [f"components: attachment://{u} is not attached"
                                                               for u in unknown])

    def _attachments(self, channel_id: int, data: dict, files: dict, existing: list[FakeAttachment]):
        """Build the attachment list from ``data["attachments"]`` (new files by index, kept ones by id)."""
        by_id = {a.id: a for a in existing}
        spec = data.get("attachments")
        if spec is None:
            if not files:
                return None
            spec = [{"id": i} for i in sorted(files)]
        out = []
        for entry in spec:
            aid = int(entry["id"])
            if aid in files and aid not in by_id:
                filename, raw, ctype = files[aid]
                new_id = snowflake()
                name = entry.get("filename") or filename
                path = f"/attachments/{channel_id}/{new_id}/{name}"
                if ctype in (None, "application/octet-stream"):
                    ctype = _guess_type(name, raw)
                att = FakeAttachment(new_id, name, raw, self.base_url + path, ctype, entry.get("description"))
                self._files[path] = att
                out.append(att)
            elif aid in by_id:
                out.append(by_id[aid])
            else:
                raise _ApiError(400, 50035, "Invalid Form Body", [f"attachments: unknown id {aid}"])
        return out

    def _create_message(self, channel: FakeChannel, data: dict, files: dict, *, source: str,
                        rec: InteractionRecord | None = None, flags_extra: int = 0) -> FakeMessage:  # fmt: skip
        self._validate(data)
        flags = int(data.get("flags") or 0) | flags_extra
        if source == "channel":
            flags &= ~EPHEMERAL
        m = FakeMessage(
            id=snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=str(data.get("content") or ""),
            embeds=list(data.get("embeds") or []),
            components=list(data.get("components") or []),
            flags=flags,
            source=source,
            tts=bool(data.get("tts")),
            allowed_mentions=data.get("allowed_mentions"),
            interaction_id=rec.id if rec else None,
            interaction_user=rec.user if rec else None,
            webhook_id=self.application_id if rec else None,
            message_reference=data.get("message_reference"),
        )
        m.attachments = self._attachments(channel.id, data, files, []) or []
        self._unknown_media(m)
        if not (m.content or m.embeds or m.attachments or m.components or flags & LOADING or data.get("sticker_ids")):
            raise _ApiError(400, 50006, "Cannot send an empty message")
        self._messages[m.id] = m
        return m

    def _edit_message(self, m: FakeMessage, data: dict, files: dict) -> FakeMessage:
        merged = {"content": m.content, "embeds": m.embeds, "components": m.components, "flags": m.flags}
        merged.update({k: v for k, v in data.items() if k in ("content", "embeds", "components")})
        if "flags" in data:
            # Discord: IS_COMPONENTS_V2 may be set by an edit (a plain message becomes a card), never removed
            merged["flags"] = (m.flags & (EPHEMERAL | COMPONENTS_V2)) | int(data["flags"] or 0)
        self._validate(merged)
        atts = self._attachments(m.channel_id, data, files, m.attachments)
        shown = FakeMessage(m.id, m.channel_id, m.guild_id, m.author, components=list(merged["components"] or []),
                            attachments=atts if atts is not None else m.attachments)
        self._unknown_media(shown)
        if "content" in data:
            m.content = str(data["content"] or "")
        if "embeds" in data:
            m.embeds = list(data["embeds"] or [])
        if "components" in data:
            m.components = list(data["components"] or [])
        if "allowed_mentions" in data:
            m.allowed_mentions = data["allowed_mentions"]
        if atts is not None:
            m.attachments = atts
        m.flags = (int(merged["flags"]) & ~LOADING) | (m.flags & EPHEMERAL)
        m.edits += 1
        m.edited_timestamp = _now()
        return m

    async def _list_messages(self, request: web.Request) -> web.Response:
        c = self._chan(request)
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.messages(c, ephemeral=False)][::-1][:limit]
        return json_response([m.payload() for m in msgs])

    async def _post_message(self, request: web.Request) -> web.Response:
        c = self._chan(request)
        payload, files = await self._body(request)
        nonce = payload.get("nonce")
        if nonce and payload.get("enforce_nonce"):
            # like Discord: a message with the same nonce from the same author (in the last few minutes) is
            # answered instead of creating a second one
            same = [m for m in self._messages.values() if m.channel_id == c.id and m.nonce == str(nonce)
                    and not m.deleted]
            if same:
                return json_response(same[0].payload())
        m = self._create_message(c, payload, files, source="channel")
        m.nonce = str(nonce) if nonce else None
        return json_response(m.payload())

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(self._msg(request, self._chan(request)).payload())

    async def _patch_message(self, request: web.Request) -> web.Response:
        m = self._msg(request, self._chan(request))
        payload, files = await self._body(request)
        return json_response(self._edit_message(m, payload, files).payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        m = self._msg(request, self._chan(request))
        m.deleted = True
        return web.Response(status=204)

    # ------------------------------------------------------------------ interactions

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self._by_id.get(int(request.match_info["iid"])) if request.match_info["iid"].isdigit() else None
        if rec is None or rec.token != request.match_info["token"]:
            raise _ApiError(404, 10062, "Unknown interaction")
        request[_REC_KEY] = rec
        payload, files = await self._body(request)
        if rec.callback is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - rec.created_at > self.callback_deadline:
            raise _ApiError(404, 10062, "Unknown interaction")
        t = payload.get("type")
        data = payload.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL},
            MESSAGE_COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
        }[rec.type]
        if t not in allowed:
            raise _ApiError(400, 50035, f"Invalid Form Body: callback type {t} for interaction type {rec.type}")
        channel = rec.channel
        if t == MESSAGE:
            rec.message = self._create_message(channel, data, files, source="interaction", rec=rec)
        elif t == DEFERRED_MESSAGE:
            rec.message = self._create_message(channel, {"flags": data.get("flags", 0)}, {}, source="interaction",
                                               rec=rec, flags_extra=LOADING)  # fmt: skip
        elif t in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if rec.source_message is None:
                raise _ApiError(400, 50035, "Invalid Form Body: no message to update")
            rec.message = rec.source_message
            if t == UPDATE_MESSAGE:
                self._edit_message(rec.message, data, files)
        elif t == AUTOCOMPLETE_RESULT:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise _ApiError(400, 50035, "Invalid Form Body", [f"choices: {len(choices)} (max 25)"])
            for ch in choices:
                if not 1 <= len(ch.get("name", "")) <= 100:
                    raise _ApiError(400, 50035, "Invalid Form Body", [f"choice name {ch.get('name')!r}: 1..100"])
            rec.choices = choices
        elif t == MODAL:
            rec.modal = data
        rec.callback = {"type": t, "data": data}
        rec.callback_at = time.monotonic()
        rec._touch("callback", t)
        self._notify()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": t == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(rec.message and rec.message.ephemeral),
            },
            "resource": {"type": t},
        }
        if rec.message is not None:
            body["interaction"]["response_message_id"] = str(rec.message.id)
            if t in (MESSAGE, UPDATE_MESSAGE, DEFERRED_MESSAGE):
                body["resource"]["message"] = rec.message.payload()
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(body)
        return web.Response(status=204)

    def _rec_for_webhook(self, request: web.Request) -> InteractionRecord:
        rec = self._by_token.get(request.match_info["token"])
        if rec is None or request.match_info["app"] != str(self.application_id):
            raise _ApiError(404, 10015, "Unknown Webhook")
        request[_REC_KEY] = rec
        if rec.callback is None:
            raise _ApiError(404, 10015, "Unknown Webhook (the interaction was not acknowledged yet)")
        return rec

    def _webhook_message(self, request: web.Request, rec: InteractionRecord) -> FakeMessage:
        mid = request.match_info["message"]
        if mid == "@original":
            if rec.message is None:
                raise _ApiError(404, 10008, "Unknown Message")
            return rec.message
        m = next((f for f in rec.followups if str(f.id) == mid), None)
        if m is None and rec.message is not None and str(rec.message.id) == mid:
            m = rec.message
        if m is None or m.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        return m

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._rec_for_webhook(request)
        payload, files = await self._body(request)
        if rec.callback_type in (AUTOCOMPLETE_RESULT, MODAL) and rec.type != MODAL_SUBMIT:
            raise _ApiError(400, 50035, "Invalid Form Body: no follow-ups after this callback")
        channel = rec.channel
        if "thread_id" in request.query:
            channel = self._channels[int(request.query["thread_id"])]
        if (rec.message is not None and rec.message.loading and not rec.message.deleted
                and rec.callback_type == DEFERRED_MESSAGE):
            # Discord: the first follow-up after a "thinking" defer replaces the loading message
            m = self._edit_message(rec.message, payload, files)
            rec._touch("edit", m.id)
        else:
            m = self._create_message(channel, payload, files, source="followup", rec=rec)
            rec.followups.append(m)
            rec._touch("followup", m.id)
        self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(m.payload())
        return web.Response(status=204)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._rec_for_webhook(request)
        return json_response(self._webhook_message(request, rec).payload())

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        rec = self._rec_for_webhook(request)
        m = self._webhook_message(request, rec)
        payload, files = await self._body(request)
        self._edit_message(m, payload, files)
        rec._touch("edit", m.id)
        self._notify()
        return json_response(m.payload())

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._rec_for_webhook(request)
        m = self._webhook_message(request, rec)
        m.deleted = True
        rec._touch("delete", m.id)
        self._notify()
        return web.Response(status=204)


def _guess_type(name: str, raw: bytes) -> str | None:
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if raw[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if raw[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if name.endswith(".txt"):
        return "text/plain; charset=utf-8"
    return None
