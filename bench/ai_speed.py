"""Decision time of the computer levels (issue #15: hard ≤ 1 s p95 on one core), with their real budgets.

    .venv/bin/python bench/ai_speed.py [--level hard] [--positions 30]

Positions come from games played by the beginner policy; only real decisions (more than one legal action)
are timed. Prints p50, p95 and max seconds and the mean iterations per decision, per game.

    .venv/bin/python bench/ai_speed.py --cpu [--positions 10]

measures instead the processor time of one iteration (100-iteration searches, untimed), which a busy
machine does not inflate as it does wall time, and the iterations each level's time budget then allows on
one idle core: the fixed budgets for bench/tournament.py.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from engine.ai import BUDGETS, analyse  # noqa: E402

CONFIGS = [("wassamasaw", 2, {}), ("wagara", 2, {}), ("wagara", 4, {}), ("mywuxing", 2, {"version": "think"}),
           ("seikatsu", 2, {}), ("seikatsu", 4, {}), ("wurrm", 2, {}), ("wurrm", 4, {"petition": True})]


def positions(game, players, options, count, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new([f"p{i}" for i in range(players)], rnd.getrandbits(32), options)
        while game.result(state) is None:
            acting = game.to_act(state)
            seat = rnd.choice(acting)
            if len(game.legal_actions(state, seat)) > 1 and rnd.random() < 0.15:
                out.append((state, seat))
            state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
    return out[:count]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--level", default="hard")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--cpu", action="store_true", help="processor time per iteration instead")
    args = ap.parse_args(argv)
    if args.cpu:
        return cpu(args.positions)
    print(f"{'game':<11} {'n':>2}p {'decisions':>9} {'p50 s':>6} {'p95 s':>6} {'max s':>6} {'iters':>6}")
    for key, players, options in CONFIGS:
        game = GAMES[key]
        times, iters = [], []
        for state, seat in positions(game, players, options, args.positions, 7):
            t = time.perf_counter()
            stats = analyse(game, state, seat, args.level, "speed")
            times.append(time.perf_counter() - t)
            iters.append(stats.iterations)
        times.sort()
        p50, p95 = times[len(times) // 2], times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{key:<11} {players:>2}p {len(times):>9} {p50:>6.2f} {p95:>6.2f} {times[-1]:>6.2f} "
              f"{sum(iters) / len(iters):>6.0f}", flush=True)


def cpu(count: int) -> None:
    print(f"{'game':<11} {'n':>2}p {'ms/iteration':>12} " + " ".join(
        f"{lv + ' in ' + format(b.seconds, 'g') + ' s':>15}" for lv, b in BUDGETS.items()))
    for key, players, options in CONFIGS:
        game = GAMES[key]
        spent = done = 0.0
        for state, seat in positions(game, players, options, count, 7):
            t = time.process_time()
            stats = analyse(game, state, seat, "hard", "speed", iterations=100, timed=False)
            spent += time.process_time() - t
            done += stats.iterations
        per = spent / max(done, 1)
        print(f"{key:<11} {players:>2}p {per * 1000:>12.2f} " + " ".join(
            f"{min(b.iterations, int(b.seconds / per)):>15}" for b in BUDGETS.values()), flush=True)


if __name__ == "__main__":
    main()
