"""How long an after-game analysis takes (issue #37), at the real effort, in the worker processes the bot uses.

    .venv/bin/python bench/analysis.py [--games wassamasaw:2 wagara:4 wurrm:6] [--workers N] [--repeat 1]

Each game is played to its end by the beginner policy with every seat a person (all of them are judged),
then analysed through the table service as ``/game analysis`` does it (worker processes at the lowest
priority). Prints the decisions judged, the wall time, the workers' processor time (on a busy machine the
measure of what an analysis costs) and the marks. ``--loop SECONDS`` analyses the same game again and again
(dropping the kept result) for that long: run it beside ``bench/load.py`` to see that play does not slow down.
Not part of the tests: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from store import Store  # noqa: E402
from table import TableService, User, Where  # noqa: E402


async def ended_game(svc: TableService, key: str, players: int, seed: int, channel: str):
    where = Where(channel, "bench")
    users = [User(f"p{i}", f"Player {i + 1}") for i in range(players)]
    options = {"version": "think"} if key == "mywuxing" else None
    await svc.open_table(where, users[0], key, options)
    for u in users[1:]:
        await svc.join(where, u)
    await svc.start(where, users[0])
    game, rnd, by = GAMES[key], random.Random(seed), {u.id: u for u in users}
    while (row := await svc.store.open_game(channel)) is not None:
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        await svc.act(where, by[seat], rnd.choice(game.bot_actions(state, seat)))
    return where, users[0], await svc.store.latest_game(channel)


async def analyse(svc, where, user, row) -> tuple[float, str]:
    began = time.perf_counter()
    reply = await svc.analysis(where, user, row.id)
    last = reply
    if reply.analysis is not None:
        async for update in svc.analyses.follow(reply.analysis, user):
            last = update
    return time.perf_counter() - began, last.private[0].text


def workers_cpu(stop=None) -> float:
    """The processor time (user + system) of the finished worker processes so far; with ``stop`` (the
    service), its workers are shut down and waited for first, so that their time is counted. On a busy
    machine this, not the wall time, says what the analysis costs."""
    if stop is not None:
        stop.analyses.stop(wait=True)        # continued first, were they paused by play (none here)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


async def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", nargs="*", default=["wassamasaw:2", "wagara:4", "wurrm:6"])
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loop", type=float, default=0.0)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(Path(tmp) / "bench.db").open()
        svc = TableService(store, render=False)
        svc.analyses.use_processes(args.workers)
        try:
            for n, spec in enumerate(args.games):
                key, players = spec.split(":")
                where, user, row = await ended_game(svc, key, int(players), args.seed, f"c{n}")
                end = time.monotonic() + args.loop
                while True:
                    cpu0 = workers_cpu()
                    seconds, text = await analyse(svc, where, user, row)
                    cpu = workers_cpu(stop=svc) - cpu0
                    stored = await store.analysis(row.id, row.rules)
                    judged = len(stored["data"]["judgements"])
                    print(f"{key} {players}p: {judged} decisions judged in {seconds:.1f} s of wall time, "
                          f"{cpu:.1f} s of the workers' processor time ({cpu / max(judged, 1):.2f} s each; "
                          f"{cpu / svc.analyses.workers:.1f} s a worker) with {svc.analyses.workers} workers",
                          flush=True)
                    if time.monotonic() >= end:
                        break
                    async with store.batch():            # dropped, so the next request computes it again
                        await store.save_analysis(row.id, row.rules, engine=0, moves=0, data={}, seconds=0, now=0)
                print(text, flush=True)
        finally:
            svc.analyses.stop()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
