"""Health and metrics over HTTP, for hosts who watch the bot (``METRICS_PORT``; off by default).

    metrics = Metrics(store, service, gateway=..., latencies=...)
    port = await metrics.start("0.0.0.0", 9108)     # GET /healthz and /metrics
    ...
    await metrics.stop()

``/healthz`` answers 200 "ok" while the front end says it is connected (``gateway()`` returns None) and the
database answers a trivial statement within PING_TIMEOUT; otherwise 503 and the reasons, one a line.

``/metrics`` is the Prometheus text format, from a registry of this instance's own (two bots in one test
process do not share counters). What each step costs is measured where it happens and handed in: the
front end reports each interaction (``interaction``), the table service each stored move (its ``observe``
hook), the image pool each picture (``rendering.observers``). The counts that need the database — open games,
timers due and late, the outbox — are read when Prometheus scrapes, in one round trip of indexed counts, and
kept CACHE_SECONDS, so moves never pay for the metrics and several scrapers share one read.

Platform-neutral: the Discord layer hands in callables for the gateway's state (cogs/observe.py). Nothing
here reads a game's state, so no metric or health answer can show a hand, a choice or a seed.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from render import workers as rendering

if TYPE_CHECKING:
    from store.store import Store

log = logging.getLogger("teahouse.metrics")

# Discord drops an interaction not answered (or deferred) within 3 s: the buckets are finest around it
ANSWER_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0)
SAVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
PICTURE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
LATE_AFTER = 60.0        # seconds past due before an unfired timer counts as late (the scheduler wakes each 60 s)
CACHE_SECONDS = 5.0      # the database counts are read at most this often
PING_TIMEOUT = 2.0       # seconds the database has to answer /healthz


def address(port: str | None, host: str | None = None) -> tuple[str, int] | None:
    """Where to serve the metrics from METRICS_PORT (and METRICS_HOST, default every interface): None when
    the port is unset or empty (off); ValueError with a line for the host when it is not a port number."""
    port = (port or "").strip()
    if not port:
        return None
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"METRICS_PORT must be a port number (1–65535), not {port!r}.")
    return (host or "").strip() or "0.0.0.0", int(port)


def _nothing_wrong() -> str | None:
    return None


class Metrics:
    """One bot's health and metrics: its registry, the measurements handed in, and the HTTP server."""

    def __init__(self, store: Store, service=None, *, gateway: Callable[[], str | None] = _nothing_wrong,
                 latencies: Callable[[], dict] = dict, clock: Callable[[], float] = time.time):
        self.store = store
        self.service = service
        self.gateway = gateway          # None when connected, else why not (one line)
        self.latencies = latencies      # shard id → heartbeat round trip in seconds
        self.clock = clock
        self.sends = None               # the front end's requests to its platform (cogs/budget.py Sends), if known
        self.registry = CollectorRegistry()
        r = self.registry
        self.answers = Histogram("teahouse_interaction_seconds", "Interactions by command: from arrival to the "
                                 "last message sent", ["command"], buckets=ANSWER_BUCKETS, registry=r)
        self.acks = Histogram("teahouse_interaction_ack_seconds", "Interactions by command: from arrival to the "
                              "first answer or deferral (Discord allows 3 s)", ["command"], buckets=ANSWER_BUCKETS,
                              registry=r)
        self.outcomes = Counter("teahouse_interactions", "Interactions by command and outcome (ok, refused: bad "
                                "input answered, error: an apology)", ["command", "outcome"], registry=r)
        self.saves = Histogram("teahouse_move_save_seconds", "Storing a move (its transaction)",
                               buckets=SAVE_BUCKETS, registry=r)
        self.pictures = Histogram("teahouse_picture_seconds", "Drawing a picture, its wait in the queue included",
                                  ["game"], buckets=PICTURE_BUCKETS, registry=r)
        r.register(_Scraped(self))
        self._counts: dict | None = None
        self._counted_at = -math.inf
        self._counting = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self._unhooked: Callable[[str, float], None] | None = None

    # ----- measurements handed in ------------------------------------------------------------------------
    def interaction(self, command: str, seconds: float, ack_seconds: float, outcome: str = "ok") -> None:
        self.answers.labels(command).observe(seconds)
        self.acks.labels(command).observe(ack_seconds)
        self.outcomes.labels(command, outcome).inc()

    def observe(self, what: str, seconds: float) -> None:
        """The table service's timings (Context.observe)."""
        if what == "move_save":
            self.saves.observe(seconds)

    def picture(self, game: str, seconds: float) -> None:
        self.pictures.labels(game).observe(seconds)

    # ----- read when scraped -----------------------------------------------------------------------------
    async def counts(self) -> dict | None:
        """The database counts, at most CACHE_SECONDS old; None when the database cannot be read."""
        async with self._counting:
            if time.monotonic() - self._counted_at < CACHE_SECONDS:
                return self._counts
            now = self.clock()
            try:
                if self.store.closed:
                    raise ConnectionError("the database is closed")
                self._counts = await asyncio.wait_for(self.store.gauges(now, now - LATE_AFTER), PING_TIMEOUT)
                self._counts["at"] = now
            except Exception as e:      # noqa: BLE001 — a scrape never fails for the database; /healthz says why
                log.warning("the metrics could not read the database: %s", type(e).__name__)
                self._counts = None
            self._counted_at = time.monotonic()
            return self._counts

    async def health(self) -> list[str]:
        """What is wrong: nothing when the gateway is connected and the database answers."""
        problems = []
        gateway = self.gateway()
        if gateway:
            problems.append(gateway)
        if self.store.closed:
            problems.append("the database is closed")
        else:
            try:
                await asyncio.wait_for(self.store.ping(), PING_TIMEOUT)
            except TimeoutError:
                problems.append(f"the database did not answer within {PING_TIMEOUT:g} s")
            except Exception as e:     # noqa: BLE001 — any failure is the answer
                problems.append(f"the database does not answer ({type(e).__name__})")
        return problems

    # ----- the HTTP server -------------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Serve /healthz and /metrics; the port it listens on (a free one for 0). Hooks into the table
        service and the image pool until ``stop``."""
        runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        self._runner = runner
        if self.service is not None:
            self._unhooked = self.service.observe
            self.service.observe = self.observe
        rendering.observers.append(self.picture)
        bound = runner.addresses[0][1]
        log.info("health and metrics on http://%s:%d/ (/healthz, /metrics)", host, bound)
        return bound

    async def stop(self) -> None:
        if self.picture in rendering.observers:
            rendering.observers.remove(self.picture)
        if self.service is not None and self.service.observe == self.observe:
            self.service.observe = self._unhooked
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        problems = await self.health()
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.counts()
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


class _Scraped:
    """The metrics read at scrape time: the gateway, the picture queue, the database counts (as last read by
    ``Metrics.counts``) and the database errors the store has counted."""

    def __init__(self, metrics: Metrics):
        self.metrics = metrics

    def describe(self):
        return []       # names vary with what is known; nothing to check against the other collectors

    def collect(self):
        m = self.metrics
        latency = GaugeMetricFamily("teahouse_gateway_latency_seconds", "Discord gateway heartbeat round trip",
                                    labels=["shard"])
        for shard, seconds in sorted(m.latencies().items()):
            if seconds is not None and math.isfinite(seconds):
                latency.add_metric([str(shard)], seconds)
        yield latency
        yield GaugeMetricFamily("teahouse_gateway_connected", "1 while connected to Discord's gateway",
                                value=0 if m.gateway() else 1)
        yield GaugeMetricFamily("teahouse_picture_queue", "Pictures waiting for an image worker",
                                value=rendering.waiting())
        yield GaugeMetricFamily("teahouse_pictures_drawing", "Pictures being drawn by the image workers",
                                value=rendering.drawing())
        yield CounterMetricFamily("teahouse_database_errors", "Storage failures (nothing was saved)",
                                  value=m.store.errors)
        if m.sends is not None:          # Discord's global limit, shared by the bot's processes (#50)
            requests = CounterMetricFamily("teahouse_discord_requests", "REST requests to Discord: counted "
                                           "against the bot's global limit, or not (interactions)", labels=["limit"])
            for kind, n in m.sends.requests.items():
                requests.add_metric([kind], n)
            yield requests
            limited = CounterMetricFamily("teahouse_discord_rate_limited", "429 answers from Discord, by scope "
                                          "(global: the whole bot's limit; route: one channel's)", labels=["scope"])
            for scope, n in m.sends.limited.items():
                limited.add_metric([scope], n)
            yield limited
            yield CounterMetricFamily("teahouse_discord_budget_wait_seconds", "Time counted requests waited for "
                                      "their turn in the global budget", value=m.sends.waited)
        counts = m._counts
        yield GaugeMetricFamily("teahouse_database_readable", "1 when the last read of the counts below worked",
                                value=0 if counts is None else 1)
        if counts is None:
            return
        yield GaugeMetricFamily("teahouse_open_games", "Games in a lobby or running", value=counts["open_games"])
        yield GaugeMetricFamily("teahouse_timers_due", "Timers due and not fired", value=counts["timers_due"])
        yield GaugeMetricFamily("teahouse_timers_late", f"Timers due more than {LATE_AFTER:g} s ago and not fired",
                                value=counts["timers_late"])
        yield GaugeMetricFamily("teahouse_outbox_backlog", "Notices fired and not yet delivered",
                                value=counts["outbox"])
        oldest = counts["outbox_oldest"]
        yield GaugeMetricFamily("teahouse_outbox_oldest_seconds", "Age of the oldest undelivered notice (0: none)",
                                value=0 if oldest is None else max(0.0, counts["at"] - oldest))
