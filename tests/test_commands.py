"""The slash-command tree against Discord's documented limits, which discord.py does not check itself."""

import json
import re

NAME = re.compile(r"^[-_'\w]{1,32}$")   # \w covers \p{L}\p{N} and _ for str patterns




def check_options(options, where):
    assert len(options) <= 25, f"{where}: more than 25 options"
    seen_optional = False
    for opt in options:
        at = f"{where} {opt['name']}"
        assert NAME.match(opt["name"]) and opt["name"] == opt["name"].lower(), f"bad name {at}"
        assert 1 <= len(opt["description"]) <= 100, f"description length {at}"
        assert len(opt.get("choices", [])) <= 25, f"more than 25 choices {at}"
        for ch in opt.get("choices", []):
            assert 1 <= len(ch["name"]) <= 100 and len(str(ch["value"])) <= 100, at
        if opt["type"] in (1, 2):   # sub-command (group)
            check_options(opt.get("options", []), at)
            continue
        if opt.get("required"):
            assert not seen_optional, f"{at}: a required option after an optional one"
        else:
            seen_optional = True


async def test_sync_payload_respects_discord_limits(tree):
    payload = [c.to_dict(tree) for c in tree.get_commands()]
    assert 1 <= len(payload) <= 100
    for cmd in payload:
        assert NAME.match(cmd["name"]) and cmd["name"] == cmd["name"].lower()
        assert 1 <= len(cmd["description"]) <= 100
        check_options(cmd.get("options", []), cmd["name"])
        text = json.dumps(cmd)   # names, descriptions, values of one command together
        assert len(text) <= 8000, f"/{cmd['name']} is {len(text)} characters"


async def test_game_group_has_every_documented_subcommand(tree):
    game = next(c for c in tree.get_commands() if c.name == "game")
    names = {c.name for c in game.commands}
    assert {"new", "join", "leave", "start", "status", "hand", "move", "history", "rules", "abandon"} <= names
