"""The end of a rated game and its rematch (issue #27), through the table service on both databases."""

import io

import tests.tinygame  # noqa: F401  (registers Pebbles)
from store import ratings as R
from table import User, Where
from tests.support import err, started

HERE = Where("c1", "g1")
ALICE, BOB, CAROL, EVE = User("alice", "Alice"), User("bob", "Bob"), User("carol", "Carol"), User("eve", "Eve")


async def play_out(svc, where=HERE, winner=ALICE, loser=BOB):
    """One round of Pebbles: ``winner`` outbids and keeps the die."""
    assert (await svc.act(where, winner, "bid 3")).ok
    assert (await svc.act(where, loser, "bid 1")).ok
    return await svc.act(where, winner, "keep")


async def test_the_end_shows_new_ratings_and_offers_a_rematch(any_svc):
    svc = any_svc
    lobby = await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 1})
    assert "rated: on" not in lobby.text and "rated: off" in lobby.text        # one person: unrated
    assert "rated: on" in (await svc.join(HERE, BOB)).text                     # two: rated
    assert (await svc.start(HERE, ALICE)).ok
    end = await play_out(svc)
    assert end.status == "finished" and end.rematch == end.game_id
    line = end.text.splitlines()[-1]
    assert line.startswith("Ratings: Alice 15") and "(+" in line and "Bob 14" in line and "(-" in line
    assert "?" in line                                                       # provisional
    status = await svc.status(HERE, BOB)
    assert "Ratings: Alice" in status.text


async def test_a_rematch_reopens_the_table_rotated_and_joins_rather_than_duplicates(any_svc):
    svc = any_svc
    await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 1})
    await svc.join(HERE, BOB)
    await svc.add_bot(HERE, ALICE, "hard")
    assert (await svc.start(HERE, ALICE)).ok
    # the hard computer plays its bids as they come; the humans play out
    end = await play_out(svc)
    assert end.status == "finished"
    ended = end.game_id
    assert "only the players" in err(await svc.rematch(HERE, EVE, ended)).lower()
    r = await svc.rematch(HERE, BOB, ended)
    assert r.ok and r.status == "lobby" and r.game_id != ended and r.mention == ["alice"]
    row = await svc.store.game(r.game_id)
    assert [s.user_id for s in row.seats] == ["bob", "cpu-1"] and row.host == "bob"
    assert row.options["rounds"] == 1 and "_rematch" not in r.text and "asks for a rematch" in r.text
    assert "already seated" in err(await svc.rematch(HERE, BOB, ended))
    again = await svc.rematch(HERE, ALICE, ended)                              # joins the same table
    assert again.ok and again.game_id == r.game_id
    row = await svc.store.game(r.game_id)
    assert [s.user_id for s in row.seats] == ["bob", "cpu-1", "alice"]           # rotated: bob moves first
    assert (await svc.start(HERE, BOB)).ok
    assert "already started" in err(await svc.rematch(HERE, ALICE, ended))


async def test_rematch_refusals_change_nothing(any_svc):
    svc = any_svc
    assert "no ended game" in err(await svc.rematch(HERE, ALICE)).lower()
    await started(svc, ALICE, BOB, options={"rounds": 1}, where=HERE)
    assert "no ended game" in err(await svc.rematch(HERE, ALICE)).lower()      # still running
    end = await play_out(svc)
    assert "no ended game" in err(await svc.rematch(Where("elsewhere", "g1"), ALICE, end.game_id)).lower()
    await svc.open_table(HERE, CAROL, "pebbles")                                # someone else's table now
    assert not (await svc.rematch(HERE, ALICE, end.game_id)).ok
    assert len(await svc.store.games(("lobby",))) == 1
    assert (await R.ratings_of(svc.store, "alice", "g1"))["pebbles"][1] == 1


async def test_leaderboard_and_stats_by_rating(any_svc):
    svc = any_svc
    assert await svc.rating_board("pebbles", "g1") == [] and await svc.rating_stats("alice", "g1") == []
    for winner, loser in ((ALICE, BOB), (ALICE, BOB), (BOB, ALICE)):
        await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 1})
        await svc.join(HERE, BOB)
        await svc.add_bot(HERE, ALICE, "easy")
        await svc.start(HERE, ALICE)
        assert (await play_out(svc, winner=winner, loser=loser)).status == "finished"
    board = await svc.rating_board("pebbles", "g1")
    assert len(board) == 3 and board[0].startswith("1. Alice — ") and board[0].endswith("(3 games)")
    assert any(line.startswith("· easy computer — ") and "reference" in line for line in board)
    assert await svc.rating_board("pebbles", "other") == []
    stats = await svc.rating_stats("alice", "g1")
    assert stats[0].startswith("Pebbles: rating ") and stats[0].endswith("(3 rated games)")
    assert stats[1] == "Streak: 1 lost in a row." and stats[2].endswith("🟥🟩🟩")
    assert await svc.rating_stats("alice", "other") == []


