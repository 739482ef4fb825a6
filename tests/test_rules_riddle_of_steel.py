"""The Riddle of Steel engine (``riddle-of-steel``): scripted dice for every rule, exact odds.

Rules under test (quickstart, ``shared/rules/other-systems/riddle-of-steel-quickstart.txt``;
readings in ``docs/resolution-riddle-of-steel.md``): d10 pools against a TN, Stacking,
Fumbles, contests by margin of successes, the Combat Pool split across two exchanges, the
offensive manoeuvres (Thrust, Swing, their paid options, Feint), the defensive ones (Parry,
Block, Dodge and Break, Dodge and Stand, Duck and Weave, Counter), Target Zones and the
Damage Table (shock, pain, bleeding, knockdown, Down, Out), and the game loop's choice phase.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace

import pytest
from rules_engines import ENGINES

from riven_env.errors import RulesDataError
from riven_env.game import Decision
from riven_env.game.decisions import PHASE_ACTION, PHASE_CHOICE
from riven_env.rules import load_rules
from riven_env.rules.results import Modifier
from riven_env.rules.systems import riddle_of_steel as ros
from riven_env.rules.systems.ros_data import RosWeapon, load_ros_data, parse_ros_data
from riven_env.rules.systems.ros_dice import (
    band_for,
    die_success_probability,
    margin_odds,
    pool_odds,
    roll_pool,
)

DATA = load_ros_data()
SWORD = RosWeapon("sword", atn=6, dtn=6, dr=2)
ROS = {"resolution": "riddle-of-steel"}


class _NativeFunctions:
    """The module functions the rule tests call, on the core's engine
    (:class:`~riven_env.native.riddle_of_steel.NativeRiddleOfSteelResolution`); the records and
    the pure readings they do not roll with stay the Python module's."""

    def __init__(self, system, python_module) -> None:
        self.system = system
        self.python = python_module
        self.RiddleOfSteelResolution = type(system)

    def __getattr__(self, name):
        return getattr(self.python, name)

    def roll_ros_test(self, kind, attribute, value, tn, modifiers, rng, data):
        return self.system.roll_test(kind, attribute, value, tn, modifiers, rng)

    def make_fighter(self, index, model_id, profile, wounds, pain, modifiers, data):
        return self.system.make_fighter(index, model_id, profile, wounds, pain, modifiers)

    def open_session(self, attacker, defender, rng, data):
        return self.system.open_session(attacker, defender, rng)

    def apply_choice(self, session, option, rng, data):
        return self.system.apply_choice(session, option, rng)

    def choice_options(self, session, data):
        return self.system.choice_options(session)

    def oracle_choice(self, session, legal, stance, data):
        return self.system.stance_choice(session, legal, stance)


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A seam-level rule test on both engines: the Python one, and the core's behind the
    module's functions the test calls (``ros`` and ``roll_pool``)."""
    if request.param == "native":
        from riven_env.native.riddle_of_steel import NativeRiddleOfSteelResolution

        system = NativeRiddleOfSteelResolution(load_rules(None, ROS))
        monkeypatch.setitem(globals(), "ros", _NativeFunctions(system, ros))
        monkeypatch.setitem(
            globals(), "roll_pool", lambda dice, tn, rng, data: system.roll_pool(dice, tn, rng)
        )
    return str(request.param)


def on_engine(state, engine: str):
    """The game's resolution seam on ``engine`` (the core's RoS dice behind the Python loop)."""
    if engine == "native":
        from riven_env.native.riddle_of_steel import NativeRiddleOfSteelResolution

        state.resolution = NativeRiddleOfSteelResolution(state.rules)
    return state


def rng_of(script_dice, *faces):
    """A scripted stream outside a game."""
    holder = SimpleNamespace()
    dice = script_dice(holder, *faces)
    return dice


def fighter(index: int, **fields) -> ros.Fighter:
    base = dict(
        index=index,
        id=f"m{index}",
        pool=10,
        brawn=4,
        presence=4,
        resistance=4,
        proficiency=4,
        weapon=SWORD,
        shield=None,
        wounds=2,
    )
    base.update(fields)
    return ros.Fighter(**base)


