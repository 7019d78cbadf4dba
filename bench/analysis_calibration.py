"""The analysis against play (issue #46): does it tell a beginner from an expert?

    .venv/bin/python bench/analysis_calibration.py [--games wassamasaw:2 seikatsu:2 ...] [--count 20]
        [--policies random easy medium hard hint] [--workers 2] [--cache DIR] [--noise 30]

For each game and table size, ``--count`` games are played where the first seat follows one policy and every
other seat is the easy computer (the beginner: cheap to play, so that the processor time goes to the judged
seat; the judgement of a move does not depend on who the opponents are, only on the position):

- ``random``: uniformly among the seat's choices (every legal move, as the buttons offer them);
- ``easy``, ``medium``, ``hard``: the computer levels (engine.ai.choose), at the iterations their time
  budgets allow on an idle core (``ITERATIONS``);
- ``hint``: what ``/game hint`` suggests (the hard search's first move, on a seed of its own).

Then the first seat's decisions are judged exactly as ``/game analysis`` judges them (engine.ai.analysis,
the full effort). Printed per game, size and policy: the mean accuracy over the games (± its standard
error; with the anchors in use, engine.ai.analysis.ACCURACY), the mean cost per decision in the game's
currency, the marks per game (with the THRESHOLDS in use, from each decision's lesser gap), and the games
won; then, per game and size, the anchors measured (random play's mean cost, pooled with the easy level's
where the two are the same policy; the floor: what the analysis's own choice is measured to cost) and the
lesser gaps' percentiles, from which the thresholds are chosen. ``--noise N`` judges N decisions of the
random and the hint's games twice with other seeds, and the first judgement's best move with the second
seed: how far two costs of one move lie apart (the engine's noise, against the thresholds), how often a
mark changes, and the floor.

Games and judgements are kept in ``--cache`` (a folder per analysis VERSION), so a second run prints at
once and an interrupted one goes on. Not part of the tests: a full run is hours of processor time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from engine.ai import analyse, choose  # noqa: E402
from engine.ai import analysis as an  # noqa: E402

POLICIES = ("random", "easy", "medium", "hard", "hint")
CONFIGS = ("wassamasaw:2", "seikatsu:2", "seikatsu:4", "wagara:2", "wagara:4", "mywuxing:2", "mywuxing:4",
           "wurrm:2", "wurrm:4")
# Where the easy computer's moves are random moves too (its ``bot_actions`` are every legal action: the
# search's widening changes nothing there, docs/ai-strength.md), random play's anchor pools both policies.
SAME_AS_RANDOM = {"wassamasaw", "seikatsu", "mywuxing"}
# The levels' iterations: what their time budgets (medium 0.25 s, hard 0.85 s) allow on one idle core of the
# 2-core development machine (docs/ai-strength.md, bench/ai_speed.py --cpu). Fixed budgets, not the time:
# the same games whatever else the machine is doing, and the levels as a player meets them on an idle bot.
ITERATIONS = {"medium": {"wassamasaw": 41, "wagara": 37, "mywuxing": 250, "seikatsu": 90, "wurrm": 112},
              "hard": {"wassamasaw": 141, "wagara": 128, "mywuxing": 1293, "seikatsu": 307, "wurrm": 381}}


def options_for(key: str) -> dict | None:
    return {"version": "think"} if key == "mywuxing" else None


def move(game, state, seat: str, policy: str, seed: str) -> str:
    if policy == "random":
        return random.Random(f"random:{seed}").choice(an.choices(game, state, seat) or
                                                      game.legal_actions(state, seat))
    if policy == "hint":
        return analyse(game, state, seat, "hard", f"hint:{seed}", iterations=ITERATIONS["hard"][game.key],
                       timed=False).best
    if policy == "easy":
        return choose(game, state, seat, "easy", seed)
    return choose(game, state, seat, policy, seed, iterations=ITERATIONS[policy][game.key], timed=False)


def play(key: str, players: int, policy: str, seed: int) -> dict:
    """One game: seat p0 by ``policy``, the others by the easy computer; its seed and moves are kept."""
    game = GAMES[key]
    seats = [f"p{i}" for i in range(players)]
    state = game.new(seats, seed, options_for(key))
    moves, k, began = [], 0, time.perf_counter()
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        action = move(game, state, seat, policy if seat == "p0" else "easy", f"{seed}:{k}")
        moves.append([seat, action])
        state = game.apply(state, seat, action)
        k += 1
    res = game.result(state)
    won = 1.0 / len(res["winners"]) if "p0" in (res.get("winners") or []) else 0.0
    return {"seed": seed, "players": players, "moves": moves, "won": won, "scores": res.get("scores"),
            "seconds": round(time.perf_counter() - began, 1)}


def states(key: str, data: dict):
    """The kept game replayed: (move number, state before it, seat, action)."""
    game = GAMES[key]
    state = game.new([f"p{i}" for i in range(data["players"])], data["seed"], options_for(key))
    for k, (seat, action) in enumerate(data["moves"], start=1):
        yield k, state, seat, action
        state = game.apply(state, seat, action)


def judge_game(key: str, path: str, seed: str) -> list[dict]:
    """The first seat's decisions of a kept game, judged as ``/game analysis`` does."""
    game = GAMES[key]
    out = []
    for k, state, seat, action in states(key, json.loads(Path(path).read_text())):
        if seat != "p0":
            continue
        done = an.judge(game, state, seat, action, k, f"{seed}:{k}")
        if done is not None:
            out.append(done.to_dict())
    return out


