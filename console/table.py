"""The console table: the bot's commands in a terminal, without Discord.

Each line is ``USER@CHANNEL /command [sub] name:value ...``, for example::

    alice@lobby /game new game:wassamasaw
    bob@lobby /game join
    alice@lobby /game start
    alice@lobby /game move action:take fire 3

You speak as any user in any channel; a line without ``USER@CHANNEL`` speaks as the previous one. A value
runs until the next ``name:`` word, so it may hold spaces. Public replies are printed for the channel,
private ones are marked as seen only by their user, images are written to a folder and their paths printed.
Lines starting with ``#`` are comments. The same script works piped into standard input.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from pathlib import Path

import i18n
from engine import GAMES
from i18n import N_, _, pgettext
from store.store import StoreError
from table import cards, logs
from table import commands as game_commands
from table.clock import utc
from table.errors import store_failed
from table.records import TABLE_OPTION_CHOICES, TABLE_OPTIONS, table_options
from table.replies import Private, Reply, User, Where, with_times
from table.service import TableService
from table.texts import describe_settings, duration, parse_option

from . import lines, spectators

log = logging.getLogger("teahouse.console")

SPEAKER = re.compile(r"^(?P<user>[^\s@/]+)@(?P<channel>[^\s/]+)\s+(?P<rest>/.*)$")
OPTION = re.compile(r"^([a-z_]+):(.*)$")
CHANNEL_LINK = re.compile(r"<#([^>\s]+)>")        # a link to a channel (a league's game) as the console names it
RULE = "  " + "─" * 24                             # a card's separator, before its controls
# the /game commands that take no options: the service call each one makes
ASKED_PLAINLY = {"join": "join", "leave": "leave", "hint": "hint", "actions": "prompt", "status": "status",
                 "hand": "hand", "undo": "undo", "replay": "replay", "export": "export", "clock": "game_clock"}

# the commands' names in the console's language: the Italian help lists /partita nuova gioco:… (#17)
HELP = N_("""Commands (as in Discord):
  /game new game:<key> [option:value ...]   open a table here (games: {games})
  /game join | /game leave                  take or leave a seat
  /game addbot [level:easy|medium|hard]     the host adds a computer player (easy unless told)
  /game option name:<option> value:<value>  the host sets a table option (every table: hints:on|off)
  /game start [order:shuffled]              the host starts the game
  /game learn game:<key>                    learn a game against the computer, with private tips
  /game move action:<text>                  play one of your legal actions
  /game actions                             list your legal actions now
  /game hint                                privately: what the hard computer would play now, and why
                                            (unless the table has hints off)
  /game status | /game hand                 the table (public) | your private view
  /game clock                               the game's speed and every player's time bank
  /game history [page:N] | /game rules game:<key> | /game abandon [confirm:yes] | /game rematch
  /game undo | /game replay | /game export   take back your last move | animated GIF | the log as JSON
  /game review [game:<number>] [step:<k>] [seen_by:<user>|table]   a game's picture after move k, as you may see it
  /game analysis [game:<number>]             an ended game's turning points and win-chance graph
  /game skip player:<user> | /game remove player:<user>   past the turn deadline
  /games | /mygames | /stats [user:<user>] | /leaderboard game:<key> | /profile [user:<user>]
  /settings [reminder_hours:N] [deadline_hours:N] [past_deadline:vote|skip|remove] [mention:on|off]
  /settings ... [speed:untimed|fast|daily|relaxed]   the speed of new tables
  /notify [direct_messages:on|off] [zone:<Area/City>] [quiet:<23:00-07:00|off>] [away_days:<0-21>]
  /notify followers:on|off                   whether friends may follow you
  /game watch [game:<number>] [send:rounds|end] | /game unwatch [game:<number>]   watch a game of this server
  /follow user:<user> | /unfollow user:<user> | /following   a message when a friend starts or ends a game
  /settings tv_channel:<channel|off>         the TV channel: a live card per running game (printed here)
  /away days:<N> | /away off                 away: your clocks pause (at most 21 days in any 60)
  /wait hours:<N>                            let time pass (reminders and deadlines fire)
  /league new game:<key> format:swiss|round-robin|pods [rounds:N] [speed:<speed>]   open a league here
  /league join | leave | addbot [level:<level>] [count:N] | start | standings | pairings [round:N]
  /league pause | resume | cancel | drop player:<user> | fix round:<n> table:<n> places:<a>,<b>=<c>,…
  Each game's own commands, as in Discord (type /<game> alone to list them):
    /wassamasaw take die:<die> [cell:<cell>]     /wagara play card:<n> | /wagara move action:<text>
    /mywuxing reveal | play card:<card> [target:<who>] | react answer:<text>
    /seikatsu place tile:<tile> space:<space> | fountain corner:<3 spaces> card:<card> [put_back:<text>]
    /wurrm place space:<s> | lucky number:<n> | wish number:<n> | reroll [dice:<1 3 5>] | stop
           | move path:<e ne ...> | bump direction:<d> | attack player:<user> | answer choice:<text>
  /help | /quit""")


def linked(text: str) -> str:
    """Links to channels (a league's games) as the console names channels: ``#name``."""
    return CHANNEL_LINK.sub(r"#\1", text)


def help_text() -> str:
    return _(HELP, games=", ".join(sorted(GAMES)))


def console_words() -> dict[str, str]:
    """The console's own words in its language (those Discord has not: help, quit, wait, actions, and the
    options hours and confirm) → English; the catalog's command and option names let ``i18n.english_command``
    read them too."""
    return {pgettext("console", "/help"): "/help", pgettext("console", "/quit"): "/quit",
            "/" + pgettext("command", "wait"): "/wait", pgettext("command", "actions"): "actions",
            pgettext("option", "hours"): "hours", pgettext("option", "confirm"): "confirm",
            pgettext("option", "seen_by"): "seen_by"}


def canonical(value: str, values: tuple[str, ...]) -> str:
    """An option's value as the bot knows it (``easy``), typed in English or in the console's language
    (``facile``); anything else as typed (the service explains what it takes)."""
    low = value.strip().lower()
    words = {"easy": pgettext("choice", "easy"), "medium": pgettext("choice", "medium"),
             "hard": pgettext("choice", "hard"), "joined": pgettext("value", "joined"),
             "shuffled": pgettext("value", "shuffled"), "yes": pgettext("value", "yes"),
             "on": pgettext("value", "on"), "off": pgettext("value", "off"), "vote": pgettext("value", "vote"),
             "skip": pgettext("value", "skip"), "remove": pgettext("value", "remove"),
             "last": pgettext("value", "last"), "table": pgettext("value", "table")}
    for v in values:
        if low == v or low == str(words.get(v, v)).lower():
            return v
    return value


def parse(line: str, last: tuple[str, str] | None):
    """(user, channel, words, options) of a console line; raises ValueError with a readable message."""
    line = line.strip()
    m = SPEAKER.match(line)
    if m:
        user, channel, rest = m["user"], m["channel"], m["rest"]
    elif line.startswith("/") and last is not None:
        (user, channel), rest = last, line
    else:
        raise ValueError(_("Start a line with USER@CHANNEL and a command, e.g. `alice@lobby /game new game:wagara`."))
    words: list[str] = []
    options: dict[str, str] = {}
    current = None
    for token in rest.split():
        om = OPTION.match(token)
        if om:
            current = om[1]
            options[current] = om[2]
        elif current is not None:
            options[current] = (options[current] + " " + token).strip()
        else:
            words.append(token)
    return user, channel, words, options


class ConsoleClock:
    """The real time plus whatever `/wait` added, so reminders and deadlines can be tried at once."""

    def __init__(self):
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


TOP_LEVEL = ("/games", "/mygames", "/stats", "/leaderboard", "/profile", "/settings", "/notify", "/away", "/wait",
             "/league", "/follow", "/unfollow", "/following")
WITH_SUBCOMMANDS = ("/league",)         # named with their subcommand, as Discord names /league standings


class Console:
    def __init__(self, service: TableService, out_dir: str | Path = "out", write=print):
        self.service = service
        self.clock = service.clock if isinstance(service.clock, ConsoleClock) else ConsoleClock()
        service.clock = self.clock
        self.out = Path(out_dir)
        self.write = lambda text: write(console_times(text, self.clock()))    # instants as UTC (#34)
        self.last: tuple[str, str] | None = None
        # learn mode's tips name a move as the line that plays it, as Discord's name its button
        service.learning.label = lines.learn_words

    async def handle(self, line: str) -> bool:
        """Carry out one line. False when the user asked to quit."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        own = console_words()
        if own.get(line, line) in ("/quit", "/exit", "quit", "exit"):
            return False
        if own.get(line, line) in ("/help", "help"):
            self.write(help_text())
            return True
        try:
            user_id, channel, words, options = parse(line, self.last)
        except ValueError as e:
            self.write(f"! {e}")
            return True
        self.last = (user_id, channel)
        words = [own.get(w, w) for w in words[:2]] + words[2:]
        options = {own.get(k, k): v for k, v in options.items()}
        if words[:1] == ["/help"]:
            self.write(help_text())
            return True
        words, options = i18n.english_command(words, options)     # /partita nuova gioco:… (#17)
        # the line's log context, as Discord's interactions have theirs (cogs/observe.py): its command named
        # as there (``/game status``), so table/errors.py knows a read from a write
        single = words[:1] and words[0] in TOP_LEVEL and words[0] not in WITH_SUBCOMMANDS
        command = " ".join(words[:1] if single else words[:2]) or None
        with logs.context(guild="console", channel=channel, command=command):
            try:
                locale = i18n.user_locale()
                reply = await self.dispatch(User(user_id, user_id, locale),
                                            Where(channel, guild="console", locale=locale), words, options)
                await self.present(channel, reply)
                await self.settle()
            except StoreError as e:          # the database cannot be used: the session goes on
                self.write("! " + store_failed(e))
            except Exception:
                log.exception("console command failed: %s", words[:2])
                self.write("! " + _("Sorry, that command failed; nothing was changed. "
                                    "The console goes on: type the next command."))
        return True

    async def dispatch(self, user: User, where: Where, words: list[str], options: dict[str, str]) -> Reply:
        svc = self.service
        top = words[0] if words else ""
        if top in spectators.COMMANDS:
            return await spectators.command(svc, where, user, top, options)
        if top == "/away":
            return await self.cmd_away(user, where, options, words[1:])
        if top in TOP_LEVEL:
            if top in WITH_SUBCOMMANDS:
                options = {**options, "_sub": words[1] if len(words) > 1 else ""}
            return await getattr(self, "cmd_" + top[1:])(user, where, options)
        if top[1:] in game_commands.COMMANDS:          # a game's own command, as in Discord
            game = top[1:]
            if len(words) < 2:
                return Reply.fail(user.id, _("/{game} commands: {commands}", game=game, commands=", ".join(
                    game_commands.usage(game, c) for c in game_commands.COMMANDS[game])))
            return await game_commands.run(svc, where, user, game, words[1], options)
        if top != "/game" or len(words) < 2:
            return Reply.fail(user.id, _("Unknown command. Try `/help`."))
        sub = words[1]
        if sub in spectators.GAME_COMMANDS:
            return await spectators.game_command(svc, where, user, sub, options)
        if sub in ASKED_PLAINLY:
            return await getattr(svc, ASKED_PLAINLY[sub])(where, user)
        if sub == "new":
            key = options.pop("game", None)
            if not key:
                return Reply.fail(user.id, _("Say which game: `/game new game:<key>` ({games}).",
                                             games=", ".join(sorted(GAMES))))
            game = GAMES.get(key)
            opts = {}
            if game is not None:
                for name, value in options.items():
                    default = {**game.options, **TABLE_OPTIONS}.get(name)
                    if default is None:
                        return Reply.fail(user.id, _("{title} has no option '{name}'.", title=game.title, name=name))
                    try:
                        opts[name] = parse_option(default, canonical(value, ("on", "off")))
                    except ValueError as e:
                        return Reply.fail(user.id, e.args[0])
            return await svc.open_table(where, user, key, opts)
        if sub == "learn":
            if not options.get("game"):
                return Reply.fail(user.id, _("Say which game: `/game learn game:<key>` ({games}).",
                                             games=", ".join(sorted(GAMES))))
            return await svc.learn(where, user, options["game"])
        if sub == "addbot":
            return await svc.add_bot(where, user, canonical(options.get("level", "easy"), ("easy", "medium", "hard")))
        if sub == "option":
            if "name" not in options or "value" not in options:
                return Reply.fail(user.id, _("Use `/game option name:<option> value:<value>`."))
            return await svc.set_option(where, user, options["name"], canonical(options["value"], ("on", "off")))
        if sub == "start":
            order = canonical(options.get("order", "joined"), ("joined", "shuffled"))
            if order not in ("joined", "shuffled"):
                return Reply.fail(user.id, _("order can be joined or shuffled."))
            return await svc.start(where, user, shuffle=order == "shuffled")
        if sub == "move":
            if not options.get("action"):
                return Reply.fail(user.id, _("Use `/game move action:<text>`; `/game actions` lists yours."))
            return await svc.act(where, user, options["action"])
        if sub == "history":
            try:
                page = int(options.get("page", "1"))
            except ValueError:
                return Reply.fail(user.id, _("page is a number."))
            return await svc.history(where, user, page)
        if sub == "review":
            game, step = options.get("game", "").lstrip("#"), canonical(options.get("step", ""), ("last",))
            latest = step == "last"          # ⏭ on a running game: its newest move when asked
            if not (game.isdigit() or not game) or not (step.isdigit() or not step or latest):
                return Reply.fail(user.id, _("Use `/game review [game:<number>] [step:<k>]`: both are numbers."))
            return await svc.review(where, user, int(game) if game else None, int(step) if step.isdigit() else None,
                                    seen_by=options.get("seen_by") or None, latest=latest)
        if sub == "analysis":
            return await self.analysis(user, where, options)
        if sub == "rules":
            key = options.get("game")
            text = svc.rules(key) if key else None
            if text is None:
                return Reply.fail(user.id, _("Use `/game rules game:<key>` ({games}).", games=", ".join(sorted(GAMES))))
            return Reply(private=[Private(user.id, text)])
        if sub == "rematch":
            return await svc.rematch(where, user)
        if sub == "abandon":
            confirm = canonical(options.get("confirm", ""), ("yes",)).lower()
            return await svc.abandon(where, user, confirm=confirm in ("yes", "true"))
        if sub in ("skip", "remove"):
            if not options.get("player"):
                return Reply.fail(user.id, _("Use `/game {command} player:<user>`.", command=sub))
            return await getattr(svc, sub)(where, user, options["player"])
        return Reply.fail(user.id, _("Unknown command `/game {command}`. Try `/help`.", command=sub))

    async def analysis(self, user: User, where: Where, options: dict[str, str]) -> Reply:
        """`/game analysis [game:<number>]`: one under way prints its progress as it goes, then the result (the
        graph written to out/)."""
        game = options.get("game", "").lstrip("#")
        if game and not game.isdigit():
            return Reply.fail(user.id, _("Use `/game analysis [game:<number>]`: a game's number, such as 7."))
        reply = await self.service.analysis(where, user, int(game) if game else None)
        if reply.analysis is None:
            return reply
        self.show(where.channel, reply)
        last = None
        async for update in self.service.analyses.follow(reply.analysis, user):
            if last is not None:                 # a step of the progress (the last one is the result)
                self.show(where.channel, last)
            last = update
        return last or reply

    # ----- the commands outside /game ---------------------------------------------------------------------
    async def cmd_games(self, user, where, options) -> Reply:
        rows = await self.service.games_here(where.guild)
        lines = [_("{title} in #{channel}: in the lobby", title=g["title"], channel=g["channel"])
                 if g["status"] == "lobby" else
                 _("{title} in #{channel}: waiting for {names}", title=g["title"], channel=g["channel"],
                   names=", ".join(g["names"].get(s, s) for s in g["waiting"])) for g in rows]
        return Reply(private=[Private(user.id, "\n".join(lines) or _("No games going on."))])

    async def cmd_mygames(self, user, where, options) -> Reply:
        rows = await self.service.my_turns(user)
        text = _("Your move in: {games}", games=", ".join(f"{g['title']} (#{g['channel']})" for g in rows)) if rows \
            else _("No game is waiting for you.")
        return Reply(private=[Private(user.id, text)])

    async def cmd_stats(self, user, where, options) -> Reply:
        who = options.get("user", user.id)
        st = await self.service.stats(who)
        rows = [(_("{title}: {won} won, {lost} lost of {played}, {abandoned} abandoned", abandoned=r.abandoned,
                   title=GAMES[k].title if k in GAMES else k, won=r.wins, lost=r.losses, played=r.played)
                 if r.abandoned else
                 _("{title}: {won} won, {lost} lost of {played}", title=GAMES[k].title if k in GAMES else k,
                   won=r.wins, lost=r.losses, played=r.played)) for k, r in sorted(st.by_game.items())]
        rated = await self.service.rating_stats(who, where.guild)
        text = (pgettext("stats", "{who}: {record}", who=who, record="; ".join(rows)) if rows
                else _("{who}: no games yet.", who=who))
        return Reply(private=[Private(user.id, "\n".join([text] + rated))])

    async def cmd_leaderboard(self, user, where, options) -> Reply:
        key = options.get("game", "")
        if key not in GAMES:
            return Reply.fail(user.id, _("Use `/leaderboard game:<key>` ({games}).", games=", ".join(sorted(GAMES))))
        rated = await self.service.rating_board(key, where.guild)
        if rated:
            return Reply(private=[Private(user.id, "\n".join(rated))])
        board = await self.service.leaderboard(key, where.guild)
        lines = [_("{n}. {name} — {won} won of {played}", n=i + 1, name=name, won=r.wins, played=r.played)
                 for i, (_uid, name, r) in enumerate(board[:10])]
        return Reply(private=[Private(user.id, "\n".join(lines) or _("Nobody has finished a game yet."))])

    async def cmd_profile(self, user, where, options) -> Reply:
        who = options.get("user")
        return await self.service.profile(where, user, who, who)

    async def cmd_settings(self, user, where, options) -> Reply:
        if not options:
            return Reply(private=[Private(user.id, describe_settings(await self.service.settings(where.guild)))])
        if "tv_channel" in options:
            return await spectators.tv_setting(self.service, where, user, options["tv_channel"])
        changes = {}
        for name, value in options.items():
            key = "deadline_action" if name == "past_deadline" else name
            if key in ("threads", "mention"):
                changes[key] = canonical(value, ("on", "yes")).lower() in ("on", "yes", "true", "1")
            elif key == "deadline_action":
                changes[key] = canonical(value, ("vote", "skip", "remove"))
            else:
                changes[key] = value
        # at the console everyone manages the (imaginary) server
        return await self.service.change_settings(where.guild, user, True, **changes)

    async def cmd_notify(self, user, where, options) -> Reply:
        return await notify(self.service, user, options)

    async def cmd_away(self, user, where, options, words=()) -> Reply:
        if "days" in options:
            return await self.service.away(user, options["days"])
        if any(canonical(w, ("off",)) == "off" for w in words):
            return await self.service.away(user, None)
        return Reply.fail(user.id, _("Use `/away days:<N>` or `/away off`."))

    async def settle(self) -> None:
        """After each line: a league whose round just ended pairs the next (#35), and what it says is sent."""
        await self.service.leagues.settle(force=False)
        await self.send_outbox()
        await spectators.after_line(self)

    async def send_outbox(self) -> None:
        async def to_channel(notice):
            await self.present(notice.channel, notice.reply)

        async def to_user(notice, dm, part):
            self.write(pgettext("console", "[direct message to {user}] {text}", user=dm.user, text=dm.text))
        await self.service.deliver(to_channel, to_user)

    async def cmd_league(self, user, where, options) -> Reply:
        """`/league new|join|leave|addbot|start|standings|pairings|pause|resume|cancel|drop|fix` (#35): at the
        console anyone may open a league (as one who manages the imaginary server), and its organiser runs it."""
        sub = options.pop("_sub", "")
        lg = self.service.leagues
        if sub == "new":
            rounds = options.get("rounds", "")
            if rounds and not rounds.isdigit():
                return Reply.fail(user.id, _("rounds is a number."))
            return await lg.new(where, user, options.get("game", ""), options.get("format", ""),
                                int(rounds) if rounds else None, options.get("speed", "untimed"), True)
        if sub in ("join", "leave"):
            return await getattr(lg, sub)(where, user)
        if sub == "addbot":
            count = options.get("count", "1")
            if not count.isdigit():
                return Reply.fail(user.id, _("count is a number."))
            return await lg.add_computers(where, user, canonical(options.get("level", "easy"),
                                                                 ("easy", "medium", "hard")), int(count), False)
        if sub == "start":
            return await lg.start(where, user, False)
        if sub in ("pause", "resume"):
            return await lg.pause(where, user, False, on=sub == "pause")
        if sub == "cancel":
            return await lg.cancel(where, user, False)
        if sub == "standings":
            return await lg.standings(where, user)
        if sub == "pairings":
            r = options.get("round", "")
            if r and not r.isdigit():
                return Reply.fail(user.id, _("round is a number."))
            return await lg.pairings(where, user, int(r) if r else None)
        if sub == "drop":
            if not options.get("player"):
                return Reply.fail(user.id, _("Use `/league drop player:<user>`."))
            return await lg.drop(where, user, options["player"], False)
        if sub == "fix":
            r, t = options.get("round", ""), options.get("table", "")
            if not (r.isdigit() and t.isdigit() and options.get("places")):
                return Reply.fail(user.id, _("Use `/league fix round:<n> table:<n> places:<best>,<next>,…` (tied "
                                             "players joined by =)."))
            return await lg.fix(where, user, int(r), int(t), options["places"], False)
        return Reply.fail(user.id, _("Use `/league new|join|leave|addbot|start|standings|pairings|pause|resume|cancel"
                                     "|drop|fix`."))

    async def cmd_wait(self, user, where, options) -> Reply:
        try:
            hours = float(options.get("hours", ""))
        except ValueError:
            return Reply.fail(user.id, _("Use `/wait hours:<N>`."))
        if not 0 < hours <= 24 * 30:
            return Reply.fail(user.id, _("Wait between a moment and 30 days."))
        self.clock.offset += hours * 3600
        await self.service.fire_due()
        await self.send_outbox()
        return Reply(text=_("{hours} hours pass.", hours=f"{hours:g}"))

    def _save(self, picture) -> str:
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / picture.filename
        path.write_bytes(picture.data)
        return str(path)

    async def present(self, channel: str, reply: Reply) -> None:
        """Show a reply with its pictures drawn and, under a lobby's message, the lobby's buttons and options
        (read from the table now, as Discord's lobby message reads them)."""
        await reply.render()
        self.show(channel, reply, await self.lobby_of(reply))

    async def lobby_of(self, reply: Reply) -> tuple[dict, dict] | None:
        """(the table's options as shown, each option's values) of a lobby reply's table still in its lobby."""
        if not (reply.ok and reply.status == "lobby" and reply.game_id is not None):
            return None
        row = await self.service.store.game(reply.game_id)
        if row is None or row.status != "lobby" or row.game not in GAMES:
            return None
        return table_options(row.options, row.seats), {**GAMES[row.game].option_choices, **TABLE_OPTION_CHOICES}

    def show(self, channel: str, reply: Reply, lobby: tuple[dict, dict] | None = None) -> None:
        """Print a reply as the cards Discord shows (table/cards.py, issue #48), each part in order: the channel's
        card (what happened, the picture, whose turn with the players called, a rule, its buttons as the lines to
        type: console/lines.py), then each private part's card for its user alone with the buttons that part
        carries. Buttons whose message has no public part go with the first private one, as in Discord."""
        public = bool(reply.text or reply.image)
        shared = lines.public_controls(reply, lobby) if public or reply.status == "lobby" else []
        if public:
            called = "  → " + " ".join(f"@{m}" for m in reply.mention) if reply.mention else ""
            card = cards.public_card(reply, mention=called, controls=bool(shared), limit=None)
            self.print_card(card, shared, lambda text: f"[#{channel}] {text}",
                            lambda path: pgettext("console", "  image: {path}", path=path), linked, called)
            shared = []
        done: set[str] = set()          # a user's buttons go with their first private part
        for p in reply.private:
            controls = [] if p.user in done else shared + lines.private_controls(reply, p.user)
            if p.user not in done:
                done.add(p.user)
                shared = []
            self.print_card(cards.private_card(p, controls=bool(controls), limit=None), controls,
                            lambda text, p=p: pgettext("console", "[only {user} sees] {text}", user=p.user, text=text),
                            lambda path, p=p: pgettext("console", "  image (only {user}): {path}", user=p.user,
                                                       path=path))

    def print_card(self, card: cards.Card, controls: list[str], head, picture, words=lambda text: text,
                   called: str = "") -> None:
        """A card's parts in order: the first text after whose card it is (``head(text)``), the next texts as
        they are (each through ``words``; the players ``called`` on a line of their own), a picture as where it
        was written (``picture(path)``), the rule before the controls, and the controls' lines."""
        headed = False
        for part in card.parts:
            if part.kind == cards.TEXT:
                calls = bool(called) and part.text.endswith(called)
                own = part.text.removesuffix(called).rstrip("\n") if calls else part.text
                if own or not headed:
                    self.write(head(words(own)).rstrip() if not headed else words(own))
                    headed = True
                if calls:
                    self.write(called)
                continue
            if not headed:
                self.write(head("").rstrip())
                headed = True
            if part.kind == cards.PICTURE:
                self.write(picture(self._save(part.picture)))
            elif part.kind == cards.DIVIDER:
                self.write(RULE)
            elif part.kind == cards.CONTROLS:
                self.write_all(controls)
        if not headed:
            self.write(head("").rstrip())

    def write_all(self, texts: list[str]) -> None:
        for text in texts:
            self.write(text)


# ----- /notify and instants (issue #34) ---------------------------------------------------------------------
async def notify(service: TableService, user: User, options: dict[str, str]) -> Reply:
    """/notify at the console: direct messages on or off, and the hours (zone, quiet, away_days) as in Discord."""
    dm, followers = options.get("direct_messages"), options.get("followers")
    hours = {k: options[k] for k in ("zone", "quiet", "away_days") if k in options}
    unknown = set(options) - {"direct_messages", "followers", *hours}
    if unknown or any(v is not None and canonical(v, ("on", "off")).lower() not in ("on", "off")
                      for v in (dm, followers)):
        return Reply.fail(user.id, _("Use `/notify direct_messages:on|off followers:on|off zone:<Area/City> "
                                     "quiet:<23:00-07:00|off> away_days:<0-21>` (any of them)."))
    texts = []
    if dm is not None:
        texts.append((await service.set_notify(user, canonical(dm, ("on", "off")).lower() == "on")).private[0].text)
    if followers is not None:          # whether friends may follow (#49)
        on = canonical(followers, ("on", "off")).lower() == "on"
        texts.append((await service.following.set_followers(user, on)).private[0].text)
    if (dm is None and followers is None) or hours:
        reply = await service.set_hours(user, hours.get("zone"), hours.get("quiet"), hours.get("away_days"))
        if not reply.ok:
            return reply
        texts.append(reply.private[0].text)
    return Reply(private=[Private(user.id, "\n".join(texts))])


def console_times(text: str, now: float) -> str:
    """The service's marked instants as the console writes them: the UTC time and how far it is from now."""
    def shown(unix: int, style: str) -> str:
        away = unix - now
        rel = (_("in {time}", time=duration(away)) if away >= 0 else _("{time} ago", time=duration(-away)))
        return pgettext("instant", "{utc} ({relative})", utc=utc(unix), relative=rel)
    return with_times(text, shown)


async def run(service: TableService, stream=None, out_dir: str | Path = "out") -> None:
    """Read lines from ``stream`` (standard input by default) until it ends or the user quits."""
    import asyncio

    stream = stream or sys.stdin
    console = Console(service, out_dir)
    service.analyses.use_processes()        # an analysis (#37) in worker processes, never in the console's way
    interactive = stream.isatty() if hasattr(stream, "isatty") else False
    if interactive:
        print(_("Teahouse console table. Type /help for the commands; for example:\n"
                "  alice@lobby /game new game:wassamasaw\n  bob@lobby /game join\n  alice@lobby /game start"))
    while True:
        if interactive:
            try:
                line = await asyncio.to_thread(input, "> ")
            except EOFError:
                break
        else:
            line = await asyncio.to_thread(stream.readline)
            if not line:
                break
            if line.strip() and not line.lstrip().startswith("#"):
                print(f"> {line.rstrip()}")
        if not await console.handle(line):
            break
    service.analyses.stop()
