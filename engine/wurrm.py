"""WURRM World (RULES.md §5, Z1–Z8): race your four-sided avatar from a Start space to a Sleep space.

The board (Z1) is data: ``data/wurrm/board.json`` holds the seven tiles and the recommended layout, and
``data/wurrm/DESIGN.md`` explains them. A tile is seven hexes (a centre and a ring of six); tiles sit on a
coarser hex lattice so that the spaces of neighbouring tiles touch. Borders are printed on the tiles, so
only the twelve sides inside a tile carry a toll or hostile border; sides between tiles are open. Every tile
is connected inside itself without crossing a hostile border, which is why every connected arrangement of
tiles joins every Start space to both Sleep spaces. ``random_layout`` (with the rng in the state, so it
replays) draws one of the arrangements of two wings with the half-turn symmetry of the recommended board
(``candidate_layouts``) that pass ``fair_layout``: the board fits the image, two routes sharing no space from
every Start space to each Sleep space, no trap for a gemless player, a race of about the same length from
every Start space, the quick simulation gate ``fair_race`` (a lone beginner's expected race in turns) and the
seat gate ``fair_seats`` (issue #14, ruling: a random board is used only where the seat gems of Z4 make up for
moving later — where a later seat's extra gem pays a toll on a short route; bench/wurrm_balance.py measures the
win rates of whole games). Checking every arrangement takes minutes, so bench/wurrm_layouts.py lists the ones
that pass in data/wurrm/random_layouts.json and setup draws from that list; the same ruling keeps in that list
only the arrangements whose simulated beginner games met issue #14's bounds (every seat and every Start space
within ±5 points of fair, the game length), each listed with the table sizes it met them at (1,000 games of
each; DESIGN.md has the figures). A table of a size no listed arrangement met plays no random board: the game
refuses to start with ``board: random`` and says so (ruling, issue #14).

A turn, as actions (every step is its own action, see ``legal_actions``):
``lucky N`` (choose the lucky number 1–4; this also rolls the six dice), ``wish N`` (1–6), then
``toggle K`` to mark die K for rerolling (the dice that miss the wish start marked), ``reroll`` (the free
reroll), ``pay reroll`` (1 gem each, after the free one), ``stop``; then ``move DIR`` step by step (DIR is
one of nw ne w e sw se); landing on someone: ``bump DIR``; landing on an Attack space: ``attack SEAT``,
with Bribery ``bribe N`` / ``no bribe`` by the target and ``accept`` / ``refuse`` by the attacker, with
Petition ``petition SEAT``, ``ask N`` and everybody's ``vote yes`` / ``vote no``.

Rulings of RULES.md this module implements, with the decisions taken where the rulebook and RULES.md are
silent (each is tested in tests/test_wurrm*.py):

- Z2 Start spaces in play (ruling, issue #14): with six players all six; with fewer, the max(players, 4)
  with the shortest race (``open_starts``; on the recommended board a1, a3, a4, a6 — a2 and a5 lie a step behind
  and hold 3 gems to make up for it when they are needed).
- Z4 Setup (ruling, issue #14): placement goes in REVERSE turn order (the last player places first and
  picks from the Start spaces in play), and each player takes its Start space's 1–3 gems plus
  SEAT_BONUS[players] for its place in the turn order (2 players +0/+1 ... 6 players +0/+1/+1/+2/+2/+3; rules 1:
  rules 2 and 3 changed these, see the end of this docstring).
  Moving first is worth about that much in a race (measured: without it the first seat won 56 % at 2
  players and 24 % against 11 % at 6). The computer's beginner places where a lone race with the gems it
  would take is shortest (``race_values``), so the reverse order hands the later seats the pick, as at a
  table; on the recommended board the first seats of six are left a2 and a5. The turn order itself is the
  seat order. Every avatar's lucky number starts at 1 (the face it happens to show) until its owner picks
  one.
- Z5 Lucky: a die showing the lucky number is rolled again until it does not, on every roll. A wish equal
  to the lucky number is allowed, and can never come true (the rulebook allows any wish 1–6).
- Z5 Rerolls: the free reroll comes first and is optional; paid rerolls (1 gem to the bank each) only after
  it. A reroll needs at least one marked die. Players may reroll dice that show the wish.
- Z5 Movement: a space may be entered once per move, and the space the move began on counts as entered,
  so a move never doubles back onto its own path. Passing through an occupied space is allowed; only the
  space where the move ends is landed on. A move that cannot take even its first step lands nowhere: no
  land effect, no bump (the avatar never left). A move that stops early lands where it stopped. The view
  lists every space the move in progress can end on (``reach``; issue #14: the mover's image marks them).
- Z2 Touch effects happen on entering a space, including the last one: Gem (+1 from the bank, +2 with
  Bribery, as far as the bank reaches), End-your-turn (the move stops; that space is landed on), Sleep (the
  mover wins at once, even mid-move). Start and plain spaces do nothing. Land effect: Attack.
- Z3 Borders: a toll is paid to the bank on crossing and needs the gem in hand at that moment; a hostile
  border cannot be crossed, or with Bribery for 6 gems paid to the bank.
- Z7 Bumping: the mover chooses where each bumped avatar goes (``bump DIR``). A bumped avatar may not go
  through a border it cannot pay for (it pays a toll itself), nor onto the mover's space, nor onto a space
  held by an avatar already bumped this turn (that one cannot move again, and two cannot share a space by
  choice). Rulings (issue #14): a bump never crosses a hostile border, with Bribery or not (a bribe is the
  crosser's own choice; a bumped player chooses nothing, so nobody can be made to pay 6 gems), and never
  pushes anyone onto a Sleep space (nobody wins on someone else's turn; a player at the table would not
  accept losing because they bumped a rival into bed): when a Sleep space is the only way out, the occupant
  stays, as with no legal space.
  An avatar pushed onto an occupied space bumps its occupants in turn (chains). With no legal space the
  occupant stays and shares the space. A bumped avatar gets the effects of the space it is pushed onto:
  Gem pays it, an Attack space makes it attack (or petition) with its own lucky number, End-your-turn does
  nothing to it (it is not moving).
- Land effects resolve after the bump chain settles: the mover's Attack first, then the bumped avatars'
  Attacks in the order they were pushed. Then the turn passes to the next seat of the current order.
- Z6 Attack: the attacker must choose one other player (gemless ones too), rolls the six dice at once, then
  wishes and rerolls as in Z5. Success robs the value (up to what the target holds); failure gives all the
  attacker's gems to the target.
- Z8 Bumpers: +1 to every value, failed wishes included, so a move is at least 1 and an attack always robs
  at least 1 (the rulebook: "rob at least one gem when attacking"); with Bumpers there is no Karma.
- Z8 Bribery: after the attacker names a target holding gems, the target offers ``bribe N`` (1..all its gems)
  or ``no bribe``; the attacker may ``accept`` (the gems change hands, no attack) or ``refuse`` (the attack
  roll follows, the target keeps its gems). Ruling (issue #14): a Sleep space's walls are not for sale — a
  hostile border touching a Sleep space cannot be crossed even with Bribery; every other hostile border
  costs 6 gems to the bank.
- Z8 Reverse: every time any avatar enters an Attack space (moving or bumped) the turn order reverses at
  once; the turn in progress goes on and the next turn follows the new order.
- Z8 Petition: the lander names another player holding gems (``petition SEAT``) and an amount from 1 to what
  that player holds (``ask N``); then every player, petitioner and target included, votes yes or no at the
  same time, secretly until all have voted. More yes than no passes (ties fail) and the petitioner takes the
  amount, up to what the target holds by then. If nobody else holds a gem the Attack space does nothing.
  A failed petition ends the petitioner's part; queued effects of other avatars still resolve. Ruling
  (issue #14): at two players the petitioner and the target always vote against each other and a tie fails,
  so a petition could never pass; there Attack spaces attack as in Z6 (``petitions``).
- Z8 Lucky: owning 13 or more gems wins at once, whoever's turn it is.
- The game also ends the moment someone touches a Sleep space. ``result`` names that winner; the scores are
  the gems each player holds at the end (shown as the breakdown), and ``reason`` says how it was won.

Rules versions (engine/core.py): a game keeps the rules version it started under, in ``state["rules"]``, and
is replayed, undone and exported by it; a new game starts under the newest. Version 2 (issue #26: every table
size as fair as two and four players were) changes only these, each an explicit ``rules >= 2`` branch:

- Z4 seat gems, rules 2 (ruling, issue #26): each player takes its Start space's gems plus SEAT_BONUS_2[players]
  for its place in the turn order: 2 players +0/+1 and 4 players +0/+1/+1/+2 as in rules 1; 3 players +0/+1/+2
  (rules 1: +0/+1/+1, where the third seat fell to 28–31 %); 5 and 6 players one gem for every player after the
  third, +0/+0/+0/+1/+1 and +0/+0/+0/+1/+1/+1 (rules 1: +0/+1/+1/+2/+2 and +0/+1/+1/+2/+2/+3). Why fewer at five
  and six: a2 and a5, a step behind, hold 3 gems, and a beginner's second and third gems pay tolls on short
  routes while a fourth buys nearly nothing, so seat gems lift the players on 1-gem Start spaces and not those on
  a2/a5; with rules 1's seat gems a2/a5 won about 15 % at five players and 12–13 % at six when Start spaces are
  taken at random (fair 20 and 16.7). The reverse placement order (Z4, unchanged) already gives the later seats
  the pick. Measured on fresh games, both placement models, in data/wurrm/DESIGN.md.
- Z2 Start spaces in play and their gems, and the placement order: unchanged under rules 2 (``open_starts``).
- Z1 random boards, rules 2 (ruling, issue #26): a rules-2 game draws from its own list
  (data/wurrm/random_layouts.rules2.json, ``listed_layouts(2)``), measured with rules 2's seat gems by both
  placement models, with at least three arrangements for every table size from two to six; a rules-1 game
  draws from issue #14's list (data/wurrm/random_layouts.json, never rewritten), so it still refuses a random
  board at five players and a rebuilt rules-1 game draws what it drew.

Version 3 (issue #36: four players without the second seat's edge) changes only the four-player seat gems, an
explicit ``rules >= 3`` branch (``seat_bonus``):

- Z4 seat gems, rules 3 (ruling, issue #36): at four players +0/+1/+2/+2 (SEAT_BONUS_3; rules 1 and 2:
  +0/+1/+1/+2): the third player takes as many gems as the fourth. Why: at four players every Start space in play
  gives one gem, and a beginner's second gem pays a toll on a short route while a third is worth less (it counts
  at Attack spaces), so under +0/+1/+1/+2 the second seat was the first to move with two gems and won about
  29.5 % (fair 25; the first seat, with one gem, 23 %). A gem taken from it sank it to 20 % (+0/+0/+1/+2), so a
  gem went to the third seat instead, which moves right after it. Chosen with the easy level's own play from
  eleven seat-gem tables and four with all six Start spaces in play (selection seeds 360,000,000 on, 4,000 games
  each; opening a2/a5 at four changed nothing for the second seat, which takes a fast space all the same, and the
  placement order decides nothing where the Start spaces in play are alike), then measured on fresh seeds: seats
  22.4 28.1 27.3 22.2 % over 4,000 games (data/wurrm/DESIGN.md, "Rules version 3"). The second seat's edge is
  smaller, not gone: a seat gem moves a seat by 3 to 9 points, and no table brought every seat nearer 25. Every
  other size, the Start spaces in play and their gems, and the placement order are as under rules 2.
- Z1 random boards, rules 3 (ruling, issue #36): a rules-3 game draws from rules 2's list (``listed_layouts(3)``
  reads data/wurrm/random_layouts.rules2.json). At 2, 3, 5 and 6 players rules 3 plays exactly as rules 2, so the
  list was measured for these very games; its three four-player arrangements were measured with +0/+1/+1/+2 and
  were played again under +0/+1/+2/+2 (2,000 fresh games of each placement model each): all three pass every bound.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from i18n import N_, W_

from . import register
from .core import Game, IllegalAction, State, read_number
from .hexgrid import DIRECTIONS, neighbours
from .rng import Rng

BOARD_FILE = Path(__file__).resolve().parent.parent / "data" / "wurrm" / "board.json"
BOARD_DATA = json.loads(BOARD_FILE.read_text(encoding="utf-8"))  # static data, read once at import
TILES: dict = BOARD_DATA["tiles"]
DEFAULT_LAYOUT: list = BOARD_DATA["layouts"]["default"]

BANK = 27
LUCKY_WIN = 13
HOSTILE_BRIBE = 6
DICE = 6
START_TILE = "a"
SLEEP_TILES = ("f", "g")

# Direction names in the order of engine.hexgrid.DIRECTIONS, for pointy-top hexes (q grows east, r south).
DIRECTION_NAMES = ("e", "ne", "nw", "w", "sw", "se")
STEP = dict(zip(DIRECTION_NAMES, DIRECTIONS, strict=True))
# Offered in reading order, so a front end can lay them out as a 3 × 2 pad.
DIRECTION_ORDER = ("nw", "ne", "w", "e", "sw", "se")

VARIANTS = ("bumpers", "bribery", "reverse", "petition", "lucky")

# Game words a refusal or a line carries as a parameter, translated where they are shown (i18n.word).
GAME_WORDS = (W_("A bribe"), W_("The amount"), W_("Your lucky number"), W_("A wish"), W_("A die"))
# What a player reads for an action (a button, a suggestion): the canonical text through these templates.
# The action itself stays as written (players type it; the engine parses it).
ACTION_FORMS = (N_("place {space}"), N_("lucky {number}"), N_("wish {number}"), N_("toggle {die}"),
                N_("reroll"), N_("pay reroll"), N_("stop"), N_("move {direction}"), N_("move {path}"),
                N_("bump {direction}"), N_("attack {player}"), N_("bribe {number}"), N_("no bribe"),
                N_("accept"), N_("refuse"), N_("petition {player}"), N_("ask {number}"), N_("vote yes"),
                N_("vote no"))
# Counted things in the log: one template each for one and for many.
PLURALS = {"gem": (N_("{n} gem"), N_("{n} gems")), "die": (N_("{n} die"), N_("{n} dice"))}
# engine.core.summary_text ends the last line with a full stop: the alt text reads "Naughty!." (kept as it is).
SUMMARY_ENDINGS = (N_("Naughty!."), N_("Karma!."))
# A vote tally, "a yes, b no, c yes", read one vote at a time.
TALLY = (N_("{seat} yes"), N_("{seat} no"), N_("{seat} yes, {rest}"), N_("{seat} no, {rest}"))


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
        """Fewest steps from each space to the nearer Sleep space, over non-hostile borders (for views)."""
        return self.distances(self.sleeps, ("open", "toll"))

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


MIN_RACE, MAX_RACE, START_SPREAD = 7, 10, 2   # steps from a Start space to the nearer Sleep space (fair_layout)
# A random board at most this many hex radii wide, so that drawn at the default board's 40 px hexes it fits the
# 800 px image (752 px inside the margins) and its text stays phone-legible (issue #14; render/wurrm_board.py).
MAX_DRAWN_WIDTH = 752 / 40


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


def random_layouts() -> list[dict]:
    """The arrangements a new game draws from (the current rules version's list)."""
    return listed_layouts(Wurrm.rules)


def random_players(rules: int | None = None) -> list[int]:
    """The player counts for which some random arrangement is listed (a new game's list unless ``rules``)."""
    entries = random_layouts() if rules is None or rules >= Wurrm.rules else listed_layouts(rules)
    return sorted({n for x in entries for n in x["players"]})


def random_layout(rng: Rng, players: int, rules: int = 3) -> list:
    """A random arrangement (Z1, issue #14), drawn with the rng in the state (so it replays) from the
    arrangements of ``candidate_layouts`` that pass ``fair_layout`` (structure, the race gate ``fair_race`` and
    the seat gate ``fair_seats``) and whose simulated games met the seat, Start-space and length bounds at
    this number of players, listed in data/wurrm/random_layouts*.json (bench/wurrm_layouts.py). Ruling (issue
    #14): a table size with no such arrangement plays no random board; the game says so at its start. Ruling
    (issue #26, rules 2): a rules-1 game draws from issue #14's list (no board for five players), a rules-2
    game from its own list, which has boards for every size."""
    # a new game draws from the current list (``random_layouts``), an older version's game from its own
    entries = random_layouts() if rules >= Wurrm.rules else listed_layouts(rules)
    listed = [x["layout"] for x in entries if players in x["players"]]
    if not listed:
        raise IllegalAction("Random boards are checked for fair play only at these numbers of players: {counts}. "
                            "This table has {players}; choose board: default.",
                            counts=", ".join(map(str, sorted({n for x in entries for n in x["players"]}))),
                            players=players)
    return [list(p) for p in rng.choice(listed)]


def start_spread(board: Board) -> int:
    """How much better one Start space is than another: the spread of (steps to the nearer Sleep space minus
    the Start space's gems; a gem is worth about a step)."""
    dist = board.distances_to_sleep()
    worth = [dist.get(s, 99) - board.spaces[s]["gems"] for s in board.starts]
    return max(worth) - min(worth)


def fair_layout(board: Board, seats: bool = True) -> bool:
    """The checks a layout must pass, cheap enough for game setup (the win rates and game lengths of whole
    games are measured offline by bench/wurrm_balance.py): the board fits the image (MAX_DRAWN_WIDTH), every
    Start space reaches both Sleep spaces (Z1) by two routes sharing no space, no space shuts a gemless player
    in, the nearer Sleep space is MIN_RACE to MAX_RACE steps from every Start space and, counting a gem as a
    step, no Start space is more than START_SPREAD better than another (``start_spread``); last the quick
    simulation gate ``fair_race``."""
    if not board.connected() or board.drawn_width() > MAX_DRAWN_WIDTH:
        return False
    dist = board.distances_to_sleep()
    race = [dist[s] for s in board.starts]
    if not (MIN_RACE <= min(race) and max(race) <= MAX_RACE and start_spread(board) <= START_SPREAD):
        return False
    if not (board.no_traps() and board.open_routes()):
        return False
    return fair_race(board) and (not seats or fair_seats(board))


def fair_race(board: Board) -> bool:
    """The quick simulation gate (issue #14): a lone beginner's expected race (``race_turns``) is alike from
    the Start spaces in play — within RACE_SPREAD_FOUR turns among the four fastest, RACE_SPREAD_ALL among all
    six — and no longer than RACE_TURNS from any."""
    race = sorted(race_turns(board).values())
    return race[3] - race[0] <= RACE_SPREAD_FOUR and race[-1] - race[0] <= RACE_SPREAD_ALL and race[-1] <= RACE_TURNS


# ----- the quick simulation gate for random boards (issue #14) ----------------------------------------------
# Bounds on a lone beginner's expected race in turns (``race_turns``), from the recommended board (0 among its
# four fastest Start spaces, 0.76 among all six, 6.64 at most) with a little room.
RACE_SPREAD_FOUR = 0.3   # among the four fastest Start spaces (all that are in play with up to four players)
RACE_SPREAD_ALL = 0.8    # among all six (five and six players)
RACE_TURNS = 7.0         # the slowest Start space


# How often a beginner (``Wurrm.bot_actions``) achieves each value 0..6 in one roll: a lucky number 1–4 at
# random, a wish the dice already show (1–3) or else 1 or 2, the free reroll of the dice that miss it. Sampled
# once (20,000 rolls; tests/test_wurrm.py samples it again through the engine), so the gate is deterministic.
BEGINNER_VALUES = (0.0995, 0.5465, 0.2952, 0.0588, 0.0, 0.0, 0.0)


def race_turns(board: Board) -> dict[str, float]:
    """``expected_race`` once per board (boards are cached per layout)."""
    if not hasattr(board, "race"):
        board.race = expected_race(board)
    return board.race


def beginner_turns(board: Board, cap: int = 3) -> dict[tuple[str, int], dict[tuple[str, int], float]]:
    """One turn of a lone beginner as a Markov chain over (space, gems up to ``cap``): from each state not on a
    Sleep space, the chance of each state the turn ends in. The beginner's dice (``BEGINNER_VALUES``) and steps
    (``Wurrm.bot_actions``: towards the nearer Sleep space paying tolls while it has a gem, else towards a Gem
    space over open borders; ties at random), End-your-turn stops, tolls and Gem spaces. No rivals, so no bumps
    or Attacks. Built once per board (boards are cached per layout)."""
    if hasattr(board, "chain"):
        return board.chain
    to_sleep = board.distances(board.sleeps, ("open", "toll"))
    goals = [sid for sid, sp in board.spaces.items() if sp["type"] in ("gem", "sleep")]
    to_gem = board.distances(goals, ("open",))
    kinds = {sid: sp["type"] for sid, sp in board.spaces.items()}

    @cache
    def ends(here: str, left: int, gems: int, visited: frozenset) -> tuple:
        """Where a move of ``left`` steps ends: ((space, gems), probability), the beginner's ties at random."""
        dist = to_sleep if gems else to_gem
        steps = [(o, k) for o, k in board.links[here].values()
                 if o not in visited and k != "hostile" and (k == "open" or gems >= 1)]
        if left == 0 or not steps:
            return (((here, gems), 1.0),)
        best = min(dist.get(o, 99) for o, _ in steps)
        steps = [(o, k) for o, k in steps if dist.get(o, 99) == best]
        out: dict = {}
        for o, k in steps:
            g = min(cap, gems - (k == "toll") + (kinds[o] == "gem"))
            if kinds[o] in ("end", "sleep"):
                sub = (((o, g), 1.0),)
            else:
                sub = ends(o, left - 1, g, visited | {o})
            for key, p in sub:
                out[key] = out.get(key, 0.0) + p / len(steps)
        return tuple(out.items())

    chain = {}
    for sid in board.spaces:
        if kinds[sid] == "sleep":
            continue
        for g in range(cap + 1):
            nxt = {(sid, g): BEGINNER_VALUES[0]}    # a failed wish: the avatar stays
            for v, p in enumerate(BEGINNER_VALUES):
                if v and p:
                    for end, q in ends(sid, v, g, frozenset([sid])):
                        nxt[end] = nxt.get(end, 0.0) + p * q
            chain[(sid, g)] = nxt
    board.chain = chain
    return chain


def expected_race(board: Board, cap: int = 3) -> dict[str, float]:
    """Expected turns for a lone beginner (``beginner_turns``) to reach a Sleep space from each Start space,
    holding its Start space's gems plus one (a middle seat's bonus), solved by value iteration. The quick
    simulation gate of ``fair_layout``: it prices every Start space's race in turns, which a step count alone
    does not (End spaces, tolls, Gem spaces)."""
    expect = race_values(board, cap)
    return {s: expect[(s, min(cap, board.spaces[s]["gems"] + 1))] for s in board.starts}


def race_values(board: Board, cap: int = 3) -> dict[tuple[str, int], float]:
    """A lone beginner's expected turns to reach a Sleep space from every (space, gems up to ``cap``), solved
    by value iteration over ``beginner_turns``. Built once per board (boards are cached per layout)."""
    cached = board.__dict__.setdefault("race_values", {})
    if cap in cached:
        return cached[cap]
    chain = beginner_turns(board, cap)
    expect = {st: 0.0 for st in chain}
    stay = BEGINNER_VALUES[0]
    for _ in range(200):
        change = 0.0
        for st, nxt in chain.items():
            # E = 1 + P(stay) E + sum_end P(end) E(end), solved for E (a Sleep space costs nothing more)
            rest = sum(q * expect.get(e, 0.0) for e, q in nxt.items() if e != st)
            new = (1 + rest) / (1 - stay)
            change = max(change, abs(new - expect[st]))
            expect[st] = new
        if change < 1e-4:
            break
    cached[cap] = expect
    return expect


# The seat gate for random boards (issue #14). The seat gems (SEAT_BONUS) make up for moving later only where a
# gem makes a beginner faster, that is where the short routes cross tolls; on most random boards one gem pays
# every toll on the way, every Start space already gives one, and the first seat won 57–61 % at two players
# (bench/wurrm_balance.py). ``seat_edge`` prices that per board: the first seat's chance at two players if both
# raced alone (``finish_chances``), each from a random Start space in play with its gems plus its SEAT_BONUS.
# The lone race overstates what a gem is worth (the recommended board: 14 %, measured 47 %, since Attack spaces
# hand gems back), so the band was set by measuring boards across it (DESIGN.md: edges 0.26–0.44 measured 48–54 %,
# 0.21 measured 39 %, 0.46 and up 54–61 %): a board is kept when its edge lies within SEAT_EDGE. It is a sieve,
# not a proof: bench/wurrm_layouts.py --games also plays the survivors.
SEAT_EDGE = (0.24, 0.45)
RACE_HORIZON = 40   # turns followed by ``finish_chances``; a lone beginner finishes within 40 in all but 1e-6


def finish_chances(board: Board, start: str, gems: int, cap: int = 3) -> list[float]:
    """The chance that a lone beginner (``beginner_turns``) starting on ``start`` with ``gems`` has reached a
    Sleep space by the end of its 1st, 2nd, ... RACE_HORIZON-th turn."""
    chain = beginner_turns(board, cap)
    now, done, out = {(start, min(cap, gems)): 1.0}, 0.0, []
    for _ in range(RACE_HORIZON):
        nxt: dict = {}
        for st, p in now.items():
            for end, q in chain[st].items():
                if end not in chain:
                    done += p * q         # a Sleep space
                else:
                    nxt[end] = nxt.get(end, 0.0) + p * q
        now = nxt
        out.append(done)
    return out


def seat_chances(board: Board, players: int, rules: int = 1) -> list[float]:
    """Each seat's chance to win if every player raced alone (no bumps, no Attacks) from a random Start space in
    play (``open_starts``) with its gems plus SEAT_BONUS: seat k wins on its t-th turn when the seats before it
    have not finished by their t-th turn and those after it not by their (t-1)-th."""
    starts = open_starts(board, players)
    cdfs = []
    for k in range(players):
        each = [finish_chances(board, s, board.spaces[s]["gems"] + seat_bonus(k, players, rules)) for s in starts]
        cdfs.append([sum(c[t] for c in each) / len(each) for t in range(RACE_HORIZON)])
    wins = []
    for k in range(players):
        total = 0.0
        for t in range(RACE_HORIZON):
            p = cdfs[k][t] - (cdfs[k][t - 1] if t else 0.0)
            for j in range(players):
                if j != k:
                    p *= 1 - (cdfs[j][t] if j < k else (cdfs[j][t - 1] if t else 0.0))
            total += p
        wins.append(total)
    return [w / sum(wins) for w in wins]


def seat_edge(board: Board) -> float:
    """The first seat's chance at two players racing alone (``seat_chances``)."""
    return seat_chances(board, 2)[0]


def fair_seats(board: Board) -> bool:
    """The seat gate (issue #14): ``seat_edge`` within SEAT_EDGE, so the seat gems make up for moving later."""
    return SEAT_EDGE[0] <= seat_edge(board) <= SEAT_EDGE[1]


def seat_bonus(index: int, players: int, rules: int = 1) -> int:
    """Z4 (decided): the gems a player takes beside its Start space's, by its place in the turn order (0 first)
    and the number of players: SEAT_BONUS under rules 1, SEAT_BONUS_2 under rules 2 (issue #26), SEAT_BONUS_3
    under rules 3 (issue #36: four players)."""
    if rules >= 3:
        return SEAT_BONUS_3[players][index]
    if rules >= 2:
        return SEAT_BONUS_2[players][index]
    return SEAT_BONUS[players][index]


# Z4 (decided, issue #14): gems for playing later, by the number of players; measured by bench/wurrm_balance.py.
# Rules 1 (every game begun before issue #26); kept as it is, since those games replay by it.
SEAT_BONUS = {2: (0, 1), 3: (0, 1, 1), 4: (0, 1, 1, 2), 5: (0, 1, 1, 2, 2), 6: (0, 1, 1, 2, 2, 3)}
# Z4 under rules 2 (issue #26): measured on fresh games at every size (DESIGN.md).
SEAT_BONUS_2 = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 1, 2), 5: (0, 0, 0, 1, 1), 6: (0, 0, 0, 1, 1, 1)}
# Z4 under rules 3 (issue #36): four players changed, chosen on selection seeds and measured on fresh ones
# (DESIGN.md); every other size as under rules 2.
SEAT_BONUS_3 = {**SEAT_BONUS_2, 4: (0, 1, 2, 2)}


