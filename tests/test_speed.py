"""Issue 13, speed under load — what can be checked without a stopwatch: listings are single indexed
queries that give the same answers as counting game by game, a move costs few statements, images are drawn
in worker processes that survive a crash, slow interactions are deferred within 100 ms, and replays fit
Discord's attachment limit."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import random
import signal
import sqlite3

import pytest
from PIL import Image

import tests.tinygame  # noqa: F401
from engine import GAMES
from render import timeslice
from render import workers as rendering
from store import Store
from table import Reply, TableService, User, Where
from table.records import gif_within
from table.replies import Picture
from tests.fakediscord import FakeDiscord
from tests.support import Clock

ALICE, BOB, CY = User("111", "Alice"), User("222", "Bob"), User("333", "Cy")
H = 3600



async def play_out(svc, where, users, game="pebbles", bots=0, seed=0):
    """Open, start and play a game to its end with random legal moves."""
    assert (await svc.open_table(where, users[0], game)).ok
    for u in users[1:]:
        assert (await svc.join(where, u)).ok
    for _ in range(bots):
        assert (await svc.add_bot(where, users[0])).ok
    assert (await svc.start(where, users[0])).ok
    rnd = random.Random(seed)
    g = GAMES[game]
    by_id = {u.id: u for u in users}
    for _ in range(500):
        row = await svc.store.open_game(where.channel)
        if row is None:
            return await svc.store.latest_game(where.channel)
        state = g.load(row.state)
        seat = rnd.choice([s for s in g.to_act(state) if s in by_id])
        assert (await svc.act(where, by_id[seat], rnd.choice(g.legal_actions(state, seat)))).ok
    raise AssertionError("the game did not end")


async def test_stats_and_leaderboard_count_wins_losses_abandoned_and_removed_seats(store):
    clock = Clock()
    svc = TableService(store, clock=clock, render=False)
    winners = []
    for i in range(6):
        row = await play_out(svc, Where(f"c{i}", "g"), [ALICE, BOB], seed=i)
        winners.append(row.result["winners"])
    # an abandoned started game, and one where Bob was removed (a loss, whatever the computer did)
    w = Where("ab", "g")
    await svc.open_table(w, ALICE, "pebbles")
    await svc.join(w, BOB)
    await svc.start(w, ALICE)
    await svc.abandon(w, ALICE, confirm=True)
    w = Where("rm", "g")
    await svc.open_table(w, ALICE, "pebbles")
    await svc.join(w, BOB)
    await svc.start(w, ALICE)
    await svc.act(w, ALICE, "bid 1")
    clock.now += 25 * H
    assert (await svc.remove(w, ALICE, BOB.id)).ok
    row = await play_out_rest(svc, w, ALICE)
    alice_won = sum(ALICE.id in ws for ws in winners) + (ALICE.id in row.result["winners"])
    bob_won = sum(BOB.id in ws for ws in winners)

    st = await svc.stats(ALICE.id, "g")
    assert (st.total.played, st.total.wins, st.total.abandoned) == (7, alice_won, 1)
    assert st.total.losses == 7 - alice_won
    st = await svc.stats(BOB.id)
    assert (st.total.played, st.total.wins, st.total.abandoned) == (7, bob_won, 1)
    assert (await svc.stats(BOB.id, "elsewhere")).total.played == 0
    board = await svc.leaderboard("pebbles", "g")
    assert [uid for uid, _, _ in board] == sorted([ALICE.id, BOB.id], key=lambda u: -(alice_won if u == ALICE.id
                                                                                       else bob_won))
    assert {name for _, name, _ in board} == {"Alice", "Bob"}
    assert "cpu-1" not in {uid for uid, _, _ in board}


async def play_out_rest(svc, where, user):
    g = GAMES["pebbles"]
    for _ in range(200):
        row = await svc.store.open_game(where.channel)
        if row is None:
            return await svc.store.latest_game(where.channel)
        state = g.load(row.state)
        await svc.act(where, user, g.legal_actions(state, user.id)[0])
    raise AssertionError("the game did not end")


async def test_games_and_mygames_show_whom_each_game_waits_for(store):
    svc = TableService(store, render=False)
    await svc.open_table(Where("lobby", "g"), CY, "pebbles")
    w = Where("play", "g")
    await svc.open_table(w, ALICE, "pebbles")
    await svc.join(w, BOB)
    await svc.start(w, ALICE)
    await svc.act(w, ALICE, "bid 1")
    here = {g["channel"]: g for g in await svc.games_here("g")}
    assert here["lobby"]["status"] == "lobby" and here["lobby"]["names"] == {CY.id: "Cy"}
    assert here["play"]["waiting"] == [BOB.id] and here["play"]["title"] == "Pebbles"
    assert [g["channel"] for g in await svc.my_turns(BOB)] == ["play"]
    assert await svc.my_turns(ALICE) == []
    assert await svc.games_here("other") == []


def test_migration_4_fills_results_from_games_already_ended(tmp_path):
    path = tmp_path / "old.db"

    async def at_revision_3():
        await (await Store(path).open(revision="0003")).close()
    asyncio.run(at_revision_3())
    con = sqlite3.connect(path)
    con.execute("INSERT INTO games (id, guild, channel, game, status, host, seed, state, result, created_at, "
                "updated_at) VALUES (1, 'g', 'c', 'pebbles', 'finished', '111', 1, '{}', "
                "'{\"winners\": [\"111\"], \"scores\": {}}', 1, 2)")
    for i, (uid, bot) in enumerate([("111", 0), ("222", 1), ("cpu-1", 1)]):
        con.execute("INSERT INTO seats VALUES (1, ?, ?, ?, ?)", (i, uid, uid, bot))
    con.commit()
    con.close()

    async def check():
        async with Store(path) as store:
            return sorted(await store.record_of("111")), sorted(await store.record_of("222")), \
                await store.record_of("cpu-1")
    alice, bob, cpu = asyncio.run(check())
    assert alice == [("pebbles", "win", 1)] and bob == [("pebbles", "loss", 1)] and cpu == []


async def test_listings_and_channel_lookups_use_indexes(store):
    plans = {}
    queries = {
        "stats": ("SELECT game, outcome, COUNT(*) FROM results WHERE user_id = ? AND guild = ? "
                  "GROUP BY game, outcome", ("1", "g")),
        "board": ("SELECT user_id FROM results WHERE game = ? AND guild = ? GROUP BY user_id", ("x", "g")),
        "open game": ("SELECT * FROM games WHERE channel = ? AND status IN ('lobby', 'running')", ("c",)),
        "latest game": ("SELECT * FROM games WHERE channel = ? ORDER BY (status IN ('lobby', 'running')) DESC, "
                        "id DESC LIMIT 1", ("c",)),
        "games here": ("SELECT id FROM games WHERE guild IS ? AND status IN ('lobby', 'running')", ("g",)),
        "my turns": ("SELECT game_id FROM seats WHERE user_id = ?", ("1",)),
    }
    for name, (sql, args) in queries.items():
        async with store._connection() as conn:
            rows = (await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, args)).all()
        plans[name] = " | ".join(r[3] for r in rows)
    for name, plan in plans.items():
        assert "USING" in plan and not any(f"SCAN {t}" == part.strip() for t in ("games", "results", "seats")
                                           for part in plan.split("|")), (name, plan)


class _Crossings(logging.Handler):
    """Every call aiosqlite hands to a connection's thread: its worker logs each one ("executing …") at DEBUG."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.calls: list[str] = []

    def emit(self, record):
        if record.msg.startswith("executing"):
            self.calls.append(str(record.args[0]))


