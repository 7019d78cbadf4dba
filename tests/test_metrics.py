"""Issue #29: health and metrics on their own HTTP port (table/metrics.py, cogs/observe.py).

/healthz is 200 only while the gateway is connected and the database answers, else 503 with the reason;
/metrics shows what the bot does (interactions, stored moves, pictures, timers, the outbox, open games,
database errors), and the deploy/ examples for Prometheus are valid."""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from cogs.budget import Sends
from cogs.observe import gateway_problem, start_metrics
from cogs.runner import TeahouseBot
from engine import GAMES
from render import workers as rendering
from store import Store
from table import TableService, User, Where, metrics
from table.metrics import Metrics, address
from tests.fakediscord import FakeDiscord
from tests.support import answer, started

ROOT = Path(__file__).resolve().parent.parent
HERE = Where("chan", guild="g")
ALICE, BOB = User("111", "Alice"), User("222", "Bob")


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status, await r.text()


async def scrape(port: int) -> dict[tuple, float]:
    """Every sample of /metrics: (name, sorted labels) → value."""
    status, text = await get(port, "/metrics")
    assert status == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: dict, name: str, **labels) -> float | None:
    return samples.get((name, tuple(sorted((k, str(v)) for k, v in labels.items()))))


@pytest.fixture
def fresh_counts(monkeypatch):
    """Every scrape reads the database (the counts are otherwise kept a few seconds)."""
    monkeypatch.setattr(metrics, "CACHE_SECONDS", 0.0)


def test_the_port_comes_from_the_environment():
    assert address(None) is None and address("  ") is None          # off by default
    assert address("9108") == ("0.0.0.0", 9108)
    assert address("9108", "127.0.0.1") == ("127.0.0.1", 9108)
    for wrong in ("http", "0", "70000", "-1", "91 08"):
        with pytest.raises(ValueError, match="METRICS_PORT"):
            address(wrong)


async def test_metrics_follow_a_game_its_timers_and_the_outbox(store, clock, fresh_counts):
    svc = TableService(store, clock=clock, render=False)
    m = Metrics(store, svc, clock=clock)
    port = await m.start()
    try:
        assert await get(port, "/healthz") == (200, "ok\n")
        s = await scrape(port)
        assert value(s, "teahouse_open_games") == 0 and value(s, "teahouse_timers_due") == 0
        assert value(s, "teahouse_outbox_backlog") == 0 and value(s, "teahouse_outbox_oldest_seconds") == 0
        assert value(s, "teahouse_move_save_seconds_count") == 0
        assert value(s, "teahouse_database_errors_total") == 0
        assert value(s, "teahouse_gateway_connected") == 1 and value(s, "teahouse_database_readable") == 1
        assert value(s, "teahouse_picture_queue") == 0

        await started(svc, ALICE, BOB, game="wassamasaw")
        row = await store.open_game("chan")
        game = GAMES["wassamasaw"]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        mover = ALICE if seat == ALICE.id else BOB
        assert (await svc.act(HERE, mover, game.legal_actions(state, seat)[0])).ok
        s = await scrape(port)
        assert value(s, "teahouse_open_games") == 1
        assert value(s, "teahouse_move_save_seconds_count") == 1
        assert 0 < value(s, "teahouse_move_save_seconds_sum") < 5
        assert value(s, "teahouse_timers_due") == 0          # a reminder and a deadline, hours away

        clock.now += 4 * 3600 + 30                           # the reminder is due, not yet late
        s = await scrape(port)
        assert value(s, "teahouse_timers_due") == 1 and value(s, "teahouse_timers_late") == 0
        clock.now += 120                                     # and nobody fired it: late
        s = await scrape(port)
        assert value(s, "teahouse_timers_late") == 1

        await store.add_outgoing(None, "chan", {"text": "hello"}, clock.now - 90)
        s = await scrape(port)
        assert value(s, "teahouse_outbox_backlog") == 1 and value(s, "teahouse_outbox_oldest_seconds") == 90
        await svc.fire_due()                                 # the reminder fires into the outbox
        s = await scrape(port)
        assert value(s, "teahouse_timers_due") == 0 and value(s, "teahouse_outbox_backlog") == 2
    finally:
        await m.stop()
    assert svc.observe != m.observe and m.picture not in rendering.observers     # unhooked


