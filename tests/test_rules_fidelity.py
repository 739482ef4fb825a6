"""Scripted-dice tests of the rules read as written (issue 11), one section per item.

Each test sets up the exact situation with ``mini_game`` and ``script_dice`` and checks the
events: flight that leaves the table when the base touches the edge, flight straight toward
the nearest edge, the Momentum bonus action as an extra action, the charge bonus limited to
its own strike, what an engaged model may do, the friend-lost radius edge to edge, Momentum
from a melee critical and from objectives, no Condition resist test, and the event-log
schema. Rules reference: ``docs/rules-reference.md``.

Every game here runs twice: with the Python dice engine and with the native core behind the
resolution seam (tests/rules_engines.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from game_events import act, activate, of_type, one
from rules_engines import ENGINES, use_native_resolution

from riven_env.errors import RulesDataError
from riven_env.game import Decision
from riven_env.game.decisions import PASS
from riven_env.game.flightlog import audit_flights
from riven_env.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]
END = Decision("end")
FAR = [("red", "brawler", f"f{k}", (2 + 2 * k, 2)) for k in range(3, 6)]  # far from r1, r2


@pytest.fixture(params=ENGINES)
def mini_game(request, mini_game):
    """conftest's ``mini_game``, its dice engine the Python one or the native core."""
    if request.param == "python":
        return mini_game

    def build(*args, **kwargs):
        return use_native_resolution(mini_game(*args, **kwargs))

    return build


def red_loses_r1(mini_game, script_dice, red, *faces, overrides=None, terrain=""):
    """Blue passes; red's Down r1 (at 12, 12) fails its Out check at the end of red's turn.

    ``faces`` are the dice after the Out check (morale tests and flee distances).
    """
    models = [("blue", "brawler", "b1", (2, 22)), ("red", "brawler", "r1", (12, 12)), *red]
    state = mini_game(models, overrides=overrides, terrain=terrain)
    state.models[1].wounds, state.models[1].status = 0, "down"
    state.apply(PASS)
    script_dice(state, 1, *faces)  # Out check 1 < Mettle 4: Out
    events = state.apply(PASS)
    assert ("r1", "out") in [(e["model"], e["reason"]) for e in of_type(events, "removed")]
    assert state.rng.remaining == 0
    return state, events


# ----------------------------------------------------------------------------- 1. leaving
def test_a_flight_that_touches_the_edge_beside_a_taken_edge_point_removes_the_model(
    mini_game, script_dice
):
    # The route-around variant: r3 holds part of the edge point straight ahead of r2, so the
    # route ends at the nearest free spot, touching the top edge beside r3. A base that
    # touches the table edge has left it (today's main left it standing there, at the edge).
    red = [("red", "brawler", "r2", (12, 16)), ("red", "brawler", "r3", (12.6, 23.5)), *FAR]
    state, events = red_loses_r1(
        mini_game, script_dice, red, 1, 6, 6, overrides={"morale.flight_route": "around"}
    )  # r2 fails (1), flees 6 + 3 = 9"; r3 then tests for r2 (friend lost) and passes (6)
    morale = [e for e in of_type(events, "morale") if e["model"] == "r2"][0]
    assert morale["passed"] is False and morale["fled_off_table"] is True
    flee = [e for e in of_type(events, "move") if e["model"] == "r2"][0]
    assert flee["kind"] == "flee" and flee["to"][1] == pytest.approx(23.5)
    assert ("r2", "fled") in [(e["model"], e["reason"]) for e in of_type(events, "removed")]
    assert state.models[2].status == "fled" and not state.bases.on_table[2]
    assert audit_flights(state.start_events + events).violations == []


