"""Spectators (issue #49) at the table service: watching a game (by the channel or by its number), its direct
messages (each round's picture or only the end, never in quiet hours or while away, a spectator's view only),
following a friend (a few messages a day, refused politely by someone who wants no followers), the TV channel's
cards and its pace, restarts and shards. The TV channel under Discord's per-channel limit is
tests/test_discord_tv.py."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import tests.tinygame  # noqa: F401  (registers Pebbles)
from store import Store
from store.shards import Shards
from store.spectators import SpectatorStore
from table import TableService, User, Where
from table import clock as clocks
from table.tv import Pace
from tests.support import beginner_move, err, started

ALICE, BOB, CAROL, DAVE = (User(n, n.title()) for n in ("alice", "bob", "carol", "dave"))
BY = {"alice": ALICE, "bob": BOB}
HERE, HALL, ELSEWHERE = Where("chan", "g"), Where("hall", "g"), Where("far", "h")


async def play_out(svc, where=HERE, seed=1, moves=400) -> None:
    rnd = random.Random(seed)
    for _ in range(moves):
        if await beginner_move(svc, where, BY, rnd) is None:
            return


class Inbox:
    """The direct messages ``deliver`` sends: (user, reply, nonce, when)."""

    def __init__(self, clock):
        self.clock, self.got = clock, []

    async def __call__(self, user, reply, nonce):
        self.got.append((user, reply, nonce, self.clock()))

    def of(self, user):
        return [g for g in self.got if g[0] == user]


# ----- watching -----------------------------------------------------------------------------------------------
async def test_bad_watches_get_one_clear_line_and_change_nothing(svc):
    await started(svc, ALICE, BOB)
    gid = (await svc.store.open_game("chan")).id
    rows = svc.watching.rows
    assert "You play in game" in err(await svc.watching.watch(HALL, ALICE, gid))
    assert "another server" in err(await svc.watching.watch(ELSEWHERE, CAROL, gid))
    assert "There is no game #99" in err(await svc.watching.watch(HALL, CAROL, 99))
    assert "no game in this channel to watch" in err(await svc.watching.watch(HALL, CAROL))
    assert "send can be rounds or end" in err(await svc.watching.watch(HALL, CAROL, gid, "often"))
    assert "You do not watch game" in err(await svc.watching.unwatch(HALL, CAROL, gid))
    assert await rows.count(gid) == 0 and await rows.prefs("carol") == (None, True)
    await play_out(svc)
    assert "has ended" in err(await svc.watching.watch(HALL, CAROL, gid))
    assert await rows.count(gid) == 0


async def test_a_first_watch_asks_once_what_comes_and_the_table_shows_how_many_watch(svc, clock):
    await started(svc, ALICE, BOB)
    gid = (await svc.store.open_game("chan")).id
    first = await svc.watching.watch(HALL, CAROL, gid)            # by number, from another channel
    assert first.ok and [c.key for c in first.controls] == ["watch.rounds", "watch.end", "watch.stop"]
    chosen = await svc.watching.watch(HALL, CAROL, gid, "rounds")
    assert [c.key for c in chosen.controls] == ["watch.stop"] and "each round's picture" in chosen.private[0].text
    second = await svc.watching.watch(HERE, DAVE)                 # the channel's game, and a second watcher
    assert [c.key for c in second.controls] == ["watch.rounds", "watch.end", "watch.stop"]
    rnd = random.Random(2)
    _row, moved = await beginner_move(svc, HERE, BY, rnd)
    assert "👀 2 watching" in moved.text
    stop = await svc.watching.unwatch(Where("dm", None), DAVE, gid)      # one click, from a direct message
    assert stop.ok and await svc.watching.rows.count(gid) == 1
    _row, moved = await beginner_move(svc, HERE, BY, rnd)
    assert "👀 1 watching" in moved.text


async def test_a_watcher_of_a_game_in_a_thread_is_added_to_the_thread(svc):
    assert (await svc.open_table(Where("thread1", "g"), ALICE, "pebbles", parent_channel="chan")).ok
    assert (await svc.join(Where("thread1", "g"), BOB)).ok
    assert (await svc.start(Where("thread1", "g"), ALICE)).ok
    gid = (await svc.store.open_game("thread1")).id
    reply = await svc.watching.watch(HALL, CAROL, gid)
    assert reply.thread_member == ("thread1", "carol") and [c.key for c in reply.controls] == ["watch.stop"]
    await play_out(svc, Where("thread1", "g"))
    inbox = Inbox(svc.clock)
    assert await svc.spectator_mail(inbox) == 0            # Discord tells a thread's members; no direct message


async def test_round_messages_show_only_the_spectators_view_and_the_night_is_one_message(store, clock):
    svc = TableService(store, clock=clock, render=True)      # pictures made (never drawn here): whose view
    await svc.set_hours(CAROL, "UTC", "22:00-07:00")
    clock.now = datetime(2026, 11, 30, 21, 0, tzinfo=UTC).timestamp()
    await started(svc, ALICE, BOB, options={"rounds": 5})
    gid = (await svc.store.open_game("chan")).id
    await svc.watching.watch(HALL, CAROL, gid, "rounds")
    rnd, inbox = random.Random(3), Inbox(clock)
    morning = datetime(2026, 12, 1, 8, 0, tzinfo=UTC).timestamp()
    while (await store.game(gid)).status == "running" and clock.now < morning:
        clock.now += 600
        await beginner_move(svc, HERE, BY, rnd)
        await svc.spectator_mail(inbox)
    hours = (await svc.timekeeping.hours(["carol"]))["carol"]
    assert inbox.got and not [t for *_x, t in inbox.got if clocks.is_quiet(hours, t)]
    for _user, reply, _nonce, _t in inbox.got:
        picture = reply.private[0].image
        assert picture is not None and picture.job[3] is None        # the table's view: no hand, no secret
    woke = [t for *_x, t in inbox.got if datetime.fromtimestamp(t, UTC).hour == 7]
    assert len(woke) <= 1                          # the night's rounds: one message when the watcher wakes


# ----- following ----------------------------------------------------------------------------------------------
async def test_bad_follows_get_one_clear_line_and_change_nothing(svc):
    rows = svc.following.rows
    assert "cannot follow yourself" in err(await svc.following.follow(ALICE, HERE, ALICE))
    assert "server you share" in err(await svc.following.follow(ALICE, Where("dm", None), BOB))
    assert "is a bot" in err(await svc.following.follow(ALICE, HERE, User("99", "Helper"), True))
    off = await svc.following.set_followers(BOB, False)
    assert off.ok and "Followers: off" in off.private[0].text
    refused = err(await svc.following.follow(ALICE, HERE, BOB))
    assert "prefers not to have followers" in refused and "/game watch" in refused      # politely, with a way
    assert "You do not follow" in err(await svc.following.unfollow(ALICE, BOB))
    assert await rows.following("alice") == []
    assert (await svc.following.follow(ALICE, HERE, CAROL)).ok
    assert "already follow" in err(await svc.following.follow(ALICE, HERE, CAROL))
    assert "Carol" in (await svc.following.following(ALICE)).private[0].text


async def test_a_follower_hears_of_starts_ends_and_leagues_a_few_a_day(svc, clock):
    assert (await svc.following.follow(DAVE, HERE, ALICE)).ok
    inbox = Inbox(clock)
    for n in range(3):
        await started(svc, ALICE, BOB)
        await svc.spectator_mail(inbox)          # the start, while the game runs: a Watch button
        await play_out(svc, seed=n)
        clock.now += 60
    await svc.spectator_mail(inbox)
    league = Where("lg", "g")
    assert (await svc.leagues.new(league, BOB, "pebbles", "swiss", 1, "untimed", True)).ok
    assert (await svc.leagues.join(league, ALICE)).ok
    await svc.spectator_mail(inbox)
    got = inbox.of("dave")
    assert len(got) == 3                         # three a day at most: the rest is not sent
    assert "started a game" in got[0][1].private[0].text and got[0][1].controls[0].key == "watch"
    assert any("finished a game" in g[1].private[0].text and g[1].controls[0].key == "review" for g in got)
    clock.now += 25 * 3600                        # a day later the league's news would go again
    assert (await svc.leagues.join(Where("lg", "g"), CAROL)).ok
    assert await svc.spectator_mail(inbox) == 0    # dave follows alice, not carol
    await svc.following.set_followers(ALICE, False)
    await started(svc, ALICE, BOB, where=Where("c2", "g"))
    assert await svc.spectator_mail(inbox) == 0    # alice wants no followers now: nothing more about her


async def test_a_watchers_and_a_followers_day_across_two_time_zones(svc, clock):
    """#49's must-show: a simulated day of games every quarter of an hour, a watcher in Rome (quiet 23:00-07:00)
    and a follower in New York (quiet 22:00-08:00): every direct message outside its reader's quiet hours."""
    await svc.set_hours(CAROL, "Europe/Rome", "23:00-07:00")
    await svc.set_hours(DAVE, "America/New_York", "22:00-08:00")
    assert (await svc.following.follow(DAVE, HERE, ALICE)).ok
    start = datetime(2026, 11, 30, 0, 0, tzinfo=UTC).timestamp()
    clock.now = start
    rnd, inbox, games = random.Random(7), Inbox(clock), 0
    while clock.now < start + 24 * 3600:
        row = await svc.store.open_game("chan")
        if row is None:
            await started(svc, ALICE, BOB, options={"rounds": 2})
            games += 1
            await svc.watching.watch(HALL, CAROL, (await svc.store.open_game("chan")).id, "rounds")
        else:
            await beginner_move(svc, HERE, BY, rnd)
        clock.now += 900
        await svc.spectator_mail(inbox)
    hours = await svc.timekeeping.hours(["carol", "dave"])
    quiet = [(u, t) for u, _r, _n, t in inbox.got if clocks.is_quiet(hours[u], t)]
    carol, dave = inbox.of("carol"), inbox.of("dave")

    def local(user, t):
        return clocks.local_time(hours[user].zone, t)
    print(f"\n{games} games in the day; watcher (Europe/Rome, quiet 23:00-07:00): {len(carol)} messages, "
          f"local times {[local('carol', t) for *_x, t in carol]}; follower (America/New_York, quiet "
          f"22:00-08:00): {len(dave)} messages at {[local('dave', t) for *_x, t in dave]}; in quiet hours: "
          f"{len(quiet)}")
    assert quiet == [] and carol and dave and len(dave) <= 3
    assert len({n for _u, _r, n, _t in inbox.got}) == len(inbox.got)          # each message once


