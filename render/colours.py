"""The renderers' colours: the paper and ink every image shares, the player and element colours (chosen to stay
apart for the common colour-vision deficiencies), and the shades computed from a colour."""

from __future__ import annotations

BACKGROUND = (246, 241, 230)      # warm paper
INK = (40, 36, 32)
MUTED = (120, 112, 100)
GRID = (190, 180, 160)
HIGHLIGHT = (255, 196, 0)

# Player colours: distinct hues that stay apart for the common colour-vision deficiencies.
PLAYER_COLOURS = [
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermilion
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky blue
    (100, 100, 100),  # grey
    (240, 228, 66),   # yellow
]

ELEMENT_COLOURS = {
    "wood": (46, 139, 60),
    "fire": (214, 48, 39),
    "earth": (196, 140, 40),
    "metal": (140, 150, 160),
    "water": (30, 90, 190),
}


def contrast(colour) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else (255, 255, 255)


def lighten(colour, amount: float = 0.5):
    return tuple(int(c + (255 - c) * amount) for c in colour[:3])


def darken(colour, amount: float = 0.3):
    return tuple(int(c * (1 - amount)) for c in colour[:3])
