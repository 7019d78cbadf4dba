"""/wurrm: the rolling panel and the race as commands. The turn message's buttons do the same one step at a
time; these commands take several steps at once (reroll some dice, walk a whole path)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES
from table import Reply

from . import ui
from .common import after, clean, play, suggest
from .common import legal as legal_of


def label(action: str, table: dict) -> str:
    """The rolling panel reads better with the dice's faces: "toggle 3" becomes "die 3: 5 ↻" (marked to
    reroll) or "die 3: 2 ✓" (kept); directions get arrows."""
    words = action.split()
    dice = table.get("dice") or {}
    if words[0] == "toggle" and dice.get("faces"):
        k = int(words[1])
        face, marked = dice["faces"][k - 1], dice["marked"][k - 1]
        return f"die {k}: {face} {'↻ reroll' if marked else '✓ keep'}"
    if words[0] in ("move", "bump") and words[1] in ARROWS:
        return f"{words[0]} {ARROWS[words[1]]} {words[1]}"
    if action == "pay reroll":
        return "pay 1 gem: reroll"
    return action


ARROWS = {"nw": "↖", "ne": "↗", "w": "←", "e": "→", "sw": "↙", "se": "↘"}


def _reroll_steps(view_marked: list[bool], wanted: set[int], verb: str) -> list[str]:
    """Toggle the dice so exactly ``wanted`` are marked, then reroll."""
    steps = [f"toggle {k}" for k in range(1, 7) if view_marked[k - 1] != (k in wanted)]
    return steps + [verb]


class WurrmCog(commands.Cog):
    wurrm = app_commands.Group(name="wurrm", description="WURRM World: wish dice, gems and a race to Sleep")

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def _state(self, interaction):
        row = await self.bot.service.store.open_game(str(interaction.channel_id))
        if row is None or row.game != "wurrm" or row.state is None:
            return None, None
        return row, GAMES["wurrm"].load(row.state)

    @wurrm.command(name="place", description="Put your avatar on a free Start space")
    @app_commands.describe(space="A Start space, e.g. a4")
    async def place(self, interaction: discord.Interaction, space: str):
        await play(self, interaction, lambda legal: [f"place {clean(space)}"])

    @place.autocomplete("space")
    async def place_complete(self, interaction: discord.Interaction, current: str):
        return suggest(after(await legal_of(self, interaction), "place "), current)

    @wurrm.command(name="lucky", description="Start your turn: choose your lucky number and roll the dice")
    @app_commands.describe(number="1 to 4: dice showing it are rolled again")
    async def lucky(self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 4]):
        await play(self, interaction, lambda legal: [f"lucky {number}"])

    @wurrm.command(name="wish", description="Declare your wish: that many dice must show that number")
    async def wish(self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 6]):
        await play(self, interaction, lambda legal: [f"wish {number}"])

    @wurrm.command(name="reroll", description="Reroll some dice (the free reroll first, then a gem each time)")
    @app_commands.describe(dice="Which dice, e.g. 1 3 5 (default: those that miss the wish)")
    async def reroll(self, interaction: discord.Interaction, dice: str | None = None):
        row, state = await self._state(interaction)

        def steps(legal):
            if state is None or state.get("roll") is None:
                return [clean("reroll")]          # the engine explains why not
            verb = "reroll" if not state["roll"]["free_used"] else "pay reroll"
            if dice is None:
                return [verb]
            try:
                wanted = {int(w) for w in dice.replace(",", " ").split()}
            except ValueError:
                return Reply.fail(str(interaction.user.id), "Name the dice by number, e.g. `1 3 5`.")
            if not wanted or not wanted <= set(range(1, 7)):
                return Reply.fail(str(interaction.user.id), "The dice are numbered 1 to 6.")
            return _reroll_steps(state["roll"]["marked"], wanted, verb)
        await play(self, interaction, steps)

    @wurrm.command(name="stop", description="Stop rolling: your wish comes true or not")
    async def stop(self, interaction: discord.Interaction):
        await play(self, interaction, lambda legal: ["stop"])

    @wurrm.command(name="move", description="Move one or more steps, e.g. e ne ne (nw ne w e sw se)")
    @app_commands.describe(path="Directions in order: nw, ne, w, e, sw, se")
    async def move(self, interaction: discord.Interaction, path: str):
        def steps(legal):
            words = clean(path).replace(",", " ").split()
            if not words:
                return Reply.fail(str(interaction.user.id), "Give at least one direction: nw ne w e sw se.")
            return [f"move {w}" for w in words]
        await play(self, interaction, steps)

    @move.autocomplete("path")
    async def move_complete(self, interaction: discord.Interaction, current: str):
        done = clean(current).split()
        prefix = done if current.endswith(" ") or not done else done[:-1]
        legal = await legal_of(self, interaction, [f"move {w}" for w in prefix])
        return suggest([" ".join(prefix + [d]) for d in after(legal, "move ")], current)

    @wurrm.command(name="bump", description="Choose where to push the avatar you landed on")
    @app_commands.describe(direction="nw, ne, w, e, sw or se")
    async def bump(self, interaction: discord.Interaction, direction: str):
        await play(self, interaction, lambda legal: [f"bump {clean(direction)}"])

    @bump.autocomplete("direction")
    async def bump_complete(self, interaction: discord.Interaction, current: str):
        return suggest(after(await legal_of(self, interaction), "bump "), current)

    @wurrm.command(name="attack", description="On an Attack space: choose whom to rob (or petition against)")
    async def attack(self, interaction: discord.Interaction, player: discord.User):
        def steps(legal):
            for verb in ("attack", "petition"):
                if f"{verb} {player.id}" in legal:
                    return [f"{verb} {player.id}"]
            return [f"attack {player.id}"]
        await play(self, interaction, steps)

    @wurrm.command(name="answer", description="Bribes, petitions and votes: bribe N, no bribe, accept, refuse, "
                                              "ask N, vote yes/no")
    async def answer(self, interaction: discord.Interaction, choice: str):
        await play(self, interaction, lambda legal: [clean(choice)])

    @answer.autocomplete("choice")
    async def answer_complete(self, interaction: discord.Interaction, current: str):
        legal = await legal_of(self, interaction)
        return suggest([a for a in legal if a.split()[0] in ("bribe", "no", "accept", "refuse", "ask", "vote")],
                       current)


async def setup(bot: commands.Bot) -> None:
    ui.LABELS["wurrm"] = label
    await bot.add_cog(WurrmCog(bot))
