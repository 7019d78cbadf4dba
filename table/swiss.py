"""A Swiss round by the Dutch system (FIDE C.04.3), as a league of a board game needs it (issue #47): pure
functions, no store, no clock. table/pairing.py keeps the other formats and the standings.

The first mover is White. What holds, in this order:

1. **Absolute** — nobody meets an opponent twice, nobody has a second bye, and before the league's last round
   two players who must both move first (or both second) never meet: whoever has moved first two more times
   than second, or the same way in both of their last two games, must move the other way (the Dutch rules'
   absolute colour preference). So before the last round nobody moves first (or second) three games running,
   and nobody's firsts and seconds are more than two apart. In the last round only the leaders (more than half
   the points played) may break it, as in the Dutch rules.
2. **Completion** — the round is paired so that the league can still play every round it announced under
   (1), whatever the results: the pairing chosen leaves a way to pair all the rounds left (found by a search,
   ``completes``). The Dutch rules look no further than the round being paired; a league that announced its
   rounds has to keep them. Since no rule depends on the results, a pairing that passes keeps the promise to
   the end; ``most_rounds`` is what a league may announce for its number of entrants.
3. **Quality**, as the Dutch rules rank it, encoded in the weights of one exact maximum-weight matching
   (Edmonds' blossom algorithm, networkx): the fewest and smallest score differences (one larger gap weighs
   more than any number of smaller ones; the bye to the lowest score), then colour preferences granted, then
   no one floating down (or up) two rounds running, then the order within a score group: its top half meets
   its bottom half in order (1 v 5, 2 v 6 ...), a player floating down is the lowest of their group and meets
   the highest of the next.
4. **Who moves first**: the Dutch rules' colour allocation (E.1–E.5): both preferences; else the stronger;
   else alternate from the last game in which the two differed; else the higher placed player's; with no
   preference at all (round 1), the higher placed player moves first on an odd seed and second on an even one,
   so round 1 of eight goes 1–5, 6–2, 3–7, 8–4.

When (1) and (2) cannot both hold (a withdrawal left a field that cannot be completed), the round is paired
with what can be kept, in this order: completion dropped; then the colour rule; then a rematch (the fewest).
``SwissRound.relaxed`` says which, so the league can tell its players.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field

FIRST, SECOND = 0, 1
BYE = "\0bye"
SEARCH_NODES = 20_000   # a completion search gives up (as "not shown") after this many steps
CANDIDATES = 40         # pairings tried in order of quality before the search pairs the round itself
SMALL = 40              # up to this many players every pair is weighed; above, each one's nearest rivals


@dataclass
class Past:
    """A player's past as the pairing reads it: points, opponents, byes, first (0) or second (1) in each game
    played in round order, and floats (+1 met a lower score or had the bye, -1 met a higher, 0) by round."""
    seed: int
    points: float = 0.0
    opponents: set = field(default_factory=set)
    byes: int = 0
    colours: list = field(default_factory=list)
    floats: dict = field(default_factory=dict)

    @property
    def diff(self) -> int:
        return self.colours.count(FIRST) - self.colours.count(SECOND)

    def preference(self) -> tuple[int | None, int]:
        """(the colour wanted, how strongly: 3 absolute, 2 strong, 1 mild, 0 none), as the Dutch rules (A.6)."""
        return preference(self.colours)


def preference(colours: list[int]) -> tuple[int | None, int]:
    if not colours:
        return None, 0
    d = colours.count(FIRST) - colours.count(SECOND)
    twice = len(colours) >= 2 and colours[-1] == colours[-2]
    if d > 1 or d < -1:
        return (SECOND if d > 0 else FIRST), 3
    if twice:
        return 1 - colours[-1], 3
    if d:
        return (SECOND if d > 0 else FIRST), 2
    return 1 - colours[-1], 1


@dataclass
class SwissRound:
    tables: list[tuple[str, ...]]
    relaxed: str | None = None      # None, "completion", "colours" or "rematch": what could not be kept
    candidates: int = 1             # pairings weighed before one that completes (for the bench)


def read(players: list[str], history) -> tuple[dict[str, Past], int]:
    """Each player's ``Past`` and the number of the round to pair now."""
    past = {p: Past(i) for i, p in enumerate(players)}
    for g in history:
        for s in g.seats:
            if s not in past:
                past[s] = Past(len(past))
    rounds = sorted({g.round for g in history})
    before: dict[str, float] = defaultdict(float)      # points before the round being read
    for r in rounds:
        games = [g for g in history if g.round == r]
        for g in games:
            if len(g.seats) == 1:
                past[g.seats[0]].byes += 1
                past[g.seats[0]].floats[r] = 1
                continue
            a, b = g.seats
            past[a].opponents.add(b)
            past[b].opponents.add(a)
            past[a].colours.append(FIRST)
            past[b].colours.append(SECOND)
            for x, y in ((a, b), (b, a)):
                past[x].floats[r] = (before[x] > before[y]) - (before[x] < before[y])
        for g in games:
            for s in g.seats:
                before[s] += g.points.get(s, 0.0)
    for p, pts in before.items():
        past[p].points = pts
    return past, (rounds[-1] + 1 if rounds else 1)


