"""The encoding data (``riven_env/encoding/data/encoding.toml``), loaded and validated once.

The file holds the scales that bring raw game values into ``[-1, 1]``, feature switches, the
raster size and how the action catalogue reads the ``ref`` of each kind of candidate
destination. Every bad value raises :class:`EncodingDataError` naming the file, the key, the
value and what was allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from riven_env.errors import RivenError
from riven_env.files import read_toml

ENCODING_FILE = "encoding.toml"

REF_KINDS = ("enemy", "friend", "objective", "single", "none")
"""How a destination's ``ref`` is read: a model of the enemy side, of the own side, an
objective index, implied (at most one such destination at a time), or always absent."""

SCALE_KEYS = (
    "attribute",
    "mettle",
    "wounds",
    "move",
    "weapon_range",
    "weapon_modifier",
    "engaged",
    "points",
    "test_margin",
    "objective_points",
    "base",
)
_SECTIONS = frozenset({"scales", "features", "raster", "destinations", "entity"})
_ENTITY_KEYS = frozenset({"terrain_slots", "charge_paths"})
_MAX_TERRAIN_SLOTS = 1024
_FEATURE_KEYS = frozenset({"cover_vs_nearest_enemy"})
_RASTER_KEYS = frozenset({"size"})
_MAX_RASTER = 256


class EncodingDataError(RivenError):
    """The encoding data file holds a bad value; the message names the file and key."""


class CatalogueError(RivenError):
    """A decision cannot be placed in the action catalogue (the message says why)."""


@dataclass(frozen=True)
class EncodingConfig:
    """The validated contents of ``encoding.toml`` (plain dicts, so that it pickles; treat
    them as read-only).

    Attributes:
        scales: Divisor of each raw value (``SCALE_KEYS``), all positive.
        cover_vs_nearest_enemy: Whether the cover features are computed.
        raster_size: Cells per side of the optional table raster.
        destination_refs: Destination kind -> how its ref is read (one of ``REF_KINDS``),
            in file order (the catalogue's order).
        terrain_slots: Rows of the entity observation's ``terrain`` block.
        charge_paths: Whether the entity observation's ``charge_reach`` pair column plans
            the charge path (exact) or compares the straight-line edge gap (faster).
        source: Where the data came from (for messages).
    """

    scales: dict[str, float]
    cover_vs_nearest_enemy: bool
    raster_size: int
    destination_refs: dict[str, str]
    terrain_slots: int
    charge_paths: bool
    source: str

    def scale(self, key: str) -> float:
        """The divisor named ``key``."""
        return self.scales[key]


def _refuse_unknown(table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise EncodingDataError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")


def _section(raw: Mapping[str, Any], name: str, source: str) -> Mapping[str, Any]:
    table = raw.get(name)
    if not isinstance(table, Mapping):
        raise EncodingDataError(f"{source}: [{name}] is missing or not a table (got {table!r})")
    return table


def parse_encoding(raw: Mapping[str, Any], source: str) -> EncodingConfig:
    """Validate a parsed encoding document.

    Args:
        raw: The TOML document as a mapping.
        source: File name for messages.

    Returns:
        The configuration.

    Raises:
        EncodingDataError: A missing section or key, an unknown key or a bad value.
    """
    _refuse_unknown(raw, _SECTIONS, source)
    scales_raw = _section(raw, "scales", source)
    _refuse_unknown(scales_raw, frozenset(SCALE_KEYS), f"{source}: [scales]")
    scales: dict[str, float] = {}
    for key in SCALE_KEYS:
        value = scales_raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EncodingDataError(f"{source}: scales.{key} = {value!r}: expected a number > 0")
        if not math.isfinite(value) or value <= 0:
            raise EncodingDataError(f"{source}: scales.{key} = {value!r}: must be finite and > 0")
        scales[key] = float(value)

    features = _section(raw, "features", source)
    _refuse_unknown(features, _FEATURE_KEYS, f"{source}: [features]")
    cover = features.get("cover_vs_nearest_enemy")
    if not isinstance(cover, bool):
        raise EncodingDataError(
            f"{source}: features.cover_vs_nearest_enemy = {cover!r}: expected true or false"
        )

    raster = _section(raw, "raster", source)
    _refuse_unknown(raster, _RASTER_KEYS, f"{source}: [raster]")
    size = raster.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or not 4 <= size <= _MAX_RASTER:
        raise EncodingDataError(
            f"{source}: raster.size = {size!r}: expected an integer from 4 to {_MAX_RASTER}"
        )

    dests = _section(raw, "destinations", source)
    refs: dict[str, str] = {}
    for kind, ref in dests.items():
        if ref not in REF_KINDS:
            raise EncodingDataError(
                f"{source}: destinations.{kind} = {ref!r}: expected one of {list(REF_KINDS)}"
            )
        refs[kind] = ref
    if not refs:
        raise EncodingDataError(f"{source}: [destinations] names no destination kind")

    entity = _section(raw, "entity", source)
    _refuse_unknown(entity, _ENTITY_KEYS, f"{source}: [entity]")
    slots = entity.get("terrain_slots")
    if (
        isinstance(slots, bool)
        or not isinstance(slots, int)
        or not 1 <= slots <= _MAX_TERRAIN_SLOTS
    ):
        raise EncodingDataError(
            f"{source}: entity.terrain_slots = {slots!r}: expected an integer from 1 to "
            f"{_MAX_TERRAIN_SLOTS}"
        )
    paths = entity.get("charge_paths")
    if not isinstance(paths, bool):
        raise EncodingDataError(
            f"{source}: entity.charge_paths = {paths!r}: expected true or false"
        )
    return EncodingConfig(
        scales=scales,
        cover_vs_nearest_enemy=cover,
        raster_size=size,
        destination_refs=refs,
        terrain_slots=slots,
        charge_paths=paths,
        source=source,
    )


def load_encoding_config(path: str | Path | None = None) -> EncodingConfig:
    """Load an encoding file (default: the bundled ``encoding.toml``, cached).

    Raises:
        EncodingDataError: The file cannot be read or holds a bad value.
    """
    if path is None:
        return _bundled()
    source = str(path)
    raw = read_toml(source, what="encoding data file", error=EncodingDataError)
    return parse_encoding(raw, source)


@lru_cache(maxsize=1)
def _bundled() -> EncodingConfig:
    text = resources.files("riven_env.encoding").joinpath("data", ENCODING_FILE).read_text("utf-8")
    return parse_encoding(tomllib.loads(text), ENCODING_FILE)
