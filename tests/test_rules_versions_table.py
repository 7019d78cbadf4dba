"""Rules versions at the table (issue #26): a game shows the rules it is played by, exports them, and a game
saved by a newer Teahouse (after a downgrade) is refused everywhere with one clear message and not touched;
once the bot knows its version again it goes on."""

import json

import tests.tinygame  # noqa: F401  (registers Pebbles)
from engine import GAMES
from table import User
from tests.support import HERE, err, started
from tests.tinygame import Pebbles

ALICE, BOB = User("111", "Alice"), User("222", "Bob")


async def test_status_and_export_name_the_rules_version(svc):
    await started(svc, ALICE, BOB)
    status = await svc.status(HERE, ALICE)
    assert "Rules version 1: the rules as first released." in status.text
    export = await svc.export(HERE, ALICE)
    data = json.loads(export.private[0].image.data)
    assert data["rules"] == 1


async def test_status_says_when_new_games_get_newer_rules(svc, monkeypatch):
    await started(svc, ALICE, BOB)
    monkeypatch.setattr(Pebbles, "rules", 2)
    monkeypatch.setattr(Pebbles, "rules_changes", {1: "by ones", 2: "by twos"})
    status = await svc.status(HERE, BOB)
    assert "Rules version 1: by ones. New games use version 2." in status.text


async def test_a_game_from_a_newer_teahouse_is_refused_and_kept(svc, monkeypatch, clock):
    monkeypatch.setattr(Pebbles, "rules", 2)          # the newer bot starts the game under version 2
    await started(svc, ALICE, BOB)
    before = await svc.store.open_game(HERE.channel)
    monkeypatch.setattr(Pebbles, "rules", 1)          # downgraded
    for reply in (await svc.status(HERE, ALICE), await svc.act(HERE, ALICE, "bid 1"), await svc.prompt(HERE, BOB),
                  await svc.hand(HERE, ALICE), await svc.undo(HERE, ALICE)):
        text = err(reply)
        assert "saved by a newer version of Teahouse" in text and "version 2" in text, text
    assert await svc.legal(HERE, ALICE) == []
    assert (await svc.history(HERE, ALICE)).ok       # the log lines are plain text: still readable
    export = await svc.export(HERE, ALICE)             # and the record, which names the version it needs
    assert json.loads(export.private[0].image.data)["rules"] == 2
    clock.now += 30 * 24 * 3600
    await svc.fire_due()
    after = await svc.store.open_game(HERE.channel)
    assert (after.version, after.state, after.status) == (before.version, before.state, before.status)
    monkeypatch.setattr(Pebbles, "rules", 2)          # upgraded again: the game goes on
    assert (await svc.act(HERE, ALICE, "bid 1")).ok


async def test_a_replay_of_a_game_from_a_newer_teahouse_is_refused(svc, monkeypatch):
    wagara = type(GAMES["wagara"])
    monkeypatch.setattr(wagara, "rules", 2)
    await started(svc, ALICE, BOB, game="wagara")
    monkeypatch.setattr(wagara, "rules", 1)
    assert "saved by a newer version of Teahouse" in err(await svc.replay(HERE, ALICE))
    monkeypatch.setattr(wagara, "rules", 2)
    assert (await svc.replay(HERE, ALICE)).ok
