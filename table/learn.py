"""Learn mode (issue #28): one person plays a game against gentle computer players and is coached privately.

- ``learn`` opens a table in the channel with the learner and computer players at ``LEVEL``, unrated, hints
  on, marked as a learn table (the unseen option ``LEARN``, kept with the table's options), and starts it.
- Before each of the learner's decisions they get, privately, what the decision means (a few sentences per
  kind of decision from ``data/learn/<game>.json``, in their language) and the hint engine's two best choices
  with their win estimates (``engine.ai.analyse`` at ``hard``, run off the event loop on what the learner sees).
- After each of their moves, one line when it was clearly weaker than the best (``weaker``), naming the better
  move. The analysis made for the hint is kept (``CACHE`` entries), so the move is judged without a second
  search.
- At the end, privately: who won, the scores, how often the learner chose the hint's top move, and a pointer
  to ``/game review``.

Coaching reaches the learner through ``Play.coached`` (play.py), which every move, undo and start of a learn
table passes through; it is only ever a ``Private`` part of a reply, never the channel's. How often the learner
followed the hint is kept in memory only: a restart in the middle of a game counts the decisions since.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from pathlib import Path

import i18n
from engine import GAMES, Game, ai
from engine.core import lower
from i18n import _, ngettext, pgettext
from store.rows import BOT_PREFIX, GameRow, Seat

from .context import Context, speaks
from .lobby import Lobby
from .play import Play
from .records import LEARN
from .replies import Private, Reply, User, Where
from .texts import BOT_NAME, and_list

log = logging.getLogger("teahouse.table")

LEARN_DIR = Path(__file__).resolve().parent.parent / "data" / "learn"
LEVEL = "easy"            # the computers' level: a beginner's moves, gentle for someone learning the rules
HINT_LEVEL = "hard"       # the search behind the hints and the comments, as /game hint's
# A move is "clearly weaker" when the search's win estimate for it is at least WEAKER below that of its
# favourite (the most visited action), and both were tried at least MIN_VISITS times: fewer visits leave
# the estimate too rough to tell a learner off (a move the search hardly tried gets no comment).
WEAKER = 0.15
MIN_VISITS = 10
CACHE = 256               # analyses kept (one per decision awaiting a learner: a few per table)
MAX_TEXT = 320            # characters of one explanation (tests/test_learn.py holds the data to it)
# a game's options for learning, where its defaults would leave nothing to decide: MyWuXing's default
# version (Learn WuXing) only reveals cards, so a learner plays Think, with choices to explain
GAME_OPTIONS = {"mywuxing": {"version": "think"}}


# ----- what the decision is ---------------------------------------------------------------------------------
def decision(game: Game, state, seat: str) -> str:
    """The kind of decision ``seat`` faces now (a key of ``data/learn/<game>.json``), read from its own view
    so it never depends on what it cannot see."""
    view = game.view(state, seat)
    phase = view.get("phase")
    if game.key == "wassamasaw":
        return "place" if view.get("held") else "draft"
    if game.key == "wagara" and phase == "act":
        turn = view.get("turn") or {}
        return "cloud" if turn.get("card") == "cloud" else "act"
    if game.key == "mywuxing" and phase == "choose":
        if view.get("version") == "learn":
            return "reveal"
        verb = {"dragon": "add", "star": "discard"}.get(view.get("universe_card"))
        return verb or ("choose_player" if view.get("mode") == "player" else "choose_universe")
    if game.key == "wurrm" and phase in ("wish", "reroll") and view.get("attack"):
        return f"attack_{phase}"
    return str(phase)


@cache
def explanations(game_key: str) -> dict[str, dict[str, str]]:
    """A game's explanations: decision kind → language → text (empty when the game has none)."""
    path = LEARN_DIR / f"{game_key}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def explanation(game_key: str, kind: str, locale: str) -> str | None:
    """The explanation of a kind of decision in ``locale``, else in English, else None."""
    texts = explanations(game_key).get(kind) or {}
    return texts.get(locale) or texts.get(i18n.DEFAULT)


