"""Which servers a bot process looks after when several share one database (``SHARD_COUNT``/``SHARD_IDS``).

Discord puts a server on shard ``(guild_id >> 22) % shard_count``; a process started with some shard ids gets the
events of those servers only, and fires the timers and sends the outbox notices of those servers only. Games
without a server (direct messages, the console) and any server id that is not a number belong to shard 0.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    count: int
    ids: tuple[int, ...]

    def __post_init__(self):
        if self.count < 1:
            raise ValueError("SHARD_COUNT must be at least 1.")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"SHARD_IDS must be shard numbers from 0 to {self.count - 1}.")

    @staticmethod
    def of(guild: str | None, count: int) -> int:
        """The shard of a server id (shard 0 for none, or for an id that is not a number)."""
        if not guild or not guild.isdigit():
            return 0
        return (int(guild) >> 22) % count

    def owns(self, guild: str | None) -> bool:
        return self.of(guild, self.count) in self.ids

    @classmethod
    def parse(cls, count: str | None, ids: str | None) -> Shards | None:
        """From the environment: no SHARD_COUNT, one process for everything (None); SHARD_IDS a comma-separated
        list (default: every shard). Raises ValueError with a message for the operator."""
        count, ids = (count or "").strip(), (ids or "").strip()
        if not count:
            if ids:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards across all processes).")
            return None
        try:
            n = int(count)
            chosen = tuple(sorted({int(i) for i in ids.split(",") if i.strip()})) if ids else tuple(range(n))
        except ValueError:
            raise ValueError("SHARD_COUNT must be a number and SHARD_IDS a comma-separated list of numbers, "
                             "e.g. SHARD_COUNT=2 SHARD_IDS=0.") from None
        return cls(n, chosen)
