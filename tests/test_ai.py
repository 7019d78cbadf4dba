"""Issue #15: computer players worth playing (engine.ai) and their place at the table.

The search must decide from the seat's view alone: two states that differ only in what the seat cannot see
(other hands, face-down choices, deck and bag order, secret votes, the generator) give the same decision
and the same statistics with the same seed. Tests use iteration budgets only, never time.
"""

from __future__ import annotations

import random
import zlib

import pytest

from engine import GAMES, ai
from engine.ai.ismcts import WIDEN, search
from engine.ai.policy import search_actions
from engine.rng import Rng, seed_state
from table import User, Where
from tests.support import err

FAST = {"iterations": 24, "timed": False}
CONFIGS = [
    ("wassamasaw", 2, {}),
    ("wagara", 2, {}),
    ("wagara", 3, {}),
    ("mywuxing", 2, {"version": "think"}),
    ("mywuxing", 3, {"version": "think", "think_option": 2, "power_cards": "on"}),
    ("seikatsu", 2, {}),
    ("seikatsu", 4, {}),
    ("wurrm", 2, {}),
    ("wurrm", 3, {"petition": True}),
]
IDS = [f"{k}-{n}p-{i}" for i, (k, n, _) in enumerate(CONFIGS)]


def engine_rng(seed: int) -> Rng:
    return Rng({"rng": seed_state(seed)})


def decisions(game, players, options, seed, steps=400, every=7):
    """(state, seat) along a game played by the beginner policy, where ``seat`` has a real choice."""
    rnd = random.Random(seed)
    state = game.new([f"s{i}" for i in range(players)], seed, options)
    for n in range(steps):
        if game.result(state) is not None:
            return
        acting = game.to_act(state)
        for seat in acting:
            if n % every == 0 and len(game.legal_actions(state, seat)) > 1:
                yield state, seat
        seat = rnd.choice(acting)
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))


def wurrm_vote(seed_range=range(80)):
    """A WURRM World Petition vote in which another seat has voted already (a secret the voter cannot see)."""
    g = GAMES["wurrm"]
    for seed in seed_range:
        rnd = random.Random(seed)
        s = g.new(["a", "b", "c"], seed, {"petition": True})
        for _ in range(3000):
            if g.result(s) is not None:
                break
            if s["phase"] == "vote" and len(g.to_act(s)) == 3:
                first, second = g.to_act(s)[:2]
                return g.apply(s, first, "vote yes"), second
            seat = rnd.choice(g.to_act(s))
            s = g.apply(s, seat, rnd.choice(g.bot_actions(s, seat)))
    raise AssertionError("no petition")


def _hidden_twins(game, state, seat):
    """States that differ from ``state`` only in what ``seat`` cannot see."""
    return [game.determinize(state, seat, engine_rng(k)) for k in (11, 12)]


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_decisions_depend_only_on_the_seats_view(index):
    key, players, options = CONFIGS[index]
    game = GAMES[key]
    checked = 0
    for state, seat in decisions(game, players, options, seed=index):
        if checked >= 3:
            break
        base = ai.analyse(game, state, seat, "hard", "t", **FAST)
        for twin in _hidden_twins(game, state, seat):
            assert game.view(twin, seat) == game.view(state, seat)
            assert ai.analyse(game, twin, seat, "hard", "t", **FAST).actions == base.actions
        checked += 1
    assert checked


def test_a_secret_vote_or_choice_already_cast_does_not_move_the_decision():
    """The hidden information that matters most: another seat's secret vote (WURRM World Z8), face-down
    card (Wagara G3) or chosen card (MyWuXing X7) is really different in the twin states."""
    g = GAMES["wurrm"]
    s, voter = wurrm_vote()
    other = next(v for v in s["petition"]["votes"])
    flipped = g.load(g.dump(s))
    flipped["petition"]["votes"][other] = not s["petition"]["votes"][other]
    assert g.view(flipped, voter) == g.view(s, voter)
    assert ai.analyse(g, s, voter, "hard", 3, **FAST).actions == ai.analyse(g, flipped, voter, "hard", 3,
                                                                            **FAST).actions
    wg = GAMES["wagara"]
    s = wg.new(["a", "b"], 5)
    s1 = wg.apply(s, "a", "play 2")
    s2 = wg.apply(s, "a", "play 6")
    assert wg.view(s1, "b") == wg.view(s2, "b")
    assert ai.choose(wg, s1, "b", "hard", 9, **FAST) == ai.choose(wg, s2, "b", "hard", 9, **FAST)
    assert ai.analyse(wg, s1, "b", "hard", 9, **FAST).actions == ai.analyse(wg, s2, "b", "hard", 9, **FAST).actions