def noise_pair(key: str, dump: str, seat: str, action: str, k: int) -> tuple[dict, dict] | None:
    game = GAMES[key]
    state = game.load(dump)
    one = an.judge(game, state, seat, action, k, f"x:{k}")
    two = an.judge(game, state, seat, action, k, f"y:{k}")
    return None if one is None or two is None else (one.to_dict(), two.to_dict())


def low_priority() -> None:
    if hasattr(os, "nice"):
        os.nice(10)


def game_file(cache: Path, key: str, n: int, policy: str, i: int) -> Path:
    """A played game: kept apart from the judgements (``cache.parent/games``), which a new analysis VERSION
    computes again on the same games."""
    return cache.parent / "games" / f"{key}{n}-{policy}-{i}.game.json"


def one(key: str, n: int, policy: str, i: int, cache: str, play_only: bool = False) -> str:
    """Play (unless kept) and judge (unless kept, or ``play_only``) the i-th game of a policy; written to the
    cache."""
    game_path = game_file(Path(cache), key, n, policy, i)
    path = Path(cache) / f"{key}{n}-{policy}-{i}.judged.json"
    if not game_path.exists():
        game_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = game_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(play(key, n, policy, 1000 + i)))
        tmp.replace(game_path)
    if not play_only and not path.exists():
        path.write_text(json.dumps(judge_game(key, str(game_path), f"calibration:{i}")))
    return path.name


def fill(cache: Path, configs: list[tuple[str, int]], policies: list[str], count: int, workers: int,
         play_only: bool = False) -> None:
    """Play and judge what the cache lacks, ``workers`` processes at a time: the first game of every game,
    size and policy first, so that an interrupted run has a little of everything."""
    with ProcessPoolExecutor(workers, initializer=low_priority) as pool:
        done = (lambda key, n, policy, i: game_file(cache, key, n, policy, i).exists()) if play_only else \
            (lambda key, n, policy, i: (cache / f"{key}{n}-{policy}-{i}.judged.json").exists())
        jobs = [pool.submit(one, key, n, policy, i, str(cache), play_only) for i in range(count)
                for key, n in configs for policy in policies if not done(key, n, policy, i)]
        for fut in jobs:
            print(f"  done {fut.result()}", file=sys.stderr, flush=True)


