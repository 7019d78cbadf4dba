"""/wagara: choose your paddle card (privately) and move your canoes. The turn message's buttons do the
same; these commands mirror them with suggestions from the caller's legal actions.

Actions stay in their English notation (``canoe 1: unload, up 3, steal red``): that is what is sent and
typed. What a player reads about one (a button, a select option, a suggestion's name) is said in their
language by ``label``."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from engine import IllegalAction
from engine.wagara import UNLOAD, parse_move
from i18n import _, pgettext
from table.replies import name_seats

from . import common, ui
from .common import GameCommands


def _card(card: str) -> str:
    return _("the Cloud") if card == "cloud" else card


def _part(op) -> str:
    if op == UNLOAD:
        return pgettext("action", "unload")
    return pgettext("action", "load {colour}", colour=i18n.word(op[1]))


def _move_label(text: str) -> str | None:
    try:
        move = parse_move(text)
    except IllegalAction:
        return None
    parts = [_part(op) for op in move.pre]
    if move.kind == "up":
        parts.append(pgettext("action", "up {steps}", steps=move.steps))
    elif move.kind == "down":
        parts.append(pgettext("action", "down {steps}", steps=move.steps))
    elif move.kind == "land":
        parts.append(pgettext("action", "land"))
    elif move.kind == "launch":
        parts.append(pgettext("action", "launch to {position}", position=move.steps))
    parts += [_part(op) for op in move.post]
    if move.steal:
        colour, victim = move.steal
        if victim:
            parts.append(pgettext("action", "steal {colour} from {player}", colour=i18n.word(colour), player=victim))
        else:
            parts.append(pgettext("action", "steal {colour}", colour=i18n.word(colour)))
    return pgettext("action", "canoe {canoe}: {parts}", canoe=move.canoe, parts=", ".join(parts))


def label(action: str, table: dict | None = None) -> str:
    """``action`` as a player reads it in the current language; English shows the notation itself. Group
    names (the first words of several actions, ``canoe 1:``) and anything unknown stay as they are. Its
    sentences have the catalog context ``action``, so they never match an engine line (``i18n.line``)."""
    if i18n.current() == i18n.DEFAULT:
        return action
    text = action.strip()
    m = re.fullmatch(r"play (\w+)", text)
    if m:
        return pgettext("action", "play {card}", card=_card(m.group(1)))
    m = re.fullmatch(r"recover canoe (\d+), pay (\w+)", text)
    if m:
        return pgettext("action", "recover canoe {canoe}, pay {colour}", canoe=m.group(1),
                        colour=i18n.word(m.group(2)))
    m = re.fullmatch(r"weather ([+-]?\d+)", text)
    if m:
        return pgettext("action", "weather {value}", value=m.group(1))
    if text == "end turn":
        return pgettext("action", "end turn")
    m = re.fullmatch(r"canoe (\d+):?", text)
    if m:
        return pgettext("action", "canoe {canoe}:", canoe=m.group(1))
    if text.startswith("canoe"):
        return _move_label(text) or action
    return action


def suggest(options: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 suggestions containing every word typed so far (in the notation or as ``label`` says it)."""
    return common.suggest(options, current, label)


def card_label(card: str) -> str:
    """A paddle card as a suggestion names it: the card itself in English, ``la Nuvola`` in Italian."""
    return card if i18n.current() == i18n.DEFAULT else _card(card)


class WagaraCog(GameCommands):
    wagara = app_commands.Group(name="wagara", description="Wagara: canoes, gems and the falls")
    game = "wagara"

    @wagara.command(name="play", description="Choose your paddle card for this round (only you see it)")
    @app_commands.describe(card="1 to 6, or cloud")
    @app_commands.autocomplete(card=common.following("play ", card_label))
    async def play_card(self, interaction: discord.Interaction, card: str):
        await self.run(interaction, "play", card=card)

    @wagara.command(name="move", description="Your turn: a canoe's whole move, the weather, a recovery, "
                                             "or end turn")
    @app_commands.describe(action="Start typing, e.g. canoe 1: up 3")
    async def move(self, interaction: discord.Interaction, action: str):
        await self.run(interaction, "move", action=action)

    @move.autocomplete("action")
    async def move_complete(self, interaction: discord.Interaction, current: str):
        names = await self.seat_names(interaction)
        legal = [a for a in await self.legal(interaction) if not a.startswith("play ")]
        return suggest([name_seats(a, names) for a in legal], current)


async def setup(bot: commands.Bot) -> None:
    ui.LABELS["wagara"] = label
    await bot.add_cog(WagaraCog(bot))
