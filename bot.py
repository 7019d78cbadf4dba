"""Teahouse: play five tabletop games by chat in Discord — or at the console table without a token.

    python bot.py              # Discord when DISCORD_TOKEN is set (in .env or the environment), else the console
    python bot.py --console    # the console table even when a token is set
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from dotenv import load_dotenv

from store.shards import Shards
from table import logs

# The store, the service and discord.py are imported where they are used, not here: the image workers
# import this module again as __mp_main__ (multiprocessing's forkserver and spawn do), and each would
# carry them for nothing (tens of MB a worker).

ROOT = Path(__file__).resolve().parent
DEFAULT_DB = ROOT / "data" / "teahouse.db"
DEFAULT_CONSOLE_DB = ROOT / "data" / "console.db"

log = logging.getLogger("teahouse")


# Libraries that log whole payloads at DEBUG never go below INFO, whatever LOG_LEVEL says (table/logs.py).
QUIET_LIBRARIES = logs.QUIET_LIBRARIES


def configure_logging(level: str, fmt: str | None = None) -> None:
    """One line per event on standard error: text, or JSON lines when ``fmt`` (LOG_FORMAT) is "json"."""
    logs.configure(level, fmt)


async def run_console(db_path: Path, out_dir: Path, stream=None) -> None:
    from console.table import run
    from store import open_store
    from table import TableService

    store = await open_store(db_path).open(apart=True)     # a migration in a process of its own, as the bot's
    try:
        await run(TableService(store), stream=stream, out_dir=out_dir)
    finally:
        await store.close()


def fail(message: str, code: int = 1) -> int:
    """One clear line on standard error and a non-zero exit, so a supervisor restarts or alerts."""
    print(f"teahouse: {message}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    load_dotenv(ROOT / ".env")
    parser = argparse.ArgumentParser(description="Teahouse: tabletop games in Discord, or at the console.")
    parser.add_argument("--console", action="store_true", help="run the console table even with a token")
    parser.add_argument("--db", help="SQLite database file or postgresql:// URL (default: DATABASE_URL, else "
                                     "TEAHOUSE_DB or data/teahouse.db; the console uses data/console.db)")
    parser.add_argument("--out", default=os.getenv("TEAHOUSE_OUT", "out"),
                        help="where the console writes images (default: out/)")
    parser.add_argument("--locale", default=os.getenv("TEAHOUSE_LOCALE", "en"), choices=("en", "it"),
                        help="the console's language: en (English, the default) or it (Italiano)")
    args = parser.parse_args(argv)
    import i18n
    from store.store import StoreError

    i18n.set_default(args.locale)    # the console's language; in Discord each interaction says its own
    token = os.getenv("DISCORD_TOKEN", "").strip()
    console = args.console or not token
    configure_logging(os.getenv("LOG_LEVEL", "WARNING" if console else "INFO"), os.getenv("LOG_FORMAT"))

    if console:
        if not args.console:
            print("No DISCORD_TOKEN set: starting the console table. (Put a token in .env to run the Discord bot.)")
        db = args.db or os.getenv("TEAHOUSE_CONSOLE_DB") or str(DEFAULT_CONSOLE_DB)
        try:
            asyncio.run(run_console(db, Path(args.out)))
        except KeyboardInterrupt:
            pass
        except StoreError as e:
            return fail(str(e))
        return 0

    from cogs.runner import run_discord

    # PostgreSQL when DATABASE_URL is set (several processes, several machines); else the SQLite file
    db = args.db or os.getenv("DATABASE_URL", "").strip() or os.getenv("TEAHOUSE_DB") or str(DEFAULT_DB)
    try:
        shards = Shards.parse(os.getenv("SHARD_COUNT"), os.getenv("SHARD_IDS"))
    except ValueError as e:
        print(e)
        return 2
    guild = os.getenv("DEV_GUILD_ID", "").strip() or None
    try:
        idle = float(os.getenv("IDLE_ABANDON_HOURS", "24"))
    except ValueError:
        print("IDLE_ABANDON_HOURS must be a number of hours.")
        return 2
    from cogs.budget import rate_setting
    from table.metrics import address

    try:
        rate_setting(os.getenv("DISCORD_GLOBAL_RATE"))
        metrics_at = address(os.getenv("METRICS_PORT"), os.getenv("METRICS_HOST"))
    except ValueError as e:
        print(e)
        return 2
    try:
        return run_discord(token, db, dev_guild=guild, idle_abandon_hours=idle, shards=shards, metrics_at=metrics_at)
    except StoreError as e:
        return fail(str(e))


if __name__ == "__main__":
    sys.exit(main())
