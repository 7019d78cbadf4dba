"""Clocks through Discord (the fake): /notify's new options answer in one line, a table at a speed shows its
clocks as Discord timestamps, nobody is pinged in their quiet hours, and a game with many options gets its
table options (speed among them) in a second select."""

from __future__ import annotations

from datetime import UTC, datetime

from cogs import ui
from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService
from table.records import TABLE_OPTION_CHOICES, table_options
from tests.fakediscord import FakeDiscord
from tests.support import Clock


def test_every_option_value_has_a_place_in_the_lobby_selects():
    for key, game in GAMES.items():
        options = table_options(dict(game.options))
        choices = {**game.option_choices, **TABLE_OPTION_CHOICES}
        selects = ui.OptionSelects(7, options, choices)
        values = [o.value for s in selects for o in s.item.options]
        assert len(values) == sum(len(choices.get(n, [])) for n in options), key
        assert all(len(s.item.options) <= 25 for s in selects)
        assert len({s.item.custom_id for s in selects}) == len(selects)
        assert "speed=daily" in values


async def test_notify_and_the_game_clock_in_discord(tmp_path):
    clock = Clock(datetime(2026, 5, 4, 15, tzinfo=UTC).timestamp())      # midnight in Tokyo
    async with FakeDiscord() as fake:
        store = Store(tmp_path / "bot.db")
        bot = TeahouseBot(store, service=TableService(store, clock=clock))
        async with fake.run(bot):
            r = await fake.slash("bob", "general", "notify", options={"zone": "Mars/Base"})
            assert r.ephemeral and r.said.startswith("There is no time zone 'Mars/Base'") and "\n" not in r.said
            r = await fake.slash("bob", "general", "notify", options={"quiet": "08:00-08:00"})
            assert "cannot cover the whole day" in r.said
            r = await fake.slash("bob", "general", "notify", options={"away_days": 22})
            assert "0 (back now) to 21 days" in r.said
            r = await fake.slash("bob", "general", "notify", options={"zone": "asia/tokyo", "quiet": "23:00-07:00"})
            assert "Asia/Tokyo" in r.said and "23:00-07:00" in r.said
            r = await fake.slash("bob", "general", "notify")
            assert "Asia/Tokyo" in r.said

            r = await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            r = await fake.slash("alice", "general", "game option", options={"name": "speed", "value": "warp"})
            assert r.ephemeral and "There is no speed 'warp'" in r.said
            await fake.slash("alice", "general", "game option", options={"name": "speed", "value": "fast"})
            await fake.slash("bob", "general", "game join")
            r = await fake.slash("alice", "general", "game start")
            row = await store.open_game(str(fake.channel("general").id))
            first = GAMES["wassamasaw"].to_act(GAMES["wassamasaw"].load(row.state))[0]
            msg = fake.last_message("general")
            assert "on the clock" in msg.said and "\u27e6" not in msg.said
            if first == str(fake.user("bob").id):          # Bob sleeps: named, not pinged
                assert f"<@{first}>" not in msg.said and "paused for their quiet hours (until <t:" in msg.said
            else:
                assert "it runs out <t:" in msg.said and ":R>" in msg.said
            r = await fake.slash("carol", "general", "game clock")
            assert r.ephemeral and "Speed: fast" in r.said and "<t:" in r.said


async def test_away_and_the_servers_speed_in_discord(tmp_path):
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC).timestamp())
    async with FakeDiscord() as fake:
        store = Store(tmp_path / "bot.db")
        bot = TeahouseBot(store, service=TableService(store, clock=clock))
        async with fake.run(bot):
            r = await fake.slash("bob", "general", "away", options={"off": True})
            assert r.ephemeral and r.said == "You are not away."
            r = await fake.slash("bob", "general", "away", options={"days": 30})
            assert r.said == "You can be away for 0 (back now) to 21 days at a time."
            r = await fake.slash("bob", "general", "away", options={"days": 2})
            assert "Away until <t:" in r.said and ":f>" in r.said
            clock.now += 24 * 3600
            r = await fake.slash("bob", "general", "away", options={"off": True})
            assert "Away until" not in r.said and "Your time zone" in r.said
            r = await fake.slash("bob", "general", "away", options={"days": 21})      # the day taken counts
            assert "more time away than 21 days in any 60" in r.said and "at most 20 more days" in r.said

            r = await fake.slash("alice", "general", "settings", options={"speed": "daily"})    # alice owns it
            assert "Speed of new tables: daily" in r.said
            await fake.slash("alice", "general", "game new", options={"game": "wassamasaw"})
            msg = fake.last_message("general")
            assert "Clock: daily" in msg.said and "Length: about 27 days" in msg.said
            ac = await fake.autocomplete("alice", "general", "game option", {"name": "zone", "value": "rome"}, "value")
            assert [c["value"] for c in ac.choices] == ["Europe/Rome"]
            r = await fake.slash("alice", "general", "game option", options={"name": "zone", "value": "Mars/Base"})
            assert r.ephemeral and r.said.startswith("There is no time zone 'Mars/Base'")
            await fake.slash("alice", "general", "game option", options={"name": "playing_hours", "value": "18-23"})
            assert "Playing hours: 18:00-23:00 (UTC)" in fake.last_message("general").said