def play(session, options, rng):
    for option in options:
        session = ros.apply_choice(session, option, rng, DATA)
    return session


def exchanges(session):
    return [fields for type_, fields in session.new_events if type_ == "ros_exchange"]


# ----------------------------------------------------------------------------- data
def test_bundled_data_loads_and_validates():
    assert DATA.faces == 10 and DATA.fumble_ones == 2 and DATA.exchanges == 2
    assert DATA.zones == ("I", "II", "III", "IV", "V", "VI", "VII")
    assert DATA.wound("V", 5).effect == "out"


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("dice", "max_stacks"), -1, "riddle_of_steel.dice.max_stacks"),
        (("dice", "stack_on"), 9, "riddle_of_steel.dice.stack_on"),
        (("melee", "counter_bonus"), "all", "riddle_of_steel.melee.counter_bonus"),
        (("damage", "III", "2", "effect"), "dead", "riddle_of_steel.damage.III.2.effect"),
        (("damage", "III", "2", "sock"), 1, "riddle_of_steel.damage.III.2.sock"),
    ],
)
def test_bad_data_names_the_key(path, value, words):
    from importlib import resources

    import tomllib

    raw = tomllib.loads(
        resources.files("riven_env.rules.data").joinpath("riddle-of-steel.toml").read_text()
    )
    table = raw["riddle_of_steel"]
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    with pytest.raises(RulesDataError, match=words.replace(".", r"\.")):
        parse_ros_data(raw, "x.toml")


def test_selectable_by_meta_resolution():
    from riven_env.rules import get_resolution

    rules = load_rules(None, ROS)
    system = get_resolution(rules.get("meta.resolution"), rules)
    assert system.name == "riddle-of-steel" and system.has_choices


# ----------------------------------------------------------------------------- dice
def test_each_die_at_or_above_tn_is_a_success(script_dice, engine):
    roll = roll_pool(5, 7, rng_of(script_dice, 7, 6, 10, 1, 9), DATA)
    assert roll.successes == 3 and roll.totals == (7, 6, 10, 1, 9) and not roll.fumble


def test_tens_stack_only_where_they_can_matter(script_dice, engine):
    # TN 13: a 10 is rerolled and added; 10 + 5 = 15 succeeds, 10 + 2 = 12 does not.
    dice = rng_of(script_dice, 10, 5, 10, 2, 9)
    roll = roll_pool(3, 13, dice, DATA)
    assert roll.faces == ((10, 5), (10, 2), (9,)) and roll.successes == 1
    # TN 10: a 10 already succeeds, no stack is rolled.
    dice = rng_of(script_dice, 10)
    assert roll_pool(1, 10, dice, DATA).faces == ((10,),) and dice.remaining == 0


def test_stacking_is_bounded_by_max_stacks(script_dice, engine):
    dice = rng_of(script_dice, 10, 10, 10, 10, 10)
    roll = roll_pool(1, 41, dice, DATA)
    assert len(roll.faces[0]) == 1 + DATA.max_stacks and roll.totals == (40,)
    assert roll.successes == 0 and dice.remaining == 1


def test_fumble_is_no_success_and_two_ones(script_dice, engine):
    assert roll_pool(3, 6, rng_of(script_dice, 1, 1, 5), DATA).fumble
    assert not roll_pool(3, 6, rng_of(script_dice, 1, 1, 6), DATA).fumble  # a success
    assert not roll_pool(3, 6, rng_of(script_dice, 1, 2, 5), DATA).fumble  # one 1
    # A 1 rolled on a stack adds to the 10; it is not a fumbling 1.
    assert not roll_pool(2, 13, rng_of(script_dice, 10, 1, 1), DATA).fumble


# ----------------------------------------------------------------------------- exact odds
def _die_outcomes(tn, data):
    """Every face chain of one die with its probability (brute force, no closed form)."""
    out = []

    def walk(faces, p):
        for face in range(1, data.faces + 1):
            chain = (*faces, face)
            q = p * Fraction(1, data.faces)
            if tn > data.faces and face == data.stack_on and len(chain) <= data.max_stacks:
                walk(chain, q)
            else:
                out.append((chain, q))

    walk((), Fraction(1))
    return out


