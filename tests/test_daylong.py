"""Play across a day (issue 9) in the table service, with a controllable clock."""

import json

import pytest
from PIL import Image

import tests.tinygame  # noqa: F401
from engine import GAMES
from render import RENDERERS
from store import Store
from table import TableService, User, Where
from table.records import effective_actions, rebuild
from tests.support import err, started

HERE = Where("chan", guild="g")
ALICE, BOB, CY = User("111", "Alice"), User("222", "Bob"), User("333", "Cy")
H = 3600








# ----- reminders and deadlines ---------------------------------------------------------------------------
async def test_reminder_fires_after_the_interval_once_with_a_mention(svc, clock):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 4 * H - 1
    assert await svc.due() == []
    clock.now += 2
    notices = await svc.due()
    assert len(notices) == 1
    n = notices[0]
    assert n.channel == "chan" and n.reply.mention == ["222"] and "Reminder" in n.reply.text
    assert n.reply.turn.to_act == ["222"]                 # the reminder carries the prompt again
    assert await svc.due() == []                          # not twice
    clock.now += 4 * H + 1                                # reminded again, before the deadline
    assert [x.reply.mention for x in await svc.due()] == [["222"]]


async def test_a_move_resets_the_reminder(svc, clock):
    await started(svc, ALICE, BOB)
    clock.now += 3 * H
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 2 * H                                    # 5 h since the start, 2 h since Alice moved
    assert await svc.due() == []


async def test_direct_messages_only_for_users_who_opted_in(svc, clock):
    await started(svc, ALICE, BOB)
    await svc.set_notify(BOB, True)
    clock.now += 4 * H + 1
    notices = await svc.due()
    dms = {p.user for n in notices for p in n.dm}
    assert dms == {"222"}
    await svc.set_notify(BOB, False)
    clock.now += 4 * H + 1
    assert all(not n.dm for n in await svc.due())


async def test_deadline_offers_skip_and_remove_and_nothing_happens_by_itself(svc, clock):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 24 * H + 1
    notices = await svc.due()
    offer = next(n.reply.offer for n in notices if n.reply.offer)
    assert offer.absent == ["222"]
    row = await svc.store.open_game("chan")
    assert svc.game_of("pebbles").to_act(svc.game_of("pebbles").load(row.state)) == ["222"]   # untouched
    # Bob himself, or a spectator, cannot use it; Alice can
    assert "just make your move" in err(await svc.skip(HERE, BOB, "222"))
    assert "Only the other players" in err(await svc.skip(HERE, CY, "222"))
    r = await svc.skip(HERE, ALICE, "222", version=offer.version)
    assert r.ok and "a computer played for them" in r.text and "Revealed" in r.text


async def test_skip_refused_before_the_deadline(svc, clock):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 23 * H
    assert "before the turn deadline" in err(await svc.skip(HERE, ALICE, "222"))


async def test_remove_hands_the_seat_to_a_computer(svc, clock):
    await started(svc, ALICE, BOB, options={"rounds": 2})
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 25 * H
    r = await svc.remove(HERE, ALICE, "222")
    assert r.ok and "removed from the game" in r.text
    row = await svc.store.open_game("chan")
    assert row.seat_of("222").is_bot and row.seat_of("222").removed
    assert "Bob was removed" in (await svc.history(HERE, CY)).private[0].text


async def test_server_may_choose_automatic_skip(svc, clock):
    assert (await svc.change_settings("g", ALICE, True, deadline_action="skip", reminder_hours=0)).ok
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 24 * H + 1
    notices = await svc.due()
    assert len(notices) == 1 and "missed the deadline" in notices[0].reply.text


async def test_restart_in_the_middle_of_a_deadline(tmp_path, clock):
    path = tmp_path / "t.db"
    store = await Store(path).open()
    svc = TableService(store, clock=clock, render=False)
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now += 10 * H
    await svc.due()                           # the 4 h and 8 h reminders go out (as one: the 4 h one)
    await store.close()
    store = await Store(path).open()          # the bot restarts
    svc = TableService(store, clock=clock, render=False)
    pending = {t.kind for t in await store.pending_timers()}
    assert "deadline" in pending
    clock.now += 14 * H + 1                   # 24 h after Alice's move
    notices = await svc.due()
    assert any(n.reply.offer for n in notices)
    assert await svc.due() == []              # no duplicate after the restart either
    await store.close()


