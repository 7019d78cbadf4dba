"""A message as a card (issue #48): one container of parts in order, with an accent colour, for any front end.

Discord lays each part out as a Components V2 component (``cogs/cards.py``: a text display, a media gallery with
the picture and its alt text, a separator, action rows), the console prints the same parts as text in the same
order (``console/table.py``). The card says where the controls go (``CONTROLS``); each front end puts its own
there (buttons and selects, or the lines to type).

A reply's text may hold ``PART`` between what happened (the moves, the table's state) and what comes next (whose
turn with the clocks, or the result): the first goes above the picture, the second below it, beside the
mentions of whoever must act.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import GAMES

from .replies import Picture, Private, Reply

# Where a reply's text turns from what happened to what comes next. Like the time marks (replies.TIME_MARK), a
# form no front end shows as it is; a text without one is a single part.
PART = "\n\u27e6part\u27e7\n"

MAX_TEXT = 4000        # characters of text in one message, all its text displays together (Discord's limit)
MAX_COMPONENTS = 40    # components in one message, every nested one counted (Discord's limit)

# The accent of a game's cards, taken from its board pictures (render/): the colour a player sees most of it.
ACCENTS = {
    "wassamasaw": 0xC48C28,    # the earth dice's ochre (render/colours.py ELEMENT_COLOURS["earth"])
    "wagara": 0x5F96C3,        # the river (render/wagara.py WATER_DARK)
    "mywuxing": 0x2C3A68,      # the Universe deck's back (render/mywuxing.py BACK)
    "seikatsu": 0xF06E1E,      # the koi in the garden's pond (render/seikatsu.py KOI_FISH)
    "wurrm": 0x7846AA,         # the Sleep spaces (render/wurrm.py SLEEP)
}
NEUTRAL = 0x787064             # a message about no game: the pictures' muted ink (render/colours.py MUTED)

TEXT, PICTURE, DIVIDER, CONTROLS = "text", "picture", "divider", "controls"


@dataclass(frozen=True)
class Part:
    """One part of a card: a ``TEXT`` (markdown, mentions), a ``PICTURE`` (with its alt text), a ``DIVIDER``, or
    the place of the ``CONTROLS``."""
    kind: str
    text: str = ""
    picture: Picture | None = None


@dataclass
class Card:
    accent: int
    parts: list[Part] = field(default_factory=list)

    def texts(self) -> list[str]:
        return [p.text for p in self.parts if p.kind == TEXT]

    def pictures(self) -> list[Picture]:
        return [p.picture for p in self.parts if p.kind == PICTURE]

    @property
    def characters(self) -> int:
        return sum(len(t) for t in self.texts())


def accent(game: str | None) -> int:
    """A game's accent colour (0xRRGGBB); the neutral one for no game, or a game without its own."""
    return ACCENTS.get(game or "", NEUTRAL)


def game_of(reply: Reply) -> str | None:
    """The game a reply is about, when it says so itself: its turn, or one of its pictures drawn by the game's
    renderer (an analysis's graph is not). None otherwise: the front end may know it from the game's row."""
    if reply.turn is not None:
        return reply.turn.game
    for picture in reply.pictures():
        if picture.job and picture.job[0] in GAMES:
            return picture.job[0]
    return None


def split(text: str | None) -> tuple[str, str]:
    """(what happened, what comes next) of a reply's text: the two sides of its ``PART``; without one, all of it
    is what happened."""
    body, _sep, tail = (text or "").partition(PART)
    return body.strip("\n"), tail.strip("\n")


def sections(text: str | None) -> list[str]:
    """Every part of a text (a text display each), those between its ``PART`` marks, the empty ones left out."""
    return [t for t in (piece.strip("\n") for piece in (text or "").split(PART)) if t]


def public_card(reply: Reply, game: str | None = None, mention: str = "", controls: bool = False,
                limit: int | None = MAX_TEXT) -> Card:
    """The channel's message of a reply: what happened, the picture, whose turn with ``mention`` (the front end's
    words that call whoever must act, such as Discord's ``<@1> — your move.``) or the result, then the
    controls. ``limit``: the characters its texts may hold together (None: all of them, for a terminal)."""
    body, tail = split(reply.text)
    parts = [Part(TEXT, body)] if body else []
    if reply.image is not None:
        parts.append(Part(PICTURE, picture=reply.image))
    after = "\n".join(t for t in (tail, mention) if t)
    if after:
        parts.append(Part(TEXT, after))
    return _card(game or game_of(reply), parts, controls, limit)


def private_card(part: Private, game: str | None = None, controls: bool = False,
                 limit: int | None = MAX_TEXT) -> Card:
    """A private part (Discord: ephemeral): its words, its picture, then its controls (a picker, a review's
    steps, a confirmation)."""
    parts = [Part(TEXT, t) for t in sections(part.text)]
    if part.image is not None:
        parts.append(Part(PICTURE, picture=part.image))
    return _card(game, parts, controls, limit)


def text_card(text: str, game: str | None = None, controls: bool = False) -> Card:
    """A card of words alone: a listing, a setting, an error line."""
    return _card(game, [Part(TEXT, t) for t in sections(text)], controls)


def _card(game: str | None, parts: list[Part], controls: bool, limit: int | None = MAX_TEXT) -> Card:
    if controls:
        parts = parts + [Part(DIVIDER), Part(CONTROLS)]
    return Card(accent(game), parts if limit is None else fitted(parts, limit))


def fitted(parts: list[Part], limit: int = MAX_TEXT) -> list[Part]:
    """``parts`` with their texts within ``limit`` characters together: the longest text is cut (ending in
    "…") until they fit, so whose turn and the mentions, short, stay whole beside a long log."""
    parts = list(parts)
    while (over := sum(len(p.text) for p in parts if p.kind == TEXT) - limit) > 0:
        i = max((k for k, p in enumerate(parts) if p.kind == TEXT), key=lambda k: len(parts[k].text))
        text = parts[i].text
        keep = max(len(text) - over - 1, 0)
        parts[i] = Part(TEXT, text[:keep] + "…") if keep else Part(TEXT, "…")
        if keep == 0 and len(text) <= 1:
            break
    return parts
