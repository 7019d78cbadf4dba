"""The TV channel under Discord's limit on one channel (issue #49): 30 games moving at once with a TV channel set,
through the fake Discord that answers 429 past 5 requests per 5 seconds to a channel — the same run as
tests/test_discord_tv.py, at the scale and length asked.

    nice -n 10 .venv/bin/python bench/tv.py [--scale 1] [--seconds 120] [--games 30] [--every 10]

``--scale 1`` is real time (two minutes and the catching up); a larger scale compresses time (the channel's
window is 5 / scale real seconds, the games move scale times faster) and gives the figures in Discord's seconds.
Printed: the moves made, the requests the TV channel took, the most in any 5 s (must be ≤ 5) and how many were
answered 429, each card's lag behind its game (p50, p95, max: from a move saved to the first edit of its card
that shows it), the moves missing from the cards (seen in no edit, or not in the final card) and the duplicate
messages. Not part of the tests: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.tinygame  # noqa: E402,F401  (Pebbles, the little test game the games play)
from tests.test_discord_tv import report, thirty_games  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between a game's moves, on average")
    args = parser.parse_args()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        f = asyncio.run(thirty_games(Path(tmp), scale=args.scale, seconds=args.seconds, games=args.games,
                                     every=args.every))
    how = "real time" if args.scale == 1 else f"time compressed {args.scale:g}×"
    print(report(f, how).replace("in 120 s", f"in {args.seconds:g} s"))
    print(f"({time.monotonic() - began:.0f} s to run)")
    ok = f["busiest_5s"] <= 5 and f["missing"] == 0 and f["duplicates"] == 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