async def test_a_move_costs_few_statements_and_is_not_read_back(store):
    svc = TableService(store, render=False)
    w = Where("c", "g")
    await svc.open_table(w, ALICE, "pebbles")
    await svc.join(w, BOB)
    await svc.start(w, ALICE)
    statements = {"writer": [], "reader": []}
    connections = {"writer": store.side.conn, "reader": store.side.reader}   # the aiosqlite connections (WAL)
    drivers = {name: (await conn.get_raw_connection()).driver_connection for name, conn in connections.items()}
    assert drivers["writer"] is not drivers["reader"]        # reads do not queue behind writes
    for name, driver in drivers.items():
        await driver.set_trace_callback(statements[name].append)
    crossings, aiosqlite_log = _Crossings(), logging.getLogger("aiosqlite")
    level = aiosqlite_log.level
    aiosqlite_log.setLevel(logging.DEBUG)
    aiosqlite_log.addHandler(crossings)
    try:
        await svc.act(w, ALICE, "bid 1")
        first, counted = list(crossings.calls), {name: len(s) for name, s in statements.items()}
        crossings.calls.clear()
        await svc.act(w, BOB, "bid 2")            # the same kind of move again: every text is known now
        again = list(crossings.calls)
        crossings.calls[:] = first
        for name, n in counted.items():
            del statements[name][n:]
    finally:
        aiosqlite_log.removeHandler(crossings)
        aiosqlite_log.setLevel(level)
        for driver in drivers.values():
            await driver.set_trace_callback(None)
    everything = statements["reader"] + statements["writer"]
    assert len(everything) <= 9, everything
    # the game is read once, before the move, on the reader; the move is one BEGIN IMMEDIATE … COMMIT on the writer
    assert [s.split()[0] for s in statements["reader"]] == ["SELECT"], statements["reader"]
    assert "FROM games" in statements["reader"][0]
    assert statements["writer"][0] == "BEGIN IMMEDIATE" and statements["writer"][-1] == "COMMIT", statements
    assert not any(s.lstrip().upper().startswith("SELECT") for s in statements["writer"]), statements["writer"]
    # each statement is one call to its connection's thread (store/sqlite_calls.py) once its text has been seen,
    # two or three the first time (execute, fetch, close); commit one more. The game's first move meets new
    # texts; the next one is a call per statement: the read, BEGIN, the UPDATE, the log row, the timers out and
    # in (two rows: one call and its cursor's close), COMMIT (it was 21 through SQLAlchemy's adapter)
    assert len(crossings.calls) <= 10, crossings.calls
    assert len(again) <= 8, again


