"""The console table driven by a script, in-process and as `python bot.py --console`."""

import subprocess
import sys
from pathlib import Path

import tests.tinygame  # noqa: F401
from console.table import parse
from tests.support import run_console

ROOT = Path(__file__).resolve().parent.parent


def test_parse_lines():
    assert parse("alice@lobby /game new game:pebbles rounds:2", None) == (
        "alice", "lobby", ["/game", "new"], {"game": "pebbles", "rounds": "2"})
    assert parse("/game move action:take fire 3 at r2c4", ("bob", "t")) == (
        "bob", "t", ["/game", "move"], {"action": "take fire 3 at r2c4"})


async def test_console_script(tmp_path):
    text = await run_console(tmp_path, """
        # a comment
        alice@lobby /game new game:pebbles rounds:1
        bob@lobby /game join
        eve@lobby /game new game:pebbles
        alice@lobby /game start
        alice@lobby /game actions
        alice@lobby /game move action:bid 3
        bob@lobby /game hand
        bob@lobby /game move action:bid 1
        eve@lobby /game move action:keep
        alice@lobby /game move action:keep
        eve@lobby /game history
        nonsense
        """, render=True)
    assert "alice opened a table" in text
    assert "[only eve sees] This channel already has a game of Pebbles" in text
    assert "[#lobby] Pebbles begins!" in text
    assert "[only bob sees] Your private view" in text and "Your choices: bid 1; bid 2; bid 3" in text
    assert "[only alice sees] Your choices: bid 1; bid 2; bid 3" in text
    for name in ("alice", "bob"):                                                        # secret bids
        assert f"{name}'s buttons, each with the line that does the same:\n    bid" not in text
    assert "[only eve sees] You are not playing" in text
    assert "Game over" in text and "alice wins" in text
    assert "! Start a line with USER@CHANNEL" in text


def test_bot_py_console_reads_a_script(tmp_path):
    """The real entry point: `python bot.py --console` with a script on standard input (Wassamasaw when it
    exists, else only the lobby commands that need no game)."""
    script = "alice@t /game rules game:nosuch\nalice@t /game status\nalice@t /help\n"
    run = subprocess.run([sys.executable, "bot.py", "--console", "--db", str(tmp_path / "x.db"),
                          "--out", str(tmp_path / "out")], input=script, capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "> alice@t /game status" in run.stdout
    assert "There is no game in this channel" in run.stdout
    assert "/game new game:<key>" in run.stdout


async def test_console_waits_for_reminders_and_lists_games(tmp_path):
    text = await run_console(tmp_path, """
        alice@lobby /settings reminder_hours:2 deadline_hours:6
        alice@lobby /game new game:pebbles
        bob@lobby /game join
        alice@lobby /game start
        alice@lobby /game move action:bid 2
        carol@lobby /games
        bob@lobby /mygames
        alice@lobby /wait hours:3
        alice@lobby /wait hours:4
        alice@lobby /game skip player:bob
        alice@lobby /notify direct_messages:maybe
        """)
    assert "Reminders: every 2 h" in text
    assert "Pebbles in #lobby: waiting for bob" in text
    assert "[only bob sees] Your move in: Pebbles (#lobby)" in text
    assert "⏰ Reminder: bob" in text
    assert "has not played for" in text
    assert "a computer played for them" in text
    assert "Use `/notify direct_messages:on|off" in text


async def test_the_console_prints_each_message_as_its_card_parts_in_order(tmp_path):
    """As Discord's card (issue #48): what happened, the picture, whose turn and who is called, a rule, the
    buttons; a private part's card likewise, for its user alone."""
    from console.table import RULE

    text = await run_console(tmp_path, """
        alice@t /game new game:wassamasaw
        bob@t /game join
        alice@t /game start
        """, render=True)
    lines = text.splitlines()
    begins = lines.index(next(line for line in lines if line.startswith("[#t] Wassamasaw begins!")))
    after = lines[begins:]
    picture = next(i for i, line in enumerate(after) if line.startswith("  image: "))
    turn = next(i for i, line in enumerate(after) if line.endswith(" to play."))
    called = next(i for i, line in enumerate(after) if line.startswith("  → @"))
    rule = after.index(RULE)
    buttons = next(i for i, line in enumerate(after) if line.endswith("'s buttons, each with the line that does the "
                                                                       "same:"))
    assert 0 < picture < turn < called < rule < buttons
    assert after[-2:] == ["  👁 My view: /game hand", "  👀 Watch: /game watch game:1"]    # #49: anyone may watch
