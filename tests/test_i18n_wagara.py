"""Wagara in Italian (#17): every refusal, every line the engine writes into a game (log, waiting message,
results) and every word of the image comes out in Italian, in the rulebook's terms; English stays the source."""

import io
import random
import re

import pytest
from PIL import Image

import i18n
from engine import GAMES, IllegalAction
from engine.wagara import COLOURS
from render import RENDERERS, render_png
from render.common import record_text
from tests.test_render_phone import MIN_PHONE_PX, PHONE_WIDTH, clear_render_caches
from tests.test_wagara import position
from tests.test_wagara_random import PURPOSEFUL
from tests.test_wagara_render import states_of
from tools.i18n_catalogs import extract

G = GAMES["wagara"]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
# Words of the engine's English sentences: none may survive in an Italian line (names are Ann..Ed)
ENGLISH = re.compile(r"\b(canoe|reveals?|chooses|paddles?|paddle|flows|river|ends|turn|Round|gets|pays|moves|goes|"
                     r"falls|passes|buoy|takes|Everyone|Game over|wins|share|lands?|loads|unloads|steals|launches|"
                     r"deposit|position|weather|gems?|value|qualified|violet|white|yellow|blue|red|card|Cloud|the)\b")
ONLY_NAMES_AND_NUMBERS = re.compile(r"^[\sA-Za-z0-9,.:+-]*$")


def wagara_templates() -> set[str]:
    """The msgids of the wagara domain (what the source marks)."""
    return {m.id if isinstance(m.id, str) else m.id[0] for m in extract("wagara") if m.id}


# ----- refusals ----------------------------------------------------------------------------------------------

BAD = ["play 7", "play", "play 1", "play cloud", "dance", "end turn", "weather +2", "weather +1", "weather up",
       "weather -5", "recover canoe x", "recover canoe 1, pay pink", "recover canoe 3, pay red",
       "recover canoe 1, pay red", "recover canoe 2, pay violet", "canoe", "canoe 9999999: up 1", "canoe 3: up 1",
       "canoe 1:", "canoe 1: dance", "canoe 1: up 1, steal red, unload", "canoe 1: land, unload",
       "canoe 1: up 1, down 1", "canoe 1: unload, launch to 2", "canoe 1: launch 2", "canoe 1: up x",
       "canoe 1: steal", "canoe 1: load pink", "canoe 1: steal pink", "canoe 1: launch to 12", "canoe 1: down 12",
       "canoe 1: land", "canoe 1: up 20", "canoe 1: unload, load red, unload", "canoe 1: unload",
       "canoe 1: load red, load blue", "canoe 1: up 1", "canoe 1: down 1", "canoe 2: launch to 1",
       "canoe 1: launch to 3, load violet", "canoe 1: up 2, steal red from Bo", "canoe 1: up 1, steal white",
       "canoe 1: down 1, steal red", "canoe 1: up 1, load red", "canoe 1: up 1, unload, steal red",
       "canoe 1: launch to 3 4"]


def mutations(action: str, rnd: random.Random) -> list[str]:
    """Near misses of a legal action: another number, another colour."""
    out = [re.sub(r"\d+", lambda m: str(int(m.group()) + rnd.choice((-2, -1, 1, 2))), action, count=1)]
    for colour in COLOURS:
        if colour in action:
            out.append(action.replace(colour, rnd.choice(COLOURS)))
    return out


def refusals(seeds=range(3)) -> list[IllegalAction]:
    """The refusals of typical and fuzzed bad actions at every step of seeded games, for the seats acting and
    one waiting."""
    out = []
    for seed in seeds:
        rnd = random.Random(seed)
        seats = NAMES[: 2 + seed % 4]
        state = G.new(seats, seed)
        while G.result(state) is None:
            acting = G.to_act(state)
            for seat in acting + [s for s in seats if s not in acting][:1]:
                tries = list(BAD) + [f"canoe {n}: {rest}" for n in (1, 2) for rest in
                                     ("up 1, steal red", "up 2, steal blue", "load yellow", "load white", "land")]
                for a in G.legal_actions(state, seat)[:30]:
                    tries += mutations(a, rnd)
                for action in rnd.sample(tries, min(len(tries), 12)):
                    try:
                        G.apply(state, seat, action)
                    except IllegalAction as e:
                        out.append(e)
            seat = rnd.choice(G.to_act(state))
            state = G.apply(state, seat, rnd.choice(PURPOSEFUL.legal_actions(state, seat)))
    return out


