"""Learn mode (issue #28) through the table service: a learn table for each game played to the end, the
learner coached privately before every decision, a comment only on a clearly weaker move, the summary at
the end, and no rating; the explanations in data/learn cover every decision the games reach."""

import random
import re

import pytest

from engine import GAMES, ai
from store import ratings as R
from table import User, Where
from table.learn import GAME_OPTIONS, MAX_TEXT, MIN_VISITS, WEAKER, decision, explanation, explanations, weaker
from table.records import LEARN
from tests.support import err, run_console, started

HERE = Where("learn", "g1")
ALICE, BOB = User("alice", "Alice"), User("bob", "Bob")
QUICK = {"iterations": 8, "timed": False}      # a small search: the tests check the coaching, not its wisdom


def coaching(reply, user="alice") -> str:
    """The private text ``reply`` holds for ``user``."""
    return "\n".join(p.text for p in reply.private_for(user))


async def state_of(svc, where=HERE):
    row = await svc.store.open_game(where.channel)
    game = GAMES[row.game]
    return row, game, game.load(row.state)


# ----- the explanations ------------------------------------------------------------------------------------
SEEDED = {        # game → the option sets (and player counts) whose decisions the seeded games must reach
    "wassamasaw": [({}, 2)],
    "wagara": [({}, 2), ({}, 3)],
    "mywuxing": [({"version": "think"}, 2), ({"version": "learn"}, 2),
                 ({"version": "think", "power_cards": "on", "think_option": 2}, 3)],
    "seikatsu": [({}, 2), ({}, 3)],
    "wurrm": [({}, 2), ({"bribery": True}, 3), ({"petition": True}, 3)],
}


def reached(key: str, options: dict, players: int, seed: int) -> set[str]:
    """The kinds of decision every seat meets in one seeded game of beginners."""
    game = GAMES[key]
    state = game.new([f"p{i}" for i in range(players)], seed, options)
    rnd = random.Random(seed)
    kinds = set()
    for _step in range(3000):
        if game.result(state) is not None:
            break
        seat = game.to_act(state)[0]
        kinds.add(decision(game, state, seat))
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
    return kinds


@pytest.mark.parametrize("key", sorted(SEEDED))
def test_every_decision_a_seeded_game_reaches_is_explained_in_english_and_italian(key):
    kinds = set()
    for options, players in SEEDED[key]:
        for seed in range(3):
            kinds |= reached(key, options, players, seed)
    assert len(kinds) >= 2
    known = explanations(key)
    missing = sorted(k for k in kinds if not {"en", "it"} <= set(known.get(k, {})))
    assert not missing, f"{key}: no explanation for {missing}"


@pytest.mark.parametrize("key", sorted(SEEDED))
def test_explanations_are_short_and_in_both_languages(key):
    for kind, texts in explanations(key).items():
        assert set(texts) == {"en", "it"}, kind
        for locale, text in texts.items():
            assert 40 <= len(text) <= MAX_TEXT, (kind, locale, len(text))
            assert text.startswith("**") and text.count("**") == 2, (kind, locale)
        assert texts["en"] != texts["it"]
    assert explanation(key, "no such decision", "it") is None


# ----- what counts as clearly weaker -------------------------------------------------------------------------
def test_a_move_is_clearly_weaker_only_well_below_the_favourite_and_well_tried():
    stats = ai.Stats([("a", 300, 0.70), ("b", 120, 0.60), ("c", 40, 0.70 - WEAKER), ("d", MIN_VISITS - 1, 0.1),
                      ("e", MIN_VISITS, 0.2)])
    assert weaker(stats, "a") is None                          # the favourite itself
    assert weaker(stats, "b") is None                          # ten points below: close enough
    assert weaker(stats, "c") == ("a", 0.70, 0.70 - WEAKER)    # the threshold itself is weaker
    assert weaker(stats, "d") is None                          # too little tried to judge
    assert weaker(stats, "e") == ("a", 0.70, 0.2)
    assert weaker(stats, "unknown") is None
    assert weaker(ai.Stats([("a", MIN_VISITS - 1, 0.9), ("b", 20, 0.1)]), "b") is None   # nor the favourite


