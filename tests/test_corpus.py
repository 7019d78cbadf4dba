"""The golden replay corpus (issue #26): every recorded game rebuilds from its seed and log to the same
views after every move and the same result. A failure here means a change altered games already played;
a new rule belongs in a new rules version (docs/rules-versions.md), never in the games of an old one."""

import pytest

from engine import GAME_MODULES, GAMES
from tests.corpus import HERE, read, replay
from tests.corpus.record import option_sets

FILES = sorted(HERE.glob("*.rules*.jsonl.gz"))


def test_the_corpus_covers_every_game_option_set_and_table_size():
    recorded = {(r["game"], tuple(sorted(r["options"].items())), len(r["seats"])) for f in FILES for r in read(f)}
    for key in GAME_MODULES:        # the real games (tests register a small one of their own)
        game = GAMES[key]
        sizes = {n for k, _o, n in recorded if k == key}
        assert sizes == set(range(game.min_players, game.max_players + 1)), key
        for options in option_sets(game):
            assert any(k == key and o == tuple(sorted(options.items())) for k, o, _n in recorded), (key, options)
    wurrm = [r for f in FILES for r in read(f) if r["game"] == "wurrm"]
    for size in range(2, 7):
        assert sum(len(r["seats"]) == size for r in wurrm) >= 24, size


@pytest.mark.parametrize("path", FILES, ids=[f.name.split(".")[0] + "-" + f.name.split(".")[1] for f in FILES])
def test_every_recorded_game_replays_to_the_same_views_and_result(path):
    records = read(path)
    assert records
    for r in records:
        digests, result = replay(r)
        if digests != r["digests"]:
            move = next(i for i, (a, b) in enumerate(zip(digests, r["digests"], strict=False)) if a != b)
            where = "the start" if move == 0 else f"move {move} ({r['log'][move - 1]})"
            pytest.fail(f"{r['game']} rules {r['rules']} seed {r['seed']} options {r['options']} "
                        f"{len(r['seats'])} seats: the views differ after {where}")
        assert result == r["result"], (r["game"], r["seed"])


def test_a_changed_game_does_not_replay_to_the_recorded_digests():
    """The check can fail: the same log from another seed (other dice, deals and boards) is caught."""
    record = next(r for f in FILES for r in read(f) if r["game"] == "wagara" and len(r["log"]) > 20)
    changed = {**record, "seed": record["seed"] + 1}
    try:
        digests, _result = replay(changed)
    except Exception:       # the log is no longer legal at all: caught too
        return
    assert digests != record["digests"]
