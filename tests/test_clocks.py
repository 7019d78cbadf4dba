"""Clocks across days (issue #34): the bank arithmetic of table/clock.py against computations by hand (quiet
hours over zoneinfo, summer time, away spells), and the table service with speeds, time zones, quiet hours and
time away — banks stored and charged only in playing hours, deadlines when a bank empties, nobody mentioned in
their quiet hours, bad input refused in one line."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import tests.tinygame  # noqa: F401
from console.table import console_times
from store import Store
from store.shards import Shards
from table import TableService, User, Where
from table import clock as C
from table.clock import DAY, H, Hours, SeatClock
from table.replies import when, with_times
from tests.support import Clock, err, started

HERE = Where("chan", guild="g")
ALICE, BOB, CY = User("111", "Alice"), User("222", "Bob"), User("333", "Cy")


def at(*args) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


# ----- the arithmetic, by hand ------------------------------------------------------------------------------
ROME = Hours("Europe/Rome", (23 * 60, 7 * 60))
NEW_YORK = Hours("America/New_York", (22 * 60, 6 * 60))
TOKYO = Hours("Asia/Tokyo", (0, 8 * 60))


def test_quiet_hours_are_local_and_follow_summer_time():
    # Rome, the night summer time starts (29 March 2026, 02:00 CET → 03:00 CEST): 23:00 CET = 22:00 UTC to
    # 07:00 CEST = 05:00 UTC, seven hours; the next night 23:00 CEST = 21:00 UTC to 05:00 UTC, eight hours
    assert C.excluded(ROME, at(2026, 3, 28, 12), at(2026, 3, 30, 12)) == [
        (at(2026, 3, 28, 22), at(2026, 3, 29, 5)), (at(2026, 3, 29, 21), at(2026, 3, 30, 5))]
    assert C.playing_seconds(ROME, at(2026, 3, 28, 12), at(2026, 3, 30, 12)) == (48 - 7 - 8) * H
    # New York, the night summer time ends (1 November 2026, 02:00 EDT → 01:00 EST): 22:00 EDT = 02:00 UTC to
    # 06:00 EST = 11:00 UTC, nine hours
    assert C.excluded(NEW_YORK, at(2026, 11, 1, 0), at(2026, 11, 1, 12)) == [(at(2026, 11, 1, 2), at(2026, 11, 1, 11))]
    # Tokyo (no summer time): 00:00-08:00 JST is 15:00-23:00 UTC the day before
    assert C.excluded(TOKYO, at(2026, 6, 1, 12), at(2026, 6, 2, 12)) == [(at(2026, 6, 1, 15), at(2026, 6, 1, 23))]


def test_a_bank_runs_out_counting_playing_hours_only():
    # 24 h from Saturday 12:00 UTC in Rome: 10 h to 22:00, quiet until 05:00, then 14 h more: Sunday 19:00 UTC
    assert C.runs_out(ROME, at(2026, 3, 28, 12), 24 * H) == at(2026, 3, 29, 19)
    # within the same stretch of playing hours
    assert C.runs_out(ROME, at(2026, 3, 28, 12), 3 * H) == at(2026, 3, 28, 15)
    # a bank that starts in quiet hours starts counting when they end: 05:00 UTC + 2 h
    assert C.runs_out(ROME, at(2026, 3, 29, 1), 2 * H) == at(2026, 3, 29, 7)
    # 120 h (the relaxed cap) from Monday 00:00 UTC in Tokyo: 16 h a day from 23:00 UTC: day 1 gives 15 h
    # (00:00-15:00), then 16 h a day: 15 + 16·6 = 111 at Sunday 23:00, 9 h more is Monday 08:00 UTC
    assert C.runs_out(TOKYO, at(2026, 6, 1, 0), 120 * H) == at(2026, 6, 8, 8)
    assert C.runs_out(ROME, at(2026, 3, 28, 12), 0) == at(2026, 3, 28, 12)


def test_an_away_spell_stops_the_bank_and_the_mentions():
    away = Hours("Europe/Rome", (23 * 60, 7 * 60), away_until=at(2026, 5, 4, 12))
    start = at(2026, 5, 1, 12)
    assert C.playing_seconds(away, start, at(2026, 5, 4, 12)) == 0
    assert C.is_quiet(away, at(2026, 5, 2, 15)) and not C.is_quiet(away, at(2026, 5, 4, 12))
    # back at 12:00 UTC (14:00 CEST): 6 h to 21:00 UTC (23:00 CEST)
    assert C.runs_out(away, start, 6 * H) == at(2026, 5, 4, 18)
    assert C.awake_at(away, start) == at(2026, 5, 4, 12)
    # at 22:00 UTC Rome sleeps (00:00 CEST) until 05:00 UTC (07:00 CEST)
    assert C.awake_at(ROME, at(2026, 5, 1, 22)) == at(2026, 5, 2, 5)
    assert C.awake_at(ROME, at(2026, 5, 1, 12)) == at(2026, 5, 1, 12)


def test_fischer_banks_with_a_cap_and_an_undo_that_takes_the_increment_back():
    fast = C.SPEEDS["fast"]                         # 6 h, +3 h a move, at most 12 h
    t0 = at(2026, 5, 1, 8)
    clocks = C.starting(fast, ["a", "b"], ["a"], t0)
    assert clocks == {"a": SeatClock(6 * H, t0), "b": SeatClock(6 * H)}
    # a plays after 2 h (Rome is awake 06:00-21:00 UTC in May): 4 h left + 3 h = 7 h; b starts running
    clocks = C.advance(fast, clocks, ["a"], ["b"], {"a"}, None, {"a": ROME}, t0 + 2 * H)
    assert clocks["a"] == SeatClock(7 * H, None, 3 * H) and clocks["b"] == SeatClock(6 * H, t0 + 2 * H)
    # b plays at once: 6 h + 3 h = 9 h, then a answers in a minute: 7 h - 1 min + 3 h = 10 h - 1 min
    clocks = C.advance(fast, clocks, ["b"], ["a"], {"b"}, None, {}, t0 + 2 * H)
    clocks = C.advance(fast, clocks, ["a"], ["b"], {"a"}, None, {"a": ROME}, t0 + 2 * H + 60)
    assert clocks["a"].bank == 10 * H - 60
    # … and the cap: b at 9 h + 3 h = 12 h, a move more stays at 12 h
    clocks = C.advance(fast, clocks, ["b"], ["a"], {"b"}, None, {}, t0 + 2 * H + 60)
    assert clocks["b"] == SeatClock(12 * H, None, 3 * H)
    clocks = C.advance(fast, clocks, ["a"], ["b"], {"a"}, None, {"a": ROME}, t0 + 2 * H + 60)
    clocks = C.advance(fast, clocks, ["b"], ["a"], {"b"}, None, {}, t0 + 2 * H + 60)
    assert clocks["b"] == SeatClock(12 * H, None, 0.0)
    # b takes its move back: the increment it earned (none, at the cap) is taken back; a's clock stops, uncredited
    clocks = C.advance(fast, clocks, ["a"], ["b"], set(), "b", {}, t0 + 3 * H)
    assert clocks["b"] == SeatClock(12 * H, t0 + 3 * H) and clocks["a"].since is None
    # an empty bank earns the increment when a computer plays for its owner: 0 + 3 h
    late = C.advance(fast, {"a": SeatClock(1 * H, t0)}, ["a"], [], {"a"}, None, {"a": ROME}, t0 + 5 * H)
    assert late["a"].bank == 3 * H


def test_what_people_type_is_read_or_refused():
    assert C.parse_zone("europe/rome") == "Europe/Rome" and C.parse_zone("UTC") == "UTC"
    assert C.parse_quiet("23:00-07:00") == (23 * 60, 7 * 60) and C.parse_quiet("23-7") == (23 * 60, 7 * 60)
    assert C.parse_quiet("off") is None
    assert C.parse_away(3, 100.0) == 100.0 + 3 * DAY and C.parse_away(0, 100.0) is None
    for bad, why in (("Mars/Base", "zone"), ("../etc/passwd", "zone"), ("", "zone")):
        with pytest.raises(C.BadHours) as e:
            C.parse_zone(bad)
        assert e.value.args[0] == why
    for bad, why in (("8-8", "whole_day"), ("00:00-24:00", "whole_day"), ("20-10", "too_long"), ("25-3", "quiet"),
                     ("late", "quiet")):
        with pytest.raises(C.BadHours) as e:
            C.parse_quiet(bad)
        assert e.value.args[0] == why
    with pytest.raises(C.BadHours):
        C.parse_away(22, 0.0)


def test_instants_are_marked_and_each_front_end_writes_them():
    from cogs.ui import timed

    text = f"runs out {when(1_800_003_600)}, back {when(1_800_086_400, 'f')}"
    assert timed(text) == "runs out <t:1800003600:R>, back <t:1800086400:f>"
    shown = console_times(text, 1_800_000_000)
    assert "2027-01-15 09:00 UTC (in 1 hour" in shown or "UTC (in 6" in shown or "(in 60 minutes)" in shown
    assert "<t:" not in shown and "\u27e6" not in shown
    assert with_times("no instants", str) == "no instants"


# ----- the service -------------------------------------------------------------------------------------------
START = at(2026, 5, 4, 8)         # a Monday, 10:00 in Rome, 17:00 in Tokyo
CLOCK_START = START               # tests/test_stores.py runs these tests again on PostgreSQL from here


@pytest.fixture
def clock():
    return Clock(START)


async def clocked(svc, speed="fast", *users):
    r = await started(svc, *(users or (ALICE, BOB)), options={"speed": speed})
    return r


async def test_a_speed_gives_each_person_a_bank_stored_and_charged_by_moves(svc, clock):
    r = await clocked(svc)
    gid = r.game_id
    assert await svc.store.clocks(gid) == {"111": (6 * H, START, 0.0), "222": (6 * H, START, 0.0)}   # both bid
    assert "6 h 0 min on the clock" in r.text and "\u27e6t:" in r.text           # the instant, marked
    clock.now += 2 * H
    await svc.act(HERE, ALICE, "bid 1")
    assert (await svc.store.clocks(gid))["111"] == (7 * H, None, 3 * H)          # 6 - 2 + 3
    deadline = next(t for t in await svc.store.pending_timers(gid) if t.kind == "deadline")
    assert deadline.due == START + 6 * H                                          # Bob's bank empties then
    # a new service on the same database (a restart) finds the banks where they were
    again = TableService(svc.store, clock=clock, render=False)
    lines = (await again.game_clock(HERE, CY)).private[0].text
    assert "fast" in lines and "Alice: 7 h 0 min on the clock, not running" in lines and "Bob: 4 h 0 min" in lines


async def test_unknown_speed_and_a_speed_change_after_the_start_are_refused(svc, clock):
    assert "There is no speed 'lightning'" in err(await svc.open_table(HERE, ALICE, "pebbles", {"speed": "lightning"}))
    assert await svc.store.open_game("chan") is None
    assert (await svc.open_table(HERE, ALICE, "pebbles")).ok
    assert "There is no speed 'blitz'. Speeds: untimed, fast, daily, relaxed." in err(
        await svc.set_option(HERE, ALICE, "speed", "blitz"))
    assert "speed" not in (await svc.store.open_game("chan")).options
    assert (await svc.set_option(HERE, ALICE, "speed", "Daily")).ok
    assert (await svc.join(HERE, BOB)).ok and (await svc.start(HERE, ALICE)).ok
    assert "already started" in err(await svc.set_option(HERE, ALICE, "speed", "fast"))
    assert (await svc.store.open_game("chan")).options["speed"] == "daily"


async def test_bad_hours_are_one_line_and_change_nothing(svc, clock):
    assert (await svc.set_hours(BOB, "Asia/Tokyo", "23:00-07:00")).ok
    before = await svc.store.hours_of(["222"])
    for kwargs, said in (({"zone": "Mars/Base"}, "There is no time zone 'Mars/Base'"),
                         ({"quiet": "08:00-08:00"}, "cannot cover the whole day"),
                         ({"quiet": "20:00-10:00"}, "at most 12 hours a day"),
                         ({"quiet": "later"}, "Write quiet hours as from-to"),
                         ({"away_days": 22}, "0 (back now) to 21 days"),
                         ({"away_days": "soon"}, "0 (back now) to 21 days"),
                         ({"zone": "Europe/Rome", "away_days": 30}, "0 (back now) to 21 days")):
        text = err(await svc.set_hours(BOB, **kwargs))
        assert said in text and "\n" not in text
        assert await svc.store.hours_of(["222"]) == before


async def test_the_bank_stops_in_quiet_hours_and_the_deadline_follows(svc, clock):
    await svc.set_hours(BOB, "Asia/Tokyo", "23:00-07:00")        # 14:00-22:00 UTC quiet
    r = await clocked(svc)
    await svc.act(HERE, ALICE, "bid 1")
    # Bob's 6 h from 08:00 UTC: 08:00-14:00 is exactly 6 h of his playing hours
    deadline = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "deadline")
    assert deadline.due == START + 6 * H
    clock.now = START + 5 * H            # 13:00 UTC: he bids with an hour left → 1 h + 3 h; Alice (tie) decides
    await svc.act(HERE, BOB, "bid 1")
    assert (await svc.store.clocks(r.game_id))["222"] == (4 * H, None, 3 * H)
    assert (await svc.store.open_game("chan")).waiting == ["111"]
    clock.now = START + 5.5 * H          # Alice keeps the die and both bid again: her clock runs on from 13:00
    await svc.act(HERE, ALICE, "keep")
    clocks = await svc.store.clocks(r.game_id)
    assert clocks["111"] == (9 * H, START + 5 * H, 3 * H) and clocks["222"] == (4 * H, START + 5.5 * H, 3 * H)
    # Alice's 9 h end at 22:00 UTC; Bob's 4 h: half an hour to 14:00, then 3.5 h from 22:00, 01:30
    deadline = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "deadline")
    assert deadline.due == at(2026, 5, 4, 22)
    assert C.runs_out(Hours("Asia/Tokyo", (23 * 60, 7 * 60)), START + 5.5 * H, 4 * H) == at(2026, 5, 5, 1, 30)


async def test_nobody_is_mentioned_or_reminded_in_quiet_hours_but_when_they_wake(svc, clock):
    await svc.set_notify(BOB, True)
    await svc.set_hours(BOB, "Asia/Tokyo", "23:00-07:00")        # 14:00-22:00 UTC quiet
    clock.now = at(2026, 5, 4, 15)                                # Bob sleeps
    r = await clocked(svc, "daily")
    assert r.mention == ["111"]                                   # Alice only
    clock.now += 60
    r = await svc.act(HERE, ALICE, "bid 1")
    assert r.mention == []                                        # Bob's turn, but he sleeps
    assert "paused for their quiet hours" in r.text
    reminder = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "reminder")
    assert reminder.due == at(2026, 5, 4, 22)                     # when he wakes
    clock.now = at(2026, 5, 4, 21, 59)
    assert await svc.due() == []
    clock.now = at(2026, 5, 4, 22)
    (n,) = await svc.due()
    assert n.reply.mention == ["222"] and [p.user for p in n.dm] == ["222"]


async def test_untimed_reminders_wait_for_the_end_of_quiet_hours(svc, clock):
    await svc.set_hours(BOB, "Europe/Rome", "23:00-07:00")        # 21:00-05:00 UTC in May
    clock.now = at(2026, 5, 4, 18)
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    reminder = next(t for t in await svc.store.pending_timers() if t.kind == "reminder")
    assert reminder.due == at(2026, 5, 5, 5)                      # 22:00 UTC would be in his night
    deadline = next(t for t in await svc.store.pending_timers() if t.kind == "deadline")
    assert deadline.due == at(2026, 5, 5, 18)                     # untimed: the server's 24 h, as before


async def test_an_empty_bank_is_past_the_deadline(svc, clock):
    r = await clocked(svc)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now = START + 5 * H
    assert "Bob still has 1 h 0 min on the clock" in err(await svc.skip(HERE, ALICE, "222"))
    clock.now = START + 6 * H
    notices = await svc.due()
    offer = next(n for n in notices if n.reply.offer)
    assert "Bob ran out of time on the clock" in offer.reply.text and offer.reply.offer.absent == ["222"]
    r = await svc.skip(HERE, ALICE, "222", version=offer.reply.version)
    assert r.ok
    assert (await svc.store.clocks(r.game_id))["222"][0] == 3 * H   # a computer's move earns him 3 h


async def test_past_an_empty_bank_the_server_may_have_a_computer_play(svc, clock):
    await svc.change_settings("g", ALICE, True, deadline_action="skip")
    r = await clocked(svc)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now = START + 6 * H + 1
    notices = await svc.due()
    assert any("Bob ran out of time on the clock: a computer played for them" in n.reply.text for n in notices)
    assert (await svc.store.clocks(r.game_id))["222"][0] == 3 * H


async def test_away_pauses_the_bank_tells_the_table_and_comes_back(svc, clock):
    r = await clocked(svc)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now = START + 2 * H
    reply = await svc.set_hours(BOB, away_days=3)
    assert reply.ok and "Away until" in reply.private[0].text
    assert (await svc.store.clocks(r.game_id))["222"] == (4 * H, START + 2 * H, 0.0)    # charged, then paused
    deadline = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "deadline")
    assert deadline.due == START + 2 * H + 3 * DAY + 4 * H
    told = await svc.outbox()
    assert any("Bob is away until" in n.reply.text and "\u27e6t:" in n.reply.text for n in told)
    clock.now = START + 3 * H
    status = await svc.status(HERE, CY)
    assert "paused: away until \u27e6t:" in status.text and ":f\u27e7" in status.text
    assert (await svc.set_hours(BOB, away_days=0)).ok                      # back early
    assert any("Bob is back" in n.reply.text for n in await svc.outbox())
    deadline = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "deadline")
    assert deadline.due == START + 3 * H + 4 * H


async def test_away_postpones_an_untimed_deadline(svc, clock):
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now = START + 2 * H
    await svc.set_hours(BOB, away_days=2)
    deadline = next(t for t in await svc.store.pending_timers() if t.kind == "deadline")
    assert deadline.due == START + 2 * H + 2 * DAY + 24 * H
    clock.now = START + 24 * H + 1                       # no reminder, no deadline while he is away
    said = [n.reply.text for n in await svc.due()]
    assert len(said) == 1 and "Bob is away until" in said[0]


async def test_changing_hours_charges_the_running_bank_under_the_old_ones_first(svc, clock):
    r = await clocked(svc, "daily")
    await svc.act(HERE, ALICE, "bid 1")
    clock.now = START + 3 * H                      # 3 h of Bob's (no quiet hours yet) are gone
    await svc.set_hours(BOB, "Asia/Tokyo", "23:00-07:00")
    assert (await svc.store.clocks(r.game_id))["222"] == (21 * H, START + 3 * H, 0.0)
    clock.now = at(2026, 5, 4, 22)                 # 11:00-14:00 UTC count (3 h), 14:00-22:00 do not
    assert "Bob: 18 h 0 min" in (await svc.game_clock(HERE, ALICE)).private[0].text


async def test_a_shard_fires_only_its_servers_clocks(tmp_path, clock):
    guild = str(1 << 22)                           # shard 1 of 2
    async with Store(tmp_path / "s.db") as store:
        svc = TableService(store, clock=clock, render=False)
        where = Where("c1", guild=guild)
        assert (await svc.open_table(where, ALICE, "pebbles", {"speed": "fast"})).ok
        assert (await svc.join(where, BOB)).ok and (await svc.start(where, ALICE)).ok
    due = START + 7 * H
    async with Store(tmp_path / "s.db", shards=Shards(2, (0,))) as other:
        assert await other.due_timers(due) == []
    async with Store(tmp_path / "s.db", shards=Shards(2, (1,))) as mine:
        assert {t.kind for t in await mine.due_timers(due)} == {"reminder", "deadline"}


async def test_the_console_prints_instants_in_utc(tmp_path):
    from tests.support import run_console

    out = await run_console(tmp_path, "alice@t /game new game:pebbles speed:fast\nbob@t /game join\n"
                                      "alice@t /game start\nalice@t /game clock\nbob@t /notify zone:Mars/Base\n"
                                      "bob@t /notify zone:asia/tokyo quiet:23:00-07:00\nbob@t /notify away_days:3\n")
    assert "6 h 0 min on the clock; it runs out" in out and " UTC (in " in out and "\u27e6" not in out
    assert "There is no time zone 'Mars/Base'" in out and "Asia/Tokyo" in out and "Away until" in out


# ----- a table's playing hours, by hand ------------------------------------------------------------------------
EVENINGS = ("Europe/Rome", 18 * 60, 23 * 60)     # 16:00-21:00 UTC in May (CEST)


def test_a_table_window_alone_decides_when_a_bank_runs():
    # Bob sleeps 14:00-22:00 UTC (Tokyo 23-07), but at a table with playing hours the window alone counts:
    # 6 h from Monday 08:00 UTC: Monday 16:00-21:00 (5 h), then Tuesday 16:00-17:00 (1 h)
    bob = C.at_table(Hours("Asia/Tokyo", (23 * 60, 7 * 60)), EVENINGS)
    assert C.runs_out(bob, START, 6 * H) == at(2026, 5, 5, 17)
    assert C.playing_seconds(bob, START, at(2026, 5, 5, 18)) == 7 * H           # 5 h + 2 h
    assert C.is_quiet(bob, at(2026, 5, 4, 15, 59)) and not C.is_quiet(bob, at(2026, 5, 4, 17))
    assert C.awake_at(bob, START) == at(2026, 5, 4, 16)
    # away until Tuesday 12:00 UTC: Tuesday 16:00-21:00 (5 h), Wednesday 16:00-17:00 (1 h)
    away = C.at_table(Hours("UTC", None, at(2026, 5, 5, 12)), EVENINGS)
    assert C.runs_out(away, START, 6 * H) == at(2026, 5, 6, 17)
    # whom a reminder may reach: in the window and out of one's quiet hours (Rome's 21:00-05:00 UTC: 16:00 is
    # fine; Tokyo's quiet hours cover the whole window, so Bob is never reminded, only shown the turn)
    rome = C.reachable(Hours("Europe/Rome", (23 * 60, 7 * 60)), EVENINGS)
    assert C.awake_at(rome, START) == at(2026, 5, 4, 16)
    tokyo = C.reachable(Hours("Asia/Tokyo", (23 * 60, 7 * 60)), EVENINGS)
    assert C.is_quiet(tokyo, at(2026, 5, 4, 17)) and C.awake_at(tokyo, START) == START + C.NEVER


def test_a_table_window_follows_summer_time_in_its_zone():
    nights = C.at_table(ANY, ("Europe/Rome", 1 * 60, 5 * 60))
    # 25 October 2026 (03:00 CEST → 02:00 CET): 01:00 CEST = 23:00 UTC to 05:00 CET = 04:00 UTC, five hours
    assert C.playing_seconds(nights, at(2026, 10, 24, 12), at(2026, 10, 25, 12)) == 5 * H
    # 29 March 2026 (02:00 CET → 03:00 CEST): 01:00 CET = 00:00 UTC to 05:00 CEST = 03:00 UTC, three hours
    assert C.playing_seconds(nights, at(2026, 3, 28, 12), at(2026, 3, 29, 12)) == 3 * H
    # a window across midnight: 22:00-02:00 UTC is four hours a day
    late = C.at_table(ANY, ("UTC", 22 * 60, 2 * 60))
    assert C.playing_seconds(late, at(2026, 5, 4, 0), at(2026, 5, 6, 0)) == 2 * H + 4 * H + 2 * H


ANY = Hours()


def test_playing_hours_as_typed():
    assert C.parse_window("18:00-23:00") == (18 * 60, 23 * 60) and C.parse_window("22-2") == (22 * 60, 2 * 60)
    assert C.parse_window("off") is None
    for bad, why in (("8-8", "window_day"), ("00:00-24:00", "window_day"), ("20-21", "window_short"),
                     ("late", "window"), ("25-3", "window")):
        with pytest.raises(C.BadHours) as e:
            C.parse_window(bad)
        assert e.value.args[0] == why
    assert C.window_of({"playing_hours": "18:00-23:00", "zone": "Europe/Rome"}) == EVENINGS
    assert C.window_of({}) is None and C.window_of({"playing_hours": "off"}) is None


def test_the_away_bound_counts_the_spells_taken():
    # 10 days taken from day 0: on day 20 a spell [20, 20 + d] puts d + 10 days in the 60 that end with it
    assert C.away_room([(0, 10 * DAY)], 20 * DAY) == pytest.approx(11, abs=1e-3)
    # on day 55 the window that ends with a spell of d days holds max(15, d) of them
    assert C.away_room([(0, 10 * DAY)], 55 * DAY) == pytest.approx(21, abs=1e-3)
    # two spells (10 days, then 5 from day 30) on day 40: d + 15 <= 21
    assert C.away_room([(0, 10 * DAY), (30 * DAY, 35 * DAY)], 40 * DAY) == pytest.approx(6, abs=1e-3)
    assert C.away_room([], 0) == pytest.approx(21, abs=1e-3)
    with pytest.raises(C.BadHours) as e:
        C.check_away([(0, 10 * DAY)], 12, 20 * DAY)
    assert e.value.args[0] == "away_bound" and e.value.args[2] == pytest.approx(11, abs=1e-3)
    assert C.check_away([(0, 10 * DAY)], 11, 20 * DAY) == 31 * DAY


# ----- the service: playing hours, away, the server's speed, the estimate, late notices ------------------------
async def test_a_table_with_playing_hours(svc, clock):
    for options, said in (({"zone": "Mars/Base"}, "There is no time zone 'Mars/Base'"),
                          ({"playing_hours": "8-8"}, "empty or the whole day"),
                          ({"playing_hours": "20-21"}, "at least 2 hours"),
                          ({"playing_hours": "evenings"}, "Write playing hours as from-to")):
        text = err(await svc.open_table(HERE, ALICE, "pebbles", {"speed": "fast", **options}))
        assert said in text and "\n" not in text
        assert await svc.store.open_game("chan") is None
    await svc.set_hours(BOB, "Asia/Tokyo", "23:00-07:00")         # asleep 14:00-22:00 UTC: all the window
    r = await svc.open_table(HERE, ALICE, "pebbles", {"speed": "fast", "playing_hours": "18-23", "zone": "europe/rome"})
    assert r.ok and "Playing hours: 18:00-23:00 (Europe/Rome)" in r.text
    assert "empty or the whole day" in err(await svc.set_option(HERE, ALICE, "playing_hours", "9-9"))
    assert (await svc.store.open_game("chan")).options["playing_hours"] == "18:00-23:00"
    assert (await svc.join(HERE, BOB)).ok
    r = await svc.start(HERE, ALICE)
    # 08:00 UTC: both awake (17:00 in Tokyo), so both are named with a ping; neither bank runs before 16:00
    assert "paused outside the table's playing hours" in r.text and r.mention == ["111", "222"]
    timers = {t.kind: t.due for t in await svc.store.pending_timers(r.game_id)}
    assert timers == {"deadline": at(2026, 5, 5, 17), "reminder": at(2026, 5, 4, 16)}    # by hand, above
    clock.now = at(2026, 5, 4, 15, 59)
    assert await svc.due() == []
    clock.now = at(2026, 5, 4, 16)
    (n,) = await svc.due()
    assert "Reminder" in n.reply.text and n.reply.mention == ["111"]        # Bob sleeps: not reminded
    clock.now = at(2026, 5, 4, 18)                 # 2 h of the window gone for both
    shown = (await svc.game_clock(HERE, CY)).private[0].text
    assert "Alice: 4 h 0 min" in shown and "Playing hours: 18:00-23:00 (Europe/Rome)" in shown


async def test_away_is_bounded_over_the_spells_taken(svc, clock):
    assert "You are not away." == err(await svc.away(BOB, None))
    assert (await svc.away(BOB, 15)).ok
    clock.now += DAY
    assert (await svc.away(BOB, None)).ok                        # back after one day: one day taken
    text = err(await svc.away(BOB, 21))
    assert "at most 20 more days" in text and "\n" not in text
    assert (await svc.away(BOB, 10)).ok                          # a new spell replaces nothing taken
    clock.now += DAY
    assert "at most 19 more days" in err(await svc.away(BOB, 20))   # the running spell counts as cut to now
    assert await svc.store.away_spells(BOB.id, 0) == [(START, START + DAY), (START + DAY, START + 11 * DAY)]
    assert "at most 19 more days" in err(await svc.set_hours(BOB, away_days=20))   # /notify: the same rule
    assert (await svc.away(BOB, 19)).ok


async def test_away_shows_in_an_untimed_games_status_and_turn(svc, clock):
    await started(svc, ALICE, BOB)
    await svc.away(BOB, 3)
    r = await svc.act(HERE, ALICE, "bid 1")
    back = int(START + 3 * DAY)
    assert f"Bob is away until \u27e6t:{back}:f\u27e7" in r.text and r.mention == []
    assert f"Bob is away until \u27e6t:{back}:f\u27e7" in (await svc.status(HERE, CY)).text
    assert (await svc.act(HERE, BOB, "bid 1")).ok             # a tie: Alice decides; Bob still away
    assert (await svc.store.open_game("chan")).waiting == ["111"]
    assert f"Bob is away until \u27e6t:{back}:f\u27e7" in (await svc.status(HERE, CY)).text


async def test_the_server_picks_the_speed_of_new_tables(svc, clock):
    text = err(await svc.change_settings("g", ALICE, True, speed="warp"))
    assert "There is no speed 'warp'" in text and "\n" not in text
    assert (await svc.store.settings("g")).speed == "untimed"
    assert "Speed of new tables: daily" in (await svc.change_settings("g", ALICE, True, speed="Daily")).private[0].text
    r = await svc.open_table(HERE, ALICE, "wassamasaw")
    assert (await svc.store.open_game("chan")).options["speed"] == "daily"
    # the estimate by the formula (docs/clocks.md): 72 turns × 6 h × 24 / 16 = 648 h = 27 days
    assert "Clock: daily" in r.text and "Length: about 27 days (a game has about 72 turns" in r.text
    r = await svc.set_option(HERE, ALICE, "speed", "fast")        # 72 × 1.5 h × 24 / 16 = 162 h: 7 days
    assert "Length: about 7 days" in r.text
    r = await svc.set_option(HERE, ALICE, "playing_hours", "18:00-23:00")    # × 16 / 5: 518 h, 22 days
    assert "Length: about 22 days" in r.text


async def test_the_estimate_uses_finished_games_when_there_are_enough(svc, clock):
    import time

    spans = [({"speed": "fast"}, 2, 0.0, d * DAY) for d in (3, 4, 5, 6)] + [({}, 2, 0.0, 1 * DAY)] * 9 \
        + [({"speed": "fast"}, 3, 0.0, 1 * DAY)] * 9
    svc.estimates._spans["wassamasaw"] = (time.monotonic(), spans)
    r = await svc.open_table(HERE, ALICE, "wassamasaw", {"speed": "fast"})
    assert "Length: about 7 days" in r.text                      # four at this size and speed: not enough
    spans.append(({"speed": "fast"}, 2, 0.0, 9 * DAY))
    r = await svc.join(HERE, BOB)
    assert "Length: about 5 days (the middle of the 5 finished games at this size and speed)" in r.text
    # #47: five hours a day is another pace: games without playing hours do not measure it
    r = await svc.set_option(HERE, ALICE, "playing_hours", "18:00-23:00")
    assert "Length: about 22 days (a game has about 72 turns" in r.text
    spans += [({"speed": "fast", "playing_hours": "09:00-14:00", "zone": "Asia/Tokyo"}, 2, 0.0, d * DAY)
              for d in (15, 16, 17, 18, 19)]
    r = await svc.set_option(HERE, ALICE, "zone", "Europe/Rome")
    assert "Length: about 17 days (the middle of the 5 finished games at this size and speed)" in r.text


async def test_a_notice_sent_late_pings_nobody_now_in_quiet_hours(svc, clock):
    await svc.set_notify(BOB, True)
    await started(svc, ALICE, BOB)
    await svc.act(HERE, ALICE, "bid 1")
    clock.now = START + 4 * H                       # the reminder fires: Bob awake, pinged and written to
    assert await svc.fire_due() == 1
    (queued,) = await svc.outbox()
    assert queued.reply.mention == ["222"]
    # the bot was down; when it is back Bob's quiet hours have begun (12:00 UTC = 21:00 in Tokyo, quiet 21-07)
    clock.now = START + 5 * H
    await svc.set_hours(BOB, "Asia/Tokyo", "21:00-07:00")
    posted, written = [], []

    async def to_channel(notice):
        posted.append(notice)

    async def to_user(notice, private, part):
        written.append(private.user)
    (sent,) = await svc.deliver(to_channel, to_user)
    assert "Reminder" in sent.reply.text and sent.reply.mention == [] and written == []
    assert await svc.outbox() == []


async def test_away_and_the_servers_speed_at_the_console(tmp_path):
    from tests.support import run_console

    out = await run_console(tmp_path, "bob@t /away off\nbob@t /away days:3\nbob@t /away days:22\nbob@t /away\n"
                                      "alice@t /settings speed:warp\nalice@t /settings speed:fast\n"
                                      "alice@t /game new game:wassamasaw\nalice@t /game option name:playing_hours "
                                      "value:whenever\n")
    assert "You are not away." in out and "Away until " in out and " UTC" in out
    assert "0 (back now) to 21 days" in out and "Use `/away days:<N>` or `/away off`." in out
    assert "There is no speed 'warp'" in out and "Speed of new tables: fast" in out
    assert "Clock: fast" in out and "Length: about 7 days" in out and "Write playing hours as from-to" in out


async def test_the_clocks_new_lines_in_italian(svc, clock, tmp_path):
    import i18n
    from tests.support import run_console

    i18n.set_default("it")            # the process speaks Italian (`bot.py --console --locale it`)
    try:
        await _in_italian(svc, tmp_path, run_console)
    finally:
        i18n.set_default("en")


async def _in_italian(svc, tmp_path, run_console):
    out = await run_console(tmp_path, "bob@t /assenza off\nbob@t /assenza giorni:2\nbob@t /assenza off\n")
    assert "Non sei assente." in out and "Assente fino" in out
    assert err(await svc.away(BOB, None)) == "Non sei assente."
    r = await svc.open_table(HERE, ALICE, "wassamasaw", {"speed": "daily", "playing_hours": "18-23"})
    assert "Orologio: giornaliera" in r.text and "Ore di gioco: 18:00-23:00 (UTC)" in r.text    # in words (#47)
    assert "Durata: circa 86 giorni (una partita ha circa 72 turni" in r.text      # 72 × 6 h × 24 / 5
    assert err(await svc.set_option(HERE, ALICE, "playing_hours", "9-9")).startswith("Ore di gioco da un'ora")
    r = await svc.set_option(HERE, ALICE, "playing_hours", "off")     # #47: every value in the reader's words
    assert "ha impostato ore_di_gioco a no." in r.text and "ore_di_gioco: no" in r.text
    assert (await svc.join(HERE, BOB)).ok and (await svc.start(HERE, ALICE)).ok
    assert err(await svc.hint(HERE, ALICE)).startswith("A un tavolo valutato non ci sono suggerimenti")


# ----- issue #47: one turn, one deadline, one notice; every bank in the status; reminders at the bank's points ---
async def test_one_turn_one_deadline_one_notice(svc, clock):
    """Alice's bank runs out: one notice and one direct message. Then, in the same turn, she goes away and comes
    back, and bids (her turn goes on: as the highest bidder she keeps or rerolls), and the next round's bid is
    awaited from her at once (the wait goes on) — nothing more is announced. Her next turn begins with the
    increment, and runs out in its turn: one notice again."""
    await svc.set_notify(ALICE, True)
    r = await clocked(svc)                              # fast: 6 h; both bid at once
    gid = r.game_id
    clock.now += 60
    await svc.act(HERE, BOB, "bid 1")
    clock.now = START + 6 * H
    ran_out = []

    async def look(hours: float) -> None:
        for _ in range(int(hours * 4)):                 # the bot's loop looks every quarter of an hour
            clock.now += 15 * 60
            ran_out.extend(n for n in await svc.due() if "ran out of time" in n.reply.text)
    ran_out.extend(n for n in await svc.due() if "ran out of time" in n.reply.text)    # at the very instant
    assert len(ran_out) == 1 and "Alice ran out of time on the clock" in ran_out[0].reply.text
    assert [p.user for p in ran_out[0].dm] == ["111"]
    assert (await svc.set_hours(ALICE, away_days=2)).ok          # away as her bank ran out (taro's case)
    await look(3)
    assert (await svc.set_hours(ALICE, away_days=0)).ok          # back
    await look(1)
    assert (await svc.act(HERE, ALICE, "bid 3")).ok               # the first step of her turn
    assert (await svc.store.open_game("chan")).waiting == ["111"]           # she keeps or rerolls: same turn
    await look(2)
    assert len(ran_out) == 1, [n.reply.text for n in ran_out]
    assert (await svc.act(HERE, ALICE, "keep")).ok               # round 2: both bid, her wait goes on
    await look(1)
    assert (await svc.act(HERE, ALICE, "bid 1")).ok              # her turn ends: 0 + 3 h for the move
    assert (await svc.store.clocks(gid))["111"][0] == 3 * H
    assert (await svc.act(HERE, BOB, "bid 1")).ok                # a tie: she keeps or rerolls, a new turn
    assert len(ran_out) == 1, [n.reply.text for n in ran_out]
    await look(4)                                                # its 3 h run out: its own notice
    assert len(ran_out) == 2 and "Alice ran out of time on the clock" in ran_out[1].reply.text


def test_an_empty_bank_keeps_the_instant_it_ran_out():
    """A change of hours settles a running bank; an empty one keeps the instant it emptied (so its deadline is
    not announced again) and stays empty under any hours that come after."""
    t0 = at(2026, 5, 4, 8)
    gone = C.settle(SeatClock(2 * H, t0), C.ANYTIME, t0 + 5 * H)
    assert gone == SeatClock(0.0, t0 + 2 * H)
    away = Hours(away_until=t0 + 3 * DAY)
    assert C.runs_out(away, gone.since, gone.bank) == t0 + 2 * H and C.left(gone, away, t0 + 6 * H) <= 0
    assert C.settle(SeatClock(6 * H, t0), C.ANYTIME, t0 + 5 * H) == SeatClock(1 * H, t0 + 5 * H)


def test_a_bank_reminds_at_half_and_with_a_few_hours_left():
    t0 = at(2026, 5, 4, 8)
    # a 24 h bank without quiet hours: at 12 h left and at 3 h left (a quarter would be 6 h: at most 3)
    assert C.reminders(SeatClock(24 * H, t0), C.ANYTIME, t0, 3 * H) == [t0 + 12 * H, t0 + 21 * H]
    # 6 h: at 3 h left, and with a quarter (1.5 h) left; once past the first, only the second
    assert C.reminders(SeatClock(6 * H, t0), C.ANYTIME, t0 + 4 * H, 3 * H) == [t0 + 4.5 * H]
    # the points are playing hours: Rome sleeps 21:00-05:00 UTC in May; 21 h of the bank are 13 h to 21:00, then
    # 8 h from 05:00
    assert C.reminders(SeatClock(24 * H, t0), ROME, t0, 3 * H) == [at(2026, 5, 4, 20), at(2026, 5, 5, 13)]
    assert C.reminders(SeatClock(0.0, t0), C.ANYTIME, t0, 3 * H) == []


async def test_reminders_at_a_timed_table_follow_the_bank_not_the_servers_interval(svc, clock):
    r = await clocked(svc, "daily")                   # 24 h each; the server reminds every 4 h at untimed tables
    clock.now += 60
    await svc.act(HERE, ALICE, "bid 1")
    reminder = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "reminder")
    assert reminder.due == START + 12 * H             # Bob's bank half used (it runs from the start)
    clock.now = START + 12 * H
    (n,) = await svc.due()
    assert "Reminder" in n.reply.text and n.reply.mention == ["222"] and "12 h 0 min on the clock" in n.reply.text
    reminder = next(t for t in await svc.store.pending_timers(r.game_id) if t.kind == "reminder")
    assert reminder.due == START + 21 * H             # 3 h left
    clock.now = START + 21 * H
    (n,) = await svc.due()
    assert "3 h 0 min on the clock" in n.reply.text
    assert not [t for t in await svc.store.pending_timers(r.game_id) if t.kind == "reminder"]


async def test_the_status_shows_every_bank(svc, clock):
    """A spectator reads every player's bank in /game status, not only the one running."""
    await clocked(svc, "fast", ALICE, BOB, CY)
    clock.now += 2 * H
    await svc.act(HERE, ALICE, "bid 1")
    text = (await svc.status(Where("chan", guild="g"), User("999", "Dee"))).text
    banks = [line for line in text.splitlines() if "on the clock" in line]
    assert len(banks) == 3, text
    assert "Alice: 7 h 0 min on the clock, not running." in text
    assert "Bob: 4 h 0 min on the clock; it runs out" in text and "Cy: 4 h 0 min on the clock; it runs out" in text