def test_straight_flight_reaching_the_edge_removes_the_model(mini_game, script_dice):
    red = [("red", "brawler", "r2", (12, 17)), *FAR]
    state, events = red_loses_r1(mini_game, script_dice, red, 1, 4)  # flees 4 + 3 = 7"
    morale = one(events, "morale")
    assert morale["fled_off_table"] is True
    flee = one(events, "move")
    # It leaves where its base meets the edge, 6.5" up, with 0.5" of its flight to spare.
    assert flee["to"] == pytest.approx([12, 23.5]) and flee["path_length"] == pytest.approx(6.5)
    assert state.models[2].status == "fled"


def test_a_flight_into_an_extraction_zone_flees_and_never_extracts(mini_game, script_dice):
    # b1 may extract through the top strip, but it reaches the edge in flight: it Fled.
    victory = (
        '[[victory.conditions]]\ntype = "extract"\nside = "blue"\nmodels = ["b1"]\n'
        'zone = [0, 22, 24, 24]\nwin = true\n\n[[victory.conditions]]\ntype = "eliminate"\n'
    )
    state = mini_game(
        [
            ("blue", "brawler", "b1", (12, 20)),
            ("blue", "brawler", "b2", (12, 17)),
            ("red", "brawler", "r1", (3, 3)),
        ],
        victory=victory,
    )
    state.models[1].wounds, state.models[1].status = 0, "down"
    script_dice(state, 1, 1, 4)  # b2's Out check fails; b1's morale fails; it flees 4 + 3"
    events = state.apply(PASS)
    removed = [(e["model"], e["reason"]) for e in of_type(events, "removed")]
    assert removed == [("b2", "out"), ("b1", "fled")]
    assert of_type(events, "objective") == [] and state.models[0].status == "fled"
    assert (state.winner, state.end_reason) == ("red", "eliminate")


# ----------------------------------------------------------------------------- 2. straight
WALL_AHEAD = '[[table.terrain]]\nname = "wall"\ntype = "wall"\nrect = [10, 19, 14, 20]\n'


def test_flight_runs_straight_at_the_nearest_edge_and_stops_at_a_wall(mini_game, script_dice):
    # r2's nearest edge is the top; a wall stands across its lane. RAW: it runs straight
    # and stops at the wall (today's main went around it, 4" sideways).
    red = [("red", "brawler", "r2", (12, 17)), *FAR]
    state, events = red_loses_r1(mini_game, script_dice, red, 1, 6, terrain=WALL_AHEAD)
    flee = one(events, "move")
    assert flee["kind"] == "flee" and len(flee["path"]) == 2
    assert flee["to"][0] == pytest.approx(12) and flee["to"][1] == pytest.approx(18.5, abs=0.02)
    assert one(events, "morale")["fled_off_table"] is False
    assert state.models[2].is_active and audit_flights(state.start_events + events).violations == []


def test_route_around_is_a_house_variant(mini_game, script_dice):
    red = [("red", "brawler", "r2", (12, 17)), *FAR]
    state, events = red_loses_r1(
        mini_game,
        script_dice,
        red,
        1,
        6,
        terrain=WALL_AHEAD,
        overrides={"morale.flight_route": "around"},
    )
    flee = one(events, "move")
    assert len(flee["path"]) > 2 and flee["to"][1] > 20  # around the wall, toward the edge


def test_flight_with_a_clear_lane_uses_its_whole_distance(mini_game, script_dice):
    red = [("red", "brawler", "r2", (12, 15)), *FAR]  # nearest edge: top, 8.5" away
    state, events = red_loses_r1(mini_game, script_dice, red, 1, 4)  # flees 4 + 3 = 7"
    flee = one(events, "move")
    assert flee["path_length"] == pytest.approx(7.0) and flee["to"] == pytest.approx([12, 22])
    assert state.models[2].is_active


def test_the_flight_rule_key_is_validated():
    with pytest.raises(RulesDataError, match="flight_route"):
        load_rules(overrides={"morale.flight_route": "sideways"})


# ----------------------------------------------------------------------------- 3. bonus action
THREE = [
    ("blue", "brawler", "b1", (2, 2)),
    ("blue", "brawler", "b2", (6, 2)),
    ("red", "brawler", "r1", (20, 22)),
]


