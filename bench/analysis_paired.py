"""The levels' moves at the same positions, judged by the analysis (issue #46): a paired measure of the order.

    .venv/bin/python bench/analysis_paired.py [--games wassamasaw:2 ...] [--positions 100] [--workers 2]
        [--cache DIR] [--report-only]

bench/analysis_calibration.py compares the policies on games each of them played: the honest measure of a
player, but one whose games differ, so that two levels that choose alike (medium and hard pick the same move
in most MyWuXing decisions) cannot be told apart over 20 games whatever the analysis does. Here every policy
(random, easy, medium, hard, hint: as the calibration plays them) chooses at the *same* positions, drawn
from the calibration's kept games (the first seat's decisions, equally from each policy's games), and each
distinct move is judged by the analysis on the same seed (its candidates and playouts shared). Printed per
game and size: each policy's mean cost and loss of win chance over those positions, and for each level and
the next (random → easy → medium → hard, and hard → hint) how often they chose differently and the mean
difference of their costs (± its standard error; positive: the stronger level's moves cost less).

Kept in ``--cache`` beside the calibration's games; not part of the tests (an hour of processor time).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis_calibration import CONFIGS, POLICIES, game_file, low_priority, move, states  # noqa: E402

from engine import GAMES  # noqa: E402
from engine.ai import analysis as an  # noqa: E402

STEPS = (("random", "easy"), ("easy", "medium"), ("medium", "hard"), ("hard", "hint"))


def positions(cache: Path, key: str, n: int, count: int, per_policy: int) -> list[tuple[int, str]]:
    """``per_policy`` decisions of the first seat from each policy's kept games: (move number, state)."""
    game = GAMES[key]
    out = []
    for policy in POLICIES:
        mine = []
        for i in range(count):
            path = game_file(cache, key, n, policy, i)
            if path.exists():
                mine += [(k, game.dump(state)) for k, state, seat, action in states(key, json.loads(path.read_text()))
                         if seat == "p0" and an.judged_action(game, state, seat, action)]
        out += random.Random(f"paired:{key}{n}:{policy}").sample(mine, min(per_policy, len(mine)))
    return out


def one(key: str, index: int, k: int, dump: str) -> dict:
    """Every policy's move at one position, each distinct move judged on the position's own seed."""
    game = GAMES[key]
    state = game.load(dump)
    chosen = {p: move(game, state, "p0", p, f"paired:{index}:{p}") for p in POLICIES}
    judged = {}
    for action in dict.fromkeys(chosen.values()):
        j = an.judge(game, state, "p0", action, k, f"paired:{key}:{index}")
        judged[action] = (j.cost, j.loss) if j is not None else (0.0, 0.0)
    return {"k": k, "moves": chosen, "cost": {p: judged[a][0] for p, a in chosen.items()},
            "loss": {p: judged[a][1] for p, a in chosen.items()}}


def fill(cache: Path, key: str, n: int, count: int, many: int, workers: int) -> list[dict]:
    path = cache / f"{key}{n}-paired.json"
    if path.exists():
        return json.loads(path.read_text())
    picked = positions(cache, key, n, count, max(1, many // len(POLICIES)))
    with ProcessPoolExecutor(workers, initializer=low_priority) as pool:
        rows = list(pool.map(one, [key] * len(picked), range(len(picked)), *zip(*picked, strict=True)))
    path.write_text(json.dumps(rows))
    return rows


def mean_se(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), (statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0)


def report(rows_by: dict[tuple[str, int], list[dict]]) -> None:
    print("| game | players | positions | mean cost a decision: random / easy / medium / hard / hint "
          "| " + " | ".join(f"{a} → {b}: differ, cost saved" for a, b in STEPS) + " |")
    print("|---|---|---|---|" + "---|" * len(STEPS))
    for (key, n), rows in rows_by.items():
        if not rows:
            continue
        unit = an.CURRENCY[key].unit
        costs = " / ".join(f"{statistics.fmean(r['cost'][p] for r in rows):.2f}" for p in POLICIES)
        cells = []
        for a, b in STEPS:
            differ = sum(1 for r in rows if r["moves"][a] != r["moves"][b])
            saved, se = mean_se([r["cost"][a] - r["cost"][b] for r in rows])
            cells.append(f"{differ / len(rows):.0%}, {saved:+.3f} ± {se:.3f}")
        print(f"| {GAMES[key].title} | {n} | {len(rows)} | {costs} {unit} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=list(CONFIGS))
    parser.add_argument("--positions", type=int, default=100, help="positions per game and size")
    parser.add_argument("--count", type=int, default=20, help="the calibration's games per policy to draw from")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", default="/tmp/teahouse-calibration")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    cache = Path(args.cache) / f"v{an.VERSION}"
    cache.mkdir(parents=True, exist_ok=True)
    rows_by = {}
    for g in args.games:
        key, n = g.split(":")[0], int(g.split(":")[1])
        path = cache / f"{key}{n}-paired.json"
        if args.report_only:
            rows_by[(key, n)] = json.loads(path.read_text()) if path.exists() else []
        else:
            rows_by[(key, n)] = fill(cache, key, n, args.count, args.positions, args.workers)
            print(f"  done {key}{n}", file=sys.stderr, flush=True)
    report(rows_by)


if __name__ == "__main__":
    main()
