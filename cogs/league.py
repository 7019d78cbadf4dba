"""Leagues in Discord (issue #35): ``/league new|join|leave|addbot|start|standings|pairings|pause|resume|cancel|
drop|fix`` over table/league.py, the sign-up message's Join and Leave buttons (``DynamicItem`` custom ids
``th:L:<league>:<join|leave|start>`` that read the league from the database when clicked, so they work after a
restart), and each pairing's game opened in a thread of the league's channel.

Who may open and run a league: whoever has Manage Server, holds the role the server picked with ``/settings
league_role`` (a role id in its settings; @everyone lets anyone), or a role named ``LEAGUE_ROLE``; the organiser
runs the league they opened.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from store.leagues import LeagueRow
from store.store import StoreError
from table.league import signup_controls

from . import ui
from .game import GAME_CHOICES, LEVEL_CHOICES, Answer

log = logging.getLogger("teahouse.discord")

LEAGUE_ROLE = "League organiser"
FORMAT_CHOICES = [app_commands.Choice(name="Swiss", value="swiss"),
                  app_commands.Choice(name="round robin", value="round-robin"),
                  app_commands.Choice(name="pods (3 or more at a table)", value="pods")]
SPEED_CHOICES = [app_commands.Choice(name=s, value=s) for s in ("untimed", "fast", "daily", "relaxed")]


def manages(interaction: discord.Interaction, role: str = "") -> bool:
    """Whether the member may organise leagues: Manage Server, the role the server picked
    (``/settings league_role``, a role id), or a role named ``LEAGUE_ROLE``."""
    perms = getattr(interaction.user, "guild_permissions", None)
    roles = getattr(interaction.user, "roles", []) or []
    return (bool(perms and perms.manage_guild) or any(role and str(r.id) == role for r in roles)
            or any(r.name.lower() == LEAGUE_ROLE.lower() for r in roles))


def signup_rows(league_id: int) -> list[discord.ui.ActionRow]:
    """A sign-up's Join, Leave and Start, in its card."""
    styles = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}
    return ui.rows([ui.LeagueButton(league_id, act, text, styles.get(act, discord.ButtonStyle.secondary))
                    for act, text in signup_controls()])


