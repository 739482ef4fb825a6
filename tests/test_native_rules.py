"""The native rules engine (cpp/riven/rules) agrees with the Python engine, draw for draw.

Seeded sweeps over attributes, dice counts, modifiers, weapons, Conditions and every rules
variant: each call runs on the Python function with a numpy Generator and on its native twin
(riven_env/native/rules.py) with a core Pcg64 at the same state, and both the result and the
stream state after the call must be identical. Errors must be the same class with the same
message. The scripted-dice rule tests run on both engines too (test_rules_engine.py,
test_rules_fidelity.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import riven_env.native.rules as N
import riven_env.rules as P
from riven_env.errors import IllegalActionError, ProfileError, RivenError
from riven_env.native import NativeUnavailableError, available
from riven_env.native.random import native_stream, numpy_state
from riven_env.rules import Modifier, load_rules
from riven_env.rules.config import RulesConfig, leaf_keys
from riven_env.rules.profiles import Weapon
from riven_env.rules.validation import validate_rules

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")


def _custom_rules() -> RulesConfig:
    """A designer's rules: a fourth cover level, a new Condition, trait and difficulty."""
    raw = copy.deepcopy(load_rules().raw)
    raw["shooting"]["cover_order"] = ["none", "soft", "hard", "fortified"]
    raw["shooting"]["cover_tn"]["fortified"] = 14
    raw["shooting"]["effects"]["critical"]["push_distance"] = 4.5
    raw["shooting"]["effects"]["hit"]["shooter_exposed"] = True
    raw["conditions"]["blinded"] = {
        "description": "Cannot see.",
        "test_modifier": -2,
        "shot_modifier": -3,
        "melee_modifier": -1,
        "move_penalty": 0.5,
        "max_actions": 2,
        "max_dice": 1,
        "forbids": ["shoot", "aim"],
        "cover_against_shots": "+1",
        "end_of_turn_wound_check": True,
        "expires": "end_of_side_turn",
        "removed_by": ["rest", "rally"],
    }
    raw["weapons"]["traits"]["brutal"] = {
        "melee_modifier": 2,
        "charge_modifier": -1,
        "defend_modifier": 1,
        "shot_modifier": 2,
        "cover_steps": 2,
    }
    raw["test"]["difficulty"]["heroic"] = 14
    raw["strain"]["overflow_table"]["3"] = "blinded"
    raw["momentum"]["cost"]["bonus_action"] = 3
    raw["complications"]["table"]["1"] = {
        "name": "Blinding dust",
        "text": "The model gains Blinded.",
        "effect": "condition",
        "amount": 0,
        "condition": "blinded",
        "flavour": {"scifi": "Sensor whiteout."},
    }
    validate_rules(raw, "custom-rules.toml")
    return RulesConfig(raw=raw, source="custom-rules.toml")


def _d8_rules() -> RulesConfig:
    """Eight-sided dice and five activation dice (SBH, three failures pass the turn)."""
    base = load_rules(
        overrides={"activation.max_dice": 5, "sbh_failures_to_pass": 3, "turnover": "sbh"}
    )
    raw = copy.deepcopy(base.raw)
    raw["dice"]["faces"] = 8
    raw["strain"]["overflow_table"].update({"7": "dazed", "8": "prone"})
    table = raw["complications"]["table"]
    table.update({"7": dict(table["2"]), "8": dict(table["3"])})
    validate_rules(raw, "d8-rules.toml")
    return RulesConfig(raw=raw, source="d8-rules.toml")


