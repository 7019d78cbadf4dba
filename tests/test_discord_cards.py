"""Every message a Components V2 card (issue #48), through the real discord.py client and the fake Discord:
one container with the game's accent, the picture inside with its alt text, whose turn beside its mention, the
buttons inside; pings exactly as before; old plain messages' buttons still answered; ``/help``."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

import i18n
import tests.tinygame  # noqa: F401  (Pebbles: a game to end in a few moves)
from cogs.runner import TeahouseBot
from store import Store
from table import TableService, User, Where
from table.cards import ACCENTS, NEUTRAL
from tests.fakediscord import COMPONENTS_V2, FakeDiscord
from tests.support import answer
from tools import card_payloads

PLAIN = Path(__file__).parent / "fixtures" / "plain_messages.json"


def make_bot(path):
    store = Store(path)
    return TeahouseBot(store, service=TableService(store))


def card(message) -> dict:
    """The one container a card is, after checking that it is one: the V2 flag, no content, nothing beside it."""
    assert message.components_v2 and not message.content and not message.embeds
    assert [c["type"] for c in message.components] == [17], message.components
    return message.components[0]


def kinds(container: dict) -> list[int]:
    return [c["type"] for c in container["components"]]


async def test_a_lobby_a_turn_and_the_end_are_cards_with_the_games_colour(tmp_path):
    """The payloads tools/card_payloads.py prints: each one container with Wassamasaw's accent and no content."""
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")) as bot:
        shown = await card_payloads.lobby_turn_end(fake, bot)
    (lobby, body), (turn, _body), (last, _end) = shown["lobby"], shown["turn"], shown["end"]
    assert body["flags"] & COMPONENTS_V2 and body.get("content") is None and "embeds" not in body
    shown = card(lobby)
    assert shown["accent_color"] == ACCENTS["wassamasaw"]
    # the lobby's words, a separator, its buttons and the host's select: all inside the card
    assert kinds(shown) == [10, 14, 1, 1] and "table open in this channel" in lobby.said
    assert [b["label"] for b in lobby.buttons()][:2] == ["Join", "Leave"] and lobby.selects()
    shown = card(turn)
    # what happened, the picture, whose turn with the mention, a separator, the rows of buttons
    assert kinds(shown)[:5] == [10, 12, 10, 14, 1]
    gallery = shown["components"][1]["items"][0]
    (picture,) = turn.attachments
    assert gallery["media"]["url"] == f"attachment://{picture.filename}" and picture.image().format == "PNG"
    assert gallery["description"] == picture.description and "Wassamasaw" in gallery["description"]
    first = next(n for n in ("alice", "bob") if f"<@{fake.user(n).id}>" in shown["components"][2]["content"])
    assert shown["components"][2]["content"].endswith(f"<@{fake.user(first).id}> — your move.")
    assert turn.pinged() == [fake.user(first).id]
    assert [b["label"] for b in shown["components"][-1]["components"][-2:]] == ["My view", "Watch"]     # #49
    shown = card(last)
    assert shown["accent_color"] == ACCENTS["wassamasaw"]
    assert kinds(shown) == [10, 12, 10, 14, 1] and "Game over" in shown["components"][2]["content"]
    assert [b["label"] for b in last.buttons()] == ["Rematch", "Review", "Analysis"]
    assert last.pinged() == []
    assert not fake.errors and not fake.plain_sent, (fake.errors, fake.plain_sent)


def name_of(fake, user_id: str) -> str:
    return next(n for n in ("alice", "bob", "carol", "dave") if str(fake.user(n).id) == user_id)


