"""A PettingZoo AEC environment of RIVEN: both sides learn.

Agents are ``"blue"`` and ``"red"``; ``agent_selection`` is whichever side must decide (a
side may decide many times in a row: several activations, actions and spends per turn).
Each agent observes ``{"observation": float32 vector, "action_mask": int8 vector}``: the
same side-relative encoder and action catalogue as ``riven/Skirmish-v0`` (flat mode), the
mask all zeros for the agent not to play. Rewards, the round-limit truncation and the
illegal-action policy are those of the Gymnasium environment (``docs/environments.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from riven_env.encoding.layout import SIDES
from riven_env.engines import new_game
from riven_env.envs.config import EnvConfig, build_env_parts, check_render_mode
from riven_env.envs.gym_env import DEFAULT_SCENARIO, _as_index
from riven_env.envs.render import render_ansi, render_rgb
from riven_env.envs.rewards import ended_by_round_limit, outcome_reward, potential
from riven_env.envs.spaces import mask_space
from riven_env.errors import IllegalActionError
from riven_env.native.guard import ENV_THREAD_MESSAGE, NativeGuard, one_thread

_SEED_BOUND = 2**62


class RivenAECEnv(AECEnv):
    """Two learning sides on one RIVEN game (PettingZoo AEC API).

    Args:
        scenario: A bundled scenario name, a TOML path or a loaded Scenario.
        settings: Overrides of ``env.toml`` as dotted keys.
        illegal_action: Shortcut for ``settings["illegal.policy"]``.
        rules_overrides: Rules data overrides.
        models_per_side: Model slots per side.
        objectives: Objective slots.
        render_mode: ``"rgb_array"``, ``"ansi"`` or None.
        engine: ``"auto"``, ``"python"`` or ``"native"`` (None: the process default,
            ``--engine``); ``auto`` settles on native where the core can play the scenario
            (:attr:`engine` says which).
    """

    metadata = {
        "render_modes": ["rgb_array", "ansi"],
        "name": "riven_skirmish_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: Any = DEFAULT_SCENARIO,
        *,
        settings: Mapping[str, Any] | None = None,
        illegal_action: str | None = None,
        rules_overrides: Mapping[str, object] | None = None,
        models_per_side: int | None = None,
        objectives: int | None = None,
        render_mode: str | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__()
        from riven_env.engines import pick_engine, resolve_engine

        # One thread at a time, on either engine (the core and GEOS are not thread-safe).
        self._guard = NativeGuard(ENV_THREAD_MESSAGE)

        self.engine = resolve_engine(engine)
        check_render_mode(render_mode, self.metadata["render_modes"])
        parts = build_env_parts(
            scenario,
            settings=settings,
            illegal_action=illegal_action,
            rules_overrides=rules_overrides,
            models_per_side=models_per_side,
            objectives=objectives,
        )
        self.config: EnvConfig = parts.config
        self.rules = parts.rules
        self.scenario = parts.scenario
        self.engine = pick_engine(self.engine, [(self.scenario, self.rules)])
        self.encoder = parts.encoder
        self.catalogue = parts.catalogue
        self.render_mode = render_mode
        self._native_encoder: Any = None
        if self.engine == "native":
            from riven_env.envs.native_obs import NativeFlatEncoder

            self._native_encoder = NativeFlatEncoder(self.encoder)
        self.possible_agents = list(SIDES)
        observation = spaces.Box(-1.0, 1.0, shape=(self.encoder.flat_size,), dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict(
                {"observation": observation, "action_mask": mask_space(self.catalogue.size)}
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.catalogue.size) for agent in self.possible_agents
        }
        self.state = None
        self.game_seed: int | None = None
        self._rng: np.random.Generator | None = None
        self._legal_index: dict[int, Any] = {}
        self._potentials: dict[str, float] = {}
        self._decisions = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    @one_thread
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game; ``reset(seed=7)`` plays ``new_game(scenario, 7)``."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = int(self._rng.integers(0, _SEED_BOUND))
        self.game_seed = game_seed
        self.state = new_game(self.scenario, game_seed, rules=self.rules, engine=self.engine)
        self.state.drain_events()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"decision": ""} for agent in self.agents}
        self._potentials = {a: potential(self.state, a, self.config) for a in self.agents}
        self._decisions = 0
        self.agent_selection = self.state.current_side
        self._refresh_legal()

    @one_thread
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self.catalogue.size, dtype=np.int8)
        if agent == self.agent_selection and not self.state.is_terminal:
            mask[list(self._legal_index)] = 1
        encoder = self._native_encoder or self.encoder
        return {"observation": encoder.encode_flat(self.state, agent), "action_mask": mask}

    @one_thread
    def step(self, action: Any) -> None:
        """Apply the selected agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._decisions += 1
        index = _as_index(action)
        decision = self._legal_index.get(index) if index is not None else None
        if decision is None:
            self._illegal(agent, action, index)
            return
        self.state.apply(decision)
        self.state.drain_events()
        self.infos[agent] = {"decision": str(decision)}
        for a in self.agents:
            new_potential = potential(self.state, a, self.config)
            self.rewards[a] = outcome_reward(self.state, a, self.config) + (
                new_potential - self._potentials[a]
            )
            self._potentials[a] = new_potential
        if self.state.is_terminal:
            ended_at_limit = ended_by_round_limit(self.state)
            for a in self.agents:
                self.terminations[a] = not ended_at_limit
                self.truncations[a] = ended_at_limit
                self.infos[a] = {**self.infos[a], "result": self.state.result}
        elif self._decisions >= self.config.max_learner_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._refresh_legal()
        self._accumulate_rewards()
        if not self.state.is_terminal:
            self.agent_selection = self.state.current_side

    def render(self) -> Any:
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self.state, self.config.pixels_per_inch)
        return render_ansi(
            self.state, self.config.ansi_columns_per_inch, self.config.ansi_rows_per_inch
        )

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ internals
    def _refresh_legal(self) -> None:
        self._legal_index = {} if self.state.is_terminal else self.catalogue.legal_index(self.state)

    def _illegal(self, agent: str, action: Any, index: int | None) -> None:
        if self.config.illegal_policy == "raise":
            if index is not None:
                self.catalogue.decode(index, self.state)  # raises, naming the entry
            raise IllegalActionError(
                f"action {action!r}", self.state.legal_decisions(), "not a legal catalogue index"
            )
        self.rewards[agent] = self.config.illegal_penalty
        self.infos[agent] = {"decision": f"illegal: {action!r}", "illegal_action": True}
        if self._decisions >= self.config.max_learner_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()


def env(**kwargs: Any) -> AECEnv:
    """A :class:`RivenAECEnv` wrapped in PettingZoo's order-enforcing checks."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(RivenAECEnv(**kwargs))
