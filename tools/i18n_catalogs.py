"""Managing the catalogs with Babel: extract the English sentences, update each locale's .po, compile the
.mo files, check that nothing is left untranslated.

    python -m tools.i18n_catalogs update|compile|check|all [domain ...]

(``all`` updates and compiles). A development tool, outside the runtime packages: it reads the whole bot
(every cog's slash commands), so it lives above it, and nothing the bot runs imports it. Babel is a
development dependency; the bot reads only the compiled .mo files."""

from __future__ import annotations

import asyncio
import io
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from i18n import DOMAINS, GAME_DOMAINS, LOCALES, ROOT

REPO = ROOT.parent
GAMES = ("wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "IllegalAction": None}
PLACEHOLDER = re.compile(r"\{(\w*)\}")
HEADER = "Teahouse"


def game_of(path: Path) -> str | None:
    """The game a module belongs to: ``wurrm`` for engine/wurrm.py and for the parts split from it beside it
    (engine/wurrm_board.py, render/wurrm_board.py), else None."""
    name = path.stem.split("_", 1)[0]
    return name if name in GAMES else None


def sources(domain: str) -> list[Path]:
    """The files whose sentences belong to ``domain``: a game's engine, renderer and cog (each with the
    modules split from it, ``<game>_<part>.py``); the rest is the shared table's."""
    if domain in GAMES:
        return [p for folder in ("engine", "render", "cogs") for p in sorted((REPO / folder).glob(f"{domain}*.py"))
                if game_of(p) == domain]
    if domain == "bot":          # the Discord layer
        return [REPO / "bot.py"] + [p for p in sorted((REPO / "cogs").glob("*.py")) if game_of(p) is None]
    if domain == "table":        # the table service, the console, the shared engine and drawing parts
        out = []
        for folder in ("table", "store", "console", "engine", "render"):
            for p in sorted((REPO / folder).rglob("*.py")):
                if game_of(p) is None:
                    out.append(p)
        return out
    return []


def extract(domain: str) -> Catalog:
    """The template (what the source says) of ``domain``."""
    cat = Catalog(project=HEADER, domain=domain, charset="utf-8")
    if domain == "commands":
        for context, message in asyncio.run(command_strings()):
            cat.add(message, context=context, locations=[("commands", 0)])
        return cat
    for path in sources(domain):
        rel = path.relative_to(REPO).as_posix()
        for keywords, fixed in ((KEYWORDS, None), ({"W_": None}, "word")):
            for lineno, message, comments, context in extract_from_file(
                    "python", str(path), keywords=keywords, comment_tags=("TRANSLATORS:",),
                    options={"encoding": "utf-8"}):
                if not message or (isinstance(message, tuple) and not message[0]):
                    continue
                flags = ("python-brace-format",) if PLACEHOLDER.search(message if isinstance(message, str)
                                                                       else message[0]) else ()
                cat.add(message, locations=[(rel, lineno)], auto_comments=comments, context=fixed or context,
                        flags=flags)
    return cat


async def command_strings() -> list[tuple[str, str]]:
    """(context, text) of every slash command's name, description, option and choice, read from the
    bot's command tree with every cog loaded (nothing connects)."""
    import tempfile

    from discord import app_commands

    from cogs.runner import TeahouseBot, cog_modules
    from store import Store

    out: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(Path(tmp) / "tree.db").open()
        bot = TeahouseBot(store)
        try:
            for name in cog_modules():
                await bot.load_extension(name)
            for command in bot.tree.walk_commands():
                out.append(("command", command.name))
                out.append(("", command.description))
                if isinstance(command, app_commands.Command):
                    for param in command.parameters:
                        out.append(("option", param.name))
                        out.append(("", param.description))
                        for choice in param.choices:
                            out.append(("choice", choice.name))
        finally:
            await bot.close()
            await store.close()
    from engine import GAMES

    # a game registered by tests (their little Pebbles) is not one of the bot's: its title is no choice of ours
    foreign = {g.title for k, g in GAMES.items() if k not in GAME_DOMAINS}
    return [(c or None, t) for c, t in dict.fromkeys(out)
            if t and t != "…" and not (c == "choice" and t in foreign)]


def po_path(locale: str, domain: str) -> Path:
    return ROOT / locale / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, locale: str, domain: str) -> Catalog:
    if path.exists():
        with path.open("rb") as f:
            return read_po(f, locale=locale, domain=domain)
    return Catalog(locale=locale, domain=domain, project=HEADER, charset="utf-8", fuzzy=False,
                   copyright_holder="the Teahouse authors", language_team="Italiano")


def write(path: Path, cat: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=120, omit_header=False, sort_output=False, include_previous=True)
    path.write_bytes(buf.getvalue())


def update(domains: Iterable[str] = DOMAINS) -> None:
    """Each locale's .po brought in line with the source: new sentences added (empty), gone ones dropped."""
    for domain in domains:
        template = extract(domain)
        for locale in LOCALES:
            if locale == "en":
                continue
            path = po_path(locale, domain)
            cat = read(path, locale, domain)
            cat.update(template, no_fuzzy_matching=True, update_header_comment=False)
            cat.obsolete.clear()
            write(path, cat)


def compile_all(domains: Iterable[str] = DOMAINS) -> None:
    for domain in domains:
        for locale in LOCALES:
            path = po_path(locale, domain)
            if locale == "en" or not path.exists():
                continue
            buf = io.BytesIO()
            write_mo(buf, read(path, locale, domain), use_fuzzy=False)
            path.with_suffix(".mo").write_bytes(buf.getvalue())


def problems(domains: Iterable[str] = DOMAINS, *, fresh: bool = True) -> list[str]:
    """What keeps the Italian bot from being whole: sentences of the source missing from a catalog or left
    untranslated or fuzzy, placeholders that differ, and .mo files older than their .po."""
    out: list[str] = []
    for domain in domains:
        template = extract(domain) if fresh else None
        for locale in LOCALES:
            if locale == "en":
                continue
            path = po_path(locale, domain)
            cat = read(path, locale, domain)
            known = {(m.id if isinstance(m.id, str) else m.id[0], m.context): m for m in cat if m.id}
            if template is not None:
                for m in template:
                    if not m.id:
                        continue
                    key = (m.id if isinstance(m.id, str) else m.id[0], m.context)
                    if key not in known:
                        out.append(f"{domain}/{locale}: not in the catalog: {key[0]!r}")
            for (msgid, _context), m in known.items():
                strings = m.string if isinstance(m.string, tuple) else (m.string,)
                if not all(strings) or m.fuzzy:
                    out.append(f"{domain}/{locale}: untranslated: {msgid!r}")
                    continue
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                want = set(PLACEHOLDER.findall(" ".join(ids))) - {"n"}
                for s in strings:
                    if set(PLACEHOLDER.findall(s)) - {"n"} != want:
                        out.append(f"{domain}/{locale}: placeholders differ: {msgid!r} → {s!r}")
            mo = path.with_suffix(".mo")
            if path.exists():
                buf = io.BytesIO()
                write_mo(buf, cat, use_fuzzy=False)
                if not mo.exists() or mo.read_bytes() != buf.getvalue():
                    out.append(f"{domain}/{locale}: {mo.name} is not compiled from {path.name} "
                               "(run: python -m tools.i18n_catalogs compile)")
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "compile", "check", "all"):
        print(__doc__)
        return 2
    domains = argv[1:] or list(DOMAINS)
    if argv[0] in ("update", "all"):
        update(domains)
    if argv[0] in ("compile", "all"):
        compile_all(domains)
    if argv[0] == "check":
        found = problems(domains)
        for p in found:
            print(p)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
