"""bot.py and the runner: clear messages for a missing or wrong token, clean shutdown, safe mentions."""

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import discord

from cogs.runner import TeahouseBot, run_discord, serve
from cogs.ui import custom_id, groups, mention_line, mentions
from store import Store
from table import Reply, TableService
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent


def test_malformed_token_gets_a_clear_message(capsys, tmp_path):
    assert run_discord("not-a-token", tmp_path / "x.db") == 2
    assert "does not look like a bot token" in capsys.readouterr().out


def test_bad_dev_guild_gets_a_clear_message(capsys, tmp_path):
    assert run_discord("a.b.c", tmp_path / "x.db", dev_guild="my server") == 2
    assert "DEV_GUILD_ID" in capsys.readouterr().out


def test_no_token_starts_the_console(tmp_path):
    env = dict(os.environ, DISCORD_TOKEN="", TEAHOUSE_CONSOLE_DB=str(tmp_path / "c.db"))
    run = subprocess.run([sys.executable, "bot.py", "--out", str(tmp_path)], input="alice@x /game status\n",
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert run.returncode == 0
    assert "No DISCORD_TOKEN set: starting the console table" in run.stdout
    assert "There is no game in this channel" in run.stdout


async def test_refused_token_gets_a_clear_message_not_a_traceback(tmp_path, capsys):
    async with FakeDiscord(token="right.token.here"):
        code = await serve("wrong.token.here", tmp_path / "x.db")
    out = capsys.readouterr().out
    assert code == 2 and "refused the token" in out and "Traceback" not in out


async def test_sigterm_shuts_down_cleanly_and_saves(tmp_path):
    async with FakeDiscord() as fake:
        task = asyncio.create_task(serve(fake.token, tmp_path / "x.db"))
        await fake.wait_until_connected(timeout=30)      # the bot starts in this process: slow on a busy machine
        r = await fake.slash("alice", "general", "game new", options={"game": next(iter(_games()))})
        assert not r.ephemeral
        os.kill(os.getpid(), signal.SIGTERM)
        assert await asyncio.wait_for(task, 10) == 0
    async with Store(tmp_path / "x.db") as store:
        assert len(await store.games()) == 1          # the lobby was saved and survives


def _games():
    from engine import GAMES
    return [k for k in GAMES if k != "pebbles"]


async def test_close_waits_for_moves_in_progress(tmp_path):
    store = await Store(tmp_path / "t.db").open()
    bot = TeahouseBot(store, service=TableService(store))
    lock = bot.service.lock("chan")
    await lock.acquire()
    closing = asyncio.create_task(bot.close())
    await asyncio.sleep(0.05)
    assert not closing.done()          # a move holds the channel: close waits
    lock.release()
    await asyncio.wait_for(closing, 5)
    assert store.closed


def test_mentions_never_ping_everyone_or_roles():
    reply = Reply(text="@everyone <@&123> look", mention=["42"])
    am = mentions(reply.mention)
    assert am.everyone is False and am.roles is False and [u.id for u in am.users] == [42]
    assert mention_line(reply) == "<@42> — your move."
    assert mentions(["cpu-1"]).users == []


def test_custom_ids_fit_discords_limit():
    assert len(custom_id("a", 10**12, 10**9, "24")) <= 100
    try:
        custom_id("a", 1, 1, "x" * 100)
    except ValueError:
        pass
    else:
        raise AssertionError("an over-long custom id was allowed")


def test_long_action_lists_become_two_clicks():
    actions = [f"place {e} r{r}c{c}" for e in ("wood", "fire", "earth", "metal", "water") for r in range(1, 6)
               for c in range(1, 6)]
    gs = groups(actions)
    assert len(gs) <= 25 and all(len(m) <= 25 for _, m in gs)
    assert sorted(i for _, m in gs for i in m) == list(range(len(actions)))


def test_discord_intents_are_minimal(tmp_path):
    bot = TeahouseBot(Store(tmp_path / "x.db"))
    assert bot.intents.value == discord.Intents(guilds=True).value


def test_wurrm_buttons_show_the_dice_faces():
    from cogs.wurrm import label

    table = {"dice": {"faces": [5, 2, 3, 3, 6, 1], "marked": [True, False, False, False, True, True]}}
    assert label("toggle 1", table) == "die 1: 5 ↻ reroll"
    assert label("toggle 2", table) == "die 2: 2 ✓ keep"
    assert label("move ne", table) == "move ↗ ne"
    assert label("stop", table) == "stop"
