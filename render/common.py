"""Drawing helpers shared by every renderer: fonts, labels, element symbols, dice, PNG output (the colours are
in render.colours).

Images are drawn to read on a phone, where Discord shows an attachment about 400 px wide: narrow images (600–800
px, panels stacked under the board) whose smallest text, 18 px, is still 9 px there (tests/test_render_phone.py
checks it with ``record_text``). WURRM turns a wide board a quarter so it runs down its 800 px image.
"""

from __future__ import annotations

import io
import math
import struct
import zlib
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from operator import itemgetter
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

try:
    from zlib_ng import zlib_ng
except ImportError:     # a platform without its wheel: Pillow's PNG writer, ~2.5 ms slower a picture
    zlib_ng = None

from engine.core import with_names  # noqa: F401  (the renderers name seats with it; it is plain text)

from .colours import BACKGROUND, ELEMENT_COLOURS, GRID, HIGHLIGHT, INK, MUTED, PLAYER_COLOURS, contrast, darken

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"

# Pillow can keep freed image blocks for the next image (PILLOW_BLOCKS_MAX); the renderers keep none. A kept
# block is resized to each new buffer, and a picture's buffers all differ in size (a tall sheet, a polygon mask,
# the crop, the colour sample, the palette copy), so glibc shrank and regrew its mapping: ~1,000 page faults a
# picture. Without kept blocks, glibc takes large buffers from its heap once it has seen one freed (its mmap
# threshold rises to that size) and reuses the heap's pages: 27 faults a picture, 9% less processor time a
# picture (14% at the 95th percentile), the same memory (docs/performance.md).

@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


# Text sizes drawn, for tests: while ``record_text`` is active every text drawn through Draw (all renderer text goes
# through Draw.text) adds its font size here, so a test can check the smallest text an image holds.
_TEXT_SIZES: ContextVar[list | None] = ContextVar("text_sizes", default=None)


@contextmanager
def record_text():
    """Within ``with record_text() as drawn:``, ``drawn`` collects (font size in px, text) for every text drawn."""
    sizes: list[tuple[int, str]] = []
    token = _TEXT_SIZES.set(sizes)
    try:
        yield sizes
    finally:
        _TEXT_SIZES.reset(token)


class Draw(ImageDraw.ImageDraw):
    """ImageDraw whose text comes from a cache of glyph masks: about a hundred labels per image, most of them
    the same from one image to the next (names, headings, numbers), and rasterising them was half the drawing
    time. A cached mask is blended exactly as ImageDraw.text blends a fresh one, so the pixels are the same.
    Only single-line plain text is cached; anything else goes to ImageDraw.text."""

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
        sizes = _TEXT_SIZES.get()
        if sizes is not None and text:
            sizes.append((getattr(font, "size", 10), text))
        if (args or kwargs or not isinstance(text, str) or "\n" in text or "\r" in text
                or not isinstance(font, ImageFont.FreeTypeFont)):
            return super().text(xy, text, fill, font, anchor, *args, **kwargs)
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is None:
            return None
        x, y = xy
        anchor = anchor or "la"
        fx, fy = math.modf(x)[0], math.modf(y)[0]
        mask, (ox, oy) = _glyphs(font, text, self.fontmode, anchor, fx, fy)
        self.draw.draw_bitmap((int(x) + ox, int(y) + oy), mask, ink)
        return None

    def polygon(self, xy, fill=None, outline=None, width=1) -> None:
        """As ImageDraw.polygon, whose outline wider than 1 px allocates and clears a mask the size of the whole
        image on every call; here one mask per image is kept and the polygon is wiped from it after use."""
        ink, fill_ink = self._getink(outline, fill)
        if ink is None or ink == fill_ink or width <= 1 or self.im is None:
            return super().polygon(xy, fill, outline, width)
        xy = xy if isinstance(xy, (list, tuple)) else list(xy)
        if fill_ink is not None:
            self.draw.draw_polygon(xy, fill_ink, 1)
        mask = getattr(self, "_mask", None)
        if mask is None:
            mask = self._mask = ImageDraw.Draw(Image.new("1", self.im.size))
        mask.draw.draw_polygon(xy, mask._getink(1)[0], 1)
        self.draw.draw_polygon(xy, ink, 0, width * 2 - 1, mask.im)
        mask.draw.draw_polygon(xy, mask._getink(0)[0], 1)
        return None

    def textlength(self, text, font=None, *args, **kwargs):
        if args or kwargs or not isinstance(text, str) or not isinstance(font, ImageFont.FreeTypeFont):
            return super().textlength(text, font, *args, **kwargs)
        return _length(font, text, "1" if self.mode in ("1", "P", "I", "F") else "L")


