"""Run a rule test module against both engines: the Python reference and the native core.

``ENGINES`` parametrises a fixture; :func:`use_engine` swaps the module's rule functions for
their native twins (:mod:`riven_env.native.rules`, same names and signatures), and
:func:`use_native_resolution` puts the core behind a game's resolution seam. The native
runs are skipped where the core is not built.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

import pytest

from riven_env.native import available

ENGINES = [
    "python",
    pytest.param(
        "native", marks=pytest.mark.skipif(not available(), reason="native core not built")
    ),
]


def use_engine(
    engine: str,
    namespace: MutableMapping[str, Any],
    names: Iterable[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under ``engine == "native"``, point ``names`` in ``namespace`` at the native functions."""
    if engine != "native":
        return
    from riven_env.native import rules as native_rules

    for name in names:
        monkeypatch.setitem(namespace, name, getattr(native_rules, name))


def use_native_resolution(state: Any) -> Any:
    """Put the core's dice engine behind a game's resolution seam (``state.resolution``)."""
    from riven_env.native.rules import native_resolution

    state.resolution = native_resolution(state.rules)
    return state
