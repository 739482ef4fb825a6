"""The heuristic evaluation and the greedy and MCTS search agents."""

from __future__ import annotations

import pytest
from riven_agents.evaluation import EvaluationWeights, evaluate
from riven_agents.greedy import GreedyAgent
from riven_agents.mcts import MCTSAgent, parse_simulations
from riven_agents.random_agent import RandomAgent
from riven_agents.registry import make_agent

from riven_env.engines import new_game, play_game
from riven_env.errors import AgentSpecError
from riven_env.game import GameState
from riven_env.game.runner import play


def _winner(events: list[dict]) -> str | None:
    return next(e for e in events if e["type"] == "game_end")["winner"]


# ----------------------------------------------------------------------------- evaluation
def test_evaluation_is_bounded_symmetric_and_exact_at_the_end() -> None:
    state = new_game("skirmish-5v5", 1)
    blue, red = evaluate(state, "blue"), evaluate(state, "red")
    assert -1 < blue < 1 and blue == pytest.approx(-red)
    state.models[state.side_models("red")[0]].status = "out"
    assert evaluate(state, "blue") > blue  # an enemy gone is good for blue
    state.end_game("blue", "test")
    assert (evaluate(state, "blue"), evaluate(state, "red")) == (1.0, -1.0)
    drawn = new_game("skirmish-5v5", 1)
    drawn.end_game(None, "test")
    assert evaluate(drawn, "blue") == 0.0


def test_evaluation_weights_change_the_value() -> None:
    state = new_game("skirmish-5v5", 1)
    state.points["blue"] = 2
    plain = evaluate(state, "blue")
    heavy = evaluate(state, "blue", EvaluationWeights(points=1.0))
    assert 0 < plain < heavy < 1


def test_holding_counts_the_scorings_left_of_a_held_objective() -> None:
    from riven_agents.evaluation import _holding

    from riven_env.game.victory import controller

    # skirmish-5v5-mirror: the well (1 point) scores at the end of rounds 2 to 8.
    state = new_game("skirmish-5v5-mirror", 1)
    state.bases.centers[state.side_models("blue")[0]] = (18.0, 18.0)
    state.positions_changed()
    assert controller(state, 0) == "blue"
    assert (_holding(state, "blue"), _holding(state, "red")) == (7.0, 0.0)
    state.round = 8
    assert _holding(state, "blue") == 1.0
    # Off by default (greedy and mcts); the expert's weight makes the hold worth more.
    assert evaluate(state, "blue", EvaluationWeights(holding=0.5)) > evaluate(state, "blue")


# ----------------------------------------------------------------------------- greedy
def test_greedy_plays_legal_decisions_and_is_deterministic() -> None:
    def run() -> list[dict]:
        state = new_game("duel-1v1", 3)
        agents = {"blue": GreedyAgent("greedy", "blue", 5), "red": RandomAgent("random", "red", 6)}
        return play(state, agents, max_decisions=40)

    first, second = run(), run()
    assert first == second
    assert any(e["type"] == "decision" for e in first)


def test_greedy_does_not_touch_the_state() -> None:
    state = new_game("skirmish-5v5", 2)
    before = (state.seq, state.rng.bit_generator.state, state.bases.centers.copy().tolist())
    GreedyAgent("greedy", state.current_side, 0).act(state, state.legal_decisions())
    assert before == (state.seq, state.rng.bit_generator.state, state.bases.centers.tolist())


@pytest.mark.slow
def test_greedy_beats_random() -> None:
    results = [
        _winner(play_game("skirmish-5v5", "greedy", "random", seed)) for seed in range(6)
    ] + [_winner(play_game("skirmish-5v5", "random", "greedy", seed)) for seed in range(6, 12)]
    wins = results[:6].count("blue") + results[6:].count("red")
    assert wins >= 9, results


# ----------------------------------------------------------------------------- MCTS
def test_mcts_budget_parsing() -> None:
    assert parse_simulations(None) == 100
    assert parse_simulations("20") == 20
    for bad in ("0", "-3", "many", "2.5"):
        with pytest.raises(AgentSpecError, match="whole number >= 1"):
            parse_simulations(bad)
    with pytest.raises(AgentSpecError):
        make_agent("mcts:lots", "blue", 0)
    assert make_agent("mcts:7", "blue", 0).simulations == 7