class LeagueCog(commands.Cog):
    league = app_commands.Group(name="league", description="A season of paired games in this channel, with standings",
                                guild_only=True)

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        bot.service.leagues.channel_for = self.thread_for

    @property
    def service(self):
        return self.bot.service

    @property
    def leagues(self):
        return self.bot.service.leagues

    async def thread_for(self, league: LeagueRow, round_no: int, board: int) -> str:
        """A table's game in a thread of the league's channel (in the channel itself when it cannot be made)."""
        channel = self.bot.get_channel(int(league.channel)) if league.channel.isdigit() else None
        if isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(name=f"League {league.id} · round {round_no} · table {board}",
                                                     type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=10080)
                return str(thread.id)
            except discord.HTTPException:
                log.warning("league %s: could not open a thread in channel %s", league.id, league.channel)
        return f"{league.channel}-L{league.id}-r{round_no}-t{board}"

    async def run(self, interaction: discord.Interaction, work, *, buttons: bool = False) -> None:
        """Answer with ``work()`` (a Reply), guarded as the game commands are; a sign-up message carries the
        Join, Leave and Start buttons."""
        async def answer():
            reply = await work()
            if buttons and reply.ok and reply.status == "league:signup":
                league = await self.leagues.here(ui.who(interaction)[1])
                if league is not None:
                    return Answer(reply, signup_rows(league.id))
            return reply
        await self.bot.get_cog("GameCog").guarded(interaction, answer)
        try:                    # what the league says on its own (a round's pairings) goes out now
            await self.bot.send_due()
        except StoreError as e:     # the store is down: the command's answer said so; one line here
            log.warning("the league's notices could not be sent now (%s); the scheduler will", e)
        except Exception:
            log.exception("the league's notices could not be sent now; the scheduler will")

    async def organiser(self, interaction: discord.Interaction) -> bool:
        """``manages`` with the server's chosen role; without the database, by the permission and the name."""
        try:
            role = (await self.service.settings(ui.who(interaction)[1].guild)).league_role
        except Exception:  # noqa: BLE001 — the command itself says the store cannot answer
            role = ""
        return manages(interaction, role)

    async def as_organiser(self, interaction: discord.Interaction, call, *args, buttons: bool = False, **kwargs):
        """An organiser's command: the service's ``call(where, user, *args, may_organise, **kwargs)``."""
        user, where = ui.who(interaction)
        can = await self.organiser(interaction)
        await self.run(interaction, lambda: call(where, user, *args, can, **kwargs), buttons=buttons)

    async def clicked(self, interaction: discord.Interaction, league_id: int, act: str) -> None:
        user, where = ui.who(interaction)
        if act == "join":
            await self.run(interaction, lambda: self.leagues.join(where, user, league_id), buttons=True)
        elif act == "leave":
            await self.run(interaction, lambda: self.leagues.leave(where, user, league_id), buttons=True)
        else:
            await self.as_organiser(interaction, self.leagues.start)

    @league.command(name="new", description="Open a league's sign-up in this channel (Manage Server)")
    @app_commands.describe(game="Which game", format="Swiss, round robin or pods",
                           rounds="How many rounds (a round robin has as many as it needs)",
                           speed="The games' speed")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, speed=SPEED_CHOICES)
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                  format: app_commands.Choice[str], rounds: app_commands.Range[int, 1, 40] | None = None,
                  speed: app_commands.Choice[str] | None = None):
        await self.as_organiser(interaction, self.leagues.new, game.value, format.value, rounds,
                                speed.value if speed else "untimed", buttons=True)

    @league.command(name="join", description="Enter the league in this channel")
    async def join(self, interaction: discord.Interaction):
        user, where = ui.who(interaction)
        await self.run(interaction, lambda: self.leagues.join(where, user), buttons=True)

    @league.command(name="leave", description="Leave the league (after its start: withdraw)")
    async def leave(self, interaction: discord.Interaction):
        user, where = ui.who(interaction)
        await self.run(interaction, lambda: self.leagues.leave(where, user), buttons=True)

    @league.command(name="addbot", description="Organiser: enter computer players")
    @app_commands.describe(level="How well they play", count="How many")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None,
                     count: app_commands.Range[int, 1, 50] = 1):
        await self.as_organiser(interaction, self.leagues.add_computers, level.value if level else "easy", count,
                                buttons=True)

    @league.command(name="start", description="Organiser: start the league (round 1 is paired at once)")
    async def start(self, interaction: discord.Interaction):
        await self.as_organiser(interaction, self.leagues.start)

    @league.command(name="standings", description="The league's standings, as a picture")
    async def standings(self, interaction: discord.Interaction):
        user, where = ui.who(interaction)
        await self.run(interaction, lambda: self.leagues.standings(where, user))

    @league.command(name="pairings", description="A round's games, their links and state")
    @app_commands.describe(round="Which round (the current one by default)")
    async def pairings(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 40] | None = None):
        user, where = ui.who(interaction)
        await self.run(interaction, lambda: self.leagues.pairings(where, user, round))

    @league.command(name="pause", description="Organiser: pair no new round until resumed")
    async def pause(self, interaction: discord.Interaction):
        await self.as_organiser(interaction, self.leagues.pause, on=True)

    @league.command(name="resume", description="Organiser: go on after a pause")
    async def resume(self, interaction: discord.Interaction):
        await self.as_organiser(interaction, self.leagues.pause, on=False)

    @league.command(name="cancel", description="Organiser: cancel the league (its games go on)")
    async def cancel(self, interaction: discord.Interaction):
        await self.as_organiser(interaction, self.leagues.cancel)

    @league.command(name="drop", description="Organiser: drop an absent player")
    @app_commands.describe(player="Who")
    async def drop(self, interaction: discord.Interaction, player: discord.User):
        await self.as_organiser(interaction, self.leagues.drop, str(player.id))

    @league.command(name="fix", description="Organiser: set a result adjudicated wrongly (logged)")
    @app_commands.describe(round="The round", table="The table", places="Players best first, by comma; ties by =")
    async def fix(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 40],
                  table: app_commands.Range[int, 1, 100], places: str):
        await self.as_organiser(interaction, self.leagues.fix, round, table, places)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))