def emptied(state: dict) -> dict:
    """``state`` with every deposit empty (as if all gems were out of play)."""
    for site in state["sites"].values():
        for colour in site:
            site[colour] = 0
    return state


# Refusals fuzzing rarely meets: set up by hand (state, seat, action)
def special_refusals() -> list[IllegalAction]:
    seats = ["ann", "bob", "cy"]
    cases = [
        # two players' canoes carry red at position 3: the thief must name one
        (position([("ann", 1, "river", 5, None), ("bob", 1, "river", 3, "red"), ("cy", 1, "river", 3, "red")],
                  cards={"ann": "2"}, seats=seats), "ann", "canoe 1: up 2, steal red"),
        # an empty canoe landing with points left (G10)
        (position([("ann", 1, "river", 2, None)], cards={"ann": "5"}, seats=seats), "ann", "canoe 1: land"),
        # the other canoe's unloaded gem may not be loaded (G9)
        (G.apply(position([("ann", 1, "river", 4, "red"), ("ann", 2, "river", 4, None)], cards={"ann": "2"},
                          seats=seats, sites={"white": {"white": 0, "red": 0}}), "ann", "canoe 1: unload"),
         "ann", "canoe 2: load red"),
        # naming a player whose canoe there carries another colour
        (position([("ann", 1, "river", 5, None), ("bob", 1, "river", 3, "red"), ("cy", 1, "river", 3, "blue")],
                  cards={"ann": "2"}, seats=seats), "ann", "canoe 1: up 2, steal red from cy"),
        # nothing spends all 6 points from position 5 with every deposit empty: the most it can is 4
        (emptied(position([("ann", 1, "river", 5, None)], cards={"ann": "6"}, seats=seats)), "ann",
         "canoe 1: up 1"),
        # a second paid recovery in one turn (the Cloud leaves the turn open after the first)
        (G.apply(position([("ann", 1, "rapids", None, None), ("ann", 2, "rapids", None, None)],
                          cards={"ann": "cloud"}, seats=seats, collections={"ann": {"red": 2}}),
                 "ann", "recover canoe 1, pay red"), "ann", "recover canoe 2, pay red"),
    ]
    out = []
    for state, seat, action in cases:
        with pytest.raises(IllegalAction) as info:
            G.apply(state, seat, action)
        out.append(info.value)
    return out


def test_every_refusal_a_bad_action_meets_is_said_in_italian():
    errors = refusals() + special_refusals()
    ours = wagara_templates()
    seen: set[str] = set()
    for e in errors:
        if e.template not in ours:             # the shared table's refusals ("The game is over.") are not Wagara's
            continue
        seen.add(e.template)
        with i18n.speaking("it"):
            italian = i18n.illegal(e)
        assert italian != str(e), e.template
        assert not re.search(r"\{\w+\}", italian), italian                       # every placeholder filled
        assert str(e) == e.template.format(**e.params)                             # English: the template, filled
    written = _refusal_templates()
    assert written <= ours
    # guards no action can reach today (an earlier check always refuses first); still translated
    unreachable = {"Say what the canoe does, e.g. 'canoe 1: down 2'.",
                   "There is no gem deposit at the beach; deposits lie beside positions 3 to 7.",
                   "Only one canoe may be launched from the beach per round.",
                   "A canoe comes back from the rapids only at the start of your action."}
    assert written - unreachable <= seen, sorted(written - unreachable - seen)
    for template in unreachable:
        assert i18n.translated(template, "it"), template