# ----- who moves first (E.1-E.5) ---------------------------------------------------------------------------
def first_mover(a: str, b: str, past: dict[str, Past], higher: str, initial: int = FIRST) -> tuple[str, str]:
    """The pair in seat order, by the Dutch rules' colour allocation; ``higher``: the better placed of the two;
    ``initial``: the colour the top seed has in round 1 (a league: the first move)."""
    pa, sa = past[a].preference()
    pb, sb = past[b].preference()
    if pa is None or pb is None or pa != pb:                               # E.1: both granted
        if pa is not None:
            return (a, b) if pa == FIRST else (b, a)
        if pb is not None:
            return (b, a) if pb == FIRST else (a, b)
        low = b if higher == a else a                                      # E.5: the seed's parity
        return (higher, low) if (past[higher].seed % 2 == 0) == (initial == FIRST) else (low, higher)
    da, db = abs(past[a].diff), abs(past[b].diff)
    wish = pa                                                              # both want the same
    if sa == 3 and (sb != 3 or da > db):                                   # E.2: the stronger
        winner = a
    elif sb == 3 and (sa != 3 or db > da):
        winner = b
    elif sa == 2 and sb < 2:
        winner = a
    elif sb == 2 and sa < 2:
        winner = b
    else:                                                                  # E.3: the last game they differed
        winner = None
        for ca, cb in zip(reversed(past[a].colours), reversed(past[b].colours), strict=False):
            if ca != cb:                                                   # each takes the other's colour then
                winner = a if cb == wish else b
                break
        if winner is None:                                                 # E.4: the higher placed
            winner = higher
    loser = b if winner == a else a
    return (winner, loser) if wish == FIRST else (loser, winner)


def _after(colours: list[int], c: int) -> tuple[int, int, int]:
    """A player's colour state for the search: (firsts minus seconds, last colour or -1, the run of it)."""
    seq = colours + [c] if c is not None else colours
    if not seq:
        return 0, -1, 0
    run = 1
    while run < len(seq) and seq[-1 - run] == seq[-1]:
        run += 1
    return seq.count(FIRST) - seq.count(SECOND), seq[-1], min(run, 2)


def _must(st) -> int | None:
    """The colour a search state must have next (the absolute preference), or None."""
    d, last, run = st
    if d > 1:
        return SECOND
    if d < -1:
        return FIRST
    if run >= 2:
        return 1 - last
    return None


def _step(st, c):
    d, last, run = st
    return d + (1 if c == FIRST else -1), c, (run + 1 if last == c else 1)


# ----- completion: can the rounds left still be paired? ---------------------------------------------------
class _OutOfSteps(Exception):
    pass


