"""The New World resolution system: scripted-dice tests of every rule, and exact odds.

Rules: ``shared/rules/other-systems/new-world-core-rules-ch1.txt``; the mapping onto RIVEN's
missions is ``docs/resolution-systems.md`` ("New World").
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from types import SimpleNamespace

import pytest
from rules_engines import ENGINES

from riven_env.game import Decision
from riven_env.game.decisions import ACCEPT
from riven_env.rules import load_rules
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext, get_resolution
from riven_env.rules.results import Aftermath, MeleeResult, Modifier
from riven_env.rules.systems import new_world
from riven_env.rules.systems.new_world import opposed_odds, success_odds

RULES = load_rules(overrides={"resolution": "new-world"})
SYSTEM = get_resolution("new-world", RULES)
S = SYSTEM.settings
OVERRIDES = {"resolution": "new-world"}


@pytest.fixture(autouse=True, params=ENGINES)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every rule test on both engines: the Python one and the core's
    (:class:`~riven_env.native.new_world.NativeNewWorldResolution` as ``SYSTEM``)."""
    if request.param == "native":
        from riven_env.native.new_world import NativeNewWorldResolution

        monkeypatch.setitem(globals(), "SYSTEM", NativeNewWorldResolution(RULES))
    return str(request.param)


def on_engine(state, engine: str):
    """The game's resolution seam on ``engine`` (the core's dice behind the Python loop)."""
    if engine == "native":
        from riven_env.native.new_world import NativeNewWorldResolution

        state.resolution = NativeNewWorldResolution(state.rules)
    return state


def stream(script_dice, *faces):
    return script_dice(SimpleNamespace(), *faces)


def profile(**fields) -> ModelProfile:
    base = {"might": 2, "agility": 2, "wit": 2, "resolve": 2, "mettle": 4, "wounds": 2}
    return ModelProfile.from_dict("test", {**base, **fields}, {}, "test")


def nw_test(script_dice, value, *faces, tn=8, kind="rally", mods=(), context=None):
    return SYSTEM.roll_test(
        kind, "resolve", value, tn, list(mods), stream(script_dice, *faces), context=context
    )


# ----------------------------------------------------------------------------- the roll
def test_the_roll_is_2d6_plus_characteristic_plus_rank(script_dice) -> None:
    record = nw_test(script_dice, 2, 4, 3, context=RollContext())
    # Characteristic = Resolve + offset; a bare roll has no rank (RollContext, no profile):
    # the bonus is the characteristic; the difficulty is the RIVEN TN + offset.
    assert record.bonus == 2 + S.characteristic_offset
    assert record.difficulty == 8 + S.difficulty_offset
    assert record.total == 4 + 3 + record.bonus


def test_success_is_equal_to_or_above_the_difficulty(script_dice) -> None:
    # Resolve 2 -> characteristic 3; difficulty 11: 2d6 must reach 8.
    exactly = nw_test(script_dice, 2, 5, 3)
    assert exactly.total == exactly.difficulty and exactly.result == "hit"
    short = nw_test(script_dice, 2, 4, 3)
    assert short.total == short.difficulty - 1 and short.result == "miss"
    critical = nw_test(script_dice, 2, 6, 6)  # 12 + 3 = 15 vs 11: margin 4, a Hit
    assert critical.margin == 4 and critical.result == "hit"
    big = nw_test(script_dice, 2, 6, 6, mods=[Modifier("aim", 1)])
    assert big.margin == S.critical_margin and big.result == "critical"


def test_snake_eyes_always_fails_and_luck_cannot_save_it(script_dice) -> None:
    record = nw_test(
        script_dice,
        2,
        1,
        1,
        tn=2,
        mods=[Modifier("huge", 20)],
        context=RollContext(resources={"luck": 5}),
    )
    assert record.total >= record.difficulty and record.result == "miss"
    assert SYSTEM.spend_options(record, momentum=0, strain=0, strain_max=4) == []
    assert SYSTEM.finalise(record).detail["snake_eyes"] is True


