"""The game protocol every Teahouse game speaks.

A game is data plus pure move functions (in the manner of boardgame.io): the state is a plain JSON-able
dict, ``apply`` works on a deep copy and never touches its argument, and every random event draws from the
generator kept in ``state["rng"]`` (engine.rng), so the seed and the action log replay a game exactly.

The public names of a Game are a contract used by tests, the Discord layer, the console, computer players
and outside checks: ``key``, ``title``, ``min_players``, ``max_players``, ``options``, ``new``, ``to_act``,
``legal_actions``, ``apply``, ``view``, ``result``, ``dump``, ``load``, ``describe``. Beside them,
``option_choices`` (the allowed values of each option) serves lobbies that offer options as choices, and
``private_actions`` tells front ends when a seat's legal actions must be offered privately, and
``time_limit`` names a rules time limit (a reaction window) that the table service enforces with a clock.

Rules versions (issue #26). A game lasts days and the bot is updated meanwhile, so a stored game must go on,
replay, undo and export by the rules it started under. Each game declares ``rules``, its current rules
version; ``new`` starts a game under it (or under an older one it is given) and the state keeps it in
``state["rules"]``. Code that plays differently under a newer version asks ``state["rules"]`` in a small,
explicit branch; an older behaviour is never a copy of the module. A state naming a version this code does
not know (after a downgrade) is refused by ``load`` with ``UnknownRules``, and nothing is changed.

State shapes (issue #26). ``dump`` writes ``state["shape"]``; a state of an older shape is brought up to date
by ``load`` through the versioned converters in ``upgrades`` (shape n → n + 1, in order), never by
guessing from what the state happens to hold. Shape 1 is every state saved before rules versions existed:
it has neither key, and its rules are version 1.

A subclass writes ``setup`` (fill a new state), ``play`` (mutate a copy for one legal action, raising
IllegalAction otherwise) and the read-only functions; the base class does the checks every game shares.
"""

from __future__ import annotations

import json
import pickle
import re
from typing import Any

from i18n import N_, W_  # marks only: the engine writes English; the edge translates what it shows

from .rng import Rng, seed_state

NONE = W_("none")

State = dict[str, Any]

_NUMBER = re.compile(r"[0-9]{1,6}", re.ASCII)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def read_number(word: str) -> int | None:
    """The value of a plain number a player typed (ASCII digits only, at most six of them), else None.

    ``str.isdigit`` accepts '³' and other Unicode digits that ``int`` then refuses or reads ('١' is 1), and a
    very long run of digits makes ``int`` raise; an action parser checks a number word with this instead."""
    return int(word) if isinstance(word, str) and _NUMBER.fullmatch(word) else None


def with_names(text: str, names: dict[str, str]) -> str:
    """Seat ids in an engine text replaced by display names — whole ids only, so seat '4' never turns space
    'b4' into 'bFay'."""
    if not names:
        return text
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
                         + r")(?![\w-])")
    return pattern.sub(lambda m: names[m.group(1)], text)


def lower(text: str) -> str:
    """``text`` with ASCII letters lowered and every other character left as it is. Keywords of actions are
    ASCII, and ``str.lower`` maps some other characters onto ASCII letters (the Kelvin sign 'K' to 'k')."""
    return text.translate(_ASCII_LOWER)


class IllegalAction(Exception):
    """An action the rules do not allow now. The message is shown to the player.

    Written as a template with named placeholders, ``IllegalAction("'{word}' is not a colour.", word=w)``,
    so the front end can show it in the player's language (``i18n.illegal``); ``str()`` is the English."""

    def __init__(self, template: str = "", /, **params):
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)


class UnknownRules(ValueError):
    """A saved game from a newer Teahouse: its rules version (or state shape) is unknown to this code."""

    def __init__(self, title: str, what: str, found: int, known: int):
        self.title, self.what, self.found, self.known = title, what, found, known
        super().__init__(f"This {title} game was started under {what} {found}, newer than this Teahouse knows "
                         f"({known}). Update Teahouse to go on with it; the game is kept as it is.")


