"""The fake Discord's model objects (users, channels, guilds, attachments, messages, interaction records) and the
constants and helpers they share; see tests/fakediscord.py."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

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


def body_text(body: dict | None) -> str:
    """The words of a message body as sent (a request's JSON): its content, or a Components V2 message's text
    displays in order, one a line (as ``FakeMessage.said`` reads a stored message)."""
    body = body or {}
    texts = [c.get("content") or "" for c in _walk_components(body.get("components") or []) if c.get("type") == 10]
    return "\n".join(t for t in [body.get("content") or "", *texts] if t)


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
