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

Rulings of RULES.md this module implements, with its parts beside it (the board in engine/wurrm_board.py, the
checks of random boards, the seat gems and the Start spaces in play in engine/wurrm_fairness.py, a turn's
actions in engine/wurrm_turn.py), and the decisions taken where the rulebook and RULES.md are silent (each is
tested in tests/test_wurrm*.py):

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

from i18n import N_, W_

from . import register
from .core import Game, IllegalAction, State
from .rng import Rng

# The board, its fairness and the turn live beside this module (engine/wurrm_board.py, engine/wurrm_fairness.py,
# engine/wurrm_turn.py); their names are engine.wurrm's as they always were. Setup, placement and the bots read
# seat_bonus, open_starts and default_layout here, so that bench/wurrm_balance.py and bench/wurrm_layouts.py can
# try other values by setting them on this module.
from .wurrm_board import (  # noqa: F401
    BOARD_DATA,
    BOARD_FILE,
    DEFAULT_LAYOUT,
    DIRECTION_NAMES,
    DIRECTION_ORDER,
    RANDOM_FILE,
    RANDOM_FILES,
    SLEEP_TILES,
    START_TILE,
    STEP,
    TILES,
    Board,
    board_for,
    board_of,
    candidate_layouts,
    default_layout,
    layout_key,
    listed_layouts,
    tile_centre,
    wing_layout,
)
from .wurrm_fairness import (  # noqa: F401
    BEGINNER_VALUES,
    MAX_DRAWN_WIDTH,
    MAX_RACE,
    MIN_RACE,
    RACE_HORIZON,
    RACE_SPREAD_ALL,
    RACE_SPREAD_FOUR,
    RACE_TURNS,
    SEAT_BONUS,
    SEAT_BONUS_2,
    SEAT_BONUS_3,
    SEAT_EDGE,
    START_SPREAD,
    beginner_turns,
    expected_race,
    fair_layout,
    fair_race,
    fair_seats,
    finish_chances,
    open_starts,
    race_turns,
    race_values,
    seat_bonus,
    seat_chances,
    seat_edge,
    start_spread,
)
from .wurrm_turn import (  # noqa: F401
    BANK,
    BORDER_NOTES,
    BUMP_LINES,
    DICE,
    HOSTILE_BRIBE,
    LUCKY_WIN,
    MOVE_LINES,
    PLURALS,
    Turns,
    can_cross,
    crossing_cost,
    faces_text,
    option,
    over,
    parse_int,
    petitions,
    plural,
    roll_die,
    roll_value,
    roll_value_raw,
    transfer,
    win,
)

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
# engine.core.summary_text ends the last line with a full stop: the alt text reads "Naughty!." (kept as it is).
SUMMARY_ENDINGS = (N_("Naughty!."), N_("Karma!."))
# A vote tally, "a yes, b no, c yes", read one vote at a time.
TALLY = (N_("{seat} yes"), N_("{seat} no"), N_("{seat} yes, {rest}"), N_("{seat} no, {rest}"))


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


# ----- the game ----------------------------------------------------------------------------------------------
class Wurrm(Turns, Game):
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
                dist = board.distances_to_sleep()
            else:       # broke: a Gem space first (or a Sleep space through open borders)
                dist = board.distances_to_gems()
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
            "spaces": [{**sp, "closed": True} if sp["id"] in closed else dict(sp) for sp in board.space_rows()],
            "borders": [dict(b) for b in board.border_rows()],
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



GAME = register(Wurrm())
