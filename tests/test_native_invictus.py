"""The core's Invictus engine (cpp/riven/rules/systems/invictus.cpp) agrees with the Python one.

Seeded sweeps over pools, TNs, modifiers, roll facts (a fray, exposing Conditions, Critical
Health, the final round, Luck held, an opponent) and several variants of the ``[invictus]``
table: every roll, spend, Oracle choice and close runs on
:class:`~riven_env.rules.systems.invictus.InvictusResolution` with a numpy Generator and on
:class:`~riven_env.native.invictus.NativeInvictusResolution` with a Generator at the same
state; the records (pending roll, result with its aftermath and detail), the errors and the
stream state after each call must be identical. RIVEN's rolls that Invictus keeps (activation,
morale, Out checks, the Complication Oracle) are compared too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from riven_env.errors import RivenError
from riven_env.native import available
from riven_env.rules import load_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext
from riven_env.rules.results import Modifier
from riven_env.rules.systems.invictus import InvictusResolution

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

BASE = {"resolution": "invictus"}
VARIANTS: dict[str, dict[str, Any]] = {
    "bundled": {},
    "lucky": {
        "invictus.luck.start": 2,
        "invictus.luck.cap": 0,
        "invictus.luck.crit_gain": 2,
        "invictus.luck.raise_per_point": 2,
        "invictus.oracle.reserve": 1,
        "invictus.oracle.luck_lifts_to": "swing",
    },
    "harsh": {
        "invictus.pool.attribute_offset": -1,
        "invictus.pool.min_dice": 0,
        "invictus.pool.max_dice": 4,
        "invictus.pool.standard_tn": 9,
        "invictus.pool.tn_step": 3,
        "invictus.pool.steps_per_die": 1,
        "invictus.bands.miss_max": 2,
        "invictus.bands.swing_max": 4,
        "invictus.bands.crit_sixes": 3,
        "invictus.danger.max_dice": 2,
        "invictus.danger.soft_max": 4,
        "invictus.danger.fray_bite_face": 5,
        "invictus.danger.fray_bite_on": ["hit", "crit"],
        "invictus.health.deaths_door_overflow": 2,
        "invictus.health.critical_health_dice": 2,
        "invictus.health.reaction_kinds": ["resist", "rally"],
    },
    "moves-melee": {
        "invictus.moves.soft.effect": "complication",
        "invictus.moves.soft.amount": 0,
        "invictus.moves.hard.effect": "strain",
        "invictus.moves.hard.amount": 2,
        "invictus.melee.miss": "recoil",
        "invictus.melee.swing": "parry",
        "invictus.melee.hit": "critical",
        "invictus.melee.crit": "wound",
        "invictus.melee.wounds": 2,
        "invictus.melee.crit_wounds": 3,
        "invictus.danger.factors": ["exposed", "fray", "time_pressure"],
        "invictus.danger.exposed_conditions": ["dazed", "prone"],
        "invictus.luck.start": 1,
    },
}
KINDS = ("rally", "disengage", "interact", "shot", "resist", "stabilise")
ATTRIBUTES = ("might", "agility", "wit", "resolve")
CONDITIONS = ("exposed", "prone", "pinned", "dazed", "shaken", "aiming")


def _rules(name: str) -> RulesConfig:
    return load_rules(overrides={**BASE, **VARIANTS[name]})


@pytest.fixture(params=list(VARIANTS))
def engines(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    from riven_env.native.invictus import NativeInvictusResolution

    rules = _rules(request.param)
    return InvictusResolution(rules), NativeInvictusResolution(rules)


def _outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("value", function())
    except RivenError as error:
        return (type(error).__name__, str(error))


class Pair:
    """Both engines, each with a Generator at the same state."""

    def __init__(self, engines: tuple[Any, Any], seed: int) -> None:
        self.engines = engines
        self.rngs = (np.random.default_rng(seed), np.random.default_rng(seed))

    def same(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """``engine.method(*args, rng, **kwargs)`` on both: the same outcome (value, or error
        class and message) and the same stream state after it; returns the Python outcome."""
        (python, native), (rng_p, rng_n) = self.engines, self.rngs
        expected = _outcome(lambda: getattr(python, method)(*args, rng_p, **kwargs))
        got = _outcome(lambda: getattr(native, method)(*args, rng_n, **kwargs))
        assert got == expected
        assert rng_n.bit_generator.state == rng_p.bit_generator.state
        return expected[1]


def _profile(draw: np.random.Generator) -> ModelProfile:
    fields = {a: int(draw.integers(1, 6)) for a in ATTRIBUTES}
    fields.update(mettle=int(draw.integers(2, 7)), wounds=int(draw.integers(1, 4)))
    return ModelProfile.from_dict("p", fields, {}, "test")


def _modifiers(draw: np.random.Generator) -> tuple[Modifier, ...]:
    count = int(draw.integers(0, 4))
    return tuple(Modifier(f"m{k}", int(draw.integers(-3, 4))) for k in range(count))


def _context(draw: np.random.Generator, *, opponent: bool) -> RollContext:
    wounds_max = int(draw.integers(0, 5))
    conditions = tuple(
        CONDITIONS[int(k)] for k in draw.integers(0, len(CONDITIONS), int(draw.integers(0, 3)))
    )
    resources = {} if draw.random() < 0.15 else {"luck": int(draw.integers(0, 4))}
    return RollContext(
        engaged=bool(draw.random() < 0.4),
        opponent=_profile(draw) if opponent else None,
        conditions=conditions,
        wounds_left=int(draw.integers(0, wounds_max + 1)),
        wounds_max=wounds_max,
        final_round=bool(draw.random() < 0.3),
        resources=resources,
    )


def _play_out(roll_p: Any, draw: np.random.Generator, pair: Pair, luck: int | None) -> int:
    """Random spends (some illegal) on both engines until accept; the Oracle's view each step.

    Returns how many spends were applied."""
    python, native = pair.engines
    roll_n = roll_p
    spends = 0
    view = ChoiceView(model="m0", resources={} if luck is None else {"luck": luck})
    resources = view.resources or None
    while True:
        assert roll_n == roll_p and roll_n.band == roll_p.band and roll_n.total == roll_p.total
        options = python.spend_options(
            roll_p, momentum=0, strain=0, strain_max=0, resources=resources
        )
        assert (
            native.spend_options(roll_n, momentum=0, strain=0, strain_max=0, resources=resources)
            == options
        )
        assert native.oracle_choice(roll_n, options, view) == python.oracle_choice(
            roll_p, options, view
        )
        if not options or draw.random() < 0.25:
            break
        if draw.random() < 0.1:
            bad = ("favour:9", "luck:x", "boost", f"favour:{int(draw.integers(0, 6))}")
            option = bad[int(draw.integers(0, len(bad)))]
        else:
            option = options[int(draw.integers(0, len(options)))]
        got_p = pair.same("apply_spend", roll_p, option)
        if isinstance(got_p, str):  # an illegal option: the same error, the roll unchanged
            continue
        roll_p, roll_n = got_p, native.apply_spend(roll_n, option, None)
        spends += 1
    result_p, result_n = python.finalise(roll_p), native.finalise(roll_n)
    assert result_n == result_p
    assert result_n.aftermath == result_p.aftermath and result_n.detail == result_p.detail
    return spends


def test_setup_and_vocabulary_agree(engines: tuple[Any, Any]) -> None:
    python, native = engines
    draw = np.random.default_rng(3)
    for _ in range(20):
        profile = _profile(draw)
        assert native.starting_wounds(profile) == python.starting_wounds(profile)
        assert native.starting_resources(profile) == python.starting_resources(profile)
    assert native.choice_vocabulary() == python.choice_vocabulary()
    assert native.accept(None) is None and python.accept(None) is None


def test_tests_and_spends_agree(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(11)
    spends = 0
    for seed in range(400):
        pair = Pair(engines, seed)
        kind = KINDS[int(draw.integers(0, len(KINDS)))]
        attribute = ATTRIBUTES[int(draw.integers(0, len(ATTRIBUTES)))]
        value = int(draw.integers(0, 7))
        tn = int(draw.integers(4, 15))
        mods = _modifiers(draw)
        context = None if draw.random() < 0.1 else _context(draw, opponent=draw.random() < 0.6)
        roll = pair.same("roll_test", kind, attribute, value, tn, mods, context=context)
        luck = None if context is None else context.resources.get("luck")
        spends += _play_out(roll, draw, pair, luck)
    assert spends > 100


def test_melee_agrees(engines: tuple[Any, Any]) -> None:
    draw = np.random.default_rng(17)
    outcomes = set()
    for seed in range(400):
        pair = Pair(engines, seed)
        a_profile, d_profile = _profile(draw), _profile(draw)
        attacker = Combatant(
            a_profile,
            _modifiers(draw),
            _context(draw, opponent=False),
            {"luck": int(draw.integers(0, 4))},
        )
        defender = Combatant(d_profile, _modifiers(draw), _context(draw, opponent=False), {})
        roll = pair.same("start_melee", attacker, defender)
        _play_out(roll, draw, pair, attacker.resources["luck"])
        outcomes.add(engines[0].finalise(roll).outcome)
    assert len(outcomes) >= 2  # "harsh" (three 6s a Crit) rarely reaches a Crit


def test_rivens_rolls_agree(engines: tuple[Any, Any]) -> None:
    """Activation, morale, Out checks, Complications and shot TNs stay RIVEN's under Invictus."""
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