async def test_settings_refused_without_the_permission(svc):
    assert "manage this server" in err(await svc.change_settings("g", BOB, False, reminder_hours=1))
    assert (await svc.settings("g")).reminder_hours == 4
    r = await svc.change_settings("g", ALICE, True, reminder_hours=2, deadline_hours=48, threads=True,
                                  mention=False)
    assert r.ok and "every 2 h" in r.private[0].text
    s = await svc.settings("g")
    assert (s.reminder_hours, s.deadline_hours, s.threads, s.mention) == (2, 48, True, False)
    assert "between 1 and 168" in err(await svc.change_settings("g", ALICE, True, reminder_hours=1000))
    assert "vote, skip or remove" in err(await svc.change_settings("g", ALICE, True, deadline_action="kick"))


async def test_mention_off_names_without_pinging(svc):
    await svc.change_settings("g", ALICE, True, mention=False)
    r = await started(svc, ALICE, BOB)
    assert r.mention == [] and "Waiting for" in r.text


# ----- a rules time limit: the reaction window -----------------------------------------------------------
async def test_X8_reaction_time_runs_out_and_silence_passes(svc, clock):
    game = GAMES["mywuxing"]
    await started(svc, ALICE, BOB, CY, game="mywuxing",
                  options={"version": "think", "power_cards": "on", "reaction_time": 20})
    for _ in range(400):                       # play until a reaction window opens
        row = await svc.store.open_game("chan")
        state = game.load(row.state)
        if state["phase"] in ("react", "counter"):
            break
        seat = game.to_act(state)[0]
        user = next(u for u in (ALICE, BOB, CY) if u.id == seat)
        opened = await svc.act(HERE, user, game.legal_actions(state, seat)[0])
        assert opened.ok
    else:
        pytest.skip("no reaction window in this game")
    waiting = game.to_act(state)
    assert "20 seconds to answer; silence counts as 'pass'" in opened.text
    clock.now += 19
    assert await svc.due() == []
    clock.now += 2
    notices = await svc.due()
    assert len(notices) == 1 and "Time is up" in notices[0].reply.text
    state = game.load((await svc.store.latest_game("chan")).state)
    assert not set(waiting) & set(game.to_act(state)) or state["phase"] != "react"


# ----- undo ----------------------------------------------------------------------------------------------
async def test_undo_your_own_last_move(svc):
    """A placement can be taken back; the die stays in hand (Wassamasaw D3: a taken die never goes back, #16)."""
    await started(svc, ALICE, BOB, game="wassamasaw")
    game = GAMES["wassamasaw"]
    row = await svc.store.open_game("chan")
    first = game.to_act(game.load(row.state))[0]
    me, other = (ALICE, BOB) if first == ALICE.id else (BOB, ALICE)
    take = game.legal_actions(game.load(row.state), me.id)[0]
    assert take.startswith("take")
    assert (await svc.act(HERE, me, take)).ok
    held = (await svc.store.open_game("chan")).state
    place = game.legal_actions(game.load(held), me.id)[0]
    assert (await svc.act(HERE, me, place)).ok
    assert "Only your own last action" in err(await svc.undo(HERE, other))
    r = await svc.undo(HERE, me)
    assert r.ok and "took back" in r.text
    assert (await svc.store.open_game("chan")).state == held
    assert "already taken back" in err(await svc.undo(HERE, me))
    entries = await svc.store.log(row.id)
    assert [e.action for e in entries][-3:] == [take, place, "#undo"]
    assert [(e.seat, e.action) for e in effective_actions(entries)] == [(me.id, take)]


async def test_undo_refused_for_a_taken_die_d3(svc):
    """Wassamasaw D3 (#16): a taken die is in hand and cannot go back to the pool."""
    await started(svc, ALICE, BOB, game="wassamasaw")
    game = GAMES["wassamasaw"]
    row = await svc.store.open_game("chan")
    first = game.to_act(game.load(row.state))[0]
    me = ALICE if first == ALICE.id else BOB
    take = game.legal_actions(game.load(row.state), me.id)[0]
    assert (await svc.act(HERE, me, take)).ok
    after = (await svc.store.open_game("chan")).state
    assert "cannot be taken back" in err(await svc.undo(HERE, me))
    assert (await svc.store.open_game("chan")).state == after


async def test_undo_refused_across_a_random_event(svc):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    await svc.act(HERE, BOB, "bid 2")          # the last bid rolls the die (and reveals the bids)
    assert "random event" in err(await svc.undo(HERE, BOB))


async def test_undo_refused_for_a_secret_choice(svc):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    assert "secret choice" in err(await svc.undo(HERE, ALICE))


