"""Review benchmark (issue #28): how long a step of `/game review` takes, from the click to its picture.

    .venv/bin/python bench/review.py [--players 4] [--seed 1] [--games wagara,wurrm] [--workers 2]

For each game a seeded game is played to its end through the table service (every seat a person choosing by
the beginner policy, each move stored as in play) on a fresh SQLite database. Then one reader steps through
it as a player would: every step, one after the other, as the table and as one seat (an ended game opens
every view), each time the whole call — the service's `review` (the game and its log length read, the step
taken from the cached rebuild, the view made) and the picture drawn in the image workers, as the bot does.

Columns: the moves of the game; ``rebuild``: the first call, which replays the game from its seed once (the
steps after it come from the cache); p50 / p95 / max of every later step; ``target``: p95 ≤ 300 ms. The
workers are warmed first (a bot playing keeps warm workers; a pool that has stopped after ten idle minutes
costs its first picture ~0.4 s more). Not part of the test suite: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from render import workers as rendering  # noqa: E402
from store import Store
from table import TableService, User, Where  # noqa: E402

TARGET_MS = 300.0
NAMES = ["Ann", "Bartholomew the Long-Named", "Cy", "Dee", "Éloïse", "Fu"]


async def played(svc: TableService, key: str, players: int, seed: int, where: Where) -> int:
    """A whole game stored through the service; its id."""
    game = GAMES[key]
    n = max(game.min_players, min(game.max_players, players))
    users = [User(str(100 + i), NAMES[i]) for i in range(n)]
    by_id = {u.id: u for u in users}
    await svc.open_table(where, users[0], key)
    for u in users[1:]:
        await svc.join(where, u)
    await svc.start(where, users[0])
    rng = random.Random(seed)
    while (row := await svc.store.open_game(where.channel)) is not None:
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        reply = await svc.act(where, by_id[seat], rng.choice(game.bot_actions(state, seat)))
        if not reply.ok:
            raise RuntimeError(f"{key}: a move was refused: {reply.private[0].text}")
    return (await svc.store.latest_game(where.channel)).id


async def step(svc: TableService, where: Where, reader: User, game_id: int, k: int, viewer: str):
    """(milliseconds from the call to the step's picture drawn, the number of moves reviewed)."""
    t = time.perf_counter()
    reply = await svc.review(where, reader, game_id, k, viewer)
    await reply.render()
    if not reply.ok or reply.private[0].image is None:
        raise RuntimeError(f"step {k} failed: {reply.private[0].text}")
    return (time.perf_counter() - t) * 1000, reply.review.moves


async def main_async(args) -> int:
    keys = args.games.split(",") if args.games else list(GAMES)
    rendering.start(args.workers)
    worst = 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            async with Store(Path(tmp) / "review.db") as store:
                svc = TableService(store)
                reader = User("999", "Reader")
                print(f"{'game':<12}{'moves':>7}{'rebuild':>10}{'p50':>8}{'p95':>8}{'max':>8}   target p95 ≤ "
                      f"{TARGET_MS:.0f} ms")
                for i, key in enumerate(keys):
                    where = Where(f"c{i}", "bench")
                    game_id = await played(svc, key, args.players, args.seed, where)
                    row = await store.game(game_id)
                    # warm workers, as a bot in play has them (a worker's first pictures load fonts and caches)
                    table = (await svc.status(where, reader)).image
                    for _ in range(3):
                        await asyncio.gather(*(rendering.draw(table.job) for _ in range(args.workers)))
                    first, moves = await step(svc, where, reader, game_id, 0, "t")
                    times = []
                    for viewer in ("t", "0"):
                        for k in range(moves + 1):
                            times.append((await step(svc, where, reader, game_id, k, viewer))[0])
                    times.sort()
                    p95 = times[int(0.95 * (len(times) - 1))]
                    worst = max(worst, p95)
                    mark = " ←" if p95 > TARGET_MS else ""
                    print(f"{GAMES[row.game].title:<12}{moves:>7}{first:>9.0f}ms{statistics.median(times):>6.0f}ms"
                          f"{p95:>6.0f}ms{times[-1]:>6.0f}ms{mark}")
    finally:
        rendering.stop()
    return 0 if worst <= TARGET_MS else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="", help="comma-separated keys (default: every game)")
    parser.add_argument("--workers", type=int, default=2, help="image worker processes (the bot: one per core)")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