def test_wurrm_resample_redraws_only_others_votes():
    g = GAMES["wurrm"]
    s, voter = wurrm_vote()
    seen = set()
    for k in range(20):
        d = g.determinize(s, voter, engine_rng(k))
        assert g.view(d, voter) == g.view(s, voter)
        assert set(d["petition"]["votes"]) == set(s["petition"]["votes"])
        seen.add(tuple(sorted(d["petition"]["votes"].items())))
    assert len(seen) == 2
    first = next(iter(s["petition"]["votes"]))
    assert all(g.determinize(s, first, engine_rng(k))["petition"]["votes"][first] is True for k in range(10))


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_every_level_only_plays_legal_actions(index):
    key, players, options = CONFIGS[index]
    game = GAMES[key]
    n = 0
    for state, seat in decisions(game, players, options, seed=100 + index, every=5):
        legal = game.legal_actions(state, seat)
        for level in ai.LEVELS:
            action = ai.choose(game, state, seat, level, n, iterations=12, timed=False)
            assert action in legal
            game.apply(state, seat, action)
        n += 1
        if n >= 6:
            break
    assert n


def test_decisions_are_deterministic_given_the_seed():
    for key, players, options in CONFIGS[:6]:
        game = GAMES[key]
        state, seat = next(decisions(game, players, options, seed=3, every=3))
        a = ai.analyse(game, state, seat, "medium", "seed-1", **FAST)
        b = ai.analyse(game, state, seat, "medium", "seed-1", **FAST)
        assert a.actions == b.actions and a.iterations == b.iterations == FAST["iterations"]
        assert ai.choose(game, state, seat, "medium", "x", **FAST) == ai.choose(game, state, seat, "medium", "x",
                                                                                **FAST)


def test_search_statistics_add_up():
    """Every iteration visits one root action once; win estimates are rates."""
    game = GAMES["wurrm"]
    state = game.new(["a", "b"], 1, {})
    stats = ai.analyse(game, state, game.to_act(state)[0], "hard", 0, iterations=60, timed=False)
    assert stats.iterations == 60 and sum(v for _, v, _ in stats.actions) == 60
    assert all(0.0 <= w <= 1.0 for _, _, w in stats.actions)


def _narrowed(key, seed=1):
    """A decision where the beginner's ``bot_actions`` keep several, but not all, of the legal actions."""
    game = GAMES[key]
    for state, seat in decisions(game, 2, {}, seed=seed, every=1):
        weighed = search_actions(game, state, seat, game.legal_actions(state, seat))
        bot = game.bot_actions(state, seat)
        if 1 < len(bot) < len(weighed) - 1:
            return game, state, seat, bot, weighed
    raise AssertionError("no narrowed decision")


@pytest.mark.parametrize("key", ["wagara", "wurrm"])
def test_a_small_budget_searches_the_beginners_choices_first(key):
    """Root progressive widening: below WIDEN iterations per extra action, only ``bot_actions`` are tried
    (medium lost to easy when its few rollouts were spread over every legal action)."""
    game, state, seat, bot, weighed = _narrowed(key)
    small = WIDEN * len(bot)
    stats = ai.analyse(game, state, seat, "medium", 4, iterations=small, timed=False)
    visited = {a for a, n, _ in stats.actions if n}
    assert visited == set(bot) and stats.best in bot
    assert {a for a, _, _ in stats.actions} == set(weighed)       # the others are listed, unvisited
    # a larger budget admits every legal action, one more per WIDEN iterations
    big = ai.analyse(game, state, seat, "hard", 4, iterations=WIDEN * (len(weighed) + 2), timed=False)
    assert all(n for _, n, _ in big.actions)
    assert sum(n for _, n, _ in big.actions) == big.iterations


