"""Skill ratings (issue #27): the pure rating of a result, and ratings written with the game's end on both
databases — per game and server, teams, the removed, computers, unrated and abandoned games, two games ending
at once, and a rebuild that gives exactly the live numbers."""

import asyncio
import random
import subprocess
import sys
from pathlib import Path

from store import open_store
from store import ratings as R
from store.rows import Seat

ROOT = Path(__file__).resolve().parent.parent
ALICE, BOB, CAROL, DAN = (Seat("alice", "Alice"), Seat("bob", "Bob"), Seat("carol", "Carol"), Seat("dan", "Dan"))


def test_a_new_player_shows_1500_provisional_and_a_win_moves_both_ways():
    assert R.display(R.MU, R.SIGMA) == 1500 and R.shown(R.MU, R.SIGMA) == "1500?"
    units = R.standings({"winners": ["a"], "scores": {"a": 5, "b": 3}}, [Seat("a", "A"), Seat("b", "B")])
    assert units == [(["a"], 1), (["b"], 2)]
    new = R.rate(units, {"a": "a", "b": "b"}, {"a": R.Rating(), "b": R.Rating()})
    assert new["a"].mu > R.MU > new["b"].mu and new["a"].shown > 1500
    assert R.shown(25, 5.9) == "1646" and R.shown(25, 6.0)[-1] == "?"


def test_places_ties_ranking_teams_and_the_removed():
    four = [Seat("a", "A"), Seat("b", "B"), Seat("c", "C"), Seat("d", "D")]
    # equal scores tie; winners share first
    assert R.standings({"winners": ["a", "b"], "scores": {"a": 5, "b": 5, "c": 2, "d": 2}}, four) == [
        (["a"], 1), (["b"], 1), (["c"], 2), (["d"], 2)]
    # a ranking orders those who did not win
    assert R.standings({"winners": ["c"], "scores": {}, "ranking": ["c", "d", "a", "b"]}, four) == [
        (["a"], 3), (["b"], 4), (["c"], 1), (["d"], 2)]
    # teams are units; a shared win is a tie
    teams = {"winners": ["a", "c"], "scores": {"a": 9, "c": 9, "b": 7, "d": 7}, "teams": [["a", "c"], ["b", "d"]]}
    assert R.standings(teams, four) == [(["a", "c"], 1), (["b", "d"], 2)]
    tie = {**teams, "winners": ["a", "b", "c", "d"]}
    assert R.standings(tie, four) == [(["a", "c"], 1), (["b", "d"], 1)]
    # a removed person leaves their team and places last, even if the computer won their seat
    removed = [Seat("a", "A", True), Seat("b", "B"), Seat("c", "C"), Seat("d", "D")]
    assert R.standings(teams, removed) == [(["c"], 1), (["b", "d"], 2), (["a"], 3)]
    assert R.standings({"winners": ["a"], "scores": {"a": 9, "b": 1}}, [Seat("a", "A", True), Seat("b", "B")]) == [
        (["b"], 1), (["a"], 2)]


def test_who_is_rated_and_how_computers_are_named():
    cpu = Seat("cpu-1", "Computer 1 (hard)", True)
    assert R.entity(cpu.user_id, cpu.name, True) == "cpu:hard" and R.entity("alice", "Alice", True) == "alice"
    assert R.is_rated({}, [ALICE, BOB]) and not R.is_rated({}, [ALICE, cpu])
    assert R.is_rated({"rated": True}, [ALICE, cpu]) and not R.is_rated({"rated": False}, [ALICE, BOB])
    assert R.streak(["win", "win", "loss"]) == ("win", 2) and R.streak([]) is None


async def end(store, seats, result, *, channel="c", guild="g", options=None, now=10.0, status="finished"):
    g = await store.create_game(guild=guild, channel=channel, game="pebbles", options=options or {}, host=seats[0],
                                now=1)
    g = await store.start_game(g, seats=seats, seed=1, state="{}", now=2)
    if status == "abandoned":
        return await store.set_status(g, "abandoned", now=now, result=result)
    return await store.record_moves(g, [], "{}", now=now, status="finished", result=result)