def open_starts(board: Board, players: int) -> list[str]:
    """Z2 (decided, issue #14): the Start spaces in play. With six players all six; with fewer, the
    max(players, 4) Start spaces with the shortest race (``race_turns``, ties by name) — on the recommended
    board a1, a3, a4 and a6, which step straight onto a wing, while a2 and a5 lie a step behind them and are
    left empty below five players."""
    if players >= len(board.starts):
        return list(board.starts)
    race = race_turns(board)
    keep = sorted(board.starts, key=lambda s: (round(race[s], 2), s))[:max(players, 4)]
    return [s for s in board.starts if s in keep]


def board_of(state: State) -> Board:
    return board_for(layout_key(state["layout"]))


# ----- small helpers on the state ---------------------------------------------------------------------------
def option(state: State, name: str) -> bool:
    return bool(state["options"].get(name))


def transfer(state: State, giver: str | None, taker: str | None, amount: int) -> int:
    """Move up to ``amount`` gems (None is the bank); returns how many moved. All 27 stay accounted for."""
    have = state["bank"] if giver is None else state["gems"][giver]
    n = max(0, min(amount, have))
    if giver is None:
        state["bank"] -= n
    else:
        state["gems"][giver] -= n
    if taker is None:
        state["bank"] += n
    else:
        state["gems"][taker] += n
    if taker is not None and n and option(state, "lucky") and state["gems"][taker] >= LUCKY_WIN:
        win(state, taker, "lucky")
    return n