def test_the_prior_is_read_on_a_determinization_never_the_true_state(monkeypatch):
    """A game whose ``bot_actions`` peeked at hidden information (here the generator, hidden in every game)
    could not leak it through the prior: the search asks it on a redrawn state. Twin states that differ in
    the peeked bit search the same."""
    game, state, seat, bot, weighed = _narrowed("wurrm")
    real = type(game).bot_actions

    def peeked(st):
        return zlib.crc32(repr(st["rng"]).encode()) % 2

    def peeking(self, st, who):
        actions = real(self, st, who)
        return actions[:1] if who == seat and peeked(st) else actions

    monkeypatch.setattr(type(game), "bot_actions", peeking)
    twins = [game.determinize(state, seat, engine_rng(k)) for k in range(12)]
    twins = [next(t for t in twins if peeked(t)), next(t for t in twins if not peeked(t))]
    assert all(game.view(t, seat) == game.view(state, seat) for t in twins)
    results = [ai.analyse(game, t, seat, "medium", 8, iterations=20, timed=False).actions for t in twins]
    assert results[0] == results[1]


def test_a_time_budget_never_cuts_below_the_floor():
    """A busy machine gives a level at least its floor of iterations: with no time at all, exactly it."""
    game, state, seat, _, _ = _narrowed("wurrm")
    stats = search(game, state, seat, iterations=500, seconds=0.0, seed=1, floor=17)
    assert stats.iterations == 17 and sum(n for _, n, _ in stats.actions) == 17
    assert ai.BUDGETS["medium"].floor <= ai.BUDGETS["medium"].iterations
    assert ai.budget("hard", iterations=10).floor == 10             # never above the iteration budget


def _seikatsu_four_finished():
    """A Seikatsu game at four (two teams, S3/D1) played by beginners to its end."""
    game = GAMES["seikatsu"]
    state = game.new(["s0", "s1", "s2", "s3"], 5, {})
    rnd = random.Random(5)
    while game.result(state) is None:
        seat = rnd.choice(game.to_act(state))
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
    return game, state


def test_S3_D1_a_team_win_is_a_whole_win_for_both_teammates():
    """At four in Seikatsu the search's reward is the team's: a team that wins alone earns each of its seats
    what a lone winner earns (not half, as a two-seat winner list would give), the losing team nothing but its
    margin, and the margin is taken over the other team's score, not the teammate's (which is the same)."""
    from engine.ai.heuristics import evaluate
    from engine.ai.ismcts import MARGIN, rewards
    game, state = _seikatsu_four_finished()
    res = game.result(state)
    teams = game.teams(state)
    assert sorted(map(sorted, teams)) == [["s0", "s2"], ["s1", "s3"]]
    scores = res["scores"]
    r = rewards(game, state, res)
    for team in teams:
        me, other = team[0], next(t for t in teams if t is not team)[0]
        lead = scores[me] - scores[other]
        assert r[team[0]] == r[team[1]]
        if lead > 0:
            assert r[me] > 1 - MARGIN and r[other] < MARGIN / 2      # a whole win; the other team gets its margin
        elif lead == 0:
            assert r[me] == pytest.approx(0.5)                     # two sides share the win
    est = evaluate(game, state)
    best = max(teams, key=lambda t: scores[t[0]])
    if scores[best[0]] > min(scores.values()):
        assert est[best[0]] > 0.5 and est[best[1]] > 0.5            # a team ahead is ahead, for both teammates
    two = GAMES["seikatsu"].new(["a", "b"], 1, {})
    assert GAMES["seikatsu"].teams(two) == [] and GAMES["wagara"].teams(GAMES["wagara"].new(["a", "b"], 1, {})) == []


def test_hint_text_names_the_top_two():
    stats = ai.Stats([("take fire 4", 30, 0.61), ("take wood 2", 20, 0.55), ("convert water 1", 5, 0.2)], 55)
    text = ai.hint_text(stats)
    assert "take fire 4" in text and "take wood 2" in text and "61%" in text and "55%" in text
    assert "convert water 1" not in text


# ----- at the table ---------------------------------------------------------------------------------------

HERE = Where("chan", guild="g")
ALICE, BOB, CAROL = User("111", "Alice"), User("222", "Bob"), User("333", "Carol")


