"""Issue #17, the Italian rules guides (data/rules/<key>.it.md): one per game, the same shape and facts as the
English guide, the same commands and action texts (the bot accepts them only in their canonical English form),
and for Wagara the words of the Italian rulebook (seeds/001) with the rulings of RULES.md §2."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from engine import GAMES

RULES = Path(__file__).resolve().parent.parent / "data" / "rules"
KEYS = sorted(k for k in GAMES if k != "pebbles")     # not the tests' own little game


def read(key: str, lang: str = "") -> str:
    return (RULES / f"{key}{'.' + lang if lang else ''}.md").read_text(encoding="utf-8")


def paragraphs(text: str) -> list[str]:
    return [p for p in text.strip().split("\n\n") if p.strip()]


def flat(text: str) -> str:
    return " ".join(text.split())


def prose(text: str) -> str:
    """The text a reader reads as Italian: code spans (commands, actions) taken out."""
    return re.sub(r"`[^`]*`", " ", text)


def test_every_game_has_an_italian_guide():
    assert set(KEYS) == {"wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm"}
    for key in KEYS:
        assert (RULES / f"{key}.md").exists()
        assert len(read(key, "it").strip()) > 500, key


@pytest.mark.parametrize("key", KEYS)
def test_same_sections_bullets_and_emphasis_as_the_english(key):
    # A section is a paragraph; its head is the bold lead-in (`**The end**:`), so heads line up one to one.
    en, it = paragraphs(read(key)), paragraphs(read(key, "it"))
    assert len(it) == len(en)
    for e, i in zip(en, it, strict=True):
        assert e.startswith("**") == i.startswith("**"), i[:60]
        assert len(re.findall(r"^- ", e, re.M)) == len(re.findall(r"^- ", i, re.M)), i[:60]
        assert len(re.findall(r"\*\*[^*]+\*\*", e)) == len(re.findall(r"\*\*[^*]+\*\*", i)), i[:60]
        italic = r"(?<!\*)\*[^*]+\*(?!\*)"
        assert len(re.findall(italic, e)) == len(re.findall(italic, i)), i[:60]


@pytest.mark.parametrize("key", KEYS)
def test_every_command_and_action_example_is_kept_verbatim(key):
    # Actions are typed in their canonical form, so no code span of the English guide is translated; the
    # Italian guide may add code spans of its own (glosses of action words such as `land`).
    en = re.findall(r"`[^`]+`", read(key))
    it = re.findall(r"`[^`]+`", read(key, "it"))
    assert en and not Counter(en) - Counter(it)


@pytest.mark.parametrize("key", KEYS)
def test_every_number_of_each_section_is_kept(key):
    # The facts of a guide are mostly its numbers (costs, limits, scores, spaces): each English section's
    # numbers reappear in the matching Italian one (ordinals such as 2º count; more may be added in glosses).
    def numbers(text):
        return Counter(re.findall(r"\d+", prose(text)))
    for e, i in zip(paragraphs(read(key)), paragraphs(read(key, "it")), strict=True):
        assert not numbers(e) - numbers(i), (i[:60], numbers(e) - numbers(i))


@pytest.mark.parametrize("key", KEYS)
def test_the_prose_is_italian(key):
    # No English sentence left behind: common English words never occur outside code spans.
    words = set(re.findall(r"[a-zà-ù']+", prose(read(key, "it")).lower()))
    assert not words & {"the", "and", "your", "you", "of", "with", "each", "only", "when", "then", "player",
                        "players", "card", "cards", "turn", "press", "type", "or"}


@pytest.mark.parametrize("key", KEYS)
def test_italian_guides_fit_in_pages_of_2000(key):
    from table.replies import pages
    text = read(key, "it")
    parts = pages(text)
    assert all(0 < len(p) <= 2000 for p in parts)
    assert "\n\n".join(parts) == text.strip()


def test_the_seikatsu_guide_fits_one_message_in_italian_too():
    assert len(read("seikatsu", "it")) <= 2000


# ----- Wagara: the rulebook is Italian ----------------------------------------------------------------------

# The rulebook's own words (seeds/001_8a53c8a8d53bfa99.txt, each verbatim there) for the things the guide names:
# the paddle cards, the river's discs from the rope to the falls, deposits, the beach, the buoy, the Cloud...
WAGARA_TERMS = ["carte pagaia", "carta pagaia", "canoa", "canoe", "gemme", "giacimento", "giacimenti", "dischi",
                "corda", "cascata", "spiaggia", "rapide", "salvagente", "nuvola", "indicatore", "casella",
                "modificatore meteo", "punti pagaia", "caricare", "scaricare", "rubare", "di passaggio", "a monte",
                "valle", "in un'unica direzione", "scendere in acqua", "si annullano", "colori diversi",
                "dello stesso colore"]
SEED = Path("/work/shared/seeds/001_8a53c8a8d53bfa99.txt")         # outside the repository


def test_wagara_guide_uses_the_rulebooks_terms():
    text = flat(read("wagara", "it")).lower()
    assert [t for t in WAGARA_TERMS if t not in text] == []
    # and not the words a translation from English would pick instead of the rulebook's
    assert not {"deposito", "depositi", "boa", "posizione", "posizioni", "salvataggio"} & set(re.findall(r"\w+", text))


def test_wagara_terms_are_verbatim_in_the_rulebook():
    if not SEED.exists():
        pytest.skip("the rulebook is not on this machine")
    seed = flat(SEED.read_text(encoding="utf-8").replace("*", "")).lower()
    assert [t for t in WAGARA_TERMS if t not in seed] == []


def test_wagara_italian_guide_keeps_the_rulings_G1_G4_G7_G9_G10():
    text = flat(read("wagara", "it"))
    assert "dischi 3 viola, 4 bianco, 5 giallo, 6 blu, 7 rosso" in text                               # G1
    assert "valore delle gemme da 1 a 5" in text
    assert "una canoa non può pagaiare oltre il 9" in text and "i punti rimanenti si annullano" in text  # G4
    assert "dopo aver scaricato puoi caricare solo un colore diverso" in text                          # G4 reload
    assert "*si ferma esattamente* su una canoa avversaria" in text and "mai di passaggio" in text      # G4 steal
    assert "all'inizio della tua azione (con qualunque carta) puoi riportare in spiaggia una canoa" in text
    assert "una torna gratis" in text                                                                   # G4 rapids
    assert "non può essere caricata dall'altra tua canoa nello stesso turno" in text                    # G9
    assert "una canoa vuota approda solo con il suo ultimo punto" in text                               # G10
    assert "Può vincere solo chi ha raggiunto uno di questi traguardi: vince chi ha più gemme, poi il valore " \
           "delle gemme più alto; altrimenti la vittoria è condivisa" in text                            # G7
    assert "perde comunque" in text
