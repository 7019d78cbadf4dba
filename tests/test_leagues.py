"""Leagues (issue #35): the pairing functions, and whole leagues run at the console with a computer choosing
each person's moves (the beginner policy, the fastest), the bot restarted mid-round."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict

from console.table import Console
from engine import GAMES
from engine.bots import random_action
from store import open_store
from store.leagues import LeagueStore
from table import pairing as pr
from table.service import TableService


# ----- pairing: pure functions ------------------------------------------------------------------------------
def simulate_swiss(n: int, rounds: int, seed: int) -> list[pr.Played]:
    rnd = random.Random(seed)
    players = [f"p{i:02d}" for i in range(n)]
    history: list[pr.Played] = []
    for r in range(1, rounds + 1):
        for t in pr.swiss_round(players, history):
            if len(t) == 1:
                history.append(pr.Played(r, t, {t[0]: 1.0}))
                continue
            x = rnd.random()
            pts = (1.0, 0.0) if x < 0.45 else (0.0, 1.0) if x < 0.9 else (0.5, 0.5)
            history.append(pr.Played(r, t, dict(zip(t, pts, strict=True))))
    return history


def test_swiss_never_pairs_a_rematch_nor_a_second_bye_and_alternates_who_moves_first():
    """Colours as the rules of chess ask (no one three times in a row the same, firsts and seconds within two)
    while the field is large for the rounds; in a late round of a small field only the pairing's own
    rules hold (FIDE relaxes colours there too)."""
    for n, rounds in [(12, 5), (11, 5), (13, 6), (12, 7), (11, 8), (9, 6), (200, 9)]:
        for seed in range(4 if n < 100 else 1):
            history = simulate_swiss(n, rounds, seed)
            assert all(v == 1 for v in pr.met(history).values()), (n, seed)
            byes = pr.byes_of(history)
            assert all(v == 1 for v in byes.values())
            assert sum(byes.values()) == (rounds if n % 2 else 0)
            seat_runs = defaultdict(list)
            for g in sorted(history, key=lambda g: g.round):
                if not g.bye:
                    for i, s in enumerate(g.seats):
                        seat_runs[s].append(i)
            for runs in seat_runs.values() if rounds <= n // 2 else ():
                assert abs(runs.count(0) - runs.count(1)) <= 2, runs
                assert not any(a == b == c for a, b, c in zip(runs, runs[1:], runs[2:], strict=False)), runs
            # every round: each player at one table
            for r in range(1, rounds + 1):
                seated = [s for g in history if g.round == r for s in g.seats]
                assert sorted(seated) == sorted(f"p{i:02d}" for i in range(n))


def test_swiss_pairs_equal_scores_when_it_can():
    history = [pr.Played(1, ("a", "b"), {"a": 1.0, "b": 0.0}), pr.Played(1, ("c", "d"), {"c": 1.0, "d": 0.0})]
    pairs = pr.swiss_round(["a", "b", "c", "d"], history)
    assert {frozenset(p) for p in pairs} == {frozenset("ac"), frozenset("bd")}
    # a and c both moved first: the lower placed (c) gets the other wish; b and d both moved second: the
    # higher placed (b) moves first
    assert ("c", "a") in pairs and ("b", "d") in pairs


def test_a_greedy_pass_would_get_stuck_the_matching_does_not():
    """Six players whose top pairing by score would leave the last two to meet again: the exact matching
    finds the pairing that avoids every rematch."""
    history = [pr.Played(1, ("a", "b"), {"a": 1.0, "b": 0.0}), pr.Played(1, ("c", "d"), {"c": 1.0, "d": 0.0}),
               pr.Played(1, ("e", "f"), {"e": 1.0, "f": 0.0}),
               pr.Played(2, ("a", "c"), {"a": 1.0, "c": 0.0}), pr.Played(2, ("e", "b"), {"e": 1.0, "b": 0.0}),
               pr.Played(2, ("d", "f"), {"d": 1.0, "f": 0.0})]
    pairs = pr.swiss_round(list("abcdef"), history)
    seen = pr.met(history)
    assert len(pairs) == 3 and not any(seen[tuple(sorted(p))] for p in pairs)


def test_berger_tables_are_fides():
    # FIDE's Berger table for 6 players, as printed in the Handbook (C.05 annex 1)
    fide6 = [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
             [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
    got = pr.berger([1, 2, 3, 4, 5, 6])
    assert [sorted(r) for r in got] == [sorted(r) for r in fide6]
    for n in range(3, 13):
        rounds = pr.berger(list(range(n)))
        assert len(rounds) == n - 1 + n % 2
        pairs = Counter(frozenset(t) for r in rounds for t in r if len(t) == 2)
        assert set(pairs) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
        assert set(pairs.values()) == {1}
        for r in rounds:
            assert sorted(s for t in r for s in t) == list(range(n))
            assert sum(1 for t in r if len(t) == 1) == n % 2
        firsts = Counter(t[0] for r in rounds for t in r if len(t) == 2)
        games = n - 1 if n % 2 == 0 else n - 1
        assert all(abs(2 * firsts[p] - games) <= 1 + n % 2 for p in range(n)), (n, firsts)


def test_pods_fill_tables_of_the_best_size_and_spread_repeats():
    assert pr.pod_sizes(9, 3, 3, 5) == [3, 3, 3]
    assert pr.pod_sizes(10, 3, 3, 5) == [4, 3, 3]
    assert pr.pod_sizes(11, 4, 3, 6) == [4, 4, 3]
    assert pr.pod_sizes(2, 3, 3, 5) == [1, 1]
    rnd = random.Random(4)
    players = [f"q{i}" for i in range(9)]
    history: list[pr.Played] = []
    for r in range(1, 5):
        tables = pr.pods_round(players, history, [3, 3, 3])
        assert sorted(s for t in tables for s in t) == sorted(players)
        for t in tables:
            order = list(t)
            rnd.shuffle(order)
            history.append(pr.Played(r, t, pr.place_points([[s] for s in order], 3)))
    met = pr.met(history)
    assert max(met.values()) <= 2
    assert sum(v - 1 for v in met.values()) <= 4            # chunks of the standings alone repeat far more


def test_place_points_share_tied_places():
    assert pr.place_points([["a"], ["b"], ["c"]], 3) == {"a": 3, "b": 1, "c": 0}
    assert pr.place_points([["a", "b"], ["c"]], 3) == {"a": 2, "b": 2, "c": 0}
    assert pr.place_points([["a"], ["b", "c", "d"]], 4) == {"a": 4, "b": 1, "c": 1, "d": 1}


def test_standings_by_hand():
    """Four players, two rounds: a beats b, c draws d; then a beats c, d beats b."""
    h = [pr.Played(1, ("a", "b"), {"a": 1, "b": 0}), pr.Played(1, ("c", "d"), {"c": .5, "d": .5}),
         pr.Played(2, ("a", "c"), {"a": 1, "c": 0}), pr.Played(2, ("d", "b"), {"d": 1, "b": 0})]
    table = {r.player: r for r in pr.standings(list("abcd"), h, "swiss")}
    # points a 2, d 1.5, c 0.5, b 0; Buchholz a: b+c = 0.5, d: c+b = 0.5, c: d+a = 3.5, b: a+d = 3.5
    # Sonneborn-Berger a: b+c = 0.5; d: c/2 + b = 0.25; c: d/2 = 0.75; b: 0
    assert [(p, table[p].points, table[p].ties) for p in "adcb"] == [
        ("a", 2, (0.5, 0.5)), ("d", 1.5, (0.5, 0.25)), ("c", 0.5, (3.5, 0.75)), ("b", 0, (3.5, 0.0))]
    assert [r.player for r in pr.standings(list("abcd"), h, "swiss")] == list("adcb")


# ----- whole leagues at the console ----------------------------------------------------------------------
class Table:
    """The console on a database file, restartable: a new store and service on the same file."""

    def __init__(self, path, out):
        self.path, self.out, self.lines = path, out, []

    async def open(self):
        self.store = await open_store(self.path).open()          # a SQLite file or a PostgreSQL URL
        self.service = TableService(self.store, render=False)
        self.console = Console(self.service, self.out, write=self.lines.append)
        await self.service.leagues.settle()

    async def close(self):
        await self.store.close()

    async def say(self, line: str) -> str:
        before = len(self.lines)
        assert await self.console.handle(line)
        return "\n".join(self.lines[before:])


async def league_games(store, league_id):
    return [p for p in await LeagueStore(store).pairings(league_id)]


async def play_moves(t: Table, league_id: int, rnd: random.Random, limit: int | None = None) -> int:
    """People's moves at the console, chosen by the beginner policy, until the league ends (or ``limit``
    moves); returns the moves played."""
    played = 0
    while limit is None or played < limit:
        league = await LeagueStore(t.store).league(league_id)
        if league.status != "running":
            return played
        rows = [await t.store.game(p.game_id) for p in await league_games(t.store, league_id)
                if p.round == league.round and p.game_id and p.points is None]
        rows = [r for r in rows if r is not None and r.status == "running"]
        assert rows, "a round under way has games to play"
        for row in rows:
            game = GAMES[row.game]
            state = game.load(row.state)
            seat = next(s for s in game.to_act(state))
            action = random_action(game, state, seat, rnd)
            out = await t.say(f"{seat}@{row.channel} /game move action:{action}")
            assert "[only" not in out or "sees] Your" in out, out
            played += 1
    return played


def hand_standings(tables, fmt):
    """Points and tie-breaks worked out plainly from each table's stored game result."""
    points, games = defaultdict(float), []
    for seats, res in tables:
        if res is None:                          # a bye
            points[seats[0]] += 1
            continue
        if fmt == "pods":
            winners = [s for s in seats if s in res["winners"]]
            rest = [s for s in res["ranking"] if s not in winners]
            table = {3: [3, 1, 0]}[len(seats)]
            got = dict.fromkeys(winners, sum(table[:len(winners)]) / len(winners))
            for i, s in enumerate(rest):
                got[s] = table[len(winners) + i]
        else:
            w = res["winners"]
            got = {s: (0.5 if len(w) == 2 else 1.0 if s in w else 0.0) for s in seats}
        for s in seats:
            points[s] += got[s]
        games.append((seats, got, res.get("scores", {})))
    ties = {}
    for p in list(points):
        mine = [(s, g, sc) for s, g, sc in games if p in s]
        if fmt == "pods":
            ties[p] = (sum(points[o] for s, _g, _sc in mine for o in s if o != p), sum(sc[p] for _s, _g, sc in mine))
        else:
            bh = sum(points[o] for s, _g, _sc in mine for o in s if o != p)
            sb = sum(points[o] * (1 if g[p] > g[o] else 0.5 if g[p] == g[o] else 0)
                     for s, g, _sc in mine for o in s if o != p)
            ties[p] = (bh, sb)
    return dict(points), ties


