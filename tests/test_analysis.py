"""`/game analysis` (issue #37): an ended game's decisions judged from each seat's view, kept once per game and
rules version, shown in the review; a server's line; the refusals (one line, nothing changed)."""

from __future__ import annotations

import asyncio
import io
import random
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine import GAMES
from engine.ai import analysis as an
from engine.ai.analysis import Effort, Judgement
from engine.rng import Rng, seed_state
from render import render_png
from render.common import record_text
from table import Reply, TableService, User, Where, analysis_workers
from table import analysis as table_analysis
from tests.support import beginner_move, err, started

HERE = Where("c1", "g1")
ALICE, BOB, EVE = User("alice", "Alice"), User("bob", "Bob"), User("eve", "Eve")
TINY = Effort(search=8, rollout_cap=6, value=4, confirm=4, playout_cap=8)


@pytest.fixture
def asvc(store, clock):
    svc = TableService(store, clock=clock, render=True)
    svc.analyses.effort = TINY
    return svc


async def played(svc, key="mywuxing", options=None, where=HERE, moves=10_000, users=(ALICE, BOB), seed=1,
                 end=True):
    """A game between people playing the beginner's moves; abandoned after ``moves`` if still running."""
    await started(svc, *users, game=key, options=options, where=where)
    rnd, by = random.Random(seed), {u.id: u for u in users}
    for _ in range(moves):
        moved = await beginner_move(svc, where, by, rnd)
        if moved is None:
            break
        assert moved[1].ok
    row = await svc.store.latest_game(where.channel)
    if end and row.status == "running":
        assert (await svc.abandon(where, users[0], confirm=True)).ok
        row = await svc.store.game(row.id)
    return row


async def finished(svc, reply, user=ALICE):
    """The last reply of an analysis (at once, or once the one under way is over)."""
    if reply.analysis is None:
        return reply
    last = None
    async for update in svc.analyses.follow(reply.analysis, user):
        last = update
    return last


async def test_an_ended_game_is_analysed_once_kept_and_shown_in_the_review(asvc):
    row = await played(asvc, "mywuxing", {"version": "think"})
    first = await asvc.analysis(HERE, ALICE)
    assert first.ok and first.analysis is not None and "🔬" in first.private[0].text
    result = await finished(asvc, first)
    assert result.ok, result.private
    text = result.private[0].text
    assert "accuracy" in text and "Alice" in text and "Bob" in text
    # what the moves cost, in the game's own currency, beside the hard computer's (issue #46)
    assert text.count("cards a move on average (the hard computer: ") + \
        text.count("card a move on average (the hard computer: ") == 2, text
    picture = result.private[0].image
    assert picture.job[0] == "analysis" and "win chance" in picture.alt
    judged = asvc.analyses.stats["judged"]
    stored = await asvc.store.analysis(row.id, row.rules)
    assert stored["engine"] == an.VERSION and stored["data"]["judgements"]
    # a second request answers at once, from the store: no search
    again = await asvc.analysis(HERE, BOB, row.id)
    assert again.ok and again.analysis is None and "accuracy" in again.private[0].text
    assert asvc.analyses.stats["judged"] == judged
    # the review shows each judged move's verdict
    step = stored["data"]["judgements"][0]["step"]
    page = await asvc.review(HERE, ALICE, row.id, step)
    assert "🔬" in page.private[0].text
    # the picture: drawn, phone-readable (no text under 18 px)
    with record_text() as drawn:
        png = render_png(*picture.job)
    assert Image.open(io.BytesIO(png)).width == 800
    assert min(size for size, _t in drawn) >= 18