def _refusal_templates() -> set[str]:
    """The IllegalAction templates written in engine/wagara.py and engine/wagara_river.py."""
    from babel.messages.extract import extract_from_file
    return {m for path in ("engine/wagara.py", "engine/wagara_river.py")
            for _n, m, _c, _x in extract_from_file("python", path, keywords={"IllegalAction": None})}


def test_a_refusal_names_its_colour_in_italian_and_keeps_the_notation_english():
    state = position([("ann", 1, "river", 5, None), ("bob", 1, "river", 3, "red"), ("cy", 1, "river", 3, "red")],
                     cards={"ann": "2"}, seats=["ann", "bob", "cy"])
    with pytest.raises(IllegalAction) as info:
        G.apply(state, "ann", "canoe 1: up 2, steal red")
    assert str(info.value) == "Canoes of several players carry red there: say 'steal red from <player>'."
    with i18n.speaking("it"):
        assert i18n.illegal(info.value) == ("Lì portano il rosso canoe di più giocatori: scrivi "
                                            "'steal red from <giocatore>'.")


# ----- what the engine writes into a game ------------------------------------------------------------------

def assert_italian(english: str, italian: str) -> None:
    if ONLY_NAMES_AND_NUMBERS.match(english) and not ENGLISH.search(english):
        return                                                    # nothing to translate
    assert italian != english, english
    left = ENGLISH.search(italian)
    assert not left, f"{english!r} → {italian!r}: {left.group()!r} left in English"


def test_twenty_games_log_waiting_messages_and_results_all_in_italian():
    checked = 0
    for seed in range(20):
        rnd = random.Random(1000 + seed)
        seats = NAMES[: 2 + seed % 4]
        state = G.new(seats, seed)
        texts = [G.describe(state, seats[0], "", state)]              # the setup's events
        steps = 0
        while G.result(state) is None:
            acting = G.to_act(state)
            texts += [G.waiting_message(state, s) for s in seats if s not in acting]
            seat = rnd.choice(acting)
            action = rnd.choice(PURPOSEFUL.legal_actions(state, seat))
            after = G.apply(state, seat, action)
            texts.append(G.describe(state, seat, action, after))
            state = after
            steps += 1
            assert steps < 5000
        res = G.result(state)
        texts += list(res["score_text"].values()) + [res["note"]]
        with i18n.speaking("it"):
            for text in texts:
                assert_italian(text, i18n.line(text))
                checked += 1
    assert checked > 1000


def test_an_italian_line_reads_as_the_rulebook_says():
    state = position([("ann", 1, "river", 5, "red"), ("bob", 1, "river", 2, None)],
                     cards={"ann": "6", "bob": "1", "cy": "cloud"})
    after = G.apply(state, "ann", "canoe 1: unload, up 2, load violet")
    english = G.describe(state, "ann", "canoe 1: unload, up 2, load violet", after)
    assert english.startswith("ann's canoe 1 unloads red at the yellow deposit, paddles up 2 to position 3, "
                              "loads violet.")
    with i18n.speaking("it"):
        italian = i18n.line(english)
    assert italian.startswith("La canoa 1 di ann scarica il rosso nel giacimento giallo, risale di 2 fino al "
                              "disco 3, carica il viola.")
    with i18n.speaking("en"):
        assert i18n.line(english) == english


def test_joined_sentences_are_translated_one_by_one():
    english = ("Ann moves the weather from -1 to 0. The river flows 3 (lowest card 3, weather 0). Ann's canoe 1 "
               "goes over the falls. Ann's canoe 2 goes over the falls and its yellow gem returns to its deposit. "
               "The buoy passes to Bo. Round 5: choose your paddle cards. Bo reveals 4.")
    with i18n.speaking("it"):
        assert i18n.line(english) == (
            "Ann sposta il meteo da -1 a 0. Il fiume scorre di 3 (carta più bassa 3, meteo 0). La canoa 1 di Ann "
            "cade dalla cascata. La canoa 2 di Ann cade dalla cascata e la sua gemma di colore giallo torna al suo "
            "giacimento. Il salvagente passa a Bo. Turno 5: scegliete le carte pagaia. Bo scopre la carta 4.")