def _brute_pool(dice, tn, data):
    successes = [Fraction(0)] * (dice + 1)
    fumble = Fraction(0)
    per_die = _die_outcomes(tn, data)
    for combo in itertools.product(per_die, repeat=dice):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        hits = sum(1 for chain, _ in combo if sum(chain) >= tn)
        ones = sum(1 for chain, _ in combo if chain[0] == 1)
        successes[hits] += p
        if hits == 0 and ones >= data.fumble_ones:
            fumble += p
    return successes, fumble


SMALL = replace(DATA, max_stacks=2)


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("tn", [2, 6, 10, 11, 13, 20, 21, 25, 30, 31])
def test_pool_odds_match_brute_force(dice, tn):
    odds = pool_odds(dice, tn, SMALL)
    successes, fumble = _brute_pool(dice, tn, SMALL)
    assert list(odds.successes) == successes
    assert odds.fumble == fumble
    assert sum(odds.successes) == 1


def test_die_success_closed_form():
    assert die_success_probability(6, DATA) == Fraction(1, 2)
    assert die_success_probability(13, DATA) == Fraction(1, 10) * Fraction(8, 10)
    assert die_success_probability(10 * (DATA.max_stacks + 1) + 1, DATA) == 0


def test_margin_odds_match_brute_force():
    margins = margin_odds(2, 6, 2, 7, SMALL)
    a, _ = _brute_pool(2, 6, SMALL)
    d, _ = _brute_pool(2, 7, SMALL)
    expected: dict[int, Fraction] = {}
    for i, pa in enumerate(a):
        for j, pd in enumerate(d):
            expected[i - j] = expected.get(i - j, Fraction(0)) + pa * pd
    assert margins == expected and sum(margins.values()) == 1