async def test_an_analysis_kept_by_the_version_before_is_computed_again_on_request(asvc):
    """Issue #46: an analysis kept by version 1 (win chance only, no cost) is not shown; asking computes it
    again by this version, and nothing else changes (the game, its log)."""
    row = await played(asvc, "mywuxing", {"version": "think"})
    old = {"judgements": [{"step": 3, "seat": ALICE.id, "action": "x", "best": "y", "before": 0.6, "after": 0.2,
                           "loss": 0.4, "mark": "blunder", "options": 2}], "moves": 9}
    await asvc.store.save_analysis(row.id, row.rules, engine=1, moves=9, data=old, seconds=1.0, now=1.0)
    log = await asvc.store.log(row.id)
    assert await asvc.analyses.judgements(row) == {}            # the review shows no verdict of the old version
    reply = await asvc.analysis(HERE, ALICE, row.id)
    assert reply.ok and reply.analysis is not None              # computed again, in the background
    result = await finished(asvc, reply)
    assert result.ok and "a move on average" in result.private[0].text
    kept = await asvc.store.analysis(row.id, row.rules)
    assert kept["engine"] == an.VERSION == 2 and all("cost" in j for j in kept["data"]["judgements"])
    assert await asvc.store.log(row.id) == log and (await asvc.store.game(row.id)).state == row.state


async def test_refusals_change_nothing(asvc, svc):
    # a running game: refused, with nothing queued
    assert (await asvc.open_table(HERE, ALICE, "mywuxing", {"version": "think"})).ok
    assert (await asvc.join(HERE, BOB)).ok
    assert (await asvc.start(HERE, ALICE)).ok
    running = await asvc.analysis(HERE, ALICE)
    assert not running.ok and "still being played" in err(running)
    assert not asvc.analyses._jobs
    row = await asvc.store.open_game(HERE.channel)
    # another server's game is unknown here
    other = await asvc.analysis(Where("c9", "g2"), EVE, row.id)
    assert not other.ok and f"no game #{row.id} in this server" in err(other)
    # an ended game without a decision by a person (abandoned before any move)
    assert (await asvc.abandon(HERE, ALICE, confirm=True)).ok
    empty = await asvc.analysis(HERE, ALICE)
    assert not empty.ok and "no decision by a person" in err(empty)
    assert await asvc.store.analysis(row.id, row.rules) is None


async def test_a_second_request_while_one_runs_is_refused_and_a_server_has_a_line(asvc):
    rows = []
    for i in range(3):
        where = Where(f"c{i}", "g1")
        rows.append(await played(asvc, "mywuxing", {"version": "think"}, where=where, seed=i))
    # no decision is judged until the line has been looked at: an analysis this small could end between two
    # requests, and the third would then start at once instead of waiting
    hold, judge = asyncio.Event(), asvc.analyses._judge

    async def held(*args):
        await hold.wait()
        return await judge(*args)
    asvc.analyses._judge = held
    replies = [await asvc.analysis(Where(f"c{i}", "g1"), ALICE) for i in range(3)]
    assert all(r.ok and r.analysis is not None for r in replies)
    # two under way at once in a server; the third waits in line, and says so
    assert sum(1 for j in asvc.analyses._jobs.values() if j.status == "running") == table_analysis.PER_SERVER
    assert "waiting in line" in replies[2].private[0].text
    again = await asvc.analysis(Where("c0", "g1"), BOB)
    assert not again.ok and "already being analysed" in err(again)
    hold.set()
    for r in replies:
        assert (await finished(asvc, r)).ok
    for row in rows:
        assert await asvc.store.analysis(row.id, row.rules) is not None


