"""Italian in one register (issue #38): *tu* to one person, *voi* to the table; and the euphonic *ad*/*ed*.

Which lines are private. Every Italian line — the catalogs' sentences (replies, buttons, command help, the
words on the images), the guides (``data/rules/*.it.md``) and the learn texts (``data/learn/*.json``) — is
taken to speak to one person: a reply to the one who asked, a guide or a tip to its one reader, a turn line to
the player to act. The exceptions are named here, not guessed: the public lines in ``TO_THE_TABLE`` that
speak to several players at once (a round where everyone chooses, a rematch the whole table is asked to
join), and the plural form of a sentence that has one (``ngettext``'s ``msgstr[1]``, chosen when several
people are addressed, as in "🔒 alice, bob: scegliete in privato"). In a private line a second-person plural —
a verb ending in -ate/-ete/-ite (with or without a pronoun after it: *finitela*, *unitevi*), *voi*, *vostro* —
fails the test. ``NOT_VERBS`` holds the words of those endings that are no verbs here (past participles and
nouns: *partite*, *giocate*); a new word of that shape must be looked at and either put there or rewritten.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from babel.messages.pofile import read_po

import i18n
import tests.tinygame  # noqa: F401  (Pebbles, the little test game)

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "i18n" / "it" / "LC_MESSAGES"

# public lines that speak to several players at once (their msgids): voi is right there
TO_THE_TABLE = {
    "{name} asks for a rematch of {title}. Join them!",                        # Unitevi!
    "🏖 {name} is away until {back}; their clock is paused and nobody reminds them.",   # Aspettatelo pure.
    "Round {round}: choose your paddle cards.",                               # everyone chooses at once
    "Round {round} · choose your paddle cards ({done}/{total} chosen)",
    "Hand {n} · {lead} and {partner}: press Reveal",                           # two players, both press
    # the lobby, to the channel: Unitevi con `/partita unisciti`
    "{head}\n**{title}** — table open in this channel. {players}\nSeated:\n{seats}\nOptions: {options}\n"
    "Join with `/game join`; {host} starts with `/game start`.",
    # a league's sign-up and its start, to the channel (#35): Iscrivetevi, vedete
    "Join with the button or `/league join`; the organiser starts it with `/league start`.",
    "{name} started league #{id}. Round 1 is paired: see the message below, or `/league pairings`.",
}
# words ending like a plural verb that are no verbs in these texts (participles, nouns, adjectives)
NOT_VERBS = {
    "partite", "giocate", "finite", "abbinate", "abbandonate", "valutate", "limite", "uscite", "rivelate", "pescate",
    "consentite", "suggerite", "giudicate", "salvate", "rifiutate", "iniziate", "simulate", "state", "mie_partite",
    "site",
}
PLURAL = re.compile(r"\b(\w+(?:ate|ete|ite)(?:la|lo|li|le|ne|vi|ci|gli|mi|ti)?|voi|vostr[oaie])\b", re.I)
CODE = re.compile(r"`[^`]*`|\{[^{}]*\}|\*\*[a-z_ ]+\*\*")


def plural_words(text: str, english: str = "") -> list[str]:
    """The second-person plural forms in an Italian ``text`` (code, placeholders and words the English source
    has too, such as an option's name, left out)."""
    bare = CODE.sub(" ", text)
    kept = set(re.findall(r"\w+", english.lower()))
    return [w for w in PLURAL.findall(bare) if w.lower() not in NOT_VERBS and w.lower() not in kept]


def private_lines() -> list[tuple[str, str, str]]:
    """(where, English, Italian) of every line that speaks to one person (see the module's docstring)."""
    out = []
    for po in sorted(CATALOGS.glob("*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale="it")
        for m in catalog:
            if not m.id:
                continue
            english = m.id[0] if isinstance(m.id, tuple) else m.id
            if english in TO_THE_TABLE:
                continue
            italian = m.string[0] if isinstance(m.string, tuple) else m.string   # the singular form only
            out.append((po.stem, english, italian or ""))
    for guide in sorted((ROOT / "data" / "rules").glob("*.it.md")):
        english = (guide.parent / guide.name.replace(".it.md", ".md")).read_text()
        out.append((guide.name, english, guide.read_text()))
    for learn in sorted((ROOT / "data" / "learn").glob("*.json")):
        for key, texts in json.loads(learn.read_text()).items():
            out.append((f"{learn.name}:{key}", texts["en"], texts["it"]))
    return out


def test_private_lines_say_tu_never_voi():
    lines = private_lines()
    assert len(lines) > 1000          # the catalogs, the five guides and the learn texts were all read
    wrong = [(where, english[:80], words) for where, english, italian in lines
             if (words := plural_words(italian, english))]
    assert not wrong, "a plural 'you' in a line to one person:\n" + "\n".join(map(str, wrong))


def test_the_register_test_finds_a_plural():
    assert plural_words("Scegliete in privato (`/partita azioni` elenca le vostre scelte)") == \
        ["Scegliete", "vostre"]
    assert plural_words("Finitela, oppure usate un altro canale.") == ["Finitela", "usate"]
    assert plural_words("Scegli in privato: le tue partite giocate.") == []


def test_the_public_plurals_are_real_lines():
    """Each exception names a sentence the catalogs have, so a changed source cannot leave a stale one."""
    ids = set()
    for po in CATALOGS.glob("*.po"):
        with po.open("rb") as f:
            ids |= {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f, locale="it") if m.id}
    assert TO_THE_TABLE <= ids, TO_THE_TABLE - ids


# ----- ad / ed ---------------------------------------------------------------------------------------------
def test_ad_and_ed_before_the_same_vowel_in_one_place():
    with i18n.speaking("it"):
        assert i18n.fill("Tocca a {seat}.", {"seat": "alice"}, "it") == "Tocca ad alice."
        assert i18n.fill("Tocca a {seat}.", {"seat": "bob"}, "it") == "Tocca a bob."
        assert i18n.fill("{a} e {b}", {"a": "bob", "b": "Elena"}, "it") == "bob ed Elena"
        assert i18n.fill("{a} e {b}", {"a": "bob", "b": "alice"}, "it") == "bob e alice"     # a, not e: no d
        assert i18n.fill("A {x} e {y}", {"x": "**Anna**", "y": "eva"}, "it") == "Ad **Anna** ed eva"
        assert i18n.fill("la casa {x}", {"x": "alta"}, "it") == "la casa alta"     # "a" inside a word: untouched
    assert i18n.fill("to {x} and {y}", {"x": "alice", "y": "eve"}, "en") == "to alice and eve"


async def test_the_turn_line_says_tocca_ad_alice(pebbles_round_in_italian):
    """Through the whole path: an engine's English line, translated by its template, filled by the helper."""
    text = pebbles_round_in_italian
    assert "Tocca ad alice." in text and "Tocca a alice." not in text
    assert "🔒 alice, bob: scegliete in privato" in text        # two players: voi