def test_mcts_returns_legal_decisions_deterministically() -> None:
    def run() -> list[dict]:
        state = new_game("duel-1v1", 4)
        agents = {
            "blue": MCTSAgent("mcts:6", "blue", 1, "6"),
            "red": RandomAgent("random", "red", 2),
        }
        return play(state, agents, max_decisions=12)

    first, second = run(), run()
    assert first == second
    assert sum(1 for e in first if e["type"] == "decision" and e["side"] == "blue") > 0


def _native_available() -> bool:
    from riven_env.native import available

    return available()


@pytest.mark.skipif(not _native_available(), reason="native core not built")
@pytest.mark.parametrize("whole_search", [True, False])
def test_mcts_plays_the_same_games_on_both_engines(
    monkeypatch: pytest.MonkeyPatch, whole_search: bool
) -> None:
    # On the native engine the whole search is one core call (riven::agents::mcts_choose); with
    # that call off, the Python search plays each rollout in one core call
    # (NativeGameState.play_random). Both draw from the agent's own stream: the same draws, the
    # same search, the same game as the Python engine's.
    from riven_agents.mcts import MCTSAgent

    from riven_env.game.events import dumps_event
    from riven_env.native import load
    from riven_env.native.loop import NativeGameState

    calls = []
    if whole_search:
        original_search = load().mcts_choose

        def counted_search(*args: object) -> int:
            calls.append(args[4])
            return original_search(*args)

        monkeypatch.setattr(load(), "mcts_choose", counted_search)
    else:
        original = NativeGameState.play_random

        def counted(self: NativeGameState, rng: object, max_steps: int) -> int:
            calls.append(max_steps)
            return original(self, rng, max_steps)

        monkeypatch.setattr(NativeGameState, "play_random", counted)
        monkeypatch.setattr(MCTSAgent, "_search_in_core", lambda self, state, legal: None)
    for seed in (0, 1):
        logs = [
            [
                dumps_event(e)
                for e in play_game(
                    "skirmish-5v5", "mcts:12", "mcts:8", seed, engine=engine, max_decisions=60
                )
            ]
            for engine in ("python", "native")
        ]
        assert logs[0] == logs[1], seed
    assert calls, "nothing was played in the core"
    if whole_search:
        assert set(calls) == {12, 8}  # each side's budget, one call per search


def _duel_in_contact() -> GameState:
    """skirmish-5v5 with the red warrior (7) in contact with the blue archer (3), red to act.

    Under the sticky-melee variant (``engagement.forbids``), where fighting is the clear best
    use of the last action; under RAW the warrior could also walk away.
    """
    state = new_game(
        "skirmish-5v5", 7, overrides={"engagement.forbids": ["move", "charge", "shoot", "aim"]}
    )
    for k, i in enumerate(state.side_models("blue")):
        state.bases.move_to(i, (26.0 + 2 * k, 1.0))
    for k, i in enumerate(state.side_models("red")):
        state.bases.move_to(i, (26.0 + 2 * k, 35.0))
    state.bases.move_to(7, (10.0, 32.0))
    state.bases.move_to(3, (11.0, 32.0))
    state.positions_changed()
    state.side, state.phase, state.active_model, state.actions_left = "red", "action", 7, 1
    state.models[7].activated = True
    state._legal = None
    return state


def test_greedy_attacks_a_weak_enemy_in_contact() -> None:
    # Might 2 with a shield against Might 1 with a dagger: fighting is the clear best use
    # of the last action (ending, focusing or hunkering change nothing on the table).
    state = _duel_in_contact()
    decision = make_agent("greedy", "red", 3).act(state, state.legal_decisions())
    assert (decision.kind, decision.target) == ("melee", 3)


@pytest.mark.slow
def test_mcts_mostly_attacks_a_weak_enemy_in_contact() -> None:
    # MCTS samples dice, so one search can prefer Focus (its Momentum has value too); over
    # several seeds with a real budget, fighting must be its usual choice.
    choices = []
    for seed in range(5):
        state = _duel_in_contact()
        decision = make_agent("mcts:150", "red", seed).act(state, state.legal_decisions())
        choices.append((decision.kind, decision.target))
    assert choices.count(("melee", 3)) >= 3, choices


@pytest.mark.slow
def test_mcts_beats_random() -> None:
    results = [_winner(play_game("duel-1v1", "mcts:20", "random", seed)) for seed in range(3)] + [
        _winner(play_game("duel-1v1", "random", "mcts:20", seed)) for seed in range(3, 6)
    ]
    wins = results[:3].count("blue") + results[3:].count("red")
    losses = results[:3].count("red") + results[3:].count("blue")
    assert wins >= 4 and losses <= 1, results