VARIANTS: dict[str, RulesConfig] = {
    "bundled": load_rules(),
    "sbh": load_rules(overrides={"activation.turnover": "sbh"}),
    "sbh-printed": load_rules(
        overrides={"turnover": "sbh", "sbh_no_success_passes": False, "sbh_failures_to_pass": 1}
    ),
    "spends-loose": load_rules(
        overrides={
            "momentum.boost_ceiling": "critical",
            "momentum.max_boosts_per_test": 2,
            "momentum.max_rerolls_per_test": 2,
            "momentum.cost.reroll": 0,
            "momentum.gain.critical": 2,
            "momentum.cost.bonus_action": 3,
            "momentum.cap": 9,
        }
    ),
    "spends-tight": load_rules(
        overrides={
            "momentum.boost_ceiling": "partial",
            "momentum.max_rerolls_per_test": 0,
            "strain.spend_may_overflow": False,
            "strain.spend_cost": 3,
            "strain.rest_removes": 1,
            "strain.track_per_wit": 3,
        }
    ),
    "bands-melee": load_rules(
        overrides={
            "test.bands.miss_max": -5,
            "test.bands.partial_max": -1,
            "test.bands.hit_max": 2,
            "melee.critical_ratio": 3,
            "melee.critical_loser_floor": 4,
            "melee.wound_margin": 3,
            "melee.wound_wounds": 2,
            "melee.critical_wounds": 3,
            "melee.charge_bonus": 1,
            "melee.outnumbered_penalty": 2,
            "melee.recoil_distance": 1.5,
            "melee.critical_condition": "shaken",
        }
    ),
    "morale-flight": load_rules(
        overrides={
            "morale.flee_dice": 2,
            "morale.flee_base": 1.5,
            "morale.flight_route": "around",
            "morale.triggers.recoiled.enabled": False,
            "morale.triggers.friend_lost.radius": 4.5,
            "shooting.into_melee_needs_adjacent_friend": False,
            "momentum.bonus_mode": "replace",
            "momentum.pool": "side",
            "momentum.solo_hero_pool": "side",
            "engagement.forbids": ["move", "charge", "shoot", "aim"],
            "distances.stabilise_range": 2.5,
        }
    ),
    "custom": _custom_rules(),
    "d8": _d8_rules(),
}
RULE_IDS = list(VARIANTS)


@pytest.fixture(params=RULE_IDS)
def rules(request: pytest.FixtureRequest) -> RulesConfig:
    return VARIANTS[request.param]


class Pair:
    """One Generator for the Python engine and a core stream at the same state."""

    def __init__(self, seed: int) -> None:
        self.gen = np.random.default_rng(seed)
        self.stream = native_stream(self.gen)

    def same(self, python: Callable[[Any], Any], native: Callable[[Any], Any]) -> Any:
        """Run both; identical outcome (value, or error class and message) and stream state."""
        expected = _outcome(python, self.gen)
        got = _outcome(native, self.stream)
        assert got == expected
        assert numpy_state(self.stream) == self.gen.bit_generator.state
        return expected[1]


def _names(rules: RulesConfig, key: str) -> list[str]:
    return [str(name) for name in rules.section(key)]


def _outcome(function: Callable[[Any], Any], rng: Any) -> tuple[str, Any]:
    try:
        return ("value", function(rng))
    except RivenError as error:
        return (type(error).__name__, str(error))


def _agree(python: Callable[..., Any], native: Callable[..., Any], *args: Any) -> Any:
    """The same outcome of ``python(*args)`` and ``native(*args)`` (value or error and message)."""
    expected = _outcome(lambda _: python(*args), None)
    assert _outcome(lambda _: native(*args), None) == expected
    return expected


def _modifiers(draw: np.random.Generator) -> list[Modifier]:
    return [Modifier(f"m{k}", int(draw.integers(-3, 4))) for k in range(int(draw.integers(0, 4)))]


def _conditions(draw: np.random.Generator, rules: RulesConfig) -> tuple[str, ...]:
    names = sorted(P.condition_specs(rules))
    count = int(draw.integers(0, 4))
    # Repeats on purpose: a model holds a set, and the engines read it as one.
    return tuple(names[int(draw.integers(0, len(names)))] for _ in range(count))


def _weapon(draw: np.random.Generator, rules: RulesConfig, kind: str) -> Weapon | None:
    if draw.random() < 0.2:
        return None
    traits = sorted(P.weapon_traits(rules))
    chosen = frozenset(t for t in traits if draw.random() < 0.3)
    reach = 0.0 if kind == "melee" else float(draw.integers(6, 30))
    return Weapon(f"w{int(draw.integers(0, 9))}", kind, reach, int(draw.integers(-2, 3)), chosen)


# ---------------------------------------------------------------- the rules data


NOT_IN_THE_RULES_CORE = ("actions.", "profiles.", "meta.name", "meta.version", "meta.settings")
"""Keys read outside the resolution engine: action and profile tables (riven_env/game and
riven_env/rules/profiles.py build them into their own records), the file's name and settings."""


