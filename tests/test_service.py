"""The table service on the test game: lobby, permissions, turns, concurrency, abandon, reopening."""

import asyncio

import pytest

import tests.tinygame  # noqa: F401  (registers Pebbles)
from store import Store
from table import TableService, User, Where
from table.replies import name_seats
from tests.support import Clock

HERE = Where("chan", guild="g")
ALICE, BOB, CY, EVE = User("111", "Alice"), User("222", "Bob"), User("333", "Cy"), User("999", "Eve")



@pytest.fixture
async def svc(tmp_path):
    store = await Store(tmp_path / "t.db").open()
    service = TableService(store, clock=Clock(), render=False)
    yield service
    await store.close()


async def started(svc, *users, options=None):
    r = await svc.open_table(HERE, users[0], "pebbles", options)
    assert r.ok
    for u in users[1:]:
        assert (await svc.join(HERE, u)).ok
    r = await svc.start(HERE, users[0])
    assert r.ok, r.private
    return r


def err(reply):
    assert not reply.ok
    return reply.private[0].text


async def test_open_join_start(svc):
    r = await svc.open_table(HERE, ALICE, "pebbles")
    assert r.ok and "Alice" in r.text and r.status == "lobby"
    assert "already seated" in err(await svc.join(HERE, ALICE))
    r = await svc.join(HERE, BOB)
    assert "1. Alice — host" in r.text and "2. Bob" in r.text
    assert "Only the host" in err(await svc.start(HERE, BOB))
    r = await svc.start(HERE, ALICE)
    assert r.ok and r.status == "running" and "begins" in r.text
    assert sorted(r.mention) == ["111", "222"]          # both bid at once
    assert sorted(r.turn.private_seats) == ["111", "222"]


async def test_unknown_game_and_bad_options_are_refused(svc):
    assert "no game called" in err(await svc.open_table(HERE, ALICE, "chess"))
    assert "can be" in err(await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 42}))
    assert (await svc.store.open_game("chan")) is None


async def test_second_game_in_a_channel_is_refused_clearly(svc):
    await svc.open_table(HERE, ALICE, "pebbles")
    text = err(await svc.open_table(HERE, BOB, "pebbles"))
    assert "already has a game of Pebbles" in text and "abandon" in text
    other = await svc.open_table(Where("other", "g"), BOB, "pebbles")
    assert other.ok


async def test_full_table_and_too_few_players(svc):
    await svc.open_table(HERE, ALICE, "pebbles")
    assert "2 to 4" in err(await svc.start(HERE, ALICE))
    for u in (BOB, CY, EVE):
        await svc.join(HERE, u)
    assert "full" in err(await svc.join(HERE, User("444", "Dan")))


async def test_options_host_only_and_typed(svc):
    await svc.open_table(HERE, ALICE, "pebbles")
    await svc.join(HERE, BOB)
    assert "Only the host" in err(await svc.set_option(HERE, BOB, "rounds", "2"))
    assert "whole number" in err(await svc.set_option(HERE, ALICE, "rounds", "two"))
    assert "no option" in err(await svc.set_option(HERE, ALICE, "colour", "red"))
    r = await svc.set_option(HERE, ALICE, "rounds", "2")
    assert r.ok and "rounds: 2" in r.text


async def test_leaving_the_lobby_passes_the_host_and_closes_when_empty(svc):
    await svc.open_table(HERE, ALICE, "pebbles")
    await svc.join(HERE, BOB)
    r = await svc.leave(HERE, ALICE)
    assert "Bob is the host now" in r.text
    assert "not seated" in err(await svc.leave(HERE, ALICE))
    r = await svc.leave(HERE, BOB)
    assert "closed" in r.text
    assert (await svc.open_table(HERE, CY, "pebbles")).ok


async def test_only_a_seat_to_act_can_act(svc):
    await started(svc, ALICE, BOB, options={"rounds": 1})
    assert "not playing" in err(await svc.act(HERE, EVE, "bid 1"))
    assert "Bid with" in err(await svc.act(HERE, ALICE, "bid 7"))
    r = await svc.act(HERE, ALICE, "bid 3")
    assert r.ok and r.text.startswith("Alice bids.")
    assert "3" not in r.text.split("\n")[0]        # the secret bid is not in the public line
    assert "already bid" in err(await svc.act(HERE, ALICE, "bid 2"))
    r = await svc.act(HERE, BOB, "bid 1")
    assert "Revealed" in r.text and r.mention == ["111"]
    assert r.turn.public_actions == {"111": ["keep", "reroll"]}
    assert "not your turn" in err(await svc.act(HERE, BOB, "keep"))
    r = await svc.act(HERE, ALICE, "keep")
    assert r.status == "finished" and "Game over" in r.text and "Alice wins" in r.text
    assert "no game" in err(await svc.act(HERE, ALICE, "bid 1")).lower()


async def test_spectators_see_status_but_not_hands(svc):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 2")
    status = await svc.status(HERE, EVE)
    assert status.ok and "Alice bids." in status.text and "Bob to play" in status.text
    assert status.turn.private_seats == ["222"] and status.turn.public_actions == {}
    assert "not playing" in err(await svc.hand(HERE, EVE))
    hand = await svc.hand(HERE, ALICE)
    assert "Your bid: 2" in hand.private[0].text and hand.private[0].user == "111"


async def test_concurrent_moves_apply_exactly_once(svc):
    """Two simultaneous clicks of the same decision: one applies, the other gets a clear answer."""
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 3")
    await svc.act(HERE, BOB, "bid 1")
    v = (await svc.store.open_game("chan")).version
    a, b = await asyncio.gather(svc.act(HERE, ALICE, "keep", version=v), svc.act(HERE, ALICE, "reroll", version=v))
    assert [a.ok, b.ok].count(True) == 1
    loser = b if a.ok else a
    assert loser.stale and "moved on" in loser.private[0].text
    log = await svc.store.log(loser.game_id)
    assert [e.action for e in log][-1] in ("keep", "reroll") and len(log) == 3


