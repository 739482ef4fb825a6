"""The frozen :class:`RulesConfig`: the merged rules data of one game variant, the type every
rules function takes, and the bundled rules data file it is read from.

Loading a file, applying overrides and validating every section is
:func:`riven_env.rules.config.load_rules` (which re-exports these names): it sits above the
modules that parse the sections, and they only need the type, so the type stands here, below
them all.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from riven_env.errors import RulesDataError
from riven_env.files import read_toml

DEFAULT_RULES_FILE = "riven-v0.1.toml"
"""Name of the bundled rules data file inside ``riven_env/rules/data``."""


@dataclass(frozen=True, eq=False)
class RulesConfig:
    """The validated rules data of one game variant.

    Treat ``raw`` as read-only: the object is shared by every copy of a game state.
    Equality and hashing use a fingerprint of the merged data, so a ``RulesConfig`` can key
    caches (``functools.lru_cache``) and two loads of the same data compare equal.

    Attributes:
        raw: The merged rules data (defaults file plus overrides) as nested dicts.
        source: The path of the TOML file the data came from.
        overrides: The overrides applied, as canonical dotted keys to coerced values.
        fingerprint: SHA-256 of the canonical JSON of ``raw``.
    """

    raw: dict[str, Any]
    source: str
    overrides: Mapping[str, object] = field(default_factory=dict)
    fingerprint: str = ""

    def __post_init__(self) -> None:
        if not self.fingerprint:
            digest = hashlib.sha256(
                json.dumps(self.raw, sort_keys=True, default=str).encode("utf-8")
            ).hexdigest()
            object.__setattr__(self, "fingerprint", digest)
        # Values already looked up, by dotted key. The game asks for the same few dozen keys
        # tens of thousands of times per second; ``raw`` is read-only, so a hit returns the
        # very object a fresh walk would. Bounded by the number of keys in the data.
        object.__setattr__(self, "_memo", {})

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RulesConfig):
            return NotImplemented
        return self.fingerprint == other.fingerprint

    def get(self, dotted_key: str) -> Any:
        """Return the value at a dotted key such as ``"melee.charge_bonus"``.

        Raises:
            RulesDataError: The key does not exist; the message lists the keys that do at
                the deepest level reached.
        """
        try:
            return self._memo[dotted_key]
        except KeyError:
            pass
        node: Any = self.raw
        walked: list[str] = []
        for part in dotted_key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                here = ".".join(walked) or "<top level>"
                known = sorted(node) if isinstance(node, Mapping) else []
                raise RulesDataError(
                    f"{self.source}: unknown rules key {dotted_key!r} "
                    f"(no {part!r} under {here}; known: {', '.join(map(str, known)) or 'none'})"
                )
            node = node[part]
            walked.append(part)
        self._memo[dotted_key] = node
        return node

    def has(self, dotted_key: str) -> bool:
        """Return whether a dotted key exists in the data."""
        try:
            self.get(dotted_key)
        except RulesDataError:
            return False
        return True

    def section(self, dotted_key: str) -> Mapping[str, Any]:
        """Return the table at a dotted key, refusing a key that holds a plain value."""
        value = self.get(dotted_key)
        if not isinstance(value, Mapping):
            raise RulesDataError(f"{self.source}: {dotted_key} is a value, not a table")
        return value

    def to_dict(self) -> dict[str, Any]:
        """Return a deep copy of the merged data, safe to modify or serialise."""
        return copy.deepcopy(self.raw)


def default_rules_path() -> Path:
    """Return the path of the bundled rules data file."""
    return Path(str(resources.files("riven_env.rules") / "data" / DEFAULT_RULES_FILE))


@functools.lru_cache(maxsize=1)
def bundled_rules_data() -> dict[str, Any]:
    """The bundled rules file as parsed, before validation (the schema of known keys).

    Treat as read-only; it is shared.
    """
    return _read_toml(default_rules_path())


def _read_toml(path: Path) -> dict[str, Any]:
    return read_toml(path, what="rules file", error=RulesDataError)