def _native_value(config: Any, dotted: str) -> Any:  # noqa: C901, PLR0911, PLR0912
    """The native struct's value for a rules key (how riven_env/native/rules.py carries it)."""
    head, _, rest = dotted.partition(".")
    if dotted == "meta.resolution":
        return config.system
    if dotted == "dice.faces":
        return config.dice_faces
    if head == "test" and rest.startswith("bands."):
        return getattr(config.test, rest.split(".")[1])
    if head == "test" and rest.startswith("difficulty."):
        return dict(config.test.difficulty)[rest.split(".")[1]]
    if head == "shooting" and rest.startswith("cover_tn."):
        return dict(config.shooting.cover_tn)[rest.split(".")[1]]
    if head == "shooting" and rest.startswith("effects."):
        _, band, field = rest.split(".")
        fields = ("wounds", "push_distance", "shooter_exposed", "complication")
        return N.load().shot_effect(band, config)[fields.index(field)]
    if head == "morale" and rest.startswith("triggers."):
        _, name, field = rest.split(".")
        trigger = next(t for t in config.morale.triggers if t.name == name)
        return getattr(trigger, field)
    if head in ("momentum", "strain") and rest.split(".")[0] in ("gain", "cost"):
        table, key = rest.split(".")
        return dict(getattr(getattr(config, head), table))[key]
    if dotted.startswith("strain.overflow_table."):
        return config.strain.overflow_table[int(rest.split(".")[1]) - 1]
    if head == "conditions":
        name, field = rest.split(".")
        spec = next(c for c in config.conditions if c.name == name)
        return getattr(spec, field)
    if head == "complications":
        parts = rest.split(".")
        entry = config.complications[int(parts[1]) - 1]
        if parts[2] == "flavour":
            return dict(entry.flavour)[parts[3]]
        return getattr(entry, parts[2])
    if head == "weapons":
        _, name, field = rest.split(".")
        return getattr(next(t for t in config.weapon_traits if t.name == name), field)
    if head == "distances":
        if rest.startswith("tables."):
            return None  # table sizes: the scenario's, not the rules engine's
        return dict(config.distances)[rest]
    section = {"casualties": config.casualties, "engagement": config.engagement}.get(head)
    return getattr(section if section is not None else getattr(config, head), rest)


@pytest.mark.parametrize("variant", RULE_IDS)
def test_every_rules_key_of_the_engine_reaches_the_native_struct(variant: str) -> None:
    rules = VARIANTS[variant]
    config = N.native_rules(rules)
    assert config.prepared and config.fingerprint == rules.fingerprint
    checked = 0
    for dotted in leaf_keys(rules.raw):
        if dotted.startswith(NOT_IN_THE_RULES_CORE) or dotted.startswith("distances.tables."):
            continue
        expected = rules.get(dotted)
        got = _native_value(config, dotted)
        if isinstance(expected, list):
            expected, got = sorted(expected), sorted(got)
        assert got == expected, dotted
        checked += 1
    assert checked > 150


def test_the_native_struct_is_built_once_per_config() -> None:
    rules = load_rules(overrides={"melee.charge_bonus": 3})
    assert N.native_rules(rules) is N.native_rules(rules)
    assert N.native_rules(load_rules(overrides={"melee.charge_bonus": 3})) is N.native_rules(rules)


def test_every_bundled_system_is_native_behind_the_seam(
    python_only_system: dict[str, str],
) -> None:
    from riven_env.native.invictus import NativeInvictusResolution
    from riven_env.native.new_world import NativeNewWorldResolution
    from riven_env.native.riddle_of_steel import NativeRiddleOfSteelResolution

    ported = ("riven", "invictus", "new-world", "riddle-of-steel")
    assert tuple(N.load().ported_systems()) == N.NATIVE_SYSTEMS == ported
    assert isinstance(N.native_resolution(load_rules()), N.NativeRivenResolution)
    invictus = N.native_resolution(load_rules(overrides={"resolution": "invictus"}))
    assert isinstance(invictus, NativeInvictusResolution)
    new_world = N.native_resolution(load_rules(overrides={"resolution": "new-world"}))
    assert isinstance(new_world, NativeNewWorldResolution)
    ros = N.native_resolution(load_rules(overrides={"resolution": "riddle-of-steel"}))
    assert isinstance(ros, NativeRiddleOfSteelResolution)
    with pytest.raises(NativeUnavailableError, match="'house-dice'.*not in the native core"):
        N.native_resolution(load_rules(overrides=python_only_system))


# ---------------------------------------------------------------- activation


