"""The code stays clean: ruff (configured in pyproject.toml) finds nothing."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    beside = Path(sys.executable).parent / "ruff"       # the pinned one installed with the test dependencies
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    assert ruff, "ruff is not installed: pip install -r requirements-dev.txt"
    run = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
