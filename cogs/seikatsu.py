"""/seikatsu: place a tile, or (with Yarimizu) a fountain with its card and put-back, in one command.

Suggestions come from the caller's legal actions; autocomplete answers only the one typing, so the hand
shown there stays private.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from .common import GameCommands, after, clean, following, suggest


class SeikatsuCog(GameCommands):
    seikatsu = app_commands.Group(name="seikatsu", description="Seikatsu: lay garden tiles around the pond")
    game = "seikatsu"

    @seikatsu.command(name="place", description="Place a tile from your hand on a space")
    @app_commands.describe(tile="A tile from your hand, e.g. heron lily or koi", space="A space, e.g. c3")
    async def place(self, interaction: discord.Interaction, tile: str, space: str):
        await self.run(interaction, "place", tile=tile, space=space)

    @place.autocomplete("tile")
    async def tile_complete(self, interaction: discord.Interaction, current: str):
        legal = await self.legal(interaction)
        return suggest([" ".join(a.split()[1:-1]) for a in legal if a.startswith("place ")], current)

    @place.autocomplete("space")
    async def space_complete(self, interaction: discord.Interaction, current: str):
        legal = await self.legal(interaction)
        prefix = f"place {clean(interaction.namespace.tile)} "
        spaces = after(legal, prefix) or [a.split()[-1] for a in legal if a.startswith("place ")]
        return suggest(spaces, current)

    @seikatsu.command(name="fountain", description="Yarimizu: place a fountain, take a garden card, "
                                                   "put back tiles")
    @app_commands.describe(corner="Three spaces that meet, e.g. b3 c3 c4", card="The garden card to take",
                           put_back="keep hand, put back <tile> or put back both")
    @app_commands.autocomplete(corner=following("fountain "))
    async def fountain(self, interaction: discord.Interaction, corner: str, card: str,
                       put_back: str | None = None):
        await self.run(interaction, "fountain", corner=corner, card=card, put_back=put_back)

    @fountain.autocomplete("card")
    async def card_complete(self, interaction: discord.Interaction, current: str):
        legal = await self.legal(interaction, [f"fountain {clean(interaction.namespace.corner)}"])
        return suggest([a.removeprefix("take ").removesuffix(" card") for a in legal if a.startswith("take ")],
                       current)

    @fountain.autocomplete("put_back")
    async def put_back_complete(self, interaction: discord.Interaction, current: str):
        ns = interaction.namespace
        legal = await self.legal(interaction, [f"fountain {clean(ns.corner)}", f"take {clean(ns.card)} card"])
        return suggest([a for a in legal if a.startswith(("keep", "put back"))], current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeikatsuCog(bot))