def test_activation_rolls(rules: RulesConfig) -> None:
    pair, draw = Pair(1), np.random.default_rng(101)
    max_dice = int(rules.get("activation.max_dice"))
    for _ in range(600):
        mettle = int(draw.integers(1, 8))
        dice = int(draw.integers(0, max_dice + 2))  # 0 and max + 1 are refused, drawing nothing
        pair.same(
            lambda rng, m=mettle, d=dice: P.roll_activation(m, d, rng, rules),
            lambda rng, m=mettle, d=dice: N.roll_activation(m, d, rng, rules),
        )


def test_classify_activation_every_dice_combination(rules: RulesConfig) -> None:
    max_dice = int(rules.get("activation.max_dice"))
    faces = range(1, 7)
    combos = [(a,) for a in faces] + [(a, b) for a in faces for b in faces]
    combos += [(a, b, c) for a in faces for b in faces for c in faces][: 216 if max_dice > 2 else 0]
    for dice in [*combos, (), (1, 2, 3, 4)]:
        for mettle in range(1, 8):
            expected = _outcome(
                lambda _, d=dice, m=mettle: P.classify_activation(d, m, rules), None
            )
            got = _outcome(lambda _, d=dice, m=mettle: N.classify_activation(d, m, rules), None)
            assert got == expected


def test_a_generator_is_left_where_the_python_engine_leaves_it() -> None:
    rules = load_rules()
    python, native = np.random.default_rng(4), np.random.default_rng(4)
    for k in range(200):
        assert N.roll_activation(4, 1 + k % 3, native, rules) == P.roll_activation(
            4, 1 + k % 3, python, rules
        )
        assert N.roll_morale(4, native, rules) == P.roll_morale(4, python, rules)
        assert native.bit_generator.state == python.bit_generator.state


# ---------------------------------------------------------------- 2d6 tests and spends


def test_band_for_margin_and_difficulties(rules: RulesConfig) -> None:
    for margin in range(-20, 21):
        assert N.band_for_margin(margin, rules) == P.band_for_margin(margin, rules)
    for name in [*_names(rules, "test.difficulty"), "legendary"]:
        _agree(P.difficulty_tn, N.difficulty_tn, name, rules)


def test_tests_spends_and_finalise(rules: RulesConfig) -> None:
    pair, draw = Pair(2), np.random.default_rng(202)
    for _ in range(400):
        value, tn, mods = int(draw.integers(0, 6)), int(draw.integers(2, 16)), _modifiers(draw)
        roll = pair.same(
            lambda rng, v=value, t=tn, m=mods: P.roll_test("rally", "resolve", v, t, m, rng, rules),
            lambda rng, v=value, t=tn, m=mods: N.roll_test("rally", "resolve", v, t, m, rng, rules),
        )
        momentum, strain, strain_max = (int(draw.integers(0, 7)) for _ in range(3))
        for _ in range(4):
            kwargs = {"momentum": momentum, "strain": strain, "strain_max": strain_max}
            options = P.spend_options(roll, **kwargs, rules=rules)
            assert N.spend_options(roll, **kwargs, rules=rules) == options
            # Sometimes a spend that is not allowed now: both refuse it alike.
            vocabulary = ["reroll:0", "reroll:1", "boost", "strain", "reroll:2"]
            pool = options if options and draw.random() < 0.8 else vocabulary
            option = pool[int(draw.integers(0, len(pool)))]
            spent = pair.same(
                lambda rng, r=roll, o=option: P.apply_spend(r, o, rng, rules),
                lambda rng, r=roll, o=option: N.apply_spend(r, o, rng, rules),
            )
            if isinstance(spent, P.TestRoll):
                roll = spent
        assert N.finalise(roll) == P.finalise(roll)


def test_illegal_spend_names_the_legal_ones() -> None:
    rules = load_rules()
    miss = P.make_test_roll("shot", "agility", 0, 12, (), (1, 1), rules)
    strained = P.apply_spend(miss, "strain", np.random.default_rng(0), rules)
    with pytest.raises(IllegalActionError) as python:
        P.apply_spend(strained, "strain", np.random.default_rng(0), rules)
    with pytest.raises(IllegalActionError) as native:
        N.apply_spend(strained, "strain", np.random.default_rng(0), rules)
    assert str(native.value) == str(python.value) and native.value.legal == python.value.legal


