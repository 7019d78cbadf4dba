"""Sending what the table service hands back: a Reply's public part to the channel and its private parts to
their users, each as a card (cogs/cards.py), with the components each message carries. ``Sending`` is the
part of ``cogs.game.GameCog`` that speaks to Discord; the commands and the buttons' handlers stay there.

A turn stays one message: the player who acts again on the turn message (take a die, then place it) has it
edited in place, a message sent before the cards (#48) included; the next player is mentioned in a new one.
Mentions ping exactly whoever must act (``allowed_mentions``), never in an edit or a private message.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

import i18n
from engine import GAMES
from i18n import _
from table import Private, Reply
from table.cards import game_of
from table.records import TABLE_OPTION_CHOICES, table_options
from table.replies import LOBBY_BUTTONS, after_game

from . import cards, observe, ui
from .ui import NO_PINGS, mentions

log = logging.getLogger("teahouse.discord")

Rows = Sequence[discord.ui.ActionRow]

# an ended game's follow-ups (table.replies.after_game) → their buttons
FOLLOW_UPS = {"rematch": ui.RematchButton, "review": ui.ReviewButton, "analysis": ui.AnalysisButton}


def lobby_rows(row) -> list[discord.ui.ActionRow]:
    """Join, Leave, Add computer, Start, and the host's option selects."""
    gid = row.id
    styles = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}
    buttons = [ui.LobbyButton(gid, key, _(text), styles.get(key, discord.ButtonStyle.secondary))
               for key, text, _command, _options in LOBBY_BUTTONS]   # the console prints their lines
    game = GAMES.get(row.game)
    choices = {**game.option_choices, **TABLE_OPTION_CHOICES} if game else {}
    selects = ui.OptionSelects(gid, table_options(row.options, row.seats), choices) if game else []
    return ui.rows(buttons, selects)


@dataclass
class Answer:
    """A reply with components of the handler's own (a private picker, a confirmation); ``edit``: it replaces
    the private message clicked (a review's next step) rather than adding one."""
    reply: Reply
    controls: Rows | None
    edit: bool = False