# ----- a learn table ----------------------------------------------------------------------------------------
async def test_a_learn_table_is_unrated_with_hints_and_easy_computers(svc):
    svc.ai_options = QUICK
    r = await svc.learn(HERE, ALICE, "wassamasaw")
    assert r.ok and r.status == "running"
    row = await svc.store.open_game(HERE.channel)
    assert row.options["rated"] is False and row.options["hints"] is True and row.options[LEARN] is True
    assert [(s.user_id, s.name, s.is_bot) for s in row.seats] == [("alice", "Alice", False),
                                                                   ("cpu-1", "Computer 1 (easy)", True)]
    assert "Alice is learning Wassamasaw" in r.text and "_learn" not in r.text
    tips = coaching(r)
    assert tips.startswith("📘 **Pick a die.**") and "💡 The computer's favourite is **" in tips
    assert "📘" not in r.text and "💡" not in r.text                      # the tips are never the channel's
    assert (await svc.hint(HERE, ALICE)).ok                              # /game hint works too


async def test_learn_refusals_change_nothing(svc):
    assert "no game called" in err(await svc.learn(HERE, ALICE, "chess"))
    assert "1 to 1 computer players" in err(await svc.learn(HERE, ALICE, "wassamasaw", computers=2))
    assert "1 to 4 computer players" in err(await svc.learn(HERE, ALICE, "wagara", computers=0))
    assert await svc.store.open_game(HERE.channel) is None
    await svc.open_table(HERE, BOB, "wagara")
    assert "already has a game" in err(await svc.learn(HERE, ALICE, "wagara"))
    row = await svc.store.open_game(HERE.channel)
    assert row.host == "bob" and LEARN not in row.options


async def test_several_computers_and_the_learner_in_italian(svc):
    svc.ai_options = QUICK
    luca = User("luca", "Luca", "it")
    r = await svc.learn(Where("qui", "g1", "it"), luca, "wagara", computers=2)
    assert r.ok
    row = await svc.store.open_game("qui")
    assert [s.user_id for s in row.seats] == ["luca", "cpu-1", "cpu-2"]
    assert "Luca sta imparando Wagara" in r.text
    tips = coaching(r, "luca")
    assert tips.startswith("📘 **Scegli in segreto una carta pagaia.**") and "💡 Il computer preferisce" in tips


async def test_a_table_that_is_not_for_learning_gets_no_tips(svc):
    svc.ai_options = QUICK
    r = await started(svc, ALICE, BOB, game="wassamasaw", where=HERE)
    first = next(u for u in (ALICE, BOB) if u.id in r.turn.to_act)
    assert not r.private
    _row, game, state = await state_of(svc)
    moved = await svc.act(HERE, first, game.legal_actions(state, first.id)[0])
    assert moved.ok and not moved.private


@pytest.mark.parametrize("key", sorted(GAMES.keys() & SEEDED.keys()))
async def test_a_whole_learn_game_is_coached_at_every_decision_and_summed_up(svc, key):
    svc.ai_options = QUICK
    r = await svc.learn(HERE, ALICE, key)
    assert r.ok
    gid, decisions, top = r.game_id, 0, 0
    rnd = random.Random(key)
    while r.status == "running":
        row, game, state = await state_of(svc)
        assert game.to_act(state) == ["alice"]        # the computers have played; only the learner is awaited
        tips = coaching(r)
        assert explanation(key, decision(game, state, "alice"), "en") in tips
        assert "💡" in tips and "📘" not in (r.text or "") and "💡" not in (r.text or "")
        stats = svc.learning._analyses[(row.id, row.version, "alice")]      # the hint's search, kept
        legal = game.legal_actions(state, "alice")
        action = stats.best if rnd.random() < 0.8 else rnd.choice(legal)
        judged = len(stats.actions) > 1 and any(a == action for a, _n, _w in stats.actions)   # not WURRM's toggles
        decisions += judged
        top += judged and action == stats.best
        r = await svc.act(HERE, ALICE, action)
        assert r.ok, r.private
    assert r.status == "finished"
    summary = coaching(r)
    assert summary.startswith("🎓 **Your learn game of") and re.search(r"Scores: .*Alice \d", summary)
    assert f"in {top} of your {decisions} real choice" in summary and "`/game review`" in summary
    assert "🎓" not in r.text
    assert await R.changes_of(svc.store, gid) == []                       # unrated
    assert await R.ratings_of(svc.store, "alice", "g1") == {}