def test_the_roll_limit_caps_characteristic_plus_rank() -> None:
    strong = profile(might=5, keywords=["hero"])
    assert new_world.bonus_of(strong, "might", S) == min(
        5 + S.characteristic_offset + 2, S.roll_limit
    )
    assert new_world.rank_of(profile(keywords=["minion"]), S) == 0
    assert new_world.rank_of(profile(), S) == S.rank_default


# ----------------------------------------------------------------------------- passive opposition
def test_a_shot_target_does_not_resist_it_sets_7_plus_characteristic_plus_rank(script_dice) -> None:
    target = profile(agility=3)
    context = RollContext(opponent=target, cover="soft")
    shot = nw_test(script_dice, 2, 4, 4, kind="shot", context=context)
    assert shot.difficulty == S.passive_base + 3 + S.characteristic_offset + S.rank_default
    assert Modifier("cover:soft", S.cover_modifier["soft"]) in shot.modifiers
    assert SYSTEM.finalise(shot).tn == shot.difficulty  # the event's tn is the difficulty


# ----------------------------------------------------------------------------- situational modifiers
def test_each_situational_modifier_stays_within_two_but_they_add_up(script_dice) -> None:
    # RAW: "Each stays within -2 to +2. Separate modifiers add together, so the total on one
    # roll can go beyond that." (new_world.roll.modifier_limit)
    assert S.modifier_limit == 2
    mods = [Modifier("charge", 3), Modifier("outnumbered", 2), Modifier("shaken", -5)]
    record = nw_test(script_dice, 2, 4, 3, mods=mods)
    assert [(m.source, m.value) for m in record.modifiers] == [
        ("charge", 2),
        ("outnumbered", 2),
        ("shaken", -2),
    ]
    assert record.total == 4 + 3 + record.bonus + 2
    high = nw_test(script_dice, 2, 4, 3, mods=[Modifier("charge", 2), Modifier("aim", 2)])
    assert high.total == 4 + 3 + high.bonus + 4  # the sum goes beyond +2
    closed = SYSTEM.finalise(record)
    assert [m.value for m in closed.modifiers] == [2, 2, -2]  # the event shows each clamped


def test_melee_modifiers_are_clamped_each_side(script_dice) -> None:
    roll = SYSTEM.start_melee(
        Combatant(profile(), (Modifier("charge", 4),), RollContext(engaged=True), {"luck": 0}),
        Combatant(profile(), (Modifier("shield", -3),), RollContext(engaged=True), {"luck": 0}),
        stream(script_dice, 3, 3, 3, 3),
    )
    result = SYSTEM.finalise(roll)
    assert [m.value for m in result.attacker_modifiers] == [2]
    assert [m.value for m in result.defender_modifiers] == [-2]


def test_odds_clamp_the_modifier_given() -> None:
    assert new_world.odds_test(RULES, bonus=3, difficulty=11, modifier=5) == new_world.odds_test(
        RULES, bonus=3, difficulty=11, modifier=2
    )
    assert new_world.odds_test(RULES, bonus=3, difficulty=11, modifier=2) != new_world.odds_test(
        RULES, bonus=3, difficulty=11, modifier=1
    )


# ----------------------------------------------------------------------------- helpers
def test_helpers_are_a_choice_before_the_roll(script_dice) -> None:
    context = RollContext(helpers=3, helper_models=(4, 5, 6))
    record = nw_test(script_dice, 2, 4, 3, context=context)
    assert not record.rolled and record.result == "miss"
    # RAW: one helper or two, never more.
    assert SYSTEM.spend_options(record, momentum=0, strain=0, strain_max=4) == [
        "help:0",
        "help:1",
        "help:2",
    ]
    helped = SYSTEM.apply_spend(record, "help:2", stream(script_dice, 4, 3))
    assert helped.rolled and helped.dice == (4, 3)
    assert helped.total == 4 + 3 + helped.bonus + 2 * S.helper_bonus
    assert helped.helper_models == (4, 5)


