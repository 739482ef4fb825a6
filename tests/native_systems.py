"""The ported dice systems, for the tests that hold the core's engine against the Python one.

:data:`SYSTEMS` names each resolution system whose dice engine is in the core (``meta.resolution``
to :class:`System`): its rules table, its Python and native resolutions, its core class, the
variants of its table the sweeps run under, and how each key of the table is found in the
core's struct. :class:`Pair` runs one call on both engines, each with a Generator at the same
state. The tests every system shares (RIVEN's rolls kept, the table refused when missing,
every key carried) are tests/test_native_systems.py's, parametrized over :data:`SYSTEMS`; a
system's own sweeps are in tests/test_native_<system>.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from riven_env.errors import RivenError
from riven_env.rules import load_rules
from riven_env.rules.config import RulesConfig
from riven_env.rules.results import Modifier

KINDS = ("rally", "disengage", "interact", "shot", "resist", "stabilise")
ATTRIBUTES = ("might", "agility", "wit", "resolve")


def load_class(path: str) -> type:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class System:
    """One ported system, as the equivalence tests see it."""

    name: str
    """``meta.resolution``."""
    table: str
    """The rules table (``[invictus]``), the prefix of its keys and the native struct's name."""
    python: str
    """The Python resolution, ``module:Class``."""
    native: str
    """The core's resolution (a ``NativeSystemResolution``), ``module:Class``."""
    core_class: str
    """The core's class of the dice engine (``InvictusSystem``)."""
    variants: Mapping[str, Mapping[str, Any]]
    """Overrides of the table the sweeps run under, by name (``bundled``: none)."""
    keys: int
    """How many keys the bundled table has."""
    renamed: Mapping[str, str]
    """The keys (without the table) that the native struct names otherwise: its field's name."""
    nested: Callable[[Any, str], Any]
    """The native struct's value of any other key (a field of the same name, or nested)."""
    unread: tuple[str, ...] = ()
    """Keys of the bundled table the Python engine does not read either (nothing to carry)."""
    choice_phase: bool = False
    """Its melee is the game's choice phase, which the environments refuse."""
    marks: tuple[str, ...] = ()
    """What marks a line of a game's log as the system's roll (beside its ``detail``'s
    ``"system": NAME``): its melee's events, where they carry no ``system`` key."""

    def rules(self, variant: str) -> RulesConfig:
        return load_rules(overrides={"resolution": self.name, **self.variants[variant]})

    def native_value(self, native: Any, key: str) -> Any:
        """The native struct's value of ``TABLE.KEY`` (``key`` without the table)."""
        if key in self.renamed:
            return getattr(native, self.renamed[key])
        return self.nested(native, key)

    def engines(self, variant: str) -> tuple[Any, Any]:
        """The Python and the core's resolution under ``variant``."""
        rules = self.rules(variant)
        return load_class(self.python)(rules), load_class(self.native)(rules)


def engines_fixture(system: System) -> Any:
    """A fixture ``engines``: ``system``'s Python and core resolutions, once per variant."""

    @pytest.fixture(params=list(system.variants))
    def engines(request: pytest.FixtureRequest) -> tuple[Any, Any]:
        return system.engines(request.param)

    return engines


def outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    """``("value", result)``, or the error's class name and message."""
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
        expected = outcome(lambda: getattr(python, method)(*args, rng_p, **kwargs))
        got = outcome(lambda: getattr(native, method)(*args, rng_n, **kwargs))
        assert got == expected
        assert rng_n.bit_generator.state == rng_p.bit_generator.state
        return expected[1]


def modifiers(draw: np.random.Generator) -> tuple[Modifier, ...]:
    """Up to three modifiers, each -3 to +3."""
    count = int(draw.integers(0, 4))
    return tuple(Modifier(f"m{k}", int(draw.integers(-3, 4))) for k in range(count))


def roll_test_on_both(pair: Pair, draw: np.random.Generator, context: Callable[..., Any]) -> Any:
    """A random test (kind, attribute, value, TN, modifiers, a context from ``context`` or
    none) rolled on both engines; returns the pending roll and its context."""
    kind = KINDS[int(draw.integers(0, len(KINDS)))]
    attribute = ATTRIBUTES[int(draw.integers(0, len(ATTRIBUTES)))]
    value = int(draw.integers(0, 7))
    tn = int(draw.integers(4, 15))
    mods = modifiers(draw)
    found = None if draw.random() < 0.1 else context(draw, opponent=draw.random() < 0.6)
    return pair.same("roll_test", kind, attribute, value, tn, mods, context=found), found


