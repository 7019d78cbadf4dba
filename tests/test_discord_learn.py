"""Learn mode through Discord (the fake), issue #28: for each of the five games, `/game learn` and a whole game
played by the learner through the buttons, selects and private pickers, following the tips. Every tip, comment
and the summary come as ephemeral messages to the learner alone; the channel never shows them."""

import asyncio
import random
import re

import pytest

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from table.learn import explanations
from tests.fakediscord import FakeDiscord
from tests.support import answer

COACHING = ("📘", "💡", "🤔", "🎓", "favourite", "clearly weaker", "/game review")
FAVOURITE = re.compile(r"💡 [^*]*\*\*(.+?)\*\*")
ACTING = ("th:a:", "th:s:", "th:g:", "th:p:")     # an action, a select of actions, a group, a private picker


def make_bot(path):
    store = Store(path)
    # no images (a whole game is a hundred interactions; words are checked here) and a small search
    service = TableService(store, render=False)
    service.ai_options = {"iterations": 8, "timed": False}
    return TeahouseBot(store, service=service)


def choices(message) -> list[tuple[dict, str | None, str]]:
    """What ``message`` offers to act with: (component, select value or None, label)."""
    out = [(b, None, b.get("label") or "") for b in message.buttons() if b["custom_id"].startswith(ACTING)]
    for s in message.selects():
        if s["custom_id"].startswith(ACTING):
            out += [(s, o["value"], o["label"]) for o in s.get("options", [])]
    return out


def pick(message, favourite: str | None, rnd: random.Random):
    """The tip's favourite when offered (or the group holding it), else any choice."""
    offered = choices(message)
    assert offered, f"nothing to choose in {message.said!r}"
    for comp, value, text in offered:
        if text == favourite:
            return comp, value
    for comp, value, text in offered:
        group = text.removesuffix(" …")
        if favourite and comp["custom_id"].startswith("th:g:") and favourite.startswith(group):
            return comp, value
    comp, value, _text = rnd.choice(offered)
    return comp, value


async def press(fake, user, message, comp, value):
    if value is None:
        return await fake.click(user, message, comp["custom_id"])
    return await fake.select(user, message, comp["custom_id"], [value])


def tips_for(fake, user) -> list:
    return [m for m in fake.messages("general", ephemeral=True) if m.interaction_user is not None
            and m.interaction_user.id == fake.user(user).id and "📘" in m.said]


