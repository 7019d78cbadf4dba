"""Server settings, notifications, and what is going on: /settings, /notify, /games, /mygames, /stats,
/leaderboard, /profile."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from engine import GAMES
from i18n import _, ngettext
from store.store import StoreError
from table.clock import SPEEDS
from table.errors import store_failed
from table.service import describe_settings

from . import cards, observe
from . import watch as spectating
from .game import GAME_CHOICES
from .ui import NO_PINGS, acknowledged, apologize, safe, to_user, who, zone_names

log = logging.getLogger("teahouse.discord")


def link(guild: str | None, channel: str) -> str:
    return f"https://discord.com/channels/{guild or '@me'}/{channel}"


def game_line(summary: dict) -> str:
    """One game of /games: what, where, whom it waits for. One whole sentence per state, so a translator
    sees each (and no short template like "waiting for {names}" matches an engine's lines, #17)."""
    where = {"game": summary["title"], "channel": f"<#{summary['channel']}>",
             "link": link(summary["guild"], summary["channel"])}
    if summary["status"] == "lobby":
        return _("**{game}** in {channel} — in the lobby · {link}", **where)
    names = [safe(summary["names"].get(s, s)) for s in summary["waiting"]]
    if names:
        return _("**{game}** in {channel} — waiting for {names} · {link}", names=", ".join(names), **where)
    return _("**{game}** in {channel} — between moves · {link}", **where)


class CommunityCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    async def answer(self, interaction: discord.Interaction, text: str, ephemeral: bool = True,
                     game: str | None = None) -> None:
        """``text`` as a card (``game``: whose colour it takes, else the neutral one); nobody is pinged."""
        message = cards.words(text, game)
        if interaction.response.is_done():     # deferred while the database was slow: fill in the answer
            await interaction.edit_original_response(**message.edit(allowed_mentions=NO_PINGS))
        else:
            await interaction.response.send_message(**message.send(ephemeral=ephemeral, allowed_mentions=NO_PINGS))
            observe.answered(interaction)

    async def respond(self, interaction: discord.Interaction, work, ephemeral: bool = True,
                      game: str | None = None) -> None:
        """Compute the answer's text with ``work()``, acknowledging within ACK_WITHIN, and send it."""
        try:
            text = await acknowledged(interaction, work, private=ephemeral)
        except StoreError as e:
            with to_user(interaction):
                text = store_failed(e)
            await apologize(interaction, text)
            return
        except Exception:
            log.exception("command failed in channel %s", interaction.channel_id)
            await apologize(interaction)
            return
        await self.answer(interaction, text, ephemeral, game)

    @app_commands.command(name="settings", description="This server's reminders, turn deadline, threads "
                                                        "and mentions")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(reminder_hours="Hours between reminders (0: none)",
                           deadline_hours="Hours before a turn is overdue (0: no deadline)",
                           past_deadline="What happens past the deadline",
                           threads="Open a thread per game", mention="Mention the player to act after a move",
                           speed="The speed of new tables (a table's host may pick another)",
                           league_role="Members with this role may organise leagues (@everyone: anyone)",
                           tv_channel="A channel with a live card per running game (the TV)",
                           tv_off="Turn the TV channel off")
    @app_commands.choices(past_deadline=[
        app_commands.Choice(name="the other players choose: skip or remove (buttons)", value="vote"),
        app_commands.Choice(name="a computer plays the missed turn", value="skip"),
        app_commands.Choice(name="a computer takes the seat", value="remove")],
        speed=[app_commands.Choice(name=name, value=name) for name in SPEEDS])
    async def settings(self, interaction: discord.Interaction,
                       reminder_hours: app_commands.Range[float, 0, 168] | None = None,
                       deadline_hours: app_commands.Range[float, 0, 720] | None = None,
                       past_deadline: app_commands.Choice[str] | None = None,
                       threads: bool | None = None, mention: bool | None = None,
                       speed: app_commands.Choice[str] | None = None, league_role: discord.Role | None = None,
                       tv_channel: discord.TextChannel | None = None, tv_off: bool | None = None):
        user, where = who(interaction)
        tv = tv_channel is not None or bool(tv_off)    # the TV channel (#49): table/tv.py, cogs/watch.py
        changes = {"reminder_hours": reminder_hours, "deadline_hours": deadline_hours,
                   "deadline_action": past_deadline.value if past_deadline else None,
                   "threads": threads, "mention": mention, "speed": speed.value if speed else None,
                   "league_role": str(league_role.id) if league_role else None}

        async def work() -> str:
            perms = getattr(interaction.user, "guild_permissions", None)
            can = bool(perms and perms.manage_guild)
            said = []
            if tv:
                ok, text = await self.tv(interaction, user, where, tv_channel, can)
                if not ok:
                    return text                  # bad input: its one line, nothing changed
                said.append(text)
            if all(v is None for v in changes.values()):
                return "\n".join(said) or _("This server's settings: {settings}",
                                            settings=describe_settings(await self.service.settings(where.guild)))
            said.append((await self.service.change_settings(where.guild, user, can, **changes)).private[0].text)
            return "\n".join(said)

        await self.respond(interaction, work)

    async def tv(self, interaction: discord.Interaction, user, where, channel, can: bool) -> tuple[bool, str]:
        """/settings tv_channel: (or tv_off:): the bot's permissions there read first, the service decides."""
        missing = []
        if channel is not None and interaction.guild is not None and can:
            found = interaction.guild.get_channel(channel.id) or await interaction.guild.fetch_channel(channel.id)
            me = interaction.guild.me or await interaction.guild.fetch_member(self.bot.user.id)
            missing = spectating.missing_permissions(found, me)
        reply = await self.service.tv.set_channel(where.guild, user, can, str(channel.id) if channel else None,
                                                  missing)
        if reply.ok and channel is not None:
            self.bot.get_cog("SpectatorCog").start_tv(where.guild)
        return reply.ok, reply.private[0].text

    @app_commands.command(name="notify", description="Direct messages, your time zone, quiet hours and time away")
    @app_commands.describe(direct_messages="on or off", followers="Whether friends may follow you (/follow)",
                           zone="Your time zone, such as Europe/Rome",
                           quiet="Your quiet hours in your own time, such as 23:00-07:00 (or off)",
                           away_days="Away for this many days (0: back now); your clocks pause")
    @app_commands.choices(direct_messages=[app_commands.Choice(name="on", value="on"),
                                           app_commands.Choice(name="off", value="off")],
                          followers=[app_commands.Choice(name="on", value="on"),
                                     app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction,
                     direct_messages: app_commands.Choice[str] | None = None, zone: str | None = None,
                     quiet: str | None = None, away_days: float | None = None,
                     followers: app_commands.Choice[str] | None = None):
        user, _where = who(interaction)

        async def work() -> str:
            parts = []
            if direct_messages is not None:
                reply = await self.service.set_notify(user, direct_messages.value == "on")
                parts.append(reply.private[0].text)
            if followers is not None:         # followers or not (#49)
                parts.append((await self.service.following.set_followers(user, followers.value == "on"))
                             .private[0].text)
                if direct_messages is None and zone is None and quiet is None and away_days is None:
                    return "\n".join(parts)
            if direct_messages is None or zone is not None or quiet is not None or away_days is not None:
                reply = await self.service.set_hours(user, zone, quiet, away_days)
                if not reply.ok:
                    return reply.private[0].text        # bad input: its one line, nothing changed
                parts.append(reply.private[0].text)
            return "\n".join(parts)

        await self.respond(interaction, work)

    @app_commands.command(name="away", description="Time away: your clocks pause in all your games")
    @app_commands.describe(days="Days away from now (at most 21 in any 60 days)", off="Back now")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60] | None = None,
                   off: bool | None = None):
        user, _where = who(interaction)

        async def work() -> str:
            if days is None and not off:
                return (await self.service.set_hours(user)).private[0].text      # where one stands
            return (await self.service.away(user, None if off else days)).private[0].text

        await self.respond(interaction, work)

    @notify.autocomplete("zone")
    async def zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_names(current)]

    @app_commands.command(name="games", description="The games going on in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction):
        _user, where = who(interaction)

        async def work() -> str:
            rows = await self.service.games_here(where.guild)
            if not rows:
                return _("No games going on in this server. Open one with `/game new`.")
            lines = [game_line(g) for g in rows[:20]]
            if len(rows) > 20:
                lines.append(ngettext("… and {n} more.", "… and {n} more.", len(rows) - 20))
            return "\n".join(lines)

        await self.respond(interaction, work)

    @app_commands.command(name="mygames", description="Where it is your turn, in every server")
    async def mygames(self, interaction: discord.Interaction):
        user, _where = who(interaction)

        async def work() -> str:
            rows = await self.service.my_turns(user)
            if not rows:
                return _("No game is waiting for you right now.")
            lines = [f"**{g['title']}** — {link(g['guild'], g['channel'])}" for g in rows[:20]]
            return _("Your move in:\n{games}", games="\n".join(lines))

        await self.respond(interaction, work)

    @app_commands.command(name="stats", description="Wins, losses and games played")
    @app_commands.describe(user="Whose stats (you by default)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None):
        target = user or interaction.user
        _user, where = who(interaction)
        name = safe(getattr(target, "display_name", target.name))

        def block(where_text, st):
            if not st.by_game:
                return _("{where}: no games yet.", where=where_text)
            rows = []
            for k, r in sorted(st.by_game.items()):
                title = GAMES[k].title if k in GAMES else k
                if r.abandoned:
                    rows.append(_("{game}: {wins} won, {losses} lost of {played} ({abandoned} abandoned)", game=title,
                                  wins=r.wins, losses=r.losses, played=r.played, abandoned=r.abandoned))
                else:
                    rows.append(_("{game}: {wins} won, {losses} lost of {played}", game=title, wins=r.wins,
                                  losses=r.losses, played=r.played))
            head = _("{where} — {wins} won of {played}:", where=where_text, wins=st.total.wins,
                     played=st.total.played)
            return "\n".join([head] + rows)

        async def work() -> str:
            here = await self.service.stats(str(target.id), where.guild) if where.guild else None
            everywhere = await self.service.stats(str(target.id))
            with i18n.public():          # a public answer: the channel's language
                rated = await self.service.rating_stats(str(target.id), where.guild)
                parts = [f"**{name}**"] + rated
                if here is not None:
                    parts.append(block(_("In this server"), here))
                parts.append(block(_("Everywhere"), everywhere))
            return "\n".join(parts)

        await self.respond(interaction, work, ephemeral=False)

    @app_commands.command(name="leaderboard", description="The best players of a game in this server")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]):
        _user, where = who(interaction)

        async def work() -> str:
            board = await self.service.leaderboard(game.value, where.guild)
            with i18n.public():          # a public answer: the channel's language
                rated = await self.service.rating_board(game.value, where.guild)
                if rated:                # by rating; by wins where no game was rated yet
                    return "\n".join([_("**{game}** leaderboard", game=game.name)] + rated)
                if not board:
                    return _("Nobody has finished a game of {game} here yet.", game=game.name)
                lines = [_("{rank}. {name} — {wins} won of {played} ({rate})", rank=i + 1, name=safe(name),
                           wins=rec.wins, played=rec.played, rate=f"{rec.rate:.0%}")
                         for i, (_player, name, rec) in enumerate(board[:10])]
                return "\n".join([_("**{game}** leaderboard", game=game.name)] + lines)

        await self.respond(interaction, work, ephemeral=False, game=game.value)

    @app_commands.command(name="profile", description="A player card: the ratings per game and how they went")
    @app_commands.describe(user="Whose card (you by default)")
    async def profile(self, interaction: discord.Interaction, user: discord.User | None = None):
        target = user or interaction.user
        name = getattr(target, "display_name", None) or target.name
        await self.bot.get_cog("GameCog").call(interaction, self.service.profile, str(target.id), name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CommunityCog(bot))
