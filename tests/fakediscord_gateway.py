"""The fake Discord's gateway (the websocket: HELLO, IDENTIFY/RESUME, READY, GUILD_CREATE, dispatches); see
tests/fakediscord.py."""

from __future__ import annotations

import json
import secrets
import zlib

from aiohttp import WSMsgType, web

from tests.fakediscord_models import FakeGuild, _Conn


class Gateway:
    """A mixin of ``FakeDiscord``: the gateway websocket."""

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
