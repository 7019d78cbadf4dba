"""A budget of requests a second shared by every process of one bot: Discord's global rate limit (50 requests a
second per bot token, however many processes share the token) is kept here (issue #50).

    budget = Budget(store, per_second=45, burst=5, processes=4)
    wait = await budget.take()      # seconds until this request may go (0: at once)
    await budget.pause(1.5)         # Discord answered a global 429: nobody sends for 1.5 s

The rule is GCRA (the generic cell rate algorithm): one number, the moment ``next_at`` the budget is next free;
a request may go at max(now, next_at - tolerance) and moves next_at to max(next_at, now) + interval. In any
second at most ``per_second`` requests go: ``burst`` at once after a quiet spell (a move that edits, posts and
opens a thread pays no wait), then one every 1/(per_second - burst) s.

On PostgreSQL next_at is the one row of ``send_budget``, moved by one statement a request on the database's
clock (the machines' clocks need not agree); each process waits out its own turn. On SQLite (one process) it is
kept in memory. While the database cannot be reached a process keeps to its share, per_second / processes, in
memory, and goes back to the shared budget when the database answers.
"""

from __future__ import annotations

import logging
import time

from sqlalchemy import text

log = logging.getLogger("teahouse.store")

NAME = "global"

TAKE = text("""
    INSERT INTO send_budget AS b (name, next_at) VALUES (:name, EXTRACT(EPOCH FROM clock_timestamp()) + :interval)
    ON CONFLICT (name) DO UPDATE
        SET next_at = GREATEST(b.next_at, EXTRACT(EPOCH FROM clock_timestamp())) + :interval
    RETURNING b.next_at, EXTRACT(EPOCH FROM clock_timestamp()) AS now""")
PAUSE = text("""
    INSERT INTO send_budget AS b (name, next_at) VALUES (:name, EXTRACT(EPOCH FROM clock_timestamp()) + :until)
    ON CONFLICT (name) DO UPDATE
        SET next_at = GREATEST(b.next_at, EXTRACT(EPOCH FROM clock_timestamp()) + :until)""")


class Gcra:
    """The rule in memory (one process, or a process's share while the database is away)."""

    def __init__(self, per_second: float, burst: int):
        self.burst = max(1, int(burst))
        self.interval = 1.0 / max(per_second - self.burst, 1e-9)     # the sustained rate leaves room for a burst
        self.tolerance = (self.burst - 1) * self.interval
        self.next_at = 0.0

    def take(self, now: float) -> float:
        """Reserve the next turn: the seconds to wait for it."""
        slot = max(now, self.next_at - self.tolerance)
        self.next_at = max(self.next_at, now) + self.interval
        return slot - now

    def pause(self, now: float, seconds: float) -> None:
        self.next_at = max(self.next_at, now + seconds + self.tolerance)


class Budget:
    """Discord's global budget for the processes on ``store``'s database (see the module's docstring)."""

    def __init__(self, store, per_second: float = 45.0, burst: int = 5, processes: int = 1):
        self.store = store
        self.per_second = per_second
        self.processes = max(1, processes)
        self.local = Gcra(per_second, burst)
        self.share = Gcra(per_second / max(1, processes), max(1, burst // max(1, processes)))
        self.away = False          # the database did not answer the last take: the share is kept meanwhile

    @property
    def shared(self) -> bool:
        return self.store.side.name == "postgresql"

    async def take(self) -> float:
        """Reserve the next turn of the whole bot: the seconds to wait before the request goes."""
        if not self.shared:
            return self.local.take(time.monotonic())
        rule = self.local
        try:
            async with self.store.side.connection("read") as conn:        # one statement, in autocommit
                next_at, now = (await conn.execute(TAKE, {"name": NAME, "interval": rule.interval})).one()
        except Exception as e:      # noqa: BLE001 — a send never fails for the budget: the share is kept instead
            if not self.away:
                log.warning("the shared send budget cannot be read (%s); this process keeps to 1/%d of it until "
                            "the database answers", type(e).__name__, self.processes)
            self.away = True
            return self.share.take(time.monotonic())
        if self.away:
            log.info("the shared send budget answers again")
            self.away = False
        return max(0.0, float(next_at) - rule.interval - rule.tolerance - float(now))

    async def pause(self, seconds: float) -> None:
        """Discord refused a request for the whole bot (a global 429): no process sends for ``seconds``."""
        now = time.monotonic()
        self.local.pause(now, seconds)
        self.share.pause(now, seconds)
        if self.shared:
            try:
                async with self.store.side.connection("read") as conn:
                    await conn.execute(PAUSE, {"name": NAME, "until": seconds + self.local.tolerance})
            except Exception as e:  # noqa: BLE001 — this process pauses all the same
                log.warning("the shared send budget could not be paused (%s)", type(e).__name__)
