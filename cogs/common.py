"""Helpers the per-game cogs share: suggestions filtered from legal actions, and running a turn."""

from __future__ import annotations

import inspect

import discord
from discord import app_commands

from .ui import who


def suggest(options: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 suggestions containing every word typed so far."""
    words = current.lower().split()
    hits = [o for o in dict.fromkeys(options) if all(w in o.lower() for w in words)]
    return [app_commands.Choice(name=o[:100], value=o[:100]) for o in hits[:25]]


def after(actions: list[str], prefix: str) -> list[str]:
    """What follows ``prefix`` in the actions that start with it (``place `` → ``heron lily c3``)."""
    return [a[len(prefix):] for a in actions if a.startswith(prefix)]


def clean(text: str | None) -> str:
    return " ".join(str(text or "").lower().split())


async def play(cog, interaction: discord.Interaction, steps_of) -> None:
    """Run a game command: ``steps_of(legal)`` turns the caller's legal actions into the steps of their
    turn (or a Reply explaining why not), and the table service applies them all or none."""
    user, where = who(interaction)
    service = cog.bot.service

    async def work():
        legal = await service.legal(where, user)
        steps = steps_of(legal)
        if inspect.isawaitable(steps):
            steps = await steps
        if not isinstance(steps, list):
            return steps
        return await service.act(where, user, steps=steps)

    await cog.bot.get_cog("GameCog").guarded(interaction, work)


async def legal(cog, interaction: discord.Interaction, steps: list[str] | tuple = ()) -> list[str]:
    """The caller's legal actions now, or after ``steps`` of their turn (for a later field's suggestions)."""
    user, where = who(interaction)
    return await cog.bot.service.legal_after(where, user, list(steps))