def test_the_core_refuses_rules_without_an_invictus_table() -> None:
    from riven_env.native import load
    from riven_env.native.rules import native_rules

    with pytest.raises(ValueError, match=r"no \[invictus\] table"):
        load().InvictusSystem(native_rules(load_rules()))


_RENAMED = {
    "danger.max_dice": "danger_max",
    "danger.fray_bite_face": "bite_face",
    "danger.fray_bite_on": "bite_on",
    "luck.start": "luck_start",
    "luck.crit_gain": "luck_crit_gain",
    "luck.cap": "luck_cap",
    "luck.raise_per_point": "luck_raise",
    "melee.wounds": "melee_wounds",
    "melee.crit_wounds": "melee_crit_wounds",
    "oracle.luck_lifts_to": "oracle_lifts_to",
    "oracle.reserve": "oracle_reserve",
}


def _native_invictus_value(native: Any, key: str) -> Any:
    """The native struct's value for ``invictus.KEY``."""
    if key in _RENAMED:
        return getattr(native, _RENAMED[key])
    table, _, name = key.partition(".")
    if table == "moves":
        kind, field = name.split(".")
        return getattr(getattr(native, kind), field)
    if table == "melee":
        return native.melee[("miss", "swing", "hit", "crit").index(name)]
    return getattr(native, name)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_invictus_key_reaches_the_native_struct(variant: str) -> None:
    from riven_env.native.rules import native_rules
    from riven_env.rules.config import leaf_keys

    rules = _rules(variant)
    config = native_rules(rules)
    assert config.has_invictus and config.system == "invictus" and config.prepared
    keys = [k for k in leaf_keys(rules.raw) if k.startswith("invictus.")]
    for dotted in keys:
        expected = rules.get(dotted)
        got = _native_invictus_value(config.invictus, dotted[len("invictus.") :])
        assert (list(got) if isinstance(expected, list) else got) == expected, dotted
    assert len(keys) == 34  # every key of invictus.toml
    assert not native_rules(load_rules()).has_invictus