# ~2 kB a mask. 2,048 masks hold what 50 tables at once use (names, headings, numbers at their offsets): a
# larger cache hit hardly more often and only held more of each image worker's memory.
GLYPHS_CACHED = 2048


@lru_cache(maxsize=GLYPHS_CACHED)
def _glyphs(fnt, text: str, mode: str, anchor, fx: float, fy: float):
    return fnt.getmask2(text, mode, anchor=anchor, start=(fx, fy))


# caches that help a run of pictures and that a worker drops when it falls idle (render.release)
IDLE_CACHES: list = [_glyphs]   # and PALETTES, below


@lru_cache(maxsize=8192)
def _length(fnt, text: str, mode: str) -> float:
    return fnt.getlength(text, mode)


def canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, Draw(img)


# PNG output. A table image holds a few dozen flat colours plus the antialiasing shades of text and shapes
# (1–4 thousand colours in all), so it is written as a palette PNG: one byte a pixel instead of three, which
# Pillow deflates without per-row filter trials, several times faster and about half the bytes of RGB.
# The palette is exact for the colours that matter: every colour it holds comes through unchanged (player
# colours, grounds, ink), and only rare antialiasing shades are drawn with the nearest entry. A game's picture
# is cheaper still (to_palette with ``game``): its colours are counted on a quarter of its pixels and the
# palette of its previous picture is taken again when it fits (_Palettes); that halved the cost of a palette,
# a sixth of a picture's (docs/performance.md).
PNG_COMPRESS_LEVEL = 3   # on palette images: as fast as level 1, ~10% smaller; level 6 is 2–3× slower
PALETTE_SIZE = 256
MAX_COLOURS = 1 << 16    # more distinct colours than this (photos, gradients) stay RGB
PRIORITY_COLOURS: list[tuple[int, int, int]] = []   # always first in the palette when present: see keep_exact
GAME_COLOURS: dict[str, list[tuple[int, int, int]]] = {}   # a game's own colours that must stay exact
SAMPLE_ABOVE = 200_000   # pixels: a larger image's colours are counted on every other row and column (¼)
SAMPLE_FINER_ABOVE = 800_000   # pixels: a larger one's on every fourth (1/16: a table picture, ~1.2 million)
SAMPLE_COLOURS = MAX_COLOURS // 4   # a sample with more colours than this: counted again on the whole image
SHARE_KEPT = 1 / 4000    # a colour covering this share of an image must be one the palette was chosen among
FREQUENT_MOST = 160      # such colours carried from a game's earlier pictures to its next palette, at most


def keep_exact(*colours, game: str | None = None) -> None:
    """Colours that must survive palette conversion exactly even where they cover few pixels (player colours,
    element colours): they enter the palette first whenever the image holds them. With ``game``, they are that
    game's too: its pictures put them in the palette whether or not a sample of the image met them."""
    for c in colours:
        c = tuple(c[:3])
        if c not in PRIORITY_COLOURS:
            PRIORITY_COLOURS.append(c)
        if game is not None and c not in GAME_COLOURS.setdefault(game, []):
            GAME_COLOURS[game].append(c)


keep_exact(*PLAYER_COLOURS, *ELEMENT_COLOURS.values(), BACKGROUND, INK, MUTED, GRID, HIGHLIGHT)
COMMON_COLOURS = list(PRIORITY_COLOURS)   # every game's pictures hold these: seats, elements, ground and ink


