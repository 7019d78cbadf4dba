"""`/game review` at the table service (issue #28): every step of seeded games of the three games with hidden
information shows each viewer exactly the view they had at that step while the game ran, and never another
seat's hidden data; once the game has ended every view opens. Refusals change nothing; the rebuilt states
are made once per (game, log length) and extended as the game goes on."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import GAMES
from render import render_png
from render.common import CAPTION_HEIGHT
from table import TableService, User, Where
from tests.support import beginner_move, err, started

HERE = Where("c1", "g1")
ALICE, BOB, CAROL, EVE = User("alice", "Alice"), User("bob", "Bob"), User("carol", "Carol"), User("eve", "Eve")
PLAYERS = [ALICE, BOB, CAROL]
BY_ID = {u.id: u for u in PLAYERS}


@pytest.fixture
def rsvc(store, clock):
    """The service with pictures on (never drawn here: the test reads what each picture would show)."""
    return TableService(store, clock=clock, render=True)


async def begin(svc, key, users=PLAYERS, where=HERE, options=None):
    await started(svc, *users, game=key, options=options, where=where)


async def play(svc, key, moves: int, rng: random.Random, states: list, where=HERE) -> None:
    """Up to ``moves`` moves by the beginner policy, each by the seat it waits for; ``states`` gets the state
    the game was stored with after each one (what the players saw live)."""
    game = GAMES[key]
    for _ in range(moves):
        moved = await beginner_move(svc, where, BY_ID, rng)
        if moved is None:
            return
        row, reply = moved
        assert reply.ok, reply.private
        states.append(game.load((await svc.store.game(row.id)).state))


async def live_start(svc, key, where=HERE) -> list:
    row = await svc.store.open_game(where.channel)
    return [GAMES[key].load(row.state)]


def job_of(reply):
    """(view, viewer, caption) of a review's picture."""
    game, view, names, viewer, locale, caption = reply.private[0].image.job
    return view, viewer, caption


def hidden_from(game, state, viewer, other) -> dict:
    """What ``other``'s own view holds that the table's does not (their hand, their secret choice), where it
    differs from what ``viewer`` is shown of it."""
    mine = game.view(state, viewer)
    public = game.view(state, None)
    theirs = game.view(state, other)
    return {k: v for k, v in theirs.items() if public.get(k) != v and mine.get(k) != v}


HIDDEN_CHECKED: list[str] = []       # the other seats' hidden values checked absent (the test is not vacuous)


def check_step(game, reply, state, seat, user, k, n, ended):
    assert reply.ok, reply.private
    view, viewer, caption = job_of(reply)
    assert viewer == seat
    assert view == game.view(state, seat)            # exactly what that viewer saw then
    for other in [s for s in state["seats"] if s != seat]:
        for key, value in hidden_from(game, state, seat, other).items():
            assert view.get(key) != value, (k, seat, other, key)
            HIDDEN_CHECKED.append(key)
    text = reply.private[0].text
    assert caption.startswith("The start" if k == 0 else f"Move {k} of {n}")
    assert reply.review.step == k and reply.review.moves == n and reply.review.ended == ended
    if not ended:
        assert "`" not in text                           # no action as played while the game runs
        assert reply.review.viewers == []
    return text


@pytest.mark.parametrize("key, options, running", [("wagara", None, 40),
                                                   ("mywuxing", {"version": "think", "power_cards": "on"}, 15),
                                                   ("seikatsu", None, 20)])