def completes(allowed: list[int], states: list, rounds: int, colour_rounds: int, *, forced: list[int] | None = None,
              orient=None, prefer=None, nodes: int = SEARCH_NODES):
    """Whether ``rounds`` more rounds can be paired: vertices 0..n-1 (n even; one may be the bye, whose state
    is None), ``allowed[v]`` the bit mask of whom v may still meet (for the bye: who may still have it),
    ``states[v]`` a colour state (``_after``). The first ``colour_rounds`` of them keep the colour rule.
    ``forced``: the first round's pairing (vertex → partner), to test a candidate; ``orient(v, u)``: the
    colours that candidate's free pairs would get (the first of v, tried before the other way); ``prefer(v,
    u)``: a key ordering the first round's partners (without ``forced``: the search pairs the round itself).

    Returns (True, the first round as {vertex: (partner, colour of the vertex or None)}) when a way is found,
    (False, None) when there is none, (None, None) when the search gave up after ``nodes`` steps. A depth-first
    search: the vertex with the fewest partners first, its partners with the fewest first, each state that
    failed remembered."""
    n = len(allowed)
    allowed, states = list(allowed), list(states)
    failed: set = set()
    count = [0]
    chosen: dict[int, tuple] = {}

    def pop(x: int) -> int:
        return x.bit_count()

    def rounds_from(k: int, first: bool) -> bool:
        if k == 0:
            return True
        if any(pop(allowed[v]) < k for v in range(n)):
            return False
        key = (k, tuple(allowed), tuple(states))
        if not first and key in failed:
            return False
        colour = rounds - k < colour_rounds
        must = [0, 0]
        if colour:
            for v in range(n):
                if states[v] is not None and (m := _must(states[v])) is not None:
                    must[m] |= 1 << v
        ok = pair((1 << n) - 1, k, colour, must, first)
        if not ok and not first:
            failed.add(key)
        return ok

    def partners(v: int, free: int, colour: bool, must, first: bool) -> int:
        m = allowed[v] & free
        if first and forced is not None:
            m &= 1 << forced[v]
        if colour and states[v] is not None and (c := _must(states[v])) is not None:
            m &= ~must[c]
        return m

    def pair(free: int, k: int, colour: bool, must, first: bool) -> bool:
        count[0] += 1
        if count[0] > nodes:
            raise _OutOfSteps
        if not free:
            return rounds_from(k - 1, False)
        v, vm, fewest = -1, 0, n + 1
        x = free
        while x:
            low = x & -x
            x ^= low
            w = low.bit_length() - 1
            m = partners(w, free & ~low, colour, must, first)
            if pop(m) < fewest:
                v, vm, fewest = w, m, pop(m)
                if not fewest:
                    return False
        rest = free & ~(1 << v)
        order = []
        x = vm
        while x:
            low = x & -x
            x ^= low
            u = low.bit_length() - 1
            order.append((pop(partners(u, rest & ~low, colour, must, first)), u))
        if first and prefer is not None:
            order.sort(key=lambda t: prefer(v, t[1]))
        else:
            order.sort()
        for _, u in order:
            sv, su = states[v], states[u]
            allowed[v] &= ~(1 << u)
            allowed[u] &= ~(1 << v)
            ways: list = [None]
            if colour and sv is not None and su is not None:
                mv, mu = _must(sv), _must(su)
                if mv is not None:
                    ways = [mv]
                elif mu is not None:
                    ways = [1 - mu]
                else:
                    c = orient(v, u) if first and orient is not None else \
                        (FIRST if (sv[0], -sv[1]) < (su[0], -su[1]) else SECOND)
                    ways = [c, 1 - c]
            for c in ways:
                if c is not None:
                    states[v], states[u] = _step(sv, c), _step(su, 1 - c)
                if pair(rest & ~(1 << u), k, colour, must, first):
                    states[v], states[u] = sv, su
                    allowed[v] |= 1 << u
                    allowed[u] |= 1 << v
                    if first:
                        chosen[v], chosen[u] = (u, c), (v, None if c is None else 1 - c)
                    return True
                states[v], states[u] = sv, su
            allowed[v] |= 1 << u
            allowed[u] |= 1 << v
        return False

    try:
        return (True, chosen) if rounds_from(rounds, True) else (False, None)
    except _OutOfSteps:
        return None, None


# ----- the round -----------------------------------------------------------------------------------------
def most_rounds(n: int) -> int:
    """The most rounds a Swiss of ``n`` entrants can promise: everyone can meet everyone once (n - 1 rounds
    with an even count; n with an odd one, a bye each), and the search keeps that promise (bench/swiss.py
    plays every count up to it)."""
    return max(0, n - 1 + n % 2)


