"""Record the golden replay corpus: ``python -m tests.corpus.record [--only KEY] [--rules N]``.

For every game, every option set (the defaults, each other value of each option alone, and all options
away from their defaults together) and every table size it seats, seeded games are played to their end by
a seeded player that mostly plays as the beginner does (a random choice among ``bot_actions``, which
always ends a game) and now and then picks any legal action, so odd corners of the rules are in the
corpus too. A game still going after ``MAX_MOVES`` is recorded as far as it went.

Record a rules version once, when it is new: the files of older versions are never rewritten (their
games must replay as they were). See docs/rules-versions.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time

from engine import GAME_MODULES, GAMES, Game, IllegalAction

from . import corpus_file, replay, views_digest, write

GAMES_PER_GAME = 36      # at least this many games per game, spread over its option sets and table sizes
MIN_PER_SIZE = {"wurrm": 24}   # WURRM World: at least this many games at every table size (its seat balance)
MAX_MOVES = 1500
ANY_LEGAL = 0.15         # how often the recording player picks among all legal actions
FEW_VALUES = {"reaction_time": [30, 3600]}   # a timer's length: two lengths stand for all of them


def option_sets(game: Game) -> list[dict]:
    """The defaults, each other value of each option on its own, and every option off its default at once;
    those the game accepts."""
    sets: list[dict] = [{}]
    away: dict = {}
    for name, choices in game.option_choices.items():
        default = game.options[name]
        for value in FEW_VALUES.get(name, choices):
            if value != default:
                sets.append({name: value})
                away.setdefault(name, value)
    if len(away) > 1:
        sets.append(away)
    return [s for s in sets if _accepted(game, s)]


def _accepted(game: Game, options: dict) -> bool:
    """Options the game takes (MyWuXing refuses power cards outside Think: the all-away set has them)."""
    try:
        game.check_options(options)
        return True
    except IllegalAction:
        return False


def play(game: Game, seats: list[str], seed: int, options: dict, rnd: random.Random, rules: int) -> dict | None:
    try:
        state = game.new(seats, seed, options, rules=rules)
    except IllegalAction:
        return None          # a combination the rules refuse (a random WURRM board at an unlisted size)
    record = {"game": game.key, "rules": rules, "seed": seed, "options": options, "seats": seats, "log": []}
    digests = [views_digest(game, state)]
    while game.result(state) is None and len(record["log"]) < MAX_MOVES:
        seat = rnd.choice(sorted(game.to_act(state)))
        pool = game.legal_actions(state, seat) if rnd.random() < ANY_LEGAL else game.bot_actions(state, seat)
        action = rnd.choice(pool)
        state = game.apply(state, seat, action)
        record["log"].append([seat, action])
        digests.append(views_digest(game, state))
    record["digests"] = digests
    record["result"] = game.result(state)
    return record


def record_game(key: str, rules: int) -> list[dict]:
    game = GAMES[key]
    configs = list(itertools.product(option_sets(game), range(game.min_players, game.max_players + 1)))
    per_config = max(1, math.ceil(GAMES_PER_GAME / len(configs)), MIN_PER_SIZE.get(key, 0) // len(option_sets(game)))
    rnd = random.Random(f"corpus {key} rules {rules}")
    records = []
    for options, size in configs:
        for _ in range(per_config):
            records += _played(game, size, options, rnd, rules)
    for size in range(game.min_players, game.max_players + 1):   # sizes where some options were refused
        while sum(len(r["seats"]) == size for r in records) < MIN_PER_SIZE.get(key, 0):
            records += _played(game, size, {}, rnd, rules)
    return records


def _played(game: Game, size: int, options: dict, rnd: random.Random, rules: int) -> list[dict]:
    seats = [f"p{i}" for i in range(1, size + 1)]
    r = play(game, seats, rnd.getrandbits(63), options, random.Random(rnd.getrandbits(63)), rules)
    return [] if r is None else [r]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=list(GAME_MODULES))
    parser.add_argument("--rules", type=int, default=1, help="the rules version being recorded")
    parser.add_argument("--force", action="store_true", help="rewrite an existing file (never an old version's)")
    args = parser.parse_args()
    for key in args.only:
        path = corpus_file(key, args.rules)
        if path.exists() and not args.force:
            print(f"{path.name} exists: a recorded version is never rewritten (--force for a new one)")
            continue
        t = time.perf_counter()
        records = record_game(key, args.rules)
        for r in records:       # the recording and a fresh rebuild agree before anything is written
            assert replay(r) == (r["digests"], r["result"]), (key, r["seed"])
        write(path, records)
        moves = sum(len(r["log"]) for r in records)
        print(f"{key}: {len(records)} games, {moves} moves, {path.stat().st_size // 1024} KiB, "
              f"{time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
