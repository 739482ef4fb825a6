"""The Invictus resolution system: scripted-dice tests of every rule, and exact odds.

Rules: ``shared/rules/other-systems/invictus-rules.txt``; the mapping onto RIVEN's missions
is ``docs/resolution-systems.md`` ("Invictus"). Dice are scripted with the ``script_dice``
fixture (``tests/conftest.py``); an engine-level test hands it a bare namespace to get a
:class:`FixedDice` stream.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from types import SimpleNamespace

import pytest

from riven_env.game import Decision
from riven_env.game.decisions import ACCEPT
from riven_env.rules import load_rules
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import ChoiceView, Combatant, RollContext, get_resolution
from riven_env.rules.results import Aftermath, MeleeResult, Modifier
from riven_env.rules.systems import invictus
from riven_env.rules.systems.invictus import InvictusResolution, pool_odds

RULES = load_rules(overrides={"resolution": "invictus"})
SYSTEM = get_resolution("invictus", RULES)
S = SYSTEM.settings
OVERRIDES = {"resolution": "invictus"}


def dice_stream(script_dice, *faces):
    """A FixedDice stream outside a game."""
    return script_dice(SimpleNamespace(), *faces)


def roll(script_dice, pool, *faces, tn=8, mods=(), context=None, kind="rally", danger=()):
    """Roll ``kind`` with a pool of ``pool`` dice (attribute = pool) and scripted faces."""
    rng = dice_stream(script_dice, *faces, *danger)
    return SYSTEM.roll_test(kind, "resolve", pool, tn, list(mods), rng, context=context)


def profile(**fields) -> ModelProfile:
    base = {"might": 2, "agility": 2, "wit": 2, "resolve": 2, "mettle": 4, "wounds": 2}
    return ModelProfile.from_dict("test", {**base, **fields}, {}, "test")


# ----------------------------------------------------------------------------- reading the pool
@pytest.mark.parametrize(
    ("faces", "band", "riven"),
    [
        ((1,), "miss", "miss"),
        ((2, 2, 1), "miss", "miss"),
        ((3, 2, 1), "swing", "partial"),  # RAW: 3-5 Swing (a Swing about half the time)
        ((3,), "swing", "partial"),
        ((4,), "swing", "partial"),
        ((5, 3), "swing", "partial"),
        ((6, 1), "hit", "hit"),
        ((6, 5, 5), "hit", "hit"),
        ((6, 6), "crit", "critical"),
        ((6, 1, 6, 2), "crit", "critical"),
    ],
)
def test_the_single_highest_die_is_read(script_dice, faces, band, riven) -> None:
    record = roll(script_dice, len(faces), *faces)
    assert (record.band, record.result) == (band, riven)
    assert record.dice == tuple(sorted(faces, reverse=True))
    assert SYSTEM.finalise(record).detail["band"] == band


def test_the_pool_is_the_attribute_within_the_data_limits(script_dice) -> None:
    assert roll(script_dice, 3, 1, 2, 3).pool == 3
    assert roll(script_dice, 0, 2).pool == S.min_dice  # never below min_dice
    many = roll(script_dice, 9, *([2] * S.max_dice))
    assert many.pool == S.max_dice


# ----------------------------------------------------------------------------- Favourable / Unfavourable
def test_favourable_lets_the_roller_raise_any_die_once(script_dice) -> None:
    record = roll(script_dice, 3, 6, 5, 2, mods=[Modifier("aim", 1)])
    assert record.favourable and record.band == "hit"
    options = SYSTEM.spend_options(record, momentum=0, strain=0, strain_max=4, resources={})
    assert options == ["favour:1", "favour:2"]  # the 6 cannot rise; one option per value
    raised = SYSTEM.apply_spend(record, "favour:1", None)
    assert raised.dice == (6, 6, 2) and raised.band == "crit"
    assert SYSTEM.spend_options(raised, momentum=0, strain=0, strain_max=4, resources={}) == []


def test_an_easy_tn_is_favourable_a_hard_one_unfavourable(script_dice) -> None:
    assert roll(script_dice, 1, 3, tn=6).favourable
    hard = roll(script_dice, 2, 6, 2, tn=10)
    assert hard.unfavourable and not hard.favourable
    # RAW: drop the highest die by one: 6 becomes 5, the Hit a Swing.
    assert hard.rolled_dice == (6, 2) and hard.dice == (5, 2) and hard.band == "swing"
    assert hard.rolled_band == "swing"  # the band as read after the drop


def test_unfavourable_cannot_drop_a_one(script_dice) -> None:
    assert roll(script_dice, 2, 1, 1, tn=10).dice == (1, 1)


def test_a_large_circumstance_adds_or_removes_dice(script_dice) -> None:
    # Score +3: Favourable and (3 - 1) // steps_per_die = 1 more die.
    big = roll(script_dice, 2, 1, 1, 1, mods=[Modifier("a", 2), Modifier("b", 1)])
    assert big.pool == 3 and big.favourable
    # Score -3 (TN 12 is -2, a -1 modifier): Unfavourable and one die fewer.
    small = roll(script_dice, 2, 4, tn=12, mods=[Modifier("c", -1)])
    assert small.pool == 1 and small.unfavourable and small.dice == (3,)


# ----------------------------------------------------------------------------- Danger Dice
def test_one_danger_die_per_factor_at_most_three(script_dice) -> None:
    context = RollContext(
        engaged=True,
        opponent=profile(resolve=4),
        conditions=("exposed",),
        wounds_left=1,
        wounds_max=3,
        final_round=True,
    )
    record = roll(script_dice, 3, 2, 2, danger=(1, 2, 3), context=context)  # pool 3 - 1d
    assert record.factors == (
        "fray",
        "superior_opposition",
        "exposed",
        "critical_health",
        "time_pressure",
    )
    assert record.pool == 2 and record.danger == (1, 2, 3)  # five factors, three dice


@pytest.mark.parametrize(
    ("faces", "danger", "engaged", "move"),
    [
        ((5,), (2, 3), False, "soft"),  # Swing: the highest Danger Die 1-3 is a soft move
        ((5,), (2, 4), False, "hard"),  # 4-6 hard
        ((2,), (6,), False, "hard"),  # a Miss too
        ((6,), (6,), False, None),  # a Hit ignores them ...
        ((6,), (6,), True, "hard"),  # ... except a 6 in a fray
        ((6,), (5,), True, None),  # only a 6 bites on a Hit
        ((6, 6), (6,), True, None),  # a Crit is not bitten (fray_bite_on = ["hit"])
    ],
)
def test_the_highest_danger_die_picks_the_narrators_move(
    script_dice, faces, danger, engaged, move
) -> None:
    context = danger_context(len(danger), engaged)
    record = roll(script_dice, len(faces), *faces, danger=danger, context=context)
    assert record.danger == danger
    result = SYSTEM.finalise(record)
    assert result.detail["move"] == move
    effects = [a for a in result.aftermath if "move" in a.reason]
    if move is None:
        assert effects == []
    else:
        effect, amount = S.soft if move == "soft" else S.hard
        assert effects == [
            Aftermath("actor", effect, amount, "", f"{move} move (danger {max(danger)})")
        ]


def danger_context(count: int, engaged: bool) -> RollContext:
    """A context raising exactly ``count`` Danger factors (fray when ``engaged``)."""
    if engaged:
        return RollContext(engaged=True, final_round=count > 1)
    return RollContext(conditions=("exposed",), final_round=count > 1)


# ----------------------------------------------------------------------------- Luck
def test_luck_is_earned_on_a_crit_up_to_the_cap(script_dice) -> None:
    result = SYSTEM.finalise(roll(script_dice, 2, 6, 6, context=RollContext(resources={"luck": 0})))
    assert Aftermath("actor", "resource", 1, "luck", "crit") in result.aftermath
    full = RollContext(resources={"luck": S.luck_cap})
    capped = SYSTEM.finalise(roll(script_dice, 2, 6, 6, context=full))
    assert not [a for a in capped.aftermath if a.effect == "resource"]


def test_luck_is_spent_after_the_roll_to_raise_a_die(script_dice) -> None:
    record = roll(script_dice, 2, 5, 3, context=RollContext(resources={"luck": 2}))
    options = SYSTEM.spend_options(
        record, momentum=0, strain=0, strain_max=4, resources={"luck": 2}
    )
    assert options == ["luck:0", "luck:1"]
    lifted = SYSTEM.apply_spend(record, "luck:0", None)
    assert lifted.dice == (6, 3) and lifted.band == "hit" and lifted.luck_spent == 1
    again = SYSTEM.apply_spend(lifted, "luck:1", None)  # a second point: 3 -> 4
    assert again.dice == (6, 4) and again.luck_spent == 2
    assert not SYSTEM.spend_options(
        again, momentum=0, strain=0, strain_max=4, resources={"luck": 2}
    )
    result = SYSTEM.finalise(again)
    assert Aftermath("actor", "resource", -2, "luck", "luck spent") in result.aftermath
    assert result.spends == ("luck:0", "luck:1")


def test_the_oracle_explains_its_raises(script_dice) -> None:
    view = ChoiceView(model="b1", resources={"luck": 1})
    favourable = roll(script_dice, 3, 6, 5, 2, mods=[Modifier("aim", 1)])
    options = SYSTEM.spend_options(favourable, momentum=0, strain=0, strain_max=4)
    choice = SYSTEM.oracle_choice(favourable, [*options, "accept"], view)
    assert (choice.option, choice.rule) == ("favour:1", "invictus:favour_best")
    assert "Hit -> Crit" in choice.text
    swing = roll(script_dice, 2, 5, 1, context=RollContext(resources={"luck": 1}))
    options = SYSTEM.spend_options(swing, momentum=0, strain=0, strain_max=4, resources={"luck": 1})
    choice = SYSTEM.oracle_choice(swing, [*options, "accept"], view)
    assert (choice.option, choice.rule) == ("luck:0", "invictus:luck_lifts_band")
    low = roll(script_dice, 2, 3, 1, context=RollContext(resources={"luck": 1}))
    choice = SYSTEM.oracle_choice(low, ["luck:0", "luck:1", "accept"], view)
    assert choice.option == "accept"  # 3 -> 4 is only a Swing: below luck_lifts_to


# ----------------------------------------------------------------------------- the wound track
def test_the_track_has_an_overflow_box_for_deaths_door() -> None:
    assert SYSTEM.starting_wounds(profile(wounds=2)) == 2 + S.deaths_door_overflow
    assert SYSTEM.starting_resources(profile()) == {"luck": S.luck_start}


def test_critical_health_takes_a_die_from_every_roll(script_dice) -> None:
    # RAW: -1d to all Actions. Every roll Invictus resolves in RIVEN is an Action (RIVEN has
    # no reaction roll: no test resists a Condition), so no kind is exempt (issue 38 item 7:
    # the old health.reaction_kinds = ["resist"] named a kind nothing produces).
    critical = RollContext(wounds_left=1, wounds_max=3)
    for kind in ("rally", "shot", "resist"):
        action = roll(script_dice, 3, 4, 4, danger=(1,), context=critical, kind=kind)
        assert action.pool == 2 and action.critical_health and "critical_health" in action.factors


def test_deaths_door_is_down_one_wound_after_the_track_fills(mini_game, script_dice) -> None:
    state = mini_game(
        [("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))],
        overrides=OVERRIDES,
    )
    red = state.models[1]
    assert red.wounds == red.wounds_max == 3  # two boxes + Death's Door
    from riven_env.game import effects

    effects.wound(state, 1, 2, 0, "test")
    assert red.is_active and red.wounds == 1  # every box filled: Critical Health
    effects.wound(state, 1, 1, 0, "test")
    assert red.is_down  # overflow: Death's Door


# ----------------------------------------------------------------------------- in a game
def duel(mini_game):
    return mini_game(
        [("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))],
        overrides=OVERRIDES,
    )


def test_a_melee_is_the_attackers_roll(mini_game, script_dice) -> None:
    state = duel(mini_game)
    # Activation 4 vs Mettle 4 (RIVEN's), then the melee: pool 2 (Might), one Danger Die
    # (a fray), no circumstance; no Luck and no Favourable: nothing to choose.
    script_dice(state, 4, 6, 5, 2)
    state.apply(Decision("activate", model=0, dice=1))
    events = state.apply(Decision("melee", model=0, target=1))
    melee = next(e for e in events if e["type"] == "melee")
    assert melee["attacker_dice"] == [6, 5] and melee["defender_dice"] == []
    assert melee["outcome"] == "wound" and melee["winner"] == "b1"
    assert melee["detail"]["band"] == "hit" and melee["detail"]["danger_dice"] == [2]
    assert state.models[1].wounds == 2 and state.models[0].wounds == 3


def test_the_attacker_chooses_its_raises_before_the_melee_resolves(mini_game, script_dice) -> None:
    state = duel(mini_game)
    state.models[0].resources["luck"] = 1
    script_dice(state, 4, 5, 5, 1)
    state.apply(Decision("activate", model=0, dice=1))
    events = state.apply(Decision("melee", model=0, target=1))
    assert not [e for e in events if e["type"] == "melee"]  # pending: blue may spend Luck
    assert state.phase == "spend" and state.current_side == "blue"
    assert [d.option for d in state.legal_decisions()] == ["luck:0", "accept"]
    events = state.apply(Decision("spend", option="luck:0"))
    events += state.apply(ACCEPT) if state.phase == "spend" else []
    melee = next(e for e in events if e["type"] == "melee")
    assert melee["attacker_dice"] == [6, 5] and melee["detail"]["luck_spent"] == 1


def test_a_crit_earns_luck(mini_game, script_dice) -> None:
    state = duel(mini_game)
    script_dice(state, 4, 6, 6, 1)
    state.apply(Decision("activate", model=0, dice=1))
    events = state.apply(Decision("melee", model=0, target=1))
    luck = [e for e in events if e["type"] == "resource"]
    assert [(e["model"], e["resource"], e["delta"]) for e in luck] == [("b1", "luck", 1)]
    assert state.models[0].resources["luck"] == 1
    assert state.models[1].wounds == 3 - S.melee_crit_wounds


def test_a_hard_move_wounds_the_roller(mini_game, script_dice) -> None:
    state = duel(mini_game)
    script_dice(state, 4, 5, 1, 5)  # a Swing: the defender is wounded, the hard move bites
    state.apply(Decision("activate", model=0, dice=1))
    events = state.apply(Decision("melee", model=0, target=1))
    melee = next(e for e in events if e["type"] == "melee")
    assert melee["detail"]["move"] == "hard" and melee["outcome"] == S.melee["swing"]
    hurt = [e for e in events if e["type"] == "wound" and e["model"] == "b1"]
    assert [e["cause"] for e in hurt] == ["hard move (danger 5)"]


def test_luck_spent_in_a_game_is_a_decision_and_an_event(mini_game, script_dice) -> None:
    state = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))],
        overrides=OVERRIDES,
    )
    state.models[0].resources["luck"] = 1
    script_dice(state, 4, 5, 3)  # activation; the shot's pool (Agility 2), no Danger
    state.apply(Decision("activate", model=0, dice=1))
    state.apply(Decision("shoot", model=0, target=1))
    assert state.phase == "spend"
    options = [d.option for d in state.legal_decisions()]
    assert options == ["luck:0", "luck:1", "accept"]
    events = state.apply(Decision("spend", option="luck:0"))
    events += state.apply(ACCEPT) if state.phase == "spend" else []
    shot = next(e for e in events if e["type"] == "shot")
    assert shot["dice"] == [6, 3] and shot["result"] == "hit" and shot["spends"] == ["luck:0"]
    spent = next(e for e in events if e["type"] == "resource")
    assert (spent["delta"], spent["value"]) == (-1, 0)


def test_melee_result_type(script_dice) -> None:
    rng = dice_stream(script_dice, 4, 4, 3)
    started = SYSTEM.start_melee(
        Combatant(profile(), (), RollContext(engaged=True)),
        Combatant(profile(), (Modifier("shield", 1),), RollContext(engaged=True)),
        rng,
    )
    assert started.unfavourable  # the defender's +1 counts against the attacker
    assert isinstance(SYSTEM.finalise(started), MeleeResult)


# ----------------------------------------------------------------------------- data
def test_unknown_keys_in_the_section_are_refused(tmp_path) -> None:
    from pathlib import Path

    from riven_env.errors import RulesDataError

    bundled = Path(invictus.__file__).parents[1] / "data" / "invictus.toml"
    section = bundled.read_text().replace("crit_gain = 1", "crit_gian = 1")
    path = tmp_path / "riven-with-invictus.toml"
    path.write_text(Path(load_rules().source).read_text() + "\n" + section)
    with pytest.raises(RulesDataError, match=r"invictus\.luck\.crit_gian is not a known field"):
        load_rules(path, {"resolution": "invictus"})


def test_section_values_take_overrides() -> None:
    rules = load_rules(overrides={"resolution": "invictus", "invictus.danger.max_dice": "1"})
    assert InvictusResolution(rules).settings.danger_max == 1
    assert (
        load_rules(overrides={"resolution": "invictus", "crit_gain": 0}).get(
            "invictus.luck.crit_gain"
        )
        == 0
    )


# ----------------------------------------------------------------------------- exact odds
def brute_force(n: int, favourable: bool, unfavourable: bool) -> dict[str, Fraction]:
    """Every roll of n d6, read by hand: the best raise tried on every die."""

    def band(dice):
        if sum(1 for d in dice if d == 6) >= 2:
            return "crit"
        top = max(dice)
        return "miss" if top <= 2 else "swing" if top <= 5 else "hit"

    order = ["miss", "swing", "hit", "crit"]
    counts = dict.fromkeys(order, 0)
    for dice in itertools.product(range(1, 7), repeat=n):
        dice = list(dice)
        if unfavourable:
            k = dice.index(max(dice))
            dice[k] = max(1, dice[k] - 1)
        if favourable:
            tries = [dice[:k] + [min(6, dice[k] + 1)] + dice[k + 1 :] for k in range(n)]
            best = max((band(t) for t in tries), key=order.index)
        else:
            best = band(dice)
        counts[best] += 1
    return {k: Fraction(v, 6**n) for k, v in counts.items()}


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize(("fav", "unfav"), [(False, False), (True, False), (False, True)])
def test_pool_odds_match_brute_force(n, fav, unfav) -> None:
    odds = pool_odds(n, RULES, favourable=fav, unfavourable_roll=unfav)
    assert odds == brute_force(n, fav, unfav)
    assert sum(odds.values()) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_plain_pool_odds_have_closed_forms(n) -> None:
    odds = pool_odds(n, RULES)
    assert odds["miss"] == Fraction(1, 3) ** n
    assert odds["swing"] == Fraction(5, 6) ** n - Fraction(1, 3) ** n
    assert odds["hit"] == n * Fraction(1, 6) * Fraction(5, 6) ** (n - 1)
    assert odds["crit"] == 1 - Fraction(5, 6) ** n - odds["hit"]


@pytest.mark.parametrize(
    ("cover", "tn", "faces", "dice", "band"),
    [
        ("none", 8, (5, 3, 1), (5, 3, 1), "swing"),
        ("soft", 10, (6, 3, 1), (5, 3, 1), "swing"),  # Unfavourable: the 6 drops to a 5
        ("hard", 14, (6, 3), (5, 3), "swing"),  # Unfavourable and one die fewer
    ],
)
def test_soft_and_hard_cover_stay_apart(script_dice, cover, tn, faces, dice, band) -> None:
    """House (``invictus.cover.score``; the source has no cover rule): soft cover is one
    Unfavourable step, hard cover two (Unfavourable and a die fewer)."""
    assert SYSTEM.shot_tn(cover) == tn
    rng = dice_stream(script_dice, *faces)
    record = SYSTEM.roll_test("shot", "agility", 3, tn, [], rng, context=RollContext(cover=cover))
    assert (record.pool, record.dice, record.band) == (len(faces), dice, band)
    assert record.unfavourable == (cover != "none")


def test_a_shot_in_a_game_reads_the_cover_score() -> None:
    from riven_env.game import actions  # noqa: F401  # the game asks the resolution

    assert [SYSTEM.shot_tn(c) for c in ("none", "soft", "hard")] == [8, 10, 14]
    with pytest.raises(invictus.RulesDataError, match="invictus.cover.score"):
        SYSTEM.shot_tn("wall")


def test_one_die_is_a_swing_half_the_time() -> None:
    # RAW: "With one die, a Hero achieves a Swing about half the time"; "A 5 becomes a 6,
    # turning a Swing into a Hit": 1-2 Miss, 3-5 Swing, 6 Hit.
    from typer.testing import CliRunner

    from riven_env.cli.main import app

    assert pool_odds(1, RULES) == {
        "miss": Fraction(1, 3),
        "swing": Fraction(1, 2),
        "hit": Fraction(1, 6),
        "crit": Fraction(0),
    }
    result = CliRunner().invoke(
        app, ["odds", "test", "--resolution", "invictus", "--dice", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["miss"], data["swing"], data["hit"]) == pytest.approx((1 / 3, 1 / 2, 1 / 6))


def test_melee_odds_add_up_and_show_the_danger() -> None:
    odds = invictus.melee_odds(2, 3, 0, 0, RULES)  # superior opposition: two Danger Dice
    assert sum(odds[k] for k in invictus.MELEE_OUTCOMES) == 1
    assert odds["recoil"] == 0 and odds["parry"] == pool_odds(2, RULES)["miss"]
    assert 0 < odds["hard_move"] < 1 and odds["soft_move"] + odds["hard_move"] <= 1


def test_cli_odds_test_json(capsys) -> None:
    from typer.testing import CliRunner

    from riven_env.cli.main import app

    runner = CliRunner()
    result = runner.invoke(
        app, ["odds", "test", "--resolution", "invictus", "--dice", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"miss", "swing", "hit", "crit"}
    assert data["miss"] == pytest.approx(1 / 27)
    fav = runner.invoke(
        app, ["odds", "test", "--resolution", "invictus", "--dice", "2", "--favourable", "--json"]
    )
    assert json.loads(fav.output)["hit"] == pytest.approx(float(brute_force(2, True, False)["hit"]))
    bad = runner.invoke(
        app,
        [
            "odds",
            "test",
            "--resolution",
            "invictus",
            "--dice",
            "2",
            "--favourable",
            "--unfavourable",
        ],
    )
    assert bad.exit_code == 2 and "error:" in bad.output


def test_shot_odds_follow_the_cover_circumstance() -> None:
    # invictus.cover.score: none 0 (a plain pool); soft -1 (Unfavourable); hard -3
    # (Unfavourable, one die fewer); hard with -1: score -4, still one die fewer.
    assert invictus.shot_odds(3, "none", 0, RULES) == pool_odds(3, RULES)
    assert invictus.shot_odds(3, "soft", 0, RULES) == brute_force(3, False, True)
    assert invictus.shot_odds(3, "hard", 0, RULES) == brute_force(2, False, True)
    assert invictus.shot_odds(3, "hard", -1, RULES) == brute_force(2, False, True)
    assert invictus.shot_odds(3, "soft", 0, RULES) != invictus.shot_odds(3, "hard", 0, RULES)
    assert invictus.shot_odds(2, "none", 1, RULES) == brute_force(2, True, False)
