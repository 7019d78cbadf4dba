"""Every renderer's PNG output: a valid PNG of the drawn size, and the palette conversion (render.common.to_png)
keeps the player colours exactly, pixel for pixel. No timings here: speed is measured by bench/render.py."""

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import GAMES
from render import RENDERERS, render_png
from render.common import COMMON_COLOURS, GAME_COLOURS, PLAYER_COLOURS, PRIORITY_COLOURS, exact_palette, font, to_png
from render.seikatsu import PAGODA_COLOURS
from tests.test_render_phone import positions

# The colours that tell players apart: seats in order, or Seikatsu's pagodas.
PLAYERS = {"seikatsu": list(PAGODA_COLOURS.values())}
NAMES = {str(100 + i): n for i, n in enumerate(["Ann", "Bartholomew the Long-Named", "Cy", "Dee", "Éloïse", "Fu",
                                                 "Gao", "Hana"])}


def where(img: Image.Image, colour) -> Image.Image:
    """A mask (mode L, 255) of the pixels of ``img`` that are exactly ``colour``."""
    diff = ImageChops.difference(img, Image.new("RGB", img.size, colour)).split()
    most = ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2])
    return most.point(lambda v: 255 if v == 0 else 0)


def changed(a: Image.Image, b: Image.Image) -> Image.Image:
    """A mask (mode L, nonzero) of the pixels where ``a`` and ``b`` differ in any channel."""
    diff = ImageChops.difference(a, b).split()
    return ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2]).point(lambda v: 255 if v else 0)


def check_png(drawn: Image.Image, png: bytes, players=PLAYER_COLOURS, game: str | None = None) -> set:
    """Checks the PNG against the image it was made from; returns the player colours it checked. The colours
    kept exact: a game's picture, the common ones and the game's own (keep_exact); any other image, every
    priority colour it holds."""
    with Image.open(io.BytesIO(png)) as probe:
        probe.verify()
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.format == "PNG"
    assert decoded.size == drawn.size
    assert decoded.mode in ("P", "RGB")
    out = decoded.convert("RGB")
    held = {rgb for _, rgb in drawn.getcolors(1 << 24)}
    moved = changed(drawn, out)
    checked = {tuple(c) for c in players if tuple(c) in held}
    for colour in checked:   # every pixel of a player colour comes through unchanged
        assert ImageChops.multiply(moved, where(drawn, colour)).getbbox() is None, colour
    if decoded.mode == "P":
        palette = decoded.getpalette()
        entries = {tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)}
        assert checked <= entries
        exact = PRIORITY_COLOURS if game is None else COMMON_COLOURS + GAME_COLOURS.get(game, [])
        assert {c for c in exact if c in held} <= entries
    return checked


@pytest.mark.parametrize("key", sorted(set(RENDERERS) & set(GAMES)))    # the games' (the analysis graph: #37)
def test_png_is_valid_of_the_drawn_size_and_keeps_player_colours(key):
    game = GAMES[key]
    players = PLAYERS.get(key, PLAYER_COLOURS)
    checked = set()
    for n in sorted({2, game.max_players}):
        for state in positions(key, n, seed=n):
            for viewer in (None, state["seats"][-1]):
                view = game.view(state, viewer)
                drawn = RENDERERS[key](view, NAMES, viewer)
                png = render_png(key, view, NAMES, viewer)
                assert png == to_png(drawn, key)   # the palette render_png chose is kept and taken again
                checked |= check_png(drawn, png, players, key)
    assert len(checked) >= 2   # the images do show player colours, so the check above bit


