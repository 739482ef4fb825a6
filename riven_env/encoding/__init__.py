"""Observation encoder and action catalogue shared by every learning interface.

The Gymnasium env, the PettingZoo env and agents that run trained policies all see the game
through these two objects, so that a policy trained in one runs unchanged in the others:

* :class:`ObservationEncoder`: a game state as fixed-size, side-relative float32 arrays;
* :class:`ActionCatalogue`: every decision as one index of a fixed ``Discrete`` space, with
  the legal-action mask.

numpy only: this package never imports gymnasium, pettingzoo, torch or matplotlib. Sizes and
scales come from ``riven_env/encoding/data/encoding.toml``; ``docs/environments.md``
documents every feature and catalogue entry.
"""

from __future__ import annotations

from riven_env.encoding.catalogue import ActionCatalogue
from riven_env.encoding.config import (
    CatalogueError,
    EncodingConfig,
    EncodingDataError,
    load_encoding_config,
)
from riven_env.encoding.layout import Layout, build_layout
from riven_env.encoding.observation import ObservationEncoder
from riven_env.encoding.raster import RASTER_CHANNELS, table_raster

__all__ = [
    "RASTER_CHANNELS",
    "ActionCatalogue",
    "CatalogueError",
    "EncodingConfig",
    "EncodingDataError",
    "Layout",
    "ObservationEncoder",
    "build_layout",
    "load_encoding_config",
    "table_raster",
]
