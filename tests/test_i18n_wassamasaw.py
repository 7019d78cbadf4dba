"""Wassamasaw in Italian (#17): the engine's refusals, log lines, waiting messages, descriptions and alt text are
marked templates the edge translates (i18n.illegal, i18n.line), and the image is drawn in Italian, readable on a
phone. The English stays exactly as the engine writes it (the other tests compare it)."""

import random
import re

import pytest

import i18n
from engine import IllegalAction
from engine.wassamasaw import GAME
from render import RENDERERS
from render.common import record_text
from tests.test_render_phone import MIN_PHONE_PX, NAMES, PHONE_WIDTH, clear_render_caches, positions
from tests.test_wassamasaw import EMPTY, FULL_POOL, SEATS, A, B, grid, position

# What must never be left in English in an Italian line of this game: its verbs and phrases, its element words.
ENGLISH = re.compile(r"\b(takes|places|converts|rolls|crossed|track is full|goes to|circle quarters|fits nowhere|"
                     r"Can only|The last|Every die|wins on|win, shared|wood|fire|earth|metal|water)\b", re.I)
# Parts of the alt text the shared table writes (engine.core.summary_text), translated in the table's catalog.
TABLE_PARTS = re.compile(r"Scores: [^.]*\.|\S+ to (play|choose)\.|Game over: [^.]* (wins|share the win)\.")


def refusal(state, seat, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    return info.value


def test_typical_refusals_are_translated():
    cases = [
        (position(), A, "place r1c1"),                                   # nothing taken yet
        (position(), A, "roll"),                                         # not an action
        (position(), A, "take fire"),                                    # no face
        (position(pool=FULL_POOL), A, "take fire 6"),                    # not in the pool
        (position(pool=["wood 1", "fire 3", "water 3"],
                  grids={A: grid("Wa Wa Wa Wa Wa", EMPTY, "Wa Wa Wa Wa Wa", EMPTY, EMPTY)}), A, "take fire 3"),
        (position(pool=FULL_POOL), A, "convert wood 1"),                 # it fits
        (position(pool=["wood 1", "fire 3"]), A, "take fire 3"),         # the last two are converted
        (position(held={"element": "wood", "face": 1}), A, "take fire 3"),
        (position(held={"element": "wood", "face": 1}), A, "place r2c1"),
        (position(held={"element": "wood", "face": 1},
                  grids={A: grid("Ea .. .. .. ..", EMPTY, EMPTY, EMPTY, EMPTY)}), A, "place r1c1"),
        (position(held={"element": "fire", "face": 1},
                  grids={A: grid(".. Wa .. .. ..", EMPTY, EMPTY, EMPTY, EMPTY)}), A, "place r1c1"),
    ]
    for state, seat, action in cases:
        error = refusal(state, seat, action)
        english = str(error)
        assert i18n.illegal(error) == english                           # English by default
        with i18n.speaking("it"):
            italian = i18n.illegal(error)
        assert italian != english, english
        # The actions to type stay as they are written; the words around them are Italian.
        for quoted in re.findall(r"'([a-z]+ [a-z0-9 ]+)'", english):
            if not quoted.startswith(("take <", "convert <")):
                assert f"'{quoted}'" in italian, (english, italian)
    with i18n.speaking("it"):
        fire_water = i18n.illegal(refusal(cases[-1][0], A, "place r1c1"))
        assert fire_water == "Fuoco non può toccare acqua, e r1c1 tocca acqua in r1c2."
        assert "Non è il tuo turno" in i18n.line(GAME.waiting_message(position(), B))


def test_log_lines_and_alt_text_of_30_random_games_are_translated():
    checked = 0
    for seed in range(30):
        rnd = random.Random(seed)
        state = GAME.new(SEATS, seed)
        texts = [GAME.summary(GAME.view(state, None))]
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            texts.append(GAME.waiting_message(state, next(s for s in SEATS if s != seat)))
            action = rnd.choice(GAME.legal_actions(state, seat))
            new = GAME.apply(state, seat, action)
            texts.append(GAME.describe(state, seat, action, new))
            texts.append(GAME.summary(GAME.view(new, None)))
            state = new
        for english in dict.fromkeys(texts):
            with i18n.speaking("it"):
                italian = i18n.line(english)
            assert i18n.line(english) == english
            if not re.search(r"[A-Za-z]{3}", re.sub(r"\d{6,}", "", english)):
                continue                                                  # only names and numbers
            assert italian != english, english
            left = ENGLISH.search(TABLE_PARTS.sub("", italian))
            assert left is None, f"{english!r} -> {italian!r}"
            checked += 1
    assert checked > 1000


def test_rare_lines_are_translated():
    """Lines random games seldom write: a cross lost on a full track, wins on quarters and shared."""
    lines = {
        f"{A} converts fire 3: the fire track is full, so the cross is lost.":
            f"{A} converte fuoco 3: il tracciato di fuoco è pieno, quindi la barra va persa.",
        f"The last die, water 5, goes to {B}: water box 2 of 7 crossed.":
            f"L'ultimo dado, acqua 5, va a {B}: barrata la casella 2 di 7 di acqua.",
        f"Game over: {A} 40, {B} 40. {A} wins on circle quarters.":
            f"Partita finita: {A} 40, {B} 40. {A} vince per i quarti dei cerchi.",
        f"Game over: {A} 40, {B} 40. {A} and {B} win, shared.":
            f"Partita finita: {A} 40, {B} 40. {A} e {B} vincono a pari merito.",
        f"{A} places earth at r2c2 (circle quarters: earth +1, metal +2).":
            f"{A} piazza terra in r2c2 (quarti dei cerchi: terra +1, metallo +2).",
    }
    with i18n.speaking("it"):
        for english, italian in lines.items():
            assert i18n.line(english) == italian


def smallest_italian(view, viewer):
    clear_render_caches()
    with i18n.speaking("it"), record_text() as drawn:
        img = RENDERERS["wassamasaw"](view, NAMES, viewer)
    return img, drawn


def test_the_italian_image_is_in_italian_and_readable_on_a_phone():
    from render.common import canvas, font
    from render.wassamasaw import WIDTH, key_layout
    seen = set()
    for state in positions("wassamasaw", 2, seed=2):
        for viewer in (None, state["seats"][0]):
            img, drawn = smallest_italian(GAME.view(state, viewer), viewer)
            size, text = min(drawn)
            assert size * PHONE_WIDTH / img.width >= MIN_PHONE_PX, (text, size)
            seen.update(t for _n, t in drawn)
    assert {"Riserva di dadi", "Nutre", "Mai vicini", "tocca tutti", "forza", "riga", "Punti"} <= seen
    assert not seen & {"Dice pool", "Feeds", "Never touch", "strength", "row", "Score", "fire"}
    # The key's Italian words stay inside the image.
    _img, draw = canvas(WIDTH, 100)
    with i18n.speaking("it"):
        for text, x, _y, size in key_layout(draw):
            if not text.startswith("symbol:"):
                assert x + draw.textlength(text, font=font(size, True)) <= WIDTH - 8, text
