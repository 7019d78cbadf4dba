"""The bot in the player's language: English (the source) and Italian, through gettext catalogs (#17).

Every user-facing sentence is written once, in English, as a whole sentence with named placeholders and
passed through ``_`` (or ``ngettext`` for plurals): ``_("{name} joins the table.", name=name)``. The
translation is chosen by the locale of the context:

- a front end calls ``use(user_locale, public_locale)`` when an interaction arrives (Discord's
  ``interaction.locale`` and ``interaction.guild_locale``; the console's ``--locale``);
- ``_`` speaks the user's language: errors, private replies, anything only the caller sees;
- text meant for the whole channel is built inside ``with public():`` and speaks the server's language.

Contexts are per task (contextvars), so two interactions at once never mix their languages. The engine
stays pure: it only *marks* its sentences (``N_``, and ``IllegalAction(template, **params)``) and keeps
writing English into states and logs; the edge translates them (``illegal``, ``line``).

Catalogs: ``i18n/<locale>/LC_MESSAGES/<domain>.po`` (sources, edited by translators) and the compiled
``.mo`` next to them (committed; the bot reads only those, with the standard library). One domain for the
shared table and one per game, so a game's words live beside each other. ``python -m tools.i18n_catalogs``
extracts, updates, compiles and checks them with Babel (a development dependency).
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import re
from contextvars import ContextVar
from pathlib import Path

ROOT = Path(__file__).resolve().parent
LOCALES = ("en", "it")
DEFAULT = "en"
DOMAINS = ("table", "bot", "commands", "wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm")
NAMES = {"en": "English", "it": "Italiano"}

_user: ContextVar[str | None] = ContextVar("teahouse_locale", default=None)
_public: ContextVar[str | None] = ContextVar("teahouse_public_locale", default=None)
_speaking: ContextVar[str | None] = ContextVar("teahouse_speaking", default=None)
_caller: ContextVar[str | None] = ContextVar("teahouse_caller", default=None)
_fallback = [DEFAULT]     # the process's language where no interaction says one (the console's --locale)


def set_default(locale: object) -> None:
    """The language of the process where no interaction says one: the console's ``--locale``."""
    _fallback[0] = normalise(locale)


def normalise(locale: object) -> str:
    """A supported locale for anything Discord or a user may give: ``it``, ``it-IT``, ``Locale.italian``
    → ``it``; anything we do not speak → English."""
    text = str(getattr(locale, "value", locale) or "").strip().lower().replace("_", "-")
    head = text.split("-", 1)[0]
    return head if head in LOCALES else DEFAULT


def use(user: object = None, public: object = None, caller: str | None = None) -> None:
    """Set the languages of the current task: the caller's, and the channel's (None: the caller's)."""
    _user.set(normalise(user) if user else None)
    _public.set(normalise(public) if public else None)
    _speaking.set(None)
    _caller.set(caller)


@contextlib.contextmanager
def interaction(user: object = None, public: object = None, caller: str | None = None):
    """Inside the block: an interaction of ``caller`` (speaking ``user``) in a channel speaking ``public``.
    Text is made in the channel's language; what goes to the caller alone is re-made in theirs (``Msg``)."""
    tokens = [(_user, _user.set(normalise(user) if user else None)),
              (_public, _public.set(normalise(public) if public else None)),
              (_caller, _caller.set(caller)), (_game, _game.set(None))]
    tokens.append((_speaking, _speaking.set(public_locale())))
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


def user_locale() -> str:
    return _user.get() or _fallback[0]


def current() -> str:
    """The locale ``_`` translates into now."""
    return _speaking.get() or user_locale()


def public_locale() -> str:
    return _public.get() or user_locale()


def caller() -> str | None:
    return _caller.get()


@contextlib.contextmanager
def speaking(locale: object):
    """Translate into ``locale`` inside the block (a notice for a server, a direct message for a user)."""
    token = _speaking.set(normalise(locale))
    try:
        yield
    finally:
        _speaking.reset(token)


def public():
    """Inside the block, speak the channel's language: for messages the whole channel reads."""
    return speaking(public_locale())


