"""After the game (issues #37, #46): ``/game analysis``, where an ended game was won — each person's decisions
judged from the view their seat had then, in the game's own currency and in win chance (engine/ai/analysis.py):
each player's accuracy and what their moves cost on average beside the hard computer's, their costliest moves
with the better move, a graph of each player's win chance (render/analysis.py), and each move's verdict in
the review.

It never slows play:

- An analysis runs in the background, in worker processes at the lowest priority (``os.nice(19)``, and
  SCHED_IDLE on Linux): the bot's own process and its image workers always come first, and the search never
  holds the bot's interpreter lock. Decisions are judged one per job, so two analyses share the workers move
  by move.
- Play pauses it (``Pause``, table/analysis_workers.py): the moment a move or its pictures are under way in
  the bot (table/inflight.py), the workers are stopped (SIGSTOP); once none has been for ``PAUSE_CALM``
  seconds they go on (SIGCONT). A
  priority alone did not keep play unchanged on a 2-core machine (the cores share their caches, and a
  decision already being judged ran on while moves arrived); a stopped process takes nothing. So an analysis
  proceeds in the gaps between moves: under unbroken play it waits, and its progress message says how far
  it got. Linux only (a worker dies with the bot, ``PR_SET_PDEATHSIG``, so that a stopped one is never left
  behind); elsewhere the priority alone.
- A server has at most ``PER_SERVER`` analyses under way; a request over that limit waits in a line
  (first come, first served) and its message says how many are before it.
- The requester's message is edited in place with the progress (``follow``), at most every
  ``PROGRESS_EVERY`` seconds.
- The result is kept (the store's ``analyses``: derived data, computed again when missing or made by
  another version of the analysis), once per game and rules version; a second request answers at once.

Refused, with one line and nothing changed: a running game (an analysis would help its players beyond
``/game hint``'s rules), another server's game, a game without a decision by a person, and a second request
for a game whose analysis is under way. Nothing here logs an action: a line names the game and counts only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import i18n
from engine import GAMES, Game
from engine.ai import analysis as engine_analysis
from engine.ai.analysis import EFFORT, VERSION, Decision, Effort, Judgement
from i18n import N_, _, ngettext, pgettext
from store.store import BOT_PREFIX, GameRow

from .analysis_workers import Pause, guard_exit, worker_start
from .context import Context, speaks
from .records import REMOVED
from .replies import Picture, Private, Reply, User, Where
from .review import ENDED, Review, no_such_game

if TYPE_CHECKING:      # the process pool is imported when a first analysis runs: ~6 MB a bot does not carry
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger("teahouse.table")

PER_SERVER = 2              # analyses under way at once in one server; the next wait in line
PROGRESS_EVERY = 2.0        # seconds between two edits of a progress message (Discord limits edits)
IDLE_STOP_AFTER = 120.0     # seconds without an analysis before the worker processes exit
PLAY_CALM = 0.5             # seconds without a move saved before a decision goes to a worker (play first)
PLAY_WAIT = 5.0             # the longest a decision waits for that calm
MOST_SHOWN = 3              # costliest moves named per player (2 from five players up: a message's length)

NONE_TO_ANALYSE = N_("There is no game in this channel to analyse; `/game analysis game:<number>` analyses another "
                     "game of this server.")


def default_workers() -> int:
    """``ANALYSIS_WORKERS``, else one per core: at the lowest priority, they only take what play leaves."""
    chosen = os.getenv("ANALYSIS_WORKERS", "").strip()
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    return max(1, os.cpu_count() or 1)


@dataclass
class Ticket:
    """An analysis under way that a front end follows (``Analyses.follow``): the game it is of."""
    game_id: int


@dataclass
class Job:
    row: GameRow
    game: Game
    decisions: list[Decision]
    dumps: list[str]
    moves: int
    done: int = 0
    status: str = "queued"              # queued, running, done, failed
    judgements: list[dict] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    began: float = 0.0

    def touch(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


class Analyses:
    def __init__(self, ctx: Context, reviews: Review):
        self.ctx = ctx
        self.reviews = reviews
        reviews.analyses = self
        self.effort: Effort = EFFORT
        self.workers = 0                    # processes: 0 judges in threads (tests, scripts); see ``use_processes``
        self._pool: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._jobs: dict[int, Job] = {}                  # under way or waiting, by game id
        self._lines: dict[str | None, list[int]] = {}    # per server: the games waiting, in order
        self._tasks: set[asyncio.Task] = set()
        self._idle: asyncio.TimerHandle | None = None
        # a front end's words for an action (game, action, public view) → text, as its buttons read (Discord's)
        self.label: Callable[[str, str, dict], str] | None = None
        self.stats = {"judged": 0, "analyses": 0, "pauses": 0, "paused": 0.0}   # paused: seconds, in all
        self._pause: Pause | None = None

    # ----- workers -------------------------------------------------------------------------------------
    def use_processes(self, workers: int | None = None) -> None:
        """Judge in worker processes from now on (the bot, the console): ``workers`` of them, else
        ``default_workers()``. Without this, decisions are judged in threads (tests)."""
        self.workers = workers or default_workers()

    def _executor(self) -> ProcessPoolExecutor | None:
        if not self.workers:
            return None
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # spawn: never fork a running event loop; each worker lowers its own priority first, and tells its
            # process id, so that play pauses it (``Pause``): the pool's own list of its processes is private
            spawn = multiprocessing.get_context("spawn")
            pids = spawn.SimpleQueue()
            self._pool = ProcessPoolExecutor(self.workers, mp_context=spawn, initializer=worker_start,
                                             initargs=(pids, os.getpid()))
            self._pause = Pause(pids, self.workers, asyncio.get_running_loop(), self.stats)
            guard_exit()
        return self._pool

    def worker_pids(self) -> list[int]:
        """The worker processes that play pauses (tests, benchmarks)."""
        return self._pause.pids() if self._pause is not None else []

    def _shut(self, cancel: bool = False, wait: bool = False) -> None:
        """The worker processes continued if stopped, then told to exit."""
        pool, self._pool = self._pool, None
        pause, self._pause = self._pause, None
        if pause is not None:
            pause.close()
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel)

    def _slots_(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(max(1, self.workers or 1))
        return self._slots

    def stop(self, wait: bool = False) -> None:
        """The worker processes exit (at shutdown, or idle), continued first if play had paused them; analyses
        under way are dropped (nothing stored). ``wait``: until they have exited (a benchmark's count)."""
        for task in list(self._tasks):
            task.cancel()
        self._shut(cancel=True, wait=wait)

    def _maybe_sleep(self) -> None:
        """With no analysis left, the workers exit after IDLE_STOP_AFTER seconds (a quiet bot is one process)."""
        if self._jobs or self._pool is None:
            return
        if self._idle is not None:
            self._idle.cancel()

        def sleep():
            if not self._jobs and self._pool is not None:
                self._shut()
        self._idle = asyncio.get_running_loop().call_later(IDLE_STOP_AFTER, sleep)

    # ----- asking ----------------------------------------------------------------------------------------
    @speaks
    async def analysis(self, where: Where, user: User, game_id: int | None = None) -> Reply:
        """The analysis of an ended game (the channel's latest, or the server's game ``game_id``), privately:
        at once when it is kept, else a progress message whose ``analysis`` ticket a front end follows."""
        ctx, store = self.ctx, self.ctx.store
        row, length = await ctx.game_and_length(where, game_id)
        refused = self._refused(where, user, game_id, row)
        if refused:
            return refused
        game, _now = ctx.state_of(row)
        stored = await self._stored(row)
        if stored is not None:
            return await self._result(row, game, user, stored["data"])
        job = self._jobs.get(row.id)
        if job is not None:
            return Reply.fail(user.id, _("The game #{id} is already being analysed ({done} of {n} decisions); the "
                                         "result comes in that message. Ask again once it is done.", id=row.id,
                                         done=job.done, n=len(job.decisions)), game_id=row.id)
        replayed = await self.reviews.replayed(row, game, length)
        if replayed is None:
            return Reply.fail(user.id, _("Sorry, this game cannot be analysed: its record does not replay to "
                                         "where it stands."), game_id=row.id)
        entries = await store.log(row.id, limit=length)
        humans = people(row, entries)
        moves = [(e.seat, e.action) for e in replayed.moves]
        found = await asyncio.to_thread(engine_analysis.decisions, game, replayed.dumps, moves,
                                        set(humans))
        found = [d for d in found if humans[d.seat] is None or replayed.moves[d.step - 1].seq < humans[d.seat]]
        if not found:
            return Reply.fail(user.id, _("The game #{id} has no decision by a person to analyse (only computers "
                                         "played, or every move was the only one possible).", id=row.id),
                              game_id=row.id)
        if row.id in self._jobs:                  # asked twice at the same moment: the first one goes on
            return Reply.fail(user.id, _("The game #{id} is already being analysed; the result comes in that "
                                         "message.", id=row.id), game_id=row.id)
        job = Job(row, game, found, replayed.dumps, len(replayed.moves))
        self._jobs[row.id] = job
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self._lines.setdefault(row.guild, []).append(row.id)
        log.info("game %s: analysis asked (%d decisions)", row.id, len(found))
        self._pump(row.guild)
        reply = Reply(game_id=row.id, status=row.status, private=[Private(user.id, self._progress_text(job))])
        reply.analysis = Ticket(row.id)
        return reply

    def _refused(self, where: Where, user: User, game_id: int | None, row: GameRow | None) -> Reply | None:
        missing = no_such_game(where, user, game_id, row, NONE_TO_ANALYSE)
        if missing is not None:
            return missing
        if row.state is None:
            return Reply.fail(user.id, _("The game #{id} never started: there is nothing to analyse.", id=row.id),
                              game_id=row.id)
        if row.status not in ENDED:
            return Reply.fail(user.id, _("The game #{id} is still being played: an analysis would help its players "
                                         "beyond what `/game hint` allows. Ask again once it has ended.",
                                         id=row.id), game_id=row.id)
        if row.game not in GAMES:
            return Reply.fail(user.id, _("The game #{id} is of a kind this Teahouse does not know.", id=row.id),
                              game_id=row.id)
        return None

    async def _stored(self, row: GameRow) -> dict | None:
        stored = await self.ctx.store.analysis(row.id, row.rules or 1)
        if stored is None or stored["engine"] != VERSION:
            return None
        return stored

    async def judgements(self, row: GameRow) -> dict[int, Judgement]:
        """A game's kept judgements by move number (empty when it has not been analysed): for the review."""
        if row.status not in ENDED:
            return {}
        stored = await self._stored(row)
        if stored is None:
            return {}
        return {j["step"]: Judgement.from_dict(j) for j in stored["data"]["judgements"]}

    # ----- the line and the work -----------------------------------------------------------------------
    def _pump(self, guild: str | None) -> None:
        """Start the server's next analyses while fewer than PER_SERVER are under way."""
        line = self._lines.get(guild, [])
        running = sum(1 for gid in line if self._jobs[gid].status == "running")
        for gid in line:
            if running >= PER_SERVER:
                break
            job = self._jobs[gid]
            if job.status == "queued":
                job.status, job.began = "running", time.perf_counter()
                running += 1
                task = asyncio.get_running_loop().create_task(self._run(job), name=f"analysis-{gid}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        for gid in line:                       # the places in line changed: the waiting messages say so
            self._jobs[gid].touch()

    async def _run(self, job: Job) -> None:
        row = job.row
        try:
            results: dict[int, dict | None] = {}
            todo = iter(job.decisions)

            async def worker():
                for decision in todo:
                    results[decision.step] = await self._judge(row.game, decision, seed_of(row.id))
                    job.done += 1
                    job.touch()
            await asyncio.gather(*(worker() for _ in range(max(1, self.workers or 1))))
            judged = [results[d.step] for d in job.decisions if results.get(d.step) is not None]
            seconds = time.perf_counter() - job.began
            data = {"judgements": judged, "moves": job.moves, "effort": vars_of(self.effort)}
            await self.ctx.store.save_analysis(row.id, row.rules or 1, engine=VERSION, moves=job.moves, data=data,
                                               seconds=seconds, now=self.ctx.clock())
            job.judgements, job.status = judged, "done"
            self.stats["analyses"] += 1
            log.info("game %s: analysed %d decisions in %.1f s", row.id, len(judged), seconds)
        except asyncio.CancelledError:
            job.status = "failed"
            raise
        except Exception:
            job.status = "failed"
            log.exception("game %s: the analysis failed", row.id)
        finally:
            self._jobs.pop(row.id, None)
            line = self._lines.get(row.guild, [])
            if row.id in line:
                line.remove(row.id)
            if not line:
                self._lines.pop(row.guild, None)
            job.touch()
            with contextlib.suppress(RuntimeError):
                self._pump(row.guild)
                self._maybe_sleep()

    async def _judge(self, key: str, decision: Decision, seed: str) -> dict | None:
        async with self._slots_():
            pool = self._executor()
            if pool is None:
                done = await asyncio.to_thread(engine_analysis.judge_dumped, key, decision, seed, self.effort)
            else:
                await self.after_play()
                loop = asyncio.get_running_loop()
                done = await loop.run_in_executor(pool, engine_analysis.judge_dumped, key, decision, seed,
                                                  self.effort)
        self.stats["judged"] += 1
        return done

    async def after_play(self) -> float:
        """Play first: a decision is handed to a worker once no move has been saved for PLAY_CALM seconds, or
        after PLAY_WAIT seconds at most (a server that never pauses still gets its analysis, more slowly).
        Even at the lowest priority a worker slows a move's save and picture on a small machine (the cores
        share their caches). ``Pause`` now stops the workers while a move is in flight; this wait still keeps
        new decisions from starting while moves come thick and fast, so that the workers run less in the
        short gaps between moves (bench/pause.py: half the decisions judged during a burst of play). Returns
        the seconds waited."""
        waited = 0.0
        while waited < PLAY_WAIT:
            quiet = time.monotonic() - self.ctx.last_played
            if quiet >= PLAY_CALM:
                break
            step = min(PLAY_CALM - quiet, PLAY_WAIT - waited)
            await asyncio.sleep(step)
            waited += step
        return waited

    # ----- following ------------------------------------------------------------------------------------
    async def follow(self, ticket: Ticket, user: User) -> AsyncIterator[Reply]:
        """The replies that replace the requester's progress message: the progress while it changes (at most
        every PROGRESS_EVERY seconds), then the result (or why there is none)."""
        job = self._jobs.get(ticket.game_id)
        last, shown_at = None, 0.0
        while job is not None and job.status in ("queued", "running"):
            changed = job.changed
            text = self._progress_text(job)
            now = time.monotonic()
            if text != last and now - shown_at >= PROGRESS_EVERY:
                last, shown_at = text, now
                yield Reply(game_id=ticket.game_id, private=[Private(user.id, text)])
            wait = max(0.05, PROGRESS_EVERY - (time.monotonic() - shown_at)) if text != last else None
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), wait)
        row = await self.ctx.store.game(ticket.game_id)
        stored = await self._stored(row) if row is not None else None
        if stored is None:
            yield Reply.fail(user.id, _("Sorry, the analysis of game #{id} failed; nothing was kept. Try again "
                                        "later.", id=ticket.game_id), game_id=ticket.game_id)
            return
        game = GAMES[row.game]
        yield await self._result(row, game, user, stored["data"])

    async def wait(self, game_id: int) -> None:
        """Until the game's analysis under way (if any) is over (tests, scripts)."""
        while (job := self._jobs.get(game_id)) is not None:
            await job.changed.wait()

    def _progress_text(self, job: Job) -> str:
        row = job.row
        with i18n.speaking(i18n.user_locale()):
            head = _("🔬 Analysis of **{title}** #{id}", title=job.game.title, id=row.id)
            if job.status == "queued":
                line = self._lines.get(row.guild, [])
                before = sum(1 for gid in line[:line.index(row.id)] if self._jobs[gid].status == "queued") \
                    if row.id in line else 0
                ahead = sum(1 for gid in line if self._jobs[gid].status == "running")
                if before:
                    where = ngettext("waiting in line: {n} analysis of this server is before it.",
                                     "waiting in line: {n} analyses of this server are before it.", before)
                else:
                    where = ngettext("waiting in line: next, once the {n} analysis under way in this server ends.",
                                     "waiting in line: next, once one of the {n} analyses under way in this "
                                     "server ends.", max(ahead, 1))
                return pgettext("analysis", "{head}: {where}", head=head, where=where)
            n = len(job.decisions)
            bar = "▰" * round(10 * job.done / n) + "▱" * (10 - round(10 * job.done / n))
            return pgettext("analysis", "{head}: {bar} {done} of {n} decisions judged, in the background.",
                            head=head, bar=bar, done=job.done, n=n)

    # ----- the result --------------------------------------------------------------------------------------
    def words(self, row: GameRow, game: Game, dump: str) -> Callable[[str], str]:
        """How the reader reads an action of the state ``dump``: as its button reads, names for seat ids."""
        table = game.view(game.load(dump), None) if self.label else None

        def shown(action: str) -> str:
            with i18n.playing(row.game):
                text = self.label(row.game, action, table) if self.label else i18n.line(action)
            return self.ctx.names_in(text, row)
        return shown

    async def _result(self, row: GameRow, game: Game, user: User, data: dict) -> Reply:
        judgements = [Judgement.from_dict(j) for j in data["judgements"]]
        moves = int(data.get("moves") or 0)
        seats = [s.user_id for s in row.seats]
        judged = [s for s in seats if any(j.seat == s for j in judgements)]
        players = len(seats)
        summary = engine_analysis.summarise(game.key, players, judgements, judged,
                                            MOST_SHOWN if len(judged) <= 4 else 2)
        length = await self.ctx.store.log_length(row.id)
        replayed = await self.reviews.replayed(row, game, length)
        final = game.load(replayed.dumps[-1]) if replayed is not None else game.load(row.state)
        result = game.result(final) if row.status == "finished" else None
        curves = engine_analysis.curves(judgements, seats, moves, result, game.teams(final))
        names = self.ctx.text_names(row)
        plain = self.ctx.seat_names(row)
        locale = i18n.user_locale()
        with i18n.speaking(locale), i18n.playing(row.game):
            lines = [pgettext("analysis", "🔬 **{title}** #{id} — where it turned (from what each player could "
                                          "see)", title=game.title, id=row.id)]
            yardstick = engine_analysis.by_size(engine_analysis.HARD_COST, game.key, players)
            for s in judged:
                counts = summary.marks[s]
                parts = [ngettext("{n} blunder", "{n} blunders", counts["blunder"]) if counts["blunder"] else "",
                         ngettext("{n} mistake", "{n} mistakes", counts["mistake"]) if counts["mistake"] else "",
                         ngettext("{n} inaccuracy", "{n} inaccuracies", counts["inaccuracy"])
                         if counts["inaccuracy"] else ""]
                marked = ", ".join(p for p in parts if p) or _("no marked move")
                lines.append(_("**{name}**: accuracy {accuracy} · lost {cost} a move on average (the hard "
                               "computer: {hard}) · {marks}", name=names.get(s, s),
                               accuracy=f"{summary.accuracy[s]:.0f}",
                               cost=amount(game.key, summary.cost[s] or 0.0), hard=number(yardstick),
                               marks=marked))
                for j in summary.costliest[s]:
                    shown = self.words(row, game, replayed.dumps[j.step - 1]) if replayed is not None else \
                        (lambda a: self.ctx.names_in(a, row))
                    lines.append(_("  · move {k}: {action} ({mark}, −{cost}) — better: {better}", k=j.step,
                                   action=shown(j.action), mark=mark_word(j.mark),
                                   cost=amount(game.key, j.cost), better=shown(j.best)))
            lines.append(_("`/game review game:{id}` shows each move's verdict.", id=row.id))
            text = "\n".join(lines)
            picture = None
            if self.ctx.render:
                picture = self._picture(row, game, final, judgements, curves, moves, plain, locale)
        return Reply(game_id=row.id, status=row.status, private=[Private(user.id, text[:2000], picture)])

    def _picture(self, row: GameRow, game: Game, final, judgements: list[Judgement], curves: dict, moves: int,
                 names: dict[str, str], locale: str) -> Picture:
        seats = [s.user_id for s in row.seats]
        public = game.view(final, None)
        pagodas = public.get("pagodas") if game.key == "seikatsu" and isinstance(public.get("pagodas"), dict) \
            else {}
        series = []
        for s, points in curves.items():
            series.append({"seat": s, "name": names.get(s, s), "index": seats.index(s),
                           "pagoda": pagodas.get(s), "points": [[k, round(v, 4)] for k, v in points],
                           "marks": [[j.step, round(j.after, 4), j.mark] for j in judgements
                                     if j.seat == s and j.mark]})
        leaders = engine_analysis.leaders(curves, moves)
        alt = self._alt(game, row, names, leaders, curves, moves)
        job_data = {
            "title": _("{title} #{id}: win chance", title=game.title, id=row.id),
            "moves": moves, "series": series,
            "words": {"move": _("move"), "marks": {m: mark_word(m) for m in engine_analysis.MARKS},
                      "chance": _("win chance")},
        }
        return Picture(f"analysis-{row.id}.png", job=("analysis", job_data, {}, None, locale),
                       key=("analysis", row.id, locale), alt=alt)

    @staticmethod
    def _alt(game: Game, row: GameRow, names: dict[str, str], leaders: list, curves: dict, moves: int) -> str:
        thirds = [_("in the opening"), _("in the middle game"), _("in the end")]
        said = []
        if len(leaders) == len(thirds) and leaders[0] is not None and len(set(leaders)) == 1:
            said.append(_("{name} led from start to end", name=names.get(leaders[0], leaders[0])))
        else:
            for third, seat in zip(thirds, leaders, strict=False):
                if seat is not None:
                    said.append(_("{name} led {when}", name=names.get(seat, seat), when=third))
        text = _("A graph of each player's win chance over the {n} moves of {title} #{id}.", n=moves,
                 title=game.title, id=row.id)
        if said:
            text += " " + "; ".join(said) + "."
        if row.result and row.result.get("winners"):
            text += " " + _("{names} won.", names=", ".join(names.get(w, w) for w in row.result["winners"]))
        return text[:1024]

    def verdict(self, row: GameRow, game: Game, dump: str, j: Judgement) -> str:
        """A review step's verdict on its move (``dump``: the state before it), in the current language: what
        it cost in the game's currency and in win chance, and the better move."""
        shown = self.words(row, game, dump)
        if j.action == j.best or j.cost < 0.05:
            return _("🔬 The best move the analysis found (win chance {chance}).", chance=percent(j.after))
        if not j.mark:
            return _("🔬 Fine: {cost} below **{better}** (win chance {after}; with it {before}).",
                     cost=amount(game.key, j.cost), better=shown(j.best), after=percent(j.after),
                     before=percent(j.before))
        return _("🔬 {mark}: −{cost}, win chance {before} → {after}; better: **{better}**.",
                 mark=mark_word(j.mark).capitalize(), cost=amount(game.key, j.cost), before=percent(j.before),
                 after=percent(j.after), better=shown(j.best))



