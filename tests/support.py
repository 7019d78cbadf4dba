"""Small helpers shared by the tests: a clock to move by hand, the message answering an interaction,
starting a game at the table service and playing its beginner's moves, and a console script's output."""

from console.table import Console
from engine import GAMES
from store import Store
from table import TableService, Where


class Clock:
    """A controllable clock for the table service (``TableService(clock=...)``)."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


async def answer(r):
    """The message that answers an interaction recorded by the fake Discord, whether it was sent at once or
    after a deferral."""
    if r.callback_type in (6, 7):   # a click: a follow-up, or the clicked message updated in place
        await r._wait(lambda: r.followups or any(e[0] == "edit" for e in r.events) or r.callback_type == 7,
                      5.0)
        return r.followups[0] if r.followups else r.message
    if r.callback_type == 5:        # deferred "thinking": completed by a follow-up or an edit
        await r.wait_completed()
        return r.messages[-1]
    return r.message


HERE = Where("chan", guild="g")


async def started(svc, *users, game="pebbles", options=None, where=HERE):
    """Open a table, seat ``users`` and start: the first user hosts."""
    assert (await svc.open_table(where, users[0], game, options)).ok
    for u in users[1:]:
        assert (await svc.join(where, u)).ok
    r = await svc.start(where, users[0])
    assert r.ok, r.private
    return r


async def beginner_move(svc, where, by, rnd):
    """One move of the game running in ``where`` by the beginner policy (``rnd``'s choice among the bot's
    actions) of the seat it waits for, played as that seat's user in ``by`` (id → User): the row it was played
    on and the reply, or None when no game runs there."""
    row = await svc.store.open_game(where.channel)
    if row is None:
        return None
    game = GAMES[row.game]
    state = game.load(row.state)
    seat = game.to_act(state)[0]
    return row, await svc.act(where, by[seat], rnd.choice(game.bot_actions(state, seat)))


def err(reply) -> str:
    """The private message of a refused reply."""
    assert not reply.ok
    return reply.private[0].text


async def run_console(tmp_path, script: str, render: bool = False) -> str:
    """What the console writes for ``script`` (a command a line; each must be handled) on a new database in
    ``tmp_path``, images (``render``) going to ``tmp_path / "img"``."""
    out: list[str] = []
    async with Store(tmp_path / "c.db") as store:
        console = Console(TableService(store, render=render), tmp_path / "img", write=out.append)
        for line in script.splitlines():
            assert await console.handle(line)
    return "\n".join(out)