async def test_levels_are_chosen_and_shown_in_the_lobby(svc):
    assert (await svc.open_table(HERE, ALICE, "wagara")).ok
    r = await svc.add_bot(HERE, ALICE, "hard")
    assert r.ok and "Computer 1 (hard)" in r.text
    r = await svc.add_bot(HERE, ALICE, "medium")
    assert "Computer 2 (medium)" in r.text and "Computer 1 (hard)" in r.text
    r = await svc.add_bot(HERE, ALICE)
    assert "Computer 3 (easy)" in r.text
    assert "easy, medium or hard" in err(await svc.add_bot(HERE, ALICE, "genius"))
    row = await svc.store.open_game(HERE.channel)
    from table.service import bot_level
    assert [bot_level(s) for s in row.seats if s.is_bot] == ["hard", "medium", "easy"]


async def test_console_addbot_takes_a_level(svc, tmp_path):
    from console.table import Console
    out = []
    console = Console(svc, tmp_path / "img", write=out.append)
    await console.handle("alice@chan /game new game:wagara")
    await console.handle("alice@chan /game addbot level:hard")
    assert "Computer 1 (hard)" in "\n".join(map(str, out))


def _spy(monkeypatch):
    seen = []
    real = ai.choose

    def spy(game, state, seat, level, seed, **kw):
        seen.append((seat, level))
        return real(game, state, seat, level, seed, iterations=8, timed=False)

    monkeypatch.setattr(ai, "choose", spy)
    return seen


async def test_computer_seats_play_at_their_level(svc, monkeypatch):
    seen = _spy(monkeypatch)
    assert (await svc.open_table(HERE, ALICE, "wassamasaw")).ok
    assert (await svc.add_bot(HERE, ALICE, "hard")).ok
    assert (await svc.start(HERE, ALICE)).ok
    for _ in range(10):
        if seen:
            break
        row = await svc.store.open_game(HERE.channel)
        game, state = svc._state(row)
        assert (await svc.act(HERE, ALICE, game.legal_actions(state, "111")[0])).ok
    assert seen and {lvl for _, lvl in seen} == {"hard"}


async def test_skip_and_remove_play_at_medium(svc, monkeypatch):
    seen = _spy(monkeypatch)
    assert (await svc.open_table(HERE, ALICE, "wagara")).ok
    assert (await svc.join(HERE, BOB)).ok
    assert (await svc.add_bot(HERE, ALICE)).ok                 # easy: today's beginner, no search
    assert (await svc.start(HERE, ALICE)).ok
    assert seen == []
    row = await svc.store.open_game(HERE.channel)
    game, state = svc._state(row)
    assert {"111", "222"} <= set(game.to_act(state))
    assert (await svc._skip(row, game, state, ["111"], "was skipped")).ok
    assert seen == [("111", "medium")]
    row = await svc.store.open_game(HERE.channel)
    game, state = svc._state(row)
    assert (await svc._remove(row, game, state, ["222"])).ok
    assert ("222", "medium") in seen[1:]
    from store.rows import Seat
    from table.service import bot_level
    assert bot_level(Seat("222", "Bob", True)) == "medium"
    assert bot_level(Seat("cpu-1", "Computer 1", True)) == "easy"          # computers of old games


async def test_hint_is_private_for_the_caller_on_their_own_decision(svc):
    svc.ai_options = {"iterations": 16, "timed": False}
    assert (await svc.open_table(HERE, ALICE, "wagara")).ok
    assert (await svc.join(HERE, BOB)).ok
    assert "hints: on" in (await svc.set_option(HERE, ALICE, "rated", "off")).text    # an unrated table (#47)
    assert (await svc.start(HERE, ALICE)).ok
    r = await svc.hint(HERE, ALICE)
    assert r.ok and not r.text and not r.log and r.turn is None and not r.notes
    assert [p.user for p in r.private] == ["111"]
    text = r.private[0].text
    row = await svc.store.open_game(HERE.channel)
    game, state = svc._state(row)
    named = [a for a in game.legal_actions(state, "111") if f"**{a}**" in text]
    assert len(named) == 2
    # Bob's face-down card is no input: whatever Bob chose, Alice's hint reads the same
    before = text
    await svc.act(HERE, BOB, "play 1")
    again = (await svc.hint(HERE, ALICE)).private[0].text
    row2 = await svc.store.open_game(HERE.channel)
    other = game.apply(state, "222", "play 6")
    assert ai.hint(game, other, "111", f"{row2.id}:{row2.version}:hint:111", **svc.ai_options) == again
    assert before  # the earlier hint was given on another version: its seed differs
    # not Bob's decision any more (his card is down), nor a spectator's
    assert "your own decision" in err(await svc.hint(HERE, BOB))
    assert "players of this game" in err(await svc.hint(HERE, CAROL))