async def test_pings_exactly_whom_they_pinged_before(tmp_path):
    """The player to act is pinged by the turn message; an edit in place, a private answer and a name written
    as ``@everyone`` ping nobody (allowed_mentions, as before the cards)."""
    async with FakeDiscord() as fake:
        fake.user("bob").nick = "@everyone <@&1>"
        async with fake.run(make_bot(tmp_path / "b.db")):
            lobby = await answer(await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"}))
            assert lobby.pinged() == [] and not lobby.mention_everyone
            joined = await answer(await fake.click("bob", lobby, label="Join"))
            assert not joined.mention_everyone and joined.mention_roles() == [] and joined.pinged() == []
            turn = await answer(await fake.slash("alice", "general", "game start"))
            first = next(n for n in ("alice", "bob") if f"<@{fake.user(n).id}>" in turn.said)
            assert turn.pinged() == [fake.user(first).id] and not turn.mention_everyone
            take = next(b for b in turn.buttons() if b["custom_id"].startswith("th:a:"))
            edits = turn.edits
            took = await fake.click(first, turn, custom_id=take["custom_id"])
            edited = await answer(took)
            assert edited.id == turn.id and edited.edits == edits + 1   # the same player goes on: edited in place
            assert f"<@{fake.user(first).id}>" in edited.said and edited.pinged() == []
            view = await answer(await fake.click(first, edited, label="My view"))
            assert view.ephemeral and view.components_v2 and view.pinged() == []
    assert not fake.errors, fake.errors


def plain_messages(fake) -> dict:
    """The recorded plain messages with this fake's users' ids."""
    text = PLAIN.read_text(encoding="utf-8")
    for name in ("alice", "bob"):
        text = text.replace("{" + name + "}", str(fake.user(name).id))
    messages = json.loads(text)
    for m in messages.values():
        if isinstance(m, dict):
            am = m.get("allowed_mentions") or {}
            am["users"] = [int(u) for u in am.get("users", [])]
    return messages


def posted_before(fake, channel: str, recorded: dict):
    """A message as the code before the cards posted it, with its picture (any PNG: only its name matters)."""
    png = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 180, 150)).save(png, "PNG")
    files = {i: (a["filename"], png.getvalue(), "image/png") for i, a in enumerate(recorded["attachments"])}
    data = {"content": recorded["content"], "components": recorded["components"],
            "allowed_mentions": recorded["allowed_mentions"],
            "attachments": [{"id": i, "filename": a["filename"], "description": a["description"]}
                            for i, a in enumerate(recorded["attachments"])]}
    m = fake._create_message(fake.channel(channel), data, files, source="channel")
    assert not m.components_v2 and m.content
    return m


