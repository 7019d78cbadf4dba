"""Leagues (issue #35): the pairing functions, and whole leagues run at the console with a computer choosing
each person's moves (the beginner policy, the fastest), the bot restarted mid-round."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict

import pytest

from console.table import Console
from engine import GAMES
from engine.bots import random_action
from store import open_store
from store.leagues import LeagueStore
from table import pairing as pr
from table.service import TableService


# ----- pairing: pure functions ------------------------------------------------------------------------------
def simulate_swiss(n: int, rounds: int, seed: int, announced: int | None = None) -> list[pr.Played]:
    """A Swiss of ``n`` played for ``rounds`` with random results (draws too); ``announced``: the rounds the
    league announced (the pairing looks ahead to them), ``rounds`` by default."""
    rnd = random.Random(seed)
    players = [f"p{i:02d}" for i in range(n)]
    history: list[pr.Played] = []
    for r in range(1, rounds + 1):
        for t in pr.swiss_round(players, history, announced or rounds):
            if len(t) == 1:
                history.append(pr.Played(r, t, {t[0]: 1.0}))
                continue
            x = rnd.random()
            pts = (1.0, 0.0) if x < 0.4 else (0.0, 1.0) if x < 0.8 else (0.5, 0.5)
            history.append(pr.Played(r, t, dict(zip(t, pts, strict=True))))
    return history


def colour_breaches(history: list[pr.Played], rounds: int) -> list:
    """Before the last round: a third first move (or second) running, or firsts and seconds more than two
    apart — what the Dutch rules' absolute colour preferences forbid."""
    runs, bad = defaultdict(list), []
    for g in sorted(history, key=lambda g: g.round):
        for i, s in enumerate(g.seats if not g.bye else ()):
            c = runs[s]
            c.append(i)
            if g.round < rounds and (abs(c.count(0) - c.count(1)) > 2 or c[-3:] in ([0, 0, 0], [1, 1, 1])):
                bad.append((g.round, s, list(c)))
    return bad


def test_a_swiss_plays_every_round_it_announced():
    """#47: the small fields that ran out of pairings (6 players and 4 or 5 rounds, 8 and 7: a round with no
    pairing but a rematch) play every round — the pairing looks ahead — without a rematch, a second bye or a
    colour breach before the last round. 24 leagues each, as the issue counted."""
    for n, rounds in ((6, 5), (6, 4), (8, 7), (7, 7), (5, 5)):
        assert rounds <= pr.most_rounds(n)
        for seed in range(24):
            history = simulate_swiss(n, rounds, seed)
            assert sorted({g.round for g in history}) == list(range(1, rounds + 1)), (n, rounds, seed)
            assert set(pr.met(history).values()) == {1} and set(pr.byes_of(history).values()) <= {1}
            assert colour_breaches(history, rounds) == [], (n, rounds, seed)
            for r in range(1, rounds + 1):                       # everyone at one table each round
                assert sorted(s for g in history if g.round == r for s in g.seats) == [f"p{i:02d}" for i in range(n)]
    assert [pr.most_rounds(n) for n in (2, 3, 4, 5, 6, 7, 8)] == [1, 3, 3, 5, 5, 7, 7]


def test_swiss_never_pairs_a_rematch_nor_a_second_bye_and_keeps_the_colour_rule():
    """The absolute colour preferences of the Dutch rules hold in every round but the last, at every size."""
    for n, rounds in [(12, 5), (11, 5), (13, 6), (12, 7), (11, 8), (9, 6), (10, 9), (60, 7)]:
        for seed in range(3 if n < 50 else 1):
            history = simulate_swiss(n, rounds, seed)
            assert all(v == 1 for v in pr.met(history).values()), (n, seed)
            byes = pr.byes_of(history)
            assert all(v == 1 for v in byes.values())
            assert sum(byes.values()) == (rounds if n % 2 else 0)
            assert colour_breaches(history, rounds) == [], (n, rounds, seed)


def test_round_1_alternates_the_first_move_down_the_boards():
    """The Dutch rules' round 1: the top half against the bottom half, the first move to the higher seed on
    odd boards and to the lower on even ones (#47: before, every top seed moved first)."""
    eight = [f"s{i}" for i in range(1, 9)]
    assert pr.swiss_round(eight, [], 5) == [("s1", "s5"), ("s6", "s2"), ("s3", "s7"), ("s8", "s4")]
    seven = [f"s{i}" for i in range(1, 8)]                 # the lowest seed has the bye
    assert pr.swiss_round(seven, [], 5) == [("s1", "s4"), ("s5", "s2"), ("s3", "s6"), ("s7",)]


def test_who_moves_first_by_the_dutch_allocation():
    """E.1-E.5 of the Dutch rules: both wishes granted when they differ; else the stronger (moved first
    twice running, or first more often); else alternate from the last game the two differed; else the higher
    placed player's wish."""
    from table import swiss as sw

    def past(colours, seed=0):
        return sw.Past(seed, colours=list(colours))
    f, s = sw.FIRST, sw.SECOND
    # a moved second last (wants first), b moved first last (wants second): both granted
    assert sw.first_mover("a", "b", {"a": past([s]), "b": past([f])}, "a") == ("a", "b")
    # both want first: b moved second twice running (absolute), a only once (mild)
    assert sw.first_mover("a", "b", {"a": past([f, s]), "b": past([f, s, s], 1)}, "a") == ("b", "a")
    # both want second, equally strongly (first, second, first): the higher placed (b) has it
    assert sw.first_mover("a", "b", {"a": past([f, s, f]), "b": past([f, s, f], 1)}, "b") == ("a", "b")
    # both want first, mildly (f s f s, s f f s): going back, the two differed in the second game, where a moved
    # second: a moves first now (E.3), although b is placed higher (E.4 would grant b)
    assert sw.first_mover("a", "b", {"a": past([f, s, f, s]), "b": past([s, f, f, s], 1)}, "b") == ("a", "b")
    assert sw.preference([f, f]) == (s, 3) and sw.preference([f, s, f]) == (s, 2)
    assert sw.preference([f, s]) == (f, 1) and sw.preference([]) == (None, 0)


