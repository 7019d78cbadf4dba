"""How play pauses an analysis (issue #37, "it never slows play"): a light benchmark, not a load test.

    nice -n 19 .venv/bin/python bench/pause.py [--moves 200] [--channels 4] [--think 0.3] [--rounds 50]

A two-player Wassamasaw game is played to its end and analysed through the table service in worker
processes, as the bot does (``use_processes``), with the image workers drawing each move's picture. Then:

1. the pause's own cost, ``--rounds`` times while the analysis judges: how long entering play in flight
   takes (the SIGSTOP sent: what a move pays), until /proc shows every worker stopped (T), and from the end of
   play until every worker runs again (the calm, ``PAUSE_CALM``, included);
2. a burst of ``--moves`` moves by ``--channels`` channels at once (``svc.act`` then ``reply.render()``, a
   player thinking ``--think`` seconds on average between two moves, exponentially): the pauses it caused
   (a pause: the workers stopped, then continued after a calm), the seconds paused, the decisions judged
   during the burst, the moves' saved / image-ready times; then how long the analysis needs after play stops
   (it must finish). The burst runs alone (no analysis), beside an analysis that also waits for a calm
   before each decision (``PLAY_CALM``, ``after_play``), and beside one that does not (``--gates``).

Not part of the tests: timings depend on the machine and its load (the shared machine: run it at nice 19).
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

import load  # noqa: E402  (bench/load.py: the same ended game and percentiles)
from load import pct  # noqa: E402

from engine import GAMES  # noqa: E402
from render import workers as rendering  # noqa: E402
from store import Store  # noqa: E402
from table import TableService, User, Where, analysis_workers, inflight  # noqa: E402
from table import analysis as table_analysis  # noqa: E402

KEYS = ["wagara", "mywuxing", "seikatsu", "wurrm", "wassamasaw"]


def state_of(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


async def ended_game(svc: TableService) -> tuple[Where, User, int]:
    where, host, row = await load.ended_game(svc, "bench")
    return where, host, row.id


async def request(svc: TableService, where: Where, user: User, game_id: int):
    row = await svc.store.game(game_id)
    async with svc.store.batch():            # any kept result dropped, so the request computes it again
        await svc.store.save_analysis(game_id, row.rules or 1, engine=0, moves=0, data={}, seconds=0, now=0)
    reply = await svc.analysis(where, user, game_id)
    assert reply.analysis is not None, reply.private
    return svc.analyses._jobs[game_id]


async def rounds(svc: TableService, n: int) -> None:
    """The SIGSTOP / SIGCONT round, ``n`` times, while the analysis judges."""
    pids = svc.analyses.worker_pids()
    enter, stopped, going = [], [], []
    for _ in range(n):
        t0 = time.perf_counter()
        with inflight.playing():
            t1 = time.perf_counter()
            while any(state_of(p) != "T" for p in pids):
                pass
            t2 = time.perf_counter()
        while any(state_of(p) == "T" for p in pids):
            await asyncio.sleep(0.0005)
        t3 = time.perf_counter()
        enter.append((t1 - t0) * 1000)
        stopped.append((t2 - t0) * 1000)
        going.append((t3 - t2) * 1000)
        await asyncio.sleep(0.01)
    print(f"pause round, {n} times, {len(pids)} workers: entering play in flight (SIGSTOP sent) "
          f"p50 {pct(enter, 50):.3f} / max {max(enter):.3f} ms; all stopped (T) after p50 {pct(stopped, 50):.2f} / "
          f"max {max(stopped):.2f} ms; running again after play p50 {pct(going, 50):.1f} / max {max(going):.1f} ms "
          f"(the calm: {analysis_workers.PAUSE_CALM * 1000:.0f} ms)", flush=True)


async def tables(svc: TableService, channels: int, start: int):
    out = []
    for c in range(channels):
        key = KEYS[(start + c) % len(KEYS)]
        where = Where(f"chan{start + c}", "bench")
        users = [User(f"{start + c}-{i}", f"Player {i}") for i in range(2)]
        await svc.open_table(where, users[0], key)
        await svc.join(where, users[1])
        await svc.start(where, users[0])
        out.append((where, users, GAMES[key]))
    return out


async def burst(svc: TableService, moves: int, channels: int, think: float, start: int) -> tuple[list, list]:
    saved, image, left = [], [], [moves]

    async def play(where, users, game, rnd):
        by = {u.id: u for u in users}
        while left[0] > 0:
            row = await svc.store.open_game(where.channel)
            if row is None:
                return
            state = game.load(row.state)
            seat = rnd.choice(game.to_act(state))
            left[0] -= 1
            t = time.perf_counter()
            reply = await svc.act(where, by[seat], rnd.choice(game.bot_actions(state, seat)), version=row.version)
            if reply.ok:
                saved.append((time.perf_counter() - t) * 1000)
                await reply.render()
                image.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(rnd.expovariate(1 / think) if think else 0)
    await asyncio.gather(*(play(w, u, g, random.Random(i))          # the same moves in each burst
                           for i, (w, u, g) in enumerate(await tables(svc, channels, start))))
    return saved, image


async def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--channels", type=int, default=4)
    ap.add_argument("--think", type=float, default=0.3, help="mean seconds between a channel's two moves")
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--gates", nargs="*", default=["none", "on", "off"],
                    help="bursts to run: none (no analysis), on (the PLAY_CALM gate too), off (the pause alone)")
    args = ap.parse_args(argv)
    rendering.start()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(Path(tmp) / "bench.db").open()
        svc = TableService(store)
        svc.analyses.use_processes(args.workers)
        calm = table_analysis.PLAY_CALM
        try:
            where, user, game_id = await ended_game(svc)
            await burst(svc, 20, 2, 0, 900)                           # the image workers warm
            job = await request(svc, where, user, game_id)
            while len(svc.analyses.worker_pids()) < svc.analyses.workers or job.done < 2:
                await asyncio.sleep(0.05)
            await rounds(svc, args.rounds)
            await svc.analyses.wait(game_id)
            for n, gate in enumerate(args.gates):
                table_analysis.PLAY_CALM = calm if gate == "on" else 0.0
                job = await request(svc, where, user, game_id) if gate != "none" else None
                stats = dict(svc.analyses.stats)
                began = time.perf_counter()
                saved, image = await burst(svc, args.moves, args.channels, args.think, 100 * (n + 1))
                played = time.perf_counter() - began
                line = (f"{gate:>4}: {len(saved)} moves in {played:.1f} s; saved p50 {pct(saved, 50):.1f} / p95 "
                        f"{pct(saved, 95):.1f} ms, image ready p50 {pct(image, 50):.1f} / p95 {pct(image, 95):.1f} ms")
                if job is not None:
                    done = job.done
                    pauses = svc.analyses.stats["pauses"] - stats["pauses"]
                    paused = svc.analyses.stats["paused"] - stats["paused"]
                    t = time.perf_counter()
                    await svc.analyses.wait(game_id)
                    finished = await svc.store.analysis(game_id, (await svc.store.game(game_id)).rules or 1)
                    assert finished is not None and finished["engine"] == table_analysis.VERSION, "not finished"
                    line += (f"; {pauses} pauses ({pauses / max(len(saved), 1):.2f} a move), paused "
                             f"{paused:.1f} s of {played:.1f}; {done} of {len(job.decisions)} decisions judged "
                             f"during play, the rest in {time.perf_counter() - t:.1f} s after it (finished)")
                print(line, flush=True)
        finally:
            table_analysis.PLAY_CALM = calm
            svc.analyses.stop(wait=True)
            await store.close()
            rendering.stop()


if __name__ == "__main__":
    asyncio.run(main())
