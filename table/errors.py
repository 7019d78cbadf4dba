"""What a person is told when the store cannot be used (issue #38): the one place that decides these words.

A player never reads an exception's name or text, a driver's words or a stack detail: those go to the log,
on the interaction's line (its server, channel and command, from ``table.logs.context``). The player reads
what became of what they asked:

- a read (a command or button that only shows something) says that it cannot be shown right now;
- a write (anything that would change a table, a seat, a setting) says that nothing was changed;

and both say to try again in a minute. Which commands are reads is ``READS`` below, named as the log names
them: ``/game status`` for a slash command (the console uses the same names), ``button my view`` for a
button (``cogs/observe.py``). Anything not listed is treated as a write, the safer thing to say: a read that
failed changed nothing either.
"""

from __future__ import annotations

import logging

from i18n import N_, _

from . import logs

log = logging.getLogger("teahouse.table")

# the requests that only show something, as the interaction's log line names them
READS = frozenset({
    "/game status", "/game clock", "/game hand", "/game history", "/game rules", "/game replay", "/game review",
    "/game export", "/game analysis", "/game hint", "/game actions",
    "button my view", "button group", "button choose privately", "button review", "button analysis",
})
# the reads that show no table but lists and cards of players and games
LISTINGS = frozenset({"/games", "/mygames", "/stats", "/leaderboard", "/profile", "/league standings",
                      "/league pairings"})

# the words, one sentence each; the first says what became of the request, the second what to do
CANNOT_SHOW = N_("The table cannot be shown right now. Try again in a minute.")
CANNOT_LIST = N_("This cannot be shown right now. Try again in a minute.")
NOT_CHANGED = N_("Nothing was changed: Teahouse cannot save anything right now. Try again in a minute.")


def is_read(command: str | None) -> bool:
    """Whether the request named ``command`` (``/game status``, ``button my view``) only shows something."""
    name = " ".join(str(command or "").split())
    return name in READS or name in LISTINGS


def current_command() -> str | None:
    """The command of the interaction being handled, as its log line names it (None outside one)."""
    return logs.current().get("command")


def store_unavailable(command: str | None = None) -> str:
    """The answer, in the current language, to a request the store could not serve: ``command`` (by default
    the current interaction's) decides whether it says the table cannot be shown or that nothing was changed."""
    if command is None:
        command = current_command()
    if not is_read(command):
        return _(NOT_CHANGED)
    return _(CANNOT_LIST) if " ".join(str(command).split()) in LISTINGS else _(CANNOT_SHOW)


def store_failed(error: BaseException, command: str | None = None) -> str:
    """Log ``error`` (its class and text, for the people who run the bot) on the interaction's line, and
    return the words for the person who asked: never the error itself."""
    if command is None:
        command = current_command()
    log.warning("the store could not serve %s (%s): %s", command or "a request",
                "read" if is_read(command) else "write", f"{type(error).__name__}: {error}")
    return store_unavailable(command)
