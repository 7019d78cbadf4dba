"""`/game review` end to end (issue #28): in every game, through the fake Discord, a player and a spectator
review a running game privately — ⏮ ◀ ▶ ⏭ and the jump select replace the step in the same ephemeral
message, with its picture — a game of another server is refused, the game option autocompletes from the
server's games, and an ended game's message offers Review beside Rematch, whose review (every view open
then) still answers after a restart."""

from __future__ import annotations

import pytest

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from tests.fakediscord import FakeDiscord
from tests.support import answer
from tests.test_discord_italian import names_by_id, play_on


def make_bot(path, render=True):
    store = Store(path)
    return TeahouseBot(store, service=TableService(store, render=render))


async def open_and_start(fake, key, players):
    lobby = (await fake.slash(players[0], "general", "game new", options={"game": key})).message
    for p in players[1:]:
        await fake.click(p, lobby, label="Join")
    return await answer(await fake.click(players[0], lobby, label="Start"))


def step_of(message) -> str:
    return message.said.splitlines()[0]


def button(message, text):
    return next(b for b in message.buttons() if b["label"] == text)


@pytest.mark.parametrize("key", ["wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm"])
async def test_a_running_game_reviewed_step_by_step(tmp_path, key):
    async with FakeDiscord() as fake:
        bot = make_bot(tmp_path / "b.db")
        async with fake.run(bot):
            names = names_by_id(fake)
            channel = str(fake.channel("general").id)
            started = await open_and_start(fake, key, ["alice", "bob"])
            await play_on(fake, bot.store, channel, names, started, 3)
            row = await bot.store.open_game(channel)
            n = len([e for e in await bot.store.log(row.id) if not e.action.startswith("#")])
            assert n >= 3

            # the game option autocompletes from this server's games
            ac = await fake.autocomplete("carol", "general", "game review", {"game": ""}, "game")
            assert [c["value"] for c in ac.choices] == [row.id] and GAMES[key].title in ac.choices[0]["name"]

            # a seated player: their own view, at the latest move
            r = await fake.slash("alice", "general", "game review")
            first = await answer(r)
            assert first.ephemeral and first.attachments and first.attachments[0].image().format == "PNG"
            assert step_of(first) == f"**{GAMES[key].title}** #{row.id} — move {n} of {n}"
            assert "As you saw it." in first.said
            assert [b["label"] for b in first.buttons()] == ["⏮", "◀", "▶", "⏭"]
            assert [b.get("disabled", False) for b in first.buttons()] == [False, False, True, False]

            # ◀ and ⏮ change the same private message in place, picture and all
            back = await answer(await fake.click("alice", first, button(first, "◀")["custom_id"]))
            assert back.id == first.id and back.ephemeral
            assert step_of(back).endswith(f"move {n - 1} of {n}")
            assert back.attachments and back.attachments[0].image().format == "PNG"
            start = await answer(await fake.click("alice", back, button(back, "⏮")["custom_id"]))
            assert start.id == first.id and "the start" in step_of(start)
            assert [b.get("disabled", False) for b in start.buttons()] == [True, True, False, False]
            one = await answer(await fake.click("alice", start, button(start, "▶")["custom_id"]))
            assert step_of(one).endswith(f"move 1 of {n}") and one.said.splitlines()[1].startswith("1. ")
            # the jump select: a player's next move, or a round
            select = next(s for s in one.selects() if s["custom_id"].startswith("th:j:"))
            jump = next(o for o in select["options"] if "next move" in o["label"])
            target = int(jump["value"].split("-")[0])
            jumped = await answer(await fake.select("alice", one, select["custom_id"], [jump["value"]]))
            assert jumped.id == first.id and step_of(jumped).endswith(f"move {target} of {n}")
            last = await answer(await fake.click("alice", jumped, button(jumped, "⏭")["custom_id"]))
            assert step_of(last).endswith(f"move {n} of {n}")

            # a spectator sees the table's view, with no choice of another's while the game runs
            seen = await answer(await fake.slash("carol", "general", "game review", options={"step": 1}))
            assert seen.ephemeral and "As the table sees it." in seen.said
            assert not [s for s in seen.selects() if s["custom_id"].startswith("th:j:") and ":s." in s["custom_id"]]
            over = await answer(await fake.slash("carol", "general", "game review", options={"step": n + 1}))
            assert over.ephemeral and f"no move {n + 1}" in over.said
            # a game id this server does not have
            missing = await answer(await fake.slash("carol", "general", "game review", options={"game": 999}))
            assert missing.ephemeral and "no game #999 in this server" in missing.said
    assert not fake.errors, fake.errors


