"""The fake Discord's REST plumbing (routes, middleware, limits, the OpenAPI check) and its simple routes: the
bot's user and application, commands, the guild, channels, threads and DMs; see tests/fakediscord.py."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from aiohttp import web

from tests.fakediscord_models import (
    _LOG_KEY,
    _REC_KEY,
    COMPONENTS_V2,
    COUNTED,
    OPENAPI,
    FakeChannel,
    FakeMessage,
    RequestLog,
    _ApiError,
    json_response,
    snowflake,
)


class Rest:
    """A mixin of ``FakeDiscord``: the REST application and the routes outside messages and interactions."""

    # ------------------------------------------------------------------ REST plumbing

    def _make_app(self) -> web.Application:
        limits = [self.channel_limit.middleware] if self.channel_limit else []       # inside the global one
        app = web.Application(middlewares=[self._middleware, *limits], client_max_size=64 * 1024 * 1024)
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