def exact_palette(colours, size: int = PALETTE_SIZE, examined: set | None = None) -> list[tuple[int, int, int]]:
    """Up to ``size`` of ``colours`` (most important first) that Pillow's RGB→P conversion maps to themselves.

    Pillow looks a colour up through a cache of 4×4×4 cells, each holding the palette entry nearest the cell's
    low corner, so two close entries can steal each other's pixels. A colour is taken only if it is the
    nearest entry to its own cell corner and takes no earlier entry's cell (earlier entries win ties); every
    other colour of the image then maps to a near entry (antialiasing shades: a few levels off).
    Entries further apart than 2·3√3 cannot interfere, so each taken colour is filed under its own block of
    16×16×16 and the 26 around it, and a candidate is compared only with the entries filed under its block.
    ``examined``, if given, receives every colour looked at (taken or not) before the palette filled up."""
    chosen: list[tuple[int, int, int]] = []
    cells: set[int] = set()
    near: dict[int, list] = {}
    looked = examined.add if examined is not None else None
    for c in colours:
        if looked is not None:
            looked(c)
        r, g, b = c
        kr, kg, kb = r & ~3, g & ~3, b & ~3
        cell = (kr << 16) | (kg << 8) | kb
        if cell in cells:
            continue
        dc = (r - kr) ** 2 + (g - kg) ** 2 + (b - kb) ** 2
        block = ((r >> 4) << 16) | ((g >> 4) << 8) | (b >> 4)
        fine = True
        for er, eg, eb in near.get(block, ()):
            if (er - r) ** 2 + (eg - g) ** 2 + (eb - b) ** 2 > 108:   # > (2 · 3√3)²: cannot interfere
                continue
            ekr, ekg, ekb = er & ~3, eg & ~3, eb & ~3
            if ((er - kr) ** 2 + (eg - kg) ** 2 + (eb - kb) ** 2 <= dc
                    or (r - ekr) ** 2 + (g - ekg) ** 2 + (b - ekb) ** 2
                    < (er - ekr) ** 2 + (eg - ekg) ** 2 + (eb - ekb) ** 2):
                fine = False
                break
        if fine:
            chosen.append(c)
            cells.add(cell)
            for d in _AROUND:
                near.setdefault(block + d, []).append(c)
            if len(chosen) == size:
                break
    return chosen


# Offsets of a 16×16×16 block and its 26 neighbours in the packed block number (r << 16 | g << 8 | b, each
# field 0–15, so a step past an edge lands on a number no real block has).
_AROUND = [(dr << 16) + (dg << 8) + db for dr in (-1, 0, 1) for dg in (-1, 0, 1) for db in (-1, 0, 1)]


class _Palette:
    """A palette chosen for one picture of a game, kept for the next ones: the holder image Pillow maps
    through, every colour exact_palette looked at to choose it, and the colours that covered a fair share of
    the pictures it was chosen for (they stay first when the next palette of the game is chosen)."""

    __slots__ = ("holder", "examined", "frequent")

    def __init__(self, palette: list, examined: set, frequent: list) -> None:
        self.holder = Image.new("P", (1, 1))
        self.holder.putpalette([v for rgb in palette for v in rgb])
        self.examined = examined
        self.frequent = frequent