def pair_round(players: list[str], history, rounds: int | None = None, *, window: int = 8,
               initial: int = FIRST) -> SwissRound:
    """The next round for ``players`` (the active ones, in seeding order) of a Swiss of ``rounds`` rounds
    (None: no end announced, no look-ahead). Pairs in seat order (first mover first) by board, the bye last
    as a 1-tuple. See the module's docstring for the rules; only each player's ``window`` nearest rivals
    in the standings are weighed (a 200-player round stays fast), widened when that leaves no pairing."""
    if not players:
        return SwissRound([])
    past, round_no = read(players, history)
    order = sorted(players, key=lambda p: (-past[p].points, past[p].seed))
    last = rounds is not None and round_no >= rounds
    left = 0 if rounds is None else max(0, rounds - round_no)        # rounds after this one
    lead = (round_no - 1) / 2                                        # a leader has more than half the points
    for relax in (None, "completion", "colours", "rematch"):
        if relax == "completion" and not left:
            continue
        colours_hard = relax not in ("colours", "rematch")
        graph = _Graph(order, past, round_no, last, lead, colours_hard, relax == "rematch", window, initial)
        best = graph.best()
        if best is None:
            continue
        if len(order) <= SMALL and graph.recount(best):     # more (or fewer) came down than the parity said:
            best = graph.best()                             # order again (a large field keeps the estimate)
        if left and relax is None:
            found = _complete_from(graph, best, left)
            if found is None:
                continue
            matching, colours, tried = found
            return SwissRound(graph.tables(matching, colours), None, tried)
        return SwissRound(graph.tables(best, None), relax)
    raise ValueError("no Swiss pairing")


def swiss_round(players: list[str], history, rounds: int | None = None, *,
                window: int = 8) -> list[tuple[str, ...]]:
    """``pair_round``'s tables."""
    return pair_round(players, history, rounds, window=window).tables