# ----- images in worker processes -------------------------------------------------------------------------
async def test_images_are_drawn_in_worker_processes_and_survive_a_dead_worker(store):
    svc = TableService(store)
    w = Where("c", "g")
    await svc.open_table(w, ALICE, "wassamasaw")
    await svc.join(w, BOB)
    rendering.start(1)
    try:
        reply = await (await svc.start(w, ALICE)).render()
        assert Image.open(io.BytesIO(reply.image.data)).format == "PNG"
        assert rendering.worker_pids() and os.getpid() not in rendering.worker_pids()
        os.kill(rendering.worker_pids()[0], signal.SIGKILL)          # a worker dies
        await asyncio.sleep(0.2)
        again = await (await svc.status(w, CY)).render()
        assert Image.open(io.BytesIO(again.image.data)).size == Image.open(io.BytesIO(reply.image.data)).size
        third = await (await svc.status(w, CY)).render()              # and the pool works again afterwards
        assert third.image.data
    finally:
        rendering.stop()


def _custom_slices() -> bool:
    """Whether this kernel keeps a thread's own time slice (Linux 6.12 and later), tried on a thread of its own."""
    import threading

    took = []
    probe = threading.Thread(target=lambda: took.append(timeslice.set_slice(timeslice.BOT_SLICE_NS)
                                                        and timeslice.get_slice() == timeslice.BOT_SLICE_NS))
    probe.start()
    probe.join()
    return took == [True]


