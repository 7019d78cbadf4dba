"""What the per-game cogs share: their base class (running a game's commands, the caller's legal actions),
suggestions filtered from those actions, and the autocomplete callbacks most options need (``following``,
``starting``)."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from table import commands as game_commands
from table.commands import after, clean  # noqa: F401  (clean: the cogs' suggestions use it)

from .ui import who


def suggest(options: list[str], current: str, shown: Callable[[str], str] | None = None
            ) -> list[app_commands.Choice[str]]:
    """Up to 25 suggestions containing every word typed so far (in the user's words or the canonical ones):
    each named in the user's language (``shown``, by default ``reads``), its value the canonical text the
    game parses (#17)."""
    words = current.lower().split()
    name_of = shown or reads
    named = [(o, name_of(o)) for o in dict.fromkeys(options)]
    hits = [(o, n) for o, n in named if all(w in o.lower() or w in n.lower() for w in words)]
    return [app_commands.Choice(name=n[:100], value=o[:100]) for o, n in hits[:25]]


def reads(text: str) -> str:
    """A canonical action or a piece of one (``fire 3``, ``r2c4``) as the user reads it: a whole engine
    sentence through its template, else each game word on its own."""
    out = i18n.line(text)
    if out != text:
        return out
    return " ".join(i18n.word(w) for w in text.split(" "))


def following(prefix: str, shown: Callable[[str], str] | None = None):
    """An option's autocomplete callback: what follows ``prefix`` (``place ``) in the caller's legal actions,
    each named by ``shown``. For ``@app_commands.autocomplete(space=following("place "))`` in a GameCommands
    cog: the cog is the command's binding."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await interaction.command.binding.suggest_after(interaction, current, prefix, shown)
    return complete


def starting(starts: tuple[str, ...], shown: Callable[[str], str] | None = None):
    """An option's autocomplete callback: the caller's legal actions that start with one of ``starts``, whole,
    each named by ``shown`` (as ``following``)."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        legal = await interaction.command.binding.legal(interaction)
        return suggest([a for a in legal if a.startswith(starts)], current, shown)
    return complete


class GameCommands(commands.Cog):
    """The base of a game's cog: its slash commands run the game's own commands (table.commands, shared with
    the console), and their suggestions come from the caller's legal actions. Game rules stay in the engine."""

    game: str    # the engine's key of the game, e.g. "wurrm"

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def run(self, interaction: discord.Interaction, name: str, **args) -> None:
        """Run the game's command ``name`` with the caller's ``args``: its steps, all or none."""
        user, where = who(interaction)
        service = self.bot.service
        await self.bot.get_cog("GameCog").guarded(
            interaction, lambda: game_commands.run(service, where, user, self.game, name, args))

    async def legal(self, interaction: discord.Interaction, steps: list[str] | tuple = ()) -> list[str]:
        """The caller's legal actions now, or after ``steps`` of their turn (for a later field's suggestions)."""
        user, where = who(interaction)
        actions = await self.bot.service.legal_after(where, user, list(steps))
        # the suggestions read in this game's words first (/wagara … is Wagara's)
        i18n.set_game(getattr(getattr(interaction.command, "root_parent", None), "name", None))
        return actions

    async def suggest_after(self, interaction: discord.Interaction, current: str, prefix: str,
                            shown: Callable[[str], str] | None = None) -> list[app_commands.Choice[str]]:
        """Suggestions of what follows ``prefix`` (``place ``) in the caller's legal actions."""
        return suggest(after(await self.legal(interaction), prefix), current, shown)

    async def seat_names(self, interaction: discord.Interaction) -> dict[str, str]:
        """The display names of the seats at this channel's game (none when there is no game)."""
        row = await self.bot.service.store.open_game(str(interaction.channel_id))
        return row.names if row else {}