def test_close_colours_and_antialiased_text_keep_player_colours_exact():
    """The hard case for a palette: thousands of colours, some one level away from a player colour."""
    img = Image.new("RGB", (600, 300), (246, 241, 230))
    draw = ImageDraw.Draw(img)
    for i in range(300):   # a ramp of 1,800 colours, many close to the player colours
        for j, base in enumerate(PLAYER_COLOURS[:6]):
            draw.line([(i * 2, j * 30), (i * 2, j * 30 + 28)],
                      fill=tuple(min(255, c + (i % 7) - 3 + i // 60) for c in base))
    for j, colour in enumerate(PLAYER_COLOURS):
        draw.rectangle([20 + j * 70, 200, 70 + j * 70, 240], fill=colour)
        draw.text((22 + j * 70, 250), "Ab1", font=font(22), fill=colour)
    assert len(img.getcolors(1 << 24)) > 256
    check_png(img, to_png(img))


def test_exact_palette_entries_map_to_themselves():
    colours = [(r, g, b) for r in range(0, 256, 3) for g in (0, 1, 2, 100, 101) for b in (7, 8, 200)]
    chosen = exact_palette(colours)
    assert 0 < len(chosen) <= 256 and len(set(chosen)) == len(chosen)
    img = Image.new("RGB", (len(chosen), 1))
    img.putdata(chosen)
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for c in chosen for v in c])
    assert list(img.quantize(palette=holder, dither=Image.Dither.NONE).convert("RGB").getdata()) == chosen


def test_images_with_too_many_colours_stay_rgb():
    img = Image.new("RGB", (300, 300))
    img.putdata([(i % 256, (i // 256) % 256, i // 65536 * 60) for i in range(300 * 300)])   # 90,000 colours
    with Image.open(io.BytesIO(to_png(img))) as out:
        assert out.mode == "RGB" and out.convert("RGB").tobytes() == img.tobytes()


def test_few_but_close_colours_keep_the_player_colour():
    """Under 256 colours, but one a level away from a player colour and in its lookup cell, nearer the cell's
    corner (Pillow would map the player colour to it): the player colour still comes through exactly."""
    player = PLAYER_COLOURS[1]   # (213, 94, 0): cell corner (212, 92, 0)
    near = (212, 93, 0)
    img = Image.new("RGB", (40, 20), player)
    img.paste(near, (0, 0, 40, 15))   # the near colour is the more frequent
    out = Image.open(io.BytesIO(to_png(img))).convert("RGB")
    assert out.getpixel((5, 18)) == player


def _counting(monkeypatch) -> list:
    """Counts the palettes chosen afresh (render.common.exact_palette calls)."""
    import render.common as common

    calls, chosen = [], common.exact_palette
    monkeypatch.setattr(common, "exact_palette", lambda *a, **k: calls.append(1) or chosen(*a, **k))
    return calls


def test_a_games_next_picture_takes_the_kept_palette_and_keeps_its_colours(monkeypatch):
    """A worker draws a run of pictures of the same game: the palette chosen for one picture is taken again
    for the next ones of that size whose common colours it was chosen among; player colours stay exact."""
    import random

    from render.common import PALETTES

    game = GAMES["wagara"]
    state, rnd, drawn = game.new(["100", "101", "102"], 4), random.Random(4), []
    for _ in range(16):                                 # a table's pictures, a move apart
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        drawn.append(RENDERERS["wagara"](game.view(state, None), NAMES, None))
    PALETTES.cache_clear()
    calls = _counting(monkeypatch)
    pngs = [to_png(img, "wagara") for img in drawn]
    assert len({img.size for img in drawn}) < len(drawn) and len(calls) < len(drawn) / 2
    for img, png in zip(drawn, pngs, strict=True):
        check_png(img, png, PLAYER_COLOURS, "wagara")


def test_a_new_colour_covering_much_of_a_picture_gets_a_palette_of_its_own(monkeypatch):
    from render.common import PALETTES

    PALETTES.cache_clear()
    calls = _counting(monkeypatch)
    img = Image.new("RGB", (600, 800), (246, 241, 230))
    ImageDraw.Draw(img).text((20, 20), "Ab1 " * 10, font=font(22), fill=(0, 0, 0))
    to_png(img, "wagara")
    assert len(calls) == 1
    to_png(img, "wagara")
    assert len(calls) == 1                              # the same colours: the kept palette
    other = img.copy()
    new = (91, 17, 140)                                 # in no palette so far, a tenth of the picture
    ImageDraw.Draw(other).rectangle([0, 400, 599, 479], fill=new)
    out = Image.open(io.BytesIO(to_png(other, "wagara"))).convert("RGB")
    assert len(calls) == 2 and out.getpixel((300, 440)) == new


def test_a_games_own_colours_stay_exact_even_as_a_line_the_colour_sample_misses():
    """Colours are counted on every fourth row and column of a table's picture; a game's own colours
    (keep_exact) go in its palette whatever the sample met, so a one-pixel line of one stays exact."""
    from render.common import GAME_COLOURS, PALETTES
    from render.wagara import GEM_COLOURS

    PALETTES.cache_clear()
    gem = tuple(next(iter(GEM_COLOURS.values())))
    assert gem in GAME_COLOURS["wagara"]
    img = Image.new("RGB", (800, 1200), (246, 241, 230))
    draw = ImageDraw.Draw(img)
    for i in range(300):                                # antialiased shades enough to fill a palette
        draw.text((10 + (i % 20) * 38, 40 + (i // 20) * 40), f"{i}", font=font(20),
                  fill=((i * 37) % 256, (i * 91) % 256, (i * 53) % 256))
    draw.line([(0, 1100), (799, 1100)], fill=gem)     # a row the sample skips
    out = Image.open(io.BytesIO(to_png(img, "wagara"))).convert("RGB")
    assert all(out.getpixel((x, 1100)) == gem for x in range(0, 800, 7))


@pytest.mark.parametrize("key", sorted(set(RENDERERS) & set(GAMES)))
def test_the_palette_png_is_the_picture_pillow_would_write_and_smaller(key, monkeypatch):
    """The palette PNG written here (one deflate call through zlib-ng) decodes to the very indices and
    palette Pillow's own writer gives; without zlib-ng, Pillow's writer is used."""
    import render.common as common

    game = GAMES[key]
    seats = ["100", "101", "102"][:max(game.min_players, 2)]
    state, rnd = game.new(seats, 6), random.Random(6)
    for _ in range(12):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    drawn = RENDERERS[key](game.view(state, None), NAMES, None)
    ours = to_png(drawn, key)
    monkeypatch.setattr(common, "zlib_ng", None)
    pillows = to_png(drawn, key)
    assert ours != pillows and len(ours) < len(pillows)
    with Image.open(io.BytesIO(ours)) as a, Image.open(io.BytesIO(pillows)) as b:
        a.load()
        b.load()
        assert a.mode == b.mode == "P" and a.size == b.size == drawn.size
        assert a.tobytes() == b.tobytes() and a.getpalette() == b.getpalette()
    check_png(drawn, ours, PLAYERS.get(key, PLAYER_COLOURS), key)
