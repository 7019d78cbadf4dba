"""WURRM World: list the random arrangements that pass every check (issue #14), for ``board: random``.

    .venv/bin/python bench/wurrm_layouts.py --games 1000   # rewrites data/wurrm/random_layouts.json (~90 min)
    .venv/bin/python bench/wurrm_layouts.py --reuse --games 1000   # only the simulation, on the current list
    .venv/bin/python bench/wurrm_layouts.py --verify 1000 [--prune]  # the listed sizes again, on fresh seeds
    .venv/bin/python bench/wurrm_layouts.py --rules 2 --from 1 --players 3 5 6 --games 1000 --out R.jsonl
        # rules 2 (issue #26): simulate issue #14's 58 survivors (or rules 1's list: --from 1) under rules 2
    .venv/bin/python bench/wurrm_layouts.py --rules 2 --verify 1000 --prune --out V.jsonl   # and verify afresh

Each rules version has its own list (``engine.wurrm.RANDOM_FILES``): rules 1's is never rewritten (its games
draw from it when they are rebuilt), so ``--rules`` says which list is written; without it, a new game's.
Both placement models must be fair (issue #26): seats and Start spaces as the ``easy`` level places (every
seat a uniform choice among ``bot_actions``) and Start spaces placed at random (``measure``, ``verdict``).

Runs ``fair_layout`` (structure, the race gate ``fair_race``, the seat gate ``fair_seats``) on every
arrangement of ``engine.wurrm.candidate_layouts`` (a few minutes), then, with ``--games N``, plays beginner
games on each survivor (bench/wurrm_balance.py ``measure``: seats placing where the beginner places, in
reverse turn order; Start spaces placed at random) at each of 2 to 6 players: a quick look of SCREEN_GAMES
games first, then N games of each, and lists it with the sizes at which every seat and every Start space
was within ±5 points of fair and the game length met its bounds (dropped if none). Far too slow for game
setup, so setup draws from the list this writes. Prints what passed each stage.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import wurrm  # noqa: E402

PLAYERS = (2, 3, 4, 5, 6)
SCREEN_GAMES, SCREEN_SLACK = 300, 3.0   # the quick first look: a board this far outside the bounds is dropped


def gated() -> list:
    counts = {"candidates": 0, "structure and race": 0, "seats": 0}
    edges: dict[float, int] = {}
    kept = []
    for layout in wurrm.candidate_layouts():
        counts["candidates"] += 1
        board = wurrm.Board(wurrm.layout_key(layout))    # not the cache: thousands of boards, each seen once
        if not wurrm.fair_layout(board, seats=False):
            continue
        counts["structure and race"] += 1
        edge = round(wurrm.seat_edge(board), 3)
        edges[edge] = edges.get(edge, 0) + 1
        if wurrm.fair_seats(board):
            counts["seats"] += 1
            kept.append(layout)
    print(counts)
    print("seat edges (first seat at 2 players, lone racers) of the boards passing structure and race:")
    print(" ".join(f"{e:.3f}×{n}" for e, n in sorted(edges.items())))
    return kept


def record(out: str | None, **fields) -> None:
    """Append one raw measurement to ``out`` (jsonl), so nothing is lost when a long run stops."""
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(fields) + "\n")


def simulated(layouts: list, games: int, jobs: int = 1, rules: int | None = None, players=PLAYERS,
              out: str | None = None, seed_base: int = 800000) -> list:
    """Each layout with the player counts at which its simulated seats (chosen placement), Start spaces
    (random placement) and game length meet issue #14's bounds (``bench.wurrm_balance.measure``): at each
    count of PLAYERS, first SCREEN_GAMES games of each with SCREEN_SLACK more points of room (noise), then
    ``games`` of each within the bounds. Layouts passing at no count are dropped."""
    from bench.wurrm_balance import TOLERANCE, measure, show, verdict
    kept = []
    for k, layout in enumerate(layouts):
        saved = wurrm.default_layout
        wurrm.default_layout = lambda layout=layout: [list(p) for p in layout]
        passed, lines = [], []
        try:
            for n in players:
                st = measure(n, SCREEN_GAMES, "beginner", seed0=seed_base - 100000 + k * 1000, quiet=True,
                             rules=rules)
                record(out, stage="screen", index=k, layout=layout, **st)
                fair, room = 100 / n, TOLERANCE + SCREEN_SLACK
                if any(abs(w - fair) > room for w in [*st["seat"], *st["start"].values(),
                                                       *st["start_chosen"].values()]):
                    lines.append("screen " + show(st))
                    continue
                st = measure(n, games, "beginner", seed0=seed_base + k * 100000, quiet=True, jobs=jobs,
                             rules=rules)
                record(out, stage="select", index=k, layout=layout, verdict=verdict(st), **st)
                lines.append(show(st))
                if not verdict(st):
                    passed.append(n)
        finally:
            wurrm.default_layout = saved
        print(f"{k}: players {passed or 'none'} {layout}", flush=True)
        for line in lines:
            print("   ", line, flush=True)
        if passed:
            kept.append({"layout": layout, "players": passed})
    return kept


def wanted(layouts: list, games: int, want: int, rules: int | None, players, out: str | None, seed_base: int,
           first: dict) -> list:
    """Per table size, the first ``want`` layouts that pass (issue #26: at least three random boards for every
    size), trying for each size first the layouts ``first[n]`` lists (those another list had for that size),
    then the rest: a quick look of SCREEN_GAMES games, then ``games`` games of each placement model."""
    from bench.wurrm_balance import TOLERANCE, measure, show, verdict
    found: dict[int, list] = {}
    for n in players:
        order = sorted(range(len(layouts)), key=lambda k: (layouts[k] not in first.get(n, []), k))
        found[n] = []
        for k in order:
            if len(found[n]) >= want:
                break
            layout = layouts[k]
            saved = wurrm.default_layout
            wurrm.default_layout = lambda layout=layout: [list(p) for p in layout]
            try:
                st = measure(n, SCREEN_GAMES, "beginner", seed0=seed_base - 100000 + k * 1000, quiet=True,
                             rules=rules)
                record(out, stage="screen", index=k, layout=layout, verdict=verdict(st), **st)
                fair, room = 100 / n, TOLERANCE + SCREEN_SLACK
                if any(abs(w - fair) > room for w in [*st["seat"], *st["start"].values(),
                                                       *st["start_chosen"].values()]):
                    print(f"{n}p {k}: screen {show(st)}", flush=True)
                    continue
                st = measure(n, games, "beginner", seed0=seed_base + k * 100000, quiet=True, rules=rules)
                record(out, stage="select", index=k, layout=layout, verdict=verdict(st), **st)
                print(f"{n}p {k}: {show(st)}", flush=True)
                if not verdict(st):
                    found[n].append(layout)
            finally:
                wurrm.default_layout = saved
        print(f"{n}p: {len(found[n])} found", flush=True)
    kept = []
    for layout in layouts:
        sizes = [n for n in players if layout in found[n]]
        if sizes:
            kept.append({"layout": layout, "players": sizes})
    return kept


def verified(games: int, jobs: int = 1, rules: int | None = None, out: str | None = None,
             seed_base: int = 30_000_000, players=PLAYERS) -> tuple[list, list]:
    """Each listed arrangement at each of its listed sizes, measured again on seeds the listing run never used:
    choosing the arrangements that passed on one set of games flatters them (the near misses that were lucky
    pass), so a second, independent set tells how many hold. Returns the list keeping only the sizes that pass
    again, and the (index, size, figures) that missed. Sizes not in ``players`` are kept as listed, unplayed
    (issue #36: rules 3 changed four players only, so only they were played again)."""
    from bench.wurrm_balance import measure, show, verdict
    kept, missed = [], []
    for k, entry in enumerate(wurrm.listed_layouts(rules or wurrm.Wurrm.rules)):
        layout = entry["layout"]
        saved = wurrm.default_layout
        wurrm.default_layout = lambda layout=layout: [list(p) for p in layout]
        passed = [n for n in entry["players"] if n not in players]
        try:
            for n in [n for n in entry["players"] if n in players]:
                st = measure(n, games, "beginner", seed0=seed_base + k * 100_000, quiet=True, jobs=jobs,
                             rules=rules)
                bad = verdict(st)
                record(out, stage="verify", index=k, layout=layout, verdict=bad, **st)
                print(f"{k}: {'again' if not bad else 'MISSED'} {show(st)}", flush=True)
                if bad:
                    missed.append((k, n, st))
                else:
                    passed.append(n)
        finally:
            wurrm.default_layout = saved
        if passed:
            kept.append({"layout": layout, "players": sorted(passed)})
    return kept, missed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=0, help="beginner games per layout and player count")
    ap.add_argument("--reuse", action="store_true", help="simulate the current list instead of enumerating")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the long check (2 at most here)")
    ap.add_argument("--verify", type=int, default=0, metavar="N",
                    help="measure the listed sizes again with N fresh games each; the list is unchanged unless --prune")
    ap.add_argument("--prune", action="store_true", help="with --verify: drop the sizes that missed on the fresh games")
    ap.add_argument("--rules", type=int, default=None, help="the rules version to list for (default: a new game's)")
    ap.add_argument("--from", dest="source", type=int, default=0, metavar="RULES",
                    help="simulate the arrangements listed for this rules version instead of enumerating")
    ap.add_argument("--players", type=int, nargs="+", default=list(PLAYERS), help="table sizes to simulate")
    ap.add_argument("--seed-base", type=int, default=0, help="first game seed (fresh seeds for a new run)")
    ap.add_argument("--out", default=None, help="append every raw measurement to this jsonl file")
    ap.add_argument("--want", type=int, default=0, help="per size, stop after this many layouts pass")
    ap.add_argument("--write", default=None, help="write the list here instead of the rules version's file")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rules = args.rules or wurrm.Wurrm.rules
    # a version without a list of its own draws from the latest before it (``listed_layouts``); writing one
    # gives it its own file, never an older version's (issue #36)
    target = wurrm.RANDOM_FILES.get(rules) or wurrm.BOARD_FILE.with_name(f"random_layouts.rules{rules}.json")
    if args.verify:
        before = wurrm.listed_layouts(rules)
        kept, missed = verified(args.verify, args.jobs, rules, args.out, args.seed_base or 30_000_000, args.players)
        pairs = sum(len(x["players"]) for x in before)
        print(f"{pairs - len(missed)} of {pairs} listed (arrangement, size) pairs pass again on {args.verify}"
              f" fresh games; per size: " + ", ".join(
                  f"{n}p {sum(n in x['players'] for x in kept)}/{sum(n in x['players'] for x in before)}"
                  for n in PLAYERS) + f"; {time.perf_counter() - t0:.0f}s")
        if args.prune:
            source = target if target.exists() else wurrm.RANDOM_FILES[min(rules, max(wurrm.RANDOM_FILES))]
            data = json.loads(source.read_text(encoding="utf-8"))
            data["about"] += (f" Verified on {args.verify} more games each on fresh seeds: a size that missed"
                              f" there is dropped.")
            data["layouts"] = kept
            target.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
            print(f"{len(kept)} layouts written")
        return
    if args.reuse or args.source:
        layouts = [x["layout"] for x in wurrm.listed_layouts(args.source or rules)
                   if wurrm.fair_layout(wurrm.Board(wurrm.layout_key(x["layout"])))]
    else:
        layouts = gated()
    about = ("Random WURRM World arrangements that pass engine.wurrm.fair_layout; written by"
             " bench/wurrm_layouts.py (issue #14).")
    if args.games and args.want:
        source = wurrm.listed_layouts(args.source or rules)
        first = {n: [x["layout"] for x in source if n in x["players"]] for n in PLAYERS}
        layouts = wanted(layouts, args.games, args.want, rules, args.players, args.out,
                         args.seed_base or 800000, first)
        about = (f"Random WURRM World arrangements for rules {rules} (issue #26), written by bench/wurrm_layouts.py:"
                 f" each passes engine.wurrm.fair_layout and is listed with the player counts at which its"
                 f" simulated beginner games ({args.games} of each placement model) met the bounds: every seat and"
                 f" every Start space within ±5 points of fair, as the easy level places (reverse turn order) and"
                 f" placed at random, median game at most 10 rounds, 90th percentile at most twice the median.")
    elif args.games:
        layouts = simulated(layouts, args.games, args.jobs, rules, args.players, args.out, args.seed_base or 800000)
        about += (f" Each is listed with the player counts at which it met issue #14's bounds over {args.games}"
                  f" simulated beginner games: every seat (placing in reverse turn order where the beginner"
                  f" places) and every Start space (placed at random) within ±5 points of fair, median game at"
                  f" most 10 rounds, 90th percentile at most twice the median; a table of another size cannot"
                  f" draw it.")
    else:                  # the gates only, unsimulated: listed for every size
        layouts = [{"layout": x, "players": list(PLAYERS)} for x in layouts]
    out = {"about": about, "layouts": layouts}
    (Path(args.write) if args.write else target).write_text(json.dumps(out, separators=(",", ":")) + "\n",
                                                           encoding="utf-8")
    print(f"{len(layouts)} layouts written, {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
