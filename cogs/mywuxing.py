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

from . import ui
from .common import clean, command
from .common import legal as legal_of


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
    words = current.lower().split()
    out = []
    for value in dict.fromkeys(options):
        name = action_label(value)
        seen = f"{value} {name}".lower()
        if all(w in seen for w in words):
            out.append(app_commands.Choice(name=name[:100], value=value[:100]))
    return out[:25]


class MyWuXingCog(commands.Cog):
    mywuxing = app_commands.Group(name="mywuxing", description="MyWuXing: the Five Elements card game")

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def _names(self, interaction) -> dict[str, str]:
        row = await self.bot.service.store.open_game(str(interaction.channel_id))
        return row.names if row else {}

    @mywuxing.command(name="reveal", description="Learn: reveal the top card of your deck for this hand")
    async def reveal(self, interaction: discord.Interaction):
        await command(self, interaction, "mywuxing", "reveal")

    @mywuxing.command(name="play", description="Think: choose your card (and, as the lead, your target)")
    @app_commands.describe(card="A card from your hand", target="Lead only: the Universe with a partner, "
                                                                  "or a player directly")
    async def play_card(self, interaction: discord.Interaction, card: str, target: str | None = None):
        await command(self, interaction, "mywuxing", "play", card=card, target=target)

    @play_card.autocomplete("target")
    async def target_complete(self, interaction: discord.Interaction, current: str):
        names = await self._names(interaction)
        legal = await legal_of(self, interaction)
        return suggest([name_seats(a, names) for a in legal if a.startswith(("universe with ", "against "))],
                       current)

    @play_card.autocomplete("card")
    async def card_complete(self, interaction: discord.Interaction, current: str):
        legal = await legal_of(self, interaction)
        target = clean(interaction.namespace.target)
        if any(a.startswith(("universe with ", "against ")) for a in legal):
            names = await self._names(interaction)
            raw = {name_seats(a, names).lower(): a for a in legal}
            legal = await legal_of(self, interaction, [raw.get(target, target)]) if target else []
        return suggest([a for a in legal if a.startswith(CARD_VERBS)], current)

    @mywuxing.command(name="react", description="Answer a power-card window: pass, activate or counter")
    @app_commands.describe(answer="pass, activate star, counter with star, counter with dragon …")
    async def react(self, interaction: discord.Interaction, answer: str):
        await command(self, interaction, "mywuxing", "react", answer=answer)

    @react.autocomplete("answer")
    async def answer_complete(self, interaction: discord.Interaction, current: str):
        legal = await legal_of(self, interaction)
        return suggest([a for a in legal if a.startswith(("pass", "activate", "counter"))], current)


async def setup(bot: commands.Bot) -> None:
    ui.LABELS["mywuxing"] = action_label
    await bot.add_cog(MyWuXingCog(bot))