async def until(fake, check, timeout: float = 10.0) -> None:
    """Wait for ``check()``: a tip or the summary follows the public answer in a request of its own, which a
    busy machine may send after the fake's quiet spell (settle) has already ended."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check() and loop.time() < end:
        await asyncio.sleep(0.02)
    await fake.settle()


async def first_tips(fake, user) -> list:
    await until(fake, lambda: tips_for(fake, user))
    return tips_for(fake, user)


@pytest.mark.parametrize("key", ["wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm"])   # not test games
async def test_a_learner_plays_a_whole_game_by_buttons_with_private_tips(tmp_path, key):
    rnd = random.Random(key)
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")) as bot:
        channel = str(fake.channel("general").id)
        r = await fake.slash("alice", "general", "game learn", options={"game": key})
        await answer(r)
        await fake.settle()
        start = [m for m in r.messages if not m.ephemeral]       # answered at once, or after "thinking"
        assert len(start) == 1 and "Alice is learning" in start[0].said.replace("alice", "Alice")
        first_tip = await first_tips(fake, "alice")
        assert len(first_tip) == 1 and first_tip[0].ephemeral
        # a spectator's click is refused, and they get no tip
        turn = next(m for m in reversed(fake.messages("general", ephemeral=False)) if choices(m))
        refused = await answer(await fake.click("carol", turn, choices(turn)[0][0]["custom_id"]))
        assert refused.ephemeral and not any(w in refused.said for w in COACHING)
        moves = 0
        for _click in range(600):
            row = await bot.store.open_game(channel)
            if row is None:
                break
            game = GAMES[row.game]
            assert game.to_act(game.load(row.state)) == [str(fake.user("alice").id)]
            tip = tips_for(fake, "alice")[-1].said
            favourite = (FAVOURITE.search(tip) or [None, None])[1]
            message = next(m for m in reversed(fake.messages("general", ephemeral=False)) if choices(m))
            while True:          # through a private picker or a group to the move itself
                comp, value = pick(message, favourite, rnd)
                shown = await answer(await press(fake, "alice", message, comp, value))
                if not (shown.ephemeral and choices(shown)):
                    break
                message = shown
            await fake.settle()
            moves += 1
        else:
            pytest.fail(f"{key}: the learn game did not end")
        ended = await bot.store.latest_game(channel)
        assert ended.status == "finished" and ended.options["rated"] is False
        # a tip before every decision, then the summary; all of them ephemeral, for the learner alone
        await until(fake, lambda: any("🎓" in m.said for m in fake.messages("general", ephemeral=True)))
        assert len(tips_for(fake, "alice")) == moves
        private = fake.messages("general", ephemeral=True)
        summary = [m for m in private if "🎓" in m.said]
        assert len(summary) == 1 and "`/game review`" in summary[0].said
        assert all(m.interaction_user.id == fake.user("alice").id for m in private if "📘" in m.said
                   or "🤔" in m.said or "🎓" in m.said)
        public = fake.messages("general", ephemeral=False)
        assert any("Game over" in m.said for m in public)
        for m in public:
            texts = [m.said] + [b.get("label") or "" for b in m.buttons()]
            assert not any(w in t for t in texts for w in COACHING), m.said
    assert not fake.errors, fake.errors


async def test_learn_in_a_game_thread_keeps_the_tip_private(tmp_path):
    """With a thread per game, the learn table opens in a thread; the first tip still goes to the learner
    alone, with the answer in the channel."""
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        r = await fake.slash("alice", "general", "settings", options={"threads": True})
        await answer(r)
        r = await fake.slash("alice", "general", "game learn", options={"game": "mywuxing"})
        await answer(r)
        await fake.settle()
        pointer = r.message              # the answer in the channel (the tip follows it, privately)
        assert "is learning MyWuXing in" in pointer.said and not pointer.ephemeral
        thread = fake.threads[0]
        opened = fake.messages(thread, ephemeral=False)
        assert opened and "learning MyWuXing" in opened[0].said and choices(opened[0])
        tips = await first_tips(fake, "alice")
        assert len(tips) == 1 and tips[0].ephemeral
        for m in fake.messages(ephemeral=False):
            assert not any(w in m.said for w in COACHING)
    assert not fake.errors, fake.errors


async def test_an_italian_learner_reads_tips_that_name_the_buttons(tmp_path):
    async with FakeDiscord() as fake, fake.run(make_bot(tmp_path / "b.db")):
        fake.guild.locale = "it"
        fake.user("alice").locale = "it"
        await answer(await fake.slash("alice", "general", "game learn", options={"game": "mywuxing"}))
        await fake.settle()
        tip = (await first_tips(fake, "alice"))[0].said
        assert any(tip.startswith(f"📘 {texts['it']}") for texts in explanations("mywuxing").values())
        # the deal is random: the first decision may offer one move only
        assert "💡 Il computer preferisce **" in tip or "💡 Qui è possibile una sola mossa: **" in tip
        favourite = FAVOURITE.search(tip)[1]
        turn = next(m for m in reversed(fake.messages("general", ephemeral=False)) if choices(m))
        assert "sta imparando MyWuXing" in turn.said
        labels = [text for _c, _v, text in choices(turn)]
        if "Scegli (lo vedi solo tu)" in labels:           # a secret card: the picker holds the choices
            picker = await answer(await fake.click("alice", turn, label="Scegli (lo vedi solo tu)"))
            labels = [text for _c, _v, text in choices(picker)]
        assert favourite in labels, (favourite, labels)
    assert not fake.errors, fake.errors