async def test_the_host_can_turn_hints_off_in_the_lobby(svc, monkeypatch):
    svc.ai_options = {"iterations": 8, "timed": False}
    r = await svc.open_table(HERE, ALICE, "wagara")
    assert "hints: on" in r.text                                    # an unrated table has hints, on by default
    assert (await svc.join(HERE, BOB)).ok
    assert (await svc.set_option(HERE, ALICE, "rated", "off")).ok  # two people: rated unless set (#47)
    assert "Only the host" in err(await svc.set_option(HERE, BOB, "hints", "off"))
    assert "on or off" in err(await svc.set_option(HERE, ALICE, "hints", "maybe"))
    r = await svc.set_option(HERE, ALICE, "hints", "off")
    assert r.ok and "hints: off" in r.text
    assert (await svc.start(HERE, ALICE)).ok                         # the engine is never given the option
    row = await svc.store.open_game(HERE.channel)
    searched = []
    monkeypatch.setattr(ai, "hint", lambda *a, **kw: searched.append(a) or "searched")
    r = await svc.hint(HERE, ALICE)
    assert "hints turned off" in err(r) and [p.user for p in r.private] == ["111"] and not r.text
    assert searched == []
    after = await svc.store.open_game(HERE.channel)
    assert after.version == row.version and after.state == row.state   # a refused hint changes nothing
    from table.records import rebuild
    game, state = svc._state(after)
    assert game.dump(rebuild(game, after, await svc.store.log(after.id))[-1]) == after.state


async def test_a_game_option_set_after_hints_keeps_them(svc):
    assert (await svc.open_table(HERE, ALICE, "mywuxing")).ok
    assert (await svc.set_option(HERE, ALICE, "hints", "off")).ok
    r = await svc.set_option(HERE, ALICE, "version", "think")
    assert r.ok and "version: think" in r.text and "hints: off" in r.text
    assert "Options: version, " in err(await svc.set_option(HERE, ALICE, "colour", "red"))
    assert "hints" in err(await svc.set_option(HERE, ALICE, "colour", "red"))


async def test_console_hints_off_answers_privately(svc, tmp_path):
    from console.table import Console
    out = []
    console = Console(svc, tmp_path / "img", write=out.append)
    await console.handle("alice@chan /game new game:wagara hints:off rated:off")
    assert "hints: off" in "\n".join(map(str, out))
    await console.handle("bob@chan /game join")
    await console.handle("alice@chan /game start")
    out.clear()
    await console.handle("alice@chan /game hint")
    text = "\n".join(map(str, out))
    assert "[only alice sees]" in text and "hints turned off" in text and "[#chan]" not in text


async def test_the_discord_lobby_select_offers_hints(svc):
    """The host's option select lists hints with the game's options, the current value marked."""
    from cogs import ui
    from cogs.game import lobby_rows
    assert (await svc.open_table(HERE, ALICE, "wagara")).ok

    def entries():
        return {o.label: o.value for item in ui.children(lobby_rows(row)) if isinstance(item, ui._Select)
                for o in item.item.options}

    row = await svc.store.open_game(HERE.channel)
    rated = {"rated: on": "rated=on", "rated: off ✓": "rated=off",     # one person seated: unrated (#27)
             "speed: untimed ✓": "speed=untimed", "speed: fast": "speed=fast", "speed: daily": "speed=daily",
             "speed: relaxed": "speed=relaxed"}                          # and the clock (#34)
    assert entries() == {"hints: on ✓": "hints=on", "hints: off": "hints=off", **rated}
    assert (await svc.set_option(HERE, ALICE, "hints", "off")).ok
    row = await svc.store.open_game(HERE.channel)
    assert entries() == {"hints: on": "hints=on", "hints: off ✓": "hints=off", **rated}


