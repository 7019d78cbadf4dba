"""Strength of the computer levels (issue #15): one candidate level against ``easy`` seats, seats rotated.

    .venv/bin/python bench/tournament.py                          # the full run: 200 games per game, 2 and 4 players
    .venv/bin/python bench/tournament.py --games 20 --players 2 --match hard:easy medium:easy --jobs 2

Each game seats one candidate (``hard`` or ``medium``) and fills the other seats with the opponent level; the
candidate's seat rotates game by game (game i: seat i mod n). A shared win counts 1/k. Where the game
plays in teams (Seikatsu at four, S3/D1: the candidate and an ``easy`` teammate against two ``easy`` seats)
the side is the team: its win counts 1, a tie between the teams 1/2, and chance is 1/2. Prints each
(matchup, game, players) with the candidate's win rate and a 95 % Wilson interval, and the rate a side of
the opponent level would get by chance (1/sides). ``--iterations N`` replaces the levels' time budgets by
fixed iteration budgets (deterministic runs, and faster: ``--iterations hard=400 medium=100``, or one number
for both, and ``wassamasaw:hard=60`` for one game; ``bench/ai_speed.py --cpu`` tells what the time budgets
allow on an idle core); by default the levels play with their real budgets (iterations and time).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.ai.heuristics import sides  # noqa: E402

CONFIGS = {     # game key → table options used (MyWuXing: Think, where players decide; Learn has no decisions)
    "wassamasaw": {},
    "wagara": {},
    "mywuxing": {"version": "think"},
    "seikatsu": {},
    "wurrm": {},
}
MAX_MOVES = 5000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(job) -> dict:
    key, players, cand, opp, index, seed, iterations = job
    game = GAMES[key]
    seats = [f"p{i}" for i in range(players)]
    cand_seat = seats[index % players]
    levels = {s: (cand if s == cand_seat else opp) for s in seats}
    state = game.new(seats, seed, CONFIGS.get(key, {}))
    rnd = random.Random(seed)
    times, moves = [], 0
    while game.result(state) is None and moves < MAX_MOVES:
        acting = game.to_act(state)
        seat = acting[0] if len(acting) == 1 else rnd.choice(acting)
        t = time.perf_counter()
        level = levels[seat]
        action = choose(game, state, seat, level, f"{seed}:{moves}",
                        iterations=budget_of(iterations, key, level) if iterations else None,
                        timed=not iterations)
        if seat == cand_seat and len(game.legal_actions(state, seat)) > 1:
            times.append(time.perf_counter() - t)
        state = game.apply(state, seat, action)
        moves += 1
    res = game.result(state) or {}
    side = sides(game, state)                       # a seat, or its team (Seikatsu at four)
    all_sides = {tuple(t) for t in side.values()}
    won = {t for t in all_sides if set(t) & set(res.get("winners", []))}
    score = 1.0 / len(won) if tuple(side[cand_seat]) in won else 0.0
    return {"key": key, "players": players, "match": f"{cand}:{opp}", "score": score, "moves": moves,
            "sides": len(all_sides), "seed": seed, "seat": cand_seat, "times": times}


def parse_iterations(words: list[str] | None) -> dict[str, int] | None:
    """``hard=400 medium=100 wassamasaw:hard=60`` → {"hard": 400, "medium": 100, "wassamasaw:hard": 60}: a
    level's budget, for one game when it names one; a bare number applies to both search levels."""
    if not words:
        return None
    out = {}
    for w in words:
        level, _, n = w.rpartition("=")
        for lv in ([level] if level else ["medium", "hard"]):
            out[lv] = int(n)
    return out


def budget_of(iterations: dict[str, int], key: str, level: str) -> int | None:
    return iterations.get(f"{key}:{level}", iterations.get(level))


def _stop(signum, frame):
    raise KeyboardInterrupt


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per (matchup, game, player count)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--match", nargs="+", default=["hard:easy", "medium:easy"])
    ap.add_argument("--only", nargs="+", default=list(CONFIGS), help="game keys")
    ap.add_argument("--iterations", nargs="+", default=None, metavar="LEVEL=N",
                    help="fixed iteration budgets instead of time: hard=400 medium=100 (or N for every level)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="append each game's result to this file (JSON lines)")
    ap.add_argument("--report", nargs="+", metavar="FILE", help="only print the table of these --out files")
    args = ap.parse_args(argv)
    if args.report:
        rows = [json.loads(line) for f in args.report for line in Path(f).read_text().splitlines() if line]
        return table(rows)
    iterations = parse_iterations(args.iterations)
    # player counts in the order given (2 before 4), then round by round: a run stopped early has covered
    # every game and matchup of the first player count equally
    jobs = []
    for players in args.players:
        for i in range(args.games):
            for match in args.match:
                cand, opp = match.split(":")
                for key in args.only:
                    game = GAMES[key]
                    if game.min_players <= players <= game.max_players:
                        jobs.append((key, players, cand, opp, i, args.seed * 100003 + i, iterations))
    print(f"{len(jobs)} games; budgets: "
          + (", ".join(f"{lv} {n}" for lv, n in sorted(iterations.items())) + " iterations" if iterations
             else "real (iterations and time)") + f"; {args.jobs} processes", flush=True)
    results = []
    started = time.time()
    out = open(args.out, "a") if args.out else None     # kept open across the whole run
    try:        # Ctrl-C or SIGTERM to this process stops early and still prints the games played so far
        # forkserver: workers forked from a fresh single-threaded server, never from this process, whose
        # other threads (a test runner's, say) may hold a lock at the moment of a fork (a child hung on one)
        with multiprocessing.get_context("forkserver").Pool(min(args.jobs, len(jobs)) or 1) as pool:
            signal.signal(signal.SIGTERM, _stop)     # in this process only (the workers are started already)
            for r in (pool.imap_unordered(play_one, jobs) if jobs else ()):
                results.append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                print(f"[{time.time() - started:6.0f}s] {len(results)}/{len(jobs)} {r['match']} {r['key']} "
                      f"{r['players']}p score {r['score']:.2f} in {r['moves']} moves", flush=True)
    except KeyboardInterrupt:
        print("stopped early", flush=True)
    finally:
        if out:
            out.close()
    print()
    table(results)


def table(results: list[dict]) -> None:
    tally: dict[tuple, list] = {}
    times: dict[tuple, list] = {}
    sides: dict[tuple, int] = {}
    for r in results:
        k = (r["match"], r["key"], r["players"])
        tally.setdefault(k, []).append(r["score"])
        sides[k] = r.get("sides", r["players"])
        times.setdefault(k, []).extend(r["times"])
    print(f"{'match':<12} {'game':<11} {'n':>2}p {'games':>5}  {'win rate':>8}  {'95% CI':<15} {'chance':>6}"
          f"  {'p50 s':>6} {'p95 s':>6}")
    for (match, key, players), scores in sorted(tally.items()):
        n = len(scores)
        w = sum(scores)
        lo, hi = wilson(w, n)
        ts = sorted(times[(match, key, players)]) or [0.0]
        p50, p95 = ts[len(ts) // 2], ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"{match:<12} {key:<11} {players:>2}p {n:>5}  {w / n:>8.1%}  [{lo:.0%}, {hi:.0%}]{'':<5} "
              f"{1 / sides[(match, key, players)]:>6.0%}  {p50:>6.2f} {p95:>6.2f}")

if __name__ == "__main__":
    main()
