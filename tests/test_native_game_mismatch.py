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
    from riven_env.game.setup import new_game
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
    from riven_env.game.setup import new_game
    from riven_env.native.loop import GameMismatchError, NativeGameState

    small = new_game("skirmish-5v5", seed=1, engine="native")
    other = new_game("skirmish-5v5-mirror", seed=1, engine="native")
    with pytest.raises(GameMismatchError):
        NativeGameState(other.native, small.model, small.start_state)
