"""The Enemy Oracle in play: legality, explanations, scripted situations, determinism, strength."""

from __future__ import annotations

import json

import numpy as np
import pytest
from riven_agents.oracle import OracleAgent, load_profiles
from riven_agents.registry import make_agent

from riven_env.engines import new_game, play_game
from riven_env.errors import AgentSpecError
from riven_env.game import Decision, GameState
from riven_env.game.runner import play
from riven_env.rules import make_test_roll

PROFILES = list(load_profiles().profiles)
SCENARIOS = ["skirmish-5v5", "open-field", "duel-1v1"]

# skirmish-5v5 model indices: blue 0 captain, 1 veteran, 2 warrior, 3 archer, 4 marksman;
# red 5 captain, 6 brute, 7 warrior, 8 archer, 9 skirmisher.
BLUE_CAPTAIN, BLUE_VETERAN, BLUE_WARRIOR, BLUE_ARCHER = 0, 1, 2, 3
RED_CAPTAIN, RED_BRUTE, RED_WARRIOR = 5, 6, 7


def _end(events: list[dict]) -> dict:
    return next(e for e in events if e["type"] == "game_end")


# ----------------------------------------------------------------------------- full games
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("profile", PROFILES)
def test_each_profile_plays_whole_games_with_explained_decisions(
    profile: str, scenario: str
) -> None:
    data = load_profiles()
    events = play_game(scenario, f"oracle:{profile}", "random", seed=11)
    assert _end(events)["type"] == "game_end"
    decisions = [e for e in events if e["type"] == "decision" and e["side"] == "blue"]
    explanations = [e for e in events if e["type"] == "oracle_decision"]
    assert len(explanations) == len(decisions) > 0
    allowed = data.profiles[profile].rule_ids()
    for event in explanations:
        assert event["profile"] == profile
        assert event["rule"] in allowed, event
        assert event["explanation"]


def test_mixed_profiles_from_the_scenario_are_used_per_model() -> None:
    events = play_game("dungeon-crawl", "oracle", "oracle", seed=3, max_decisions=150)
    start = events[0]
    by_model = {m["id"]: m["oracle"] for m in start["models"]}
    explanations = [e for e in events if e["type"] == "oracle_decision" and e["model"]]
    assert explanations
    profiles = load_profiles().profiles
    for event in explanations:
        assert event["profile"] == by_model[event["model"]]
        assert event["rule"] in profiles[event["profile"]].rule_ids()


def test_same_seed_gives_the_same_log() -> None:
    first = play_game("skirmish-5v5", "oracle", "oracle:cautious", seed=5)
    second = play_game("skirmish-5v5", "oracle", "oracle:cautious", seed=5)
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_oracle_leaves_the_game_dice_alone() -> None:
    # The fallback d6 is rolled on the agent's own stream: the game's stream is untouched.
    state = new_game("skirmish-5v5", 2)
    before = state.rng.bit_generator.state
    agent = OracleAgent("oracle", state.current_side, seed=1)
    agent.act(state, state.legal_decisions())
    assert state.rng.bit_generator.state == before


def test_unknown_forced_profile_is_refused() -> None:
    with pytest.raises(
        AgentSpecError, match="unknown Oracle profile 'sleepy'.*allowed: aggressive"
    ):
        make_agent("oracle:sleepy", "red", 0)


@pytest.mark.slow
def test_oracle_beats_random_clearly() -> None:
    games = 40
    wins = losses = 0
    for seed in range(games):
        # Alternate sides so that neither warband's strength decides the result.
        oracle_side = "blue" if seed % 2 == 0 else "red"
        blue, red = ("oracle", "random") if oracle_side == "blue" else ("random", "oracle")
        winner = _end(play_game("skirmish-5v5", blue, red, seed=1000 + seed))["winner"]
        wins += winner == oracle_side
        losses += winner not in (None, oracle_side)
    assert wins >= 0.75 * games, (wins, losses)
    assert losses <= 0.2 * games, (wins, losses)