def load(cache: Path, key: str, n: int, policy: str, count: int) -> list[tuple[dict, list[an.Judgement]]]:
    out = []
    for i in range(count):
        game_path = game_file(cache, key, n, policy, i)
        path = cache / f"{key}{n}-{policy}-{i}.judged.json"
        if game_path.exists() and path.exists():
            judged = [an.Judgement.from_dict(j) for j in json.loads(path.read_text())]
            for j in judged:          # the thresholds in use, not those of the run: a kept run serves again
                j.mark = an.mark_of(key, j.least) if j.best != j.action else ""
            out.append((json.loads(game_path.read_text()), judged))
    return out


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def mean_sd(values: list[float]) -> str:
    """A mean and its standard error, as the table prints them."""
    if len(values) < 2:
        return f"{statistics.fmean(values):.0f}" if values else "—"
    return f"{statistics.fmean(values):.0f} ± {statistics.stdev(values) / math.sqrt(len(values)):.0f}"


WEIGHTS = (0.5, 0.75, 1.0)     # the cost's share of the accuracy tried by ``fit``: at least half, so that the
# moves of a game already lost still count (its win chance has nothing left to lose)


def per_game(cache: Path, key: str, n: int, policy: str, count: int) -> list[tuple[float, float]]:
    """Each kept game's mean cost and mean loss of win chance (points) of the policy's seat."""
    return [(statistics.fmean(j.cost for j in js), statistics.fmean(100 * j.loss for j in js))
            for _g, js in load(cache, key, n, policy, count) if js]


def fit(cache: Path, key: str, n: int, count: int) -> tuple[an.Anchors, dict[float, float]] | None:
    """The anchors measured: the floor (the analysis's own choice judged with another seed, ``--noise``),
    random play's mean (pooled with easy's where they are the same policy), and of ``WEIGHTS`` the one that
    parts random play from the hint's the most surely (the gap of their mean accuracies over its standard
    error, printed for each weight), among those that keep random play below easy where the two differ."""
    floors = read_floors(cache, key, n)
    games = {p: per_game(cache, key, n, p, count) for p in POLICIES}
    pool = [x for p in (("random", "easy") if key in SAME_AS_RANDOM else ("random",)) for x in games[p]]
    if not floors or not pool or len(games["hint"]) < 2 or len(games["random"]) < 2:
        return None
    cost = (statistics.fmean(c for c, _lo in floors), statistics.fmean(c for c, _lo in pool))
    loss = (statistics.fmean(lo for _c, lo in floors), statistics.fmean(lo for _c, lo in pool))
    scores, best = {}, None
    for w in WEIGHTS:
        anchors = an.Anchors(tuple(round(x, 2) for x in cost), tuple(round(x, 1) for x in loss), w)
        acc = {p: [accuracy_with(anchors, c, lo) for c, lo in v] for p, v in games.items() if len(v) > 1}
        gap = statistics.fmean(acc["hint"]) - statistics.fmean(acc["random"])
        se = math.sqrt(sum(statistics.variance(acc[p]) / len(acc[p]) for p in ("hint", "random")))
        scores[w] = gap / se if se else 0.0
        ordered = key in SAME_AS_RANDOM or "easy" not in acc or \
            statistics.fmean(acc["easy"]) > statistics.fmean(acc["random"])
        if ordered and (best is None or scores[w] > scores[best.weight]):
            best = anchors
    return (best, scores) if best is not None else None


def accuracy_with(anchors: an.Anchors, cost: float, loss: float) -> float:
    """``engine.ai.analysis.accuracy`` with these anchors (loss in points)."""
    (cf, cr), (lf, lr) = anchors.cost, anchors.loss
    return 100.0 * (anchors.weight * 0.5 ** (max(0.0, cost - cf) / (cr - cf))
                    + (1 - anchors.weight) * 0.5 ** (max(0.0, loss - lf) / (lr - lf)))


