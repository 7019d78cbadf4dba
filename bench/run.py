"""Benchmarks: how fast the engines, the renderers and the table service are.

    .venv/bin/python bench/run.py [--games 50]

Targets (a move must feel instant in Discord, whose interactions allow 3 s before a deferral):
- engine: legal_actions + apply under 5 ms per action on average for every game;
- renderer: one table image under 300 ms (it is drawn off the event loop after deferring);
- service: a stored move (lock, load, apply, transaction) under 20 ms without the image.
Not part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from render import render_png  # noqa: E402

TARGET_ACTION_MS, TARGET_RENDER_MS, TARGET_MOVE_MS = 5.0, 300.0, 20.0


def seats_for(game) -> list[str]:
    n = min(game.max_players, max(game.min_players, 3))
    return [str(100 + i) for i in range(n)]


def bench_engine(key: str, games: int) -> tuple[float, list]:
    game = GAMES[key]
    actions, elapsed, views = 0, 0.0, []
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.new(seats_for(game), seed)
        for _ in range(5000):
            if game.result(state) is not None:
                break
            t = time.perf_counter()
            seat = rnd.choice(game.to_act(state))
            action = rnd.choice(game.bot_actions(state, seat))
            state = game.apply(state, seat, action)
            elapsed += time.perf_counter() - t
            actions += 1
            if rnd.random() < 0.02:
                views.append(game.view(state, None))
        views.append(game.view(state, None))
    return elapsed / max(1, actions) * 1000, views


def bench_render(key: str, views: list) -> float:
    names = {str(100 + i): f"Player {i + 1}" for i in range(8)}
    views = views[:20]
    t = time.perf_counter()
    for v in views:
        render_png(key, v, names)
    return (time.perf_counter() - t) / max(1, len(views)) * 1000


async def bench_service(moves: int = 300) -> float:
    from store import Store
    from table import TableService, User, Where

    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "b.db") as store:
            svc = TableService(store, render=False)
            where = Where("bench", "g")
            a, b = User("1", "A"), User("2", "B")
            game = GAMES["wassamasaw"]
            done, spent = 0, 0.0
            while done < moves:
                await svc.open_table(where, a, "wassamasaw")
                await svc.join(where, b)
                await svc.start(where, a)
                rnd = random.Random(done)
                while done < moves:
                    row = await store.open_game("bench")
                    if row is None:
                        break
                    state = game.load(row.state)
                    seat = game.to_act(state)[0]
                    action = rnd.choice(game.legal_actions(state, seat))
                    t = time.perf_counter()
                    await svc.act(where, a if seat == "1" else b, action)
                    spent += time.perf_counter() - t
                    done += 1
            return spent / done * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    ok = True
    print(f"{'game':12} {'ms/action':>10} {'ms/image':>10}")
    for key in sorted(GAMES):
        per_action, views = bench_engine(key, args.games)
        per_image = bench_render(key, views)
        flag = "" if per_action <= TARGET_ACTION_MS and per_image <= TARGET_RENDER_MS else "  ← over target"
        ok &= not flag
        print(f"{key:12} {per_action:10.2f} {per_image:10.1f}{flag}")
    per_move = asyncio.run(bench_service())
    flag = "" if per_move <= TARGET_MOVE_MS else "  ← over target"
    ok &= not flag
    print(f"service: {per_move:.1f} ms per stored move (target {TARGET_MOVE_MS:g}){flag}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
