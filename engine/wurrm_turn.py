"""A turn of WURRM World (Z5–Z8): the lucky number and the roll, the wish and the rerolls, the move step by
step, bumps, Attack spaces with Bribery and Petition, and the end of the turn; the small helpers on the state
they share (gems changing hands, crossing costs, dice). ``Turns`` is a part of ``engine.wurrm.Wurrm``, which
keeps setup, placement, the legal actions and the views; the rulings are in engine/wurrm.py's docstring.
"""

from __future__ import annotations

from i18n import N_

from .core import IllegalAction, State, read_number
from .rng import Rng
from .wurrm_board import DIRECTION_ORDER, board_of

BANK = 27
LUCKY_WIN = 13
HOSTILE_BRIBE = 6
DICE = 6

# Counted things in the log: one template each for one and for many.
PLURALS = {"gem": (N_("{n} gem"), N_("{n} gems")), "die": (N_("{n} die"), N_("{n} dice"))}


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


class Turns:
    """The actions of a turn and what they may do, as methods of the game (``engine.wurrm.Wurrm``)."""

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
