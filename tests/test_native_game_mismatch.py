"""A native state is refused by the forward model of another game (issue 39.4).

Each forward model remembers the game it was built for (its models, profiles, objectives, table
and vocabularies: ``riven_env.native.loop.game_fingerprint``); a ``NativeGameState`` pairing a
state with another game's model raises ``GameMismatchError`` (a ``ValueError``) before the core
reads it. States of one game with either first side (a rolled mission) share their model.
"""

from __future__ import annotations

import pytest

from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built")


def test_another_games_model_is_refused() -> None:
    from riven_env.engines import new_game
    from riven_env.native.loop import GameMismatchError, NativeGameState, belongs_to

    duel = new_game("duel-1v1", seed=1, engine="native")
    skirmish = new_game("skirmish-5v5", seed=1, engine="native")
    with pytest.raises(GameMismatchError, match="another game"):
        NativeGameState(skirmish.native, duel.model, duel.start_state)
    with pytest.raises(ValueError, match="another game"):
        belongs_to(skirmish.native, duel.model)
    with pytest.raises(GameMismatchError):
        belongs_to(duel.native, skirmish.model)
    belongs_to(skirmish.native, skirmish.model)  # its own model: accepted
    game = NativeGameState(skirmish.native.copy(), skirmish.model, skirmish.start_state)
    game.apply(game.legal_decisions()[0])


def test_both_first_sides_share_the_model() -> None:
    from riven_env.game.setup import prepare_game
    from riven_env.native.game import to_native
    from riven_env.native.loop import belongs_to, forward_model

    states = []
    for side in ("blue", "red"):
        state = prepare_game("ruins", 0)
        state.first_side = state.side = side
        states.append(state)
    model = forward_model(states[0])
    for state in states:
        belongs_to(to_native(state), model)


def test_the_same_scenario_with_other_models_is_refused() -> None:
    from riven_env.engines import new_game
    from riven_env.native.loop import GameMismatchError, NativeGameState

    small = new_game("skirmish-5v5", seed=1, engine="native")
    other = new_game("skirmish-5v5-mirror", seed=1, engine="native")
    with pytest.raises(GameMismatchError):
        NativeGameState(other.native, small.model, small.start_state)


def test_the_raw_core_refuses_another_games_state() -> None:
    """The core itself checks the pairing (its game fingerprint, one integer compare): every
    raw ``_native`` entry taking (model, state) raises a ``ValueError`` naming the mismatch."""
    from riven_env.engines import new_game
    from riven_env.native import load

    native = load()
    duel = new_game("duel-1v1", seed=1, engine="native")
    skirmish = new_game("skirmish-5v5", seed=1, engine="native")
    decision = native.legal_decisions(duel.model, duel.native)[0]
    state = skirmish.native.copy()
    seq = state.seq
    stream = native.seeded_pcg64([7])
    calls = {
        "legal_decisions": lambda: native.legal_decisions(duel.model, state),
        "apply_decision": lambda: native.apply_decision(duel.model, state, decision),
        "apply_decision_quiet": lambda: native.apply_decision_quiet(duel.model, state, decision),
        "start_game": lambda: native.start_game(duel.model, state),
        "decision_label": lambda: native.decision_label(duel.model, state, decision),
        "play_random": lambda: native.play_random(duel.model, state, stream, 10),
        "play_seats": lambda: native.play_seats(
            duel.model,
            state,
            None,
            native.seeded_pcg64([1]),
            None,
            native.seeded_pcg64([2]),
            10,
            False,
        ),
        "rollout_seats": lambda: native.rollout_seats(
            duel.model, state, None, native.seeded_pcg64([1]), None, native.seeded_pcg64([2]), 10
        ),
    }
    for entry, call in calls.items():
        with pytest.raises(ValueError, match=f"{entry}: this game state belongs to another game"):
            call()
    assert state.seq == seq  # refused before the core read or changed it
    # Its own model is accepted, and the other game's state with the other game's model.
    assert native.legal_decisions(skirmish.model, state)
    assert native.legal_decisions(duel.model, duel.native.copy())


def test_the_raw_search_entries_refuse_another_games_state() -> None:
    """The search agents' entries (evaluation, MCTS) check the pairing too."""
    from riven_env.engines import new_game
    from riven_env.native import load

    native = load()
    duel = new_game("duel-1v1", seed=1, engine="native")
    skirmish = new_game("skirmish-5v5", seed=1, engine="native")
    with pytest.raises(
        ValueError, match="evaluation_threat: this game state belongs to another game"
    ):
        native.evaluation_threat(duel.model, skirmish.native, 0, native.EvaluationGame())
    weights, game = native.EvaluationWeights(), native.EvaluationGame()
    with pytest.raises(ValueError, match="evaluation_total: this game state belongs"):
        native.evaluation_total(duel.model, skirmish.native, 0, weights, game)
    legal = native.legal_decisions(skirmish.model, skirmish.native)
    with pytest.raises(ValueError, match="mcts_choose: this game state belongs"):
        native.mcts_choose(
            duel.model,
            skirmish.native,
            legal,
            native.seeded_pcg64([3]),
            4,
            4,
            1.0,
            1.0,
            weights,
            game,
        )