async def test_every_step_shows_each_viewer_only_what_they_saw(rsvc, key, options, running):
    svc, game = rsvc, GAMES[key]
    HIDDEN_CHECKED.clear()
    await begin(svc, key, options=options)
    states = await live_start(svc, key)
    rng = random.Random(28)
    await play(svc, key, running, rng, states)
    row = await svc.store.open_game(HERE.channel)
    assert row is not None and row.status == "running"
    entries = await svc.store.log(row.id)
    n = len(states) - 1
    assert n == len(entries) == running
    for k in range(n + 1):
        for user in PLAYERS + [EVE]:
            seat = user.id if user in PLAYERS else None
            text = check_step(game, await svc.review(HERE, user, step=k), states[k], seat, user, k, n, False)
            if k:
                assert text.splitlines()[1] == f"{k}. {svc.said(entries[k - 1].line, row)}"
            assert text.splitlines()[-1] == ("As you saw it." if seat else "As the table sees it.")
            # the table's view is anyone's; another seat's is nobody's but its player's while the game runs
            if seat:
                public = await svc.review(HERE, user, step=k, viewer="t")
                assert job_of(public)[0] == game.view(states[k], None)
        assert "own seat" in err(await svc.review(HERE, EVE, step=k, viewer="0"))
        assert "own seat" in err(await svc.review(HERE, BOB, step=k, seen_by="alice"))
    assert "hand" in HIDDEN_CHECKED

    # finished: every view opens, at every step, with each action as played
    await play(svc, key, 2000, rng, states)
    row = await svc.store.latest_game(HERE.channel)
    assert row.status == "finished"
    entries = await svc.store.log(row.id)
    n = len(states) - 1
    for k in range(n + 1):
        for i, seat in enumerate(row.seats):
            reply = await svc.review(HERE, EVE, row.id, step=k, viewer=str(i))
            text = check_step(game, reply, states[k], seat.user_id, EVE, k, n, True)
            if k:
                assert f"(`{svc.names_in(entries[k - 1].action, row)}`)" in text
        public = await svc.review(HERE, EVE, row.id, step=k)
        assert job_of(public)[0] == game.view(states[k], None)
    assert [c for c, _label in public.review.viewers] == ["t", "0", "1", "2"]
    assert "Game over." in public.private[0].text and public.review.step == n
    assert svc.reviews.built == {"rebuilt": 1, "extended": 1}     # from move 0 once; the end extended it


async def test_refusals_say_why_and_change_nothing(svc):
    # nothing in the channel yet
    assert "no game in this channel" in err(await svc.review(HERE, ALICE))
    assert "no game #5 in this server" in err(await svc.review(HERE, ALICE, 5))
    await svc.open_table(HERE, ALICE, "wassamasaw")
    lobby = await svc.store.open_game(HERE.channel)
    assert "not started yet" in err(await svc.review(HERE, ALICE))
    assert "not started yet" in err(await svc.review(HERE, ALICE, lobby.id))
    await svc.abandon(HERE, ALICE, confirm=True)
    assert "closed before it started" in err(await svc.review(HERE, ALICE, lobby.id))
    # another server's game is as unknown as a missing one
    await begin(svc, "wassamasaw", [ALICE, BOB], where=Where("c2", "other"))
    theirs = await svc.store.open_game("c2")
    assert f"no game #{theirs.id} in this server" in err(await svc.review(HERE, ALICE, theirs.id))
    assert (await svc.review(Where("c9", "other"), EVE, theirs.id)).ok       # from that server: fine
    # steps and views that are not this game's
    states = [None]
    await play(svc, "wassamasaw", 3, random.Random(1), states, where=Where("c2", "other"))
    there = Where("c2", "other")
    assert "no move 4 in this game: it has 3 moves" in err(await svc.review(there, ALICE, step=4))
    assert "not one of this game's" in err(await svc.review(there, ALICE, viewer="7"))
    assert "not one of this game's" in err(await svc.review(there, ALICE, viewer="x"))
    assert "not one of this game's" in err(await svc.review(there, ALICE, seen_by="nobody"))
    after = await svc.store.game(theirs.id)
    assert after.version == theirs.version + 3 and after.status == "running"


async def test_states_are_rebuilt_once_then_extended_and_rebuilt_after_an_undo(svc):
    await begin(svc, "wassamasaw", [ALICE, BOB])
    game = GAMES["wassamasaw"]
    rng = random.Random(5)
    await play(svc, "wassamasaw", 6, rng, [])
    for k in range(7):
        assert (await svc.review(HERE, EVE, step=k)).ok
    assert svc.reviews.built == {"rebuilt": 1, "extended": 0}
    await play(svc, "wassamasaw", 1, rng, [])
    assert (await svc.review(HERE, EVE)).review.step == 7         # a running game opens at its latest move
    assert svc.reviews.built == {"rebuilt": 1, "extended": 1}
    assert len(svc.reviews._cache) == 1                          # the game's shorter rebuild was dropped
    # a move taken back: the effective moves are no longer a continuation, so the game is rebuilt
    row = await svc.store.open_game(HERE.channel)
    state = game.load(row.state)
    mover = BY_ID[game.to_act(state)[0]]
    await svc.act(HERE, mover, game.legal_actions(state, mover.id)[0])
    assert (await svc.review(HERE, EVE)).review.moves == 8
    assert (await svc.undo(HERE, mover)).ok
    reply = await svc.review(HERE, EVE)
    assert reply.review.moves == 7 and svc.reviews.built == {"rebuilt": 2, "extended": 2}


