"""Seikatsu with the Yarimizu expansion (RULES.md §4, S1–S11; rulebook seeds/003).

The garden (S1) is the hexagon of radius 3 in axial coordinates (q, r), s = −q−r, without its printed centre
pond (0, 0): 36 spaces. Pagodas stand at three alternating corners — pink (3, 0) scoring the rows of constant
r, blue (0, −3) rows of constant q, green (−3, 3) rows of constant s — and each has a flower space, the centre
neighbour pointing at it. The bag (S2) holds 32 garden tiles (4 birds × 4 flowers, each pair twice) and 4 koi
ponds. Play (S5): place a hand tile on an empty space touching a tile, score birds (S6), draw. With Yarimizu
(S8–S11, table option ``yarimizu``, on by default) a player may instead place a fountain, take a garden card
and put up to two tiles back. The game ends when the garden is full (S7); flowers then fountains are scored.

Names used in actions and views
- Birds: crane, finch, heron, sparrow. Flowers: iris, lily, poppy, marigold. A garden tile is named
  ``"<bird> <flower>"`` (``"heron lily"``), a koi pond ``"koi"``. A garden card is named by its bird or flower.
- Spaces are named like chess squares, as the channel image shows them (blue pagoda at the top): a column
  letter a–g from left to right (q = −3 … 3) and a number counted from the bottom of that column
  (column d holds d1–d7 around the centre pond d4, which is not a space). Every image prints the names on
  the empty spaces, whichever pagoda it is seen from.
- A fountain's corner is named by its three spaces in alphabetical order: ``fountain b3 c3 c4``.

Actions (each one step; the same seat keeps acting through a fountain turn)
- ``place <tile> <space>`` — ``place heron lily c3``, ``place koi e2`` (S5, S6)
- ``fountain <space> <space> <space>`` — place a fountain instead of a tile (S9, S10)
- ``take <name> card`` — the garden card after a fountain (S9)
- ``put back <tile>``, ``put back both``, ``keep hand`` — the optional put-back that ends a fountain turn (S9)

View (``view(state, viewer)``)
- ``board``: placed tiles ``{"q", "r", "space", "bird", "flower", "koi"}``; ``open_spaces``: where a tile may
  go now; ``bag``: tiles left; ``hands``: ``{seat: count}``; ``hand``: the viewer's own tiles (seated only).
- ``pagodas``: ``{seat: colour}``; ``turn``, ``phase`` (place, card, putback, over), ``to_act``, ``seats``.
- ``koi_placed``; ``yarimizu``; ``fountains_open`` (false after the Mogami River); ``free_corners``: corners a
  fountain may take now; ``fountains``: ``{"owner", "pagoda", "spaces", "cells"}``; ``fountains_left`` and
  ``garden_cards`` per seat (the team's at four); ``cards_open``; ``streams``: ``{colour: [{"card", "cells"}]}``.
- ``scores``: ``{seat: {"birds", "flowers", "fountains", "total"}}`` (flowers and fountains from the end);
  ``last``: the last action (``place`` with space, cell, tile, bird and points; ``fountain``, ``card`` or
  ``putback`` with the fountain's spaces and cells; a put-back gives only how many tiles went back).
- At the end: ``rows`` (per pagoda its seven rows: spaces, cells, most common flower, koi, count, points)
  and ``result``.

Decisions beyond RULES.md (each is tested)
- D1 Seats at four (S3): the first and third seats are the pink team, the second and fourth the blue team,
  so turns alternate between teams. A team shares its score, its two fountains and its garden cards (the
  card alternation of S9 is per team); either teammate may place the team's fountains. Hands stay personal
  and hidden from the teammate too.
- D2 The first seat starts. Starting hands are drawn in seat order after the koi ponds join the bag (S4).
- D3 Once the bag is empty, a player whose hand is empty is skipped for good: having no tile to place they
  also place no fountain ("instead of placing a tile"). The game ends when every hand is empty, which is
  exactly when all 36 spaces are filled (36 spaces, 36 tiles).
- D4 A koi pond scores as the best bird for its placer (S6); on a tie the first bird in the order above is
  named. When no bird would score, it scores 0 as no bird.
- D5 A fountain's corner is the meeting point of three mutually touching spaces of the garden (the printed
  centre is not a space, so corners touching it are not corners for fountains). All three must hold tiles —
  koi ponds count as tiles — and no fountain may stand there yet. At most one fountain per corner.
- D6 Each of the 8 garden cards exists once: a card taken by one player is gone for the others. A player
  (team) takes at most one card of each kind, so a card of the allowed kind is always left.
- D7 The put-back (S9): the chosen tiles go into the bag first, then as many are drawn. It is offered only
  while the bag holds tiles; with an empty bag it would only hand back the same tiles, so the turn ends at
  once after the card. The log says how many tiles went back, never which.
- D8 Mogami River (S10): the placement of the 4th koi pond closes fountains at once — unplaced fountains and
  the cards left on the table leave the game. A fountain turn never places a koi pond, so a fountain already
  placed always gets its card.
- D9 Streams (S11): every card a player holds is scored against all of that player's fountains together
  (the card taken at the first fountain also counts at the second). A tile at a fountain starts a chain
  only if it shows the card's bird (flower); chains grow through touching tiles showing the same; each tile
  counts once per card. Koi ponds show nothing, so they neither count nor carry a chain.
- D10 Flower rows (S7): a row's count is its most common flower plus its koi ponds (wild for every pagoda
  on its own); the view names the most common flower (ties: the first in the order above; none when the
  row holds only koi ponds). Only pagodas in use are scored: pink and blue at 2 and 4 players, all three
  at 3.
"""

