"""End to end (issue #27): a whole game through the fake Discord ends with each player's new rating and a
Rematch button that still works after a restart; the rematch is one table however many click; /leaderboard,
/stats and /profile answer by rating."""

import pytest

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from tests.fakediscord import FakeDiscord
from tests.support import answer
from tests.test_discord_italian import names_by_id, play_on

pytestmark = pytest.mark.skipif("wassamasaw" not in GAMES, reason="needs the Wassamasaw engine")


def make_bot(path):
    store = Store(path)
    return TeahouseBot(store, service=TableService(store, render=False))


async def test_a_whole_game_ends_rated_and_the_rematch_button_reopens_the_table(tmp_path):
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake:
        names = names_by_id(fake)
        channel = str(fake.channel("general").id)
        bot = make_bot(db)
        async with fake.run(bot):
            lobby = await answer(await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"}))
            assert "rated: off" in lobby.said
            joined = await answer(await fake.click("bob", lobby, label="Join"))
            assert "rated: on" in joined.said
            msg = await answer(await fake.click("alice", joined, label="Start"))
            seats = [s.user_id for s in (await bot.store.open_game(channel)).seats]
            msg = await play_on(fake, bot.store, channel, names, msg)
            ended = await bot.store.latest_game(channel)
            assert ended.status == "finished"
            last = msg.said.splitlines()[-1]
            assert last.startswith("Ratings: ") and "(+" in last, msg.said
            if len(ended.result["winners"]) == 1:            # a shared victory (a tie) moves both up alike
                assert "(-" in last, msg.said
            assert "Rematch" in {b["label"] for b in msg.buttons()}
            final = msg

        async with fake.run(make_bot(db)):          # after a restart, the old message's button still answers
            refused = await answer(await fake.click("carol", final, label="Rematch"))
            assert refused.ephemeral and "Only the players" in refused.said
            r = await answer(await fake.click("bob", final, label="Rematch"))
            assert not r.ephemeral and "asks for a rematch" in r.said and f"<@{fake.user('alice').id}>" in r.said
            assert "Join" in {b["label"] for b in r.buttons()}
            again = await answer(await fake.click("alice", final, label="Rematch"))      # joins, no second table
            assert not again.ephemeral and "joined" in again.said
            store = Store(db)
            async with store:
                tables = await store.games(("lobby",))
                assert len(tables) == 1 and tables[0].id != ended.id
                assert [s.user_id for s in tables[0].seats] == seats[1:] + seats[:1]     # someone else first

            board = await answer(await fake.slash("carol", "general", "leaderboard", options={"game": "wassamasaw"}))
            assert board.said.startswith("**Wassamasaw** leaderboard\n1. ") and "(1 game)" in board.said
            stats = await answer(await fake.slash("carol", "general", "stats", options={"user": "alice"}))
            assert "Wassamasaw: rating 1" in stats.said and "Streak: 1" in stats.said
            card = await answer(await fake.slash("carol", "general", "profile", options={"user": "bob"}))
            assert not card.ephemeral and card.attachments and card.attachments[0].image().format == "PNG"
            assert "Wassamasaw" in (card.attachments[0].description or "")
    assert not fake.errors, fake.errors
