"""`/game analysis` end to end through the fake Discord (issue #37): the Analysis button of an ended game's
message, the private answer edited in place with the progress and then the result (the graph as a PNG with
its alt text), a second request answered at once from the store, a request over the server's limit shown
waiting in line, and the bad inputs — a running game, another server's game, a game without a decision by a
person, a second request while one is under way — each answered with one clear line. Every request the bot
sent is checked against Discord's own API description (tests/discordspec.py)."""

from __future__ import annotations

import asyncio
import random

from cogs.runner import TeahouseBot
from engine import GAMES
from engine.ai.analysis import Effort
from store import Store
from table import TableService, User, Where
from table import analysis as table_analysis
from tests import discordspec
from tests.fakediscord import FakeDiscord, body_text
from tests.support import answer

# a small budget: the flow is tested here, not the engine
TINY = Effort(search=8, rollout_cap=6, value=4, confirm=4, playout_cap=8)
THINK = {"version": "think"}


def make_bot(path):
    store = Store(path)
    service = TableService(store, render=True)
    service.analyses.effort = TINY          # judged in threads (the bot's own runner starts worker processes)
    return TeahouseBot(store, service=service)


async def all_but_the_last_move(svc, where: Where, users: list[User], key: str, seed: int) -> tuple[User, str]:
    """A game of MyWuXing (Think) between ``users``, opened and played through the table service by the
    beginner's moves up to the one that ends it: (who plays that move, the move)."""
    assert (await svc.open_table(where, users[0], key, THINK)).ok
    for u in users[1:]:
        assert (await svc.join(where, u)).ok
    assert (await svc.start(where, users[0])).ok
    game, rnd, by = GAMES[key], random.Random(seed), {u.id: u for u in users}
    while True:
        row = await svc.store.open_game(where.channel)
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        action = rnd.choice(game.bot_actions(state, seat))
        after = game.load(row.state)
        game.play(after, seat, action)
        if game.result(after) is not None:
            return by[seat], action
        assert (await svc.act(where, by[seat], action)).ok


async def played_to_the_end(svc, where, users, seed) -> int:
    user, action = await all_but_the_last_move(svc, where, users, "mywuxing", seed)
    assert (await svc.act(where, user, action)).ok
    row = await svc.store.latest_game(where.channel)
    assert row.status == "finished"
    return row.id


def edits_of(fake, record) -> list:
    """What the bot sent as an interaction's own answer, in order: the first follow-up (after a "thinking"
    defer Discord shows it in place of the loading message) and each edit of that message."""
    token = record.token
    return [r for r in fake.requests
            if (r.method == "POST" and r.path.endswith(f"/{token}") and "/webhooks/" in r.path)
            or (r.method == "PATCH" and r.path.endswith(f"/{token}/messages/@original"))]


def one_line(record) -> str:
    assert record.ephemeral, record.said
    assert record.said and "\n" not in record.said.strip(), record.said
    return record.said