async def check_league(t: Table, league_id: int, fmt: str, rounds: int, players: int):
    store = LeagueStore(t.store)
    league = await store.league(league_id)
    assert league.status == "finished" and league.round == rounds
    pairings = await store.pairings(league_id)
    assert sorted({p.round for p in pairings}) == list(range(1, rounds + 1))
    assert len({(p.round, p.board) for p in pairings}) == len(pairings)          # nothing paired twice
    tables = []
    for p in pairings:
        row = await t.store.game(p.game_id) if p.game_id else None
        if row is not None:
            assert row.status == "finished" and [s.user_id for s in row.seats] == p.seats   # seats in order
            assert row.options["speed"] == league.speed
        tables.append((p.seats, row.result if row else None))
    for r in range(1, rounds + 1):
        seated = [s for p in pairings if p.round == r for s in p.seats]
        assert sorted(seated) == sorted(set(seated)) and len(seated) == players
    points, ties = hand_standings(tables, fmt)
    _players, table, _h = await t.service.leagues.table(league)
    for row in table:
        assert row.points == points[row.player], row
        assert row.ties == ties[row.player], (row, ties[row.player])
    return pairings, table


async def test_a_swiss_and_a_pods_league_run_to_their_ends_at_the_console(tmp_path):
    t = Table(tmp_path / "league.db", tmp_path / "img")
    await t.open()
    rnd = random.Random(35)
    # bad input first: one clear line each, nothing changed
    assert "is a game for two" in await t.say("host@swiss /league new game:wassamasaw format:pods rounds:3")
    assert "leave rounds out" in await t.say("host@swiss /league new game:seikatsu format:round-robin rounds:40")
    assert await LeagueStore(t.store).of_channel("swiss") == []
    out = await t.say("host@swiss /league new game:seikatsu format:swiss rounds:5 speed:fast")
    assert "League #1: Seikatsu, Swiss, 5 rounds, speed fast — sign-up open." in out
    people = [f"s{i:02d}" for i in range(1, 13)]
    for p in people:
        assert f"{p} entered the league." in await t.say(f"{p}@swiss /league join")
    assert "already in league #1" in await t.say("s01@swiss /league join")
    assert "Only the organiser" in await t.say("s02@swiss /league start")
    out = await t.say("host@swiss /league start")
    assert "started league #1" in out
    assert "League #1, round 1 of 5 (Seikatsu, Swiss):" in out and "Table 6:" in out
    assert "@s01" in out                                              # mentioned once, with the round
    assert "already started" in await t.say("host@swiss /league start")
    assert "takes no more players" in await t.say("late@swiss /league join")
    # the pods league beside it
    assert "opened a league" in await t.say("host@pods /league new game:wagara format:pods rounds:4 speed:daily")
    pods = [f"w{i}" for i in range(1, 10)]
    for p in pods:
        await t.say(f"{p}@pods /league join")
    assert "round 1 of 4 (Wagara, pods)" in await t.say("host@pods /league start")
    # play the Swiss into round 3, restart mid-round, play both to their ends
    while (await LeagueStore(t.store).league(1)).round < 3:
        await play_moves(t, 1, rnd, limit=20)
    await play_moves(t, 1, rnd, limit=30)
    assert (await LeagueStore(t.store).league(1)).round == 3
    await t.close()
    await t.open()                      # the bot restarted: nothing lost, nothing paired twice
    await play_moves(t, 1, rnd)
    await play_moves(t, 2, rnd)
    text = "\n".join(t.lines)
    assert "League #1 is over. The winner:" in text and "League #2 is over. The winner:" in text

    pairings, table = await check_league(t, 1, "swiss", 5, 12)
    met = Counter(frozenset(p.seats) for p in pairings if not p.bye)
    assert set(met.values()) == {1}                                   # nobody met twice
    assert not [p for p in pairings if p.bye]                         # twelve players: no byes at all
    pairings, table = await check_league(t, 2, "pods", 4, 9)
    assert all(len(p.seats) == 3 for p in pairings)
    # the standings and pairings at the console
    out = await t.say("s01@swiss /league standings")
    assert "Standings after round 5" in out and "Buchholz; Sonneborn–Berger" in out
    assert "round 2 of 5" in await t.say("s01@swiss /league pairings round:2")
    assert "opponents' points; game score" in await t.say("w1@pods /league standings")