def setup_agrees(engines: tuple[Any, Any], profiles: list[Any]) -> None:
    """Both engines' starting wounds and resources of each profile, and their vocabularies."""
    python, native = engines
    for profile in profiles:
        assert native.starting_wounds(profile) == python.starting_wounds(profile)
        assert native.starting_resources(profile) == python.starting_resources(profile)
    assert native.choice_vocabulary() == python.choice_vocabulary()


def same_options(
    engines: tuple[Any, Any],
    roll_p: Any,
    roll_n: Any,
    view: Any,
    resources: Mapping[str, int] | None = None,
) -> list[str]:
    """Both engines' options for their pending roll and the Oracle's choice among them agree;
    returns the options."""
    python, native = engines
    options = python.spend_options(roll_p, momentum=0, strain=0, strain_max=0, resources=resources)
    assert (
        native.spend_options(roll_n, momentum=0, strain=0, strain_max=0, resources=resources)
        == options
    )
    assert native.oracle_choice(roll_n, options, view) == python.oracle_choice(
        roll_p, options, view
    )
    return list(options)


def pick_option(
    draw: np.random.Generator, options: list[str], bad: Callable[[], tuple[str, ...]]
) -> str:
    """One of ``options``, or now and then one of ``bad()`` (options the rules refuse)."""
    if draw.random() < 0.1:
        refused = bad()
        return refused[int(draw.integers(0, len(refused)))]
    return options[int(draw.integers(0, len(options)))]


def same_close(engines: tuple[Any, Any], roll_p: Any, roll_n: Any) -> None:
    """Both engines close their roll alike: the result, its aftermath and its detail (the order
    of the detail's keys too)."""
    python, native = engines
    result_p, result_n = python.finalise(roll_p), native.finalise(roll_n)
    assert result_n == result_p
    assert result_n.aftermath == result_p.aftermath
    assert list(result_n.detail.items()) == list(result_p.detail.items())


# ---------------------------------------------------------------- Invictus

