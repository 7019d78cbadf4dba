"""WURRM World balance: simulated games on a board, figures beside the targets of issue #14.

    .venv/bin/python bench/wurrm_balance.py [--games 2000] [--players 2 4 6] [--policy beginner greedy] [--jobs 2]
    .venv/bin/python bench/wurrm_balance.py --random-layouts 40 --games 300     # random boards, per layout
    .venv/bin/python bench/wurrm_balance.py --effects --games 2000              # do tolls and Attacks matter?

Two computer players, both speaking only the game protocol (``new``, ``to_act``, ``legal_actions``,
``bot_actions``, ``view``, ``apply``/``play``, ``result``):
- beginner: a uniform choice among the engine's ``bot_actions`` (its beginner policy);
- greedy: a shortest-path racer (``Greedy`` below) that plans its whole move over the board in the view,
  counts End-your-turn spaces and tolls as costs, values gems and Attack spaces, chooses the wish with the
  best expected progress, spends spare gems on rerolls and bumps rivals away from the Sleep spaces.
Seats are measured with every seat placing where the beginner places (``bot_actions``: the free Start space
with the shortest race for its gems), in reverse turn order as Z4 has it, so the setup's compensation is at
work as at a table; Start spaces are measured on other games where every seat places on a random free Start
space, so their figures are not confounded with seats (``measure``).

Targets: every seat's and every Start space's win rate within ±5 points of fair (1/players), the median
game at most 10 rounds and the 90th percentile at most twice the median. Not part of the test suite (the
tests check the structure and a small simulation); --jobs N processes (2 at most on a shared machine),
progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from engine.hexgrid import DIRECTIONS  # noqa: E402

G = GAMES["wurrm"]
NAMES = ("e", "ne", "nw", "w", "sw", "se")   # the engine's direction names, in the order of DIRECTIONS
TOLERANCE = 5.0                              # points of win rate either side of fair
# A Start space the easy level places on in fewer than this share of its games is not judged as placed (issue
# #26): it is in play but chosen too rarely for its win rate to mean anything (still judged placed at random).
RARE_START = 0.05
MAX_MEDIAN, P90_FACTOR = 10, 2.0

END_COST = 2.5      # entering an End-your-turn space ends the move: worth about this many steps
GEM_VALUE = 0.35    # a gem held, in steps (rerolls and tolls)
CAP = 3             # gems counted when planning (more are worth no extra steps)


# ----- the board as the view shows it ----------------------------------------------------------------------
class Map:
    """Adjacency and distances of the board in a view (built once per layout)."""

    def __init__(self, view: dict, blind: bool = False):
        self.kind = {sp["id"]: sp["type"] for sp in view["spaces"]}
        at = {(sp["q"], sp["r"]): sp["id"] for sp in view["spaces"]}
        border = {frozenset((b["a"], b["b"])): b["kind"] for b in view["borders"]}
        self.links: dict[str, dict[str, tuple[str, str]]] = {}
        for sp in view["spaces"]:
            out = {}
            for name, (dq, dr) in zip(NAMES, DIRECTIONS, strict=True):
                other = at.get((sp["q"] + dq, sp["r"] + dr))
                if other:
                    kind = border.get(frozenset((sp["id"], other)), "open")
                    out[name] = (other, "open" if blind and kind == "toll" else kind)
            self.links[sp["id"]] = out
        self.blind = blind
        self.sleeps = [s for s, k in self.kind.items() if k == "sleep"]
        self.value = self._values()

    def _values(self) -> dict[tuple[str, int], float]:
        """Steps to the nearer Sleep space from each (space, gems held up to CAP): tolls need and spend a gem,
        Gem spaces give one, an End-your-turn space on the way costs END_COST more (Bellman–Ford)."""
        value = {(sid, g): (0.0 if k == "sleep" else 99.0) for sid, k in self.kind.items() for g in range(CAP + 1)}
        changed = True
        while changed:
            changed = False
            for (sid, g), v in value.items():
                if self.kind[sid] == "sleep":
                    continue
                best = v
                for other, kind in self.links[sid].values():
                    if kind == "hostile" or (kind == "toll" and g < 1):
                        continue
                    g2 = g - (kind == "toll")
                    if self.kind[other] == "gem":
                        g2 = min(CAP, g2 + 1)
                    cost = 1 + (END_COST if self.kind[other] == "end" else 0) + value[(other, g2)]
                    best = min(best, cost)
                if best < v - 1e-9:
                    value[(sid, g)] = best
                    changed = True
        return value

    def remaining(self, sid: str, gems: int) -> float:
        return self.value[(sid, min(gems, CAP))]


@lru_cache(maxsize=64)
def _success(need: int, have: int, rerolls: int) -> float:
    """Chance that at least ``need`` of six dice show the wish, from ``have`` showing, with ``rerolls`` more
    rerolls of every other die (a die is one of five faces: the lucky face never stays)."""
    if have >= need:
        return 1.0
    if rerolls == 0:
        return 0.0
    n, p, total = 6 - have, 0.2, 0.0
    from math import comb
    for k in range(n + 1):
        total += comb(n, k) * p ** k * (1 - p) ** (n - k) * _success(need, have + k, rerolls - 1)
    return total


# ----- the greedy player -----------------------------------------------------------------------------------
class Greedy:
    """A shortest-path racer through the protocol. ``blind`` plans as if tolls were open borders and Attack
    spaces plain (it still cannot cross a toll without a gem: the engine refuses): the player who ignores
    them, to show what they are worth."""

    def __init__(self, blind: bool = False):
        self.blind = blind
        self.maps: dict[tuple, Map] = {}
        self.seen: dict[tuple, int] = {}   # (seat, every avatar's space) at the start of a move -> times

    def stuck(self, view, seat) -> bool:
        """The same move from the same places for the third time: two greedy racers can bump each other back
        and forth for ever (both must stop on one End-your-turn space before a Sleep space, and whoever stands
        there is bumped off before its turn). Players at a table see the loop and try another way, so does this
        one (a random first step)."""
        key = (seat, view["move"]["value"], tuple(sorted(view["positions"].items())))
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] >= 3

    def map(self, view) -> Map:
        key = tuple(sorted((sp["id"], sp["q"], sp["r"]) for sp in view["spaces"]))
        if key not in self.maps:
            self.maps[key] = Map(view, self.blind)
        return self.maps[key]

    def score(self, m: Map, view, seat, sid, gems) -> float:
        s = m.remaining(sid, gems) - GEM_VALUE * min(gems, 6)
        if not self.blind and m.kind[sid] == "attack":
            rich = max((g for o, g in view["gems"].items() if o != seat), default=0)
            s -= GEM_VALUE * (min(rich, 2) * 0.6 - 0.4 * gems)   # about a 60 % wish of 2, or Karma
        return s

    def plan(self, m: Map, view, seat, here, left, visited, gems, bank) -> tuple[float, list[str]]:
        """Best (score, directions) over every path of exactly ``left`` steps (or fewer when it must stop)."""
        best: tuple[float, list[str]] = (self.score(m, view, seat, here, gems), [])
        if left == 0:
            return best
        options = []
        for d, (other, kind) in m.links[here].items():
            if other in visited or kind == "hostile" or (kind == "toll" and gems < 1):
                continue
            options.append((d, other, kind))
        if not options:
            return best
        best = (1e9, [])
        for d, other, kind in options:
            g, b = gems - (kind == "toll" and not self.blind), bank
            if kind == "toll" and self.blind:
                g -= 1
            t = m.kind[other]
            if t == "sleep":
                return (-1000.0 - left, [d])
            if t == "gem" and b > 0:
                g, b = g + 1, b - 1
            if t == "end" or left == 1:
                sc, path = self.score(m, view, seat, other, g), []
            else:
                sc, path = self.plan(m, view, seat, other, left - 1, visited | {other}, g, b)
            if sc < best[0]:
                best = (sc, [d, *path])
        return best

    def act(self, state, seat, rnd: random.Random) -> str:
        legal = G.legal_actions(state, seat)
        view = G.view(state, seat)
        phase = view["phase"]
        m = self.map(view)
        gems = view["gems"][seat]
        if phase == "place":
            return rnd.choice(legal)
        if phase == "lucky":
            return "lucky 4"
        if phase == "wish":
            return self.wish(m, view, seat, gems)
        if phase == "reroll":
            dice = view["dice"]
            met = len(dice["counting"]) >= dice["wish"]
            if met or not dice["marked"] or not any(dice["marked"]):
                return "stop"
            if "reroll" in legal:
                return "reroll"
            reserve = 0 if dice["purpose"] == "attack" else 1
            if "pay reroll" in legal and gems > reserve:
                return "pay reroll"
            return "stop"
        if phase == "move":
            mv = view["move"]
            here = view["positions"][seat]
            if mv["left"] == mv["value"] and self.stuck(view, seat):
                return rnd.choice(legal)
            _, path = self.plan(m, view, seat, here, mv["left"], frozenset(mv["path"]), gems, view["bank"])
            if path and f"move {path[0]}" in legal:
                return f"move {path[0]}"
            return rnd.choice(legal)
        if phase == "bump":
            victim = view["bumping"]
            vg = view["gems"][victim]
            opts = view["bump_options"]
            return "bump " + max(opts, key=lambda d: (m.kind[opts[d]] != "sleep", m.remaining(opts[d], vg),
                                                      m.kind[opts[d]] != "gem"))
        if phase in ("target", "petition"):
            return max(legal, key=lambda a: view["gems"][a.split()[1]])
        if phase == "ask":
            return legal[-1]
        if phase == "bribe":
            return "no bribe"
        if phase == "answer":
            return "accept"
        if phase == "vote":
            pet = view["petition"]
            return "vote yes" if pet["petitioner"] == seat else "vote no"
        return rnd.choice(legal)

    def wish(self, m: Map, view, seat, gems) -> str:
        dice = view["dice"]
        faces, lucky = dice["faces"], dice["lucky"]
        if dice["purpose"] == "attack":
            target = view["gems"][dice["target"]]
            gain = {w: min(w, target) for w in range(1, 7)}
            rerolls = 1 + gems
        else:
            here = view["positions"][seat]
            now = self.score(m, view, seat, here, gems)
            gain = {}
            for w in range(1, 7):
                sc, _ = self.plan(m, view, seat, here, w, frozenset([here]), gems, view["bank"])
                gain[w] = max(0.0, now - sc)
            rerolls = 1 + max(0, gems - 1)
        best, best_ev = 1 if lucky != 1 else 2, -1.0
        for w in range(1, 7):
            if w == lucky:
                continue
            ev = _success(w, sum(1 for f in faces if f == w), rerolls) * gain[w]
            if ev > best_ev + 1e-9:
                best, best_ev = w, ev
        return f"wish {best}"


# ----- playing games -----------------------------------------------------------------------------------------
def play(n: int, seed: int, policies: list, options: dict | None = None, place: str = "random",
         rules: int | None = None) -> dict:
    """One game; ``policies[i]`` plays seat i (None: the beginner). Returns the winner's seat index, its Start
    space, the Start spaces and the rounds played. ``place``: "random", every seat on a random free Start
    space (to measure Start spaces apart from seats), or "chosen", every seat where the engine's beginner
    places (``bot_actions``: the free Start space with the shortest race for its gems), in reverse turn order
    as Z4 has it, as players at a table choose (to measure seats)."""
    seats = [str(i) for i in range(n)]
    rnd = random.Random(seed * 7919 + n)
    state = G.new(seats, seed, options, rules=rules)
    starts: dict[str, str] = {}
    for pol in policies:
        if pol is not None:
            pol.seen.clear()    # a new game: no loop yet
    for _ in range(20000):
        if G.result(state) is not None:
            break
        seat = G.to_act(state)[0] if state["phase"] != "vote" else rnd.choice(G.to_act(state))
        pol = policies[int(seat)]
        if state["phase"] == "place":
            action = rnd.choice(G.legal_actions(state, seat) if place == "random" else G.bot_actions(state, seat))
            starts[seat] = action.split()[1]
        elif pol is None:
            action = rnd.choice(G.bot_actions(state, seat))
        else:
            action = pol.act(state, seat, rnd)
        state = G.apply(state, seat, action)
    res = G.result(state)
    winner = res["winners"][0] if res else None
    view = G.view(state, None)
    return {"winner": None if winner is None else int(winner), "rounds": max(view["turns"].values()),
            "starts": starts}


@contextmanager
def trial(n: int, gems: tuple | None = None, starts: tuple | None = None):
    """A setup on trial at ``n`` players (issue #36: rules 3's was chosen on selection seeds with ``--seat-gems``
    and ``--starts``), whatever the rules version says, other table sizes untouched: ``gems``, seat k takes
    ``gems[k]`` gems beside its Start space's (placement included: the beginner places by the gems it would
    take); ``starts``, the Start spaces in play."""
    from engine import wurrm
    saved = wurrm.seat_bonus, wurrm.open_starts
    if gems is not None:
        wurrm.seat_bonus = lambda index, players, rules=1: (gems[index] if players == n
                                                            else saved[0](index, players, rules))
    if starts is not None:
        wurrm.open_starts = lambda board, players: (list(starts) if players == n else saved[1](board, players))
    try:
        yield
    finally:
        wurrm.seat_bonus, wurrm.open_starts = saved


def tally(n: int, seeds: range, policy: str, options: dict | None = None, place: str = "random",
          rules: int | None = None, gems: tuple | None = None, starts: tuple | None = None) -> dict:
    """Raw counts over the games of ``seeds`` (one worker's share); ``gems``, ``starts``: a setup on trial
    (``trial``)."""
    out = {"wins": [0] * n, "start_games": {}, "start_wins": {}, "rounds": [], "unfinished": 0}
    greedy = Greedy()
    with trial(n, gems, starts):
        games = [play(n, seed, [greedy if policy == "greedy" else None] * n, options, place, rules) for seed in seeds]
    for game in games:
        out["rounds"].append(game["rounds"])
        if game["winner"] is None:
            out["unfinished"] += 1
        else:
            out["wins"][game["winner"]] += 1
        for seat, sid in game["starts"].items():
            out["start_games"][sid] = out["start_games"].get(sid, 0) + 1
            if game["winner"] == int(seat):
                out["start_wins"][sid] = out["start_wins"].get(sid, 0) + 1
    return out


def _tally(args):
    return tally(*args)


def run(n: int, games: int, policy: str, options: dict | None = None, seed0: int = 0, quiet=False,
        jobs: int = 1, place: str = "random", rules: int | None = None, gems: tuple | None = None,
        starts: tuple | None = None) -> dict:
    """``games`` games at ``n`` players, split over ``jobs`` processes (the machine's cores are shared: 2 at
    most is polite), summed into the figures ``verdict`` judges. ``gems``, ``starts``: a setup on trial
    (``trial``)."""
    t0 = time.perf_counter()
    chunks = [range(seed0 + k, seed0 + games, jobs) for k in range(jobs)]
    if jobs > 1:
        from multiprocessing import Pool
        with Pool(jobs) as pool:
            parts = pool.map(_tally, [(n, c, policy, options, place, rules, gems, starts) for c in chunks])
    else:
        parts = [tally(n, chunks[0], policy, options, place, rules, gems, starts)]
    wins = [sum(p["wins"][i] for p in parts) for i in range(n)]
    start_games: dict[str, int] = {}
    start_wins: dict[str, int] = {}
    for p in parts:
        for sid, g in p["start_games"].items():
            start_games[sid] = start_games.get(sid, 0) + g
        for sid, g in p["start_wins"].items():
            start_wins[sid] = start_wins.get(sid, 0) + g
    rounds = sorted(r for p in parts for r in p["rounds"])
    if not quiet:
        print(f"  {policy} {n}p: {games} games, {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    return {
        "n": n, "games": games, "policy": policy, "place": place, "unfinished": sum(p["unfinished"] for p in parts),
        "seat": [100 * w / games for w in wins],
        "start": {sid: 100 * start_wins.get(sid, 0) / g for sid, g in sorted(start_games.items())},
        "start_games": dict(sorted(start_games.items())),
        "median": statistics.median(rounds), "p90": rounds[int(0.9 * (len(rounds) - 1))],
        "worst": rounds[-1], "mean": statistics.fmean(rounds),
    }


def measure(n: int, games: int, policy: str, options: dict | None = None, seed0: int = 0, quiet=False,
            jobs: int = 1, rules: int | None = None, gems: tuple | None = None, starts: tuple | None = None,
            easy_only: bool = False) -> dict:
    """Seats with chosen placement (reverse turn order, each where the beginner places: the setup's
    compensation at work), Start spaces with random placement (each Start space apart from who sits on
    it): ``games`` games of each, on different seeds. Game length from the chosen games.

    With the beginner, the chosen games are also the ``easy`` level's own play (every seat a uniform choice
    among ``bot_actions``, placement included), so their Start spaces are kept too (``start_chosen``):
    issue #26 asks both models to be fair, every seat and every Start space in play (``verdict``).
    ``easy_only``: the chosen games alone (a quicker look while choosing; Start spaces as placed only)."""
    chosen = run(n, games, policy, options, seed0, quiet, jobs, place="chosen", rules=rules, gems=gems,
                 starts=starts)
    if easy_only:
        return {**chosen, "start": {}, "start_chosen": chosen["start"], "start_chosen_games": chosen["start_games"],
                "place": "chosen", "seed0": seed0}
    apart = run(n, games, policy, options, seed0 + 10**6, quiet, jobs, place="random", rules=rules, gems=gems,
                starts=starts)
    rare = {sid for sid, g in chosen["start_games"].items() if g < RARE_START * games}
    return {**chosen, "start": apart["start"], "start_games": apart["start_games"],
            "start_chosen": {sid: w for sid, w in chosen["start"].items() if sid not in rare},
            "start_chosen_games": chosen["start_games"], "seat_random": apart["seat"], "place": "both",
            "seed0": seed0}


def verdict(stats: dict) -> list[str]:
    fair = 100 / stats["n"]
    bad = []
    if any(abs(w - fair) > TOLERANCE for w in stats["seat"]):
        bad.append("seats")
    if any(abs(w - fair) > TOLERANCE for w in stats["start"].values()):
        bad.append("starts")
    if any(abs(w - fair) > TOLERANCE for w in stats.get("start_chosen", {}).values()):
        bad.append("starts as placed")
    if stats["median"] > MAX_MEDIAN:
        bad.append("median")
    if stats["p90"] > P90_FACTOR * stats["median"]:
        bad.append("p90")
    if stats["unfinished"]:
        bad.append("unfinished")
    return bad


def show(stats: dict) -> str:
    fair = 100 / stats["n"]
    seats = " ".join(f"{w:4.1f}" for w in stats["seat"])
    if "seat_random" in stats:
        seats += " [placed at random: " + " ".join(f"{w:4.1f}" for w in stats["seat_random"]) + "]"
    starts = " ".join(f"{sid}:{w:4.1f}" for sid, w in stats["start"].items())
    if "start_chosen" in stats:
        starts += " [as placed: " + " ".join(f"{sid}:{w:4.1f}" for sid, w in stats["start_chosen"].items()) + "]"
    bad = verdict(stats)
    return (f"{stats['policy']:8} {stats['n']}p {stats['games']:5} games | seats {seats}"
            f" (fair {fair:.1f} ±{TOLERANCE:.0f})"
            f" | starts {starts} | rounds median {stats['median']:g} p90 {stats['p90']} worst {stats['worst']}"
            f" (≤{MAX_MEDIAN}, p90 ≤{P90_FACTOR:g}×median) | {'OK' if not bad else 'MISSES: ' + ', '.join(bad)}")


# ----- do tolls and Attack spaces matter? --------------------------------------------------------------------
def effects(games: int) -> list[str]:
    """Three measures: (1) how often the greedy player's planned step differs when it plans as if tolls were
    open and Attack spaces plain; (2) the win rate of that blind player against the normal one at 2 players
    (seats alternate); (3) game length on the board with every toll opened and every Attack space made plain."""
    lines = []
    greedy, blind = Greedy(), Greedy(blind=True)
    differ = total = routes = routes_differ = 0
    for seed in range(max(50, games // 10)):
        rnd = random.Random(seed)
        state = G.new(["0", "1"], seed)
        greedy.seen.clear()
        while G.result(state) is None:
            seat = G.to_act(state)[0]
            action = greedy.act(state, seat, rnd)
            if state["phase"] == "move":
                total += 1
                differ += blind.act(state, seat, random.Random(0)) != action
                view = G.view(state, seat)
                mv = view["move"]
                if mv["left"] == mv["value"]:      # a whole move's route, planned from its first step
                    args = (view, seat, view["positions"][seat], mv["left"], frozenset(mv["path"]),
                            view["gems"][seat], view["bank"])
                    routes += 1
                    routes_differ += greedy.plan(greedy.map(view), *args)[1] != blind.plan(blind.map(view), *args)[1]
            state = G.apply(state, seat, action)
    lines.append(f"greedy moves whose whole route changes when tolls and Attacks are ignored:"
                 f" {100 * routes_differ / routes:.1f} % of {routes}")
    lines.append(f"greedy steps that change when tolls and Attacks are ignored: {100 * differ / total:.1f} %"
                 f" of {total}")
    wins = 0
    for i in range(games):
        policies = [greedy, blind] if i % 2 == 0 else [blind, greedy]
        out = play(2, 50000 + i, policies)
        wins += out["winner"] == (i % 2)
    lines.append(f"normal greedy vs a greedy ignoring tolls and Attacks, 2p: normal wins {100 * wins / games:.1f} %"
                 " (50 % if they did not matter)")
    for label, change in (("as designed", {}), ("tolls opened", {"toll": "open"}),
                          ("Attacks made plain", {"attack": "plain"})):
        with stripped(change):
            for policy in ("beginner", "greedy"):
                st = run(4, max(200, games // 4), policy, seed0=90000, quiet=True)
                lines.append(f"4p {policy:8} {label:20}: rounds median {st['median']:g} mean {st['mean']:.2f}"
                             f" p90 {st['p90']}; seat 1 wins {st['seat'][0]:.1f} %")
    return lines


class stripped:
    """Temporarily rewrite the board data: toll borders → open, or Attack spaces → plain."""

    def __init__(self, change: dict):
        self.change = change

    def __enter__(self):
        from engine import wurrm
        self.saved = json.loads(json.dumps(wurrm.TILES))
        for tile in wurrm.TILES.values():
            if "toll" in self.change:
                tile["spokes"] = [self.change["toll"] if b == "toll" else b for b in tile["spokes"]]
                tile["rim"] = [self.change["toll"] if b == "toll" else b for b in tile["rim"]]
            if "attack" in self.change:
                for sp in [tile["centre"], *tile["ring"]]:
                    if sp["type"] == "attack":
                        sp["type"] = self.change["attack"]
        wurrm.board_for.cache_clear()

    def __exit__(self, *exc):
        from engine import wurrm
        wurrm.TILES.clear()
        wurrm.TILES.update(self.saved)
        wurrm.board_for.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    ap.add_argument("--policy", nargs="+", default=["beginner", "greedy"])
    ap.add_argument("--effects", action="store_true", help="measure what tolls and Attack spaces change")
    ap.add_argument("--random-layouts", type=int, default=0, help="check this many random layouts instead")
    ap.add_argument("--seed", type=int, default=0, help="first random layout's seed (with --random-layouts)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (the cores are shared: 2 at most)")
    ap.add_argument("--rules", type=int, default=None, help="the rules version (default: a new game's)")
    ap.add_argument("--seed0", type=int, default=0, help="first game seed (fresh seeds: one never used before)")
    ap.add_argument("--out", default=None, help="append every measurement to this jsonl file (raw results)")
    ap.add_argument("--seat-gems", type=int, nargs="+", action="append", default=None, metavar="GEMS",
                    help="try these seat gems at their table size (len(GEMS) players), whatever --rules says;"
                         " repeat the flag to try several tables one after the other (issue #36)")
    ap.add_argument("--easy-only", action="store_true",
                    help="only the easy level's own games (no random placement): a quicker look while choosing")
    ap.add_argument("--starts", nargs="+", default=None, metavar="SPACE",
                    help="try these Start spaces in play (with --seat-gems, or one --players size)")
    args = ap.parse_args()
    if args.effects:
        for line in effects(args.games):
            print(line, flush=True)
        return
    if args.random_layouts:
        random_layouts(args)
        return
    ok = True
    trials = [(n, tuple(g)) for g in args.seat_gems for n in [len(g)]] if args.seat_gems else [
        (n, None) for n in args.players]
    starts = tuple(args.starts) if args.starts else None
    for policy in args.policy:
        for n, gems in trials:
            st = measure(n, args.games, policy, jobs=args.jobs, seed0=args.seed0, rules=args.rules, gems=gems,
                         starts=starts, easy_only=args.easy_only)
            ok &= not verdict(st)
            label = "" if gems is None else f"seat gems {'/'.join(f'+{g}' for g in gems)}: "
            label += "" if starts is None else f"starts {' '.join(starts)}: "
            print(label + show(st), flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps({**st, "rules": args.rules or G.rules, "layout": "default",
                                        "seat_gems": gems, "starts_in_play": starts, "verdict": verdict(st)}) + "\n")
    print("ALL TARGETS MET" if ok else "SOME TARGETS MISSED")


def random_layouts(args) -> None:
    """Each random layout (seed s of a game with ``board: random``) played by itself: the same bounds."""
    from engine import wurrm
    from engine.rng import Rng, seed_state
    from engine.wurrm import random_layout
    failed = 0
    for k in range(args.seed, args.seed + args.random_layouts):
        t0 = time.perf_counter()
        layout = random_layout(Rng({"rng": seed_state(k)}))
        made = time.perf_counter() - t0
        saved = wurrm.default_layout
        wurrm.default_layout = lambda layout=layout: [list(p) for p in layout]
        try:
            worst, lines = [], []
            for policy in args.policy:
                for n in args.players:
                    st = measure(n, args.games, policy, seed0=k * 100000, quiet=True, jobs=args.jobs)
                    lines.append(show(st))
                    if verdict(st):
                        worst.append(lines[-1])
        finally:
            wurrm.default_layout = saved
        failed += bool(worst)
        fallback = " (the recommended layout: no draw passed)" if layout == wurrm.default_layout() else ""
        print(f"layout {k}: generated in {made:.2f}s{fallback}: {'OK' if not worst else 'MISSES'} {layout}",
              flush=True)
        for line in lines:
            print("   ", line, flush=True)
    print(f"{args.random_layouts - failed}/{args.random_layouts} random layouts meet every target")


if __name__ == "__main__":
    main()