def test_odds_test_json_keys_and_cli(capsys):
    rules = load_rules(None, ROS)
    found = ros.odds_test(rules, dice=3, tn=6)
    assert found["successes"] == [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]
    assert found["fumble"] == Fraction(13, 1000)  # 3 * (1/10)^2 * 4/10 + (1/10)^3
    import json

    from typer.testing import CliRunner

    from riven_env.cli.main import app

    result = CliRunner().invoke(
        app,
        ["odds", "test", "--resolution", "riddle-of-steel", "--dice", "3", "--tn", "6", "--json"],
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload == {"successes": [0.125, 0.375, 0.375, 0.125], "fumble": 0.013}
    bad = CliRunner().invoke(
        app, ["odds", "test", "--resolution", "riddle-of-steel", "--dice", "3"]
    )
    assert bad.exit_code == 2 and "--tn" in bad.output


def test_odds_melee_sums_to_one():
    found = ros.odds_melee(load_rules(None, ROS), attack_dice=6, atn=6, defence_dice=5, dtn=7)
    assert found["hit"] + found["tie"] + found["defended"] == 1


# ----------------------------------------------------------------------------- tests (RIVEN tests read as Attribute Tests)
@pytest.mark.parametrize(
    ("faces", "band"),
    [
        ((1, 2, 3, 4), "miss"),
        ((6, 2, 3, 4), "partial"),
        ((6, 7, 3, 4), "hit"),
        ((6, 7, 8, 9), "critical"),
    ],
)
def test_attribute_test_bands_by_successes(script_dice, faces, band, engine):
    # Agility 2 -> RoS Agility 4: four dice; RIVEN TN 8 (standard) -> RoS TN 6.
    roll = ros.roll_ros_test("disengage", "agility", 2, 8, (), rng_of(script_dice, *faces), DATA)
    assert roll.pool == 4 and roll.tn == 6 and roll.result == band


def test_attribute_test_fumble_is_a_miss_and_modifiers_are_dice(script_dice, engine):
    roll = ros.roll_ros_test(
        "rally", "resolve", 2, 10, (Modifier("shaken", -1),), rng_of(script_dice, 1, 1, 5), DATA
    )
    assert roll.pool == 3 and roll.tn == 8 and roll.fumble and roll.result == "miss"
    assert band_for(3, True, DATA) == "miss"


def test_shot_tn_is_the_atn_plus_cover(engine):
    system = ros.RiddleOfSteelResolution(load_rules(None, ROS))
    assert [system.shot_tn(c) for c in ("none", "soft", "hard")] == [6, 7, 9]
    assert system.spend_options(None, momentum=6, strain=0, strain_max=4) == []


# ----------------------------------------------------------------------------- the Combat Round
def test_combat_pool_from_a_riven_profile(engine):
    from riven_env.rules.profiles import ModelProfile

    profile = ModelProfile.from_dict(
        "p",
        {"might": 2, "agility": 3, "wit": 1, "resolve": 2, "mettle": 4, "wounds": 1, "move": 5},
        weapons={},
        where="t",
    )
    attrs = ros.ros_attributes(profile, DATA)
    assert (attrs["brawn"], attrs["agility"], attrs["wits"], attrs["presence"]) == (4, 5, 3, 4)
    assert attrs["coordination"] == 4 and attrs["resistance"] == 4
    assert ros.proficiency(profile, DATA) == 4 and ros.combat_pool(profile, DATA) == 8
    mods = [Modifier("charge", 2), Modifier("weapon:dagger", -1), Modifier("outnumbered", -1)]
    made = ros.make_fighter(0, "p", profile, 1, 3, mods, DATA)
    assert made.pool == 8 - 3 + 2 - 1  # Pain off, charge +2 dice, weapon modifier ignored
    assert made.weapon.name == "unarmed"


def test_declarations_go_attacker_then_defender(script_dice, engine):
    rng = rng_of(script_dice)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    assert s.step == "attack" and s.decider == 0
    s = play(s, ["swing:VII", "5"], rng)
    assert s.step == "defence" and s.decider == 1 and s.pools == (5, 10)
    assert "block" not in ros.choice_options(s, DATA)  # no shield
    s = play(s, ["parry", "4"], rng)
    assert s.step == "feint" and s.decider == 0 and s.pools == (5, 6)


def test_hit_damage_through_the_table(script_dice, engine):
    # 5 dice vs ATN 6: 3 successes; 4 dice vs DTN 6: 2 -> margin 1.
    # Damage: Brawn 4 + DR 2 + margin 1 - Brawn 4 = level 3 at VII: a broken arm.
    rng = rng_of(script_dice, 6, 7, 8, 2, 3, 6, 9, 2, 3)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:VII", "5", "parry", "4", "none"], rng)
    (record,) = exchanges(s)
    cell = DATA.wound("VII", 3)
    assert record["margin"] == 1 and record["outcome"] == "hit"
    assert record["damage"] == 3 and record["wound_level"] == 3
    assert record["wound_text"] == cell.text
    assert record["pain"] == cell.pain - 4  # less Presence
    assert s.pools == (5, 6 - cell.shock)  # shock off the pool this round
    assert s.effects == (("pain", 1, 3), ("condition", 1, "bleeding"), ("wound", 1, 1))
    assert s.exchange == 2 and s.attacker == 0 and s.step == "attack"  # the hitter keeps it


def test_tie_does_no_damage_and_keeps_initiative(script_dice, engine):
    rng = rng_of(script_dice, 6, 2, 2, 2, 2, 6, 2)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:V", "5", "parry", "2", "none"], rng)
    assert exchanges(s)[0]["outcome"] == "tie" and s.effects == ()
    assert s.exchange == 2 and s.attacker == 0


def test_winning_defender_attacks_next_and_round_ends_after_two(script_dice, engine):
    rng = rng_of(script_dice, 2, 2, 6, 6)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:V", "2", "parry", "2", "none"], rng)
    assert s.exchange == 2 and s.attacker == 1 and s.decider == 1
    # RAW: no Dodge and Break immediately after your own attack.
    assert "dodge_break" not in ros.choice_options(replace(s, step="defence"), DATA)
    rng.push(2, 2, 2)
    s = play(s, ["swing:V", "3", "none", "none"], rng)  # no defence, no feint
    assert s.done and s.end_reason == "the round's exchanges are over"


def test_thrust_adds_a_die_and_loses_a_level_unless_paid(script_dice, engine):
    rng = rng_of(script_dice, 6, 6, 6)  # 2 declared + 1 thrust die, all hit; no defence
    s = ros.open_session(fighter(0), fighter(1, wounds=5), rng, DATA)
    s = play(s, ["thrust:VII", "2", "none", "none"], rng)
    record = exchanges(s)[0]
    assert len(record["attack_dice"]) == 3 and record["attack_bonus_dice"] == 1
    assert record["damage"] == 4 + 2 + 3 - 1 - 4  # margin 3, thrust -1
    rng.push(6, 6, 6)
    s = ros.open_session(fighter(0), fighter(1, wounds=5), rng, DATA)
    s = play(s, ["thrust_full:VII", "2", "none", "none"], rng)
    assert s.pools[0] == 10 - 3 and exchanges(s)[0]["damage"] == 4 + 2 + 3 - 4


def test_heavy_swing_pays_a_die_for_a_level(script_dice, engine):
    rng = rng_of(script_dice, 6, 2)
    s = ros.open_session(fighter(0), fighter(1, wounds=5), rng, DATA)
    s = play(s, ["swing_heavy:VII", "2", "none", "none"], rng)
    assert s.pools[0] == 10 - 3 and exchanges(s)[0]["damage"] == 4 + 2 + 1 + 1 - 4


def test_feint_switches_zone_and_buys_dice(script_dice, engine):
    # Near zone (IV -> V): 1 die to call, 1 per die added; far (I -> V): 2 per die.
    rng = rng_of(script_dice, *([2] * 9))
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "4", "parry", "3", "V:2"], rng)
    record = exchanges(s)[0]
    assert record["zone"] == "V" and record["feint"] == "IV>V:2"
    assert len(record["attack_dice"]) == 6 and s.pools[0] == 10 - 4 - 1 - 2
    rng.push(*([2] * 9))
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:I", "4", "parry", "3"], rng)
    # 6 dice left, 1 to call: 5 spare buy 2 dice at 2 each (far), 5 at 1 each (near).
    options = ros.choice_options(s, DATA)
    assert "V:2" in options and "V:3" not in options and "II:5" in options
    s = play(s, ["V:2"], rng)
    assert s.pools[0] == 10 - 4 - 1 - 2 * 2


