"""The fortnight (tests/fortnight.py) with a real bot process killed with SIGKILL while it sends what the
clocks made due: every bank that ran out is announced exactly once, and every reminder the killed runs left in
the outbox is sent exactly once unless its turn was played meanwhile (none lost, none shown twice); nobody is
mentioned in their quiet hours, and Discord gets its own timestamps (<t:…:R>) for the clocks' instants."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import time

from cogs.ui import timed
from store import Store
from table import TableService, User
from tests.fakediscord import FakeDiscord
from tests.fortnight import DAY, Fortnight
from tests.support import Clock
from tests.test_faults import notices, run_bot


def owed(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
    finally:
        con.close()


def reminders_owed(db) -> dict[int, tuple[str, int, int]]:
    """The reminders waiting in the outbox: row id → (channel, game, game version it was made for)."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT id, channel, game_id, payload FROM outbox").fetchall()
    finally:
        con.close()
    return {i: (ch, g, json.loads(p)["version"], json.loads(p)["text"]) for i, ch, g, p in rows
            if "Reminder" in json.loads(p)["text"]}


def remind_now(db) -> int:
    """Every pending reminder made due now (as if the reminder interval had passed): how many."""
    con = sqlite3.connect(db)
    try:
        n = con.execute("UPDATE timers SET due = ? WHERE kind = 'reminder' AND fired IS NULL", (time.time() - 1,))
        con.commit()
        return n.rowcount
    finally:
        con.close()


def reminders_due(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM timers WHERE kind = 'reminder' AND fired IS NULL AND due <= ?",
                           (time.time(),)).fetchone()[0]
    finally:
        con.close()


def versions(db) -> dict[int, int]:
    con = sqlite3.connect(db)
    try:
        return dict(con.execute("SELECT id, version FROM games").fetchall())
    finally:
        con.close()


def ran_out(fake, channels) -> dict[int, int]:
    return {ch.id: sum("ran out of time" in t for t in notices(fake, ch)) for ch in channels}


async def test_kill_9_while_the_clocks_fire_loses_nothing_and_sends_nothing_twice(tmp_path):
    async with FakeDiscord(channels=["fast", "daily", "relaxed"]) as fake:
        channels = [fake.channel(n) for n in ("fast", "daily", "relaxed")]
        users = [User(str(fake.user(n).id), n.title()) for n in ("ann", "bo", "chi")]
        db = tmp_path / "bot.db"
        # a fortnight that ended eleven days ago: every bank still running has run out since (the longest,
        # relaxed's 120 h, takes under eight days of anyone's playing hours)
        clock = Clock((time.time() - 25 * DAY) // 3600 * 3600)        # on the hour: the minutes by hand are exact
        async with Store(db) as store:
            svc = TableService(store, clock=clock, render=False)
            svc.ai_options = {"iterations": 5}
            sim = Fortnight(svc, clock, users, [str(c.id) for c in channels], "fortnight-guild")
            fig = await sim.run()
            assert fig.quiet_violations == 0 and fig.bank_max_difference < 1e-6
            waiting = {str(c.id) for c in channels if (await store.open_game(str(c.id))).status == "running"}
            due = await store.due_timers(time.time())
            assert {str((await store.game(t.game_id)).channel) for t in due if t.kind == "deadline"} == waiting
        before = {c.id: len(notices(fake, c)) for c in channels}

        def done() -> bool:
            return all(n >= 1 for cid, n in ran_out(fake, channels).items() if str(cid) in waiting)

        # dies before its second post, then just after Discord took the second post of the next run; what each
        # killed run left owed of reminders is noted
        owed_reminders = {}
        assert await run_bot(fake, db, "post:2", lambda: False) == -signal.SIGKILL
        owed_reminders |= reminders_owed(db)
        assert await run_bot(fake, db, "sent:2", lambda: False) == -signal.SIGKILL
        owed_reminders |= reminders_owed(db)
        # the clean run goes on until what the killed runs owed has left the outbox (the post Discord took
        # just before the kill goes again, with its nonce)
        assert await run_bot(fake, db, None, lambda: done() and owed(db) == 0) == 0
        counts = ran_out(fake, channels)
        lost = sum(1 for cid, n in counts.items() if str(cid) in waiting and n == 0)
        duplicated = sum(n - 1 for n in counts.values() if n > 1)
        # then the reminders of the turns those moves began: their due moved to now (the server's four hours
        # passed), the bot killed again at the same two points while it sends them, then a clean run
        due_reminders = remind_now(db)
        for crash in ("post:2", "sent:2", None):
            if reminders_due(db) == 0 and owed(db) == 0:
                break
            code = await run_bot(fake, db, crash, lambda: reminders_due(db) == 0 and owed(db) == 0)
            assert code in (0, -signal.SIGKILL)
            owed_reminders |= reminders_owed(db)
        # a reminder owed is sent once, unless its turn was played before it went (then it expired, unsent)
        now_versions = versions(db)
        by_channel = {str(c.id): [m.said for m in fake.messages(c) if m.author.id == fake.bot_user.id]
                      for c in channels}
        sent_reminders = {i: sum(timed(text.split("\n")[0]) in m for m in by_channel[ch])
                          for i, (ch, g, v, text) in owed_reminders.items()}
        expired = {i for i, (ch, g, v, text) in owed_reminders.items() if now_versions.get(g) != v}
        reminders_lost = sum(1 for i, n in sent_reminders.items() if n == 0 and i not in expired)
        reminders_twice = sum(n - 1 for n in sent_reminders.values() if n > 1)
        all_reminders = [m for ms in by_channel.values() for m in ms if "Reminder" in m]
        print(f"fortnight: {fig}; SIGKILL: {len(waiting)} banks ran out, lost {lost}, duplicated {duplicated}; "
              f"reminders made due {due_reminders}, owed by the killed runs {len(owed_reminders)} (expired unsent "
              f"{len(expired)}), "
              f"lost {reminders_lost}, sent twice {reminders_twice}; reminders sent in all "
              f"{len(all_reminders)}, distinct {len(set(all_reminders))}")
        assert lost == 0 and duplicated == 0, [[(m.nonce, m.said[:70]) for m in fake.messages(c)] for c in channels]
        assert reminders_lost == 0 and reminders_twice == 0 and len(set(all_reminders)) == len(all_reminders)
        async with Store(db) as store:
            assert await store.outgoing() == [] and await store.due_timers(time.time()) == []
        sent = [m for c in channels for m in fake.messages(c)[before[c.id]:] if m.author.id == fake.bot_user.id]
        now = time.time()
        for m in sent:                       # nobody mentioned in their quiet hours
            for uid in re.findall(r"<@(\d+)>", m.said):
                assert not sim.by_id[uid].asleep(now), m.said
            assert "\u27e6" not in m.said
        assert any("<t:" in m.said for m in sent)
        assert not fake.errors
