"""python -m i18n update|compile|check|all [domain ...]: the catalogs, with Babel (see i18n/tools.py)."""

import sys

from . import DOMAINS
from .tools import compile_all, problems, update


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
