"""Copies of the SQLite database, made while the bot runs, kept a few deep; and putting one back.

    python -m store.backup [--db PATH] [--dir DIR] [--keep N]
    python -m store.backup --restore FILE [--db PATH]

A copy is made with SQLite's online backup API: one read transaction over the whole file, so it is the
database as it stood at one commit (the WAL included) while the bot goes on writing beside it (WAL lets a
writer commit while a reader reads). It is written under a hidden temporary name, made a self-contained file
(journal mode DELETE, no ``-wal`` beside it), checked with ``PRAGMA integrity_check``, flushed to disk and
only then renamed to ``<stem>-YYYYMMDDTHHMMSSZ.db`` (UTC) in ``DIR`` (default: ``backups/`` beside the
database), so a copy under its final name is always complete. Copies beyond the newest ``N`` (default 7) are
deleted; only files named like the copies this tool makes are ever touched.

A restore needs the bot stopped: it refuses a database another connection holds open. It checks the copy
(integrity and Teahouse's tables), copies the current database aside first
(``teahouse.db.before-restore-<time>.bak``), removes the stale ``-wal``/``-shm`` files (SQLite would apply an
old WAL to the restored file), and renames the copy into place. The next start upgrades an older copy's
schema as usual. PostgreSQL is backed up with ``pg_dump`` and restored with ``pg_restore`` (docs/lifecycle.md).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_KEEP = 7
STAMP = "%Y%m%dT%H%M%SZ"


class BackupError(Exception):
    """What went wrong, in one line for the host."""


@dataclass
class Made:
    path: Path
    size: int
    games: int
    removed: list[Path] = field(default_factory=list)


def copy(source: Path | str, target: Path | str, *, connection: sqlite3.Connection | None = None) -> None:
    """A consistent copy of the SQLite file ``source`` in ``target`` with SQLite's backup API, even while
    another process writes to it (``connection``: an open one on ``source`` to copy from instead)."""
    src = connection or sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)       # all pages in one step: one snapshot, never a mix of two commits
    finally:
        dst.close()
        if connection is None:
            src.close()


def finish(path: Path) -> int:
    """Make the copy at ``path`` one self-contained file, check it, flush it to disk; its number of games.
    Raises BackupError when SQLite finds it damaged."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")     # no -wal/-shm beside a copy: one file says it all
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupError(f"the copy failed SQLite's integrity check: {'; '.join(problems[:3])}")
        games = teahouse_games(conn)
    finally:
        conn.close()
    with open(path, "rb+") as f:
        os.fsync(f.fileno())
    return games


def teahouse_games(conn: sqlite3.Connection) -> int:
    """How many games a Teahouse database holds; -1 when it has no Teahouse tables."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "games" not in tables:
        return -1
    return conn.execute("SELECT count(*) FROM games").fetchone()[0]


def _fsync_dir(folder: Path) -> None:
    """The rename itself reaches the disk (a copy that vanished on a power cut would be a surprise)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return          # not on every system (Windows)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sqlite_file(db: str | Path, doing: str = "back up") -> Path:
    """The SQLite file ``db`` names, or BackupError (a PostgreSQL URL, a SQLite URI, memory)."""
    text = str(db)
    if re.match(r"postgres(ql)?(\+\w+)?://", text):
        how = "restore it with pg_restore" if doing == "restore" else "back it up with pg_dump"
        raise BackupError(f"the database is PostgreSQL: {how} (see docs/lifecycle.md), not with this tool")
    if text.startswith("file:") or text == ":memory:":
        raise BackupError(f"give the database as a file path, not {text!r}")
    return Path(text)


def _copy_names(folder: Path, stem: str) -> list[tuple[str, int, Path]]:
    """The copies this tool made of ``stem`` in ``folder``, oldest first (sorted by their time, then their
    number: two in one second are ``…Z.db`` and ``…Z-2.db``)."""
    pattern = re.compile(rf"{re.escape(stem)}-(\d{{8}}T\d{{6}}Z)(?:-(\d+))?\.db")
    found = []
    for path in folder.iterdir():
        m = pattern.fullmatch(path.name)
        if m and path.is_file():
            found.append((m[1], int(m[2] or 1), path))
    return sorted(found)


def prune(folder: Path, stem: str, keep: int) -> list[Path]:
    """Delete this tool's copies of ``stem`` beyond the newest ``keep``; the deleted paths."""
    old = [path for *_key, path in _copy_names(folder, stem)][:-keep] if keep > 0 else []
    for path in old:
        path.unlink(missing_ok=True)
    return old