def test_no_help_for_attacks_or_resist_rolls(script_dice) -> None:
    context = RollContext(helpers=2, helper_models=(4, 5), opponent=profile())
    assert nw_test(script_dice, 2, 4, 3, kind="shot", context=context).rolled
    assert nw_test(script_dice, 2, 4, 3, kind="resist", context=context).rolled


def test_helpers_share_a_failure_by_five_or_more(script_dice) -> None:
    context = RollContext(helpers=2, helper_models=(4, 5))
    record = nw_test(script_dice, 1, context=context, tn=12)
    bad = SYSTEM.apply_spend(record, "help:2", stream(script_dice, 1, 2))
    assert bad.total - bad.difficulty <= -S.shared_risk_margin
    after = SYSTEM.finalise(bad).aftermath
    assert [a for a in after if a.effect == "strain"] == [
        Aftermath(f"model:{k}", "strain", S.shared_risk_strain, "", "shared risk") for k in (4, 5)
    ]


def test_the_oracle_calls_helpers_unless_the_roll_is_near_sure(script_dice) -> None:
    view = ChoiceView(model="b1", resources={})
    hard = nw_test(script_dice, 1, context=RollContext(helpers=2, helper_models=(1, 2)), tn=10)
    choice = SYSTEM.oracle_choice(hard, ["help:0", "help:1", "help:2"], view)
    assert (choice.option, choice.rule) == ("help:2", "new-world:helpers")
    easy = nw_test(script_dice, 5, context=RollContext(helpers=2, helper_models=(1, 2)), tn=2)
    assert SYSTEM.oracle_choice(easy, ["help:0", "help:1", "help:2"], view).option == "help:0"


# ----------------------------------------------------------------------------- Luck
def test_luck_is_spent_after_the_roll_one_point_for_plus_one(script_dice) -> None:
    record = nw_test(script_dice, 2, 4, 2, context=RollContext(resources={"luck": 2}))
    assert record.margin == -2
    assert SYSTEM.spend_options(record, momentum=0, strain=0, strain_max=4) == ["luck"]
    once = SYSTEM.apply_spend(record, "luck", None)
    assert once.total == record.total + S.luck_per_point and once.result == "miss"
    twice = SYSTEM.apply_spend(once, "luck", None)
    assert twice.result == "hit"
    result = SYSTEM.finalise(twice)
    assert result.rolled_result == "miss" and result.result == "hit"
    assert Aftermath("actor", "resource", -2, "luck", "luck spent") in result.aftermath


def test_luck_is_not_offered_when_it_cannot_change_the_result(script_dice) -> None:
    hopeless = nw_test(script_dice, 1, 1, 2, tn=12, context=RollContext(resources={"luck": 1}))
    assert SYSTEM.spend_options(hopeless, momentum=0, strain=0, strain_max=4) == []


# ----------------------------------------------------------------------------- opposed melee
def melee(script_dice, a_faces, d_faces, a=None, d=None, a_luck=0, d_luck=0):
    return SYSTEM.start_melee(
        Combatant(a or profile(), (), RollContext(engaged=True), {"luck": a_luck}),
        Combatant(d or profile(), (), RollContext(engaged=True), {"luck": d_luck}),
        stream(script_dice, *a_faces, *d_faces),
    )


