"""/help: how to play here and the commands at a glance, as a card in the reader's language (issue #48). The
commands are named as the reader's Discord names them (``/partita nuova`` in Italian), each game's guide is
``/game rules``; the console has its own ``/help`` (console/table.py), with its own lines."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES
from i18n import N_, _, pgettext
from table.cards import PART
from table.replies import LOBBY_BUTTONS

from . import cards, observe
from .ui import who

GUIDE = (
    N_("## Teahouse\nBoard games by chat, played in turns across the day: {games}. A game's guide: {rules}."),
    N_("### Play\n{new} opens a table in this channel: whoever wants to play presses **{join}**, the host "
       "**{start}**. {learn} plays against the computer, with private tips.\nOn your turn, press a button under "
       "the picture (🔒 for a secret choice) or type {move}; each game has its own commands too ({own}).\n{hand} "
       "shows your hand, {hint} what the computer would play, {undo} takes back your last move."),
    N_("### Look back\n{status} the table now · {history} the moves · {review} a game step by step · {analysis} "
       "where it was won."),
    N_("### Around the server\n{games_here} the games here · {mygames} where it is your turn · {stats} · "
       "{leaderboard} · {profile} · {league} a season of paired games.\n{notify} direct messages, your time zone "
       "and quiet hours · {away} time off, your clocks paused · {settings} reminders, deadlines and threads "
       "(for those who manage the server)."),
)

COMMANDS = {"rules": "game rules", "new": "game new", "learn": "game learn", "move": "game move",
            "hand": "game hand", "hint": "game hint", "undo": "game undo", "status": "game status",
            "history": "game history", "review": "game review", "analysis": "game analysis", "games_here": "games",
            "mygames": "mygames", "stats": "stats", "leaderboard": "leaderboard", "profile": "profile",
            "league": "league", "notify": "notify", "away": "away", "settings": "settings"}


def command(path: str) -> str:
    """A slash command as the reader's Discord shows it: its words in the reader's language, in code style."""
    return "`/" + " ".join(pgettext("command", word) for word in path.split()) + "`"


def guide(own: list[str]) -> str:
    """The help's text in the language spoken now, its sections apart (``PART``): a text display each. ``own``:
    the games' own command groups (``wurrm``…)."""
    join, start = (text for key, text, _command, _options in LOBBY_BUTTONS if key in ("join", "start"))
    names = {key: command(path) for key, path in COMMANDS.items()}
    own = ", ".join(f"`/{name}`" for name in own)
    games = ", ".join(g.title for g in GAMES.values())
    return PART.join(_(section, games=games, join=_(join), start=_(start), own=own, **names)
                     for section in GUIDE)


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="help", description="How to play here: the commands at a glance (only you see it)")
    async def help(self, interaction: discord.Interaction):
        who(interaction)          # the reader's language
        own = [c.name for c in self.bot.tree.get_commands() if c.name in GAMES]
        await interaction.response.send_message(**cards.words(guide(own)).send(ephemeral=True))
        observe.answered(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
