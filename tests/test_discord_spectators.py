"""Spectators through Discord (the fake, issue #49): 👀 Watch on a turn's card, the choice of what comes by
direct message and 🛑 Stop, /game watch by number from another channel, a thread's watcher added to the thread,
/follow with its direct messages and their Watch button (clicked in the direct message), /notify followers:off
refusing followers politely, and /settings tv_channel: naming the permission the bot lacks there."""

from __future__ import annotations

import random

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService, User, Where
from tests.fakediscord import ALL_PERMISSIONS, MEMBER_PERMISSIONS, FakeDiscord
from tests.support import answer


def bot_on(tmp_path) -> TeahouseBot:
    store = Store(tmp_path / "bot.db")
    return TeahouseBot(store, service=TableService(store, render=False))


async def play_out(bot, fake, channel: str) -> None:
    """The channel's game to its end through the table service (the moves are not what is tested here)."""
    svc, rnd = bot.service, random.Random(1)
    where = Where(str(fake.channel(channel).id), str(fake.guild.id))
    for _ in range(400):
        row = await svc.store.open_game(where.channel)
        if row is None:
            return
        game = GAMES[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        await svc.act(where, User(seat, row.names[seat]), rnd.choice(game.bot_actions(state, seat)))


async def test_watch_a_game_choose_once_stop_with_one_click(tmp_path):
    async with FakeDiscord(channels=("general", "games", "lounge")) as fake:
        bot = bot_on(tmp_path)
        async with fake.run(bot):
            await fake.slash("alice", "games", "game new", options={"game": "wassamasaw"})
            await fake.slash("bob", "games", "game join")
            await fake.slash("alice", "games", "game start")
            turn = fake.last_message("games")
            assert any(b["label"] == "Watch" for b in turn.buttons())
            r = await fake.click("alice", turn, label="Watch")
            assert (await answer(r)).ephemeral and "You play in game #1" in (await answer(r)).said
            r = await fake.click("carol", turn, label="Watch")
            shown = await answer(r)
            assert shown.ephemeral and "How shall I tell you" in shown.said
            assert [b["label"] for b in shown.buttons()] == ["Each round's picture", "Only the end", "Stop watching"]
            r = await fake.click("carol", shown, label="Only the end")
            assert "its end comes by direct message" in (await answer(r)).said
            r = await fake.slash("dave", "lounge", "game watch", options={"game": 1})      # by number, elsewhere
            assert "How shall I tell you" in (await answer(r)).said
            r = await fake.slash("dave", "lounge", "game watch", options={"game": 7})
            assert "There is no game #7." in (await answer(r)).said
            r = await fake.slash("dave", "lounge", "game unwatch")                        # the only one he watches
            assert "You no longer watch game #1" in (await answer(r)).said
            row = await bot.service.store.open_game(str(fake.channel("games").id))
            game = GAMES[row.game]
            state = game.load(row.state)
            seat = game.to_act(state)[0]
            await fake.slash(int(seat), "games", "game move", options={"action": game.bot_actions(state, seat)[0]})
            assert "👀 1 watching" in fake.last_message("games").said           # the table shows who watches
            await play_out(bot, fake, "games")
            await bot.send_due()                                   # the scheduler's pass: the watchers' messages
            dms = fake.messages(fake.dm_channel("carol"))
            assert len(dms) == 1 and "Game #1 (Wassamasaw)" in dms[0].said and "has ended" in dms[0].said
            assert [b["label"] for b in dms[0].buttons()] == ["Review"]
            r = await fake.click("carol", dms[0], label="Review")        # in the direct message
            assert "Wassamasaw" in (await answer(r)).said and "#1" in (await answer(r)).said
            assert fake.dm_channel("dave") is None                 # he stopped: nothing comes
            await bot.send_due()
            ended = [m for m in fake.messages(fake.dm_channel("carol")) if "has ended" in (m.said or "")]
            assert len(ended) == 1                                  # sent once


async def test_a_watcher_of_a_thread_game_is_added_to_the_thread(tmp_path):
    async with FakeDiscord(channels=("general", "games")) as fake:
        bot = bot_on(tmp_path)
        async with fake.run(bot):
            await fake.slash("alice", "games", "settings", options={"threads": True})
            await fake.slash("alice", "games", "game new", options={"game": "wassamasaw"})
            thread = fake.threads[0]
            r = await fake.slash("carol", "games", "game watch", options={"game": 1})
            assert "you are in its thread" in (await answer(r)).said
            carol = fake.user("carol").id
            assert any(q.method == "PUT" and q.path.endswith(f"/channels/{thread.id}/thread-members/{carol}")
                       for q in fake.requests)


async def test_follow_a_friend_and_watch_from_the_direct_message(tmp_path):
    async with FakeDiscord(channels=("general", "games")) as fake:
        bot = bot_on(tmp_path)
        async with fake.run(bot):
            r = await fake.slash("dave", "general", "follow", options={"user": "dave"})
            assert "You cannot follow yourself." in (await answer(r)).said
            r = await fake.slash("carol", "general", "notify", options={"followers": "off"})
            assert "Followers: off" in (await answer(r)).said
            r = await fake.slash("dave", "general", "follow", options={"user": "carol"})
            assert "prefers not to have followers" in (await answer(r)).said
            r = await fake.slash("dave", "general", "follow", options={"user": "alice"})
            assert "You follow" in (await answer(r)).said
            r = await fake.slash("dave", "general", "following")
            assert "You follow: Alice." in (await answer(r)).said
            await fake.slash("alice", "games", "game new", options={"game": "wassamasaw"})
            await fake.slash("bob", "games", "game join")
            await fake.slash("alice", "games", "game start")
            await bot.send_due()
            dm = fake.messages(fake.dm_channel("dave"))[-1]
            assert "started a game of Wassamasaw" in dm.said and dm.buttons()[0]["label"] == "Watch"
            r = await fake.click("dave", dm, label="Watch")          # a click in the direct message
            assert "You watch game #1" in (await answer(r)).said
            r = await fake.slash("dave", "general", "unfollow", options={"user": "alice"})
            assert "You no longer follow" in (await answer(r)).said


async def test_a_tv_channel_the_bot_cannot_post_in_is_refused_naming_the_permission(tmp_path):
    async with FakeDiscord(channels=("general", "tv")) as fake:
        no_send = ~((1 << 3) | (1 << 11))           # neither Administrator nor Send Messages
        fake.bot_role["permissions"] = str(int(ALL_PERMISSIONS) & no_send)
        fake.everyone_role["permissions"] = str(int(MEMBER_PERMISSIONS) & no_send)
        bot = bot_on(tmp_path)
        async with fake.run(bot):
            r = await fake.slash("bob", "general", "settings", options={"tv_channel": "tv"})
            assert "manage the server" in (await answer(r)).said
            r = await fake.slash("alice", "general", "settings", options={"tv_channel": "tv", "reminder_hours": 2})
            said = (await answer(r)).said
            # Discord takes Attach Files away with Send Messages
            assert "it lacks the Send Messages and Attach Files permissions there" in said and "\n" not in said
            assert await bot.service.tv.rows.tv_channel(str(fake.guild.id)) is None
            assert (await bot.service.settings(str(fake.guild.id))).reminder_hours == 4      # nothing changed