async def test_a_game_rates_its_players_with_its_end(any_store):
    store = any_store
    g = await end(store, [ALICE, BOB, Seat("cpu-1", "Computer 1 (easy)", True)],
                  {"winners": ["bob"], "scores": {"alice": 1, "bob": 3, "cpu-1": 2}})
    changes = {c.player: c for c in await R.changes_of(store, g.id)}
    assert set(changes) == {"alice", "bob", "cpu:easy"}
    assert changes["bob"].place == 1 and changes["cpu:easy"].place == 2 and changes["alice"].place == 3
    assert changes["bob"].delta > 0 and changes["alice"].after.mu < R.MU
    board = await R.board(store, "g", "pebbles")
    assert [p for p, *_ in board] == ["bob", "cpu:easy", "alice"] and board[1][1] == "easy"
    assert all(n == 1 for *_, n in board)
    # another server, and direct messages, know nothing of it
    assert await R.board(store, "h", "pebbles") == [] and await R.board(store, None, "pebbles") == []
    assert set(await R.ratings_of(store, "bob", "g")) == {"pebbles"} and await R.ratings_of(store, "bob", "h") == {}
    await end(store, [ALICE, BOB], {"winners": ["alice"]}, channel="dm", guild=None)
    assert [p for p, *_ in await R.board(store, None, "pebbles")] == ["alice", "bob"]
    line, won = (await R.history(store, "bob", "g"))["pebbles"]
    assert line[0] == 1500 and len(line) == 2 and won == 1


async def test_unrated_and_abandoned_games_change_nobody(any_store):
    store = any_store
    g1 = await end(store, [ALICE, BOB], {"winners": ["alice"]}, options={"rated": False})
    g2 = await end(store, [ALICE, Seat("cpu-1", "Computer 1 (hard)", True)], {"winners": ["alice"]}, channel="c2")
    g3 = await end(store, [ALICE, BOB], None, channel="c3", status="abandoned")     # by a host who is not seated
    for g in (g1, g2, g3):
        assert await R.changes_of(store, g.id) == []
    assert await R.board(store, "g", "pebbles") == []
    g4 = await end(store, [ALICE, Seat("cpu-1", "Computer 1 (hard)", True)], {"winners": ["cpu-1"]}, channel="c4",
                   options={"rated": True})
    assert {c.player for c in await R.changes_of(store, g4.id)} == {"alice", "cpu:hard"}


async def test_a_player_who_abandons_places_last(any_store):
    """Issue #27: abandoning a game that goes badly never saves a rating; the others share first place."""
    store = any_store
    g = await end(store, [ALICE, BOB, CAROL], {"winners": ["bob", "carol"], "abandoned_by": "alice"},
                  status="abandoned")
    changes = {c.player: c for c in await R.changes_of(store, g.id)}
    assert changes["alice"].place == 2 and changes["bob"].place == changes["carol"].place == 1
    assert changes["alice"].delta < 0 < changes["bob"].delta


async def test_two_games_ending_at_once_for_one_player_both_count_and_rebuild_matches(db_target):
    async with open_store(db_target) as a, open_store(db_target) as b:
        pairs = []
        for store, channel, other in ((a, "c1", BOB), (b, "c2", CAROL)):
            g = await store.create_game(guild="g", channel=channel, game="pebbles", options={}, host=ALICE, now=1)
            pairs.append((store, await store.start_game(g, seats=[ALICE, other], seed=1, state="{}", now=2)))
        await asyncio.gather(*(s.record_moves(g, [], "{}", now=5, status="finished",
                                              result={"winners": ["alice"]}) for s, g in pairs))
        changes = [c for _s, g in pairs for c in await R.changes_of(a, g.id) if c.player == "alice"]
        first, second = sorted(changes, key=lambda c: c.before.sigma, reverse=True)
        assert first.before == R.Rating() and second.before == first.after       # applied one after the other
        # sequentially, by hand: the same numbers
        one = R.rate([(["alice"], 1), (["x"], 2)], {"alice": "alice", "x": "x"}, {"alice": R.Rating(), "x": R.Rating()})
        two = R.rate([(["alice"], 1), (["x"], 2)], {"alice": "alice", "x": "x"},
                     {"alice": one["alice"], "x": R.Rating()})
        alice = (await R.ratings_of(a, "alice", "g"))["pebbles"]
        assert alice == (two["alice"], 2)
        before = await R.board(a, "g", "pebbles")
        await R.rebuild(a)
        assert await R.board(a, "g", "pebbles") == before


