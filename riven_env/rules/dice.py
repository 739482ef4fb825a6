"""d6 helpers over a caller-supplied :class:`numpy.random.Generator`.

No module here owns randomness: every roll draws from the Generator passed in, so the same
seed gives the same game byte for byte. Results are plain Python ints (JSON-ready).
"""

from __future__ import annotations

import numpy as np

DEFAULT_FACES = 6


def roll_die(rng: np.random.Generator, faces: int = DEFAULT_FACES) -> int:
    """Roll one die with ``faces`` faces."""
    return int(rng.integers(1, faces + 1))


def roll_dice(rng: np.random.Generator, count: int, faces: int = DEFAULT_FACES) -> tuple[int, ...]:
    """Roll ``count`` dice with ``faces`` faces; ``count == 0`` rolls nothing."""
    if count <= 0:
        return ()
    # One scalar draw per die: a sized draw costs more (numpy checks the size in Python) and
    # takes the very same values from the stream, die by die.
    high = faces + 1
    return tuple([int(rng.integers(1, high)) for _ in range(count)])


def roll_2d6(rng: np.random.Generator, faces: int = DEFAULT_FACES) -> tuple[int, int]:
    """Roll two dice (the 2d6 test engine and melee)."""
    first, second = roll_dice(rng, 2, faces)
    return (first, second)
