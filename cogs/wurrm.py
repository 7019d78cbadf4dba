"""/wurrm: the rolling panel and the race as commands. The turn message's buttons do the same one step at a
time; these commands take several steps at once (reroll some dice, walk a whole path)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from i18n import N_

from . import ui
from .common import GameCommands, after, clean, following, starting, suggest


def label(action: str, table: dict) -> str:
    """The rolling panel reads better with the dice's faces: "toggle 3" becomes "die 3: 5 ↻" (marked to
    reroll) or "die 3: 2 ✓" (kept); directions get arrows. In the current language (the engine's action
    forms are marked templates); the action sent stays canonical."""
    with i18n.playing("wurrm"):
        return i18n.line(_english_label(action, table))


def _english_label(action: str, table: dict) -> str:
    words = action.split()
    dice = table.get("dice") or {}
    if words[0] == "toggle" and dice.get("faces"):
        k = int(words[1])
        face, marked = dice["faces"][k - 1], dice["marked"][k - 1]
        text = N_("die {k}: {face} ↻ reroll") if marked else N_("die {k}: {face} ✓ keep")
        return text.format(k=k, face=face)
    if words[0] in ("move", "bump") and words[1] in ARROWS:
        text = N_("move {arrow} {direction}") if words[0] == "move" else N_("bump {arrow} {direction}")
        return text.format(arrow=ARROWS[words[1]], direction=words[1])
    if action == "pay reroll":
        return N_("pay 1 gem: reroll")
    return action


ARROWS = {"nw": "↖", "ne": "↗", "w": "←", "e": "→", "sw": "↙", "se": "↘"}


class WurrmCog(GameCommands):
    wurrm = app_commands.Group(name="wurrm", description="WURRM World: wish dice, gems and a race to Sleep")
    game = "wurrm"

    @wurrm.command(name="place", description="Put your avatar on a free Start space")
    @app_commands.describe(space="A Start space, e.g. a4")
    @app_commands.autocomplete(space=following("place "))
    async def place(self, interaction: discord.Interaction, space: str):
        await self.run(interaction, "place", space=space)

    @wurrm.command(name="lucky", description="Start your turn: choose your lucky number and roll the dice")
    @app_commands.describe(number="1 to 4: dice showing it are rolled again")
    async def lucky(self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 4]):
        await self.run(interaction, "lucky", number=str(number))

    @wurrm.command(name="wish", description="Declare your wish: that many dice must show that number")
    async def wish(self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 6]):
        await self.run(interaction, "wish", number=str(number))

    @wurrm.command(name="reroll", description="Reroll some dice (the free reroll first, then a gem each time)")
    @app_commands.describe(dice="Which dice, e.g. 1 3 5 (default: those that miss the wish)")
    async def reroll(self, interaction: discord.Interaction, dice: str | None = None):
        await self.run(interaction, "reroll", dice=dice)

    @wurrm.command(name="stop", description="Stop rolling: your wish comes true or not")
    async def stop(self, interaction: discord.Interaction):
        await self.run(interaction, "stop")

    @wurrm.command(name="move", description="Move one or more steps, e.g. e ne ne (nw ne w e sw se)")
    @app_commands.describe(path="Directions in order: nw, ne, w, e, sw, se")
    async def move(self, interaction: discord.Interaction, path: str):
        await self.run(interaction, "move", path=path)

    @move.autocomplete("path")
    async def move_complete(self, interaction: discord.Interaction, current: str):
        done = clean(current).split()
        prefix = done if current.endswith(" ") or not done else done[:-1]
        legal = await self.legal(interaction, [f"move {w}" for w in prefix])
        return suggest([" ".join(prefix + [d]) for d in after(legal, "move ")], current)

    @wurrm.command(name="bump", description="Choose where to push the avatar you landed on")
    @app_commands.describe(direction="nw, ne, w, e, sw or se")
    @app_commands.autocomplete(direction=following("bump "))
    async def bump(self, interaction: discord.Interaction, direction: str):
        await self.run(interaction, "bump", direction=direction)

    @wurrm.command(name="attack", description="On an Attack space: choose whom to rob (or petition against)")
    async def attack(self, interaction: discord.Interaction, player: discord.User):
        await self.run(interaction, "attack", player=str(player.id))

    @wurrm.command(name="answer", description="Bribes, petitions and votes: bribe N, no bribe, accept, refuse, "
                                              "ask N, vote yes/no")
    @app_commands.autocomplete(choice=starting(("bribe ", "no bribe", "accept", "refuse", "ask ", "vote ")))
    async def answer(self, interaction: discord.Interaction, choice: str):
        await self.run(interaction, "answer", choice=choice)


async def setup(bot: commands.Bot) -> None:
    ui.LABELS["wurrm"] = label
    await bot.add_cog(WurrmCog(bot))