async def test_the_bots_threads_take_the_core_from_a_drawing_worker_at_once(store):
    """A move's steps wake one thread after another; each takes the core from a drawing worker at once only if
    its slice is the shorter (render/timeslice.py, BOT_SLICE_NS). Every thread of the bot, those it starts later
    included, asks for the short slice; its image workers keep the kernel's default; nobody's nice changes."""
    import threading

    if not _custom_slices():
        pytest.skip("this kernel has no per-thread time slices (Linux 6.12 and later)")
    nice = os.nice(0)
    rendering.start(1)
    try:
        job = _wassamasaw_jobs(1)[0]
        assert Image.open(io.BytesIO(await rendering.draw(job))).format == "PNG"
        tids = [int(t) for t in os.listdir("/proc/self/task")]
        assert {timeslice.get_slice(t) for t in tids} == {timeslice.BOT_SLICE_NS}
        later = []
        thread = threading.Thread(target=lambda: later.append(timeslice.get_slice()))
        thread.start()
        thread.join()
        assert later == [timeslice.BOT_SLICE_NS]
        (worker,) = rendering.worker_pids()
        assert timeslice.get_slice(worker) > timeslice.BOT_SLICE_NS           # the default (1.4 ms on 2 cores)
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, nice + 5)   # the worker's nice as before
        assert os.nice(0) == nice
    finally:
        rendering.stop()


async def test_without_a_pool_images_are_drawn_in_a_thread(store):
    pic = Picture("x.png", job=("wassamasaw", GAMES["wassamasaw"].view(GAMES["wassamasaw"].new(["a", "b"], 1),
                                                                       None), {"a": "A", "b": "B"}, None))
    reply = await Reply(image=pic).render()
    assert reply.image.data.startswith(b"\x89PNG")


async def test_a_replys_pictures_are_drawn_side_by_side(monkeypatch):
    """#33: a reply's channel picture and its private ones are all handed to the workers before any is waited
    for (a reply of two pictures waited for both in turn); each gets its own picture, and a failure of one is
    the reply's after all were waited for."""
    from table.replies import Private

    jobs = _wassamasaw_jobs(3)
    begun, futures = [], []
    loop = asyncio.get_running_loop()

    def begin(job, key=None, order=0):
        begun.append(job)
        futures.append(loop.create_future())
        return futures[-1]

    monkeypatch.setattr(rendering, "begin", begin)

    def reply_of(jobs):
        private = [Private(str(i), "yours", Picture(f"p{i}.png", job=job)) for i, job in enumerate(jobs[1:])]
        return Reply(text="moved", image=Picture("table.png", job=jobs[0]), private=private)

    reply = reply_of(jobs)
    drawing = asyncio.ensure_future(reply.render())
    while len(begun) < 3:
        await asyncio.sleep(0)
    assert begun == jobs and not drawing.done()          # all three handed over, none awaited yet
    for n, fut in enumerate(reversed(futures)):         # finished in any order
        fut.set_result(b"png %d" % n)
    await drawing
    assert [p.data for p in reply.pictures()] == [b"png 2", b"png 1", b"png 0"]

    begun.clear()
    futures.clear()
    reply = reply_of(jobs[:2])
    drawing = asyncio.ensure_future(reply.render())
    while len(begun) < 2:
        await asyncio.sleep(0)
    futures[0].set_exception(RuntimeError("the worker failed"))
    await asyncio.sleep(0)
    assert not drawing.done()                           # the other picture is still waited for
    futures[1].set_result(b"png")
    with pytest.raises(RuntimeError):
        await drawing
    assert reply.private[0].image.data == b"png"


