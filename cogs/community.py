"""Server settings, notifications, and what is going on: /settings, /notify, /games, /mygames, /stats,
/leaderboard."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES
from table.service import describe_settings
from table.store import StoreError

from .game import GAME_CHOICES
from .ui import NO_PINGS, acknowledged, apologize, safe, who

log = logging.getLogger("teahouse.discord")


def link(guild: str | None, channel: str) -> str:
    return f"https://discord.com/channels/{guild or '@me'}/{channel}"


def waiting_text(summary: dict) -> str:
    if summary["status"] == "lobby":
        return "in the lobby"
    names = [safe(summary["names"].get(s, s)) for s in summary["waiting"]]
    return "waiting for " + ", ".join(names) if names else "between moves"


class CommunityCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    async def answer(self, interaction: discord.Interaction, text: str, ephemeral: bool = True) -> None:
        if interaction.response.is_done():     # deferred while the database was slow: fill in the answer
            await interaction.edit_original_response(content=text[:2000], allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text[:2000], ephemeral=ephemeral, allowed_mentions=NO_PINGS)

    async def respond(self, interaction: discord.Interaction, work, ephemeral: bool = True) -> None:
        """Compute the answer's text with ``work()``, acknowledging within ACK_WITHIN, and send it."""
        try:
            text = await acknowledged(interaction, work, private=ephemeral)
        except StoreError as e:
            await apologize(interaction, str(e))
            return
        except Exception:
            log.exception("command failed in channel %s", interaction.channel_id)
            await apologize(interaction)
            return
        await self.answer(interaction, text, ephemeral)

    @app_commands.command(name="settings", description="This server's reminders, turn deadline, threads "
                                                        "and mentions")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(reminder_hours="Hours between reminders (0: none)",
                           deadline_hours="Hours before a turn is overdue (0: no deadline)",
                           past_deadline="What happens past the deadline",
                           threads="Open a thread per game", mention="Mention the player to act after a move")
    @app_commands.choices(past_deadline=[
        app_commands.Choice(name="the other players choose: skip or remove (buttons)", value="vote"),
        app_commands.Choice(name="a computer plays the missed turn", value="skip"),
        app_commands.Choice(name="a computer takes the seat", value="remove")])
    async def settings(self, interaction: discord.Interaction,
                       reminder_hours: app_commands.Range[float, 0, 168] | None = None,
                       deadline_hours: app_commands.Range[float, 0, 720] | None = None,
                       past_deadline: app_commands.Choice[str] | None = None,
                       threads: bool | None = None, mention: bool | None = None):
        user, where = who(interaction)
        changes = {"reminder_hours": reminder_hours, "deadline_hours": deadline_hours,
                   "deadline_action": past_deadline.value if past_deadline else None,
                   "threads": threads, "mention": mention}

        async def work() -> str:
            if all(v is None for v in changes.values()):
                return "This server's settings: " + describe_settings(await self.service.settings(where.guild))
            perms = getattr(interaction.user, "guild_permissions", None)
            can = bool(perms and perms.manage_guild)
            return (await self.service.change_settings(where.guild, user, can, **changes)).private[0].text

        await self.respond(interaction, work)

    @app_commands.command(name="notify", description="Direct messages when a game waits for you")
    @app_commands.describe(direct_messages="on or off")
    @app_commands.choices(direct_messages=[app_commands.Choice(name="on", value="on"),
                                           app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction, direct_messages: app_commands.Choice[str]):
        user, _ = who(interaction)

        async def work() -> str:
            return (await self.service.set_notify(user, direct_messages.value == "on")).private[0].text

        await self.respond(interaction, work)

    @app_commands.command(name="games", description="The games going on in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction):
        _, where = who(interaction)

        async def work() -> str:
            rows = await self.service.games_here(where.guild)
            if not rows:
                return "No games going on in this server. Open one with `/game new`."
            lines = [f"**{g['title']}** in <#{g['channel']}> — {waiting_text(g)} · {link(g['guild'], g['channel'])}"
                     for g in rows[:20]]
            more = f"\n… and {len(rows) - 20} more." if len(rows) > 20 else ""
            return "\n".join(lines) + more

        await self.respond(interaction, work)

    @app_commands.command(name="mygames", description="Where it is your turn, in every server")
    async def mygames(self, interaction: discord.Interaction):
        user, _ = who(interaction)

        async def work() -> str:
            rows = await self.service.my_turns(user)
            if not rows:
                return "No game is waiting for you right now."
            lines = [f"**{g['title']}** — {link(g['guild'], g['channel'])}" for g in rows[:20]]
            return "Your move in:\n" + "\n".join(lines)

        await self.respond(interaction, work)

    @app_commands.command(name="stats", description="Wins, losses and games played")
    @app_commands.describe(user="Whose stats (you by default)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None):
        target = user or interaction.user
        _, where = who(interaction)
        name = safe(getattr(target, "display_name", target.name))

        def block(title, st):
            if not st.by_game:
                return f"{title}: no games yet."
            rows = [f"{GAMES[k].title if k in GAMES else k}: {r.wins} won, {r.losses} lost of {r.played}"
                    + (f" ({r.abandoned} abandoned)" if r.abandoned else "") for k, r in sorted(st.by_game.items())]
            return f"{title} — {st.total.wins} won of {st.total.played}:\n" + "\n".join(rows)

        async def work() -> str:
            parts = [f"**{name}**"]
            if where.guild:
                parts.append(block("In this server", await self.service.stats(str(target.id), where.guild)))
            parts.append(block("Everywhere", await self.service.stats(str(target.id))))
            return "\n".join(parts)

        await self.respond(interaction, work, ephemeral=False)

    @app_commands.command(name="leaderboard", description="The best players of a game in this server")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]):
        _, where = who(interaction)

        async def work() -> str:
            board = await self.service.leaderboard(game.value, where.guild)
            if not board:
                return f"Nobody has finished a game of {game.name} here yet."
            lines = [f"{i + 1}. {safe(name)} — {rec.wins} won of {rec.played} ({rec.rate:.0%})"
                     for i, (_, name, rec) in enumerate(board[:10])]
            return f"**{game.name}** leaderboard\n" + "\n".join(lines)

        await self.respond(interaction, work, ephemeral=False)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CommunityCog(bot))