class Sending:
    """How GameCog answers: every message a card, with its components. Needs ``self.bot``, ``self.service`` and
    ``self.game_keys`` (a dict: game id → its key, remembered)."""

    GAME_KEYS = 4096            # the games whose key (their accent colour) is remembered

    async def game_key(self, reply: Reply) -> str | None:
        """The game a reply is about (its card's colour): from the reply, else from its game's row, read once."""
        key = game_of(reply)
        if key is not None or reply.game_id is None:
            return key
        known = self.game_keys
        if reply.game_id not in known:
            row = await self.service.store.game(reply.game_id)
            if len(known) >= self.GAME_KEYS:
                known.pop(next(iter(known)))
            known[reply.game_id] = row.game if row is not None else None
        return known[reply.game_id]

    async def components(self, reply: Reply) -> list[discord.ui.ActionRow]:
        """The controls a reply's public message carries: the lobby's, a deadline's, an ended game's, or the
        next decision's."""
        if reply.offer is not None:
            return ui.offer_rows(reply.offer)
        if reply.status == "lobby" and reply.game_id is not None and reply.ok:
            row = await self.service.store.game(reply.game_id)
            if row is not None and row.status == "lobby":
                return lobby_rows(row)
            return []
        if reply.rematch is not None and reply.ok:
            # the console prints the same ones' lines
            return ui.rows([FOLLOW_UPS[follow.key](reply.rematch) for follow in after_game(reply.rematch)])
        return ui.turn_rows(reply.turn)

    async def send(self, interaction: discord.Interaction, reply: Reply, controls: Rows | None = None) -> None:
        """Answer an interaction with a Reply: the public part in the channel, the caller's private parts
        ephemeral. A stale click gets the current prompt's buttons with its ephemeral answer."""
        me = str(interaction.user.id)
        ui.in_discord_times(reply)
        privates = reply.private_for(me)
        public = bool(reply.text or reply.image)
        game = await self.game_key(reply)
        if controls is None:
            # a public message's buttons speak the channel's language; a stale click's (ephemeral) the user's
            with i18n.public() if public else contextlib.nullcontext():
                controls = await self.components(reply)
        deferred = interaction.extras.get("deferred")
        if deferred == "public" and not public:
            # a public "thinking" would turn the first follow-up public: clear it, then answer privately
            await interaction.delete_original_response()
        elif deferred == "private" and public:
            # a private "thinking" takes the first follow-up privately: fill it, then post in public
            first = privates.pop(0) if privates else Private(me, _("Done."))
            await interaction.edit_original_response(**cards.private(first, game=game).edit(
                allowed_mentions=NO_PINGS))
        if public and self.continues(interaction, reply):
            await self._update(interaction, reply, controls, game)
            controls = None
        elif public:
            with i18n.public():
                message = cards.public(reply, controls, game)
            await self._respond(interaction, message, ephemeral=False, allowed_mentions=mentions(reply.mention))
            controls = None
        elif not privates:
            privates = [Private(me, _("Done."))]
        for p in privates:
            shown = controls if controls and (reply.stale or reply.ok) else ()
            await self._respond(interaction, cards.private(p, shown, game), ephemeral=True)
            controls = None

    @staticmethod
    def continues(interaction: discord.Interaction, reply: Reply) -> bool:
        """A click on the public turn message by the player who then acts again (take a die, then place
        it; toggle dice, reroll, step): the same message is updated in place rather than a new one posted,
        so a turn is one message in the channel. When the turn passes, a new message mentions the next
        player (an edit would not notify them)."""
        message = interaction.message
        return (interaction.type == discord.InteractionType.component and message is not None
                and not message.flags.ephemeral and reply.ok and reply.turn is not None
                and reply.turn.to_act == [str(interaction.user.id)])

    async def _update(self, interaction: discord.Interaction, reply: Reply, controls: Rows, game) -> None:
        """The clicked turn message becomes the reply's card: a message sent before the cards (plain text above
        its rows of buttons) becomes one too. It pings nobody: the player reading it is the one who clicked."""
        with i18n.public():
            kwargs = cards.public(reply, controls, game).edit(allowed_mentions=NO_PINGS)
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            observe.answered(interaction)
        else:
            await interaction.edit_original_response(**kwargs)

    async def _replace_private(self, interaction: discord.Interaction, reply: Reply, controls: Rows) -> None:
        """The clicked private message (ephemeral) becomes the reply's private part for the clicker."""
        ui.in_discord_times(reply)
        p = reply.private_for(str(interaction.user.id))[0]
        kwargs = cards.private(p, controls or (), await self.game_key(reply)).edit(allowed_mentions=NO_PINGS)
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.edit_original_response(**kwargs)

    async def channel(self, channel_id: str):
        channel = self.bot.get_channel(int(channel_id))
        if channel is None:
            channel = await self.bot.fetch_channel(int(channel_id))
        return channel

    async def post(self, channel_id: str, reply: Reply, nonce: str | None = None) -> None:
        """Send a reply's public part to a channel on the bot's own initiative (reminders, deadlines)."""
        await reply.render()
        ui.in_discord_times(reply)
        channel = await self.channel(channel_id)
        message = cards.public(reply, await self.components(reply), await self.game_key(reply))
        kwargs = message.send(allowed_mentions=mentions(reply.mention))
        if nonce is not None:
            kwargs["nonce"] = nonce
        await channel.send(**kwargs)
        await self.post_notes(reply)

    async def post_notes(self, reply: Reply) -> None:
        """Short notes for other channels: a game thread's parent hears when its game starts and ends."""
        game = await self.game_key(reply) if reply.notes else None
        for channel_id, text in reply.notes:
            try:
                channel = await self.channel(channel_id)
                await channel.send(**cards.words(text, game).send(allowed_mentions=NO_PINGS))
            except discord.HTTPException:
                log.warning("could not post a note to channel %s", channel_id)

    async def _respond(self, interaction: discord.Interaction, message: cards.Message, *, ephemeral: bool,
                       allowed_mentions: discord.AllowedMentions = NO_PINGS) -> None:
        kwargs = message.send(ephemeral=ephemeral, allowed_mentions=allowed_mentions)
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
            observe.answered(interaction)
        else:
            await interaction.followup.send(**kwargs)