async def test_undo_refused_once_someone_else_acted(svc):
    await started(svc, ALICE, BOB, game="wassamasaw")
    game = GAMES["wassamasaw"]
    row = await svc.store.open_game("chan")
    users = {ALICE.id: ALICE, BOB.id: BOB}
    first = users[game.to_act(game.load(row.state))[0]]
    state = game.load(row.state)
    await svc.act(HERE, first, game.legal_actions(state, first.id)[0])
    state = game.load((await svc.store.open_game("chan")).state)
    await svc.act(HERE, first, game.legal_actions(state, first.id)[0])   # place
    state = game.load((await svc.store.open_game("chan")).state)
    second = users[game.to_act(state)[0]]
    await svc.act(HERE, second, game.legal_actions(state, second.id)[0])
    assert "Only your own last action" in err(await svc.undo(HERE, first))


# ----- replay, export, stats -----------------------------------------------------------------------------
async def test_replay_equals_the_live_games_images(store, clock):
    svc = TableService(store, clock=clock)     # with pictures
    game = GAMES["wassamasaw"]
    await started(svc, ALICE, BOB, game="wassamasaw")
    users = {ALICE.id: ALICE, BOB.id: BOB}
    live = []
    for _ in range(12):
        row = await store.open_game("chan")
        state = game.load(row.state)
        live.append(RENDERERS["wassamasaw"](game.view(state, None), row.names, None).tobytes())
        seat = game.to_act(state)[0]
        assert (await svc.act(HERE, users[seat], game.legal_actions(state, seat)[-1])).ok
    row = await store.open_game("chan")
    states = rebuild(game, row, await store.log(row.id))
    assert game.dump(states[-1]) == row.state
    replayed = [RENDERERS["wassamasaw"](game.view(s, None), row.names, None).tobytes() for s in states[:12]]
    assert replayed == live
    reply = await (await svc.replay(HERE, CY)).render()
    gif = reply.private[0].image
    with Image.open(__import__("io").BytesIO(gif.data)) as im:
        assert im.format == "GIF" and im.n_frames == len(states)


async def test_export_hides_secrets_while_running_and_tells_all_after(svc):
    await started(svc, ALICE, BOB, options={"rounds": 1})
    await svc.act(HERE, ALICE, "bid 3")
    data = json.loads((await svc.export(HERE, BOB)).private[0].image.data)
    assert "seed" not in data and all("action" not in e for e in data["log"])
    assert data["log"][0]["line"] == "Alice bids." and data["log"][0]["name"] == "Alice"
    await svc.act(HERE, BOB, "bid 1")
    await svc.act(HERE, ALICE, "keep")
    data = json.loads((await svc.export(HERE, BOB)).private[0].image.data)
    assert data["seed"] is not None and data["log"][0]["action"] == "bid 3" and data["result"]["winners"]


async def test_stats_after_finished_and_abandoned_games(svc):
    other = Where("elsewhere", guild="g2")
    for _ in range(2):                          # Alice wins two one-round games (Bob bids less)
        await started(svc, ALICE, BOB, options={"rounds": 1})
        await svc.act(HERE, ALICE, "bid 3")
        await svc.act(HERE, BOB, "bid 1")
        await svc.act(HERE, ALICE, "keep")
    await started(svc, ALICE, BOB)              # and one abandoned game
    await svc.abandon(HERE, ALICE, confirm=True)
    assert (await svc.open_table(other, BOB, "pebbles")).ok   # a lobby elsewhere counts for nothing
    alice = await svc.stats("111")
    bob = await svc.stats("222", guild="g")
    assert (alice.total.played, alice.total.wins, alice.total.losses, alice.total.abandoned) == (2, 2, 0, 1)
    assert (bob.by_game["pebbles"].wins, bob.by_game["pebbles"].losses) == (0, 2)
    assert (await svc.stats("111", guild="g2")).total.played == 0
    board = await svc.leaderboard("pebbles", guild="g")
    assert [(name, rec.wins) for _, name, rec in board] == [("Alice", 2), ("Bob", 0)]


async def test_games_list_and_my_turns_across_servers(svc):
    await started(svc, ALICE, BOB)
    there = Where("c2", guild="g2")
    await svc.open_table(there, BOB, "wassamasaw")
    await svc.join(there, ALICE)
    await svc.start(there, BOB)
    here = await svc.games_here("g")
    assert [(g["title"], g["status"]) for g in here] == [("Pebbles", "running")]
    assert sorted(here[0]["waiting"]) == ["111", "222"]
    mine = await svc.my_turns(ALICE)
    assert {g["channel"] for g in mine} >= {"chan"}