GAME_DOMAINS = ("wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm")
_game: ContextVar[str | None] = ContextVar("teahouse_game", default=None)


@contextlib.contextmanager
def playing(game: str | None):
    """Inside the block, words are a game's first: its own catalog before the shared ones, and no other
    game's ("Score" may be "Punti" in one game and "Punteggio" in another)."""
    token = _game.set(game if game in GAME_DOMAINS else None)
    try:
        yield
    finally:
        _game.reset(token)


def set_game(game: str | None) -> None:
    """Speak ``game``'s words for the rest of the current interaction (``interaction`` undoes it)."""
    _game.set(game if game in GAME_DOMAINS else None)


def catalog(locale: str) -> gettext.NullTranslations:
    """The translations of ``locale`` chained into one (a msgid is looked up in each in turn): the game
    being played first (``playing``), then the shared domains."""
    return _catalog(locale, _game.get())


@functools.cache
def _catalog(locale: str, game: str | None) -> gettext.NullTranslations:
    chain: gettext.NullTranslations = gettext.NullTranslations()
    if locale == DEFAULT:
        return chain
    if game:
        domains = (game,) + tuple(d for d in DOMAINS if d not in GAME_DOMAINS)
    else:
        domains = DOMAINS
    first = None
    for domain in domains:
        try:
            t = gettext.translation(domain, localedir=ROOT, languages=[locale])
        except OSError:
            continue
        if first is None:
            first = t
        else:
            first.add_fallback(t)
    return first or chain


catalog.cache_clear = _catalog.cache_clear   # type: ignore[attr-defined]


class Msg(str):
    """A translated sentence that remembers how it was made, so it can be made again in another language:
    text for one user, made while speaking to the channel, is re-made in that user's language (``to``)."""
    __slots__ = ("how",)

    def __new__(cls, text: str, how: tuple):
        obj = super().__new__(cls, text)
        obj.how = how
        return obj

    def __reduce__(self):            # pickled (to an image worker, say) as the plain text it is
        return (str, (str(self),))

    def to(self, locale: str) -> str:
        kind, args, params = self.how
        with speaking(locale):
            params = {k: v.to(locale) if isinstance(v, Msg) else v for k, v in params.items()}
            if kind == "n":
                return ngettext(*args, **params)
            if kind == "p":
                return pgettext(*args, **params)
            return _(*args, **params)


def for_user(user: str | None, text: str) -> str:
    """``text`` for ``user`` alone: re-made in the caller's own language when it is the caller's."""
    if isinstance(text, Msg) and user is not None and user == _caller.get() and user_locale() != current():
        return text.to(user_locale())
    return text


def _format(text: str, params: dict, locale: str | None = None) -> str:
    return fill(text, params, locale or current()) if params else text


# Italian's euphonic d (issue #38): "a" and "e" become "ad" and "ed" before a word that begins with the same
# vowel ("Tocca ad alice", "bob ed Elena"). A translator writes the fixed words right; a placeholder's value
# (a name, a game word) is known only here, so the one rule for every sentence is applied where it is filled.
_EUPHONIC = {"it": re.compile(r"(?<![\w'’])([aAeE]) (?=\{(\w+)(?:[:!][^{}]*)?\})")}
_LEADING_MARKS = "*_`~|<@!&#[("


def euphonic(template: str, params: dict, locale: str) -> str:
    """``template`` with each "a {x}" ("e {x}") written "ad {x}" ("ed {x}") where ``x``'s value begins with
    the same vowel, in the languages that want it (Italian); others unchanged."""
    pattern = _EUPHONIC.get(locale)
    if pattern is None or not params:
        return template

    def one(m: re.Match) -> str:
        vowel, name = m.group(1), m.group(2)
        value = str(params.get(name, "")).lstrip(_LEADING_MARKS)
        return f"{vowel}d " if value[:1].lower() == vowel.lower() else m.group(0)
    return pattern.sub(one, template)


def fill(template: str, params: dict, locale: str) -> str:
    """``template`` (already in ``locale``) with its ``{placeholders}`` filled from ``params``: the one place
    every sentence is filled, so a language's rules at a placeholder's edge (Italian's ad/ed) hold everywhere."""
    return euphonic(template, params, locale).format(**params)