async def test_a_review_picture_says_which_move_it_shows(rsvc):
    await begin(rsvc, "wagara", [ALICE, BOB])
    await play(rsvc, "wagara", 9, random.Random(2), [])
    reply = await rsvc.review(HERE, ALICE, step=9)
    view, viewer, caption = job_of(reply)
    assert caption.startswith("Move 9 of 9 · Round ")
    assert reply.private[0].image.alt                       # described in words, from the public view
    plain = Image.open(io.BytesIO(render_png("wagara", view, {"alice": "Alice", "bob": "Bob"}, viewer)))
    await reply.render()
    shown = Image.open(io.BytesIO(reply.private[0].image.data))
    assert shown.size == (plain.width, plain.height + CAPTION_HEIGHT)
    jumps = reply.review.jumps
    assert ("Alice: previous move (8)", 8) in jumps or ("Bob: previous move (8)", 8) in jumps
    assert ("Round 1: the start", 0) in jumps and any(text.startswith("Round 2: from move ") for text, _k in jumps)


async def test_recent_games_of_the_server_newest_first(any_svc):
    svc = any_svc
    await begin(svc, "wassamasaw", [ALICE, BOB], where=Where("a", "g1"))
    await begin(svc, "wagara", [ALICE, CAROL], where=Where("b", "g1"))
    await svc.open_table(Where("c", "g1"), BOB, "seikatsu")                      # a lobby: nothing to review
    await begin(svc, "seikatsu", [EVE, BOB], where=Where("d", "other"))
    listed = await svc.recent_games(HERE, EVE)
    assert [label for _id, label in listed] == ["#2 Wagara: Alice, Carol (running)",
                                                "#1 Wassamasaw: Alice, Bob (running)"]
    assert [gid for gid, _label in await svc.recent_games(HERE, EVE, "bob")] == [1]
    assert [gid for gid, _label in await svc.recent_games(HERE, EVE, "#2")] == [2]
    assert [gid for gid, _label in await svc.recent_games(Where("x", "other"), EVE)] == [4]


async def test_the_console_reviews_in_english_and_italian(tmp_path):
    import i18n
    from tests.support import run_console

    script = """
        alice@t /game new game:wagara
        bob@t /game join
        alice@t /game start
        carol@t /game review
        alice@t /game review step:0 seen_by:bob
        alice@t /game review game:x
        """
    text = await run_console(tmp_path / "en", script, render=True)
    assert "[only carol sees] **Wagara** #1 — the start, 0 moves to review\nAs the table sees it." in text
    assert "image (only carol): " in text and list((tmp_path / "en" / "img").glob("wagara-1-review-0-table.png"))
    assert "[only alice sees] While the game runs, you may review it as the table sees it" in text
    assert "[only alice sees] Use `/game review [game:<number>] [step:<k>]`: both are numbers." in text
    i18n.set_default("it")
    try:
        text = await run_console(tmp_path / "it", script.replace("/game review", "/partita rivedi")
                                 .replace("step:", "passo:").replace("seen_by:", "visto_da:")
                                 .replace("game:x", "gioco:x"), render=False)
    finally:
        i18n.set_default("en")
    assert "[lo vede solo carol] **Wagara** #1 — l'inizio, 0 mosse da rivedere\nCome la vede il tavolo." in text
    assert "[lo vede solo alice] Mentre la partita è in corso puoi rivederla" in text
    assert "[lo vede solo alice] Usa `/partita rivedi [gioco:<numero>] [passo:<k>]`" in text


async def test_a_removed_player_reviews_as_the_table_until_the_end(rsvc, clock):
    svc, game = rsvc, GAMES["wagara"]
    await begin(svc, "wagara")
    row = await svc.store.open_game(HERE.channel)
    for user in (ALICE, CAROL):                            # Bob never chooses his card
        state = game.load((await svc.store.game(row.id)).state)
        assert (await svc.act(HERE, user, game.legal_actions(state, user.id)[0])).ok
    clock.now += 25 * 3600
    assert (await svc.remove(HERE, ALICE, BOB.id)).ok
    mine = await svc.review(HERE, BOB, step=0)
    assert job_of(mine)[1] is None and "As the table sees it." in mine.private[0].text
    assert "own seat" in err(await svc.review(HERE, BOB, step=0, viewer="1"))
    assert job_of(await svc.review(HERE, ALICE, step=0))[1] == ALICE.id
    # abandoned is ended: every view opens, Bob's own by default
    assert (await svc.abandon(HERE, ALICE, confirm=True)).ok
    ended = await svc.review(HERE, BOB, row.id, step=0)
    assert job_of(ended)[1] == BOB.id and ended.review.ended and len(ended.review.viewers) == 4
    last = await svc.review(HERE, EVE, row.id, latest=True)
    assert last.private[0].text.endswith("This game was abandoned.")