def test_feint_needs_proficiency_four(script_dice, engine):
    rng = rng_of(script_dice, 2, 2, 2, 2)
    s = ros.open_session(fighter(0, proficiency=3), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "2", "parry", "2"], rng)  # rolls at once: no feint step
    assert len(exchanges(s)) == 1


def test_dodge_and_break_ends_the_round(script_dice, engine):
    rng = rng_of(script_dice, 2, 2, 4)  # DTN 4
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "2", "dodge_break", "1", "none"], rng)
    assert s.done and "broke off" in s.end_reason and exchanges(s)[0]["dtn"] == 4


def test_dodge_and_stand_steals_for_two_dice_or_free(script_dice, engine):
    rng = rng_of(script_dice, 6, 2, 7, 7)  # attacker 1 success, defender 2 vs DTN 7
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "2", "dodge_stand", "2", "none"], rng)
    assert s.step == "steal" and s.decider == 1
    stolen = play(s, ["steal"], rng)
    assert stolen.attacker == 1 and stolen.pools[1] == 10 - 2 - 2
    kept = play(s, ["keep"], rng)
    assert kept.attacker == 0 and kept.pools[1] == 10 - 2
    rng.push(2, 2, 7)  # the attacker fails completely: the steal is free
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "2", "dodge_stand", "1", "none"], rng)
    assert s.step == "attack" and s.attacker == 1 and s.pools[1] == 9


def test_duck_and_weave_costs_the_attacker_half_its_dice(script_dice, engine):
    rng = rng_of(script_dice, 2, 2, 2, 2, 2, 9, 9)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "5", "duck_weave", "2", "none"], rng)
    assert exchanges(s)[0]["dtn"] == 9 and s.attacker == 1
    assert s.pools[0] == 10 - 5 - 2  # floor(5 / 2) lost