def _shape_1_to_2(state: State) -> None:
    """States saved before rules versions existed were all played under version 1."""
    state["rules"] = 1


class Game:
    key: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: dict[str, Any] = {}
    option_choices: dict[str, list] = {}
    rules: int = 1                     # the rules version a new game starts under (see the module docstring)
    rules_changes: dict[int, str] = {1: W_("the rules as first released")}   # what each version changed
    shape: int = 2                     # the shape of the state ``dump`` writes
    upgrades: dict[int, Any] = {1: _shape_1_to_2}   # shape n → n + 1, each changing a loaded state in place

    # ----- creating a game -------------------------------------------------------------------------------
    def new(self, seats: list[str], seed: int, options: dict | None = None, rules: int | None = None) -> State:
        """A new game; under the current rules version unless ``rules`` names an older one (a rebuild)."""
        rules = self.rules if rules is None else rules
        self.check_rules(rules)
        seats = [str(s) for s in seats]
        if len(set(seats)) != len(seats):
            raise IllegalAction("Every seat needs a different name.")
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(self.players_message())
        state: State = {
            "game": self.key,
            "seats": seats,
            "options": self.check_options(options),
            "rng": seed_state(seed),
            "rules": rules,
            "shape": self.shape,
        }
        self.setup(state, Rng(state))
        return state

    def check_rules(self, rules: int) -> None:
        """Refuse a rules version this code does not know (a game from a newer Teahouse)."""
        if not isinstance(rules, int) or isinstance(rules, bool) or rules < 1:
            raise ValueError(f"not a rules version: {rules!r}")
        if rules > self.rules:
            raise UnknownRules(self.title, "rules version", rules, self.rules)

    def restart(self, seats: list[str], seed: int, options: dict | None, now: State) -> State:
        """The first state of the game whose present state is ``now``, for rebuilding it from its seed and log
        (replays, exports): ``new`` under ``now``'s rules version, and where the game's setup reads data that
        may change between versions of the bot (WURRM World's list of random boards), that taken from
        ``now``."""
        return self.new(seats, seed, options, rules=now["rules"])

    def players_message(self) -> str:
        if self.min_players == self.max_players:
            return N_("{title} is for exactly {n} players.").format(title=self.title, n=self.min_players)
        return N_("{title} is for {low} to {high} players.").format(title=self.title, low=self.min_players,
                                                                   high=self.max_players)

    def check_options(self, options: dict | None) -> dict:
        """Defaults merged with the given options; unknown names and values are refused."""
        merged = dict(self.options)
        for name, value in (options or {}).items():
            if name not in self.options:
                known = ", ".join(sorted(self.options)) or NONE
                raise IllegalAction("{title} has no option '{name}' (options: {known}).", title=self.title,
                                    name=name, known=known)
            choices = self.option_choices.get(name)
            if choices is not None and value not in choices:
                allowed = ", ".join(str(c) for c in choices)
                raise IllegalAction("Option '{name}' can be {allowed}; not '{value}'.", name=name, allowed=allowed,
                                    value=value)
            merged[name] = value
        return merged

    def setup(self, state: State, rng: Rng) -> None:
        raise NotImplementedError

    # ----- reading a game --------------------------------------------------------------------------------
    def to_act(self, state: State) -> list[str]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: str) -> list[str]:
        raise NotImplementedError

    def view(self, state: State, viewer: str | None) -> dict:
        raise NotImplementedError

    def result(self, state: State) -> dict | None:
        """None while the game goes on; then ``{"winners": [seats], "scores": {seat: number}, ...}``. Optional
        keys the table shows when present: ``ranking`` (every seat, best first, when the order is not simply
        by score), ``score_text`` ({seat: words} shown instead of the bare score), ``teams`` (lists of seats
        sharing a score: a team win reads as one) and ``note`` (one sentence on how the winner was decided)."""
        raise NotImplementedError

    def teams(self, state: State) -> list[list[str]]:
        """Seats that play, score and win together (lists of seats), or [] when every seat plays for itself.
        Public: computer players read it to count a teammate's lead as their own."""
        return []

    def describe(self, before: State, seat: str, action: str, after: State) -> str:
        return f"{seat}: {action}"

    def summary(self, view: dict) -> str:
        """One or two sentences in words about a *public* view (``view(state, None)``), for an image's alt text
        (#16): what just happened, the scores, whose turn it is or who won. Never hands, seeds or deck order:
        it is only ever given the spectators' view. This default says whose turn it is or who won."""
        last = view.get("last")
        text = last.get("text") if isinstance(last, dict) and isinstance(last.get("text"), str) else None
        return summary_text(self.title, view, last=text)

    def time_limit(self, state: State) -> dict | None:
        """A time limit the rules put on the decision awaited now (a reaction window), as
        ``{"seconds": n, "action": text}``: when it runs out, every seat still in ``to_act`` plays ``action``.
        None when the rules set no limit (turn deadlines are a table setting, not a rule)."""
        return None

    def bot_actions(self, state: State, seat: str) -> list[str]:
        """The legal actions a computer player chooses among: all of them, unless the game knows that
        choosing blindly would never end it (then a beginner's sensible subset, never empty)."""
        return self.legal_actions(state, seat)

    # Parts of the state (top-level keys) that hold information hidden from some seat or from spectators:
    # hands, decks, a bag, face-down choices. ``reveals`` treats any change to them as a possible reveal.
    hidden_keys: tuple[str, ...] = ()

    def undoable(self, before: State, seat: str, action: str, after: State) -> bool:
        """May ``seat`` take back ``action`` (which led from ``before`` to ``after``)? Issue #12: undo must never
        let anyone replay knowing something they did not know. So never across a random event (the generator
        moved: a roll, a shuffle, a draw from a bag), never a private or simultaneous choice, and never once
        hidden information was revealed by the action or by what followed it by itself (``reveals``)."""
        if before["rng"] != after["rng"]:
            return False
        if self.private_actions(before, seat) or len(self.to_act(before)) != 1:
            return False
        return not self.reveals(before, after)

    def reveals(self, before: State, after: State) -> bool:
        """Might something hidden from a seat or a spectator in ``before`` be visible to them in ``after``?

        The default is sound for a game whose hidden information all lies under ``hidden_keys``: hidden
        information can only come to light by leaving its hidden place (a card drawn, played or turned up,
        a choice revealed), so any change there counts. A game may answer more precisely itself."""
        return any(before[k] != after[k] for k in self.hidden_keys)

    def determinize(self, state: State, seat: str | None, rng: Rng) -> State:
        """A copy of ``state`` in which everything ``seat`` cannot see (None: a spectator) is drawn again from
        ``rng``, consistently with what ``seat`` sees now: ``view(determinize(s, seat, r), seat) ==
        view(s, seat)``, and the copy plays on by the same rules to a legal end. The generator is reseeded
        too (future rolls and shuffles are hidden). For computer players and for checking ``undoable``."""
        new = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        new["rng"] = seed_state(rng.below(1 << 32) << 32 | rng.below(1 << 32))
        self.resample(new, seat, rng)
        return new

    def resample(self, state: State, seat: str | None, rng: Rng) -> None:
        """Redraw, in place, what ``seat`` cannot see (see ``determinize``); each game with hidden
        information writes it."""
        raise NotImplementedError(f"{self.title} cannot resample its hidden information yet")

    def private_actions(self, state: State, seat: str) -> bool:
        """True when this seat's legal actions show what only it may know (its hand, its secret pick):
        front ends then offer them only privately (an ephemeral picker), never as public buttons."""
        return False

    # ----- changing a game -------------------------------------------------------------------------------
    def apply(self, state: State, seat: str, action: str) -> State:
        if not isinstance(action, str) or not action.strip():
            raise IllegalAction("An action is a short text, such as one of the legal actions.")
        action = " ".join(action.split())
        if seat not in state["seats"]:
            raise IllegalAction("You do not hold a seat in this game.")
        if self.result(state) is not None:
            raise IllegalAction("The game is over.")
        if seat not in self.to_act(state):
            raise IllegalAction(self.waiting_message(state, seat))
        new = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))  # a deep copy, 5× deepcopy's speed
        self.play(new, seat, action)
        return new

    def waiting_message(self, state: State, seat: str) -> str:
        """Why ``seat`` may not act now (a game with simultaneous choices may say more)."""
        return N_("It is not your turn.")

    def play(self, state: State, seat: str, action: str) -> None:
        """Carry out one action on ``state`` (already a private copy); raise IllegalAction if it is not legal."""
        raise NotImplementedError

    # ----- saving a game ---------------------------------------------------------------------------------
    def dump(self, state: State) -> str:
        return json.dumps(state, sort_keys=True, separators=(",", ":"))

    def load(self, text: str) -> State:
        """A saved state, brought up to the present shape (``upgrades``); ``UnknownRules`` for a state from a
        newer Teahouse, which is left as it is."""
        state = json.loads(text)
        if not isinstance(state, dict) or state.get("game") != self.key:
            raise ValueError(f"not a saved {self.title} game")
        return self.upgrade(state)

    def upgrade(self, state: State) -> State:
        """``state`` (shape 1 when it has no ``shape``) converted in place, one shape at a time."""
        shape = state.get("shape", 1)
        if not isinstance(shape, int) or shape < 1:
            raise ValueError(f"not a saved {self.title} game (shape {shape!r})")
        if shape > self.shape:
            raise UnknownRules(self.title, "state shape", shape, self.shape)
        while shape < self.shape:
            self.upgrades[shape](state)
            shape += 1
            state["shape"] = shape
        self.check_rules(state.get("rules"))
        return state

    def __repr__(self) -> str:
        return f"<Game {self.key}>"