# ----- the image ---------------------------------------------------------------------------------------------

def positions_of(seed: int, n: int) -> list[dict]:
    states = states_of(seed, n, NAMES)
    acting = next(s for s in states[len(states) // 2:] if s["phase"] == "act")
    return [states[0], acting, states[-1]]


@pytest.mark.parametrize("n", [2, 5])
def test_the_italian_image_is_italian_and_legible_on_a_phone(n):
    names = {s: s for s in NAMES}
    for state in positions_of(n, n):
        for viewer in (None, NAMES[0]):
            view = G.view(state, viewer)
            clear_render_caches()
            with i18n.speaking("it"), record_text() as drawn:
                img = RENDERERS["wagara"](view, names, viewer)
            size, text = min(drawn)
            assert size * PHONE_WIDTH / img.width >= MIN_PHONE_PX, (text, size)
            words = " ".join(t for _s, t in drawn)
            assert "Meteo" in words and "SPIAGGIA" in words and "RAPIDE" in words
            for english in ("Weather", "BEACH", "RAPIDS", "Round", "Buoy", "Last", "gems", "played", "'s canoe"):
                assert english not in words, english
    png = render_png("wagara", G.view(positions_of(2, 2)[1], None), names, None, "it")
    assert Image.open(io.BytesIO(png)).size[0] == 800


def test_the_english_image_is_unchanged_by_the_catalog():
    view = G.view(G.new(NAMES[:2], 1), None)
    with record_text() as drawn:
        RENDERERS["wagara"](view, {s: s for s in NAMES}, None)
    words = " ".join(t for _s, t in drawn)
    assert "Weather" in words and "BEACH" in words and "Meteo" not in words


# ----- the cog: what a player reads about an action ---------------------------------------------------------

def test_action_labels_read_italian_and_the_action_sent_stays_the_notation():
    from cogs.wagara import card_label, label, suggest
    assert label("canoe 1: unload, up 3, steal red") == "canoe 1: unload, up 3, steal red"     # English: as is
    assert card_label("cloud") == "cloud"
    with i18n.speaking("it"):
        assert label("canoe 1: unload, up 3, steal red") == "canoa 1: scarica, risali di 3, ruba il rosso"
        assert label("canoe 2: launch to 3, load violet") == "canoa 2: in acqua al disco 3, carica il viola"
        assert label("canoe 1: up 2, steal red from Bo") == "canoa 1: risali di 2, ruba il rosso a Bo"
        assert label("recover canoe 1, pay red") == "recupera la canoa 1, paga il rosso"
        assert label("play cloud") == "gioca la Nuvola" and label("end turn") == "fine azione"
        assert label("canoe 1:") == "canoa 1:"                                     # a group of one canoe's moves
        choices = suggest(["canoe 1: land", "canoe 1: up 2", "end turn"], "approda")
        assert [(c.name, c.value) for c in choices] == [("canoa 1: approda", "canoe 1: land")]
        assert [c.value for c in suggest(["canoe 1: land", "end turn"], "end")] == ["end turn"]


def test_every_legal_action_of_a_game_has_an_italian_label():
    from cogs.wagara import label
    english = re.compile(r"\b(canoe|unload|load|up|down|land|launch|steal|from|play|recover|pay|weather|end|turn|"
                         r"cloud|violet|white|yellow|blue|red)\b")
    rnd = random.Random(5)
    state = G.new(NAMES[:3], 5)
    labelled = 0
    while G.result(state) is None:
        seat = rnd.choice(G.to_act(state))
        actions = G.legal_actions(state, seat)
        with i18n.speaking("it"):
            for action in actions:
                shown = label(action)
                assert not english.search(shown), (action, shown)
                labelled += 1
        state = G.apply(state, seat, rnd.choice(PURPOSEFUL.legal_actions(state, seat)))
    assert labelled > 500