def test_marks_accuracy_and_curves():
    least = {key: marks[-1][1] for key, marks in an.THRESHOLDS.items()}
    inacc, mistake, blunder = (t for _m, t in reversed(an.THRESHOLDS["wassamasaw"]))
    assert [an.mark_of("wassamasaw", x) for x in (0.0, inacc - 0.1, inacc, mistake, blunder, 99)] == \
        ["", "", "inaccuracy", "mistake", "blunder", "blunder"]
    for key in an.THRESHOLDS:
        # every gap that could earn a mark is measured twice (a mark needs both measures)
        assert an.CONFIRM_AT[key] <= least[key] / 2 + 1e-9
        # accuracy: 100 down to the analysis's own noise, 50 for random play, falling beyond
        anchors = an.by_size(an.ACCURACY, key, 2)
        (cost_floor, cost_random), (loss_floor, loss_random) = anchors.cost, anchors.loss
        assert an.accuracy(key, 2, 0, 0) == pytest.approx(100) and an.accuracy(key, 2, 1e6, 1) < 1
        assert an.accuracy(key, 2, cost_floor, loss_floor / 100) == pytest.approx(100)
        assert an.accuracy(key, 2, cost_random, loss_random / 100) == pytest.approx(50)
        assert an.accuracy(key, 2, 2 * cost_random, loss_random / 50) < 50
    assert an.by_size(an.ACCURACY, "wagara", 5) == an.ACCURACY["wagara"][4]
    assert an.by_size(an.ACCURACY, "wassamasaw", 2) == an.ACCURACY["wassamasaw"][2]
    js = [Judgement(1, "a", "x", "x", 0.5, 0.5, 0.0), Judgement(2, "b", "y", "z", 0.6, 0.2, 0.4, "blunder",
                                                                 cost=blunder + 1, least=blunder),
          Judgement(3, "a", "x", "w", 0.7, 0.65, 0.05, cost=1.0)]
    s = an.summarise("wassamasaw", 2, js, ["a", "b"])
    assert s.marks["b"]["blunder"] == 1 and s.costliest["b"][0].step == 2 and not s.costliest["a"]
    assert s.cost["a"] == pytest.approx(0.5) and s.cost["b"] == pytest.approx(blunder + 1)
    assert s.accuracy["a"] == pytest.approx(an.accuracy("wassamasaw", 2, 0.5, 0.025))
    curves = an.curves(js, ["a", "b"], 4, {"winners": ["a"]})
    assert curves["a"][-1] == (4, 1.0) and curves["b"][-1] == (4, 0.0) and list(curves) == ["a", "b"]


def test_a_move_that_throws_away_20_points_is_a_blunder_and_the_best_move_costs_nothing():
    """Wassamasaw (a scoring game), the game's seed 4 played by the beginner's moves to move 48: Alice holds
    a Water 2 to place in row 2. On r2c2 or r2c3, circles, it keeps her sheet's pattern (her expected margin at
    the end +14 points, 200 playouts); on r2c4 it is worth -7: 21 points thrown away. The analysis, at its
    full effort, marks r2c4 a blunder (five other seeds: a cost of 21-27 points, the lesser measure 20-25), and
    the better move unmarked."""
    game = GAMES["wassamasaw"]
    state, rnd = game.new(["alice", "bob"], 4), random.Random(4)
    for _k in range(47):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.bot_actions(state, seat)))
    assert game.to_act(state) == ["alice"] and {"place r2c2", "place r2c4"} <= set(an.choices(game, state, "alice"))
    thrown = an.judge(game, state, "alice", "place r2c4", 48, "analysis:test:48")
    assert thrown.mark == "blunder" and 18 <= thrown.cost <= 30 and thrown.best in ("place r2c2", "place r2c3"), \
        thrown
    kept = an.judge(game, state, "alice", thrown.best, 48, "analysis:test:48")
    assert kept.mark == "" and kept.cost < an.THRESHOLDS["wassamasaw"][-1][1], kept


def test_a_judgement_is_deterministic_given_its_seed_and_never_reads_the_hidden_truth():
    game = GAMES["mywuxing"]
    state = game.new(["a", "b"], 5, {"version": "think"})
    seat = game.to_act(state)[0]
    action = an.choices(game, state, seat)[-1]
    one = an.judge(game, state, seat, action, 1, "s", TINY)
    assert one == an.judge(game, state, seat, action, 1, "s", TINY)
    # the other seat's hand changed: the judgement from this seat's view is the same
    other = next(s for s in state["seats"] if s != seat)
    hidden = game.determinize(state, seat, Rng({"rng": seed_state(99)}))
    assert game.view(hidden, seat) == game.view(state, seat)
    assert hidden["hands"][other] != state["hands"][other] or hidden["decks"][other] != state["decks"][other]
    assert an.judge(game, hidden, seat, action, 1, "s", TINY) == one