@pytest.mark.parametrize(
    ("a_faces", "d_faces", "outcome", "winner"),
    [
        ((3, 3), (3, 3), "parry", None),  # RAW: ties go to the defender
        ((4, 3), (3, 3), "recoil", "attacker"),  # margin 1
        ((6, 3), (3, 3), "wound", "attacker"),  # margin 3 = wound_margin
        ((6, 6), (2, 3), "critical", "attacker"),  # margin 7 = critical_margin
        ((2, 2), (5, 5), "parry", None),  # the defender's win only stops the attack
        ((1, 1), (1, 2), "parry", None),  # the attacker's snake eyes fails
        ((2, 1), (1, 1), "recoil", "attacker"),  # the defender's snake eyes: its defence fails
    ],
)
def test_opposed_melee_by_margin(script_dice, a_faces, d_faces, outcome, winner) -> None:
    result = SYSTEM.finalise(melee(script_dice, a_faces, d_faces))
    assert isinstance(result, MeleeResult)
    assert (result.outcome, result.winner) == (outcome, winner)
    assert result.attacker_total == sum(a_faces) + result.detail["bonus"]


def test_in_a_melee_the_attacker_then_the_defender_may_spend_luck(script_dice) -> None:
    record = melee(script_dice, (5, 3), (3, 3), a_luck=1, d_luck=2)  # margin 2: a recoil
    assert record.chooser == "actor"
    assert SYSTEM.spend_options(record, momentum=0, strain=0, strain_max=4) == ["luck"]
    handed = SYSTEM.accept(record)  # the attacker stands on its recoil
    assert handed.chooser == "target"
    assert SYSTEM.spend_options(handed, momentum=0, strain=0, strain_max=4) == ["luck"]
    defended = SYSTEM.apply_spend(SYSTEM.apply_spend(handed, "luck", None), "luck", None)
    assert defended.margin == 0 and SYSTEM.finalise(defended).outcome == "parry"  # a tie
    assert SYSTEM.accept(defended) is None


def test_luck_is_offered_only_where_it_changes_the_outcome(script_dice) -> None:
    # Margin 1 (recoil); one point for the attacker makes 2: still a recoil.
    record = melee(script_dice, (4, 3), (3, 3), a_luck=1, d_luck=0)
    assert record.chooser == "target"  # nothing for the attacker to choose
    assert SYSTEM.spend_options(record, momentum=0, strain=0, strain_max=4) == []


def test_a_defender_without_choices_is_not_asked(script_dice) -> None:
    record = melee(script_dice, (6, 6), (1, 2), a_luck=1, d_luck=0)
    assert SYSTEM.accept(record) is None


