"""The move from SQLite to PostgreSQL at size (issue #50): a generated database of 100,000 games and 5,000,000
actions moved with ``python -m store.migrate``, killed with SIGKILL part of the way and run again.

    .venv/bin/python bench/migrate.py [--games 100000] [--actions 5000000] [--dir /tmp/teahouse-migrate]
                                      [--kill-after 40] [--compare-games 10000]

1. Generates the SQLite file in ``--dir`` (kept there for the next run; never in the repository): ended, running
   and abandoned games of all five kinds with real states and log lines (from random games played here),
   their seats, results, rating changes and ratings, the running games' timers, server settings, languages
   and notification choices, and a few notices in the outbox.
2. Starts a PostgreSQL server from the tests' wheel (tests/pg.py) with fsync on, as a host runs it.
3. Before and after in the same run, on a smaller file (``--compare-games``, 50 actions a game): the move as it
   was before issue #50 (store/migrate.py at the commit named by ``--before``, every table loaded into memory
   first) and as it is now: seconds, rows per second and peak memory (the child's maximum RSS).
4. The full file: the move killed with SIGKILL after ``--kill-after`` seconds, then the same command again:
   rows per second of each run, peak memory of each (the target: under 300 MB), and the counts and checksums
   that the second run checked, as it printed them. Then a move without interruption into a fresh database.

The load average is printed beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import GAMES  # noqa: E402

KEYS = ["wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm"]
PEAK_TARGET_MB = 300


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def sample_games() -> dict[str, tuple[list[str], list[tuple[str, str, str]], str]]:
    """One game of each kind played to its end by random legal moves: seats, the log (seat, action, line) and
    the final state's text."""
    out = {}
    for key in KEYS:
        game = GAMES[key]
        seats = [f"s{i}" for i in range(min(game.max_players, 3))]
        rnd = random.Random(7)
        state, log = game.new(seats, 7), []
        while game.result(state) is None and len(log) < 3000:
            seat = game.to_act(state)[0]
            action = rnd.choice(game.legal_actions(state, seat))
            after = game.apply(state, seat, action)
            log.append((seat, action, game.describe(state, seat, action, after)))
            state = after
        out[key] = (seats, log, game.dump(state))
    return out


SCHEMA = ("import asyncio, sys\nfrom store import Store\nasync def main():\n    async with Store(sys.argv[1]):\n"
          "        pass\nasyncio.run(main())")


