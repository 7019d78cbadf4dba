"""Discord's limit on one channel for the fake Discord (issue #49): past ``limit`` requests in ``window`` seconds to
the same channel (``/channels/{id}/…``: posts, edits, deletes), the next is answered 429 with ``retry_after``, as
Discord answers a bot that floods a channel; each channel is counted on its own. ``FakeDiscord(channel_limit=
(5, 5.0))`` plugs it in; a test that compresses time gives a shorter window.

Every request is noted as it arrives (``accepted``, ``limited``: the loop's times per channel), and ``on_accepted``
(when set) hears of each accepted one with the fake's answer, so a test can read what a message said after it.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable

from aiohttp import web

PATH = re.compile(r"^/api/v\d+/channels/(\d+)(/|$)")


class ChannelLimit:
    def __init__(self, limit: int = 5, window: float = 5.0, clock: Callable[[], float] | None = None):
        import time

        self.limit, self.window = limit, window
        self.clock = clock or time.monotonic
        self.accepted: dict[int, list[float]] = defaultdict(list)
        self.limited: dict[int, list[float]] = defaultdict(list)
        self.on_accepted: Callable[[int, web.Request, web.StreamResponse, float], None] | None = None

    def over(self, channel: int, now: float) -> float | None:
        """Seconds until ``channel`` may take a request, when it is over its limit now; else None."""
        times = self.accepted[channel]
        recent = [t for t in times[-self.limit:] if now - t < self.window]
        if len(recent) < self.limit:
            return None
        return max(self.window - (now - recent[0]), 0.001)

    @web.middleware
    async def middleware(self, request: web.Request, handler) -> web.StreamResponse:
        match = PATH.match(request.path)
        if match is None:
            return await handler(request)
        channel, now = int(match[1]), self.clock()
        retry = self.over(channel, now)
        if retry is not None:
            self.limited[channel].append(now)
            body = {"message": "You are being rate limited.", "retry_after": round(retry, 3), "global": False,
                    "code": 0}
            return web.Response(body=json.dumps(body).encode(), status=429, headers={
                "Content-Type": "application/json", "Retry-After": str(max(1, round(retry))),
                "X-RateLimit-Scope": "user", "Via": "1.1 google"})
        self.accepted[channel].append(now)
        response = await handler(request)
        if self.on_accepted is not None:
            self.on_accepted(channel, request, response, now)
        return response

    def busiest(self, channel: int) -> int:
        """The most requests ``channel`` took within any ``window``."""
        times, most, start = self.accepted[channel], 0, 0
        for end in range(len(times)):
            while times[end] - times[start] >= self.window:
                start += 1
            most = max(most, end - start + 1)
        return most