async def test_stale_button_gets_current_prompt(svc):
    r = await started(svc, ALICE, BOB)
    old = r.version
    await svc.act(HERE, ALICE, "bid 1")
    stale = await svc.act(HERE, BOB, "bid 2", version=old)
    assert stale.stale and not stale.ok and stale.turn.to_act == ["222"]
    assert "Waiting for" in stale.private[0].text or "to play" in stale.private[0].text


async def test_abandon_rules(svc):
    clock = svc.clock
    await started(svc, ALICE, BOB)
    assert "Only the host or" in err(await svc.abandon(HERE, EVE, confirm=True))
    assert "Only the host can abandon an active game" in err(await svc.abandon(HERE, BOB, confirm=True))
    r = await svc.abandon(HERE, ALICE)
    assert r.ok and "Confirm" in r.private[0].text
    assert (await svc.store.open_game("chan")).status == "running"     # nothing happened yet
    clock.now += 25 * 3600                                              # idle for a day
    r = await svc.abandon(HERE, BOB, confirm=True)
    assert r.ok and r.status == "abandoned" and "Bob abandoned" in r.text
    assert (await svc.open_table(HERE, CY, "pebbles")).ok


async def test_history_pages(svc):
    await started(svc, ALICE, BOB, options={"rounds": 5})
    for _ in range(5):
        await svc.act(HERE, ALICE, "bid 1")
        await svc.act(HERE, BOB, "bid 2")
        await svc.act(HERE, BOB, "keep")
    page1 = (await svc.history(HERE, EVE, 1)).private[0].text
    assert "page 1 of 1" in page1 and "1. Alice bids." in page1 and "Bob keeps" in page1
    assert "1 page" in err(await svc.history(HERE, EVE, 3))


async def test_computer_players_take_their_turns(svc):
    await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 3})
    assert "Only the host" in err(await svc.add_bot(HERE, BOB))
    await svc.add_bot(HERE, ALICE)
    r = await svc.start(HERE, ALICE)
    assert r.turn.to_act == ["111"]                 # the computer has already bid
    for _ in range(10):
        row = await svc.store.open_game("chan")
        if row is None:
            break
        actions = await svc.legal(HERE, ALICE)
        r = await svc.act(HERE, ALICE, actions[0])
        assert r.ok
    assert r.status == "finished"


async def test_games_resume_after_reopening(tmp_path):
    path = tmp_path / "t.db"
    store = await Store(path).open()
    svc = TableService(store, render=False)
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 3")
    await store.close()
    store = await Store(path).open()
    svc = TableService(store, render=False)
    assert (await svc.hand(HERE, ALICE)).private[0].text.count("Your bid: 3") == 1
    r = await svc.act(HERE, BOB, "bid 1")
    assert r.ok and "Revealed" in r.text
    await store.close()


def test_names_replace_whole_seat_ids_only():
    names = {"111": "Alice", "1112": "Zed"}
    assert name_seats("111 beats 1112; 11111 is nobody", names) == "Alice beats Zed; 11111 is nobody"


async def test_steps_of_one_turn_apply_all_or_none(svc):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 3")
    await svc.act(HERE, BOB, "bid 1")
    assert await svc.legal_after(HERE, ALICE, ["keep"]) == ["bid 1", "bid 2", "bid 3"]   # the next round
    assert await svc.legal_after(HERE, ALICE, ["bid 9"]) == []
    before = (await svc.store.open_game("chan")).version
    r = await svc.act(HERE, ALICE, steps=["keep", "bid 2", "bid 7"])
    assert "step 3: bid 7" in err(r)
    assert (await svc.store.open_game("chan")).version == before        # nothing was stored
    r = await svc.act(HERE, ALICE, steps=["keep", "bid 2"])
    assert r.ok and r.log == ["Alice keeps " + r.log[0].split("keeps ")[1], "Alice bids."]


async def test_computer_players_finish_a_wagara_game(tmp_path):
    """Wagara's computer players keep to the engine's bot_actions (blind play would never end); the host
    plays the same way here, so the whole game runs through the service to its end."""
    import random

    from engine import GAMES

    game = GAMES["wagara"]
    store = await Store(tmp_path / "w.db").open()
    svc = TableService(store, render=False)
    await svc.open_table(HERE, ALICE, "wagara")
    await svc.add_bot(HERE, ALICE)
    await svc.add_bot(HERE, ALICE)
    assert (await svc.start(HERE, ALICE)).ok
    rnd = random.Random(5)
    for _ in range(3000):
        row = await store.latest_game("chan")
        if row.status == "finished":
            break
        state = game.load(row.state)
        assert game.to_act(state) == ["111"]           # the computers have already played
        r = await svc.act(HERE, ALICE, rnd.choice(game.bot_actions(state, "111")))
        assert r.ok, r.private
    assert (await store.latest_game("chan")).status == "finished"
    await store.close()


def test_a_private_part_with_nothing_in_it_is_never_handed_to_a_front_end():
    """Discord refuses an empty message: a part without text or picture is left out of what a user gets."""
    from table.replies import Picture, Private, Reply

    reply = Reply(private=[Private("1", ""), Private("1", "tip"), Private("1", "", Picture("a.png", data=b"x")),
                           Private("2", "other")])
    assert [(p.text, p.image is not None) for p in reply.private_for("1")] == [("tip", False), ("", True)]
