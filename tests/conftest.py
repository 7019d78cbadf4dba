import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


import pytest  # noqa: E402

from table import Store, TableService  # noqa: E402
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
def svc(store, clock):
    """The table service on the test's database and clock, without images."""
    return TableService(store, clock=clock, render=False)
