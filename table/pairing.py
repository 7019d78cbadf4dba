"""A league's pairings and standings as pure functions (issue #35): Swiss by the Dutch system (table/swiss.py,
issue #47), round robin by Berger tables, pods for the games of three or more players, and the tie-breaks.
No store, no clock.

A player is a string id; a past game is a ``Played``: its seats in order (who moved first first) and each seat's
points from it. Byes are games of one seat. See docs/leagues.md for the rules as players read them.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE_POINTS = WIN            # a bye scores a win
MAX_ROUND_ROBIN = 12        # Berger tables for up to 12 entrants (11 rounds, or 12 with an odd count)

# points for each place at a pod of n players (tied places share the mean of their places' points); the guide
# prints this table
POD_POINTS = {2: (1, 0), 3: (3, 1, 0), 4: (4, 2, 1, 0), 5: (5, 3, 2, 1, 0), 6: (6, 4, 3, 2, 1, 0),
              7: (7, 5, 4, 3, 2, 1, 0), 8: (8, 6, 5, 4, 3, 2, 1, 0)}


@dataclass(frozen=True)
class Played:
    """One finished pairing: ``seats`` in seat order, ``points`` per seat (league points), ``scores`` per seat
    (the game's own score, for the pods' second tie-break), ``round``."""
    round: int
    seats: tuple[str, ...]
    points: dict[str, float]
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def bye(self) -> bool:
        return len(self.seats) == 1


# ----- what the past says ----------------------------------------------------------------------------------
def points_of(history: list[Played]) -> dict[str, float]:
    pts: dict[str, float] = defaultdict(float)
    for g in history:
        for s in g.seats:
            pts[s] += g.points.get(s, 0.0)
    return pts


def met(history: list[Played]) -> Counter:
    """How often each unordered pair sat at one table."""
    c: Counter = Counter()
    for g in history:
        for a, b in itertools.combinations(sorted(g.seats), 2):
            c[(a, b)] += 1
    return c


def byes_of(history: list[Played]) -> Counter:
    return Counter(g.seats[0] for g in history if g.bye)


def firsts(history: list[Played]) -> tuple[Counter, dict[str, list[int]]]:
    """(how often each player moved first, each player's seat positions in order) over the real games."""
    first: Counter = Counter()
    places: dict[str, list[int]] = defaultdict(list)
    for g in sorted(history, key=lambda g: g.round):
        if g.bye:
            continue
        first[g.seats[0]] += 1
        for i, s in enumerate(g.seats):
            places[s].append(i)
    return first, places


# ----- Swiss: table/swiss.py (the Dutch system, with the look-ahead that keeps a league's rounds) -----------
from .swiss import BYE, SwissRound, most_rounds, pair_round, swiss_round  # noqa: E402,F401


# ----- round robin ---------------------------------------------------------------------------------------
def berger(players: list[str]) -> list[list[tuple[str, ...]]]:
    """Every round of a round robin by Berger tables: with an even count n, n - 1 rounds; with an odd count
    one more entrant stands for the bye. In round r (1-based) players i and j (numbered 1..n-1) meet when
    i + j = r + 1 (mod n - 1), the one left over meets player n; of i and j the one with (j - i) odd
    (mod n - 1) moves first, and player n moves first in the even rounds. This is FIDE's table."""
    entrants = list(players) + ([None] if len(players) % 2 else [])
    n = len(entrants)
    if n < 2:
        return []
    m = n - 1
    rounds = []
    for r in range(1, n):
        games = []
        for i in range(1, n):
            j = (r + 1 - i) % m or m
            if j == i:
                pair = (entrants[n - 1], entrants[i - 1]) if r % 2 == 0 else (entrants[i - 1], entrants[n - 1])
            elif i < j:
                pair = (entrants[i - 1], entrants[j - 1]) if (j - i) % m % 2 else (entrants[j - 1], entrants[i - 1])
            else:
                continue
            games.append(pair)
        games = [tuple(p for p in g if p is not None) for g in games]
        rounds.append(sorted(games, key=lambda g: (len(g) == 1,)))
    return rounds


# ----- pods ----------------------------------------------------------------------------------------------
def pod_sizes(n: int, best: int, lo: int, hi: int) -> list[int]:
    """Tables for ``n`` players: as many of the best size as can be, the rest one smaller or larger (within
    the game's ``lo``..``hi``), larger tables first. A lone player left over gets a bye (size 1)."""
    if n < lo:
        return [1] * n
    for k in range(max(1, round(n / best)), n + 1):
        base, extra = divmod(n, k)
        if base < lo or base + (1 if extra else 0) > hi:
            continue
        return sorted([base + 1] * extra + [base] * (k - extra), reverse=True)
    return [1] * n


def pods_round(players: list[str], history: list[Played], sizes: list[int]) -> list[tuple[str, ...]]:
    """Tables of ``sizes`` for ``players`` (active, in seeding order): filled from the top of the standings
    down, then improved by swaps between tables that lower the count of repeat meetings (each repeated pair
    weighs more than a table's spread in the standings). Each table's seat order puts first whoever has moved
    first least and sat latest on average."""
    pts = points_of(history)
    seen = met(history)
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-pts[p], seed[p]))
    rank = {p: i for i, p in enumerate(order)}
    tables: list[list[str]] = []
    at = 0
    for size in sizes:
        tables.append(order[at:at + size])
        at += size

    def cost(t: list[str]) -> float:
        repeats = sum(seen[tuple(sorted(pr))] ** 2 for pr in itertools.combinations(t, 2))
        spread = max(rank[p] for p in t) - min(rank[p] for p in t) if t else 0
        return repeats * 100 + spread

    improved = True
    while improved:
        improved = False
        for x, y in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[x])), range(len(tables[y]))):
                a, b = tables[x][i], tables[y][j]
                before = cost(tables[x]) + cost(tables[y])
                tables[x][i], tables[y][j] = b, a
                if cost(tables[x]) + cost(tables[y]) < before - 1e-9:
                    improved = True
                else:
                    tables[x][i], tables[y][j] = a, b
    first, places = firsts(history)

    def seat_key(p: str):
        mean = sum(places[p]) / len(places[p]) if places[p] else 0.0
        return (first[p], -mean, rank[p])
    return [tuple(sorted(t, key=seat_key)) for t in tables]


