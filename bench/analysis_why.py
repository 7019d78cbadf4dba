"""Why the first analysis (issue #37, version 1) could not tell a random player from the hint's: its parts
taken away one at a time, on the same decisions (issue #46).

    .venv/bin/python bench/analysis_why.py [--cache /tmp/teahouse-calibration] [--games wassamasaw:2 seikatsu:2]
        [--count 2] [--decisions 40]

Reads games kept by bench/analysis_calibration.py (the random and the hint's; run it first) and judges up to
``--decisions`` of the first seat's decisions of each policy in five ways:

1. version 1: the played move and the search's two favourites each valued by 100 iterations of the search
   whose root plays only that move, rollouts cut at 20 moves and scored by the heuristic, the reward a win
   chance with a tenth for the score margin; the loss in win-chance points;
2. the same, with rollouts to the end of the game;
3. the same (rollouts to the end), with the reward the final score margin alone, in the game's currency;
4. flat playouts to the end (no tree below the move), the score margin in the currency: version 2's
   valuation without its second measure;
5. version 2 as shipped (engine.ai.analysis.judge).

Printed: each way's mean loss per decision for the random and the hint's play, and their ratio (how many
times more a random move is found to cost): the larger, the better the measure tells them apart.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import analysis_calibration as cal  # noqa: E402

from engine import GAMES  # noqa: E402
from engine.ai import analysis as an  # noqa: E402
from engine.ai import ismcts  # noqa: E402
from engine.ai.ismcts import Node, _iterate, search  # noqa: E402
from engine.rng import Rng, seed_state  # noqa: E402


def tree_value(game, state, seat, action, seed, cap, margin_only):
    """Version 1's valuation (``value_of``): iterations of the search whose root plays only ``action``; with
    ``margin_only`` the reward is the seat's final margin in the game's currency instead of the win chance."""
    rnd = random.Random(f"value:{seed}")
    det_rng = Rng({"rng": seed_state(rnd.getrandbits(62))})
    root = Node()
    saved = ismcts.rewards
    if margin_only:     # in fiftieths of the currency above 5: the tree's selection needs rewards above -1
        ismcts.rewards = lambda g, s, res: {x: 5 + an.standing(g, s, x)[0] / 50 for x in s["seats"]}
    try:
        for _ in range(100):
            _iterate(game, state, seat, root, [action], {action}, rnd, det_rng, cap)
    finally:
        ismcts.rewards = saved
    child = root.children.get(action)
    return child.reward / child.visits if child is not None and child.visits else 0.0


def ways(game, state, seat, action, k):
    moves = an.choices(game, state, seat)
    stats = search(game, state, seat, iterations=80, seed=f"why:{k}:search", rollout_cap=20)
    candidates = [a for a, _n, _w in stats.actions[:2]]
    if action not in candidates:
        candidates.append(action)
    out = []
    for cap, margin in ((20, False), (400, False), (400, True)):
        values = {a: tree_value(game, state, seat, a, f"why:{k}", cap, margin) for a in candidates}
        out.append((max(values.values()) - values[action]) * (50 if margin else 100))
    flat = an.values(game, state, seat, candidates, playouts=an.EFFORT.value, seed=f"why:{k}")
    out.append(max(v.margin for v in flat.values()) - flat[action].margin)
    judged = an.judge(game, state, seat, action, k, f"why:{k}")
    out.append(judged.cost)
    return out if len(moves) > 1 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", default="/tmp/teahouse-calibration")
    parser.add_argument("--games", nargs="*", default=["wassamasaw:2", "seikatsu:2"])
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=40)
    args = parser.parse_args()
    cache = Path(args.cache) / f"v{an.VERSION}"
    names = ["1. version 1 (win chance, points)", "2. rollouts to the end", "3. and the margin alone (currency)",
             "4. flat playouts, margin (currency)", "5. version 2 (currency)"]
    print("| game | way | random: mean loss | hint: mean loss | ratio |")
    print("|---|---|---|---|---|")
    for spec in args.games:
        key, n = spec.split(":")[0], int(spec.split(":")[1])
        game = GAMES[key]
        found = {}
        for policy in ("random", "hint"):
            rows = []
            for i in range(args.count):
                path = cache / f"{key}{n}-{policy}-{i}.game.json"
                if not path.exists():
                    continue
                for k, state, seat, action in cal.states(key, json.loads(path.read_text())):
                    if seat == "p0" and an.judged_action(game, state, seat, action) and len(rows) < args.decisions:
                        row = ways(game, state, seat, an.judged_action(game, state, seat, action), k)
                        if row is not None:
                            rows.append(row)
            found[policy] = rows
        if not found["random"] or not found["hint"]:
            continue
        for w, name in enumerate(names):
            r = statistics.fmean(row[w] for row in found["random"])
            h = statistics.fmean(row[w] for row in found["hint"])
            print(f"| {game.title} {n} | {name} | {r:.2f} | {h:.2f} | {r / h if h else float('inf'):.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