def generate(path: Path, games: int, actions: int, schema_of: Path = ROOT) -> None:
    """The SQLite file, at the schema of the Teahouse in ``schema_of``, filled straight through sqlite3 (fast:
    one transaction): exactly ``actions`` log rows, spread over the games around their mean."""
    subprocess.run([sys.executable, "-c", SCHEMA, str(path)], cwd=schema_of, check=True)
    samples = sample_games()
    rnd = random.Random(50)
    per_game, extra = divmod(actions, games)
    spread = min(per_game - 1, per_game // 2)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    con.execute("BEGIN")
    t0 = time.time() - 400 * 86400
    game_rows, seat_rows, action_rows, result_rows, change_rows, timer_rows = [], [], [], [], [], []
    ratings: dict[tuple[str, str, str], list] = {}

    def flush(final=False):
        for sql, rows in (("INSERT INTO games (id, guild, channel, game, options, status, host, seed, state, "
                           "version, created_at, updated_at, result, waiting, rules) VALUES "
                           "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", game_rows),
                          ("INSERT INTO seats VALUES (?,?,?,?,?)", seat_rows),
                          ("INSERT INTO actions (game_id, seq, seat, action, line, at) VALUES (?,?,?,?,?,?)",
                           action_rows),
                          ("INSERT INTO results VALUES (?,?,?,?,?,?,?)", result_rows),
                          ("INSERT INTO rating_changes (game_id, guild, game, player, place, mu_before, "
                           "sigma_before, mu, sigma, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?)", change_rows),
                          ("INSERT INTO timers (game_id, kind, version, due) VALUES (?,?,?,?)", timer_rows)):
            if rows and (final or len(rows) > 50_000):
                con.executemany(sql, rows)
                rows.clear()

    for gid in range(1, games + 1):
        key = KEYS[gid % len(KEYS)]
        seats, log, final = samples[key]
        guild = str((1000 + gid % 1000) << 22)
        users = [f"{400000000000000000 + rnd.randrange(20000)}" for _ in seats]
        if len(set(users)) < len(users):
            users = [f"{u}{i}" for i, u in enumerate(users)]
        status = "running" if gid % 12 == 0 else "abandoned" if gid % 50 == 1 else "finished"
        # a game and the next are as far above the mean as below it: the total is exact
        pair = (gid + 1) // 2
        d = 0 if gid % 2 and gid == games else pair * 7919 % (spread + 1)
        n = per_game + (gid <= extra) + (d if gid % 2 else -d)
        start = t0 + gid * 300
        names = dict(zip(seats, users, strict=True))
        result = None
        if status != "running":
            scores = ", ".join(f'"{u}": {rnd.randrange(60)}' for u in users)
            result = f'{{"scores": {{{scores}}}, "winners": ["{users[0]}"]}}'
        game_rows.append((gid, guild, str(900000000000000000 + gid), key, '{"speed": "untimed"}', status, users[0],
                          rnd.getrandbits(62), final, n + 2, start, start + n * 600, result,
                          f'["{users[1]}"]' if status == "running" else "[]", 1))
        for i, user in enumerate(users):
            seat_rows.append((gid, i, user, f"Player {user[-5:]}", 0))
            if status != "running":
                outcome = "abandoned" if status == "abandoned" else "win" if i == 0 else "loss"
                result_rows.append((gid, guild, key, user, f"Player {user[-5:]}", outcome, start + n * 600))
            if status == "finished":
                mu, sigma = ratings.get((guild, key, user), [25.0, 8.333])
                after = [mu + (1.2 if i == 0 else -0.8), sigma * 0.97]
                change_rows.append((gid, guild, key, user, i + 1, mu, sigma, *after, start + n * 600))
                ratings[(guild, key, user)] = after
        for seq in range(1, n + 1):
            seat, action, line = log[(seq - 1) % len(log)]
            action_rows.append((gid, seq, names[seat], action, line.replace(seat, f"Player {names[seat][-5:]}"),
                                start + seq * 600 + rnd.random()))
        if status == "running":
            timer_rows.append((gid, "reminder", n + 2, time.time() + rnd.randrange(4 * 3600)))
            timer_rows.append((gid, "deadline", n + 2, time.time() + rnd.randrange(24 * 3600)))
        flush()
    flush(final=True)
    con.executemany("INSERT INTO ratings VALUES (?,?,?,?,?,?,?,?,?)",
                    [(g, k, p, f"Player {p[-5:]}", mu, s, mu - 3 * s, 1, t0) for (g, k, p), (mu, s) in ratings.items()])
    con.executemany("INSERT INTO settings (guild, reminder_hours, deadline_hours) VALUES (?, ?, ?)",
                    [(str((1000 + g) << 22), 4.0, 24.0) for g in range(0, 1000, 3)])
    con.executemany("INSERT INTO locales VALUES (?, ?)",
                    [(f"guild:{(1000 + g) << 22}", "it") for g in range(0, 1000, 7)])
    con.executemany("INSERT INTO notify VALUES (?, ?)",
                    [(f"{400000000000000000 + u}", 1) for u in range(0, 20000, 9)])
    con.executemany("INSERT INTO outbox (game_id, channel, payload, created_at) VALUES (?, ?, ?, ?)",
                    [(g, str(900000000000000000 + g), '{"text": "Reminder"}', time.time())
                     for g in range(12, min(games, 1200), 12)])
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def counts(path: Path) -> dict[str, int]:
    from store.schema import TABLES

    con = sqlite3.connect(path)
    try:
        have = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in TABLES if t in have}
    finally:
        con.close()


def run(argv: list[str], cwd: Path, kill_after: float | None = None) -> dict:
    """A move in a child process: seconds, exit status, its peak RSS (MB, from wait4), what it printed."""
    out = tempfile.NamedTemporaryFile("w+", suffix=".out", delete=False)
    err = tempfile.NamedTemporaryFile("w+", suffix=".err", delete=False)
    t = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "store.migrate", *argv], cwd=cwd, stdout=out, stderr=err)
    if kill_after is not None:
        deadline = t + kill_after
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - t
    out.seek(0)
    err.seek(0)
    return {"seconds": seconds, "code": proc.returncode, "peak_mb": usage.ru_maxrss / 1024,
            "stdout": out.read(), "stderr": err.read()}