async def test_a_round_robin_of_computers_plays_out_at_once(db_target, tmp_path):
    """Five computer players at Wassamasaw: Berger tables, one bye a round, everyone meets everyone once, and
    the league ends as soon as it starts (a game of computers alone plays out at once). On SQLite and on
    PostgreSQL, restarted between the sign-up and the start."""
    t = Table(db_target, tmp_path / "img")
    await t.open()
    assert "rounds" in await t.say("host@rr /league new game:wassamasaw format:round-robin speed:fast rounds:3")
    await t.say("host@rr /league new game:wassamasaw format:round-robin speed:fast")
    assert "entered 5 computer players (easy)" in await t.say("host@rr /league addbot level:easy count:5")
    assert "The round robin is full (12 players)" in await t.say("host@rr /league addbot count:8")
    await t.close()
    await t.open()                                               # a restart: the sign-up is all in the store
    out = await t.say("host@rr /league start")
    assert "League #1 is over. The winner:" in out
    pairings = await league_games(t.store, 1)
    games = [p for p in pairings if not p.bye]
    assert Counter(frozenset(p.seats) for p in games) == Counter(
        frozenset(p) for p in itertools.combinations([f"cpu-{i}" for i in range(1, 6)], 2))
    assert sorted(p.seats[0] for p in pairings if p.bye) == [f"cpu-{i}" for i in range(1, 6)]
    await check_league(t, 1, "round-robin", 5, 5)
    assert "ended" in await t.say("host@rr /league pairings round:1")
    await t.close()