class _Graph:
    """The round's candidate pairs and their weights."""

    def __init__(self, order, past, round_no, last, lead, colours_hard, rematch, window, initial=FIRST):
        self.order, self.past, self.last, self.lead = order, past, last, lead
        self.round, self.initial = round_no, initial
        self.rank = {p: i for i, p in enumerate(order)}
        self.colours_hard, self.rematch = colours_hard, rematch
        self.window = window if len(order) > SMALL else len(order)     # a small field: every pair weighed
        self.nodes = list(order) + ([BYE] if len(order) % 2 else [])
        n = len(self.nodes)
        self.base = n + 1
        # each group's players in order: a score group
        self.group: dict[float, list[str]] = defaultdict(list)
        for p in order:
            self.group[past[p].points].append(p)
        self.pos = {p: i for g in self.group.values() for i, p in enumerate(g)}
        # the players a group is likely to take from the one above: one when the count above it is odd
        self.incoming, above = {}, 0
        for score, g in self.group.items():
            self.incoming[score] = above % 2
            above += len(g)
        eligible = [p for p in order if not past[p].byes]
        self.low = min((past[p].points for p in (eligible or order)), default=0.0)
        self.edges: dict[tuple[str, str], int] = {}
        # the weights' places: order < floats < colours < score gaps (each sum bounded below the next unit)
        b = self.base
        self.k_float = n * n + 1
        self.k_colour = self.k_float * (n * b ** 4 + 1)
        self.k_gap = self.k_colour * (n * b ** 3 + 1)
        # every score gap (in half points, the bye's one more) weighs more than all smaller ones together
        points = [past[p].points for p in order] or [0.0]
        self.levels = int(round(2 * (max(points) - min(points)))) + 1
        self.k_rematch = self.k_gap * (n * b ** self.levels + 1)
        self.top = self.k_rematch * (n + 1)

    def allowed(self, a: str, b: str) -> bool:
        pa, pb = self.past[a], self.past[b]
        if b in pa.opponents and not self.rematch:
            return False
        if not self.colours_hard:
            return True
        (ca, sa), (cb, sb) = pa.preference(), pb.preference()
        if sa == 3 and sb == 3 and ca == cb:
            return self.last and (pa.points > self.lead or pb.points > self.lead)
        return True

    def weight(self, a: str, b: str) -> int:
        """Higher is better; ``a`` placed above ``b`` (or ``b`` the bye)."""
        past, b_ = self.past, self.base
        if b == BYE:
            gap = min(self.levels, int(round(2 * (past[a].points - self.low))) + 1)
            cost = self.k_gap * (b_ ** gap) + self.k_float * b_ ** 3 * (past[a].floats.get(self.round - 1) == 1)
            return self.top - cost - self.k_rematch * past[a].byes - (len(self.order) - self.rank[a])
        pa, pb = past[a], past[b]
        gap = int(round(2 * (pa.points - pb.points)))
        cost = self.k_gap * ((b_ ** gap) - 1 if gap else 0)
        cost += self.k_rematch * (b in pa.opponents)                                  # a rematch, if allowed
        seats = first_mover(a, b, past, a, self.initial)
        colour = 0
        for p in (a, b):
            want, strength = past[p].preference()
            got = FIRST if seats[0] == p else SECOND
            if want is not None and want != got:
                colour += {3: b_ ** 3 if not self.last or past[p].points <= self.lead else b_ ** 2,
                           2: b_ + 1, 1: b_}[strength]
        cost += self.k_colour * colour
        if gap:
            r = self.round - 1
            floats = (b_ ** 3 * (pa.floats.get(r) == 1) + b_ ** 2 * (pb.floats.get(r) == -1)
                      + b_ * (pa.floats.get(r - 1) == 1) + (pb.floats.get(r - 1) == -1))
            cost += self.k_float * floats
        return self.top - cost - self.order_cost(a, b)

    def order_cost(self, a: str, b: str) -> int:
        """How far a pair is from the Dutch order: in a score group, once the top resident has met the
        player coming down from above (if the count above is odd), the top half meets the bottom half in
        order (1 v 5, 2 v 6 ...: a transposition costs its distance, an exchange within a half more than any);
        a player coming down is the lowest of their group and meets the highest of the next."""
        pa, pb = self.past[a], self.past[b]
        ga, gb = self.group[pa.points], self.group[pb.points]
        if ga is not gb:
            return (len(ga) - 1 - self.pos[a]) + self.pos[b]
        m = self.incoming[pa.points]
        ra, rb = self.pos[a] - m, self.pos[b] - m
        q = len(ga) - m
        if ra < 0:
            return q + rb
        half = q // 2
        return abs(rb - ra - half) + (0 if ra < half <= rb else q)

    def build(self, forbid=(), force=()):
        import networkx as nx  # here, not at the top: 25 MB a bot carries only once it pairs a Swiss round

        g = nx.Graph()
        used = {p for e in force for p in e}
        nodes = [p for p in self.nodes if p not in used]
        g.add_nodes_from(nodes)
        order = [p for p in self.order if p not in used]
        left = set(order)
        n = len(order)
        window = self.window
        while True:
            for i, a in enumerate(order):
                for b in self.candidates(a, order, i, window, left):
                    if (a, b) in forbid or not self.allowed(a, b):
                        continue
                    if (a, b) not in self.edges:
                        self.edges[(a, b)] = self.weight(a, b)
                    g.add_edge(a, b, weight=self.edges[(a, b)])
                if BYE in nodes and (self.rematch or not self.past[a].byes) and (a, BYE) not in forbid:
                    if (a, BYE) not in self.edges:
                        self.edges[(a, BYE)] = self.weight(a, BYE)
                    g.add_edge(a, BYE, weight=self.edges[(a, BYE)])
            m = nx.max_weight_matching(g, maxcardinality=True)
            if 2 * len(m) == len(nodes):
                pairs = [tuple(sorted(e, key=lambda p: self.rank.get(p, len(self.order)))) for e in m]
                return sorted(list(force) + pairs)
            if window >= n:
                return None
            window *= 2

    def candidates(self, a: str, order: list[str], i: int, window: int, left: set) -> list[str]:
        """Whom ``a`` (at ``i`` in ``order``) may be weighed against: the ``window`` next below in the standings,
        and, in a score group larger than that, the few around the partner the Dutch order has for ``a`` (half
        the group further down), which the window would not reach."""
        near = order[i + 1:i + 1 + window]
        group, m = self.group[self.past[a].points], self.incoming[self.past[a].points]
        r, q = self.pos[a] - m, len(group) - m
        half = q // 2
        if 0 <= r < half and half > window // 2:
            ideal = r + half + m
            seen = set(near)
            near += [b for b in group[max(0, ideal - 3):ideal + 4]
                     if b in left and b not in seen and self.rank[b] > self.rank[a]]
        return near

    def best(self):
        return self.build()

    def recount(self, matching) -> bool:
        """Count who came down into each score group in ``matching``; if that differs from what the order
        assumed, assume it and forget the weights (True)."""
        came = dict.fromkeys(self.incoming, 0)
        for a, b in matching:
            if b != BYE and self.past[a].points != self.past[b].points:
                came[self.past[b].points] += 1
        if came == self.incoming:
            return False
        self.incoming = came
        self.edges.clear()
        return True

    def value(self, matching) -> int:
        return sum(self.edges[e] for e in matching)

    def tables(self, matching, colours) -> list[tuple[str, ...]]:
        out = []
        for a, b in matching:
            if b == BYE:
                out.append((a,))
            elif colours and a in colours:
                out.append((a, b) if colours[a] == FIRST else (b, a))
            else:
                out.append(first_mover(a, b, self.past, a, self.initial))
        return sorted(out, key=lambda t: (len(t) == 1, min(self.rank[p] for p in t)))


