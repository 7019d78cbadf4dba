"""MyWuXing in Italian (#17): the engine's refusals, log lines, waiting messages and summaries translate at the
edge (i18n.illegal, i18n.line) from the marked English templates, the image is drawn in Italian and stays
readable on a phone, and the command suggestions read in Italian while sending the canonical action."""

import random
import re

import pytest

import i18n
from engine import GAMES
from engine.core import IllegalAction
from render import RENDERERS, render_png
from render.common import record_text
from tests.test_mywuxing_render import states_of
from tools.i18n_catalogs import extract

G = GAMES["mywuxing"]
SEATS = [f"{100000000000000000 + 7 * i}" for i in range(8)]          # seats look like Discord ids

# English words of the engine's sentences: none may be left in an Italian line (names are digits here).
ENGLISH = re.compile(r"\b(the|an|plays|reveals|chooses|chosen|passes|answers|activates|Revealed|Everyone|react|"
                     r"joins|pot|Universe|Universe's|absorbs|destroys|draw|both|wins|win|goes|go|Void|Next|hand|"
                     r"leads|turns|Game|over|Out|cards|card|Wood|Fire|Earth|Metal|Water|Dragon|Dragons|Star|"
                     r"Stars|cancelled|You|waiting|between|choosing|whom|turn|Universe)\b")
ONLY_NAMES = re.compile(r"[\d\s,.:;!?()]*")

VERSIONS = {
    "learn": {"version": "learn"},
    "think": {"version": "think", "power_cards": "off"},
    "think-power": {"version": "think", "power_cards": "on"},
}


def italian(text: str) -> str:
    with i18n.speaking("it"):
        return i18n.line(text)


def assert_italian(english: str, where: str) -> None:
    """``english`` (an engine text) is wholly translated: changed, with no English word left."""
    if ONLY_NAMES.fullmatch(english):
        return
    it = italian(english)
    assert it != english, f"{where}: untranslated: {english!r}"
    left = ENGLISH.findall(it)
    assert not left, f"{where}: English {left} left in {it!r} (from {english!r})"


