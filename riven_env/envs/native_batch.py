"""The native batch (``riven_env._native.BatchEnv``, ``cpp/riven/envs/batch.cpp``) built for a
:class:`~riven_env.envs.gym_env.RivenSkirmishEnv`'s settings, and its output arrays.

Two users: :class:`~riven_env.envs.vector.RivenVectorEnv` (N games, SAME_STEP auto-reset) and
the single environment on the native engine (one game, no auto-reset: a whole step in one
native call, ``RivenSkirmishEnv`` with ``engine="native"`` and the random or Oracle opponent).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from riven_env.encoding.layout import SIDES


def build_native_batch(env: Any, learner_side: str, games: int) -> tuple[Any, Any]:
    """The core batch of ``games`` games with ``env``'s scenario, rules, encoder and rewards.

    Args:
        env: A RivenSkirmishEnv (its first mission, encoder, catalogue and config are used).
        learner_side: ``"blue"``, ``"red"`` or ``"random"`` (drawn per game).
        games: How many games the batch steps.

    Returns:
        ``(batch, template)``: the ``BatchEnv`` and the Python state it was built from (a new
        game of the scenario, for the Python view of a native state).
    """
    from riven_env.game.setup import prepare_game
    from riven_env.native import load
    from riven_env.native.encoding import NativeCatalogue, NativeEncoder
    from riven_env.native.game import to_native
    from riven_env.native.loop import forward_model

    native = load()
    templates = []
    for side in SIDES:
        state = prepare_game(env.scenario, 0, rules=env.rules)
        state.first_side = state.side = side
        state.drain_events()
        templates.append(state)
    model = forward_model(templates[0])
    encoder = NativeEncoder(env.encoder).native(templates[0])
    catalogue = NativeCatalogue(env.catalogue, templates[0]).native
    config = env.config
    rewards = native.RewardConfig()
    rewards.win, rewards.loss, rewards.draw = config.win, config.loss, config.draw
    rewards.shaping_points = config.shaping_points
    rewards.shaping_wounds = config.shaping_wounds
    rewards.shaping_casualties = config.shaping_casualties
    rewards.raise_illegal = config.illegal_policy == "raise"
    rewards.illegal_penalty = config.illegal_penalty
    rewards.max_learner_steps = config.max_learner_steps
    side = -1 if learner_side == "random" else SIDES.index(learner_side)
    natives = [to_native(t) for t in templates]
    batch = native.BatchEnv(
        model,
        encoder,
        catalogue,
        natives,
        -1 if env.scenario.first_side == "roll" else SIDES.index(env.scenario.first_side),
        rewards,
        side,
        games,
        # The core's router needs no Python: the batch then steps with the GIL released
        # throughout; a Python planner (diagnosis) takes the GIL back for each route.
        python_planner=not model.native_planner,
    )
    if env.entity_encoder is not None:  # entity rows: flat, the pair block, the mask
        from riven_env.envs.native_obs import native_pair_encoder

        batch.set_pair_encoder(native_pair_encoder(env.entity_encoder, natives[0].statics))
    if env.opponent != "random":  # an Oracle spec: the core decides the opponent's turns
        batch.set_oracle(oracle_game(env.opponent, templates[0]))
    return batch, templates[0]


def oracle_game(spec: str, state: Any) -> Any:
    """The core's Enemy Oracle of the agent spec ``spec`` (``oracle[:PROFILE]``) for ``state``'s game.

    One ``OracleGame`` serves every game of the batch and either side: it holds the profile of
    every model and of both sides (a forced profile on all of them).

    Raises:
        EnvArgumentError: A profile the scenario names is not in the Oracle data.
    """
    from riven_agents.oracle.native import native_oracle_game
    from riven_agents.registry import make_agent

    from riven_env.envs.errors import EnvArgumentError

    agent = make_agent(spec, SIDES[0], 0)
    game = native_oracle_game(agent, state).core
    if min(game.model_profile, default=0) < 0 or min(game.side_profile) < 0:
        raise EnvArgumentError(
            f"opponent={spec!r}: the scenario names an Oracle profile the data lacks; "
            "use backend='python' to see the Oracle's error"
        )
    return game


class BatchArrays:
    """The preallocated outputs of a batch of ``n`` games (what ``reset``/``step`` fill).

    Args:
        n: Games.
        width: The size of an observation row (``BatchEnv.row_size``: the flat vector, and in
            entity mode the pair block and the mask).
        actions: The catalogue's size.
    """

    def __init__(self, n: int, width: int, actions: int) -> None:
        self.obs = np.zeros((n, width), dtype=np.float32)
        self.final_obs = np.zeros((n, width), dtype=np.float32)
        self.mask = np.zeros((n, actions), dtype=np.uint8)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.uint8)
        self.truncated = np.zeros(n, dtype=np.uint8)
        self.illegal = np.zeros(n, dtype=np.uint8)
        self.sides = np.zeros(n, dtype=np.int8)
        self.winner = np.zeros(n, dtype=np.int8)

    def outputs(self) -> tuple[np.ndarray, ...]:
        """The arrays in the order ``BatchEnv.reset``/``step``/``restart`` take them."""
        return (
            self.obs,
            self.mask,
            self.rewards,
            self.terminated,
            self.truncated,
            self.illegal,
            self.final_obs,
            self.sides,
            self.winner,
        )


def single_game_refusal(env: Any) -> str | None:
    """Why ``env`` (a RivenSkirmishEnv) cannot step in one native call now (None when it can).

    The native step plays the opponent from its spec (``"random"`` or ``"oracle[:PROFILE]"``,
    as the batch does), flat, dict or entity observations without the raster, one mission, and
    no event lists.
    """
    if env.engine != "native":
        return f"engine={env.engine!r}"
    if not isinstance(env.opponent, str) or not _core_opponent(env.opponent):
        return f"opponent={env.opponent!r} (the core plays 'random' and 'oracle[:PROFILE]')"
    if env.encoder.raster:
        return "raster=True (the core encodes flat, dict or entity without the raster)"
    if len(env.missions) != 1:
        return "a list of missions"
    if env.include_events:
        return "include_events=True (the core's step keeps no event list)"
    return None


def _core_opponent(spec: str) -> bool:
    """Whether the core plays the opponent ``spec`` itself (the random agent or the Oracle)."""
    return spec == "random" or spec == "oracle" or spec.startswith("oracle:")


class NativeSingleGame:
    """One game of a RivenSkirmishEnv stepped by the core in one call per step.

    A ``BatchEnv`` of one game without auto-reset: the learner's action, the opponent's
    turns, the reward, the observation and the mask all happen in the core, written into
    preallocated arrays. The environment's stream (``np_random``) crosses the seam at each reset
    (its draws, the game seed and the learner's side, are the core's, as the Python env's).

    Every call into the batch holds :attr:`guard` (one thread at a time: a second thread gets
    ``RuntimeError``, riven_env/native/guard.py). The game records how it started and the
    learner's actions since (:meth:`record`), so that an environment pickles mid-game: its
    copy builds a new batch and replays them (:meth:`replay`; the dice are seeded, so the copy
    is the same game, byte for byte).

    Args:
        env: The RivenSkirmishEnv.
        learner_setting: ``"blue"``, ``"red"`` or ``"random"``.
    """

    def __init__(self, env: Any, learner_setting: str) -> None:
        from riven_env.native import load
        from riven_env.native.guard import NativeGuard
        from riven_env.native.loop import forward_model

        self.guard = NativeGuard()
        self.learner_setting = learner_setting
        self.batch, self.template = build_native_batch(env, learner_setting, 1)
        self.opponent = env.opponent
        self.batch.set_autoreset(False)
        self.arrays = BatchArrays(1, self.batch.row_size, self.batch.actions)
        self._outputs = self.arrays.outputs()
        self.model = forward_model(self.template)
        self._actions = np.zeros(1, dtype=np.int64)
        # The action and the outputs cross the seam once, here: a step passes only this.
        self._buffers = load().BatchBuffers(self._actions, *self._outputs)
        self._state: Any = None
        self.entity_rows: Any = None  # the env's EntityRows (entity observations), built once
        # How this game started (the opponent, the seed or the env stream's state before the
        # reset) and the learner's actions since: what a pickled environment replays.
        self._started: tuple[str, Any, Any] | None = None
        self._actions_played: list[int] = []

    def use_opponent(self, spec: str) -> None:
        """Play ``spec`` (``"random"`` or ``"oracle[:PROFILE]"``) from the next reset on."""
        if spec != self.opponent:
            oracle = None if spec == "random" else oracle_game(spec, self.template)
            with self.guard:
                self.batch.set_next_opponent([0], oracle)
            self.opponent = spec

    def reset(self, seed: int | None, np_random: np.random.Generator) -> np.random.Generator:
        """Start a game (with ``seed`` as its game seed, else one drawn from ``np_random``).

        Returns:
            The environment stream after the reset's draws (the env's new ``np_random``).
        """
        from riven_env.native.random import native_stream, to_generator

        with self.guard:
            if seed is not None:
                started: tuple[str, Any, Any] = (self.opponent, "seed", int(seed))
                self.batch.reset(np.array([seed], dtype=np.uint64), *self._outputs)
            else:
                started = (self.opponent, "stream", np_random.bit_generator.state)
                self.batch.set_env_rng(0, native_stream(np_random))
                self.batch.restart(0, *self._outputs)
            self._started, self._actions_played = started, []
            self._state = None
            return to_generator(self.batch.env_rng(0))

    def decision_label(self, index: int) -> str:
        """``str`` of the learner's legal decision at catalogue ``index`` (written by the core)."""
        with self.guard:
            return self.batch.decision_label(0, index)

    def step(self, index: int) -> None:
        """One learner action (a catalogue index), the opponent's reply, into :attr:`arrays`."""
        with self.guard:
            self._actions[0] = index
            self.batch.step_into(self._buffers)
            self._actions_played.append(int(index))
            self._state = None

    def state(self) -> Any:
        """The game now as a NativeGameState (a copy, made when asked for)."""
        with self.guard:
            if self._state is None:
                from riven_env.native.loop import NativeGameState

                self._state = NativeGameState(self.batch.state(0), self.model, self.template)
            return self._state

    @property
    def game_seed(self) -> int:
        with self.guard:
            return int(self.batch.game_seed(0))

    def record(self) -> dict[str, Any]:
        """What :meth:`replay` needs to play this game again: its start and the actions since."""
        with self.guard:
            return {
                "learner_setting": self.learner_setting,
                "opponent": self.opponent,
                "started": self._started,
                "actions": list(self._actions_played),
            }

    def replay(self, record: dict[str, Any]) -> None:
        """Play the game of ``record`` (:meth:`record` of another game of the same env) again."""
        started = record["started"]
        if started is not None:
            opponent, how, value = started
            self.use_opponent(opponent)
            if how == "seed":
                self.reset(value, np.random.default_rng(0))
            else:
                rng = np.random.default_rng(0)
                rng.bit_generator.state = value
                self.reset(None, rng)
            for index in record["actions"]:
                self.step(index)
        self.use_opponent(record["opponent"])