def test_a_bonus_action_goes_to_a_model_that_already_activated(mini_game, script_dice):
    state = mini_game(THREE)
    state.momentum["blue"] = 4
    activate(state, script_dice, 0, [4])  # 1 success on 1 die: 1 action, the side goes on
    state.apply(Decision("focus", model=0))  # +1 Momentum: 5
    legal = state.legal_decisions()
    # "Another model": not the one that just activated.
    assert Decision("bonus", model=0) not in legal and Decision("bonus", model=1) in legal
    activate(state, script_dice, 1, [4])
    state.apply(END)
    assert state.models[0].activated and state.models[1].activated
    # Every blue model has activated, yet the side may still give b1 a bonus action.
    assert state.legal_decisions() == [Decision("bonus", model=0), PASS]
    script_dice(state)  # a bonus action rolls nothing
    events = state.apply(Decision("bonus", model=0))
    assert one(events, "momentum")["delta"] == -2
    activation = one(events, "activation")
    assert (activation["model"], activation["bonus"], activation["actions"]) == ("b1", True, 1)
    assert state.active_model == 0 and state.actions_left == 1
    state.apply(END)
    # b1 just acted: only b2 could receive one, and 3 Momentum still pays for it.
    assert state.legal_decisions() == [Decision("bonus", model=1), PASS]
    events = state.apply(PASS)
    assert one(events, "turn_end")["reason"] == "pass"


def test_a_bonus_action_does_not_use_up_the_activation(mini_game, script_dice):
    state = mini_game(THREE)
    state.momentum["blue"] = 2
    script_dice(state)
    state.apply(Decision("bonus", model=0))
    state.apply(END)
    # b1 still activates this turn; without Momentum the turn ends when all have activated.
    assert Decision("activate", model=0, dice=1) in state.legal_decisions()


def test_the_bonus_action_reading_is_data():
    with pytest.raises(RulesDataError, match="bonus_mode"):
        load_rules(overrides={"momentum.bonus_mode": "twice"})
    with pytest.raises(RulesDataError, match="bonus_action"):
        load_rules(overrides={"momentum.cost.bonus_action": 1})  # a Focus would pay it back


# ----------------------------------------------------------------------------- 4. charge bonus
def test_the_charge_bonus_is_lost_when_the_charge_ends_without_a_strike(mini_game, script_dice):
    state = mini_game([("blue", "horror", "b1", (12, 8)), ("red", "brawler", "r1", (12, 12.5))])
    activate(state, script_dice, 0, [4, 4, 4])  # 3 actions
    state.rng.push(1, 1)  # terror: morale 1 fails; r1 flees 1 + 3 = 4" to the top edge
    events = state.apply(Decision("charge", model=0, target=1))
    assert one(events, "morale")["passed"] is False and of_type(events, "melee") == []
    move = next(
        d
        for d in state.legal_decisions()
        if d.kind == "move" and d.destination[0] == "toward_enemy"
    )
    state.apply(move)
    assert state.is_engaged(0)
    # 8 vs 8: a parry. (A spare die: were the +2 kept, the recoil would call a morale test.)
    state.rng.push(3, 3, 3, 3, 6)
    melee = one(state.apply(Decision("melee", model=0, target=1)), "melee")
    assert melee["attacker_modifiers"] == [] and melee["outcome"] == "parry"


# ----------------------------------------------------------------------------- 5. engaged
def test_an_engaged_model_may_move_aim_and_shoot_outside_the_melee(mini_game, script_dice):
    state = mini_game(
        [
            ("blue", "trooper", "b1", (5, 5)),
            ("red", "brawler", "r1", (5, 6)),  # in base contact with b1
            ("red", "brawler", "r2", (15, 5)),  # in bow range, in no melee
        ]
    )
    activate(state, script_dice, 0, [4, 4])
    legal = state.legal_decisions()
    kinds = {d.kind for d in legal}
    assert {"melee", "move", "aim", "disengage"} <= kinds
    # RAW forbids only shooting *into* a melee: r2 may be shot, r1 (in melee with b1) not.
    assert Decision("shoot", model=0, target=2) in legal
    assert Decision("shoot", model=0, target=1) not in legal
    state.rng.push(5, 5)  # 10 + 2 = 12 vs TN 8: Critical
    events = act(state, Decision("shoot", model=0, target=2))
    assert one(events, "shot")["target"] == "r2"


