"""The Five Elements and their two cycles (RULES.md §0), shared by Wassamasaw and MyWuXing."""

from __future__ import annotations

ELEMENTS = ("wood", "fire", "earth", "metal", "water")

# Feeding cycle: each feeds the next.
FEEDS = {"wood": "fire", "fire": "earth", "earth": "metal", "metal": "water", "water": "wood"}
# Overcoming cycle: each destroys the next.
DESTROYS = {"water": "fire", "fire": "metal", "metal": "wood", "wood": "earth", "earth": "water"}

FED_BY = {b: a for a, b in FEEDS.items()}
DESTROYED_BY = {b: a for a, b in DESTROYS.items()}


def feeds(a: str, b: str) -> bool:
    return FEEDS[a] == b


def destroys(a: str, b: str) -> bool:
    return DESTROYS[a] == b


def relation(a: str, b: str) -> str:
    """How ``a`` stands to ``b``: 'same', 'feeds', 'fed_by', 'destroys' or 'destroyed_by'.

    For two different elements exactly one of the four relations holds (RULES.md §0).
    """
    if a == b:
        return "same"
    if feeds(a, b):
        return "feeds"
    if feeds(b, a):
        return "fed_by"
    if destroys(a, b):
        return "destroys"
    return "destroyed_by"
