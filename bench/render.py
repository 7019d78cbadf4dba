"""Render benchmark: how long each game's table image takes, split into drawing and PNG encoding.

    .venv/bin/python bench/render.py [--reps 3] [--seeds 2] [--runs 1] [--clock wall|cpu] [--games wurrm,seikatsu]
                                     [--save DIR]

For each game at its maximum player count (and at 2 players), seeded random play through the engine
protocol gives mid-game positions (half way through a game) and end-game positions (the finished game).
Every view of a position is rendered: the channel view and each seat's private view. Each is rendered
``--reps`` times and the samples of all views and seeds are pooled per game and position.

Columns: p50/p95 of the whole render (render_png: draw + encode), p95 of the drawing alone (the renderer
returning an Image), p95 of the encoding alone (render.common.to_png), and of its two parts: the palette
(``pal95``: counting colours, choosing the palette, mapping pixels; all but the mapping hold the interpreter
lock) and the deflate (``zip95``: Pillow's PNG encoder, outside the interpreter lock), the encode floor
(to_png of a plain image of the same size, the least any image of that size can cost), and the bytes
of the channel image (median over seeds), and ``cold``: the first render of the position with every render cache emptied
(glyph masks, static layers; fonts stay loaded). TARGET_MS is issue #13's goal for the whole render; ``←``
marks a p95 over it.
With ``--runs K`` every position is measured K times, in turn with the others, and each figure is the median
of its K values. Not part of the test suite: timings depend on the machine and on its load (take several
runs; ``--clock cpu`` counts only this thread's CPU time, steadier when other work shares the machine).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from engine import GAMES  # noqa: E402
from render import RENDERERS, render_png  # noqa: E402
from render.colours import BACKGROUND  # noqa: E402
from render.common import PNG_COMPRESS_LEVEL, font, to_palette, to_png  # noqa: E402

TARGET_MS = 35.0
NAMES = ["Ann", "Bartholomew the Long-Named", "Cy", "Dee", "Éloïse", "Fu", "Gao", "Hana"]


def seats_of(n: int) -> list[str]:
    return [str(100 + i) for i in range(n)]


def positions(key: str, n: int, seed: int) -> dict[str, dict]:
    """The mid-game and end-game states of one seeded random game."""
    game = GAMES[key]
    rnd = random.Random(seed)
    state = game.new(seats_of(n), seed)
    states = [state]
    for _ in range(20000):
        if game.result(state) is not None:
            break
        seat = rnd.choice(game.to_act(state))
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
        states.append(state)
    return {"mid": states[len(states) // 2], "end": states[-1]}


def views_of(key: str, state: dict) -> list[tuple[dict, str | None]]:
    game = GAMES[key]
    return [(game.view(state, v), v) for v in [None, *state["seats"]]]


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}
clock = time.perf_counter


def measure(key: str, views: list[tuple[dict, str | None]], names: dict, reps: int) -> dict:
    fn = RENDERERS[key]
    whole, drawing, encoding, floor, palette, deflate = [], [], [], [], [], []
    sizes: dict[tuple, Image.Image] = {}
    clear_caches()
    t = clock()
    render_png(key, views[0][0], names, views[0][1])
    cold = (clock() - t) * 1000
    for _ in range(reps):
        for view, viewer in views:
            t = clock()
            render_png(key, view, names, viewer)
            whole.append((clock() - t) * 1000)
            t = clock()
            img = fn(view, names, viewer)
            drawing.append((clock() - t) * 1000)
            t = clock()
            to_png(img, key)
            encoding.append((clock() - t) * 1000)
            t = clock()
            pal = to_palette(img, key)
            palette.append((clock() - t) * 1000)
            t = clock()
            pal.save(io.BytesIO(), format="PNG", compress_level=PNG_COMPRESS_LEVEL)
            deflate.append((clock() - t) * 1000)
            sizes.setdefault(img.size, Image.new("RGB", img.size, BACKGROUND))
    for _ in range(reps):
        for plain in sizes.values():
            t = clock()
            to_png(plain)
            floor.append((clock() - t) * 1000)
    return {"p50": pct(whole, 0.5), "p95": pct(whole, 0.95), "draw95": pct(drawing, 0.95),
            "enc95": pct(encoding, 0.95), "pal95": pct(palette, 0.95), "zip95": pct(deflate, 0.95),
            "floor": statistics.median(floor),
            "cold": cold}


def clear_caches() -> None:
    """Forget what earlier images left in render caches (glyphs, static layers), where the code has them, so
    the first image of a position shows the cost of a render that finds nothing cached."""
    for module in list(sys.modules.values()):
        if (getattr(module, "__name__", "") or "").startswith("render"):
            for value in list(vars(module).values()):
                if hasattr(value, "cache_clear") and not isinstance(value, type) and value is not font:
                    value.cache_clear()


def mark(ms: float) -> str:
    return "←" if ms > TARGET_MS else " "


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3, help="renders of every view")
    parser.add_argument("--seeds", type=int, default=2, help="random games per game and player count")
    parser.add_argument("--games", default="", help="comma-separated game keys (default: all)")
    parser.add_argument("--save", default="", help="directory to write each position's channel PNG to")
    parser.add_argument("--runs", type=int, default=1,
                        help="measure every position this many times (in turn) and print the median of each figure")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall: elapsed time (what a player waits); cpu: this thread's CPU time (steadier "
                             "when other work shares the machine)")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    keys = [k for k in args.games.split(",") if k] or [k for k in sorted(GAMES) if k in RENDERERS]
    names = {s: NAMES[i] for i, s in enumerate(seats_of(8))}
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    print(f"target {TARGET_MS:g} ms per image (p95); {args.reps} reps × {args.seeds} seeds × every view; "
          f"{args.clock} clock; median of {args.runs} run(s)")
    print(f"{'game':11} {'n':>2} {'pos':4} {'views':>5} {'p50':>6} {'p95':>7} {'draw95':>7} {'enc95':>6} "
          f"{'pal95':>6} {'zip95':>6} "
          f"{'floor':>6} {'bytes':>8} {'cold':>6}")
    over = False
    cases = []
    for key in keys:
        game = GAMES[key]
        for n in sorted({game.max_players, max(2, game.min_players)}, reverse=True):
            per_seed = [positions(key, n, seed) for seed in range(args.seeds)]
            for pos in ("mid", "end"):
                cases.append((key, n, pos, per_seed))
    results: dict[tuple, list[dict]] = {}
    for run in range(args.runs):
        for key, n, pos, per_seed in cases:
            views = [v for ps in per_seed for v in views_of(key, ps[pos])]
            results.setdefault((key, n, pos), []).append(measure(key, views, names, args.reps))
            if run < args.runs - 1:
                continue
            r = {k: statistics.median(m[k] for m in results[key, n, pos]) for k in results[key, n, pos][0]}
            channel = [render_png(key, GAMES[key].view(ps[pos], None), names, None) for ps in per_seed]
            size = int(statistics.median(len(b) for b in channel))
            if save:
                (save / f"{key}-{n}-{pos}.png").write_bytes(channel[0])
            over |= n == GAMES[key].max_players and r["p95"] > TARGET_MS
            print(f"{key:11} {n:>2} {pos:4} {len(views):>5} {r['p50']:6.1f} {r['p95']:6.1f}{mark(r['p95'])} "
                  f"{r['draw95']:7.1f} {r['enc95']:6.1f} {r['pal95']:6.1f} {r['zip95']:6.1f} {r['floor']:6.1f} "
                  f"{size:>8} {r['cold']:6.1f}", flush=True)
    print("every game at its maximum player count within target" if not over else "← over target")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