def test_no_charge_at_an_enemy_already_in_contact(mini_game, script_dice):
    state = mini_game([("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))])
    activate(state, script_dice, 0, [4])
    assert Decision("charge", model=0, target=1) not in state.legal_decisions()


def test_sticky_melee_is_a_house_variant(mini_game, script_dice):
    state = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))],
        overrides={"engagement.forbids": ["move", "charge", "shoot", "aim"]},
    )
    activate(state, script_dice, 0, [4])
    kinds = {d.kind for d in state.legal_decisions()}
    assert {"melee", "disengage"} <= kinds and not kinds & {"move", "charge", "shoot", "aim"}
    with pytest.raises(RulesDataError, match="engagement.forbids"):
        load_rules(overrides={"engagement.forbids": ["melee"]})


# ----------------------------------------------------------------------------- 6. friend lost
def test_friend_lost_is_measured_edge_to_edge(mini_game, script_dice):
    # r2's centre is 6.8" from r1's: 5.8" edge to edge, within 6" (today's main: 6.3").
    red = [("red", "brawler", "r2", (18.8, 12)), *FAR]
    _, events = red_loses_r1(mini_game, script_dice, red, 4)
    morale = one(events, "morale")
    assert (morale["model"], morale["trigger"], morale["passed"]) == ("r2", "friend_lost", True)


def test_friend_lost_beyond_six_inches_edge_to_edge_tests_nothing(mini_game, script_dice):
    red = [("red", "brawler", "r2", (19.1, 12)), *FAR]  # 6.1" edge to edge
    _, events = red_loses_r1(mini_game, script_dice, red)
    assert of_type(events, "morale") == []


# ----------------------------------------------------------------------------- 7. melee critical
@pytest.mark.parametrize(
    ("a_dice", "d_dice", "gainer"),
    [((6, 6), (1, 1), "blue"), ((1, 1), (6, 6), "red")],
    ids=["attacker doubles", "defender doubles"],
)
def test_a_melee_critical_gains_momentum_for_the_winner(
    mini_game, script_dice, a_dice, d_dice, gainer
):
    state = mini_game(
        [
            ("blue", "brawler", "b1", (5, 5)),
            ("red", "brawler", "r1", (5, 6)),
            ("red", "brawler", "r2", (20, 20)),
        ]
    )
    activate(state, script_dice, 0, [4])
    state.rng.push(*a_dice, *d_dice)
    events = state.apply(Decision("melee", model=0, target=1))
    assert one(events, "melee")["outcome"] == "critical"
    gain = one(events, "momentum")
    assert (gain["owner"], gain["delta"], gain["reason"]) == (gainer, 1, "melee critical")


