"""A fortnight of play across three time zones (tests/fortnight.py): nobody is mentioned or written to in their
quiet hours or while away, and every bank agrees with the computation by hand, minute by minute."""

from __future__ import annotations

from store import Store
from table import TableService, User
from tests.fortnight import START, Fortnight
from tests.support import Clock


async def test_a_fortnight_in_three_zones_at_three_speeds(tmp_path):
    clock = Clock(START)
    async with Store(tmp_path / "f.db") as store:
        svc = TableService(store, clock=clock, render=False)
        svc.ai_options = {"iterations": 5}
        users = [User("101", "Ann"), User("102", "Bo"), User("103", "Chi")]
        fig = await Fortnight(svc, clock, users, ["fast", "daily", "relaxed"], "g").run()
    print(fig)
    assert fig.steps == 14 * 96 and fig.away_spells == 1
    assert fig.quiet_violations == 0 and fig.mentions > 100 and fig.direct_messages > 10
    assert fig.bank_checks > 300 and fig.bank_max_difference < 1e-6
    assert fig.moves > 100 and fig.reminders > 0 and fig.banks_run_out > 0 and fig.games_finished > 0
