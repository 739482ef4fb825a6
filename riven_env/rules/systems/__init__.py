"""Other games' dice engines, each a :class:`~riven_env.rules.resolution.ResolutionSystem`.

Each module registers itself (``register_resolution``) when imported; the registry imports
this package the first time a system is looked up. To add a system, add its module name to
:data:`SYSTEM_MODULES` (``docs/resolution-systems.md``, "Adding a system").
"""

from __future__ import annotations

import importlib

SYSTEM_MODULES: tuple[str, ...] = ("invictus", "new_world", "riddle_of_steel")
"""Modules of this package that register a system, in registration order."""

for _module in SYSTEM_MODULES:
    importlib.import_module(f"{__name__}.{_module}")