def test_when_no_pairing_keeps_every_rule_the_round_says_what_it_gave_up():
    """After withdrawals a field may have no pairing without a rematch: the round is paired with the fewest,
    and says so, rather than ending the league."""
    history = [pr.Played(1, ("a", "b"), {"a": 1, "b": 0}), pr.Played(1, ("c", "d"), {"c": 1, "d": 0}),
               pr.Played(2, ("a", "c"), {"a": 1, "c": 0}), pr.Played(2, ("b", "d"), {"b": 1, "d": 0}),
               pr.Played(3, ("a", "d"), {"a": 1, "d": 0}), pr.Played(3, ("b", "c"), {"b": 1, "c": 0})]
    got = pr.pair_round(list("abcd"), history, 5)
    assert got.relaxed == "rematch" and len(got.tables) == 2
    assert pr.pair_round(list("abcd"), history[:4], 3).relaxed is None


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


async def test_a_swiss_refuses_at_the_start_a_round_count_it_cannot_promise(db_target, tmp_path):
    """#47: the sign-up says how many players a Swiss of its rounds needs; the start refuses, in one line and
    changing nothing, a round count the entrants cannot all play (six players: at most five rounds); six
    players and five rounds play all five (everyone meets everyone once), computers alone at once. On SQLite
    and PostgreSQL, restarted between sign-up and start."""
    import tests.tinygame  # noqa: F401  (Pebbles: the quickest games)

    t = Table(db_target, tmp_path / "img")
    await t.open()
    out = await t.say("host@six /league new game:pebbles format:swiss rounds:6 speed:fast")
    assert "A Swiss of 6 rounds needs at least 7 players." in out
    await t.say("host@six /league addbot level:easy count:6")
    await t.close()
    await t.open()
    out = await t.say("host@six /league start")
    line = ("A Swiss of 6 players can promise at most 5 rounds (everyone meets everyone once), not 6: add players "
            "(or computers, `/league addbot`), or open it again with fewer rounds.")
    assert line in out and (await LeagueStore(t.store).league(1)).status == "signup"
    assert "A Swiss of 5 rounds needs at least 5 players." in await t.say(
        "host@five /league new game:pebbles format:swiss rounds:5 speed:fast")
    await t.say("host@five /league addbot level:easy count:6")
    assert "League #2 is over. The winner:" in await t.say("host@five /league start")
    league = await LeagueStore(t.store).league(2)
    pairings = await league_games(t.store, 2)
    assert league.round == 5 and sorted({p.round for p in pairings}) == [1, 2, 3, 4, 5]
    assert Counter(frozenset(p.seats) for p in pairings) == Counter(
        frozenset(p) for p in itertools.combinations([f"cpu-{i}" for i in range(1, 7)], 2))
    await t.close()


async def test_a_round_paired_before_a_kill_is_announced_once_after_it(db_target, monkeypatch):
    """#50's gap: a process killed between pairing a round and queueing its announcement announced it never.
    The pairing now logs that an announcement is owed, and the announcement is queued with its log line in
    one version-checked write: the restarted process announces the round once (its tables opened once), and
    the final standings are queued with the league's end in the same write. On SQLite and PostgreSQL."""
    import tests.tinygame  # noqa: F401  (Pebbles: the quickest games)
    from table import User, Where

    people = {u.id: u for u in (User("101", "alice"), User("102", "bob"), User("103", "carol"))}
    where = Where("season", "1")

    async def play_round(svc, store, round_no):
        for p in [p for p in await league_games(store, 1) if p.round == round_no and not p.bye]:
            game = GAMES["pebbles"]
            while (row := await store.game(p.game_id)).status == "running":
                state = game.load(row.state)
                seat = game.to_act(state)[0]
                assert (await svc.act(Where(row.channel, row.guild), people[seat],
                                      game.legal_actions(state, seat)[0])).ok

    async def notices(store, words):
        return [o for o in await store.outgoing(1000) if words in o.payload["text"]]

    async with open_store(db_target) as store:
        svc = TableService(store, render=False)
        assert (await svc.leagues.new(where, people["101"], "pebbles", "swiss", 2, "untimed", True)).ok
        for u in people.values():
            assert (await svc.leagues.join(where, u)).ok
        assert (await svc.leagues.start(where, people["101"], True)).ok
        await play_round(svc, store, 1)

        async def killed(*args, **kwargs):
            raise RuntimeError("killed after pairing")
        monkeypatch.setattr(LeagueStore, "announce", killed)
        with pytest.raises(RuntimeError, match="killed"):
            await svc.leagues.settle()
        assert (await LeagueStore(store).league(1)).round == 2 and not await notices(store, "round 2 of 2")
        monkeypatch.undo()
    for _restart in range(2):
        async with open_store(db_target) as store:
            svc = TableService(store, render=False)
            await svc.leagues.settle()
            assert len(await notices(store, "round 2 of 2")) == 1
            round_2 = [p for p in await league_games(store, 1) if p.round == 2 and not p.bye]
            assert round_2 and all(p.game_id for p in round_2)
            assert len({(await store.game(p.game_id)).channel for p in round_2}) == len(round_2)
    async with open_store(db_target) as store:
        svc = TableService(store, render=False)
        await play_round(svc, store, 2)
        await svc.leagues.settle()
        league = await LeagueStore(store).league(1)
        assert league.status == "finished" and len(await notices(store, "League #1 is over.")) == 1
