"""Four bot processes, one per shard (SHARD_COUNT=4), on one PostgreSQL database, behind one fake Discord that
answers 429 past Discord's global limit of 50 requests a second (issue #50): the scenario that
tests/test_shard_processes.py runs small and bench/shards.py runs large.

Every shard has a server (``fake.add_guild``) with:
- ``timer_games`` games started 30 h ago, each with a reminder and a turn deadline due (the server's choice:
  the other players vote), which its process fires at start: a reminder and a "has not played" notice each;
- ``play_games`` games started now, in which the players make moves by ``/game move`` (a legal action of the
  seat the game waits for) through the fake, so through the process of the server's shard;
- a Swiss league of four in its own channel whose first round ended before the processes start: the
  process pairs the second round (two tables opened in threads) at its first pass. The pairings message has no
  game, so shard 0's process sends it (store.outgoing: a notice without a game is shard 0's), at its next pass.

The processes are tests/botproc.py (the real bot), which can die with SIGKILL at a chosen post (``CRASH``).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine import GAMES
from store import open_store
from store.leagues import LeagueStore
from table import TableService, User, Where
from tests.fakediscord import FakeDiscord, InteractionFailed

ROOT = Path(__file__).resolve().parent.parent
H = 3600
PLAYERS = ("alice", "bob", "carol", "dave")


@dataclass
class Shard:
    index: int
    guild: str
    timer_channels: list[int] = field(default_factory=list)
    play_channels: list[int] = field(default_factory=list)
    league_channel: int = 0
    round_one: list[int] = field(default_factory=list)    # the channels of the league's first round's tables
    proc: asyncio.subprocess.Process | None = None
    started_at: float = 0.0
    bot: object | None = None                   # in this process (``start_here``): the bot, its task, its store
    task: asyncio.Task | None = None
    store: object | None = None


class Cluster:
    def __init__(self, fake: FakeDiscord, url: str, *, shards: int = 4, timer_games: int = 2, play_games: int = 1,
                 env: dict | None = None, pictures: bool = True, tick: float = 60.0):
        self.fake, self.url, self.count = fake, url, shards
        self.pictures = pictures            # the test draws none: no image worker in any process
        self.tick = tick                    # the longest a bot here sleeps between scheduler passes
        self.timer_games, self.play_games = timer_games, play_games
        self.env = env or {}
        self.shards: list[Shard] = []
        self.confirmed: dict[int, list[str]] = {}     # play channel → the moves whose answer the player saw
        self.failed: dict[int, list[str]] = {}        # shard → interactions that failed (or were refused), why
        self.rnd = random.Random(50)
        self.store = None              # the test's own connection to the database, for what it reads and sets

    async def __aenter__(self) -> Cluster:
        self.store = await open_store(self.url).open()
        return self

    async def __aexit__(self, *exc) -> None:
        for shard in self.shards:
            await self.stop(shard)
        await self.store.close()

    # ----- before the processes start ---------------------------------------------------------------------
    async def prepare(self) -> None:
        """The servers, games and leagues, in the database (the cluster entered: ``async with``)."""
        fake = self.fake
        users = {n: User(str(fake.user(n).id), n.title()) for n in PLAYERS}
        for i in range(self.count):
            names = ([f"s{i}-t{j}" for j in range(self.timer_games)] + [f"s{i}-p{j}" for j in range(self.play_games)]
                     + [f"s{i}-league", f"s{i}-r1-t1", f"s{i}-r1-t2"])
            guild = fake.add_guild(f"server {i}", names, shard=(i, self.count))
            chans = {c.name: c.id for c in guild.channels}
            self.shards.append(Shard(i, str(guild.id), [chans[f"s{i}-t{j}"] for j in range(self.timer_games)],
                                     [chans[f"s{i}-p{j}"] for j in range(self.play_games)], chans[f"s{i}-league"],
                                     [chans[f"s{i}-r1-t1"], chans[f"s{i}-r1-t2"]]))
        clock = [time.time() - 30 * H]
        store = self.store
        svc = TableService(store, clock=lambda: clock[0], render=False)
        for shard in self.shards:
            for ch in shard.timer_channels:
                await self._start(svc, Where(str(ch), shard.guild), users["alice"], users["bob"])
        clock[0] = time.time()
        for shard in self.shards:
            for ch in shard.play_channels:
                await self._start(svc, Where(str(ch), shard.guild), users["carol"], users["dave"])
                self.confirmed[ch] = []
            await self._league(svc, Where(str(shard.league_channel), shard.guild), users, shard.round_one)
        for league in await LeagueStore(store).leagues(("running",)):    # once all began: the processes pair
            for table in await LeagueStore(store).pairings(league.id):
                row = await store.game(table.game_id)
                await store.record_moves(row, [], row.state, now=clock[0], status="finished",
                                         result={"winners": [table.seats[0]], "scores": {}})
        assert len(await store.due_timers(time.time())) == 2 * self.timer_games * self.count

    @staticmethod
    async def _start(svc, where: Where, host: User, other: User) -> None:
        assert (await svc.open_table(where, host, "wassamasaw")).ok
        assert (await svc.join(where, other)).ok
        assert (await svc.start(where, host)).ok

    @staticmethod
    async def _league(svc, where: Where, users: dict[str, User], tables: list[int]) -> None:
        """A Swiss league of four, two rounds, begun: its first round's two games opened."""
        leagues = svc.leagues

        async def channel_for(league, round_no, board):      # the first round's tables: channels of the server
            return str(tables[board - 1])
        leagues.channel_for = channel_for
        assert (await leagues.new(where, users["alice"], "wassamasaw", "swiss", 2, "untimed", True)).ok
        for u in users.values():
            await leagues.join(where, u)
        assert (await leagues.start(where, users["alice"], True)).ok

    # ----- the processes ----------------------------------------------------------------------------------
    async def spawn(self, shard: Shard, crash: str | None = None) -> None:
        env = dict(os.environ, FAKE_API=self.fake.api_url, FAKE_GATEWAY=self.fake.gateway_url, TOKEN=self.fake.token,
                   DB=self.url, SHARD_COUNT=str(self.count), SHARD_IDS=str(shard.index), IMAGE_WORKERS="1",
                   PICTURES="1" if self.pictures else "0",
                   LOG_LEVEL=self.env.get("BOT_LOG", os.environ.get("BOT_LOG", "WARNING")), **self.env)
        env.pop("CRASH", None)
        if crash:
            env["CRASH"] = crash
        shard.started_at = time.time()
        shard.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.botproc", cwd=ROOT, env=env)

    async def start_here(self, shard: Shard) -> None:
        """The bot of ``shard`` in this process (cheap: no interpreter to start), as bot.py builds it."""
        from cogs import ui
        from cogs.runner import make_bot
        from store.shards import Shards

        shards = Shards(self.count, (shard.index,))
        shard.store = await open_store(self.url, shards).open()
        shard.bot = make_bot(shard.store, shards=shards, guild_ready_timeout=0.1,
                             service=TableService(shard.store, render=self.pictures, escape=ui.safe))
        shard.bot.tick = self.tick
        shard.started_at = time.time()
        shard.task = asyncio.create_task(shard.bot.start(self.fake.token))

    async def kill_here(self, shard: Shard) -> None:
        """What SIGKILL does to ``shard``'s bot, as far as one process can do it to a part of itself: its
        tasks stop where they are (the scheduler mid-pass, the gateway), and its connections to Discord and to
        the database drop, with nothing said or saved on the way out (no drain, no outbox finished)."""
        bot = shard.bot
        tasks = [shard.task, bot.scheduler, *(s._task for s in bot._AutoShardedClient__shards.values())]
        for task in tasks:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in tasks if t is not None), return_exceptions=True)
        await bot.http.close()              # the session: the gateway's websocket goes with it
        await shard.store.side.close()      # rolled back, as a server does for a connection that drops
        shard.bot = shard.task = None

    async def stop(self, shard: Shard) -> int | None:
        if shard.bot is not None:           # in this process: a clean stop, as SIGTERM's
            await shard.bot.close()
            await asyncio.gather(shard.task, return_exceptions=True)
            shard.bot = None
            return 0
        proc = shard.proc
        if proc is not None and proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        return None if proc is None else proc.returncode

    def connected(self, shard: Shard) -> bool:
        """Whether a process (or bot) has ``shard``'s connection to the gateway, ready."""
        return any(c.ready and c.shard and c.shard[0] == shard.index for c in self.fake._conns)

    # ----- playing ----------------------------------------------------------------------------------------
    async def move(self, shard: Shard, channel: int) -> bool:
        """One move in ``channel`` by the player the game waits for, by /game move; True when the player saw it
        made (noted in ``confirmed``)."""
        row = await self.store.open_game(str(channel))
        if row is None:
            return False
        game = GAMES[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        action = self.rnd.choice(game.legal_actions(state, seat))
        try:
            r = await self.fake.slash(self.fake.user(int(seat)), channel, "game move", options={"action": action},
                                      timeout=10.0)
        except (InteractionFailed, AssertionError) as e:     # no answer, or no process for the server's shard
            self.failed.setdefault(shard.index, []).append(str(e)[:300])
            return False
        shown = r.shown
        if shown is None or shown.ephemeral:
            self.failed.setdefault(shard.index, []).append(f"{action}: {shown and shown.said}")
            return False
        self.confirmed[channel].append(action)
        return True

    async def play(self, shards: list[Shard], moves: int) -> int:
        """``moves`` moves in each play channel of ``shards``, every channel at once; how many were seen made."""
        async def channel(shard, ch):
            return sum([await self.move(shard, ch) for _ in range(moves)])
        return sum(await asyncio.gather(*(channel(s, ch) for s in shards for ch in s.play_channels)))

    async def make_reminders_due(self, shard: Shard) -> int:
        """The pending reminders of ``shard``'s play games made due now (their four hours passed while its
        process was down): how many."""
        from sqlalchemy import select, update

        from store.schema import games, timers
        ids = [r[0] for r in await self.store.select(select(games.c.id).where(
            games.c.channel.in_([str(c) for c in shard.play_channels]), games.c.status == "running"))]

        async def work(conn):
            return (await conn.execute(update(timers).where(
                timers.c.game_id.in_(ids), timers.c.kind == "reminder", timers.c.fired.is_(None))
                .values(due=time.time() - 1))).rowcount
        return await self.store.transaction(work)

    # ----- what the database and Discord hold -----------------------------------------------------------------
    async def logged_moves(self) -> dict[int, list[str]]:
        """Each play channel's moves in the database's log."""
        out = {}
        for ch in self.confirmed:
            row = await self.store.latest_game(str(ch))
            out[ch] = [e.action for e in await self.store.log(row.id)]
        return out

    async def rounds_paired(self) -> dict[int, list[tuple[int, int]]]:
        """Each league's tables (round, board), and each table's game."""
        rows = LeagueStore(self.store)
        out = {}
        for league in await rows.leagues(("signup", "running", "paused", "finished", "cancelled")):
            out[league.id] = sorted((t.round, t.board) for t in await rows.pairings(league.id))
        return out

    async def first_fired_after(self, shard: Shard, since: float) -> float | None:
        """When the first timer of ``shard``'s server was fired after ``since`` (the database's record)."""
        rows = await self.store.select(_FIRED, {"guild": shard.guild, "since": since})
        return rows[0][0] if rows and rows[0][0] is not None else None

    def bot_messages(self, channel: int) -> list[str]:
        return [m.said for m in self.fake.messages(channel) if m.author.id == self.fake.bot_user.id]

    def announced(self, shard: Shard) -> int:
        """How many times the league of ``shard``'s server announced its second round."""
        return sum("round 2 of 2" in t for t in self.bot_messages(shard.league_channel))

    def notices_once(self, shard: Shard) -> tuple[int, int]:
        """(notices missing, notices shown twice) of the timer games: each a reminder and a 'has not played'."""
        missing = twice = 0
        for ch in shard.timer_channels:
            texts = self.bot_messages(ch)
            for want in ("Reminder", "has not played"):
                n = sum(want in t for t in texts)
                missing += n == 0
                twice += max(0, n - 1)
        return missing, twice


def _fired_query():
    from sqlalchemy import func, select

    from store.schema import games, timers
    return (select(func.min(timers.c.fired)).select_from(timers.join(games, games.c.id == timers.c.game_id))
            .where(games.c.guild == _param("guild"), timers.c.fired > _param("since")))


def _param(name):
    from sqlalchemy import bindparam
    return bindparam(name)


_FIRED = _fired_query()
