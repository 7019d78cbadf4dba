"""Seikatsu's garden: the tiles and cards (S2, S8), the 37 spaces and their corners (S1), the pagodas' flower
rows, and the scoring as pure functions of a board {space: tile} (S6, S7, S11). ``engine.seikatsu.Seikatsu``
plays the game on it; the rulings and decisions are in engine/seikatsu.py's docstring.
"""

from __future__ import annotations

from collections import Counter

from i18n import W_  # marks only: the engine writes English; the edge translates what it shows

from .hexgrid import DIRECTIONS, spiral

# Game words are marked (W_) so the edge shows them in the reader's language; the engine keeps English.
BIRDS = (W_("crane"), W_("finch"), W_("heron"), W_("sparrow"))
FLOWERS = (W_("iris"), W_("lily"), W_("poppy"), W_("marigold"))
KOI = W_("koi")
# A whole tile's name as one word, for refusals that name a tile ("You have no heron lily tile").
TILE_WORDS = (W_("crane iris"), W_("crane lily"), W_("crane poppy"), W_("crane marigold"),
              W_("finch iris"), W_("finch lily"), W_("finch poppy"), W_("finch marigold"),
              W_("heron iris"), W_("heron lily"), W_("heron poppy"), W_("heron marigold"),
              W_("sparrow iris"), W_("sparrow lily"), W_("sparrow poppy"), W_("sparrow marigold"))
GARDEN_TILES = [f"{bird} {flower}" for bird in BIRDS for flower in FLOWERS] * 2  # S2: every pair twice
KOI_PONDS = 4
CARDS = BIRDS + FLOWERS  # S8: one garden card per bird and per flower
FOUNTAINS_EACH = 2

# ----- the garden (S1) ------------------------------------------------------------------------------------
CENTRE = (0, 0)
SPACES: list[tuple[int, int]] = [c for c in spiral(3) if c != CENTRE]
_SPACE_SET = set(SPACES)


def _label(cell: tuple[int, int]) -> str:
    """Column letter by q; number counted up from the bottom of the column in the channel image (the
    bottom of a column is its largest r)."""
    q, r = cell
    r_max = min(3, 3 - q)
    return f"{'abcdefg'[q + 3]}{r_max - r + 1}"


LABEL: dict[tuple[int, int], str] = {c: _label(c) for c in SPACES}
CELL: dict[str, tuple[int, int]] = {name: c for c, name in LABEL.items()}
NEIGHBOURS: dict[str, list[str]] = {
    LABEL[c]: [LABEL[(c[0] + dq, c[1] + dr)] for dq, dr in DIRECTIONS if (c[0] + dq, c[1] + dr) in _SPACE_SET]
    for c in SPACES
}


def _corners() -> list[tuple[str, str, str]]:
    """Every meeting point of three mutually touching spaces (D5), as sorted label triples."""
    found = set()
    for q, r in SPACES:
        for i in range(6):
            a = (q + DIRECTIONS[i][0], r + DIRECTIONS[i][1])
            b = (q + DIRECTIONS[(i + 1) % 6][0], r + DIRECTIONS[(i + 1) % 6][1])
            if a in _SPACE_SET and b in _SPACE_SET:
                found.add(tuple(sorted((LABEL[(q, r)], LABEL[a], LABEL[b]))))
    return sorted(found)


CORNERS: list[tuple[str, str, str]] = _corners()

PAGODA_ORDER = (W_("pink"), W_("blue"), W_("green"))
PAGODA_CORNER = {"pink": (3, 0), "blue": (0, -3), "green": (-3, 3)}
FLOWER_SPACE = {"pink": (1, 0), "blue": (0, -1), "green": (-1, 1)}
# S4 at four players: the two spaces either side of green's flower space instead of that space.
FOUR_PLAYER_START = [(1, 0), (0, -1), (-1, 0), (0, 1)]


def _axis_value(colour: str, cell: tuple[int, int]) -> int:
    q, r = cell
    return {"pink": r, "blue": q, "green": -q - r}[colour]


def _rows(colour: str) -> list[list[str]]:
    """The 7 rows of a pagoda (S7): lines of constant r (pink), q (blue) or s (green), lengths 4,5,6,6,6,5,4."""
    rows = []
    for value in range(-3, 4):
        rows.append(sorted(LABEL[c] for c in SPACES if _axis_value(colour, c) == value))
    return rows


ROWS: dict[str, list[list[str]]] = {colour: _rows(colour) for colour in PAGODA_ORDER}


# ----- tiles ----------------------------------------------------------------------------------------------
def bird_of(tile: str | None) -> str | None:
    return None if tile is None or tile == KOI else tile.split()[0]


def flower_of(tile: str | None) -> str | None:
    return None if tile is None or tile == KOI else tile.split()[1]


def card_kind(card: str) -> str:
    return "bird" if card in BIRDS else "flower"


def shows(tile: str | None, card: str) -> bool:
    """Whether a tile shows the bird or flower of a garden card (a koi pond shows nothing)."""
    return card in (bird_of(tile), flower_of(tile))


def triangle(n: int) -> int:
    """Flower row points 1/3/6/10/15/21 for 1..6 (S7)."""
    return n * (n + 1) // 2


# ----- scoring, pure functions of a board {label: tile} ---------------------------------------------------
def bird_points(board: dict[str, str], space: str, bird: str | None) -> int:
    """S6: 1 + the touching tiles with this bird if there is at least one, else 0."""
    if bird is None:
        return 0
    matches = sum(1 for n in NEIGHBOURS[space] if bird_of(board.get(n)) == bird)
    return 1 + matches if matches else 0


def koi_bird(board: dict[str, str], space: str) -> tuple[str | None, int]:
    """The bird a koi pond placed on ``space`` counts as (D4) and its points."""
    best, points = None, 0
    for bird in BIRDS:
        p = bird_points(board, space, bird)
        if p > points:
            best, points = bird, p
    return best, points


def score_row(board: dict[str, str], row: list[str]) -> dict:
    """One flower row (S7, D10): the most common flower, its count with the koi ponds, the points."""
    flowers = Counter(flower_of(board[s]) for s in row if s in board and board[s] != KOI)
    koi = sum(1 for s in row if board.get(s) == KOI)
    best, count = None, 0
    for flower in FLOWERS:
        if flowers[flower] > count:
            best, count = flower, flowers[flower]
    return {"spaces": list(row), "flower": best, "koi": koi, "count": count + koi,
            "points": triangle(count + koi)}


def flower_rows(board: dict[str, str], colour: str) -> list[dict]:
    return [score_row(board, row) for row in ROWS[colour]]


def stream(board: dict[str, str], fountains: list[list[str]], card: str) -> list[str]:
    """S11, D9: the tiles showing ``card`` that touch one of ``fountains`` (corners) or chain to such a tile
    through touching tiles that show it too. Each tile once, in label order."""
    found = {s for corner in fountains for s in corner if shows(board.get(s), card)}
    todo = list(found)
    while todo:
        space = todo.pop()
        for n in NEIGHBOURS[space]:
            if n not in found and shows(board.get(n), card):
                found.add(n)
                todo.append(n)
    return sorted(found)
