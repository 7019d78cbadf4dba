"""Discord's global limit for the whole bot (issue #50): four processes' budgets on one PostgreSQL database keep
their requests together under the fake Discord's 50 a second (it answers 429 above), where without the budget
the same burst meets 429s that discord.py waits out; a global 429 pauses every process; the interaction
endpoints do not count; and a process whose database is away keeps to its share."""

from __future__ import annotations

import asyncio
import time

import discord
from discord.http import HTTPClient, handle_message_parameters

from cogs.budget import Sends, kind_of, rate_setting
from store import open_store
from store.budget import Budget, Gcra
from tests import discordspec
from tests.fakediscord import FakeDiscord

PER_PROCESS = 12            # messages each of the four sends at once: 52 and 4 logins, past the 50 a second


async def burst(fake: FakeDiscord, url: str, rate: float) -> list[Sends]:
    """Four 'processes' (a store, a budget and a discord.py HTTP client each) post PER_PROCESS messages each to
    the fake at once; every post lands (discord.py retries after a 429)."""
    channel = fake.channel("general").id
    stores = [await open_store(url).open() for _ in range(4)]
    sends = [Sends(store, processes=4, rate=rate) for store in stores]
    clients = [HTTPClient(asyncio.get_running_loop(), http_trace=s.trace()) for s in sends]
    try:
        for client in clients:
            await client.static_login(fake.token)

        async def post(client, i):
            for j in range(PER_PROCESS):
                with handle_message_parameters(content=f"notice {i}.{j}") as params:
                    await client.send_message(channel, params=params)
        await asyncio.gather(*(post(c, i) for i, c in enumerate(clients)))
    finally:
        for client in clients:
            await client.close()
        for store in stores:
            await store.close()
    assert len(fake.messages("general")) == 4 * PER_PROCESS
    return sends


async def test_four_processes_share_the_global_budget_and_meet_no_429(pg_url):
    async with open_store(pg_url):
        pass
    async with FakeDiscord(global_limit=50, tally=False) as fake:      # the test's own posts, not the bot's messages
        began = time.monotonic()
        sends = await burst(fake, pg_url, rate=45)
        took = time.monotonic() - began
        assert fake.limited == [] and fake.busiest_second() <= 45, (fake.limited, fake.busiest_second())
        assert not any(s.budget.away for s in sends)              # the turns came from the database's row
        assert sum(s.requests["global"] for s in sends) == len(fake.counted) == 4 * (PER_PROCESS + 1)
        assert took > (len(fake.counted) - 5) / 40 - 0.2         # the turns were waited for, not skipped
        checked, problems = discordspec.check(fake.requests)
        assert checked >= 4 * PER_PROCESS and problems == []


async def test_without_the_budget_the_same_burst_meets_429s_that_discord_py_waits_out(pg_url):
    async with open_store(pg_url):
        pass
    async with FakeDiscord(global_limit=50, tally=False) as fake:      # the test's own posts, not the bot's messages
        sends = await burst(fake, pg_url, rate=0)            # DISCORD_GLOBAL_RATE=0: the budget off
        assert fake.limited and sum(s.limited["global"] for s in sends) == len(fake.limited)
        assert fake.busiest_second() == 50                   # the fake held the line; every post still landed


async def test_a_global_429_pauses_every_process_and_a_lost_database_leaves_each_its_share(pg_url):
    async with open_store(pg_url) as one, open_store(pg_url) as other:
        a, b = Budget(one, 45, 5, processes=2), Budget(other, 45, 5, processes=2)
        assert await a.take() == 0.0                          # a quiet budget: at once
        await a.pause(0.5)                                    # Discord said 429 (global) to the first
        assert 0.4 < await b.take() <= 0.5 + a.local.tolerance + 0.05       # the other waits it out too
    gone = Budget(one, 45, 5, processes=2)                    # its store closed: the database is away
    waits = [await gone.take() for _ in range(6)]
    assert gone.away and waits[:2] == [0.0, 0.0]              # its share: a burst of 2, then 22.5 - 2 a second
    assert abs(waits[5] - 4 / 20.5) < 0.02


def test_which_requests_count_and_the_setting():
    assert kind_of("/api/v10/channels/1/messages") == "global"
    assert kind_of("/api/v10/users/@me/channels") == "global"
    assert kind_of("/api/v10/interactions/1/tok/callback") == "interaction"
    assert kind_of("/api/v10/webhooks/1/tok/messages/@original") == "interaction"
    assert kind_of("/gateway") is None and kind_of("/attachments/1/2/a.png") is None
    rule = Gcra(45, 5)                                        # at most 45 in any second
    times, now = [], 0.0
    for _ in range(200):
        now += rule.take(now)
        times.append(now)
    assert max(sum(1 for t in times if s <= t < s + 1) for s in times) <= 45
    assert rate_setting(None) == 45 and rate_setting("0") == 0
    for bad in ("fast", "51", "-1"):
        try:
            rate_setting(bad)
        except ValueError as e:
            assert "DISCORD_GLOBAL_RATE" in str(e)
        else:
            raise AssertionError(bad)
    assert discord.http.Route.BASE.startswith("https://")    # the fakes gave it back
