"""WURRM World's board (Z1): the seven tiles of data/wurrm/board.json, the hex geometry of a layout
(spaces, borders, links; ``Board``, built once per layout), the recommended layout and the arrangements a random
board may be (``candidate_layouts``, and the lists of those that passed every check, ``listed_layouts``).
The rulings are in engine/wurrm.py's docstring; the checks a random board must pass are engine/wurrm_fairness.py.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from .core import State
from .hexgrid import DIRECTIONS, neighbours

BOARD_FILE = Path(__file__).resolve().parent.parent / "data" / "wurrm" / "board.json"
BOARD_DATA = json.loads(BOARD_FILE.read_text(encoding="utf-8"))  # static data, read once at import
TILES: dict = BOARD_DATA["tiles"]
DEFAULT_LAYOUT: list = BOARD_DATA["layouts"]["default"]

START_TILE = "a"
SLEEP_TILES = ("f", "g")

# Direction names in the order of engine.hexgrid.DIRECTIONS, for pointy-top hexes (q grows east, r south).
DIRECTION_NAMES = ("e", "ne", "nw", "w", "sw", "se")
STEP = dict(zip(DIRECTION_NAMES, DIRECTIONS, strict=True))
# Offered in reading order, so a front end can lay them out as a 3 × 2 pad.
DIRECTION_ORDER = ("nw", "ne", "w", "e", "sw", "se")


# ----- the board -------------------------------------------------------------------------------------------
def tile_centre(at: list[int] | tuple[int, int]) -> tuple[int, int]:
    """The centre hex of the tile at lattice cell ``at``. Seven-hex tiles tile the plane on a lattice spanned
    by (2, 1) and (-1, 3); that lattice is itself a hex grid, so tiles are neighbours exactly when their
    lattice cells are (engine.hexgrid.neighbours)."""
    a, b = at
    return (2 * a - b, a + 3 * b)


class Board:
    """Spaces and borders of one layout: read-only, built once per layout (see ``board_for``)."""

    def __init__(self, layout: tuple):
        self.layout = layout
        self.spaces: dict[str, dict] = {}
        self.at: dict[tuple[int, int], str] = {}
        self.borders: dict[frozenset, str] = {}
        self.tiles: list[dict] = []
        for tile, a, b, rot in layout:
            self._place_tile(tile, (a, b), rot)
        self.links: dict[str, dict[str, tuple[str, str]]] = {sid: {} for sid in self.spaces}
        for sid, sp in self.spaces.items():
            for name, (dq, dr) in STEP.items():
                other = self.at.get((sp["q"] + dq, sp["r"] + dr))
                if other is not None:
                    kind = self.borders.setdefault(frozenset((sid, other)), "open")
                    self.links[sid][name] = (other, kind)
        self.starts = [sid for sid, sp in self.spaces.items() if sp["type"] == "start"]
        self.sleeps = [sid for sid, sp in self.spaces.items() if sp["type"] == "sleep"]
        # what views and computer players ask of the board again and again, worked out once (a board is shared
        # and never changes; these are handed out as they are, so their readers must not change them)
        self._to_sleep: dict[str, int] | None = None
        self._to_gems: dict[str, int] | None = None
        self._border_rows: tuple[dict, ...] | None = None
        self._space_rows: tuple[dict, ...] | None = None

    def _place_tile(self, tile: str, at: tuple[int, int], rot: int) -> None:
        data = TILES[tile]
        cq, cr = tile_centre(at)
        self.tiles.append({"tile": tile, "name": data["name"], "q": cq, "r": cr, "rot": rot})
        cells = [(cq, cr)]
        for k in range(6):
            dq, dr = DIRECTIONS[(k + rot) % 6]
            cells.append((cq + dq, cr + dr))
        for index, (spec, (q, r)) in enumerate(zip([data["centre"], *data["ring"]], cells, strict=True)):
            sid = f"{tile}{index}"
            if (q, r) in self.at:
                raise ValueError(f"tiles overlap at {sid}")
            self.spaces[sid] = {"id": sid, "tile": tile, "type": spec["type"], "q": q, "r": r,
                                "gems": spec.get("gems", 0)}
            self.at[(q, r)] = sid
        for k in range(6):
            ring, after = f"{tile}{k + 1}", f"{tile}{(k + 1) % 6 + 1}"
            self.borders[frozenset((f"{tile}0", ring))] = data["spokes"][k]
            self.borders[frozenset((ring, after))] = data["rim"][k]

    def passable(self, start: str) -> set[str]:
        """Spaces reachable from ``start`` without crossing a hostile border (tolls are payable)."""
        seen, todo = {start}, [start]
        while todo:
            for other, kind in self.links[todo.pop()].values():
                if kind != "hostile" and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen

    def connected(self) -> bool:
        """Z1: every Start space reaches both Sleep spaces."""
        return all(set(self.sleeps) <= self.passable(s) for s in self.starts)

    def no_traps(self) -> bool:
        """From every space a Gem or Sleep space is reachable over open borders alone, so a player without
        gems is never shut in for good behind tolls and hostile borders."""
        good = {sid for sid, sp in self.spaces.items() if sp["type"] in ("gem", "sleep")}
        todo = list(good)
        while todo:   # grow the set of spaces that reach a good one, backwards over open borders
            sid = todo.pop()
            for other, kind in self.links[sid].values():
                if kind == "open" and other not in good:
                    good.add(other)
                    todo.append(other)
        return len(good) == len(self.spaces)

    def disjoint_routes(self, start: str, goal: str, enough: int = 2) -> int:
        """How many routes from ``start`` to ``goal`` share no space but their ends (up to ``enough``), over
        borders that are not hostile: unit-capacity augmenting paths on the spaces split in two."""
        used: dict[tuple, int] = {}   # flow on arcs: (a, "out") -> (b, "in") between spaces, (a, "in") -> (a, "out")

        def arcs(node):
            sid, side = node
            if side == "in":
                if sid == start or sid == goal or used.get((node, (sid, "out")), 0) == 0:
                    yield (sid, "out"), (node, (sid, "out")), 1
                for other, kind in self.links[sid].values():   # cancel flow that came in here
                    if used.get(((other, "out"), node), 0) and kind != "hostile":
                        yield (other, "out"), ((other, "out"), node), -1
            else:
                for other, kind in self.links[sid].values():
                    if kind != "hostile" and used.get((node, (other, "in")), 0) == 0:
                        yield (other, "in"), (node, (other, "in")), 1
                if used.get(((sid, "in"), node), 0):
                    yield (sid, "in"), ((sid, "in"), node), -1

        flow = 0
        while flow < enough:
            source, sink = (start, "out"), (goal, "in")
            back = {source: None}
            todo = [source]
            while todo and sink not in back:
                node = todo.pop(0)
                for nxt, arc, sign in arcs(node):
                    if nxt not in back:
                        back[nxt] = (node, arc, sign)
                        todo.append(nxt)
            if sink not in back:
                break
            node = sink
            while back[node] is not None:
                prev, arc, sign = back[node]
                used[arc] = used.get(arc, 0) + sign
                node = prev
            flow += 1
        return flow

    def open_routes(self) -> bool:
        """Every Start space has at least two routes sharing no space to each Sleep space (issue #14)."""
        return all(self.disjoint_routes(a, z) >= 2 for a in self.starts for z in self.sleeps)

    def drawn_width(self) -> float:
        """The board's width in hex circumradii as render/wurrm_board.py draws it: pointy-top hexes, or turned a
        quarter (flat-top) when the board is wider than tall, so the narrower extent runs across the image."""
        xs = [3 ** 0.5 * (sp["q"] + sp["r"] / 2) for sp in self.spaces.values()]
        ys = [1.5 * sp["r"] for sp in self.spaces.values()]
        span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
        return span_x + 3 ** 0.5 if span_x <= span_y else span_y + 2

    def distances_to_sleep(self) -> dict[str, int]:
        """Fewest steps from each space to the nearer Sleep space, over non-hostile borders (for views); worked
        out once per board, not to be changed by its readers."""
        if self._to_sleep is None:
            self._to_sleep = self.distances(self.sleeps, ("open", "toll"))
        return self._to_sleep

    def distances_to_gems(self) -> dict[str, int]:
        """Fewest steps from each space to the nearest Gem or Sleep space over open borders (a broke player's
        way); worked out once per board, not to be changed by its readers."""
        if self._to_gems is None:
            goals = [sid for sid, sp in self.spaces.items() if sp["type"] in ("gem", "sleep")]
            self._to_gems = self.distances(goals, ("open",))
        return self._to_gems

    def border_rows(self) -> tuple[dict, ...]:
        """Every border as a view shows it ({a, b, kind}, the spaces in order, the rows sorted); the view copies
        each row, so these are never handed out to be changed."""
        if self._border_rows is None:
            self._border_rows = tuple({"a": a, "b": b, "kind": kind} for a, b, kind in
                                      sorted((*sorted(pair), kind) for pair, kind in self.borders.items()))
        return self._border_rows

    def space_rows(self) -> tuple[dict, ...]:
        """Every space as a view shows it (id, tile, type, q, r, and a Start space's gems), in the board's order;
        the view copies each row."""
        if self._space_rows is None:
            self._space_rows = tuple({"id": sp["id"], "tile": sp["tile"], "type": sp["type"], "q": sp["q"],
                                      "r": sp["r"], **({"gems": sp["gems"]} if sp["type"] == "start" else {})}
                                     for sp in self.spaces.values())
        return self._space_rows

    def distances(self, targets, kinds) -> dict[str, int]:
        """Fewest steps from each space to the nearest of ``targets``, crossing only borders of ``kinds``."""
        dist = {s: 0 for s in targets}
        frontier = list(targets)
        while frontier:
            nxt = []
            for sid in frontier:
                for other, kind in self.links[sid].values():
                    if kind in kinds and other not in dist:
                        dist[other] = dist[sid] + 1
                        nxt.append(other)
            frontier = nxt
        return dist


@lru_cache(maxsize=256)
def board_for(layout: tuple) -> Board:
    return Board(layout)


def layout_key(placements: list) -> tuple:
    """A hashable layout from its JSON form: [[tile, a, b, rot], ...]."""
    return tuple((p[0], p[1], p[2], p[3]) for p in placements)


def default_layout() -> list:
    return [[p["tile"], p["at"][0], p["at"][1], p["rot"]] for p in DEFAULT_LAYOUT]


def wing_layout(first, second, third, near: str, rots) -> list:
    """A layout of two wings: ``near``'s print at ``first`` beside the Start tile, the other Space print at
    ``second``, a Sleep tile at ``third``, turned by ``rots``; the other wing is its half turn."""
    pair = {"b": "c", "d": "e", "f": "g"}
    far = "d" if near == "b" else "b"
    wing = [(near, first, rots[0]), (far, second, rots[1]), ("f", third, rots[2])]
    layout = [[START_TILE, 0, 0, 0]]
    layout += [[tile, at[0], at[1], rot] for tile, at, rot in wing]
    layout += [[pair[tile], -at[0], -at[1], (rot + 3) % 6] for tile, at, rot in wing]
    return layout


def candidate_layouts():
    """Every arrangement ``random_layout`` may draw before the checks (Z1, issue #14): like the recommended
    board, two wings leave the Start tile and the board looks the same after a half turn, so the Start spaces
    come in equal pairs (a1/a4, a2/a5, a3/a6) — a random board without that symmetry was never fair to every
    Start space. One wing: a Space tile beside the Start tile, the other print's Space tile beside it away from
    the Start tile, a Sleep tile beside that, each turned any way; the other wing is its half turn."""
    from .hexgrid import distance

    for first in neighbours(0, 0):
        for second in neighbours(*first):
            if distance(second, (0, 0)) != 2:
                continue
            for third in neighbours(*second):
                if distance(third, (0, 0)) < 2 or distance(third, first) != 2:
                    continue
                for near in ("b", "d"):
                    for r0 in range(6):
                        for r1 in range(6):
                            for r2 in range(6):
                                layout = wing_layout(first, second, third, near, (r0, r1, r2))
                                cells = [(p[1], p[2]) for p in layout]
                                if len(set(cells)) == len(cells):    # the wings do not cross
                                    yield layout


# The arrangements that pass ``fair_layout``, found once by bench/wurrm_layouts.py (running every check on every
# candidate takes minutes, so game setup only draws from the list; tests/test_wurrm.py checks every entry again).
# Each rules version draws from its own list (issue #26): rules 1 from issue #14's list, never changed again, so
# a rules-1 game rebuilt from its seed draws what it drew; rules 2 from the list measured with its seat gems; a
# version with no file of its own from the latest before it (rules 3 from rules 2's, issue #36).
RANDOM_FILES = {1: BOARD_FILE.with_name("random_layouts.json"), 2: BOARD_FILE.with_name("random_layouts.rules2.json")}
RANDOM_FILE = RANDOM_FILES[2]     # the list new games draw from (bench/wurrm_layouts.py writes it)


@cache
def listed_layouts(rules: int) -> list[dict]:
    """The arrangements listed for a rules version: ``{"layout": [...], "players": [counts it was checked for]}``.
    A version without a file of its own draws from the latest list before it. Rules 3 (issue #36) has none: it
    changed only the four-player seat gems, so at 2, 3, 5 and 6 players its games are rules 2's, and rules 2's
    three four-player arrangements were played again under rules 3's +0/+1/+2/+2 (2,000 fresh games of each
    placement model, seeds 380,000,000 on) and all passed (data/wurrm/DESIGN.md, "Rules 3's random boards")."""
    return json.loads(RANDOM_FILES[min(rules, max(RANDOM_FILES))].read_text(encoding="utf-8"))["layouts"]

def board_of(state: State) -> Board:
    return board_for(layout_key(state["layout"]))