_INVICTUS_RENAMED = {
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
    """The native struct's value for ``invictus.KEY`` (not renamed)."""
    table, _, name = key.partition(".")
    if table == "moves":
        kind, field = name.split(".")
        return getattr(getattr(native, kind), field)
    if table == "melee":
        return native.melee[("miss", "swing", "hit", "crit").index(name)]
    if table == "cover":
        return dict(native.cover_score)[name.split(".")[1]]
    return getattr(native, name)


INVICTUS = System(
    name="invictus",
    table="invictus",
    python="riven_env.rules.systems.invictus:InvictusResolution",
    native="riven_env.native.invictus:NativeInvictusResolution",
    core_class="InvictusSystem",
    variants={
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
            "invictus.cover.score.soft": -2,
            "invictus.cover.score.hard": -5,
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
    },
    keys=36,  # every key of invictus.toml
    renamed=_INVICTUS_RENAMED,
    nested=_native_invictus_value,
)


# ---------------------------------------------------------------- New World

_NEW_WORLD_RENAMED = {
    "characteristic.offset": "characteristic_offset",
    "rank.default": "rank_default",
    "difficulty.offset": "difficulty_offset",
    "passive.base": "passive_base",
    "melee.characteristic": "melee_characteristic",
    "melee.critical_margin": "melee_critical_margin",
    "helpers.max": "helpers_max",
    "helpers.bonus_each": "helper_bonus",
    "helpers.kinds": "helper_kinds",
    "luck.default": "luck_default",
    "luck.per_point": "luck_per_point",
    "oracle.helpers_unless_sure": "oracle_sure",
    "oracle.luck_max_per_roll": "oracle_luck_max",
}


def _native_new_world_value(native: Any, key: str) -> Any:
    """The native struct's value for ``new_world.KEY`` (not renamed)."""
    table, _, name = key.partition(".")
    if table == "rank":
        return dict(native.rank_by_keyword)[name]
    if table == "luck":
        return dict(native.luck_by_keyword)[name]
    if name.startswith("cover_modifier."):
        return dict(native.cover_modifier)[name.split(".")[1]]
    return getattr(native, name)


NEW_WORLD = System(
    name="new-world",
    table="new_world",
    python="riven_env.rules.systems.new_world:NewWorldResolution",
    native="riven_env.native.new_world:NativeNewWorldResolution",
    core_class="NewWorldSystem",
    variants={
        "bundled": {},
        # Every number moved, every switch flipped: no snake-eyes rule, a Partial band, a
        # striking defender, other characteristics, cover that helps, a lower roll limit.
        "turned": {
            "new_world.roll.snake_eyes_fails": False,
            "new_world.roll.roll_limit": 6,
            "new_world.roll.modifier_limit": 1,
            "new_world.characteristic.offset": 0,
            "new_world.rank.default": 0,
            "new_world.rank.leader": 1,
            "new_world.rank.hero": 3,
            "new_world.rank.elite": 1,
            "new_world.rank.minion": 2,
            "new_world.difficulty.offset": 1,
            "new_world.difficulty.critical_margin": 3,
            "new_world.difficulty.partial_within": 2,
            "new_world.passive.base": 6,
            "new_world.passive.shot_characteristic": "wit",
            "new_world.passive.cover_modifier.none": 1,
            "new_world.passive.cover_modifier.soft": 0,
            "new_world.passive.cover_modifier.hard": -3,
            "new_world.melee.characteristic": "agility",
            "new_world.melee.wound_margin": 2,
            "new_world.melee.critical_margin": 4,
            "new_world.melee.defender_strikes_back": True,
        },
        # Helpers everywhere and dear, plenty of Luck, an Oracle that helps and spends more.
        "helping": {
            "new_world.helpers.max": 1,
            "new_world.helpers.bonus_each": 2,
            "new_world.helpers.kinds": ["rally", "interact", "disengage", "shot", "stabilise"],
            "new_world.helpers.shared_risk_margin": 2,
            "new_world.helpers.shared_risk_strain": 2,
            "new_world.luck.default": 3,
            "new_world.luck.hero": 5,
            "new_world.luck.leader": 0,
            "new_world.luck.per_point": 2,
            "new_world.oracle.helpers_unless_sure": 20,
            "new_world.oracle.luck_max_per_roll": 4,
            "new_world.melee.defender_strikes_back": True,
        },
        "no-help": {
            "new_world.helpers.bonus_each": 0,
            "new_world.helpers.shared_risk_strain": 0,
            "new_world.luck.default": 0,
            "new_world.oracle.luck_max_per_roll": 0,
        },
    },
    keys=33,  # every key of new-world.toml
    renamed=_NEW_WORLD_RENAMED,
    nested=_native_new_world_value,
)

# ---------------------------------------------------------------- The Riddle of Steel


def _ros_table(native: Any) -> dict[str, Any]:
    """The native struct read back in the shape of the ``[riddle_of_steel]`` table."""

    def dtn(d: Any) -> Any:
        return d.dtn if d.source == "number" else d.source

    return {
        "dice": {
            k: getattr(native, k)
            for k in ("faces", "stack_on", "max_stacks", "fumble_ones", "min_tn")
        },
        "attributes": {a.name: {"from": a.from_, "offset": a.offset} for a in native.attributes},
        "proficiency": {
            "base": native.proficiency_base,
            "min": native.proficiency_min,
            "feint_min": native.feint_min,
        },
        "tests": {
            "attribute_for": dict(native.test_attribute_for),
            "modifier_dice": native.test_modifier_dice,
            "min_dice": native.test_min_dice,
            "tn_for_riven_tn": {str(k): v for k, v in native.tn_for_riven_tn},
            "bands": dict(native.bands),
        },
        "shooting": {"atn": native.shot_atn, "cover_tn": dict(native.cover_tn)},
        "melee": {
            **{
                k: getattr(native, k)
                for k in (
                    "exchanges",
                    "modifier_dice",
                    "ignore_modifier_sources",
                    "feint_cost",
                    "feint_die_cost_near",
                    "feint_die_cost_far",
                    "counter_bonus",
                    "counter_fail_extra_successes",
                    "stand_steal_cost",
                    "duck_weave_pool_loss",
                    "fumble_pool_loss",
                    "knockdown_tn_per_margin",
                    "knockdown_condition",
                    "bleeding_condition",
                    "max_wound_level",
                )
            },  # fmt: skip
            "attacks": {
                a.name: {"extra": a.extra, "bonus_dice": a.bonus_dice, "damage": a.damage}
                for a in native.attacks
            },
            "defences": {
                d.name: {"dtn": dtn(d), "cost": d.cost, "needs_shield": d.needs_shield}
                for d in native.defences
            },
        },
        "zones": {z.zone: {"name": z.name, "near": z.near} for z in native.zones},
        "weapons": {
            w.name: {"atn": w.atn, "dtn": w.dtn, "dr": w.dr, "shield": w.shield}
            for w in native.weapons
        },
        "weapon_traits": {
            t.name: {"dr": t.dr, **({"shield": t.shield} if t.sets_shield else {})}
            for t in native.weapon_traits
        },
        "shields": {
            s.name: {"dtn": s.dtn, "passive_av": s.passive_av, "zones": s.zones}
            for s in native.shields
        },
        "damage": {
            row.zone: {
                str(level): {
                    "shock": c.shock,
                    "pain": c.pain,
                    "bl": c.bl,
                    "wounds": c.wounds,
                    "effect": c.effect,
                    "text": c.text,
                }
                for level, c in enumerate(row.levels, start=1)
            }
            for row in native.damage
        },
        "oracle": {
            "default_stance": native.default_stance,
            "stances": dict(native.stances_by_profile),
            "stance": {
                s.name: {
                    "first_attack_share": s.first_attack_share,
                    "defence_share": s.defence_share,
                }
                for s in native.stances
            },
        },
    }


def _native_ros_value(native: Any, key: str) -> Any:
    """The native struct's value for ``riddle_of_steel.KEY``."""
    found: Any = _ros_table(native)
    for part in key.split("."):
        found = found[part]
    return found


R = "riddle_of_steel."

RIDDLE_OF_STEEL = System(
    name="riddle-of-steel",
    table="riddle_of_steel",
    python="riven_env.rules.systems.riddle_of_steel:RiddleOfSteelResolution",
    native="riven_env.native.riddle_of_steel:NativeRiddleOfSteelResolution",
    core_class="RiddleOfSteelSystem",
    variants={
        "bundled": {},
        # Every kind of number moved: fewer stacks and a one-1 Fumble, other offsets and bands,
        # a third exchange, dear Feints, the other counter reading, other losses, a wounding head.
        "turned": {
            f"{R}dice.max_stacks": 1,
            f"{R}dice.fumble_ones": 1,
            f"{R}dice.min_tn": 3,
            f"{R}attributes.brawn.offset": 1,
            f"{R}attributes.wits.from": "resolve",
            f"{R}proficiency.base": 9,
            f"{R}proficiency.min": 2,
            f"{R}proficiency.feint_min": 5,
            f"{R}tests.attribute_for.might": "presence",
            f"{R}tests.modifier_dice": 2,
            f"{R}tests.min_dice": 2,
            f"{R}tests.tn_for_riven_tn.8": 7,
            f"{R}tests.bands.partial": 2,
            f"{R}tests.bands.hit": 3,
            f"{R}tests.bands.critical": 5,
            f"{R}shooting.atn": 7,
            f"{R}shooting.cover_tn.soft": 2,
            f"{R}melee.exchanges": 3,
            f"{R}melee.modifier_dice": 2,
            f"{R}melee.ignore_modifier_sources": ["weapon:"],
            f"{R}melee.feint_cost": 2,
            f"{R}melee.feint_die_cost_near": 2,
            f"{R}melee.feint_die_cost_far": 3,
            f"{R}melee.counter_bonus": "attacker_dice",
            f"{R}melee.counter_fail_extra_successes": 2,
            f"{R}melee.stand_steal_cost": 1,
            f"{R}melee.duck_weave_pool_loss": 0.34,
            f"{R}melee.fumble_pool_loss": 1.0,
            f"{R}melee.knockdown_tn_per_margin": 3,
            f"{R}melee.knockdown_condition": "stunned",
            f"{R}melee.bleeding_condition": "dazed",
            f"{R}melee.attacks.thrust.bonus_dice": 2,
            f"{R}melee.attacks.swing_heavy.extra": 2,
            f"{R}melee.defences.dodge_stand.dtn": 6,
            f"{R}melee.defences.counter.cost": 1,
            f"{R}weapons.spear.dr": 3,
            f"{R}weapon_traits.heavy.dr": 2,
            f"{R}shields.heater.passive_av": 6,
            f"{R}damage.V.3.effect": "knockdown",
            f"{R}damage.default.2.wounds": 1,
            f"{R}oracle.default_stance": "guarded",
            f"{R}oracle.stance.bold.first_attack_share": 0.25,
            f"{R}oracle.stance.balanced.defence_share": 0.75,
        },
        # Few dice, many stacks: pools run dry, knockdowns and steals come often.
        "lean": {
            f"{R}dice.max_stacks": 5,
            f"{R}proficiency.base": 5,
            f"{R}melee.stand_steal_cost": 0,
            f"{R}melee.knockdown_tn_per_margin": 5,
            f"{R}melee.duck_weave_pool_loss": 1.0,
            f"{R}melee.fumble_pool_loss": 0.0,
        },
    },
    keys=374,  # every key of riddle-of-steel.toml
    renamed={},
    nested=_native_ros_value,
    # The file's name and version (labels). The quickstart's numbers once noted beside the
    # manoeuvre tables (melee.thrust_damage...) are gone: melee.attacks / melee.defences hold
    # them as the engine reads them (tests/test_system_data_keys.py keeps every key read).
    unread=("meta.name", "meta.version"),
    choice_phase=True,
    marks=('"type": "ros_exchange"',),
)

SYSTEMS: dict[str, System] = {s.name: s for s in (INVICTUS, NEW_WORLD, RIDDLE_OF_STEEL)}
"""Every ported system but RIVEN's own, by ``meta.resolution``."""


def system_variants() -> list[tuple[str, str]]:
    """``(system, variant)`` for every variant of every ported system (test parameters)."""
    return [(s.name, v) for s in SYSTEMS.values() for v in s.variants]