async def test_discord_hints_off_in_the_lobby_select_then_hint_is_refused_privately(tmp_path):
    from cogs.runner import TeahouseBot
    from store import Store
    from table import TableService
    from tests.fakediscord import FakeDiscord
    from tests.support import answer

    store = Store(tmp_path / "b.db")
    async with FakeDiscord() as fake, fake.run(TeahouseBot(store, service=TableService(store))):
        lobby = (await fake.slash("alice", "general", "game new", options={"game": "wagara"})).message
        assert "hints: on" in lobby.said
        select = lobby.selects()[0]
        lobby = await answer(await fake.select("alice", lobby, select["custom_id"], ["hints=off"]))
        assert "hints: off" in lobby.said
        await fake.click("bob", lobby, label="Join")
        await answer(await fake.click("alice", lobby, label="Start"))
        refused = await answer(await fake.slash("alice", "general", "game hint"))
        # two people: a rated table, which has no hints anyway (#47)
        assert refused.ephemeral and "There are no hints at a rated table" in refused.said


async def test_rated_play_has_no_hints_unrated_and_learn_games_do(db_target, monkeypatch):
    """#47: a rated table has no hints (the lobby says so), a league game is rated and has none, turning hints
    on makes a table unrated (and says so), making it rated turns them off; an unrated table and a learn game
    answer /game hint. The refusal is one line. On SQLite and on PostgreSQL."""
    from store import open_store
    from store.leagues import LeagueStore
    from store.store import Seat
    from table import TableService
    from table.records import at_start, hints_on

    monkeypatch.setattr(ai, "hint", lambda *a, **kw: "Hard would play **the stub's move**.")
    async with open_store(db_target) as store:
        svc = TableService(store, render=False)
        rated, unrated = Where("rated", "g"), Where("unrated", "g")
        # a rated table: two people, rated by default, so no hints — the lobby says so
        assert "hints: on" in (await svc.open_table(rated, ALICE, "wassamasaw")).text   # one person: unrated
        lobby = (await svc.join(rated, BOB)).text
        assert "hints: off" in lobby and "rated: on" in lobby
        assert "Rated: no hints at this table (turning hints on makes it unrated)." in lobby
        assert (await svc.start(rated, ALICE)).ok
        assert (await store.open_game("rated")).options["hints"] is False       # kept to the game's end
        refused = err(await svc.hint(rated, ALICE))        # refused before anything else: whoever is to act
        assert refused == ("There are no hints at a rated table: ratings and league standings measure the players, "
                           "not the computer's advice.")
        # turning hints on makes a table unrated, and says so; making it rated again turns them off
        assert (await svc.open_table(unrated, ALICE, "wassamasaw")).ok
        assert (await svc.join(unrated, BOB)).ok
        r = await svc.set_option(unrated, ALICE, "rated", "off")
        assert "hints: on" in r.text and "Rated: no hints" not in r.text
        r = await svc.set_option(unrated, ALICE, "rated", "on")
        assert "A rated table has no hints: hints are off." in r.text and "hints: off" in r.text
        r = await svc.set_option(unrated, ALICE, "hints", "on")
        assert "With hints on, the table is unrated: rated games have no hints." in r.text and "rated: off" in r.text
        assert (await svc.start(unrated, ALICE)).ok
        row = await store.open_game("unrated")
        first = {"111": ALICE, "222": BOB}[GAMES["wassamasaw"].to_act(GAMES["wassamasaw"].load(row.state))[0]]
        answered = await svc.hint(unrated, first)                    # whoever moves first (the seed decides)
        assert answered.ok and "the stub's move" in answered.private[0].text
        # a learn game answers
        learn = Where("learn", "g")
        assert (await svc.learn(learn, ALICE, "wassamasaw")).ok
        assert "the stub's move" in (await svc.hint(learn, ALICE)).private[0].text
        # a league's game: rated, no hints
        season = Where("season", "g")
        assert (await svc.leagues.new(season, ALICE, "wassamasaw", "swiss", 1, "untimed", True)).ok
        for u in (ALICE, BOB):
            assert (await svc.leagues.join(season, u)).ok
        assert (await svc.leagues.start(season, ALICE, True)).ok
        (table,) = await LeagueStore(store).pairings(1)
        game = await store.game(table.game_id)
        assert game.options["hints"] is False and "rated" not in game.options       # rated: two people
        assert err(await svc.hint(Where(game.channel, "g"), ALICE)) == refused
    # a game started before #47 stored no hints: it keeps the hints it began with (on)
    assert hints_on({"speed": "fast"}) and not hints_on({"hints": False})
    assert at_start({"hints": True}, []) == {"hints": True, "rated": False}
    assert at_start({}, [Seat("1", "a"), Seat("2", "b")]) == {"hints": False}
