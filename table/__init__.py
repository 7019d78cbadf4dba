"""The platform-neutral table service: lobby, play, scheduler, community, ratings shown, review and learn.

The names below are imported when first used (PEP 562), not with the package: the image workers import
``render.workers`` alone, and must not load the service, the store and SQLAlchemy (about 26 MB a worker).
"""

from __future__ import annotations

import importlib

_WHERE = {"Notice": "replies", "Offer": "replies", "Picture": "replies",
          "Private": "replies", "Reply": "replies", "ReviewPage": "replies", "Turn": "replies", "User": "replies",
          "Where": "replies",
          "TableService": "service"}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'table' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value
