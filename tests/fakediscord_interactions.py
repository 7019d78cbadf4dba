"""The fake Discord acting as users (slash commands, autocomplete, clicks, selects, modals) and taking the bot's
answers to them (interaction callbacks, follow-ups and the interaction webhook's messages); see tests/fakediscord.py."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from aiohttp import web

from tests.fakediscord_models import (
    _REC_KEY,
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    LOADING,
    MEMBER_PERMISSIONS,
    MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionFailed,
    InteractionRecord,
    _ApiError,
    _walk_components,
    json_response,
    snowflake,
)


class Interactions:
    """A mixin of ``FakeDiscord``: the interactions users send and the routes the bot answers them on."""

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