async def test_rebuild_gives_exactly_the_live_numbers(any_store):
    store = any_store
    people = [ALICE, BOB, CAROL, DAN]
    rnd = random.Random(7)
    for i in range(40):
        n = rnd.choice([2, 3, 4])
        seats = rnd.sample(people, n) + ([Seat("cpu-1", "Computer 1 (medium)", True)] if i % 5 == 0 else [])
        if i % 7 == 0:
            seats[-1] = Seat(seats[-1].user_id, seats[-1].name, True)          # removed
        scores = {s.user_id: rnd.randint(0, 3) for s in seats}
        best = max(scores.values())
        result = {"winners": [s for s, v in scores.items() if v == best], "scores": scores}
        if n == 4 and i % 2:
            ids = [s.user_id for s in seats]
            result["teams"] = [[ids[0], ids[2]], [ids[1], ids[3]]]
        status = "finished"
        if i % 6 == 1:                  # a seated player abandoned it
            status, result = "abandoned", {"winners": [s.user_id for s in seats[1:]], "abandoned_by": seats[0].user_id}
        await end(store, seats, result, channel=f"c{i}", guild=rnd.choice(["g", None]), now=100 + i // 3,
                  options={"rated": i % 11 != 0}, status=status)
    live = {(g, k): await R.board(store, g, "pebbles", 100) for g in ("g", None) for k in ("pebbles",)}
    history = await R.history(store, "alice", "g")
    every = [tuple(r) for r in await store.select(R.EVERY_RATING)]
    assert await R.rebuild(store) > 30
    assert [tuple(r) for r in await store.select(R.EVERY_RATING)] == every          # every number, exactly
    assert {(g, k): await R.board(store, g, "pebbles", 100) for g in ("g", None) for k in ("pebbles",)} == live
    assert await R.history(store, "alice", "g") == history


async def test_the_rebuild_command(tmp_path):
    path = tmp_path / "t.db"
    async with open_store(path) as store:
        await end(store, [ALICE, BOB, CAROL], {"winners": ["carol"], "scores": {"alice": 2, "bob": 1, "carol": 3}})
        await end(store, [ALICE, BOB], {"winners": ["alice"]}, channel="c2", now=20)
        live = await R.board(store, "g", "pebbles")
    done = subprocess.run([sys.executable, "-m", "store.rerate", str(path)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0 and "rebuilt the ratings of 2 rated games" in done.stdout, done.stderr
    async with open_store(path) as store:
        assert await R.board(store, "g", "pebbles") == live
    wrong = subprocess.run([sys.executable, "-m", "store.rerate", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert wrong.returncode == 2 and "usage" in wrong.stderr


async def test_the_rating_listings_use_indexes(store):
    from sqlalchemy.dialects import sqlite

    params = {"guild": "g", "game": "pebbles", "user": "alice", "limit": 10}
    for stmt in (R.BOARD, R.OF_PLAYER, R.LATEST_IN, R.LATEST_IN_DMS, R.HISTORY):
        compiled = stmt.compile(dialect=sqlite.dialect())
        args = tuple(params.get(name, compiled.params.get(name)) for name in compiled.positiontup)
        async with store._connection() as conn:
            rows = (await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + str(compiled), args)).all()
        plan = " | ".join(r[3] for r in rows)
        assert "USING" in plan and not any(part.strip() in ("SCAN ratings", "SCAN results", "SCAN rating_changes")
                                           for part in plan.split("|")), plan


def test_a_real_seikatsu_game_at_four_is_rated_as_two_teams():
    from engine import GAMES

    game = GAMES["seikatsu"]
    seats = ["a", "b", "c", "d"]
    state, rnd = game.new(seats, 5), random.Random(5)
    while game.result(state) is None:
        seat = rnd.choice(game.to_act(state))
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
    result = game.result(state)
    units = R.standings(result, [Seat(s, s) for s in seats])
    assert sorted(sorted(u) for u, _place in units) == sorted(sorted(t) for t in game.teams(state))
    new = R.rate(units, {s: s for s in seats}, dict.fromkeys(seats, R.Rating()))
    for team in game.teams(state):                      # teammates move together
        assert new[team[0]] == new[team[1]]


def test_the_starting_rating_is_openskills_own_default():
    """MU and SIGMA are written out so the bot loads openskill only when it rates a game (issue #29's memory
    at rest); they stay the model's defaults, the numbers every stored rating was computed from."""
    from openskill.models import PlackettLuce

    from store import ratings

    default = PlackettLuce()
    assert (ratings.MU, ratings.SIGMA) == (default.mu, default.sigma)
    assert (ratings.model().mu, ratings.model().sigma) == (default.mu, default.sigma)