def seed_of(game_id: int) -> str:
    """The seed of a game's analysis (a decision's is this and its move number): never the game's own seed."""
    return f"analysis:{game_id}:{VERSION}"


def mark_word(mark: str) -> str:
    return {"inaccuracy": pgettext("analysis", "inaccuracy"), "mistake": pgettext("analysis", "mistake"),
            "blunder": pgettext("analysis", "blunder")}.get(mark, mark)


def number(value: float) -> str:
    """A cost as a player reads it: one decimal under 10, none above; Italian writes a decimal comma."""
    text = f"{value:.1f}" if value < 9.95 else f"{value:.0f}"
    return text.replace(".", ",") if i18n.current().startswith("it") else text


def amount(key: str, value: float) -> str:
    """``value`` in the currency of the game ``key`` (engine.ai.analysis.CURRENCY), in words: "2.4 points"."""
    unit = engine_analysis.CURRENCY[key].unit if key in engine_analysis.CURRENCY else "points"
    shown = number(value)
    n = 1 if shown == "1" else 2         # a plural form for every amount but exactly one
    if unit == "cards":
        return ngettext("{amount} card", "{amount} cards", n, amount=shown)
    if unit == "gems":
        return ngettext("{amount} gem", "{amount} gems", n, amount=shown)
    if unit == "steps":
        return ngettext("{amount} step", "{amount} steps", n, amount=shown)
    return ngettext("{amount} point", "{amount} points", n, amount=shown)


def percent(value: float) -> str:
    return f"{min(max(value, 0.0), 1.0):.0%}"


def people(row: GameRow, entries) -> dict[str, int | None]:
    """The seats a person played, each with the log number (seq) of its ``#removed`` entry when a computer
    took it over past a deadline (its later moves are the computer's), else None."""
    out: dict[str, int | None] = {s.user_id: None for s in row.seats if not s.user_id.startswith(BOT_PREFIX)}
    for e in entries:
        if e.action == REMOVED and e.seat in out and out[e.seat] is None:
            out[e.seat] = e.seq
    return out


def vars_of(effort: Effort) -> dict:
    return {"search": effort.search, "value": effort.value, "rollout_cap": effort.rollout_cap,
            "candidates": effort.candidates}
