"""Each game's own commands (table.commands) are the same in Discord and at the console (issue 14, item 4)."""

import pytest

from console.table import Console
from engine import GAMES
from store import Store
from table import TableService
from table.commands import COMMANDS


async def test_discord_offers_exactly_the_shared_game_commands(tree):
    groups = {c.name: c for c in tree.get_commands() if c.name in COMMANDS}
    assert set(groups) == set(COMMANDS)
    for game, commands in COMMANDS.items():
        subs = {c.name: c for c in groups[game].commands}
        assert set(subs) == set(commands), game
        for name, (_, params) in commands.items():
            options = [(p.name, p.required) for p in subs[name].parameters]
            assert options == [(p.rstrip("?"), not p.endswith("?")) for p in params], (game, name)



@pytest.mark.parametrize("command, option, typed, expected", [
    ("wurrm place", "space", "", ["a4", "b5"]),
    ("wurrm bump", "direction", "n", ["ne", "nw"]),
    ("wurrm answer", "choice", "", ["bribe 1", "no bribe", "vote yes"]),
    ("seikatsu fountain", "corner", "b3", ["b3 c3 c4"]),
    ("wagara play", "card", "", ["3", "cloud"]),
    ("mywuxing react", "answer", "", ["pass", "counter with star"]),
])
async def test_an_options_suggestions_come_from_the_commands_cog(tree, command, option, typed, expected):
    """The shared suggestion callbacks (cogs.common.following, starting) ask the command's own cog for the
    caller's legal actions: what follows the verb, or the whole actions of that kind, filtered by what is
    typed."""
    from types import SimpleNamespace

    group, name = command.split()
    cmd = tree.get_command(group).get_command(name)
    legal = ["place a4", "place b5", "bump ne", "bump nw", "bump e", "bribe 1", "no bribe", "vote yes",
             "move ne", "fountain b3 c3 c4", "fountain d1 d2 e2", "play 3", "play cloud", "pass",
             "counter with star"]

    async def caller_legal(interaction, steps=()):
        return legal
    cmd.binding.legal = caller_legal
    choices = await cmd._params[option].autocomplete(SimpleNamespace(command=cmd), typed)
    assert [c.value for c in choices] == expected

async def console_game(tmp_path, game, players=("alice", "bob")):
    out = []
    store = await Store(tmp_path / "c.db").open()
    console = Console(TableService(store, render=False), tmp_path, write=out.append)
    await console.handle(f"{players[0]}@t /game new game:{game}")
    for p in players[1:]:
        await console.handle(f"{p}@t /game join")
    await console.handle(f"{players[0]}@t /game start")
    return store, console, out


async def test_the_console_takes_a_die_and_places_it_in_one_command(tmp_path):
    store, console, out = await console_game(tmp_path, "wassamasaw")
    game = GAMES["wassamasaw"]
    row = await store.open_game("t")
    state = game.load(row.state)
    seat = game.to_act(state)[0]
    take = next(a for a in game.legal_actions(state, seat) if a.startswith("take "))
    place = game.legal_actions(game.apply(state, seat, take), seat)[0]
    await console.handle(f"{seat}@t /wassamasaw take die:{take[5:]} cell:{place.split()[-1]}")
    log = await store.log(row.id)
    assert [e.action for e in log[-2:]] == [take, place]
    await store.close()


async def test_the_console_refuses_another_games_command_and_shows_usage(tmp_path):
    store, console, out = await console_game(tmp_path, "wagara")
    await console.handle("alice@t /wurrm stop")
    assert "The game here is Wagara, not WURRM World" in out[-1]
    await console.handle("alice@t /wagara play")
    assert "/wagara play card:…" in out[-1]
    await console.handle("alice@t /wagara")
    assert "/wagara move action:…" in out[-1]
    await console.handle("alice@t /wagara play card:3")
    row = await store.open_game("t")
    assert [(e.seat, e.action) for e in await store.log(row.id)][-1] == ("alice", "play 3")
    assert not any("play 3" in line for line in out[-3:])        # a secret pick is never shown
    await store.close()


async def test_the_console_walks_a_whole_wurrm_path(tmp_path):
    store, console, out = await console_game(tmp_path, "wurrm")
    game = GAMES["wurrm"]
    for _ in range(400):                      # play by the engine's suggestions until someone may move
        row = await store.open_game("t")
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        moves = [a for a in legal if a.startswith("move ")]
        if moves:
            first = moves[0]
            after = game.legal_actions(game.apply(state, seat, first), seat)
            second = next((a for a in after if a.startswith("move ")), None)
            path = first[5:] + (f" {second[5:]}" if second else "")
            await console.handle(f"{seat}@t /wurrm move path:{path}")
            log = [e.action for e in await store.log(row.id)]
            assert log[-1 - bool(second):] == [first] + ([second] if second else []), out[-3:]
            break
        await console.handle(f"{seat}@t /game move action:{game.bot_actions(state, seat)[0]}")
    else:
        pytest.fail("nobody could move")
    await store.close()


async def test_computer_turns_are_summarised_not_hidden(tmp_path):
    """Issue 14: with five computers, each one's run of steps is at most three lines: how it began, how many
    more steps, how it ended."""
    from table import User, Where

    store = await Store(tmp_path / "s.db").open()
    svc = TableService(store, render=False)
    where, alice = Where("t", "g"), User("alice", "Alice")
    await svc.open_table(where, alice, "wurrm")
    for _ in range(5):
        await svc.add_bot(where, alice)
    game = GAMES["wurrm"]
    reply = await svc.start(where, alice)
    for _ in range(200):
        row = await store.open_game("t")
        if row is None or "more steps" in (reply.text or ""):
            break
        state = game.load(row.state)
        reply = await svc.act(where, alice, game.bot_actions(state, "alice")[0])
    assert "more steps" in reply.text and "earlier" not in reply.text
    lines = reply.text.splitlines()
    for i, line in enumerate(lines):
        if "more steps" in line:
            assert 0 < i < len(lines) - 1              # between the run's first and last line
    await store.close()


async def test_a_random_wurrm_board_at_an_unchecked_table_size_is_refused_at_start_and_changes_nothing(
        tmp_path, monkeypatch):
    """Ruling (issue #14): random boards are listed with the player counts their simulated games were fair
    at; a table of another size is told so when it starts, stays in the lobby, and can start on the default
    board."""
    import engine.wurrm as wurrm
    monkeypatch.setattr(wurrm, "random_layouts",
                        lambda: [{"layout": wurrm.default_layout(), "players": [2]}])
    out = []
    store = await Store(tmp_path / "c.db").open()
    console = Console(TableService(store, render=False), tmp_path, write=out.append)
    await console.handle("alice@t /game new game:wurrm")
    for p in ("bob", "cy"):
        await console.handle(f"{p}@t /game join")
    await console.handle("alice@t /game option name:board value:random")
    await console.handle("alice@t /game start")
    assert "only at these numbers of players: 2. This table has 3; choose board: default." in out[-1]
    row = await store.open_game("t")
    assert row.status == "lobby" and await store.log(row.id) == []
    await console.handle("alice@t /game option name:board value:default")
    await console.handle("alice@t /game start")
    assert (await store.open_game("t")).status == "running"
    await store.close()