async def test_the_store_keeps_an_analysis_per_game_and_rules_version(any_store):
    from store.rows import Seat

    row = await any_store.create_game(guild="g", channel="c", game="mywuxing", options={}, host=Seat("a", "A"),
                                      now=1.0)
    assert await any_store.analysis(row.id, 1) is None
    await any_store.save_analysis(row.id, 1, engine=1, moves=3, data={"judgements": []}, seconds=0.5, now=2.0)
    await any_store.save_analysis(row.id, 1, engine=2, moves=3, data={"judgements": [1]}, seconds=0.5, now=3.0)
    kept = await any_store.analysis(row.id, 1)
    assert kept["engine"] == 2 and kept["data"] == {"judgements": [1]}
    assert await any_store.analysis(row.id, 2) is None


def test_planted_blunder_in_a_race_is_marked_and_the_other_seats_moves_are_not():
    """A seeded two-player WURRM World race (a race: its currency is steps), the game's seed 3, both seats
    playing the medium computer's moves: at move 33 Alice can step west, towards her Sleep space, or north-east,
    away from it (the playouts, 48 each: +4.5 and -1.7 steps at the end). Planted there, north-east is marked
    a blunder by the analysis at its full effort (a cost over 3.5 steps in both measures), and none of Bob's
    decisions before it is marked."""
    from engine.ai import choose

    game, state = GAMES["wurrm"], GAMES["wurrm"].new(["alice", "bob"], 3)
    bob = []
    for k in range(1, 33):
        seat = game.to_act(state)[0]
        moves = an.choices(game, state, seat)
        if len(moves) < 2:
            action = moves[0] if moves else game.legal_actions(state, seat)[0]
        else:
            action = choose(game, state, seat, "medium", f"t:{k}", iterations=60, timed=False)
            if seat == "bob":
                bob.append(an.judge(game, state, seat, action, k, f"analysis:test:{k}"))
        state = game.apply(state, seat, action)
    assert game.to_act(state) == ["alice"] and {"move w", "move ne"} <= set(an.choices(game, state, "alice"))
    planted = an.judge(game, state, "alice", "move ne", 33, "analysis:test:33")
    assert planted.mark == "blunder" and planted.least >= 3.5, planted
    assert len(bob) >= 10 and not [j for j in bob if j.mark], [(j.step, j.cost) for j in bob if j.mark]