def summary(cache: Path, configs: list[tuple[str, int]], count: int) -> None:
    """One line per game and size: each policy's mean accuracy with the anchors in use, random play's gap
    below the hint's, and the anchors ``fit`` measures."""
    print("\n| game | players | " + " | ".join(POLICIES) + " | hint − random | measured anchors (weight: gap/se) |")
    print("|---|---|" + "---|" * len(POLICIES) + "---|---|")
    for key, n in configs:
        acc = {p: [an.accuracy(key, n, c, lo / 100) for c, lo in per_game(cache, key, n, p, count)]
               for p in POLICIES}
        fitted = fit(cache, key, n, count)
        shown = "—" if fitted is None else (f"cost {fitted[0].cost}, loss {fitted[0].loss}, weight "
                                            f"{fitted[0].weight} ("
                                            + ", ".join(f"{w}: {z:.1f}" for w, z in fitted[1].items()) + ")")
        gap = statistics.fmean(acc["hint"]) - statistics.fmean(acc["random"]) if acc["hint"] and acc["random"] \
            else float("nan")
        print(f"| {GAMES[key].title} | {n} | " + " | ".join(mean_sd(acc[p]) for p in POLICIES) +
              f" | {gap:.0f} | {shown} |")


def report(cache: Path, configs: list[tuple[str, int]], policies: list[str], count: int) -> None:
    print("| game | players | play | games | decisions a game | accuracy | cost a decision | ?! | ? | ?? "
          "| won |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for key, n in configs:
        unit = an.CURRENCY[key].unit
        means: dict[str, list[float]] = {}
        losses: dict[str, list[float]] = {}
        for policy in policies:
            runs = [(g, js) for g, js in load(cache, key, n, policy, count) if js]
            if not runs:
                continue
            judged = [j for _g, js in runs for j in js]
            means[policy] = [statistics.fmean(j.cost for j in js) for _g, js in runs]
            losses[policy] = [statistics.fmean(100 * j.loss for j in js) for _g, js in runs]
            accuracies = [an.accuracy(key, n, m, lo / 100) for m, lo in zip(means[policy], losses[policy],
                                                                            strict=True)]
            marks = {m: sum(1 for j in judged if j.mark == m) / len(runs) for m in an.MARKS}
            print(f"| {GAMES[key].title} | {n} | {policy} | {len(runs)} | {len(judged) / len(runs):.0f} | "
                  f"{mean_sd(accuracies)} | {statistics.fmean(means[policy]):.2f} {unit}, "
                  f"{statistics.fmean(losses[policy]):.1f} % | "
                  f"{marks['inaccuracy']:.1f} | {marks['mistake']:.1f} | {marks['blunder']:.1f} | "
                  f"{sum(g['won'] for g, _j in runs):.0f} |")
        anchors = an.by_size(an.ACCURACY, key, n)
        floors = read_floors(cache, key, n)
        measured = (f"{statistics.fmean(c for c, _lo in floors):.2f} {unit}, "
                    f"{statistics.fmean(lo for _c, lo in floors):.1f} % over {len(floors)} decisions") \
            if floors else "not measured"

        def mean_of(table, policy):
            return f"{statistics.fmean(table[policy]):.2f}" if table.get(policy) else "—"
        pool = ("random", "easy") if key in SAME_AS_RANDOM else ("random",)
        rand = {"cost": [m for p in pool for m in means.get(p, [])],
                "loss": [m for p in pool for m in losses.get(p, [])]}
        print(f"|  | {n} | *in use (floor, random): {anchors}, hard {an.by_size(an.HARD_COST, key, n)}; "
              f"measured: floor {measured}; random {mean_of(rand, 'cost')} {unit}, {mean_of(rand, 'loss')} % "
              f"({' and '.join(pool)}); hard {mean_of(means, 'hard')} {unit}* | | | | | | | |")
        leasts = {p: [j.least for _g, js in load(cache, key, n, p, count) for j in js] for p in policies}
        shown = "; ".join(f"{p} {quantile(v, 0.9):.1f}/{quantile(v, 0.97):.1f}/{quantile(v, 0.99):.1f}"
                          for p, v in leasts.items() if v)
        print(f"|  | | *the lesser gap at the 90/97/99th percentile: {shown}* | | | | | | | |")


def noise_triple(key: str, dump: str, seat: str, action: str, k: int) -> tuple[dict, dict, dict] | None:
    """The same decision judged with two seeds, and the first judgement's best move judged with the second:
    how far two measures of a cost lie apart, and what the analysis's own choice is measured to cost (its
    floor: noise and the choice among near-equal moves)."""
    game = GAMES[key]
    state = game.load(dump)
    one = an.judge(game, state, seat, action, k, f"x:{k}")
    two = an.judge(game, state, seat, action, k, f"y:{k}")
    if one is None or two is None:
        return None
    own = an.judge(game, state, seat, one.best, k, f"y:{k}")
    return one.to_dict(), two.to_dict(), own.to_dict()


def read_floors(cache: Path, key: str, n: int) -> list[tuple[float, float]]:
    path = cache / f"{key}{n}-noise.json"
    return [(own["cost"], 100 * own["loss"]) for _a, _b, own in json.loads(path.read_text())] \
        if path.exists() else []


def noise(cache: Path, configs: list[tuple[str, int]], count: int, workers: int, per: int) -> None:
    """Decisions of the random and the hint's games (half each), each judged twice and its best judged again
    (``noise_triple``): kept in the cache, printed as a table."""
    with ProcessPoolExecutor(workers, initializer=low_priority) as pool:
        for key, n in configs:
            path = cache / f"{key}{n}-noise.json"
            if path.exists():
                continue
            picked = []
            for policy in ("random", "hint"):
                mine = []
                for i in range(count):
                    game_path = game_file(cache, key, n, policy, i)
                    if game_path.exists():
                        game = GAMES[key]
                        mine += [(k, game.dump(state), seat, action) for k, state, seat, action
                                 in states(key, json.loads(game_path.read_text()))
                                 if seat == "p0" and an.judged_action(game, state, seat, action)]
                picked += random.Random(f"{key}{n}{policy}").sample(mine, min(per // 2, len(mine)))
            if not picked:
                continue
            triples = [t for t in pool.map(noise_triple, *zip(*[(key, d, seat, a, k) for k, d, seat, a in picked],
                                                               strict=True)) if t is not None]
            path.write_text(json.dumps(triples))
    print("\n| game | players | decisions | median Δcost | 95th pct Δcost | largest Δcost | mark changed "
          "| the analysis's own choice costs (currency, win chance) |")
    print("|---|---|---|---|---|---|---|---|")
    for key, n in configs:
        path = cache / f"{key}{n}-noise.json"
        if not path.exists():
            continue
        triples = json.loads(path.read_text())
        gaps = [abs(a["cost"] - b["cost"]) for a, b, _o in triples]
        changed = sum(1 for a, b, _o in triples if an.mark_of(key, a["least"]) != an.mark_of(key, b["least"]))
        floors = [o["cost"] for _a, _b, o in triples]
        floor_losses = [100 * o["loss"] for _a, _b, o in triples]
        print(f"| {GAMES[key].title} | {n} | {len(triples)} | {statistics.median(gaps):.2f} | "
              f"{quantile(gaps, 0.95):.2f} | {max(gaps):.2f} | {changed} | {statistics.fmean(floors):.2f}, "
              f"{statistics.fmean(floor_losses):.1f} % |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=list(CONFIGS))
    parser.add_argument("--policies", nargs="*", default=list(POLICIES))
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", default="/tmp/teahouse-calibration")
    parser.add_argument("--noise", type=int, default=0, help="decisions per game and size judged twice")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--play-only", action="store_true", help="play the games the cache lacks, judge none")
    args = parser.parse_args()
    configs = [(g.split(":")[0], int(g.split(":")[1])) for g in args.games]
    cache = Path(args.cache) / f"v{an.VERSION}"
    cache.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        fill(cache, configs, args.policies, args.count, args.workers, args.play_only)
    if args.noise:
        noise(cache, configs, args.count, args.workers, args.noise)
    report(cache, configs, args.policies, args.count)
    summary(cache, configs, args.count)


if __name__ == "__main__":
    main()