def test_make_test_roll_every_dice_pair(rules: RulesConfig) -> None:
    for a in range(1, 7):
        for b in range(1, 7):
            for value, tn in ((0, 8), (3, 10), (5, 6), (1, 14)):
                mods = (Modifier("charge", 2), Modifier("condition:shaken", -1))
                args = ("shot", "agility", value, tn, mods, (a, b), rules)
                assert N.make_test_roll(*args) == P.make_test_roll(*args)


# ---------------------------------------------------------------- melee


def test_melee_exchanges(rules: RulesConfig) -> None:
    pair, draw = Pair(3), np.random.default_rng(303)
    for _ in range(400):
        sides = []
        for defending in (False, True):
            weapon = _weapon(draw, rules, "melee")
            kwargs = {
                "weapon": weapon,
                "charge_strike": bool(draw.random() < 0.3) and not defending,
                "enemies_in_contact": int(draw.integers(0, 5)),
                "conditions": _conditions(draw, rules),
                "defending": defending,
                "rules": rules,
            }
            mods = P.melee_modifiers(**kwargs)
            assert N.melee_modifiers(**kwargs) == mods
            sides.append(mods)
        a_might, d_might = int(draw.integers(1, 6)), int(draw.integers(1, 6))
        result = pair.same(
            lambda rng, a=a_might, d=d_might, s=sides: P.resolve_melee(
                a, d, s[0], s[1], rng, rules
            ),
            lambda rng, a=a_might, d=d_might, s=sides: N.resolve_melee(
                a, d, s[0], s[1], rng, rules
            ),
        )
        assert (
            result.loser
            == N.melee_from_dice(
                result.attacker_dice,
                result.defender_dice,
                a_might,
                d_might,
                sides[0],
                sides[1],
                rules,
            ).loser
        )


def test_classify_melee_every_pair_of_totals(rules: RulesConfig) -> None:
    for attacker in range(-6, 30):
        for defender in range(-6, 30):
            assert N.classify_melee(attacker, defender, rules) == P.classify_melee(
                attacker, defender, rules
            )


def test_an_unknown_trait_is_a_profile_error_on_both() -> None:
    rules = load_rules()
    odd = Weapon("odd", "melee", 0.0, 0, frozenset({"glowing"}))
    kwargs = {"weapon": odd, "charge_strike": False, "enemies_in_contact": 1, "conditions": ()}
    with pytest.raises(ProfileError) as python:
        P.melee_modifiers(**kwargs, defending=False, rules=rules)
    with pytest.raises(ProfileError) as native:
        N.melee_modifiers(**kwargs, defending=False, rules=rules)
    assert str(native.value) == str(python.value)


# ---------------------------------------------------------------- shooting


def test_shots(rules: RulesConfig) -> None:
    pair, draw = Pair(4), np.random.default_rng(404)
    order = list(rules.get("shooting.cover_order"))
    for _ in range(400):
        weapon = _weapon(draw, rules, "ranged")
        cover = order[int(draw.integers(0, len(order)))] if draw.random() < 0.95 else "bunker"
        target = _conditions(draw, rules)
        resolved = pair.same(
            lambda _, c=cover, t=target, w=weapon: P.effective_cover(c, t, w, rules),
            lambda _, c=cover, t=target, w=weapon: N.effective_cover(c, t, w, rules),
        )
        if cover == "bunker":  # refused alike (the resolved cover is the error's outcome)
            continue
        shooter = _conditions(draw, rules)
        mods = P.shot_modifiers(weapon=weapon, shooter_conditions=shooter, rules=rules)
        assert N.shot_modifiers(weapon=weapon, shooter_conditions=shooter, rules=rules) == mods
        tn = P.shot_tn(resolved, rules)
        assert N.shot_tn(resolved, rules) == tn
        agility = int(draw.integers(1, 6))
        roll = pair.same(
            lambda rng, m=mods, t=tn, a=agility: P.roll_test(
                "shot", "agility", a, t, m, rng, rules
            ),
            lambda rng, m=mods, t=tn, a=agility: N.roll_test(
                "shot", "agility", a, t, m, rng, rules
            ),
        )
        test = P.finalise(roll)
        assert N.shot_result(N.finalise(roll), resolved, rules) == P.shot_result(
            test, resolved, rules
        )
        if weapon is not None:
            distance = float(draw.integers(0, 40))
            assert N.in_range(weapon, distance) == P.in_range(weapon, distance)
    for adjacent in (False, True):
        assert N.may_shoot_into_melee(adjacent, rules) == P.may_shoot_into_melee(adjacent, rules)


