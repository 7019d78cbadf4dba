"""Seikatsu: 1,000 seeded random games through legal_actions, their end scores recounted here from the board
and the log with code independent of the engine's scoring (S5–S7, S11)."""

from __future__ import annotations

from collections import Counter

from engine.hexgrid import neighbours
from engine.seikatsu import CELL, GAME, GARDEN_TILES, KOI
from tests.protocol import play_random

G = GAME
SEATS = ["111111111111111111", "222222222222222222", "333333333333333333", "444444444444444444"]
BIRD_NAMES = ("crane", "finch", "heron", "sparrow")


def parts(tile):
    return (None, None) if tile == KOI else tuple(tile.split())


def by_cell(board):
    return {CELL[s]: t for s, t in board.items()}


def birds_from_log(start_board, log, pagodas):
    """S6 recounted move by move: 1 + touching matches if any; a koi pond is its best bird, then nothing."""
    board = by_cell(start_board)
    birds = Counter()
    for seat, action in log:
        words = action.split()
        if words[0] != "place":
            continue
        tile, cell = " ".join(words[1:-1]), CELL[words[-1]]
        around = [parts(board[n])[0] for n in neighbours(*cell) if n in board]
        options = BIRD_NAMES if tile == KOI else [parts(tile)[0]]
        birds[pagodas[seat]] += max((1 + around.count(b)) if b in around else 0 for b in options)
        board[cell] = tile
    return birds


def flowers(board, colour):
    """S7 recounted: group the cells by the pagoda's axis, most common flower plus koi ponds, triangle points."""
    axis = {"pink": lambda q, r: r, "blue": lambda q, r: q, "green": lambda q, r: -q - r}[colour]
    rows: dict[int, list] = {}
    for cell, tile in by_cell(board).items():
        rows.setdefault(axis(*cell), []).append(tile)
    total = 0
    for tiles in rows.values():
        koi = tiles.count(KOI)
        counts = Counter(parts(t)[1] for t in tiles if t != KOI)
        n = koi + max(counts.values(), default=0)
        total += sum(range(1, n + 1))
    return total


def streams(board, fountains, cards):
    """S11 recounted: flood from every fountain space that shows the card, once per tile per card."""
    cells = by_cell(board)
    total = 0
    for card in cards:
        showing = {c for c, t in cells.items() if card in parts(t)}
        reached = set()
        frontier = [CELL[s] for f in fountains for s in f if CELL[s] in showing]
        while frontier:
            cell = frontier.pop()
            if cell in reached:
                continue
            reached.add(cell)
            frontier.extend(n for n in neighbours(*cell) if n in showing and n not in reached)
        total += len(reached)
    return total


def check_finished_game(state, log, n, seed, options):
    start = G.new(SEATS[:n], seed, options)
    # every one of the 36 tiles is in the garden, none in the bag or a hand
    assert len(state["board"]) == 36 and state["bag"] == [] and not any(state["hands"].values())
    assert Counter(state["board"].values()) == Counter(GARDEN_TILES + [KOI] * 4)
    pagodas = state["pagodas"]
    birds = birds_from_log(start["board"], log, pagodas)
    res = G.result(state)
    for colour, score in res["breakdown"].items():
        corners = [f["spaces"] for f in state["fountains"] if f["pagoda"] == colour]
        expected = {"birds": birds[colour], "flowers": flowers(state["board"], colour),
                    "fountains": streams(state["board"], corners, state["cards"][colour])}
        expected["total"] = sum(expected.values())
        assert score == expected, (colour, score, expected)
    best = max(s["total"] for s in res["breakdown"].values())
    assert res["winners"] == [s for s in SEATS[:n] if res["breakdown"][pagodas[s]]["total"] == best]
    assert res["scores"] == {s: res["breakdown"][pagodas[s]]["total"] for s in SEATS[:n]}
    # Yarimizu bookkeeping: at most two fountains a team, cards of alternating kinds, one per fountain
    for colour, cards in state["cards"].items():
        placed = sum(1 for f in state["fountains"] if f["pagoda"] == colour)
        assert placed == len(cards) <= 2
        assert len({c in BIRD_NAMES for c in cards}) == len(cards)
    assert len({tuple(f["spaces"]) for f in state["fountains"]}) == len(state["fountains"])
    if not options["yarimizu"]:
        assert state["fountains"] == []


def test_S5_S7_S11_200_random_games_finish_with_scores_matching_the_board():
    """200 games take every branch of engine/seikatsu.py and of the checks here that 1,000 took (the first 11
    games take them all: coverage.py's branch coverage, 651 arcs)."""
    fountain_games = 0
    for seed in range(200):
        n = 2 + seed % 3
        options = {"yarimizu": seed % 5 != 4}
        state, log = play_random(G, SEATS[:n], seed, options, check_every=1000)
        check_finished_game(state, log, n, seed, options)
        fountain_games += bool(state["fountains"])
    assert fountain_games > 100


def test_random_games_check_the_protocol_at_every_step():
    for seed in range(12):
        n = 2 + seed % 3
        state, _ = play_random(G, SEATS[:n], 5000 + seed, check_every=1)
        assert G.result(state) is not None
