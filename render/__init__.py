"""Renderers: a game view in, a PNG out (Pillow). One module per game registers ``render``.

``render(view, names, viewer)``: ``view`` is what engine ``view()`` returned for ``viewer`` (None: the
channel image), ``names`` maps seats to display names. Renderers draw only what the view holds, so an image
can never show more than its viewer may know.

The renderers and Pillow load when first needed (``RENDERERS``, ``render_png``), not with this package: the
bot imports ``render.workers`` to hand pictures to its workers and draws nothing itself, so Pillow (~9 MB)
stays out of its memory unless it draws (a profile card, a replay, a picture without workers).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import i18n

if TYPE_CHECKING:
    from PIL import Image

Renderer = Callable[[dict, dict, "str | None"], "Image.Image"]
_RENDERERS: dict[str, Renderer] = {}     # filled as the renderer modules load (``register``)
_loaded = False


def register(key: str):
    def wrap(fn: Renderer) -> Renderer:
        @functools.wraps(fn)
        def draw(*args, **kwargs):
            with i18n.playing(key):           # the game's own words first (#17)
                return fn(*args, **kwargs)
        _RENDERERS[key] = draw
        return draw
    return wrap


def renderers() -> dict[str, Renderer]:
    """Every game's renderer by game key, the renderer modules loaded on the first call."""
    global _loaded
    if not _loaded:
        here = Path(__file__).parent
        for name in ("wassamasaw", "wagara", "mywuxing", "seikatsu", "wurrm", "analysis"):
            if (here / f"{name}.py").exists():
                importlib.import_module(f"{__name__}.{name}")
        _loaded = True
    return _RENDERERS


def __getattr__(name: str):
    if name == "RENDERERS":           # ``from render import RENDERERS``: the renderers, loaded
        return renderers()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def release() -> None:
    """Drop what helps a run of pictures (``IDLE_CACHES``: boards, glyph masks), so an idle worker's memory goes
    back to the system; the fonts stay."""
    from .common import IDLE_CACHES

    for cache in IDLE_CACHES:
        cache.cache_clear()


def render_png(key: str, view: dict, names: dict, viewer: str | None = None,
               locale: str = i18n.DEFAULT, caption: str | None = None) -> bytes | None:
    """The PNG for a view, its words in ``locale``, under a strip saying ``caption`` if given; None when the
    game has no renderer (yet)."""
    fn = renderers().get(key)
    if fn is None:
        return None
    from .common import captioned, to_png

    with i18n.speaking(locale), i18n.playing(key):
        img = fn(view, names, viewer)
        return to_png(captioned(img, caption) if caption else img, key)