def test_counter_pays_two_and_gives_bonus_dice_or_an_extra_success(script_dice, engine):
    rng = rng_of(script_dice, 6, 2, 6, 6)  # attacker 1 success, counter 2
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "2", "counter", "2", "none"], rng)
    assert s.pools[1] == 10 - 2 - 2 and s.attacker == 1 and s.bonus == (0, 1)
    rng.push(2, 2, 2, 2)
    s = play(s, ["swing:IV", "3", "none", "none"], rng)  # 3 declared + 1 bonus die
    assert len(exchanges(s)[-1]["attack_dice"]) == 4
    rng.push(6, 2, 6, 2)  # a failed counter (1 vs 1): the attacker gains a success
    s = ros.open_session(fighter(0), fighter(1, wounds=5), rng, DATA)
    s = play(s, ["swing:VII", "2", "counter", "2", "none"], rng)
    record = exchanges(s)[0]
    assert record["counter_failed"] and record["margin"] == 1 and record["outcome"] == "hit"


def test_fumbled_attack_loses_half_the_dice_spent(script_dice, engine):
    rng = rng_of(script_dice, 1, 1, 2, 3)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "4", "none", "none"], rng)
    assert exchanges(s)[0]["attack_fumble"] and s.pools[0] == 10 - 4 - 2


def test_block_needs_a_shield_which_also_armours_its_zones(script_dice, engine):
    heater = DATA.shields["heater"]
    shielded = fighter(1, shield=heater, wounds=5)
    rng = rng_of(script_dice, 6, 6, 6, 6, 2)
    s = ros.open_session(fighter(0), shielded, rng, DATA)
    assert "block" in ros.choice_options(replace(s, step="defence"), DATA)
    s = play(s, ["swing:IV", "4", "block", "1", "none"], rng)
    record = exchanges(s)[0]
    assert record["dtn"] == heater.dtn and record["armour"] == heater.passive_av
    assert record["damage"] == 4 + 2 + 4 - 4 - heater.passive_av
    assert ros.zone_armour(shielded, "V") == 0


def test_knockdown_when_the_pool_is_gone(script_dice, engine):
    # Margin 1 at VII level 3 (shock 4) leaves the defender 0 dice: Resistance 4 dice vs
    # TN 2 x 1 = 2 with no success means Prone.
    rng = rng_of(script_dice, 6, 6, 2, 2, 6, 1, 1, 1, 1)
    s = ros.open_session(fighter(0), fighter(1, pool=5), rng, DATA)
    s = play(s, ["swing:VII", "4", "parry", "1", "none"], rng)
    record = exchanges(s)[0]
    assert record["knockdown"]["tn"] == 2 and record["knockdown"]["prone"]
    assert ("condition", 1, "prone") in s.effects


def test_mortal_wound_takes_the_model_out_and_ends_the_round(script_dice, engine):
    rng = rng_of(script_dice, 6, 6, 6, 6, 6)
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:V", "5", "none", "none"], rng)
    assert s.done and ("out", 1) in s.effects and "slain" in s.end_reason


def test_incapacitating_wound_puts_it_down(script_dice, engine):
    rng = rng_of(script_dice, 6, 6, 2)  # margin 2 at IV: level 4, "down"
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    s = play(s, ["swing:IV", "3", "none", "none"], rng)
    assert s.done and ("down", 1) in s.effects


def test_illegal_option_is_refused(script_dice, engine):
    s = ros.open_session(fighter(0), fighter(1), rng_of(script_dice), DATA)
    with pytest.raises(RulesDataError, match="not legal"):
        ros.apply_choice(s, "swing:IX", rng_of(script_dice), DATA)


def test_oracle_rules_explain_every_step(script_dice, engine):
    rng = rng_of(script_dice, *([5] * 30))
    s = ros.open_session(fighter(0), fighter(1), rng, DATA)
    seen = []
    while not s.done:
        legal = ros.choice_options(s, DATA)
        option, rule, text = ros.oracle_choice(s, legal, "bold", DATA)
        assert option in legal and rule.startswith("ros:") and text
        seen.append(rule)
        s = ros.apply_choice(s, option, rng, DATA)
    assert seen[0].startswith("ros:attack:") and "ros:attack_dice:bold" in seen


# ----------------------------------------------------------------------------- in the game
TWO = [("blue", "brawler", "b1", (12, 11.5)), ("red", "brawler", "r1", (12, 12.5))]


