"""Discord's global rate limit for the whole bot (issue #50): every REST request that counts against it waits
for its turn in the budget the bot's processes share (store/budget.py) before it leaves, and a global 429 makes
every process wait.

Which requests count: every REST request made with the bot token, except the interaction endpoints, which
Discord exempts: the callback that answers an interaction, and the follow-ups and edits through the interaction's
webhook. So a channel message (a notice, a move's picture posted to the channel), an edit of a channel message,
a thread, a direct message and the DM channel it needs, a member or channel look-up and the command sync all
count; the answer to a click does not.

The hook is aiohttp's request tracing (discord.py's ``http_trace`` option): every attempt takes its turn,
discord.py's own retry after a 429 included, and nothing in the send path changes. discord.py handles a 429 as
it always did (waits ``retry_after``, then tries again; a global one holds every request of this process); a
global one also moves the shared budget here, so the other processes wait too.

    DISCORD_GLOBAL_RATE=45    at most this many counted requests in any second, all processes together (45:
                              Discord's 50 less room for a clock's jitter); 0 turns the budget off
"""

from __future__ import annotations

import asyncio
import logging
import os
import re

import aiohttp

from store.budget import Budget

log = logging.getLogger("teahouse")

API = re.compile(r"/api/v\d+/")
EXEMPT = re.compile(r"/api/v\d+/(interactions|webhooks)/")
DEFAULT_RATE = 45.0
BURST = 5


def kind_of(path: str) -> str | None:
    """'global' for a request Discord counts against the bot's global limit, 'interaction' for one it exempts,
    None for what is not the REST API (the gateway, a file on the CDN)."""
    if not API.search(path):
        return None
    return "interaction" if EXEMPT.search(path) else "global"


def rate_setting(value: str | None) -> float:
    """DISCORD_GLOBAL_RATE: requests a second (0: off); ValueError with a line for the host otherwise."""
    value = (value or "").strip()
    if not value:
        return DEFAULT_RATE
    try:
        rate = float(value)
    except ValueError:
        rate = -1.0
    if not 0 <= rate <= 50:
        raise ValueError(f"DISCORD_GLOBAL_RATE must be a number of requests a second from 0 (off) to 50, not "
                         f"{value!r}.")
    return rate


class Sends:
    """What one bot process sent Discord, and the budget its counted requests wait for."""

    def __init__(self, store, processes: int = 1, rate: float | None = None):
        self.rate = rate_setting(os.environ.get("DISCORD_GLOBAL_RATE")) if rate is None else rate
        self.budget = Budget(store, self.rate, BURST, processes) if self.rate else None
        self.requests = {"global": 0, "interaction": 0}
        self.waited = 0.0              # seconds counted requests waited for their turn, in all
        self.limited = {"global": 0, "route": 0}    # 429s Discord answered, by scope

    def trace(self) -> aiohttp.TraceConfig:
        config = aiohttp.TraceConfig()
        config.on_request_start.append(self._start)
        config.on_request_end.append(self._end)
        return config

    async def _start(self, _session, _ctx, params) -> None:
        kind = kind_of(params.url.path)
        if kind is None:
            return
        self.requests[kind] += 1
        if kind == "global" and self.budget is not None:
            wait = await self.budget.take()
            if wait > 0:
                self.waited += wait
                await asyncio.sleep(wait)

    async def _end(self, _session, _ctx, params) -> None:
        response = params.response
        if response.status != 429 or kind_of(params.url.path) is None:
            return
        headers = response.headers
        scope = "global" if (headers.get("X-RateLimit-Global", "").lower() == "true"
                             or headers.get("X-RateLimit-Scope") == "global") else "route"
        self.limited[scope] += 1
        try:
            retry = float(headers.get("Retry-After", "1"))
        except ValueError:
            retry = 1.0
        log.warning("Discord answered 429 (%s limit) to a %s; retrying in %.2f s", scope, params.method, retry)
        if scope == "global" and self.budget is not None:
            await self.budget.pause(retry)