# ----- the TV channel -----------------------------------------------------------------------------------------
async def test_bad_tv_channels_get_one_clear_line_and_change_nothing(svc):
    assert "manage the server" in err(await svc.tv.set_channel("g", ALICE, False, "tv"))
    line = err(await svc.tv.set_channel("g", ALICE, True, "tv", ["Send Messages"]))
    assert "lacks the Send Messages permission there" in line
    assert "belongs to a server" in err(await svc.tv.set_channel(None, ALICE, True, "tv"))
    assert await svc.tv.rows.tv_channel("g") is None


class Screen:
    """A TV channel as the front end sees it: its messages, each edit counted."""

    def __init__(self):
        self.messages, self.requests = {}, []

    async def __call__(self, op, channel, message, reply, nonce):
        self.requests.append((op, message, reply.version if reply else None))
        if op == "delete":
            self.messages.pop(message, None)
            return None
        if op == "post":
            message = f"m{len(self.requests)}"
        self.messages[message] = reply.text
        return message


async def test_tv_cards_are_coalesced_kept_a_day_once_ended_and_survive_a_restart(tmp_path, clock):
    async with Store(tmp_path / "tv.db") as store:
        svc = TableService(store, clock=clock, render=False)
        assert (await svc.tv.set_channel("g", ALICE, True, "tv")).ok
        await started(svc, ALICE, BOB)
        screen = Screen()
        assert await svc.tv.step("g", screen) and not await svc.tv.step("g", screen)
        rnd = random.Random(5)
        for _ in range(3):                                 # three moves, then one edit showing all three
            await beginner_move(svc, HERE, BY, rnd)
        assert await svc.tv.step("g", screen) and not await svc.tv.step("g", screen)
        assert [r[0] for r in screen.requests] == ["post", "edit"]
        text = next(iter(screen.messages.values()))
        assert all(f"`#{k}`" in text for k in (1, 2, 3)) and text.index("`#3`") < text.index("`#1`")   # newest first
    async with Store(tmp_path / "tv.db") as store:              # a restart: the card is edited where it is
        svc = TableService(store, clock=clock, render=False)
        await play_out(svc)
        while await svc.tv.step("g", screen):
            pass
        assert [r[0] for r in screen.requests] == ["post", "edit", "edit"] and "Game over" in \
            next(iter(screen.messages.values()))
        clock.now += 23 * 3600
        assert not await svc.tv.step("g", screen)              # kept a day with its result
        clock.now += 3600
        assert await svc.tv.step("g", screen) and screen.messages == {}      # then removed
        assert await svc.tv.rows.cards("g") == []