async def test_a_game_begun_before_the_cards_goes_on_from_its_plain_messages(tmp_path):
    """A Wassamasaw game and an ended Pebbles game whose messages were sent before #48 (plain text above rows of
    buttons, recorded at 3c2ff0e: tests/fixtures/plain_messages.json) go on after it: the old lobby's Start
    starts the game, the old turn message's button plays the move (the message, edited in place, becomes a card),
    its My view answers privately, the old end message's Review and Rematch answer as they did."""
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")) as bot:
        plain = plain_messages(fake)
        svc = bot.service
        alice, bob = (User(str(fake.user(n).id), n.title()) for n in ("alice", "bob"))
        general = Where(str(fake.channel("general").id), str(fake.guild.id))
        games = Where(str(fake.channel("games").id), str(fake.guild.id))
        # the tables as they stood when the messages were sent: game 1 with bob seated, game 2 ended
        assert (await svc.open_table(general, alice, "wassamasaw", {"hints": False})).game_id == 1
        assert (await svc.join(general, bob)).ok
        assert (await svc.open_table(games, alice, "pebbles", {"rounds": 1})).game_id == 2
        assert (await svc.join(games, bob)).ok and (await svc.start(games, alice)).ok
        for user, bid in ((alice, "bid 3"), (bob, "bid 1")):
            assert (await svc.act(games, user, bid)).ok
        assert (await svc.act(games, alice, "keep")).rematch == 2

        # the old lobby's Start: the game starts, its first turn a card
        lobby = posted_before(fake, "general", plain["lobby"])
        started = await answer(await fake.click("alice", lobby, label="Start"))
        assert not started.ephemeral and card(started) and "Wassamasaw begins!" in started.said
        first = next(n for n in ("alice", "bob") if f"<@{fake.user(n).id}>" in started.said)

        # the old turn message (version 2, as now): its first take button plays the first legal action; the
        # same player then places, so the old message is edited in place and becomes the turn's card
        turn = posted_before(fake, "general", plain["turn"])
        row = await svc.store.open_game(general.channel)
        assert row.version == 2
        took = await fake.click(first, turn, custom_id="th:a:1:2:0")
        edited = await answer(took)
        assert edited.id == turn.id and edited.edits == 1
        shown = card(edited)          # flag set, content gone: a card now
        assert "takes" in edited.said and edited.pinged() == []
        # the place to put it: buttons, or a select when the die fits 21 places or more (a 6 fits any)
        assert any(c.get("custom_id", "").startswith(("th:a:1:3:", "th:s:1:3:")) for c in edited.all_components())
        assert [a.filename for a in edited.attachments] == ["wassamasaw-1-v3-table.png"]
        assert shown["components"][1]["items"][0]["media"]["url"] == "attachment://wassamasaw-1-v3-table.png"
        assert (await svc.store.open_game(general.channel)).version == 3
        # its My view (no version in its id) still answers, privately
        old_turn = posted_before(fake, "general", plain["turn"])
        mine = await answer(await fake.click(first, old_turn, label="My view"))
        assert mine.ephemeral and mine.components_v2 and "Your" in mine.said
        # an old take button, now behind the game: answered as before, "this has moved on", with the buttons of now
        moved = await answer(await fake.click(first, old_turn, custom_id="th:a:1:2:1"))
        assert moved.ephemeral and "moved on" in moved.said and moved.buttons()

        # the old end message of game 2: Review opens the clicker's own review, Rematch a new table
        end = posted_before(fake, "games", plain["end"])
        review = await answer(await fake.click("bob", end, label="Review"))
        assert review.ephemeral and card(review) and "the start" in review.said
        assert {"◀", "▶"} <= {b.get("label") for b in review.buttons()}
        rematch = await answer(await fake.click("bob", end, label="Rematch"))
        assert not rematch.ephemeral and card(rematch) and "rematch" in rematch.said
    assert not fake.errors, fake.errors
    assert fake.openapi_checked and not fake.openapi_refused and not fake.plain_sent     # all it sent: cards


async def test_help_is_a_card_in_the_readers_language(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        r = await fake.slash("alice", "general", "help")
        shown = card(r.message)
        assert r.ephemeral and shown["accent_color"] == NEUTRAL
        assert kinds(shown) == [10, 10, 10, 10] and shown["components"][0]["content"].startswith("## Teahouse")
        assert "`/game new`" in r.said and "**Join**" in r.said and "`/wurrm`" in r.said
        fake.user("carol").locale = "it"
        r = await fake.slash("carol", "general", "help")
        assert "`/partita nuova`" in r.said and "**Unisciti**" in r.said and "### Giocare" in r.said
    assert not fake.errors, fake.errors


def test_each_games_accent_is_a_colour_of_its_board():
    from render import colours, mywuxing, seikatsu, wagara, wurrm_board

    def hexed(rgb):
        return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]
    assert ACCENTS == {"wassamasaw": hexed(colours.ELEMENT_COLOURS["earth"]), "wagara": hexed(wagara.WATER_DARK),
                       "mywuxing": hexed(mywuxing.BACK), "seikatsu": hexed(seikatsu.KOI_FISH),
                       "wurrm": hexed(wurrm_board.SLEEP)}
    assert NEUTRAL == hexed(colours.MUTED) and len(set(ACCENTS.values()) | {NEUTRAL}) == 6
    assert COMPONENTS_V2 == 1 << 15 and i18n.DEFAULT == "en"
