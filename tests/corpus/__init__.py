"""The golden replay corpus (issue #26): seeded games recorded at their rules version, and what rebuilding
one must give again.

Each record holds a game's key, rules version, seed, options, seats and action log, and after every move a
digest of what every seat and a spectator see then (``Game.view``) and at the end the result. A test
rebuilds every record from its seed and log with the engine as it stands and requires the same digests,
so a change that alters a game already played (a rule, the order of random draws, a view) fails CI
instead of silently changing the replays, undos and exports of stored games.

``python -m tests.corpus.record`` writes the corpus (see docs/rules-versions.md); the test is
``tests/test_corpus.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from engine import GAMES, Game, State

HERE = Path(__file__).resolve().parent


def views_digest(game: Game, state: State) -> str:
    """12 hex digits of sha-256 over the public view and every seat's view of ``state`` (the JSON of the list of
    them). A seat's view equal to the public one is the same text, so it is not encoded again: encoding was half
    the replay of a WURRM World game, where most seats see what the table sees."""
    public = game.view(state, None)
    text = _json(public)
    parts = [text]
    for seat in state["seats"]:
        view = game.view(state, seat)
        parts.append(text if view == public else _json(view))
    return hashlib.sha256(("[" + ",".join(parts) + "]").encode()).hexdigest()[:12]


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def replay(record: dict) -> tuple[list[str], dict | None]:
    """Rebuild a recorded game from its seed and log: the digest after the start and after each move, and
    the result at the end."""
    game = GAMES[record["game"]]
    state = new_game(record)
    digests = [views_digest(game, state)]
    for seat, action in record["log"]:
        state = game.apply(state, seat, action)
        digests.append(views_digest(game, state))
    return digests, game.result(state)


def new_game(record: dict) -> State:
    """The first state of a recorded game, at its rules version."""
    return GAMES[record["game"]].new(record["seats"], record["seed"], record["options"], rules=record["rules"])


def corpus_file(key: str, rules: int) -> Path:
    return HERE / f"{key}.rules{rules}.jsonl.gz"


def read(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write(path: Path, records: list[dict]) -> None:
    # mtime=0: the same corpus makes the same bytes, so re-recording an unchanged corpus shows no diff
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        for r in records:
            f.write((json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode())
