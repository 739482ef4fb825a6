"""Objectives, victory conditions, the mission turn limit and solo-hero mode.

Victory types (``riven_env/game/victory.py``): eliminate, hold, casualties, extract, protect,
survive, and ``victory.at_round_limit`` (points, draw, side:NAME).
"""

from __future__ import annotations

import pytest
from game_events import activate, of_type, one

from riven_env.engines import new_game
from riven_env.game import Decision
from riven_env.game.decisions import PASS

END = Decision("end")
TWO = [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 15))]


def condition(kind, **fields):
    body = "".join(
        f"{key} = {value!r}\n".replace("'", '"') if not isinstance(value, bool)
        else f"{key} = {str(value).lower()}\n"
        for key, value in fields.items()
    )  # fmt: skip
    return f'[[victory.conditions]]\ntype = "{kind}"\n{body}'


def objective(name, x, y, kind, points=1):
    return (
        f'[[objectives]]\nname = "{name}"\nx = {x}\ny = {y}\nkind = "{kind}"\npoints = {points}\n'
    )


def assert_ended_last(events, winner, reason):
    end = events[-1]
    assert end["type"] == "game_end", [e["type"] for e in events]
    assert (end["winner"], end["reason"]) == (winner, reason)


# ----------------------------------------------------------------------------- eliminate
def test_eliminate_ends_the_game_when_a_side_has_no_active_model(mini_game, script_dice):
    state = mini_game(TWO)
    state.models[1].wounds = 1
    activate(state, script_dice, 0, [4, 4])
    state.apply(Decision("aim", model=0))
    state.rng.push(4, 3)  # 7 + 2 + 1 (aiming) = 10: Hit
    events = state.apply(Decision("shoot", model=0, target=1))
    assert_ended_last(events, "blue", "eliminate")
    assert state.is_terminal and state.winner == "blue" and state.legal_decisions() == []


def test_game_end_is_the_last_event_when_an_out_check_ends_it(mini_game, script_dice):
    state = mini_game([("blue", "trooper", "b2", (2, 2)), *TWO])
    for i in (0, 1):  # both blue models Down (eliminate is checked when something changes)
        state.models[i].wounds, state.models[i].status = 0, "down"
    state.models[0].stable = True
    script_dice(state, 1)  # b1 goes Out at the end of blue's turn: no active blue model
    events = state.apply(PASS)
    assert_ended_last(events, "red", "eliminate")
    assert of_type(events, "turn_end") == []


# ----------------------------------------------------------------------------- hold
HOLD = objective("stone", 12, 12, "hold")


@pytest.mark.parametrize(
    ("red_at", "from_round", "scorer"),
    [((20, 20), 1, "blue"), ((12, 13.5), 1, None), ((20, 20), 2, None)],
    ids=["held", "contested", "before from_round"],
)
def test_hold_scores_at_the_end_of_the_round(mini_game, red_at, from_round, scorer):
    state = mini_game(
        [("blue", "trooper", "b1", (12, 11)), ("red", "trooper", "r1", red_at)],
        objectives=HOLD,
        victory=condition("hold", from_round=from_round),
    )
    events = state.apply(PASS) + state.apply(PASS)
    kinds = [e["type"] for e in events]
    scores = of_type(events, "score")
    if scorer is None:
        assert scores == [] and not of_type(events, "objective")
        return
    assert [(s["side"], s["points"], s["total"]) for s in scores] == [("blue", 1, 1)]
    assert one(events, "objective") == {
        **one(events, "objective"), "objective": "stone", "side": "blue", "event": "controlled",
    }  # fmt: skip
    # Holding scores points but completes nothing: no Momentum (momentum.gain.objective_held 0).
    assert of_type(events, "momentum") == []
    assert kinds.index("turn_end") < kinds.index("score") < kinds.index("round_end")


# ----------------------------------------------------------------------------- loot
def test_interact_loots_an_objective_for_points_and_momentum(mini_game, script_dice):
    state = mini_game(
        [("blue", "trooper", "b1", (12, 11)), ("red", "trooper", "r1", (20, 20))],
        objectives=objective("chest", 12, 12, "loot", points=3),
        victory=condition("casualties"),
    )
    activate(state, script_dice, 0, [4])
    interact = Decision("interact", model=0, destination=("objective", 0))
    assert interact in state.legal_decisions()
    state.rng.push(5, 4)  # 9 + Wit 2 = 11 vs 8: Hit
    events = state.apply(interact)
    assert one(events, "test")["kind"] == "interact"
    assert one(events, "score")["points"] == 3 and state.points["blue"] == 3
    assert one(events, "objective")["event"] == "looted" and state.momentum["blue"] == 1
    assert 0 in state.looted


# ----------------------------------------------------------------------------- casualties
def test_casualties_score_for_the_other_side(mini_game, script_dice):
    state = mini_game(
        [*TWO, ("red", "trooper", "r2", (20, 22)), ("red", "trooper", "r3", (22, 22))],
        victory=condition("casualties", points=2),
    )
    state.models[1].wounds, state.models[1].status = 0, "down"
    state.apply(PASS)
    script_dice(state, 1)  # r1 goes Out; nobody is near, red keeps 2 of 3
    events = state.apply(PASS)
    score = one(events, "score")
    assert (score["side"], score["points"], score["reason"]) == ("blue", 2, "casualty r1")


# ----------------------------------------------------------------------------- extract
EXTRACT_ZONE = [0, 20, 24, 24]