def test_melee_critical_momentum_is_data(mini_game, script_dice):
    state = mini_game(
        [("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (5, 6))],
        overrides={"momentum.gain.melee_critical": 0},
    )
    activate(state, script_dice, 0, [4])
    state.rng.push(6, 6, 1, 1)
    assert of_type(state.apply(Decision("melee", model=0, target=1)), "momentum") == []


# ----------------------------------------------------------------------------- 8. objectives
HOLD = '[[objectives]]\nname = "stone"\nx = 12\ny = 12\nkind = "hold"\npoints = 1\n'
HOLD_WIN = '[[victory.conditions]]\ntype = "hold"\n'


@pytest.mark.parametrize(("held_gain", "momentum"), [(None, 0), (1, 1)], ids=["RAW", "house"])
def test_holding_an_objective_scores_but_gains_no_momentum(mini_game, held_gain, momentum):
    overrides = None if held_gain is None else {"momentum.gain.objective_held": held_gain}
    state = mini_game(
        [("blue", "brawler", "b1", (12, 11)), ("red", "brawler", "r1", (20, 20))],
        objectives=HOLD,
        victory=HOLD_WIN,
        overrides=overrides,
    )
    events = state.apply(PASS) + state.apply(PASS)
    assert one(events, "score")["reason"] == "hold stone"
    assert one(events, "objective")["event"] == "controlled"
    assert state.momentum["blue"] == momentum


def test_looting_an_objective_completes_it_for_momentum(mini_game, script_dice):
    state = mini_game(
        [("blue", "brawler", "b1", (12, 11)), ("red", "brawler", "r1", (20, 20))],
        objectives='[[objectives]]\nname = "chest"\nx = 12\ny = 12\nkind = "loot"\npoints = 2\n',
        victory='[[victory.conditions]]\ntype = "casualties"\n',
    )
    activate(state, script_dice, 0, [4])
    state.rng.push(5, 4)  # 9 + Wit 2 = 11 vs 8: Hit
    events = act(state, Decision("interact", model=0, destination=("objective", 0)))
    assert one(events, "objective")["event"] == "looted"
    assert [(e["delta"], e["reason"]) for e in of_type(events, "momentum")] == [(1, "objective")]


# ----------------------------------------------------------------------------- 9. no resist test
def test_a_condition_is_gained_without_a_resist_test(mini_game, script_dice):
    # Shaken from Strain overflow: no Resolve test is drawn (any extra die would raise).
    state = mini_game([("blue", "brawler", "b1", (5, 5)), ("red", "brawler", "r1", (20, 20))])
    state.models[0].strain = 4  # the track's maximum (Wit 2 x 2)
    # Max dice: +1 Strain overflows the track; the overflow d6 (2) gives Shaken.
    script_dice(state, 4, 4, 4, 2)
    events = state.apply(Decision("activate", model=0, dice=3))
    assert state.rng.remaining == 0
    assert of_type(events, "test") == []
    assert "shaken" in state.models[0].conditions


def test_rules_data_has_no_resist_field():
    with pytest.raises(RulesDataError, match="resist"):
        load_rules(overrides={"conditions.shaken.resist": "standard"})
    text = (ROOT / "riven_env/rules/data/riven-v0.1.toml").read_text()
    assert not re.search(r"^resist\s*=", text, flags=re.MULTILINE)


# ----------------------------------------------------------------------------- 10. event log
def _documented(field_row: str, name: str) -> set[str]:
    """The backquoted values listed in parentheses after ``name`` in an event-log row."""
    match = re.search(rf"`{name}` \(([^)]*)\)", field_row)
    assert match, (name, field_row)
    return set(re.findall(r"`(\w+)`", match.group(1)))


def _row(doc: str, event_type: str) -> str:
    return next(line for line in doc.splitlines() if line.startswith(f"| `{event_type}` |"))


def test_event_log_doc_lists_the_move_kinds_and_removal_reasons_the_engine_emits():
    doc = (ROOT / "docs/event-log.md").read_text()
    source = "\n".join(p.read_text() for p in sorted((ROOT / "riven_env/game").glob("*.py")))
    emitted = set(re.findall(r"apply_move\(.*,\s*\"(\w+)\"\)$", source, flags=re.MULTILINE))
    emitted |= set(re.findall(r"effects\.push\(.*,\s*\"(\w+)\"\)", source))
    assert emitted >= {"move", "charge", "disengage", "flee", "recoil", "push"}
    assert _documented(_row(doc, "move"), "kind") == emitted
    from riven_env.game.model_state import EXTRACTED, FLED, OUT

    assert _documented(_row(doc, "removed"), "reason") == {OUT, FLED, EXTRACTED}