def test_shot_lookups_refuse_alike() -> None:
    rules = load_rules()
    for python, native in (
        (lambda: P.shot_tn("bunker", rules), lambda: N.shot_tn("bunker", rules)),
        (lambda: P.shot_effect("graze", rules), lambda: N.shot_effect("graze", rules)),
        (
            lambda: P.effective_cover("bunker", (), None, rules),
            lambda: N.effective_cover("bunker", (), None, rules),
        ),
    ):
        assert _agree(python, native)[0] == "RulesDataError"


# ---------------------------------------------------------------- Down/Out, morale


def test_out_checks_wound_checks_and_morale(rules: RulesConfig) -> None:
    pair, draw = Pair(5), np.random.default_rng(505)
    for _ in range(500):
        mettle = int(draw.integers(1, 8))
        pair.same(
            lambda rng, m=mettle: P.roll_out_check(m, rng, rules),
            lambda rng, m=mettle: N.roll_out_check(m, rng, rules),
        )
        pair.same(
            lambda rng, m=mettle: P.roll_wound_check(m, rng, rules),
            lambda rng, m=mettle: N.roll_wound_check(m, rng, rules),
        )
        pair.same(
            lambda rng, m=mettle: P.roll_morale(m, rng, rules),
            lambda rng, m=mettle: N.roll_morale(m, rng, rules),
        )
    for mettle in range(1, 8):
        for die in range(1, 7):
            assert N.out_check_from_die(mettle, die) == P.out_check_from_die(mettle, die)
    for dice in ((), (1,), (6, 6), (3, 4, 5)):
        assert N.flee_distance(dice, rules) == P.flee_distance(dice, rules)
    assert N.stabilise_range(rules) == P.stabilise_range(rules)
    assert N.enabled_morale_triggers(rules) == P.enabled_morale_triggers(rules)


# ---------------------------------------------------------------- Momentum, Strain


def test_momentum(rules: RulesConfig) -> None:
    for source in [*_names(rules, "momentum.gain"), "luck"]:
        _agree(P.momentum_gain, N.momentum_gain, source, rules)
    for spend in [*_names(rules, "momentum.cost"), "luck"]:
        _agree(P.momentum_cost, N.momentum_cost, spend, rules)
        for pool in range(0, 5):
            _agree(P.can_afford, N.can_afford, pool, spend, rules)
    for pool in range(-2, 12):
        for amount in range(-8, 9):
            assert N.add_momentum(pool, amount, rules) == P.add_momentum(pool, amount, rules)
    for solo in (False, True):
        assert N.momentum_pool_owner(solo, rules) == P.momentum_pool_owner(solo, rules)
    assert N.starting_momentum(rules) == P.starting_momentum(rules)


def test_strain(rules: RulesConfig) -> None:
    pair, draw = Pair(6), np.random.default_rng(606)
    for _ in range(500):
        track = int(draw.integers(2, 11))
        current, amount = int(draw.integers(0, track + 1)), int(draw.integers(-1, 7))
        pair.same(
            lambda rng, c=current, a=amount, t=track: P.gain_strain(c, a, t, rng, rules),
            lambda rng, c=current, a=amount, t=track: N.gain_strain(c, a, t, rng, rules),
        )
        assert N.rest_strain(current, rules) == P.rest_strain(current, rules)
        assert N.can_take_strain(current, amount, track, rules) == P.can_take_strain(
            current, amount, track, rules
        )
    for wit in range(0, 6):
        assert N.strain_max(wit, rules) == P.strain_max(wit, rules)
    for source in [*_names(rules, "strain.gain"), "fear"]:
        _agree(P.strain_gain_amount, N.strain_gain_amount, source, rules)
    for face in range(1, 7):
        assert N.overflow_condition(face, rules) == P.overflow_condition(face, rules)


# ---------------------------------------------------------------- Conditions, complications


