"""Seikatsu in Italian (#17): refusals, log lines, summaries and action labels written by the engine in English
are found by their marked templates and translated; the images are drawn in Italian and stay readable."""

from __future__ import annotations

import random
import re

import pytest

import i18n
from engine import IllegalAction
from engine.core import Game
from engine.seikatsu import GAME as G
from render import RENDERERS
from render.common import record_text

SEATS = ["Ann", "Bo Lee", "Cy", "Dee"]
# what may stay as it is: names, numbers, space names (c3) and their punctuation
BARE = re.compile(r"^[\s\d.,;:()/+×-]*$|^([a-g][1-7]\s*)+$")


def translated(english: str, italian: str) -> bool:
    return italian != english or BARE.match(english.replace("Bo Lee", "").replace("Ann", "")) is not None


@pytest.mark.parametrize("english, italian", [
    ("Ann places heron lily on c3: 3 points.", "Ann piazza airone giglio in c3: 3 punti."),
    ("Bo Lee takes the poppy card.", "Bo Lee prende la carta papavero."),
    ("place koi e2", "piazza stagno koi in e2"),
    ("keep hand", "tieni la mano"),
])
def test_a_log_line_becomes_the_italian_sentence(english, italian):
    with i18n.speaking("it"):
        assert i18n.line(english) == italian
    assert i18n.line(english) == english          # and stays itself in English


def refusals() -> list[IllegalAction]:
    """Typical bad actions at each step of a game with Yarimizu (fountain, card, put-back phases included)."""
    bad = ["place x c3", "place heron lily z9", "place koi d4", "place heron", "fountain a1 a2 a3",
           "fountain a1 b1 g1", "fountain a1", "take zz card", "take heron", "take heron card", "put back koi",
           "keep", "hello", "put back both", "put back nothing here", "fountain b3 c3 c4", "place crane iris a1"]
    out = []
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        rnd = random.Random(seed)
        state = G.new(SEATS[:n], seed, {"yarimizu": True})
        while G.result(state) is None:
            seat = G.to_act(state)[0]
            for action in bad:
                try:
                    G.apply(state, seat, action)
                except IllegalAction as e:
                    out.append(e)
            outsider = next(s for s in state["seats"] if s != seat)
            try:
                G.apply(state, outsider, "keep hand")
            except IllegalAction as e:
                out.append(e)
            state = G.apply(state, seat, rnd.choice(G.legal_actions(state, seat)))
    no_fountains = G.new(SEATS[:2], 5, {"yarimizu": False})
    try:
        G.apply(no_fountains, "Ann", "fountain b3 c3 c4")
    except IllegalAction as e:
        out.append(e)
    return out


def test_refusals_are_translated():
    errors = refusals()
    templates = {e.template for e in errors}
    assert len(templates) >= 15, templates
    with i18n.speaking("it"):
        untranslated = {str(e) for e in errors if i18n.illegal(e) == str(e)}
        example = next(e for e in errors if e.template.startswith("Take a garden card first"))
        # an example action stays as the engine parses it
        assert re.search(r"'take \w+ card'", i18n.illegal(example))
    # the only English refusal left is the shared one of every game (the table's catalog translates it)
    assert untranslated <= {"It is not your turn."}, untranslated


def texts_of_games(players: int, yarimizu: bool, games: int) -> list[str]:
    """Every log line, waiting message, summary and legal action of seeded random games."""
    out = []
    for seed in range(games):
        rnd = random.Random(seed * 7 + players)
        state = G.new(SEATS[:players], seed, {"yarimizu": yarimizu})
        out.append(G.summary(G.view(state, None)))
        while G.result(state) is None:
            seat = G.to_act(state)[0]
            actions = G.legal_actions(state, seat)
            out.extend(actions)
            waiting = next(s for s in state["seats"] if s != seat)
            out.append(G.waiting_message(state, waiting))
            action = rnd.choice(actions)
            after = G.apply(state, seat, action)
            out.append(G.describe(state, seat, action, after))
            state = after
            out.append(G.summary(G.view(state, None)))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("yarimizu", [True, False])
def test_every_engine_text_of_a_game_is_translated(players, yarimizu):
    texts = list(dict.fromkeys(texts_of_games(players, yarimizu, 20)))
    shared = Game.waiting_message(G, {}, "")          # Seikatsu keeps the table's own waiting message
    assert G.waiting_message.__func__ is Game.waiting_message
    left = []
    with i18n.speaking("it"):
        for text in texts:
            if text == shared:
                continue
            italian = i18n.line(text)
            if not translated(text, italian):
                left.append(text)
            # none of the engine's own English words survive in a translated log line or label
            elif re.search(r"\b(places|points|takes the|keeps their|puts \d|The garden is full|birds \d|"
                           r"flowers \d|fountains \d|of 36 spaces|place |fountain |put back|keep hand)\b",
                           italian):
                left.append(f"{text} → {italian}")
    assert not left, left[:10]


def test_final_scores_and_mogami_lines_read_in_italian():
    texts = [t for t in texts_of_games(3, True, 20) if "The garden is full" in t or "Mogami" in t]
    assert any("Mogami" in t for t in texts) and any("garden is full" in t for t in texts)
    with i18n.speaking("it"):
        for text in texts:
            italian = i18n.line(text)
            if "The garden is full" in text and not text.startswith("Seikatsu."):
                assert "Il giardino è pieno. rosa " in italian and "; verde " in italian, italian
            if "leave the game (Mogami River)" in text:
                assert "escono dalla partita (fiume Mogami)" in italian, italian


def game_states(players: int, seed: int) -> list:
    rnd = random.Random(seed)
    state = G.new([str(100 + i) for i in range(players)], seed)
    states = [state]
    while G.result(state) is None:
        seat = G.to_act(state)[0]
        state = G.apply(state, seat, rnd.choice(G.legal_actions(state, seat)))
        states.append(state)
    return states


NAMES = {"100": "Ann", "101": "Bartholomew the Long-Named", "102": "Cy", "103": "Dee"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_italian_images_are_italian_and_readable_on_a_phone(players):
    states = game_states(players, players)
    putback = next(s for s in states if s["phase"] == "putback")
    worst = []
    words: set[str] = set()
    for state in (states[0], putback, states[len(states) // 2], states[-1]):
        for viewer in (None, state["seats"][0], state["seats"][-1]):
            with i18n.speaking("it"), record_text() as drawn:
                img = RENDERERS["seikatsu"](G.view(state, viewer), NAMES, viewer)
            size, text = min(drawn)
            if size * 400 / img.width < 9:
                worst.append((size, text))
            words |= {t for _size, t in drawn}
    assert not worst, worst
    shown = [t for t in words if not t.startswith("nei comandi:")]     # the typed names stay English
    joined = " | ".join(shown)
    for italian in ("Punteggio", "uccelli", "Sacchetto", "airone", "giglio"):
        assert italian in joined, italian
    assert "La tua mano" in words and any(t.startswith("nei comandi: ") for t in words)
    for english in ("Score", "birds", "Bag:", "Your hand", "turn", "heron", "lily", "koi pond"):
        assert english not in joined, english
    # the bird badges carry the Italian initials (G gru, F fringuello, A airone, P passero)
    assert {"G", "F", "A", "P"} <= words and not {"C", "H", "S"} & words