class _Palettes:
    """The palette last chosen for each game and image size, in a worker that draws a run of pictures (the
    size stands for the layout: a game's tables with as many seats draw the same panels in the same places).

    Choosing a palette (exact_palette, in Python) was the largest single cost of a picture, and the next
    picture of the same game holds nearly the same colours: its flat colours are the same, only antialiasing
    shades come and go. So a picture takes the kept palette when every colour covering at least SHARE_KEPT of
    it was among those the kept palette was chosen from (taken exactly, or found too close to a taken one);
    its rarer shades map to their nearest entry, as they would with a palette of its own. Any other picture
    gets a palette of its own, which is kept in turn."""

    SIZE = 32

    def __init__(self) -> None:
        self._kept: dict = {}

    def get(self, family, counted: list, pixels: int):
        kept = self._kept.get(family)
        if kept is None:
            return None
        least = pixels * SHARE_KEPT
        examined = kept.examined
        for n, rgb in counted:          # most frequent first
            if n < least:
                return kept
            if rgb not in examined:
                return None
        return kept

    def kept(self, family) -> _Palette | None:
        return self._kept.get(family)

    def put(self, family, palette: _Palette) -> None:
        self._kept.pop(family, None)
        if len(self._kept) >= self.SIZE:
            self._kept.pop(next(iter(self._kept)))
        self._kept[family] = palette

    def cache_clear(self) -> None:
        self._kept.clear()


PALETTES = _Palettes()
IDLE_CACHES.append(PALETTES)


