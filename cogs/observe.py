"""Watching the bot from outside: every interaction timed and logged (one line with its server, channel, game,
command and latency), the gateway's state for /healthz, and the metrics server (table/metrics.py).

Every interaction passes through one of two places, and both are wrapped here: slash commands and their
autocompletes through the command tree (``ObservedTree``), buttons and selects through ``ui._dispatch``. A log
line names the command, never its options or a button's argument: they can be a secret choice.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time

import discord
from discord import app_commands

from table import logs

log = logging.getLogger("teahouse.interaction")

ANSWERED = "answered_at"      # interaction.extras: when the first answer (or deferral) went out
OUTCOME = "outcome"           # interaction.extras: "refused" (bad input answered) or "error" (an apology)
GAME = "game"                 # interaction.extras: the game the interaction was about, once known

# the buttons and selects by their kind letter (cogs/ui.py), and the lobby's buttons by their argument
BUTTONS = {"a": "action", "g": "group", "p": "choose privately", "v": "my view", "l": "lobby", "o": "option",
           "x": "abandon", "d": "deadline", "r": "rematch", "n": "analysis", "w": "review", "j": "review"}
LOBBY = ("join", "leave", "bot", "start", "shuffle")


def answered(interaction: discord.Interaction) -> None:
    """Note that the interaction has just had its first answer: the time Discord's 3 s limit is about."""
    interaction.extras.setdefault(ANSWERED, time.perf_counter())


def outcome(interaction: discord.Interaction, what: str) -> None:
    """How the interaction ended when not plainly "ok": "refused" (bad input answered) or "error"."""
    if interaction.extras.get(OUTCOME) != "error":
        interaction.extras[OUTCOME] = what


def about(interaction: discord.Interaction, game_id: int | None) -> None:
    """The game the interaction is about, for its log line and those logged after."""
    if game_id is not None:
        interaction.extras[GAME] = game_id
        logs.set_context(game=game_id)


def command_name(interaction: discord.Interaction) -> str:
    """A slash command's full name (``/game move``), an autocomplete's with "autocomplete" before it: a name
    from the registered commands, so the metrics' labels stay a short list."""
    command = interaction.command
    name = f"/{command.qualified_name}" if command is not None else "/unknown"
    return f"autocomplete {name}" if interaction.type == discord.InteractionType.autocomplete else name


def button_name(kind: str, arg: str) -> str:
    name = BUTTONS.get(kind, "unknown")
    if kind == "l" and arg in LOBBY:
        name += f" {arg}"
    return f"button {name}"


@contextlib.asynccontextmanager
async def observed(interaction: discord.Interaction, command: str, game_id: int | None = None):
    """Time the interaction handled in the block, log it (one line) and count it in the metrics if they are on.
    Lines logged meanwhile carry its server, channel and command."""
    began = time.perf_counter()
    failed = False
    with logs.context(guild=interaction.guild_id, channel=interaction.channel_id, command=command, game=game_id):
        if game_id is not None:
            interaction.extras[GAME] = game_id
        try:
            yield
        except BaseException:
            failed = True
            raise
        finally:
            ended = time.perf_counter()
            first = interaction.extras.get(ANSWERED, ended)
            result = "error" if failed else interaction.extras.get(OUTCOME, "ok")
            latency, ack = ended - began, first - began
            # autocompletes come with every key typed: counted always, logged at DEBUG only
            level = logging.DEBUG if interaction.type == discord.InteractionType.autocomplete else logging.INFO
            log.log(level, "%s: %s in %d ms", command, result, round(latency * 1000),
                    extra={"guild": interaction.guild_id, "channel": interaction.channel_id, "command": command,
                           "game": interaction.extras.get(GAME), "outcome": result,
                           "latency_ms": round(latency * 1000, 1), "ack_ms": round(ack * 1000, 1)})
            metrics = getattr(interaction.client, "metrics", None)
            if metrics is not None:
                metrics.interaction(command, latency, ack, result)


class ObservedTree(app_commands.CommandTree):
    """The command tree, each slash command and autocomplete timed and logged. ``_call`` is where discord.py
    runs every one of them (its public hooks miss autocompletes and the time an error handler takes);
    discord.py is pinned, and tests/test_logs.py fails if this stops being called."""

    async def _call(self, interaction: discord.Interaction) -> None:
        async with observed(interaction, command_name(interaction)):
            await super()._call(interaction)


# ----- the gateway, for /healthz and /metrics --------------------------------------------------------------
def gateway_problem(bot: discord.Client) -> str | None:
    """None while the bot is connected to Discord's gateway (every shard of it), else why it is not."""
    if bot.is_closed():
        return "the bot is closed"
    if not bot.is_ready():
        return "not connected to Discord yet"
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict):
        down = sorted(i for i, shard in shards.items() if shard.is_closed())
        if down:
            return f"the gateway connection of shard {','.join(map(str, down))} is down"
        return None
    if bot.ws is None or not bot.ws.open:
        return "the gateway connection is down"
    return None


def gateway_latencies(bot: discord.Client) -> dict[int, float]:
    """Each shard's heartbeat round trip in seconds (those measured so far)."""
    if isinstance(getattr(bot, "shards", None), dict):
        pairs = bot.latencies
    else:
        pairs = [(bot.shard_id or 0, bot.latency)]
    return {shard: seconds for shard, seconds in pairs if math.isfinite(seconds)}


async def start_metrics(bot, host: str, port: int):
    """The bot's metrics served on ``host``:``port``; ``bot.metrics`` is set so interactions are counted."""
    from table.metrics import Metrics

    metrics = Metrics(bot.store, bot.service, gateway=lambda: gateway_problem(bot),
                      latencies=lambda: gateway_latencies(bot))
    metrics.sends = getattr(bot, "sends", None)
    await metrics.start(host, port)
    bot.metrics = metrics
    return metrics