def test_extract_in_the_zone_wins_at_once(mini_game, script_dice):
    state = mini_game(
        [("blue", "trooper", "b1", (5, 17)), ("red", "trooper", "r1", (20, 5))],
        victory=condition("extract", side="blue", models=["b1"], zone=EXTRACT_ZONE, win=True),
    )
    activate(state, script_dice, 0, [4])
    into_zone = [d for d in state.legal_decisions() if d.kind == "move" and _ends_in_zone(state, d)]
    assert into_zone
    events = state.apply(into_zone[0])
    assert one(events, "removed") == {
        **one(events, "removed"),
        "model": "b1",
        "reason": "extracted",
    }
    assert state.models[0].status == "extracted"
    assert_ended_last(events, "blue", "extract")


def test_extracting_the_last_active_model_is_not_an_elimination(mini_game, script_dice):
    state = mini_game(
        [
            ("blue", "trooper", "b1", (5, 17)),
            ("blue", "trooper", "b2", (2, 2)),
            ("red", "trooper", "r1", (20, 5)),
        ],
        victory=condition("extract", side="blue", models=["b1"], zone=EXTRACT_ZONE, win=True)
        + condition("eliminate"),
    )
    state.models[1].wounds, state.models[1].status = 0, "down"
    state.models[1].stable = True
    activate(state, script_dice, 0, [4])
    move = next(d for d in state.legal_decisions() if d.kind == "move" and _ends_in_zone(state, d))
    assert_ended_last(state.apply(move), "blue", "extract")


def test_extracted_models_do_not_count_as_eliminated(mini_game, script_dice):
    """A side whose only model left by extraction (for points) has not been wiped out."""
    state = mini_game(
        [
            ("blue", "trooper", "b1", (5, 17)),
            ("red", "trooper", "r1", (20, 5)),
            ("red", "trooper", "r2", (22, 5)),
        ],
        victory=condition("extract", side="blue", models=["b1"], zone=EXTRACT_ZONE, points=3)
        + condition("eliminate"),
        rounds=1,
    )
    activate(state, script_dice, 0, [4])
    move = next(d for d in state.legal_decisions() if d.kind == "move" and _ends_in_zone(state, d))
    events = state.apply(move)
    assert one(events, "score")["points"] == 3
    assert not of_type(events, "game_end")
    events = state.apply(PASS)  # red's turn ends the only round: blue leads on points
    assert_ended_last(events, "blue", "round_limit")


def _ends_in_zone(state, decision):
    game = state.copy()
    game.apply(decision)
    return game.models[0].status == "extracted"


# ----------------------------------------------------------------------------- protect
def test_protect_loses_at_once_when_the_model_is_taken_out(mini_game, script_dice):
    state = mini_game(
        [*TWO, ("blue", "trooper", "b2", (2, 2))],
        victory=condition("protect", side="blue", models=["b1"]),
        first_side="red",
    )
    state.models[0].wounds, state.models[0].status = 0, "down"
    state.apply(PASS)
    script_dice(state, 1, 4)  # b1 goes Out; b2 (far, but half strength) passes morale
    events = state.apply(PASS)
    assert_ended_last(events, "red", "protect")


# ----------------------------------------------------------------------------- round limit
@pytest.mark.parametrize(
    ("rule", "winner"),
    [("points", "blue"), ("draw", None), ("side:red", "red")],
)
def test_survive_and_the_round_limit_rule(mini_game, rule, winner):
    state = mini_game(
        TWO,
        victory=condition("survive", side="blue", points=5, min_models=1),
        at_round_limit=rule,
        rounds=1,
    )
    events = state.apply(PASS) + state.apply(PASS)
    score = one(events, "score")
    assert (score["side"], score["points"], score["reason"]) == ("blue", 5, "survived")
    assert_ended_last(events, winner, "round_limit")
    assert events[-1]["points"] == {"blue": 5, "red": 0}


# ----------------------------------------------------------------------------- solo hero
def test_solo_hero_has_a_personal_momentum_pool(mini_game, script_dice):
    state = mini_game(
        [("blue", "champion", "hero", (5, 5)), ("red", "trooper", "r1", (5, 15)),
         ("red", "trooper", "r2", (9, 15))],
        mode="solo_hero",
    )  # fmt: skip
    assert state.start_events[0]["mode"] == "solo_hero"
    assert state.momentum_owner == {"blue": "hero", "red": "red"}
    assert set(state.momentum) == {"hero", "red"}
    activate(state, script_dice, 0, [3, 3])
    gain = one(state.apply(Decision("focus", model=0)), "momentum")
    assert (gain["owner"], gain["value"]) == ("hero", 1)
    assert state.momentum_of("blue") == 1 and state.momentum["red"] == 0
    state.rng.push(1, 1)  # a Miss: the hero's own pool pays for the reroll
    state.apply(Decision("shoot", model=0, target=1))
    assert Decision("spend", option="reroll:0") in state.legal_decisions()
    state.rng.push(6)  # the rerolled die: 6 + 1 + Agility 2 = 9 vs 8: Hit
    events = state.apply(Decision("spend", option="reroll:0"))
    spent = one(events, "momentum")
    assert (spent["owner"], spent["delta"]) == ("hero", -1)


def test_bundled_solo_hero_scenario_uses_the_personal_pool():
    state = new_game("solo-hero-horde", 1)
    hero = state.models[state.side_models("blue")[0]]
    assert state.momentum_owner["blue"] == hero.id and "hero" in hero.profile.keywords
    assert state.scenario.mode == "solo_hero"
    assert set(state.momentum) == {hero.id, "red"}