def counted_colours(img: Image.Image, sampled: bool) -> tuple[list | None, int]:
    """The colours of ``img`` with their counts, most frequent first, and the pixels counted: on a large image
    with ``sampled``, those of every other row and column (a quarter of the work), or every fourth on a table's
    picture (a colour too rare to be met there is too rare to need an entry of its own: against every other,
    1.0 ms less a picture, 1.69% of pixels drawn with a near entry instead of 1.64%, and a palette chosen
    afresh for 19% of pictures instead of 18%). None: too many colours for a palette."""
    pixels = img.width * img.height
    counted = None
    if sampled and pixels > SAMPLE_ABOVE:
        step = 4 if pixels > SAMPLE_FINER_ABOVE else 2
        sample = img.resize((img.width // step, img.height // step), Image.Resampling.NEAREST)
        counted = sample.getcolors(SAMPLE_COLOURS)
        pixels = sample.width * sample.height
    if counted is None:
        pixels = img.width * img.height
        counted = img.getcolors(MAX_COLOURS)
        if counted is None:
            return None, pixels
    counted.sort(key=itemgetter(0), reverse=True)
    return counted, pixels


def to_palette(img: Image.Image, game: str | None = None) -> Image.Image:
    """``img`` as a palette image whose palette holds its important colours exactly (see exact_palette), or
    ``img`` itself when it is not RGB or has too many colours for a palette to look the same.

    With ``game`` (a game's picture, drawn by its renderer): the game's own colours (keep_exact) are in the
    palette whatever the image holds, so its colours can be counted on a sample, and the palette of the
    game's previous picture of that size is used again when it fits (_Palettes)."""
    if img.mode != "RGB":
        return img
    counted, pixels = counted_colours(img, sampled=game is not None)
    if counted is None:
        return img
    family = (game, img.size) if game is not None else None
    kept = PALETTES.get(family, counted, pixels) if family is not None else None
    if kept is None:
        if game is not None:
            # the game's colours, then those covering a fair share of this picture or of the game's earlier
            # ones of this size (a seat's panel tint comes back as turns go round), then the rest by count
            least = pixels * SHARE_KEPT
            frequent = [rgb for n, rgb in counted if n >= least]
            old = PALETTES.kept(family)
            if old is not None and len(old.frequent) + len(frequent) <= FREQUENT_MOST:
                now = set(frequent)
                frequent += [rgb for rgb in old.frequent if rgb not in now]
            first = COMMON_COLOURS + [c for c in GAME_COLOURS.get(game, ()) if c not in COMMON_COLOURS]
            order = first + frequent + [rgb for _, rgb in counted]
        else:   # even with 256 colours or fewer, two close ones could share a lookup cell: exact_palette decides
            present = {rgb for _, rgb in counted}
            frequent = []
            order = [c for c in PRIORITY_COLOURS if c in present] + [rgb for _, rgb in counted]
        examined: set = set()
        palette = exact_palette(order, examined=examined)
        if family is not None:     # kept: only what a later picture's check can ask for (memory: ~10 kB)
            fair = pixels * SHARE_KEPT / 8
            examined = {rgb for n, rgb in counted if n >= fair and rgb in examined}.union(frequent)
        kept = _Palette(palette, examined, frequent)
        if family is not None:
            PALETTES.put(family, kept)
    return img.quantize(palette=kept.holder, dither=Image.Dither.NONE)


def to_png(img: Image.Image, game: str | None = None) -> bytes:
    out = to_palette(img, game)
    if out.mode == "P" and zlib_ng is not None and "transparency" not in out.info:
        return palette_png(out)
    buf = io.BytesIO()
    out.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


# A palette image's PNG, written here rather than by Pillow: Pillow hands its deflater one row at a time, and
# on a table picture (~1,500 rows) those calls, not the compression, took most of its ~5 ms. Here the rows,
# each after its filter byte (0: none; palette images gain nothing from filters), are deflated in one call by
# zlib-ng (the library Pillow's own wheels use): ~1.5 ms at level 2, and 3–10% smaller than Pillow's level 3.
PNG_DEFLATE_LEVEL = 2


def palette_png(img: Image.Image) -> bytes:
    """``img`` (mode P, no transparency) as a PNG: 8 bits a pixel, its palette, one IDAT chunk."""
    width, height = img.size
    lines = Image.new("P", (width + 1, height), 0)   # column 0: each row's filter byte
    lines.paste(img, (1, 0))
    palette = bytes(img.getpalette() or [0, 0, 0])
    head = struct.pack("!IIBBBBB", width, height, 8, 3, 0, 0, 0)   # 8 bits, palette colour, deflate, no interlace
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", head), _chunk(b"PLTE", palette[:768]),
                     _chunk(b"IDAT", zlib_ng.compress(lines.tobytes(), PNG_DEFLATE_LEVEL)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(data, zlib.crc32(kind)))


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt) -> tuple[int, int]:
    l, t, r, b = draw.textbbox((0, 0), text, font=fnt)
    return r - l, b - t


def text_centered(draw, xy, text, fnt, fill=INK, **kw) -> None:
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm", **kw)


def fit_text(draw, text: str, max_width: int, size: int, bold: bool = False, min_size: int = 18):
    """The largest font (from ``size`` down) in which ``text`` fits ``max_width``; the text is cut with an
    ellipsis if even ``min_size`` is too wide (long display names)."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if draw.textlength(text, font=f) <= max_width:
            return text, f
    f = font(min_size, bold)
    while text and draw.textlength(text + "…", font=f) > max_width:
        text = text[:-1]
    return text + "…", f


def wrap_lines(draw, text: str, max_width: int, fnt) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``max_width`` (a single word too long stays whole)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and draw.textlength(trial, font=fnt) > max_width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines


def wrap_words(draw, text: str, max_width: int, fnt) -> list[str]:
    """As wrap_lines, with any run of white space in ``text`` taken as one space."""
    return wrap_lines(draw, " ".join(text.split()), max_width, fnt)


def fit_lines(draw, text: str, max_width: int, size: int, bold: bool = False, min_size: int = 18,
              max_lines: int = 2) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``text`` on one line in the largest font from ``size`` down to ``min_size``; failing that, wrapped onto up
    to ``max_lines`` lines at ``min_size`` (the last one cut with an ellipsis if still too long)."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if draw.textlength(text, font=f) <= max_width:
            return [text], f
    f = font(min_size, bold)
    lines = wrap_lines(draw, text, max_width, f)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    lines[-1] = fit_text(draw, lines[-1], max_width, min_size, bold, min_size)[0]
    return lines, f


def banner(draw, width: int, text: str, colour=INK, height: int = 56, y: int = 0) -> None:
    """A strip across the top saying whose turn it is or how the game ended: one line when it fits at 20 px or
    more, else two lines (so long names never shrink it below what a phone can read)."""
    draw.rectangle([0, y, width, y + height], fill=colour)
    lines, f = fit_lines(draw, text, width - 24, 30, bold=True, min_size=20)
    step = f.size + 4
    top = y + height / 2 - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        text_centered(draw, (width // 2, top + i * step), line, f, fill=contrast(colour))


CAPTION_HEIGHT = 48


def captioned(img: Image.Image, text: str, colour=MUTED) -> Image.Image:
    """``img`` under a strip that says ``text`` (a review's "Move 5 of 40"), on one line at 18 px or more:
    every renderer's image takes it the same way, so none of them needs to know about reviews."""
    out, draw = canvas(img.width, img.height + CAPTION_HEIGHT, colour)
    out.paste(img.convert("RGB"), (0, CAPTION_HEIGHT))
    line, f = fit_text(draw, text, img.width - 24, 26, bold=True, min_size=18)
    text_centered(draw, (img.width // 2, CAPTION_HEIGHT // 2), line, f, fill=contrast(colour))
    return out


def element_symbol(draw: ImageDraw.ImageDraw, element: str, centre, size: float, fill=None,
                   outline=None) -> None:
    """The element as the classic Wu Xing shape, filled with its colour, so colour-blind players can tell
    them apart too: Wood a tall rectangle (a trunk), Fire a triangle (a flame), Earth a square, Metal a
    circle, Water waves."""
    cx, cy = centre
    col = fill or ELEMENT_COLOURS[element]
    line = outline or darken(col, 0.35)
    h = size / 2
    w = max(2, int(size / 12))
    if element == "wood":
        draw.rounded_rectangle([cx - h * 0.42, cy - h, cx + h * 0.42, cy + h], radius=h * 0.2, fill=col,
                               outline=line, width=w)
        for k in (-0.4, 0.2):  # rings of the trunk
            draw.line([cx - h * 0.25, cy + h * k, cx + h * 0.25, cy + h * (k - 0.15)], fill=line, width=w)
    elif element == "fire":
        draw.polygon([(cx, cy - h), (cx + h * 0.95, cy + h * 0.85), (cx - h * 0.95, cy + h * 0.85)],
                     fill=col, outline=line, width=w)
    elif element == "earth":
        draw.rectangle([cx - h * 0.82, cy - h * 0.82, cx + h * 0.82, cy + h * 0.82], fill=col, outline=line,
                       width=w)
    elif element == "metal":
        draw.ellipse([cx - h * 0.9, cy - h * 0.9, cx + h * 0.9, cy + h * 0.9], fill=col, outline=line, width=w)
    elif element == "water":
        for dy in (-0.5, 0.0, 0.5):
            pts = []
            for i in range(25):
                x = cx - h * 0.95 + i * (1.9 * h / 24)
                pts.append((x, cy + h * dy + math.sin(i / 24 * 2 * math.pi * 1.5) * h * 0.18))
            draw.line(pts, fill=col, width=max(3, int(size / 7)), joint="curve")
    else:
        raise ValueError(f"unknown element {element!r}")


def pips(draw, centre, size: float, value: int, colour=INK) -> None:
    """Die pips for 1–6 inside a square of side ``size`` centred on ``centre``."""
    cx, cy = centre
    o = size * 0.27
    spots = {
        1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    r = size * 0.09
    for dx, dy in spots:
        x, y = cx + dx * o, cy + dy * o
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def die(draw, centre, size: float, value: int, colour=(255, 255, 255), pip_colour=None, outline=INK) -> None:
    """A six-sided die face."""
    cx, cy = centre
    h = size / 2
    draw.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=size * 0.18, fill=colour, outline=outline,
                           width=max(2, int(size / 20)))
    pips(draw, centre, size, value, pip_colour or contrast(colour))


def hexagon(centre, size: float, pointy: bool = True) -> list[tuple[float, float]]:
    """Corner points of a hex of circumradius ``size`` (matches engine.hexgrid.to_pixel)."""
    cx, cy = centre
    start = 30 if pointy else 0
    return [(cx + size * math.cos(math.radians(start + 60 * i)), cy + size * math.sin(math.radians(start + 60 * i)))
            for i in range(6)]
