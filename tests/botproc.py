"""The real bot in its own process against a fake Discord, for fault tests: it can kill itself with SIGKILL
(kill -9, no clean-up at all) at a chosen point.

    FAKE_API=http://127.0.0.1:port/api/v10 FAKE_GATEWAY=ws://127.0.0.1:port/gateway TOKEN=a.b.c DB=t.db \\
    CRASH=post:2 python -m tests.botproc

DB may be a postgresql:// URL; SHARD_COUNT and SHARD_IDS run it on some shards (like bot.py); POSTS=file appends
the channel id of every scheduler post Discord accepted to that file (which process sent what).
PICTURES=0 makes the table service draw no pictures (tests about processes and timers, not pictures: no image
worker starts). SLOW_PICTURE=seconds makes every picture after the first SLOW_SKIP (default 0) wait that long
first, in a thread, as a stuck drawing would (a move then stays in flight; asyncio cannot cancel the wait).
STOP_WITHIN=seconds and DRAIN_WITHIN=seconds shorten the stop's deadlines (cogs/shutdown.py: the watchdog's exit
and the wait for what is in flight), for a test that waits them out.

CRASH: ``post:N`` dies just before the N-th scheduler post reaches Discord (after its timer was claimed and
its effect stored); ``sent:N`` dies just after Discord accepted the N-th post, before the outbox heard of it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time

import discord
import yarl


def die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def arm(crash: str) -> None:
    # the runner, not the cog: discord.py loads each extension as a fresh module, so a patched cog class
    # would not be the one the bot uses
    from cogs.runner import TeahouseBot

    point, _, n = crash.partition(":")
    target, calls = int(n), [0]
    original = TeahouseBot.notice_to_channel

    async def notice_to_channel(self, notice):
        calls[0] += 1
        if point == "post" and calls[0] == target:
            die()
        await original(self, notice)
        if point == "sent" and calls[0] == target:
            die()

    TeahouseBot.notice_to_channel = notice_to_channel


def record_posts(path: str) -> None:
    from cogs.runner import TeahouseBot

    original = TeahouseBot.notice_to_channel

    async def notice_to_channel(self, notice):
        await original(self, notice)
        with open(path, "a") as f:
            f.write(f"{notice.channel}\n")

    TeahouseBot.notice_to_channel = notice_to_channel


def slow_pictures(seconds: float, skip: int) -> None:
    """Every picture handed to the image workers (render.workers.begin: ``draw`` and a reply's pictures both go
    through it) waits ``seconds`` first, after the first ``skip``."""
    from render import workers as rendering

    original, drawn = rendering.begin, [0]

    def begin(job, key=None, order=0):
        drawn[0] += 1
        if drawn[0] <= skip:
            return original(job, key, order)

        async def later():
            await asyncio.to_thread(time.sleep, seconds)
            return await original(job, key, order)
        return asyncio.ensure_future(later())

    rendering.begin = begin


def shorter_stop(stop: float, drain: float) -> None:
    """The watchdog ends the process ``stop`` seconds after the signal and the drain waits ``drain`` seconds at
    most (cogs/shutdown.py's STOP_WITHIN and DRAIN_WITHIN; the runner calls both through the module)."""
    import functools

    from cogs import shutdown

    shutdown.watchdog = functools.partial(shutdown.watchdog, stop)
    shutdown.drain = functools.partial(shutdown.drain, within=drain)


def no_pictures() -> None:
    import functools

    from cogs import runner

    runner.TableService = functools.partial(runner.TableService, render=False)


def main() -> int:
    discord.http.Route.BASE = os.environ["FAKE_API"]
    if os.environ.get("PICTURES") == "0":
        no_pictures()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_GATEWAY"])
    if os.environ.get("POSTS"):
        record_posts(os.environ["POSTS"])
    if os.environ.get("SLOW_PICTURE"):
        slow_pictures(float(os.environ["SLOW_PICTURE"]), int(os.environ.get("SLOW_SKIP", "0")))
    if os.environ.get("CRASH"):
        arm(os.environ["CRASH"])
    if os.environ.get("STOP_WITHIN"):
        shorter_stop(float(os.environ["STOP_WITHIN"]), float(os.environ["DRAIN_WITHIN"]))
    from bot import configure_logging
    from cogs.runner import run_discord
    from store.shards import Shards

    configure_logging(os.environ.get("LOG_LEVEL", "WARNING"))
    shards = Shards.parse(os.environ.get("SHARD_COUNT"), os.environ.get("SHARD_IDS"))
    return run_discord(os.environ["TOKEN"], os.environ["DB"], shards=shards)


if __name__ == "__main__":
    sys.exit(main())
