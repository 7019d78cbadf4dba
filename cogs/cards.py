"""Discord's cards (issue #48): a ``table.cards.Card`` as a Components V2 message.

Every message the bot sends is one container with the game's accent colour (or the neutral one), its parts in
order: text displays (markdown, mentions, ``<t:…:R>`` instants), the picture in a media gallery
(``attachment://<file>``, with its alt text; a file to download, such as an exported log, as a file component),
a separator, and the buttons and selects in action rows. The
message carries the ``IS_COMPONENTS_V2`` flag (discord.py sets it for a ``LayoutView``) and no content or embeds.

Discord's limits hold by construction: the texts are fitted to 4,000 characters (``table.cards.fitted``), and
the controls are laid out by ``cogs.ui`` within 40 components with the parts (at most 27 controls beside 5
parts: a turn's). ``measure`` counts both as Discord does, for the tests.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from i18n import ngettext
from table.cards import CONTROLS, DIVIDER, MAX_COMPONENTS, MAX_TEXT, PICTURE, TEXT, Card, private_card, public_card
from table.cards import text_card as words_card
from table.replies import Private, Reply, with_times


def timed(text):
    """A text with the service's marked instants (table.replies.when) as Discord's timestamps, which each
    reader sees in their own time zone and language: ``<t:UNIX:R>`` "in 3 hours", ``<t:UNIX:f>`` a date."""
    return with_times(text, lambda unix, style: f"<t:{unix}:{style}>")


def mention_line(reply: Reply) -> str:
    """The words that call whoever must act (``<@1> — your move.``), for the card's turn text (in the channel's
    language). Discord pings exactly these, through the message's ``allowed_mentions`` (``mentions``)."""
    pings = [f"<@{m}>" for m in reply.mention if m.isdigit()]
    if not pings:
        return ""
    return ngettext("{mentions} — your move.", "{mentions} — your choices.", len(pings), mentions=" ".join(pings))


def file_of(picture) -> discord.File | None:
    if picture is None:
        return None
    return discord.File(io.BytesIO(picture.data), filename=picture.filename,
                        description=getattr(picture, "alt", "") or None)       # alt text (#16)


SHOWN = (".png", ".gif", ".jpg", ".jpeg", ".webp")      # what a media gallery shows; any other file is a file


@dataclass
class Message:
    """A card ready to send: its layout (``view``) and the files its media gallery shows."""
    view: discord.ui.LayoutView
    files: list[discord.File] = field(default_factory=list)

    def send(self, **kwargs) -> dict:
        """Keyword arguments for ``send_message``, a follow-up or ``channel.send``: no content beside the card."""
        out = {"view": self.view, **kwargs}
        if self.files:
            out["files"] = self.files
        return out

    def edit(self, **kwargs) -> dict:
        """Keyword arguments for an edit: the card replaces whatever the message held (a message sent before
        #48 loses its content, which Discord requires when the flag is set, and its old picture)."""
        return {"content": None, "view": self.view, "attachments": self.files, **kwargs}


def layout(card: Card, controls: Sequence[discord.ui.ActionRow] = ()) -> Message:
    """The card as one container: each part as its component, ``controls`` where the card keeps their place
    (a card with none leaves out the separator before them)."""
    container = discord.ui.Container(accent_colour=card.accent)
    files: list[discord.File] = []
    for part in card.parts:
        if part.kind == TEXT and part.text:
            container.add_item(discord.ui.TextDisplay(timed(part.text)))
        elif part.kind == PICTURE and part.picture is not None and part.picture.data is not None:
            file = file_of(part.picture)
            files.append(file)
            if file.filename.lower().endswith(SHOWN):
                container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
                    f"attachment://{file.filename}", description=part.picture.alt or None)))
            else:             # a file to download (an exported log): a file component, not a picture
                container.add_item(discord.ui.File(f"attachment://{file.filename}"))
        elif part.kind == DIVIDER and controls:
            container.add_item(discord.ui.Separator())
        elif part.kind == CONTROLS:
            for row in controls:
                container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return Message(view, files)


def public(reply: Reply, controls: Sequence[discord.ui.ActionRow] = (), game: str | None = None,
           mention: bool = True) -> Message:
    """A reply's message for the channel: what happened, the picture, whose turn with the mentions of whoever
    must act (``mention``: False for an edit, which pings nobody), and the controls."""
    return layout(public_card(reply, game, mention_line(reply) if mention else "", bool(controls)), controls)


def private(part: Private, controls: Sequence[discord.ui.ActionRow] = (), game: str | None = None) -> Message:
    """A private part (ephemeral), with its controls."""
    return layout(private_card(part, game, bool(controls)), controls)


def words(text: str, game: str | None = None, controls: Sequence[discord.ui.ActionRow] = ()) -> Message:
    """Words alone as a card: a listing, a setting, an error line."""
    return layout(words_card(text, game, bool(controls)), controls)


def measure(view: discord.ui.LayoutView) -> tuple[int, int]:
    """(components, characters) of a message as Discord counts them: every component, the nested ones too
    (a container, each text, a gallery, a separator, a row and each button or select in it), and the text
    displays' characters together."""
    return len(list(view.walk_children())), view.content_length()


LIMITS = (MAX_COMPONENTS, MAX_TEXT)