async def test_the_counts_are_read_once_per_few_seconds(store, clock):
    svc = TableService(store, clock=clock, render=False)
    m = Metrics(store, svc, clock=clock)
    reads = []
    real = store.gauges

    async def counted(*args):
        reads.append(args)
        return await real(*args)
    store.gauges = counted
    port = await m.start()
    try:
        await asyncio.gather(*(scrape(port) for _ in range(5)))
        await scrape(port)
        assert len(reads) == 1
    finally:
        await m.stop()


async def test_pictures_are_timed_by_game(tmp_path, clock):
    async with Store(tmp_path / "p.db") as store:
        svc = TableService(store, clock=clock)              # with images
        m = Metrics(store, svc, clock=clock)
        port = await m.start()
        try:
            reply = await started(svc, ALICE, BOB, game="wagara")
            await reply.render()
            assert reply.image is not None and reply.image.data
            s = await scrape(port)
            assert value(s, "teahouse_picture_seconds_count", game="wagara") >= 1
            assert value(s, "teahouse_pictures_drawing") == 0
        finally:
            await m.stop()


async def test_healthz_is_503_with_the_reason_when_the_database_is_closed(tmp_path):
    store = await Store(tmp_path / "c.db").open()
    m = Metrics(store)
    port = await m.start()
    try:
        assert (await get(port, "/healthz"))[0] == 200
        await store.close()
        assert await get(port, "/healthz") == (503, "the database is closed\n")
        s = await scrape(port)                              # the metrics still answer, without the counts
        assert value(s, "teahouse_database_readable") == 0 and value(s, "teahouse_open_games") is None
    finally:
        await m.stop()


async def test_healthz_is_503_when_the_database_does_not_answer_in_time(store, monkeypatch):
    monkeypatch.setattr(metrics, "PING_TIMEOUT", 0.2)

    async def stuck():
        await asyncio.sleep(10)
    monkeypatch.setattr(store, "ping", stuck)
    m = Metrics(store)
    port = await m.start()
    try:
        assert await get(port, "/healthz") == (503, "the database did not answer within 0.2 s\n")
    finally:
        await m.stop()


async def test_healthz_is_503_when_the_postgresql_server_is_gone(pg_server, pg_url, fresh_counts):
    """The server refuses this database (its connections ended, new ones disallowed): 503, and the failure is
    counted among the database errors; 200 again once it is back."""
    import asyncpg

    name = pg_url.rsplit("/", 1)[1]
    store = await Store(pg_url).open()
    m = Metrics(store)
    port = await m.start()
    admin = await asyncpg.connect(pg_server.url())
    try:
        assert (await get(port, "/healthz"))[0] == 200
        s = await scrape(port)                              # the counts' statement on PostgreSQL
        assert value(s, "teahouse_open_games") == 0 and value(s, "teahouse_timers_late") == 0
        assert value(s, "teahouse_outbox_oldest_seconds") == 0
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
        status, text = await get(port, "/healthz")
        assert status == 503 and text.startswith("the database does not answer"), text
        assert value(await scrape(port), "teahouse_database_errors_total") >= 1
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        assert (await get(port, "/healthz"))[0] == 200
    finally:
        await admin.close()
        await m.stop()
        await store.close()