def win(state: State, seat: str, reason: str) -> None:
    if state["winner"] is None:
        state["winner"], state["reason"], state["phase"] = seat, reason, "over"


def over(state: State) -> bool:
    return state["winner"] is not None


def crossing_cost(state: State, kind: str, here: str | None = None, there: str | None = None) -> int | None:
    """Gems needed to cross a border of this kind between ``here`` and ``there``, or None if it cannot be
    crossed (Z3, Z8 Bribery). A Sleep space's walls are not for sale: no bribe crosses a hostile border that
    touches a Sleep space."""
    if kind == "open":
        return 0
    if kind == "toll":
        return 1
    if not option(state, "bribery"):
        return None
    spaces = board_of(state).spaces
    if any(sid is not None and spaces[sid]["type"] == "sleep" for sid in (here, there)):
        return None
    return HOSTILE_BRIBE


def can_cross(state: State, seat: str, kind: str, here: str | None = None, there: str | None = None) -> bool:
    cost = crossing_cost(state, kind, here, there)
    return cost is not None and state["gems"][seat] >= cost


def petitions(state: State) -> bool:
    """Z8 Petition is in force: the option is on and there are three players or more (at two the vote is
    always one against one, a tie that fails, so the ordinary Attack of Z6 applies instead)."""
    return option(state, "petition") and len(state["seats"]) > 2