async def test_a_player_card_readable_on_a_phone(any_svc):
    from PIL import Image

    from render.common import record_text

    svc = any_svc
    for _ in range(3):
        await started(svc, ALICE, BOB, options={"rounds": 1}, where=HERE)
        await play_out(svc)
    card = await svc.profile(HERE, BOB, "alice", "Alice")
    assert card.ok and card.text == "Player card of Alice."
    assert card.image.alt.startswith("Player card of Alice: Pebbles 1") and "3 rated games · 3 won" in card.image.alt
    with record_text() as drawn:
        await card.render()
    image = Image.open(io.BytesIO(card.image.data))
    assert image.width == 640 and min(size for size, _text in drawn) >= 18
    assert {"Pebbles", "3 rated games · 3 won", "the last 3 games"} <= {text for _size, text in drawn}
    empty = await svc.profile(Where("c9", "elsewhere"), EVE)
    assert empty.image.alt == "Player card of Eve: no rated games here yet."


async def test_a_game_ended_by_the_scheduler_keeps_its_rematch_in_the_outbox(any_svc):
    from table.replies import Notice
    from table.scheduler import _payload

    svc = any_svc
    await started(svc, ALICE, BOB, options={"rounds": 1}, where=HERE)
    end = await play_out(svc)
    await svc.store.add_outgoing(end.game_id, HERE.channel, _payload(Notice(HERE.channel, end)), 0)
    [notice] = await svc.outbox()
    assert notice.reply.rematch == end.game_id and notice.reply.text == end.text


async def test_the_host_can_make_a_table_unrated_and_bad_values_change_nothing(any_svc):
    svc = any_svc
    await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 1})
    await svc.join(HERE, BOB)
    assert "on or off" in err(await svc.set_option(HERE, ALICE, "rated", "maybe"))
    assert "Only the host" in err(await svc.set_option(HERE, BOB, "rated", "no"))
    assert "rated: off" in (await svc.set_option(HERE, ALICE, "rated", "no")).text
    await svc.start(HERE, ALICE)
    end = await play_out(svc)
    assert end.status == "finished" and "Ratings:" not in end.text and end.rematch == end.game_id
    assert await R.changes_of(svc.store, end.game_id) == []
    again = await svc.rematch(HERE, BOB, end.game_id)
    assert "rated: off" in again.text                                           # the options come back


async def test_the_console_rematches_and_shows_a_card(svc, tmp_path):
    from console.table import Console

    out = []
    console = Console(svc, tmp_path / "img", write=out.append)
    for line in ("alice@chan /game new game:pebbles rounds:1", "bob@chan /game join", "alice@chan /game start",
                 "alice@chan /game move action:bid 3", "bob@chan /game move action:bid 1",
                 "alice@chan /game move action:keep"):
        await console.handle(line)
    text = "\n".join(map(str, out))
    assert "Ratings: alice 15" in text
    out.clear()
    await console.handle("bob@chan /game rematch")
    await console.handle("bob@chan /profile user:alice")
    text = "\n".join(map(str, out))
    assert "bob asks for a rematch of Pebbles" in text and "Player card of alice." in text
    assert (tmp_path / "img" / "profile.png").exists()


async def test_the_host_who_abandons_a_rated_game_places_last(any_svc):
    """Issue #27: a seated player who abandons places last; the others share first place."""
    svc = any_svc
    await svc.open_table(HERE, ALICE, "pebbles", {"rounds": 3})
    await svc.join(HERE, BOB)
    await svc.start(HERE, ALICE)
    r = await svc.abandon(HERE, ALICE, confirm=True)
    assert r.ok and r.status == "abandoned"
    changes = {c.player: c for c in await R.changes_of(svc.store, r.game_id)}
    assert changes["alice"].place == 2 and changes["bob"].place == 1 and changes["alice"].delta < 0
