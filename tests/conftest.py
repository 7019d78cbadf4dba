import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if sys.dont_write_bytecode:
    # PYTHONDONTWRITEBYTECODE keeps compiled files out of the source tree; without them every process of the
    # suite (each xdist worker, each bot, image worker and migration it starts) compiled every module it
    # imported again, and pytest rewrote every test module in each worker: ~8 s of processor time a worker.
    # Compiled once into a folder of their own instead, still outside the tree (and read by the processes
    # started from here, which inherit these variables).
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "teahouse-pycache")
    sys.dont_write_bytecode = False
    del os.environ["PYTHONDONTWRITEBYTECODE"]


def _roomy_tmpfs(path: str = "/dev/shm") -> bool:
    try:
        st = os.statvfs(path)
    except OSError:
        return False
    return os.access(path, os.W_OK) and st.f_bavail * st.f_frsize > 2 << 30     # 2 GB free at least


if "TMPDIR" not in os.environ and _roomy_tmpfs():
    # The suite's files (its databases, PostgreSQL's data, pictures) in memory, where the system has a tmpfs for
    # them: SQLite syncs its journal to the disk at every commit (1-2 ms each here), and the suite's tens of
    # thousands of commits left the processor waiting. No test depends on a sync: none survives a power cut.
    os.environ["TMPDIR"] = "/dev/shm"
    tempfile.tempdir = None


import pytest  # noqa: E402

from store import Store  # noqa: E402
from table import TableService  # noqa: E402
from tests.support import Clock  # noqa: E402


@pytest.fixture
async def store(tmp_path):
    """A fresh database for the test."""
    s = await Store(tmp_path / "t.db").open()
    yield s
    await s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def italian():
    """The process speaks Italian where no interaction says otherwise (`bot.py --console --locale it`)."""
    import i18n

    i18n.set_default("it")
    yield
    i18n.set_default("en")


@pytest.fixture
async def pebbles_round_in_italian(tmp_path, italian):
    """What the console speaking Italian prints for a round of Pebbles to its end and alice's review of it."""
    import tests.tinygame  # noqa: F401  (Pebbles, the little test game)
    from tests.support import run_console

    return await run_console(tmp_path, """
        alice@t /partita nuova gioco:pebbles rounds:1
        bob@t /partita unisciti
        alice@t /partita inizia
        alice@t /partita mossa azione:bid 3
        bob@t /partita mossa azione:bid 1
        alice@t /partita mossa azione:keep
        alice@t /partita rivedi gioco:1 passo:1
        alice@t /partita rivedi gioco:1 passo:ultima visto_da:tavolo
        """)


@pytest.fixture
def svc(store, clock):
    """The table service on the test's database and clock, without images."""
    return TableService(store, clock=clock, render=False)


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the whole session (tests/pg.py), started on first use."""
    from tests.pg import PgServer

    server = PgServer().start()
    yield server
    server.stop()


@pytest.fixture
async def pg_url(pg_server):
    """The URL of a fresh, empty PostgreSQL database for the test."""
    return await pg_server.fresh()


@pytest.fixture(params=["sqlite", "postgres"])
async def db_target(request, tmp_path):
    """Where a fresh database of each kind is: a SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "t.db"
    return await request.getfixturevalue("pg_server").fresh()


@pytest.fixture
async def any_store(db_target):
    """A fresh store of each kind: the same tests run against SQLite and PostgreSQL."""
    from store import open_store

    s = await open_store(db_target).open()
    yield s
    await s.close()


@pytest.fixture
def any_svc(any_store, clock):
    """The table service on a store of each kind."""
    return TableService(any_store, clock=clock, render=False)


@pytest.fixture
async def tree(tmp_path):
    """The bot's slash-command tree with every cog loaded (nothing connects)."""
    from cogs.runner import TeahouseBot, cog_modules

    store = await Store(tmp_path / "tree.db").open()
    bot = TeahouseBot(store)
    for name in cog_modules():
        await bot.load_extension(name)
    yield bot.tree
    await bot.close()


# ----- every request the bot made to the fake Discord, checked against Discord's OpenAPI description (#48) -----
def _openapi_counts() -> dict:
    from tests import fakediscord

    return dict(fakediscord.OPENAPI)


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:                 # an xdist worker: its counts go to the controller
        workeroutput["openapi"] = _openapi_counts()


_OPENAPI_TOTALS = pytest.StashKey[dict]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    counts = getattr(node, "workeroutput", {}).get("openapi")
    if counts:
        totals = node.config.stash.setdefault(_OPENAPI_TOTALS, dict.fromkeys(counts, 0))
        for key, n in counts.items():
            totals[key] = totals.get(key, 0) + n


def pytest_terminal_summary(terminalreporter, config):
    totals = config.stash.get(_OPENAPI_TOTALS, None) or _openapi_counts()
    if totals["checked"]:
        terminalreporter.write_line(
            f"Discord's OpenAPI description: {totals['checked']} requests to the fake Discord checked, "
            f"{totals['refused']} refused; messages sent or edited: {totals['cards']} cards, {totals['plain']} plain")