# ----- refusals ----------------------------------------------------------------------------------------------
def refusal(state, seat, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        G.apply(state, seat, action)
    return caught.value


def in_phase(options, phase, n=3, seed=0):
    """The first state of a seeded random game in ``phase``."""
    rnd = random.Random(seed)
    state = G.new(SEATS[:n], seed, options)
    while state["phase"] != phase:
        assert G.result(state) is None, f"no {phase} phase reached"
        seat = rnd.choice(G.to_act(state))
        actions = G.legal_actions(state, seat)
        eager = [a for a in actions if a != "pass"] or actions
        state = G.apply(state, seat, rnd.choice(eager))
    return state


def typical_refusals() -> list[IllegalAction]:
    out = []
    learn = G.new(SEATS[:3], 1, {"version": "learn"})
    seat = G.to_act(learn)[0]
    out.append(refusal(learn, seat, "play fire"))                            # Learn: only reveal
    idle = next(s for s in learn["seats"] if s not in G.to_act(learn))
    out.append(refusal(learn, idle, "reveal"))                               # not your turn (waiting message)
    target = in_phase({"version": "think", "think_option": 3}, "target")
    out.append(refusal(target, target["lead"], "play fire"))                 # the target first
    choose = in_phase({"version": "think"}, "choose")
    out.append(refusal(choose, G.to_act(choose)[0], "play nothing"))          # a card: '{verb} <card>'
    react = in_phase({"version": "think", "power_cards": "on"}, "react", n=4)
    out.append(refusal(react, G.to_act(react)[0], "counter with star"))
    counter = in_phase({"version": "think", "power_cards": "on"}, "counter", n=4)
    out.append(refusal(counter, G.to_act(counter)[0], "activate star"))
    with pytest.raises(IllegalAction) as caught:
        G.new(SEATS[:2], 1, {"version": "learn", "power_cards": "on"})
    out.append(caught.value)
    return out


def test_typical_refusals_translate():
    errors = typical_refusals()
    assert len(errors) == 7
    for error in errors:
        with i18n.speaking("it"):
            text = i18n.illegal(error)
        assert text != str(error), f"untranslated refusal: {error}"
        assert not ENGLISH.findall(text.replace("'counter with star'", "")), text
    with i18n.speaking("it"):
        assert i18n.illegal(errors[3]).startswith("Scegli una carta dalla tua mano: '")
        assert i18n.illegal(errors[0]) == "In Learn WuXing premi soltanto 'reveal' (Rivela)."
    assert str(errors[0]) == "In Learn WuXing you only press 'reveal'."       # English unchanged


def test_lone_dragon_refusal_translates():
    """The lone-Dragon refusal (M12) comes from its own template."""
    error = IllegalAction("Nobody else can still add a second Dragon, and one Dragon alone does not cancel "
                          "the Star: answer 'pass' (or 'counter with 2 dragons' if you hold two, or "
                          "'counter with star').")
    with i18n.speaking("it"):
        assert i18n.illegal(error).startswith("Nessun altro può ancora aggiungere un secondo Drago")


# ----- every template, alone ---------------------------------------------------------------------------------
CARDISH = {"card", "universe", "first_card", "second_card", "other_card", "lost"}
NUMBERS = {"n", "pot", "void"}


def engine_templates() -> list[str]:
    return [m.id for m in extract("mywuxing") if isinstance(m.id, str) and not m.context and "{" in m.id
            and any(loc.startswith("engine/") for loc, _line in m.locations)]


def test_every_engine_template_translates_on_its_own():
    """Each marked sentence, filled with sample values, is found by i18n.line as itself (no other template
    catches it first) and comes out as its Italian with the card names translated."""
    templates = engine_templates()
    assert len(templates) >= 40
    for template in templates:
        names = set(re.findall(r"\{(\w+)\}", template))
        values = {k: "Fire" if k in CARDISH else "3" if k in NUMBERS else f"2{k.__len__()}2" for k in names}
        english = template.format(**values)
        with i18n.speaking("it"):
            expected = i18n._(template, **{k: i18n.word(v) for k, v in values.items()})
            assert i18n.line(english) == expected, template
        assert not ENGLISH.findall(expected), expected


def test_sample_lines():
    assert italian("101 chooses. Revealed: 101 Fire, 102 Water. The Universe's Wood destroys Fire; Water joins "
                   "the pot. Next hand: 102 leads; the Universe turns up Star.") == (
        "101 sceglie. Carte rivelate: 101 Fuoco, 102 Acqua. Legno dell'Universo distrugge Fuoco; Acqua va nel "
        "piatto. Prossima mano: di mano 102; l'Universo scopre Stella.")
    assert italian("103's Star is cancelled by two Dragons (101 and 102): the Star and the played cards join the "
                   "pot, the Dragons go to the Void.") == (
        "La Stella di 103 è annullata da due Draghi (101 e 102): la Stella e le carte giocate vanno nel piatto, "
        "i Draghi nel Vuoto.")
    assert italian("5 cards") == "5 carte" and italian("0 cards (out)") == "0 carte (fuori)"


# ----- whole games -------------------------------------------------------------------------------------------
def engine_sentences_of_summary(text: str) -> list[str]:
    """The sentences of a summary the engine wrote (the last hand, the counts), not the shared ones of
    engine.core.summary_text (title, scores, who is to play), which the table's catalog translates."""
    sentences = re.split(r"(?<=[.!?])\s+", text)[1:]
    return [s for s in sentences if not s.startswith(("Scores:", "Game over"))
            and not s.endswith((" to play.", " to choose."))]


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_seeded_games_every_text_translates(version):
    """20 seeded random games through the protocol: every log line, waiting message and the engine's
    sentences of every summary come out wholly Italian."""
    seen = 0
    for seed in range(20):
        rnd = random.Random(seed)
        options = dict(VERSIONS[version], think_option=1 + seed % 3) if version != "learn" else VERSIONS[version]
        if seed % 4 == 3:
            options = dict(options, end="recycle")
        seats = SEATS[:2 + seed % 7]
        state = G.new(seats, seed, options)
        while G.result(state) is None:
            for seat in seats:
                assert_italian(G.waiting_message(state, seat), f"{version} seed {seed} waiting")
            for sentence in engine_sentences_of_summary(G.summary(G.view(state, None))):
                assert_italian(sentence, f"{version} seed {seed} summary")
            seat = rnd.choice(G.to_act(state))
            action = rnd.choice(G.legal_actions(state, seat))
            after = G.apply(state, seat, action)
            assert_italian(G.describe(state, seat, action, after), f"{version} seed {seed} log")
            seen += 1
            state = after
    assert seen > 500


def test_counter_windows_translate():
    """Bold reactions (activate and counter whenever allowed) reach every counter sentence."""
    kinds = set()
    for seed in range(60):
        rnd = random.Random(seed)
        state = G.new(SEATS[:4 + seed % 5], seed, {"version": "think", "power_cards": "on"})
        while G.result(state) is None:
            seat = rnd.choice(G.to_act(state))
            actions = G.legal_actions(state, seat)
            action = rnd.choice([a for a in actions if a != "pass"] or actions)
            after = G.apply(state, seat, action)
            assert_italian(G.describe(state, seat, action, after), f"seed {seed}")
            if after["last_hand"] and after["last_hand"]["reaction"]:
                kinds.add(after["last_hand"]["reaction"]["counter"])
            state = after
    assert {None, "star", "dragons"} <= kinds


# ----- the image ---------------------------------------------------------------------------------------------
def image_states():
    out = []
    for n, options, seed in ((2, {"version": "learn"}, 1), (8, {"version": "think", "power_cards": "on"}, 2),
                             (4, {"version": "think", "think_option": 2, "power_cards": "on"}, 3)):
        states = states_of(n, seed, options, bold=True)
        windows = [s for s in states if s["phase"] in ("react", "counter")][:2]
        out += [states[0], states[len(states) // 2], states[-1]] + windows
    return out


def test_italian_image_is_italian_and_readable_at_phone_width():
    people = ["Ann", "Bartolomeo dal Nome Lunghissimo", "Cy", "Dee", "Éloïse", "Fu", "Gao", "Hana"]
    drawn_all = []
    for state in image_states():
        names = dict(zip(state["seats"], people, strict=False))
        for viewer in (None, state["seats"][0]):
            with i18n.speaking("it"), record_text() as drawn:
                img = RENDERERS["mywuxing"](G.view(state, viewer), names, viewer)
            size = min(drawn)[0]
            assert size * 400 / img.width >= 9, (min(drawn), img.width)
            drawn_all += [text for _size, text in drawn]
    words = " ".join(drawn_all)
    for italian_word in ("Mazzo Universo", "Il Vuoto", "Giocatori", "restano", "Fuoco", "Mano "):
        assert italian_word in words
    for english in ("Universe deck", "The Void", "Players", " left", "Hand ", "Last hand", "Fire"):
        assert english not in words, english
    data = render_png("mywuxing", G.view(image_states()[1], None), names, None, "it")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_english_image_keeps_english():
    state = image_states()[1]
    with record_text() as drawn:
        RENDERERS["mywuxing"](G.view(state, None), {}, None)
    words = " ".join(text for _size, text in drawn)
    assert "Universe deck" in words and "Mazzo" not in words


# ----- the command's suggestions -----------------------------------------------------------------------------
def test_suggestions_read_italian_and_send_the_action():
    from cogs.mywuxing import suggest
    legal = ["universe with Ann", "against Ann", "play fire", "add dragon", "pass", "counter with 2 dragons"]
    with i18n.speaking("it"):
        choices = suggest(legal, "")
        assert [c.value for c in choices] == legal
        assert [c.name for c in choices] == ["Universo con Ann", "contro Ann", "gioca Fuoco", "aggiungi Drago",
                                             "passa", "contrasta con 2 Draghi"]
        assert [c.value for c in suggest(legal, "fuoco")] == ["play fire"]       # typed in Italian
        assert [c.value for c in suggest(legal, "fire")] == ["play fire"]        # or as the action
    assert [c.name for c in suggest(legal, "")] == legal                         # English: the action itself


async def test_turn_buttons_read_italian():
    """The cog gives the turn message's buttons and select options their words (ui.LABELS): Italian for an
    Italian channel, names for seats, the same canonical actions behind them."""
    from cogs import ui
    from cogs.mywuxing import setup
    from table.replies import Turn

    class Bot:
        async def add_cog(self, cog):
            self.cog = cog

    await setup(Bot())
    turn = Turn(1, "mywuxing", 3, ["101"], names={"101": "Ann", "102": "Bo"}, table={})
    with i18n.speaking("it"):
        labels = [item.item.label for item in ui.action_items(turn, ["universe with 102", "against 102"])]
        assert labels == ["Universo con Bo", "contro Bo"]
        assert [item.item.label for item in ui.action_items(turn, ["reveal"])] == ["Rivela"]
        assert [item.item.label for item in ui.action_items(turn, ["pass", "activate star"])] == [
            "passa", "attiva la Stella"]
    assert [item.item.label for item in ui.action_items(turn, ["reveal", "against 102"])] == ["reveal", "against Bo"]
