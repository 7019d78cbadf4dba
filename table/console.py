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

import re
import sys
from pathlib import Path

from engine import GAMES

from .replies import Private, Reply, User, Where
from .service import TableService, parse_option

SPEAKER = re.compile(r"^(?P<user>[^\s@/]+)@(?P<channel>[^\s/]+)\s+(?P<rest>/.*)$")
OPTION = re.compile(r"^([a-z_]+):(.*)$")

HELP = """Commands (as in Discord):
  /game new game:<key> [option:value ...]   open a table here (games: {games})
  /game join | /game leave | /game addbot    take or leave a seat; the host adds a computer player
  /game option name:<option> value:<value>  the host sets a table option
  /game start [order:shuffled]              the host starts the game
  /game move action:<text>                  play one of your legal actions
  /game actions                             list your legal actions now
  /game status | /game hand                 the table (public) | your private view
  /game history [page:N] | /game rules game:<key> | /game abandon [confirm:yes]
  /help | /quit"""


def parse(line: str, last: tuple[str, str] | None):
    """(user, channel, words, options) of a console line; raises ValueError with a readable message."""
    line = line.strip()
    m = SPEAKER.match(line)
    if m:
        user, channel, rest = m["user"], m["channel"], m["rest"]
    elif line.startswith("/") and last is not None:
        (user, channel), rest = last, line
    else:
        raise ValueError("Start a line with USER@CHANNEL and a command, e.g. `alice@lobby /game new game:wagara`.")
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


class Console:
    def __init__(self, service: TableService, out_dir: str | Path = "out", write=print):
        self.service = service
        self.out = Path(out_dir)
        self.write = write
        self.last: tuple[str, str] | None = None

    async def handle(self, line: str) -> bool:
        """Carry out one line. False when the user asked to quit."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        if line in ("/quit", "/exit", "quit", "exit"):
            return False
        if line in ("/help", "help"):
            self.write(HELP.format(games=", ".join(sorted(GAMES))))
            return True
        try:
            user_id, channel, words, options = parse(line, self.last)
        except ValueError as e:
            self.write(f"! {e}")
            return True
        self.last = (user_id, channel)
        if words[:1] == ["/help"]:
            self.write(HELP.format(games=", ".join(sorted(GAMES))))
            return True
        reply = await self.dispatch(User(user_id, user_id), Where(channel, guild="console"), words, options)
        self.show(channel, await reply.render())
        return True

    async def dispatch(self, user: User, where: Where, words: list[str], options: dict[str, str]) -> Reply:
        svc = self.service
        if not words or words[0] != "/game" or len(words) < 2:
            return Reply.fail(user.id, "Unknown command. Try `/help`.")
        sub = words[1]
        if sub == "new":
            key = options.pop("game", None)
            if not key:
                return Reply.fail(user.id, "Say which game: `/game new game:<key>` ("
                                  + ", ".join(sorted(GAMES)) + ").")
            game = GAMES.get(key)
            opts = {}
            if game is not None:
                for name, value in options.items():
                    if name not in game.options:
                        return Reply.fail(user.id, f"{game.title} has no option '{name}'.")
                    try:
                        opts[name] = parse_option(game.options[name], value)
                    except ValueError as e:
                        return Reply.fail(user.id, str(e))
            return await svc.open_table(where, user, key, opts)
        if sub == "join":
            return await svc.join(where, user)
        if sub == "leave":
            return await svc.leave(where, user)
        if sub == "addbot":
            return await svc.add_bot(where, user)
        if sub == "option":
            if "name" not in options or "value" not in options:
                return Reply.fail(user.id, "Use `/game option name:<option> value:<value>`.")
            return await svc.set_option(where, user, options["name"], options["value"])
        if sub == "start":
            order = options.get("order", "joined")
            if order not in ("joined", "shuffled"):
                return Reply.fail(user.id, "order can be joined or shuffled.")
            return await svc.start(where, user, shuffle=order == "shuffled")
        if sub == "move":
            if not options.get("action"):
                return Reply.fail(user.id, "Use `/game move action:<text>`; `/game actions` lists yours.")
            return await svc.act(where, user, options["action"])
        if sub == "actions":
            return await svc.prompt(where, user)
        if sub == "status":
            return await svc.status(where, user)
        if sub == "hand":
            return await svc.hand(where, user)
        if sub == "history":
            try:
                page = int(options.get("page", "1"))
            except ValueError:
                return Reply.fail(user.id, "page is a number.")
            return await svc.history(where, user, page)
        if sub == "rules":
            key = options.get("game")
            text = svc.rules(key) if key else None
            if text is None:
                return Reply.fail(user.id, "Use `/game rules game:<key>` (" + ", ".join(sorted(GAMES)) + ").")
            return Reply(private=[Private(user.id, text)])
        if sub == "abandon":
            return await svc.abandon(where, user, confirm=options.get("confirm", "").lower() in ("yes", "true"))
        return Reply.fail(user.id, f"Unknown command `/game {sub}`. Try `/help`.")

    def _save(self, picture) -> str:
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / picture.filename
        path.write_bytes(picture.data)
        return str(path)

    def show(self, channel: str, reply: Reply) -> None:
        if reply.text:
            self.write(f"[#{channel}] {reply.text}")
        if reply.image:
            self.write(f"  image: {self._save(reply.image)}")
        if reply.mention:
            self.write("  → " + " ".join(f"@{m}" for m in reply.mention))
        for p in reply.private:
            self.write(f"[only {p.user} sees] {p.text}")
            if p.image:
                self.write(f"  image (only {p.user}): {self._save(p.image)}")


async def run(service: TableService, stream=None, out_dir: str | Path = "out") -> None:
    """Read lines from ``stream`` (standard input by default) until it ends or the user quits."""
    import asyncio

    stream = stream or sys.stdin
    console = Console(service, out_dir)
    interactive = stream.isatty() if hasattr(stream, "isatty") else False
    if interactive:
        print("Teahouse console table. Type /help for the commands; for example:\n"
              "  alice@lobby /game new game:wassamasaw\n  bob@lobby /game join\n  alice@lobby /game start")
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
