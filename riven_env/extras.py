"""Import optional dependencies with an error that names the extra to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from riven_env.errors import MissingExtraError


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming ``extra``.

    Args:
        module: Dotted module name, for example ``"stable_baselines3"``.
        extra: The ``riven-lab`` extra that installs it, for example ``"rl"``.
        feature: What needs it, in words, for the message.

    Returns:
        The imported module.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError(extra, module.split(".")[0], feature) from exc