from __future__ import annotations

from i18n import N_  # marks only: the engine writes English; the edge translates what it shows

from . import register
from .core import Game, IllegalAction, State, lower, summary_text
from .rng import Rng

# The garden and its scoring live in engine/seikatsu_garden.py; engine.seikatsu names them as before.
from .seikatsu_garden import (  # noqa: F401
    BIRDS,
    CARDS,
    CELL,
    CENTRE,
    CORNERS,
    FLOWER_SPACE,
    FLOWERS,
    FOUNTAINS_EACH,
    FOUR_PLAYER_START,
    GARDEN_TILES,
    KOI,
    KOI_PONDS,
    LABEL,
    NEIGHBOURS,
    PAGODA_CORNER,
    PAGODA_ORDER,
    ROWS,
    SPACES,
    TILE_WORDS,
    bird_of,
    bird_points,
    card_kind,
    flower_of,
    flower_rows,
    koi_bird,
    score_row,
    shows,
    stream,
    triangle,
)

_CORNER_SET = set(CORNERS)


# ----- the game -------------------------------------------------------------------------------------------
class Seikatsu(Game):
    key = "seikatsu"
    title = "Seikatsu"
    min_players = 2
    max_players = 4
    options = {"yarimizu": True}
    option_choices = {"yarimizu": [True, False]}

    # ----- setup (S3, S4) ---------------------------------------------------------------------------------
    def setup(self, state: State, rng: Rng) -> None:
        seats = state["seats"]
        colours = {2: ["pink", "blue"], 3: ["pink", "blue", "green"], 4: ["pink", "blue", "pink", "blue"]}
        pagodas = dict(zip(seats, colours[len(seats)], strict=True))
        in_use = [c for c in PAGODA_ORDER if c in pagodas.values()]
        yarimizu = bool(state["options"]["yarimizu"])
        state.update(
            pagodas=pagodas,
            bag=list(GARDEN_TILES),
            board={},
            hands={s: [] for s in seats},
            turn=0,
            phase="place",
            birds={c: 0 for c in in_use},
            fountains=[],
            fountains_left={c: FOUNTAINS_EACH if yarimizu else 0 for c in in_use},
            cards={c: [] for c in in_use},
            cards_open=list(CARDS) if yarimizu else [],
            koi_placed=0,
            last=None,
            final=None,
        )
        starts = FOUR_PLAYER_START if len(seats) == 4 else [FLOWER_SPACE[c] for c in in_use]
        for cell in starts:
            state["board"][LABEL[cell]] = self._draw(state, rng)
        state["bag"].extend([KOI] * KOI_PONDS)
        for _ in range(2):
            for seat in seats:
                state["hands"][seat].append(self._draw(state, rng))

    @staticmethod
    def _draw(state: State, rng: Rng) -> str:
        return state["bag"].pop(rng.below(len(state["bag"])))

    # ----- reading ----------------------------------------------------------------------------------------
    def to_act(self, state: State) -> list[str]:
        if state["phase"] == "over":
            return []
        return [state["seats"][state["turn"]]]

    def open_spaces(self, state: State) -> list[str]:
        """Empty spaces touching at least one tile (S5), in label order."""
        board = state["board"]
        return sorted(s for s in LABEL.values() if s not in board and any(n in board for n in NEIGHBOURS[s]))

    def fountains_open(self, state: State) -> bool:
        """S9, S10: Yarimizu is on and the 4th koi pond is not placed yet."""
        return bool(state["options"]["yarimizu"]) and state["koi_placed"] < KOI_PONDS

    def free_corners(self, state: State) -> list[tuple[str, str, str]]:
        """Corners where a fountain may stand now (D5)."""
        board = state["board"]
        taken = {tuple(f["spaces"]) for f in state["fountains"]}
        return [c for c in CORNERS if c not in taken and all(s in board for s in c)]

    def can_place_fountain(self, state: State, seat: str) -> bool:
        colour = state["pagodas"][seat]
        return self.fountains_open(state) and state["fountains_left"][colour] > 0

    def allowed_cards(self, state: State, seat: str) -> list[str]:
        """S9: the first card of either kind, the second of the other kind (per team at four, D1, D6)."""
        held = state["cards"][state["pagodas"][seat]]
        kinds = {card_kind(c) for c in held}
        return [c for c in state["cards_open"] if card_kind(c) not in kinds]

    def legal_actions(self, state: State, seat: str) -> list[str]:
        if seat not in self.to_act(state):
            return []
        hand = state["hands"][seat]
        if state["phase"] == "card":
            return [f"take {c} card" for c in self.allowed_cards(state, seat)]
        if state["phase"] == "putback":
            actions = ["keep hand"] + [f"put back {t}" for t in dict.fromkeys(hand)]
            if len(hand) >= 2:
                actions.append("put back both")
            return actions
        spaces = self.open_spaces(state)
        actions = [f"place {t} {s}" for t in dict.fromkeys(hand) for s in spaces]
        if self.can_place_fountain(state, seat):
            actions += ["fountain " + " ".join(c) for c in self.free_corners(state)]
        return actions

    hidden_keys = ("hands", "bag")        # S2, S5, D1: the bag's tiles and every hand but one's own

    def undoable(self, before: State, seat: str, action: str, after: State) -> bool:
        """Issue #12: a fountain, a garden card and keeping one's hand show nothing hidden and draw nothing, so
        they can be taken back, although the turn's choices are offered privately (they list the hand). A
        placed tile comes out of a hidden hand, and placing or putting back draws from the bag: never."""
        return (before["rng"] == after["rng"] and len(self.to_act(before)) == 1
                and not self.reveals(before, after))

    def resample(self, state: State, seat: str | None, rng: Rng) -> None:
        """The bag and the other hands (teammates' too, D1) are dealt again from their tiles, sizes kept."""
        others = [s for s in state["seats"] if s != seat]
        pool = sorted(state["bag"] + [t for s in others for t in state["hands"][s]])   # canonical: the view only
        rng.shuffle(pool)
        for s in others:
            n = len(state["hands"][s])
            state["hands"][s], pool = pool[:n], pool[n:]
        state["bag"] = pool

    def private_actions(self, state: State, seat: str) -> bool:
        """Placing and putting back name hand tiles; only the card choice is public."""
        return seat in self.to_act(state) and state["phase"] in ("place", "putback")

    # ----- playing ----------------------------------------------------------------------------------------
    def play(self, state: State, seat: str, action: str) -> None:
        words = lower(action).split()
        rng = Rng(state)
        phase = state["phase"]
        verb = words[0]
        if phase == "card":
            if verb != "take":
                # the example is a whole action (a param that is no single word stays as typed)
                raise IllegalAction("Take a garden card first, e.g. '{example}'.",
                                    example=f"take {self.allowed_cards(state, seat)[0]} card")
            self._take_card(state, seat, words)
        elif phase == "putback":
            if verb not in ("put", "keep"):
                raise IllegalAction("Put up to two tiles back ('put back <tile>', 'put back both') or 'keep hand'.")
            self._put_back(state, seat, words, rng)
        elif verb == "place":
            self._place(state, seat, words, rng)
        elif verb == "fountain":
            self._fountain(state, seat, words)
        elif verb in ("take", "put", "keep"):
            raise IllegalAction("Garden cards and putting tiles back come only after placing a fountain.")
        else:
            if self.fountains_open(state):
                raise IllegalAction("Place a tile, e.g. 'place heron lily c3', or a fountain, e.g. "
                                    "'fountain b3 c3 c4'.")
            raise IllegalAction("Place a tile, e.g. 'place heron lily c3'.")

    def _place(self, state: State, seat: str, words: list[str], rng: Rng) -> None:
        if len(words) not in (3, 4):
            raise IllegalAction("Say which tile and where, e.g. 'place heron lily c3' or 'place koi e2'.")
        tile, space = " ".join(words[1:-1]), words[-1]
        hand = state["hands"][seat]
        if tile not in hand:
            raise self._no_tile(tile, hand)
        if space not in NEIGHBOURS:
            raise IllegalAction("There is no space '{space}' in the garden (spaces run a1 to g4).", space=space)
        board = state["board"]
        if space in board:
            raise IllegalAction("{space} already holds a tile.", space=space)
        if not any(n in board for n in NEIGHBOURS[space]):
            raise IllegalAction("{space} touches no tile; place next to a tile already in the garden.", space=space)
        colour = state["pagodas"][seat]
        if tile == KOI:
            bird, points = koi_bird(board, space)
        else:
            bird = bird_of(tile)
            points = bird_points(board, space, bird)
        hand.remove(tile)
        board[space] = tile
        state["birds"][colour] += points
        q, r = CELL[space]
        state["last"] = {"seat": seat, "action": "place", "space": space, "q": q, "r": r, "tile": tile,
                         "bird": bird if points else None, "points": points, "closed": False}
        if tile == KOI:
            state["koi_placed"] += 1
            if state["koi_placed"] == KOI_PONDS and state["options"]["yarimizu"]:
                self._close_fountains(state)
        if state["bag"]:
            hand.append(self._draw(state, rng))
        self._next_turn(state)

    @staticmethod
    def _no_tile(tile: str, hand: list[str]) -> IllegalAction:
        """A refusal naming the hand tile by tile, so each tile's name is translated as a word."""
        if len(hand) == 2:
            return IllegalAction("You have no {tile} tile; your hand: {first}, {second}.", tile=tile,
                                 first=hand[0], second=hand[1])
        return IllegalAction("You have no {tile} tile; your hand: {hand}.", tile=tile, hand=", ".join(hand))

    def _close_fountains(self, state: State) -> None:
        """S10, D8: the Mogami River rule."""
        state["fountains_left"] = {c: 0 for c in state["fountains_left"]}
        state["cards_open"] = []
        state["last"]["closed"] = True

    def _fountain(self, state: State, seat: str, words: list[str]) -> None:
        if not state["options"]["yarimizu"]:
            raise IllegalAction("This game is played without Yarimizu: there are no fountains.")
        if not self.fountains_open(state):
            raise IllegalAction("The 4th koi pond is placed: no more fountains may be placed (Mogami River).")
        colour = state["pagodas"][seat]
        if state["fountains_left"][colour] <= 0:
            raise IllegalAction("You have placed both your fountains.")
        if len(words) != 4:
            raise IllegalAction("Name the three spaces around the corner, e.g. 'fountain b3 c3 c4'.")
        corner = tuple(sorted(words[1:]))
        unknown = [s for s in corner if s not in NEIGHBOURS]
        if unknown:
            raise IllegalAction("There is no space '{space}' in the garden.", space=unknown[0])
        if corner not in _CORNER_SET:
            raise IllegalAction("{spaces} do not meet at one corner: name three spaces that all touch each other.",
                                spaces=" ".join(corner))
        empty = [s for s in corner if s not in state["board"]]
        if len(empty) == 1:
            raise IllegalAction("A fountain needs tiles on all three spaces; {space} is empty.", space=empty[0])
        if empty:
            raise IllegalAction("A fountain needs tiles on all three spaces; {spaces} are empty.",
                                spaces=", ".join(empty))
        if any(tuple(f["spaces"]) == corner for f in state["fountains"]):
            raise IllegalAction("A fountain already stands at that corner.")
        state["fountains"].append({"owner": seat, "pagoda": colour, "spaces": list(corner)})
        state["fountains_left"][colour] -= 1
        state["phase"] = "card"
        state["last"] = {"seat": seat, "action": "fountain", "spaces": list(corner)}

    def _take_card(self, state: State, seat: str, words: list[str]) -> None:
        allowed = self.allowed_cards(state, seat)
        if len(words) not in (2, 3) or (len(words) == 3 and words[2] != "card"):
            raise IllegalAction("Take one garden card, e.g. '{example}'.", example=f"take {allowed[0]} card")
        card = words[1]
        if card not in CARDS:
            # the list is written out so a translation can name the cards in its words beside the typed ones
            raise IllegalAction("There is no '{card}' garden card; the cards are crane, finch, heron, sparrow, "
                                "iris, lily, poppy, marigold.", card=card)
        if card not in state["cards_open"]:
            raise IllegalAction("The {card} card is already taken.", card=card)
        if card not in allowed:
            raise IllegalAction("Your second garden card must be of the other kind: {cards}.",
                                cards=", ".join(allowed))
        state["cards_open"].remove(card)
        state["cards"][state["pagodas"][seat]].append(card)
        state["last"] = {"seat": seat, "action": "card", "card": card,
                         "spaces": state["fountains"][-1]["spaces"]}
        if state["bag"]:
            state["phase"] = "putback"
        else:  # D7: nothing to exchange with
            state["phase"] = "place"
            self._next_turn(state)

    def _put_back(self, state: State, seat: str, words: list[str], rng: Rng) -> None:
        hand = state["hands"][seat]
        if words == ["keep", "hand"]:
            back: list[str] = []
        elif words[:2] == ["put", "back"] and words[2:] == ["both"]:
            if len(hand) < 2:
                raise IllegalAction("You hold only one tile.")
            back = list(hand)
        elif words[:2] == ["put", "back"] and len(words) > 2:
            tile = " ".join(words[2:])
            if tile not in hand:
                raise self._no_tile(tile, hand)
            back = [tile]
        else:
            raise IllegalAction("Say 'keep hand', 'put back <tile>' or 'put back both'.")
        for tile in back:  # D7: all go back first, then as many are drawn
            hand.remove(tile)
            state["bag"].append(tile)
        for _tile in back:
            hand.append(self._draw(state, rng))
        state["last"] = {"seat": seat, "action": "putback", "count": len(back),
                         "spaces": state["fountains"][-1]["spaces"]}
        state["phase"] = "place"
        self._next_turn(state)

    def _next_turn(self, state: State) -> None:
        """The next seat holding tiles (D3); none left means the garden is full (S7)."""
        seats = state["seats"]
        for step in range(1, len(seats) + 1):
            turn = (state["turn"] + step) % len(seats)
            if state["hands"][seats[turn]]:
                state["turn"] = turn
                return
        assert len(state["board"]) == len(SPACES), "hands are empty but the garden is not full"
        state["phase"] = "over"
        state["final"] = self.final_scores(state)

    # ----- scoring (S7, S11) ------------------------------------------------------------------------------
    def final_scores(self, state: State) -> dict:
        """Per pagoda: birds, flower rows, streams per card, and totals."""
        board = state["board"]
        final = {}
        for colour, birds in state["birds"].items():
            rows = flower_rows(board, colour)
            corners = [f["spaces"] for f in state["fountains"] if f["pagoda"] == colour]
            streams = [{"card": card, "spaces": stream(board, corners, card)} for card in state["cards"][colour]]
            for s in streams:
                s["points"] = len(s["spaces"])
            flowers = sum(r["points"] for r in rows)
            fountains = sum(s["points"] for s in streams)
            final[colour] = {"birds": birds, "flowers": flowers, "fountains": fountains,
                             "total": birds + flowers + fountains, "rows": rows, "streams": streams}
        return final

    def teams(self, state: State) -> list[list[str]]:
        """S3/D1: at four, the seats sharing a pagoda (first and third, second and fourth)."""
        if len(state["seats"]) != 4:
            return []
        pagodas = state["pagodas"]
        return [[s for s in state["seats"] if pagodas[s] == c] for c in dict.fromkeys(pagodas.values())]

    def result(self, state: State) -> dict | None:
        if state["phase"] != "over":
            return None
        final = state["final"]
        best = max(f["total"] for f in final.values())
        pagodas = state["pagodas"]
        return {
            "winners": [s for s in state["seats"] if final[pagodas[s]]["total"] == best],
            "scores": {s: final[pagodas[s]]["total"] for s in state["seats"]},
            "pagodas": dict(pagodas),
            "teams": self.teams(state),
            "breakdown": {c: {k: f[k] for k in ("birds", "flowers", "fountains", "total")}
                          for c, f in final.items()},
        }

    # ----- views ------------------------------------------------------------------------------------------
    def view(self, state: State, viewer: str | None) -> dict:
        board = state["board"]
        pagodas = state["pagodas"]
        over = state["phase"] == "over"
        final = state["final"]
        scores = {}
        for seat in state["seats"]:
            colour = pagodas[seat]
            if over:
                scores[seat] = {k: final[colour][k] for k in ("birds", "flowers", "fountains", "total")}
            else:
                birds = state["birds"][colour]
                scores[seat] = {"birds": birds, "flowers": 0, "fountains": 0, "total": birds}
        corners = {c: [f["spaces"] for f in state["fountains"] if f["pagoda"] == c] for c in state["birds"]}
        v = {
            "to_act": self.to_act(state),
            "seats": list(state["seats"]),
            "turn": None if over else state["seats"][state["turn"]],
            "phase": state["phase"],
            "yarimizu": bool(state["options"]["yarimizu"]),
            "board": [{"q": CELL[s][0], "r": CELL[s][1], "space": s, "bird": bird_of(t), "flower": flower_of(t),
                       "koi": t == KOI} for s, t in sorted(board.items())],
            "open_spaces": self.open_spaces(state) if not over else [],
            "bag": len(state["bag"]),
            "hands": {s: len(h) for s, h in state["hands"].items()},
            "pagodas": dict(pagodas),
            "koi_placed": state["koi_placed"],
            "fountains_open": self.fountains_open(state),
            "free_corners": [list(c) for c in self.free_corners(state)] if self.fountains_open(state) else [],
            "fountains": [{"owner": f["owner"], "pagoda": f["pagoda"], "spaces": list(f["spaces"]),
                           "cells": [list(CELL[s]) for s in f["spaces"]]} for f in state["fountains"]],
            "fountains_left": {s: state["fountains_left"][pagodas[s]] for s in state["seats"]},
            "garden_cards": {s: list(state["cards"][pagodas[s]]) for s in state["seats"]},
            "cards_open": list(state["cards_open"]),
            "streams": {c: [{"card": card, "cells": [list(CELL[s]) for s in stream(board, corners[c], card)]}
                            for card in state["cards"][c]] for c in state["birds"]},
            "scores": scores,
            "last": self._last_view(state["last"]),
        }
        if over:
            v["rows"] = {c: [dict(row, cells=[list(CELL[s]) for s in row["spaces"]]) for row in f["rows"]]
                         for c, f in final.items()}
            v["result"] = self.result(state)
        if viewer in state["hands"]:
            v["hand"] = list(state["hands"][viewer])
        return v

    @staticmethod
    def _last_view(last: dict | None) -> dict | None:
        """The last action with axial cells beside the space names, for the renderer's highlight."""
        if last is None or "spaces" not in last:
            return None if last is None else dict(last)
        return dict(last, cells=[list(CELL[s]) for s in last["spaces"]])

    def summary(self, view: dict) -> str:
        """Alt text (#16): the last action (placed tiles are public), the scores so far, whose turn."""
        last = view.get("last")
        text = None
        if last and last.get("seat") and last.get("action") in ("place", "fountain", "card", "putback"):
            text = self.describe({}, last["seat"], "", {"last": last, "phase": "place"})
        scores = {s: view["scores"][s]["total"] for s in view["seats"]}
        return summary_text(self.title, view, last=text, scores=scores,
                            extra=SPACES_FILLED.format(filled=len(view["board"])))

    # ----- the log ----------------------------------------------------------------------------------------
    def describe(self, before: State, seat: str, action: str, after: State) -> str:
        last = after["last"]
        kind = last["action"]
        if kind == "place":
            space, points = last["space"], last["points"]
            if last["tile"] == KOI:
                what = (N_("{seat} places a koi pond on {space} as a {bird}: {points} points.").format(
                    seat=seat, space=space, bird=last["bird"], points=points) if points else
                    N_("{seat} places a koi pond on {space}: no bird to match, 0 points.").format(
                        seat=seat, space=space))
            else:
                bird, flower = last["tile"].split()
                what = (N_("{seat} places {bird} {flower} on {space}: {points} points.") if points else
                        N_("{seat} places {bird} {flower} on {space}: no matching bird, 0 points.")).format(
                    seat=seat, bird=bird, flower=flower, space=space, points=points)
            if last["closed"]:
                what += " " + MOGAMI
        elif kind == "fountain":
            a, b, c = last["spaces"]
            what = N_("{seat} places a fountain at {a} {b} {c}.").format(seat=seat, a=a, b=b, c=c)
        elif kind == "card":
            what = N_("{seat} takes the {card} card.").format(seat=seat, card=last["card"])
        else:
            n = last["count"]
            what = (N_("{seat} keeps their hand.") if n == 0 else
                    N_("{seat} puts {n} tile back into the bag and draws {n}.") if n == 1 else
                    N_("{seat} puts {n} tiles back into the bag and draws {n}.")).format(seat=seat, n=n)
        if after["phase"] == "over":
            what += " " + GARDEN_FULL + " " + final_line(after["final"])
        return what