# ----- interactions are acknowledged within 100 ms, however slow the work --------------------------------
async def test_a_slow_move_is_deferred_at_once_and_answered_after(tmp_path, monkeypatch):
    from cogs.runner import TeahouseBot

    async with FakeDiscord() as fake:
        store = Store(tmp_path / "b.db")
        bot = TeahouseBot(store, service=TableService(store))
        async with fake.run(bot):
            slow_status = bot.service.status

            async def slow(*a, **k):
                await asyncio.sleep(1.0)                    # a busy database
                return await slow_status(*a, **k)
            monkeypatch.setattr(bot.service, "status", slow)
            r = await fake.slash("alice", "general", "game status")
            assert r.callback_type == 5 and r.callback_at - r.created_at < 0.5     # deferred, not late
            await r.wait_completed()
            assert "There is no game" in r.said and r.ephemeral              # the error stays private

            async def slow_new(*a, **k):
                await asyncio.sleep(0.5)
                return await open_table(*a, **k)
            open_table = bot.service.open_table
            monkeypatch.setattr(bot.service, "open_table", slow_new)
            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            assert r.callback_type == 5 and r.callback_at - r.created_at < 0.5
            await r.wait_completed()
            assert "opened a table" in r.said and not r.ephemeral


# ----- replays within Discord's attachment limit ------------------------------------------------------------
def test_replays_shrink_to_fit_the_attachment_limit_or_are_refused():
    rnd = random.Random(1)
    frames = {i: Image.frombytes("RGB", (400, 300), rnd.randbytes(400 * 300 * 3)) for i in range(30)}
    full = gif_within(frames, 10**9)
    smaller = gif_within(frames, len(full) // 3)
    assert full and smaller and len(smaller) <= len(full) // 3
    assert gif_within(frames, 1000) is None


# ----- the image queue: coalescing, bounded caches, memory handed back, fresh pools -------------------------
def same_picture(a: bytes | None, b: bytes | None) -> bool:
    """Two PNGs of the same picture, whatever palette each was written with: a process keeps the palette of a
    game's earlier pictures (render.common._Palettes), so a worker and this process, with other pictures
    behind them, may map a rare antialiasing shade to different near entries (a few pixels, a few dozen
    levels), never a whole shape. Two different moves differ in tens of thousands of pixels."""
    if a is None or b is None:
        return a is b
    import io

    from PIL import Image, ImageChops

    first, second = (Image.open(io.BytesIO(x)).convert("RGB") for x in (a, b))
    if first.size != second.size:
        return False
    channels = ImageChops.difference(first, second).split()
    most = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2]).histogram()
    return sum(most[97:]) == 0 and sum(most[33:]) <= first.width * first.height // 500


def same_pictures(got: list, expected: list) -> bool:
    return len(got) == len(expected) and all(same_picture(a, b) for a, b in zip(got, expected, strict=True))


def _wassamasaw_jobs(count: int) -> list[tuple]:
    """Views of one game after 1, 2, … moves: what the table looks like as it moves on."""
    game = GAMES["wassamasaw"]
    state, rnd, jobs = game.new(["a", "b"], 3), random.Random(3), []
    while len(jobs) < count:
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        jobs.append(("wassamasaw", game.view(state, None), {"a": "Ann", "b": "Bo"}, None))
    return jobs


async def test_a_newer_picture_of_a_table_replaces_one_still_waiting(monkeypatch):
    from render import render_png

    jobs = _wassamasaw_jobs(4)
    rendering.start(1)
    try:
        assert rendering._in_pool == 0                   # earlier pools (a dead worker, a stop) left no count
        monkeypatch.setattr(rendering, "SPARE", -rendering._threads)   # the worker takes nothing: every job waits
        coalesced = rendering.stats["coalesced"]
        same = [asyncio.create_task(rendering.draw(jobs[v], key=(7, None), order=v)) for v in (0, 2, 1)]
        other = asyncio.create_task(rendering.draw(jobs[3], key=(8, None), order=3))
        await asyncio.sleep(0)
        assert rendering.waiting() == 2                  # one per table, however many moves
        monkeypatch.setattr(rendering, "SPARE", 0)
        rendering._pump()
        pictures = await asyncio.gather(*same)
        # every caller of table 7 gets its newest picture, even though order 1 arrived after order 2
        assert same_pictures(pictures, [render_png(*jobs[2])] * 3)
        assert same_picture(await other, render_png(*jobs[3]))
        assert rendering.stats["coalesced"] - coalesced == 2 and rendering.waiting() == 0
    finally:
        rendering.stop()


