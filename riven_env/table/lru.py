"""Bounded least-recently-used memory for derived geometry (memory traded for speed).

The tabletop keeps many answers that depend only on their key (a map's derived geometry,
route ends, terrain-only routes, wraps of bases that stand still...). Each lives in an
``OrderedDict`` used as an LRU cache; :func:`remembered` is the one way to read through it.
The sizes are data: ``[cache]`` in ``riven_env/table/data/geometry.toml``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

V = TypeVar("V")


def remembered(
    cache: OrderedDict[Hashable, V], key: Hashable, build: Callable[[], V], limit: int
) -> V:
    """The entry ``key`` of ``cache``, built by ``build()`` and stored when missing.

    A hit becomes the most recently used entry; a miss that makes the cache hold more than
    ``limit`` entries drops the least recently used ones.
    """
    found = cache.get(key)
    if found is None:
        found = cache[key] = build()
        while len(cache) > limit:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return found