# ----------------------------------------------------------------------------- in a game
def test_the_defender_decides_on_its_luck_in_a_game(mini_game, script_dice, engine) -> None:
    state = mini_game(
        [("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))],
        overrides=OVERRIDES,
    )
    on_engine(state, engine)
    state.models[0].resources["luck"] = 0
    script_dice(state, 4, 4, 3, 3, 3)  # activation; attacker 4+3; defender 3+3
    state.apply(Decision("activate", model=0, dice=1))
    events = state.apply(Decision("melee", model=0, target=1))
    assert not [e for e in events if e["type"] == "melee"]
    assert state.phase == "spend" and state.current_side == "red"
    assert [d.option for d in state.legal_decisions()] == ["luck", "accept"]
    events = state.apply(Decision("spend", option="luck"))
    decision = next(e for e in events if e["type"] == "decision")
    assert decision["side"] == "red"
    events += state.apply(ACCEPT) if state.phase == "spend" else []
    fight = next(e for e in events if e["type"] == "melee")
    assert fight["outcome"] == "parry" and fight["detail"]["defender_luck_spent"] == 1
    spent = next(e for e in events if e["type"] == "resource")
    assert (spent["model"], spent["delta"]) == ("r1", -1)
    assert state.phase != "spend" and state.pending is None


def test_helpers_are_allocated_before_a_rally_test(mini_game, script_dice, engine) -> None:
    state = mini_game(
        [
            ("blue", "trooper", "b1", (5, 5)),
            ("blue", "trooper", "b2", (7, 5)),
            ("red", "trooper", "r1", (19, 20)),
        ],
        overrides=OVERRIDES,
    )
    on_engine(state, engine)
    state.models[0].conditions["shaken"] = 0
    script_dice(state, 4)
    state.apply(Decision("activate", model=0, dice=1))
    state.apply(Decision("rally", model=0, target=0))
    legal = state.legal_decisions()
    assert [(d.kind, d.option) for d in legal] == [("allocate", "help:0"), ("allocate", "help:1")]
    script_dice(state, 5, 3)
    events = state.apply(Decision("allocate", option="help:1"))
    events += state.apply(ACCEPT) if state.phase == "spend" else []
    test_event = next(e for e in events if e["type"] == "test")
    assert test_event["detail"]["helpers"] == 1 and test_event["result"] == "hit"
    shaken = -1  # conditions.shaken.test_modifier
    bonus = 2 + S.characteristic_offset + S.rank_default
    assert test_event["total"] == 5 + 3 + bonus + shaken + S.helper_bonus


# ----------------------------------------------------------------------------- exact odds
def brute_success(bonus: int, difficulty: int) -> Fraction:
    wins = sum(
        1
        for a, b in itertools.product(range(1, 7), repeat=2)
        if (a, b) != (1, 1) and a + b + bonus >= difficulty
    )
    return Fraction(wins, 36)


@pytest.mark.parametrize("bonus", [0, 3, 5, 9, 20])
@pytest.mark.parametrize("difficulty", [2, 7, 9, 11, 13, 17])
def test_success_odds_match_brute_force(bonus, difficulty) -> None:
    assert success_odds(bonus, difficulty, RULES) == brute_success(bonus, difficulty)


def test_the_books_table_rounds_to_the_exact_odds() -> None:
    # Chapter 1's table: average familiar (+3) vs Medium (11) 42%, trained (+5) vs Hard 42%.
    assert round(float(success_odds(3, 11, RULES)) * 100) == 42
    assert round(float(success_odds(5, 13, RULES)) * 100) == 42
    assert success_odds(20, 2, RULES) == Fraction(35, 36)  # snake eyes still fails


def test_opposed_odds_add_up_and_match_brute_force() -> None:
    odds = opposed_odds(4, 3, RULES)
    assert sum(odds.values()) == 1
    counts = dict.fromkeys(odds, 0)
    for a in itertools.product(range(1, 7), repeat=2):
        for d in itertools.product(range(1, 7), repeat=2):
            if a == (1, 1):
                counts["parry"] += 1
                continue
            margin = sum(a) + 4 - (sum(d) + 3)
            if d == (1, 1):
                margin = max(1, margin)
            key = (
                "parry"
                if margin <= 0
                else "critical"
                if margin >= S.melee_critical_margin
                else "wound"
                if margin >= S.wound_margin
                else "recoil"
            )
            counts[key] += 1
    assert odds == {k: Fraction(v, 36**2) for k, v in counts.items()}


def test_cli_odds_test_json() -> None:
    from typer.testing import CliRunner

    from riven_env.cli.main import app

    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "odds",
            "test",
            "--resolution",
            "new-world",
            "--bonus",
            "5",
            "--difficulty",
            "11",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["success"] == pytest.approx(float(brute_success(5, 11)))
    missing = runner.invoke(app, ["odds", "test", "--resolution", "new-world", "--bonus", "5"])
    assert missing.exit_code == 2 and "--difficulty" in missing.output
    fight = runner.invoke(
        app, ["odds", "melee", "--resolution", "new-world", "--might", "3", "--vs", "2", "--json"]
    )
    assert set(json.loads(fight.output)) == {"parry", "recoil", "wound", "critical"}


def test_shot_odds_use_the_targets_passive_difficulty() -> None:
    odds = new_world.odds_shoot(RULES, agility=3, cover="soft", modifier=0, vs_agility=2)
    shooter = 3 + S.characteristic_offset + S.rank_default + S.cover_modifier["soft"]
    target = S.passive_base + 2 + S.characteristic_offset + S.rank_default
    assert odds["success"] == brute_success(shooter, target)
    assert odds["success"] + odds["failure"] == 1