async def test_pictures_without_a_key_are_all_drawn_in_turn_each_waiting_in_the_bot(monkeypatch):
    """One queue for all workers: a worker is handed no more pictures than it draws at once, so the rest wait
    in the bot (not behind another in a busy worker) and go to whichever worker frees first."""
    from render import render_png

    jobs = _wassamasaw_jobs(3)
    rendering.start(1)
    try:
        futures = [rendering.begin(job) for job in jobs]
        assert all(len(w.jobs) <= rendering._threads for w in rendering._workers)
        assert rendering.drawing() <= rendering._threads and rendering.waiting() >= 3 - rendering._threads
        pictures = await asyncio.gather(*futures)
        assert same_pictures(pictures, [render_png(*job) for job in jobs]) and rendering.waiting() == 0
    finally:
        rendering.stop()


async def test_the_pool_is_replaced_by_a_fresh_one_after_many_jobs(monkeypatch):
    from render import render_png

    jobs = _wassamasaw_jobs(5)
    monkeypatch.setattr(rendering, "RECYCLE_AFTER", 2)
    rendering.start(1)
    try:
        pools = rendering.stats["pools"]
        seen = set()
        for job in jobs:
            assert same_picture(await rendering.draw(job), render_png(*job))
            seen.update(rendering.worker_pids())
        assert rendering.stats["pools"] - pools == 2          # after jobs 2 and 4
        assert len(seen) >= 2 and os.getpid() not in seen    # new worker processes, and the images went on
    finally:
        rendering.stop()


def test_a_worker_hands_freed_memory_back_once_idle(monkeypatch):
    import threading

    from render import render_png

    trimmed = threading.Event()
    calls = []
    monkeypatch.setattr(rendering, "_trim", lambda pad: (calls.append(pad), trimmed.set()))
    monkeypatch.setattr(rendering, "IDLE_TRIM_AFTER", 0.01)
    job = _wassamasaw_jobs(1)[0]
    expected = render_png(*job)
    assert rendering._draw_in_worker(*job) == expected
    assert trimmed.wait(10) and calls == [0]
    from PIL import Image

    assert Image.core.get_stats()["blocks_cached"] == 0   # Pillow's kept image blocks went back too
    rendering._trim_when_idle(rendering._started - 1)      # a job began since that one: still busy, no trim
    assert calls == [0]
    if os.path.exists("/lib/x86_64-linux-gnu/libc.so.6") or os.path.exists("/lib/aarch64-linux-gnu/libc.so.6"):
        assert rendering._trimmer() is not None           # glibc: malloc_trim is found


