"""/wagara: choose your paddle card (privately) and move your canoes. The turn message's buttons do the
same; these commands mirror them with suggestions from the caller's legal actions."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from table.replies import name_seats

from .common import after, command, suggest
from .common import legal as legal_of


class WagaraCog(commands.Cog):
    wagara = app_commands.Group(name="wagara", description="Wagara: canoes, gems and the falls")

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @wagara.command(name="play", description="Choose your paddle card for this round (only you see it)")
    @app_commands.describe(card="1 to 6, or cloud")
    async def play_card(self, interaction: discord.Interaction, card: str):
        await command(self, interaction, "wagara", "play", card=card)

    @play_card.autocomplete("card")
    async def card_complete(self, interaction: discord.Interaction, current: str):
        return suggest(after(await legal_of(self, interaction), "play "), current)

    @wagara.command(name="move", description="Your turn: a canoe's whole move, the weather, a recovery, "
                                             "or end turn")
    @app_commands.describe(action="Start typing, e.g. canoe 1: up 3")
    async def move(self, interaction: discord.Interaction, action: str):
        await command(self, interaction, "wagara", "move", action=action)

    @move.autocomplete("action")
    async def move_complete(self, interaction: discord.Interaction, current: str):
        row = await self.bot.service.store.open_game(str(interaction.channel_id))
        names = row.names if row else {}
        legal = [a for a in await legal_of(self, interaction) if not a.startswith("play ")]
        return suggest([name_seats(a, names) for a in legal], current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WagaraCog(bot))
