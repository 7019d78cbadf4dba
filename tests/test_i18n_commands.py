"""The Italian slash-command catalog (i18n/it/LC_MESSAGES/commands.po) against Discord's limits: the
translations become name_localizations/description_localizations, which Discord refuses as a whole
sync when one of them breaks a rule, so each rule is checked here on the catalog and on the real tree."""

import re

import pytest
from babel.messages.pofile import read_po
from discord import app_commands

from tools.i18n_catalogs import po_path

# Discord's rule for command and option names (\w covers letters, digits and _ for str patterns);
# localised names must also be lowercase.
NAME = re.compile(r"^[-_\w]{1,32}$")
NAME_CONTEXTS = ("command", "option")
# discord.py's description of an undescribed option: the same in every language, so not in the catalog.
PLACEHOLDER = "…"


@pytest.fixture(scope="module")
def italian():
    """(context, msgid) → msgstr of the Italian commands catalog; context None for descriptions."""
    with po_path("it", "commands").open("rb") as f:
        cat = read_po(f, locale="it", domain="commands")
    return {(m.context, m.id): m.string for m in cat if m.id}


def test_names_follow_discords_naming_rule(italian):
    names = {k: v for k, v in italian.items() if k[0] in NAME_CONTEXTS}
    assert names, "the catalog has no command or option names"
    for (context, msgid), text in names.items():
        assert NAME.match(text), f"{context} {msgid!r} → {text!r} is not a valid Discord name"
        assert text == text.lower(), f"{context} {msgid!r} → {text!r} is not lowercase"


def test_descriptions_and_choices_fit(italian):
    for (context, msgid), text in italian.items():
        if context in NAME_CONTEXTS:
            continue
        assert 1 <= len(text) <= 100, f"{msgid!r} → {text!r} is {len(text)} characters"


def test_nothing_is_left_untranslated(italian):
    assert all(italian.values()), [k for k, v in italian.items() if not v]


def _name(italian, context, name):
    from engine import GAMES
    from tests.tinygame import Pebbles

    if context == "choice" and name == Pebbles.title and GAMES.get(Pebbles.key) is not None:
        return name           # the tests' own little game, registered by other tests, is not the bot's
    text = italian.get((context, name))
    assert text, f"no Italian for {context} {name!r}"
    return text


def _check_command(italian, command, where):
    """A command's own texts are translated and fit, and its options' Italian names are unique."""
    assert 1 <= len(_name(italian, None, command.description)) <= 100, where
    options = [_name(italian, "option", p.name) for p in command.parameters]
    assert len(options) == len(set(options)), f"{where}: options collide in Italian: {options}"
    for param in command.parameters:
        if param.description != PLACEHOLDER:
            assert 1 <= len(_name(italian, None, param.description)) <= 100, f"{where} {param.name}"
        choices = [_name(italian, "choice", c.name) for c in param.choices]
        assert len(choices) == len(set(choices)), f"{where} {param.name}: choices collide: {choices}"


def _check_children(italian, children, where):
    """Siblings (top-level commands, or one group's subcommands) keep distinct names in Italian."""
    names = [_name(italian, "command", c.name) for c in children]
    assert len(names) == len(set(names)), f"{where}: names collide in Italian: {sorted(names)}"
    for child in children:
        at = f"{where} {child.name}".strip()
        if isinstance(child, app_commands.Group):
            assert 1 <= len(_name(italian, None, child.description)) <= 100, at
            _check_children(italian, child.commands, at)
        else:
            _check_command(italian, child, at)


async def test_the_tree_translated_keeps_siblings_apart(tree, italian):
    top = tree.get_commands()
    assert top
    _check_children(italian, top, "")


async def test_the_walk_catches_a_collision(tree, italian):
    # The check must see nested groups: give two /wurrm subcommands one Italian name and it fails.
    clash = dict(italian)
    clash[("command", "stop")] = clash[("command", "move")]
    with pytest.raises(AssertionError, match="collide"):
        _check_children(clash, tree.get_commands(), "")
    clash = dict(italian)
    clash[("option", "corner")] = clash[("option", "card")]    # /seikatsu fountain has both
    with pytest.raises(AssertionError, match="collide"):
        _check_children(clash, tree.get_commands(), "")