def _(message: str, /, **params) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    return Msg(_format(catalog(current()).gettext(message), params), ("s", (message,), params))


def ngettext(singular: str, plural: str, n: int, /, **params) -> str:
    """The singular or plural sentence for ``n`` (Italian and English have the same two forms);
    ``{n}`` is filled with ``n``."""
    return Msg(_format(catalog(current()).ngettext(singular, plural, n), {"n": n, **params}),
               ("n", (singular, plural, n), params))


def pgettext(context: str, message: str, /, **params) -> str:
    """A short word whose translation depends on where it stands (a command's name, a button)."""
    return Msg(_format(catalog(current()).pgettext(context, message), params), ("p", (context, message), params))


def N_(message: str) -> str:
    """Mark a sentence for translation without translating it (it is translated where it is shown)."""
    return message


def W_(text: str) -> str:
    """Mark a game word (a colour, an element, a tile) for translation as a word of its own (catalog context
    ``word``), without translating it: ``word`` and ``line`` translate it where it is shown."""
    return text


def translated(message: str, locale: str) -> str | None:
    """The translation of ``message`` into ``locale``, or None when the catalog has none."""
    t = catalog(normalise(locale)).gettext(message)
    return t if t != message or normalise(locale) == DEFAULT else None


def illegal(error) -> str:
    """An engine's IllegalAction in the current language: its template translated, then filled. A
    template's parameters that are words of a game (a colour, an element) are translated too."""
    template = getattr(error, "template", None)
    if not template:
        return str(error)
    if not getattr(error, "params", None):
        return line(template)
    params = {k: word(v) if isinstance(v, str) else v for k, v in getattr(error, "params", {}).items()}
    return _(template, **params)


def word(text: str) -> str:
    """A single game word (``red``, ``fire``, ``heron``) in the current language, when the catalogs have it
    as a word of its own (pgettext context ``word``); otherwise as it is."""
    if current() == DEFAULT:
        return text
    cat = catalog(current())
    out = cat.pgettext("word", text)
    return out


# ----- engine lines: English in the state, translated where they are shown ------------------------------
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _line_patterns(locale: str) -> list[tuple[re.Pattern, str, str]]:
    return _patterns(locale, _game.get())


@functools.cache
def _patterns(locale: str, game: str | None) -> list[tuple[re.Pattern, str, str]]:
    """Each translated msgid with placeholders, as a pattern that matches the English sentences it makes, and
    the longest of the template's words between its placeholders (a sentence without it cannot match: looking
    for it first spares trying most of the hundreds of patterns on each sentence).
    Longer templates first, so ``{a} takes {b} and writes it at {c}`` wins over ``{a} takes {b}``."""
    cat = catalog(locale)
    templates: list[str] = []
    t = cat
    while t is not None:
        templates.extend(k for k in getattr(t, "_catalog", {}) if isinstance(k, str) and "{" in k)
        t = getattr(t, "_fallback", None)
    out = []
    for template in sorted(set(templates), key=lambda s: (-len(_PLACEHOLDER.sub("", s)), s)):
        parts = _PLACEHOLDER.split(template)
        regex, seen = "", set()
        for i, part in enumerate(parts):
            if i % 2 == 0:
                regex += re.escape(part)
            elif part in seen:
                regex += f"(?P={part})"
            else:
                seen.add(part)
                # a value never spans a sentence's end: "A. B to play." is two sentences, not "{seat} to play."
                regex += f"(?P<{part}>(?:(?![.!?]\\s).)+?)"
        out.append((re.compile(regex + r"\Z", re.S), template, max(parts[::2], key=len)))
    return out


def line(text: str) -> str:
    """An English sentence an engine wrote from a marked template (a log line, a hint), in the current
    language: found by matching the templates, then re-filled in translation. Unknown text stays as it is."""
    locale = current()
    if locale == DEFAULT or not text:
        return text
    return _line(locale, text)


def _line(locale: str, text: str) -> str:
    return _line_in(locale, _game.get(), text)