def backup(db: str | Path, folder: str | Path | None = None, keep: int = DEFAULT_KEEP,
           now: datetime | None = None) -> Made:
    """Copy the database ``db`` into ``folder`` (default: ``backups/`` beside it) and keep the newest
    ``keep`` copies (see the module's docstring)."""
    if keep < 1:
        raise BackupError("--keep must be at least 1")
    source = sqlite_file(db, "back up")
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    folder = Path(folder) if folder is not None else source.parent / "backups"
    created = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BackupError(f"cannot write backups to {folder}: {e.strerror or e}") from None
    stamp = (now or datetime.now(UTC)).strftime(STAMP)
    target, n = folder / f"{source.stem}-{stamp}.db", 2
    while target.exists():
        target, n = folder / f"{source.stem}-{stamp}-{n}.db", n + 1
    partial = folder / f".{target.name}.partial"
    try:
        try:
            partial.write_bytes(b"")        # can we write there at all? (else SQLite says only "unable to open")
        except OSError as e:
            raise BackupError(f"cannot write backups to {folder}: {e.strerror or e}") from None
        try:
            copy(source, partial)
        except sqlite3.DatabaseError as e:
            why = "it is not a SQLite database" if "not a database" in str(e) else str(e)
            raise BackupError(f"cannot copy {source}: {why}") from None
        games = finish(partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        if created:
            with contextlib.suppress(OSError):
                folder.rmdir()          # a failed first backup leaves no empty folder behind
        raise
    _fsync_dir(folder)
    return Made(target, target.stat().st_size, games, prune(folder, source.stem, keep))


def in_use(conn: sqlite3.Connection) -> bool:
    """Take the database for this connection alone; True if another connection (the bot) holds it open.
    In WAL mode every open connection keeps a shared lock, so an exclusive one is refused while the bot runs."""
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("COMMIT")     # the exclusive lock stays until the connection closes (locking_mode)
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            return True
        raise
    return False


def _read_copy(path: Path) -> sqlite3.Connection:
    """A connection that reads a copy and leaves nothing beside it: a copy alone is opened immutable (a
    read-only one would leave -wal and -shm files behind a copy in WAL mode, as upgrade.py's are); one with a
    -wal file beside it read-only, so SQLite reads what that holds too."""
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() and wal.stat().st_size else "immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)


def restore(copy_path: str | Path, db: str | Path, now: datetime | None = None) -> Path | None:
    """Put the copy ``copy_path`` in place of the database ``db`` (the bot stopped; see the module's
    docstring). Returns where the database it replaced was kept, or None if there was none."""
    target = sqlite_file(db, "restore")
    chosen = Path(copy_path)
    if not chosen.is_file():
        raise BackupError(f"there is no backup at {chosen}")
    try:
        conn = _read_copy(chosen)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            games = teahouse_games(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{chosen} is not a usable SQLite database: {e}") from None
    if problems != ["ok"]:
        raise BackupError(f"{chosen} failed SQLite's integrity check: {'; '.join(problems[:3])}")
    if games < 0:
        raise BackupError(f"{chosen} holds no Teahouse tables: not a Teahouse backup")

    stamp = (now or datetime.now(UTC)).strftime(STAMP)
    incoming = target.with_name(f".{target.name}.restoring")
    aside = None
    try:
        if target.exists():
            conn = sqlite3.connect(target, timeout=0)
            try:
                if in_use(conn):
                    raise BackupError(f"{target} is in use (is the bot running?): stop the bot, then restore")
                aside, n = target.with_name(f"{target.name}.before-restore-{stamp}.bak"), 2
                while aside.exists():
                    aside, n = target.with_name(f"{target.name}.before-restore-{stamp}-{n}.bak"), n + 1
                copy(target, aside, connection=conn)      # what it held, its WAL included
            finally:
                conn.close()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
        reader = _read_copy(chosen)
        try:
            copy(chosen, incoming, connection=reader)
        finally:
            reader.close()
        finish(incoming)
        for stale in (target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
            stale.unlink(missing_ok=True)
        os.replace(incoming, target)
    except sqlite3.DatabaseError as e:
        raise BackupError(f"cannot restore into {target}: {e}") from None
    except OSError as e:
        raise BackupError(f"cannot restore into {target}: {e.strerror or e}") from None
    finally:
        incoming.unlink(missing_ok=True)
    _fsync_dir(target.parent)
    return aside


def default_db() -> str:
    """The database the bot would use: DATABASE_URL, else TEAHOUSE_DB, else data/teahouse.db."""
    return (os.getenv("DATABASE_URL", "").strip() or os.getenv("TEAHOUSE_DB", "").strip()
            or str(ROOT / "data" / "teahouse.db"))


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def main(argv: list[str] | None = None) -> int:
    from dotenv import load_dotenv

    load_dotenv(ROOT / ".env")
    parser = argparse.ArgumentParser(prog="python -m store.backup",
                                     description="Copy Teahouse's SQLite database while the bot runs, keeping the "
                                                 "last N copies; or put a copy back (with the bot stopped).")
    parser.add_argument("--db", help="the database (default: DATABASE_URL, else TEAHOUSE_DB, else "
                                     "data/teahouse.db)")
    parser.add_argument("--dir", help="where the copies go (default: backups/ beside the database)")
    parser.add_argument("--keep", type=int, default=DEFAULT_KEEP, help=f"copies kept (default {DEFAULT_KEEP})")
    parser.add_argument("--restore", metavar="FILE", help="put this copy in place of the database; stop the "
                                                          "bot first")
    args = parser.parse_args(argv)
    db = args.db or default_db()
    try:
        if args.restore:
            aside = restore(args.restore, db)
            kept = f"; the database it replaced is kept as {aside}" if aside else ""
            print(f"restored {args.restore} into {db}{kept}. Start the bot.")
        else:
            made = backup(db, args.dir, args.keep)
            removed = f"; removed {len(made.removed)} older" if made.removed else ""
            print(f"backed up {db} to {made.path} ({made.games} games, {_size(made.size)}, integrity ok){removed}")
    except BackupError as e:
        print(f"teahouse backup: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