def test_melee_in_the_game_asks_both_sides(mini_game, script_dice, engine):
    state = on_engine(mini_game(TWO, overrides=ROS), engine)
    dice = script_dice(state, 4, 4)  # RIVEN activation: 2 successes vs Mettle 4
    state.apply(Decision("activate", model=0, dice=2))
    events = state.apply(Decision("melee", model=0, target=1))
    (start,) = [e for e in events if e["type"] == "ros_round"]
    assert start["pools"] == {"b1": 8, "r1": 8}  # Coordination 4 + Proficiency 4
    assert state.phase == PHASE_CHOICE and state.current_side == "blue"
    state.apply(Decision("choose", option="swing:VII"))
    state.apply(Decision("choose", option="4"))
    assert state.current_side == "red" and state.side == "blue"  # the defender chooses
    state.apply(Decision("choose", option="parry"))
    state.apply(Decision("choose", option="2"))
    assert state.current_side == "blue"
    dice.push(6, 6, 7, 2, 6, 2)  # 3 successes vs 1: margin 2 -> level 4 at VII: down
    events = state.apply(Decision("choose", option="none"))
    kinds = [e["type"] for e in events]
    assert kinds.index("ros_exchange") < kinds.index("wound") < kinds.index("down")
    assert state.models[1].is_down and state.phase != PHASE_CHOICE
    assert state.decider is None
    decision = [e for e in events if e["type"] == "decision"][0]
    assert decision["side"] == "blue" and decision["kind"] == "choose"


def test_pain_carries_to_the_next_round_and_copies_apart(mini_game, script_dice, engine):
    state = on_engine(mini_game(TWO, overrides=ROS), engine)
    dice = script_dice(state, 4, 4, 4)
    state.apply(Decision("activate", model=0, dice=3))
    state.apply(Decision("melee", model=0, target=1))
    for option in ("swing:VII", "4", "parry", "3"):
        state.apply(Decision("choose", option=option))
    dice.push(6, 6, 2, 2, 6, 2, 2)  # margin 1 at VII: level 3, 1 wound, pain 7 - 4 = 3
    state.apply(Decision("choose", option="none"))
    assert ("pain", 1) not in state.system_state  # the round's effects land at its end
    while state.phase == PHASE_CHOICE:  # finish the round: the smallest option each time
        dice.push(*([2] * 12))
        state.apply(state.legal_decisions()[0])
    assert state.phase == PHASE_ACTION
    assert state.system_state[("pain", 1)] == 3 and state.models[1].wounds == 1
    copy = state.copy()
    copy.system_state[("pain", 1)] = 9
    assert state.system_state[("pain", 1)] == 3
    events = state.apply(Decision("melee", model=0, target=1))
    (start,) = [e for e in events if e["type"] == "ros_round"]
    assert start["pools"]["r1"] == 8 - 3


def test_ros_tests_in_the_log(mini_game, script_dice, engine):
    state = mini_game(
        [("blue", "trooper", "b1", (12, 2)), ("red", "trooper", "r1", (12, 16))], overrides=ROS
    )
    on_engine(state, engine)
    dice = script_dice(state, 4)
    state.apply(Decision("activate", model=0, dice=1))
    dice.push(6, 6, 2, 2)  # Agility 2 -> 4 dice vs ATN 6 (no cover)
    events = state.apply(Decision("shoot", model=0, target=1))
    (shot,) = [e for e in events if e["type"] == "shot"]
    assert shot["system"] == "riddle-of-steel" and shot["pool"] == 4 and shot["tn"] == 6
    assert shot["successes"] == 2 and shot["result"] == "hit" and shot["fumble"] is False


def test_same_seed_same_game():
    from riven_env.engines import play_game

    first = play_game("duel-1v1", "oracle", "random", 11, overrides=ROS)
    second = play_game("duel-1v1", "oracle", "random", 11, overrides=ROS)
    assert first == second


