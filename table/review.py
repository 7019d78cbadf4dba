"""Stepping through a game (issue #28): the picture after move k and that move's log line, for the game in the
channel or any started game of the server, named by its id.

What a review may show is decided at every call, by who asks and how the game stands at that moment:

- while the game runs, a spectator sees the table's (public) view at each step, and a seated player the
  table's or their own seat's view as it was at that step — ``game.view(state_k, seat)``, nothing more;
- once it has ended (finished or abandoned), what its export reveals: any seat's view at any step, and each
  move's action as played beside its public log line.

A seat handed to a computer past a deadline is the computer's while the game runs (as with `/game hand`), so
its former player reviews it as the table sees it until the end.

The states are rebuilt from the seed and the log once per (game, log length), in a thread, and kept dumped
(a fifth of a live state's memory; loading one back costs ~0.05 ms) in a small LRU cache; a running game whose
log grew extends its cached states instead of replaying from move 0. A step's picture is drawn in the image
workers like every other picture.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass, field

import i18n
from engine import GAMES, Game
from i18n import N_, _, ngettext, pgettext
from store.rows import GameRow, LogEntry

from .context import Context, speaks
from .records import effective_actions, rebuild, sample
from .replies import Picture, Private, Reply, ReviewPage, User, Where

log = logging.getLogger("teahouse.table")

ENDED = ("finished", "abandoned")
TABLE = "t"                    # the viewer code of the table's (public) view; a seat's is its position
MAX_JUMPS = 25                 # a select's options
CACHE_BYTES = 8 * 2**20        # dumped states kept, all games together (a move's state is 1–2 kB)
RECENT = 100                   # a server's latest games the autocomplete looks through


@dataclass
class Replayed:
    """A game rebuilt once: its state after each effective move, dumped (``dumps[0]`` the start), those
    moves, and the mark each state's round is known by (see ``round_mark``)."""
    dumps: list[str]
    moves: list[LogEntry]
    marks: list = field(default_factory=list)
    kind: str = "round"        # "round" / "hand": the view numbers them; "cycle": a new round when the turn
    #                            comes back to the first seat that played
    extended: bool = False     # made by extending a shorter rebuild (rather than from move 0)

    @property
    def size(self) -> int:
        return sum(len(d) for d in self.dumps) + 200 * len(self.moves)

    def rounds(self) -> list[tuple[int, int]]:
        """(round number, the first step of that round), in order."""
        out: list[tuple[int, int]] = []
        if self.kind == "cycle":
            first = self.marks[0] if self.marks else None
            if first is None:
                return out
            for k, mark in enumerate(self.marks):
                if k == 0 or (mark == first and self.marks[k - 1] != first):
                    out.append((len(out) + 1, k))
            return out
        seen = set()
        for k, mark in enumerate(self.marks):
            if isinstance(mark, int) and mark >= 1 and mark not in seen:
                seen.add(mark)
                out.append((mark, k))
        return out


def round_kind(public: dict) -> str:
    """How a game's rounds are told from its public view: by its own round or hand number, else by the turn."""
    if isinstance(public.get("round"), int):
        return "round"
    if isinstance(public.get("hand_number"), int):
        return "hand"
    return "cycle"


def round_mark(kind: str, game: Game, state, public: dict):
    """What tells one round from the next at ``state``: the view's number, or whose turn it is."""
    if kind == "round":
        return public.get("round")
    if kind == "hand":
        return public.get("hand_number")
    turn = public.get("turn")
    if isinstance(turn, str):
        return turn
    acting = game.to_act(state)
    return acting[0] if acting else None


def replay(game: Game, row: GameRow, entries: list[LogEntry], base: Replayed | None) -> Replayed | None:
    """The game rebuilt from its seed and log (``base``: a shorter rebuild of it to extend), or None when the
    rebuild does not end where the stored game stands (the record does not replay)."""
    moves = effective_actions(entries)
    extending = base is not None and len(moves) >= len(base.moves) and \
        all(a.seq == b.seq for a, b in zip(base.moves, moves, strict=False))
    if extending:
        # the same game further on (no move taken back since): only the new moves are applied
        dumps, marks, kind = list(base.dumps), list(base.marks), base.kind
        state = game.load(dumps[-1])
        for e in moves[len(base.moves):]:
            state = game.apply(state, e.seat, e.action)
            dumps.append(game.dump(state))
            marks.append(round_mark(kind, game, state, game.view(state, None)))
    else:
        states = rebuild(game, row, entries)
        kind = round_kind(game.view(states[0], None))
        dumps = [game.dump(s) for s in states]
        marks = [round_mark(kind, game, s, game.view(s, None)) for s in states]
    if dumps[-1] != game.dump(game.load(row.state)):
        return None
    return Replayed(dumps, moves, marks, kind, extended=extending)


