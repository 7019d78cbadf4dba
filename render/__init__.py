"""Renderers: a game view in, a PNG out (Pillow). One module per game registers ``render``.

``render(view, names, viewer)``: ``view`` is what engine ``view()`` returned for ``viewer`` (None: the
channel image), ``names`` maps seats to display names. Renderers draw only what the view holds, so an image
can never show more than its viewer may know.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from pathlib import Path

from PIL import Image

import i18n

from .common import IDLE_CACHES, captioned, to_png

Renderer = Callable[[dict, dict, "str | None"], Image.Image]
RENDERERS: dict[str, Renderer] = {}


def register(key: str):
    def wrap(fn: Renderer) -> Renderer:
        @functools.wraps(fn)
        def draw(*args, **kwargs):
            with i18n.playing(key):           # the game's own words first (#17)
                return fn(*args, **kwargs)
        RENDERERS[key] = draw
        return draw
    return wrap


def release() -> None:
    """Drop what helps a run of pictures (``IDLE_CACHES``: boards, glyph masks), so an idle worker's memory goes
    back to the system; the fonts stay."""
    for cache in IDLE_CACHES:
        cache.cache_clear()


def render_png(key: str, view: dict, names: dict, viewer: str | None = None,
               locale: str = i18n.DEFAULT, caption: str | None = None) -> bytes | None:
    """The PNG for a view, its words in ``locale``, under a strip saying ``caption`` if given; None when the
    game has no renderer (yet)."""
    fn = RENDERERS.get(key)
    if fn is None:
        return None
    with i18n.speaking(locale), i18n.playing(key):
        img = fn(view, names, viewer)
        return to_png(captioned(img, caption) if caption else img, key)


def _load() -> None:
    here = Path(__file__).parent
    for name in ("wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm", "analysis"):
        if (here / f"{name}.py").exists():
            importlib.import_module(f"{__name__}.{name}")


_load()