def test_the_pace_never_lets_more_than_five_requests_into_any_five_seconds():
    now = [0.0]
    pace = Pace(clock=lambda: now[0])
    answered: list[float] = []
    rnd = random.Random(1)
    for _ in range(200):
        while (delay := pace.wait()) > 0:               # as Pace.turn waits
            now[0] += delay
        slot = pace._slots.append(None) or len(pace._slots) - 1
        now[0] += rnd.uniform(0.01, 0.6)                 # the request's round trip
        answered.append(now[0] - rnd.uniform(0, 0.01))  # it reached Discord a little before its answer
        pace.done(slot)
    busiest = max(sum(1 for t in answered if a <= t < a + 5.0) for a in answered)
    assert busiest <= 5


async def test_each_shard_sends_only_its_own_servers_messages_and_tv_cards(tmp_path, clock):
    g0, g1 = str(0 << 22), str(1 << 22)                  # servers on shards 0 and 1 of 2
    async with Store(tmp_path / "s.db") as store:
        svc = TableService(store, clock=clock, render=False)
        for g in (g0, g1):
            await svc.tv.set_channel(g, ALICE, True, f"tv{g}")
            await svc.following.follow(DAVE, Where("x", g), ALICE)
            await started(svc, ALICE, BOB, where=Where(f"c{g}", g))
    for shard, guild in ((0, g0), (1, g1)):
        async with Store(tmp_path / "s.db", Shards(2, (shard,))) as store:
            rows = SpectatorStore(store)
            assert list(await rows.tv_channels()) == [guild]
            assert [m.guild for m in await rows.due_mail(clock() + 1)] == [guild]