def seat_code(row: GameRow, seat: str | None) -> str:
    return TABLE if seat is None else str([s.user_id for s in row.seats].index(seat))


NONE_TO_REVIEW = N_("There is no game in this channel to review; `/game review game:<number>` reviews another game "
                    "of this server.")


def no_such_game(where: Where, user: User, game_id: int | None, row: GameRow | None, none_here: str) -> Reply | None:
    """The refusal when there is no game to look at: no game #``game_id`` in this server (another server's is as
    unknown), or none in the channel (``none_here``, a template marked with ``N_``). Shared by /game review and
    /game analysis."""
    if game_id is not None and (row is None or row.guild != where.guild):
        return Reply.fail(user.id, _("There is no game #{id} in this server.", id=game_id))
    if row is None:
        return Reply.fail(user.id, _(none_here))
    return None


class Review:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._cache: OrderedDict[tuple[int, int], Replayed] = OrderedDict()
        self._building: dict[tuple[int, int], asyncio.Future] = {}
        self.built = {"rebuilt": 0, "extended": 0}      # how each cached game came to be (tests, benchmarks)
        self.analyses = None          # table/analysis.py sets itself here: an analysed game's verdicts (#37)

    # ----- the rebuilt states ----------------------------------------------------------------------------
    async def replayed(self, row: GameRow, game: Game, length: int) -> Replayed | None:
        """The game as of its first ``length`` log entries, rebuilt once: from the cache, from a build under
        way, or built now (off the event loop)."""
        key = (row.id, length)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        pending = self._building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            # the log is append-only, so its first ``length`` entries are the game as the row was read
            entries = await self.ctx.store.log(row.id, limit=length)
            base = next((r for (gid, n), r in reversed(self._cache.items()) if gid == row.id and n < length), None)
            done = await asyncio.to_thread(replay, game, row, entries, base)
            if done is None:
                log.error("game %s: its log does not replay to the stored state; no review", row.id)
            else:
                self.built["extended" if done.extended else "rebuilt"] += 1
                self._keep(key, done)
            future.set_result(done)
            return done
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as e:
            future.set_exception(e)
            future.exception()          # retrieved: a build nobody else awaited logs nothing more
            raise
        finally:
            self._building.pop(key, None)

    def _keep(self, key: tuple[int, int], done: Replayed) -> None:
        same = [k for k in self._cache if k[0] == key[0]]
        if any(n > key[1] for _gid, n in same):         # built from an older read: a longer one is kept already
            return
        for old in same:                                # a longer log supersedes the game's shorter ones
            del self._cache[old]
        self._cache[key] = done
        total = sum(r.size for r in self._cache.values())
        while total > CACHE_BYTES and len(self._cache) > 1:
            _key, dropped = self._cache.popitem(last=False)
            total -= dropped.size

    # ----- a step ----------------------------------------------------------------------------------------
    @speaks
    async def review(self, where: Where, user: User, game_id: int | None = None, step: int | None = None,
                     viewer: str = "", *, latest: bool = False, seen_by: str | None = None) -> Reply:
        """The picture after move ``step`` of a game (the channel's, or the server's game ``game_id``) and that
        move's log line, privately. Without ``step``: a running game at its latest move, an ended one at its
        start; ``latest``: at its latest move. ``viewer``: "" (the caller's own seat if they play, else the
        table), "t" (the table) or a seat's position; ``seen_by``: a seat's user id, or "table"."""
        ctx = self.ctx
        row, length = await ctx.game_and_length(where, game_id)
        refused = self._unreviewable(where, user, game_id, row)
        if refused:
            return refused
        game, _now = ctx.state_of(row)
        ended = row.status in ENDED
        seat = self._viewer(row, user, viewer, seen_by, ended)
        if isinstance(seat, Reply):
            return seat
        replayed = await self.replayed(row, game, length)
        if replayed is None:
            return Reply.fail(user.id, _("Sorry, this game cannot be reviewed: its record does not replay to "
                                         "where it stands."), game_id=row.id)
        n = len(replayed.moves)
        k = n if latest or (step is None and not ended) else 0 if step is None else step
        if not 0 <= k <= n:
            return Reply.fail(user.id, ngettext("There is no move {k} in this game: it has {n} move (0 is the "
                                                "start).", "There is no move {k} in this game: it has {n} moves "
                                                "(0 is the start).", n, k=k), game_id=row.id)
        verdicts = await self.analyses.judgements(row) if self.analyses is not None and ended and k else {}
        return self._page(row, game, replayed, user, k, seat, ended, verdicts.get(k))

    def _unreviewable(self, where: Where, user: User, game_id: int | None, row: GameRow | None) -> Reply | None:
        """Why there is nothing to review: no such game in this server (another server's is as unknown), none
        in the channel, or one that never started."""
        missing = no_such_game(where, user, game_id, row, NONE_TO_REVIEW)
        if missing is not None:
            return missing
        if row.state is None:
            if row.status == "lobby":
                return Reply.fail(user.id, _("The game #{id} has not started yet: there is nothing to review. "
                                             "`/game review game:<number>` reviews another game of this server.",
                                             id=row.id), game_id=row.id)
            return Reply.fail(user.id, _("The game #{id} was closed before it started: there is nothing to "
                                         "review.", id=row.id), game_id=row.id)
        if row.game not in GAMES:
            return Reply.fail(user.id, _("The game #{id} is of a kind this Teahouse does not know.", id=row.id),
                              game_id=row.id)
        return None

    def _viewer(self, row: GameRow, user: User, viewer: str, seen_by: str | None, ended: bool) -> str | None | Reply:
        """The seat whose view the caller gets (None: the table's), or why not. While the game runs only the
        caller's own seat, and only while it is theirs (not handed to a computer)."""
        ids = [s.user_id for s in row.seats]
        mine = row.seat_of(user.id)
        own = user.id if mine is not None and (ended or not mine.is_bot) else None
        if seen_by is not None:
            viewer = TABLE if seen_by.lower() in ("table", pgettext("value", "table").lower()) else \
                str(ids.index(seen_by)) if seen_by in ids else "?"
        if viewer == "":
            return own
        if viewer == TABLE:
            return None
        if not (viewer.isdigit() and int(viewer) < len(ids)):
            return Reply.fail(user.id, _("That view is not one of this game's: choose the table or one of its "
                                         "players."), game_id=row.id)
        seat = ids[int(viewer)]
        if not ended and seat != own:
            return Reply.fail(user.id, _("While the game runs, you may review it as the table sees it, or as your "
                                         "own seat saw it; every view opens once it has ended."), game_id=row.id)
        return seat

    def _page(self, row: GameRow, game: Game, replayed: Replayed, user: User, k: int, seat: str | None,
              ended: bool, verdict=None) -> Reply:
        ctx = self.ctx
        n = len(replayed.moves)
        state = game.load(replayed.dumps[k])
        view = game.view(state, seat)
        public = view if seat is None else game.view(state, None)
        locale = i18n.user_locale()
        rounds = replayed.rounds()
        current = next((number for number, first in reversed(rounds) if first <= k), None)
        with i18n.speaking(locale):          # all of it for the caller alone: in their language
            where = ngettext("the start, {n} move to review", "the start, {n} moves to review", n) if k == 0 \
                else _("move {k} of {n}", k=k, n=n)
            caption = ngettext("The start · {n} move", "The start · {n} moves", n) if k == 0 \
                else _("Move {k} of {n}", k=k, n=n)
            if current is not None and len(rounds) > 1:
                caption = pgettext("review", "{where} · {round}", where=caption,
                                   round=self._round_word(replayed, current))
            lines = [pgettext("review", "**{title}** #{id} — {where}", title=game.title, id=row.id, where=where)]
            if k:
                move = replayed.moves[k - 1]
                line = f"{k}. {ctx.said(move.line, row)}"
                if ended:          # the export reveals every action once the game is over: so may the review
                    line = pgettext("review", "{line} (`{action}`)", line=line,
                                    action=ctx.names_in(move.action.replace("`", "'"), row))
                lines.append(line)
                if verdict is not None:        # the game was analysed (#37): this move's verdict
                    lines.append(self.analyses.verdict(row, game, replayed.dumps[k - 1], verdict))
            names = ctx.text_names(row)
            if seat is None:
                lines.append(_("As the table sees it."))
            elif seat == user.id:
                lines.append(_("As you saw it."))
            else:
                lines.append(_("As {name} saw it.", name=names.get(seat, seat)))
            if k == n and row.status == "finished" and game.result(state) is not None:
                lines.append(ctx.result_text(row, game, state))
            elif k == n and row.status == "abandoned":
                lines.append(_("This game was abandoned."))
            text = "\n".join(lines)
            labels = ctx.seat_names(row)
            page = ReviewPage(row.id, k, n, seat_code(row, seat), ended,
                              [(TABLE, _("The table"))] + [(str(i), labels.get(s.user_id, s.user_id))
                                                           for i, s in enumerate(row.seats)] if ended else [],
                              self._jumps(row, replayed, k, labels), [s.user_id for s in row.seats])
            picture = None
            if ctx.render:
                alt = ctx.alt_text(row, game, public)
                who = "table" if seat is None else "seat-" + re.sub(r"[^A-Za-z0-9_-]", "_", seat)[:40]
                picture = Picture(f"{row.game}-{row.id}-review-{k}-{who}.png",
                                  job=(row.game, view, labels, seat, locale, str(caption)),
                                  key=("review", row.id, k, seat, locale), alt=alt)
        return Reply(game_id=row.id, status=row.status, private=[Private(user.id, text, picture)], review=page)

    @staticmethod
    def _round_word(replayed: Replayed, number: int) -> str:
        return _("Hand {n}", n=number) if replayed.kind == "hand" else _("Round {n}", n=number)

    def _jumps(self, row: GameRow, replayed: Replayed, k: int, names: dict[str, str]) -> list[tuple[str, int]]:
        """Where the select jumps: each player's move before and after this step, then the rounds' first steps
        (evenly spread when there are more than fit)."""
        out: list[tuple[str, int]] = []
        for s in row.seats:
            theirs = [i + 1 for i, e in enumerate(replayed.moves) if e.seat == s.user_id]
            before = [m for m in theirs if m < k]
            after = [m for m in theirs if m > k]
            name = names.get(s.user_id, s.user_id)
            if before:
                out.append((_("{name}: previous move ({k})", name=name, k=before[-1]), before[-1]))
            if after:
                out.append((_("{name}: next move ({k})", name=name, k=after[0]), after[0]))
        rounds = replayed.rounds()
        room = MAX_JUMPS - len(out)
        if len(rounds) > 1 and room > 0:
            for i in sample(len(rounds), room):
                number, first = rounds[i]
                word = self._round_word(replayed, number)
                out.append((pgettext("review", "{round}: the start", round=word) if first == 0 else
                            pgettext("review", "{round}: from move {k}", round=word, k=first), first))
        return out[:MAX_JUMPS]

    # ----- choosing a game -------------------------------------------------------------------------------
    @speaks
    async def recent_games(self, where: Where, user: User, current: str = "") -> list[tuple[int, str]]:
        """(id, label) of the server's latest started games whose label holds what was typed, newest first,
        at most 25 (a review's game to choose)."""
        typed = current.strip().lstrip("#").lower()
        status = {"running": pgettext("review", "running"), "finished": pgettext("review", "finished"),
                  "abandoned": pgettext("review", "abandoned")}
        out = []
        for g in await self.ctx.store.recent_games(where.guild, RECENT):
            game = GAMES.get(g["game"])
            names = ", ".join(Context.seat_name(uid, name) for uid, name in g["names"].items())
            label = pgettext("review", "#{id} {title}: {names} ({status})", id=g["id"],
                             title=game.title if game else g["game"], names=names,
                             status=status.get(g["status"], g["status"]))
            if typed in label.lower():
                out.append((g["id"], label))
        return out[:25]

