"""Play across a day through Discord (the fake): settings, threads, reminders and deadline buttons sent by
the scheduler, undo, replay, export, /games, /mygames, /stats and /leaderboard."""

import io
import json

from PIL import Image

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from tests.fakediscord import FakeDiscord
from tests.support import Clock, answer

H = 3600



def make_bot(path, clock):
    store = Store(path)
    return TeahouseBot(store, service=TableService(store, clock=clock))




async def test_threads_reminders_deadline_buttons_and_records(tmp_path):
    clock = Clock()
    async with FakeDiscord() as fake:
        uid = {n: str(fake.user(n).id) for n in ("alice", "bob", "carol")}
        bot = make_bot(tmp_path / "bot.db", clock)
        async with fake.run(bot):
            # settings: a member without Manage Server is refused; the owner sets threads on
            r = await fake.slash("bob", "general", "settings", options={"threads": True})
            assert r.ephemeral and "manage this server" in r.said
            r = await fake.slash("alice", "general", "settings", options={"threads": True, "reminder_hours": 2})
            assert r.ephemeral and "Settings saved" in r.said and "every 2 h" in r.said

            # /game new opens a thread; the lobby lives there
            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            assert not r.ephemeral and "opened a table" in r.said
            thread = fake.threads[-1]
            lobby = fake.last_message(thread)
            assert {"Join", "Start"} <= {b.get("label") for b in lobby.buttons()}
            await fake.click("bob", lobby, label="Join")
            r = await fake.click("alice", lobby, label="Start")
            started = await answer(r)
            assert "begins" in started.said
            note = await fake.wait_for_message(lambda m: "started" in m.said, channel="general")
            assert "Wassamasaw" in note.said                                    # the parent hears of it

            game = GAMES["wassamasaw"]
            row = await bot.store.open_game(str(thread.id))
            first = next(n for n in ("alice", "bob") if uid[n] == game.to_act(game.load(row.state))[0])
            other = "bob" if first == "alice" else "alice"

            # /games and /mygames
            r = await fake.slash("carol", "general", "games")
            assert "Wassamasaw" in r.said and str(thread.id) in r.said
            r = await fake.slash(first, "general", "mygames")
            assert "Wassamasaw" in r.said
            r = await fake.slash(other, "general", "mygames")
            assert "No game is waiting" in r.said

            # undo: take a die (which cannot go back to the pool, Wassamasaw D3), place it, take the
            # placement back
            # a die other than a 6, whose 25 places come as a select rather than buttons
            take = next(b for b in started.buttons() if b["label"].startswith("take")
                        and not b["label"].endswith(" 6"))
            took = await answer(await fake.click(first, started, take["custom_id"]))
            assert "takes" in took.said
            # the same player acts again (place the die): the turn message is updated in place, with the
            # new image and the cells as buttons, instead of a new message
            assert took.id == started.id and took.attachments[0].image().format == "PNG"
            assert any(b["label"].startswith("place") for b in took.buttons())
            r = await fake.slash(first, thread, "game undo")
            assert r.ephemeral and "cannot be taken back" in r.said
            place = next(b for b in took.buttons() if b["label"].startswith("place"))
            await answer(await fake.click(first, took, place["custom_id"]))
            r = await fake.slash(other, thread, "game undo")
            assert r.ephemeral and "Only your own" in r.said
            r = await fake.slash(first, thread, "game undo")
            back = await answer(r)
            assert "took back" in back.said and not back.ephemeral

            # the scheduler: a reminder after 2 h, in the thread, mentioning whoever must act,
            # and a direct message for a player who asked for them
            r = await fake.slash(first, "general", "notify", options={"direct_messages": "on"})
            assert r.ephemeral and "direct message" in r.said
            before = len(fake.messages(thread))
            clock.now += 2 * H + 1
            await bot.send_due()
            reminder = await fake.wait_for_message(lambda m: "Reminder" in m.said, channel=thread)
            assert f"<@{uid[first]}>" in reminder.said and len(fake.messages(thread)) == before + 1
            dm = await fake.wait_for_message(lambda m: "It is your move in Wassamasaw" in m.said)
            assert fake.dm_channel(first) is not None and dm.channel_id == fake.dm_channel(first).id
            await bot.send_due()                                    # nothing twice
            assert len(fake.messages(thread)) == before + 1

            # the deadline: buttons for the others; the absent player cannot use them
            clock.now += 22 * H
            await bot.send_due()
            offer = await fake.wait_for_message(lambda m: "has not played" in m.said, channel=thread)
            skip = next(b for b in offer.buttons() if b["label"].startswith("Skip"))
            r = await fake.click(first, offer, skip["custom_id"])
            assert (await answer(r)).ephemeral
            r = await fake.click(other, offer, skip["custom_id"])
            skipped = await answer(r)
            assert not skipped.ephemeral and "computer played for them" in skipped.said

            # replay (an animated GIF) and export (JSON), privately
            r = await fake.slash("carol", thread, "game replay")
            replay = await answer(r)
            assert replay.ephemeral
            with Image.open(io.BytesIO(replay.attachments[0].data)) as im:
                assert im.format == "GIF" and im.n_frames >= 2
            # in its card: the animation in a media gallery, the log as a file to download (#48)
            shown = [c for c in replay.all_components() if c["type"] == 12]
            assert shown and shown[0]["items"][0]["media"]["url"] == f"attachment://{replay.attachments[0].filename}"
            r = await fake.slash("carol", thread, "game export")
            exported = await answer(r)
            data = json.loads(exported.attachments[0].data)
            assert data["game"] == "wassamasaw" and "seed" not in data
            files = [c for c in exported.all_components() if c["type"] == 13]
            assert [f["file"]["url"] for f in files] == [f"attachment://{exported.attachments[0].filename}"]

            # abandon, then stats and the leaderboard
            r = await fake.slash("alice", thread, "game abandon")
            await fake.click("alice", r.message, label="Yes, abandon the game")
            r = await fake.slash("carol", "general", "stats", options={"user": "alice"})
            assert "abandoned" in r.said and not r.ephemeral
            r = await fake.slash("carol", "general", "leaderboard", options={"game": "wassamasaw"})
            # a seated player who abandons places last (issue #27): the game is rated, alice below bob
            assert r.said.index("Bob") < r.said.index("Alice") and "(1 game)" in r.said
    assert not fake.errors, fake.errors
