"""The bot in Italian, end to end: the real discord.py client and our cogs against the fake Discord, with
Italian users (interaction ``locale`` "it") in an Italian server (``guild_locale`` "it") (#17).

An Italian user opens, joins, starts and plays a whole Wassamasaw game by button, select and slash command:
replies, button labels, placeholders and the end message are Italian, with no sentence left in English that
the catalogs translate. An English user in the Italian server reads public messages in Italian and their own
ephemeral answers in English. The command sync carries the Italian names of /game and its subcommands.
"""

import re

import pytest

import i18n
from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from tests.fakediscord import FakeDiscord
from tests.support import answer

pytestmark = pytest.mark.skipif("wassamasaw" not in GAMES, reason="needs the Wassamasaw engine")

PLACEHOLDER = re.compile(r"\{\w*\}")
NAME = re.compile(r"^[-_\w]{1,32}$")      # Discord's rule for command and option names


def make_bot(path):
    store = Store(path)
    # no images: a whole game is a hundred moves, and only words are checked here
    return TeahouseBot(store, service=TableService(store, render=False))


def english_fragments() -> set[str]:
    """Pieces of English sentences the Italian catalogs translate (the literal text between placeholders,
    long enough to mean something and absent from the translation): none may show in an Italian message."""
    out: set[str] = set()
    t = i18n.catalog("it")
    while t is not None:
        for key, text in getattr(t, "_catalog", {}).items():
            msgid = key[0] if isinstance(key, tuple) and key[1] == 0 else key
            if not isinstance(msgid, str) or not msgid or "\x04" in msgid or not isinstance(text, str):
                continue
            for piece in PLACEHOLDER.split(msgid):
                piece = piece.strip()
                if len(piece) >= 12 and piece not in text:
                    out.add(piece)
        t = getattr(t, "_fallback", None)
    return out


ENGLISH = english_fragments()


def english_in(text: str) -> list[str]:
    return [f for f in ENGLISH if f in text]


def italian(message) -> list[str]:
    """What a reader sees in a message: its text, button labels, select placeholders and option labels."""
    return [message.said or ""] + [b.get("label") or "" for b in message.buttons()] + \
        [s.get("placeholder") or "" for s in message.selects()] + \
        [o["label"] for s in message.selects() for o in s.get("options", [])]


def assert_italian(message):
    for text in italian(message):
        assert not english_in(text), f"English left in {text!r}: {english_in(text)}"


def action_component(message):
    """The first way to act a public turn message offers: an action button, a select, or a group button."""
    for b in message.buttons():
        if b["custom_id"].startswith(("th:a:", "th:g:", "th:p:")):
            return b
    for s in message.selects():
        if s["custom_id"].startswith(("th:s:", "th:g:")):
            return s
    return None


async def play(fake, user, message, check=None):
    """``user`` takes the first choice ``message`` offers (in their private picker if it opens one, which
    ``check`` looks at first); the public message that answers."""
    comp = action_component(message)
    assert comp is not None, f"no choice offered in {message.said!r}"
    if comp.get("type") == 3:
        r = await fake.select(user, message, comp["custom_id"], [comp["options"][0]["value"]])
    else:
        r = await fake.click(user, message, comp["custom_id"])
    shown = await answer(r)
    if shown.ephemeral and (shown.buttons() or shown.selects()):   # a picker (a group, a private choice)
        if check is not None:
            check(shown)
        return await play(fake, user, shown, check)
    assert not shown.ephemeral, shown.said
    return shown


def names_by_id(fake) -> dict[str, str]:
    """alice's, bob's and carol's user ids (as the store keeps them) → their names."""
    return {str(fake.user(n).id): n for n in ("alice", "bob", "carol")}


async def play_on(fake, store, channel, names, message, moves: int = 400):
    """Up to ``moves`` decisions, each taken (``play``) by whoever the game in ``channel`` waits for, stopping
    when it has ended; the last public message."""
    for _ in range(moves):
        row = await store.open_game(channel)
        if row is None:
            break
        game = GAMES[row.game]
        message = await play(fake, names[game.to_act(game.load(row.state))[0]], message)
    return message