MOGAMI = N_("The 4th koi pond is in: fountains and garden cards leave the game (Mogami River).")
GARDEN_FULL = N_("The garden is full.")
# The final scores, one sentence per game size (2 and 4 players: pink and blue; 3 players: with green), so
# the edge finds the whole sentence; it starts with a colour's name, not a placeholder, so it cannot swallow
# the sentences before it. Each pagoda's clause on its own for an edge that splits at semicolons.
FINAL_TWO = N_("pink {pink_total} (birds {pink_birds}, flowers {pink_flowers}, fountains {pink_fountains}); "
               "blue {blue_total} (birds {blue_birds}, flowers {blue_flowers}, fountains {blue_fountains}).")
FINAL_THREE = N_("pink {pink_total} (birds {pink_birds}, flowers {pink_flowers}, fountains {pink_fountains}); "
                 "blue {blue_total} (birds {blue_birds}, flowers {blue_flowers}, fountains {blue_fountains}); "
                 "green {green_total} (birds {green_birds}, flowers {green_flowers}, fountains {green_fountains}).")
# Clauses of the lines above, for an edge that splits a line at its colons and semicolons.
CLAUSES = (N_("pink {total} (birds {birds}, flowers {flowers}, fountains {fountains});"),
           N_("blue {total} (birds {birds}, flowers {flowers}, fountains {fountains});"),
           N_("blue {total} (birds {birds}, flowers {flowers}, fountains {fountains})."),
           N_("green {total} (birds {birds}, flowers {flowers}, fountains {fountains})."),
           N_("{seat} places {bird} {flower} on {space}:"), N_("{seat} places a koi pond on {space} as a {bird}:"),
           N_("{seat} places a koi pond on {space}:"), N_("{points} points."), N_("no matching bird, 0 points."),
           N_("no bird to match, 0 points."), N_("The 4th koi pond is in:"),
           N_("fountains and garden cards leave the game (Mogami River)."))
# What players read on the buttons: the canonical actions (which stay English: the engine parses them) and
# the groups of actions a long list is cut into ("place heron lily", "fountain b3").
ACTION_LABELS = (N_("place {bird} {flower} {space}"), N_("place koi {space}"), N_("place {bird} {flower}"),
                 N_("place {bird}"), N_("place"), N_("fountain {a} {b} {c}"), N_("fountain {a} {b}"),
                 N_("fountain {a}"), N_("fountain"), N_("take {card} card"), N_("keep hand"),
                 N_("put back {bird} {flower}"), N_("put back koi"), N_("put back both"))
SPACES_FILLED = N_("{filled} of 36 spaces filled.")


def final_line(final: dict) -> str:
    """The end's sentence of scores per pagoda (pink, blue and, at three players, green)."""
    params = {f"{colour}_{k}": f[k] for colour, f in final.items() for k in ("total", "birds", "flowers", "fountains")}
    return (FINAL_THREE if "green" in final else FINAL_TWO).format(**params)


GAME = register(Seikatsu())
