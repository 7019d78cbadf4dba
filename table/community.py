"""What players share beyond one table: replays and exports of a channel's game, the games going on, the
turns waiting for someone, records and leaderboards, a server's settings and a player's notifications."""

from __future__ import annotations

import asyncio
import math

import i18n
from engine import GAMES
from i18n import N_, _, ngettext, pgettext
from store import ratings

from .clock import SPEEDS
from .context import Context, speaks, speaks_to
from .records import Record, Stats, effective_actions, export, export_bytes, gif_within, rebuild, sample, tally
from .replies import Picture, Private, Reply, User, Where
from .texts import describe_settings, setting_name

MAX_ATTACHMENT = 10 * 2**20   # Discord's default attachment limit (bytes)
MAX_REMINDER_HOURS = 168      # a week
MAX_DEADLINE_HOURS = 720      # a month


class Community:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    # ----- replays, exports ------------------------------------------------------------------------------
    @speaks
    async def replay(self, where: Where, user: User) -> Reply:
        """An animated GIF of the whole game rebuilt from its seed and log: the channel's images, in order."""
        return await self._of_started(where, user, N_("There is no started game in this channel to replay."),
                                      self._replay)

    @speaks
    async def export(self, where: Where, user: User) -> Reply:
        """The game's record as a JSON file: the public log while it runs, everything once it has ended."""
        return await self._of_started(where, user, N_("There is no started game in this channel to export."),
                                      self._export)

    async def _of_started(self, where: Where, user: User, refusal: str, answer) -> Reply:
        """``answer(user, row, game, log)`` of the channel's latest game, its whole log read at one moment; if
        it never started, ``refusal`` (a template)."""
        store = self.ctx.store
        async with store.snapshot():
            row = await store.latest_game(where.channel)
            entries = await store.log(row.id) if row is not None else []
        if row is None or row.state is None:
            return Reply.fail(user.id, _(refusal))
        return await answer(user, row, GAMES[row.game], entries)

    @staticmethod
    async def _replay(user: User, row, game, entries) -> Reply:
        from render import RENDERERS  # the renderers, loaded where a replay is drawn (not in every bot)

        names = dict(row.names)

        if row.game not in RENDERERS:
            return Reply.fail(user.id, _("This game has no pictures to replay."))

        def make() -> bytes | None:
            states = rebuild(game, row, entries)
            draw = RENDERERS[row.game]
            frames = {i: draw(game.view(states[i], None), names, None) for i in sample(len(states))}
            return gif_within(frames, MAX_ATTACHMENT)

        data = await asyncio.to_thread(make)      # rebuilding and drawing a whole game: off the event loop
        if data is None:
            return Reply.fail(user.id, _("This game is too long for a replay within Discord's {mb} MB attachment "
                                         "limit; `/game export` gives its whole record.", mb=MAX_ATTACHMENT // 2**20),
                              game_id=row.id)
        moves = len(effective_actions(entries))
        with i18n.speaking(i18n.user_locale()):     # the caller's: the text and the picture's description
            text = ngettext("{title}: the whole game, {n} move.", "{title}: the whole game, {n} moves.", moves,
                            title=game.title)
            alt = ngettext("An animated replay of this {title} game, {n} move.",
                           "An animated replay of this {title} game, {n} moves.", moves, title=game.title)
        return Reply(game_id=row.id, private=[Private(
            user.id, text, Picture(f"{row.game}-{row.id}-replay.gif", data=data, alt=alt))])

    @staticmethod
    async def _export(user: User, row, game, entries) -> Reply:
        ended = row.status in ("finished", "abandoned")
        data = export(row, game, entries, ended)
        text = _("{title}: the game's record as JSON.", title=game.title) if ended else \
            _("{title}: the game's record as JSON. While the game runs the export holds the public log only; the "
              "full record (actions and seed) comes once it has ended.", title=game.title)
        return Reply(game_id=row.id, private=[Private(
            user.id, text,
            Picture(f"{row.game}-{row.id}-log.json", data=export_bytes(data)))])

    # ----- lists and stats -------------------------------------------------------------------------------
    async def games_here(self, guild: str | None) -> list[dict]:
        """The unfinished games of a server: where, what, and whom each waits for (one indexed query)."""
        return [self._titled(g) for g in await self.ctx.store.open_games_of(guild)]

    @staticmethod
    def _titled(summary: dict) -> dict:
        game = GAMES.get(summary["game"])
        return {**summary, "title": game.title if game else summary["game"]}

    async def my_turns(self, user: User) -> list[dict]:
        """Every game, in any server, that is waiting for ``user`` now."""
        return [self._titled(g) for g in await self.ctx.store.turns_of(user.id)]

    async def stats(self, user_id: str, guild: str | None = None) -> Stats:
        return tally(await self.ctx.store.record_of(user_id, guild))

    async def leaderboard(self, game_key: str, guild: str | None = None, limit: int = 10):
        """(user id, latest name, record) of the best players of a game: most wins, best rate, most played."""
        return [(uid, name, Record(played, wins, played - wins, abandoned))
                for uid, name, wins, played, abandoned in await self.ctx.store.board(game_key, guild, limit)]

    # ----- ratings (#27) -----------------------------------------------------------------------------------
    async def rating_board(self, game_key: str, guild: str | None = None, limit: int = 10) -> list[str]:
        """The lines of a game's leaderboard in a server by rating, best first, with the games each played;
        the computer levels among them as reference rows ([] when nobody has played a rated game there)."""
        lines, rank = [], 0
        for player, name, rating, played in await ratings.board(self.ctx.store, guild, game_key, limit):
            number = ratings.shown(rating.mu, rating.sigma)
            if player.startswith(ratings.CPU):
                lines.append(ngettext("· {level} computer — {rating} (reference, {n} game)",
                                      "· {level} computer — {rating} (reference, {n} games)", played,
                                      rating=number, level=pgettext("choice", name)))
            else:
                rank += 1
                lines.append(ngettext("{rank}. {name} — {rating} ({n} game)", "{rank}. {name} — {rating} ({n} games)",
                                      played, rank=rank, name=self.ctx.shown(name), rating=number))
        return lines

    async def rating_stats(self, user_id: str, guild: str | None = None) -> list[str]:
        """A person's ratings in a server, per game, then their current streak and last ten results there."""
        store = self.ctx.store
        rated, latest = await ratings.ratings_of(store, user_id, guild), await ratings.latest(store, user_id, guild)
        lines = [ngettext("{game}: rating {rating} ({n} rated game)", "{game}: rating {rating} ({n} rated games)",
                          n, game=GAMES[k].title if k in GAMES else k, rating=ratings.shown(r.mu, r.sigma))
                 for k, (r, n) in rated.items()]
        run = ratings.streak([outcome for _game, outcome, _at in latest])
        if run is not None:
            outcome, n = run
            more = "+" if n == ratings.STREAK_DEPTH else ""
            lines.append(_("Streak: {n}{more} won in a row.", n=n, more=more) if outcome == "win" else
                         _("Streak: {n}{more} lost in a row.", n=n, more=more))
            marks = "".join("🟩" if outcome == "win" else "🟥" for _game, outcome, _at in latest[:10])
            lines.append(_("Latest results (newest first): {marks}", marks=marks))
        return lines

    @speaks
    async def profile(self, where: Where, user: User, target_id: str | None = None,
                      target_name: str | None = None) -> Reply:
        """A player card for the channel (``target``, else the caller): per game in this server the rating,
        games and wins, and a line of the rating game after game; with its alt text."""
        from render.profile import CardRow, profile_png

        who, name = target_id or user.id, target_name or user.name
        store = self.ctx.store
        rated = await ratings.ratings_of(store, who, where.guild)
        history = await ratings.history(store, who, where.guild)
        rows = []
        for key, (rating, n) in rated.items():
            title = GAMES[key].title if key in GAMES else key
            line, won = history.get(key, ([], 0))
            line = line[-31:]
            rows.append(CardRow(title, ratings.shown(rating.mu, rating.sigma),
                                ngettext("{n} rated game · {wins} won", "{n} rated games · {wins} won", n, wins=won),
                                line, ngettext("the last game", "the last {n} games", len(line) - 1)))
        alt = (_("Player card of {name}: {ratings}.", name=name,
                 ratings="; ".join(f"{r.title} {r.rating}, {r.detail}" for r in rows)) if rows
               else _("Player card of {name}: no rated games here yet.", name=name))
        empty = _("No rated games here yet.")
        picture = Picture("profile.png", make=lambda: profile_png(name, rows, empty), alt=alt)
        return Reply(text=_("Player card of {name}.", name=self.ctx.shown(name)), image=picture)

    # ----- settings and notifications --------------------------------------------------------------------
    @speaks_to(1)
    async def change_settings(self, guild: str | None, user: User, can_manage: bool, /, **changes) -> Reply:
        """Change a server's settings; ``can_manage`` is the front end's word that the user may manage the
        server (Manage Server in Discord)."""
        if not can_manage:
            return Reply.fail(user.id, _("Only members who can manage this server can change its settings."))
        current = await self.ctx.store.settings(guild)
        try:
            for name, value in changes.items():
                if value is not None:
                    setattr(current, name, _setting_value(name, value))
            if 0 < current.deadline_hours < current.reminder_hours:
                raise ValueError(_("The turn deadline ({deadline} h) cannot come before the first reminder "
                                   "({reminder} h): lengthen the deadline or remind sooner.",
                                   deadline=f"{current.deadline_hours:g}", reminder=f"{current.reminder_hours:g}"))
        except ValueError as e:
            return Reply.fail(user.id, e.args[0])        # the sentence itself (a Msg), not a copy
        await self.ctx.save_settings(guild, current)
        return Reply(private=[Private(user.id, _("Settings saved.\n{settings}", settings=describe_settings(current)))])

    @speaks_to(0)
    async def set_notify(self, user: User, on: bool) -> Reply:
        await self.ctx.store.set_dm(user.id, on)
        text = (_("You will get a direct message when a game waits for you.") if on
                else _("No more direct messages; reminders still mention you in the game's channel."))
        return Reply(private=[Private(user.id, text)])


def _setting_value(name: str, value):
    """A setting's new value as stored, or ValueError with the sentence that says what is wrong."""
    if name in ("reminder_hours", "deadline_hours"):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise ValueError(_("{setting} is a number of hours.", setting=setting_name(name))) from None
        top = MAX_REMINDER_HOURS if name == "reminder_hours" else MAX_DEADLINE_HOURS
        if not math.isfinite(value) or not (value == 0 or 1 <= value <= top):
            raise ValueError(_("{setting} must be 0 (off) or between 1 and {top} hours.",
                               setting=setting_name(name), top=top))
        return value
    if name == "deadline_action":
        if value not in ("vote", "skip", "remove"):
            raise ValueError(_("past the deadline: vote, skip or remove."))
        return value
    if name in ("threads", "mention"):
        return bool(value)
    if name == "speed":              # a new table's speed (#34); a table's own option still overrides it
        speed = str(value).strip().lower()
        if speed not in SPEEDS:
            raise ValueError(_("There is no speed '{speed}'. Speeds: {speeds}.", speed=value,
                               speeds=", ".join(SPEEDS)))
        return speed
    if name == "league_role":        # a role's id, from the front end's role picker (#35); off: nobody but managers
        role = str(value).strip()
        if role.lower() in ("", "off", "none"):
            return ""
        if not role.isdigit():
            raise ValueError(_("league_role is a role of this server."))
        return role
    raise ValueError(_("There is no setting called {name}.", name=name))
