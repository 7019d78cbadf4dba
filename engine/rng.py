"""Seeded randomness that lives inside the game state.

The generator is PCG32 (O'Neill 2014): 64 bits of state, kept as a plain int under ``state["rng"]`` so
``dump``/``load`` carry it and a game replays exactly from its seed and action log. It never leaves the
state: no view may show it (RULES.md §0).
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_INC = 1442695040888963407  # any odd constant; fixed so the state is a single int


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int, folded into 64 bits)."""
    state = 0
    state = (state * _MULT + _INC) & _MASK64
    state = (state + (int(seed) & _MASK64)) & _MASK64
    return (state * _MULT + _INC) & _MASK64


class Rng:
    """A view onto ``state["rng"]``: every draw advances the int stored in the game state."""

    __slots__ = ("_state",)

    def __init__(self, state: dict):
        self._state = state

    def _next32(self) -> int:
        old = self._state["rng"]
        self._state["rng"] = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """Uniform int in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = (1 << 32) % n
        while True:
            r = self._next32()
            if r >= threshold:
                return r % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform int in [lo, hi], both ends included."""
        return lo + self.below(hi - lo + 1)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def choice(self, items: list):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
