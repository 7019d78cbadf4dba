"""Helpers the per-game cogs share: suggestions filtered from legal actions, and running a turn."""

from __future__ import annotations

import discord
from discord import app_commands

import i18n
from table import commands as game_commands
from table.commands import after, clean  # noqa: F401  (the cogs' suggestions use them)

from .ui import who


def suggest(options: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 suggestions containing every word typed so far (in the user's words or the canonical ones):
    each named in the user's language, its value the canonical text the game parses (#17)."""
    words = current.lower().split()
    shown = [(o, reads(o)) for o in dict.fromkeys(options)]
    hits = [(o, n) for o, n in shown if all(w in o.lower() or w in n.lower() for w in words)]
    return [app_commands.Choice(name=n[:100], value=o[:100]) for o, n in hits[:25]]


def reads(text: str) -> str:
    """A canonical action or a piece of one (``fire 3``, ``r2c4``) as the user reads it: a whole engine
    sentence through its template, else each game word on its own."""
    out = i18n.line(text)
    if out != text:
        return out
    return " ".join(i18n.word(w) for w in text.split(" "))


async def command(cog, interaction: discord.Interaction, game: str, name: str, **args) -> None:
    """Run one of a game's own commands (table.commands, shared with the console): its steps, all or none."""
    user, where = who(interaction)
    service = cog.bot.service
    await cog.bot.get_cog("GameCog").guarded(
        interaction, lambda: game_commands.run(service, where, user, game, name, args))


async def legal(cog, interaction: discord.Interaction, steps: list[str] | tuple = ()) -> list[str]:
    """The caller's legal actions now, or after ``steps`` of their turn (for a later field's suggestions)."""
    user, where = who(interaction)
    actions = await cog.bot.service.legal_after(where, user, list(steps))
    # the suggestions read in this game's words first (/wagara … is Wagara's)
    i18n.set_game(getattr(getattr(interaction.command, "root_parent", None), "name", None))
    return actions