def test_the_oracle_explains_ros_choices():
    from riven_env.engines import play_game

    found = []
    for seed in range(6):
        events = play_game("duel-1v1", "oracle", "oracle", seed, overrides=ROS)
        found += [
            e for e in events if e["type"] == "oracle_decision" and e["rule"].startswith("ros:")
        ]
    assert found and all(e["explanation"] for e in found)
    assert {e["rule"].split(":")[1] for e in found} >= {"attack", "attack_dice", "defence"}


# ----------------------------------------------------------------------------- soak
SOAK_PAIRS = (
    ("oracle", "oracle"),
    ("random", "random"),
    ("greedy", "random"),
    ("oracle", "greedy"),
    ("mcts:8", "oracle"),
    ("random", "mcts:8"),
)


def _soak(games: list[tuple[str, str, str, int]]) -> dict[str, int]:
    """Play each ``(mission, blue, red, seed)`` under RoS to the end; count what happened."""
    import json

    from riven_env.engines import play_game
    from riven_env.game.events import dumps_event

    seen = {"games": 0, "exchanges": 0, "ros_rounds": 0}
    for mission, blue, red, seed in games:
        events = play_game(mission, blue, red, seed, overrides=ROS)
        assert events[-1]["type"] == "game_end", (mission, blue, red, seed)
        for event in events:
            json.loads(dumps_event(event))  # every event is JSON-ready
        seen["games"] += 1
        seen["exchanges"] += sum(1 for e in events if e["type"] == "ros_exchange")
        seen["ros_rounds"] += sum(1 for e in events if e["type"] == "ros_round")
    return seen


def _missions() -> list[str]:
    from riven_env.scenario.loader import list_bundled

    return [info.name for info in list_bundled()]


@pytest.mark.slow  # minutes of games on 2 cores: CI's second step
def test_soak_sample_every_mission_ends():
    """CI sample: every bundled mission once, the agent pairings taken in turn."""
    missions = _missions()
    games = [(m, *SOAK_PAIRS[k % len(SOAK_PAIRS)], 100 + k) for k, m in enumerate(missions)]
    seen = _soak(games)
    assert seen["games"] == len(missions) and seen["exchanges"] > 0


@pytest.mark.slow
def test_soak_every_mission_every_pairing():
    """Every mission x every pairing x ``RIVEN_ROS_SOAK_SEEDS`` seeds (default 1: 72 games).

    The branch's soak ran ``RIVEN_ROS_SOAK_SEEDS=8`` (576 games, passed); see "Soak" in
    ``docs/resolution-riddle-of-steel.md``.
    """
    import os

    seeds = int(os.environ.get("RIVEN_ROS_SOAK_SEEDS", "1"))
    games = [
        (m, blue, red, seed)
        for m in _missions()
        for blue, red in SOAK_PAIRS
        for seed in range(seeds)
    ]
    seen = _soak(games)
    assert seen["games"] == len(games) and seen["exchanges"] > 0


def test_replay_narration_tells_ros_rolls_in_words():
    from riven_env.engines import play_game
    from riven_env.replay.narrate import describe_events

    events = play_game("duel-1v1", "oracle", "oracle", 5, overrides=ROS)
    lines = dict(zip((e["seq"] for e in events), describe_events(events), strict=True))
    ros_events = [e for e in events if e["type"].startswith("ros_")]
    assert {e["type"] for e in ros_events} >= {"ros_round", "ros_exchange", "ros_round_end"}
    for event in ros_events:
        assert not lines[event["seq"]].startswith(event["type"])  # not the generic dump
    exchange = next(e for e in events if e["type"] == "ros_exchange")
    line = lines[exchange["seq"]]
    assert f"zone {exchange['zone']}" in line and f"ATN {exchange['atn']}" in line
    tests = [e for e in events if e["type"] in ("test", "shot") and e.get("system")]
    for event in tests:
        assert "d10 vs TN" in lines[event["seq"]]


def test_environments_refuse_the_choice_phase_clearly():
    from riven_env.envs.config import build_env_parts
    from riven_env.envs.gym_env import EnvArgumentError

    with pytest.raises(EnvArgumentError, match="riddle-of-steel"):
        build_env_parts(
            "duel-1v1",
            settings=None,
            illegal_action=None,
            rules_overrides=ROS,
            models_per_side=None,
            objectives=None,
        )