async def test_each_shard_pairs_only_its_own_servers_leagues(db_target):
    """Several processes on one database (#35, shards): a league's next round is paired by the process that owns
    its server, and only by it."""
    from engine import GAMES
    from store.shards import Shards
    from table import User, Where

    guild = str(1 << 22)                                  # (id >> 22) % 2: shard 1
    alice, bob, carol = User("101", "alice"), User("102", "bob"), User("103", "carol")
    async with open_store(db_target) as store:
        svc = TableService(store, render=False)
        where = Where("season", guild)
        assert (await svc.leagues.new(where, alice, "wassamasaw", "swiss", 2, "untimed", True)).ok
        for u in (alice, bob, carol):
            assert (await svc.leagues.join(where, u)).ok
        assert (await svc.leagues.start(where, alice, True)).ok
        (first,) = [p for p in await league_games(store, 1) if not p.bye]
        row = await store.game(first.game_id)
        at, people, game = Where(row.channel, row.guild), {u.id: u for u in (alice, bob, carol)}, GAMES["wassamasaw"]
        while (row := await store.game(first.game_id)).status == "running":   # round 1 played to its end
            state = game.load(row.state)
            seat = game.to_act(state)[0]
            assert (await svc.act(at, people[seat], game.legal_actions(state, seat)[0])).ok
    for shards, paired in ((Shards(2, (0,)), 1), (Shards(2, (1,)), 2)):
        async with open_store(db_target, shards) as store:
            await TableService(store, render=False).leagues.settle()
            assert (await LeagueStore(store).league(1)).round == paired      # shard 0 leaves it; shard 1 pairs