def _complete_from(graph: _Graph, best, left: int):
    """The best pairing (``best`` first, then the next best, Murty's way: each forbids one pair of a
    pairing and keeps those before it) that leaves ``left`` rounds a way to be paired; failing ``CANDIDATES``
    of them, the search pairs this round itself, trying the weightiest pairs first. Returns (matching, the
    first movers chosen, how many candidates were weighed), or None when no way was found."""
    vertices = graph.nodes
    index = {p: i for i, p in enumerate(vertices)}
    past = graph.past
    allowed, states = [], []
    for p in vertices:
        if p == BYE:
            allowed.append(sum(1 << index[q] for q in graph.order if not past[q].byes))
            states.append(None)
        else:
            mask = sum(1 << index[q] for q in graph.order if q != p and q not in past[p].opponents)
            if not past[p].byes and BYE in index:
                mask |= 1 << index[BYE]
            allowed.append(mask)
            states.append(_after(past[p].colours, None))

    def orient(v, u):
        a, b = vertices[v], vertices[u]
        seats = first_mover(a, b, past, min(a, b, key=graph.rank.get), graph.initial)
        return FIRST if seats[0] == a else SECOND

    def found(chosen):
        matching, colours = [], {}
        for v, (u, c) in chosen.items():
            a, b = vertices[v], vertices[u]
            if c is not None:
                colours[a] = c
            if graph.rank.get(a, len(vertices)) < graph.rank.get(b, len(vertices)):
                matching.append((a, b))
        return sorted(matching), colours

    heap = [(-graph.value(best), 0, best, ())]
    seen, tried, serial = set(), 0, 1
    while heap and tried < CANDIDATES:
        _neg, _s, matching, forbid = heapq.heappop(heap)
        if tuple(matching) in seen:
            continue
        seen.add(tuple(matching))
        tried += 1
        forced = [0] * len(vertices)
        for a, b in matching:
            forced[index[a]], forced[index[b]] = index[b], index[a]
        ok, chosen = completes(allowed, states, left + 1, left, forced=forced, orient=orient)
        if ok:
            return (*found(chosen), tried)
        fixed: list = []
        for e in matching:                       # Murty: the next best keep the pairs before e and lose e
            alt = graph.build(forbid=set(forbid) | {e}, force=fixed)
            if alt is not None:
                heapq.heappush(heap, (-graph.value(alt), serial, alt, tuple(set(forbid) | {e})))
                serial += 1
            fixed = fixed + [e]

    def prefer(v, u):                           # the weightiest pair first
        a, b = sorted((vertices[v], vertices[u]), key=lambda p: graph.rank.get(p, len(vertices)))
        return -graph.edges.get((a, b), graph.weight(a, b) if graph.allowed(a, b) or b == BYE else 0)
    ok, chosen = completes(allowed, states, left + 1, left, orient=orient, prefer=prefer, nodes=10 * SEARCH_NODES)
    if ok:
        return (*found(chosen), tried + 1)
    return None
