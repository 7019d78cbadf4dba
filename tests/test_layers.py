"""The runtime packages stand in layers and each imports only the layers below it:

    i18n < engine < render < store < table < cogs, console < bot.py

The two front ends (cogs/ for Discord, console/ for a terminal) stand side by side and neither imports the
other. i18n is the ground (the engine marks its sentences with i18n's ``N_``/``W_``). Development tools (tools/,
bench/) and the tests stand above them all, so no runtime module may import them either. Every import
counts: ``import x``, ``from x import y`` and relative ones, at the top of a module or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["i18n", "engine", "render", "store", "table", ("cogs", "console"), "bot"]
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


def floor(name: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if name == layer or name in layer)


def packages(layer) -> tuple[str, ...]:
    return layer if isinstance(layer, tuple) else (layer,)


@pytest.mark.parametrize("package", [p for layer in LAYERS[:-1] for p in packages(layer)])
def test_no_module_imports_a_layer_above_its_own_or_beside_it(package):
    level = floor(package)
    above = {p for layer in LAYERS[level + 1:] for p in packages(layer)} | ABOVE_ALL
    beside = set(packages(LAYERS[level])) - {package}
    wrong = {f"{path.relative_to(ROOT)} imports {top}"
             for path in sorted((ROOT / package).rglob("*.py")) for top in imported_tops(path) & (above | beside)}
    assert not wrong, sorted(wrong)


def test_the_image_workers_load_neither_the_store_nor_discord():
    """An image worker imports render.workers to draw; the table and store packages name their modules lazily,
    so a worker does not carry SQLAlchemy, the database drivers, discord.py or the metrics (tens of MB each worker)."""
    import subprocess
    import sys

    heavy = ("('sqlalchemy', 'alembic', 'aiosqlite', 'asyncpg', 'discord', 'store.store', 'table.service', "
             "'prometheus_client', 'table.metrics', 'aiohttp')")
    # a worker is a fresh interpreter that imports render.workers and the renderers (render.workers._BOOT,
    # _warm), never the bot's own script; and the bot's script itself names nothing heavy at import either
    for code in ("import sys, render.workers; render.workers._warm(); "
                 f"print(sorted(m for m in {heavy} if m in sys.modules))",
                 "import runpy, sys, render.workers; runpy.run_path('bot.py', run_name='__mp_main__'); "
                 f"print(sorted(m for m in {heavy} if m in sys.modules))"):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == "[]"


def test_the_bot_loads_no_pillow_until_it_draws():
    """The bot hands pictures to its workers (render.workers) and draws nothing itself while they run, so
    neither Pillow nor the renderers are in its memory (~9 MB, issue #33); a picture drawn in the bot (no
    workers: the console, tests) loads them then."""
    import subprocess
    import sys

    code = """
import asyncio, sys
from engine import GAMES
from render import workers as rendering
from table import TableService, User, Where
from store import Store

async def main(tmp):
    async with await Store(tmp + "/t.db").open(apart=True) as store:
        svc = TableService(store)
        where, alice, bob = Where("c", "g"), User("1", "Alice"), User("2", "Bob")
        await svc.open_table(where, alice, "wagara")
        await svc.join(where, bob)
        reply = await (await svc.start(where, alice)).render()
        print(bool(reply.image.data), "PIL" in sys.modules, "render.common" in sys.modules)
        rendering.stop()
        from render import render_png
        game = GAMES["wagara"]
        state = game.new(["1", "2"], 1)
        print(bool(render_png("wagara", game.view(state, None), {}, None)), "PIL" in sys.modules)

import tempfile
rendering.start(1)
with tempfile.TemporaryDirectory() as tmp:
    asyncio.run(main(tmp))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "False", "True", "True"]
