"""bench/tournament.py (issue #15): the strength table's arithmetic and its runs, on a tiny budget."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import tournament  # noqa: E402


def test_wilson_interval():
    lo, hi = tournament.wilson(169, 200)            # 84.5 %: the interval the README prints for WURRM hard
    assert round(lo, 3) == 0.788 and round(hi, 3) == 0.889
    assert tournament.wilson(0, 0) == (0.0, 1.0)
    lo, hi = tournament.wilson(10, 10)
    assert hi == 1.0 and 0.69 < lo < 0.73


def test_iteration_budgets_per_game_and_level():
    it = tournament.parse_iterations(["40", "hard=400", "wurrm:medium=100"])
    assert tournament.budget_of(it, "wurrm", "medium") == 100
    assert tournament.budget_of(it, "wagara", "medium") == 40
    assert tournament.budget_of(it, "wagara", "hard") == 400
    assert tournament.parse_iterations(None) is None


def test_run_rotates_the_candidate_and_report_reads_its_file(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    tournament.main(["--games", "4", "--players", "2", "--only", "seikatsu", "--match", "medium:easy",
                     "--iterations", "3", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 4
    assert sorted(r["seat"] for r in rows) == ["p0", "p0", "p1", "p1"]      # game i: seat i mod n
    assert len({r["seed"] for r in rows}) == 4
    assert all(r["match"] == "medium:easy" and r["score"] in (0.0, 0.5, 1.0) and r["moves"] > 0 for r in rows)
    capsys.readouterr()
    tournament.main(["--report", str(out)])
    table = capsys.readouterr().out
    line = next(x for x in table.splitlines() if x.startswith("medium:easy"))
    wins = sum(r["score"] for r in rows)
    assert f"{wins / 4:.1%}" in line and " 2p " in line and "50%" in line


@pytest.mark.parametrize("players", [1, 9])
def test_no_game_at_a_size_it_does_not_seat(tmp_path, players, capsys):
    out = tmp_path / "r.jsonl"
    tournament.main(["--games", "1", "--players", str(players), "--only", "wassamasaw", "--iterations", "3",
                     "--out", str(out)])
    assert out.read_text() == ""
    assert capsys.readouterr().out.startswith("0 games")


def test_seikatsu_at_four_counts_the_candidates_team(monkeypatch):
    """S3/D1: at four Seikatsu plays in two teams; the candidate's side is its team (with an ``easy`` teammate),
    so a team win counts 1 (not 1/2 for a two-seat winner list), a tie between the teams 1/2, chance 1/2."""
    rows = [tournament.play_one(("seikatsu", 4, "medium", "easy", i, 500 + i, {"medium": 3})) for i in range(3)]
    for r in rows:
        assert r["sides"] == 2 and r["score"] in (0.0, 0.5, 1.0)
    game = tournament.GAMES["seikatsu"]
    real = game.result
    monkeypatch.setattr(game, "result", lambda st: real(st) and {**real(st), "winners": ["p1", "p3"]})
    won = tournament.play_one(("seikatsu", 4, "medium", "easy", 1, 7, {"medium": 3}))     # candidate p1
    lost = tournament.play_one(("seikatsu", 4, "medium", "easy", 2, 7, {"medium": 3}))    # candidate p2
    assert (won["score"], lost["score"]) == (1.0, 0.0)
    monkeypatch.setattr(game, "result", lambda st: real(st) and {**real(st), "winners": ["p0", "p1", "p2", "p3"]})
    assert tournament.play_one(("seikatsu", 4, "medium", "easy", 0, 7, {"medium": 3}))["score"] == 0.5
    two = tournament.play_one(("wagara", 2, "medium", "easy", 0, 7, {"medium": 3}))
    assert two["sides"] == 2 and two["score"] in (0.0, 0.5, 1.0)
