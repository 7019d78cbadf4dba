"""The table service's words that need no table: option values, durations, settings, lists of names, and the
level a computer seat plays at (read back from its stored name)."""

from __future__ import annotations

import re

import i18n
from i18n import N_, W_, _, ngettext, pgettext
from store.rows import BOT_PREFIX, Seat, Settings

BOT_LEVEL = re.compile(r"\((easy|medium|hard)\)$")
BOT_NAME = N_("Computer {n} ({level})")
LEVEL_WORDS = (W_("easy"), W_("medium"), W_("hard"))
SPEED_WORDS = (W_("untimed"), W_("fast"), W_("daily"), W_("relaxed"))    # the speed option's values (#34), as words
WINDOW_WORDS = (W_("off"),)   # playing_hours without a window, in the reader's words (#47: "ore_di_gioco: no")
STAND_IN_LEVEL = "medium"     # a computer playing for a person: skipped turns and removed seats
REMOVED_TEXT = N_("You were removed from this game past a turn deadline; a computer plays your seat now, so you "
                  "can no longer act, take back a move or see its hand.")
PRIVATE_WORDS = {"hand": N_("Your hand"), "my_choice": N_("Your choice this round"), "choice": N_("Your choice"),
                 "my_bid": N_("Your bid"), "secret": N_("Your secret")}


def parse_option(default, text: str):
    """A table option's text as the type of its default value."""
    text = str(text).strip()
    if isinstance(default, bool):
        low = text.lower()
        if low in ("on", "true", "yes", "1"):
            return True
        if low in ("off", "false", "no", "0"):
            return False
        raise ValueError(_("Say on or off, not '{text}'.", text=text))
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ValueError(_("'{text}' is not a whole number.", text=text)) from None
    return text


def bot_level(seat: Seat) -> str:
    """The level a computer seat plays at: named in a computer's seat name ("Computer 2 (hard)"; older
    computers, named without one, play easy as they always did); a person's seat taken over plays medium."""
    if not seat.user_id.startswith(BOT_PREFIX):
        return STAND_IN_LEVEL
    m = BOT_LEVEL.search(seat.name)
    return m.group(1) if m else "easy"


def show(value) -> str:
    """An option's or a private value's text: switches as on/off, lists joined."""
    if isinstance(value, bool):
        return pgettext("switch", "on") if value else pgettext("switch", "off")
    if isinstance(value, list):
        return ", ".join(show(v) for v in value)
    return str(value)


def words_of(value):
    """A private value (a hand, a choice) as the reader's words: the games' words translated, the rest as it is."""
    if isinstance(value, str):
        return i18n.line(value)
    if isinstance(value, list):
        return [words_of(v) for v in value]
    return value


def seconds_text(seconds: float) -> str:
    """A rules time limit in words: '20 seconds', '5 minutes', '1 hour 30 minutes', '24 hours'."""
    seconds = int(seconds)
    if seconds < 120:
        return ngettext("{n} second", "{n} seconds", seconds)
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    if hours and minutes:
        return pgettext("duration", "{hours} {minutes}", hours=ngettext("{n} hour", "{n} hours", hours),
                        minutes=ngettext("{n} minute", "{n} minutes", minutes))
    if hours:
        return ngettext("{n} hour", "{n} hours", hours)
    return ngettext("{n} minute", "{n} minutes", minutes)


def duration(seconds: float) -> str:
    """A wait in words, rounded up to the minute (to the hour past two hours): 'waiting 3 minutes'."""
    minutes = int(seconds // 60) + 1
    if minutes < 120:
        return ngettext("{n} minute", "{n} minutes", minutes)
    return ngettext("{n} hour", "{n} hours", minutes // 60)


def span_text(seconds: float) -> str:
    """A game's length in words: hours up to two days, then days ('5 days')."""
    hours = max(1, round(seconds / 3600))
    if hours < 48:
        return ngettext("{n} hour", "{n} hours", hours)
    return ngettext("{n} day", "{n} days", round(hours / 24))


def describe_settings(s: Settings) -> str:
    reminder = pgettext("reminders", "every {hours} h", hours=f"{s.reminder_hours:g}") if s.reminder_hours > 0 \
        else pgettext("reminders", "off")
    deadline = pgettext("deadline", "{hours} h", hours=f"{s.deadline_hours:g}") if s.deadline_hours > 0 \
        else pgettext("deadline", "none")
    action = {"vote": _("the other players may skip or remove the absent player (buttons)"),
              "skip": _("a computer plays the missed turn"),
              "remove": _("a computer takes the seat")}[s.deadline_action]
    text = _("Reminders: {reminder}. Turn deadline: {deadline}; past it, {action}. A thread per game: {threads}. "
             "Mention on turn: {mention}. Speed of new tables: {speed}.", reminder=reminder, deadline=deadline,
             action=action, threads=show(s.threads), mention=show(s.mention), speed=s.speed)
    if s.league_role:        # a role mention: each reader sees its name, and nobody is pinged (#35)
        text += " " + _("Leagues are organised by those who manage the server and by <@&{role}>.",
                        role=s.league_role)
    return text


def setting_name(name: str) -> str:
    """A setting's name in a sentence ('reminder hours')."""
    return {"reminder_hours": _("reminder hours"), "deadline_hours": _("deadline hours")}.get(
        name, name.replace("_", " "))


def and_list(names) -> str:
    """Names joined as a sentence says them: 'Ann and Cy', 'Ann and Cy and Dee'."""
    names = list(names)
    out = names[0] if names else ""
    for name in names[1:]:
        out = pgettext("list", "{first} and {second}", first=out, second=name)
    return out


def seat_line(n: int, name: str, computer: bool, host: bool) -> str:
    """A lobby's line for a seat: its number, its name, and whether a computer or the host sits there."""
    if computer and host:
        return pgettext("lobby", "{n}. {name} (computer) — host", n=n, name=name)
    if computer:
        return pgettext("lobby", "{n}. {name} (computer)", n=n, name=name)
    if host:
        return pgettext("lobby", "{n}. {name} — host", n=n, name=name)
    return pgettext("lobby", "{n}. {name}", n=n, name=name)


def rules_line(game, state) -> str:
    """Which rules a game is played by (issue #26), and whether new games get newer ones."""
    n = state["rules"]
    text = _("Rules version {n}: {what}.", n=n, what=i18n.word(game.rules_changes.get(n, "")))
    if n < game.rules:
        text += " " + _("New games use version {current}.", current=game.rules)
    return text


def speed_text(speed) -> str:
    """A table's speed (table/clock.py) in words, or the untimed rule."""
    from .clock import H

    if speed is None:
        return _("untimed: the server's reminders and turn deadline (`/settings`)")
    return _("{name}: {bank} h each, +{increment} h a move, at most {cap} h; only your playing hours count",
             name=i18n.word(speed.name), bank=f"{speed.bank / H:g}", increment=f"{speed.increment / H:g}",
             cap=f"{speed.cap / H:g}")
