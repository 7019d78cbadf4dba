"""Every button as a line to type (issue #33): what the console prints where Discord would show a button or a
select, read from the same neutral data the Discord front end turns into components (``table.replies``:
``Turn``, ``Offer``, ``ReviewPage``, ``Reply.rematch`` with ``after_game``, ``lobby_controls``,
``Reply.controls``).

Each line is the exact command, in the console's language (``/partita rivedi gioco:7 passo:3`` in Italian;
the English one works too), after the button's words: ``▶ next: /game review game:7 step:4``. A select's
entries are listed under its placeholder. ``tests/test_console_buttons.py`` walks every kind of component the
Discord front end can send and finds its line here.
"""

from __future__ import annotations

from collections.abc import Iterable

import i18n
from i18n import ngettext, pgettext
from table.league import signup_controls
from table.replies import Control, Reply, Turn, after_game, lobby_controls

MAX_ACTIONS = 30          # a seat's actions listed on its buttons line (all of them: `/game actions`)
# option values that are words: typed in the console's language (canonical() reads them back)
WORDS = ("shuffled", "table", "last", "yes", "on", "off")


def typed(command: Iterable[str], options: Iterable[tuple[str, str]] = ()) -> str:
    """A command as the console reader types it: ``/game review game:7 step:3``, names in their language."""
    head = "/" + " ".join(pgettext("command", word) for word in command)
    opts = [f"{pgettext('option', name)}:{pgettext('value', value) if value in WORDS else value}"
            for name, value in options]       # (a merged option's values are in the reader's words already)
    return " ".join([head, *opts])


def line_of(control: Control) -> str:
    return typed(control.command, control.options)


def move_line(action: str) -> str:
    """The line that plays ``action`` (the action's one written form, in any language: #17)."""
    return typed(("game", "move"), (("action", action),))


def learn_words(game: str, action: str, table: dict) -> str:
    """How learn mode's tips name a move at the console: the line that plays it."""
    return move_line(action)


def controls_lines(controls: list[Control], indent: str = "  ") -> list[str]:
    """Buttons one a line (``🔁 Rematch: /game rematch``); a select's entries indented under its placeholder,
    the values of one table option on one line (``rounds (now 3): /game option name:rounds value:1|2|3``)."""
    out: list[str] = []
    group = None
    for c in merged(controls):
        if c.group != group and c.group:
            out.append(f"{indent}{c.group}")
        group = c.group
        head = f"{c.emoji} {c.label}" if c.emoji else c.label
        out.append(f"{indent}{'  ' if c.group else ''}{head}: {line_of(c)}")
    return out


def merged(controls: list[Control]) -> list[Control]:
    """The lobby select's entries of one option made one: its values joined by "|", labelled with the option's
    name and its current value (the entry marked ✓)."""
    out: list[Control] = []
    runs: dict[str, list[Control]] = {}
    for c in controls:
        if c.key != "lobby.option":
            out.append(c)
            continue
        name = dict(c.options)["name"]
        if name not in runs:
            runs[name] = []
            out.append(name)
        runs[name].append(c)
    return [c if isinstance(c, Control) else _one_option(runs[c]) for c in out]


def _one_option(entries: list[Control]) -> Control:
    first = entries[0]
    name, _sep, _words = first.label.partition(": ")
    now = next((e.label.partition(": ")[2].removesuffix(" ✓") for e in entries if e.label.endswith(" ✓")), None)
    label = pgettext("console", "{option} (now {value})", option=name, value=now) if now is not None else name
    values = "|".join(pgettext("value", v) if v in WORDS else v for e in entries for k, v in e.options if k == "value")
    return Control(first.key, label, first.command, (("name", dict(first.options)["name"]), ("value", values)),
                   first.group)


def action_label(turn: Turn, action: str) -> str:
    """An action as its button reads, in the reader's language, seat ids as names (``prendi fuoco 4``)."""
    with i18n.playing(turn.game):
        return turn.label(i18n.line(action))


def turn_lines(reply: Reply) -> list[str]:
    """A turn message's buttons: under a heading for each seat with public actions, each button's label in the
    reader's language and the exact line that does what it does (``prendi fuoco 4 → /partita mossa
    azione:take fire 4``: one name per move, #38); then the private choice and "my view"."""
    turn = reply.turn
    if turn is None or not turn.to_act:
        return []
    out = []
    for seat, actions in turn.public_actions.items():
        out.append(pgettext("console", "  {name}'s buttons, each with the line that does the same:",
                            name=turn.names.get(seat, seat)))
        out += [f"    {action_label(turn, a)} → {move_line(a)}" for a in actions[:MAX_ACTIONS]]
        if len(actions) > MAX_ACTIONS:
            out.append("    " + pgettext("console", "… all of them: {line}", line=typed(("game", "actions"))))
    if turn.private_seats:
        who = ", ".join(turn.names.get(s, s) for s in turn.private_seats)
        # one player is told "you" in the singular, several in the plural (Italian: scegli / scegliete)
        out.append("  " + ngettext("🔒 {names}: choose privately (`/game actions` lists your choices)",
                                   "🔒 {names}: choose privately (`/game actions` lists your choices)",
                                   len(turn.private_seats), names=who))
    return out + controls_lines([c for c in turn.controls() if c.key != "turn.private"])


def public_controls(reply: Reply, lobby: tuple[dict, dict] | None = None) -> list[str]:
    """The lines under a reply's public message, as ``cogs.game.GameCog.components`` chooses its buttons:
    a deadline's, the lobby's (``lobby``: the table's options and their choices, read as Discord reads them),
    an ended game's, or the next decision's."""
    if not reply.ok:
        return []
    if reply.offer is not None:
        return controls_lines(reply.offer.controls())
    if reply.status == "lobby" and reply.game_id is not None:
        return controls_lines(lobby_controls(*lobby)) if lobby is not None else []
    if reply.rematch is not None:
        return controls_lines(after_game(reply.rematch))
    if reply.status == "league:signup":         # a league's sign-up (#35): its buttons' lines
        return [f"{text}: /league {act}" for act, text in signup_controls()]
    return turn_lines(reply)


def private_controls(reply: Reply, user: str) -> list[str]:
    """The lines under ``user``'s private part: a review step's buttons and selects, a confirmation, and the
    private picker's (``/game actions``: ``reply.choices``)."""
    if not reply.ok:
        return []
    out = []
    if reply.review is not None:
        out += controls_lines(reply.review.controls(user))
    out += controls_lines(reply.controls)
    if reply.choices:      # the private picker's entries, as the turn's buttons: label → line
        out.append(pgettext("console", "  Your choices, each with the line that plays it:"))
        label = (lambda a: action_label(reply.turn, a)) if reply.turn is not None else i18n.line
        out += [f"    {label(a)} → {move_line(a)}" for a in reply.choices[:MAX_ACTIONS]]
        if len(reply.choices) > MAX_ACTIONS:
            out.append("    " + pgettext("console", "… and {n} more", n=len(reply.choices) - MAX_ACTIONS))
    return out