@functools.lru_cache(maxsize=8192)
def _line_in(locale: str, game: str | None, text: str) -> str:
    cat = catalog(locale)
    direct = cat.gettext(text)
    if direct != text:
        return direct
    # several sentences each known on its own ("A reveals. Revealed: A Fire, B Wood. Fire joins the pot; …"):
    # translate each, before any template is tried on the whole text, where a template ending in a placeholder
    # ("{first} joins the pot; the Universe's {universe} destroys {second}.") would swallow the sentences after
    # its own into that placeholder
    sentences = re.split(r"(?<=[.!?])\s+", text)
    if len(sentences) > 1 and all(_known(locale, s) for s in sentences):
        return " ".join(_line(locale, s) for s in sentences)
    for pattern, template, needle in _line_patterns(locale):
        m = needle in text and pattern.match(text)
        # a parameter never spans the end of a sentence: in "A reveals 3. B ends the turn." the template
        # "{seat} reveals {card}." must not take "3. B ends the turn" for its card
        if m and not any(_SENTENCE_END.search(v) for v in m.groupdict().values()):
            params = {k: _value(locale, v) for k, v in m.groupdict().items()}
            return fill(cat.gettext(template), params, locale)
    # several sentences joined ("A. B."): translate each; a sentence no template makes, clause by clause
    # ("A: b; c") — sentences first, so "X. Game over: a wins." still finds "Game over: {winner} wins."
    for boundary in (r"(?<=[.!?])\s+", r"(?<=[:;])\s+", r"(?<=,)\s+"):
        parts = re.split(boundary, text)
        if len(parts) > 1:
            return " ".join(_line(locale, p) for p in parts)
    return text


def _value(locale: str, value: str) -> str:
    """A template's parameter in translation: a game word, a sentence, or a list ("a 3 gems, b 1 gem") whose
    items each translate on their own (when they all do; else the list as one text)."""
    if " " not in value:
        return _word(locale, value)
    if ", " in value:
        items = value.split(", ")
        done = [_line(locale, item) for item in items]
        if all(d != item for d, item in zip(done, items, strict=True) if " " in item):
            return ", ".join(done)
    return _line(locale, value)


def _known(locale: str, sentence: str) -> bool:
    """Whether ``sentence`` translates as a whole: a msgid of its own or a template's match (one word, a
    title or a name, counts as known: it needs no translation)."""
    if " " not in sentence.strip() or catalog(locale).gettext(sentence) != sentence:
        return True
    return any(needle in sentence and pattern.match(sentence) for pattern, _template, needle in _line_patterns(locale))


_SENTENCE_END = re.compile(r"[.!?]\s")


def _word(locale: str, text: str) -> str:
    return catalog(locale).pgettext("word", text)


def lines(texts) -> list[str]:
    return [line(t) for t in texts]


# ----- command names: the console accepts them in its language too ------------------------------------------
@functools.cache
def _english_names(locale: str) -> dict[tuple[str, str], str]:
    """(context, translated name) → English name, for command and option names of ``locale``."""
    out: dict[tuple[str, str], str] = {}
    if locale == DEFAULT:
        return out
    cat = catalog(locale)
    t = cat
    while t is not None:
        for key, value in getattr(t, "_catalog", {}).items():
            if isinstance(key, str) and "\x04" in key:
                context, english = key.split("\x04", 1)
                if context in ("command", "option") and isinstance(value, str):
                    out.setdefault((context, value.lower()), english)
        t = getattr(t, "_fallback", None)
    return out


def english_command(words: list[str], options: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """A command typed with the current language's names (``/partita mossa azione:…``) with the English
    ones the bot's table knows (``/game move action:…``); English names pass unchanged."""
    names = _english_names(user_locale())
    if not names:
        return words, options
    out = list(words)
    for i, w in enumerate(out[:2]):
        bare = w.lstrip("/").lower()
        english = names.get(("command", bare))
        if english:
            out[i] = ("/" if w.startswith("/") else "") + english
    opts = {names.get(("option", k.lower()), k): v for k, v in options.items()}
    return out, opts


_line_patterns.cache_clear = _patterns.cache_clear   # type: ignore[attr-defined]
_line.cache_clear = _line_in.cache_clear             # type: ignore[attr-defined]