def test_conditions(rules: RulesConfig) -> None:
    draw = np.random.default_rng(707)
    actions = [*P.action_specs(rules), "dance"]
    expiries = ["end_of_activation", "end_of_side_turn", "never", "start_of_next_activation"]
    for _ in range(400):
        held = _conditions(draw, rules) + (("nonesuch",) if draw.random() < 0.05 else ())
        for kind in ("test", "melee", "shot", "morale"):
            _agree(P.condition_modifiers, N.condition_modifiers, held, kind, rules)
        _agree(P.condition_limits, N.condition_limits, held, rules)
        action = actions[int(draw.integers(0, len(actions)))]
        _agree(P.conditions_removed_by, N.conditions_removed_by, action, held, rules)
        when = [*expiries, "at_dawn"][int(draw.integers(0, 5))]
        _agree(P.conditions_expiring, N.conditions_expiring, when, held, rules)


def test_complications(rules: RulesConfig) -> None:
    pair = Pair(8)
    for _ in range(300):
        pair.same(
            lambda rng: P.roll_complication(rng, rules),
            lambda rng: N.roll_complication(rng, rules),
        )


# ---------------------------------------------------------------- the seam


def test_the_native_seam_answers_as_riven_resolution(rules: RulesConfig) -> None:
    python, native = P.get_resolution("riven", rules), N.native_resolution(rules)
    assert native.name == python.name and native.choice_vocabulary() == python.choice_vocabulary()
    pair, draw = Pair(9), np.random.default_rng(909)
    for _ in range(200):
        mettle = int(draw.integers(2, 7))
        pair.same(
            lambda rng, m=mettle: python.roll_activation(m, 3, rng),
            lambda rng, m=mettle: native.roll_activation(m, 3, rng),
        )
        roll = pair.same(
            lambda rng: python.roll_test("interact", "wit", 2, 8, [], rng),
            lambda rng: native.roll_test("interact", "wit", 2, 8, [], rng),
        )
        assert native.finalise(roll) == python.finalise(roll)
        pair.same(
            lambda rng: python.resolve_melee(3, 3, [], [], rng),
            lambda rng: native.resolve_melee(3, 3, [], [], rng),
        )
        pair.same(lambda rng: python.roll_complication(rng), native.roll_complication)
        pair.same(lambda rng: python.roll_out_check(4, rng), lambda r: native.roll_out_check(4, r))
        pair.same(lambda rng: python.roll_morale(4, rng), lambda r: native.roll_morale(4, r))
    for band in P.BANDS:
        assert native.shot_effect(band) == python.shot_effect(band)


# ---------------------------------------------------------------- whole games through the seam


def _event_log(monkeypatch: pytest.MonkeyPatch, engine: str, case: tuple[Any, ...]) -> list[str]:
    from riven_env.engines import play_game
    from riven_env.game import state_data
    from riven_env.game.events import dumps_event

    with monkeypatch.context() as patch:
        if engine == "native":
            # The game builds its seam with get_resolution: hand it the core's RIVEN engine.
            patch.setattr(state_data, "get_resolution", lambda _, rules: N.native_resolution(rules))
        scenario, blue, red, seed, overrides = case
        seams: set[str] = set()
        events = play_game(
            scenario,
            blue,
            red,
            seed,
            overrides=overrides,
            on_decision=lambda state: seams.add(type(state.resolution).__name__),
        )
    expected = "NativeRivenResolution" if engine == "native" else "RivenResolution"
    assert seams == {expected}
    return [dumps_event(event) for event in events]


GAMES = [
    ("skirmish-5v5", "oracle", "oracle", 0, None),
    ("skirmish-5v5", "random", "random", 1, None),
    ("ruins", "oracle", "random", 2, None),
    ("ranged-vs-melee", "oracle", "oracle", 3, None),
    ("open-field", "random", "oracle", 4, None),
    ("solo-hero-horde", "oracle", "oracle", 7, None),
    ("scifi-derelict", "random", "random", 8, None),
    ("skirmish-5v5", "oracle", "oracle", 5, {"turnover": "sbh", "bonus_mode": "replace"}),
    (
        "skirmish-5v5",
        "random",
        "random",
        6,
        {"flight_route": "around", "spend_may_overflow": False},
    ),
]


@pytest.mark.parametrize("case", GAMES, ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}" for c in GAMES])
def test_whole_games_on_the_native_seam_log_the_same_events(
    monkeypatch: pytest.MonkeyPatch, case: tuple[Any, ...]
) -> None:
    python = _event_log(monkeypatch, "python", case)
    native = _event_log(monkeypatch, "native", case)
    assert len(native) == len(python) and native == python
