"""Each game through Discord (the fake): options in the lobby select, decisions by button, by private
picker and by the game's own command, and nothing hidden in a public message."""

import pytest

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from tests.fakediscord import FakeDiscord
from tests.support import answer


def make_bot(path):
    store = Store(path)
    return TeahouseBot(store, service=TableService(store))




async def open_and_start(fake, bot, key, players, options=None):
    r = await fake.slash(players[0], "general", "game new", options={"game": key})
    lobby = r.message
    for name, value in (options or {}).items():
        select = lobby.selects()[0]
        r = await fake.select(players[0], lobby, select["custom_id"], [f"{name}={value}"])
        lobby = await answer(r)
        assert f"{name}: {value}" in lobby.said
    for p in players[1:]:
        await fake.click(p, lobby, label="Join")
    return await answer(await fake.click(players[0], lobby, label="Start"))


def public_texts(fake):
    msgs = fake.messages("general", ephemeral=False)
    return [m.said for m in msgs] + [b.get("label") or "" for m in msgs for b in m.buttons()] + \
        [o["label"] for m in msgs for s in m.selects() for o in s.get("options", [])]


async def test_lobby_option_select_is_for_the_host_only(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        r = await fake.slash("alice", "general", "game new", options={"game": "mywuxing"})
        lobby = r.message
        select = lobby.selects()[0]
        r = await fake.select("bob", lobby, select["custom_id"], ["version=think"])
        assert (await answer(r)).ephemeral and "Only the host" in (await answer(r)).said
        r = await fake.select("alice", lobby, select["custom_id"], ["version=think"])
        assert "version: think" in (await answer(r)).said


async def test_wagara_secret_cards_are_chosen_privately(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")) as _:
        started = await open_and_start(fake, None, "wagara", ["alice", "bob"])
        labels = [b["label"] for b in started.buttons()]
        assert "Choose (only you see it)" in labels and not any(lb.startswith("play") for lb in labels)
        # the private picker: only the clicker's cards, ephemeral
        r = await fake.click("alice", started, label="Choose (only you see it)")
        picker = await answer(r)
        assert picker.ephemeral
        cards = [b for b in picker.buttons() if b["label"].startswith("play")]
        assert len(cards) == 7
        chosen = await answer(await fake.click("alice", picker, cards[4]["custom_id"]))
        assert not chosen.ephemeral and "play 5" not in chosen.said
        # Bob chooses by command; the autocomplete answers only him
        ac = await fake.autocomplete("bob", "general", "wagara play", {"card": ""}, "card")
        assert {c["value"] for c in ac.choices} == {"1", "2", "3", "4", "5", "6", "cloud"}
        r = await fake.slash("bob", "general", "wagara play", options={"card": "cloud"})
        revealed = await answer(r)
        assert not revealed.ephemeral
        # the choices were never public before both were made
        for text in public_texts(fake)[:-1]:
            assert "play 5" not in text and "plays 5" not in text
    assert not fake.errors


async def test_seikatsu_hand_never_reaches_a_public_message(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")) as _:
        bot = None
        started = await open_and_start(fake, bot, "seikatsu", ["alice", "bob"])
        row_store = Store(tmp_path / "b.db")
        await row_store.open()
        row = await row_store.open_game(str(fake.channel("general").id))
        game = GAMES["seikatsu"]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        first = next(n for n in ("alice", "bob") if str(fake.user(n).id) == seat)
        hand = game.view(state, seat)["hand"]
        await row_store.close()
        picker = await answer(await fake.click(first, started, label="Choose (only you see it)"))
        assert picker.ephemeral and picker.attachments and picker.attachments[0].image().format == "PNG"
        # the private view by command is ephemeral too
        r = await fake.slash(first, "general", "game hand")
        assert (await answer(r)).ephemeral
        ac = await fake.autocomplete(first, "general", "seikatsu place", {"tile": ""}, "tile")
        assert ac.choices
        tile = ac.choices[0]["value"]
        ac = await fake.autocomplete(first, "general", "seikatsu place", {"tile": tile, "space": ""}, "space")
        space = ac.choices[0]["value"]
        r = await fake.slash(first, "general", "seikatsu place", options={"tile": tile, "space": space})
        placed = await answer(r)
        assert not placed.ephemeral and "places" in placed.said
        for text in public_texts(fake):
            for t in hand:
                name = t if isinstance(t, str) else " ".join(str(x) for x in t.values() if isinstance(x, str))
                if name != tile and name != "koi":
                    assert f"place {name}" not in text
    assert not fake.errors


async def test_wassamasaw_take_in_one_command(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        started = await open_and_start(fake, None, "wassamasaw", ["alice", "bob"])
        first = next(n for n in ("alice", "bob") if f"<@{fake.user(n).id}>" in started.said)
        ac = await fake.autocomplete(first, "general", "wassamasaw take", {"die": ""}, "die")
        die = next(c["value"] for c in ac.choices)
        ac = await fake.autocomplete(first, "general", "wassamasaw take", {"die": die, "cell": ""}, "cell")
        if not ac.choices:
            pytest.skip("that die can only be converted")
        r = await fake.slash(first, "general", "wassamasaw take", options={"die": die, "cell": ac.choices[0]["value"]})
        done = await answer(r)
        assert not done.ephemeral and "takes" in done.said and f"places {die.split()[0]} at" in done.said
        r = await fake.slash(first, "general", "wassamasaw take", options={"die": "fire 9"})
        assert (await answer(r)).ephemeral
    assert not fake.errors


async def test_mywuxing_learn_both_players_reveal_with_one_public_button(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        started = await open_and_start(fake, None, "mywuxing", ["alice", "bob"], {"version": "learn"})
        assert "reveal" in [b["label"] for b in started.buttons()]
        assert "Choose (only you see it)" not in [b["label"] for b in started.buttons()]
        first = await answer(await fake.click("alice", started, label="reveal"))
        assert not first.ephemeral and "reveal" in [b["label"] for b in first.buttons()]
        r = await fake.click("carol", first, label="reveal")
        assert (await answer(r)).ephemeral                 # a spectator is refused
        second = await answer(await fake.slash("bob", "general", "mywuxing reveal"))
        assert not second.ephemeral and second.attachments[0].image().format == "PNG"
    assert not fake.errors


async def test_wurrm_rolling_panel_and_a_path_in_one_command(tmp_path):
    game = GAMES["wurrm"]
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        started = await open_and_start(fake, None, "wurrm", ["alice", "bob"])
        ids = {str(fake.user(n).id): n for n in ("alice", "bob")}
        store = Store(tmp_path / "b.db")
        await store.open()
        channel = str(fake.channel("general").id)

        async def state():
            return game.load((await store.open_game(channel)).state)

        msg = started
        for _ in range(2):                               # both place by button
            s = await state()
            who = ids[game.to_act(s)[0]]
            place = next(b for b in msg.buttons() if b["label"].startswith("place"))
            msg = await answer(await fake.click(who, msg, place["custom_id"]))
        for turn in range(20):                           # roll until a wish comes true
            s = await state()
            who = ids[game.to_act(s)[0]]
            assert [b["label"] for b in msg.buttons() if b["label"].startswith("lucky")] == \
                ["lucky 1", "lucky 2", "lucky 3", "lucky 4"]
            msg = await answer(await fake.slash(who, "general", "wurrm lucky", options={"number": 4}))
            assert msg.attachments[0].image().format == "PNG"
            assert {f"wish {n}" for n in range(1, 7)} <= {b["label"] for b in msg.buttons()}
            msg = await answer(await fake.click(who, msg, label="wish 1"))
            assert {"reroll", "stop"} <= {b["label"] for b in msg.buttons()}
            if turn == 0:
                r = await fake.slash(who, "general", "wurrm reroll", options={"dice": "1 2 9"})
                assert (await answer(r)).ephemeral        # die 9 does not exist
            msg = await answer(await fake.slash(who, "general", "wurrm stop"))
            s = await state()
            if s["phase"] == "move":
                break
        assert s["phase"] == "move"
        # walk the whole way in one command, the path suggested step by step
        ac = await fake.autocomplete(who, "general", "wurrm move", {"path": ""}, "path")
        path = ac.choices[0]["value"]
        for _ in range(s["move"]["left"] - 1):
            more = await fake.autocomplete(who, "general", "wurrm move", {"path": path + " "}, "path")
            if not more.choices:
                break
            path = more.choices[0]["value"]
        moved = await answer(await fake.slash(who, "general", "wurrm move", options={"path": path}))
        assert not moved.ephemeral and moved.said.count(" moves ") == len(path.split())
        await store.close()
    assert not fake.errors
