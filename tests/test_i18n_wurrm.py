"""WURRM World in Italian (#17): the engine's refusals, log lines, waiting messages, descriptions and alt text are
marked templates the edge translates (i18n.illegal, i18n.line), the buttons read Italian (cogs.wurrm.label) while
the actions stay canonical, and the image is drawn in Italian, readable on a phone. The English stays exactly as
the engine writes it (the other tests compare it)."""

import random
import re

import pytest

import i18n
from cogs.wurrm import label
from engine import IllegalAction
from engine.wurrm import GAME, VARIANTS, random_players
from render import RENDERERS
from render.common import record_text
from tests.test_render_phone import MIN_PHONE_PX, NAMES, PHONE_WIDTH, clear_render_caches, positions
from tests.test_wurrm import A, B, C, give, moving, placed, rolled

# What must never be left in English in an Italian line of this game: its verbs, phrases and words.
ENGLISH = re.compile(r"\b(starts on|takes|picks|rolls|wishes|showing|marks|keeps|rerolls|stops|wish|comes true|"
                     r"fails|value|moves|bumps|pays|border|finds|falls asleep|good night|must end|reverses|"
                     r"cannot|attacks|offers|accepts|refuses|robbing|giving|petitions?|asks|votes|passes|"
                     r"gems?|dice|die|yes|Naughty|Everybody|Nobody|No step)\b")
# Parts of the alt text the shared table writes (engine.core.summary_text), translated in the table's catalog.
TABLE_PARTS = re.compile(r"\S+ to (play|choose)\.|Game over: [^.]* wins\.")
# Button words that must not stay English on an Italian button (the direction codes nw … se are notation).
BUTTON_ENGLISH = re.compile(r"\b(place|lucky|wish|toggle|reroll|stop|move|bump|attack|bribe|accept|refuse|"
                            r"petition|ask|vote|yes|die|keep|pay)\b")