async def test_the_end_offers_review_and_its_buttons_survive_a_restart(tmp_path):
    db = tmp_path / "b.db"
    async with FakeDiscord() as fake:
        names = names_by_id(fake)
        channel = str(fake.channel("general").id)
        bot = make_bot(db, render=False)          # a whole game: words only
        async with fake.run(bot):
            msg = await open_and_start(fake, "wassamasaw", ["alice", "bob"])
            msg = await play_on(fake, bot.store, channel, names, msg)
            ended = await bot.store.latest_game(channel)
            assert ended.status == "finished"
            n = len([e for e in await bot.store.log(ended.id) if not e.action.startswith("#")])
            assert [b["label"] for b in msg.buttons()] == ["Rematch", "Review", "Analysis"]
            review = await answer(await fake.click("carol", msg, label="Review"))
            assert review.ephemeral and review.id != msg.id and "the start" in step_of(review)
            # ended: every view may be chosen, the table's first
            views = next(s for s in review.selects() if ":s." in s["custom_id"])
            assert [o["label"] for o in views["options"]] == ["The table", "Alice", "Bob"]
        async with fake.run(make_bot(db, render=False)):       # a restart: the old message's buttons answer
            nxt = await answer(await fake.click("carol", review, button(review, "▶")["custom_id"]))
            assert nxt.id == review.id and step_of(nxt).endswith(f" — move 1 of {n}")
            views = next(s for s in nxt.selects() if ":s." in s["custom_id"])
            as_bob = await answer(await fake.select("carol", nxt, views["custom_id"], ["1"]))
            assert as_bob.id == review.id and "As Bob saw it." in as_bob.said and "(`" in as_bob.said
            assert "move 1 of" in step_of(as_bob)

            # a review id this code cannot read (an older bot's, say) is answered, and changes nothing
            odd = fake._create_message(fake.channel("general"), {"content": "old", "components": [
                {"type": 1, "components": [{"type": 2, "style": 2, "label": "▶",
                                            "custom_id": f"th:w:{ended.id}:x:n."}]}]}, {}, source="channel")
            refused = await answer(await fake.click("carol", odd, label="▶"))
            assert refused.ephemeral and "cannot be read any more" in refused.said
            assert fake.message(odd.id).said == "old"
    assert not fake.errors, fake.errors


async def test_an_italian_player_reviews_in_italian(tmp_path):
    from tests.test_discord_italian import assert_italian

    async with FakeDiscord() as fake:
        for name in ("alice", "bob"):
            fake.user(name).locale = "it"
        bot = make_bot(tmp_path / "b.db")
        async with fake.run(bot):
            names = {str(fake.user(n).id): n for n in ("alice", "bob")}
            started = await open_and_start(fake, "wassamasaw", ["alice", "bob"])
            await play_on(fake, bot.store, str(fake.channel("general").id), names, started, 2)
            shown = await answer(await fake.slash("bob", "general", "game review", options={"step": 1}))
            assert shown.ephemeral and step_of(shown).endswith("— mossa 1 di 2")
            assert "Come la vedevi tu." in shown.said
            assert [s["placeholder"] for s in shown.selects()] == ["Salta a un turno o a una mossa di un giocatore…"]
            assert_italian(shown)
            assert shown.attachments[0].image().format == "PNG"
    assert not fake.errors, fake.errors