# ----------------------------------------------------------------------------- scripted situations
def action_state(
    placements: dict[int, tuple[float, float]],
    actor: int,
    *,
    actions_left: int = 2,
    wounds: dict[int, int] | None = None,
    down: tuple[int, ...] = (),
) -> GameState:
    """A skirmish-5v5 state where ``actor`` is about to act, models placed by hand.

    Models not placed are parked along the far table edges, out of the way.
    """
    state = new_game("skirmish-5v5", 7)
    for k, i in enumerate(state.side_models("blue")):
        state.bases.move_to(i, (26.0 + 2 * k, 1.0))
    for k, i in enumerate(state.side_models("red")):
        state.bases.move_to(i, (26.0 + 2 * k, 35.0))
    for i, xy in placements.items():
        state.bases.move_to(i, xy)
    for i, left in (wounds or {}).items():
        state.models[i].wounds = left
    for i in down:
        state.models[i].wounds = 0
        state.models[i].status = "down"
    state.positions_changed()
    state.side = state.models[actor].side
    state.phase = "action"
    state.active_model = actor
    state.actions_left = actions_left
    state.taken_actions = []
    state.models[actor].activated = True
    state._legal = None
    return state


def decide(state: GameState, profile: str) -> tuple[Decision, dict]:
    agent = OracleAgent(f"oracle:{profile}", state.current_side, seed=0, profile=profile)
    legal = state.legal_decisions()
    decision = agent.act(state, legal)
    assert decision in legal
    return decision, agent.last_explanation


def test_aggressive_fights_what_it_touches() -> None:
    state = action_state({RED_WARRIOR: (10.0, 32.0), BLUE_WARRIOR: (11.0, 32.0)}, RED_WARRIOR)
    decision, why = decide(state, "aggressive")
    assert (decision.kind, decision.target, why["rule"]) == ("melee", BLUE_WARRIOR, "fight_engaged")
    assert why["model"] == "red-3" and "Target: blue-3" in why["explanation"]


def test_aggressive_charges_the_weakest_in_reach() -> None:
    placements = {RED_WARRIOR: (10.0, 32.0), BLUE_CAPTAIN: (13.0, 32.0), BLUE_WARRIOR: (10.0, 29.0)}
    decision, why = decide(action_state(placements, RED_WARRIOR), "aggressive")
    assert (decision.kind, decision.target, why["rule"]) == (
        "charge",
        BLUE_WARRIOR,
        "charge_weakest",
    )


def test_cautious_escapes_when_outnumbered() -> None:
    placements = {
        RED_WARRIOR: (10.0, 32.0),
        BLUE_WARRIOR: (11.0, 32.0),
        BLUE_VETERAN: (9.0, 32.0),
        RED_CAPTAIN: (10.0, 35.0),
    }
    decision, why = decide(action_state(placements, RED_WARRIOR), "cautious")
    assert (decision.kind, why["rule"]) == ("disengage", "escape_outnumbered")
    assert decision.destination == ("toward_friend", RED_CAPTAIN)


def test_tactical_stabilises_a_down_friend() -> None:
    placements = {RED_CAPTAIN: (10.0, 32.0), RED_WARRIOR: (12.0, 32.0)}
    state = action_state(placements, RED_CAPTAIN, down=(RED_WARRIOR,))
    decision, why = decide(state, "tactical")
    assert (decision.kind, decision.target, why["rule"]) == (
        "stabilise",
        RED_WARRIOR,
        "save_friend",
    )


def test_defensive_hunkers_on_its_objective_and_holds_when_all_is_quiet() -> None:
    state = action_state({RED_WARRIOR: (18.0, 18.5)}, RED_WARRIOR)
    decision, why = decide(state, "defensive")
    assert (decision.kind, why["rule"]) == ("take_cover", "hunker_on_objective")
    # Activate phase: the only model left to activate sits on the objective, no enemy near.
    state = action_state({RED_WARRIOR: (18.0, 18.5)}, RED_WARRIOR)
    state.phase, state.active_model, state.actions_left = "activate", None, 0
    for i in state.side_models("red"):
        state.models[i].activated = i != RED_WARRIOR
    state._legal = None
    decision, why = decide(state, "defensive")
    assert (decision.kind, why["rule"], why["model"]) == ("pass", "hold", None)


