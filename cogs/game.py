"""The /game commands and the handlers of every button and select. Thin: the table service decides; how its
replies are sent, as cards, is in cogs/sending.py."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from engine import GAMES
from i18n import N_, _
from store.store import StoreError
from table import Reply, TableService, User, Where
from table.cards import MAX_TEXT
from table.errors import store_failed
from table.records import TABLE_OPTION_CHOICES, TABLE_OPTIONS
from table.replies import name_seats, pages

from . import cards, observe, ui
from . import watch as spectating
from .sending import FOLLOW_UPS, Answer, Sending, lobby_rows  # noqa: F401  (FOLLOW_UPS, lobby_rows: here as before)
from .ui import NO_PINGS, label, mentions, who

log = logging.getLogger("teahouse.discord")

GAME_CHOICES = [app_commands.Choice(name=g.title, value=k) for k, g in GAMES.items()][:25]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in ("easy", "medium", "hard")]


REVIEW_NAVS = ("f", "p", "n", "l", "r", "j", "s")     # see cogs/ui.py: which review button was clicked


def review_answer(reply: Reply, *, edit: bool = False) -> Reply | Answer:
    """A review step with its buttons, or the refusal alone (the clicked step then stays as it was)."""
    if reply.ok and reply.review is not None:
        return Answer(reply, ui.review_rows(reply.review), edit)
    return reply


class GameCog(Sending, commands.Cog):
    game = app_commands.Group(name="game", description="Play board games in this channel")

    def __init__(self, bot: commands.Bot, service: TableService):
        self.bot = bot
        self.service = service
        self._following: set[asyncio.Task] = set()      # analyses whose messages are being edited
        self.game_keys: dict[int, str | None] = {}      # a game's key by its id: its cards' colour (Sending)
        service.learning.label = ui.action_text       # learn mode's tips name moves as the buttons do
        service.analyses.label = ui.action_text       # and so does an analysis
        ui.HANDLERS.update({"a": self.on_action, "g": self.on_group, "p": self.on_private, "v": self.on_my_view,
                            "l": self.on_lobby, "o": self.on_option, "x": self.on_confirm_abandon,
                            "d": self.on_deadline, "r": self.on_rematch, "w": self.on_review,
                            "n": self.on_analysis, "e": lambda *a: spectating.on_watch(self, *a)})

    async def call(self, interaction: discord.Interaction, method, *args, private: bool = False, **kwargs) -> None:
        """Answer with ``method(where, user, *args)`` of the table service, guarded."""
        user, where = who(interaction)
        await self.guarded(interaction, lambda: method(where, user, *args, **kwargs), private=private)

    async def guarded(self, interaction: discord.Interaction, work, *, private: bool = False) -> None:
        """Run ``work`` (a Reply, an Answer, or None when it answered itself) and send it.

        The interaction is acknowledged within ACK_WITHIN: answered at once when the table service is that
        quick, otherwise deferred meanwhile (``private``: the answer is normally only for the caller). Images
        are drawn after the move is saved, off the event loop (render.workers), before the answer is sent.
        Any unexpected error is logged with the channel, and the user gets a short apology, never a
        traceback: one bad interaction never takes the bot down."""
        try:
            result = await ui.acknowledged(interaction, work, private=private)
            if result is None:
                return
            reply, controls = (result.reply, result.controls) if isinstance(result, Answer) else (result, None)
            observe.about(interaction, reply.game_id)
            if not reply.ok:
                observe.outcome(interaction, "refused")
            if reply.needs_render:
                await ui.defer(interaction, private=not (reply.text or reply.image))
                await reply.render()
            if isinstance(result, Answer) and result.edit:
                await self._replace_private(interaction, reply, controls)
            else:
                await self.send(interaction, reply, controls)
            await self.post_notes(reply)
        except StoreError as e:       # the database cannot be used: the words say what became of the request
            with ui.to_user(interaction):
                text = store_failed(e)    # the error itself goes to the log, on the interaction's line
            await ui.apologize(interaction, text)
        except Exception:
            game_id = None
            try:
                row = await self.service.store.latest_game(str(interaction.channel_id))
                game_id = row.id if row else None
            except Exception:
                pass
            log.exception("interaction failed (game %s, channel %s, user %s)", game_id, interaction.channel_id,
                          interaction.user.id)
            await ui.apologize(interaction)

    # ----- commands ----------------------------------------------------------------------------------------
    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game to play")
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str]):
        await self.open_with(interaction, game, self.service.open_table)

    @game.command(name="learn", description="Learn a game against the computer, with private tips at every move")
    @app_commands.describe(game="Which game to learn")
    @app_commands.choices(game=GAME_CHOICES)
    async def learn(self, interaction: discord.Interaction, game: app_commands.Choice[str]):
        await self.open_with(interaction, game, self.service.learn,
                             pointer=N_("{name} is learning {game} in {thread}."))

    async def open_with(self, interaction: discord.Interaction, game: app_commands.Choice[str], open_table,
                        **opened_kw) -> None:
        """/game new and /game learn: a table of ``game`` opened by the service's ``open_table(where, user, key,
        parent_channel=...)`` (``open_table`` or ``learn``), placed by ``opened`` (``opened_kw``: its pointer)."""
        user, _where = who(interaction)
        await self.guarded(interaction, lambda: self.opened(
            interaction, game.name, lambda at, parent: open_table(at, user, game.value, parent_channel=parent),
            **opened_kw))

    async def opened(self, interaction: discord.Interaction, title: str, open_at,
                     pointer: str = N_("{name} opened a table for {game} in {thread}: join there.")) -> Reply:
        """A table opened by ``open_at(where, parent_channel)``: here, or in a thread of its own when the
        server plays a thread per game (the answer here then points to it: ``pointer``, a template)."""
        user, where = who(interaction)
        settings = await self.service.settings(where.guild)
        channel = interaction.channel
        if not (settings.threads and isinstance(channel, discord.TextChannel)):
            return await open_at(where, None)
        # a thread per game: the channel hosts many games, each in its own thread
        try:
            thread = await channel.create_thread(name=f"{title} — {user.name}"[:100],
                                                 type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        except discord.HTTPException:
            log.warning("could not open a game thread in channel %s; playing in the channel", where.channel)
            reply = await open_at(where, None)
            if reply.ok:
                with i18n.public():
                    reply.text += "\n" + _("(No thread could be opened here — Teahouse needs the Create Public "
                                           "Threads permission — so the game is played in this channel.)")
            return reply
        reply = await open_at(Where(str(thread.id), where.guild, where.locale), where.channel)
        if not reply.ok:
            await thread.delete()
            return reply
        await reply.render()
        ui.in_discord_times(reply)
        with i18n.public():
            message = cards.public(reply, await self.components(reply), await self.game_key(reply))
            text = _(pointer, name=ui.safe(user.name), game=title, thread=thread.mention)
        await thread.send(**message.send(allowed_mentions=mentions(reply.mention)))
        await thread.add_user(interaction.user)
        # what only the opener sees (a learn table's first tip) stays with this answer, privately
        return Reply(text=text, game_id=reply.game_id, private=reply.private_for(user.id))

    @game.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.join)

    @game.command(name="leave", description="Leave the table before the game starts")
    async def leave(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.leave)

    @game.command(name="addbot", description="Host: add a computer player to the table")
    @app_commands.describe(level="How well it plays: easy (a beginner), medium or hard")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None):
        await self.call(interaction, self.service.add_bot, level.value if level else "easy")

    @game.command(name="hint", description="Privately: what the hard computer would play now, and why")
    async def hint(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.hint, private=True)

    @game.command(name="option", description="Host: set a table option before the start (any game: hints on/off)")
    @app_commands.describe(name="The option's name", value="Its new value")
    async def option(self, interaction: discord.Interaction, name: str, value: str):
        await self.call(interaction, self.service.set_option, name, value)

    @option.autocomplete("name")
    async def option_name_complete(self, interaction: discord.Interaction, current: str):
        row = await self.service.store.open_game(str(interaction.channel_id))
        if row is None or row.game not in GAMES:
            return []
        names = [*GAMES[row.game].options, *TABLE_OPTIONS]
        return [app_commands.Choice(name=i18n.word(n)[:100], value=n) for n in names
                if current.lower() in n or current.lower() in i18n.word(n).lower()][:25]

    @option.autocomplete("value")
    async def option_value_complete(self, interaction: discord.Interaction, current: str):
        row = await self.service.store.open_game(str(interaction.channel_id))
        if row is None or row.game not in GAMES:
            return []
        if str(interaction.namespace.name or "") == "zone":       # a table's playing hours' zone (#34)
            return [app_commands.Choice(name=z, value=z) for z in ui.zone_names(current)]
        choices = {**GAMES[row.game].option_choices, **TABLE_OPTION_CHOICES}.get(
            str(interaction.namespace.name or ""), [])
        # each value as the reader says it (on → sì), sent as the canonical value
        shown = [(ui.switch(v), "on" if v else "off") if isinstance(v, bool) else (i18n.word(str(v)), str(v))
                 for v in choices]
        return [app_commands.Choice(name=n[:100], value=v) for n, v in shown
                if current.lower() in v.lower() or current.lower() in n.lower()][:25]

    @game.command(name="start", description="Host: start the game")
    @app_commands.describe(order="Seat order: as joined, or shuffled")
    @app_commands.choices(order=[app_commands.Choice(name="as joined", value="joined"),
                                 app_commands.Choice(name="shuffled", value="shuffled")])
    async def start(self, interaction: discord.Interaction, order: app_commands.Choice[str] | None = None):
        await self.call(interaction, self.service.start, shuffle=order is not None and order.value == "shuffled")

    @game.command(name="status", description="The table now: image, whose turn, the last moves")
    async def status(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.status)

    @game.command(name="clock", description="The game's speed and each player's time bank (only you see it)")
    async def clock(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.game_clock, private=True)

    @game.command(name="hand", description="Your private view: your hand or secret choice (only you see it)")
    async def hand(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.hand, private=True)

    @game.command(name="move", description="Play one of your legal actions")
    @app_commands.describe(action="Start typing: your legal actions are suggested")
    async def move(self, interaction: discord.Interaction, action: str):
        await self.call(interaction, self.service.act, action)

    @move.autocomplete("action")
    async def move_complete(self, interaction: discord.Interaction, current: str):
        user, where = who(interaction)
        try:
            actions = await self.service.legal(where, user)
            row = await self.service.store.open_game(where.channel) if actions else None
        except Exception:
            log.exception("autocomplete failed (channel %s)", interaction.channel_id)
            return []
        names = row.names if row else {}
        i18n.set_game(row.game if row else None)
        words = current.lower().split()
        # the name in the user's language, the value the canonical action (#17)
        shown = [(name_seats(i18n.line(a), names), a) for a in actions]
        hits = [(n, a) for n, a in shown if all(w in n.lower() or w in a.lower() for w in words)]
        return [app_commands.Choice(name=label(n)[:100], value=a[:100]) for n, a in hits[:25]]

    @game.command(name="history", description="The game's log, page by page")
    @app_commands.describe(page="Page number (15 moves a page)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] = 1):
        await self.call(interaction, self.service.history, page, private=True)

    @game.command(name="rules", description="A short guide to a game and to playing it here")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]):
        who(interaction)          # the guide in the user's language
        text = self.service.rules(game.value) or _("No guide for that game yet.")
        first, *rest = pages(text, MAX_TEXT)            # cards of at most 4,000 characters, cut at paragraphs
        await interaction.response.send_message(**cards.words(first, game.value).send(ephemeral=True))
        observe.answered(interaction)
        for page in rest:
            await interaction.followup.send(**cards.words(page, game.value).send(ephemeral=True))

    @game.command(name="undo", description="Take back your last move (before anyone else acts; not after "
                                           "dice, draws or secrets)")
    async def undo(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.undo)

    @game.command(name="replay", description="An animated picture of the whole game so far")
    async def replay(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.replay, private=True)

    @game.command(name="review", description="Step through a game move by move, as you may see it (only you see "
                                             "this)")
    @app_commands.describe(game="A game of this server (this channel's unless you choose one)",
                           step="The move to show first (0: the start)")
    async def review(self, interaction: discord.Interaction, game: int | None = None,
                     step: app_commands.Range[int, 0, 1_000_000] | None = None):
        user, where = who(interaction)

        async def work():
            return review_answer(await self.service.review(where, user, game, step))

        await self.guarded(interaction, work, private=True)

    @review.autocomplete("game")
    async def review_game_complete(self, interaction: discord.Interaction, current: str):
        user, where = who(interaction)
        try:
            games = await self.service.recent_games(where, user, str(current or ""))
        except Exception:
            log.exception("autocomplete failed (channel %s)", interaction.channel_id)
            return []
        return [app_commands.Choice(name=text[:100], value=gid) for gid, text in games]

    @game.command(name="watch", description="Watch a game of this server: this channel's, or one by its number")
    @app_commands.describe(game="The game's number (/games lists them)",
                           send="What comes by direct message: each round's picture, or only the end")
    @app_commands.choices(send=[app_commands.Choice(name="each round's picture", value="rounds"),
                                app_commands.Choice(name="only the end", value="end")])
    async def watch(self, interaction: discord.Interaction, game: int | None = None,
                    send: app_commands.Choice[str] | None = None):
        await spectating.watch(self, interaction, game, send.value if send else None)

    @game.command(name="unwatch", description="Stop watching a game")
    @app_commands.describe(game="The game's number (the one you watch, when only one)")
    async def unwatch(self, interaction: discord.Interaction, game: int | None = None):
        await spectating.watch(self, interaction, game, None, stop=True)

    @game.command(name="analysis", description="Where an ended game was won: each player's turning points "
                                               "(only you see this)")
    @app_commands.describe(game="An ended game of this server (this channel's last unless you choose one)")
    async def analysis(self, interaction: discord.Interaction, game: int | None = None):
        await self.analysed(interaction, game)

    @analysis.autocomplete("game")
    async def analysis_game_complete(self, interaction: discord.Interaction, current: str):
        return await self.review_game_complete(interaction, current)

    async def analysed(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """Answer with the analysis, privately; one under way edits that answer in place with its progress,
        then with the result (in the background: the interaction is free meanwhile)."""
        user, where = who(interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True, ephemeral=True)   # a message of its own to edit
            interaction.extras["deferred"] = "private"
            observe.answered(interaction)
        ticket = []

        async def work():
            reply = await self.service.analysis(where, user, game_id)
            if reply.analysis is not None:
                ticket.append(reply.analysis)
            return reply

        await self.guarded(interaction, work, private=True)
        if ticket:
            task = asyncio.get_running_loop().create_task(self.progress(interaction, user, ticket[0]))
            self._following.add(task)
            task.add_done_callback(self._following.discard)

    async def progress(self, interaction: discord.Interaction, user: User, ticket) -> None:
        """Edit the requester's message with each step of an analysis under way, then its result."""
        try:
            async for update in self.service.analyses.follow(ticket, user):
                await update.render()
                parts = update.private_for(user.id)
                if not parts:
                    continue
                ui.in_discord_times(update)
                message = cards.private(parts[0], game=await self.game_key(update))
                await interaction.edit_original_response(**message.edit(allowed_mentions=NO_PINGS))
        except discord.HTTPException:         # the interaction's 15 minutes are over: asking again answers at once
            log.info("could not edit an analysis message (game %s)", ticket.game_id)
        except Exception:
            log.exception("following an analysis failed (game %s)", ticket.game_id)

    @game.command(name="export", description="The game's log as a JSON file (all moves once it has ended)")
    async def export(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.export, private=True)

    @game.command(name="skip", description="Past the turn deadline: a computer plays an absent player's turn")
    @app_commands.describe(player="The player the game is waiting for")
    async def skip(self, interaction: discord.Interaction, player: discord.User):
        await self.call(interaction, self.service.skip, str(player.id))

    @game.command(name="remove", description="Past the turn deadline: a computer takes an absent player's seat")
    @app_commands.describe(player="The player the game is waiting for")
    async def remove(self, interaction: discord.Interaction, player: discord.User):
        await self.call(interaction, self.service.remove, str(player.id))

    @game.command(name="rematch", description="Play the game that just ended here again, with the same players")
    async def rematch(self, interaction: discord.Interaction):
        await self.call(interaction, self.service.rematch)

    @game.command(name="abandon", description="End the game in this channel without a result")
    async def abandon(self, interaction: discord.Interaction):
        user, where = who(interaction)

        async def work():
            reply = await self.service.abandon(where, user, confirm=False)
            if not reply.ok or reply.game_id is None:
                return reply
            return Answer(reply, ui.rows([ui.ConfirmAbandon(reply.game_id)]))

        await self.guarded(interaction, work, private=True)

    # ----- buttons and selects -----------------------------------------------------------------------------
    async def on_action(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)

        async def work():
            if not arg.isdigit():
                return Reply.fail(user.id, _("That choice is not offered."))
            return await self._check_game(user, where, game_id) or \
                await self.service.act(where, user, version=version, index=int(arg))

        await self.guarded(interaction, work)

    async def _picker(self, user, where, game_id, version, group):
        """The caller's private picker: their legal actions (or one group of them) and their own image."""
        stale = await self._check_game(user, where, game_id)
        if stale:
            return stale
        reply = await self.service.prompt(where, user, version=version)
        if not reply.ok:
            return reply
        actions = reply.choices
        reply.private[0].text = _("Your choice (only you see this):")
        return Answer(reply, ui.picker_rows(reply.turn, actions, group=group))

    async def on_group(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)
        group = int(arg) if arg.isdigit() else None
        await self.guarded(interaction, lambda: self._picker(user, where, game_id, version, group))

    async def on_private(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)
        await self.guarded(interaction, lambda: self._picker(user, where, game_id, None, None))

    async def on_my_view(self, interaction, kind, game_id, version, arg):
        await self.call(interaction, self.service.hand, private=True)

    async def on_lobby(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)
        svc = self.service
        actions = {
            "join": lambda: svc.join(where, user), "leave": lambda: svc.leave(where, user),
            "bot": lambda: svc.add_bot(where, user), "start": lambda: svc.start(where, user),
            "shuffle": lambda: svc.start(where, user, shuffle=True),
        }
        if arg not in actions:
            await interaction.response.send_message(**cards.words(_("Unknown lobby button.")).send(ephemeral=True))
            return

        async def work():
            stale = await self._check_game(user, where, game_id)
            return stale or await actions[arg]()

        await self.guarded(interaction, work)

    async def on_review(self, interaction, kind, game_id, step, arg):
        """A review's button or select: its step shown in place of the clicked one; Review on an ended game's
        public message opens the clicker's own review. What they may see is decided now, by who they are."""
        user, where = who(interaction)
        nav, _sep, viewer = arg.partition(".")
        message = interaction.message
        in_place = message is not None and message.flags.ephemeral and nav != "r"

        async def work():
            if game_id < 0 or step < 0 or nav not in REVIEW_NAVS:
                return Reply.fail(user.id, _("This review button cannot be read any more; `/game review` opens "
                                             "a new review."))
            here = await spectating.from_direct_message(self, interaction, where, game_id)     # a watcher's (#49)
            reply = await self.service.review(here, user, game_id, None if nav == "r" else step, viewer,
                                              latest=nav == "l")
            return review_answer(reply, edit=in_place)

        await self.guarded(interaction, work, private=True)

    async def on_analysis(self, interaction, kind, game_id, version, arg):
        await self.analysed(interaction, game_id)

    async def on_rematch(self, interaction, kind, game_id, version, arg):
        await self.call(interaction, self.service.rematch, game_id)

    async def on_option(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)
        name, _sep, value = arg.partition("=")

        async def work():
            stale = await self._check_game(user, where, game_id)
            return stale or await self.service.set_option(where, user, name, value)

        await self.guarded(interaction, work)

    async def on_confirm_abandon(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)

        async def work():
            stale = await self._check_game(user, where, game_id)
            return stale or await self.service.abandon(where, user, confirm=True)

        await self.guarded(interaction, work)

    async def on_deadline(self, interaction, kind, game_id, version, arg):
        user, where = who(interaction)
        what, _sep, seat = arg.partition("-")

        async def work():
            stale = await self._check_game(user, where, game_id)
            if stale:
                return stale
            if what == "skip":
                return await self.service.skip(where, user, seat, version)
            if what == "remove":
                return await self.service.remove(where, user, seat, version)
            return Reply.fail(user.id, _("Unknown choice."))

        await self.guarded(interaction, work)

    async def _check_game(self, user: User, where: Where, game_id: int) -> Reply | None:
        """A button of another (ended) game in this channel is answered, not obeyed."""
        row = await self.service.store.open_game(where.channel)
        if row is None or row.id != game_id:
            return Reply.fail(user.id, _("This message belongs to a game that has ended. `/game status` shows "
                                         "the table now."))
        return None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot, bot.service))