def test_an_analysis_worker_takes_the_lowest_priority_there_is():
    """SCHED_IDLE on Linux (a nice-19 process kept a core long enough to double a move's p95), nice 19 anyway."""
    import subprocess

    probe = ("import os, table.analysis_workers as a; a.lowest_priority(); "
             "print(os.nice(0), getattr(os, 'sched_getscheduler', lambda p: -1)(0), getattr(os, 'SCHED_IDLE', -1))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=str(Path(__file__).resolve().parent.parent)).stdout.split()
    nice, policy, idle = map(int, out)
    assert nice == 19
    if sys.platform.startswith("linux"):
        assert policy == idle


async def test_an_analysis_lets_play_go_first(svc, monkeypatch):
    """A decision goes to a worker once no move was saved for PLAY_CALM seconds, and waits PLAY_WAIT at most."""
    import time

    from table import analysis

    monkeypatch.setattr(analysis, "PLAY_CALM", 0.2)
    monkeypatch.setattr(analysis, "PLAY_WAIT", 0.6)
    svc.last_played = 0.0
    assert await svc.analyses.after_play() == 0.0                      # nobody played: at once
    svc.last_played = time.monotonic()
    assert 0.0 < await svc.analyses.after_play() <= 0.2 + 1e-9         # a move just now: until the calm
    busy = True

    async def playing():
        while busy:
            svc.last_played = time.monotonic()
            await asyncio.sleep(0.01)
    task = asyncio.create_task(playing())
    svc.last_played = time.monotonic()
    try:
        assert await svc.analyses.after_play() == pytest.approx(0.6)      # never calm: the longest wait
    finally:
        busy = False
        await task


# ----- play pauses the analysis workers (issue #37, "it never slows play") -----------------------------------
LINUX = sys.platform.startswith("linux")


def proc_state(pid: int) -> str | None:
    """A process's state letter in /proc (R running, S sleeping, T stopped, Z ended), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


async def until(condition, timeout: float = 60.0, what: str = "the condition") -> None:
    """Wait, looking every few milliseconds, until ``condition()`` holds (never a fixed sleep)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"waited {timeout} s for {what}"
        await asyncio.sleep(0.01)


def test_play_in_flight_is_counted_by_context_managers_that_never_leak():
    from table import inflight

    told = []
    inflight.watch(told.append)
    try:
        with inflight.playing():
            with inflight.playing():            # nested: one start, one stop
                assert inflight.busy()
            assert inflight.busy()
        assert not inflight.busy() and told == [True, False]
        with pytest.raises(RuntimeError), inflight.playing():
            raise RuntimeError("a move failed")
        assert not inflight.busy() and told == [True, False, True, False]
    finally:
        inflight.unwatch(told.append)


async def test_a_move_and_the_drawing_of_its_pictures_are_play_in_flight(asvc):
    """From a move's arrival until its reply is built, and while a reply's pictures are drawn; a reply with
    nothing to draw holds nothing."""
    from table import inflight
    from table.replies import Picture

    told = []
    inflight.watch(told.append)
    try:
        await started(asvc, ALICE, BOB, game="mywuxing", where=HERE)
        told.clear()
        moved = await beginner_move(asvc, HERE, {"alice": ALICE, "bob": BOB}, random.Random(2))
        assert moved[1].ok and told == [True, False]
        drawn = Reply(image=Picture("p.png", make=lambda: b"drawn in flight" if inflight.busy() else b"not"))
        await drawn.render()
        assert drawn.image.data == b"drawn in flight" and told == [True, False, True, False]
        await Reply(text="no picture").render()
        assert told == [True, False, True, False]
    finally:
        inflight.unwatch(told.append)


async def test_a_cancelled_move_leaves_no_play_in_flight(asvc):
    from table import inflight

    await started(asvc, ALICE, BOB, game="mywuxing", where=HERE)
    entered, release = asyncio.Event(), asyncio.Event()
    save = asvc.store.record_moves

    async def held(*args, **kwargs):
        entered.set()
        await release.wait()
        return await save(*args, **kwargs)
    asvc.store.record_moves = held
    row = await asvc.store.open_game(HERE.channel)
    game = GAMES[row.game]
    state = game.load(row.state)
    seat = game.to_act(state)[0]
    move = asyncio.create_task(asvc.act(HERE, {"alice": ALICE, "bob": BOB}[seat], game.bot_actions(state, seat)[0]))
    await entered.wait()
    assert inflight.busy()
    move.cancel()
    with pytest.raises(asyncio.CancelledError):
        await move
    assert not inflight.busy()


@pytest.mark.skipif(not LINUX, reason="the workers are paused on Linux only")
async def test_play_pauses_the_analysis_worker_and_the_analysis_ends_after_play(asvc, monkeypatch):
    """A move in flight stops the analysis worker at once (its /proc state is T), it goes on after the move,
    and the analysis of another ended game completes once play stops; the event loop never waits on it."""
    monkeypatch.setattr(table_analysis, "PLAY_CALM", 0.0)      # the pause alone keeps play first here
    ended = await played(asvc, "wassamasaw", where=Where("c2", "g1"), seed=3)
    asvc.analyses.effort = Effort(search=16, rollout_cap=6, value=8, confirm=8, playout_cap=12)
    asvc.analyses.use_processes(1)
    await started(asvc, ALICE, BOB, game="mywuxing", where=HERE)
    by, rnd = {"alice": ALICE, "bob": BOB}, random.Random(5)
    entered, release = asyncio.Event(), asyncio.Event()
    save = asvc.store.record_moves

    async def held(*args, **kwargs):          # a move's save that waits for the test: play stays in flight
        entered.set()
        await release.wait()
        return await save(*args, **kwargs)
    try:
        reply = await asvc.analysis(Where("c2", "g1"), ALICE, ended.id)
        assert reply.analysis is not None
        job = asvc.analyses._jobs[ended.id]
        await until(lambda: job.done >= 1, what="a first decision judged")
        [pid] = asvc.analyses.worker_pids()
        for _ in range(2):                    # twice: a move held in flight, and the worker stopped meanwhile
            entered.clear(), release.clear()
            asvc.store.record_moves = held
            move = asyncio.create_task(beginner_move(asvc, HERE, by, rnd))
            await entered.wait()
            await until(lambda: proc_state(pid) == "T", 30, "the worker stopped")
            release.set()
            assert (await move)[1].ok
            asvc.store.record_moves = save
            await until(lambda: proc_state(pid) not in ("T", None), 30, "the worker going on")
        for _ in range(6):                    # more moves, back to back
            assert (await beginner_move(asvc, HERE, by, rnd))[1].ok
        assert asvc.analyses.stats["pauses"] >= 3
        await asyncio.wait_for(asvc.analyses.wait(ended.id), 400)
        assert (await finished(asvc, reply)).ok
        assert await asvc.analyses.judgements(await asvc.store.game(ended.id))
    finally:
        asvc.store.record_moves = save
        asvc.analyses.stop(wait=True)


@pytest.mark.skipif(not LINUX, reason="the workers are paused on Linux only")
@pytest.mark.parametrize("how", ["stop", "idle"])
async def test_a_worker_paused_by_play_is_continued_before_the_pool_shuts_down(asvc, monkeypatch, how):
    """Stopped workers cannot exit: ``stop()`` (the bot's shutdown) and the idle sleep continue them first."""
    from table import inflight

    monkeypatch.setattr(table_analysis, "PLAY_CALM", 0.0)
    ended = await played(asvc, "wassamasaw", where=Where("c2", "g1"), seed=3)
    asvc.analyses.use_processes(1)
    reply = await asvc.analysis(Where("c2", "g1"), ALICE, ended.id)
    assert reply.analysis is not None, reply.private
    if how == "stop":
        await until(lambda: asvc.analyses.worker_pids(), what="the worker started")
    else:
        assert (await finished(asvc, reply)).ok      # done: the workers sleep after IDLE_STOP_AFTER
    [pid] = asvc.analyses.worker_pids()
    try:
        with inflight.playing():
            await until(lambda: proc_state(pid) == "T", 30, "the worker stopped")
            if how == "stop":
                asvc.analyses.stop()
            else:                            # the idle sleep, set again to come sooner
                monkeypatch.setattr(table_analysis, "IDLE_STOP_AFTER", 0.05)
                asvc.analyses._maybe_sleep()
            await until(lambda: proc_state(pid) in (None, "Z"), 30, "the worker exited")
            assert asvc.analyses.worker_pids() == []
    finally:
        asvc.analyses.stop(wait=True)


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux's")
async def test_a_stopped_worker_dies_with_the_bot():
    """The bot killed while its analysis worker is stopped: the kernel kills the worker too."""
    import signal
    import subprocess

    probe = ("import os, signal, sys, multiprocessing\n"
             "from concurrent.futures import ProcessPoolExecutor\n"
             "from table import analysis as a\n"
             "if __name__ == '__main__':\n"
             "    spawn = multiprocessing.get_context('spawn')\n"
             "    q = spawn.SimpleQueue()\n"
             "    pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=a.worker_start, "
             "initargs=(q, os.getpid()))\n"
             "    pid = pool.submit(os.getpid).result()\n"
             "    assert q.get() == (pid, True)\n"
             "    os.kill(pid, signal.SIGSTOP)\n"
             "    print(pid, flush=True)\n"
             "    sys.stdin.read()\n")
    # stderr kept: the killed bot's resource tracker says what the bot left behind (its queues' semaphores)
    bot = subprocess.Popen([sys.executable, "-c", probe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=str(Path(__file__).resolve().parent.parent))
    try:
        line = await asyncio.wait_for(asyncio.to_thread(bot.stdout.readline), 60)
        assert line.strip().isdigit(), await asyncio.to_thread(bot.stderr.read)
        worker = int(line)
        await until(lambda: proc_state(worker) == "T", 10, "the worker stopped")
    finally:
        bot.send_signal(signal.SIGKILL)
        await asyncio.to_thread(bot.communicate)
    await until(lambda: proc_state(worker) in (None, "Z"), 30, "the worker killed with the bot")


async def test_a_worker_that_would_not_die_with_the_bot_is_never_paused(monkeypatch):
    """Elsewhere than Linux (no PR_SET_PDEATHSIG) a worker says so, and play never stops it: a stopped worker
    of a bot that died would be left behind for good."""
    import multiprocessing

    from table import inflight

    monkeypatch.setattr(sys, "platform", "darwin")
    assert analysis_workers.die_with_bot(0) is False
    pids = multiprocessing.get_context("spawn").SimpleQueue()
    pids.put((12345, False))
    stats = {"pauses": 0, "paused": 0.0}
    pause = analysis_workers.Pause(pids, 1, asyncio.get_running_loop(), stats)
    try:
        with inflight.playing():
            assert pause.pids() == [] and pause.paused
    finally:
        pause.close()
    assert not pause.paused and stats["pauses"] == 1
    pids.close()


@pytest.mark.skipif(not LINUX, reason="the workers are paused on Linux only")
async def test_a_bot_that_ends_without_stop_still_exits_with_its_worker_paused():
    """The loop ended while the workers were stopped (the calm's timer never fired) and nobody called
    ``stop()``: at the interpreter's exit they are continued before concurrent.futures waits for them."""
    import subprocess

    probe = ("import asyncio, multiprocessing, os, time\n"
             "from concurrent.futures import ProcessPoolExecutor\n"
             "from table import analysis_workers as a, inflight\n"
             "a.PAUSE_CALM = 3600.0\n"
             "async def main():\n"
             "    spawn = multiprocessing.get_context('spawn')\n"
             "    q = spawn.SimpleQueue()\n"
             "    pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=a.worker_start, "
             "initargs=(q, os.getpid()))\n"
             "    pool.submit(os.getpid).result()\n"
             "    pause = a.Pause(q, 1, asyncio.get_running_loop(), {'pauses': 0, 'paused': 0.0})\n"
             "    a.guard_exit()\n"
             "    [pid] = pause.pids()\n"
             "    pool.submit(time.sleep, 0.2)\n"
             "    with inflight.playing():\n"
             "        while open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[0] != 'T':\n"
             "            await asyncio.sleep(0.01)\n"
             "    print(pid, 'stopped', flush=True)\n"
             "    return pool, pause\n"
             "if __name__ == '__main__':\n"
             "    kept = asyncio.run(main())\n")
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", probe], capture_output=True, text=True,
                                   timeout=120, cwd=str(Path(__file__).resolve().parent.parent))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == "stopped"