def weaker(stats: ai.Stats, action: str) -> tuple[str, float, float] | None:
    """(the better move, its win estimate, ``action``'s) when ``action`` was clearly weaker than the search's
    favourite (see WEAKER, MIN_VISITS); None when it was the favourite, close to it, or too little tried."""
    if not stats.actions or action == stats.best:
        return None
    best, best_visits, best_rate = stats.actions[0]
    mine = next(((n, w) for a, n, w in stats.actions if a == action), None)
    if mine is None or mine[0] < MIN_VISITS or best_visits < MIN_VISITS:
        return None
    return (best, best_rate, mine[1]) if best_rate - mine[1] >= WEAKER else None


def percent(rate: float) -> str:
    return f"{min(max(rate, 0.0), 1.0):.0%}"


class Learn:
    def __init__(self, ctx: Context, lobby: Lobby, play: Play):
        self.ctx = ctx
        self.lobby = lobby
        self.play = play
        play.coach = self
        self._analyses: OrderedDict[tuple[int, int, str], ai.Stats | None] = OrderedDict()
        self._tally: dict[tuple[int, str], list[int]] = {}   # (game, learner) → [top choices, real choices]
        # a front end's words for an action (game, action, public view) → text, when its buttons have their
        # own (Discord's); else the engine's line translated
        self.label: Callable[[str, str, dict], str] | None = None

    # ----- opening a learn table ---------------------------------------------------------------------------
    @speaks
    async def learn(self, where: Where, user: User, game_key: str, computers: int = 1,
                    parent_channel: str | None = None) -> Reply:
        """Open and start a learn table in ``where``: ``user`` against ``computers`` computer players."""
        ctx = self.ctx
        game = ctx.game_of(game_key)
        if game is None:
            return Reply.fail(user.id, _("There is no game called '{name}'. Games: {games}.", name=game_key,
                                         games=", ".join(sorted(GAMES))))
        low, high = max(1, game.min_players - 1), game.max_players - 1
        if not low <= computers <= high:
            return Reply.fail(user.id, _("{title} can be learnt against {low} to {high} computer players.",
                                         title=game.title, low=low, high=high))
        options = {**game.check_options(GAME_OPTIONS.get(game.key)), "hints": True, "rated": False, LEARN: True}
        async with ctx.lock(where.channel):
            row = await self.lobby.create(where, user, game, options, parent_channel)
            if isinstance(row, Reply):
                return row
            # stored in English (the level is read back from it); shown translated, as any computer's
            seats = [Seat(f"{BOT_PREFIX}{n}", BOT_NAME.format(n=n, level=LEVEL), True)
                          for n in range(1, computers + 1)]
            row = await ctx.store.update_lobby(row, seats=row.seats + seats, options=row.options,
                                               host=row.host, now=ctx.clock())
            begun = await self.lobby.begin(row, user)
        log.info("game %s: %s opened a %s learn table", row.id, user.id, game.key)
        reply = await self.lobby.begun(begun, user)
        if reply.ok and reply.text:
            reply.text = _("🌱 {name} is learning {title} against the computer; the tips go to them alone.",
                           name=ctx.shown(user.name), title=game.title) + "\n" + reply.text
        return reply

    # ----- coaching -----------------------------------------------------------------------------------------
    async def coach(self, reply: Reply, row: GameRow, game: Game, state, user: User, move=None) -> None:
        """Add ``user``'s coaching to ``reply`` (Play.coached): the comment on ``move``, then what the next
        decision means with the hint's two best choices, or the summary once the game is over."""
        seat = row.seat_of(user.id)
        if seat is None or seat.is_bot:
            return
        parts: list[str] = []
        if move is not None:
            comment = await self._judge(row, game, user.id, move)
            if comment:
                parts.append(comment)
        if row.status == "finished":
            parts.append(self._summary(row, game, state, user.id))
        elif row.status == "running" and user.id in game.to_act(state):
            parts.append(await self._decision(row, game, state, user.id))
        parts = [p for p in parts if p]       # a game with nothing to say about a decision says nothing
        if parts:
            reply.private.append(Private(user.id, "\n\n".join(parts)))

    async def analysis(self, row: GameRow, game: Game, state, seat: str, version: int) -> ai.Stats | None:
        """The hint engine's search for ``seat``'s decision at ``version`` (kept for the comment that follows;
        None for a game the computer cannot think about without peeking). Off the event loop."""
        key = (row.id, version, seat)
        if key in self._analyses:
            self._analyses.move_to_end(key)
            return self._analyses[key]
        try:
            stats = await asyncio.to_thread(ai.analyse, game, state, seat, HINT_LEVEL,
                                            f"{row.id}:{version}:learn:{seat}", **self.ctx.ai_options)
        except NotImplementedError:
            stats = None
        self._analyses[key] = stats
        while len(self._analyses) > CACHE:
            self._analyses.popitem(last=False)
        return stats

    def _words(self, row: GameRow, game: Game, state):
        """How the learner reads an action of ``state`` on its button: their language, names for seat ids."""
        table = game.view(state, None) if self.label else None

        def shown(action: str) -> str:
            return self.ctx.names_in(self.label(row.game, action, table) if self.label else i18n.line(action), row)
        return shown

    async def _decision(self, row: GameRow, game: Game, state, seat: str) -> str:
        stats = await self.analysis(row, game, state, seat, row.version)
        with i18n.speaking(i18n.user_locale()), i18n.playing(row.game):
            shown = self._words(row, game, state)
            lines = []
            text = explanation(game.key, decision(game, state, seat), i18n.current())
            if text:
                lines.append(f"📘 {text}")
            if stats is not None and len(stats.actions) == 1:
                lines.append(_("💡 Only one move is possible here: **{action}**.",
                               action=shown(stats.best)))
            elif stats is not None:
                (first, _n, rate), (second, _m, other) = stats.actions[:2]
                lines.append(_("💡 The computer's favourite is **{action}** (wins about {rate}), then **{other}** "
                               "({other_rate}).", action=shown(first), rate=percent(rate),
                               other=shown(second), other_rate=percent(other)))
            return "\n".join(lines)

    async def _judge(self, row: GameRow, game: Game, seat: str, move) -> str | None:
        """The comment on the learner's move (its first step: the decision the hint was for), or None; and the
        tally of how often they chose the hint's top move."""
        version, prev, moves = move
        steps = [action for who, action, _line in moves if who == seat]
        if not steps or seat not in game.to_act(prev):
            return None
        stats = await self.analysis(row, game, prev, seat, version)
        if stats is None or len(stats.actions) < 2:
            return None
        known = {a for a, _n, _w in stats.actions}
        action = steps[0] if steps[0] in known else lower(steps[0])
        if action not in known:
            return None
        tally = self._tally.setdefault((row.id, seat), [0, 0])
        tally[0] += action == stats.best
        tally[1] += 1
        worse = weaker(stats, action)
        if worse is None:
            return None
        better, rate, mine = worse
        with i18n.speaking(i18n.user_locale()), i18n.playing(row.game):
            shown = self._words(row, game, prev)
            return _("🤔 **{action}** looked clearly weaker (wins about {rate}) than **{better}** ({better_rate}).",
                     action=shown(action), rate=percent(mine), better=shown(better), better_rate=percent(rate))

    def _summary(self, row: GameRow, game: Game, state, seat: str) -> str:
        res = game.result(state)
        names = self.ctx.text_names(row)
        top, real = self._tally.pop((row.id, seat), [0, 0])
        with i18n.speaking(i18n.user_locale()), i18n.playing(row.game):
            winners = res["winners"]
            if seat in winners and len(winners) > 1 and not res.get("teams"):
                head = _("You shared the win!")
            elif seat in winners:
                head = _("You won!")
            else:
                head = _("{names} won this time.", names=and_list(names.get(w, w) for w in winners))
            shown = res.get("score_text") or res["scores"]
            order = res.get("ranking") or sorted(res["scores"], key=lambda s: -res["scores"][s])
            order = sorted(order, key=lambda s: s not in winners)        # the winners first (a race's scores)

            def score(s):         # a game's words for a score ("3 gems") are an engine line
                value = shown[s]
                return self.ctx.said(value, row) if isinstance(value, str) else value
            scores = ", ".join(pgettext("score", "{name} {score}", name=names.get(s, s), score=score(s)) for s in order)
            lines = [_("🎓 **Your learn game of {title} is over.** {result} Scores: {scores}.", title=game.title,
                       result=head, scores=scores)]
            if real:
                lines.append(ngettext("You chose the computer's favourite move in {top} of your {n} real choice.",
                                      "You chose the computer's favourite move in {top} of your {n} real choices.",
                                      real, top=top))
            lines.append(_("Go over the game move by move with `/game review`; `/game learn` starts another."))
            return "\n".join(lines)