async def test_watchers_follows_mail_and_tv_cards_on_both_databases(any_svc, clock):
    """The spectators' rows and queries on SQLite and PostgreSQL alike: a watch, a follow, a waiting message that
    waits out time away, and a TV card posted, coalesced and kept."""
    svc = any_svc
    assert (await svc.tv.set_channel("g", ALICE, True, "tv")).ok
    assert (await svc.following.follow(DAVE, HALL, ALICE)).ok
    await svc.away(CAROL, 1)                                   # away for a day: nothing reaches her meanwhile
    await started(svc, ALICE, BOB)
    gid = (await svc.store.open_game("chan")).id
    assert (await svc.watching.watch(HALL, CAROL, gid, "end")).ok
    screen, inbox = Screen(), Inbox(clock)
    assert await svc.tv.step("g", screen)
    await svc.spectator_mail(inbox)                            # the start, while the game runs
    await play_out(svc)
    while await svc.tv.step("g", screen):
        pass
    assert [r[0] for r in screen.requests] == ["post", "edit"] and "Game over" in screen.messages["m1"]
    await svc.spectator_mail(inbox)
    assert [u for u, *_x in inbox.got] == ["dave", "dave"]     # the start and the end; carol is away
    clock.now += 25 * 3600
    await svc.spectator_mail(inbox)
    assert [u for u, *_x in inbox.got][-1] == "carol" and "has ended" in inbox.got[-1][1].private[0].text
    assert await svc.watching.rows.count(gid) == 1 and len(await svc.following.rows.following("dave")) == 1


async def test_a_tv_card_shows_only_the_spectators_view(store, clock):
    svc = TableService(store, clock=clock, render=True)        # pictures made, not drawn: whose view
    assert (await svc.tv.set_channel("g", ALICE, True, "tv")).ok
    await started(svc, ALICE, BOB)
    row = await store.open_game("chan")
    reply = await svc.tv.card(row, 0, 0)
    assert reply.image.job[3] is None and reply.private == [] and "game #1" in reply.text