def summary_text(title: str, view: dict, *, last: str | None = None, scores: dict | None = None,
                 extra: str | None = None) -> str:
    """The sentences of ``Game.summary``: '<title>. <last>. <extra>. Scores: a 3, b 2. b to play.'"""
    parts = [f"{title}."]
    for text in (last, extra):
        if text:
            parts.append(text.strip().rstrip(".") + ".")
    if scores:
        parts.append(N_("Scores: {scores}.").format(scores=", ".join(f"{s} {n}" for s, n in scores.items())))
    res = view.get("result")
    to_act = view.get("to_act") or []
    if isinstance(res, dict) and res.get("winners"):
        winners = res["winners"]
        teams = [t for t in res.get("teams") or [] if set(t) & set(winners)]
        if len(teams) == 1 and sorted(teams[0]) == sorted(winners):
            if len(winners) == 2:
                parts.append(N_("Game over: team {first} and {second} wins.").format(first=winners[0],
                                                                                    second=winners[1]))
            else:
                parts.append(N_("Game over: team {winners} wins.").format(winners=" and ".join(winners)))
        elif len(winners) == 1:
            parts.append(N_("Game over: {winner} wins.").format(winner=winners[0]))
        elif len(winners) == 2:
            parts.append(N_("Game over: {first} and {second} share the win.").format(first=winners[0],
                                                                                    second=winners[1]))
        else:
            parts.append(N_("Game over: {winners} share the win.").format(winners=" and ".join(winners)))
    elif view.get("over") or view.get("phase") == "over":
        parts.append(N_("Game over."))
    elif len(to_act) == 1:
        parts.append(N_("{seat} to play.").format(seat=to_act[0]))
    elif to_act:
        parts.append(N_("{seats} to choose.").format(seats=", ".join(to_act)))
    return " ".join(parts)