async def test_an_italian_user_plays_a_whole_game_in_italian(tmp_path):
    game = GAMES["wassamasaw"]
    async with FakeDiscord() as fake:
        fake.guild.locale = "it"
        for name in ("alice", "bob"):
            fake.user(name).locale = "it"
        fake.user("carol").locale = "en-US"
        names = names_by_id(fake)
        bot = make_bot(tmp_path / "bot.db")
        channel = str(fake.channel("general").id)
        async with fake.run(bot):
            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            lobby = await answer(r)
            assert not lobby.ephemeral
            labels = {b["label"] for b in lobby.buttons()}
            assert {"Unisciti", "Esci", "Aggiungi computer", "Inizia", "Inizia (posti a caso)"} <= labels
            assert not labels & {"Join", "Leave", "Start"}
            assert_italian(lobby)

            joined = await answer(await fake.click("bob", lobby, label="Unisciti"))
            assert not joined.ephemeral
            assert_italian(joined)
            started = await answer(await fake.click("alice", joined, label="Inizia"))
            assert not started.ephemeral
            assert_italian(started)
            assert started.said.rstrip().endswith("— tocca a te.")
            assert "La mia vista" in {b["label"] for b in started.buttons()}

            # the first move by slash command, from Italian suggestions whose values stay canonical
            row = await bot.store.open_game(channel)
            first = names[game.to_act(game.load(row.state))[0]]
            ac = await fake.autocomplete(first, "general", "game move", {"action": ""}, "action")
            assert ac.choices and all(c["value"].startswith(("take ", "convert ")) for c in ac.choices)
            with i18n.speaking("it"):
                assert [c["name"] for c in ac.choices] == [i18n.line(c["value"]) for c in ac.choices]
            msg = await answer(await fake.slash(first, "general", "game move",
                                                options={"action": ac.choices[0]["value"]}))
            assert not msg.ephemeral

            # "My view" answers privately, in Italian
            mine = await answer(await fake.click(first, msg, label="La mia vista"))
            assert mine.ephemeral
            assert_italian(mine)

            placeholders = set()
            for _step in range(400):
                row = await bot.store.open_game(channel)
                if row is None:
                    break
                assert_italian(msg)
                placeholders |= {s.get("placeholder") for s in msg.selects()}
                seat = game.to_act(game.load(row.state))[0]
                msg = await play(fake, names[seat], msg, assert_italian)
            final = await bot.store.latest_game(channel)
            assert final.status == "finished", "the game did not end"
            assert_italian(msg)
            assert not [b for b in msg.buttons() if b["custom_id"].startswith("th:a:")]
            assert placeholders <= {"Scegli la tua mossa…", "Scegli cosa fare…"}
            ended_turn = started

            # an English user in the Italian server: public messages in Italian, their own answers in English
            r = await fake.slash("carol", "general", "game new", options={"game": "wassamasaw"})
            lobby = await answer(r)
            assert not lobby.ephemeral
            assert {"Unisciti", "Inizia"} <= {b["label"] for b in lobby.buttons()}
            assert_italian(lobby)
            old = next(b for b in ended_turn.buttons() if b["custom_id"].startswith("th:a:"))
            refusal = await answer(await fake.click("carol", ended_turn, old["custom_id"]))
            assert refusal.ephemeral and "belongs to a game that has ended" in refusal.said
            assert "`/game status`" in refusal.said
            refusal = await answer(await fake.click("alice", ended_turn, old["custom_id"]))
            assert refusal.ephemeral and "appartiene a una partita finita" in refusal.said
            assert "`/partita stato`" in refusal.said

            r = await answer(await fake.slash("carol", "general", "games"))
            assert r.ephemeral and "in the lobby" in r.said
            r = await answer(await fake.slash("alice", "general", "games"))
            assert r.ephemeral and "in attesa di iniziare" in r.said
            r = await answer(await fake.slash("alice", "general", "mygames"))
            assert r.ephemeral and r.said == "Per ora nessuna partita sta aspettando te."
            r = await fake.slash("carol", "general", "stats", options={"user": "alice"})
            stats = await answer(r)
            assert not stats.ephemeral and "In questo server —" in stats.said and "Ovunque" in stats.said
            assert "1 vinte su 1" in stats.said or "0 vinte su 1" in stats.said
            assert_italian(stats)
            r = await fake.slash("carol", "general", "leaderboard", options={"game": "wassamasaw"})
            board = await answer(r)
            assert not board.ephemeral and board.said.startswith("Classifica di **Wassamasaw**")

            r = await fake.slash("carol", "general", "game abandon")
            confirm = await answer(r)
            assert confirm.ephemeral
            assert [b["label"] for b in confirm.buttons()] == ["Yes, abandon the game"]
    assert not fake.errors, fake.errors
    assert not fake.unknown_routes, fake.unknown_routes


