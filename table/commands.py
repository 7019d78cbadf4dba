"""Each game's own commands — /wassamasaw take, /wagara play|move, /mywuxing reveal|play|react,
/seikatsu place|fountain, /wurrm place|lucky|wish|reroll|stop|move|bump|attack|answer — turned into the
steps of one turn for the table service. Discord's slash commands and the console share them, so a command
does the same everywhere; the engine stays the only judge of what is legal.

``await steps_for(service, where, user, game, command, args)`` gives the list of actions to apply all or
none (``service.act(steps=...)``), or a Reply explaining why not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine import GAMES, UnknownRules
from i18n import _, pgettext

from .context import unknown_rules_text
from .replies import Reply, User, Where, name_seats


def clean(text) -> str:
    return " ".join(str(text or "").lower().split())


def after(actions: list[str], prefix: str) -> list[str]:
    """What follows ``prefix`` in the actions that start with it (``place `` → ``heron lily c3``)."""
    return [a[len(prefix):] for a in actions if a.startswith(prefix)]


@dataclass
class Context:
    """What a command may look at: the caller's legal actions (now, or after some steps), seat names, and
    the game's state — read only for what is public (WURRM World's dice on the table)."""
    service: object
    where: Where
    user: User
    names: dict[str, str]
    state: dict | None

    async def legal(self, steps: list[str] = ()) -> list[str]:
        return await self.service.legal_after(self.where, self.user, list(steps))

    def fail(self, text: str) -> Reply:
        return Reply.fail(self.user.id, text)

    def seat_named(self, text: str, legal: list[str]) -> str:
        """A legal action written with display names (``universe with Bob``) as the engine's text."""
        by_name = {name_seats(a, self.names).lower(): a for a in legal}
        return by_name.get(clean(text), clean(text))


Steps = list[str] | Reply
Command = Callable[..., Awaitable[Steps]]


# ----- Wassamasaw ------------------------------------------------------------------------------------------
async def wassamasaw_take(ctx: Context, die: str, cell: str | None = None) -> Steps:
    """Take a die and place it in one go; a die that fits nowhere is converted (W-rules), without a cell."""
    legal = await ctx.legal()
    die_text = clean(die)
    if f"convert {die_text}" in legal:
        if cell:
            return ctx.fail(_("The {die} cannot be placed now, so it is converted: leave out the cell.", die=die_text))
        return [f"convert {die_text}"]
    if f"take {die_text}" not in legal:
        dice = sorted({a.split(" ", 1)[1] for a in legal if a.startswith(("take ", "convert "))})
        if dice:
            return ctx.fail(_("There is no {die} you can take. The pool: {dice}.", die=die_text, dice=", ".join(dice)))
        return [f"take {die_text}"]          # the engine says why not
    steps = [f"take {die_text}"]
    if cell:
        steps.append(f"place {str(cell).lower().replace(' ', '')}")
    return steps


# ----- Wagara ----------------------------------------------------------------------------------------------
async def wagara_play(ctx: Context, card: str) -> Steps:
    return [f"play {clean(card)}"]


async def wagara_move(ctx: Context, action: str) -> Steps:
    return [ctx.seat_named(action, await ctx.legal())]


# ----- MyWuXing --------------------------------------------------------------------------------------------
CARD_VERBS = ("play ", "add ", "discard ")


def card_step(legal: list[str], wanted: str) -> list[str]:
    """A card named as ``play x`` is the card step whatever its verb this hand (add/discard under a Dragon
    or a Star), so players need not know the verb."""
    if wanted in legal:
        return [wanted]
    card = wanted.split(" ", 1)[1] if " " in wanted else wanted
    for verb in CARD_VERBS:
        if f"{verb}{card}" in legal:
            return [f"{verb}{card}"]
    return [wanted]


async def mywuxing_reveal(ctx: Context) -> Steps:
    return ["reveal"]


async def mywuxing_play(ctx: Context, card: str, target: str | None = None) -> Steps:
    legal = await ctx.legal()
    wanted = clean(card)
    if not wanted.startswith(CARD_VERBS):
        wanted = f"play {wanted}"
    if not target:
        return card_step(legal, wanted)
    chosen = ctx.seat_named(target, legal)
    return [chosen] + card_step(await ctx.legal([chosen]), wanted)


async def mywuxing_react(ctx: Context, answer: str) -> Steps:
    return [clean(answer)]


# ----- Seikatsu --------------------------------------------------------------------------------------------
async def seikatsu_place(ctx: Context, tile: str, space: str) -> Steps:
    legal = await ctx.legal()
    action = f"place {clean(tile)} {clean(space)}"
    if action in legal or not legal:
        return [action]
    tiles = sorted({" ".join(a.split()[1:-1]) for a in legal if a.startswith("place ")})
    if clean(tile) not in tiles:
        return ctx.fail(_("Your hand holds: {tiles}.", tiles=", ".join(tiles)) if tiles
                        else _("You are not placing a tile now."))
    return [action]              # the engine explains what is wrong with the space


async def seikatsu_fountain(ctx: Context, corner: str, card: str, put_back: str | None = None) -> Steps:
    """The put-back is asked only while it is offered: with an empty bag the turn ends with the card (engine
    D7), so a ``put_back`` given then is left out rather than refused."""
    steps = [f"fountain {clean(corner)}", f"take {clean(card).removesuffix(' card')} card"]
    if put_back and "keep hand" in await ctx.legal(steps):
        steps.append(clean(put_back))
    return steps


