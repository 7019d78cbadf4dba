"""/wassamasaw: take a die and place it in one command. The choices come from the engine's legal actions."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from .common import GameCommands, after, clean, suggest


class WassamasawCog(GameCommands):
    wassamasaw = app_commands.Group(name="wassamasaw", description="Wassamasaw: draft element dice, fill your sheet")
    game = "wassamasaw"

    @property
    def service(self):
        return self.bot.service

    @wassamasaw.command(name="take", description="Take a die and place it (or convert it when it fits nowhere)")
    @app_commands.describe(die="The die, e.g. fire 3", cell="Where to place it, e.g. r2c4 (a 6 goes in any row)")
    async def take(self, interaction: discord.Interaction, die: str, cell: str | None = None):
        await self.run(interaction, "take", die=die, cell=cell)

    @take.autocomplete("die")
    async def die_complete(self, interaction: discord.Interaction, current: str):
        actions = await self.legal(interaction)
        return suggest(after(actions, "take ") + after(actions, "convert "), current)

    @take.autocomplete("cell")
    async def cell_complete(self, interaction: discord.Interaction, current: str):
        die = clean(interaction.namespace.die)
        actions = await self.legal(interaction, [f"take {die}"]) if die else []
        return suggest(after(actions, "place "), current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WassamasawCog(bot))
