"""The runtime packages stand in layers and each imports only the layers below it:

    i18n < engine < render < table < cogs < bot.py

i18n is the ground (the engine marks its sentences with i18n's ``N_``/``W_``). Development tools (tools/,
bench/) and the tests stand above them all, so no runtime module may import them either. Every import
counts: ``import x``, ``from x import y`` and relative ones, at the top of a module or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["i18n", "engine", "render", "table", "cogs", "bot"]
ABOVE_ALL = {"tools", "bench", "tests"}


def imported_tops(path: Path) -> set[str]:
    """The top-level packages or modules that the file at ``path`` imports, relative imports resolved."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    tops: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            tops.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:      # from . / from .. : the package that many steps up, inside the same top one
                tops.add(package[:len(package) - node.level + 1][0])
            else:
                tops.add(node.module.split(".")[0])
    return tops


def test_relative_imports_resolve_to_their_package():
    assert imported_tops(ROOT / "render" / "wagara.py") >= {"render", "i18n"}
    assert "engine" in imported_tops(ROOT / "engine" / "ai" / "heuristics.py")   # from ..core import …


@pytest.mark.parametrize("layer", LAYERS[:-1])
def test_no_module_imports_a_layer_above_its_own(layer):
    above = set(LAYERS[LAYERS.index(layer) + 1:]) | ABOVE_ALL
    wrong = {f"{path.relative_to(ROOT)} imports {top}"
             for path in sorted((ROOT / layer).rglob("*.py")) for top in imported_tops(path) & above}
    assert not wrong, sorted(wrong)


def test_the_image_workers_load_neither_the_store_nor_discord():
    """An image worker imports table.rendering to draw; the table package names its service and store lazily,
    so a worker does not carry SQLAlchemy, the database drivers, discord.py or the metrics (tens of MB each worker)."""
    import subprocess
    import sys

    heavy = ("('sqlalchemy', 'alembic', 'aiosqlite', 'asyncpg', 'discord', 'table.store', 'table.service', "
             "'prometheus_client', 'table.metrics', 'aiohttp')")
    # a worker imports table.rendering, and (forkserver, spawn) the bot's own script again as __mp_main__
    code = ("import runpy, sys, table.rendering; runpy.run_path('bot.py', run_name='__mp_main__'); "
            f"print(sorted(m for m in {heavy} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
