"""Cover levels and the two operations the rules apply to them.

Cover is ``"none"``, ``"soft"`` or ``"hard"`` (hard beats soft). The game's actions step
cover: "take cover" makes it one step better, "exposed" ignores it. Both are
:func:`cover_step` with a positive or a large negative number of steps.
"""

from __future__ import annotations

from riven_env.errors import TerrainError
from riven_env.table.config import COVER_LEVELS, Cover

__all__ = ["COVER_LEVELS", "Cover", "better_cover", "cover_rank", "cover_step"]


def cover_rank(cover: str) -> int:
    """The rank of a cover level: 0 none, 1 soft, 2 hard.

    Raises:
        TerrainError: ``cover`` is not a cover level.
    """
    try:
        return COVER_LEVELS.index(cover)  # type: ignore[arg-type]
    except ValueError:
        raise TerrainError(
            f"cover {cover!r} is not a cover level; allowed: {list(COVER_LEVELS)}"
        ) from None


def better_cover(a: Cover, b: Cover) -> Cover:
    """The better of two cover levels (hard beats soft beats none)."""
    return a if cover_rank(a) >= cover_rank(b) else b


def cover_step(cover: Cover, steps: int) -> Cover:
    """Move a cover level ``steps`` levels up (positive) or down (negative), clamped.

    Examples: ``cover_step("none", 1) == "soft"``; ``cover_step("hard", 1) == "hard"``;
    ``cover_step("hard", -len(COVER_LEVELS)) == "none"`` (ignore cover).
    """
    rank = min(max(cover_rank(cover) + int(steps), 0), len(COVER_LEVELS) - 1)
    return COVER_LEVELS[rank]
