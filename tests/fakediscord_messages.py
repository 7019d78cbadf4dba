"""The fake Discord's message routes: validation against Discord's limits (Components V2 included), attachments,
creating, listing, fetching, editing and deleting channel messages; see tests/fakediscord.py."""

from __future__ import annotations

from aiohttp import web

from tests.fakediscord_models import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    InteractionRecord,
    _ApiError,
    _now,
    _walk_components,
    json_response,
    snowflake,
)

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


def _media_urls(components: list[dict]) -> list[str]:
    """The ``attachment://`` names a V2 message's gallery items, thumbnails and files show."""
    urls = []
    for c in _walk_components(components):
        for media in [item.get("media") for item in c.get("items") or []] + [c.get("media"), c.get("file")]:
            url = (media or {}).get("url") or ""
            if url.startswith("attachment://"):
                urls.append(url[len("attachment://"):])
    return urls




class Messages:
    """A mixin of ``FakeDiscord``: channel messages and their checks."""

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