def refusal(state, seat, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    return info.value


def test_typical_refusals_are_translated():
    fresh = GAME.new([A, B], 1)
    petition = placed((A, B, C), {"petition": True})
    give(petition, B, 3)
    petition.update(phase="petition", actor=A, petition={"petitioner": A, "target": None, "amount": None,
                                                          "votes": {}, "result": None})
    target = placed()
    target.update(phase="target", actor=A, attack={"attacker": A, "target": None, "offer": None})
    cases = [
        (fresh, B, "place z9"),                       # not a free Start space
        (fresh, B, "roll"),                           # not an action now
        (fresh, A, "place a1"),                       # not A's turn
        (placed(), A, "lucky"),                       # no number
        (placed(), A, "lucky 9"),                     # out of range
        (rolled(placed(), A, [1, 2, 3, 4, 5, 6], None), A, "wish"),
        (rolled(placed(), A, [1, 2, 3, 4, 5, 6], None), A, "wish 7"),
        (rolled(placed(), A, [2, 2, 3, 4, 5, 6], 2, free_used=True), A, "reroll"),
        (rolled(placed(), A, [2, 2, 3, 4, 5, 6], 2), A, "pay reroll"),
        (rolled(placed(), A, [2, 2, 3, 4, 5, 6], 2), A, "jump"),
        (moving(placed(), A, 2), A, "move q"),
        (target, A, "attack nobody"),
        (petition, A, "petition nobody"),
    ]
    for state, seat, action in cases:
        error = refusal(state, seat, action)
        english = str(error)
        assert i18n.illegal(error) == english                           # English by default
        with i18n.speaking("it"), i18n.playing("wurrm"):
            italian = i18n.illegal(error)
        assert italian != english, english
        assert not re.search(r"\b(must be|You can|Choose|Petition against|Now:|Place your|Make a)\b", italian), italian
    with i18n.speaking("it"), i18n.playing("wurrm"):
        assert i18n.illegal(refusal(placed(), A, "lucky 9")) == "Il tuo numero fortunato: serve un numero da 1 a 4."
        assert i18n.illegal(refusal(petition, A, "petition nobody")) == \
            f"Avvia una petizione contro un giocatore che ha gemme: {B}, {C}."


def play(seats: int, seed: int, options: dict) -> tuple[list[str], list[tuple[str, dict]]]:
    """Every text a seeded random game shows (log lines, waiting messages, alt text) and its actions with the
    table view their buttons are labelled from."""
    rnd = random.Random(seed)
    names = [f"p{i}" for i in range(seats)]
    state = GAME.new(names, seed, options)
    view = GAME.view(state, None)                 # the table's view of the state now (one per state)
    texts = [GAME.summary(view)]
    actions = []
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        texts.append(GAME.waiting_message(state, next(s for s in names if s != seat)))
        legal = GAME.legal_actions(state, seat)
        actions += [(a, view) for a in legal]
        # half blind, half the bots' sensible choices, so games both wander and end
        action = rnd.choice(legal if rnd.random() < 0.5 else GAME.bot_actions(state, seat))
        new = GAME.apply(state, seat, action)
        texts.append(GAME.describe(state, seat, action, new))
        view = GAME.view(new, None)
        texts.append(GAME.summary(view))
        state = new
    return texts, actions


def test_log_lines_labels_and_alt_text_of_random_games_are_translated():
    checked, labels, seen = 0, 0, set()
    for seats in (2, 4, 6):
        for seed in range(20):
            options = {v: seed % 2 == 1 for v in VARIANTS}
            if seed % 4 == 3 and seats in random_players():
                options["board"] = "random"
            texts, actions = play(seats, seed, options)
            for english in dict.fromkeys(texts):
                assert i18n.line(english) == english
                with i18n.speaking("it"), i18n.playing("wurrm"):
                    italian = i18n.line(english)
                if not re.search(r"[A-Za-z]{3}", english.replace("WURRM World", "")):
                    continue                                              # only names and numbers
                assert italian != english, english
                left = ENGLISH.search(TABLE_PARTS.sub("", italian))
                assert left is None, f"{english!r} -> {italian!r}"
                seen.update(re.findall(r"\b(attacks|offers|accepts|refuses|robbing|giving|petitions|votes|pays)\b",
                                       english))
                checked += 1
            for action, view in {a: v for a, v in actions}.items():
                shown = label(action, view)
                with i18n.speaking("it"):
                    italian = label(action, view)
                assert BUTTON_ENGLISH.search(shown)                       # the English button says what it does
                assert not BUTTON_ENGLISH.search(italian), (action, italian)
                labels += 1
    assert checked > 2000 and labels > 500
    assert {"attacks", "offers", "robbing", "giving", "petitions", "votes", "pays"} <= seen, seen


def test_rare_lines_are_translated():
    lines = {
        f"{A} stops: wish fails, giving all 3 gems to {B}. Karma!":
            f"{A} si ferma: il desiderio fallisce e dà tutte le sue 3 gemme a {B}. Karma!",
        f"{A} stops: wish comes true, robbing 1 gem from {B}. Naughty!":
            f"{A} si ferma: il desiderio si avvera e ruba 1 gemma a {B}. Birbante!",
        f"{A} votes. The petition passes: {A} takes 2 gems from {B} ({A} yes, {B} no, {C} yes).":
            f"{A} vota. La petizione passa: {A} prende 2 gemme da {B} ({A} sì, {B} no, {C} sì).",
        f"{A} moves ne to c3; pays 1 gem at a toll border, takes 1 gem. No step remains: {A} stops.":
            f"{A} si muove verso ne e arriva in c3; paga 1 gemma a un pedaggio, prende 1 gemma. "
            f"Non resta alcun passo: {A} si ferma.",
        f"{A} bumps {B} sw to d2; {B} pays 1 gem at a toll border, reverses the turn order. "
        f"{C} cannot be bumped anywhere and stays.":
            f"{A} spinge {B} verso sw in d2; {B} paga 1 gemma a un pedaggio, inverte l'ordine di turno. "
            f"{C} non può essere spinto da nessuna parte e resta.",
        f"{A} stops: wish 4 fails, value 0. {A} has no way to move.":
            f"{A} si ferma: il desiderio 4 fallisce, valore 0. {A} non ha modo di muoversi.",
    }
    with i18n.speaking("it"), i18n.playing("wurrm"):
        for english, italian in lines.items():
            assert i18n.line(english) == italian
        assert i18n.line(GAME.waiting_message(GAME.new([A, B], 1), A)) == "Non è il tuo turno."
    view = GAME.view(rolled(placed(), A, [2, 2, 3, 4, 5, 6], 2), None)
    with i18n.speaking("it"):
        assert label("toggle 3", view) == "dado 3: 3 ↻ ritira"
        assert label("toggle 1", view) == "dado 1: 2 ✓ tieni"
        assert label("pay reroll", view) == "paga 1 gemma: ritira"
        assert label("move nw", view) == "muovi ↖ nw"


def test_the_italian_image_is_in_italian_and_readable_on_a_phone():
    seen = set()
    for seats, seed, options in ((2, 3, None), (4, 5, {v: True for v in VARIANTS}), (6, 7, None),
                                 (max(random_players()), 7, {"board": "random"})):
        for state in positions("wurrm", seats, seed=seed, options=options):
            for viewer in (None, state["seats"][0]):
                clear_render_caches()
                with i18n.speaking("it"), i18n.playing("wurrm"), record_text() as drawn:
                    img = RENDERERS["wurrm"](GAME.view(state, viewer), NAMES, viewer)
                size, text = min(drawn)
                assert size * PHONE_WIDTH / img.width >= MIN_PHONE_PX, (text, size)
                seen.update(t for _n, t in drawn)
    assert {"Ordine di turno", "Gemma +1", "Fine turno", "Sonno", "Pedaggio 1", "Ostile"} <= seen
    assert not seen & {"Turn order", "End turn", "Sleep", "Toll 1", "Hostile", "Player", "Gems"}
    assert any(t.startswith("Varianti: ") for t in seen)
