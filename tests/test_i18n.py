"""The machinery of languages (#17): locale choice, sentences re-made for their reader, engine lines
translated by their templates, the slash-command translator, and the catalogs being whole."""

from __future__ import annotations

import io

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

import i18n
from cogs.runner import CatalogTranslator, translate_command
from engine import IllegalAction
from table import TableService
from table.replies import Private, User, Where
from tests.support import Clock


@pytest.fixture
def catalog_it(tmp_path, monkeypatch):
    """A small Italian catalog of our own, in place of the real ones."""
    cat = Catalog(locale="it", domain="table")
    cat.add("{seat} takes {die} and writes it at {cell}.", "{seat} prende {die} e lo scrive in {cell}.")
    cat.add("{seat} takes {die}.", "{seat} prende {die}.")
    cat.add("{name} joined.", "{name} si è seduto.")
    cat.add("fire", "fuoco", context="word")
    cat.add("The game is over.", "La partita è finita.")
    cat.add("'{word}' is not a colour.", "'{word}' non è un colore.")
    cat.add("red", "rosso", context="word")
    cat.add(("{n} game", "{n} games"), ("{n} partita", "{n} partite"))
    folder = tmp_path / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    buf = io.BytesIO()
    write_mo(buf, cat)
    (folder / "table.mo").write_bytes(buf.getvalue())
    monkeypatch.setattr(i18n, "ROOT", tmp_path)
    for f in (i18n.catalog, i18n._line_patterns, i18n._line, i18n._english_names):
        f.cache_clear()
    yield
    for f in (i18n.catalog, i18n._line_patterns, i18n._line, i18n._english_names):
        f.cache_clear()


def test_discord_locales_become_ours():
    assert i18n.normalise("it") == "it" and i18n.normalise(discord.Locale.italian) == "it"
    assert i18n.normalise("en-US") == "en" and i18n.normalise("fr") == "en" and i18n.normalise(None) == "en"


def test_sentences_plurals_and_words(catalog_it):
    with i18n.speaking("it"):
        assert i18n._("{name} joined.", name="Ada") == "Ada si è seduto."
        assert i18n.ngettext("{n} game", "{n} games", 1) == "1 partita"
        assert i18n.ngettext("{n} game", "{n} games", 3) == "3 partite"
        assert i18n.word("red") == "rosso" and i18n.word("blue") == "blue"
    assert i18n._("{name} joined.", name="Ada") == "Ada joined."        # English by default


def test_an_engine_line_is_translated_by_its_template(catalog_it):
    with i18n.speaking("it"):
        # the longer template wins; a parameter that is a game word is translated
        assert i18n.line("alice takes fire 3 and writes it at r2c4.") == "alice prende fire 3 e lo scrive in r2c4."
        assert i18n.line("alice takes fire.") == "alice prende fuoco."
        assert i18n.line("The game is over. alice takes fire.") == "La partita è finita. alice prende fuoco."
        assert i18n.line("Something nobody translated.") == "Something nobody translated."
    assert i18n.line("alice takes fire.") == "alice takes fire."


def test_an_engine_refusal_is_translated_with_its_words(catalog_it):
    e = IllegalAction("'{word}' is not a colour.", word="red")
    assert str(e) == "'red' is not a colour."
    with i18n.speaking("it"):
        assert i18n.illegal(e) == "'rosso' non è un colore."
        assert i18n.illegal(IllegalAction("The game is over.")) == "La partita è finita."


def test_a_callers_private_text_is_remade_in_their_language(catalog_it):
    # an Italian user in an English server: the channel reads English, the caller's own reply Italian
    with i18n.interaction("it", "en", caller="ada"):
        public = i18n._("{name} joined.", name="Ada")
        mine = Private("ada", i18n._("{name} joined.", name="Ada"))
        theirs = Private("bob", i18n._("{name} joined.", name="Ada"))
    assert public == "Ada joined." and mine.text == "Ada si è seduto." and theirs.text == "Ada joined."


async def test_the_service_remembers_languages_for_notices(tmp_path):
    from store import Store

    store = await Store(tmp_path / "l.db").open()
    try:
        svc = TableService(store, clock=Clock(), render=False)
        await svc.join(Where("c", "g", "it"), User("ada", "Ada", "en"))       # no table: refused, languages kept
        assert await store.locale_of("guild:g") == "it" and await store.locale_of("user:ada") == "en"
        assert await svc.locale_of("guild:g") == "it"
    finally:
        await store.close()


def test_the_console_accepts_italian_command_names(monkeypatch):
    monkeypatch.setattr(i18n, "_fallback", ["it"])
    words, options = i18n.english_command(["/partita", "nuova"], {"gioco": "wagara"})
    assert words == ["/game", "new"] and options == {"game": "wagara"}
    words, options = i18n.english_command(["/game", "join"], {})
    assert words == ["/game", "join"]


async def test_slash_commands_carry_italian_names():
    assert translate_command("game", "it", "command") == "partita"
    assert translate_command("move", "it", "command") == "mossa"
    assert translate_command("action", "it", "option") == "azione"
    assert translate_command("game", "en-US", "command") is None
    translator = CatalogTranslator()
    ctx = discord.app_commands.TranslationContext(
        location=discord.app_commands.TranslationContextLocation.command_name, data=None)
    assert await translator.translate(discord.app_commands.locale_str("game"), discord.Locale.italian, ctx) == "partita"
    assert await translator.translate(discord.app_commands.locale_str("game"), discord.Locale.french, ctx) is None


def test_guides_are_chosen_by_language():
    svc = TableService.__new__(TableService)
    with i18n.speaking("it"):
        italian = svc.rules("wagara")
    english = svc.rules("wagara")
    assert italian != english and "canoa" in italian.lower() and "canoe" in english.lower()


async def test_a_computer_seat_is_named_in_the_readers_language(tmp_path):
    # stored in English (its level is read back from the name), shown translated
    from store import Store

    store = await Store(tmp_path / "b.db").open()
    try:
        svc = TableService(store, clock=Clock(), render=False)
        ada = User("ada", "Ada", "it")
        await svc.open_table(Where("c", "g", "it"), ada, "wagara")
        reply = await svc.add_bot(Where("c", "g", "it"), ada, "hard")
        assert "Computer 1 (difficile)" in reply.text
        english = await svc.status(Where("c", "g", "en"), User("bo", "Bo", "en"))
        assert "Computer 1 (hard)" in (english.text or "") + "".join(p.text for p in english.private)
        row = await store.open_game("c")
        assert [s.name for s in row.seats][1] == "Computer 1 (hard)"
    finally:
        await store.close()


def test_a_list_of_scores_reads_item_by_item():
    # "Scores: a 3 gems, b 1 gem." — each item is a sentence of its own in translation
    with i18n.speaking("it"), i18n.playing("wagara"):
        assert i18n.line("Scores: a 0 gems, b 2 gems, c 1 gem.") == "Punteggi: a 0 gemme, b 2 gemme, c 1 gemma."