async def test_healthz_is_503_while_the_gateway_is_down(store):
    down = ["the gateway connection is down"]
    m = Metrics(store, gateway=lambda: down[0] if down else None, latencies=lambda: {0: 0.042, 1: math.nan})
    port = await m.start()
    try:
        assert await get(port, "/healthz") == (503, "the gateway connection is down\n")
        s = await scrape(port)
        assert value(s, "teahouse_gateway_connected") == 0
        assert value(s, "teahouse_gateway_latency_seconds", shard=0) == 0.042
        assert value(s, "teahouse_gateway_latency_seconds", shard=1) is None     # not measured yet
        down.clear()
        assert (await get(port, "/healthz"))[0] == 200
    finally:
        await m.stop()


async def wait_health(port: int, status: int, timeout: float = 10.0) -> str:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got, text = await get(port, "/healthz")
        if got == status:
            return text
        assert loop.time() < end, f"/healthz stayed {got}: {text}"
        await asyncio.sleep(0.05)


async def test_through_discord_health_follows_the_gateway_and_interactions_are_counted(tmp_path):
    """The real bot on the fake Discord: 503 before it is connected, 200 once it is, 503 while its gateway
    connection is down and it cannot reconnect, 200 after it did; every command and click counted."""
    store = Store(tmp_path / "b.db")
    bot = TeahouseBot(store, service=TableService(store), guild_ready_timeout=0.1)
    assert gateway_problem(bot) == "not connected to Discord yet"
    async with FakeDiscord(heartbeat_interval=100) as fake, fake.run(bot):
        m = await start_metrics(bot, "127.0.0.1", 0)
        port = m._runner.addresses[0][1]
        try:
            await wait_health(port, 200)
            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            lobby = r.message
            await answer(await fake.click("bob", lobby, label="Join"))
            await answer(await fake.click("alice", lobby, label="Start"))
            await fake.slash("carol", "general", "game move", options={"action": "take nothing"})
            await fake.autocomplete("alice", "general", "game move", {"action": ""}, "action")
            await fake.settle()
            s = await scrape(port)
            assert value(s, "teahouse_interaction_seconds_count", command="/game new") == 1
            assert value(s, "teahouse_interaction_seconds_count", command="button lobby join") == 1
            assert value(s, "teahouse_interaction_seconds_count", command="button lobby start") == 1
            assert value(s, "teahouse_interaction_ack_seconds_count", command="/game new") == 1
            assert value(s, "teahouse_interactions_total", command="/game new", outcome="ok") == 1
            assert value(s, "teahouse_interactions_total", command="/game move", outcome="refused") == 1
            assert value(s, "teahouse_interactions_total", command="autocomplete /game move", outcome="ok") == 1
            # the first answer comes before (or with) the last message, and well inside Discord's 3 s
            ack = value(s, "teahouse_interaction_ack_seconds_sum", command="/game new")
            assert 0 < ack <= value(s, "teahouse_interaction_seconds_sum", command="/game new") and ack < 3
            assert value(s, "teahouse_picture_seconds_count", game="wassamasaw") >= 1
            assert value(s, "teahouse_open_games") == 1
            for _ in range(100):                             # a heartbeat every 0.1 s: its round trip
                if math.isfinite(bot.latency):
                    break
                await asyncio.sleep(0.02)
            latency = value(await scrape(port), "teahouse_gateway_latency_seconds", shard=0)
            assert latency is not None and 0 <= latency < 1

            # the gateway drops, and every new connection is closed at once: not healthy until it is back
            real_send = fake._send

            async def refuse(conn, payload):
                await conn.ws.close(code=4000)
            fake._send = refuse
            await fake.close_gateway()
            text = await wait_health(port, 503)
            assert "gateway" in text
            del fake._send
            assert fake._send == real_send
            await fake.wait_until_connected(timeout=20)
            await wait_health(port, 200, timeout=20)
        finally:
            await m.stop()
    assert await get_or_none(port) is None         # the server stopped with the bot's metrics
    assert not fake.errors


async def get_or_none(port: int):
    try:
        return await get(port, "/healthz")
    except aiohttp.ClientConnectionError:
        return None


