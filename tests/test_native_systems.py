"""What every ported dice system's core engine shares with the Python one (each system of
tests/native_systems.py, each variant of its table): RIVEN's rolls that the system keeps agree,
the core refuses rules without the system's table, and every key of the table reaches the native
struct. A system's own sweeps (tests, spends, melee) are tests/test_native_<system>.py's.
"""

from __future__ import annotations

import numpy as np
import pytest

from riven_env.native import available
from riven_env.rules import load_rules

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

from native_systems import SYSTEMS, Pair, system_variants  # noqa: E402


@pytest.mark.parametrize(("system", "variant"), system_variants())
def test_rivens_rolls_agree(system: str, variant: str) -> None:
    """Activation, morale, Out checks, Complications and shot TNs stay RIVEN's under the system."""
    engines = SYSTEMS[system].engines(variant)
    python, native = engines
    draw = np.random.default_rng(23)
    for seed in range(200):
        pair = Pair(engines, seed)
        mettle = int(draw.integers(1, 7))
        pair.same("roll_activation", mettle, int(draw.integers(1, 4)))
        pair.same("roll_morale", mettle)
        pair.same("roll_out_check", mettle)
        pair.same("roll_complication")
    for cover in ("none", "soft", "hard"):
        assert native.shot_tn(cover) == python.shot_tn(cover)
    for band in ("miss", "partial", "hit", "critical"):
        assert native.shot_effect(band) == python.shot_effect(band)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_core_refuses_rules_without_the_systems_table(system: str) -> None:
    from riven_env.native import load
    from riven_env.native.rules import native_rules

    s = SYSTEMS[system]
    with pytest.raises(ValueError, match=rf"no \[{s.table}\] table"):
        getattr(load(), s.core_class)(native_rules(load_rules()))


@pytest.mark.parametrize(("system", "variant"), system_variants())
def test_every_key_reaches_the_native_struct(system: str, variant: str) -> None:
    from riven_env.native.rules import native_rules
    from riven_env.rules.config import leaf_keys

    s = SYSTEMS[system]
    rules = s.rules(variant)
    config = native_rules(rules)
    assert getattr(config, f"has_{s.table}") and config.system == s.name and config.prepared
    prefix = f"{s.table}."
    keys = [k for k in leaf_keys(rules.raw) if k.startswith(prefix)]
    for dotted in keys:
        if dotted[len(prefix) :] in s.unread:
            continue
        expected = rules.get(dotted)
        got = s.native_value(getattr(config, s.table), dotted[len(prefix) :])
        assert (list(got) if isinstance(expected, list) else got) == expected, dotted
    assert len(keys) == s.keys
    assert not getattr(native_rules(load_rules()), f"has_{s.table}")
