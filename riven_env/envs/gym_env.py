"""``riven/Skirmish-v0``: one learner against any agent, as a Gymnasium environment.

The learner plays one side of a scenario; an opponent (any agent, a pool of agents, or a
trained policy) plays the other. A step applies the learner's decision and then lets the
opponent play until it is the learner's turn to decide again or the game is over, so every
observation is a decision point of the learner.

* Actions: ``Discrete(catalogue.size)`` over :class:`~riven_env.encoding.ActionCatalogue`;
  the legal ones are ``env.action_masks()`` (bool, what sb3-contrib's MaskablePPO calls) and
  ``info["action_mask"]`` (int8, what ``action_space.sample(mask=...)`` takes).
* Observations: :class:`~riven_env.encoding.ObservationEncoder` output, as a ``Dict`` (default)
  or one flat ``Box`` (``obs_mode="flat"``); ``raster=True`` adds a ``(C, R, R)`` image
  (Dict mode only). ``obs_mode="entity"`` (what ``riven/Skirmish-v1`` uses) is the
  :class:`~riven_env.encoding.entity.EntityEncoder` Dict: the same blocks plus ``pairs``,
  ``terrain`` and the ``action_mask``.
* Missions: ``scenario`` may be a list of missions (bundled names, paths, loaded scenarios or
  ``generated:KIND:SEED``); each episode draws one from the environment's random stream.
  They share one padding (the largest side, objectives and terrain of the list), so one
  policy plays them all.
* Rewards (``riven_env/envs/data/env.toml``, overridable with ``settings=``): the result
  (win / loss / draw) on the last step, plus optional potential-based shaping.
* ``terminated`` when the game ends with a result before the round limit; ``truncated`` when it
  ends at the round limit (the result is still paid) or after ``episode.max_learner_steps``.
* Illegal actions: ``illegal.policy = "raise"`` (IllegalActionError) or ``"penalise"``
  (ignored, ``illegal.penalty`` paid, ``info["illegal_action"] = True``).

See ``docs/environments.md`` for every feature and catalogue entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from riven_env.encoding.layout import SIDES, enemy_of
from riven_env.engines import new_game
from riven_env.envs.config import (  # noqa: F401  (load_scenario_for: re-exported)
    EnvConfig,
    build_missions,
    check_render_mode,
    load_scenario_for,
)
from riven_env.envs.errors import EnvArgumentError
from riven_env.envs.opponents import describe, episode_opponent
from riven_env.envs.render import render_ansi, render_rgb
from riven_env.envs.rewards import ended_by_round_limit, outcome_reward, potential
from riven_env.envs.spaces import observation_space
from riven_env.errors import IllegalActionError, RivenError
from riven_env.game import GameState
from riven_env.game.runner import agent_seeds
from riven_env.native.guard import ENV_THREAD_MESSAGE, NativeGuard, one_thread

DEFAULT_SCENARIO = "skirmish-5v5"
DEFAULT_OPPONENT = "oracle"
LEARNER_SIDES = (*SIDES, "random")
OBS_MODES = ("dict", "flat", "entity")
# Game seeds drawn when reset() gets no seed stay below this (any int64 works for the game).
_SEED_BOUND = 2**62
# A scenario that ends before the learner's first decision is restarted with the next seed
# (never seen in the bundled missions); this bounds the retries.
_MAX_EMPTY_GAMES = 16


class RivenSkirmishEnv(gym.Env):
    """A RIVEN game with one learning side.

    Args:
        scenario: A bundled scenario name, a TOML path or a loaded Scenario.
        opponent: The other side: an agent spec (``"oracle"``, ``"random"``, ``"ppo:PATH"``),
            an :class:`~riven_env.envs.opponents.OpponentPool` or an agent object.
        learner_side: ``"blue"``, ``"red"`` or ``"random"`` (drawn per episode).
        obs_mode: ``"dict"`` or ``"flat"``.
        raster: Add the ``raster`` image to Dict observations.
        settings: Overrides of ``env.toml`` as dotted keys (``{"shaping.points": 0.05}``).
        illegal_action: Shortcut for ``settings["illegal.policy"]``.
        rules_overrides: Rules data overrides for every game (``{"turnover": "sbh"}``).
        models_per_side: Model slots per side (pad to share a policy across scenarios).
        objectives: Objective slots.
        include_events: Put each step's game events in ``info["events"]`` (slower).
        render_mode: ``"rgb_array"``, ``"ansi"`` or None.
        engine: ``"auto"``, ``"python"`` or ``"native"``: the game engine of every episode
            (:func:`~riven_env.engines.new_game`; None: the process default, ``--engine``);
            ``auto`` settles on native when the core can play every mission, else python
            (:attr:`engine` says which). On the native engine flat and dict observations are
            encoded by the core.

    Raises:
        EnvArgumentError: A bad argument.
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        scenario: Any = DEFAULT_SCENARIO,
        opponent: Any = DEFAULT_OPPONENT,
        *,
        learner_side: str = "blue",
        obs_mode: str = "dict",
        raster: bool = False,
        settings: Mapping[str, Any] | None = None,
        illegal_action: str | None = None,
        rules_overrides: Mapping[str, object] | None = None,
        models_per_side: int | None = None,
        objectives: int | None = None,
        include_events: bool = False,
        render_mode: str | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__()
        from riven_env.engines import pick_engine, resolve_engine

        # reset and step hold it: one thread at a time, else RuntimeError (never a crash).
        self._guard = NativeGuard(ENV_THREAD_MESSAGE)

        self.engine = resolve_engine(engine)
        self._native_encoder: Any = None
        # The whole step in one native call (riven_env/envs/native_batch.py) when the settings
        # allow it (native engine, random opponent, flat, dict or entity): built at reset.
        self._native_game: Any = None
        self._native_live = False
        self._native_over = False
        self._state: GameState | None = None
        if learner_side not in LEARNER_SIDES:
            raise EnvArgumentError(
                f"learner_side={learner_side!r}: expected one of {list(LEARNER_SIDES)}"
            )
        if obs_mode not in OBS_MODES:
            raise EnvArgumentError(f"obs_mode={obs_mode!r}: expected one of {list(OBS_MODES)}")
        if raster and obs_mode != "dict":
            raise EnvArgumentError("raster=True needs obs_mode='dict' (the image is not flattened)")
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.missions = build_missions(
            scenario,
            settings=settings,
            illegal_action=illegal_action,
            rules_overrides=rules_overrides,
            models_per_side=models_per_side,
            objectives=objectives,
            raster=raster,
            entity=obs_mode == "entity",
        )
        self.engine = pick_engine(self.engine, [(m.scenario, m.rules) for m in self.missions])
        self._use_mission(0)
        parts = self.missions[0]
        self.config: EnvConfig = parts.config
        self.rules = parts.rules
        self.opponent = opponent
        self.learner_side_setting = learner_side
        self.obs_mode = obs_mode
        self.include_events = include_events
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.catalogue.size)
        self.observation_space = observation_space(
            self.entity_encoder if obs_mode == "entity" else self.encoder, obs_mode
        )
        self.state = None
        self.learner_side = "blue" if learner_side == "random" else learner_side
        self.game_seed: int | None = None
        self._opponent_agent: Any = None
        self._opponent_name = describe(opponent)
        self._mask = np.zeros(self.catalogue.size, dtype=bool)
        self._legal_index: dict[int, Any] = {}
        self._potential = 0.0
        self._steps = 0

    # ------------------------------------------------------------------ gymnasium API
    @one_thread
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a game.

        Args:
            seed: Seeds the environment's stream; the first game uses ``seed`` itself as its
                game seed (so ``reset(seed=7)`` plays the game ``new_game(scenario, 7)``).
            options: ``{"opponent": ...}`` replaces the opponent from this episode on;
                ``{"learner_side": ...}`` the side setting.

        Returns:
            ``(observation, info)``.
        """
        if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**64):
            # The core holds a game seed as a 64-bit unsigned integer: refuse, never overflow.
            raise EnvArgumentError(f"seed={seed!r}: expected an integer in [0, {2**64 - 1}]")
        super().reset(seed=seed)
        options = options or {}
        if "opponent" in options:
            self.set_opponent(options["opponent"])
        if "learner_side" in options:
            side = options["learner_side"]
            if side not in LEARNER_SIDES:
                raise EnvArgumentError(
                    f"options['learner_side']={side!r}: expected one of {list(LEARNER_SIDES)}"
                )
            self.learner_side_setting = side
        if self._native_step_ready():
            return self._native_reset(seed)
        self._native_live = False
        game_seed = int(seed) if seed is not None else self._draw_seed()
        events: list[dict] = []
        for _ in range(_MAX_EMPTY_GAMES):
            events = self._start_game(game_seed)
            if not self.state.is_terminal:
                break
            game_seed = self._draw_seed()
        else:
            raise RivenError(
                f"scenario {self.scenario.name!r}: {_MAX_EMPTY_GAMES} games in a row ended "
                "before the learner's first decision"
            )
        self._steps = 0
        self._potential = potential(self.state, self.learner_side, self.config)
        return self._observe(), self._info("", events, illegal=False)

    @one_thread
    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then let the opponent play to the learner's next turn.

        Raises:
            ResetNeeded: No game is running (call ``reset``).
            IllegalActionError: A masked-out action under ``illegal.policy = "raise"``.
        """
        if self._native_live:
            return self._native_step(action)
        state = self.state
        if state is None or state.is_terminal:
            raise ResetNeeded("the game is over or not started: call reset() first")
        self._steps += 1
        index = _as_index(action)
        decision = self._legal_index.get(index) if index is not None else None
        if decision is None:
            return self._illegal(action)
        events = state.apply(decision)
        events += self._play_opponent()
        reward = outcome_reward(state, self.learner_side, self.config)
        new_potential = potential(state, self.learner_side, self.config)
        reward += new_potential - self._potential
        self._potential = new_potential
        terminated = state.is_terminal and not ended_by_round_limit(state)
        truncated = ended_by_round_limit(state) or (
            not state.is_terminal and self._steps >= self.config.max_learner_steps
        )
        return (
            self._observe(),
            float(reward),
            bool(terminated),
            bool(truncated),
            self._info(str(decision), events, illegal=False),
        )

    def action_masks(self) -> np.ndarray:
        """The legal actions now (bool array of the catalogue's size): MaskablePPO's hook."""
        return self._mask.copy()

    def render(self) -> Any:
        """The current game as an RGB array or a text board (per ``render_mode``)."""
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self.state, self.config.pixels_per_inch)
        return render_ansi(
            self.state, self.config.ansi_columns_per_inch, self.config.ansi_rows_per_inch
        )

    # ------------------------------------------------------------------ extras
    def set_opponent(self, opponent: Any) -> None:
        """Replace the opponent from the next episode on (a spec, a pool or an agent).

        Vectorised training calls it through ``VecEnv.env_method("set_opponent", ...)``.
        """
        self.opponent = opponent
        self._opponent_name = describe(opponent)

    @property
    def opponent_name(self) -> str:
        """The spec of this episode's opponent (the drawn one for a pool)."""
        return self._opponent_name

    @property
    def state(self) -> GameState | None:
        """The game now (on the one-call native step: a NativeGameState copy, made when read)."""
        if self._native_live:
            return self._native_game.state()
        return self._state

    @state.setter
    def state(self, value: GameState | None) -> None:
        self._native_live = False
        self._state = value

    # ------------------------------------------------------------------ pickle and deepcopy
    def __getstate__(self) -> dict[str, Any]:
        # The one-call native step's batch does not pickle: its record does (how the game
        # started and the learner's actions since), and the copy replays it (__setstate__).
        state = self.__dict__.copy()
        game = state.get("_native_game")
        if game is not None:
            state["_native_game"] = None
            state["_native_record"] = game.record()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        record = state.pop("_native_record", None)
        self.__dict__.update(state)
        if record is not None:
            from riven_env.envs.native_batch import NativeSingleGame

            game = NativeSingleGame(self, record["learner_setting"])
            game.replay(record)
            self._native_game = game

    # ------------------------------------------------------------------ the one-call native step
    def _native_step_ready(self) -> bool:
        """Build (or keep) the one-call native step when this episode's settings allow it."""
        from riven_env.envs.native_batch import NativeSingleGame, single_game_refusal

        if single_game_refusal(self) is not None:
            self._native_game = None
            return False
        found = self._native_game
        if found is None or found.learner_setting != self.learner_side_setting:
            self._native_game = NativeSingleGame(self, self.learner_side_setting)
        else:  # set_opponent may have named another opponent the core plays
            found.use_opponent(self.opponent)
        return True

    def _native_reset(self, seed: int | None) -> tuple[Any, dict[str, Any]]:
        """reset() on the core: the same streams, game and first observation as the Python path."""
        game = self._native_game
        self._np_random = game.reset(None if seed is None else int(seed), self.np_random)
        self._state = None
        self._native_live = True
        self._opponent_agent = None
        self._opponent_name = self.opponent
        arrays = game.arrays
        self.learner_side = SIDES[int(arrays.sides[0])]
        self.game_seed = game.game_seed
        self._steps = 0
        self._native_over = False
        self._mask = arrays.mask[0].astype(bool)
        return self._native_obs(arrays.obs), self._info("", [], illegal=False)

    def _native_step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """step() on the core: learner action, opponent, reward, observation and mask in one call."""
        if self._native_over:
            raise ResetNeeded("the game is over or not started: call reset() first")
        game = self._native_game
        arrays = game.arrays
        self._steps += 1
        index = _as_index(action)
        size = self.catalogue.size
        legal = index is not None and 0 <= index < size and bool(arrays.mask[0, index])
        if legal:
            label = game.decision_label(index)
        elif self.config.illegal_policy == "raise":
            state = game.state()
            if index is not None:
                self.catalogue.decode(index, state)  # raises, naming the catalogue entry
            raise IllegalActionError(
                f"action {action!r}", state.legal_decisions(), "not a legal catalogue index"
            )
        else:
            in_range = index is not None and 0 <= index < size
            label = "illegal: " + (self.catalogue.labels[index] if in_range else repr(action))
        # An index outside the catalogue (2**63 included) goes to the core as -1: illegal.
        game.step(index if index is not None and 0 <= index < size else -1)
        terminated = bool(arrays.terminated[0])
        truncated = bool(arrays.truncated[0])
        # Over: terminated, or truncated at the round limit (not by the learner-step cap).
        # (the learner always has a legal decision in a game not over).
        self._native_over = terminated or (truncated and not arrays.mask[0].any())
        self._mask = arrays.mask[0].astype(bool)
        info = self._info(label, [], illegal=not legal)
        return self._native_obs(arrays.obs), float(arrays.rewards[0]), terminated, truncated, info

    def _native_obs(self, flat: np.ndarray) -> Any:
        if self.obs_mode == "flat":
            return flat[0].copy()
        if self.obs_mode == "entity":
            game = self._native_game
            if game.entity_rows is None:
                from riven_env.envs.native_obs import EntityRows

                game.entity_rows = EntityRows(self.entity_encoder, game.template.table)
            obs = game.entity_rows.split(flat[:1], game.arrays.sides[:1])
            return {key: value[0] for key, value in obs.items()}
        enc = self.encoder
        split_models, split_objectives = enc._flat_splits
        row = flat[0].copy()
        return {
            "models": row[:split_models].reshape(enc._models_shape),
            "objectives": row[split_models:split_objectives].reshape(enc._objectives_shape),
            "global": row[split_objectives:],
        }

    # ------------------------------------------------------------------ internals
    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, _SEED_BOUND))

    def _use_mission(self, k: int) -> None:
        """Play mission ``k`` of :attr:`missions` from now on."""
        parts = self.missions[k]
        self.mission_index = k
        self.scenario = parts.scenario
        self.encoder = parts.encoder
        self.catalogue = parts.catalogue
        self.entity_encoder = parts.entity_encoder
        self._native_encoder = None
        if self.engine == "native" and self.entity_encoder is not None:
            from riven_env.envs.native_obs import NativeEntityEncoder

            self._native_encoder = NativeEntityEncoder(self.entity_encoder)
        elif self.engine == "native" and not self.encoder.raster:
            from riven_env.envs.native_obs import NativeFlatEncoder

            self._native_encoder = NativeFlatEncoder(self.encoder)

    def _start_game(self, game_seed: int) -> list[dict]:
        self.game_seed = game_seed
        if len(self.missions) > 1:
            self._use_mission(int(self.np_random.integers(0, len(self.missions))))
        if self.learner_side_setting == "random":
            self.learner_side = SIDES[int(self.np_random.integers(0, 2))]
        else:
            self.learner_side = self.learner_side_setting
        self.state = new_game(self.scenario, game_seed, rules=self.rules, engine=self.engine)
        opponent_side = enemy_of(self.learner_side)
        self._opponent_agent, self._opponent_name = episode_opponent(
            self.opponent, opponent_side, agent_seeds(game_seed)[opponent_side], self.np_random
        )
        events = self.state.drain_events()
        if not self.include_events:
            events = []
        events += self._play_opponent()
        return events

    def _play_opponent(self) -> list[dict]:
        """Let the opponent decide until the learner must decide or the game ends."""
        state = self.state
        agent = self._opponent_agent
        events: list[dict] = []
        while not state.is_terminal and state.current_side != self.learner_side:
            legal = state.legal_decisions()
            decision = agent.act(state, legal)
            if not _among(decision, legal):
                raise IllegalActionError(
                    decision, legal, f"opponent {self._opponent_name} for {state.current_side}"
                )
            new_events = state.apply(decision)
            if self.include_events:
                events += new_events
        if not state.is_terminal:
            legal = state.legal_decisions()
            self._legal_index = self.catalogue.legal_index(state, legal)
            self._mask = np.zeros(self.catalogue.size, dtype=bool)
            self._mask[list(self._legal_index)] = True
        else:
            self._legal_index = {}
            self._mask = np.zeros(self.catalogue.size, dtype=bool)
        return events

    def _illegal(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.state
        index = _as_index(action)
        if self.config.illegal_policy == "raise":
            if index is not None:
                self.catalogue.decode(index, state)  # raises, naming the catalogue entry
            raise IllegalActionError(
                f"action {action!r}", state.legal_decisions(), "not a legal catalogue index"
            )
        truncated = self._steps >= self.config.max_learner_steps
        in_range = index is not None and 0 <= index < self.catalogue.size
        label = self.catalogue.labels[index] if in_range else repr(action)
        info = self._info(f"illegal: {label}", [], illegal=True)
        return self._observe(), float(self.config.illegal_penalty), False, truncated, info

    def _observe(self) -> Any:
        side = self.learner_side
        if self._native_encoder is not None:
            if self.obs_mode == "entity":
                return self._native_encoder.encode(self.state, side, self._mask)
            if self.obs_mode == "flat":
                return self._native_encoder.encode_flat(self.state, side)
            return self._native_encoder.encode(self.state, side)
        if self.obs_mode == "flat":
            return self.encoder.encode_flat(self.state, side)
        if self.obs_mode == "entity":
            return self.entity_encoder.encode(self.state, side, self._mask)
        return self.encoder.encode(self.state, side)

    def _info(self, decision: str, events: list[dict], *, illegal: bool) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask.astype(np.int8),
            "decision": decision,
            "learner_side": self.learner_side,
            "opponent": self._opponent_name,
            "illegal_action": illegal,
            "mission": self.scenario.name,
        }
        if self.include_events:
            info["events"] = events
        if self._native_live:  # reading self.state would copy the core's state each step
            if self._native_over:
                info["result"] = self._native_game.state().result
        elif self.state is not None and self.state.is_terminal:
            info["result"] = self.state.result
        return info


def _among(decision: Any, legal: list[Any]) -> bool:
    """``decision in legal``, trying identity first: agents return one of the very objects
    they were offered, and comparing field by field is what costs."""
    for offered in legal:
        if offered is decision:
            return True
    return decision in legal


def _as_index(action: Any) -> int | None:
    """The integer in ``action`` (an int or a 0-d / 1-element array), or None."""
    if type(action) is int:  # the common case, without building an array
        return action
    try:
        array = np.asarray(action)
        if array.size != 1 or not np.issubdtype(array.dtype, np.integer):
            return None
        return int(array.reshape(()))
    except (TypeError, ValueError):
        return None
