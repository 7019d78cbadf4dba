"""The Italian bot is whole (#17): every sentence the source marks has its Italian, the compiled catalogs
match their sources, and no user-facing sentence is left unmarked where it is handed to a player."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import i18n
from tools.i18n_catalogs import problems

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_sentence_has_its_italian(domain):
    assert problems([domain]) == []


def _literal_text(node: ast.AST) -> bool:
    """English typed straight into the call: a string literal with letters, or an f-string."""
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and any(c.isalpha() for c in node.value)


def _called(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Attribute):
        return f"{getattr(f.value, 'id', '')}.{f.attr}"
    return getattr(f, "id", "")


# where text reaches a player: (what is called, which arguments or keywords carry the text)
HANDED = {"Reply.fail": (1, ()), "Private": (1, ()), "Reply": (None, ("text",)),
          "discord.ui.Button": (None, ("label", "placeholder")), "discord.SelectOption": (None, ("label",)),
          "discord.ui.Select": (None, ("placeholder",))}


def _unmarked(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        if name == "IllegalAction" and node.args and isinstance(node.args[0], ast.JoinedStr):
            out.append(f"{path.name}:{node.lineno}: IllegalAction(f'…') — give a template and named parameters")
        if name not in HANDED:
            continue
        position, keywords = HANDED[name]
        texts = [node.args[position]] if position is not None and len(node.args) > position else []
        texts += [k.value for k in node.keywords if k.arg in keywords]
        out += [f"{path.name}:{node.lineno}: {name} gets English typed in place" for t in texts if _literal_text(t)]
    return out


def test_no_sentence_reaches_a_player_unmarked():
    files = [p for folder in ("table", "cogs", "engine") for p in sorted((ROOT / folder).rglob("*.py"))]
    found = [line for p in files for line in _unmarked(p)]
    assert found == []