# ----- comments on a move ------------------------------------------------------------------------------------
async def test_a_clearly_weaker_move_gets_a_comment_and_the_favourite_none(svc):
    svc.ai_options = QUICK
    await svc.learn(HERE, ALICE, "wagara")
    row, game, state = await state_of(svc)
    cards = game.legal_actions(state, "alice")            # play 1 … play 6, play cloud
    # the search's findings for this decision, as the hint showed them: 'play 4' its favourite
    svc.learning._analyses[(row.id, row.version, "alice")] = ai.Stats(
        [("play 4", 200, 0.71), ("play 3", 150, 0.62), ("play cloud", 40, 0.42)] +
        [(c, 20, 0.5) for c in cards if c not in ("play 4", "play 3", "play cloud")])
    r = await svc.act(HERE, ALICE, "play cloud")
    first = coaching(r).splitlines()[0]
    assert first == "🤔 **play cloud** looked clearly weaker (wins about 42%) than **play 4** (71%)."
    assert "🤔" not in r.text
    # the next decision: the favourite, or a move close to it, gets no comment
    for pick in ("best", "close"):
        row, game, state = await state_of(svc)
        legal = game.legal_actions(state, "alice")
        if len(legal) < 2 or r.status != "running":
            break
        svc.learning._analyses[(row.id, row.version, "alice")] = ai.Stats(
            [(legal[0], 100, 0.6), (legal[1], 90, 0.55)] + [(a, 30, 0.1) for a in legal[2:]])
        r = await svc.act(HERE, ALICE, legal[0] if pick == "best" else legal[1])
        assert r.ok and "🤔" not in coaching(r), pick


async def test_the_real_search_comments_on_a_clearly_weaker_move(svc, monkeypatch):
    """No planted analysis: the hint's own search (a larger budget, a fixed deal) finds a clearly weaker move;
    the learner plays it and is told, and is told nothing when they play the favourite."""
    monkeypatch.setattr("table.lobby.secrets.randbits", lambda bits: 20261126)
    svc.ai_options = {"iterations": 150, "timed": False}
    r = await svc.learn(HERE, ALICE, "wurrm")
    commented = quiet = 0
    for _step in range(30):
        if r.status != "running" or (commented and quiet):
            break
        row, game, state = await state_of(svc)
        stats = svc.learning._analyses[(row.id, row.version, "alice")]
        worse = next((a for a, _n, _w in stats.actions if weaker(stats, a)), None)
        if worse is not None and not commented:
            r = await svc.act(HERE, ALICE, worse)
            assert "looked clearly weaker" in coaching(r) and f"than **{stats.best}**" in coaching(r)
            commented += 1
        else:
            r = await svc.act(HERE, ALICE, stats.best)
            assert "🤔" not in coaching(r)
            quiet += len(stats.actions) > 1
    assert commented and quiet


async def test_an_undone_move_is_coached_again(svc):
    svc.ai_options = QUICK
    await svc.learn(HERE, ALICE, "wurrm")
    row, game, state = await state_of(svc)
    r = await svc.act(HERE, ALICE, game.legal_actions(state, "alice")[0])      # a Start space: no dice rolled
    assert coaching(r).startswith("📘 **Pick your lucky number")
    back = await svc.undo(HERE, ALICE)
    assert back.ok and coaching(back).startswith("📘 **Choose a Start space.**")


async def test_the_console_learns_too(tmp_path):
    text = await run_console(tmp_path, "alice@den /game learn game:mywuxing")
    assert "Alice is learning MyWuXing" in text.replace("alice", "Alice")
    assert "[only alice sees] 📘" in text and "💡" in text
    assert "`/game learn game:<key>`" in await run_console(tmp_path, "alice@den /game learn")


def test_learn_options_are_the_games_own():
    for key, options in GAME_OPTIONS.items():
        assert GAMES[key].check_options(options)