def place_points(order: list[list[str]], size: int) -> dict[str, float]:
    """League points at a pod: ``order`` the places best first, each a list of the seats tied there."""
    table = POD_POINTS.get(size) or tuple(range(size - 1, -1, -1))
    pts, at = {}, 0
    for tied in order:
        share = sum(table[at:at + len(tied)]) / len(tied)
        for s in tied:
            pts[s] = share
        at += len(tied)
    return pts


# ----- standings -----------------------------------------------------------------------------------------
@dataclass
class Standing:
    player: str
    points: float
    ties: tuple[float, ...]
    played: int
    byes: int
    rank: int = 0


def standings(players: list[str], history: list[Played], fmt: str) -> list[Standing]:
    """The table: points, then the format's tie-breaks, then seeding order. Swiss and round robin: Buchholz
    (the sum of the final points of each opponent met) and Sonneborn–Berger (the final points of each opponent
    beaten, half of each drawn); a bye adds nothing to either. Pods: opponents' points (the final points of
    every table-mate, once per game) and the total of one's own game scores. Tied rows share a rank."""
    pts = points_of(history)
    seed = {p: i for i, p in enumerate(players)}
    rows = []
    for p in players:
        games = [g for g in history if p in g.seats]
        real = [g for g in games if not g.bye]
        if fmt == "pods":
            opp = sum(pts[o] for g in real for o in g.seats if o != p)
            own = sum(g.scores.get(p, 0.0) for g in real)
            ties = (opp, own)
        else:
            buchholz = sum(pts[o] for g in real for o in g.seats if o != p)
            sb = 0.0
            for g in real:
                o = next(s for s in g.seats if s != p)
                mine, theirs = g.points.get(p, 0.0), g.points.get(o, 0.0)
                sb += pts[o] if mine > theirs else pts[o] / 2 if mine == theirs else 0.0
            ties = (buchholz, sb)
        rows.append(Standing(p, pts[p], ties, len(real), sum(1 for g in games if g.bye)))
    rows.sort(key=lambda r: (-r.points, tuple(-t for t in r.ties), seed[r.player]))
    for i, r in enumerate(rows):
        prev = rows[i - 1] if i else None
        r.rank = prev.rank if prev and (prev.points, prev.ties) == (r.points, r.ties) else i + 1
    return rows