# ----- deploy/: the Prometheus examples --------------------------------------------------------------------
async def test_the_prometheus_scrape_example_and_alert_rules_are_valid(store):
    scrape_config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text(encoding="utf-8"))
    jobs = scrape_config["scrape_configs"]
    assert any(j["job_name"] == "teahouse" and j.get("metrics_path", "/metrics") == "/metrics" for j in jobs)
    assert "alerts.yml" in scrape_config["rule_files"]

    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text(encoding="utf-8"))
    alerts = {r["alert"]: r for g in rules["groups"] for r in g["rules"]}
    for name in ("TeahouseOutboxStuck", "TeahouseTimersLate", "TeahouseAnswersNearDiscordLimit"):
        assert name in alerts, name
    for rule in alerts.values():
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations", "keep_firing_for"}
        assert rule["expr"].strip() and rule["annotations"]["summary"]
    # every metric an alert reads is one the bot exports (Prometheus adds "up" itself)
    m = Metrics(store)
    m.interaction("/game move", 0.2, 0.05)
    m.sends = Sends(store, rate=45)                        # the bot's requests to Discord (cogs/budget.py)
    port = await m.start()
    try:
        exported = {name for name, _labels in await scrape(port)} | {"up"}
    finally:
        await m.stop()
    for rule in alerts.values():
        used = set(re.findall(r"\b(teahouse_[a-z_]+|up)\b", rule["expr"]))
        assert used and used <= exported, (rule["alert"], used - exported)


# ----- the bot's process: METRICS_PORT -------------------------------------------------------------------------
def run_bot(tmp_path, **env) -> subprocess.CompletedProcess:
    env = dict(os.environ, DISCORD_TOKEN="abc.def.ghi", LOG_LEVEL="INFO", LOG_FORMAT="json", **env)
    return subprocess.run([sys.executable, "bot.py", "--db", str(tmp_path / "m.db")], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60, stdin=subprocess.DEVNULL)


def test_a_metrics_port_that_is_not_a_number_stops_the_bot_at_once(tmp_path):
    run = run_bot(tmp_path, METRICS_PORT="ninety")
    assert run.returncode == 2 and "METRICS_PORT must be a port number" in run.stdout
    assert not (tmp_path / "m.db").exists()           # before anything was opened


def test_a_metrics_port_in_use_stops_the_bot_with_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        run = run_bot(tmp_path, METRICS_PORT=str(taken.getsockname()[1]), METRICS_HOST="127.0.0.1")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    *logged, last = run.stderr.strip().splitlines()
    assert last.startswith("teahouse: cannot serve the metrics on 127.0.0.1:")
    assert logged and all(json.loads(line)["level"] for line in logged)       # LOG_FORMAT=json: JSON lines


async def test_a_sharded_bot_is_healthy_once_every_shard_is_connected(tmp_path):
    from cogs.observe import gateway_latencies
    from cogs.runner import make_bot
    from store.shards import Shards

    store = Store(tmp_path / "s.db")
    bot = make_bot(store, shards=Shards.parse("2", "0,1"), service=TableService(store), guild_ready_timeout=0.1)
    async with FakeDiscord(heartbeat_interval=100) as fake, fake.run(bot):
        m = await start_metrics(bot, "127.0.0.1", 0)
        port = m._runner.addresses[0][1]
        try:
            await wait_health(port, 200)
            assert set(bot.shards) == {0, 1} and gateway_problem(bot) is None
            for _ in range(100):
                if set(gateway_latencies(bot)) == {0, 1}:
                    break
                await asyncio.sleep(0.02)
            s = await scrape(port)
            assert value(s, "teahouse_gateway_latency_seconds", shard=0) is not None
            assert value(s, "teahouse_gateway_latency_seconds", shard=1) is not None

            async def refuse(conn, payload):
                await conn.ws.close(code=4000)
            fake._send = refuse                              # the shards' connections drop and stay down
            await fake.close_gateway()
            assert "the gateway connection of shard" in await wait_health(port, 503)
            del fake._send
            await wait_health(port, 200, timeout=20)
        finally:
            await m.stop()
