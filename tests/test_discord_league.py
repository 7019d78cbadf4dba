"""Leagues through Discord (the fake, issue #35): /league new needs Manage Server, the sign-up message's Join and
Leave buttons work (also after a restart: their custom ids carry the league), a click by someone not in it is
refused in one line, the start opens each pairing in a thread, and the standings come as a picture with alt text."""

from __future__ import annotations

from cogs.runner import TeahouseBot
from store import Store
from store.leagues import LeagueStore
from table import TableService
from tests.fakediscord import FakeDiscord, snowflake


async def test_a_league_in_discord(tmp_path):
    async with FakeDiscord(users=("alice", "bob", "carol", "dave", "erin")) as fake:
        store = Store(tmp_path / "bot.db")
        bot = TeahouseBot(store, service=TableService(store, render=True))
        async with fake.run(bot):
            r = await fake.slash("bob", "general", "league new", options={"game": "seikatsu", "format": "swiss",
                                                                         "rounds": 1})
            assert r.ephemeral and "Only someone who manages the server" in r.said
            r = await fake.slash("alice", "general", "league new", options={"game": "wassamasaw", "format": "pods",
                                                                           "rounds": 2})
            assert r.ephemeral and "is a game for two" in r.said and "\n" not in r.said
            r = await fake.slash("alice", "general", "league new", options={"game": "seikatsu", "format": "swiss",
                                                                           "rounds": 1, "speed": "fast"})
            signup = fake.last_message("general")
            assert "Seikatsu, Swiss, 1 round, speed fast — sign-up open" in signup.said
            assert {b["label"] for b in signup.buttons()} >= {"Join", "Leave", "Start (organiser)"}
            for name in ("bob", "carol"):
                await fake.click(name, signup, label="Join")
            r = await fake.click("dave", signup, label="Leave")
            assert "You are not playing in league #1" in r.said
        # a restart: the same buttons on the same message still work
        store = Store(tmp_path / "bot.db")
        bot = TeahouseBot(store, service=TableService(store, render=True))
        async with fake.run(bot):
            await fake.click("dave", signup, label="Join")
            await fake.click("erin", signup, label="Join")
            players = await LeagueStore(bot.service.store).players(1)
            assert len(players) == 4
            r = await fake.click("bob", signup, label="Start (organiser)")
            assert r.ephemeral and "Only the organiser" in r.said
            await fake.click("alice", signup, label="Start (organiser)")

            def said() -> str:
                return "\n".join(m.said or "" for m in fake.messages("general"))
            while "round 1 of 1" not in said():            # the round's message follows the answer
                await fake._wait_changed(10.0)
            text = said()
            assert "League #1, round 1 of 1 (Seikatsu, Swiss):" in text and "Table 2:" in text
            assert len(fake.threads) == 2
            r = await fake.click("carol", signup, label="Join")
            assert r.ephemeral and "has already started" in r.said
            r = await fake.slash("alice", "general", "league start")
            assert r.ephemeral and "already started" in r.said
            r = await fake.slash("bob", "general", "league standings")
            msg = fake.last_message("general")
            assert msg.attachments and msg.attachments[0].filename == "league-1-standings.png"
            assert "Standings after round 1" in (msg.attachments[0].description or "")
            r = await fake.slash("bob", "general", "league pairings")
            assert "Table 1:" in fake.last_message("general").said


async def test_a_role_the_server_picks_may_organise_leagues(tmp_path):
    """/settings league_role: members with that role open and run leagues without Manage Server (#35)."""
    async with FakeDiscord(users=("alice", "bob", "carol")) as fake:
        referees = dict(fake.everyone_role, id=str(snowflake()), name="Referees", position=2)
        fake.guild.roles.append(referees)                  # known to the bot from the start, as a real role is
        fake.user("bob").roles.append(int(referees["id"]))
        store = Store(tmp_path / "bot.db")
        bot = TeahouseBot(store, service=TableService(store, render=False))
        async with fake.run(bot):
            r = await fake.slash("bob", "general", "league new", options={"game": "wagara", "format": "pods"})
            assert r.ephemeral and "Only someone who manages the server" in r.said
            r = await fake.slash("bob", "general", "settings", options={"league_role": "Referees"})
            assert r.ephemeral and "Only members who can manage this server" in r.said
            r = await fake.slash("alice", "general", "settings", options={"league_role": "Referees"})
            assert r.ephemeral and f"<@&{referees['id']}>" in r.said            # shown by name, nobody pinged
            r = await fake.slash("bob", "general", "league new", options={"game": "wagara", "format": "pods",
                                                                         "rounds": 2})
            assert "sign-up open" in fake.last_message("general").said
            r = await fake.slash("carol", "general", "league cancel")
            assert r.ephemeral and "Only the organiser" in r.said
            r = await fake.slash("bob", "general", "league cancel")
            assert "cancel" in (r.said or fake.last_message("general").said).lower()
        assert not fake.errors, fake.errors
