"""A fortnight of play across three time zones (tests/fortnight.py), as issue #34 asks: Ann in
America/Los_Angeles, Bo in Europe/Rome and Chi in Asia/Tokyo, each with quiet hours 23:00-08:00, in three
concurrent games at three speeds (the daily one with playing hours 07:00-22:00 in Rome), Chi away for three
days. Nobody is reminded, mentioned or written to in their quiet hours or while away, no reminder comes outside
a table's playing hours, no bank runs outside its owner's playing hours, and every bank agrees with the
computation by hand, minute by minute. The figures are printed (run with -s to see them) for the closing note."""

from __future__ import annotations

from store import Store
from table import TableService, User
from tests.fortnight import DAY, START, Fortnight, H
from tests.support import Clock


def figures(fig) -> str:
    return (f"fortnight: {fig.steps} quarter hours, {fig.moves} moves, {fig.mentions} mentions, "
            f"{fig.direct_messages} direct messages, {fig.reminders} reminders, "
            f"in anyone's quiet hours or away: {fig.quiet_violations} mentions/DMs and "
            f"{fig.reminders_in_quiet_hours} reminders; reminders outside a table's playing hours: "
            f"{fig.reminders_outside_window}; banks watched {fig.bank_quarters} quarter hours, charged in "
            f"{fig.bank_quarters_charged}, charged outside playing hours {fig.charged_outside_playing}; "
            f"{fig.bank_checks} bank checks against the hand computation, largest difference "
            f"{fig.bank_max_difference:.1f} s; {fig.banks_run_out} banks ran out, run-out notices or direct "
            f"messages repeated within one turn: {fig.run_out_repeated}; {fig.skips} turns skipped past an empty "
            f"bank; /game status at the timed table of three, {fig.status_checks} times: banks shown "
            f"{sorted(fig.status_banks)}; {fig.games_finished} games finished; {fig.away_spells} away spells")


async def test_a_fortnight_in_three_zones_at_three_speeds(tmp_path):
    """#47: the server lets the others choose past an empty bank (the default, vote), and they skip such a
    turn one time in ten when they look in; Ann, busy from day 8½, goes away for two days once her bank at the
    fast table has run out (as taro did), Bo and Chi are busy for a day and a half each: every run-out is
    announced once a turn (and written once), and the status shows the three banks."""
    clock = Clock(START)
    async with Store(tmp_path / "f.db") as store:
        svc = TableService(store, clock=clock, render=False)
        svc.ai_options = {"iterations": 5}
        users = [User("101", "Ann"), User("102", "Bo"), User("103", "Chi")]
        away = ((2, 5 * DAY + 12 * H, 3), (0, 9 * DAY, 2, True))
        busy = ((0, 8 * DAY + 12 * H, 11 * DAY), (1, 2 * DAY, 3 * DAY + 12 * H), (2, 12 * DAY, 13 * DAY + 12 * H))
        fig = await Fortnight(svc, clock, users, ["fast", "daily", "relaxed"], "g", away=away, action="vote",
                              busy=busy, skip_rate=0.1).run()
    print(figures(fig))
    assert fig.steps == 14 * 96 and fig.away_spells == 2
    assert fig.run_out_repeated == 0 and fig.banks_run_out > 1
    assert fig.status_checks > 5 and fig.status_banks == {3}
    assert fig.quiet_violations == 0 and fig.reminders_in_quiet_hours == 0 and fig.reminders_outside_window == 0
    assert fig.mentions > 100 and fig.direct_messages > 10 and fig.reminders > 0
    assert fig.charged_outside_playing == 0 and fig.bank_quarters > 1000 and fig.bank_quarters_charged > 100
    assert fig.bank_checks > 300 and fig.bank_max_difference < 1e-6
    assert fig.moves > 100 and fig.banks_run_out > 0 and fig.games_finished > 0