# ----- WURRM World -----------------------------------------------------------------------------------------
async def wurrm_place(ctx: Context, space: str) -> Steps:
    return [f"place {clean(space)}"]


async def wurrm_lucky(ctx: Context, number) -> Steps:
    return [f"lucky {clean(number)}"]


async def wurrm_wish(ctx: Context, number) -> Steps:
    return [f"wish {clean(number)}"]


async def wurrm_reroll(ctx: Context, dice: str | None = None) -> Steps:
    """Reroll the named dice (default: those the engine marked, the ones missing the wish): toggle them
    into place, then the free reroll or a paid one."""
    roll = (ctx.state or {}).get("roll")
    if roll is None:
        return ["reroll"]                     # the engine explains why not
    verb = "reroll" if not roll["free_used"] else "pay reroll"
    if not dice:
        return [verb]
    words = str(dice).replace(",", " ").split()
    if not words or not all(w.isascii() and w.isdigit() for w in words):
        return ctx.fail(_("Name the dice by number, e.g. `1 3 5`."))
    wanted = {int(w) for w in words}
    if not wanted <= set(range(1, 7)):
        return ctx.fail(_("The dice are numbered 1 to 6."))
    marked = roll["marked"]
    return [f"toggle {k}" for k in range(1, 7) if marked[k - 1] != (k in wanted)] + [verb]


async def wurrm_stop(ctx: Context) -> Steps:
    return ["stop"]


async def wurrm_move(ctx: Context, path: str) -> Steps:
    words = clean(path).replace(",", " ").split()
    if not words:
        return ctx.fail(_("Give at least one direction: nw ne w e sw se."))
    return [f"move {w}" for w in words]


async def wurrm_bump(ctx: Context, direction: str) -> Steps:
    return [f"bump {clean(direction)}"]


async def wurrm_attack(ctx: Context, player: str) -> Steps:
    legal = await ctx.legal()
    seat = next((s for s, n in ctx.names.items() if clean(n) == clean(player)), str(player))
    for verb in ("attack", "petition"):
        if f"{verb} {seat}" in legal:
            return [f"{verb} {seat}"]
    return [f"attack {seat}"]


async def wurrm_answer(ctx: Context, choice: str) -> Steps:
    return [clean(choice)]


# game → command → (the function, its parameters in order; a trailing ? marks an optional one)
COMMANDS: dict[str, dict[str, tuple[Command, tuple[str, ...]]]] = {
    "wassamasaw": {"take": (wassamasaw_take, ("die", "cell?"))},
    "wagara": {"play": (wagara_play, ("card",)), "move": (wagara_move, ("action",))},
    "mywuxing": {"reveal": (mywuxing_reveal, ()), "play": (mywuxing_play, ("card", "target?")),
                 "react": (mywuxing_react, ("answer",))},
    "seikatsu": {"place": (seikatsu_place, ("tile", "space")),
                 "fountain": (seikatsu_fountain, ("corner", "card", "put_back?"))},
    "wurrm": {"place": (wurrm_place, ("space",)), "lucky": (wurrm_lucky, ("number",)),
              "wish": (wurrm_wish, ("number",)), "reroll": (wurrm_reroll, ("dice?",)), "stop": (wurrm_stop, ()),
              "move": (wurrm_move, ("path",)), "bump": (wurrm_bump, ("direction",)),
              "attack": (wurrm_attack, ("player",)), "answer": (wurrm_answer, ("choice",))},
}


def usage(game: str, command: str) -> str:
    """How to type a game command, with the command's and options' names in the current language."""
    _fn, params = COMMANDS[game][command]
    shown = " ".join(f"[{pgettext('option', p[:-1])}:…]" if p.endswith("?") else f"{pgettext('option', p)}:…"
                     for p in params)
    return f"/{game} {pgettext('command', command)} {shown}".strip()


async def steps_for(service, where: Where, user: User, game: str, command: str, args: dict) -> Steps:
    """The steps of ``/game command args`` for ``user`` here, or a Reply saying why there are none."""
    if game not in COMMANDS or command not in COMMANDS[game]:
        known = ", ".join(pgettext("command", c) for c in COMMANDS.get(game, {})) or pgettext("commands", "none")
        return Reply.fail(user.id, _("/{game} has no command '{command}' (commands: {known}).", game=game,
                                     command=command, known=known))
    fn, params = COMMANDS[game][command]
    missing = [p for p in params if not p.endswith("?") and not args.get(p)]
    unknown = [k for k in args if k not in {p.rstrip("?") for p in params}]
    if missing or unknown:
        return Reply.fail(user.id, _("Use `{usage}`.", usage=usage(game, command)))
    row = await service.store.open_game(where.channel)
    if row is None or row.status != "running":
        return Reply.fail(user.id, _("There is no game under way in this channel."))
    if row.game != game:
        title = GAMES[row.game].title if row.game in GAMES else row.game
        return Reply.fail(user.id, _("The game here is {title}, not {other}.", title=title, other=GAMES[game].title))
    try:
        state = GAMES[game].load(row.state)
    except UnknownRules as e:
        return Reply.fail(user.id, unknown_rules_text(e))
    ctx = Context(service, where, user, row.names, state)
    return await fn(ctx, **{k: v for k, v in args.items() if v not in (None, "")})


async def run(service, where: Where, user: User, game: str, command: str, args: dict) -> Reply:
    """Carry out a game command: its steps all or none."""
    steps = await steps_for(service, where, user, game, command, args)
    if isinstance(steps, Reply):
        return steps
    return await service.act(where, user, steps=steps)