def test_beast_bolts_when_badly_hurt_in_a_fight() -> None:
    placements = {RED_BRUTE: (10.0, 32.0), BLUE_WARRIOR: (11.125, 32.0)}
    state = action_state(placements, RED_BRUTE, wounds={RED_BRUTE: 1})
    decision, why = decide(state, "beast")
    assert (decision.kind, decision.destination[0], why["rule"]) == ("disengage", "away", "bolt")


def test_rampage_charges_the_most_dangerous() -> None:
    placements = {RED_WARRIOR: (10.0, 32.0), BLUE_CAPTAIN: (13.0, 32.0), BLUE_ARCHER: (10.0, 29.0)}
    decision, why = decide(action_state(placements, RED_WARRIOR), "rampage")
    assert (decision.kind, decision.target, why["rule"]) == (
        "charge",
        BLUE_CAPTAIN,
        "charge_biggest",
    )


def test_guardian_strikes_whoever_threatens_a_friend() -> None:
    placements = {
        RED_WARRIOR: (10.0, 32.0),
        BLUE_WARRIOR: (13.0, 32.0),
        RED_CAPTAIN: (14.0, 32.0),
        BLUE_ARCHER: (10.0, 29.0),
    }
    decision, why = decide(action_state(placements, RED_WARRIOR), "guardian")
    assert (decision.kind, decision.target, why["rule"]) == (
        "charge",
        BLUE_WARRIOR,
        "defend_friend",
    )


def test_fallback_d6_fires_when_no_priority_applies() -> None:
    # A Pinned warrior cannot move or charge and has no bow: no aggressive priority is
    # possible, so the d6 table is rolled on the agent's own stream.
    expected_roll = int(np.random.default_rng(0).integers(1, 7))
    state = action_state({RED_WARRIOR: (10.0, 32.0)}, RED_WARRIOR)
    state.models[RED_WARRIOR].conditions["pinned"] = 0
    state._legal = None
    decision, why = decide(state, "aggressive")
    if expected_roll in (1, 6):  # Focus: possible
        assert (decision.kind, why["rule"]) == ("focus", f"d6:{expected_roll}")
    else:  # a move: impossible while Pinned, so the activation ends
        assert (decision.kind, why["rule"]) == ("end", "end:no_action")
        assert f"rolled {expected_roll}" in why["explanation"]


def test_spend_policy_rerolls_the_lowest_die_of_a_missed_shot() -> None:
    state = action_state({RED_WARRIOR: (10.0, 32.0)}, RED_WARRIOR)
    roll = make_test_roll("shot", "agility", 1, 8, (), (1, 2), state.rules)
    assert roll.result == "miss"
    state.pending = (
        roll,
        RED_WARRIOR,
        {"action": "shoot", "target": BLUE_WARRIOR, "cover": "none"},
    )
    state.phase = "spend"
    state.momentum["red"] = 2
    state._legal = None
    decision, why = decide(state, "aggressive")
    assert (decision.option, why["rule"]) == ("reroll:0", "reroll_miss")
    state.momentum["red"] = 0
    state._legal = None
    decision, why = decide(state, "beast")  # beasts never spend
    assert (decision.option, why["rule"]) == ("accept", "spend:accept")


def test_dice_policy_follows_the_exact_odds_and_the_turnover_rule() -> None:
    state = new_game("skirmish-5v5", 4)
    agent = OracleAgent("oracle:aggressive", state.current_side, seed=0, profile="aggressive")
    decision = agent.act(state, state.legal_decisions())
    assert decision.kind == "activate" and decision.dice == 3  # RAW: 3 dice dominate
    assert agent.last_explanation["rule"] == "dice:2"
    assert "expected actions" in agent.last_explanation["explanation"]


def test_oracle_plays_both_sides_with_play() -> None:
    state = new_game("duel-1v1", 9)
    agents = {s: OracleAgent("oracle", s, seed=np.uint64(k)) for k, s in enumerate(("blue", "red"))}
    events = play(state, agents)
    assert state.is_terminal and _end(events)