def roll_die(rng: Rng, lucky: int) -> int:
    """Z5: a die showing the lucky number is rolled again until it does not."""
    face = rng.die()
    while face == lucky:
        face = rng.die()
    return face


def roll_value(state: State, roll: dict) -> int:
    """Z5: the wish if at least that many dice show it, else 0; Bumpers adds 1 (Z8)."""
    wish = roll["wish"]
    value = wish if sum(1 for f in roll["faces"] if f == wish) >= wish else 0
    return value + 1 if option(state, "bumpers") else value


def parse_int(word: str, lo: int, hi: int, what: str) -> int:
    """A number from lo to hi typed with ASCII digits (read_number: '³' or '١' is no number here)."""
    n = read_number(word)
    if n is None or not lo <= n <= hi:
        raise IllegalAction("{what} must be a number from {lo} to {hi}.", what=what, lo=lo, hi=hi)
    return n


# ----- the game ----------------------------------------------------------------------------------------------
class Wurrm(Game):
    key = "wurrm"
    title = "WURRM World"
    rules = 3
    rules_changes = {**Game.rules_changes,
                     2: W_("seat gems and random boards fair at every table size"),   # issue #26
                     3: W_("seat gems fair at four players")}                         # issue #36
    min_players = 2
    max_players = 6
    options = {"board": "default", **{v: False for v in VARIANTS}}
    option_choices = {"board": ["default", "random"], **{v: [False, True] for v in VARIANTS}}

    # ----- setup -------------------------------------------------------------------------------------------
    def restart(self, seats: list[str], seed: int, options: dict | None, now: State) -> State:
        """A random board is drawn from data/wurrm/random_layouts.json, which a newer bot may have changed
        (bench/wurrm_layouts.py): the game keeps the board it was dealt. The draw takes one number from the rng
        whatever the list's length (a second one only with a chance of length ÷ 2³², Rng.below), so
        everything else setup made is as it was."""
        rules = now["rules"]
        try:
            state = self.new(seats, seed, options, rules=rules)
        except IllegalAction:       # no board is listed for this size any more; the game had drawn one
            state = self.new(seats, seed, {**(options or {}), "board": "default"}, rules=rules)
            state["options"]["board"] = "random"
            Rng(state).below(1)     # the draw's one number: the dice that follow are those the game rolled
        if now.get("layout") and now["layout"] != state["layout"]:
            state["layout"] = [list(p) for p in now["layout"]]
            state["starts"] = open_starts(board_for(layout_key(state["layout"])), len(state["seats"]))
        return state

    def setup(self, state: State, rng: Rng) -> None:
        seats = state["seats"]
        random = state["options"]["board"] == "random"
        layout = random_layout(rng, len(seats), state["rules"]) if random else default_layout()
        state.update(
            layout=layout,
            starts=open_starts(board_for(layout_key(layout)), len(seats)),
            phase="place",
            actor=seats[-1],
            turn=seats[0],
            order=list(seats),
            positions={s: None for s in seats},
            gems={s: 0 for s in seats},
            bank=BANK,
            lucky={s: 1 for s in seats},
            roll=None,
            last_roll=None,
            move=None,
            bumping=[],
            bumped=[],
            effects=[],
            attack=None,
            petition=None,
            turns={s: 0 for s in seats},
            winner=None,
            reason=None,
            last={"seat": None, "action": None, "text": N_("The avatars wait at the Start tile."), "spaces": []},
        )

    # ----- who acts, and what they may do -----------------------------------------------------------------
    def to_act(self, state: State) -> list[str]:
        if over(state):
            return []
        if state["phase"] == "vote":
            return [s for s in state["seats"] if s not in state["petition"]["votes"]]
        return [state["actor"]]

    def waiting_message(self, state: State, seat: str) -> str:
        if state["phase"] == "vote" and seat in state["petition"]["votes"]:
            return N_("You have already voted; waiting for the others.")
        return N_("It is not your turn.")

    def bot_actions(self, state: State, seat: str) -> list[str]:
        """A beginner's play (choosing blindly among all actions rarely reaches a Sleep space: most wishes
        of 3 or more fail and steps wander): wish for a number the dice already show, or 1–2; use the free
        reroll, then stop; step towards the nearer Sleep space; otherwise anything legal."""
        actions = self.legal_actions(state, seat)
        phase = state["phase"]
        if phase == "place":
            return self._nearest_starts(state, seat, actions)
        if phase == "wish":
            faces, lucky = state["roll"]["faces"], state["roll"]["lucky"]
            good = [n for n in (1, 2, 3) if n != lucky and sum(1 for f in faces if f == n) >= n]
            return [f"wish {n}" for n in good] or [a for a in actions if a in ("wish 1", "wish 2")
                                                   and a != f"wish {lucky}"] or actions
        if phase == "reroll":
            if "reroll" in actions and not roll_value_raw(state["roll"]):
                return ["reroll"]
            return ["stop"]
        if phase == "move":
            board, gems = board_of(state), state["gems"][seat]
            if gems:    # head for the nearer Sleep space, paying tolls
                dist = board.distances(board.sleeps, ("open", "toll"))
            else:       # broke: a Gem space first (or a Sleep space through open borders)
                goals = [sid for sid, sp in board.spaces.items() if sp["type"] in ("gem", "sleep")]
                dist = board.distances(goals, ("open",))
            options = self.steps(state, seat)
            best = min((dist.get(sid, 99) for sid in options.values()), default=None)
            return [f"move {d}" for d, sid in options.items() if dist.get(sid, 99) == best] or actions
        return actions

    def _nearest_starts(self, state: State, seat: str, actions: list[str]) -> list[str]:
        """Where a beginner places (decided, issue #14): on a free Start space from which, with the gems it
        would take there (the space's and its seat's), a lone beginner's race is the shortest
        (``race_values``), as a player at the table takes the space nearest a Sleep space. Placing in reverse
        turn order (Z4) then gives the later seats the pick of the Start spaces; on the recommended board at
        five or six players the first seats are left a2 and a5, a step behind."""
        board = board_of(state)
        values = race_values(board)
        bonus = seat_bonus(state["order"].index(seat), len(state["seats"]), state["rules"])
        turns = {a: round(values[(a.split()[1], min(3, board.spaces[a.split()[1]]["gems"] + bonus))], 3)
                 for a in actions}
        best = min(turns.values(), default=None)
        return [a for a in actions if turns[a] <= best + 0.05] or actions

    def private_actions(self, state: State, seat: str) -> bool:
        """Z8 Petition: votes are secret until everyone has voted."""
        return state["phase"] == "vote"

    def undoable(self, before: State, seat: str, action: str, after: State) -> bool:
        """Issue #12: a Petition vote (Z8) is a secret choice and the last one shows them all, so no vote is
        ever taken back. Everything else hidden in WURRM World is a roll (the generator, refused by default)."""
        return before["phase"] != "vote" and super().undoable(before, seat, action, after)

    def legal_actions(self, state: State, seat: str) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return getattr(self, f"_legal_{state['phase']}")(state, seat)

    def _legal_place(self, state, seat):
        taken = set(state["positions"].values())
        return [f"place {sid}" for sid in state.get("starts") or board_of(state).starts if sid not in taken]

    def _legal_lucky(self, state, seat):
        return [f"lucky {n}" for n in range(1, 5)]

    def _legal_wish(self, state, seat):
        return [f"wish {n}" for n in range(1, 7)]

    def _legal_reroll(self, state, seat):
        roll = state["roll"]
        actions = [f"toggle {k}" for k in range(1, DICE + 1)]
        if any(roll["marked"]):
            if not roll["free_used"]:
                actions.append("reroll")
            elif state["gems"][seat] >= 1:
                actions.append("pay reroll")
        actions.append("stop")
        return actions

    def _legal_move(self, state, seat):
        return [f"move {d}" for d in self.steps(state, seat)]

    def _legal_bump(self, state, seat):
        return [f"bump {d}" for d in self.bump_steps(state, state["bumping"][0])]

    def _legal_target(self, state, seat):
        return [f"attack {s}" for s in state["seats"] if s != seat]

    def _legal_bribe(self, state, seat):
        return [f"bribe {n}" for n in range(1, state["gems"][seat] + 1)] + ["no bribe"]

    def _legal_answer(self, state, seat):
        return ["accept", "refuse"]

    def _legal_petition(self, state, seat):
        return [f"petition {s}" for s in self.petition_targets(state, seat)]

    def _legal_ask(self, state, seat):
        return [f"ask {n}" for n in range(1, state["gems"][state["petition"]["target"]] + 1)]

    def _legal_vote(self, state, seat):
        return ["vote yes", "vote no"]

    def steps(self, state: State, seat: str) -> dict[str, str]:
        """Z5/Z3: the directions the mover may step now, in reading order → the space it would enter."""
        board = board_of(state)
        here = state["positions"][seat]
        visited = set(state["move"]["visited"])
        out = {}
        for d in DIRECTION_ORDER:
            link = board.links[here].get(d)
            if link and link[0] not in visited and can_cross(state, seat, link[1], here, link[0]):
                out[d] = link[0]
        return out

    def bump_steps(self, state: State, seat: str) -> dict[str, str]:
        """Z7: where the mover may push ``seat``: through borders it can pay for, never through a hostile
        border (a bribe is the payer's own choice) nor onto a Sleep space, not onto the mover, not onto an
        avatar already bumped this turn."""
        board = board_of(state)
        here = state["positions"][seat]
        blocked = {state["positions"][state["turn"]]}
        blocked |= {state["positions"][s] for s in state["bumped"]}
        out = {}
        for d in DIRECTION_ORDER:
            link = board.links[here].get(d)
            if (link and link[0] not in blocked and link[1] != "hostile"
                    and board.spaces[link[0]]["type"] != "sleep" and can_cross(state, seat, link[1])):
                out[d] = link[0]
        return out

    def reach(self, state: State, seat: str) -> list[str]:
        """Every space where the move in progress can end (issue #14: the mover's image marks them), Sleep
        spaces included: paths of exactly the steps left (Z5: each space once per move), cut short by an
        End-your-turn or Sleep space (Z2) or where no step remains; tolls and bribes paid from the gems held at
        that moment, Gem spaces paying on the way (Z3, Z8), as ``steps`` and ``_play_move`` do."""
        board = board_of(state)
        mv = state["move"]
        gain = 2 if option(state, "bribery") else 1
        lucky = option(state, "lucky")
        ends: set[str] = set()

        def walk(here: str, left: int, visited: frozenset, gems: int, bank: int) -> None:
            if left == 0:
                ends.add(here)
                return
            moved = False
            for there, kind in board.links[here].values():
                cost = crossing_cost(state, kind, here, there)
                if there in visited or cost is None or gems < cost:
                    continue
                moved = True
                g, b = gems - cost, bank + cost
                kind_there = board.spaces[there]["type"]
                if kind_there == "gem":
                    got = min(gain, b)
                    g, b = g + got, b - got
                if kind_there in ("end", "sleep") or (lucky and g >= LUCKY_WIN):
                    ends.add(there)
                else:
                    walk(there, left - 1, visited | {there}, g, b)
            if not moved:
                ends.add(here)

        walk(state["positions"][seat], mv["left"], frozenset(mv["visited"]), state["gems"][seat], state["bank"])
        return sorted(ends)

    def petition_targets(self, state: State, seat: str) -> list[str]:
        return [s for s in state["seats"] if s != seat and state["gems"][s] > 0]

    # ----- playing -----------------------------------------------------------------------------------------
    def play(self, state: State, seat: str, action: str) -> None:
        words = action.split()
        # Seats are case-sensitive names; every other word is matched in lower case.
        keep_case = state["phase"] in ("target", "petition")
        words = [w if keep_case and i == 1 else w.lower() for i, w in enumerate(words)]
        handler = getattr(self, f"_play_{state['phase']}")
        handler(state, seat, words)

    def _record(self, state: State, seat: str, action: str, text: str, spaces=()) -> None:
        state["last"] = {"seat": seat, "action": action, "text": text, "spaces": list(spaces)}

    def _expect(self, words: list[str], *forms: str) -> None:
        if not words or words[0] not in {f.split()[0] for f in forms}:
            raise IllegalAction("Now: {forms}.", forms=", ".join(forms))

    # placing ---------------------------------------------------------------------------------------------
    def _play_place(self, state, seat, words):
        self._expect(words, "place SPACE")
        if len(words) != 2 or f"place {words[1]}" not in self._legal_place(state, seat):
            raise IllegalAction("Place your avatar on a free Start space, e.g. {example}.",
                                example=self._legal_place(state, seat)[0])
        sid = words[1]
        state["positions"][seat] = sid
        bonus = seat_bonus(state["order"].index(seat), len(state["seats"]), state["rules"])
        took = transfer(state, None, seat, board_of(state).spaces[sid]["gems"] + bonus)
        if bonus:
            text = N_("{seat} starts on {space} and takes {gems} ({bonus} for playing later).").format(
                seat=seat, space=sid, gems=plural(took, "gem"), bonus=plural(bonus, "gem"))
        else:
            text = N_("{seat} starts on {space} and takes {gems}.").format(seat=seat, space=sid,
                                                                         gems=plural(took, "gem"))
        self._record(state, seat, f"place {sid}", text, [sid])
        unplaced = [s for s in reversed(state["order"]) if state["positions"][s] is None]
        if unplaced:
            state["actor"] = unplaced[0]
        else:
            self._begin_turn(state, state["order"][0])

    # rolling ---------------------------------------------------------------------------------------------
    def _begin_turn(self, state, seat):
        state.update(phase="lucky", actor=seat, turn=seat, roll=None, move=None, bumping=[], bumped=[],
                     effects=[], attack=None, petition=None)

    def _start_roll(self, state, roller, purpose, target=None):
        rng = Rng(state)
        lucky = state["lucky"][roller]
        state["roll"] = {"roller": roller, "purpose": purpose, "target": target, "lucky": lucky,
                         "faces": [roll_die(rng, lucky) for _ in range(DICE)], "wish": None,
                         "marked": [False] * DICE, "free_used": False, "paid": 0}
        state["phase"], state["actor"] = "wish", roller

    def _play_lucky(self, state, seat, words):
        self._expect(words, "lucky 1-4")
        if len(words) != 2:
            raise IllegalAction("Choose your lucky number: lucky 1, lucky 2, lucky 3 or lucky 4.")
        n = parse_int(words[1], 1, 4, "Your lucky number")
        state["lucky"][seat] = n
        state["turns"][seat] += 1
        self._start_roll(state, seat, "move")
        self._record(state, seat, f"lucky {n}", N_("{seat} picks lucky number {n} and rolls {faces}.").format(
            seat=seat, n=n, faces=faces_text(state["roll"]["faces"])))

    def _play_wish(self, state, seat, words):
        self._expect(words, "wish 1-6")
        if len(words) != 2:
            raise IllegalAction("Make a wish from 1 to 6, e.g. wish 2.")
        n = parse_int(words[1], 1, 6, "A wish")
        roll = state["roll"]
        roll["wish"] = n
        roll["marked"] = [f != n for f in roll["faces"]]
        state["phase"] = "reroll"
        have = sum(1 for f in roll["faces"] if f == n)
        self._record(state, seat, f"wish {n}", N_("{seat} wishes for {n} ({have} of {n} showing).").format(
            seat=seat, n=n, have=have))

    def _play_reroll(self, state, seat, words):
        roll = state["roll"]
        action = " ".join(words)
        if len(words) == 2 and words[0] == "toggle":
            k = parse_int(words[1], 1, DICE, "A die")
            roll["marked"][k - 1] = not roll["marked"][k - 1]
            text = N_("{seat} marks die {k}.") if roll["marked"][k - 1] else N_("{seat} keeps die {k}.")
            self._record(state, seat, f"toggle {k}", text.format(seat=seat, k=k))
            return
        if action in ("reroll", "pay reroll"):
            if not any(roll["marked"]):
                raise IllegalAction("Mark at least one die to reroll first (toggle N).")
            if action == "reroll":
                if roll["free_used"]:
                    raise IllegalAction("The free reroll is used; say 'pay reroll' to reroll for a gem.")
            else:
                if not roll["free_used"]:
                    raise IllegalAction("Use your free reroll first: say 'reroll'.")
                if state["gems"][seat] < 1:
                    raise IllegalAction("A paid reroll costs a gem, and you have none.")
                transfer(state, seat, None, 1)
                roll["paid"] += 1
            roll["free_used"] = True
            rng = Rng(state)
            dice = [k for k in range(DICE) if roll["marked"][k]]
            for k in dice:
                roll["faces"][k] = roll_die(rng, roll["lucky"])
            roll["marked"] = [f != roll["wish"] for f in roll["faces"]]
            text = N_("{seat} rerolls {dice} for a gem: {faces}.") if action == "pay reroll" else \
                N_("{seat} rerolls {dice}: {faces}.")
            self._record(state, seat, action, text.format(seat=seat, dice=plural(len(dice), "die", "dice"),
                                                          faces=faces_text(roll["faces"])))
            return
        if action == "stop":
            self._finish_roll(state, seat)
            return
        raise IllegalAction("Now: toggle 1-6 to mark dice, reroll, pay reroll, or stop.")

    def _finish_roll(self, state, seat):
        roll = state["roll"]
        value = roll_value(state, roll)
        state["last_roll"] = {**roll, "value": value}
        state["roll"] = None
        came = "comes true" if value and roll_value_raw(roll) else "fails"
        if roll["purpose"] == "move":
            text = N_("{seat} stops: wish {wish} comes true, value {value}.") if came == "comes true" else \
                N_("{seat} stops: wish {wish} fails, value {value}.")
            self._record(state, seat, "stop", text.format(seat=seat, wish=roll["wish"], value=value))
            self._start_move(state, seat, value)
        else:
            self._resolve_attack(state, seat, roll["target"], value, came)

    # moving ----------------------------------------------------------------------------------------------
    def _start_move(self, state, seat, value):
        if value == 0:
            self._end_turn(state)
            return
        state["move"] = {"value": value, "left": value, "visited": [state["positions"][seat]]}
        state["phase"], state["actor"] = "move", seat
        if not self.steps(state, seat):
            # Decided: a move that cannot take its first step lands nowhere (the avatar never left).
            state["last"]["text"] += " " + N_("{seat} has no way to move.").format(seat=seat)
            self._end_turn(state)

    def _play_move(self, state, seat, words):
        self._expect(words, "move DIRECTION")
        options = self.steps(state, seat)
        if len(words) != 2 or words[1] not in options:
            if options:
                raise IllegalAction("You can move {directions}.", directions=", ".join(options))
            raise IllegalAction("No step is possible.")
        d = words[1]
        board = board_of(state)
        here = state["positions"][seat]
        there, kind = board.links[here][d]
        paid = transfer(state, seat, None, crossing_cost(state, kind, here, there))
        state["positions"][seat] = there
        mv = state["move"]
        mv["visited"].append(there)
        mv["left"] -= 1
        notes = [BORDER_NOTES[kind].format(gems=plural(paid, "gem"))] if paid else []
        notes += self._touch(state, seat, there, moving=True)
        text = MOVE_LINES[len(notes)].format(seat=seat, direction=d, space=there, notes=", ".join(notes),
                                             paid=notes[0] if notes else "", note=notes[-1] if notes else "")
        self._record(state, seat, f"move {d}", text, mv["visited"])
        if over(state):
            return
        if mv["left"] > 0 and board.spaces[there]["type"] != "end" and self.steps(state, seat):
            return
        if mv["left"] > 0 and board.spaces[there]["type"] != "end":
            state["last"]["text"] += " " + N_("No step remains: {seat} stops.").format(seat=seat)
        self._land(state, seat)

    def _touch(self, state, seat, sid, moving: bool) -> list[str]:
        """Z2 touch effects of entering ``sid`` (and Reverse, Z8). Returns notes for the log."""
        kind = board_of(state).spaces[sid]["type"]
        notes = []
        if kind == "gem":
            got = transfer(state, None, seat, 2 if option(state, "bribery") else 1)
            notes.append(N_("takes {gems}").format(gems=plural(got, "gem")) if got else N_("finds the bank empty"))
        elif kind == "sleep":
            win(state, seat, "sleep")
            notes.append(N_("falls asleep — good night"))
        elif kind == "end" and moving:
            notes.append(N_("must end the turn here"))
        elif kind == "attack" and option(state, "reverse"):
            state["order"].reverse()
            notes.append(N_("reverses the turn order"))
        return notes

    def _land(self, state, seat):
        """The move is over: bump whoever is here (Z7), then resolve land effects."""
        here = state["positions"][seat]
        state["move"]["left"] = 0
        if board_of(state).spaces[here]["type"] == "attack":
            state["effects"].append(seat)
        state["bumping"] = [s for s in state["order"] if s != seat and state["positions"][s] == here]
        self._continue_bumps(state)

    # bumping ---------------------------------------------------------------------------------------------
    def _continue_bumps(self, state):
        """Skip occupants that cannot be pushed anywhere (they stay), then ask the mover or move on."""
        while state["bumping"] and not self.bump_steps(state, state["bumping"][0]):
            stuck = state["bumping"].pop(0)
            state["last"]["text"] += " " + N_("{seat} cannot be bumped anywhere and stays.").format(seat=stuck)
        if state["bumping"]:
            state["phase"], state["actor"] = "bump", state["turn"]
        else:
            self._next_effect(state)

    def _play_bump(self, state, seat, words):
        self._expect(words, "bump DIRECTION")
        victim = state["bumping"][0]
        options = self.bump_steps(state, victim)
        if len(words) != 2 or words[1] not in options:
            raise IllegalAction("You can bump {seat} {directions}.", seat=victim, directions=", ".join(options))
        d = words[1]
        here = state["positions"][victim]
        there, kind = board_of(state).links[here][d]
        paid = transfer(state, victim, None, crossing_cost(state, kind))
        state["positions"][victim] = there
        state["bumped"].append(victim)
        state["bumping"].pop(0)
        notes = [BORDER_NOTES[kind].format(gems=plural(paid, "gem"))] if paid else []
        notes += self._touch(state, victim, there, moving=False)
        text = BUMP_LINES[len(notes)].format(seat=seat, victim=victim, direction=d, space=there,
                                             paid=notes[0] if notes else "", note=notes[-1] if notes else "")
        self._record(state, seat, f"bump {d}", text, [here, there])
        if over(state):
            return
        if board_of(state).spaces[there]["type"] == "attack":
            state["effects"].append(victim)
        # Z7 chains: whoever was already there is pushed next, before anyone queued earlier.
        pushed = [s for s in state["order"] if s not in (victim, state["turn"]) and state["positions"][s] == there
                  and s not in state["bumped"]]
        state["bumping"] = pushed + state["bumping"]
        self._continue_bumps(state)

    # attacks and petitions -------------------------------------------------------------------------------
    def _next_effect(self, state):
        """Resolve the queued Attack-space landings in order, then end the turn."""
        while state["effects"]:
            seat = state["effects"].pop(0)
            if petitions(state):
                if self.petition_targets(state, seat):
                    state["petition"] = {"petitioner": seat, "target": None, "amount": None, "votes": {},
                                         "result": None}
                    state["phase"], state["actor"] = "petition", seat
                    return
                state["last"]["text"] += " " + N_("Nobody else has gems: {seat} cannot petition.").format(seat=seat)
                continue
            state["attack"] = {"attacker": seat, "target": None, "offer": None}
            state["phase"], state["actor"] = "target", seat
            return
        self._end_turn(state)

    def _play_target(self, state, seat, words):
        self._expect(words, "attack PLAYER")
        if len(words) != 2 or words[1] not in state["seats"] or words[1] == seat:
            raise IllegalAction("Choose another player to rob: {players}.",
                                players=", ".join(self._legal_target(state, seat)))
        target = words[1]
        state["attack"]["target"] = target
        if option(state, "bribery") and state["gems"][target] > 0:
            state["phase"], state["actor"] = "bribe", target
            self._record(state, seat, f"attack {target}", N_("{seat} attacks {target}, who may offer a bribe.").format(
                seat=seat, target=target))
            return
        self._start_roll(state, seat, "attack", target)
        self._record(state, seat, f"attack {target}", N_("{seat} attacks {target} and rolls {faces}.").format(
            seat=seat, target=target, faces=faces_text(state["roll"]["faces"])))

    def _play_bribe(self, state, seat, words):
        action = " ".join(words)
        attacker = state["attack"]["attacker"]
        if action == "no bribe":
            self._start_roll(state, attacker, "attack", seat)
            self._record(state, seat, action, N_("{seat} offers no bribe; {attacker} rolls {faces}.").format(
                seat=seat, attacker=attacker, faces=faces_text(state["roll"]["faces"])))
            return
        if len(words) != 2 or words[0] != "bribe":
            raise IllegalAction("Offer a bribe (bribe N, up to all your gems) or say 'no bribe'.")
        n = parse_int(words[1], 1, max(1, state["gems"][seat]), "A bribe")
        if n > state["gems"][seat]:
            raise IllegalAction("You cannot offer more gems than you hold.")
        state["attack"]["offer"] = n
        state["phase"], state["actor"] = "answer", attacker
        self._record(state, seat, f"bribe {n}", N_("{seat} offers {attacker} {gems} not to attack.").format(
            seat=seat, attacker=attacker, gems=plural(n, "gem")))

    def _play_answer(self, state, seat, words):
        self._expect(words, "accept", "refuse")
        target, offer = state["attack"]["target"], state["attack"]["offer"]
        if words == ["accept"]:
            got = transfer(state, target, seat, offer)
            self._record(state, seat, "accept", N_("{seat} accepts {gems} from {target} and leaves them alone.").format(
                seat=seat, gems=plural(got, "gem"), target=target))
            state["attack"] = None
            if not over(state):
                self._next_effect(state)
            return
        if words != ["refuse"]:
            raise IllegalAction("Say 'accept' or 'refuse'.")
        self._start_roll(state, seat, "attack", target)
        self._record(state, seat, "refuse", N_("{seat} refuses the bribe and rolls {faces}.").format(
            seat=seat, faces=faces_text(state["roll"]["faces"])))

    def _resolve_attack(self, state, seat, target, value, came):
        """Z6: success robs the value (up to what the target holds); failure gives all your gems away."""
        if value > 0:
            got = transfer(state, target, seat, value)
            text = (N_("{seat} stops: wish comes true, robbing {gems} from {target}.") if came == "comes true" else
                    N_("{seat} stops: wish fails, robbing {gems} from {target}.")).format(
                seat=seat, gems=plural(got, "gem"), target=target) + " " + N_("Naughty!")
        else:
            got = transfer(state, seat, target, state["gems"][seat])
            text = N_("{seat} stops: wish fails, giving all {gems} to {target}.").format(
                seat=seat, gems=plural(got, "gem"), target=target) + " " + N_("Karma!")
        self._record(state, seat, "stop", text)
        state["attack"] = None
        if not over(state):
            self._next_effect(state)

    def _play_petition(self, state, seat, words):
        self._expect(words, "petition PLAYER")
        targets = self.petition_targets(state, seat)
        if len(words) != 2 or words[1] not in targets:
            raise IllegalAction("Petition against a player who holds gems: {players}.", players=", ".join(targets))
        state["petition"]["target"] = words[1]
        state["phase"] = "ask"
        self._record(state, seat, f"petition {words[1]}", N_("{seat} petitions against {target}.").format(
            seat=seat, target=words[1]))

    def _play_ask(self, state, seat, words):
        self._expect(words, "ask N")
        target = state["petition"]["target"]
        if len(words) != 2:
            raise IllegalAction("Ask for a number of gems, e.g. ask 2.")
        n = parse_int(words[1], 1, state["gems"][target], "The amount")
        state["petition"]["amount"] = n
        state["phase"], state["actor"] = "vote", None
        self._record(state, seat, f"ask {n}", N_("{seat} asks the table for {gems} from {target}.").format(
            seat=seat, gems=plural(n, "gem"), target=target) + " " + N_("Everybody votes."))

    def _play_vote(self, state, seat, words):
        if words not in (["vote", "yes"], ["vote", "no"]):
            raise IllegalAction("Vote with 'vote yes' or 'vote no'.")
        pet = state["petition"]
        pet["votes"][seat] = words[1] == "yes"
        # The vote stays secret until everyone has voted, so the log says only that a vote was cast.
        self._record(state, seat, "vote", N_("{seat} votes.").format(seat=seat))
        if len(pet["votes"]) < len(state["seats"]):
            return
        yes = sum(pet["votes"].values())
        no = len(pet["votes"]) - yes
        tally = ", ".join(f"{s} {'yes' if pet['votes'][s] else 'no'}" for s in state["seats"])
        petitioner, target = pet["petitioner"], pet["target"]
        if yes > no:
            got = transfer(state, target, petitioner, pet["amount"])
            outcome = N_("The petition passes: {petitioner} takes {gems} from {target} ({tally}).").format(
                petitioner=petitioner, gems=plural(got, "gem"), target=target, tally=tally)
        elif petitioner == state["turn"]:
            outcome = N_("The petition fails: {petitioner}'s turn ends ({tally}).").format(petitioner=petitioner,
                                                                                          tally=tally)
        else:
            outcome = N_("The petition fails ({tally}).").format(tally=tally)
        state["last"]["text"] = N_("{seat} votes.").format(seat=seat) + " " + outcome
        state["last"]["votes"] = dict(pet["votes"])
        state["petition"] = None
        if not over(state):
            self._next_effect(state)

    # ending a turn ---------------------------------------------------------------------------------------
    def _end_turn(self, state):
        order = state["order"]
        nxt = order[(order.index(state["turn"]) + 1) % len(order)]
        self._begin_turn(state, nxt)

    # ----- reading the game ---------------------------------------------------------------------------------
    def view(self, state: State, viewer: str | None) -> dict:
        board = board_of(state)
        pet = state["petition"]
        closed = set(board.starts) - set(state.get("starts") or board.starts)   # Z2: Start spaces not in play
        v = {
            "to_act": self.to_act(state),
            "seats": list(state["seats"]),
            "last": json.loads(json.dumps(state["last"])),
            "phase": state["phase"],
            "turn": state["turn"],
            "actor": None if state["phase"] in ("vote", "over") else state["actor"],
            "options": dict(state["options"]),
            "tiles": [dict(t) for t in board.tiles],
            "spaces": [{"id": sp["id"], "tile": sp["tile"], "type": sp["type"], "q": sp["q"], "r": sp["r"],
                        **({"gems": sp["gems"]} if sp["type"] == "start" else {}),
                        **({"closed": True} if sp["id"] in closed else {})}
                       for sp in board.spaces.values()],
            "borders": [{"a": a, "b": b, "kind": kind} for a, b, kind in
                        sorted((*sorted(pair), kind) for pair, kind in board.borders.items())],
            "positions": dict(state["positions"]),
            "gems": dict(state["gems"]),
            "bank": state["bank"],
            "lucky": dict(state["lucky"]),
            "order": list(state["order"]),
            "dice": self._dice_view(state["roll"]),
            "last_roll": self._dice_view(state["last_roll"]),
            "move": None,
            "bumping": state["bumping"][0] if state["phase"] == "bump" else None,
            "bump_options": {},
            "bumped": list(state["bumped"]),
            "attack": dict(state["attack"]) if state["attack"] else None,
            "petition": None,
            "distance": self._distances(state, board),
            "turns": dict(state["turns"]),
            "winner": state["winner"],
            "reason": state["reason"],
            "result": self.result(state),
        }
        if state["move"] is not None:
            mv = state["move"]
            v["move"] = {"value": mv["value"], "left": mv["left"], "path": list(mv["visited"]),
                         "options": self.steps(state, state["turn"]) if state["phase"] == "move" else {},
                         "reach": self.reach(state, state["turn"]) if state["phase"] == "move" else []}
        if state["phase"] == "bump":
            v["bump_options"] = self.bump_steps(state, state["bumping"][0])
        if pet is not None:
            v["petition"] = {"petitioner": pet["petitioner"], "target": pet["target"], "amount": pet["amount"],
                             "voted": {s: s in pet["votes"] for s in state["seats"]}}
            if viewer in pet["votes"]:
                v["petition"]["my_vote"] = "yes" if pet["votes"][viewer] else "no"
        return v

    def _dice_view(self, roll: dict | None) -> dict | None:
        if roll is None:
            return None
        wish = roll["wish"]
        return {"roller": roll["roller"], "purpose": roll["purpose"], "target": roll["target"],
                "lucky": roll["lucky"], "faces": list(roll["faces"]), "wish": wish,
                "marked": list(roll["marked"]),
                "counting": [i for i, f in enumerate(roll["faces"]) if wish is not None and f == wish],
                "free_used": roll["free_used"], "paid": roll["paid"], "value": roll.get("value")}

    def _distances(self, state, board):
        dist = board.distances_to_sleep()
        return {s: (dist.get(p) if p is not None else None) for s, p in state["positions"].items()}

    def result(self, state: State) -> dict | None:
        if not over(state):
            return None
        return {"winners": [state["winner"]], "scores": dict(state["gems"]), "reason": state["reason"],
                "turns": dict(state["turns"]), "positions": dict(state["positions"])}

    def describe(self, before: State, seat: str, action: str, after: State) -> str:
        return after["last"]["text"]

    def resample(self, state: State, seat: str | None, rng: Rng) -> None:
        """Z8: the Petition votes cast so far, but ``seat``'s own, are drawn again (yes or no, evenly). The
        dice still to be rolled live in the generator, which ``determinize`` reseeds."""
        pet = state["petition"]
        if pet is not None:
            for s in pet["votes"]:
                if s != seat:
                    pet["votes"][s] = rng.below(2) == 1


def roll_value_raw(roll: dict) -> bool:
    """Whether the wish came true (before Bumpers)."""
    return sum(1 for f in roll["faces"] if f == roll["wish"]) >= roll["wish"]


def faces_text(faces: list[int]) -> str:
    return " ".join(str(f) for f in faces)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 gem``, ``2 gems`` (``die``/``dice``), each from its marked template."""
    one, more = PLURALS[word]
    return (one if n == 1 else more).format(n=n)


# A step's line by how many notes it has (a toll paid, a space's touch effect), and a bump's.
MOVE_LINES = (N_("{seat} moves {direction} to {space}."), N_("{seat} moves {direction} to {space}; {note}."),
              N_("{seat} moves {direction} to {space}; {paid}, {note}."))
BUMP_LINES = (N_("{seat} bumps {victim} {direction} to {space}."),
              N_("{seat} bumps {victim} {direction} to {space}; {victim} {note}."),
              N_("{seat} bumps {victim} {direction} to {space}; {victim} {paid}, {note}."))
BORDER_NOTES = {"toll": N_("pays {gems} at a toll border"), "hostile": N_("pays {gems} at a hostile border")}


GAME = register(Wurrm())