async def test_a_worker_draws_in_one_malloc_arena_unless_the_host_chose(monkeypatch):
    """#33: in an arena of its own, a drawing thread's freed top stayed with the worker after its idle trim
    (0–16 MB more from one run to the next); a worker starts with MALLOC_ARENA_MAX=1, a host's own value kept."""
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert rendering.worker_env()["MALLOC_ARENA_MAX"] == "1"
    assert "MALLOC_ARENA_MAX" not in os.environ                    # the bot's own environment is left alone
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert rendering.worker_env()["MALLOC_ARENA_MAX"] == "4"
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    rendering.start(1)
    try:
        assert (await rendering.draw(_wassamasaw_jobs(1)[0])).startswith(b"\x89PNG")
        (worker,) = rendering.worker_pids()
        try:
            with open(f"/proc/{worker}/environ", "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            pytest.skip("no /proc here")
        assert b"MALLOC_ARENA_MAX=1" in environ
    finally:
        rendering.stop()


async def test_an_idle_pool_lets_its_workers_go_and_starts_them_again_for_the_next_job(monkeypatch):
    import time

    from render import render_png

    monkeypatch.setattr(rendering, "IDLE_STOP_AFTER", 0.3)
    jobs = _wassamasaw_jobs(2)
    rendering.start(1)
    try:
        stops = rendering.stats["idle_stops"]
        assert same_picture(await rendering.draw(jobs[0]), render_png(*jobs[0]))
        assert rendering.worker_pids()
        deadline = time.monotonic() + 20
        while rendering.stats["idle_stops"] == stops and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert rendering.worker_pids() == [] and rendering.stats["idle_stops"] == stops + 1
        assert rendering.running()                            # a pool is there, asleep
        assert rendering.helper_pids() == []                  # no forkserver, no resource tracker
        drawn = rendering.stats["drawn"]
        assert same_picture(await rendering.draw(jobs[1]), render_png(*jobs[1]))
        assert rendering.worker_pids() and rendering.helper_pids() == []
        assert rendering.stats["drawn"] == drawn + 1          # by a worker (a thread would not count)
    finally:
        rendering.stop()


def test_the_glyph_cache_is_bounded():
    from render.common import GLYPHS_CACHED, _glyphs, canvas, font

    _, draw = canvas(200, 40)
    for i in range(GLYPHS_CACHED + 100):
        draw.text((0, 0), f"label {i}", fill=(0, 0, 0), font=font(18))
    info = _glyphs.cache_info()
    assert info.maxsize == GLYPHS_CACHED and info.currsize == GLYPHS_CACHED


def test_an_idle_worker_drops_the_boards_and_glyphs_it_kept_and_draws_the_same_pictures():
    """render.release (called when a worker falls idle, issue #29's memory): the WURRM boards and glyph masks
    kept for a run of pictures go; the next picture is the same, pixel for pixel."""
    import random

    import render
    from engine import GAMES
    from render import render_png
    from render.common import _glyphs
    from render.wurrm_board import board_layer

    game = GAMES["wurrm"]
    state = game.new(["a", "b", "c"], seed=5)
    rnd = random.Random(5)
    for _ in range(12):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    job = ("wurrm", game.view(state, None), {"a": "Ann", "b": "Bo", "c": "Cy"}, None, "en")
    render.release()                    # the palette kept from earlier pictures goes too: both start afresh
    first = render_png(*job)
    assert board_layer.cache_info().currsize and _glyphs.cache_info().currsize
    render.release()
    assert board_layer.cache_info().currsize == 0 and _glyphs.cache_info().currsize == 0
    assert render_png(*job) == first


async def test_a_second_worker_starts_only_while_pictures_queue_up_and_leaves_when_idle(monkeypatch):
    import time

    from render import render_png

    monkeypatch.setattr(rendering, "EXTRA_IDLE_STOP_AFTER", 0.3)
    jobs = _wassamasaw_jobs(8)
    rendering.start(2, threads=1)
    try:
        pools = rendering.stats["pools"]
        for job in jobs[:2]:                                  # one picture at a time: the first worker is enough
            assert same_picture(await rendering.draw(job), render_png(*job))
        assert rendering.stats["pools"] == pools and len(rendering.worker_pids()) == 1
        first = rendering.worker_pids()[0]
        pictures = await asyncio.gather(*(rendering.draw(job) for job in jobs[2:]))   # six at once: a queue
        assert same_pictures(pictures, [render_png(*job) for job in jobs[2:]])
        assert rendering.stats["pools"] == pools + 1          # a second worker was started for it
        deadline = time.monotonic() + 20
        while len(rendering.worker_pids()) > 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert rendering.worker_pids() == [first]             # the second left once idle; the first stays
        assert same_picture(await rendering.draw(jobs[0]), render_png(*jobs[0]))
    finally:
        rendering.stop()