def italian_name_of(item: dict, context: str) -> str:
    """A command's or option's Italian name in the sync payload; none is sent only where the Italian word
    is the English one (``replay``), and Discord then shows that."""
    it = item.get("name_localizations", {}).get("it")
    if it is None:
        assert i18n.catalog("it").pgettext(context, item["name"]) == item["name"], item["name"]
        return item["name"]
    return it


async def test_the_sync_carries_the_italian_command_names(tmp_path):
    async with FakeDiscord() as fake:
        async with fake.run(make_bot(tmp_path / "bot.db")):
            pass
        assert fake.sync_payloads
        payload = fake.sync_payloads[-1][1]
        game = next(c for c in payload if c["name"] == "game")
        assert game["name_localizations"]["it"] == "partita"
        subs = {o["name"]: o for o in game["options"] if o["type"] == 1}
        expected = {"new": "nuova", "join": "unisciti", "leave": "esci", "addbot": "aggiungi_bot",
                    "start": "inizia", "move": "mossa", "status": "stato", "abandon": "abbandona"}
        for english, italian_name in expected.items():
            assert subs[english]["name_localizations"]["it"] == italian_name
        # every subcommand and option is named in Italian, within Discord's rules, with no two alike
        for sub in subs.values():
            it = italian_name_of(sub, "command")
            assert NAME.match(it) and it == it.lower(), sub["name"]
            assert 1 <= len(sub.get("description_localizations", {}).get("it", "")) <= 100, sub["name"]
            options = [italian_name_of(o, "option") for o in sub.get("options", [])]
            assert all(NAME.match(o) for o in options), (sub["name"], options)
            assert len(set(options)) == len(options)
        assert len({italian_name_of(s, "command") for s in subs.values()}) == len(subs)
        # the other top-level commands too
        top = {c["name"]: c.get("name_localizations", {}).get("it") for c in payload}
        assert top["settings"] == "impostazioni" and top["leaderboard"] == "classifica"
    assert not fake.errors, fake.errors


def test_public_components_in_italian_keep_canonical_values():
    from cogs import ui
    from table import Reply
    from table.replies import Offer

    with i18n.speaking("it"):
        assert ui.mention_line(Reply(text="x", mention=["1"])) == "<@1> — tocca a te."
        assert ui.mention_line(Reply(text="x", mention=["1", "2"])) == "<@1> <@2> — tocca a voi."
        rows = ui.offer_rows(Offer(7, 3, ["42"], {"42": "Bob"}))
        assert [(b.item.label, b.item.custom_id) for b in ui.children(rows)] == [
            ("Salta il turno di Bob", "th:d:7:3:skip-42"), ("Rimuovi Bob", "th:d:7:3:remove-42")]
        select = ui.OptionSelect(7, {"yarimizu": False}, {"yarimizu": [True, False]}).item
        assert select.placeholder == "Solo l'host: cambia un'opzione del tavolo…"
        assert [(o.label, o.value) for o in select.options] == [("yarimizu: sì", "yarimizu=on"),
                                                               ("yarimizu: no ✓", "yarimizu=off")]
    # the same in English, the default
    assert ui.children(ui.offer_rows(Offer(7, 3, ["42"], {"42": "Bob"})))[0].item.label == "Skip Bob's turn"


async def test_a_game_thread_in_an_italian_server(tmp_path):
    async with FakeDiscord() as fake:
        fake.guild.locale = "it"
        fake.user("alice").locale = "it"
        fake.user("bob").locale = "en-US"
        bot = make_bot(tmp_path / "bot.db")
        async with fake.run(bot):
            await fake.slash("alice", "general", "settings", options={"threads": True})
            # an English host: the channel reads who opened what in Italian
            r = await answer(await fake.slash("bob", "general", "game new", options={"game": "wassamasaw"}))
            assert not r.ephemeral and "ha aperto un tavolo di Wassamasaw in <#" in r.said
            assert r.said.endswith(": unisciti lì.")
            lobby = fake.last_message(fake.threads[-1])
            assert {"Unisciti", "Esci", "Inizia"} <= {b.get("label") for b in lobby.buttons()}
            assert_italian(lobby)

            # an unexpected error: each user is told in their own language, never shown a traceback
            async def broken(*args, **kwargs):
                raise RuntimeError("a bug")
            bot.service.status = broken
            r = await answer(await fake.slash("alice", fake.threads[-1], "game status"))
            assert r.ephemeral and r.said.startswith("Scusa, qualcosa è andato storto")
            r = await answer(await fake.slash("bob", fake.threads[-1], "game status"))
            assert r.ephemeral and r.said.startswith("Sorry, something went wrong")
    assert not fake.errors, fake.errors
