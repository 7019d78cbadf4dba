"""End to end: the real discord.py client and our cogs against the fake Discord on 127.0.0.1.

Two users open, join and start a Wassamasaw game, play by slash command and by button, a third user's
click is refused, the bot restarts mid-game and a button on an old message still answers.
"""

import pytest

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from tests.fakediscord import FakeDiscord
from tests.support import answer

pytestmark = pytest.mark.skipif("wassamasaw" not in GAMES, reason="needs the Wassamasaw engine")


def make_bot(path):
    store = Store(path)
    return TeahouseBot(store, service=TableService(store))


def ids(fake, *names):
    return {n: str(fake.user(n).id) for n in names}




def buttons(message):
    return {b.get("label"): b for b in message.buttons()}


async def test_two_users_play_by_command_and_button_across_a_restart(tmp_path):
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake:
        uid = ids(fake, "alice", "bob", "carol")
        async with fake.run(make_bot(db)):
            # the commands were synced globally
            assert any(c["name"] == "game" for c in fake.commands())

            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            # answered at once, or deferred first when it took longer than ACK_WITHIN (a busy machine, a
            # fresh clone's first command compiling the modules it imports)
            assert r.callback_type in (4, 5) and not r.ephemeral
            lobby = r.message
            assert {"Join", "Leave", "Start"} <= set(buttons(lobby))

            r = await fake.click("bob", lobby, label="Join")
            assert not r.ephemeral and "Bob joined" in r.text().replace("bob", "Bob")

            r = await fake.click("carol", lobby, label="Start")
            assert r.ephemeral and "Only the host" in r.text()

            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            assert r.ephemeral and "already has a game" in r.said

            r = await fake.slash("alice", "general", "game start")
            started = await answer(r)
            assert not started.ephemeral and "begins" in started.said
            png = started.attachments[0].image()
            assert png.format == "PNG" and png.width >= 600
            # whoever acts first is mentioned, and only they are pinged
            first = next(n for n in ("alice", "bob") if f"<@{uid[n]}>" in started.said)
            other = "bob" if first == "alice" else "alice"
            takes = [b for b in started.buttons() if (b.get("label") or "").startswith("take ")]
            assert takes, "the first decision (which die) is offered as buttons"
            assert not started.mention_everyone

            # a third user's click is refused, privately, and changes nothing
            r = await fake.click("carol", started, takes[0]["custom_id"])
            refusal = await answer(r)
            assert refusal.ephemeral and "not playing" in refusal.said

            # the first player plays by slash command, from autocomplete
            ac = await fake.autocomplete(first, "general", "game move", {"action": "take"}, "action")
            assert ac.choices and all(c["value"].startswith("take") for c in ac.choices)
            # not a 6 (it fits any row: 25 places come as a select, not buttons)
            choice = next((c for c in ac.choices if not c["value"].endswith(" 6")), ac.choices[0])
            r = await fake.slash(first, "general", "game move", options={"action": choice["value"]})
            after_take = await answer(r)
            assert not after_take.ephemeral and "takes" in after_take.said
            assert after_take.attachments[0].image().format == "PNG"
            place = [b for b in after_take.buttons() if (b.get("label") or "").startswith(("place", "convert"))]
            assert place

            # the other player cannot click it: not their turn
            r = await fake.click(other, after_take, place[0]["custom_id"])
            refusal = await answer(r)
            assert refusal.ephemeral and "not your turn" in refusal.said.lower()

            # the first player places by button
            r = await fake.click(first, after_take, place[0]["custom_id"])
            placed = await answer(r)
            assert not placed.ephemeral and placed.attachments[0].image().format == "PNG"
            assert f"<@{uid[other]}>" in placed.said

        # restart: a new bot process on the same database and the same (fake) Discord
        async with fake.run(make_bot(db)):
            # an old message's button answers "this has moved on" with the current prompt
            r = await fake.click(first, after_take, place[0]["custom_id"])
            moved = await answer(r)
            assert moved.ephemeral and "moved on" in moved.said
            # the latest message's buttons still play
            take_now = [b for b in placed.buttons() if (b.get("label") or "").startswith("take ")]
            r = await fake.click(other, placed, take_now[0]["custom_id"])
            took = await answer(r)
            assert not took.ephemeral and "takes" in took.said

            # status for a spectator, hand privately, history
            r = await fake.slash("carol", "general", "game status")
            status = await answer(r)
            assert not status.ephemeral and status.attachments[0].image().format == "PNG"
            r = await fake.slash("carol", "general", "game hand")
            assert r.ephemeral and "not playing" in r.said
            r = await fake.slash("alice", "general", "game history")
            assert r.ephemeral and "page 1 of 1" in r.said

            # abandon with a confirmation
            r = await fake.slash("alice", "general", "game abandon")
            assert r.ephemeral and "Confirm" in r.said
            r = await fake.click("alice", r.message, label="Yes, abandon the game")
            abandoned = await answer(r)         # at once, or after a deferral when the machine is slow
            assert not abandoned.ephemeral and "abandoned" in abandoned.said
    # nothing the bot sent could ping @everyone or a role, whatever a display name contains
    checked = 0
    for req in fake.requests:
        body = req.json if isinstance(req.json, dict) else {}
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        if "allowed_mentions" in data:
            parse = data["allowed_mentions"].get("parse", [])
            assert "everyone" not in parse and "roles" not in parse
            checked += 1
    assert checked >= 10
    assert not fake.errors, fake.errors
    assert not fake.unknown_routes, fake.unknown_routes