def before_tree(rev: str) -> Path:
    """The repository as it was at ``rev`` (git archive), for the move as it was."""
    where = Path(tempfile.mkdtemp(prefix="teahouse-before-"))
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=__import__("io").BytesIO(data)) as tar:
        tar.extractall(where, filter="data")
    return where


def moved_rows(result: dict) -> int:
    return sum(int(n) for n in re.findall(r":\s+(\d+) rows", result["stdout"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--actions", type=int, default=5_000_000)
    parser.add_argument("--dir", default="/tmp/teahouse-migrate")
    parser.add_argument("--kill-after", type=float, default=40.0)
    parser.add_argument("--compare-games", type=int, default=10_000, help="0: no before/after")
    parser.add_argument("--before", default="3c2ff0e", help="the commit whose store/migrate.py is 'before'")
    args = parser.parse_args()
    from tests.pg import PgServer

    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    big = folder / f"g{args.games}-a{args.actions}.db"
    if not big.exists():
        t = time.monotonic()
        generate(big, args.games, args.actions)
        print(f"generated {big} ({big.stat().st_size / 2**20:.0f} MB) in {time.monotonic() - t:.0f} s")
    rows = counts(big)
    print(f"{big}: {sum(rows.values()):,} rows: " + ", ".join(f"{t} {n:,}" for t, n in rows.items() if n))
    server = PgServer(durable=True).start()
    try:
        print(f"load average at start: {load()}")
        if args.compare_games:
            old = before_tree(args.before)
            small = folder / f"g{args.compare_games}-a{args.compare_games * 50}-before.db"
            if not small.exists():          # at the schema the move before knows, which both can read
                generate(small, args.compare_games, args.compare_games * 50, schema_of=old)
            n = sum(counts(small).values())
            for name, cwd in (("before", old), ("after", ROOT)):
                copy = folder / f"{name}.db"             # each its own copy: the move upgrades the file first
                shutil.copy(small, copy)
                r = run([str(copy), asyncio.run(server.fresh())], cwd)
                assert r["code"] == 0, r["stderr"][-2000:]
                print(f"{name:>6} ({args.compare_games:,} games, {n:,} rows): {r['seconds']:.1f} s, "
                      f"{n / r['seconds']:,.0f} rows/s, peak RSS {r['peak_mb']:.0f} MB   (load {load()})")
        url = asyncio.run(server.fresh())
        total = sum(rows.values())
        first = run([str(big), url, "--progress"], ROOT, kill_after=args.kill_after)
        assert first["code"] == -signal.SIGKILL, (first["code"], first["stderr"][-2000:])
        bar = [b for b in re.split(r"[\r\n]", first["stderr"]) if "rows/s" in b]
        print(f"killed (SIGKILL) after {first['seconds']:.1f} s; peak RSS {first['peak_mb']:.0f} MB; its bar last "
              f"said: {bar[-1].strip() if bar else '(none)'}   (load {load()})")
        second = run([str(big), url, "--progress"], ROOT)
        assert second["code"] == 0, second["stderr"][-3000:]
        print(f"run again: {second['seconds']:.1f} s, exit 0, peak RSS {second['peak_mb']:.0f} MB   (load {load()})")
        print("   " + second["stdout"].strip().replace("\n", "\n   "))
        assert moved_rows(second) == total
        full = run([str(big), asyncio.run(server.fresh())], ROOT)
        assert full["code"] == 0, full["stderr"][-3000:]
        copied = re.search(r"Copied (\d+) rows in ([\d.]+) s", full["stdout"])
        print(f"without interruption: {full['seconds']:.1f} s in all ({total / full['seconds']:,.0f} rows/s with "
              f"the check; the copy alone {int(copied[1]) / float(copied[2]):,.0f} rows/s), peak RSS "
              f"{full['peak_mb']:.0f} MB (target < {PEAK_TARGET_MB})   (load {load()})")
        worst = max(first["peak_mb"], second["peak_mb"], full["peak_mb"])
        print(f"peak memory {worst:.0f} MB: {'within' if worst < PEAK_TARGET_MB else 'PAST'} the {PEAK_TARGET_MB} MB "
              "target")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