async def test_the_analysis_button_progress_store_line_and_refusals(tmp_path):
    async with FakeDiscord() as fake:
        bot = make_bot(tmp_path / "b.db")
        svc = bot.service
        async with fake.run(bot):
            people = {n: User(str(fake.user(n).id), fake.user(n).name) for n in ("alice", "bob", "carol")}
            alice, bob = people["alice"], people["bob"]
            guild = str(fake.guild.id)
            general, games = (str(fake.channel(c).id) for c in ("general", "games"))

            # a game ended through Discord: its last move is typed, and the end message offers the analysis
            last_user, last_move = await all_but_the_last_move(svc, Where(general, guild), [alice, bob],
                                                               "mywuxing", seed=3)
            name = "alice" if last_user == alice else "bob"
            moved = await fake.slash(name, "general", "game move", options={"action": last_move})
            await answer(moved)
            ended = await fake.wait_for_message(lambda m: any(b.get("label") == "Analysis" for b in m.buttons()),
                                                channel="general")
            first = await svc.store.latest_game(general)
            assert first.status == "finished"
            assert [b["label"] for b in ended.buttons()] == ["Rematch", "Review", "Analysis"]

            # no decision is judged until the test lets them: the progress and the line can be looked at
            hold, judge = asyncio.Event(), svc.analyses._judge

            async def held(*args):
                await hold.wait()
                return await judge(*args)
            svc.analyses._judge = held

            clicked = await fake.click("alice", ended, label="Analysis")
            progress = await answer(clicked)
            assert progress.ephemeral and clicked.callback_type == 5
            assert f"Analysis of **MyWuXing** #{first.id}" in progress.said
            assert "decisions judged" in progress.said and not progress.attachments
            # the progress is edited in place: the answer, then the follower's first edit, no picture yet
            assert await clicked._wait(lambda: len(edits_of(fake, clicked)) >= 2, 30.0)
            shown = edits_of(fake, clicked)
            assert all("decisions judged" in body_text(e.json) and not e.files for e in shown)
            assert fake.message(progress.id).said == body_text(shown[-1].json)

            # the same game asked again while it is analysed: one line, nothing new started
            again = await answer(await fake.slash("bob", "general", "game analysis", options={"game": first.id}))
            assert "already being analysed" in one_line(again)
            assert len(svc.analyses._jobs) == 1

            # two more ended games of the server: the second is under way, the third over the limit waits
            others = [await played_to_the_end(svc, Where(games, guild), [bob, alice], seed) for seed in (5, 6)]
            under_way = await answer(await fake.slash("carol", "games", "game analysis",
                                                      options={"game": others[0]}))
            assert "decisions judged" in under_way.said
            queued_record = await fake.slash("carol", "games", "game analysis", options={"game": others[1]})
            queued = await answer(queued_record)
            assert queued.ephemeral and "waiting in line" in queued.said, queued.said
            running = [j for j in svc.analyses._jobs.values() if j.status == "running"]
            assert len(running) == table_analysis.PER_SERVER

            # the bad inputs, each one line, nothing queued or kept
            jobs = set(svc.analyses._jobs)
            assert (await svc.open_table(Where(games, guild), alice, "mywuxing", THINK)).ok
            assert (await svc.join(Where(games, guild), bob)).ok
            assert (await svc.start(Where(games, guild), alice)).ok
            playing = await answer(await fake.slash("alice", "games", "game analysis"))
            assert "still being played" in one_line(playing)
            elsewhere = Where("elsewhere", "another-server")
            await played_to_the_end(svc, elsewhere, [User("x1", "Xan"), User("x2", "Yun")], 7)
            foreign = (await svc.store.latest_game("elsewhere")).id
            not_here = await answer(await fake.slash("alice", "general", "game analysis", options={"game": foreign}))
            assert f"no game #{foreign} in this server" in one_line(not_here)
            assert (await svc.abandon(Where(games, guild), alice, confirm=True)).ok
            empty = (await svc.store.latest_game(games)).id
            nobody = await answer(await fake.slash("carol", "games", "game analysis", options={"game": empty}))
            assert "no decision by a person" in one_line(nobody)
            assert set(svc.analyses._jobs) == jobs
            for gid in (foreign, empty):
                assert await svc.store.analysis(gid, 1) is None

            # let them run: the first answer ends as the result, with the graph and its alt text
            hold.set()
            assert await clicked._wait(lambda: any(e.files for e in edits_of(fake, clicked)), 60.0), \
                "the analysis never came"
            shown = edits_of(fake, clicked)
            final = shown[-1]
            assert len(shown) >= 3 and final.files and not any(e.files for e in shown[:-1])
            assert "accuracy" in body_text(final.json) and "alice" in body_text(final.json)
            filename, data = final.files[0]
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and filename == f"analysis-{first.id}.png"
            alt = final.json["attachments"][0]["description"]
            assert "win chance" in alt and " led " in alt and "won." in alt
            result = fake.message(progress.id)
            assert result.attachments and result.attachments[0].image().format == "PNG" and result.edits >= 2
            # the one that waited in line got its result in its own message too
            assert await queued_record._wait(lambda: any(e.files for e in edits_of(fake, queued_record)), 60.0)
            assert "waiting in line" in body_text(edits_of(fake, queued_record)[0].json)

            # asked again once kept: the result at once, from the store (no decision judged again); first every
            # analysis of the server ends (the third one may still be judging, and would count)
            deadline = asyncio.get_running_loop().time() + 60
            while svc.analyses._jobs and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)
            assert not svc.analyses._jobs
            judged = svc.analyses.stats["judged"]
            kept = await fake.slash("bob", "general", "game analysis", options={"game": first.id})
            at_once = await answer(kept)
            assert at_once.ephemeral and "accuracy" in at_once.said
            assert at_once.attachments and at_once.attachments[0].image().format == "PNG"
            assert [e for e in edits_of(fake, kept) if "decisions judged" in body_text(e.json)] == []
            assert svc.analyses.stats["judged"] == judged
            await fake.settle()
    assert not fake.errors, fake.errors
    checked, problems = discordspec.check(fake.requests)
    assert checked >= 20 and not problems, problems
