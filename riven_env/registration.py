"""Register ``riven/Skirmish-v0`` and ``-v1`` with Gymnasium on ``import riven_env``, without importing it.

``import riven_env`` must make ``gym.make("riven/Skirmish-v0")`` work (as ``import minigrid``
or ``import ale_py`` do), yet the rules, tabletop, game and encoding layers, and the package
itself, must never import gymnasium (``tests/test_import_purity.py``). Gymnasium 1.x no
longer loads ``gymnasium.envs`` entry-point plugins, so an installed entry point would not
help either. Instead:

* if gymnasium is already imported, the environment is registered at once;
* otherwise a one-shot import hook waits for ``import gymnasium`` and registers the
  environment right after gymnasium's own ``__init__`` has run.

Either way gymnasium is imported only by whoever imports it, and the registration is the same
as ``import riven_env.envs`` performs (which calls :func:`register_env` too).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

ENV_ID = "riven/Skirmish-v0"
#: Version 1: entity observations (per-model rows, pairwise rows, terrain, the action mask).
ENV_ID_V1 = "riven/Skirmish-v1"
ENTRY_POINT = "riven_env.envs.gym_env:RivenSkirmishEnv"
# Each id's default constructor arguments (a caller's own arguments override them).
ENV_KWARGS: dict[str, dict[str, Any]] = {ENV_ID: {}, ENV_ID_V1: {"obs_mode": "entity"}}


def register_env(gymnasium: ModuleType | None = None) -> None:
    """Register ``riven/Skirmish-v0`` and ``-v1`` with gymnasium (a no-op when already there)."""
    if gymnasium is None:
        import gymnasium
    for env_id, kwargs in ENV_KWARGS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=ENTRY_POINT,
                # Episodes end with the game; the env truncates itself
                # (episode.max_learner_steps).
                max_episode_steps=None,
                disable_env_checker=False,
                kwargs=dict(kwargs),
            )


class _RegisteringLoader(importlib.abc.Loader):
    """Gymnasium's own loader, followed by :func:`register_env` once the module has run."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        register_env(module)

    def __getattr__(self, name: str) -> Any:  # get_resource_reader, is_package, ...
        return getattr(self._loader, name)


class _GymnasiumImportHook(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` as the other finders do, with a loader that then registers."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "gymnasium":
            return None
        _remove_hook()  # one shot, and find_spec below must not find this finder again
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _RegisteringLoader(spec.loader)
        return spec


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _GymnasiumImportHook)]


def register_on_gymnasium_import() -> None:
    """Register now if gymnasium is loaded, else as soon as it is imported (idempotent)."""
    loaded = sys.modules.get("gymnasium")
    if loaded is not None and hasattr(loaded, "registry"):
        register_env(loaded)
        return
    if not any(isinstance(f, _GymnasiumImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _GymnasiumImportHook())


__all__ = [
    "ENTRY_POINT",
    "ENV_ID",
    "ENV_ID_V1",
    "register_env",
    "register_on_gymnasium_import",
]
