"""/mywuxing: reveal (Learn), play a card with its target (Think), answer a reaction window.

The buttons on the turn message do all of this too; these commands mirror them. Suggestions come from the
caller's legal actions and are seen by the caller alone, so a hand never shows in public. A suggestion's name
and a button's label are in the reader's language (``gioca Fuoco``); the value sent stays the canonical action
the engine reads.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from engine.mywuxing import CARDS
from i18n import pgettext, word
from table.commands import CARD_VERBS
from table.replies import name_seats

from . import common, ui
from .common import GameCommands, clean


def action_label(action: str, table: dict | None = None) -> str:
    """What a player reads for one of their actions, in the current language: a suggestion's name, and the
    label of a button or select option on the turn message (ui.LABELS; seat ids become names after)."""
    with i18n.playing("mywuxing"):
        return _action_label(action)


def _action_label(action: str) -> str:
    verb, _space, rest = action.partition(" ")
    if action.startswith("universe with "):
        return pgettext("mywuxing action", "universe with {name}", name=action[len("universe with "):])
    if verb == "against":
        return pgettext("mywuxing action", "against {name}", name=rest)
    if verb in ("play", "add", "discard") and rest in CARDS:
        card = word(rest)  # the game word: fire, or Fuoco in Italian
        return {"play": pgettext("mywuxing action", "play {card}", card=card),
                "add": pgettext("mywuxing action", "add {card}", card=card),
                "discard": pgettext("mywuxing action", "discard {card}", card=card)}[verb]
    answers = {"reveal": pgettext("mywuxing action", "reveal"),
               "pass": pgettext("mywuxing action", "pass"),
               "activate star": pgettext("mywuxing action", "activate star"),
               "counter with star": pgettext("mywuxing action", "counter with star"),
               "counter with dragon": pgettext("mywuxing action", "counter with dragon"),
               "counter with 2 dragons": pgettext("mywuxing action", "counter with 2 dragons")}
    return answers.get(action, action)


def suggest(options: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 suggestions containing every word typed so far, in the action or in its label."""
    return common.suggest(options, current, action_label)


class MyWuXingCog(GameCommands):
    mywuxing = app_commands.Group(name="mywuxing", description="MyWuXing: the Five Elements card game")
    game = "mywuxing"

    @mywuxing.command(name="reveal", description="Learn: reveal the top card of your deck for this hand")
    async def reveal(self, interaction: discord.Interaction):
        await self.run(interaction, "reveal")

    @mywuxing.command(name="play", description="Think: choose your card (and, as the lead, your target)")
    @app_commands.describe(card="A card from your hand", target="Lead only: the Universe with a partner, "
                                                                  "or a player directly")
    async def play_card(self, interaction: discord.Interaction, card: str, target: str | None = None):
        await self.run(interaction, "play", card=card, target=target)

    @play_card.autocomplete("target")
    async def target_complete(self, interaction: discord.Interaction, current: str):
        names = await self.seat_names(interaction)
        legal = await self.legal(interaction)
        return suggest([name_seats(a, names) for a in legal if a.startswith(("universe with ", "against "))],
                       current)

    @play_card.autocomplete("card")
    async def card_complete(self, interaction: discord.Interaction, current: str):
        legal = await self.legal(interaction)
        target = clean(interaction.namespace.target)
        if any(a.startswith(("universe with ", "against ")) for a in legal):
            names = await self.seat_names(interaction)
            raw = {name_seats(a, names).lower(): a for a in legal}
            legal = await self.legal(interaction, [raw.get(target, target)]) if target else []
        return suggest([a for a in legal if a.startswith(CARD_VERBS)], current)

    @mywuxing.command(name="react", description="Answer a power-card window: pass, activate or counter")
    @app_commands.describe(answer="pass, activate star, counter with star, counter with dragon …")
    @app_commands.autocomplete(answer=common.starting(("pass", "activate", "counter"), action_label))
    async def react(self, interaction: discord.Interaction, answer: str):
        await self.run(interaction, "react", answer=answer)


async def setup(bot: commands.Bot) -> None:
    ui.LABELS["mywuxing"] = action_label
    await bot.add_cog(MyWuXingCog(bot))
